"""The round's additional banned list as a post writes it: card names, some of which hold commas ("Jace, the
Mind Sculptor") and are split with the catalog's help; "None" with a remark in parentheses; or a reminder
sentence that names no card. What is no card name is kept as a remark, for the preview to show: nothing is
dropped unseen, and an unknown name that could be a card stays a name (the import suggests a fix for it)."""

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .classify import is_prose

# No card name has more than three comma-separated parts ("Aang, at the Crossroads // Aang, Destined Savior").
MAX_NAME_PARTS = 4
MAX_REMARKS = 3  # trailing remarks in parentheses taken off one line
MAX_SENTENCE_WORDS = 60  # a longer line is no reminder sentence to look for card names in
MAX_NAME_WORDS = 8
_EMPTY = frozenset(
    ("", "none", "no", "nothing", "nil", "nada", "n/a", "na", "-", "\u2013", "\u2014", "zero", "0",
     "no bans", "no additional bans", "no extra bans", "no additional banned cards", "no extra banned cards",
     "no additional cards", "no cards", "none this week", "none this round", "none this time",
     "nothing extra", "nothing new", "none added", "no changes", "none extra", "as usual", "the usual",
     "standard")
)  # fmt: skip
# "None - don't forget…", "Nothing, but…", "n/a: see…": a word that says "no bans" and a remark after it.
_EMPTY_LEAD = re.compile(
    r"(?P<word>none|nothing|nil|n/a|no\s+(?:additional\s+|extra\s+)?(?:bans|banned\s+cards|cards))"
    r"(?:\s*[.,;:!\u2013\u2014-]+\s*|\s+(?=(?:but|as|except|apart|other|besides|just|only|remember|see|"
    r"check|don't|do\s+not|please|note|the|this|plus)\b))(?P<rest>.*)",
    re.IGNORECASE,
)
_REMARK = re.compile(r"(?P<before>.*?)\s*[(\[](?P<remark>[^()\[\]]{0,300})[)\]]\s*[.!]?")
_SEPARATORS = re.compile(r"\s*(?:;|\s/\s|\s\|\s)\s*")
_EDGE = " .!?\"'()\u201c\u201d"
_TRAILING = ".,;:!?\"')\u201d"
_SENTENCE_END = (".", "!", "?")


@dataclass
class BannedList:
    names: list[str] = field(default_factory=list)  # as typed
    remarks: list[str] = field(default_factory=list)  # what the list said that is no card name


def read_banned_list(value: str, is_card: Callable[[str], bool] | None = None) -> BannedList:
    """The names and remarks of a banned-list value (its lines: one value, or the lines a bare key owns)."""
    result = BannedList()
    for line in (value or "").splitlines():
        _read_line(" ".join(line.split()), is_card, result)
    return result


def _is_empty(text):
    return " ".join(text.casefold().strip(_EDGE).split()) in _EMPTY


def _read_line(text, is_card, result):
    if is_card is not None and text and is_card(text.strip(" .,;")):
        result.names.append(text.strip(" .,;"))  # one name, be it "B.F.M. (Big Furry Monster)"
        return
    for _ in range(MAX_REMARKS):
        remark = _REMARK.fullmatch(text)
        if remark is None:
            break
        result.remarks.append(remark["remark"].strip())
        text = remark["before"]
    text = text.strip(" ,;:")
    if _is_empty(text):
        return
    lead = _EMPTY_LEAD.fullmatch(text)
    if lead is not None:
        rest = lead["rest"].strip()
        names = split_names(rest, is_card) if rest else []
        # "None, Black Lotus" lists a card after all; "None - don't forget the lists" does not.
        if rest and is_card is not None and not is_prose(rest) and names and all(map(is_card, names)):
            result.names.extend(names)
        elif rest:
            result.remarks.append(rest)
        return
    names = [name for name in split_names(text, is_card) if not _is_empty(name)]
    if not names:
        return
    if is_prose(text) and (is_card is None or not any(map(is_card, names))):
        # A sentence, not a list: the cards it names, if any, else a remark.
        mentioned = cards_in_sentence(text, is_card) if is_card is not None else []
        result.names.extend(mentioned)
        result.remarks.append(text)
        return
    result.names.extend(names)


def split_names(text: str, is_card: Callable[[str], bool] | None = None) -> list[str]:
    """`Sliver Queen, Jace, the Mind Sculptor; Sol Ring` -> the names. A comma separates names only where the
    catalog knows no longer name across it (at most MAX_NAME_PARTS lookups a part); without the catalog, a
    part that starts in lower case ("the Mind Sculptor") continues the name before it."""
    names = []
    for piece in _SEPARATORS.split(text):
        parts = [part.strip(" .") for part in piece.split(",")]
        names.extend(_join_parts([part for part in parts if part], is_card))
    return names


def _join_parts(parts, is_card):
    names, known = [], []
    index = 0
    while index < len(parts):
        size, found = 1, False
        if is_card is not None:
            for size in range(min(MAX_NAME_PARTS, len(parts) - index), 0, -1):
                if is_card(", ".join(parts[index : index + size])):
                    found = True
                    break
        name = ", ".join(parts[index : index + size])
        if not found and names and not known[-1] and _continues(parts[index], names[-1]):
            # An unknown name across a comma ("Jace, the Mind Sculpter"), for the import to suggest a fix.
            names[-1] = f"{names[-1]}, {name}"
        else:
            names.append(name)
            known.append(found)
        index += size
    return names


def _continues(part, before):
    """Whether an unknown part rather continues the unknown name before it: it starts in lower case, or what
    came before is one word ("Ajani, Caler of the Pride")."""
    return part[:1].islower() or len(before.split()) == 1


def cards_in_sentence(text: str, is_card: Callable[[str], bool]) -> list[str]:
    """The card names a sentence holds ("Only Black Lotus is banned this week."): runs of words starting with
    a capital, longest first; a single word opening a sentence is only a capital letter. At most
    MAX_SENTENCE_WORDS x MAX_NAME_WORDS lookups."""
    words = text.split()
    if len(words) > MAX_SENTENCE_WORDS:
        return []
    found, index = [], 0
    while index < len(words):
        word = words[index].lstrip(_EDGE)
        opens = index == 0 or words[index - 1].endswith(_SENTENCE_END)
        taken = 0
        if word[:1].isupper() or word[:1].isdigit():
            for size in range(min(MAX_NAME_WORDS, len(words) - index), 0, -1):
                if size == 1 and opens:
                    break
                candidate = " ".join(words[index : index + size]).strip(_EDGE).rstrip(_TRAILING)
                if candidate[:1].isupper() and is_card(candidate):
                    found.append(candidate)
                    taken = size
                    break
        index += taken or 1
    return found
