"""Stage 2: what a line is. Each classifier looks at one line (and the lines after it) and claims it with a
kind or passes. A new post style is a new classifier in `SECTION_CLASSIFIERS` or a new entry-header shape.
"""

import re
from dataclasses import dataclass

from rounds.catalog.handlist import parse_hand_list

from .fields import header_field

MAX_HEADER = 300  # an entry header is short; longer lines are prose (and regexes stay cheap)
MAX_CARD_LINE = 600
MAX_CARD_NAME = 60
# An entry's header: its number, then what follows it. `sep` is what stands between the two.
_HEADER = re.compile(r"(?P<number>\d{1,3})(?![\d:])(?P<sep>\s*[.)\]]\s*|\s*[-:]\s+|\s+|)(?P<rest>\S.*)")
_COUNT_PREFIX = re.compile(r"\d{1,3}\s*[xX]?\s")  # `3 Black Lotus`, `3x Black Lotus`
_ORDINAL_SUFFIX = re.compile(r"(?:st|nd|rd|th)\b", re.IGNORECASE)  # `3rd place`, not player "rd place"
# A result comment, as the results post has them after each hand: "0-6 leylined again", "6-0", "2-2!".
_RESULT_COMMENT = re.compile(r"[0-6]\s*-\s*[0-6](?!\d)(?:\W.*)?")
_SENTENCE_END = re.compile(r"[.!?\u2026]['\"\u201d)]*$")
_SENTENCE_BREAK = re.compile(r"[a-z][.!?]\s+[A-Z]")
# Small words a card name may carry in lower case ("Thalia, Guardian of Thraben", "Wear // Tear").
_NAME_WORDS = frozenset(
    ("of", "the", "a", "an", "and", "or", "to", "in", "on", "at", "from", "for", "with", "by", "into",
     "upon", "over", "under", "as", "is", "it", "be", "his", "her", "its", "their", "de", "du", "la", "le",
     "el", "von", "van", "der")
)  # fmt: skip


@dataclass(frozen=True)
class HeaderShape:
    number: int
    rest: str
    # "padded" (01), "paren" (1) / 1. / 1]), "glued" (1Player), "colon" (1 - P, 1: P), "bare" (1 P)
    style: str


def entry_header(text):
    """The shape of an entry header when `text` could start an entry, else None."""
    if len(text) > MAX_HEADER:
        return None
    match = _HEADER.fullmatch(text)
    if match is None:
        return None
    sep, digits = match["sep"], match["number"]
    if sep.strip() in (".", ")", "]"):
        style = "paren"
    elif len(digits) > 1 and digits.startswith("0"):
        style = "padded"  # no card count looks so
    elif sep == "":
        if _COUNT_PREFIX.match(text) or _ORDINAL_SUFFIX.match(match["rest"]):
            return None
        style = "glued"
    elif sep.strip():
        style = "colon"
    else:
        style = "bare"
    return HeaderShape(int(digits), match["rest"], style)


def is_result_comment(text):
    return len(text) < MAX_HEADER and _RESULT_COMMENT.fullmatch(text) is not None


def is_prose(text):
    """A sentence rather than a name: it ends like one, holds a sentence break, or is mostly lower-case
    words."""
    if _SENTENCE_END.search(text) or _SENTENCE_BREAK.search(text):
        return True
    words = [word for word in text.split() if word[:1].isalpha()]
    lower = [word for word in words if word[:1].islower() and word.casefold() not in _NAME_WORDS]
    return len(words) >= 3 and len(lower) * 3 >= len(words)


def looks_like_card_name(name):
    """Shape only: short, starts with a capital (or a quote or digit), no sentence in it."""
    if not name or len(name) > MAX_CARD_NAME or len(name.split()) > 8:
        return False
    if not (name[0].isupper() or name[0].isdigit() or name[0] in "\"'\u201c"):
        return False
    if name.endswith((".", "!", "?", ":")) and not name.endswith('!"'):
        return False
    words = [word for word in name.split() if word[:1].isalpha()]
    lower = [word for word in words if word[:1].islower() and word.casefold() not in _NAME_WORDS]
    return len(lower) <= 1 and not _SENTENCE_BREAK.search(name)


