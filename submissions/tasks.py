"""Reveal tasks: an exact-time task per deadline and an every-minute backstop. Both only
materialise what pages already derive from the clock, and both are idempotent. Also the judging of an open
round's hands again after the cards it allows changed, with its own backstop."""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError
from django.utils import timezone

from phm.tasks import publish_at

from . import notifications
from .services import reveal, rules_check

logger = logging.getLogger(__name__)


@shared_task(
    name="submissions.reveal_round", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5
)
def reveal_round(round_id):
    """Scheduled with eta=deadline when the deadline is near (phm.tasks.publish_at). A lock timeout (the
    worker's sessions have one) retries it."""
    return reveal.reveal_round(round_id)


@shared_task(name="submissions.reveal_due_rounds")
def reveal_due_rounds():
    """Every BACKSTOP_INTERVAL: reveals rounds past their deadline (exact-time tasks lost with a broker or a
    worker), and schedules the exact-time reveal of rounds whose deadline is now within the horizon."""
    revealed = [round_id for round_id in reveal.rounds_due_for_reveal() if reveal.reveal_round(round_id)]
    if revealed:
        logger.info("Revealed rounds %s", revealed)
    scheduled = schedule_near_reveals()
    return {"revealed": revealed, "scheduled": scheduled}


def schedule_near_reveals(now=None):
    """Exact-time reveals for deadlines within TASK_ETA_HORIZON, once per round and deadline (the cache key
    only saves a duplicate: a second task would find the round revealed and do nothing)."""
    now = now or timezone.now()
    scheduled = []
    for round_id, deadline in reveal.rounds_nearing_deadline(
        now, timedelta(seconds=settings.TASK_ETA_HORIZON)
    ):
        key = f"submissions:reveal-scheduled:{round_id}:{deadline.timestamp()}"
        if cache.add(key, 1, timeout=2 * settings.TASK_ETA_HORIZON) is False:
            continue
        if publish_at(reveal_round, deadline, round_id, now=now):
            scheduled.append(round_id)
    return scheduled


@shared_task(name="submissions.send_reminders")
def send_reminders():
    """Every BACKSTOP_INTERVAL: deadline reminders now due (24 h and 1 h ahead, to who has not submitted)."""
    return notifications.send_reminders()


@shared_task(
    name="submissions.check_round_hands", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5
)
def check_round_hands(round_id):
    """Published after the commit that changed the cards an open round allows: flags the hands the change made
    illegal and tells their players (rules_check). A lock timeout retries it."""
    rules_check.check_round_hands(round_id)


@shared_task(name="submissions.check_due_hands")
def check_due_hands():
    """Every BACKSTOP_INTERVAL: rounds whose hands are still to be judged again (a task lost with a broker or
    a worker)."""
    rounds = rules_check.rounds_to_check()
    for round_id in rounds:
        rules_check.check_round_hands(round_id)
    return {"checked": rounds}
