"""AST → a Python predicate over CardRecord (live checks) and → a Django Q over Card (search).

Both read the same `semantics.Test`s, and the tests check that they select the same cards.
"""

import re

from django.db.models import Q

from .ast import And, Filter, Group, Not, Or
from .records import CHANGELING_TEXT, COLOR_SYMBOL_PATTERNS, COLORS, DEVOID_TEXT
from .semantics import COMPARE, FRONT_PATTERNS, LAYOUTS, color_sets_where, prepare

_FRONT_RES = {name: re.compile(pattern, re.IGNORECASE) for name, pattern in FRONT_PATTERNS.items()}


def _match_all(record):
    return True


# ---- Python predicates ---------------------------------------------------------------------------------


def to_predicate(node, catalog):
    """A function CardRecord → bool for the AST `node` (None: every card)."""
    if node is None:
        return _match_all
    if isinstance(node, Group):
        return to_predicate(node.item, catalog)
    if isinstance(node, Not):
        inner = to_predicate(node.item, catalog)
        return lambda record: not inner(record)
    if isinstance(node, And | Or):
        parts = [to_predicate(item, catalog) for item in node.items]
        if len(parts) == 2:
            first, second = parts
            if isinstance(node, And):
                return lambda record: first(record) and second(record)
            return lambda record: first(record) or second(record)
        if isinstance(node, And):
            return lambda record: all(part(record) for part in parts)
        return lambda record: any(part(record) for part in parts)
    if isinstance(node, Filter):
        return _test_predicate(prepare(node, catalog))
    raise TypeError(f"Not a query node: {node!r}")


def _test_predicate(test):
    kind, arg, op = test.kind, test.arg, test.op
    if kind == "not":
        inner = _test_predicate(arg)
        return lambda record: not inner(record)
    if kind == "name":
        return lambda record: arg in record.name_key
    if kind == "name_exact":
        return lambda record: record.name_key == arg
    if kind == "type":
        text, is_creature_type = arg
        if is_creature_type:  # rule 702.73a: a changeling is every creature type
            return lambda record: text in record.type_lower or record.changeling
        return lambda record: text in record.type_lower
    if kind == "oracle":
        return lambda record: arg in record.oracle_lower
    if kind == "mv":
        compare = COMPARE[op]
        return lambda record: record.mana_value is not None and compare(record.mana_value, arg)
    if kind in ("color_count", "identity_count"):
        compare, field = COMPARE[op], kind.removesuffix("_count")
        if field == "color":
            return lambda record: compare(len(record.colors), arg)
        return lambda record: compare(len(record.identity), arg)
    if kind in ("color", "identity"):
        # Same comparison as semantics.colors_match, inlined: a live check runs it per card.
        compare = COMPARE[op]
        if kind == "color":
            return lambda record: compare(record.colors, arg)
        return lambda record: compare(record.identity, arg)
    if kind == "set":
        return lambda record: arg in record.sets
    if kind == "legality":
        fmt, statuses = arg
        return lambda record: record.legalities.get(fmt) in statuses
    if kind == "year":
        compare = COMPARE[op]
        return lambda record: record.first_printed is not None and compare(record.first_printed.year, arg)
    if kind == "date":
        compare = COMPARE[op]
        return lambda record: record.first_printed is not None and compare(record.first_printed, arg)
    if kind == "is":
        return _is_predicate(arg)
    raise ValueError(f"Unknown test {kind}")  # pragma: no cover


def _is_predicate(name):
    if name in LAYOUTS:
        layouts = LAYOUTS[name]
        return lambda record: record.layout in layouts
    if name == "changeling":
        return lambda record: record.changeling
    if name == "vanilla":
        return lambda record: (
            "creature" in record.type_lower and not record.oracle_text and record.data_quality == "full"
        )
    if name == "spell":
        nonland, land = _FRONT_RES["nonland"], _FRONT_RES["land"]
        return lambda record: bool(nonland.search(record.type_line)) and not land.search(record.type_line)
    pattern = _FRONT_RES[name]  # permanent, historic
    return lambda record: bool(pattern.search(record.type_line))


