"""Production settings pass Django's deployment checklist (`manage.py check --deploy`) without a warning, and
HTTPS behind the proxy is enforced: redirect, HSTS, secure cookies."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

PROJECT_DIR = Path(__file__).resolve().parents[2]
# The README's production variables for a site behind a TLS-terminating proxy.
PRODUCTION = {"DEBUG": "0", "SECURE_COOKIES": "1", "BEHIND_TLS_PROXY": "1"}
SETTINGS_VARIABLES = {
    "DEBUG",
    "SECRET_KEY",
    "SECURE_COOKIES",
    "BEHIND_TLS_PROXY",
    "HSTS_SECONDS",
    "HSTS_INCLUDE_SUBDOMAINS",
    "HSTS_PRELOAD",
    "REDIS_URL",
    "REDIS_CACHE_URL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # set by the browser tests' conftest, never in deployment
}


def check_deploy(**env):
    clean = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    clean.update(env, SECRET_KEY=secrets.token_urlsafe(50), DJANGO_SETTINGS_MODULE="phm.settings")
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=PROJECT_DIR,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_reports_no_issues_with_the_production_variables():
    result = check_deploy(**PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout, result.stdout + result.stderr
    assert "WARNING" not in result.stdout + result.stderr


def test_check_deploy_still_warns_without_https():
    """The check above means something: without the HTTPS variables Django's own warnings are there."""
    result = check_deploy(DEBUG="0")
    output = result.stdout + result.stderr
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in output
    assert "drf_spectacular.W001" not in output  # the schema's enum names are settled either way


def test_check_deploy_warns_of_the_console_mail_backend():
    """It would write every e-mail, password-reset links included, into the logs."""
    result = check_deploy(**PRODUCTION, EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend")
    assert "outbox.W001" in result.stdout + result.stderr


HTTPS_SETTINGS = {
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
    "SECURE_SSL_REDIRECT": True,
    "SECURE_HSTS_SECONDS": 31536000,
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
    "SECURE_HSTS_PRELOAD": True,
}


@pytest.mark.django_db
@override_settings(**HTTPS_SETTINGS)
def test_behind_the_proxy_http_is_redirected_and_https_gets_hsts(client):
    response = client.get("/rules/")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/rules/"
    response = client.get("/rules/", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


@pytest.mark.django_db
@override_settings(**HTTPS_SETTINGS)
def test_the_health_check_is_not_redirected(client):
    # docker/healthcheck.py talks plain HTTP to gunicorn inside the container.
    assert client.get("/healthz").status_code in (200, 503)
