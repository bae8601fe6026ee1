"""The catalog's legality history, and legality as of a moment (rule 2.1a).

Rule 2.1a: a change takes effect from the first round that starts after it. Banned lists are snapshotted
when a round opens; a card's format legality comes from the catalog, which `import_cards` refreshes in place.
So every load records what it changed (`CardLegalityChange`: card, format, before, after), and an opened round
is judged by the values of its opening moment: the `before` of the first change made after it, else the
current value. A card new to the catalog gets its first values recorded with a blank `before` ("not in the
catalog").

Decisions:
- A change takes effect when the catalog learnt it (the load's `loaded_at`), not at the date the data
  carries (`as_of`): a file dated before a round opened but imported while it runs must not change that round.
- Only the formats a round can be judged by are tracked (`CORE_FORMATS`: Vintage, and the sanctioned formats
  the round form offers); a round naming another format through the API uses current values for it. Sources
  differ in how many other formats they carry: switching source would record tens of thousands of noise rows.
- The first load into an empty catalog (the shipped snapshot at migrate) is where history starts: it records
  nothing, since no round can have opened before it.

Cost: `check_hand` asks nothing more of the database unless the catalog changed after the round opened (one
query per catalog revision and process finds the newest change); then one query loads the changes after the
opening for the hand's cards, and most cards have none.
"""

import threading

from django.db import models

from .sources import CORE_FORMATS

TRACKED_FORMATS = CORE_FORMATS
NOT_LEGAL = "not_legal"
NOT_IN_CATALOG = None  # a card's legality at a moment before the catalog knew it
BATCH_SIZE = 2000


def legality_changes(before, after):
    """[(format, before, after)] for the tracked formats whose value differs; `before` None: a new card."""
    changes = []
    for format_key in TRACKED_FORMATS:
        new = after.get(format_key, NOT_LEGAL)
        if before is None:
            changes.append((format_key, "", new))
            continue
        old = before.get(format_key, NOT_LEGAL)
        if old != new:
            changes.append((format_key, old, new))
    return changes


def current_legalities(card_ids, using="default"):
    """{card id: legalities JSON} of cards about to be updated, in batches (only changed cards are asked)."""
    from rounds.models import Card

    found = {}
    card_ids = list(card_ids)
    for start in range(0, len(card_ids), BATCH_SIZE):
        found.update(
            Card.objects.using(using)
            .filter(id__in=card_ids[start : start + BATCH_SIZE])
            .values_list("id", "legalities")
        )
    return found


def record_legality_changes(version, *, new_cards=(), changed_cards=(), using="default"):
    """Write the changes one load made: `new_cards` [(card id, legalities)], `changed_cards`
    [(card id, before, after)]. Effective from the version's `loaded_at`. Returns the rows written."""
    from rounds.models import CardLegalityChange

    rows = []
    for card_id, before, after in [(card_id, None, after) for card_id, after in new_cards] + list(
        changed_cards
    ):
        for format_key, old, new in legality_changes(before, after):
            rows.append(
                CardLegalityChange(
                    card_id=card_id, format=format_key, before=old, after=new,
                    effective_at=version.loaded_at, catalog_version=version,
                )
            )  # fmt: skip
    CardLegalityChange.objects.using(using).bulk_create(rows, batch_size=BATCH_SIZE)
    return len(rows)


# The moment of the newest change, per catalog index (that is, per catalog revision and process).
_newest = {"index": None, "at": None}
_newest_lock = threading.Lock()


def newest_change_at(index):
    """When the catalog last changed a tracked legality (None: never); one query per index."""
    from rounds.models import CardLegalityChange

    with _newest_lock:
        if _newest["index"] is index:
            return _newest["at"]
    newest = CardLegalityChange.objects.aggregate(at=models.Max("effective_at"))["at"]
    with _newest_lock:
        _newest["index"], _newest["at"] = index, newest
    return newest


def changed_since(moment, index):
    """Whether some tracked legality changed after `moment` (so values as of it may differ from today's)."""
    if moment is None:
        return False
    newest = newest_change_at(index)
    return newest is not None and newest > moment


def legalities_as_of(card_ids, moment, index):
    """{card id: {format: value at `moment`}} for the cards whose legality changed after `moment`; a value of
    None means the card was not in the catalog then. Cards missing from the answer have today's values.
    No query unless the catalog changed after `moment`; then one."""
    from rounds.models import CardLegalityChange

    if not card_ids or not changed_since(moment, index):
        return {}
    past = {}
    changes = (
        CardLegalityChange.objects.filter(card_id__in=card_ids, effective_at__gt=moment)
        .order_by("effective_at", "id")
        .values_list("card_id", "format", "before")
    )
    for card_id, format_key, before in changes:
        # The first change after the moment tells what the value was at it.
        past.setdefault(card_id, {}).setdefault(format_key, before or NOT_IN_CATALOG)
    return past


def legality_moment(round_):
    """The moment a round's hands are judged at: its opening, once it is open (rule 2.1a), or the moderator's
    last re-sync of its lists; None (today's catalog) for a draft or a round without a recorded opening."""
    if round_.state == "draft":
        return None
    return round_.legal_as_of or round_.opened_at


def card_legality_history(card):
    """The card's recorded changes, oldest first, for its page."""
    return list(card.legality_changes.select_related("catalog_version").order_by("effective_at", "id"))


def legality_at(card, format_key, moment, index=None):
    """The card's legality in one format at `moment` (None: now); None if the catalog lacked it then."""
    if index is None:
        from .resolve import get_index

        index = get_index()
    past = legalities_as_of({card.id}, moment, index).get(card.id) or {}
    return past[format_key] if format_key in past else card.legality(format_key)
