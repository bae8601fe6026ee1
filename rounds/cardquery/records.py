"""What the filters need of every card, kept in memory next to the resolver's index.

Built with two queries the first time a filter runs against a revision of the catalog (about a second for
the full catalog) and dropped with the index when the catalog changes. Colours are derived, because the
catalog has no colour field: a card's colours are the coloured symbols of its mana cost (every face), none
for Devoid; its colour identity adds the mana symbols of its Oracle text. Colour indicators are not in the
catalog's data, so a card with no mana cost (Ancestral Vision, most back faces) counts only what it shows.
"""

import re
import threading

COLORS = "WUBRG"
# One regular expression per colour, also used verbatim by the Django compiler so both agree exactly.
COLOR_SYMBOL_PATTERNS = {color: r"\{[^}]*" + color + r"[^}]*\}" for color in COLORS}
_COLOR_SYMBOL_RES = {color: re.compile(pattern) for color, pattern in COLOR_SYMBOL_PATTERNS.items()}
DEVOID_TEXT = "devoid (this card has no color"
CHANGELING_TEXT = "changeling (this card is every creature type"
PERMANENT_TYPES = ("artifact", "creature", "enchantment", "land", "planeswalker", "battle")
# Rule 205.3m: creature types are what follows the dash on creature and kindred (tribal) cards.
CREATURE_TYPE_HOLDERS = ("creature", "tribal", "kindred")
FRONT_FACE_LAND = re.compile(r"^[^/]*Land")


def card_colors(mana_cost, oracle_lower):
    if DEVOID_TEXT in oracle_lower:
        return frozenset()
    return frozenset(color for color, pattern in _COLOR_SYMBOL_RES.items() if pattern.search(mana_cost))


def card_identity(mana_cost, oracle_text):
    return frozenset(
        color
        for color, pattern in _COLOR_SYMBOL_RES.items()
        if pattern.search(mana_cost) or pattern.search(oracle_text)
    )


class CardRecord:
    """One card as the filters see it. Text fields are lower-cased once, here."""

    __slots__ = (
        "changeling",
        "colors",
        "data_quality",
        "first_printed",
        "id",
        "identity",
        "layout",
        "legalities",
        "mana_value",
        "name",
        "name_key",
        "oracle_lower",
        "oracle_text",
        "sets",
        "slug",
        "type_line",
        "type_lower",
    )

    def __init__(self, row, sets):
        self.id = row["id"]
        self.name = row["name"]
        self.slug = row["slug"]
        self.name_key = row["normalized_name"]
        self.type_line = row["type_line"] or ""
        self.type_lower = self.type_line.lower()
        self.oracle_text = row["oracle_text"] or ""
        self.oracle_lower = self.oracle_text.lower()
        mana_cost = row["mana_cost"] or ""
        self.mana_value = row["mana_value"]
        self.colors = card_colors(mana_cost, self.oracle_lower)
        self.identity = card_identity(mana_cost, self.oracle_text)
        self.legalities = row["legalities"] or {}
        self.first_printed = row["first_printed"]
        self.sets = sets
        self.layout = row["layout"] or ""
        self.data_quality = row["data_quality"]
        self.changeling = CHANGELING_TEXT in self.oracle_lower

    def __repr__(self):
        return f"CardRecord({self.name!r})"

    def with_legalities(self, legalities):
        """A copy judged with other format legalities (a round's legality as of its opening)."""
        copy = object.__new__(CardRecord)
        for name in CardRecord.__slots__:
            setattr(copy, name, getattr(self, name))
        copy.legalities = legalities
        return copy


class QueryCatalog:
    """Records in catalog order, by id, and the vocabularies the compilers check values against."""

    def __init__(self, records):
        self.records = records
        self.by_id = {record.id: record for record in records}
        self.creature_types = frozenset(_creature_types(records))
        self.formats = frozenset(key for record in records for key in record.legalities)
        self.set_codes = frozenset(code for record in records for code in record.sets)
        self.compiled = {}  # query → CardFilter (rounds.cardquery.filters.compile_filter)

    def __len__(self):
        return len(self.records)


def _creature_types(records):
    for record in records:
        for face in record.type_lower.split(" // "):
            front, dash, subtypes = face.partition("—")
            if dash and any(word in front for word in CREATURE_TYPE_HOLDERS):
                yield from subtypes.split()


def build_catalog():
    from rounds.models import Card, Printing

    sets = {}
    for card_id, code in Printing.objects.values_list("card_id", "card_set__code").iterator(chunk_size=10000):
        sets.setdefault(card_id, set()).add(code.upper())
    rows = Card.objects.order_by("id").values(
        "id", "name", "slug", "normalized_name", "type_line", "oracle_text", "mana_cost", "mana_value",
        "legalities", "first_printed", "layout", "data_quality",
    )  # fmt: skip
    records = [CardRecord(row, frozenset(sets.get(row["id"], ()))) for row in rows.iterator(chunk_size=5000)]
    return QueryCatalog(records)


_lock = threading.Lock()


def query_catalog(index=None):
    """The filter records for the resolver's current index (built once per catalog revision)."""
    from rounds.catalog.resolve import get_index

    if index is None:
        index = get_index()
    catalog = getattr(index, "query_catalog", None)
    if catalog is None:
        with _lock:
            catalog = getattr(index, "query_catalog", None)
            if catalog is None:
                catalog = build_catalog()
                index.query_catalog = catalog
    return catalog
