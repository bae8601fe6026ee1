import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from rounds.models import Round
from tests import builders
from tests.e2e.test_accounts_browser import field
from tests.e2e.test_moderator_opens_round import log_in

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("PHM_SCREENSHOTS")  # a folder: screenshots are saved there to be looked at
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def shoot(page, name):
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    for label, size in [("desktop", DESKTOP), ("phone", PHONE)]:
        page.set_viewport_size(size)
        page.screenshot(path=f"{SHOTS}/{name}-{label}.png", full_page=True)
    page.set_viewport_size(DESKTOP)


def test_player_fixes_a_typo_submits_edits_and_sees_all_hands_after_the_deadline(
    live_server, page, moderator, player, make_user, password, vintage_round
):
    round_ = vintage_round
    rival = make_user("rival", forum_username="nerdyjoe")
    scepter = [
        "Ancient Tomb",
        "Gustha's Scepter",
        "Lodestone Golem",
        "Mishra's Workshop",
        "Sphere of Resistance",
    ]
    builders.submit(rival, round_, scepter, name="Scepter Tricks")

    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "player", password)
    page.goto(f"{live_server.url}/rounds/{round_.pk}/")
    page.get_by_role("link", name="Submit your hand").click()
    expect(page.get_by_role("heading", name=re.compile("Your hand for 45:01"))).to_be_visible()

    cards = [
        "Leyline of Singularity",
        "Karakass",
        "Kjeldoran Warrior",
        "Mishra's Workshop",
        "Wheel of Torture",
    ]
    for n, card in enumerate(cards, start=1):
        page.get_by_label(f"Card {n}", exact=True).fill(card)
        page.keyboard.press("Escape")  # close the autocomplete list; leaving the field checks the card
    page.get_by_label(field("Hand name")).click()
    verdict = page.locator("#verdict-2")
    expect(verdict).to_contain_text("Did you mean")
    shoot(page, "1-typo")
    verdict.get_by_role("button", name="Karakas", exact=True).click()
    expect(page.get_by_label("Card 2", exact=True)).to_have_value("Karakas")
    expect(verdict).to_contain_text("Karakas")
    expect(verdict.locator("[data-verdict='legal']")).to_be_visible()

    page.get_by_label(field("Hand name")).fill("The Might of Kjeld")
    page.get_by_label("I attest that my hand follows these rules").check()
    page.get_by_role("button", name="Submit hand").click()
    expect(page.get_by_text("Your hand is submitted: version 1.")).to_be_visible()
    expect(page.locator("#receipt-cards")).to_contain_text("Karakas")
    commitment = page.locator("#commitment").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    shoot(page, "2-receipt")

    page.get_by_role("link", name="Edit your hand").click()
    expect(page.get_by_label("Card 5", exact=True)).to_have_value("Wheel of Torture")
    page.get_by_label("Card 5", exact=True).fill("wheel of tort")
    option = page.get_by_role("option", name=re.compile("Wheel of Torture"))
    option.click()
    expect(page.get_by_label("Card 5", exact=True)).to_have_value("Wheel of Torture")
    page.get_by_label(field("Hand name")).fill("Kjeld, again")
    page.get_by_label("I attest that my hand follows these rules").check()
    page.get_by_role("button", name="Save the new version").click()
    expect(page.get_by_text("Your hand is changed: version 2.")).to_be_visible()
    assert page.locator("#commitment").inner_text() != commitment
    page.goto(f"{live_server.url}/rounds/{round_.pk}/my-hand/")
    expect(page.get_by_role("link", name="Version 1")).to_be_visible()
    shoot(page, "3-form-with-history")

    # Before the deadline the round page tells nothing of the rival's hand.
    page.goto(f"{live_server.url}/rounds/{round_.pk}/")
    expect(page.get_by_text("2 hands submitted")).to_be_visible()
    expect(page.get_by_text("Scepter Tricks")).to_have_count(0)

    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    page.reload()
    hands = page.locator("#hands")
    expect(hands.get_by_role("heading", name=re.compile("01 nerdyjoe"))).to_be_visible()
    expect(hands.get_by_role("heading", name=re.compile("02 Player One"))).to_be_visible()
    expect(hands).to_contain_text("Gustha's Scepter")
    first = hands.locator("article").first
    first.get_by_text("Commitment and nonce").click()
    first.get_by_role("button", name="Verify").click()
    expect(first.locator("[data-verify-result]")).to_contain_text("Matches")
    shoot(page, "4-revealed")
