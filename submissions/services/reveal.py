"""The reveal of a round past its deadline, and which rounds are due for it (the reveal tasks call these)."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from audit.services import log_action
from rounds.models import Round, RoundState
from submissions import signals
from submissions.models import Hand


def reveal_round(round_id: int, now: datetime | None = None) -> bool:
    """Materialise the reveal of a round past its deadline: number its hands 01, 02… by first submission and
    mark it revealed. Idempotent and safe concurrently (the round row is locked); True when it did the work.
    Pages never wait for this: past the deadline they show the same numbers computed the same way."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().filter(pk=round_id).first()
        if round_ is None or round_.state != RoundState.OPEN:
            return False
        if round_.deadline > (now or timezone.now()):
            return False  # the deadline moved: the task scheduled for the new one will do it
        hands = list(Hand.objects.select_for_update().filter(round=round_).order_by("created_at", "pk"))
        for position, hand in enumerate(hands, start=1):
            hand.number = position
        Hand.objects.bulk_update(hands, ["number"])
        round_.state = RoundState.REVEALED
        round_.save(update_fields=["state", "updated_at"])
        log_action(
            round_,
            "round.revealed",
            before={"state": RoundState.OPEN},
            after={"state": RoundState.REVEALED, "hands": len(hands)},
        )
        signals.hands_revealed.send(sender=Round, round_id=round_id)
        transaction.on_commit(
            lambda: signals.round_revealed.send(sender=Round, round_id=round_id), robust=True
        )
    return True


def rounds_nearing_deadline(now: datetime, within: timedelta) -> list[tuple[int, datetime]]:
    """(round id, deadline) of open rounds whose deadline falls in (now, now + within]."""
    return list(
        Round.objects.filter(state=RoundState.OPEN, deadline__gt=now, deadline__lte=now + within).values_list(
            "pk", "deadline"
        )
    )


def rounds_due_for_reveal(now: datetime | None = None) -> list[int]:
    return list(
        Round.objects.filter(state=RoundState.OPEN, deadline__lte=now or timezone.now()).values_list(
            "pk", flat=True
        )
    )
