"""No cycle inside any app: the modules of one app never import each other in a circle, imports inside
functions included. (The layers between apps are import-linter's contract in pyproject.toml.)"""

import grimp
import pytest

APPS = (
    "phm",
    "accounts",
    "audit",
    "outbox",
    "rounds",
    "submissions",
    "scoring",
    "archive",
    "stats",
    "webhooks",
    "home",
    "demo",
)


def import_cycles(graph, modules):
    """The groups of `modules` that import each other in a circle (strongly connected components of more than
    one module, Tarjan), each sorted."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in modules:
                continue
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return found


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph(*APPS)


def test_the_check_finds_a_cycle_and_only_a_cycle():
    graph = grimp.ImportGraph()
    for importer, imported in [
        ("app.a", "app.b"),
        ("app.b", "app.c"),
        ("app.c", "app.a"),
        ("app.d", "app.a"),
    ]:
        graph.add_import(importer=importer, imported=imported)
    assert import_cycles(graph, {"app.a", "app.b", "app.c", "app.d"}) == [["app.a", "app.b", "app.c"]]


@pytest.mark.parametrize("app", APPS)
def test_no_import_cycle_inside_the_app(graph, app):
    modules = {module for module in graph.modules if module == app or module.startswith(f"{app}.")}
    assert import_cycles(graph, modules) == []