def card_line(text, *, is_card=None, filling=False):
    """The cards of `text` when it is a card line, else None.

    With `is_card`, a line of several names is a card line when at most one name is unknown (a misspelling
    the import can suggest a fix for) or when every name is shaped like one; a single name when it is known
    or, while the hand is still `filling` (not yet full), shaped like a card. Without `is_card`, shape
    decides."""
    if not text or len(text) > MAX_CARD_LINE or is_result_comment(text) or header_field(text):
        return None
    cards = parse_hand_list(text, is_card=is_card)
    if not cards:
        return None
    names = list(dict.fromkeys(cards))
    shaped = all(looks_like_card_name(name) for name in names)
    if is_card is not None:
        unknown = [name for name in names if not is_card(name)]
        if not unknown:
            return cards
        if len(names) >= 2 and len(unknown) == 1 and not is_prose(text) and looks_like_card_name(unknown[0]):
            return cards
        if len(names) >= 3 and shaped and not is_prose(text):
            return cards
        if len(names) == 1 and filling and shaped and not is_prose(text):
            return cards
        return None
    if shaped and not is_prose(text) and (len(names) >= 2 or filling or _COUNT_PREFIX.match(text)):
        return cards
    return None


# Sections after the entries (or around them) that are no part of the round --------------------------

_CONTENTS = re.compile(
    r"(?:table\s+of\s+)?contents|(?:perfect\s+hand\s+magic|phm)\s+rules?(?:\s+document)?", re.I
)
_RULES_HEADING = re.compile(
    r"\d{1,2}(?:\.\d{1,2}){0,3}\.?\s+(?:overview|introduction|game\s+rules|rules|definitions|scoring|deck|hand|"
    r"land|banned|tie|format|league|glossary|the\s+game|general)\b",
    re.IGNORECASE,
)
_SUBSECTION = re.compile(r"\d{1,2}\.\d{1,2}(?:\.\d{1,2}){0,2}\.?\s+\S")
_HOW_TO_SUBMIT = re.compile(
    r"(?:how\s+to\s+(?:submit|enter|send|sign\s+up|play)|to\s+submit|submissions?)\b", re.I
)
_NEXT_ROUND = re.compile(
    r"(?:submission\s+deadline|next\s+(?:week|round|format|league)|upcoming\s+(?:week|round|format)|"
    r"coming\s+up\s+next)",
    re.IGNORECASE,
)
_ROW_TEMPLATE = re.compile(r"[Xx\d]{1,3}\s*\|[^|\n]{0,400}\|")
_POLL = re.compile(r"(?:vote|poll|option\s*\d{1,2})\b", re.IGNORECASE)


def _rules_document(line, following):
    if _CONTENTS.fullmatch(line.text) or _RULES_HEADING.match(line.text):
        return "rules document"
    if _SUBSECTION.match(line.text) and any(is_prose(other.text) for other in following[:2]):
        return "rules document"
    return None


def _how_to_submit(line, following):
    return "how to submit" if len(line.text) < 120 and _HOW_TO_SUBMIT.match(line.text) else None


def _next_round(line, following):
    return "next round" if len(line.text) < MAX_HEADER and _NEXT_ROUND.match(line.text) else None


def _row_template(line, following):
    text = line.text
    return "row template" if text.count("|") >= 2 and _ROW_TEMPLATE.match(text) else None


def _poll(line, following):
    if "poll" in line.tags or (len(line.text) < 120 and _POLL.match(line.text)):
        return "poll"
    return None


SECTION_CLASSIFIERS = (_row_template, _poll, _rules_document, _next_round, _how_to_submit)


def section_kind(line, following=()):
    """The kind of skipped section `line` starts ("rules document", "how to submit", ...), else None."""
    for classify in SECTION_CLASSIFIERS:
        kind = classify(line, following)
        if kind:
            return kind
    return None


# The player and the hand's name -----------------------------------------------------------------------

# `Player :: Name`, `Player : Name`, `Player - Name`, `Player "Name"`.
_NAME_SEPARATORS = (
    re.compile(r"\s*::\s*"),
    re.compile(r"\s*:\s*"),
    re.compile(r"\s+[-\u2013\u2014]\s+"),
)
_TRAILING_QUOTED = re.compile(
    r"(?P<player>[^\"\u201c\u201d\u201e]*?\S)\s+(?P<name>[\"\u201c\u201d\u201e].*[\"\u201c\u201d])"
)
_QUOTES = "\"'\u201c\u201d\u201e\u2018\u2019"


def strip_quotes(text):
    text = text.strip()
    while len(text) >= 2 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text[1:-1].strip()
    return text


def split_player_and_name(rest):
    """`WhammeWhamme :: "The Might of Kjeld"` -> ("WhammeWhamme", "The Might of Kjeld"). Only the first
    separator splits, so a hand name may hold a colon (`P :: Ajani: Mentor`)."""
    rest = rest[:MAX_HEADER]
    for separator in _NAME_SEPARATORS:
        parts = separator.split(rest, maxsplit=1)
        if len(parts) == 2 and parts[0].strip():
            return strip_quotes(parts[0]), strip_quotes(parts[1])
    quoted = _TRAILING_QUOTED.fullmatch(rest)
    if quoted:
        return strip_quotes(quoted["player"]), strip_quotes(quoted["name"])
    return strip_quotes(rest), ""
