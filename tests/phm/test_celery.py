import pytest
from django.conf import settings

from phm.celery import app
from phm.tasks import ping


def test_tasks_are_eager_exactly_when_there_is_no_broker():
    assert settings.CELERY_TASK_ALWAYS_EAGER is (not settings.REDIS_URL)


@pytest.mark.needs_redis
def test_with_a_broker_tasks_go_to_the_workers(celery_worker_process):
    assert app.conf.task_always_eager is False


def test_eager_mode_runs_tasks_in_process():
    was_eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        assert ping.delay("hello").get(timeout=1) == {"pong": "hello"}
    finally:
        app.conf.task_always_eager = was_eager


@pytest.mark.needs_redis
def test_round_trip_through_a_real_worker(celery_worker_process):
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    result = ping.apply_async(args=["through redis"], queue=celery_worker_process)
    # Generous: the first task waits for the worker process to boot.
    assert result.get(timeout=90) == {"pong": "through redis"}
    assert result.successful()
