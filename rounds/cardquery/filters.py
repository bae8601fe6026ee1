"""The entry points: compile a query once, test cards with it, search the catalog with it."""

import re
from dataclasses import dataclass

from .ast import Filter, Group, Not, walk
from .codegen import compile_source
from .compile import to_predicate, to_q
from .errors import QuerySyntaxError
from .parser import parse
from .records import query_catalog

# A known key right before an operator: the mark of a filter query even when the rest does not parse.
_FILTER_MARK = re.compile(
    r"(^|[\s(\-])(name|type|t|oracle|o|manavalue|mv|cmc|color|colour|c|identity|id|ci|rarity|r|set|s|edition|e"
    r"|format|f|legal|banned|restricted|year|date|is|not)[:<>=!]",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class CardFilter:
    query: str
    ast: object
    predicate: object  # CardRecord → bool
    catalog: object
    select: object = None  # [CardRecord] → the matching ones (a generated comprehension)

    def matches(self, record):
        return self.predicate(record)

    def matches_card_id(self, card_id, legalities_then=None):
        """Whether the catalog card matches; `legalities_then` overrides some of its format legalities
        (those that changed since the moment the card is judged at)."""
        record = self.catalog.by_id.get(card_id)
        if record is None:
            return False
        if legalities_then:
            record = record.with_legalities({**record.legalities, **legalities_then})
        return self.predicate(record)

    def q(self):
        return to_q(self.ast, self.catalog)


COMPILED_PER_CATALOG = 512


def compile_filter(query, catalog=None):
    """A CardFilter for `query` over the current catalog; QuerySyntaxError (with `.query`) if it is wrong.

    Compiled filters are remembered with the catalog records, so they go when the catalog changes."""
    catalog = catalog if catalog is not None else query_catalog()
    compiled = catalog.compiled.get(query)
    if compiled is not None:
        return compiled
    try:
        ast = parse(query)
        generated = compile_source(ast, catalog)
        if generated is None:  # too deep for Python's compiler: the closures do the same, more slowly
            predicate = to_predicate(ast, catalog)
            compiled = CardFilter(query, ast, predicate, catalog, _selector(predicate))
        else:
            compiled = CardFilter(query, ast, generated[0], catalog, generated[1])
    except QuerySyntaxError as error:
        error.query = query
        raise
    if len(catalog.compiled) >= COMPILED_PER_CATALOG:
        catalog.compiled.clear()
    catalog.compiled[query] = compiled
    return compiled


def _selector(predicate):
    return lambda records: [record for record in records if predicate(record)]


def filter_catalog(query, catalog=None):
    """Every catalog record matching `query`, in catalog order."""
    card_filter = compile_filter(query, catalog)
    return card_filter.select(card_filter.catalog.records)


def is_filter_query(text):
    """Whether `text` uses the filter syntax (a `key:`/`key<op>` term, `-` negation or parentheses), rather
    than being a plain card name, which the search keeps answering as before (autocomplete). Plain words,
    `or` and quotes alone do not make a query: "Fight or Flight" is a card."""
    try:
        ast = parse(text)
    except QuerySyntaxError:
        return bool(_FILTER_MARK.search(text))
    if ast is None:
        return False
    return any(
        isinstance(node, Not | Group) or (isinstance(node, Filter) and not node.bare) for node in walk(ast)
    )


def search_cards_by_query(query, *, limit=50, offset=0):
    """(cards, total): Card rows matching `query` by name, through the Django Q. Raises QuerySyntaxError."""
    from rounds.models import Card

    card_filter = compile_filter(query)
    matching = Card.objects.filter(card_filter.q())
    total = matching.count()
    cards = list(matching.order_by("name", "id")[offset : offset + limit])
    return cards, total
