import os
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.contrib.auth import get_user_model
from pytest_django.fixtures import (
    _get_databases_for_setup,  # which databases the session needs, as pytest-django reckons
)

from accounts import services as account_services

FULL_STACK_REQUIRED = os.environ.get("PHM_REQUIRE_FULL_STACK") == "1"


def skip_unless(condition, reason):
    """Skip a test that needs something this machine lacks — but in CI (full stack required) fail instead."""
    if condition:
        return
    if FULL_STACK_REQUIRED:
        pytest.fail(f"CI requires the full stack, but: {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    # The manifest storage used in production needs `collectstatic`; tests serve the files as they are.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


def _cache_url_of_this_process(url, worker):
    """Under pytest-xdist each process gets a Redis cache database of its own (tests clear the cache, and a
    flush by one process must not empty another's): the configured database for the first process, the ones
    below it for the next, stepping over the broker's."""

    def database_of(address):
        return int(urlsplit(address).path.strip("/") or 0) if address else None

    broker = database_of(os.environ.get("REDIS_URL", ""))
    database = database_of(url)
    for _ in range(int(worker.removeprefix("gw") or 0)):
        database -= 1
        if database == broker:
            database -= 1
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


@pytest.fixture(scope="session", autouse=True)
def _a_cache_of_this_process():
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_CACHE_URL", "")
    if not worker or worker == "gw0" or not url:
        yield
        return
    from django.conf import settings
    from django.test import override_settings

    own = _cache_url_of_this_process(url, worker)
    caches = {**settings.CACHES, "default": {**settings.CACHES["default"], "LOCATION": own}}
    os.environ["REDIS_CACHE_URL"] = own  # a real worker process started by a test uses the same one
    with override_settings(REDIS_CACHE_URL=own, CACHES=caches):
        yield


# The card catalog loaded at migrate (rounds.signals.fill_empty_catalog): 30,663 cards and their printings.
CATALOG_MODELS = ("CatalogVersion", "CardSet", "Card", "CardFace", "Printing", "CardLegalityChange")


@pytest.fixture(scope="session", autouse=True)
def _the_catalog_outlives_flushes(request, django_db_setup, django_db_blocker):
    """A transactional test (browser, race and fault tests) ends in a flush of every table, after which the
    catalog was loaded again: 10-15 s a test on PostgreSQL. The flush leaves the catalog's tables alone while
    they hold what migrate loaded (same rows counted, same last ids; they reference no other table); a test
    that changed them gets the full flush and the catalog loaded anew, as before."""
    from unittest import mock

    from django.apps import apps
    from django.core.management.commands import flush

    if "default" not in _get_databases_for_setup(request.session.items)[0]:
        yield  # no test of this session uses the database: none was made, and there is nothing to keep
        return
    models = [apps.get_model("rounds", name) for name in CATALOG_MODELS]
    tables = {model._meta.db_table for model in models}

    def fingerprint(alias):
        return [(model.objects.using(alias).count(), _last_id(model, alias)) for model in models]

    with django_db_blocker.unblock():
        loaded = fingerprint("default")

    def sql_flush(style, connection, reset_sequences=True, allow_cascade=False):
        names = connection.introspection.django_table_names(only_existing=True, include_views=False)
        if connection.alias == "default" and fingerprint(connection.alias) == loaded:
            names = [name for name in names if name not in tables]
        return connection.ops.sql_flush(
            style, names, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )

    with mock.patch.object(flush, "sql_flush", sql_flush):
        yield


def _last_id(model, alias):
    return model.objects.using(alias).order_by("-pk").values_list("pk", flat=True).first()


@pytest.fixture(autouse=True)
def _quick_password_hashing(settings):
    """Most tests make accounts, and the production hasher costs about half a second a password by design:
    tests hash with MD5 (a stored PBKDF2 hash still checks). A test of the real cost sets PASSWORD_HASHERS."""
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]


@pytest.fixture(autouse=True)
def _fresh_request_limits():
    """Each test starts with no request counted against the request limits (phm.limits counts in the cache,
    which outlives a test): a test that makes more requests than a limit allows sets the limit itself."""
    from django.core.cache import cache

    cache.clear()


REAL_WORKER_FIXTURES = {"celery_worker_process", "fault_stack"}


@pytest.fixture(autouse=True)
def _tasks_in_process(request):
    """Tasks published by the code under test run in this process, as on the embedded default, unless the
    test drives a real worker: otherwise, on the full stack, they would pile up in Redis for nobody (and
    after-commit mail would never reach django.core.mail.outbox)."""
    from celery._state import _set_task_join_will_block

    from phm.celery import app

    # Celery marks "inside a task" in a process-wide flag while an eager task runs; eager tasks run at once in
    # several threads (race tests, the live server) can leave it set, and a later result.get() then refuses.
    _set_task_join_will_block(False)
    if REAL_WORKER_FIXTURES & set(request.fixturenames):
        yield
        return
    was_eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = was_eager
        _set_task_join_will_block(False)


@pytest.fixture
def password():
    return "correct-horse-battery-42"


@pytest.fixture
def make_user(db, password):
    def make(username="player", **profile):
        return account_services.register_player(username=username, password=password, **profile)

    return make


@pytest.fixture
def player(make_user):
    return make_user("player", forum_username="Player One")


@pytest.fixture
def moderator(make_user):
    user = make_user("mod", forum_username="The Moderator")
    account_services.make_moderator(user)
    return user


@pytest.fixture
def user_model():
    return get_user_model()


def _database_url_for_worker(db_settings):
    """DATABASE_URL naming the *test* database, so a worker process sees what the tests wrote."""
    if db_settings["ENGINE"].endswith("postgresql"):
        auth = db_settings.get("USER") or ""
        if db_settings.get("PASSWORD"):
            auth += f":{db_settings['PASSWORD']}"
        host = f"{db_settings.get('HOST') or '127.0.0.1'}:{db_settings.get('PORT') or 5432}"
        return f"postgres://{auth}@{host}/{db_settings['NAME']}"
    return None


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, tmp_path_factory):
    """A real `celery worker` process consuming from Redis on a queue of its own (and the delivery queue that
    goes with it, phm.queues); yields the queue name."""
    import subprocess
    import sys
    import uuid

    from django.conf import settings

    from phm.queues import delivery_queue

    skip_unless(settings.REDIS_URL, "REDIS_URL is not set: a real worker needs a broker")
    queue = f"phm-test-{uuid.uuid4().hex[:8]}"
    env = dict(os.environ)
    worker_db_url = _database_url_for_worker(settings.DATABASES["default"])
    if worker_db_url:
        env["DATABASE_URL"] = worker_db_url
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "phm",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "-Q",
                f"{queue},{delivery_queue(queue)}",
                "-n",
                f"{queue}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        yield queue
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture
def other_moderator(make_user):
    user = make_user("othermod", forum_username="Other Moderator")
    account_services.make_moderator(user)
    return user


@pytest.fixture
def league(db, moderator):
    from rounds.services.leagues import create_league

    return create_league(actor=moderator, name="League 45", moderators=[moderator])


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def run_on_commit_at_once(monkeypatch):
    """A test runs in one transaction that never commits: run what waits for the commit (sending mail,
    forgetting cached counts) at once."""
    from django.db import transaction

    monkeypatch.setattr(transaction, "on_commit", lambda func, using=None, robust=False: func())
