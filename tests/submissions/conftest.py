import pytest

from rounds.catalog import resolve
from tests import builders
from tests.builders import KJELD, SCEPTER  # noqa: F401  (the legal hands, imported from here by many tests)

VOID = [
    "Leyline of the Void",
    "Chalice of the Void",
    "Dark Depths",
    "Thespian's Stage",
    "Urborg, Tomb of Yawgmoth",
]


@pytest.fixture(autouse=True)
def catalog_index(db, monkeypatch):
    """The resolver's index over the snapshot loaded at migrate, warm and without revalidation queries."""
    index = resolve.get_index()
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return index


@pytest.fixture
def open_round(league, moderator):
    return builders.open_round(league=league, actor=moderator)


@pytest.fixture
def alice(make_user):
    return make_user("alice", forum_username="WhammeWhamme", email="alice@example.org")


@pytest.fixture
def bob(make_user):
    return make_user("bob", forum_username="nerdyjoe", email="bob@example.org")


@pytest.fixture
def carol(make_user):
    return make_user("carol", forum_username="Carol", email="carol@example.org")


@pytest.fixture
def dave(make_user):
    return make_user("dave", forum_username="Dave", email="dave@example.org")
