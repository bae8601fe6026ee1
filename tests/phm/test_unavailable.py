"""Parts that fail, in-process (any database): the database answering with connection errors is a 503, and
Redis at a closed port (cache and broker) costs a write nothing."""

import logging
from unittest import mock

import pytest
from celery import Celery
from django.core.cache import cache
from django.db import InterfaceError, OperationalError

from phm.tasks import publish
from tests.phm.stack import free_port

pytestmark = pytest.mark.django_db

CLOSED_REDIS = "redis://127.0.0.1:{port}/0"


@pytest.fixture
def unraised_client(client):
    client.raise_request_exception = False
    return client


@pytest.mark.parametrize("error", [OperationalError("too many clients already"), InterfaceError("closed")])
def test_a_page_whose_database_is_out_of_connections_is_a_503(unraised_client, error):
    with mock.patch("phm.views.selectors.open_rounds", side_effect=error):
        response = unraised_client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert "The site is busy right now" in page and "nothing saved before is lost" in page


def test_an_api_call_whose_database_is_out_of_connections_is_a_json_503(unraised_client):
    with mock.patch("rounds.round_api._visible_rounds", side_effect=OperationalError("too many clients")):
        response = unraised_client.get("/api/rounds/")
    assert response.status_code == 503
    assert response.json()["code"] == "unavailable" and "nothing was saved" in response.json()["detail"]
    assert response["Retry-After"] == "5"


def test_other_errors_stay_500(unraised_client):
    with mock.patch("phm.views.selectors.open_rounds", side_effect=ValueError("a bug")):
        response = unraised_client.get("/")
    assert response.status_code == 500


@pytest.fixture
def redis_cache_at_a_closed_port(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": CLOSED_REDIS.format(port=free_port()),
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": settings.REDIS_SOCKET_TIMEOUT,
                "SOCKET_TIMEOUT": settings.REDIS_SOCKET_TIMEOUT,
            },
        }
    }
    yield
    cache.close()


def test_a_cache_that_is_down_misses_and_skips_writes(redis_cache_at_a_closed_port):
    assert cache.get("anything") is None
    assert cache.set("anything", 1) is None
    assert cache.add("anything", 1) is None  # neither True nor False: callers treat it as "try anyway"
    cache.delete("anything")


def test_card_lookups_work_with_the_cache_down(redis_cache_at_a_closed_port, client):
    from rounds.catalog import resolve

    resolve.invalidate_index()  # the revision check then asks the (dead) cache first
    response = client.get("/api/cards/resolve/", {"name": "mishras workshop"})
    assert response.status_code == 200
    assert response.json()["card"]["name"] == "Mishra's Workshop"
    assert client.get("/api/cards/", {"q": "workshop"}).status_code == 200
    assert client.get("/cards/", {"q": "workshop"}).status_code == 200


def test_a_tally_is_scheduled_with_the_cache_down(redis_cache_at_a_closed_port):
    from scoring import tasks

    with mock.patch.object(tasks.tally_round, "apply_async") as apply_async:
        tasks.schedule_tally(1)
    assert apply_async.called


def test_publishing_to_a_broker_that_is_down_returns_at_once_and_is_logged(settings, caplog):
    """The project's broker settings on an app whose Redis is a closed port: no retries, no exception."""
    app = Celery("probe", set_as_current=False)  # not the current app: later tests publish through phm's
    app.config_from_object(settings, namespace="CELERY")
    app.conf.broker_url = CLOSED_REDIS.format(port=free_port())
    app.conf.task_always_eager = False

    @app.task(name="phm.test.probe")
    def probe():
        return None

    with caplog.at_level(logging.ERROR, logger="phm.tasks"):
        assert publish(probe) is False
    assert "Could not publish phm.test.probe" in caplog.text
    app.close()
