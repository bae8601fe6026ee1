"""Which Celery queue each task goes to.

Two queues, so that nothing slow can hold a round up. Deliveries — e-mail and webhook posts, the tasks that
talk to servers outside this site and may wait on them for seconds — go to the delivery queue, consumed by a
worker of their own (`worker-deliveries` in docker-compose.yml). Everything else — reveals, match tables,
tallies, reminders and their backstops — stays on the default queue (CELERY_QUEUE), which no mail server can
block.

The delivery queue's name derives from the default queue's (`celery` → `celery-deliveries`) when a task is
routed, so a process that changes its default queue (the tests: one pair of queues per test) changes both.
A worker started without `--queues` consumes both (CELERY_TASK_QUEUES).
"""

from django.conf import settings

DELIVERY_QUEUE_SUFFIX = "-deliveries"

# Task names (their `name=`), not import paths: beat sends the backstops by name.
DELIVERY_TASKS = frozenset(
    {
        "outbox.send_message",
        "outbox.send_messages",
        "outbox.send_pending",
        # Only writes rows, but every one of them is an e-mail: it waits with the mail it makes.
        "outbox.send_digests",
        "webhooks.send_delivery",
        "webhooks.send_pending",
    }
)


def delivery_queue(default_queue: str) -> str:
    """The delivery queue that goes with `default_queue`."""
    return f"{default_queue}{DELIVERY_QUEUE_SUFFIX}"


_routing_app = None  # the project's Celery app (phm.celery hands it over when it makes it)


def route_with(app) -> None:
    """The app whose default queue decides the delivery queue's name. Not celery.current_app: in another
    thread (the outbox's doorbell timer) that is a blank default app."""
    global _routing_app
    _routing_app = app


def route_task(name, args, kwargs, options, task=None, **kw):
    """Celery router (CELERY_TASK_ROUTES): deliveries to the delivery queue; None (the default queue) for the
    rest. A queue given explicitly when publishing (`apply_async(queue=...)`) still wins."""
    if name in DELIVERY_TASKS:
        app = _routing_app or getattr(task, "app", None)
        default_queue = app.conf.task_default_queue if app is not None else settings.CELERY_TASK_DEFAULT_QUEUE
        return {"queue": delivery_queue(default_queue)}
    return None
