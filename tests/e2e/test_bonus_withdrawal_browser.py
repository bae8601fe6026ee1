"""The moderator withdraws a mistaken bonus from the round's results page, giving the
reason; the award stays listed, struck, and the standings no longer count it."""

import pytest
from playwright.sync_api import expect

from scoring.services.bonus import award_bonus
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import shoot
from tests.scoring.conftest import make_players, revealed_round  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def test_moderator_withdraws_a_bonus(live_server, page, league, moderator, password, revealed_round):  # noqa: F811
    round_, players = revealed_round(2)
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username=players[0].username, points=25, reason="Typo"
    )
    log_in(page, live_server, "mod", password)
    page.goto(f"{live_server.url}/moderate/rounds/{round_.pk}/results/")
    awards = page.get_by_role("list", name="Bonus awards")
    page.on("dialog", lambda dialog: dialog.accept())
    awards.get_by_role("button", name="Withdraw").click()  # the reason is required: nothing is sent
    expect(awards.get_by_text("Withdrawn", exact=True)).to_have_count(0)
    awards.get_by_label("Reason for withdrawing +25 for Forum p1").fill("Meant for p2")  # by forum name
    awards.get_by_role("button", name="Withdraw").click()
    expect(page.get_by_text("are withdrawn")).to_be_visible()
    expect(awards.locator("s")).to_contain_text("+25 for Forum p1 — Typo")
    expect(awards).to_contain_text("Meant for p2")
    shoot(page, "bonus-withdrawn")
    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    expect(page.locator("table.phm-standings")).not_to_contain_text("+25")
