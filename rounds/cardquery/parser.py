"""Text → AST with the lark grammar in grammar.lark (LALR: linear time, no backtracking).

Every failure, including input lark itself chokes on, becomes a QuerySyntaxError with a position.
"""

import functools
from pathlib import Path

from lark import Lark, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .ast import And, Filter, Group, Not, Or
from .errors import QuerySyntaxError

MAX_QUERY_LENGTH = 1000
MAX_DEPTH = 40  # parentheses and negations nested deeper than this are refused (no recursion limits hit)

KEY_ALIASES = {
    "name": "name",
    "t": "type", "type": "type",
    "o": "oracle", "oracle": "oracle",
    "mv": "mv", "cmc": "mv", "manavalue": "mv",
    "c": "color", "color": "color", "colour": "color",
    "id": "identity", "identity": "identity", "ci": "identity",
    "r": "rarity", "rarity": "rarity",
    "s": "set", "e": "set", "set": "set", "edition": "set",
    "f": "format", "format": "format", "legal": "format",
    "banned": "banned",
    "restricted": "restricted",
    "year": "year",
    "date": "date",
    "is": "is",
    "not": "not",
}  # fmt: skip

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")


@functools.cache
def _lark():
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=False,
    )


def _value_text(token):
    text = str(token)
    if token.type == "STRING":
        return text[1:-1], token.start_pos + 1
    return text, token.start_pos


class _ToAst(Transformer):
    def __init__(self, query):
        super().__init__()
        self.query = query

    def start(self, items):
        return items[0] if items else None

    def value(self, items):
        return items[0]

    @v_args(inline=True)
    def filter(self, key, op, token):
        value, value_position = _value_text(token)
        end = token.end_pos
        return Filter(
            KEY_ALIASES[str(key).lower()],
            str(op),
            value,
            key.start_pos,
            value_position,
            self.query[key.start_pos : end],
        )

    @v_args(inline=True)
    def bare(self, token):
        value, value_position = _value_text(token)
        return Filter("name", ":", value, token.start_pos, value_position, str(token), bare=True)

    @v_args(inline=True)
    def negate(self, neg, item):
        return Not(item, neg.start_pos)

    @v_args(inline=True)
    def group(self, _open, item, _close):
        return Group(item)

    def and_expr(self, items):
        return And(tuple(items))

    def or_expr(self, items):
        return Or(tuple(items))


def _describe(token):
    if token.type == "$END":
        return "the query ended"
    return f"“{token}”"


def _check_depth(query):
    depth = negations = 0
    for position, char in enumerate(query):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        negations = negations + 1 if char == "-" else (negations if char.isspace() else 0)
        if depth > MAX_DEPTH:
            raise QuerySyntaxError(f"Parentheses nested more than {MAX_DEPTH} deep.", position, query)
        if negations > MAX_DEPTH:
            raise QuerySyntaxError(f"More than {MAX_DEPTH} negations in a row.", position, query)


def _syntax_error(error, query):
    if isinstance(error, UnexpectedCharacters):
        char = query[error.pos_in_stream] if error.pos_in_stream < len(query) else ""
        if char == '"':
            return QuerySyntaxError('A quote is not closed: add the closing ".', error.pos_in_stream, query)
        return QuerySyntaxError(f"Unexpected “{char}”.", error.pos_in_stream, query)
    if isinstance(error, UnexpectedToken):
        token = error.token
        position = len(query) if token.type == "$END" else token.start_pos
        expected = error.expected or set()
        if "RPAR" in expected and token.type == "$END":
            return QuerySyntaxError("A parenthesis is not closed: add “)”.", position, query)
        if token.type == "RPAR" and query[:position].rstrip().endswith("("):
            return QuerySyntaxError("Empty parentheses: put a filter inside.", position, query)
        if token.type == "RPAR":
            return QuerySyntaxError("“)” closes nothing.", position, query)
        if expected & {"WORD", "STRING"} and not expected & {"KEY", "NEG", "LPAR"}:
            return QuerySyntaxError("A value is missing after the operator.", position, query)
        if token.type == "$END":
            return QuerySyntaxError("The query ends too early: something should follow.", position, query)
        return QuerySyntaxError(f"{_describe(token)} is not expected here.", position, query)
    if isinstance(error, UnexpectedEOF | UnexpectedInput):
        return QuerySyntaxError("The query ends too early.", len(query), query)
    return QuerySyntaxError("The query could not be read.", 0, query)


def parse(query):
    """The AST of `query`, or None for an empty query. Raises QuerySyntaxError, nothing else."""
    if not isinstance(query, str):
        raise QuerySyntaxError("A query is text.", 0, "")
    return _parse_text(query)


@functools.lru_cache(maxsize=512)
def _parse_text(query):
    if len(query) > MAX_QUERY_LENGTH:
        raise QuerySyntaxError(f"A query has at most {MAX_QUERY_LENGTH} characters.", MAX_QUERY_LENGTH, query)
    if "\x00" in query:
        raise QuerySyntaxError("Unexpected control character.", query.index("\x00"), query)
    _check_depth(query)
    try:
        tree = _lark().parse(query)
    except UnexpectedInput as error:
        raise _syntax_error(error, query) from None
    except (LarkError, RecursionError):
        raise QuerySyntaxError("The query could not be read.", 0, query) from None
    try:
        return _ToAst(query).transform(tree)
    except (LarkError, RecursionError):
        raise QuerySyntaxError("The query could not be read.", 0, query) from None
