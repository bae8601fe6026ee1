"""Autocomplete offers first the cards this site's players play (stats.metagame.hands_per_card, registered
with rounds.catalog.popularity): counted over revealed hands only, so a hand still secret moves nothing."""

from datetime import timedelta

import pytest
import time_machine

from rounds.catalog.lookup import look_up_name
from tests import builders

pytestmark = pytest.mark.django_db

BLOW = ["Lightning Blow"]


def first_for(text):
    return look_up_name(text, limit=10).matches[0].name


@pytest.fixture
def catalog_index(db, monkeypatch):
    from rounds.catalog import resolve

    index = resolve.get_index()
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return index


def test_a_card_played_in_revealed_hands_comes_first_and_a_secret_hand_moves_nothing(
    catalog_index, league, moderator, make_user
):
    from rounds.catalog.popularity import CACHE_SECONDS, forget_play_counts, play_counts
    from stats.metagame import hands_per_card

    round_ = builders.open_round(league=league, actor=moderator, hand_size=1)
    for name in ("ann", "ben"):
        builders.submit(make_user(name), round_, BLOW)
    # Before the deadline the hands are secret: the ranking is the catalog's own (Lightning Bolt, reprinted
    # most), not the hands'.
    forget_play_counts()
    assert hands_per_card() == {}
    assert first_for("lightning b") == "Lightning Bolt"
    with time_machine.travel(round_.deadline + timedelta(seconds=CACHE_SECONDS + 1), tick=False):
        # Past the deadline the hands are public; the counts are made again once their stamp expired (the
        # cache's own clock, Redis's on the full stack, is not travelled: the stamp is dropped as expiry would).
        assert hands_per_card() == {"Lightning Blow": 2}
        forget_play_counts()
        assert play_counts() == {"Lightning Blow": 2}
        assert first_for("lightning b") == "Lightning Blow"
        assert first_for("bolt") == "Lightning Bolt"  # nobody played a bolt: the catalog's order stands
