"""On the hand side: the attestation the API records (which rules the player attested), the decisions a
round asks with each hand (7.2b: validated, secret like the hand, in the commitment, shown after the reveal) and "up to N" hands."""

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from submissions import commitments, services
from submissions.models import Hand, HandVersion
from tests import builders

from .conftest import KJELD, SCEPTER
from .test_secrecy import concrete_urls

pytestmark = pytest.mark.django_db

DECISIONS = [
    {"key": "tribe", "label": "Your creature type", "kind": "choice", "choices": ["Goblin", "Elf"]},
    {"key": "pet", "label": "Your named card", "kind": "card"},
    {"key": "x", "label": "Your number", "kind": "number"},
    {"key": "motto", "label": "Your motto", "kind": "text"},
]
SECRET_MOTTO = "Quokka Gambit Seven"
SECRET_CARD = "Serra Angel"  # in no hand of these tests: if a page shows it, it is Alice's decision
ANSWERS = {"tribe": "goblin", "pet": "serra angel", "x": "7", "motto": f"  {SECRET_MOTTO} "}


def make_round(moderator, league, **rules):
    return builders.open_round(league=league, actor=moderator, **{"title": "Decisions", **rules})


def my_hand_url(round_):
    return f"/api/rounds/{round_.pk}/my-hand/"


