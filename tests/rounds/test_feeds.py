"""A league's Atom feed and iCalendar of deadlines: they parse back (feedparser, icalendar), say only public
things, leave drafts out, and cost a constant number of queries."""

from datetime import UTC, timedelta

import feedparser
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from icalendar import Calendar

from audit.services import log_action
from rounds.models import Round, RoundState
from rounds.services import lifecycle as services
from submissions.models import Hand
from tests.factories import LeagueFactory, RoundFactory

pytestmark = pytest.mark.django_db


def feed_of(client, league):
    response = client.get(f"/leagues/{league.pk}/feed.atom")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.get("bozo_exception")
    return feed


def calendar_of(client, league):
    response = client.get(f"/leagues/{league.pk}/deadlines.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return response, Calendar.from_ical(response.content)


def events_of(calendar):
    return list(calendar.walk("VEVENT"))


def opened(league, moderator, title, **rules):
    now = timezone.now()
    return services.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title=title,
        hand_size=5,
        deadline=now + timedelta(days=2),
        **rules,
    )


def past_deadline(round_, ago=timedelta(hours=1)):
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - ago)
    round_.refresh_from_db()
    return round_


def finalized(round_, moderator):
    Round.objects.filter(pk=round_.pk).update(state=RoundState.FINAL)
    round_.refresh_from_db()
    log_action(
        round_, "round.finalized", actor=moderator, before={"state": "revealed"}, after={"state": "final"}
    )
    return round_


@pytest.fixture
def league_rounds(league, moderator, make_user):
    """A final round, a revealed one with 3 hands, an open one and a draft."""
    players = [make_user(f"p{n}") for n in range(3)]
    first = past_deadline(opened(league, moderator, "Alphabetized"), ago=timedelta(days=9))
    first = finalized(first, moderator)
    second = opened(league, moderator, "Vintage <Power>", land_rule="LR", format_rule="Only **blue** cards.")
    for player in players:
        Hand.objects.create(round=second, player=player, name=f"Hand of {player.username}")
    second = past_deadline(second)
    third = opened(league, moderator, "Pauper Pile", life_rule=True)
    draft = services.create_round(
        actor=moderator,
        league=league,
        now=timezone.now(),
        title="Secret draft idea",
        deadline=timezone.now() + timedelta(days=5),
    )
    return {"final": first, "revealed": second, "open": third, "draft": draft}


# Atom ---------------------------------------------------------------------------------------------------


def test_feed_lists_opened_revealed_and_final_newest_first(client, league, league_rounds):
    feed = feed_of(client, league)
    titles = [entry.title for entry in feed.entries]
    final, revealed, open_ = league_rounds["final"], league_rounds["revealed"], league_rounds["open"]
    assert f"{final.code} results final: Alphabetized" in titles
    assert f"{final.code} hands revealed: Alphabetized" in titles
    assert f"{revealed.code} hands revealed: Vintage <Power>" in titles
    assert f"{open_.code} open: Pauper Pile" in titles
    assert not any(f"{open_.code} hands revealed" in title for title in titles)  # deadline ahead
    assert not any(f"{revealed.code} results final" in title for title in titles)  # not final
    assert len(titles) == 3 + 2 + 1  # three opened, two revealed, one final
    published = [entry.published_parsed for entry in feed.entries]
    assert published == sorted(published, reverse=True)
    assert all(entry.updated_parsed for entry in feed.entries)
    ids = [entry.id for entry in feed.entries]
    assert len(set(ids)) == len(ids)
    assert all(entry_id.startswith("tag:testserver,") for entry_id in ids)
    assert feed.feed.title == f"{league.name} · PHM Moderator"
    assert feed.feed.link == f"http://testserver/leagues/{league.pk}/"
    assert any(
        link.rel == "self" and link.href == f"http://testserver/leagues/{league.pk}/feed.atom"
        for link in feed.feed.links
    )


