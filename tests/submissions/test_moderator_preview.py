"""A moderator who has seen a round's hands before its deadline may not then play in it (DESIGN.md §5)."""

import pytest
from rest_framework.test import APIClient

from submissions import services
from submissions.models import Hand, HandsPreview
from tests.submissions.conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db


def test_seeing_the_review_page_bars_the_moderator_from_playing(client, open_round, moderator, alice):
    services.submit_hand(player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD)
    client.force_login(moderator)
    page = client.get(f"/moderate/rounds/{open_round.pk}/hands/")
    assert page.status_code == 200
    assert "you can no longer enter one" in page.content.decode()
    assert HandsPreview.objects.filter(round=open_round, moderator=moderator).exists()
    with pytest.raises(services.HandConflict, match="seen the other hands of this round"):
        services.submit_hand(player=moderator, round_id=open_round.pk, name="Peek", cards=SCEPTER)
    assert not Hand.objects.filter(round=open_round, player=moderator).exists()


def test_the_hands_api_bars_too_and_answers_409(open_round, moderator, alice):
    services.submit_hand(player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD)
    api = APIClient()
    api.force_authenticate(moderator)
    assert api.get(f"/api/rounds/{open_round.pk}/hands/").status_code == 200
    response = api.put(
        f"/api/rounds/{open_round.pk}/my-hand/", {"name": "Peek", "cards": SCEPTER}, format="json"
    )
    assert response.status_code == 409
    assert "seen the other hands" in response.json()["detail"]


def test_a_moderator_who_never_looked_may_play_and_then_cannot_look(client, open_round, moderator, alice):
    services.submit_hand(player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD)
    services.submit_hand(player=moderator, round_id=open_round.pk, name="Mine", cards=SCEPTER)
    client.force_login(moderator)
    assert client.get(f"/moderate/rounds/{open_round.pk}/hands/").status_code == 403
    assert not HandsPreview.objects.exists()
