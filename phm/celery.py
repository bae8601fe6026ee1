"""The Celery app. Settings come from Django's settings under the CELERY_ prefix."""

import os

from celery import Celery, signals

from phm import queues

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phm.settings")

app = Celery("phm")
app.config_from_object("django.conf:settings", namespace="CELERY")
queues.route_with(app)
app.autodiscover_tasks()
# The project package is not an installed app; its own tasks (phm.tasks) are registered explicitly.
app.autodiscover_tasks(["phm"])


@signals.worker_init.connect
def limit_task_database_sessions(**kwargs):
    """Database sessions opened by this worker (and its forked children) give up on locks and long
    statements, so a task blocked behind a lock fails, is retried, and never holds a round for ever."""
    from phm import db_sessions

    db_sessions.limit_sessions_of_this_process()


@signals.worker_ready.connect
def run_the_backstops_at_once(**kwargs):
    """A worker that starts (after a crash, a deploy, Redis coming back) catches up now rather than one beat
    interval later: due reveals, missing tables and stale tallies, pending mail and webhook posts, reminders
    and digests."""
    from outbox.tasks import send_digests, send_pending
    from phm.tasks import publish
    from scoring.tasks import score_due_rounds
    from submissions.tasks import check_due_hands, reveal_due_rounds, send_reminders
    from webhooks.tasks import send_pending as send_pending_webhooks

    backstops = (
        reveal_due_rounds,
        check_due_hands,
        score_due_rounds,
        send_pending,
        send_pending_webhooks,
        send_reminders,
        send_digests,
    )
    for backstop in backstops:
        publish(backstop)
