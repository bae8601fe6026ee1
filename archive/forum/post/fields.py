"""Reading the round's header: its title line, `Key: value` lines, land-rule spellings and deadlines (read in
`deadlines`; the banned list in `banned_list`)."""

import datetime as dt
import re

from .deadlines import place_year, read_posted_deadline

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
    the year that puts it nearest `today` (among those whose calendar has the weekday the post names)."""
    posted = read_posted_deadline(text)
    if posted is None:
        return None
    anchor = dt.datetime.combine(today or dt.date.today(), dt.time(12), tzinfo=dt.UTC)
    return place_year(posted, anchor=anchor).moment
