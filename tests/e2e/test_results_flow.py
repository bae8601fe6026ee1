"""Reports that disagree, a row pasted whole, a challenge by an outsider, the moderator's
queue, decisions and finalization, and the final table's numbers."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import DESKTOP, shoot
from tests.scoring.conftest import make_players, match_between, revealed_round  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

REASON = "We never played: 04 told me on the forum that he had no time this week."


def switch_user(page, live_server, username, password):
    page.context.clear_cookies()
    log_in(page, live_server, username, password)
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


def matrix_row(page, number):
    row = page.locator("table.phm-matrix tbody tr").nth(number - 1)
    expect(row.locator("th")).to_contain_text(f"{number:02d}")
    return row


def cell(row, column):
    """The row's td for `column`; after the hand columns come PT, League points and rank."""
    return row.locator("td").nth(column - 1)


def expected_table(results, hands):
    """{hand: (PT, League points, rank)} worked out here, independently of the app: a match not listed is 0-0
    (rule 6.3b), League points = PT / opponents x 100 rounded half up, equal League points share a rank."""
    points = dict.fromkeys(range(1, hands + 1), 0)
    for (a, b), (points_a, points_b) in results.items():
        points[a] += points_a
        points[b] += points_b
    opponents = hands - 1
    # floor(PT x 100 / opponents + 1/2), in integers
    league = {hand: (200 * pt + opponents) // (2 * opponents) for hand, pt in points.items()}
    ranks = {hand: 1 + sum(other > league[hand] for other in league.values()) for hand in league}
    return {hand: (points[hand], league[hand], ranks[hand]) for hand in points}


def test_dispute_row_challenge_then_the_moderator_decides_and_finalizes(
    live_server,
    page,
    moderator,
    password,
    revealed_round,  # noqa: F811
):
    round_, players = revealed_round(4)
    p1, p2, p3, p4 = (player.username for player in players)
    results_url = f"{live_server.url}/rounds/{round_.pk}/results/"
    moderate_url = f"{live_server.url}/moderate/rounds/{round_.pk}/results/"
    match_12 = f"{live_server.url}/matches/{match_between(round_, 1, 2).pk}/"
    match_14 = f"{live_server.url}/matches/{match_between(round_, 1, 4).pk}/"
    page.set_viewport_size(DESKTOP)

    # Player 1 reports a 6-0 win against 02; player 2 reports their own 6-0: the reports disagree.
    switch_user(page, live_server, p1, password)
    page.goto(match_12)
    expect(page.get_by_role("heading", name="Report your result")).to_be_visible()
    page.get_by_label("You won both games (6-0)").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your result is saved.")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Reported by one side")

    switch_user(page, live_server, p2, password)
    page.goto(match_12)
    page.get_by_label("You won both games (6-0)").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your result is saved.")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Disputed")
    expect(page.get_by_text("The two players reported different results.")).to_be_visible()
    reports = page.locator("section", has=page.get_by_role("heading", name="Reports")).locator(
        ".list-group-item"
    )
    expect(reports.nth(0)).to_contain_text("01 6 \u2013 0 02")
    expect(reports.nth(1)).to_contain_text("01 0 \u2013 6 02")
    shoot(page, "results-2-match-disputed")
    page.goto(results_url)
    expect(cell(matrix_row(page, 2), 1).locator(".phm-mark[aria-label='disputed']")).to_have_text("!")

    # Player 1 sees the dispute too, then pastes the whole row: 01 v 03 and 01 v 04 are reported as well.
    switch_user(page, live_server, p1, password)
    page.goto(match_12)
    expect(page.locator("h1")).to_contain_text("Disputed")
    page.goto(results_url)
    expect(page.get_by_text("Provisional", exact=True)).to_be_visible()
    expect(cell(matrix_row(page, 1), 2).locator(".phm-mark[aria-label='disputed']")).to_have_text("!")
    page.get_by_label("Your row (hand 01)").fill("1 | X 6 4 2")
    page.get_by_role("button", name="Report my row").click()
    expect(page.get_by_text("Your row is reported: 3 matches.")).to_be_visible()
    row_1 = matrix_row(page, 1)
    expect(cell(row_1, 2)).to_have_text("?!")  # still disputed: the row repeats player 1's own 6-0
    expect(cell(row_1, 3)).to_have_text("4·")
    expect(cell(row_1, 4)).to_have_text("2·")
    expect(cell(matrix_row(page, 3), 1)).to_have_text("1·")

    # Player 3, who is not in 01 v 04, challenges it.
    switch_user(page, live_server, p3, password)
    page.goto(match_14)
    expect(page.get_by_role("heading", name="Verify or propose a result")).to_be_visible()
    page.get_by_label("Reason for the challenge").fill(REASON)
    page.get_by_role("button", name="Challenge").click()
    expect(
        page.get_by_text("Your challenge is with the moderator; everyone in the match is told.")
    ).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Challenged")
    page.goto(results_url)
    expect(cell(matrix_row(page, 4), 1).locator(".phm-mark[aria-label='challenged']")).to_have_text("⚑")
    shoot(page, "results-1-provisional")

    # The moderator's queue holds the dispute and the challenge; finalizing is refused with both listed.
    switch_user(page, live_server, "mod", password)
    page.goto(moderate_url)
    disputed = page.locator("section", has=page.get_by_role("heading", name="Disputed"))
    expect(disputed.get_by_role("link", name=f"01 Forum {p1} v 02 Forum {p2}")).to_be_visible()
    challenged = page.locator("section", has=page.get_by_role("heading", name="Challenged"))
    expect(challenged.get_by_role("link", name=f"01 Forum {p1} v 04 Forum {p4}")).to_be_visible()
    expect(challenged).to_contain_text("standing result 2-2")
    expect(challenged).to_contain_text(f"Forum {p3}: “{REASON}”")
    # Finalizing asks for an explicit confirmation, after saying what it does.
    consequences = page.locator("#finalize-consequences")
    expect(consequences).to_contain_text("3 matches nobody reported become 0-0 (rule 6.3b).")
    expect(consequences).to_contain_text("1 disputed match becomes 0-0 and 1 open challenge is closed")
    expect(consequences).to_contain_text("4 players are told their PT, League points and rank")
    page.get_by_role("button", name="Finalize").click()  # the browser asks for the tick first
    expect(page.get_by_text("Still open:")).to_be_visible()
    page.get_by_label("I have checked the table and what finalizing does").check()
    page.get_by_role("button", name="Finalize").click()
    expect(page.get_by_role("alert")).to_contain_text("has open disputes or challenges")
    still_open = page.get_by_role("status").filter(has_text="Still open:")
    expect(still_open.locator("li")).to_have_text(
        ["Match 01 v 02 is disputed.", f"Match 01 v 04 is challenged by Forum {p3}: {REASON}"]
    )
    expect(page.get_by_label(re.compile(r"^Finalize anyway"))).to_be_visible()
    expect(page.get_by_text("Provisional", exact=True)).to_be_visible()
    shoot(page, "results-3-moderator-open-items")

    # The moderator sets the disputed match to 4-1 ...
    page.get_by_role("link", name=f"01 Forum {p1} v 02 Forum {p2}").click()
    set_form = page.locator("form", has=page.locator("input[name=action][value=set]"))
    set_form.get_by_label(
        f"01 Forum {p1}'s “Hand of {p1}” won one game and drew the other — 4-1 to 01"
    ).check()
    set_form.get_by_label("Note").fill("01 won the first game and drew the second, say both decklists.")
    set_form.get_by_role("button", name="Set result").click()
    expect(page.get_by_text("The result is set.")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Set by the moderator")
    expect(page.get_by_label("points")).to_have_text(["4", "1"])

    # ... and upholds the challenge of 01 v 04 with 2-2.
    page.goto(match_14)
    tools = page.locator("section", has=page.get_by_role("heading", name="Moderator tools"))
    challenge = tools.locator("form", has_text=REASON).filter(
        has=page.locator("input[name=action][value=resolve]")
    )
    challenge.get_by_label("Split: one win each, or two draws — 2-2").check()
    challenge.get_by_label("Note").fill("Checked with both players: one win each.")
    challenge.get_by_role("button", name="Uphold").click()
    expect(page.get_by_text("The challenge is upheld.")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Set by the moderator")
    expect(page.get_by_label("points")).to_have_text(["2", "2"])

    # Nothing is open any more: finalizing needs no force.
    page.goto(moderate_url)
    expect(page.get_by_text("Still open:")).to_have_count(0)
    expect(page.get_by_label(re.compile(r"^Finalize anyway"))).to_have_count(0)
    page.get_by_label("I have checked the table and what finalizing does").check()
    page.get_by_role("button", name="Finalize").click()
    expect(
        page.get_by_text(f"Round {round_.code} is final: the table is frozen and published.")
    ).to_be_visible()

    page.goto(results_url)
    expect(page.locator("h1").get_by_text("Final", exact=True)).to_be_visible()
    expect(page.get_by_text("Provisional", exact=True)).to_have_count(0)
    expected = expected_table({(1, 2): (4, 1), (1, 3): (4, 1), (1, 4): (2, 2)}, hands=4)
    assert expected == {1: (10, 333, 1), 2: (1, 33, 3), 3: (1, 33, 3), 4: (2, 67, 2)}  # the sums, by hand
    for number, (points, league_points, rank) in expected.items():
        row = matrix_row(page, number)
        expect(cell(row, 5)).to_have_text(str(points))
        expect(cell(row, 6)).to_have_text(str(league_points))
        expect(cell(row, 7)).to_have_text(str(rank))
    row_1 = matrix_row(page, 1)
    for column, points in [(2, "4"), (3, "4"), (4, "2")]:
        expect(cell(row_1, column)).to_have_text(points)  # final: no marks left
    expect(cell(matrix_row(page, 2), 3)).to_have_text("0")  # unreported → 0-0 (rule 6.3b)
    ranking = page.locator("section", has=page.get_by_role("heading", name="Ranking")).locator("tbody tr")
    expect(ranking.locator("td:first-child")).to_have_text(["1", "2", "3", "3"])
    # The League points (before bonus) column; the round's bonus column follows it.
    expect(ranking.locator("td:nth-child(4)")).to_have_text(["333", "67", "33", "33"])
    shoot(page, "results-4-final")


def test_a_player_agrees_in_one_click_and_confirms_a_row_whose_totals_are_wrong(
    live_server,
    page,
    password,
    revealed_round,  # noqa: F811
):
    round_, players = revealed_round(3)
    p1, p2, _p3 = (player.username for player in players)
    match_12 = f"{live_server.url}/matches/{match_between(round_, 1, 2).pk}/"
    page.set_viewport_size(DESKTOP)

    switch_user(page, live_server, p2, password)
    page.goto(match_12)
    page.get_by_label("You won one, drew one (4-1)").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your result is saved.")).to_be_visible()
    expect(page.locator("#opponent-claim")).to_have_count(0)  # nothing of player 1 to agree with yet

    # Player 1 reads player 2's claim in their own words and agrees with one click.
    switch_user(page, live_server, p1, password)
    page.goto(match_12)
    claim = page.locator("#opponent-claim")
    expect(claim.get_by_role("heading")).to_have_text(f"Forum {p2} reported: You drew one, lost one (1-4)")
    claim.get_by_role("button", name="Agree").click()
    expect(page.get_by_text("Saved: your report agrees with your opponent's.")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Agreed")
    expect(page.locator("#opponent-claim")).to_have_count(0)

    # A row whose stated PT is an arithmetic slip: nothing is saved until the player reports the cells.
    page.goto(f"{live_server.url}/rounds/{round_.pk}/results/")
    page.get_by_label("Your row (hand 01)").fill("1 | X 1 6 | 8 | 350")
    page.get_by_role("button", name="Report my row").click()
    warning = page.locator("#row-totals-warning")
    expect(warning).to_contain_text("Row 1 states PT 8, but its cells add up to 7.")
    expect(page.get_by_role("button", name="Report my row")).to_have_count(0)
    expect(cell(matrix_row(page, 1), 3)).to_have_text("?")
    page.get_by_role("button", name="Report the cells").click()
    expect(page.get_by_text("Your row is reported: 2 matches.")).to_be_visible()
    expect(cell(matrix_row(page, 1), 3)).to_have_text("6·")
