from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.catalog import resolve
from rounds.services import lifecycle as round_services

KJELD = ["Leyline of Singularity", "Karakas", "Kjeldoran Warrior", "Mishra's Workshop", "Wheel of Torture"]
SCEPTER = ["Ancient Tomb", "Gustha's Scepter", "Lodestone Golem", "Mishra's Workshop", "Sphere of Resistance"]
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
    now = timezone.now()
    return round_services.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title="5 Card Vintage",
        hand_size=5,
        deadline=now + timedelta(days=2),
    )


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
