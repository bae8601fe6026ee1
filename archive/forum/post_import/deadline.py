"""The deadline of an archive import. An archived round's deadline is history, not a gate: the post's own when
it gives the year (exact); one placed when it gives none (approximate: near the post's date or between the
league's neighbouring rounds, on the weekday the post names); or none at all (unknown: a stand-in moment only
places the round among its league's rounds). The preview says what was inferred; the moderator may correct it
here or later in the round's form. Only a deadline in the future is refused."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from rounds.models import DeadlinePrecision, League, Round

from ..post import PostRound
from ..post.deadlines import WEEKDAY_NAMES, place_year, read_posted_deadline
from .readers import read_deadline
from .results import PostImport

WEEK = dt.timedelta(days=7)
_CORRECT_IT = "correct it here, or later in the round's form"


@dataclass(frozen=True)
class PlacedDeadline:
    moment: dt.datetime | None  # None only where the post gives no date and nothing places a stand-in
    precision: str
    note: str = ""


def day_text(moment: dt.datetime) -> str:
    """ "4 March 2014"."""
    return f"{moment.day} {moment:%B %Y}"


def place_posted_deadline(
    league: League | None, number: int | None, posted: PostRound, now: dt.datetime
) -> PlacedDeadline:
    """The deadline the post gives, with its year placed when it gives none, and what was inferred."""
    said = f" (it says \u201c{posted.deadline_text}\u201d)" if posted.deadline_text else ""
    reading = read_posted_deadline(posted.deadline_text)
    before_round, after_round = _neighbours(league, number)
    after = before_round.deadline if before_round else None
    before = after_round.deadline if after_round else None
    if reading is None:
        if posted.post_date is not None:
            return PlacedDeadline(
                posted.post_date,
                DeadlinePrecision.APPROXIMATE,
                f"The post gives no deadline{said}; it was posted on {day_text(posted.post_date)}, so the "
                f"deadline is taken as about then: {_CORRECT_IT}.",
            )
        return PlacedDeadline(
            stand_in(after, before, now),
            DeadlinePrecision.UNKNOWN,
            f"The post gives no deadline{said}: the round is imported with its deadline unknown; "
            f"{_CORRECT_IT} when you know it.",
        )
    if reading.year_given:
        return PlacedDeadline(reading.local.astimezone(dt.UTC), DeadlinePrecision.EXACT)
    if posted.post_date is not None:
        anchor = posted.post_date
    elif after is not None:
        anchor = after + WEEK
    elif before is not None:
        anchor = before - WEEK
    else:
        anchor = now
    not_after = min(now, posted.post_date + dt.timedelta(days=1)) if posted.post_date else now
    placement = place_year(reading, anchor=anchor, not_after=not_after, after=after, before=before)
    reasons = []
    if placement.by_weekday:
        reasons.append(f"the weekday ({WEEKDAY_NAMES[reading.weekday or 0]})")
    if posted.post_date is not None:
        reasons.append(f"the post's date ({day_text(posted.post_date)})")
    if placement.in_window:
        reasons.append(_window_text(before_round, after_round))
    inferred = " and ".join(reasons) if reasons else "as the latest year before today"
    mismatch = ""
    if not placement.weekday_matches:
        day = day_text(placement.moment)[:-5]
        mismatch = f" No year near it has {day} on a {WEEKDAY_NAMES[reading.weekday or 0]}."
    return PlacedDeadline(
        placement.moment,
        DeadlinePrecision.APPROXIMATE,
        f"The post gives no year for its deadline (\u201c{posted.deadline_text}\u201d): "
        f"{placement.moment.year} is inferred from {inferred}.{mismatch} Imported as about "
        f"{day_text(placement.moment)}: {_CORRECT_IT}.",
    )


def _neighbours(league, number):
    """The league's rounds just before and after round `number` whose deadlines are known."""
    if league is None or number is None:
        return None, None
    known = league.rounds.exclude(deadline_precision=DeadlinePrecision.UNKNOWN)
    before = known.filter(number__lt=number).order_by("-number").first()
    after = known.filter(number__gt=number).order_by("number").first()
    for round_ in (before, after):
        if round_ is not None:
            round_.league = league
    return before, after


def _window_text(before_round: Round | None, after_round: Round | None) -> str:
    if before_round and after_round:
        return f"the deadlines of rounds {before_round.code} and {after_round.code}"
    neighbour = before_round or after_round
    return f"round {neighbour.code}'s deadline" if neighbour else ""


def stand_in(after: dt.datetime | None, before: dt.datetime | None, now: dt.datetime) -> dt.datetime:
    """A moment for an unknown deadline that keeps the round among its neighbours (ordering only), never in
    the future: between them, a week after the one before, a week before the one after, or now."""
    if after is not None and before is not None and after < before:
        moment = after + (before - after) / 2
    elif after is not None:
        moment = after + WEEK
    elif before is not None:
        moment = before - WEEK
    else:
        moment = now
    return min(moment, now).replace(second=0, microsecond=0)


def _minute(moment):
    return moment.replace(second=0, microsecond=0) if moment is not None else None


def read_deadline_fields(
    result: PostImport, posted: PostRound, corrections: dict[str, object], now: dt.datetime
) -> None:
    """Set the import's deadline and its precision: the post's (placed), or the moderator's correction (a
    date given without saying how well it is known is exact). Call once the round's number is known."""
    fields = result.fields
    placed = place_posted_deadline(result.league, fields.number, posted, now)
    # What the form showed: no date for an unknown deadline, and whole minutes.
    shown = _minute(placed.moment) if placed.precision != DeadlinePrecision.UNKNOWN else None
    corrected_moment = "deadline" in corrections and _minute(read_deadline(corrections["deadline"])) != shown
    given = str(corrections.get("deadline_precision") or "")
    corrected_precision = "deadline_precision" in corrections and given != placed.precision
    fields.deadline, fields.deadline_precision, fields.deadline_note = (
        placed.moment,
        placed.precision,
        placed.note,
    )
    if given and given not in DeadlinePrecision.values:
        result.add(
            "deadline_precision",
            f"\u201c{given}\u201d says nothing of the deadline: choose exact, approximate or unknown.",
            "round.deadline_precision",
        )
        return
    if corrected_moment:
        # A date the moderator gives is exact unless they say it is only about right.
        fields.corrected.add("deadline")
        fields.deadline = read_deadline(corrections["deadline"])
        fields.deadline_precision = (
            given if given == DeadlinePrecision.APPROXIMATE else DeadlinePrecision.EXACT
        )
        fields.deadline_note = ""
    elif corrected_precision:
        fields.corrected.add("deadline_precision")
        fields.deadline_precision = given
        fields.deadline_note = ""
        if placed.precision == DeadlinePrecision.UNKNOWN:
            fields.deadline = None  # the stand-in is no date to be exact or about right
    if fields.deadline_precision == DeadlinePrecision.UNKNOWN:
        if fields.deadline is None or fields.deadline > now:
            before_round, after_round = _neighbours(result.league, fields.number)
            fields.deadline = stand_in(
                before_round.deadline if before_round else None,
                after_round.deadline if after_round else None,
                now,
            )
    elif fields.deadline is None:
        said = f" (the post says \u201c{posted.deadline_text}\u201d)" if posted.deadline_text else ""
        result.add(
            "deadline_missing",
            f"Give the date of the round's deadline{said}, or choose \u201cUnknown\u201d.",
            "round.deadline",
        )
    elif fields.deadline > now:
        result.add("deadline_future", "An archived round's deadline is in the past.", "round.deadline")
    if fields.deadline_note:
        result.warnings.append(fields.deadline_note)
