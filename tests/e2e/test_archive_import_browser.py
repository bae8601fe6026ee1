"""A moderator pastes a whole forum post, reads what was understood, settles a near-match player and a card typo
with one click each, imports, and sees the round."""

import datetime as dt

import pytest
from playwright.sync_api import expect

from accounts.services import register_player
from rounds.services.leagues import create_league
from tests.archive.forum_post.posts.expected import read_post
from tests.archive.test_post_import import GOBLIN_POST
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import DESKTOP, shoot

pytestmark = pytest.mark.django_db(transaction=True)


def test_paste_preview_fix_two_things_with_one_click_each_and_import(live_server, page, moderator, password):
    league = create_league(actor=moderator, name="League 31", moderators=[moderator])
    league.number = 31
    league.save(update_fields=["number"])
    register_player(username="Superbajt", password=None, forum_username="Superbajt")
    post = GOBLIN_POST.replace("Goblin Welder", "Goblin Welderr")

    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "mod", password)
    page.goto(f"{live_server.url}/moderate/archive/import/")
    page.get_by_label("The \u201chands posted\u201d post").fill(post)
    page.get_by_role("button", name="Read the post").click()

    expect(page.get_by_text("Not ready")).to_be_visible()
    expect(page.get_by_label("Round code")).to_have_value("31:03")
    expect(page.get_by_label("Hand size")).to_have_value("4")
    expect(page.get_by_label("Land rule")).to_have_value("LR")
    expect(page.get_by_label("Additional banned list")).to_have_value("Sol Ring")
    expect(page.locator("#preview").get_by_text("Fast, but folds to one removal spell.")).to_be_visible()
    expect(page.locator("#preview").get_by_text("accepted as played").first).to_be_visible()
    shoot(page, "archive-1-preview")

    page.get_by_role("button", name="Goblin Welder", exact=True).click()  # the typo: one click, read again
    expect(page.get_by_text("Card names to fix")).to_have_count(0)
    page.get_by_text("Superbajt", exact=True).click()  # the near match: one click
    shoot(page, "archive-2-settled")
    page.get_by_role("button", name="Import").click()

    expect(
        page.get_by_text("Round 31:03 \u201c4 Card LR Goblins\u201d imported with 3 hands")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="4 Card LR Goblins")).to_be_visible()
    expect(page.get_by_text("Goblin Welder").first).to_be_visible()
    shoot(page, "archive-3-imported")


def test_a_post_whose_deadline_has_no_year_imports_as_approximate_and_the_round_says_so(
    live_server, page, moderator, password
):
    create_league(actor=moderator, name="Archive league", moderators=[moderator])
    post = read_post("header_none_no_year.txt")

    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "mod", password)
    page.goto(f"{live_server.url}/moderate/archive/import/")
    page.get_by_label("The \u201chands posted\u201d post").fill(post)
    page.get_by_role("button", name="Read the post").click()

    expect(page.get_by_text("Ready to import 32:02")).to_be_visible()
    expect(page.get_by_label("Round code")).to_have_value("32:02")
    expect(page.get_by_label("Additional banned list")).to_have_value("")
    expect(page.get_by_label("The deadline is")).to_have_value("approximate")
    expect(page.locator("#deadline-note")).to_contain_text("is inferred from the weekday (Tuesday)")
    expect(page.get_by_text("don't forget the permanent list").first).to_be_visible()
    shoot(page, "archive-4-approximate-deadline")
    page.get_by_role("button", name="Import").click()

    expect(
        page.get_by_text("Round 32:02 \u201c4 Card Sliver Hive\u201d imported with 3 hands")
    ).to_be_visible()
    # No neighbouring round: the latest year before today whose 4 March is a Tuesday, as posted.
    today = dt.date.today()
    year = max(
        y
        for y in range(today.year - 12, today.year + 1)
        if dt.date(y, 3, 4) <= today and dt.date(y, 3, 4).weekday() == 1
    )
    expect(page.get_by_text(f"Deadline: about 4 March {year}")).to_be_visible()
    shoot(page, "archive-5-approximate-round")
