"""Deadlines as posts write them ("Sunday 12 March 2023, 23:59 GMT", "Tuesday, March 4th, 11:00 PM GMT"), and
the year of one posted without it: placed near an anchor (the post's date, the league's neighbouring rounds,
today), among the years whose calendar has the weekday the post names. A post's date comes from the forum's
byline when it is pasted with the post ("Post by Mogg » Tue Mar 04, 2014 11:05 pm")."""

import datetime as dt
import re
from dataclasses import dataclass

from dateutil import parser as date_parser
from dateutil import tz

MAX_TEXT = 300
YEARS_BACK = 15  # a weekday and a date meet again within 11 years: enough to choose among
_YEAR = re.compile(r"\b\d{4}\b|\b\d{1,2}[-/.]\d{1,2}[-/.]\d{2}\b|'\d{2}\b")
_YEAR_FIRST = re.compile(r"\D{0,30}?\d{4}[-/.]\d{1,2}[-/.]\d{1,2}")
_ORDINAL = re.compile(r"(\d)(?:st|nd|rd|th)\b", re.IGNORECASE)
_WEEKDAY = re.compile(
    r"\b(?P<day>mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday|s|r|rs)?\b\.?,?", re.IGNORECASE
)
_WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_TIMEZONES = {
    name: tz.tzoffset(name, hours * 3600)
    for name, hours in {
        "UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "BST": 1, "CET": 1, "CEST": 2, "EET": 2, "EEST": 3,
        "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
        "AEST": 10, "AEDT": 11, "JST": 9,
    }.items()
}  # fmt: skip
# The forum's byline above a post, as it is copied with it: "Post by Mogg » Tue Mar 04, 2014 11:05 pm",
# "Posted: 04 Mar 2014, 23:05", "Posted on Tue Mar 04, 2014".
_BYLINE = re.compile(
    r"(?:(?:post(?:ed)?\s+)?by\s+\S[^\n\u00bb]{0,60}?\s*\u00bb|\u00bb|posted(?:\s+on)?\s*:?)\s*(?P<date>.{6,60})",
    re.IGNORECASE,
)
# Two defaults for what a text does not give: a component that differs between the two readings was not given
# ("11pm" has no minutes, "March 4th" no time). A leap year, so "29 February" parses without a year.
_SENTINEL = dt.datetime(2000, 1, 1, 3, 17, 7, 654321)
_OTHER_SENTINEL = dt.datetime(2000, 2, 2, 4, 28, 19, 123456)


@dataclass(frozen=True)
class PostedDeadline:
    """A deadline as posted: `local` in its own time zone, with the post's year or (when `year_given` is
    false) a stand-in one; `weekday` the day of the week the post names (0 is Monday), if any."""

    local: dt.datetime
    year_given: bool
    weekday: int | None = None


@dataclass(frozen=True)
class Placement:
    """Where a deadline without a year was placed: `moment` (aware, UTC); whether the weekday and the window
    (the neighbouring rounds, the post's date) decided among the years."""

    moment: dt.datetime
    by_weekday: bool = False
    in_window: bool = False
    weekday_matches: bool = True  # False: no year near the anchor has that date on that weekday


def read_posted_deadline(text: str) -> PostedDeadline | None:
    """The date and time a post writes, or None when it writes none. Day first (`12/03/2023` is 12 March); a
    date without a time is noon (the same date everywhere within 11 hours of UTC)."""
    text = _ORDINAL.sub(r"\1", (text or "")[:MAX_TEXT]).replace(" at ", " ").strip()
    if not any(char.isdigit() for char in text):
        return None
    weekday = None
    named = _WEEKDAY.search(text)
    if named is not None:
        weekday = _WEEKDAYS[named["day"].casefold()]
        text = (text[: named.start()] + " " + text[named.end() :]).strip(" ,")
    try:
        parsed = _parse(text, _SENTINEL)
        other = _parse(text, _OTHER_SENTINEL)
        if (parsed.month, parsed.day) != (other.month, other.day):
            return None  # a time alone ("23:59 GMT") is no date
        if parsed.hour != other.hour:
            parsed = parsed.replace(hour=12, minute=0, second=0, microsecond=0)
        else:
            parsed = parsed.replace(
                minute=parsed.minute if parsed.minute == other.minute else 0,
                second=parsed.second if parsed.second == other.second else 0,
                microsecond=0,
            )
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=dt.UTC)
        parsed.astimezone(dt.UTC)  # out of range here rather than later
    except (ValueError, OverflowError, TypeError, ArithmeticError, LookupError):
        return None
    year_given = _YEAR.search(text) is not None
    return PostedDeadline(parsed, year_given, weekday)


def _parse(text, default):
    """The moment dateutil reads in `text`, the components it lacks taken from `default`."""
    year_first = _YEAR_FIRST.match(text) is not None  # 2023-03-12 is ISO, not day first
    moment = date_parser.parse(
        text, dayfirst=not year_first, yearfirst=year_first, fuzzy=True, default=default, tzinfos=_TIMEZONES
    )
    return moment


def place_year(
    deadline: PostedDeadline,
    *,
    anchor: dt.datetime,
    not_after: dt.datetime | None = None,
    after: dt.datetime | None = None,
    before: dt.datetime | None = None,
) -> Placement:
    """The deadline with its year: the post's, or among the years up to `not_after`, those whose calendar puts
    the date on the weekday the post names and that fall between `after` and `before`, the one nearest
    `anchor`. A condition no year meets is let go (the window first, then the weekday)."""
    if deadline.year_given:
        return Placement(deadline.local.astimezone(dt.UTC))
    candidates = []
    for year in range(anchor.year - YEARS_BACK, anchor.year + 2):
        try:
            moment = deadline.local.replace(year=year)
        except ValueError:  # 29 February of a common year
            continue
        if not_after is None or moment <= not_after:
            candidates.append(moment)
    if not candidates:  # nothing before `not_after` at all: the nearest anyway
        return place_year(deadline, anchor=anchor, after=after, before=before)
    windowed = [
        moment
        for moment in candidates
        if (after is None or moment > after) and (before is None or moment < before)
    ]
    windows = after is not None or before is not None
    weekday = deadline.weekday
    pools = []
    if weekday is not None:
        pools.append(([m for m in windowed if m.weekday() == weekday], True, windows))
        pools.append(([m for m in candidates if m.weekday() == weekday], True, False))
    pools.append((windowed, False, windows))
    pools.append((candidates, False, False))
    for pool, by_weekday, in_window in pools:
        if pool:
            chosen = min(pool, key=lambda moment: abs(moment - anchor))
            return Placement(
                chosen.astimezone(dt.UTC),
                by_weekday=by_weekday,
                in_window=in_window,
                weekday_matches=weekday is None or by_weekday,
            )
    raise AssertionError("unreachable: the last pool holds every candidate")  # pragma: no cover


def byline_date(text: str) -> dt.datetime | None:
    """The date of a forum byline line ("Post by Mogg » Tue Mar 04, 2014 11:05 pm"), aware UTC; None when
    the line is no byline or names no whole date."""
    if len(text) > 120:
        return None
    match = _BYLINE.fullmatch(text.strip())
    if match is None:
        return None
    posted = read_posted_deadline(match["date"])
    if posted is None or not posted.year_given:
        return None
    return posted.local.astimezone(dt.UTC)
