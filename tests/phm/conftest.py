import os

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import skip_unless

from .stack import Stack, database_url


@pytest.fixture
def fault_stack(transactional_db, tmp_path):
    """Real processes against the test database and Redis; the code under test publishes to their queue."""
    skip_unless(connection.vendor == "postgresql", "fault tests need PostgreSQL (DATABASE_URL)")
    skip_unless(settings.REDIS_URL, "fault tests need Redis (REDIS_URL)")
    from phm.celery import app

    env = {**os.environ, "DATABASE_URL": database_url(settings.DATABASES["default"]), "DEBUG": "0"}
    env.setdefault("SECRET_KEY", "fault-tests-only")
    stack = Stack(env, tmp_path)
    was_queue = app.conf.task_default_queue
    app.conf.task_default_queue = stack.queue
    try:
        yield stack
    finally:
        app.conf.task_default_queue = was_queue
        stack.stop()
