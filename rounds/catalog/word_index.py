"""Whole-word prefixes of card names, for autocomplete: `lightnin bo` finds Lightning Bolt (every typed word
starts a word of the name, in order) and `bolt` finds Lightning Bolt as well as Bolt Bend.

Built from the resolver's sorted lookup keys (rounds.catalog.resolve), once per catalog revision and only when
a name is first autocompleted: the distinct words of every key, sorted, each with the keys it is a word of and
their cards. A query looks up, by bisection, the typed word that the fewest keys could match, and checks the
word order of those keys alone. The keys are also kept as one text, so that the names containing a fragment
anywhere are found by `str.find` (a C loop) rather than by a Python loop over every key. Pure Python, no
database.
"""

import bisect
from collections.abc import Sequence
from itertools import accumulate

# Sorts after every string that starts with a given prefix: [prefix, prefix + _PAST) spans them all.
_PAST = "\U0010ffff"


def starts_words_in_order(typed: Sequence[str], words: Sequence[str]) -> bool:
    """Whether each typed word starts a word of `words`, each a later word than the one before."""
    position, count = 0, len(words)
    for fragment in typed:
        while position < count and not words[position].startswith(fragment):
            position += 1
        if position == count:
            return False
        position += 1
    return True


class WordIndex:
    """The words of a list of keys (each key's words split on spaces), which keys each word is in, and which
    cards: `key_cards[k]` is the card of key k."""

    __slots__ = (
        "card_postings",
        "cumulative",
        "joined",
        "key_cards",
        "key_starts",
        "key_words",
        "postings",
        "words",
    )

    def __init__(self, keys: Sequence[str], key_cards: Sequence[int]) -> None:
        self.key_words = [tuple(key.split(" ")) for key in keys]
        self.key_cards = key_cards
        keys_by_word: dict[str, list[int]] = {}
        for position, words in enumerate(self.key_words):
            for word in set(words):
                keys_by_word.setdefault(word, []).append(position)
        self.words = sorted(keys_by_word)
        self.postings = [keys_by_word[word] for word in self.words]
        self.card_postings = [frozenset(map(key_cards.__getitem__, keys)) for keys in self.postings]
        # cumulative[j] - cumulative[i]: how many (key, word) pairs the words i..j-1 hold, in O(1).
        self.cumulative = [0, *accumulate(len(postings) for postings in self.postings)]
        # Every key on a line of its own (a key has no line break); key_starts[k]: where key k begins.
        self.joined = "\n".join(keys)
        self.key_starts = [0, *accumulate(len(key) + 1 for key in keys)][: len(keys)]

    def _span(self, fragment: str) -> tuple[int, int]:
        """The range of the sorted words that start with `fragment`."""
        low = bisect.bisect_left(self.words, fragment)
        return low, bisect.bisect_left(self.words, fragment + _PAST, low)

    def matching_keys(self, typed: Sequence[str]) -> list[int]:
        """Positions (in the keys given) of the keys in which every typed word starts a word, in order."""
        narrowest = None
        for fragment in typed:
            low, high = self._span(fragment)
            size = self.cumulative[high] - self.cumulative[low]
            if not size:
                return []
            if narrowest is None or size < narrowest[0]:
                narrowest = (size, low, high)
        if narrowest is None:
            return []
        _, low, high = narrowest
        found: set[int] = set()
        for postings in self.postings[low:high]:
            found.update(postings)
        if len(typed) == 1:
            return list(found)
        key_words = self.key_words
        return [position for position in found if starts_words_in_order(typed, key_words[position])]

    def matching_cards(self, typed: Sequence[str]) -> set[int]:
        """The cards of the keys in which every typed word starts a word, in order."""
        if len(typed) == 1:
            low, high = self._span(typed[0])
            return set().union(*self.card_postings[low:high])
        return set(map(self.key_cards.__getitem__, self.matching_keys(typed)))

    def containing_cards(self, fragment: str) -> set[int]:
        """The cards of the keys that contain `fragment` anywhere (no line break in it)."""
        found: set[int] = set()
        if not fragment or "\n" in fragment:
            return found
        find, starts, count = self.joined.find, self.key_starts, len(self.key_starts)
        at = find(fragment)
        while at != -1:
            key = bisect.bisect_right(starts, at) - 1
            found.add(self.key_cards[key])
            if key + 1 == count:
                break
            at = find(fragment, starts[key + 1])  # on to the next key: one hit a key is enough
        return found
