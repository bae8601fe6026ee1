"""A player follows a league from its page, finds its feed and calendar there,
and takes (and replaces) their own calendar link on the profile page; on a desktop and a phone."""

import re

import feedparser
import pytest
from icalendar import Calendar
from playwright.sync_api import expect

from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import DESKTOP, PHONE, shoot

pytestmark = pytest.mark.django_db(transaction=True)


def test_follow_a_league_and_take_the_calendar_link(live_server, page, player, password, vintage_round):
    league = vintage_round.league
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "player", password)
    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    feed_link = page.locator('head link[rel="alternate"][type="application/atom+xml"]')
    expect(feed_link).to_have_attribute("href", f"/leagues/{league.pk}/feed.atom")
    expect(page.get_by_role("link", name="Feed")).to_be_visible()
    expect(page.get_by_role("link", name="Calendar of deadlines")).to_be_visible()

    page.get_by_role("button", name="Follow").click()
    expect(page.get_by_role("alert")).to_contain_text("You follow League 45")
    expect(page.get_by_role("button", name=re.compile("Unfollow"))).to_be_visible()
    assert league.followers.filter(pk=player.pk).exists()
    shoot(page, "league-feeds-follow")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    page.set_viewport_size(DESKTOP)

    feed = feedparser.parse(page.request.get(f"{live_server.url}/leagues/{league.pk}/feed.atom").body())
    assert not feed.bozo and feed.entries[0].title == "45:01 open: 5 Card Vintage"
    ics = page.request.get(f"{live_server.url}/leagues/{league.pk}/deadlines.ics")
    assert ics.headers["content-type"] == "text/calendar; charset=utf-8"
    assert len(Calendar.from_ical(ics.body()).walk("VEVENT")) == 1

    page.get_by_role("link", name="Your own calendar of all your leagues").click()
    expect(page.get_by_role("heading", name="Your deadline calendar")).to_be_visible()
    address = page.get_by_label("Your private calendar address")
    old = address.input_value()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/calendar/[A-Za-z0-9_-]{{43}}\.ics", old)
    personal = Calendar.from_ical(page.request.get(old).body())
    uids = [str(event["UID"]) for event in personal.walk("VEVENT")]
    assert uids == [f"round-{vintage_round.pk}@localhost"]
    page.locator("#calendar").scroll_into_view_if_needed()
    shoot(page, "profile-calendar")

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Make a new link (the old one stops working)").click()
    expect(page.get_by_role("alert")).to_contain_text("the old one no longer works")
    new = page.get_by_label("Your private calendar address").input_value()
    assert new != old
    assert page.request.get(old).status == 404
    assert page.request.get(new).status == 200
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1

    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    page.get_by_role("button", name=re.compile("Unfollow")).click()
    expect(page.get_by_role("button", name="Follow")).to_be_visible()
    assert not league.followers.filter(pk=player.pk).exists()
