"""The test factories of tests/builders.py build what the services build."""

from datetime import timedelta

import pytest
from django.utils import timezone

from outbox.models import Message
from rounds.models import RoundState
from scoring.models import Match, MatchStatus, RoundTally
from submissions.models import HandVersion
from tests import builders
from tests.submissions.conftest import KJELD, SCEPTER, catalog_index  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(make_user):
    return make_user("alice", email="alice@example.org")


@pytest.fixture
def bob(make_user):
    return make_user("bob", email="bob@example.org")


@pytest.fixture
def carol(make_user):
    return make_user("carol", email="carol@example.org")


def test_an_open_round_accepts_hands_until_its_deadline_two_days_away(league, moderator):
    round_ = builders.open_round(league=league, actor=moderator)
    assert round_.state == RoundState.OPEN
    assert round_.league == league
    assert round_.title == "5 Card Vintage" and round_.hand_size == 5
    assert timedelta(days=1, hours=23) < round_.deadline - timezone.now() <= timedelta(days=2)
    assert round_.accepts_hands_at(timezone.now())


def test_an_open_round_takes_other_rules(league, moderator):
    deadline = timezone.now() + timedelta(hours=5)
    round_ = builders.open_round(league=league, actor=moderator, title="Highlander", deadline=deadline)
    assert round_.title == "Highlander"
    assert round_.deadline == deadline


def test_a_submitted_hand_is_stored_with_its_commitment_and_receipt(league, moderator, alice):
    round_ = builders.open_round(league=league, actor=moderator)
    submission = builders.submit(alice, round_, SCEPTER, name="Scepter")
    assert submission.created and submission.changed
    assert submission.hand.player == alice and submission.hand.name == "Scepter"
    assert submission.version.cards == SCEPTER
    assert submission.version.commitment
    assert Message.objects.filter(kind="hand.receipt", recipient=alice).exists()


def test_submitted_hands_follow_the_players_order(league, moderator, alice, bob):
    round_ = builders.open_round(league=league, actor=moderator)
    hands = builders.submit_hands(round_, [alice, bob])
    assert [hand.player for hand in hands] == [alice, bob]
    assert [hand.name for hand in hands] == ["Hand of alice", "Hand of bob"]
    assert HandVersion.objects.filter(hand__round=round_, is_current=True, cards=KJELD).count() == 2


def test_a_revealed_round_has_its_hands_numbered_and_its_match_table(league, moderator, alice, bob, carol):
    round_ = builders.revealed_round(league=league, actor=moderator, players=[alice, bob, carol])
    assert round_.state == RoundState.REVEALED
    assert round_.deadline < timezone.now()
    numbers = dict(round_.hands.values_list("player__username", "number"))
    assert numbers == {"alice": 1, "bob": 2, "carol": 3}
    assert Match.objects.filter(round=round_).count() == 3
    assert builders.match_between(round_, 2, 1).hand_a.player == alice


def test_a_revealed_round_without_its_table(league, moderator, alice, bob):
    round_ = builders.revealed_round(league=league, actor=moderator, players=[alice, bob], build=False)
    assert round_.deadline < timezone.now()
    assert not Match.objects.filter(round=round_).exists()


def test_a_reported_match_agreed_by_both_players(league, moderator, alice, bob):
    round_, match = builders.round_with_reported_match(
        league=league, actor=moderator, players=[alice, bob], points=(4, 1)
    )
    assert match.round == round_
    assert match.status == MatchStatus.AGREED
    assert (match.points_a, match.points_b) == (4, 1)


def test_a_match_reported_by_one_side(league, moderator, alice, bob):
    _, match = builders.round_with_reported_match(
        league=league, actor=moderator, players=[alice, bob], agreed=False
    )
    assert match.status == MatchStatus.REPORTED


def test_a_finalized_round_has_its_results_and_tally(league, moderator, alice, bob, carol):
    round_ = builders.finalized_round(
        league=league, actor=moderator, players=[alice, bob, carol], results={(2, 3): (0, 6)}
    )
    assert round_.state == RoundState.FINAL
    assert RoundTally.objects.filter(round=round_).exists()
    decided = builders.match_between(round_, 2, 3)
    assert (decided.points_a, decided.points_b) == (0, 6)
    assert set(Match.objects.filter(round=round_).values_list("status", flat=True)) == {MatchStatus.FINAL}


def test_a_league_with_standings_ranks_the_player_who_won_every_match_first(moderator, alice, bob, carol):
    league, standings = builders.league_with_standings(actor=moderator, players=[alice, bob, carol])
    assert league.rounds.filter(state=RoundState.FINAL).count() == 2
    assert [row.player for row in standings.rows] == [alice, bob, carol]
    assert [row.rank for row in standings.rows] == [1, 2, 3]
