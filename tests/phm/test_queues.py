"""Mail and webhook posts go to a queue of their own; reveals, tables and tallies to one nothing slow can block."""

from unittest import mock

import pytest
from django.conf import settings

from phm.celery import app
from phm.queues import DELIVERY_TASKS, delivery_queue
from phm.tasks import publish

DEFAULT = settings.CELERY_TASK_DEFAULT_QUEUE
DELIVERIES = delivery_queue(DEFAULT)
EXPECTED = {
    "outbox.send_message": DELIVERIES,
    "outbox.send_messages": DELIVERIES,
    "outbox.send_pending": DELIVERIES,
    "outbox.send_digests": DELIVERIES,
    "webhooks.send_delivery": DELIVERIES,
    "webhooks.send_pending": DELIVERIES,
    "submissions.reveal_round": DEFAULT,
    "submissions.reveal_due_rounds": DEFAULT,
    "submissions.send_reminders": DEFAULT,
    # Judges an open round's hands again after its cards changed; the messages it writes go out as any others.
    "submissions.check_round_hands": DEFAULT,
    "submissions.check_due_hands": DEFAULT,
    "scoring.build_match_table": DEFAULT,
    "scoring.tally_round": DEFAULT,
    "scoring.score_due_rounds": DEFAULT,
    # Looks the accounts up and writes the reset mail to the outbox: quick, and no mail server is talked to.
    "accounts.send_password_reset": DEFAULT,
    "phm.ping": DEFAULT,
}


def queue_of(name, **options):
    return app.amqp.router.route(options, name, (), {}, app.tasks.get(name))["queue"].name


def project_tasks():
    app.loader.import_default_modules()
    return sorted(name for name in app.tasks if not name.startswith("celery."))


def test_every_task_of_the_project_has_its_queue():
    assert project_tasks() == sorted(EXPECTED)  # a new task is given its queue here
    assert {name: queue_of(name) for name in project_tasks()} == EXPECTED
    assert set(project_tasks()) >= DELIVERY_TASKS  # no typo in the router's list


def test_the_beat_backstops_go_to_the_queue_of_their_work():
    queues = {key: queue_of(entry["task"]) for key, entry in settings.CELERY_BEAT_SCHEDULE.items()}
    assert queues == {
        "reveal-due-rounds": DEFAULT,
        "score-due-rounds": DEFAULT,
        "send-deadline-reminders": DEFAULT,
        "check-due-hands": DEFAULT,
        "send-pending-messages": DELIVERIES,
        "send-pending-webhooks": DELIVERIES,
        "send-digests": DELIVERIES,
    }


def test_the_delivery_queue_follows_the_default_queue():
    was = app.conf.task_default_queue
    app.conf.task_default_queue = "phm-elsewhere"
    try:
        assert queue_of("outbox.send_messages") == "phm-elsewhere-deliveries"
        assert queue_of("submissions.reveal_round") == "phm-elsewhere"
    finally:
        app.conf.task_default_queue = was
    assert queue_of("outbox.send_messages", queue="chosen") == "chosen"  # an explicit queue wins


def test_a_worker_started_without_queues_consumes_both():
    queues = settings.CELERY_TASK_QUEUES
    assert [queue.name for queue in queues] == [DEFAULT, DELIVERIES]
    # each bound under its own name: a message for one queue is never copied into the other
    assert [(queue.exchange.name, queue.routing_key) for queue in queues] == [
        (DEFAULT, DEFAULT),
        (DELIVERIES, DELIVERIES),
    ]
    assert delivery_queue("celery") == "celery-deliveries"


@pytest.mark.parametrize(
    ("task_path", "queue"),
    [("outbox.tasks.send_messages", DELIVERIES), ("submissions.tasks.reveal_round", DEFAULT)],
)
def test_published_tasks_reach_their_queue(task_path, queue):
    """Through Celery's own publishing (not eager), up to the broker's door."""
    module, name = task_path.rsplit(".", 1)
    task = getattr(__import__(module, fromlist=[name]), name)
    was_eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with mock.patch.object(app.amqp, "send_task_message") as send:
            assert publish(task, 1)
    finally:
        app.conf.task_always_eager = was_eager
    assert send.call_args.kwargs["queue"].name == queue
