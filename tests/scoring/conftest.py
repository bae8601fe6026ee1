from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.services import register_player
from scoring.services.table import build_match_table
from submissions.models import Hand, HandVersion
from tests.factories import RoundFactory

CARDS = ["Black Lotus", "Mox Pearl", "Mox Sapphire", "Mox Jet", "Mox Ruby"]


def make_hands(round_, players):
    """Hands entered one after the other (numbers follow this order), without the legality check."""
    hands = []
    for position, player in enumerate(players, start=1):
        hand = Hand.objects.create(round=round_, player=player, name=f"Hand of {player.username}")
        HandVersion.objects.create(
            hand=hand,
            number=1,
            name=hand.name,
            cards=CARDS,
            nonce=f"{position:064d}",
            commitment=f"{position:064x}",
            created_by=player,
            submitted_at=timezone.now(),
        )
        hands.append(hand)
    return hands


@pytest.fixture
def catalog_index(db, monkeypatch):
    """The resolver's index, warm and without revalidation queries: pages that show cards resolve their
    names in it, and a revalidation in the middle of a query count would count one query more."""
    from rounds.catalog import resolve

    index = resolve.get_index()
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return index


@pytest.fixture
def make_players(db, password):
    def make(count, prefix="p"):
        User = get_user_model()
        existing = User.objects.filter(username__startswith=prefix).count()
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
def revealed_round(league, make_players):
    """make(n) → a round past its deadline with n hands, its match table built; players in entry order."""

    def make(count, *, build=True, players=None):
        round_ = RoundFactory(league=league)
        players = players or make_players(count)
        make_hands(round_, players)
        round_.deadline = timezone.now() - timedelta(minutes=1)
        round_.save(update_fields=["deadline"])
        if build:
            build_match_table(round_.pk)
        round_.refresh_from_db()
        return round_, players

    return make


def plays_in_the_league(league, *users):
    """Each of `users` gets a hand in another round of `league` (still open): a player of the league, who may
    challenge its results (rule 6.3c), without a hand in the round a test looks at. Returns that round."""
    round_ = RoundFactory(league=league)
    make_hands(round_, users)
    return round_


def match_between(round_, number_a, number_b):
    from scoring.models import Match

    return Match.objects.select_related("hand_a", "hand_b").get(
        round=round_, hand_a__number=min(number_a, number_b), hand_b__number=max(number_a, number_b)
    )
