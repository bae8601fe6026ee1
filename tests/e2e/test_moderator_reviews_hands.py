import re

import pytest
from playwright.sync_api import expect

from tests import builders
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import shoot

pytestmark = pytest.mark.django_db(transaction=True)


def test_moderator_flags_a_hand_and_the_player_sees_why(
    live_server, page, moderator, player, password, vintage_round
):
    round_ = vintage_round
    cards = ["Black Lotus", "Black Lotus", "Black Lotus", "Frost Titan", "Nevermore"]
    builders.submit(player, round_, cards, name="Never get warm")

    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server, "mod", password)
    page.goto(f"{live_server.url}/moderate/rounds/{round_.pk}/")
    page.get_by_role("link", name="Review hands").click()
    # Seeing the hands before the deadline bars a moderator from playing: the page asks first.
    expect(page.get_by_text("you cannot enter a hand in this round")).to_be_visible()
    shoot(page, "5-review-declare")
    page.get_by_role("button", name="Show me the hands — I will not play in this round").click()
    hand = page.locator("section", has_text="Never get warm")
    expect(hand.get_by_text("Legal", exact=True)).to_be_visible()
    hand.get_by_label(re.compile("Flag message")).fill(
        "Nevermore naming the only out breaks 3.1: please change it."
    )
    hand.get_by_role("button", name="Flag").click()
    expect(page.get_by_text("Review saved; the player is notified.")).to_be_visible()
    expect(
        page.locator("section", has_text="Never get warm").get_by_text("Flagged", exact=True)
    ).to_be_visible()
    shoot(page, "5-review")

    page.context.clear_cookies()
    log_in(page, live_server, "player", password)
    page.goto(f"{live_server.url}/rounds/{round_.pk}/")
    expect(page.get_by_text("Flagged by a moderator:")).to_be_visible()
    page.get_by_role("link", name="Edit your hand").click()
    expect(page.get_by_text("A moderator flagged this hand as illegal (rule 4.2a):")).to_be_visible()
    shoot(page, "6-flagged-form")
