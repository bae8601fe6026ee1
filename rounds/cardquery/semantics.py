"""What each filter means: a term's value checked against the catalog and turned into a `Test`, which both
compilers (Python predicate, Django Q) read, so that a live check and a search can never disagree.

Keys (aliases in parser.KEY_ALIASES): name, type, oracle, mv, color, identity, rarity, set, format, banned,
restricted, year, date, is, not. Choices made here are documented in README.md (Card search).
"""

import datetime
import itertools
import operator
import re
from dataclasses import dataclass

from rounds.catalog.names import normalize_name

from .errors import QuerySyntaxError
from .records import COLORS

COMPARE = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
SET_COMPARE = COMPARE  # frozensets: <= is "subset of", >= "superset of", exactly as Scryfall reads c<=ub
TEXT_KEYS = {"name", "type", "oracle", "set", "format", "banned", "restricted", "is", "not", "rarity"}

COLOR_NAMES = {
    "white": "W", "blue": "U", "black": "B", "red": "R", "green": "G",
    "azorius": "WU", "dimir": "UB", "rakdos": "BR", "gruul": "RG", "selesnya": "GW",
    "orzhov": "WB", "izzet": "UR", "golgari": "BG", "boros": "RW", "simic": "GU",
    "bant": "GWU", "esper": "WUB", "grixis": "UBR", "jund": "BRG", "naya": "RGW",
    "abzan": "WBG", "jeskai": "URW", "sultai": "BGU", "mardu": "RWB", "temur": "GUR",
}  # fmt: skip
COLORLESS_NAMES = {"c", "colorless", "colourless"}
MULTICOLOR_NAMES = {"m", "multi", "multicolor", "multicolour", "multicolored", "multicoloured"}

LAYOUTS = {
    "split": ("split", "aftermath"),
    "flip": ("flip",),
    "transform": ("transform",),
    "mdfc": ("modal_dfc",),
    "dfc": ("transform", "modal_dfc", "meld", "reversible_card"),
    "meld": ("meld",),
    "adventure": ("adventure",),
}
# Front face (before " // ") type patterns, case-insensitive; the same text for Python `re` and PostgreSQL.
FRONT_PATTERNS = {
    "permanent": r"^[^/]*(artifact|creature|enchantment|land|planeswalker|battle)",
    "historic": r"^[^/]*(legendary|artifact|saga)",
    "nonland": r"^[^/]*(instant|sorcery|artifact|creature|enchantment|planeswalker|battle|kindred|tribal)",
    "land": r"^[^/]*land",
}
IS_VALUES = (*LAYOUTS, "permanent", "spell", "historic", "vanilla", "changeling")

LEGAL_OR_RESTRICTED = ("legal", "restricted")


@dataclass(frozen=True, slots=True)
class Test:
    """A validated filter. `kind` says which field and how; `arg` is the checked value."""

    kind: str
    arg: object = None
    op: str = "="


def _error(term, message, at_value=True):
    return QuerySyntaxError(message, term.value_position if at_value else term.position)


def _number(term):
    try:
        value = float(term.value)
    except ValueError:
        raise _error(term, f"“{term.value}” is not a number: write e.g. mv<=3.") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise _error(term, f"“{term.value}” is not a number.")
    return value


def _comparison(term, default):
    op = default if term.op == ":" else term.op
    return op


def _text_op(term):
    if term.op in (":", "="):
        return "="
    if term.op == "!=":
        return "!="
    message = f"“{term.op}” does not compare text: write {term.key}: or {term.key}!=."
    raise _error(term, message, at_value=False)


def _colors(term):
    """A colour value → ("set", frozenset) or ("count", n) or ("multi", None)."""
    text = term.value.strip().lower()
    # ASCII digits only: str.isdigit also holds for "²" or Arabic-Indic digits, and int() refuses "²".
    if text.isdecimal() and text.isascii():
        return "count", int(text)
    if text in COLORLESS_NAMES:
        return "set", frozenset()
    if text in MULTICOLOR_NAMES:
        return "multi", None
    if text in COLOR_NAMES:
        return "set", frozenset(COLOR_NAMES[text])
    letters = text.upper()
    if letters and all(letter in COLORS for letter in letters):
        return "set", frozenset(letters)
    raise _error(
        term,
        f"“{term.value}” is not a colour: use the letters w u b r g, c (colourless), m (multicolour), "
        "a number, or a name such as blue or azorius.",
    )


