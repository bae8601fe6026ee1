from pathlib import Path

import pytest

from rounds.catalog import resolve

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def catalog_index(db, monkeypatch):
    """The resolver's index over the snapshot loaded at migrate, warm and without revalidation queries."""
    index = resolve.get_index()
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return index


@pytest.fixture
def fresh_index():
    """For tests that change the catalog inside a rolled-back transaction: no stale index survives them."""
    resolve.invalidate_index()
    yield
    resolve.invalidate_index()


@pytest.fixture
def fixtures_dir():
    return FIXTURES
