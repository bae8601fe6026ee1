"""AST → Python source → a predicate and a whole-catalog selection, for speed.

A filter compiled to nested closures costs a Python call per node and card (3-4x a hand-written
comprehension over the catalog); the same filter written out as one expression costs what the hand-written
code does. The source is built only from fixed fragments and variable names: every value from the query
(words, numbers, colour sets, compiled regular expressions) is bound in the namespace as `v0`, `v1`, …, never
pasted into the text, so a query cannot inject code. If the expression is too deep for Python's compiler,
`compile_source` returns None and the caller keeps the closures of compile.to_predicate.
"""

import re

from .ast import And, Filter, Group, Not, Or
from .semantics import FRONT_PATTERNS, LAYOUTS, prepare

_PY_OPERATORS = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_FRONT_SEARCH = {name: re.compile(pattern, re.IGNORECASE).search for name, pattern in FRONT_PATTERNS.items()}


class _Source:
    def __init__(self):
        self.namespace = {"__builtins__": {"len": len}}

    def bind(self, value):
        name = f"v{len(self.namespace) - 1}"
        self.namespace[name] = value
        return name

    def expression(self, node, catalog):
        if node is None:
            return "True"
        if isinstance(node, Group):
            return self.expression(node.item, catalog)
        if isinstance(node, Not):
            return f"not ({self.expression(node.item, catalog)})"
        if isinstance(node, And | Or):
            joiner = " and " if isinstance(node, And) else " or "
            return joiner.join(f"({self.expression(item, catalog)})" for item in node.items)
        if isinstance(node, Filter):
            return self.test(prepare(node, catalog))
        raise TypeError(f"Not a query node: {node!r}")

    def test(self, test):
        kind, arg = test.kind, test.arg
        op = _PY_OPERATORS.get(test.op, "==")
        if kind == "not":
            return f"not ({self.test(arg)})"
        if kind == "name":
            return f"{self.bind(arg)} in r.name_key"
        if kind == "name_exact":
            return f"r.name_key == {self.bind(arg)}"
        if kind == "type":
            text, is_creature_type = arg
            found = f"{self.bind(text)} in r.type_lower"
            return f"({found} or r.changeling)" if is_creature_type else found
        if kind == "oracle":
            return f"{self.bind(arg)} in r.oracle_lower"
        if kind == "mv":
            return f"(r.mana_value is not None and r.mana_value {op} {self.bind(arg)})"
        if kind in ("color", "identity"):
            field = "colors" if kind == "color" else "identity"
            if op == ">=" and len(arg) == 1:  # `c:u`, the common case: a membership test is quicker
                return f"{self.bind(next(iter(arg)))} in r.{field}"
            return f"r.{field} {op} {self.bind(arg)}"
        if kind in ("color_count", "identity_count"):
            field = "colors" if kind == "color_count" else "identity"
            return f"len(r.{field}) {op} {self.bind(arg)}"
        if kind == "set":
            return f"{self.bind(arg)} in r.sets"
        if kind == "legality":
            fmt, statuses = arg
            return f"r.legalities.get({self.bind(fmt)}) in {self.bind(statuses)}"
        if kind == "year":
            return f"(r.first_printed is not None and r.first_printed.year {op} {self.bind(arg)})"
        if kind == "date":
            return f"(r.first_printed is not None and r.first_printed {op} {self.bind(arg)})"
        if kind == "is":
            return self.is_test(arg)
        raise ValueError(f"Unknown test {kind}")  # pragma: no cover

    def is_test(self, name):
        if name in LAYOUTS:
            return f"r.layout in {self.bind(LAYOUTS[name])}"
        if name == "changeling":
            return "r.changeling"
        if name == "vanilla":
            return "('creature' in r.type_lower and not r.oracle_text and r.data_quality == 'full')"
        if name == "spell":
            nonland, land = self.bind(_FRONT_SEARCH["nonland"]), self.bind(_FRONT_SEARCH["land"])
            return f"({nonland}(r.type_line) is not None and {land}(r.type_line) is None)"
        return f"{self.bind(_FRONT_SEARCH[name])}(r.type_line) is not None"


def compile_source(node, catalog):
    """(predicate, select) for the AST, or None when Python cannot compile an expression this deep.
    QuerySyntaxError from the filters' values propagates."""
    source = _Source()
    expression = source.expression(node, catalog)
    text = f"(lambda r: {expression}, lambda records: [r for r in records if {expression}])"
    try:
        code = compile(text, "<card filter>", "eval")
    except (SyntaxError, RecursionError, MemoryError):
        return None
    # Safe: the text is made of the fixed fragments above and names bound in the namespace (see docstring).
    return eval(code, source.namespace)  # noqa: S307
