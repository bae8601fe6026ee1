"""The modules of the rounds app do not import each other in a circle, imports inside functions included."""

import grimp
import pytest

pytestmark = pytest.mark.django_db  # the suite's fixtures read the catalog


def _strongly_connected(graph, modules):
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


def test_no_import_cycle_inside_the_rounds_app():
    graph = grimp.build_graph("rounds")
    modules = {module for module in graph.modules if module == "rounds" or module.startswith("rounds.")}
    assert _strongly_connected(graph, modules) == []
