"""The guides' screenshots (docs/players.md, docs/moderators.md), taken by driving the pages over a small,
realistic league (tests/e2e/guide_data.py).

With PHM_WRITE_DOC_SCREENSHOTS=1 the images are (re)written into docs/img/; otherwise they go to a temporary
folder, so a test run never changes the tree, and the pages are still checked to render what the guides say.
Selectors are headings, labels and roles, so a page whose layout changes still gives its screenshot."""

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Match
from tests.e2e.guide_data import ARCHIVE_POST, PASSWORD, build_guide_league
from tests.e2e.test_accounts_browser import field
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)

DOC_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"
WRITE_DOC_IMAGES = os.environ.get("PHM_WRITE_DOC_SCREENSHOTS") == "1"
# A guide's picture is a viewport's worth at most: enough to recognise the page, small enough to commit.
SHOT_HEIGHT = 900
MARGIN = 24


@pytest.fixture
def guide(settings):
    # The guide's seven accounts get their passwords hashed quickly: the default hasher is slow on purpose.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return build_guide_league()


@pytest.fixture
def shots(tmp_path):
    """Where the screenshots go: docs/img/ when asked for, a temporary folder otherwise."""
    folder = DOC_IMAGES if WRITE_DOC_IMAGES else tmp_path / "img"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shoot(page, folder, name, start=None, height=SHOT_HEIGHT, area=None):
    """A screenshot `height` pixels tall at most, from just above `start` (a locator; by default the top of the
    page's main content), across the page or only across `area` (a locator); returns its path."""
    anchor = start if start is not None else page.locator("main")
    expect(anchor).to_be_visible()
    # At the top of the page a bounding box is in the page's coordinates, which the clip of a full-page
    # screenshot takes (the tests turn smooth scrolling off: see `calm`).
    page.evaluate("window.scrollTo(0, 0)")
    page_width = page.viewport_size["width"]
    page_height = page.evaluate("document.documentElement.scrollHeight")
    top = anchor.bounding_box()["y"] - (MARGIN if start is not None else 0)
    left, width = 0, page_width
    if area is not None:
        box = area.bounding_box()
        left = max(box["x"] - MARGIN, 0)
        width = min(box["width"] + 2 * MARGIN, page_width - left)
    top = max(top, 0)
    clip = {"x": left, "y": top, "width": width, "height": min(height, page_height - top)}
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), clip=clip, full_page=True)
    assert path.stat().st_size > 1000, f"{name}.png is empty"
    return path


@pytest.fixture
def calm(page):
    """No smooth scrolling (Bootstrap scrolls smoothly unless the reader prefers reduced motion): a
    screenshot taken while the page still glides would be cut in the wrong place."""
    page.emulate_media(reduced_motion="reduce")
    return page


def match_of(round_, number_a, number_b):
    return Match.objects.get(round=round_, hand_a__number=number_a, hand_b__number=number_b)


