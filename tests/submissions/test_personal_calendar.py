"""The personal calendar (/calendar/<token>.ics): the deadlines of the leagues its owner plays in or follows,
nothing else; a replaced link answers 404; and no feed tells anything of a hand before the deadline."""

from datetime import timedelta

import feedparser
import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from icalendar import Calendar

from accounts import services as account_services
from rounds.models import Round, RoundState
from rounds.services import leagues as round_services
from submissions.models import Hand
from tests import builders
from tests.factories import LeagueFactory, RoundFactory

from .conftest import KJELD

pytestmark = pytest.mark.django_db

SECRET_NAME = "Distinctive Zebra Gambit"
SECRET_CARDS = ["Kjeldoran Warrior", "Wheel of Torture", "Leyline of Singularity", "Karakas"]


def calendar_url(user):
    return f"/calendar/{account_services.calendar_token_for(user)}.ics"


def events(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="phm-my-deadlines.ics"'
    assert response["Cache-Control"].startswith("private")
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["X-WR-CALNAME"]) == "PHM deadlines"
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def uid(round_):
    return f"round-{round_.pk}@testserver"


@pytest.fixture
def leagues(league, moderator, alice, bob):
    """League 45: alice has a hand in an earlier round (past), an open round follows, plus a draft.
    Another league only bob plays in; a third alice follows; a fourth nobody cares about."""
    now = timezone.now()
    played = RoundFactory(league=league, deadline=now - timedelta(days=3), state=RoundState.FINAL)
    Hand.objects.create(round=played, player=alice, name="Old hand")
    open_ = RoundFactory(league=league, deadline=now + timedelta(days=4))
    draft = RoundFactory(league=league, deadline=now + timedelta(days=9), state=RoundState.DRAFT)
    ancient = RoundFactory(league=league, deadline=now - timedelta(days=200), state=RoundState.FINAL)
    bobs = LeagueFactory(number=101)
    bobs_round = RoundFactory(league=bobs, deadline=now - timedelta(days=1))
    Hand.objects.create(round=bobs_round, player=bob, name="Bob's")
    bobs_open = RoundFactory(league=bobs, deadline=now + timedelta(days=1))
    followed = LeagueFactory(number=102)
    followed_round = RoundFactory(league=followed, deadline=now + timedelta(days=6))
    followed.followers.add(alice)
    other = LeagueFactory(number=103)
    other_round = RoundFactory(league=other, deadline=now + timedelta(days=2))
    return {
        "played": played,
        "open": open_,
        "draft": draft,
        "ancient": ancient,
        "bobs_round": bobs_round,
        "bobs_open": bobs_open,
        "followed": followed_round,
        "other": other_round,
    }


def test_lists_the_leagues_the_user_plays_in_or_follows(client, alice, leagues):
    found = events(client, calendar_url(alice))
    assert set(found) == {uid(leagues["played"]), uid(leagues["open"]), uid(leagues["followed"])}
    event = found[uid(leagues["open"])]
    assert event.decoded("DTSTART") == leagues["open"].deadline.replace(microsecond=0)
    (alarm,) = event.walk("VALARM")
    assert alarm["TRIGGER"].to_ical() == b"-PT1H"


def test_another_player_gets_only_theirs(client, bob, leagues):
    found = events(client, calendar_url(bob))
    assert set(found) == {uid(leagues["bobs_round"]), uid(leagues["bobs_open"])}


def test_drafts_and_old_rounds_stay_out(client, alice, leagues):
    found = events(client, calendar_url(alice))
    assert uid(leagues["draft"]) not in found
    assert uid(leagues["ancient"]) not in found


def test_nobody_plays_nothing_shows(client, make_user, leagues):
    assert events(client, calendar_url(make_user("newcomer"))) == {}


def test_following_adds_a_league_and_unfollowing_removes_it(client, alice, leagues):
    round_services.follow_league(alice, leagues["other"].league_id)
    assert uid(leagues["other"]) in events(client, calendar_url(alice))
    round_services.unfollow_league(alice, leagues["other"].league_id)
    assert uid(leagues["other"]) not in events(client, calendar_url(alice))


