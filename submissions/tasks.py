"""Reveal tasks (DESIGN.md §3): an exact-time task per deadline and an every-minute backstop. Both only
materialise what pages already derive from the clock, and both are idempotent."""

import logging

from celery import shared_task

from . import services

logger = logging.getLogger(__name__)


@shared_task(name="submissions.reveal_round")
def reveal_round(round_id):
    """Scheduled with eta=deadline when a round opens or its deadline moves."""
    return services.reveal_round(round_id)


@shared_task(name="submissions.reveal_due_rounds")
def reveal_due_rounds():
    """Every minute (CELERY_BEAT_SCHEDULE): catches exact-time tasks lost with a broker or worker restart."""
    revealed = [round_id for round_id in services.rounds_due_for_reveal() if services.reveal_round(round_id)]
    if revealed:
        logger.info("Revealed rounds %s", revealed)
    return revealed
