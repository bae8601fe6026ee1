"""Rule 5.3a computed: tie-break rounds, played in order, rank the players tied for first; the winner shows as
soon as one leads (no declaration needed), and players still level after the number of tie-break rounds the
moderator allowed are joint winners ("X and Y win"). A moderator's declaration still overrides."""

from datetime import timedelta

import pytest
from django.utils import timezone

from outbox.models import Notification
from rounds.models import League, RoundState
from scoring.services.errors import ScoringConflict
from scoring.services.finalization import finalize_round, reopen_round
from scoring.services.league import add_tiebreak_round, declare_winners, settle_computed_winners
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from scoring.standings import league_standings

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied_league(league, revealed_round, moderator):
    """One planned round, final: p1 and p2 level on 200 League points."""
    league.rounds_planned = 1
    league.save()
    round_, players = revealed_round(2)
    report_match(
        reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=2, points_b=2
    )
    finalize_round(actor=moderator, round_id=round_.pk)
    return league, players


def play_tiebreak(league, players, moderator, points_a, points_b):
    """A tie-break round for the tied players, played and finalized with 01 v 02 = points_a-points_b."""
    tiebreak = add_tiebreak_round(actor=moderator, league_id=league.pk)
    tiebreak.state, tiebreak.deadline = RoundState.OPEN, timezone.now() - timedelta(minutes=1)
    tiebreak.save(update_fields=["state", "deadline"])
    make_hands(tiebreak, players)
    build_match_table(tiebreak.pk)
    match = match_between(tiebreak, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=points_a, points_b=points_b)
    finalize_round(actor=moderator, round_id=tiebreak.pk)
    return tiebreak


def test_the_tiebreak_round_ranks_the_tied_players_and_shows_the_winner(tied_league, moderator, client):
    """Finding 2: today both stay first on 200, "Tied for first", and no winner until one is declared."""
    league, (p1, p2) = tied_league
    standings = league_standings(league)
    assert [row.rank for row in standings.rows] == [1, 1] and standings.winner_rows == []
    Notification.objects.all().delete()
    play_tiebreak(league, [p1, p2], moderator, 4, 1)  # 400 v 100
    standings = league_standings(league)
    assert [(row.player, row.rank, row.winner) for row in standings.rows] == [(p1, 1, True), (p2, 2, False)]
    assert [row.player for row in standings.winner_rows] == [p1] and standings.tied_for_first == []
    rows = client.get(f"/api/leagues/{league.pk}/standings/").json()
    assert [(row["player"], row["rank"], row["tiebreak_points"], row["winner"]) for row in rows] == [
        (p1.username, 1, 400, True),
        (p2.username, 2, 100, False),
    ]
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Winner" in page and "Tied for first" not in page and "decided by the tie-break round" in page
    # Recorded once, and everyone told, at the finalization of the deciding round.
    league.refresh_from_db()
    assert list(league.winners.all()) == [p1] and league.winners_computed and league.state == "finished"
    told = Notification.objects.filter(kind="league.finished")
    assert sorted(told.values_list("recipient__username", flat=True)) == [p1.username, p2.username]
    assert "won" in told.first().text


def test_still_level_after_the_last_allowed_tiebreak_they_are_joint_winners(tied_league, moderator, client):
    league, (p1, p2) = tied_league
    play_tiebreak(league, [p1, p2], moderator, 2, 2)
    standings = league_standings(league)
    assert [row.player for row in standings.winner_rows] == [p1, p2] and standings.joint_winners
    assert all(row.winner and row.rank == 1 for row in standings.rows)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Joint winners" in page and "Forum p1</a> and <a" in page
    with pytest.raises(ScoringConflict, match="joint winners"):
        add_tiebreak_round(actor=moderator, league_id=league.pk)
    # The moderator allows a second tie-break round: they are level again, and it decides.
    assert League.objects.get(pk=league.pk).winners.count() == 2
    response = _patch(client, moderator, league, {"tiebreak_rounds_allowed": 2})
    assert response.status_code == 200 and response.json()["tiebreak_rounds_allowed"] == 2
    league.refresh_from_db()
    assert league.winners.count() == 0
    assert [row.player for row in league_standings(league).tied_for_first] == [p1, p2]
    play_tiebreak(league, [p1, p2], moderator, 1, 4)  # the second decides: p2
    standings = league_standings(league)
    assert [(row.player, row.rank) for row in standings.rows] == [(p2, 1), (p1, 2)]
    assert [row.player for row in standings.winner_rows] == [p2]


