"""No bonus in a tie-break round: a tie-break round only ranks the players tied for first (rule 5.3a) and its
League points are not added to the standings, so a bonus there would count nowhere (rule 6.2). The API refuses
it with a 409 that says why, the moderator's page offers no bonus form there and says why, and a bonus posted
to it anyway is a form error, never a silent award."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from rounds.models import RoundState
from scoring.models import BonusAward
from scoring.services.bonus import award_bonus
from scoring.services.errors import ScoringConflict
from scoring.services.finalization import finalize_round
from scoring.services.league import add_tiebreak_round
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from scoring.standings import league_standings

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiebreak(league, revealed_round, moderator):
    """One planned round, final, p1 and p2 level on 200 League points; their tie-break round past its
    deadline, with both hands and its table."""
    league.rounds_planned = 1
    league.save()
    round_, players = revealed_round(2)
    report_match(reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=2, points_b=2)
    finalize_round(actor=moderator, round_id=round_.pk)
    tiebreak = add_tiebreak_round(actor=moderator, league_id=league.pk)
    tiebreak.state, tiebreak.deadline = RoundState.OPEN, timezone.now() - timedelta(minutes=1)
    tiebreak.save(update_fields=["state", "deadline"])
    make_hands(tiebreak, players)
    build_match_table(tiebreak.pk)
    return league, round_, tiebreak, players


def test_the_api_refuses_a_bonus_in_a_tiebreak_round_with_a_409_that_says_why(tiebreak, moderator):
    league, _, round_, (p1, _) = tiebreak
    api = APIClient()
    api.force_authenticate(moderator)
    body = {"player": p1.username, "points": 1000, "reason": "Best hand"}
    response = api.post(f"/api/rounds/{round_.pk}/bonus/", body, format="json")
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert "tie-break round" in detail and "5.3a" in detail and "6.2" in detail and "count nowhere" in detail
    assert not BonusAward.objects.exists()
    assert [row.league_points for row in league_standings(league).rows] == [200, 200]


def test_the_service_refuses_it_whoever_asks(tiebreak, moderator):
    _, _, round_, (p1, _) = tiebreak
    with pytest.raises(ScoringConflict, match="tie-break round"):
        award_bonus(actor=moderator, round_id=round_.pk, player_username=p1.username, points=5, reason="x")


def test_a_regular_round_of_the_same_league_still_takes_a_bonus(tiebreak, moderator):
    league, first, _, (p1, _) = tiebreak
    award_bonus(actor=moderator, round_id=first.pk, player_username=p1.username, points=5, reason="7.7")
    assert [row.league_points for row in league_standings(league).rows] == [205, 200]


def test_the_moderators_page_offers_no_bonus_form_in_a_tiebreak_round_and_says_why(
    tiebreak, moderator, client, password
):
    _, first, round_, _ = tiebreak
    client.login(username=moderator.username, password=password)
    page = client.get(f"/moderate/rounds/{round_.pk}/results/").content.decode()
    assert 'id="bonus-round-refusal"' in page and "only ranks the players tied for first" in page
    assert 'name="action" value="bonus"' not in page and 'id="bonus-player"' not in page
    regular = client.get(f"/moderate/rounds/{first.pk}/results/").content.decode()
    assert 'name="action" value="bonus"' in regular and 'id="bonus-round-refusal"' not in regular


def test_a_bonus_posted_to_a_tiebreak_round_page_is_a_form_error(tiebreak, moderator, client, password):
    _, _, round_, (p1, _) = tiebreak
    client.login(username=moderator.username, password=password)
    body = {"action": "bonus", "player": p1.username, "points": "1000", "reason": "Best hand"}
    response = client.post(f"/moderate/rounds/{round_.pk}/results/", body)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Not awarded:" in page and "tie-break round" in page and "5.3a" in page
    assert not BonusAward.objects.exists()