def test_the_player_guide_pictures(live_server, page, calm, guide, shots):
    base = live_server.url
    open_round, reported_round = guide.open_round, guide.reported_round
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "whamme", PASSWORD)

    expect(page.get_by_role("heading", name="My PHM")).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("4 Card Land Rule")
    shoot(page, shots, "player-my-phm", height=560)

    page.goto(f"{base}/rounds/{open_round.pk}/")
    expect(page.get_by_role("heading", name=re.compile("4 Card Land Rule"))).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("Sol Ring")
    shoot(page, shots, "player-round-page")

    # The hand form: a typo gets suggestions, a card on the Land Rule Banned List is refused as it is typed.
    page.goto(f"{base}/rounds/{open_round.pk}/my-hand/")
    expect(page.get_by_role("heading", name=re.compile("Your hand for 45:03"))).to_be_visible()
    for number, card in enumerate(["Goblin Guide", "Lightnin Bolt", "Black Lotus", "Mountain"], start=1):
        page.get_by_label(f"Card {number}", exact=True).fill(card)
        page.keyboard.press("Escape")  # close the suggestions; leaving the field checks the card
        page.get_by_label(field("Hand name")).click()
    main = page.get_by_role("main")
    expect(main.get_by_text("Did you mean").first).to_be_visible()
    expect(main.get_by_text(re.compile("Land Rule Banned List")).first).to_be_visible()
    hand_form = page.locator("form").filter(has=page.get_by_label("Card 1", exact=True))
    shoot(
        page,
        shots,
        "player-hand-live-check",
        start=page.get_by_text("Card 1", exact=True),
        height=540,
        area=hand_form,
    )

    main.get_by_role("button", name="Lightning Bolt", exact=True).click()
    expect(page.get_by_label("Card 2", exact=True)).to_have_value("Lightning Bolt")
    page.get_by_label("Card 3", exact=True).fill("Fireblast")
    page.get_by_label(re.compile("The colour you choose")).select_option("red")
    page.get_by_label(field("Hand name")).fill("Red Deck Wins")
    page.get_by_label("I attest that my hand follows these rules").check()
    page.get_by_role("button", name="Submit hand").click()
    expect(page.get_by_text("Your hand is submitted: version 1.")).to_be_visible()

    page.goto(f"{base}/rounds/{open_round.pk}/my-hand/versions/1/")
    receipt = page.get_by_role("region", name=re.compile("Round 45:03 · version 1"))
    expect(receipt).to_contain_text("Fireblast")
    expect(receipt.get_by_text(re.compile("^[0-9a-f]{64}$"))).to_be_visible()
    shoot(page, shots, "player-receipt", height=620, area=receipt)

    page.set_viewport_size(PHONE)
    page.goto(f"{base}/rounds/{open_round.pk}/my-hand/")
    expect(page.get_by_role("heading", name=re.compile("Your hand for 45:03"))).to_be_visible()
    shoot(page, shots, "player-hand-form-phone", height=844)
    page.set_viewport_size(DESKTOP)

    # After the reveal: the hands, a disputed match, the results table and the row box.
    page.goto(f"{base}/rounds/{reported_round.pk}/")
    hands = page.get_by_role("heading", name=re.compile(r"^Hands\b"))
    expect(page.get_by_role("main")).to_contain_text("The Might of Kjeld")
    shoot(page, shots, "player-revealed-hands", start=hands, height=700)

    page.goto(f"{base}/matches/{match_of(reported_round, 1, 2).pk}/")
    expect(page.get_by_role("heading", name=re.compile("Match 01 v 02"))).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("Gustha's Scepter")
    expect(page.get_by_role("main")).to_contain_text("Disputed")
    shoot(page, shots, "player-match-page")

    page.goto(f"{base}/rounds/{reported_round.pk}/results/")
    expect(page.get_by_role("heading", name=re.compile("Results of 45:02"))).to_be_visible()
    page.get_by_label("Your row (hand 01)").fill("1 | X 1 2 6 0 | 9 | 225")
    page.get_by_role("button", name="Report my row").click()
    expect(page.get_by_text("Your row is reported: 4 matches.")).to_be_visible()
    shoot(page, shots, "player-results-page")

    page.set_viewport_size(PHONE)
    page.goto(f"{base}/rounds/{reported_round.pk}/results/")
    expect(page.get_by_role("heading", name=re.compile("Results of 45:02"))).to_be_visible()
    shoot(page, shots, "player-results-phone", height=844)
    page.set_viewport_size(DESKTOP)

    page.goto(f"{base}/leagues/{guide.league.pk}/")
    expect(page.get_by_role("heading", name=re.compile("League 45"))).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("WhammeWhamme")
    shoot(page, shots, "player-league-standings", height=760)

    page.goto(f"{base}/notifications/preferences/")
    expect(page.get_by_role("heading", name="What you are told, and how")).to_be_visible()
    shoot(page, shots, "player-notification-preferences", height=640)


