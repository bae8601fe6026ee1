"""League standings: totals with bonus points and missed rounds, shared ranks, provisional rounds, ties for first,
tie-break rounds open only to the tied players, declared winners, exports, API, bounded queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from rounds.models.audit import AuditEntry
from rounds.services.leagues import open_round
from scoring import services
from scoring.standings import league_standings
from submissions import services as hand_services
from tests import builders

from .conftest import match_between

pytestmark = pytest.mark.django_db

KJELD = ["Leyline of Singularity", "Karakas", "Kjeldoran Warrior", "Mishra's Workshop", "Wheel of Torture"]


@pytest.fixture
def two_round_league(league, revealed_round, make_players, moderator):
    """Round 1: three players, 01 wins both matches; round 2: 01 and 02 only, 02 wins; a 25-point bonus for 03
    in round 1. Totals: 01 600, 02 600, 03 25."""
    league.rounds_planned = 2
    league.save()
    players = make_players(3)
    first, _ = revealed_round(3, players=players)
    services.report_row(player=players[0], round_id=first.pk, row="1 | X 6 6")
    services.award_bonus(
        actor=moderator, round_id=first.pk, player_username=players[2].username, points=25, reason="Rule 7.7"
    )
    second, _ = revealed_round(2, players=players[:2])
    services.report_match(
        reporter=players[1], match_id=match_between(second, 1, 2).pk, points_a=0, points_b=6
    )
    return league, players, first, second


def test_totals_with_bonus_and_missed_rounds(two_round_league):
    league, players, first, second = two_round_league
    standings = league_standings(league)
    rows = {row.player.username: row for row in standings.rows}
    p1, p2, p3 = (rows[player.username] for player in players)
    assert (p1.rounds, p1.bonus_points, p1.league_points) == ({first.pk: 600, second.pk: 0}, 0, 600)
    assert (p2.rounds, p2.league_points) == ({first.pk: 0, second.pk: 600}, 600)
    assert (p3.rounds, p3.played, p3.bonus_points, p3.league_points) == (
        {first.pk: 0, second.pk: 0}, {first.pk}, 25, 25,
    )  # fmt: skip
    assert [(row.rank, row.league_points) for row in standings.rows] == [(1, 600), (1, 600), (3, 25)]
    assert p3.bonus_reasons == [f"{first.code}: +25 (Rule 7.7)"]
    assert standings.provisional and not standings.complete and standings.tied_for_first == []


def test_tie_for_first_tiebreak_round_and_winners(two_round_league, moderator):
    league, players, first, second = two_round_league
    with pytest.raises(services.ScoringConflict, match="Nobody is tied"):
        services.add_tiebreak_round(actor=moderator, league_id=league.pk)
    for round_ in (first, second):
        services.finalize_round(actor=moderator, round_id=round_.pk, force=True)
    standings = league_standings(league)
    assert standings.complete
    assert [row.player for row in standings.tied_for_first] == players[:2]
    assert standings.winner_rows == []
    with pytest.raises(services.ScoringForbidden):
        services.add_tiebreak_round(actor=players[0], league_id=league.pk)
    tiebreak = services.add_tiebreak_round(actor=moderator, league_id=league.pk)
    assert tiebreak.tiebreak and set(tiebreak.eligible_players.all()) == set(players[:2])
    open_round(actor=moderator, round_id=tiebreak.pk, now=timezone.now())
    with pytest.raises(hand_services.HandConflict, match="tie-break round"):
        builders.submit(players[2], tiebreak, KJELD, name="x")
    builders.submit(players[0], tiebreak, KJELD, name="Kjeld")
    # The tie-break does not count in the standings; the moderator declares the winner.
    assert [row.league_points for row in league_standings(league).rows] == [600, 600, 25]
    with pytest.raises(services.ScoringInputError, match="Not a player"):
        services.declare_winners(actor=moderator, league_id=league.pk, usernames=["nobody"])
    services.declare_winners(
        actor=moderator, league_id=league.pk, usernames=[players[0].username], note="Tie-break"
    )
    standings = league_standings(league)
    assert [row.player for row in standings.winner_rows] == [players[0]]
    assert AuditEntry.objects.filter(action="league.winners_declared").exists()
    assert AuditEntry.objects.filter(action="round.tiebreak_added").exists()


def test_a_sole_leader_of_a_complete_league_is_the_winner(league, revealed_round, make_players, moderator):
    league.rounds_planned = 1
    league.save()
    round_, players = revealed_round(2)
    services.report_row(player=players[0], round_id=round_.pk, row="1 | X 4")
    services.finalize_round(actor=moderator, round_id=round_.pk)
    standings = league_standings(league)
    assert [row.player for row in standings.winner_rows] == [players[0]]


def test_open_rounds_say_nothing(league, make_players, client):
    from tests.factories import RoundFactory

    from .conftest import make_hands

    round_ = RoundFactory(league=league)
    make_hands(round_, make_players(2, prefix="secret"))
    standings = league_standings(league)
    assert standings.rows == [] and standings.rounds == []
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "secret1" not in page and "Forum secret" not in page
    assert client.get(f"/api/leagues/{league.pk}/standings/").json() == []


def test_page_api_and_exports(two_round_league, client):
    league, players, first, second = two_round_league
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Forum p1" in page and "+25" in page and "Rule 7.7" in page and "<svg" in page
    body = client.get(f"/api/leagues/{league.pk}/standings/").json()
    assert body[0] == {
        "rank": 1,
        "player": players[0].username,
        "player_name": "Forum p1",
        "league_points": 600,
        "bonus_points": 0,
        "rounds": {str(first.pk): 600, str(second.pk): 0},
        "played": sorted([first.pk, second.pk]),
        "tiebreak_points": None,
        "winner": False,
    }
    assert body[2]["league_points"] == 25 and body[2]["bonus_points"] == 25
    bbcode = client.get(f"/leagues/{league.pk}/export/standings.bbcode").content.decode()
    assert f"Rank | Player   | {first.code} | {second.code} | Bonus | Total" in bbcode
    assert "Forum p3" in bbcode and "+25" in bbcode
    lines = client.get(f"/leagues/{league.pk}/export/standings.csv").content.decode().splitlines()
    assert lines[0] == f"rank,player,{first.code},{second.code},bonus,league_points"
    assert lines[3] == "3,Forum p3,0,,25,25"
    assert client.get("/api/leagues/999999/standings/").status_code == 404


def test_standings_queries_do_not_grow_with_rounds(league, revealed_round, make_players, client):
    players = make_players(4)
    counts = []
    for rounds in (2, 5):
        while league.rounds.count() < rounds:
            round_, _ = revealed_round(4, players=players)
            services.report_row(player=players[0], round_id=round_.pk, row="1 | X 6 4 2")
        for url in (f"/leagues/{league.pk}/", f"/api/leagues/{league.pk}/standings/"):
            client.get(url)
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            counts.append(len(ctx.captured_queries))
    assert counts[:2] == counts[2:], counts


def test_round_page_names_who_may_enter_a_tiebreak(two_round_league, moderator, client):
    league, players, first, second = two_round_league
    for round_ in (first, second):
        services.finalize_round(actor=moderator, round_id=round_.pk, force=True)
    tiebreak = services.add_tiebreak_round(actor=moderator, league_id=league.pk)
    open_round(actor=moderator, round_id=tiebreak.pk, now=timezone.now())
    page = client.get(f"/rounds/{tiebreak.pk}/").content.decode()
    assert "Tie-break round (rule 5.3a), open only to Forum p1, Forum p2." in page
    client.force_login(players[2])
    form = client.get(f"/rounds/{tiebreak.pk}/my-hand/").content.decode()
    assert "is a tie-break round (rule 5.3a) open only to" in form and 'id="hand-form"' not in form
