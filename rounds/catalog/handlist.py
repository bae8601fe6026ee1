"""Hand lists as posted on the forum: `Card / Card / Card`, one card per line, or any mix.

A single `/` with a space (or a line edge) on at least one side separates cards, so `Lake of the Dead/ Mana
Drain` is two cards; runs of two or more slashes are never separators, so `Wear // Tear` and `Wear//Tear`
stay one split card. A line may start with a count (`3 Black Lotus`, `3x Black Lotus`). Blank lines and
trailing separators are ignored. `format_hand_list` prints a list that parses back to the same names.
"""

import re

MAX_COUNT = 99  # larger leading numbers are part of a name ("1996 World Champion")
# A lone slash with whitespace (or the start/end of the line) on at least one side.
_SEPARATOR = re.compile(r"(?:(?<=\s)|^)(?<!/)/(?!/)|(?<!/)/(?!/)(?=\s|$)")
_COUNT = re.compile(r"(\d+)\s*[xX]?\s+(\S.*)", re.DOTALL)
_SPACES = re.compile(r"\s+")


def _split_count(token):
    match = _COUNT.fullmatch(token)
    if match:
        count = int(match.group(1))
        if 1 <= count <= MAX_COUNT:
            return count, match.group(2)
    return 1, token


def parse_hand_list(text):
    """The card names of a forum hand list, in order, with counts expanded. Never raises on any string."""
    if not isinstance(text, str):
        return []
    cards = []
    for line in text.splitlines():
        for token in _SEPARATOR.split(line):
            token = _SPACES.sub(" ", token).strip()
            if not token:
                continue
            count, name = _split_count(token)
            name = name.strip()
            if name:
                cards.extend([name] * count)
    return cards


def format_hand_list(names, separator=" / "):
    """Forum text for a list of names. A name that would read as a count gets an explicit `1 ` before it."""
    printed = []
    for name in names:
        count, rest = _split_count(name)
        printed.append(f"1 {name}" if rest != name else name)
    return separator.join(printed)
