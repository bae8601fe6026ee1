import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def field(label):
    """A form field's label, with or without the asterisk that marks a required field."""
    return re.compile(rf"^\s*{re.escape(label)}\s*\*?\s*$")


def test_sign_up_log_out_log_in_and_see_home(live_server, page):
    page.goto(f"{live_server.url}/")
    expect(page.get_by_role("heading", name="Perfect Hand Magic, without the spreadsheet")).to_be_visible()
    expect(page.get_by_text("No round is open right now.")).to_be_visible()

    page.get_by_role("link", name="Sign up").first.click()
    expect(page).to_have_url(re.compile(r"/accounts/sign-up/$"))
    page.get_by_label(field("Username")).fill("browser_player")
    page.get_by_label("Email").fill("browser@example.com")
    page.get_by_label(field("Forum username")).fill("Browser Player")
    page.get_by_label("Time zone").select_option("Europe/Paris")
    page.get_by_label(field("Password")).fill("a-long-unusual-passphrase")
    page.get_by_label(field("Password confirmation")).fill("a-long-unusual-passphrase")
    page.get_by_role("button", name="Create account").click()

    expect(page.get_by_text("Welcome, browser_player! Your account is ready.")).to_be_visible()
    nav_user = page.get_by_role("button", name="Browser Player")  # shown by the forum name
    expect(nav_user).to_be_visible()

    nav_user.click()
    page.get_by_role("button", name="Log out").click()
    navbar = page.locator("nav.navbar")
    expect(navbar.get_by_role("link", name="Log in")).to_be_visible()

    navbar.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("browser_player")
    page.get_by_label("Password").fill("a-long-unusual-passphrase")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.get_by_role("heading", name="Open rounds")).to_be_visible()
    expect(nav_user).to_be_visible()


def test_wrong_password_is_explained_in_the_browser(live_server, page, player):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("player")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Please enter a correct username and password")).to_be_visible()
    expect(page.get_by_label("Username")).to_have_value("player")
