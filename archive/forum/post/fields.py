"""Reading the round's header: its title line, `Key: value` lines, land-rule spellings and deadlines."""

import datetime as dt
import re

from dateutil import parser as date_parser
from dateutil import tz

MAX_FIELD = 300  # longer values are no header's
# `Key: value`; the key is a few words. `[b]Key:[/b] value` arrives tag-stripped.
_KEY_VALUE = re.compile(r"(?P<key>[A-Za-z][A-Za-z '\u2019/-]{0,40}?)\s*[:=]\s*(?P<value>.*)")
_FIELD_KEYS = {
    "hand_size": ("deck size", "hand size", "cards per hand", "hand", "deck"),
    "land_rule": ("land rule", "land rules", "lands", "land", "lr"),
    "extra_banned": (
        "additional banned list",
        "additional banned cards",
        "additional banned",
        "additional bans",
        "additional ban list",
        "extra banned list",
        "extra banned cards",
        "extra banned",
        "extra bans",
        "extra ban list",
        "banned list",
        "banned cards",
        "bans",
        "banned",
    ),
    "format_rule": ("format", "format rule", "format rules", "rule", "rules", "restriction"),
    "deadline": ("deadline", "due", "closes", "round deadline", "hand deadline", "hands due"),
}
_KEY_FIELD = {key: name for name, keys in _FIELD_KEYS.items() for key in keys}
_LAND_RULES = {
    "LR": ("basic", "land rule", "lr", "yes", "basic land rule", "standard", "normal"),
    "ELR": ("extra", "elr", "extra land rule", "extended", "extended land rule"),
    "DLR": ("draw", "alternative", "alternate", "dlr", "alr", "draw land rule", "alternative land rule"),
    "none": ("none", "no", "-", "\u2013", "\u2014", "n/a", "off", "no land rule", "nope"),
}
_LAND_RULE_WORDS = {spelling: rule for rule, spellings in _LAND_RULES.items() for spelling in spellings}
_TITLE_LAND_RULE = re.compile(r"(?<![\w-])(ELR|DLR|ALR|LR)(?![\w-])")
_TITLE_HAND_SIZE = re.compile(r"\s*([1-7])(?!\d)\s*(?:-\s*)?(?:cards?\b|ch\b|c\b)", re.IGNORECASE)
_LEADING_DIGIT = re.compile(r"\s*([1-7])(?![\d:])")
_CODE = re.compile(r"(?<![\d:])(\d{1,3}):(\d{2})(?![\d:])")
_LEAGUE = re.compile(r"\bleague\s*#?\s*(\d{1,3})\b", re.IGNORECASE)
_ROUND = re.compile(r"\b(?:week|round)\s*#?\s*(\d{1,3})\b", re.IGNORECASE)
_TITLE_SEPARATOR = re.compile(r"\s+[-\u2013\u2014|]\s+|\s*\|\s*")
# One alternative per character class (no `(a+)+`): a failing match must not backtrack exponentially.
_NOISE_SEGMENT = re.compile(
    r"(?:hands?\s+(?:posted|revealed|are\s+up)|results?|(?:league|week|round)\s{0,3}#?\s{0,3}\d{1,3}(?::\d{2})?"
    r"|\d{1,3}:\d{2}|[\s,:!.#])+",
    re.IGNORECASE,
)
_EMPTY_VALUE = ("", "none", "no", "-", "\u2013", "\u2014", "n/a", "nothing", "no additional bans")
_LIST_SPLIT = re.compile(r"\s*(?:,|;|\s/\s|\s\|\s)\s*")
_YEAR_FIRST = re.compile(r"\D{0,30}?\d{4}[-/.]\d{1,2}[-/.]\d{1,2}")
_ORDINAL = re.compile(r"(\d)(?:st|nd|rd|th)\b", re.IGNORECASE)
_TIMEZONES = {
    name: tz.tzoffset(name, hours * 3600)
    for name, hours in {
        "UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "BST": 1, "CET": 1, "CEST": 2, "EET": 2, "EEST": 3,
        "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
        "AEST": 10, "AEDT": 11, "JST": 9,
    }.items()
}  # fmt: skip


def header_field(text):
    """(field name, value) when `text` is one of the round's header lines, e.g. `Land Rule: None`."""
    if len(text) > MAX_FIELD:
        return None
    match = _KEY_VALUE.fullmatch(text)
    if match is None:
        return None
    name = _KEY_FIELD.get(" ".join(match["key"].casefold().replace("\u2019", "'").split()))
    return (name, match["value"].strip()) if name else None


