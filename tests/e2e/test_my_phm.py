"""My PHM in the browser: a player logs in, lands on their home page, sees their open round not
submitted with a running countdown, submits through the real form and sees it change. Screenshots of the
player's and the moderator's home on desktop and phone."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from outbox.models import Message
from rounds.services import leagues as round_services
from scoring import services as scoring_services
from scoring.models import Match
from submissions import services
from submissions.models import Hand
from tests import builders
from tests.e2e.test_accounts_browser import field
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import DESKTOP, shoot
from tests.scoring.conftest import make_hands

pytestmark = pytest.mark.django_db(transaction=True)

KJELD = ["Leyline of Singularity", "Karakas", "Kjeldoran Warrior", "Mishra's Workshop", "Wheel of Torture"]
SCEPTER = ["Ancient Tomb", "Gustha's Scepter", "Lodestone Golem", "Mishra's Workshop", "Sphere of Resistance"]


def _round(moderator, league, title, deadline_in):
    return builders.open_round(
        league=league,
        actor=moderator,
        now=timezone.now(),
        title=title,
        hand_size=5,
        deadline=timezone.now() + deadline_in,
    )


def _past(round_, players):
    make_hands(round_, players)
    type(round_).objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(hours=1))
    scoring_services.build_match_table(round_.pk)
    round_.refresh_from_db()
    return round_


@pytest.fixture
def season(moderator, player, make_user):
    """League 45 (moderated by `moderator`): a finalized round and a revealed one the player entered, an open
    round due in five hours (the player has not submitted) and one whose hands the moderator reviews."""
    league = round_services.create_league(actor=moderator, name="League 45", moderators=[moderator])
    rivals = [
        make_user(name, forum_username=forum, email=f"{name}@example.org")
        for name, forum in [("rival", "nerdyjoe"), ("mogg", "Mogg Fanatic"), ("tez", "Tezzeret")]
    ]
    final = _past(_round(moderator, league, "5 Card Alphabetized", timedelta(days=1)), [player, *rivals])
    scoring_services.report_row(player=player, round_id=final.pk, row="1 | X 6 4 2 | PT | Points")
    scoring_services.finalize_round(actor=moderator, round_id=final.pk)
    revealed = _past(_round(moderator, league, "3 Card Pauper", timedelta(days=1)), [player, *rivals])
    disputed = Match.objects.get(round=revealed, hand_a__player=player, hand_b__player=rivals[0])
    scoring_services.report_match(reporter=player, match_id=disputed.pk, points_a=6, points_b=0)
    scoring_services.report_match(reporter=rivals[0], match_id=disputed.pk, points_a=2, points_b=2)
    challenged = Match.objects.get(round=revealed, hand_a__player=rivals[1], hand_b__player=rivals[2])
    scoring_services.report_match(reporter=rivals[1], match_id=challenged.pk, points_a=6, points_b=0)
    scoring_services.challenge_match(
        challenger=player, match_id=challenged.pk, reason="Tezzeret's hand wins on the play."
    )
    open_round = _round(moderator, league, "5 Card Vintage", timedelta(hours=5))
    reviewed = _round(moderator, league, "7 Card Highlander", timedelta(days=3))
    builders.submit(rivals[0], reviewed, SCEPTER, name="Scepter Tricks")
    services.declare_not_playing(moderator=moderator, round_id=reviewed.pk)
    services.review_hand(
        actor=moderator,
        hand_id=Hand.objects.get(round=reviewed).pk,
        action="flag",
        message="Lodestone Golem: please check it against the round rules.",
    )
    Message.objects.create(
        kind="match.dispute",
        to_address="rival@example.org",
        subject="Results differ",
        body="…",
        league=league,
        state="failed",
        attempts=5,
        last_error="550 mailbox unavailable",
    )
    return {"open": open_round, "revealed": revealed, "final": final, "reviewed": reviewed}


def test_player_lands_on_my_phm_sees_the_countdown_submits_and_sees_it_change(
    live_server, page, moderator, player, password, season
):
    round_ = season["open"]
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "player", password)
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.get_by_role("heading", name="My PHM")).to_be_visible()

    card = page.locator(f"article[data-round='{round_.pk}']")
    expect(card.get_by_text("Not submitted")).to_be_visible()
    countdown = card.locator("time[data-countdown]")
    expect(countdown).to_have_text(re.compile(r"^4h \d\dm \d\ds left$"))
    first = countdown.inner_text()
    page.wait_for_timeout(1100)
    assert countdown.inner_text() != first
    # Nothing about the rival's hand in the open round the moderator reviews, nor the moderator's to-do.
    expect(page.get_by_text("Scepter Tricks")).to_have_count(0)
    expect(page.get_by_text("To do as a moderator")).to_have_count(0)
    needs = page.locator("section", has=page.get_by_role("heading", name="Results that need you"))
    expect(needs.get_by_role("link", name="Score your whole row")).to_be_visible()
    expect(needs.get_by_text("is disputed")).to_be_visible()
    expect(needs.get_by_text("challenged by you")).to_be_visible()
    shoot(page, "my-phm-player")

    card.get_by_role("link", name=re.compile("Submit")).click()
    expect(page.get_by_role("heading", name=re.compile("Your hand for 45:03"))).to_be_visible()
    for n, name in enumerate(KJELD, start=1):
        page.get_by_label(f"Card {n}", exact=True).fill(name)
        page.keyboard.press("Escape")
    page.get_by_label(field("Hand name")).fill("The Might of Kjeld")
    # Each card's verdict arrives after its field loses focus and moves the form down: let them all land
    # before clicking, or the click can hit where the checkbox was.
    for n in range(1, len(KJELD) + 1):
        expect(page.locator(f"#verdict-{n} [data-verdict=legal]")).to_be_visible()
    page.get_by_label("I attest that my hand follows these rules").check()
    page.get_by_role("button", name="Submit hand").click()
    expect(page.get_by_text("Your hand is submitted: version 1.")).to_be_visible()

    page.get_by_role("link", name="PHM Moderator").first.click()
    card = page.locator(f"article[data-round='{round_.pk}']")
    expect(card.get_by_text("Submitted — version 1")).to_be_visible()
    expect(card).to_contain_text("The Might of Kjeld")
    expect(card.get_by_role("link", name=re.compile("Change"))).to_be_visible()
    shoot(page, "my-phm-player-submitted")


def test_moderator_sees_the_to_do_list(live_server, page, moderator, player, password, season):
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "mod", password)
    todo = page.locator("#todo")
    expect(todo.get_by_role("heading", name="To do as a moderator")).to_be_visible()
    expect(todo).to_contain_text("1 hand to review before the deadline")
    expect(todo).to_contain_text("Scepter Tricks")
    expect(todo).to_contain_text(f"Round {season['open'].code}: review hands")
    expect(todo).to_contain_text("open items — 1 disputed, 1 challenged")
    expect(todo).to_contain_text("1 message failed")
    shoot(page, "my-phm-moderator")
    todo.get_by_role("link", name="Open the review page").click()
    expect(page.get_by_text("you cannot enter a hand in this round")).to_be_visible()
