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
_BARE_SLASH = re.compile(r"(?<!/)/(?!/)")


def _split_count(token):
    match = _COUNT.fullmatch(token)
    if match:
        count = int(match.group(1))
        if 1 <= count <= MAX_COUNT:
            return count, match.group(2)
    return 1, token


def _split_bare_slashes(name, is_card):
    """`Black Lotus/Conjurer's Bauble` (no spaces at all) is two cards when the whole is not a card and each
    part is; `Wear/Tear` stays one split card. Only decidable with the catalog, hence `is_card`."""
    parts = [part.strip() for part in _BARE_SLASH.split(name)]
    if len(parts) > 1 and all(parts) and not is_card(name) and all(is_card(part) for part in parts):
        return parts
    return [name]


def parse_hand_list(text, is_card=None):
    """The card names of a forum hand list, in order, with counts expanded. Never raises on any string.

    With `is_card` (a name → bool predicate, e.g. "the resolver knows it"), slashes without any space are
    also read as separators where that turns one unknown name into known cards.
    """
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
            if not name:
                continue
            for card in _split_bare_slashes(name, is_card) if is_card and "/" in name else [name]:
                cards.extend([card] * count)
    return cards


def format_hand_list(names, separator=" / "):
    """Forum text for a list of names. A name that would read as a count gets an explicit `1 ` before it."""
    printed = []
    for name in names:
        _, rest = _split_count(name)
        printed.append(f"1 {name}" if rest != name else name)
    return separator.join(printed)
