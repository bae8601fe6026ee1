"""A Scryfall-style card filter language: `t:dragon mv<=3 -c:u`, `o:"draw a card"`, `or`, parentheses.

parse(text) → AST (parser.py, grammar.lark) → compile.to_predicate (live checks over the in-memory
records) or compile.to_q (a Django Q over Card, for search). `CardFilter` bundles both for one query.
"""

from .errors import QuerySyntaxError, caret_display
from .filters import CardFilter, compile_filter, filter_catalog, is_filter_query, search_cards_by_query
from .parser import parse

__all__ = [
    "CardFilter",
    "QuerySyntaxError",
    "caret_display",
    "compile_filter",
    "filter_catalog",
    "is_filter_query",
    "parse",
    "search_cards_by_query",
]
