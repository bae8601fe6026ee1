"""A moderator who has seen a round's hands before its deadline may not then play in it, and
seeing them takes an explicit declaration (a POST), never a page view."""

import pytest
from rest_framework.test import APIClient

from rounds.models.audit import AuditEntry
from submissions import services
from submissions.models import Hand, HandsPreview
from tests import builders
from tests.submissions.conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db


def api_as(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_the_review_page_asks_first_and_a_get_records_nothing(client, open_round, moderator, alice):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    client.force_login(moderator)
    page = client.get(f"/moderate/rounds/{open_round.pk}/hands/").content.decode()
    assert "Show me the hands — I will not play in this round" in page
    assert "Kjeldoran Warrior" not in page
    assert not HandsPreview.objects.exists()
    # …so the moderator may still play.
    builders.submit(moderator, open_round, SCEPTER, name="Mine")


def test_declaring_shows_the_hands_and_bars_the_moderator_from_playing(client, open_round, moderator, alice):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    client.force_login(moderator)
    response = client.post(f"/moderate/rounds/{open_round.pk}/hands/preview/")
    assert response.status_code == 302
    page = client.get(f"/moderate/rounds/{open_round.pk}/hands/").content.decode()
    assert "Kjeldoran Warrior" in page and "you can no longer enter one" in page
    assert AuditEntry.objects.filter(action="round.hands_previewed", actor=moderator).count() == 1
    with pytest.raises(services.HandConflict, match="chose to see the other hands"):
        builders.submit(moderator, open_round, SCEPTER, name="Peek")
    assert not Hand.objects.filter(round=open_round, player=moderator).exists()


def test_the_hands_api_answers_409_until_the_moderator_declares(open_round, moderator, alice):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    api = api_as(moderator)
    response = api.get(f"/api/rounds/{open_round.pk}/hands/")
    assert response.status_code == 409
    assert f"POST /api/rounds/{open_round.pk}/preview/" in response.json()["detail"]
    assert not HandsPreview.objects.exists()
    declared = api.post(f"/api/rounds/{open_round.pk}/preview/")
    assert declared.status_code == 200
    assert declared.json()["moderator"] == "mod" and declared.json()["plays"] is False
    assert api.get(f"/api/rounds/{open_round.pk}/hands/").status_code == 200
    response = api.put(
        f"/api/rounds/{open_round.pk}/my-hand/",
        {"name": "Peek", "cards": SCEPTER, "attest": True},
        format="json",
    )
    assert response.status_code == 409
    assert "chose to see the other hands" in response.json()["detail"]


def test_a_moderator_with_a_hand_cannot_declare_nor_look(client, open_round, moderator, alice):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    builders.submit(moderator, open_round, SCEPTER, name="Mine")
    response = api_as(moderator).post(f"/api/rounds/{open_round.pk}/preview/")
    assert response.status_code == 409 and "You have a hand in this round" in response.json()["detail"]
    assert api_as(moderator).get(f"/api/rounds/{open_round.pk}/hands/").status_code == 404
    client.force_login(moderator)
    assert client.get(f"/moderate/rounds/{open_round.pk}/hands/").status_code == 403
    assert not HandsPreview.objects.exists()


def test_only_the_leagues_moderators_may_declare(open_round, other_moderator, alice):
    assert api_as(other_moderator).post(f"/api/rounds/{open_round.pk}/preview/").status_code == 403
    assert api_as(alice).post(f"/api/rounds/{open_round.pk}/preview/").status_code == 403
    assert APIClient().post(f"/api/rounds/{open_round.pk}/preview/").status_code == 401
    assert not HandsPreview.objects.exists()


def test_reviewing_a_hand_before_declaring_is_refused_with_the_reason(open_round, moderator, alice):
    hand = builders.submit(alice, open_round, KJELD, name="Kjeld").hand
    response = api_as(moderator).post(
        f"/api/hands/{hand.pk}/review/", {"action": "flag", "message": "6 cards"}
    )
    assert response.status_code == 409 and "declaring that you will not play" in response.json()["detail"]
    assert not HandsPreview.objects.exists()
