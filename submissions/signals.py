"""Schedules the exact-time reveal whenever rounds announce a deadline (rounds.signals.deadline_set)."""

import logging

from django.dispatch import Signal, receiver

from rounds.signals import deadline_set

logger = logging.getLogger(__name__)

# Sent after the commit that revealed a round (hands numbered): `round_id`.
round_revealed = Signal()
# Sent inside the transaction that disqualified a hand: `round_id`, `hand_id`.
hand_disqualified = Signal()


@receiver(deadline_set, dispatch_uid="submissions.schedule_reveal")
def schedule_reveal(sender, round_id, deadline, **kwargs):
    from .tasks import reveal_round

    try:
        reveal_round.apply_async(args=[round_id], eta=deadline)
    except Exception:
        # A broker outage must not fail the moderator's request: the every-minute backstop reveals the round,
        # and pages derive the reveal from the clock anyway.
        logger.exception("Could not schedule the reveal of round %s", round_id)
