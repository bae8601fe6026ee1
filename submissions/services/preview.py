"""A moderator's declaration "I will not play in this round", which lets them see its hands before the
deadline (and from then on bars them from submitting a hand to it)."""

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import log_action
from rounds.locks import lock_round
from rounds.models import RoundState
from rounds.permissions import can_manage_league
from submissions.errors import HandConflict, HandNotFound, ReviewNotAllowed
from submissions.models import Hand, HandsPreview

PREVIEWED_MESSAGE = (
    "You chose to see the other hands of this round as its moderator, so you cannot play in it "
    "(a moderator who plays may not see the other hands before the deadline)."
)


DECLARE_FIRST_MESSAGE = (
    "Before the deadline you see this round's hands only after declaring that you will not play in it "
    "(POST /api/rounds/{id}/preview/, or the button on the review page)."
)


@transaction.atomic
def declare_not_playing(
    *, moderator: User, round_id: int, now: datetime | None = None
) -> HandsPreview | None:
    """A moderator of the round's league declares "I will not play in this round" and may see its hands
    before the deadline. An explicit POST, never a page view.

    Serialised with submissions: the round row is locked FOR UPDATE, so a submission in flight (FOR SHARE)
    finishes first and its hand is seen below; a submission that starts later waits for this commit and then
    sees the declaration (locks.lock_own_hand). Returns the HandsPreview, or None past the deadline (everyone
    sees the hands then). Raises HandNotFound, ReviewNotAllowed, or HandConflict when they have a hand."""
    round_ = lock_round(round_id)
    if round_ is None or round_.state == RoundState.DRAFT:
        raise HandNotFound("No such round.")
    if not can_manage_league(moderator, round_.league):
        raise ReviewNotAllowed("Only a moderator of this league can see its hands before the deadline.")
    moment = now or timezone.now()
    if not round_.accepts_hands_at(moment):
        return None
    if Hand.objects.filter(round=round_, player=moderator).exists():
        raise HandConflict(
            "You have a hand in this round, so you cannot see the other hands before the deadline "
            "(a moderator who plays may not)."
        )
    preview, created = HandsPreview.objects.get_or_create(
        round=round_, moderator=moderator, defaults={"first_seen_at": moment}
    )
    if created:
        log_action(round_, "round.hands_previewed", actor=moderator, after={"plays": False})
    return preview
