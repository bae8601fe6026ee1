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


@pytest.mark.needs_postgres
@pytest.mark.django_db
def test_worker_database_sessions_give_up_on_locks_and_long_statements(settings):
    from django.db import connection

    from phm import db_sessions
    from tests.conftest import skip_unless

    skip_unless(connection.vendor == "postgresql", "session time limits are PostgreSQL settings")
    db_sessions._apply_limits(sender=None, connection=connection)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SHOW lock_timeout")
            assert cursor.fetchone()[0] == f"{settings.DB_TASK_LOCK_TIMEOUT}s"
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone()[0] == f"{settings.DB_TASK_STATEMENT_TIMEOUT}s"
            cursor.execute("SHOW idle_in_transaction_session_timeout")
            assert cursor.fetchone()[0] == f"{settings.DB_TASK_STATEMENT_TIMEOUT}s"
    finally:
        with connection.cursor() as cursor:
            cursor.execute(
                "RESET lock_timeout; RESET statement_timeout; RESET idle_in_transaction_session_timeout"
            )


def test_the_worker_limits_its_sessions_when_it_starts():
    from celery import signals

    from phm.celery import limit_task_database_sessions

    receivers = [receiver() for _, receiver in signals.worker_init.receivers]
    assert limit_task_database_sessions in receivers
