"""Hostile logins: usernames longer than any account's, and an X-Forwarded-For header sent by the client
itself. Each gets the normal failed-login answer and is counted toward the lockout like any other."""

import pytest
from axes.models import AccessAttempt

from tests.accounts.test_throttle import LIMIT, admin_login, page_login, token_login

pytestmark = pytest.mark.django_db

AXES_COLUMN = 255  # axes' AccessAttempt.username


@pytest.fixture(autouse=True)
def _fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def client(client):
    client.raise_request_exception = False  # a 500 is a status to assert on, not an exception
    return client


@pytest.fixture
def api_client(api_client):
    api_client.raise_request_exception = False
    return api_client


def failed_normally(entry, response):
    if entry == "token":
        return response.status_code == 400 and response.json()["non_field_errors"] == [
            "Unable to log in with provided credentials."
        ]
    page = response.content.decode()
    return response.status_code == 200 and "correct username and password" in page


@pytest.mark.parametrize("length", [256, 1000])
@pytest.mark.parametrize("entry", ["page", "token", "admin"])
def test_a_username_longer_than_any_account_fails_normally_and_counts_toward_the_lockout(
    client, api_client, entry, length
):
    username = "u" * length
    login = {
        "page": lambda: page_login(client, username, "wrong"),
        "token": lambda: token_login(api_client, username, "wrong"),
        "admin": lambda: admin_login(client, username, "wrong"),
    }[entry]
    for _ in range(LIMIT - 1):
        assert failed_normally(entry, login())
    # Counted under the username cut to what axes' column holds (PostgreSQL refuses a longer value).
    attempt = AccessAttempt.objects.get()
    assert attempt.username == username[:AXES_COLUMN]
    assert attempt.failures_since_start == LIMIT - 1
    response = login()
    assert response.status_code == 429
    assert response["Retry-After"]


# X-Forwarded-For -----------------------------------------------------------------------------------------------


@pytest.fixture
def behind_the_proxy(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXIES = ["127.0.0.0/8", "::1"]  # the default: a proxy on this machine


def test_a_client_reaching_gunicorn_directly_cannot_escape_the_lockout_by_rotating_x_forwarded_for(
    client, player, password, behind_the_proxy
):
    direct = {"REMOTE_ADDR": "198.51.100.23", "HTTP_X_FORWARDED_PROTO": "https"}
    for number in range(LIMIT):
        page_login(client, "player", "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{number}", **direct)
    for number in range(LIMIT, LIMIT + 25):
        response = page_login(
            client, "player", password, HTTP_X_FORWARDED_FOR=f"203.0.113.{number}", **direct
        )
        assert response.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.23"}


def test_through_a_trusted_proxy_the_address_it_appended_is_honoured(
    client, player, password, behind_the_proxy
):
    proxied = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_PROTO": "https"}
    for _ in range(LIMIT):
        page_login(client, "player", "wrong", HTTP_X_FORWARDED_FOR="evil, 203.0.113.9", **proxied)
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.9"}
    response = page_login(client, "player", password, HTTP_X_FORWARDED_FOR="203.0.113.9", **proxied)
    assert response.status_code == 429
    response = page_login(client, "player", password, HTTP_X_FORWARDED_FOR="198.51.100.7", **proxied)
    assert response.status_code == 302


def test_a_forwarded_address_that_is_not_one_counts_under_the_proxy_s_own(client, player, behind_the_proxy):
    proxied = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_PROTO": "https"}
    response = page_login(
        client, "player", "wrong", HTTP_X_FORWARDED_FOR="203.0.113.9, not-an-address", **proxied
    )
    assert failed_normally("page", response)
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["127.0.0.1"]
