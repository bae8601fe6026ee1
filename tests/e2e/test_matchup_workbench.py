"""Card previews on hover and keyboard focus (WCAG 1.4.13: hoverable, persistent,
dismissed with Escape), the match page as each side and a third party read it, a report made with the keyboard
alone, and the revealed round page leading with the hands."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import MatchReport
from tests.e2e.test_player_submits_hand import DESKTOP, PHONE, shoot
from tests.e2e.test_results_flow import switch_user
from tests.scoring.conftest import make_players, match_between, revealed_round  # noqa: F401
from tests.submissions.conftest import catalog_index  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

LOTUS_TEXT = "Add three mana of any one color."
PEARL_TEXT = "Add {W}."


def no_horizontal_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_a_card_link_previews_the_card_on_hover_and_on_focus_and_escape_hides_it(
    live_server,
    page,
    revealed_round,  # noqa: F811
):
    _round, players = revealed_round(2)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/players/{players[0].username}/")
    lotus = page.locator("a.phm-card", has_text="Black Lotus").first
    pearl = page.locator("a.phm-card", has_text="Mox Pearl").first
    tooltip = page.get_by_role("tooltip")

    # Hover: the preview comes, says what the card does, and the link points at it.
    lotus.hover()
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text(LOTUS_TEXT)
    expect(tooltip).to_contain_text("Artifact")
    expect(lotus).to_have_attribute("aria-describedby", "phm-card-preview")
    shoot(page, "preview-1-hover")
    # Hoverable: the pointer may move onto the preview without it going away.
    tooltip.hover()
    page.wait_for_timeout(600)
    expect(tooltip).to_be_visible()
    # Dismissable: Escape hides it, without moving the pointer or the focus.
    page.keyboard.press("Escape")
    expect(tooltip).to_be_hidden()
    expect(lotus).not_to_have_attribute("aria-describedby", "phm-card-preview")
    page.mouse.move(5, 5)
    page.wait_for_timeout(600)
    expect(tooltip).to_be_hidden()

    # Keyboard focus: the preview comes and stays while the link has the focus.
    pearl.focus()
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text(PEARL_TEXT)
    expect(pearl).to_have_attribute("aria-describedby", "phm-card-preview")
    page.wait_for_timeout(600)
    expect(tooltip).to_be_visible()
    page.keyboard.press("Escape")
    expect(tooltip).to_be_hidden()
    expect(pearl).to_be_focused()  # Escape dismissed the preview, not the focus
    # Another card's link shows that card; the preview goes when the focus leaves.
    lotus.focus()
    expect(tooltip).to_contain_text(LOTUS_TEXT)
    expect(pearl).not_to_have_attribute("aria-describedby", "phm-card-preview")
    page.evaluate("document.activeElement.blur()")
    expect(tooltip).to_be_hidden()


def test_the_match_page_from_both_players_and_a_third_party(
    live_server,
    page,
    password,
    make_players,  # noqa: F811
    revealed_round,  # noqa: F811
):
    round_, players = revealed_round(3)
    match_url = f"{live_server.url}/matches/{match_between(round_, 1, 2).pk}/"
    p1, p2 = players[0].username, players[1].username
    hand = page.locator("article.phm-workbench-hand")

    switch_user(page, live_server, p1, password)
    page.set_viewport_size(DESKTOP)
    page.goto(match_url)
    expect(hand).to_have_count(2)
    expect(hand.nth(0)).to_contain_text(LOTUS_TEXT)
    expect(hand.nth(1)).to_contain_text(LOTUS_TEXT)
    expect(hand.nth(0)).to_contain_text("On the play in game 1")
    expect(hand.nth(1)).to_contain_text("On the play in game 2")
    expect(page.locator("#starting-players")).to_contain_text("lower entry number starts game 1")
    expect(page.get_by_role("group", name=f"Your result against 02 Forum {p2}")).to_be_visible()
    expect(page.get_by_label("You won both games (6-0)")).to_have_value("6-0")
    expect(page.get_by_role("heading", name="Moderator tools")).to_have_count(0)
    # Side by side on a desktop, one above the other on a phone, never a horizontal scroll.
    first, second = hand.nth(0).bounding_box(), hand.nth(1).bounding_box()
    assert abs(first["y"] - second["y"]) < 2 and first["x"] < second["x"]
    page.set_viewport_size(PHONE)
    first, second = hand.nth(0).bounding_box(), hand.nth(1).bounding_box()
    assert second["y"] >= first["y"] + first["height"] and no_horizontal_scroll(page)
    shoot(page, "workbench-1-player-a")

    switch_user(page, live_server, p2, password)
    page.goto(match_url)
    expect(page.get_by_role("group", name=f"Your result against 01 Forum {p1}")).to_be_visible()
    expect(page.get_by_label("You won both games (6-0)")).to_have_value("0-6")  # their points first
    expect(hand.nth(1).locator(".badge", has_text="you")).to_be_visible()
    shoot(page, "workbench-2-player-b")

    [outsider] = make_players(1, prefix="x")
    switch_user(page, live_server, outsider.username, password)
    page.goto(match_url)
    expect(page.get_by_role("heading", name="Verify or propose a result")).to_be_visible()
    choices = page.get_by_role("group", name="The result of 01 v 02").locator("label")
    expect(choices).to_have_text(
        [
            f"01 Forum {p1}'s “Hand of {p1}” won both games — 6-0 to 01",
            f"01 Forum {p1}'s “Hand of {p1}” won one game and drew the other — 4-1 to 01",
            "Split: one win each, or two draws — 2-2",
            f"02 Forum {p2}'s “Hand of {p2}” won one game and drew the other — 4-1 to 02",
            f"02 Forum {p2}'s “Hand of {p2}” won both games — 6-0 to 02",
        ]
    )
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    shoot(page, "workbench-3-third-party")


def test_a_report_made_with_the_keyboard_alone(live_server, page, password, revealed_round):  # noqa: F811
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    switch_user(page, live_server, players[1].username, password)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    # Tab from the top of the page to the result choices.
    for _ in range(120):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name === 'result'"):
            break
    first = page.get_by_label("You won both games (6-0)")
    expect(first).to_be_focused()
    page.keyboard.press("ArrowDown")  # to "You won one, drew one" (arrows move within a radio group)
    page.keyboard.press("Space")
    won_one = page.get_by_label("You won one, drew one (4-1)")
    expect(won_one).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Comment (optional)")).to_be_focused()
    page.keyboard.type("Drew game 2 on the play")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Save")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_text("Your result is saved.")).to_be_visible()
    report = MatchReport.objects.get(match=match)
    assert (report.side, report.points_a, report.points_b, report.comment) == (
        "b",
        1,
        4,
        "Drew game 2 on the play",
    )
    expect(page.get_by_label("You won one, drew one (4-1)")).to_be_checked()


def test_the_revealed_round_page_leads_with_the_hands(live_server, page, password, revealed_round):  # noqa: F811
    round_, players = revealed_round(3)
    switch_user(page, live_server, players[0].username, password)
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/rounds/{round_.pk}/")
        tops = [
            page.locator(selector).bounding_box()["y"]
            for selector in ("#hands-title", "#my-matches-title", "#rules-title", "#banned-title")
        ]
        assert tops == sorted(tops), tops
        assert no_horizontal_scroll(page)
    hands = page.locator("#hands article")
    expect(hands).to_have_count(3)
    expect(hands.first).to_contain_text(LOTUS_TEXT)
    my_matches = page.locator("#my-matches li")
    expect(my_matches).to_have_count(2)
    expect(my_matches.first.get_by_role("link")).to_have_text(re.compile(r"01 v 02\s+Forum p\d+"))
    page.get_by_role("link", name="My matches", exact=True).click()
    expect(page.locator("#my-matches")).to_be_in_viewport()
    shoot(page, "round-hands-first")
    my_matches.first.get_by_role("link").click()
    expect(page.locator("h1")).to_contain_text("Match 01 v 02")


def test_with_card_images_on_an_image_that_fails_leaves_the_text(
    live_server,
    page,
    settings,
    revealed_round,  # noqa: F811
):
    """The image comes from Scryfall; here it cannot load (the test's policy has no such host, and there is no
    network): the preview and the card page keep the card's text, without a broken image."""
    settings.CARD_IMAGES = True
    _round, players = revealed_round(2)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/cards/black-lotus/")
    expect(page.locator("img[data-card-image]")).to_have_count(0)
    expect(page.get_by_text(LOTUS_TEXT)).to_be_visible()
    page.goto(f"{live_server.url}/players/{players[0].username}/")
    page.locator("a.phm-card", has_text="Black Lotus").first.hover()
    tooltip = page.get_by_role("tooltip")
    expect(tooltip).to_contain_text(LOTUS_TEXT)
    expect(tooltip.locator("img")).to_have_count(0)
    expect(tooltip.get_by_text(LOTUS_TEXT)).to_be_visible()
