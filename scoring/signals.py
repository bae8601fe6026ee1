"""Connects scoring to the hands' life cycle: the match table is built after a reveal, and a disqualification
makes the stored tally stale (its matches leave the table)."""

from django.dispatch import Signal, receiver

from phm.tasks import publish
from submissions.signals import hand_disqualified, round_revealed

# Sent inside the transaction that made a round final, with `round_id`: "results final" messages and webhooks
# are written to the outbox in that transaction.
round_finalized = Signal()
# Sent inside the transaction that declared a league's winners, with `league_id`.
winners_declared = Signal()


@receiver(round_revealed, dispatch_uid="scoring.build_table_after_reveal")
def build_table_after_reveal(sender, round_id, **kwargs):
    from .tasks import build_match_table

    publish(build_match_table, round_id)  # the backstop builds it if the broker is down


@receiver(hand_disqualified, dispatch_uid="scoring.tally_after_disqualification")
def tally_after_disqualification(sender, round_id, **kwargs):
    from .services import note_results_changed

    note_results_changed(round_id)
