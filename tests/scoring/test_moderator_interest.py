"""A moderator who plays keeps no power over their own round: bonuses, results and challenges in a round they
play in go to another moderator of the league (403 naming who) — their own match, and any other match whose
result moves their rank; a league's only moderator may, and then everyone sees it."""

import pytest
from rest_framework.test import APIClient

from accounts.services import make_moderator, register_player
from scoring.models import BonusAward, Match
from scoring.services.bonus import award_bonus
from scoring.services.decisions import challenge_match, resolve_challenge, set_result
from scoring.services.reports import report_match

from .conftest import match_between, plays_in_the_league

pytestmark = pytest.mark.django_db


def api_as(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


@pytest.fixture
def second_moderator(league, password):
    user = register_player(username="second", password=password)
    make_moderator(user)
    league.moderators.add(user)
    return user


@pytest.fixture
def played(revealed_round, make_players, moderator):
    """A revealed round in which the moderator has hand 01."""
    round_, players = revealed_round(3, players=[moderator, *make_players(2)])
    return round_, players


def test_a_playing_moderator_cannot_award_themselves_a_bonus(played, moderator, second_moderator):
    round_, _ = played
    body = {"player": "mod", "points": 10000, "reason": "I deserve it"}
    response = api_as(moderator).post(f"/api/rounds/{round_.pk}/bonus/", body, format="json")
    assert response.status_code == 403
    assert "second" in response.json()["detail"] and "yourself" in response.json()["detail"]
    assert not BonusAward.objects.exists()
    body["points"] = 5
    assert (
        api_as(second_moderator).post(f"/api/rounds/{round_.pk}/bonus/", body, format="json").status_code
        == 201
    )


def test_a_playing_moderator_cannot_set_their_own_matchs_result(played, moderator, second_moderator):
    round_, _ = played
    match = match_between(round_, 1, 2)
    body = {"points_a": 6, "points_b": 0, "note": ""}
    response = api_as(moderator).put(f"/api/matches/{match.pk}/result/", body, format="json")
    assert response.status_code == 403 and "second" in response.json()["detail"]
    assert Match.objects.get(pk=match.pk).decided_points_a is None


def test_a_playing_moderator_cannot_decide_a_rivals_match_either(played, moderator, second_moderator):
    round_, _ = played
    rivals = match_between(round_, 2, 3)
    body = {"points_a": 6, "points_b": 0, "note": ""}
    response = api_as(moderator).put(f"/api/matches/{rivals.pk}/result/", body, format="json")
    assert response.status_code == 403
    assert "play in this round" in response.json()["detail"] and "second" in response.json()["detail"]
    assert Match.objects.get(pk=rivals.pk).decided_points_a is None
    assert (
        api_as(second_moderator).put(f"/api/matches/{rivals.pk}/result/", body, format="json").status_code
        == 200
    )


def test_a_playing_moderator_cannot_award_a_rival_a_bonus(played, moderator, second_moderator):
    round_, players = played
    body = {"player": players[1].username, "points": 50, "reason": "Best name"}
    response = api_as(moderator).post(f"/api/rounds/{round_.pk}/bonus/", body, format="json")
    assert response.status_code == 403 and "second" in response.json()["detail"]
    assert not BonusAward.objects.exists()


def test_a_playing_moderator_cannot_resolve_a_challenge_on_a_rivals_match(
    played, moderator, second_moderator, make_players
):
    round_, players = played
    rivals = match_between(round_, 2, 3)
    report_match(reporter=players[1], match_id=rivals.pk, points_a=6, points_b=0)
    [spectator] = make_players(1, prefix="spectator")
    plays_in_the_league(rivals.round.league, spectator)
    challenge = challenge_match(challenger=spectator, match_id=rivals.pk, reason="03 wins")
    body = {"decision": "upheld", "points_a": 0, "points_b": 6, "note": "It does."}
    response = api_as(moderator).post(f"/api/challenges/{challenge.pk}/resolve/", body, format="json")
    assert response.status_code == 403 and "second" in response.json()["detail"]


def test_a_playing_moderator_cannot_resolve_a_challenge_on_their_own_match(
    played, moderator, second_moderator, make_players
):
    round_, players = played
    match = match_between(round_, 1, 2)
    report_match(reporter=players[1], match_id=match.pk, points_a=0, points_b=6)
    [spectator] = make_players(1, prefix="spectator")
    plays_in_the_league(match.round.league, spectator)
    challenge = challenge_match(challenger=spectator, match_id=match.pk, reason="Hand 02 cannot win")
    body = {"decision": "rejected", "note": "It can."}
    response = api_as(moderator).post(f"/api/challenges/{challenge.pk}/resolve/", body, format="json")
    assert response.status_code == 403 and "second" in response.json()["detail"]
    assert (
        api_as(second_moderator)
        .post(f"/api/challenges/{challenge.pk}/resolve/", body, format="json")
        .status_code
        == 200
    )


def test_a_sole_moderator_may_decide_their_own_match_and_everyone_sees_it(
    played, moderator, client, make_players
):
    round_, players = played
    match = match_between(round_, 1, 2)
    set_result(actor=moderator, match_id=match.pk, points_a=6, points_b=0, note="Obvious")
    award_bonus(actor=moderator, round_id=round_.pk, player_username="mod", points=3, reason="Host")
    set_result(
        actor=moderator, match_id=match_between(round_, 2, 3).pk, points_a=4, points_b=1, note="Rivals"
    )
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username=players[1].username, points=2, reason="Name"
    )
    report_match(
        reporter=players[2], match_id=match_between(round_, 1, 3).pk, points_a=0, points_b=6
    )
    [spectator] = make_players(1, prefix="spectator")
    plays_in_the_league(round_.league, spectator)
    challenge = challenge_match(
        challenger=spectator, match_id=match_between(round_, 1, 3).pk, reason="Check it"
    )
    resolve_challenge(actor=moderator, challenge_id=challenge.pk, decision="rejected", note="Fine")
    match_page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "decided by a moderator who played this round" in match_page
    challenged_page = client.get(f"/matches/{challenge.match_id}/").content.decode()
    assert "decided by a moderator who played this round" in challenged_page
    rivals_page = client.get(f"/matches/{match_between(round_, 2, 3).pk}/").content.decode()
    assert "decided by a moderator who played this round" in rivals_page
    results = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "Decided by a moderator who played" in results
    assert "result 6\u20130 set by The Moderator" in results and "awarded by themselves: Host" in results
    assert "result 4\u20131 set by The Moderator" in results and "awarded by The Moderator: Name" in results
    assert "challenge rejected by The Moderator" in results
    standings = client.get(f"/leagues/{round_.league_id}/").content.decode()
    assert "awarded by themselves, the league&#x27;s only moderator" in standings


def test_results_pages_without_such_decisions_say_nothing(played, client):
    round_, _ = played
    assert (
        "Decided by a moderator who played"
        not in client.get(f"/rounds/{round_.pk}/results/").content.decode()
    )
