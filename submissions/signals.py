"""Schedules the exact-time reveal whenever rounds announce a deadline (rounds.signals.deadline_set)."""

from django.dispatch import Signal, receiver

from phm.tasks import publish_at
from rounds.signals import deadline_set

# Sent after the commit that revealed a round (hands numbered): `round_id`.
round_revealed = Signal()
# Sent inside the transaction that revealed a round, once (the reveal holds the round's lock): `round_id`.
# Whatever tells people "hands posted" is written to the outbox in that transaction.
hands_revealed = Signal()
# Sent inside the transaction that disqualified a hand: `round_id`, `hand_id`.
hand_disqualified = Signal()
# Sent inside the transaction that replaced a hand by a moderator's similar hand (4.2a), with the round locked
# shared and the hand locked: `round_id`, `hand_id`, `actor`.
hand_replaced = Signal()


@receiver(deadline_set, dispatch_uid="submissions.schedule_reveal")
def schedule_reveal(sender, round_id, deadline, **kwargs):
    """A deadline close enough is scheduled now; a later one by the backstop when it comes near
    (submissions.tasks.reveal_due_rounds). Pages derive the reveal from the clock either way."""
    from .tasks import reveal_round

    publish_at(reveal_round, deadline, round_id)
