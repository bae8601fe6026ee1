"""The parsed form of a card query: a few immutable nodes the compilers walk."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Filter:
    """`key op value`; a bare word is `name:word`. `position` is where the term starts in the query, and
    `value_position` where its value starts (errors about the value point there)."""

    key: str  # canonical key, e.g. "type" for `t:`
    op: str  # one of = != < <= > >= and ":" (the key's default comparison)
    value: str  # without quotes
    position: int
    value_position: int
    text: str  # the term as typed, for messages
    bare: bool = False


@dataclass(frozen=True, slots=True)
class Not:
    item: object
    position: int


@dataclass(frozen=True, slots=True)
class And:
    items: tuple


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple


@dataclass(frozen=True, slots=True)
class Group:
    """Parentheses: kept so that the search can tell a query from a plain name."""

    item: object


def walk(node):
    """Every node of the tree, depth first."""
    yield node
    if isinstance(node, And | Or):
        for item in node.items:
            yield from walk(item)
    elif isinstance(node, Not | Group):
        yield from walk(node.item)