def land_rule(value):
    """The land rule ("none", "LR", "ELR" or "DLR") a posted spelling names, else None."""
    words = " ".join(value.casefold().strip(" .!()").split())
    if words in _LAND_RULE_WORDS:
        return _LAND_RULE_WORDS[words]
    found = _TITLE_LAND_RULE.search(value.upper())
    if found:
        return "DLR" if found.group(1) == "ALR" else found.group(1)
    first = words.split(" ", 1)[0] if words else ""
    return _LAND_RULE_WORDS.get(first)


def hand_size(value):
    match = re.match(r"\s*([1-7])(?!\d)", value)
    return int(match.group(1)) if match else None


def name_list(value):
    """`Black Lotus, Sol Ring / Mox Pearl` -> the names as typed; `None` -> []."""
    value = " ".join(value.split())  # the split below then meets no run of spaces
    if value.casefold().strip(" .") in _EMPTY_VALUE:
        return []
    return [name.strip(" .") for name in _LIST_SPLIT.split(value) if name.strip(" .")]


def title_fields(text):
    """What a heading line says: {title, code, league_number, round_number, hand_size, land_rule}."""
    text = text[:MAX_FIELD]
    found = {}
    code = _CODE.search(text)
    if code:
        found.update(code=f"{int(code[1])}:{code[2]}", league_number=int(code[1]), round_number=int(code[2]))
    else:
        league, round_ = _LEAGUE.search(text), _ROUND.search(text)
        if league:
            found["league_number"] = int(league[1])
            if round_:
                found["round_number"] = int(round_[1])
    segments = [segment.strip() for segment in _TITLE_SEPARATOR.split(text)]
    kept = [segment for segment in segments if segment and not _NOISE_SEGMENT.fullmatch(segment)]
    kept = [_CODE.sub("", segment).strip(" -:,") for segment in kept]
    found["title"] = " - ".join(segment for segment in kept if segment)
    size = _TITLE_HAND_SIZE.match(found["title"]) or _LEADING_DIGIT.match(found["title"])
    if size:
        found["hand_size"] = int(size.group(1))
    rule = _TITLE_LAND_RULE.search(found["title"])
    if rule:
        found["land_rule"] = "DLR" if rule.group(1) == "ALR" else rule.group(1)
    return found


def is_heading_only(text):
    """A line that only names the post and the round ("Hands posted - League 31:03"): no commentary."""
    return bool(round_code(text)) and not title_fields(text)["title"] and len(text) < MAX_FIELD


def round_code(text):
    """{code, league_number, round_number} named anywhere in `text`, else {}."""
    fields = title_fields(text)
    return {key: value for key, value in fields.items() if key in ("code", "league_number", "round_number")}


def parse_deadline(text, today=None):
    """An aware UTC datetime for a posted deadline, or None. Day first (`12/03/2023` is 12 March); a date
    without a time is noon UTC (the same date everywhere within 11 hours of UTC); a date without a year takes
    the year that puts it nearest `today`."""
    text = _ORDINAL.sub(r"\1", text[:MAX_FIELD]).replace(" at ", " ").strip()
    if not text or not any(char.isdigit() for char in text):
        return None
    today = today or dt.date.today()
    try:
        # Components the text does not give keep these odd values, so "no time given" can be told apart.
        sentinel = dt.datetime(today.year, 1, 1, 3, 17, 7, 654321)
        year_first = _YEAR_FIRST.match(text) is not None  # 2023-03-12 is ISO, not day first
        parsed = date_parser.parse(
            text,
            dayfirst=not year_first,
            yearfirst=year_first,
            fuzzy=True,
            default=sentinel,
            tzinfos=_TIMEZONES,
        )
        if (parsed.hour, parsed.minute, parsed.second, parsed.microsecond) == (3, 17, 7, 654321):
            parsed = parsed.replace(hour=12, minute=0, second=0, microsecond=0)
        elif parsed.microsecond == 654321:
            parsed = parsed.replace(second=0 if parsed.second == 7 else parsed.second, microsecond=0)
        if not re.search(r"\b\d{4}\b", text):
            candidates = [parsed.replace(year=parsed.year + shift) for shift in (-1, 0, 1)]
            anchor = dt.datetime.combine(today, dt.time(12), tzinfo=parsed.tzinfo)
            parsed = min(candidates, key=lambda candidate: abs(_naive(candidate) - _naive(anchor)))
        if parsed.tzinfo is None:
            return parsed.replace(tzinfo=dt.UTC)
        return parsed.astimezone(dt.UTC)
    except (ValueError, OverflowError, TypeError, ArithmeticError, LookupError):
        return None


def _naive(moment):
    return moment.replace(tzinfo=None)
