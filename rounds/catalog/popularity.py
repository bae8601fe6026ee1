"""What this site's players play: for each card name, how many revealed hands hold it. Autocomplete ranks the
cards people actually play first (rounds.catalog.resolve), so that the first choice under a card box is the
card a player most likely means.

Hands are counted by an app above rounds (stats, which owns the metagame and decides which hands are public:
only hands of revealed rounds, so a count never tells anything of a hand before its deadline). It registers
its counter when it starts (register_play_counter); without one every count is 0.

The counts cost one query, run at most once per CACHE_SECONDS in each process: the cache holds a stamp of
the current counts, and a process counts again when the stamp it counted under has expired or was dropped
(forget_play_counts). A new reveal therefore reaches the ranking within CACHE_SECONDS.
"""

import uuid
from collections.abc import Callable, Mapping

from django.core.cache import cache

STAMP_CACHE_KEY = "rounds:card-plays-stamp"
CACHE_SECONDS = 600

PlayCounter = Callable[[], Mapping[str, int]]

_counter: PlayCounter | None = None
_counted: tuple[str, Mapping[str, int]] | None = None  # (the stamp counted under, the counts)


def register_play_counter(counter: PlayCounter) -> None:
    """Set the function that counts, for every card name, the revealed hands holding it (one query)."""
    global _counter
    _counter = counter


def play_counts() -> Mapping[str, int]:
    """Card name → revealed hands holding it; the same mapping object until the counts are made again."""
    global _counted
    if _counter is None:
        return {}
    stamp = cache.get(STAMP_CACHE_KEY)
    counted = _counted
    if stamp is not None and counted is not None and counted[0] == stamp:
        return counted[1]
    counts = dict(_counter())
    if stamp is None:
        stamp = uuid.uuid4().hex
        cache.set(STAMP_CACHE_KEY, stamp, CACHE_SECONDS)
    _counted = (stamp, counts)
    return counts


def forget_play_counts() -> None:
    """Count again at the next autocomplete, in every process that shares the cache."""
    cache.delete(STAMP_CACHE_KEY)
