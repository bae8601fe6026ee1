"""Reading the moderator's corrections of the round's fields (and what the post says of them): a round code,
a land rule, a list of card names, a deadline, each from the forms the page, the API and the forum use."""

from __future__ import annotations

import datetime as dt
import re

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from phm.text import clean_name
from rounds.models import LandRule

_CODE = re.compile(r"\s*(?:(?P<league>\d{1,6})\s*:\s*)?(?P<round>\d{1,4})\s*")
# The spaces before a separator are taken only from where their run starts: without `(?<!\s)` the search
# would take them again from every space of a run that is no separator, quadratic in the run's length.
_NAMES_SPLIT = re.compile(r"(?:(?<!\s)\s*)?(?:\n|\s/\s|;)\s*")
_LAND_RULE_WORDS = {
    "none": LandRule.NONE,
    "no": LandRule.NONE,
    "lr": LandRule.LR,
    "elr": LandRule.ELR,
    "dlr": LandRule.DLR,
    "alr": LandRule.DLR,
}


def read_code(text: object) -> tuple[int | None, int] | None:
    """(league number or None, round number) from "31:03", "3" or "03"; None when it is neither."""
    match = _CODE.fullmatch(str(text or ""))
    if match is None or int(match["round"]) < 1:
        return None
    return (int(match["league"]) if match["league"] else None), int(match["round"])


def read_land_rule(value: object) -> str | None:
    """A LandRule value from a value or a name players use; None when unknown."""
    text = str(value or "").strip()
    if text in LandRule.values:
        return text
    return _LAND_RULE_WORDS.get(text.casefold())


def read_names(value: object) -> list[str]:
    """Card names from a list, or from text with one name per line or names joined by " / " or ";"."""
    if isinstance(value, list | tuple):
        return [clean_name(str(name)) for name in value if clean_name(str(name))]
    return [name for name in (clean_name(part) for part in _NAMES_SPLIT.split(str(value or ""))) if name]


def read_deadline(value: object) -> dt.datetime | None:
    """An aware datetime from a datetime, a date (noon UTC that day) or ISO text; None when it is none."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = (parse_date(text) if len(text) <= 10 else parse_datetime(text)) if text else None
        except ValueError:  # well formed but no such day, such as 2023-02-30
            value = None
    if isinstance(value, dt.datetime):
        return value if timezone.is_aware(value) else timezone.make_aware(value, dt.UTC)
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time(12, 0), tzinfo=dt.UTC)
    return None
