"""The league page's cumulative standings chart (League points after each round, bonus included, a line per
top player) beside the per-round one, and the results page's empty state before any report."""

import re

import pytest

from scoring.services.bonus import award_bonus
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match
from scoring.standings import league_standings

from .conftest import match_between

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_rounds(league, revealed_round, make_players, moderator):
    """p1 wins round 1 (600 v 0), misses round 2; p2 gets 100 in round 2 and a +50 bonus there, p3 400."""
    players = make_players(3)
    first, _ = revealed_round(2, players=players[:2])
    report_match(reporter=players[0], match_id=match_between(first, 1, 2).pk, points_a=6, points_b=0)
    finalize_round(actor=moderator, round_id=first.pk)
    second, _ = revealed_round(2, players=players[1:])
    report_match(
        reporter=players[1], match_id=match_between(second, 1, 2).pk, points_a=1, points_b=4
    )
    award_bonus(
        actor=moderator, round_id=second.pk, player_username=players[1].username, points=50, reason="Rule 7.7"
    )
    return first, second, players


def test_cumulative_series_add_up_to_the_totals(league, two_rounds):
    standings = league_standings(league)
    series = dict(standings.cumulative_series())
    assert series == {"Forum p1": [600, 600], "Forum p3": [0, 400], "Forum p2": [0, 150]}
    for row in standings.rows:
        assert series[row.name][-1] == row.league_points


def test_cumulative_series_keep_the_top_players(league, two_rounds):
    standings = league_standings(league)
    assert [name for name, _ in standings.cumulative_series(top=2)] == ["Forum p1", "Forum p3"]


def test_the_league_page_shows_the_race_and_the_rounds(client, league, two_rounds):
    _, second, _ = two_rounds
    html = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "The race: League points after each round" in html
    assert "<title" in html and "Standings after each round, top 3</title>" in html
    assert "League points per round, top 3</title>" in html
    # Accessible: a description naming every point, and the values as a table.
    race = [text for text in re.findall(r"<desc[^>]*>([^<]*)</desc>", html) if "League points in all" in text]
    assert len(race) == 1
    assert f"{second.code} 600" in race[0] and f"{second.code} 150" in race[0]
    assert "<td>150</td>" in html
    assert html.index("The race") < html.index("League points in each round")


def test_no_charts_before_any_round_is_played(client, league):
    html = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "The race" not in html and "<svg" not in html


def test_the_results_chart_waits_for_a_report(client, revealed_round):
    round_, players = revealed_round(3)
    html = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "How each hand did" in html and "No results reported yet" in html
    assert "<svg" not in html
    report_match(
        reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0
    )
    html = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "No results reported yet" not in html
    assert "League points of each hand in" in html and 'class="phm-chart-bar"' in html
