from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.services import register_player
from rounds.catalog import resolve
from rounds.services import leagues as round_services
from scoring import services as scoring_services
from tests.scoring.conftest import make_hands

KJELD = ["Leyline of Singularity", "Karakas", "Kjeldoran Warrior", "Mishra's Workshop", "Wheel of Torture"]
SCEPTER = ["Ancient Tomb", "Gustha's Scepter", "Lodestone Golem", "Mishra's Workshop", "Sphere of Resistance"]


@pytest.fixture(autouse=True)
def catalog_index(db, monkeypatch):
    """The resolver's index over the snapshot loaded at migrate, warm and without revalidation queries."""
    index = resolve.get_index()
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return index


@pytest.fixture
def make_players(db, password):
    def make(count, prefix="p"):
        existing = get_user_model().objects.filter(username__startswith=prefix).count()
        return [
            register_player(
                username=f"{prefix}{existing + index}",
                password=password,
                email=f"{prefix}{existing + index}@example.org",
                forum_username=f"Forum {prefix}{existing + index}",
            )
            for index in range(1, count + 1)
        ]

    return make


@pytest.fixture
def open_round(league, moderator):
    """make(title=…, league=…) → an open 5-card round due in two days."""

    def make(title="5 Card Vintage", league=league, actor=moderator, **rules):
        now = timezone.now()
        return round_services.create_round(
            actor=actor,
            league=league,
            now=now,
            open_now=True,
            title=title,
            hand_size=5,
            deadline=now + timedelta(days=2),
            **rules,
        )

    return make


@pytest.fixture
def revealed_round(league, make_players, open_round):
    """make(players, league=…) → a round past its deadline with the players' hands (entry order), its match
    table built."""

    def make(players, *, league=league, build=True):
        round_ = open_round(league=league, title=f"Revealed {len(players)}")
        make_hands(round_, players)
        round_.deadline = timezone.now() - timedelta(minutes=1)
        round_.save(update_fields=["deadline"])
        if build:
            scoring_services.build_match_table(round_.pk)
        round_.refresh_from_db()
        return round_

    return make