def color_test(term, field):
    kind, value = _colors(term)
    if kind == "multi":
        if term.op not in (":", "=", "!="):
            raise _error(term, "Multicolour takes “:” (or “!=”), not a comparison.", at_value=False)
        return Test(field + "_count", 2, ">=" if term.op != "!=" else "<")
    if kind == "count":
        return Test(field + "_count", value, "=" if term.op == ":" else term.op)
    # `c:` means "at least these colours", `id:` "within this identity" (as Scryfall reads them);
    # colourless means exactly none.
    default = "<=" if field == "identity" else ">="
    op = "=" if term.op == ":" and not value else _comparison(term, default)
    return Test(field, value, op)


def color_sets_where(test):
    """All 32 colour combinations for which `test` holds: the Django compiler spells a colour test out."""
    matching = []
    for size in range(len(COLORS) + 1):
        for combo in itertools.combinations(COLORS, size):
            if colors_match(test, frozenset(combo)):
                matching.append(frozenset(combo))
    return matching


def colors_match(test, colors):
    if test.kind.endswith("_count"):
        return COMPARE[test.op](len(colors), test.arg)
    return SET_COMPARE[test.op](colors, test.arg)


def _date(term):
    text = term.value.strip()
    for pattern, build in (
        (r"\d{4}", lambda m: datetime.date(int(m[0]), 1, 1)),
        (r"(\d{4})-(\d{1,2})", lambda m: datetime.date(int(m[1]), int(m[2]), 1)),
        (r"(\d{4})-(\d{1,2})-(\d{1,2})", lambda m: datetime.date(int(m[1]), int(m[2]), int(m[3]))),
    ):
        match = re.fullmatch(pattern, text, re.ASCII)
        if match:
            try:
                return build(match)
            except ValueError:
                break
    raise _error(term, f"“{term.value}” is not a date: write 1995, 1995-08 or 1995-08-01.")


def prepare(term, catalog):
    """The Test for one Filter node, or QuerySyntaxError pointing at what is wrong."""
    key = term.key
    value = term.value.strip()
    if key in TEXT_KEYS:
        negate = _text_op(term) == "!="
        test = _prepare_text(term, key, value, catalog)
        return Test("not", test) if negate else test
    if not value:
        raise _error(term, f"{term.text} needs a value.")
    if key == "mv":
        return Test("mv", _number(term), _comparison(term, "="))
    if key in ("color", "identity"):
        return color_test(term, key)
    if key == "year":
        if not re.fullmatch(r"\d{4}", value, re.ASCII):
            raise _error(term, f"“{term.value}” is not a year: write e.g. year<1995.")
        return Test("year", int(value), _comparison(term, "="))
    if key == "date":
        return Test("date", _date(term), _comparison(term, "="))
    raise _error(term, f"Unknown filter {term.text}.", at_value=False)  # pragma: no cover


def _prepare_text(term, key, value, catalog):
    lowered = value.lower()
    if key == "name":
        if term.op == "=" and not term.bare:
            return Test("name_exact", normalize_name(value))
        return Test("name", normalize_name(value))
    if not value:
        raise _error(term, f"{term.text} needs a value.")
    if key == "type":
        return Test("type", (lowered, lowered in catalog.creature_types))
    if key == "oracle":
        return Test("oracle", lowered)
    if key == "rarity":
        raise _error(
            term,
            "Rarity is not in this card catalog (the shipped card data has none), so r: cannot be checked. "
            "Use s: (sets) or a list of cards instead.",
            at_value=False,
        )
    if key == "set":
        code = value.upper()
        if code not in catalog.set_codes:
            raise _error(term, f"No set with the code “{value}” is in the card catalog.")
        return Test("set", code)
    if key in ("format", "banned", "restricted"):
        fmt = lowered
        if fmt not in catalog.formats:
            known = ", ".join(sorted(catalog.formats))
            raise _error(term, f"“{value}” is not a format the card catalog knows ({known}).")
        statuses = LEGAL_OR_RESTRICTED if key == "format" else (key,)
        return Test("legality", (fmt, statuses))
    # is: / not:
    if lowered not in IS_VALUES:
        supported = ", ".join("is:" + name for name in IS_VALUES)
        raise _error(term, f"is:{value} is not supported: use one of {supported}.")
    test = Test("is", lowered)
    return Test("not", test) if key == "not" else test
