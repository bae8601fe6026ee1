"""Brute-force protection (accounts.throttle, django-axes): the login page, the API token endpoint and the admin
login lock out after a few failures, say so with the time until retry, and refuse even the right password
until the cool-off is over."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.hashers import check_password
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db

LIMIT = 5  # LOGIN_FAILURE_LIMIT's default
PER_IP = 20  # LOGIN_FAILURE_LIMIT_PER_IP's default
COOL_OFF_MINUTES = 15


@pytest.fixture(autouse=True)
def _fast_hasher(settings):
    # Dozens of password checks per test: the production hasher's cost is beside the point here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff(make_user):
    user = make_user("boss", forum_username="Boss")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def page_login(client, username, password, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def token_login(api_client, username, password, **extra):
    return api_client.post(
        reverse("api-token"), {"username": username, "password": password}, format="json", **extra
    )


def admin_login(client, username, password, **extra):
    return client.post(
        reverse("admin:login"), {"username": username, "password": password, "next": "/admin/"}, **extra
    )


def assert_retry_after_about(response, minutes):
    seconds = int(response["Retry-After"])
    assert (minutes - 1) * 60 < seconds <= minutes * 60


# The login page ------------------------------------------------------------------------------------------------


def test_login_page_locks_the_account_for_this_address_after_the_limit(client, player, password):
    for _ in range(LIMIT - 1):
        response = page_login(client, "player", "wrong")
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()
    response = page_login(client, "player", "wrong")  # the limit: this one locks
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed login attempts" in page
    assert f"try again in {COOL_OFF_MINUTES} minutes" in page
    assert 'id="lockout-message"' in page
    assert_retry_after_about(response, COOL_OFF_MINUTES)
    assert 'name="username"' in page  # still the login page, with its form


def test_right_password_is_refused_during_the_lockout_and_accepted_after_the_cool_off(
    client, player, password
):
    for _ in range(LIMIT):
        page_login(client, "player", "wrong")
    response = page_login(client, "player", password)
    assert response.status_code == 429
    assert not client.get(reverse("home")).wsgi_request.user.is_authenticated
    with time_machine.travel(timezone.now() + timedelta(minutes=COOL_OFF_MINUTES - 5)):
        response = page_login(client, "player", password)
        assert response.status_code == 429
        assert "try again in 5 minutes" in response.content.decode()
    with time_machine.travel(timezone.now() + timedelta(minutes=COOL_OFF_MINUTES, seconds=5)):
        response = page_login(client, "player", password)
        assert response.status_code == 302
        assert client.get(reverse("home")).wsgi_request.user == player


def test_locked_out_attempts_never_reach_the_password_hasher(client, player, monkeypatch):
    for _ in range(LIMIT):
        page_login(client, "player", "wrong")
    calls = []
    monkeypatch.setattr(
        "django.contrib.auth.base_user.check_password",
        lambda *args, **kwargs: calls.append(args) or check_password(*args, **kwargs),
    )
    for _ in range(10):
        assert page_login(client, "player", "wrong").status_code == 429
    assert calls == []


def test_attempts_during_the_lockout_do_not_extend_it(client, player, password):
    for _ in range(LIMIT):
        page_login(client, "player", "wrong")
    start = timezone.now()
    with time_machine.travel(start + timedelta(minutes=10)):
        assert page_login(client, "player", "wrong").status_code == 429
    with time_machine.travel(start + timedelta(minutes=COOL_OFF_MINUTES, seconds=5)):
        assert page_login(client, "player", password).status_code == 302


def test_the_owner_elsewhere_is_not_locked_out_by_a_guesser(client, player, password):
    for _ in range(LIMIT):
        page_login(client, "player", "wrong", REMOTE_ADDR="203.0.113.9")
    assert page_login(client, "player", password, REMOTE_ADDR="203.0.113.9").status_code == 429
    assert page_login(client, "player", password, REMOTE_ADDR="198.51.100.7").status_code == 302


def test_one_address_trying_many_accounts_is_locked_out_of_all_of_them(client, make_user, password):
    make_user("victim")
    for number in range(PER_IP - 1):
        assert page_login(client, f"someone{number}", "wrong").status_code == 200
    assert page_login(client, "someone-else", "wrong").status_code == 429
    assert page_login(client, "victim", password).status_code == 429
    assert page_login(client, "victim", password, REMOTE_ADDR="198.51.100.7").status_code == 302


def test_behind_the_tls_proxy_the_address_is_the_one_the_proxy_appended(client, player, password, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]  # the proxy runs on another machine of the network
    proxied = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_PROTO": "https"}
    for number in range(LIMIT):
        # The attacker varies what it sends itself; the proxy appends the address it sees.
        forwarded = f"192.0.2.{number}, 203.0.113.9"
        page_login(client, "player", "wrong", HTTP_X_FORWARDED_FOR=forwarded, **proxied)
    response = page_login(client, "player", password, HTTP_X_FORWARDED_FOR="203.0.113.9", **proxied)
    assert response.status_code == 429
    response = page_login(client, "player", password, HTTP_X_FORWARDED_FOR="198.51.100.7", **proxied)
    assert response.status_code == 302


# The API token endpoint ------------------------------------------------------------------------------------


def test_token_endpoint_locks_out_with_429_json_and_retry_after(api_client, player, password):
    for _ in range(LIMIT - 1):
        response = token_login(api_client, "player", "wrong")
        assert response.status_code == 400
    response = token_login(api_client, "player", "wrong")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert f"try again in {COOL_OFF_MINUTES} minutes" in body["detail"]
    assert_retry_after_about(response, COOL_OFF_MINUTES)
    response = token_login(api_client, "player", password)
    assert response.status_code == 429
    assert "token" not in response.json()
    with time_machine.travel(timezone.now() + timedelta(minutes=COOL_OFF_MINUTES, seconds=5)):
        response = token_login(api_client, "player", password)
        assert response.status_code == 200
        assert response.json()["token"]


def test_token_and_login_page_failures_count_together(client, api_client, player, password):
    for _ in range(LIMIT - 1):
        token_login(api_client, "player", "wrong")
    assert page_login(client, "player", "wrong").status_code == 429
    assert token_login(api_client, "player", password).status_code == 429


# The admin login ---------------------------------------------------------------------------------------------


def test_admin_login_locks_out_with_its_own_page_and_the_message(client, staff, password):
    for _ in range(LIMIT - 1):
        response = admin_login(client, "boss", "wrong")
        assert response.status_code == 200
    response = admin_login(client, "boss", "wrong")
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed login attempts" in page
    assert f"try again in {COOL_OFF_MINUTES} minutes" in page
    assert "Django administration" in page or "site administration" in page.lower()
    assert_retry_after_about(response, COOL_OFF_MINUTES)
    response = admin_login(client, "boss", password)
    assert response.status_code == 429
    assert client.get(reverse("admin:index")).status_code == 302  # still not logged in: sent to the login
    with time_machine.travel(timezone.now() + timedelta(minutes=COOL_OFF_MINUTES, seconds=5)):
        assert admin_login(client, "boss", password).status_code == 302
        assert client.get(reverse("admin:index")).status_code == 200


# Bursts of parallel guesses ------------------------------------------------------------------------------------


def test_a_burst_from_one_address_is_refused_unchecked_beyond_the_checks_at_once(
    api_client, player, password, settings, monkeypatch
):
    from django.core.cache import cache

    calls = []
    monkeypatch.setattr(
        "django.contrib.auth.base_user.check_password",
        lambda *args, **kwargs: calls.append(args) or check_password(*args, **kwargs),
    )
    # Two checks from this address are running (held by other requests) right now.
    cache.set("login-checks-at-once:127.0.0.1", settings.LOGIN_CHECKS_AT_ONCE_PER_IP, timeout=60)
    try:
        response = token_login(api_client, "player", password)
        assert response.status_code == 429
        assert response.json()["code"] == "throttled"
        assert "at once" in response.json()["detail"]
        assert response["Retry-After"] == "5"
        assert calls == []
        # Not counted as a failure: once a check ends, the right password is let in.
        cache.decr("login-checks-at-once:127.0.0.1")
        assert token_login(api_client, "player", password).status_code == 200
    finally:
        cache.delete("login-checks-at-once:127.0.0.1")
    from axes.models import AccessAttempt

    assert not AccessAttempt.objects.exists()


@pytest.mark.needs_postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_guesses_are_checked_at_most_a_few_times_beyond_the_limit(live_server, player, settings):
    """The probe's 200 parallel guesses: only the first few are checked; the rest get 429 unchecked."""
    import json
    import urllib.error
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from tests.conftest import skip_unless

    skip_unless(connection.vendor == "postgresql", "parallel requests to the live server need PostgreSQL")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the real cost
    player.set_password("the-real-one-42")
    player.save()

    def guess(number):
        body = json.dumps({"username": "player", "password": f"guess-{number}"}).encode()
        request = urllib.request.Request(  # noqa: S310 - the live server
            f"{live_server.url}/api/auth/token/", data=body, headers={"Content-Type": "application/json"}
        )
        for _attempt in range(5):
            try:
                with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 - the live server
                    return response.status
            except urllib.error.HTTPError as error:
                return error.code
            except ConnectionResetError:
                # The test server's small listen queue overflowed: the request never reached the app.
                continue
        raise AssertionError("the live server kept resetting connections")

    # More parallel guesses than the test server's listen queue holds are reset before Django sees them.
    with ThreadPoolExecutor(max_workers=10) as pool:
        statuses = list(pool.map(guess, range(60)))
    checked = statuses.count(400)
    assert set(statuses) <= {400, 429}, statuses
    assert 1 <= checked <= LIMIT + settings.LOGIN_CHECKS_AT_ONCE_PER_IP - 1, statuses


def test_every_entry_point_passes_its_request_to_the_throttle(
    client, api_client, staff, password, monkeypatch
):
    """A password check without a request is not throttled (there is no client to count): make sure the
    site's three entry points never do that."""
    from accounts.throttle import LoginBackend

    seen = []
    original = LoginBackend.authenticate

    def spy(self, request, *args, **kwargs):
        seen.append(request)
        return original(self, request, *args, **kwargs)

    monkeypatch.setattr(LoginBackend, "authenticate", spy)
    page_login(client, "boss", password)
    token_login(api_client, "boss", password)
    admin_login(client, "boss", password)
    assert len(seen) == 3
    assert all(request is not None and hasattr(request, "META") for request in seen)
    from django.http import HttpRequest

    assert all(isinstance(request, HttpRequest) for request in seen)  # Django's own, not DRF's wrapper
