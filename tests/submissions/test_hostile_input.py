"""Hostile input on hands: invisible and control characters in hand names, BBCode in names, and the secret
replies of the API kept out of every cache."""

import pytest
from django.utils import timezone

from accounts.models import Profile
from rounds.services import leagues as round_services
from submissions import services
from submissions.models import Hand
from tests import builders

from .conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db

IMG = "[img]http://evil.example/x.png[/img]"
BREAKOUT = "[/code][url=http://evil.example]click[/url]"


def url(round_):
    return f"/api/rounds/{round_.pk}/my-hand/"


def test_hand_names_lose_bidi_overrides_and_zero_width_characters(api_client, open_round, alice):
    api_client.force_authenticate(alice)
    name = "Evil\u202egnp.exe\u202c \u200bHand\u200d\u2066 of\ufeff\u2069 Kjeld\u00ad"
    response = api_client.put(url(open_round), {"name": name, "cards": KJELD, "attest": True}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Evilgnp.exe Hand of Kjeld"
    assert Hand.objects.get().name == "Evilgnp.exe Hand of Kjeld"


def test_renaming_a_hand_cleans_the_name_too(open_round, alice, moderator):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    hand = Hand.objects.get()
    services.declare_not_playing(moderator=moderator, round_id=open_round.pk)
    services.review_hand(actor=moderator, hand_id=hand.pk, action="rename", name="\u202eNew\u200b name")
    hand.refresh_from_db()
    assert hand.name == "New name"


@pytest.mark.parametrize("name", ["\x1b[31mRed hand", "Ding\x07", "Nul\x00l", "C1\x9bcontrol"])
def test_hand_names_with_control_characters_are_refused_by_the_api(api_client, open_round, alice, name):
    api_client.force_authenticate(alice)
    response = api_client.put(url(open_round), {"name": name, "cards": KJELD, "attest": True}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_characters"
    assert "name" in body["detail"] and "U+" in body["detail"]
    assert not Hand.objects.exists()


def test_a_card_name_with_nul_is_refused_with_its_position(api_client, open_round, alice):
    api_client.force_authenticate(alice)
    response = api_client.put(
        url(open_round), {"cards": [*KJELD[:4], "Wheel\x00"], "attest": True}, format="json"
    )
    assert response.status_code == 400
    assert "cards[4]" in response.json()["detail"]


def test_the_hand_form_refuses_control_characters_with_a_clear_page(client, open_round, alice):
    client.force_login(alice)
    data = {"name": "Evil\x1b[2J", "attest": "on", **{f"card_{n}": c for n, c in enumerate(KJELD, start=1)}}
    response = client.post(f"/rounds/{open_round.pk}/my-hand/", data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "The field “name” contains a control character (U+001B ESC)" in page
    assert not Hand.objects.exists()


def test_hands_posted_export_escapes_hand_and_forum_names(client, open_round, alice, bob, moderator):
    Profile.objects.filter(user=bob).update(forum_username=BREAKOUT)
    builders.submit(alice, open_round, KJELD, name=IMG)
    builders.submit(bob, open_round, SCEPTER, name="Plain")
    round_services.close_round_now(actor=moderator, round_id=open_round.pk, now=timezone.now())
    text = client.get(f"/rounds/{open_round.pk}/export/hands.bbcode").content.decode()
    for tag in ("[img]", "[/img]", "[url", "[/url]", "[/code]"):
        assert tag not in text
    assert "\uff3bimg\uff3dhttp://evil.example/x.png\uff3b/img\uff3d" in text
    assert text.startswith("[b]Hands posted")  # the export's own markup stays
    page = client.get(open_round.get_absolute_url()).content.decode()
    assert "“[img]http://evil.example/x.png[/img]”" in page  # a page shows the name as typed, HTML-escaped…
    assert "\uff3bimg\uff3dhttp" in page  # …and the forum post it offers to copy is the escaped one


def test_my_hand_api_reply_is_never_cached(api_client, open_round, alice):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    api_client.force_authenticate(alice)
    response = api_client.get(url(open_round))
    assert response.status_code == 200
    cache_control = response["Cache-Control"]
    assert "no-store" in cache_control and "private" in cache_control


def test_reviewing_moderators_hands_reply_is_never_cached(api_client, open_round, alice, moderator):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    services.declare_not_playing(moderator=moderator, round_id=open_round.pk)
    api_client.force_authenticate(moderator)
    response = api_client.get(f"/api/rounds/{open_round.pk}/hands/")
    assert response.status_code == 200 and response.json()[0]["cards"] == KJELD
    cache_control = response["Cache-Control"]
    assert "no-store" in cache_control and "private" in cache_control


def test_verifying_a_commitment_typed_with_non_ascii_characters_is_no_error(client):
    client.raise_request_exception = False
    response = client.post("/hands/verify/", {"text": "anything", "commitment": "¡no hex!"})
    assert response.status_code == 200