def test_feed_entries_have_absolute_links_and_the_public_rules(client, league, league_rounds):
    feed = feed_of(client, league)
    by_title = {entry.title: entry for entry in feed.entries}
    revealed = league_rounds["revealed"]
    entry = by_title[f"{revealed.code} open: Vintage <Power>"]
    assert entry.link == f"http://testserver/rounds/{revealed.pk}/"
    assert "Hand size: 5 cards" in entry.summary
    assert "Land Rule Banned List" in entry.summary
    assert "Only **blue** cards." in entry.summary
    assert "Vintage &lt;Power&gt;" in entry.summary  # escaped in the HTML summary
    assert "<Power>" not in entry.summary
    assert "<br" in entry.summary and "&lt;br" not in entry.summary  # one line per rule
    assert "3 hands revealed" in by_title[f"{revealed.code} hands revealed: Vintage <Power>"].summary
    final = league_rounds["final"]
    assert by_title[f"{final.code} results final: Alphabetized"].link == (
        f"http://testserver/rounds/{final.pk}/results/"
    )


def test_feed_times_are_the_events(client, league, league_rounds):
    feed = feed_of(client, league)
    by_title = {entry.title: entry for entry in feed.entries}
    revealed = league_rounds["revealed"]
    entry = by_title[f"{revealed.code} hands revealed: Vintage <Power>"]
    assert entry.published_parsed[:6] == revealed.deadline.astimezone(UTC).timetuple()[:6]
    opened_entry = by_title[f"{revealed.code} open: Vintage <Power>"]
    assert opened_entry.published_parsed[:6] == revealed.opened_at.astimezone(UTC).timetuple()[:6]


def test_feed_ids_stay_the_same_between_fetches(client, league, league_rounds):
    first = [entry.id for entry in feed_of(client, league).entries]
    second = [entry.id for entry in feed_of(client, league).entries]
    assert first == second


def test_an_extended_deadline_updates_the_opened_entry(client, league, league_rounds, moderator):
    open_ = league_rounds["open"]
    title = f"{open_.code} open: Pauper Pile"
    before = {entry.title: entry for entry in feed_of(client, league).entries}[title]
    services.extend_deadline(
        actor=moderator,
        round_id=open_.pk,
        now=timezone.now() + timedelta(seconds=2),
        new_deadline=open_.deadline + timedelta(days=1),
    )
    after = {entry.title: entry for entry in feed_of(client, league).entries}[title]
    assert after.id == before.id
    assert after.updated_parsed >= before.updated_parsed
    assert after.summary != before.summary  # the new deadline


def test_drafts_never_appear(client, league, league_rounds):
    content = client.get(f"/leagues/{league.pk}/feed.atom").content.decode()
    assert "Secret draft idea" not in content
    assert "Secret draft idea" not in client.get(f"/leagues/{league.pk}/deadlines.ics").content.decode()


def test_no_count_of_hands_before_the_deadline(client, league, league_rounds, make_user):
    open_ = league_rounds["open"]
    Hand.objects.create(round=open_, player=make_user("early"), name="Early bird")
    feed = feed_of(client, league)
    entries = [entry for entry in feed.entries if open_.code in entry.title]
    assert [entry.title for entry in entries] == [f"{open_.code} open: Pauper Pile"]
    assert "hand revealed" not in entries[0].summary and "Early bird" not in entries[0].summary


def test_an_empty_league_has_an_empty_feed(client):
    league = LeagueFactory(number=101)
    feed = feed_of(client, league)
    assert feed.entries == []


def test_unknown_league_is_404(client):
    assert client.get("/leagues/999999/feed.atom").status_code == 404
    assert client.get("/leagues/999999/deadlines.ics").status_code == 404


def test_feed_is_capped(client, league):
    for _ in range(30):
        RoundFactory(
            league=league,
            opened_at=timezone.now() - timedelta(days=3),
            deadline=timezone.now() - timedelta(days=1),
        )
    assert len(feed_of(client, league).entries) == 50


# iCalendar ----------------------------------------------------------------------------------------------


