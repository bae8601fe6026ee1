"""In the browser, a moderator who plays in a round has no power over it that another moderator could use: after
the reveal the review page, the match page and the results page refuse them, naming who can act, and offer no
form; where nobody else can manage the league, what they decide is shown to everyone as decided by a moderator
who played this round."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.services import make_moderator, register_player
from scoring.models import Match
from scoring.services.decisions import set_result
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from tests import builders
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import shoot
from tests.submissions.conftest import KJELD, SCEPTER, VOID

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played_round(vintage_round, moderator, player, password):
    """Round 1 of League 45, revealed: the moderator plays hand 01, `player` 02 and a third player 03; the
    moderator's match against 02 is disputed (each says they won it)."""
    rival = register_player(username="rival", password=password, forum_username="Rival")
    round_ = vintage_round
    for who, cards, name in [
        (moderator, VOID, "Void"),
        (player, KJELD, "Kjeld"),
        (rival, SCEPTER, "Scepter"),
    ]:
        builders.submit(who, round_, cards, name=name)
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    build_match_table(round_.pk)
    match = Match.objects.get(round=round_, hand_a__number=1, hand_b__number=2)
    report_match(reporter=moderator, match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=player, match_id=match.pk, points_a=0, points_b=6)
    return round_, match


def test_a_playing_moderator_is_refused_every_power_over_their_round_and_told_who_can_act(
    live_server, page, moderator, password, played_round
):
    round_, match = played_round
    second = register_player(username="second", password=password, forum_username="Second Moderator")
    make_moderator(second)
    round_.league.moderators.add(second)

    log_in(page, live_server, "mod", password)
    page.goto(f"{live_server.url}/moderate/rounds/{round_.pk}/hands/")
    expect(page.locator("#plays-refusal")).to_contain_text("Second Moderator")
    expect(page.get_by_role("button", name="Disqualify")).to_have_count(0)
    expect(page.get_by_role("button", name="Replace")).to_have_count(0)
    shoot(page, "playing-moderator-review")

    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.locator("#decide-refusal")).to_contain_text("Second Moderator")
    shoot(page, "playing-moderator-match")

    page.goto(f"{live_server.url}/moderate/rounds/{round_.pk}/results/")
    expect(page.locator("#finalize-refusal")).to_contain_text("Second Moderator")
    expect(page.get_by_role("button", name="Finalize")).to_have_count(0)
    expect(page.locator("#award-refusal")).to_contain_text("Second Moderator")
    expect(page.get_by_role("button", name="Award")).to_have_count(0)
    expect(page.locator("#rows-refusal")).to_contain_text("Second Moderator")
    expect(page.get_by_role("button", name="Import")).to_have_count(0)
    shoot(page, "playing-moderator-results")

    page.context.clear_cookies()
    log_in(page, live_server, "second", password)
    page.goto(f"{live_server.url}/moderate/rounds/{round_.pk}/hands/")
    expect(page.locator("#plays-refusal")).to_have_count(0)
    expect(page.get_by_role("button", name="Disqualify").first).to_be_visible()


def test_a_league_s_only_moderator_who_plays_decides_in_the_open(
    live_server, page, moderator, password, played_round
):
    round_, match = played_round
    log_in(page, live_server, "mod", password)
    page.goto(f"{live_server.url}/moderate/rounds/{round_.pk}/hands/")
    expect(page.locator("#plays-alone")).to_be_visible()
    shoot(page, "only-moderator-review")

    set_result(actor=moderator, match_id=match.pk, points_a=6, points_b=0, note="Void locks them")
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.get_by_text("decided by a moderator who played this round").first).to_be_visible()
    shoot(page, "only-moderator-match-public")
