"""A player in an "up to 4 cards" round with a decision (7.2b): three cards and a choice, the receipt shows the
choice, and after the deadline the round page shows it with the hand, and the browser verifies the v2 commitment."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from rounds.models import Round
from rounds.services import leagues as round_services
from tests import builders
from tests.e2e.test_accounts_browser import field
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import DESKTOP, shoot

pytestmark = pytest.mark.django_db(transaction=True)


def test_player_submits_fewer_cards_and_a_decision_and_it_verifies_after_the_reveal(
    live_server, page, moderator, player, password
):
    now = timezone.now()
    league = round_services.create_league(actor=moderator, name="League 46", moderators=[moderator])
    round_ = builders.open_round(
        league=league,
        actor=moderator,
        now=now,
        title="Up to 4 Tribal",
        hand_size=4,
        hand_size_mode="up_to",
        decisions=[{"key": "tribe", "label": "Your tribe", "kind": "choice", "choices": ["Goblin", "Elf"]}],
        deadline=now + timedelta(days=2),
    )
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "player", password)
    page.goto(f"{live_server.url}/rounds/{round_.pk}/my-hand/")
    expect(page.get_by_text("up to 4 cards")).to_be_visible()
    for n, card in enumerate(["Karakas", "Kjeldoran Warrior", "Wheel of Torture"], start=1):
        page.get_by_label(f"Card {n}" + (" (optional)" if n > 1 else ""), exact=True).fill(card)
        page.keyboard.press("Escape")
    page.get_by_label("Your tribe").select_option("Elf")
    page.get_by_label(field("Hand name")).fill("Three Elves")
    page.get_by_label("I attest that my hand follows these rules").check()
    shoot(page, "variants-1-form")
    page.get_by_role("button", name="Submit hand").click()
    expect(page.get_by_text("Your hand is submitted: version 1.")).to_be_visible()
    expect(page.locator(".phm-decision")).to_have_text("Elf")
    shoot(page, "variants-2-receipt")

    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    page.goto(f"{live_server.url}/rounds/{round_.pk}/")
    hand = page.locator("#hands article").first
    expect(hand).to_contain_text("Your tribe: Elf")
    hand.get_by_text("Commitment and nonce").click()
    expect(hand.locator(".phm-committed-text")).to_contain_text(re.compile("PHM hand commitment v2"))
    hand.get_by_role("button", name="Verify").click()
    expect(hand.locator("[data-verify-result]")).to_contain_text("Matches")
    shoot(page, "variants-3-revealed")