def test_a_replaced_link_is_404_and_the_new_one_works(client, alice, leagues):
    old = calendar_url(alice)
    assert client.get(old).status_code == 200
    account_services.renew_calendar_token(alice)
    assert client.get(old).status_code == 404
    new = calendar_url(alice)
    assert new != old
    assert uid(leagues["open"]) in events(client, new)


@pytest.mark.parametrize(
    "path",
    [
        "/calendar/not-a-real-token.ics",
        "/calendar/" + "A" * 43 + ".ics",
        "/calendar/" + "A" * 65 + ".ics",
        "/calendar/.ics",
        "/calendar/abc%00def.ics",
    ],
)
def test_unknown_tokens_are_404(client, alice, leagues, path):
    account_services.calendar_token_for(alice)
    assert client.get(path).status_code == 404


def test_an_inactive_account_has_no_calendar(client, alice, leagues):
    url = calendar_url(alice)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert client.get(url).status_code == 404


def test_queries_do_not_grow_with_the_rounds(client, alice, league, leagues):
    url = calendar_url(alice)

    def count():
        with CaptureQueriesContext(connection) as context:
            assert client.get(url).status_code == 200
        return len(context.captured_queries)

    few = count()
    for days in range(1, 9):
        Hand.objects.create(
            round=RoundFactory(
                league=LeagueFactory(number=200 + days), deadline=timezone.now() + timedelta(days=days)
            ),
            player=alice,
            name=f"hand {days}",
        )
    assert len(events(client, url)) == 3 + 8
    assert count() == few


# Secrecy across all three feeds ---------------------------------------------------------------------------


def all_feeds(alice, league):
    """Every feed, fetched without logging in: the league's Atom and iCalendar, and alice's own calendar."""
    anonymous = Client()
    return {
        "atom": anonymous.get(f"/leagues/{league.pk}/feed.atom").content.decode(),
        "league ics": anonymous.get(f"/leagues/{league.pk}/deadlines.ics").content.decode(),
        "personal ics": anonymous.get(calendar_url(alice)).content.decode(),
    }


def test_no_feed_shows_anything_of_a_hand_before_the_deadline(alice, bob, league, open_round):
    builders.submit(alice, open_round, KJELD, name=SECRET_NAME)
    account_services.calendar_token_for(bob)
    feeds = all_feeds(alice, league)
    feeds["bob ics"] = Client().get(calendar_url(bob)).content.decode()
    for which, text in feeds.items():
        assert SECRET_NAME not in text, which
        for card in SECRET_CARDS:
            assert card not in text, (which, card)
        for mark in ("alice", "WhammeWhamme"):
            assert mark not in text, (which, mark)
        assert "1 hand" not in text, which  # not even how many
    atom = feedparser.parse(feeds["atom"])
    assert not atom.bozo
    assert [entry.title for entry in atom.entries] == [f"{open_round.code} open: 5 Card Vintage"]
    # The personal calendar of the player has the round; bob's does not (he plays nowhere).
    assert uid(open_round) in feeds["personal ics"]
    assert uid(open_round) not in feeds["bob ics"]


def test_after_the_deadline_the_feed_counts_the_hands_but_names_none(alice, league, open_round):
    builders.submit(alice, open_round, KJELD, name=SECRET_NAME)
    with time_machine.travel(open_round.deadline + timedelta(minutes=1), tick=False):
        feeds = all_feeds(alice, league)
    atom = feedparser.parse(feeds["atom"])
    revealed = [entry for entry in atom.entries if "hands revealed" in entry.title]
    assert len(revealed) == 1 and "1 hand revealed" in revealed[0].summary
    for text in feeds.values():
        assert SECRET_NAME not in text


def test_a_round_draft_then_opened_appears_once_open(client, league, moderator, alice):
    now = timezone.now()
    draft = round_services.create_round(
        actor=moderator, league=league, now=now, title="Later", deadline=now + timedelta(days=3)
    )
    league.followers.add(alice)
    assert uid(draft) not in events(client, calendar_url(alice))
    round_services.open_round(actor=moderator, round_id=draft.pk, now=now)
    assert Round.objects.get(pk=draft.pk).state == RoundState.OPEN
    assert uid(draft) in events(client, calendar_url(alice))
