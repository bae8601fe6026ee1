"""Connects scoring to the hands' life cycle: the match table is built after a reveal, and a disqualification
makes the stored tally stale (its matches leave the table)."""

import logging

from django.dispatch import receiver

from submissions.signals import hand_disqualified, round_revealed

logger = logging.getLogger(__name__)


@receiver(round_revealed, dispatch_uid="scoring.build_table_after_reveal")
def build_table_after_reveal(sender, round_id, **kwargs):
    from .tasks import build_match_table

    try:
        build_match_table.delay(round_id)
    except Exception:
        logger.exception("Could not schedule the match table of round %s", round_id)


@receiver(hand_disqualified, dispatch_uid="scoring.tally_after_disqualification")
def tally_after_disqualification(sender, round_id, **kwargs):
    from .services import note_results_changed

    note_results_changed(round_id)
