"""Tasks that belong to the project as a whole, and the one way the apps hand work to the workers.

Work is published after the commit that caused it (callers use transaction.on_commit) and by primary key.
Publishing never fails the caller: a broker that is down costs a logged error and well under a second
(CELERY_BROKER_TRANSPORT_OPTIONS), and the beat backstops do the work once Redis is back. Nothing is scheduled
further ahead than TASK_ETA_HORIZON, so no message outlives the broker's visibility timeout.
"""

import logging
import time
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

logger = logging.getLogger(__name__)


# After a failed publish the broker is left alone for this many seconds: while Redis is down every request
# would otherwise pay for a connection attempt (and a traceback in the log).
BROKER_RETRY_AFTER = 5.0
_broker_down_until = 0.0
_publishing_held = ContextVar("publishing_held", default=False)


@contextmanager
def publishing_held():
    """Publish nothing inside the block: for a bulk loader (seed_demo) that does the tasks' work itself.
    What it would have published is dropped, safely: every task is reconstructible (the beat backstops, or
    `send_pending_mail`, pick up pending mail and stale tallies), and on the embedded default nothing is
    then sent inline by the loader."""
    token = _publishing_held.set(True)
    try:
        yield
    finally:
        _publishing_held.reset(token)


def publishing_is_held():
    """Whether this context publishes nothing (publishing_held): for code that publishes from another thread,
    which does not inherit the context."""
    return _publishing_held.get()


def publish(task, *args, countdown=None, eta=None, private=False):
    """Send `task(*args)` to the workers; False (logged, one line) when the broker cannot take it. `private`:
    the arguments are personal data (an e-mail address) and stay out of the log line."""
    global _broker_down_until
    if _publishing_held.get():
        return False
    shown = "(…)" if private else repr(tuple(args))
    eager = task.app.conf.task_always_eager
    if not eager and time.monotonic() < _broker_down_until:
        logger.warning("Broker down: %s%s left for the backstop", task.name, shown)
        return False
    timing = {key: value for key, value in {"countdown": countdown, "eta": eta}.items() if value is not None}
    try:
        task.apply_async(args=list(args), **timing)
    except Exception as error:  # kombu, redis and socket errors alike: the backstop covers every one of them
        if not eager:
            _broker_down_until = time.monotonic() + BROKER_RETRY_AFTER
        logger.error(
            "Could not publish %s%s (%s: %s); the backstop will do it",
            task.name,
            shown,
            type(error).__name__,
            error,
        )
        return False
    return True


def forget_broker_failures():
    """Try the broker again at the next publish (tests, and a process that knows Redis is back)."""
    global _broker_down_until
    _broker_down_until = 0.0


def within_horizon(moment, now=None):
    """Whether an exact-time task for `moment` may be scheduled now (see TASK_ETA_HORIZON in settings)."""
    now = now or timezone.now()
    return moment <= now + timedelta(seconds=settings.TASK_ETA_HORIZON)


def publish_at(task, moment, *args, now=None):
    """`task(*args)` at `moment` if that is near; otherwise nothing now: a backstop schedules it later."""
    if not within_horizon(moment, now):
        return False
    return publish(task, *args, eta=moment)


@shared_task(name="phm.ping", ignore_result=False)
def ping(payload):
    """Echo the payload back: lets /healthz-style checks and tests prove a worker consumes the queue."""
    return {"pong": payload}
