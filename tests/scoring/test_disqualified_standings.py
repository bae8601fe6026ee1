"""A disqualified hand (rule 4.2a) has no standing: it earns its player no League points in its round (the round
counts as not played by them, rule 5.2), its matches count for nobody — its opponents neither gain nor lose by
them — and it is nobody's opponent, so the others' League points are divided by one opponent fewer (5.2). The
league's standings, the standings of several leagues at once (My PHM) and the standings API agree."""

import pytest

from scoring.models import Match
from scoring.services.reports import report_match, report_row
from scoring.standings import league_standings, standings_of_leagues
from submissions.models import Hand, HandStatus
from submissions.services.review import review_hand

from .conftest import match_between

pytestmark = pytest.mark.django_db


@pytest.fixture
def disqualified(league, revealed_round, make_players, moderator):
    """Round A: four hands; 04 won every match 6-0, 01 beat 02 4-1 and drew 03 2-2; then 04 is disqualified.
    Round B: 03 and 04 only, 04 won 4-1."""
    players = make_players(4)
    first, _ = revealed_round(4, players=players)
    report_row(player=players[3], round_id=first.pk, row="4 | 6 6 6 X")
    report_row(player=players[0], round_id=first.pk, row="1 | X 4 2 0")
    review_hand(
        actor=moderator,
        hand_id=first.hands.get(player=players[3]).pk,
        action="disqualify",
        message="Three copies of a restricted card (3.1)",
    )
    second, _ = revealed_round(2, players=players[2:])
    report_match(reporter=players[2], match_id=match_between(second, 1, 2).pk, points_a=1, points_b=4)
    return league, players, first, second


def test_a_disqualified_hand_earns_nothing_and_its_round_counts_as_not_played(disqualified):
    league, (_, _, _, p4), first, second = disqualified
    row = {row.player: row for row in league_standings(league).rows}[p4]
    assert first.pk not in row.played and row.rounds[first.pk] == 0
    assert row.cells[0] == (first, None)  # shown as not played, not as 0 or 600
    assert (row.rounds[second.pk], row.league_points) == (400, 400)


def test_its_matches_count_for_nobody_and_it_is_nobodys_opponent(disqualified):
    league, (p1, p2, p3, _), first, _ = disqualified
    rows = {row.player: row for row in league_standings(league).rows}
    # Two opponents each, not three; the 0s against 04 are gone: 01 (4 + 2) / 2 = 300, 02 1 / 2 = 50,
    # 03 2 / 2 = 100 in round A.
    assert (rows[p1].rounds[first.pk], rows[p2].rounds[first.pk], rows[p3].rounds[first.pk]) == (300, 50, 100)
    assert [(row.player.username, row.rank, row.league_points) for row in league_standings(league).rows] == [
        ("p4", 1, 400),
        ("p1", 2, 300),
        ("p3", 3, 200),
        ("p2", 4, 50),
    ]


def test_a_player_whose_only_hand_was_disqualified_has_no_standing(league, revealed_round, moderator):
    round_, (p1, p2, p3) = revealed_round(3)
    report_row(player=p3, round_id=round_.pk, row="3 | 6 6 X")
    review_hand(actor=moderator, hand_id=round_.hands.get(player=p3).pk, action="disqualify", message="3.1")
    standings = league_standings(league)
    assert [row.player for row in standings.rows] == [p1, p2]
    assert [row.league_points for row in standings.rows] == [0, 0]
    together = standings_of_leagues([league])[league.pk]
    assert [(row.player, row.league_points) for row in together.rows] == [(p1, 0), (p2, 0)]


def test_the_standings_api_and_the_page_agree(disqualified, client):
    league, _, first, _ = disqualified
    rows = client.get(f"/api/leagues/{league.pk}/standings/").json()
    assert [(row["player"], row["league_points"]) for row in rows] == [
        ("p4", 400),
        ("p1", 300),
        ("p3", 200),
        ("p2", 50),
    ]
    by_player = {row["player"]: row for row in rows}
    assert str(first.pk) not in {str(key) for key in by_player["p4"]["played"]}
    assert by_player["p1"]["rounds"][str(first.pk)] == 300


def test_results_a_disqualified_hands_matches_still_hold_count_for_nobody(league, revealed_round, moderator):
    """Disqualifying supersedes the hand's results; results its matches still hold anyway (a league file
    written before results were superseded, a row put back by hand) count for nobody either."""
    round_, (p1, p2, p3) = revealed_round(3)
    report_row(player=p1, round_id=round_.pk, row="1 | X 4 ?")
    Hand.objects.filter(round=round_, player=p3).update(status=HandStatus.DISQUALIFIED)
    Match.objects.filter(pk=match_between(round_, 1, 3).pk).update(points_a=6, points_b=0, status="agreed")
    Match.objects.filter(pk=match_between(round_, 2, 3).pk).update(points_a=0, points_b=6, status="agreed")
    rows = {row.player: row for row in league_standings(league).rows}
    assert p3 not in rows
    assert (rows[p1].rounds[round_.pk], rows[p2].rounds[round_.pk]) == (400, 100)  # one opponent each