# ---- Django Q --------------------------------------------------------------------------------------------


def to_q(node, catalog):
    """A Q over rounds.models.Card for the AST `node` (None: every card)."""
    if node is None:
        return Q()
    if isinstance(node, Group):
        return to_q(node.item, catalog)
    if isinstance(node, Not):
        return ~to_q(node.item, catalog)
    if isinstance(node, And | Or):
        parts = [to_q(item, catalog) for item in node.items]
        combined = parts[0]
        for part in parts[1:]:
            combined = combined & part if isinstance(node, And) else combined | part
        return combined
    if isinstance(node, Filter):
        return _test_q(prepare(node, catalog))
    raise TypeError(f"Not a query node: {node!r}")


_LOOKUP = {"=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def _compare_q(field, op, value):
    if op == "!=":
        return Q(**{f"{field}__isnull": False}) & ~Q(**{field: value})
    return Q(**{f"{field}__{_LOOKUP[op]}": value})


def _has_color_q(color, identity):
    pattern = COLOR_SYMBOL_PATTERNS[color]
    if identity:
        return Q(mana_cost__regex=pattern) | Q(oracle_text__regex=pattern)
    return Q(mana_cost__regex=pattern) & ~Q(oracle_text__icontains=DEVOID_TEXT)


def _colors_q(test, identity):
    has = {color: _has_color_q(color, identity) for color in COLORS}
    if test.op in (">=", "<=") and not test.kind.endswith("_count"):
        wanted = test.arg if test.op == ">=" else frozenset(COLORS) - test.arg
        parts = [has[color] if test.op == ">=" else ~has[color] for color in COLORS if color in wanted]
        q = Q()
        for part in parts:
            q &= part
        return q
    combos = color_sets_where(test)
    negate = len(combos) > 16
    if negate:
        every = {frozenset(c) for c in _all_combos()}
        combos = [combo for combo in every if combo not in set(combos)]
    q = Q(pk__in=[])
    for combo in combos:
        exact = Q()
        for color in COLORS:
            exact &= has[color] if color in combo else ~has[color]
        q |= exact
    return ~q if negate else q


def _all_combos():
    from itertools import combinations

    for size in range(len(COLORS) + 1):
        yield from combinations(COLORS, size)


def _test_q(test):
    from rounds.models import Printing

    kind, arg, op = test.kind, test.arg, test.op
    if kind == "not":
        return ~_test_q(arg)
    if kind == "name":
        return Q(normalized_name__contains=arg)
    if kind == "name_exact":
        return Q(normalized_name=arg)
    if kind == "type":
        text, is_creature_type = arg
        q = Q(type_line__icontains=text)
        return q | Q(oracle_text__icontains=CHANGELING_TEXT) if is_creature_type else q
    if kind == "oracle":
        return Q(oracle_text__icontains=arg)
    if kind == "mv":
        return _compare_q("mana_value", op, arg)
    if kind in ("color", "color_count"):
        return _colors_q(test, identity=False)
    if kind in ("identity", "identity_count"):
        return _colors_q(test, identity=True)
    if kind == "set":
        return Q(pk__in=Printing.objects.filter(card_set__code__iexact=arg).values("card_id"))
    if kind == "legality":
        fmt, statuses = arg
        return Q(**{f"legalities__{fmt}__in": list(statuses)})
    if kind == "year":
        return _compare_q("first_printed__year", op, arg)
    if kind == "date":
        return _compare_q("first_printed", op, arg)
    if kind == "is":
        return _is_q(arg)
    raise ValueError(f"Unknown test {kind}")  # pragma: no cover


def _is_q(name):
    if name in LAYOUTS:
        return Q(layout__in=LAYOUTS[name])
    if name == "changeling":
        return Q(oracle_text__icontains=CHANGELING_TEXT)
    if name == "vanilla":
        return Q(type_line__icontains="creature", oracle_text="", data_quality="full")
    if name == "spell":
        return Q(type_line__iregex=FRONT_PATTERNS["nonland"]) & ~Q(type_line__iregex=FRONT_PATTERNS["land"])
    return Q(type_line__iregex=FRONT_PATTERNS[name])
