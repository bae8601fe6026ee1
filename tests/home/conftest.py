from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.services.table import build_match_table
from tests import builders
from tests.scoring.conftest import (
    make_hands,
    make_players,  # noqa: F401  (fixture)
)
from tests.submissions.conftest import KJELD, SCEPTER, catalog_index  # noqa: F401  (fixture)


@pytest.fixture
def open_round(league, moderator):
    """make(title=…, league=…) → an open 5-card round due in two days."""

    def make(title="5 Card Vintage", league=league, actor=moderator, **rules):
        return builders.open_round(league=league, actor=actor, title=title, **rules)

    return make


@pytest.fixture
def revealed_round(league, make_players, open_round):  # noqa: F811  (the imported fixture)
    """make(players, league=…) → a round past its deadline with the players' hands (entry order), its match
    table built."""

    def make(players, *, league=league, build=True):
        round_ = open_round(league=league, title=f"Revealed {len(players)}")
        make_hands(round_, players)
        round_.deadline = timezone.now() - timedelta(minutes=1)
        round_.save(update_fields=["deadline"])
        if build:
            build_match_table(round_.pk)
        round_.refresh_from_db()
        return round_

    return make
