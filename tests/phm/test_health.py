from unittest import mock

import pytest
from django.db import OperationalError

from tests.conftest import skip_unless


@pytest.mark.django_db
def test_healthz_up_reports_each_check(client, settings):
    settings.REDIS_URL = None
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] is True
    assert "redis" not in body["checks"]
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_database_down_is_503(client, settings):
    settings.REDIS_URL = None
    with mock.patch("phm.health.connection.cursor", side_effect=OperationalError("connection refused")):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == {"ok": False, "error": "OperationalError"}


@pytest.mark.django_db
def test_healthz_redis_down_is_503(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens on the discard port
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"]["ok"] is False
    assert response.json()["checks"]["database"]["ok"] is True


@pytest.mark.django_db
def test_healthz_redis_up_when_configured(client, settings):
    import os

    url = os.environ.get("REDIS_URL")
    skip_unless(url, "REDIS_URL is not set: no Redis server to check")
    settings.REDIS_URL = url
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"]["redis"] == {"ok": True}


def test_healthz_refuses_post(client):
    assert client.post("/healthz").status_code == 405
