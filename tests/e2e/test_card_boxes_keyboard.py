"""Enter in a card box picks a card and never submits the form around it (combobox.js): the round form's
"Find a card to add", the hand form's card fields and the card search page."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from rounds.models import Round
from submissions.models import Hand
from tests.e2e.test_accounts_browser import field
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import shoot

pytestmark = pytest.mark.django_db(transaction=True)


def type_slowly(page, locator, text):
    """Key by key, as a person types: htmx asks for suggestions on `input`."""
    locator.click()
    locator.press_sequentially(text, delay=20)


def test_enter_in_the_round_forms_card_box_adds_the_card_and_never_publishes(
    live_server, page, moderator, password
):
    from rounds.services import leagues as round_services

    round_services.create_league(actor=moderator, name="League 45", moderators=[moderator])
    log_in(page, live_server, "mod", password)
    page.goto(f"{live_server.url}/moderate/rounds/new/")
    page.get_by_label(field("Title")).fill("5 Card Vintage")
    deadline = timezone.localtime(timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    page.get_by_label(field("Deadline")).fill(deadline)

    # The newcomer's exact sequence: "dark ritu", ArrowDown, Enter.
    search = page.get_by_label("Find a card to add")
    type_slowly(page, search, "dark ritu")
    option = page.locator("#ban-suggestions").get_by_role("option", name=re.compile("Dark Ritual"))
    expect(option).to_be_visible()
    page.keyboard.press("ArrowDown")
    expect(option).to_have_attribute("aria-selected", "true")
    expect(search).to_have_attribute("aria-activedescendant", re.compile(".+"))
    shoot(page, "round-form-ban-search")
    page.keyboard.press("Enter")
    expect(page.get_by_label(field("Additional banned cards"))).to_have_value("Dark Ritual")
    expect(search).to_have_value("")
    expect(search).to_be_focused()
    assert page.url.endswith("/moderate/rounds/new/")
    assert not Round.objects.exists()

    # Enter with nothing highlighted takes the card named exactly as typed…
    type_slowly(page, search, "black lotus")
    expect(
        page.locator("#ban-suggestions").get_by_role("option", name=re.compile("Black Lotus"))
    ).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.get_by_label(field("Additional banned cards"))).to_have_value("Dark Ritual\nBlack Lotus")

    # …and otherwise does nothing at all: no card guessed, no form submitted.
    type_slowly(page, search, "xyzzy")
    expect(page.locator("#ban-suggestions")).to_contain_text("No card name contains “xyzzy”")
    page.keyboard.press("Enter")
    search.fill("")
    type_slowly(page, search, "waer tear")
    expect(page.locator("#ban-suggestions")).to_contain_text("Did you mean")
    page.keyboard.press("Enter")  # a "did you mean" guess is picked only when highlighted
    expect(page.get_by_label(field("Additional banned cards"))).to_have_value("Dark Ritual\nBlack Lotus")
    page.keyboard.press("Escape")
    expect(page.locator("#ban-suggestions [role=option]")).to_have_count(0)
    assert page.url.endswith("/moderate/rounds/new/")
    assert not Round.objects.exists()

    # Enter in any other field submits with the first button, which saves a draft: Enter never publishes.
    page.get_by_label(field("Title")).press("Enter")
    expect(page.get_by_text("Round 45:01 “5 Card Vintage” saved as a draft.")).to_be_visible()
    round_ = Round.objects.get()
    assert round_.state == "draft"
    assert round_.extra_banned == ["Dark Ritual", "Black Lotus"]


def test_enter_in_a_hand_form_card_field_picks_and_never_submits(
    live_server, page, player, password, vintage_round
):
    log_in(page, live_server, "player", password)
    page.goto(f"{live_server.url}/rounds/{vintage_round.pk}/my-hand/")
    card_1, card_2 = page.get_by_label("Card 1", exact=True), page.get_by_label("Card 2", exact=True)

    type_slowly(page, card_1, "lightnig bolt")
    suggestions = page.locator("#suggest-1")
    expect(suggestions).to_contain_text("Did you mean")
    page.keyboard.press("Enter")  # only a guess is offered: Enter takes nothing and submits nothing
    expect(card_1).to_have_value("lightnig bolt")
    expect(card_1).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(card_1).to_have_value("Lightning Bolt")
    expect(card_2).to_be_focused()
    expect(page.locator("#verdict-1 [data-verdict='legal']")).to_be_visible()

    type_slowly(page, card_2, "dark ritu")
    expect(page.locator("#suggest-2").get_by_role("option", name=re.compile("Dark Ritual"))).to_be_visible()
    page.keyboard.press("Enter")  # a card whose name matches the text: the first one is taken
    expect(card_2).to_have_value("Dark Ritual")
    card_3 = page.get_by_label("Card 3", exact=True)
    expect(card_3).to_be_focused()

    # The start of each word is enough, and the card meant comes first: Lightning Bolt, not Lightning Blow.
    type_slowly(page, card_3, "lightnin bo")
    expect(page.locator("#suggest-3").get_by_role("option").first).to_contain_text("Lightning Bolt")
    page.keyboard.press("Enter")
    expect(card_3).to_have_value("Lightning Bolt")
    expect(page.get_by_label("Card 4", exact=True)).to_be_focused()

    page.keyboard.press("Enter")  # an empty card field: still no submission
    assert page.url.endswith(f"/rounds/{vintage_round.pk}/my-hand/")
    expect(page.get_by_text("Your hand is submitted")).to_have_count(0)
    assert not Hand.objects.exists()
    shoot(page, "hand-form-keyboard")


def test_the_card_search_box_opens_the_highlighted_card_or_searches(live_server, page):
    page.goto(f"{live_server.url}/cards/")
    box = page.get_by_label("Card name or query")
    type_slowly(page, box, "lightning bol")
    expect(page.locator("#card-suggestions").get_by_role("option").first).to_be_visible()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/cards/lightning-bolt/$"))

    page.goto(f"{live_server.url}/cards/")
    box = page.get_by_label("Card name or query")
    type_slowly(page, box, "waer tear")
    expect(page.locator("#card-suggestions")).to_contain_text("Did you mean")
    page.keyboard.press("Enter")  # nothing highlighted: the search itself, with the same answer
    expect(page).to_have_url(re.compile(r"/cards/\?q=waer\+tear$"))
    expect(page.locator("#name-no-match")).to_contain_text("Did you mean Wear // Tear")
