"""A round imported from the forum gets its hands as played there: each hand with one version, the player's
own, submitted at the round's deadline, and a commitment that checks like every submitted hand's."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import register_player
from rounds.models import RoundState
from submissions import commitments
from submissions.imported_hands import ImportedHand, write_imported_hands
from submissions.models import HandVersion
from tests.factories import RoundFactory

CARDS = ["Black Lotus", "Mox Pearl", "Mox Sapphire", "Mox Jet", "Mox Ruby"]


@pytest.mark.django_db
def test_each_hand_is_written_with_one_current_version_and_its_commitment(moderator):
    round_ = RoundFactory(state=RoundState.REVEALED, deadline=timezone.now() - timedelta(days=30))
    alice = register_player(username="alice", password=None, forum_username="Alice")
    bob = register_player(username="bob", password=None, forum_username="Bob")
    hands = write_imported_hands(
        actor=moderator,
        round_=round_,
        hands=[
            ImportedHand(number=1, player=alice, name="Power", cards=CARDS, comment="Fast."),
            ImportedHand(number=2, player=bob, name="Moxen", cards=CARDS[1:], accepted_problems=["Too few."]),
        ],
    )
    assert sorted(hands) == [1, 2]
    first, second = hands[1], hands[2]
    assert (first.player, first.name, first.number, first.comment, first.accepted_problems) == (
        alice,
        "Power",
        1,
        "Fast.",
        [],
    )
    assert (second.player, second.comment, second.accepted_problems) == (bob, "", ["Too few."])
    for hand, cards in ((first, CARDS), (second, CARDS[1:])):
        [version] = HandVersion.objects.filter(hand=hand).select_related("hand__player")
        assert (version.number, version.name, version.cards, version.is_current) == (
            1,
            hand.name,
            cards,
            True,
        )
        assert version.source == HandVersion.Source.PLAYER
        assert version.created_by == moderator
        assert version.submitted_at == round_.deadline
        assert commitments.matches(commitments.version_text(version), version.commitment)
