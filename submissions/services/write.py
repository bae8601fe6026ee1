"""A hand's new version, and the ORM write of a submission: the hand's new name and flag, its new version, the
audit entry and the receipt's outbox row, by the models' own saves. Every database takes this path but
PostgreSQL, which writes the same rows in one statement (submissions.services.pg_write; a test proves the rows
equal)."""

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from audit.models import AuditEntry
from outbox import services as outbox
from outbox.models import Message
from rounds.models import Round
from submissions import commitments
from submissions.models import Hand, HandVersion

HAND_UPDATE_FIELDS = ("name", "flagged", "updated_at")


def new_version(
    hand: Hand,
    round_: Round,
    player: User,
    name: str,
    cards: list[str],
    attested: list[str],
    moment: datetime,
    previous: HandVersion | None,
    *,
    by: User,
    source: str,
    save: bool = True,
    decisions: dict[str, Any] | None = None,
) -> HandVersion:
    """The hand's next version, made current. `previous` must already be lowered
    (locks.lower_current_version): the partial unique index allows one current version at any instant. With
    save=False the version is returned unsaved, for the submission's write. `decisions` None: the previous
    version's (a moderator's similar hand keeps the player's decisions).

    `source` says who made it, explicitly: HandVersion.Source.PLAYER for the player's own submission only,
    MODERATOR for anything a moderator made of it — whoever `by` is. Only the player's own last version is
    the commitment the round page and the hands list publish (selectors._attach_versions)."""
    if decisions is None:
        decisions = dict(previous.decisions or {}) if previous is not None else {}
    number = (previous.number if previous else 0) + 1
    if previous is None and hand.pk:
        last = (
            HandVersion.objects.filter(hand=hand).order_by("-number").values_list("number", flat=True).first()
        )
        number = (last or 0) + 1
    nonce = commitments.new_nonce()
    commitment = commitments.commitment_for(
        round_id=round_.pk,
        username=player.get_username(),
        version=number,
        name=name,
        cards=cards,
        nonce=nonce,
        decisions=decisions,
    )
    version = HandVersion(
        hand=hand,
        number=number,
        name=name,
        cards=cards,
        attested=attested,
        decisions=decisions,
        nonce=nonce,
        commitment=commitment,
        source=source,
        created_by=by,
        submitted_at=moment,
        is_current=True,
    )
    if save:
        version.save(force_insert=True)
    return version


def save_submission(
    hand: Hand, version: HandVersion, entry: AuditEntry, receipt: Message | None = None
) -> None:
    """Write a submission: the hand's new name and flag (HAND_UPDATE_FIELDS), its new version, the audit entry
    and the receipt's outbox message (None: the player has no e-mail address), which names the new version
    (`source_id`), handed to the workers after the commit."""
    hand.save(update_fields=list(HAND_UPDATE_FIELDS))
    version.save(force_insert=True)
    entry.save(force_insert=True)
    if receipt is not None:
        receipt.source_id = version.pk
        outbox.queue([receipt])