def as_user(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


# Attestation -------------------------------------------------------------------------------------------------


def test_put_without_attest_is_a_400_naming_the_rules_and_stores_nothing(moderator, league, alice):
    round_ = make_round(moderator, league, life_rule=True)
    response = as_user(alice).put(my_hand_url(round_), {"name": "K", "cards": KJELD}, format="json")
    assert response.status_code == 400
    [message] = response.json()["attest"]
    assert "3.1 and 7.5b" in message and '"attest": true' in message
    refused = as_user(alice).put(my_hand_url(round_), {"cards": KJELD, "attest": False}, format="json")
    assert refused.status_code == 400 and "attest" in refused.json()
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("rules", "attested"),
    [({}, ["3.1"]), ({"life_rule": True}, ["3.1", "7.5b"]), ({"backbuild": True}, ["7.6a"])],
)
def test_the_api_records_exactly_the_rules_attested(moderator, league, alice, rules, attested):
    round_ = make_round(moderator, league, **rules)
    body = {"name": "K", "cards": KJELD, "attest": True}
    response = as_user(alice).put(my_hand_url(round_), body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["attested"] == attested
    assert HandVersion.objects.get().attested == attested


def test_the_service_has_no_default_attestation(moderator, league, alice):
    round_ = make_round(moderator, league, life_rule=True)
    with pytest.raises(TypeError):
        services.submit_hand(player=alice, round_id=round_.pk, name="", cards=KJELD)  # no `attested`
    with pytest.raises(services.HandInputError) as caught:
        services.submit_hand(player=alice, round_id=round_.pk, name="", cards=KJELD, attested=["3.1"])
    assert "7.5b" in caught.value.errors["attest"][0]
    assert not Hand.objects.exists()


def form_data(cards, **extra):
    data = {"name": "Form hand", **extra}
    for position, card in enumerate(cards, start=1):
        data[f"card_{position}"] = card
    return data


def test_the_form_records_exactly_the_rules_its_checkbox_attests(client, moderator, league, alice):
    round_ = make_round(moderator, league, life_rule=True)
    client.force_login(alice)
    url = reverse("submissions:my-hand", args=[round_.pk])
    assert client.post(url, form_data(KJELD)).status_code == 400  # the box unticked: nothing saved
    assert not Hand.objects.exists()
    response = client.post(url, form_data(KJELD, attest="on"))
    assert response.status_code == 302
    assert HandVersion.objects.get().attested == ["3.1", "7.5b"]


# Decisions (7.2b) ----------------------------------------------------------------------------------------------


@pytest.fixture
def decision_round(moderator, league):
    return make_round(moderator, league, decisions=DECISIONS)


def put(user, round_, **body):
    return as_user(user).put(my_hand_url(round_), {"cards": KJELD, "attest": True, **body}, format="json")


def test_decisions_are_required_and_checked_one_by_one(decision_round, alice):
    missing = put(alice, decision_round)
    assert missing.status_code == 400
    assert set(missing.json()["decisions"]) == {"tribe", "pet", "x", "motto"}
    wrong = put(
        alice,
        decision_round,
        decisions={"tribe": "Dragon", "pet": "Sera Angle", "x": "seven", "motto": "", "colour": "red"},
    )
    assert wrong.status_code == 400
    problems = wrong.json()["decisions"]
    assert "Goblin, Elf" in problems["tribe"][0]
    assert "Did you mean" in problems["pet"][0] and SECRET_CARD in problems["pet"][0]
    assert "whole number" in problems["x"][0]
    assert "required" in problems["motto"][0]
    assert "no such decision" in problems["colour"][0]
    assert not Hand.objects.exists()


def test_decisions_are_stored_as_the_round_spells_them_and_returned_to_their_player(decision_round, alice):
    response = put(alice, decision_round, decisions=ANSWERS)
    assert response.status_code == 201, response.content
    expected = {"tribe": "Goblin", "pet": SECRET_CARD, "x": 7, "motto": SECRET_MOTTO}
    assert response.json()["decisions"] == expected
    assert HandVersion.objects.get().decisions == expected
    assert as_user(alice).get(my_hand_url(decision_round)).json()["decisions"] == expected


def test_the_commitment_covers_the_decisions_and_old_commitments_keep_format_v1(
    decision_round, alice, bob, open_round
):
    first = put(alice, decision_round, decisions=ANSWERS).json()
    version = HandVersion.objects.select_related("hand__player").get(hand__player=alice)
    text = commitments.version_text(version)
    assert text.startswith("PHM hand commitment v2\n")
    assert "\ndecision tribe: Goblin\n" in text and f"\ndecision motto: {SECRET_MOTTO}\n" in text
    assert commitments.digest(text) == version.commitment == first["commitment"]
    assert commitments.matches(text.replace("Goblin", "Elf"), version.commitment) is False
    # Only a decision changes: a new version, with its own commitment; the same answers again change nothing.
    second = put(alice, decision_round, decisions={**ANSWERS, "tribe": "Elf"}).json()
    assert second["version"] == 2 and second["commitment"] != first["commitment"]
    again = put(alice, decision_round, decisions={**ANSWERS, "tribe": "Elf"}).json()
    assert again["version"] == 2
    # A round without decisions commits exactly as before (v1): earlier commitments still verify.
    builders.submit(bob, open_round, SCEPTER, name="S")
    plain = HandVersion.objects.select_related("hand__player").get(hand__player=bob)
    plain_text = commitments.version_text(plain)
    assert plain_text.startswith("PHM hand commitment v1\n") and "decision" not in plain_text
    assert commitments.digest(plain_text) == plain.commitment


def leaks(body):
    return [mark for mark in (SECRET_MOTTO, SECRET_CARD) if mark.casefold() in body.casefold()]


def test_decisions_are_secret_before_the_deadline_like_the_hand(
    decision_round, alice, bob, moderator, other_moderator
):
    put(alice, decision_round, decisions=ANSWERS)
    put(bob, decision_round, decisions={**ANSWERS, "pet": "Black Lotus", "motto": "Bob's motto"})
    alice_hand = Hand.objects.get(player=alice)
    values = {
        "round_id": [decision_round.pk],
        "hand_id": [alice_hand.pk],
        "version": [1],
        "action": ["hands"],
        "int": [1, alice_hand.pk],
    }
    urls = [url for url in concrete_urls(values) if "<" not in url]
    assert len(urls) > 40
    urls += [
        f"/api/rounds/{decision_round.pk}/",
        f"/api/rounds/{decision_round.pk}/hands/",
        f"/api/rounds/{decision_round.pk}/my-hand/",
        reverse("submissions:hands-bbcode", args=[decision_round.pk]),
        "/admin/submissions/handversion/",
    ]
    problems = []
    for label, user in {"anonymous": None, "another player": bob, "other moderator": other_moderator}.items():
        browser, api = Client(), APIClient()
        if user is not None:
            browser.force_login(user)
            api.force_authenticate(user)
        for url in urls:
            response = (api if url.startswith("/api/") else browser).get(url)
            body = response.content.decode(errors="replace")
            if response.status_code >= 500 or leaks(body):
                problems.append((label, url, response.status_code, leaks(body)))
    assert problems == [], "\n".join(map(str, problems))
    # Alice herself sees her decisions: her form, her receipt, her API answer.
    mine = Client()
    mine.force_login(alice)
    assert SECRET_MOTTO in mine.get(reverse("submissions:my-hand", args=[decision_round.pk])).content.decode()
    receipt = mine.get(reverse("submissions:receipt", args=[decision_round.pk, 1])).content.decode()
    assert SECRET_MOTTO in receipt and SECRET_CARD in receipt


def test_decisions_are_shown_with_the_hand_after_the_reveal(decision_round, alice, bob, client):
    put(alice, decision_round, decisions=ANSWERS)
    with time_machine.travel(decision_round.deadline + timedelta(minutes=1), tick=False):
        page = client.get(decision_round.get_absolute_url()).content.decode()
        assert SECRET_MOTTO in page and "Your named card" in page and SECRET_CARD in page
        hands = APIClient().get(f"/api/rounds/{decision_round.pk}/hands/").json()
        assert hands[0]["decisions"]["motto"] == SECRET_MOTTO
        export = client.get(reverse("submissions:hands-bbcode", args=[decision_round.pk])).content.decode()
        assert f"Your motto: {SECRET_MOTTO}" in export and "Your creature type: Goblin" in export


def test_the_hand_form_asks_each_decision_and_stores_the_answers(decision_round, alice, client):
    client.force_login(alice)
    url = reverse("submissions:my-hand", args=[decision_round.pk])
    form = client.get(url).content.decode()
    for key in ("tribe", "pet", "x", "motto"):
        assert f'name="decision_{key}"' in form
    missing = client.post(url, form_data(KJELD, attest="on"))
    assert missing.status_code == 400 and "is required in this round" in missing.content.decode()
    bad_card = client.post(
        url,
        form_data(
            KJELD,
            attest="on",
            decision_tribe="Elf",
            decision_pet="Sera Angle",
            decision_x="3",
            decision_motto="m",
        ),
    )
    assert bad_card.status_code == 400 and "Did you mean" in bad_card.content.decode()
    saved = client.post(
        url,
        form_data(
            KJELD,
            attest="on",
            decision_tribe="Elf",
            decision_pet="serra angel",
            decision_x="3",
            decision_motto="m",
        ),
    )
    assert saved.status_code == 302
    assert HandVersion.objects.get().decisions == {"tribe": "Elf", "pet": SECRET_CARD, "x": 3, "motto": "m"}


# "Up to N cards" -------------------------------------------------------------------------------------------------


def test_an_up_to_round_takes_fewer_cards_by_form_and_api(moderator, league, alice, bob, client):
    round_ = make_round(moderator, league, hand_size=5, hand_size_mode="up_to")
    client.force_login(alice)
    url = reverse("submissions:my-hand", args=[round_.pk])
    form = client.get(url).content.decode()
    assert "up to 5 cards" in form and 'name="card_5"' in form
    assert client.post(url, form_data(KJELD[:3], attest="on")).status_code == 302
    assert HandVersion.objects.get(hand__player=alice).cards == KJELD[:3]
    response = put(bob, round_, cards=SCEPTER[:2])
    assert response.status_code == 201 and response.json()["cards"] == SCEPTER[:2]
    too_many = put(bob, round_, cards=[*SCEPTER, "Black Lotus"])
    assert too_many.status_code == 400
    assert "this round allows 1 to 5 (up to 5)" in str(too_many.json()["cards"])
