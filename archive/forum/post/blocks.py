"""Stage 1: the post's text as lines (1-based numbers of the original text), BBCode stripped but remembered.

A line keeps the names of the tags it carried (`bold` when [b] or [strong]; `heading` when [size], [h1]..[h6]
or [u]), so a classifier can tell a heading from a card. `[*]` list items standing on one line become lines of
their own with the same number. Blank lines are kept: they are the paragraph and section boundaries the
later stages read.
"""

import re
from dataclasses import dataclass, field

# Work per line is capped so that no text, however long or hostile, makes the parse slow: nothing longer is
# an entry, a card line or a header, so the cut only shortens what is shown as skipped.
MAX_LINE = 4000
# BBCode tags of any kind: [b], [/b], [color=red], [card], [url=...], [*]. Bounded quantifiers: no
# backtracking over a long line full of `[x=` without a closing bracket.
_BBCODE = re.compile(r"\[/?[a-z*][a-z0-9*]{0,15}(?:=[^\]\n]{0,200})?\]", re.IGNORECASE)
_TAG_NAME = re.compile(r"\[/?([a-z*][a-z0-9*]{0,15})", re.IGNORECASE)
_LIST_ITEM = re.compile(r"\[\*\]")
_BOLD_TAGS = frozenset({"b", "strong"})
_HEADING_TAGS = frozenset({"size", "h1", "h2", "h3", "h4", "h5", "h6", "u", "big", "heading"})
# Invisible or odd spacing the forum keeps: byte-order mark, non-breaking and narrow spaces, zero-width ones.
_SPACING = str.maketrans({"\ufeff": "", "\u200b": "", "\u00a0": " ", "\u202f": " ", "\u2007": " ", "\t": " "})


def clean_line(line):
    """A line without BBCode tags and outer spaces."""
    return _BBCODE.sub("", line.translate(_SPACING)).strip()


@dataclass(frozen=True)
class Line:
    number: int  # 1-based, in the original text
    text: str  # tags stripped, outer spaces trimmed
    tags: frozenset = field(default_factory=frozenset)  # lower-case names of the tags on the line
    raw: str = ""

    @property
    def bold(self):
        return bool(self.tags & _BOLD_TAGS)

    @property
    def heading(self):
        return bool(self.tags & _HEADING_TAGS)

    @property
    def blank(self):
        return not self.text


def _tags(raw):
    return frozenset(
        match.group(1).lower() for match in _TAG_NAME.finditer(raw) if _BBCODE.match(raw, match.start())
    )


def split_lines(text):
    """The post's lines, blank ones included (as Line with empty text), in order."""
    if not isinstance(text, str):
        return []
    lines = []
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        raw = raw[:MAX_LINE]
        pieces = _LIST_ITEM.split(raw) if "[*]" in raw else [raw]
        tags = _tags(raw) if "[" in raw else frozenset()
        for piece in pieces:
            cleaned = clean_line(piece)
            if cleaned or len(pieces) == 1:
                lines.append(Line(number, cleaned, tags, piece))
    return lines
