import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_accounts_browser import field

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page, live_server, username, password):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label(field("Username")).fill(username)
    page.get_by_label(field("Password")).fill(password)
    page.get_by_role("button", name="Log in").click()


def test_moderator_creates_league_and_opens_round_player_sees_countdown(
    live_server, page, moderator, player, password
):
    log_in(page, live_server, "mod", password)
    page.goto(f"{live_server.url}/moderate/")
    expect(page.get_by_text("You do not manage any league yet.")).to_be_visible()
    page.get_by_role("link", name="Create a league").click()
    page.get_by_label(field("Name")).fill("League 45")
    page.get_by_role("button", name="Create league").click()
    expect(page.get_by_text("League 45 created.")).to_be_visible()

    page.get_by_label(field("Title")).fill("5 Card Alphabetized")
    page.get_by_label(field("Hand size")).select_option("5")
    deadline = timezone.localtime(timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    page.get_by_label(field("Deadline")).fill(deadline)
    page.get_by_label(field("Additional banned cards")).fill("Mox Pearl\nThalia, Gaurdian of Thraben")
    page.get_by_role("button", name="Create and open").click()
    # A typo is refused with a suggestion, and nothing typed is lost.
    expect(page.get_by_text(re.compile(r"Did you mean: Thalia, Guardian of Thraben"))).to_be_visible()
    expect(page.get_by_label(field("Title"))).to_have_value("5 Card Alphabetized")

    page.get_by_label(field("Additional banned cards")).fill("Mox Pearl")
    page.get_by_label(re.compile("Find a card to add")).fill("thalia, guard")
    page.get_by_role("option", name=re.compile("Thalia, Guardian of Thraben")).click()
    expect(page.get_by_label(field("Additional banned cards"))).to_have_value(
        "Mox Pearl\nThalia, Guardian of Thraben"
    )
    page.get_by_role("button", name="Create and open").click()
    expect(page.get_by_text("Round 45:01 “5 Card Alphabetized” created and opened.")).to_be_visible()
    expect(page.get_by_text("Round opened", exact=True)).to_be_visible()

    page.context.clear_cookies()
    log_in(page, live_server, "player", password)
    page.goto(f"{live_server.url}/rounds/")
    page.get_by_role("link", name="5 Card Alphabetized").click()
    expect(page.get_by_role("heading", name=re.compile("5 Card Alphabetized"))).to_be_visible()
    countdown = page.locator("header [data-countdown]")
    expect(countdown).to_have_text(re.compile(r"^(1d 23h|2d 0h) \d\dm left$"))
    expect(page.get_by_role("listitem").filter(has_text="Thalia, Guardian of Thraben")).to_be_visible()
    expect(page.get_by_role("link", name="Manage round")).to_have_count(0)
