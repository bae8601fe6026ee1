"""The apps stand in layers, accounts <- rounds <- submissions <- scoring (outbox beside them): an app imports
only from the layers below it. A page of a lower app shows a higher app's data through rounds.page_extensions."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["accounts", "rounds", "submissions", "scoring"]


def imported_apps(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


@pytest.mark.parametrize("app", LAYERS)
def test_no_app_imports_a_layer_above_it(app):
    above = set(LAYERS[LAYERS.index(app) + 1 :])
    offending = sorted(
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / app).rglob("*.py")
        for name in imported_apps(path)
        if name in above
    )
    assert offending == []
