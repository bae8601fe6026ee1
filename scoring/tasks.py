"""Scoring tasks (DESIGN.md §3): build the match table after the reveal, tally after changes. They
materialise;
pages compute what they need if a task has not run. Task arguments are primary keys, sent after commit."""

import logging

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from . import services

logger = logging.getLogger(__name__)


def _tally_key(round_id):
    return f"scoring:tally-scheduled:{round_id}"


@shared_task(name="scoring.build_match_table")
def build_match_table(round_id):
    tally = services.build_match_table(round_id)
    if tally is not None:
        services.store_tally(round_id)
    return tally is not None


@shared_task(name="scoring.tally_round")
def tally_round(round_id):
    # Cleared first: a change committed while this runs schedules the next run instead of being lost.
    cache.delete(_tally_key(round_id))
    return services.store_tally(round_id)


@shared_task(name="scoring.score_due_rounds")
def score_due_rounds():
    """Every minute: tables of revealed rounds nobody built, and stored tallies behind their results."""
    built = [
        round_id for round_id in services.rounds_missing_a_table() if services.build_match_table(round_id)
    ]
    tallied = [round_id for round_id in services.stale_tallies() if services.store_tally(round_id)]
    if built or tallied:
        logger.info("Built match tables %s, tallied rounds %s", built, tallied)
    return {"built": built, "tallied": tallied}


def schedule_tally(round_id):
    """One tally run per round per burst of changes: the first change after a run schedules the next one."""
    if not cache.add(_tally_key(round_id), 1, timeout=300):
        return
    try:
        tally_round.apply_async(args=[round_id], countdown=settings.SCORING_TALLY_DELAY)
    except Exception:
        cache.delete(_tally_key(round_id))
        # A broker outage must not fail the change: pages compute stale tallies, and the backstop stores them.
        logger.exception("Could not schedule the tally of round %s", round_id)
