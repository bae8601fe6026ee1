"""The banned lists as check_hand and the card pages match cards against them: each entry resolved to a
catalog card once per catalog revision, matched by card or, failing that, by normalised name."""

from .catalog.names import normalize_name
from .catalog.resolve import get_index, resolve_name
from .models import BanCategory, BannedCard, BannedList


def category_label(category):
    return BanCategory(category).label if category in BanCategory.values else category


def banned_entries(snapshot=None):
    """Banned entries by list key: [(card id the name resolves to, normalised name, category label)].

    From the round's snapshot when given (no query; resolved once per catalog revision and kept with the
    index: every hand of a round is judged by the same snapshot), else from the standing lists. Callers only
    read the lists."""
    index = get_index()
    if snapshot is not None:
        memo = index.banned_by_snapshot
        if snapshot not in memo:
            if len(memo) >= BANNED_MEMO_LIMIT:
                memo.clear()
            memo[snapshot] = resolved_entries(
                [(name, key, category_label(category)) for name, key, category in snapshot], index
            )
        return memo[snapshot]
    return resolved_entries(
        [
            (entry.card_name, entry.banned_list.key, entry.get_category_display())
            for entry in BannedCard.objects.select_related("banned_list").order_by(
                "banned_list__position", "position"
            )
        ],
        index,
    )


BANNED_MEMO_LIMIT = 256  # snapshots (rounds) kept per catalog revision


def resolved_entries(rows, index):
    lists = {BannedList.PHM: [], BannedList.LAND_RULE: []}
    for name, list_key, label in rows:
        resolution = resolve_name(name, index=index)
        card_id = resolution.card.id if resolution.resolved else None
        lists.setdefault(list_key, []).append((card_id, normalize_name(name), label))
    return lists


def matches(card_id, key, banned):
    return (card_id is not None and card_id == banned[0]) or key == banned[1]


def lifted_cards(names, index):
    """(card ids, normalised names) of the cards a round lifts from the standing lists."""
    ids, keys = set(), set()
    for name in names:
        resolution = resolve_name(name, index=index)
        if resolution.resolved:
            ids.add(resolution.card.id)
        keys.add(normalize_name(name))
    return ids, keys