def test_the_moderator_guide_pictures(live_server, page, calm, guide, shots, settings):
    settings.SITE_URL = "https://phm.example"  # as in production: the webhooks page then has no warning
    base = live_server.url
    open_round, reported_round = guide.open_round, guide.reported_round
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "mod", PASSWORD)

    page.goto(f"{base}/moderate/")
    expect(page.get_by_role("heading", name="Your leagues")).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("4 Card Land Rule")
    shoot(page, shots, "moderator-dashboard", height=520)

    # A new round with a land rule, a card rule and a decision, opened at once.
    page.goto(f"{base}/moderate/rounds/new/")
    page.get_by_label(field("League")).select_option(label="League 45")
    page.get_by_label(field("Title")).fill("3 Card Dragons")
    page.get_by_label(field("Hand size")).select_option("3")
    page.get_by_label(re.compile(r"^\s*Land rule")).select_option("DLR")
    deadline = timezone.localtime(timezone.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
    page.get_by_label(field("Deadline")).fill(deadline)
    page.get_by_label(field("Card rules")).fill("t:dragon or t:land | Only Dragons and lands")
    page.get_by_label(re.compile("Decisions each player makes")).fill(
        "colour | The colour your Dragons' abilities choose | choice | red | green | black"
    )
    page.get_by_label(field("Format rule")).fill(
        "Three cards: Dragons and the lands to cast them. Draw Land Rule."
    )
    round_form = page.locator("form").filter(has=page.get_by_label(field("Title")))
    shoot(
        page,
        shots,
        "moderator-round-form",
        start=page.get_by_role("heading", name="New round"),
        area=round_form,
    )
    shoot(
        page,
        shots,
        "moderator-round-form-rules",
        start=page.get_by_text("Card rules", exact=True),
        height=620,
        area=round_form,
    )
    page.get_by_role("button", name="Create and open").click()
    expect(page.get_by_text(re.compile("“3 Card Dragons” created and opened"))).to_be_visible()
    shoot(page, shots, "moderator-round-manage", height=700)

    # Before the deadline: the declaration, then the hands of the open round.
    page.goto(f"{base}/moderate/rounds/{open_round.pk}/hands/")
    declare = page.get_by_role("button", name=re.compile("I will not play in this round"))
    expect(declare).to_be_visible()
    shoot(page, shots, "moderator-review-declare", height=420)
    declare.click()
    expect(page.get_by_role("main")).to_contain_text("Tabernacle")
    shoot(page, shots, "moderator-review-open-round", height=700)

    # After the deadline: disqualify or replace with a similar hand.
    page.goto(f"{base}/moderate/rounds/{reported_round.pk}/hands/")
    expect(page.get_by_role("button", name="Disqualify").first).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("Replace with")).first).to_be_visible()
    shoot(page, shots, "moderator-review-after-deadline", height=560)

    page.goto(f"{base}/moderate/rounds/{reported_round.pk}/results/")
    expect(page.get_by_role("heading", name=re.compile("Results of 45:02"))).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("Disputed")
    expect(page.get_by_role("main")).to_contain_text("Challenged")
    shoot(page, shots, "moderator-results")

    page.set_viewport_size(PHONE)
    page.goto(f"{base}/moderate/rounds/{reported_round.pk}/results/")
    expect(page.get_by_role("heading", name=re.compile("Results of 45:02"))).to_be_visible()
    shoot(page, shots, "moderator-results-phone", height=844)
    page.set_viewport_size(DESKTOP)

    page.goto(f"{base}/matches/{match_of(reported_round, 3, 4).pk}/")
    expect(page.get_by_role("heading", name=re.compile("Match 03 v 04"))).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("Wear // Tear fused on turn 1")
    shoot(page, shots, "moderator-match-challenged")

    # The archive: a forum post pasted as it is, with a card typo and a near-match player name.
    page.goto(f"{base}/moderate/archive/import/")
    page.get_by_label(field("League")).select_option(label="League 44")
    page.get_by_label("The \u201chands posted\u201d post").fill(ARCHIVE_POST)
    page.get_by_role("button", name="Read the post").click()
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Goblin Welder")
    expect(preview).to_contain_text("Feyd_Ruin")
    shoot(
        page,
        shots,
        "moderator-archive-preview",
        start=preview.get_by_role("heading", name=re.compile("Players")),
    )

    page.goto(f"{base}/moderate/leagues/{guide.league.pk}/webhooks/")
    expect(page.get_by_role("heading", name="Webhooks of League 45")).to_be_visible()
    page.get_by_label(field("Webhook URL")).fill("https://discord.com/api/webhooks/1234567890/guide-example")
    page.get_by_role("button", name="Add webhook").click()
    expect(page.get_by_text("Webhook added.")).to_be_visible()
    shoot(page, shots, "moderator-webhooks", height=620)

    page.goto(f"{base}/leagues/{guide.league.pk}/")
    end_of_league = page.get_by_role("heading", name=re.compile("End of the league"))
    expect(end_of_league).to_be_visible()
    shoot(page, shots, "moderator-league-end", start=end_of_league, height=420)
