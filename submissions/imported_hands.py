"""Hands of a round imported from the forum: a past round, played and revealed there. Each hand is written
with its one version and that version's commitment, made by the same helpers (`submissions.commitments`) as
every submitted hand's: version 1, the player's own (source PLAYER), submitted at the round's deadline. No
legality check (the forum's host accepted the hands; the problems they have are kept on the hand), no
receipt, no signal: the round was never open here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User

from rounds.models import Round

from . import commitments
from .models import Hand, HandVersion


@dataclass(frozen=True)
class ImportedHand:
    """One entry of the forum's post, its player's account chosen (or created) already."""

    number: int
    player: User
    name: str
    cards: list[str]  # the catalog's names
    comment: str = ""
    accepted_problems: list[str] = field(default_factory=list)  # rule problems the forum's host accepted


def write_imported_hands(*, actor: User, round_: Round, hands: Sequence[ImportedHand]) -> dict[int, Hand]:
    """{entry number: hand} for `hands` written into `round_` (just created, revealed): one INSERT per hand
    and one for all their versions. Call it inside the import's transaction."""
    written: dict[int, Hand] = {}
    versions = []
    for imported in hands:
        hand = Hand.objects.create(
            round=round_,
            player=imported.player,
            name=imported.name,
            number=imported.number,
            comment=imported.comment,
            accepted_problems=list(imported.accepted_problems),
        )
        cards = list(imported.cards)
        nonce = commitments.new_nonce()
        versions.append(
            HandVersion(
                hand=hand,
                number=1,
                name=imported.name,
                cards=cards,
                nonce=nonce,
                commitment=commitments.commitment_for(
                    round_id=round_.pk,
                    username=imported.player.get_username(),
                    version=1,
                    name=imported.name,
                    cards=cards,
                    nonce=nonce,
                ),
                source=HandVersion.Source.PLAYER,
                created_by=actor,
                submitted_at=round_.deadline,
                is_current=True,
            )
        )
        written[imported.number] = hand
    HandVersion.objects.bulk_create(versions)
    return written
