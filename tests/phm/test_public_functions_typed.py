"""Every public function of a services or selectors module states the types of its arguments and its result.

mypy checks these modules (pyproject.toml, [tool.mypy]); this test checks that nothing public in them is left
untyped, which mypy alone does not require of a function with no annotation at all.
"""

import importlib
import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_FOLDERS = {".venv", "tests", "bench", "node_modules", "static", "templates", "migrations"}


def service_and_selector_modules() -> list[str]:
    names = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if SKIPPED_FOLDERS & set(parts):
            continue
        in_services = "services" in parts[:-1] or path.stem in {"services", "selectors"}
        if in_services and path.stem != "__init__":
            names.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return names


def untyped_parts(function) -> list[str]:
    signature = inspect.signature(function)
    missing = [
        name
        for name, parameter in signature.parameters.items()
        if parameter.annotation is inspect.Parameter.empty and name not in {"self", "cls"}
    ]
    if signature.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def public_functions(module):
    for name, value in vars(module).items():
        if name.startswith("_") or not inspect.isfunction(value) or value.__module__ != module.__name__:
            continue
        yield name, inspect.unwrap(value)


def test_the_check_finds_the_service_and_selector_modules():
    modules = service_and_selector_modules()
    assert "submissions.selectors" in modules
    assert any(name.startswith("scoring.services.") for name in modules)


def test_the_check_sees_a_missing_annotation():
    def untyped(a, b: int):
        return a

    def typed(a: int) -> int:
        return a

    assert untyped_parts(untyped) == ["a", "return"]
    assert untyped_parts(typed) == []


@pytest.mark.parametrize("module_name", service_and_selector_modules())
def test_every_public_service_and_selector_function_is_typed(module_name):
    module = importlib.import_module(module_name)
    untyped = {name: parts for name, function in public_functions(module) if (parts := untyped_parts(function))}
    assert untyped == {}, f"{module_name}: untyped arguments or results {untyped}"
