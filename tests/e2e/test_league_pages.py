"""A league's standings with its chart, a player's page with theirs, and a round's bar
chart, on a desktop and a phone."""

import pytest
from playwright.sync_api import expect

from scoring.services.bonus import award_bonus
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match, report_row
from tests.e2e.test_player_submits_hand import PHONE, shoot
from tests.scoring.conftest import make_players, revealed_round  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def test_standings_player_page_and_charts(live_server, page, league, moderator, revealed_round, make_players):  # noqa: F811
    players = make_players(4)
    first, _ = revealed_round(4, players=players)
    report_row(player=players[0], round_id=first.pk, row="1 | X 6 4 2")
    report_row(player=players[3], round_id=first.pk, row="4 | 2 4 6 X")
    finalize_round(actor=moderator, round_id=first.pk)
    second, _ = revealed_round(3, players=players[1:])
    report_row(player=players[1], round_id=second.pk, row="1 | X 6 6")
    award_bonus(
        actor=moderator, round_id=second.pk, player_username=players[2].username, points=50, reason="Rule 7.7"
    )

    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    table = page.locator("table.phm-standings")
    expect(table.locator("tbody tr")).to_have_count(4)
    first_row = table.locator("tbody tr").first
    # p2: 0 + 1 + 0 = 1 point in round 1 (33), 12 of 12 in round 2 (600): 633; p1: 12 points (400), missed round 2.
    expect(first_row).to_contain_text("Forum p2")
    expect(first_row.locator("td").last).to_have_text("633")
    expect(table).to_contain_text("+50")
    expect(page.get_by_text("Bonus for Forum p3")).to_contain_text("Rule 7.7")
    chart = page.get_by_role("img", name="League points per round")
    expect(chart).to_be_visible()
    shoot(page, "league-standings")

    page.get_by_role("link", name="Forum p1").first.click()
    expect(page).to_have_url(f"{live_server.url}/players/{players[0].username}/")
    expect(page.get_by_role("table").first).to_contain_text("400")
    expect(page.locator("svg[role=img]").first).to_be_visible()
    shoot(page, "player-page")

    page.goto(f"{live_server.url}/rounds/{first.pk}/results/")
    expect(page.get_by_role("img", name="League points of each hand")).to_be_visible()
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, width  # nothing overflows sideways on a phone
    shoot(page, "round-bar-chart")


def test_a_tiebreak_round_shows_the_winner_on_the_league_page(
    live_server,
    page,
    league,
    moderator,
    revealed_round,  # noqa: F811
    make_players,  # noqa: F811
):
    """Rule 5.3a: two players level on 200 play a tie-break round (400 v 100): the page names the winner."""
    from tests.scoring.conftest import match_between
    from tests.scoring.test_tiebreak_standings import play_tiebreak

    league.rounds_planned = 1
    league.save()
    round_, players = revealed_round(2)
    report_match(
        reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=2, points_b=2
    )
    finalize_round(actor=moderator, round_id=round_.pk)
    play_tiebreak(league, players, moderator, 4, 1)

    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    expect(page.get_by_role("status").filter(has_text="Winner")).to_contain_text("Forum p1")
    first_row = page.locator("table.phm-standings tbody tr").first
    expect(first_row).to_contain_text("Winner")
    expect(first_row.locator("td").last).to_have_text("400")  # the tie-break column
    expect(page.get_by_text("Tied for first")).to_have_count(0)
    shoot(page, "league-tiebreak-winner")
