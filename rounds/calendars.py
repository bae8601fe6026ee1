"""Round deadlines as iCalendar (RFC 5545), built with the `icalendar` library: one builder for a league's
public calendar (rounds.feeds) and a player's own (submissions.calendar_views). Only public information goes
in: a round's code, title, rules and deadline — never anything about its hands."""

from datetime import UTC, datetime, timedelta

from django.http import HttpResponse
from django.http.request import split_domain_port
from django.utils import timezone
from icalendar import Alarm, Calendar, Event

from .bbcode import deadline_utc_text
from .models import DeadlinePrecision, RoundState
from .summary import rules_summary_lines

EVENT_LENGTH = timedelta(minutes=15)
ALARM_BEFORE = timedelta(hours=1)
# SEQUENCE must grow with every change of an event: minutes of `updated_at` since this moment do.
SEQUENCE_EPOCH = datetime(2020, 1, 1, tzinfo=UTC)
PRODUCT_ID = "-//PHM Moderator//Round deadlines//EN"


def calendar_host(request):
    """The host name that makes event UIDs unique (round-12@phm.example.org); the port is left out."""
    host, _port = split_domain_port(request.get_host())
    return host or "phm-moderator"


def _sequence(round_):
    return max(0, int((round_.updated_at - SEQUENCE_EPOCH).total_seconds() // 60))


def deadline_event(round_, *, request, host, stamp):
    """One VEVENT for a round's deadline, with an alarm an hour before. `round_.league` should be loaded."""
    url = request.build_absolute_uri(round_.get_absolute_url())
    deadline = round_.deadline.astimezone(UTC).replace(microsecond=0)  # iCalendar counts whole seconds
    event = Event()
    event.add("uid", f"round-{round_.pk}@{host}")
    event.add("dtstamp", stamp)
    event.add("dtstart", deadline)
    event.add("dtend", deadline + EVENT_LENGTH)
    event.add("summary", f"PHM {round_.code} deadline — {round_.title}")
    event.add(
        "description",
        "\n".join(
            [
                f"{round_.league.name}, round {round_.number}: {round_.title}",
                f"Hands due {deadline_utc_text(round_.deadline)}.",
                "",
                *rules_summary_lines(round_),
                "",
                url,
            ]
        ),
    )
    event.add("url", url)
    event.add("categories", ["PHM", round_.league.name])
    event.add("transp", "TRANSPARENT")  # a deadline does not make anyone busy
    event.add("status", "CONFIRMED")
    event.add("last-modified", round_.updated_at.astimezone(UTC))
    event.add("sequence", _sequence(round_))
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", f"PHM {round_.code}: hands are due in one hour — {round_.title}")
    alarm.add("trigger", -ALARM_BEFORE)
    event.add_component(alarm)
    return event


def build_calendar(rounds, *, name, request, description=""):
    """The calendar (bytes) of the deadlines of `rounds`; drafts are left out whatever the caller passes, and
    so are archived rounds whose deadline is not known exactly (no event at a moment that is only a guess)."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    if description:
        calendar.add("x-wr-caldesc", description)
    calendar.add("x-published-ttl", "PT1H")  # how often subscribers should look again
    calendar.add("refresh-interval", timedelta(hours=1), parameters={"VALUE": "DURATION"})
    host = calendar_host(request)
    stamp = timezone.now().astimezone(UTC)
    for round_ in rounds:
        if round_.state == RoundState.DRAFT or round_.deadline_precision != DeadlinePrecision.EXACT:
            continue
        calendar.add_component(deadline_event(round_, request=request, host=host, stamp=stamp))
    return calendar.to_ical()


def calendar_response(rounds, *, name, filename, request, description="", private=False):
    """The HTTP answer for a calendar: text/calendar, a file name for browsers, a short cache for clients."""
    response = HttpResponse(
        build_calendar(rounds, name=name, request=request, description=description),
        content_type="text/calendar; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=300" if private else "public, max-age=300"
    if private:
        response["X-Robots-Tag"] = "noindex, nofollow"
    return response