def test_calendar_has_one_event_per_published_round(client, league, league_rounds):
    response, calendar = calendar_of(client, league)
    assert response["Content-Disposition"] == 'attachment; filename="phm-league-45-deadlines.ics"'
    assert str(calendar["X-WR-CALNAME"]) == "PHM League 45 deadlines"
    events = events_of(calendar)
    assert len(events) == 3
    by_uid = {str(event["UID"]): event for event in events}
    for key in ("final", "revealed", "open"):
        round_ = league_rounds[key]
        event = by_uid[f"round-{round_.pk}@testserver"]
        assert event.decoded("DTSTART") == round_.deadline.replace(microsecond=0)  # whole seconds
        assert event.decoded("DTSTART").utcoffset() == timedelta(0)
        assert event.decoded("DTEND") - event.decoded("DTSTART") == timedelta(minutes=15)
        assert str(event["SUMMARY"]) == f"PHM {round_.code} deadline — {round_.title}"
        assert str(event["URL"]) == f"http://testserver/rounds/{round_.pk}/"
        assert f"http://testserver/rounds/{round_.pk}/" in str(event["DESCRIPTION"])
        assert "DTSTAMP" in event and "LAST-MODIFIED" in event
        alarms = list(event.walk("VALARM"))
        assert len(alarms) == 1
        assert str(alarms[0]["ACTION"]) == "DISPLAY"
        assert alarms[0].decoded("TRIGGER") == timedelta(hours=-1)
        assert alarms[0]["TRIGGER"].to_ical() == b"-PT1H"
    revealed = by_uid[f"round-{league_rounds['revealed'].pk}@testserver"]
    assert "Land Rule Banned List" in str(revealed["DESCRIPTION"])


def test_a_deadline_change_moves_the_event_and_raises_its_sequence(client, league, league_rounds, moderator):
    open_ = league_rounds["open"]
    uid = f"round-{open_.pk}@testserver"
    _, calendar = calendar_of(client, league)
    before = {str(event["UID"]): event for event in events_of(calendar)}[uid]
    Round.objects.filter(pk=open_.pk).update(updated_at=open_.updated_at - timedelta(minutes=5))
    _, calendar = calendar_of(client, league)
    earlier = {str(event["UID"]): event for event in events_of(calendar)}[uid]
    new_deadline = open_.deadline + timedelta(days=1)
    services.extend_deadline(
        actor=moderator, round_id=open_.pk, now=timezone.now(), new_deadline=new_deadline
    )
    _, calendar = calendar_of(client, league)
    after = {str(event["UID"]): event for event in events_of(calendar)}[uid]
    assert after.decoded("DTSTART") == new_deadline.replace(microsecond=0)
    assert int(after["SEQUENCE"]) > int(earlier["SEQUENCE"])
    assert int(after["SEQUENCE"]) >= int(before["SEQUENCE"])


def test_a_title_with_commas_and_newlines_round_trips(client, league, moderator):
    round_ = opened(league, moderator, "Commas, semicolons; and \\ backslashes")
    _, calendar = calendar_of(client, league)
    (event,) = events_of(calendar)
    assert str(event["SUMMARY"]) == f"PHM {round_.code} deadline — Commas, semicolons; and \\ backslashes"


# Queries ------------------------------------------------------------------------------------------------


def _queries(client, url):
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


@pytest.mark.parametrize("suffix", ["feed.atom", "deadlines.ics"])
def test_queries_do_not_grow_with_the_rounds(client, league, moderator, suffix):
    url = f"/leagues/{league.pk}/{suffix}"

    def add_rounds(count):
        for _ in range(count):
            round_ = RoundFactory(
                league=league,
                opened_at=timezone.now() - timedelta(days=3),
                deadline=timezone.now() - timedelta(days=1),
            )
            finalized(round_, moderator)

    add_rounds(2)
    few = _queries(client, url)
    add_rounds(6)
    assert _queries(client, url) == few