def test_no_tiebreak_allowed_makes_the_tied_players_joint_winners(league, revealed_round, moderator):
    league.rounds_planned, league.tiebreak_rounds_allowed = 1, 0
    league.save()
    round_, players = revealed_round(2)
    report_match(
        reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=2, points_b=2
    )
    finalize_round(actor=moderator, round_id=round_.pk)
    assert set(League.objects.get(pk=league.pk).winners.all()) == set(players)


def test_a_moderators_declaration_overrides_the_computed_winner(tied_league, moderator):
    league, (p1, p2) = tied_league
    play_tiebreak(league, [p1, p2], moderator, 4, 1)
    declare_winners(actor=moderator, league_id=league.pk, usernames=[p2.username], note="Ruling")
    standings = league_standings(league)
    assert [row.player for row in standings.winner_rows] == [p2]
    assert [row.player for row in standings.rows if row.winner] == [p2]
    settle_computed_winners(league.pk)  # a later finalization leaves the declaration alone
    assert list(League.objects.get(pk=league.pk).winners.all()) == [p2]


def test_reopening_the_deciding_round_withdraws_the_computed_winner(tied_league, moderator):
    league, (p1, p2) = tied_league
    tiebreak = play_tiebreak(league, [p1, p2], moderator, 4, 1)
    reopen_round(actor=moderator, round_id=tiebreak.pk, reason="Wrong report")
    league.refresh_from_db()
    assert not league.winners.exists() and league.state == "active"
    assert league_standings(league).winner_rows == []


def test_tiebreak_rounds_allowed_is_set_at_creation_and_checked(api_client, moderator, league, make_user):
    api_client.force_authenticate(moderator)
    created = api_client.post(
        "/api/leagues/", {"name": "League 77", "tiebreak_rounds_allowed": 3}, format="json"
    )
    assert created.status_code == 201 and created.json()["tiebreak_rounds_allowed"] == 3
    url = f"/api/leagues/{league.pk}/"
    assert api_client.get(url).json()["tiebreak_rounds_allowed"] == 1
    assert api_client.patch(url, {"tiebreak_rounds_allowed": -1}, format="json").status_code == 400
    api_client.force_authenticate(make_user("someone"))
    assert api_client.patch(url, {"tiebreak_rounds_allowed": 2}, format="json").status_code == 403


def _patch(client, user, league, body):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(user)
    return api.patch(f"/api/leagues/{league.pk}/", body, format="json")


def test_the_league_page_sets_the_tiebreak_rounds_allowed(client, league, moderator, make_user):
    client.force_login(moderator)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Tie-break rounds allowed (5.3a)" in page
    url = f"/moderate/leagues/{league.pk}/settings/"
    response = client.post(url, {"tiebreak_rounds_allowed": "3"}, follow=True)
    assert "allows 3 tie-break rounds" in response.content.decode()
    league.refresh_from_db()
    assert league.tiebreak_rounds_allowed == 3
    refused = client.post(url, {"tiebreak_rounds_allowed": "99"}, follow=True).content.decode()
    assert "from 0 to 20" in refused
    league.refresh_from_db()
    assert league.tiebreak_rounds_allowed == 3


def test_the_tiebreak_api_opens_a_round_only_the_tied_players_may_enter(tied_league, moderator, api_client):
    from rounds.models import Round

    league, (p1, p2) = tied_league
    url = f"/api/leagues/{league.pk}/tiebreak/"
    api_client.force_authenticate(p1)
    assert api_client.post(url, {}, format="json").status_code == 403
    api_client.force_authenticate(moderator)
    deadline = (timezone.now() + timedelta(days=3)).isoformat()
    assert api_client.post(url, {"hand_size": 0, "deadline": deadline}, format="json").status_code == 400
    response = api_client.post(url, {"title": "Decider", "hand_size": 3, "deadline": deadline}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["state"], body["hand_size"], body["title"]) == ("open", 3, "Decider")
    round_ = Round.objects.get(pk=body["id"])
    assert round_.tiebreak and set(round_.eligible_players.all()) == {p1, p2}
    declare_winners(actor=moderator, league_id=league.pk, usernames=[p1.username])
    refused = api_client.post(url, {"deadline": deadline}, format="json")
    assert refused.status_code == 409
