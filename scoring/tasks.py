"""Scoring tasks: build the match table after the reveal, tally after changes. They
materialise;
pages compute what they need if a task has not run. Task arguments are primary keys, sent after commit."""

import logging

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError

from phm.tasks import publish

from .services.table import rounds_missing_a_table
from .services.table_build import build_in_steps
from .services.tally import stale_tallies, store_tally

# A lock timeout (the worker's database sessions have one) is retried; anything else waits for the backstop.
RETRY_ON_LOCKS = {"autoretry_for": (OperationalError,), "retry_backoff": True, "max_retries": 5}

logger = logging.getLogger(__name__)


def _tally_key(round_id):
    return f"scoring:tally-scheduled:{round_id}"


@shared_task(name="scoring.build_match_table", **RETRY_ON_LOCKS)
def build_match_table(round_id):
    # In committed steps, so a page waiting for a large table shows its progress (table_build).
    tally = build_in_steps(round_id)
    if tally is not None:
        store_tally(round_id)
    return tally is not None


@shared_task(name="scoring.tally_round", **RETRY_ON_LOCKS)
def tally_round(round_id):
    # Cleared first: a change committed while this runs schedules the next run instead of being lost.
    cache.delete(_tally_key(round_id))
    return store_tally(round_id)


@shared_task(name="scoring.score_due_rounds")
def score_due_rounds():
    """Every minute: tables of revealed rounds nobody built, and stored tallies behind their results."""
    built = [round_id for round_id in rounds_missing_a_table() if build_in_steps(round_id)]
    tallied = [round_id for round_id in stale_tallies() if store_tally(round_id)]
    if built or tallied:
        logger.info("Built match tables %s, tallied rounds %s", built, tallied)
    return {"built": built, "tallied": tallied}


def tally_guard_seconds():
    """How long one scheduled tally stands for the next changes: its countdown and a little more. A tally
    lost with a worker or the broker lets the next change schedule another within seconds."""
    return settings.SCORING_TALLY_DELAY + 10


def schedule_tally(round_id):
    """One tally run per round per burst of changes: the first change after a run schedules the next one."""
    if cache.add(_tally_key(round_id), 1, timeout=tally_guard_seconds()) is False:
        return
    if not publish(tally_round, round_id, countdown=settings.SCORING_TALLY_DELAY):
        # Pages compute stale tallies, and the backstop stores them; the next change may try again.
        cache.delete(_tally_key(round_id))
