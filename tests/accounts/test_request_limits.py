"""Request limits (phm.limits): sign-up, password reset and API writes, per address, per account and per e-mail
address. Past a limit: 429 with Retry-After, a page saying when to try again on the forms, `{"detail",
"code": "throttled"}` in the API."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from outbox.models import Message

pytestmark = pytest.mark.django_db

HERE, ELSEWHERE = "203.0.113.9", "198.51.100.7"


@pytest.fixture(autouse=True)
def _fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def frozen():
    """A fixed moment at the start of an hour, so every request of a test falls in the same windows."""
    start = timezone.now().replace(minute=0, second=0, microsecond=0) + timedelta(hours=1, seconds=1)
    with time_machine.travel(start, tick=False) as traveller:
        yield traveller


def sign_up(client, name, address=HERE, **fields):
    data = {
        "username": name,
        "password1": "a-long-passphrase-77",
        "password2": "a-long-passphrase-77",
        "time_zone": "UTC",
        **fields,
    }
    client.logout()
    return client.post(reverse("sign-up"), data, REMOTE_ADDR=address)


def assert_limit_page(response, *, says, retry_after):
    assert response.status_code == 429
    assert response["Retry-After"] == str(retry_after)
    page = response.content.decode()
    assert says in page
    assert 'id="limit-retry"' in page
    return page


# Sign-up -------------------------------------------------------------------------------------------------------


def test_sign_up_is_limited_per_address_with_a_page_saying_when_to_try_again(client, settings, frozen):
    settings.SIGN_UP_LIMIT_PER_ADDRESS = "5/hour"
    for number in range(5):
        assert sign_up(client, f"newcomer{number}").status_code == 302
    response = sign_up(client, "newcomer5")
    page = assert_limit_page(
        response, says="Too many accounts were made from your address (at most 5 an hour)", retry_after=3599
    )
    assert "Try again in 60 minutes" in page
    assert not get_user_model().objects.filter(username="newcomer5").exists()
    assert sign_up(client, "newcomer5", address=ELSEWHERE).status_code == 302
    frozen.shift(timedelta(hours=1))
    assert sign_up(client, "newcomer6").status_code == 302


def test_a_sign_up_form_with_errors_does_not_count(client, settings, frozen):
    settings.SIGN_UP_LIMIT_PER_ADDRESS = "2/hour"
    for _ in range(5):
        response = sign_up(client, "typo", password2="does-not-match-77")
        assert response.status_code == 200 and "password fields didn" in response.content.decode()
    assert sign_up(client, "first").status_code == 302
    assert sign_up(client, "second").status_code == 302
    assert sign_up(client, "third").status_code == 429


# Password reset ------------------------------------------------------------------------------------------------


def reset(client, email, address=HERE):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def test_password_reset_is_limited_per_address(client, settings, frozen, make_user):
    settings.PASSWORD_RESET_LIMIT_PER_ADDRESS = "5/hour"
    for number in range(5):
        assert reset(client, f"someone{number}@example.com").status_code == 302
    response = reset(client, "someone5@example.com")
    assert_limit_page(
        response, says="Too many password resets were asked for from your address", retry_after=3599
    )
    assert reset(client, "someone5@example.com", address=ELSEWHERE).status_code == 302


@pytest.mark.parametrize("address", ["lotus@example.com", "nobody@example.com"])
def test_password_reset_is_limited_per_e_mail_address_known_or_not(
    client, settings, frozen, make_user, address, django_capture_on_commit_callbacks
):
    make_user("lotus", email="lotus@example.com")
    settings.PASSWORD_RESET_LIMIT_PER_EMAIL = "3/hour"
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(3):
            assert reset(client, address, address=f"192.0.2.{number}").status_code == 302
        response = reset(client, address.upper(), address="192.0.2.99")
    assert_limit_page(
        response, says="Reset links for this e-mail address were asked for 3 times", retry_after=3599
    )
    assert Message.objects.count() == (3 if address.startswith("lotus") else 0)  # none for the refused one


# API writes ----------------------------------------------------------------------------------------------------


def create_league(client, name, **extra):
    return client.post("/api/leagues/", {"name": name}, content_type="application/json", **extra)


def test_api_writes_are_limited_per_account_with_the_json_error_and_retry_after(
    client, moderator, settings, frozen
):
    settings.API_WRITE_LIMIT_PER_ACCOUNT = "3/minute"
    settings.API_WRITE_LIMIT_PER_ADDRESS = "off"
    client.force_login(moderator)
    for number in range(3):
        assert (
            create_league(client, f"Limits {number} league", REMOTE_ADDR=f"192.0.2.{number}").status_code
            == 201
        )
    response = create_league(client, "Limits 3 league", REMOTE_ADDR="192.0.2.50")
    assert response.status_code == 429
    assert response["Retry-After"] == "59"
    assert response.json() == {
        "detail": "Too many changes from this account: at most 3 a minute through the API. "
        "Try again in 59 seconds.",
        "code": "throttled",
    }
    # Reading is not limited.
    assert client.get("/api/rounds/").status_code == 200
    frozen.shift(timedelta(minutes=1))
    assert create_league(client, "Limits 3 league").status_code == 201


def test_api_writes_are_limited_per_address_whatever_the_account(client, make_user, settings, frozen):
    from accounts.services import make_moderator

    settings.API_WRITE_LIMIT_PER_ACCOUNT = "off"
    settings.API_WRITE_LIMIT_PER_ADDRESS = "4/minute"
    moderators = [make_user(f"mod{number}") for number in range(5)]
    for number, user in enumerate(moderators[:4]):
        make_moderator(user)
        client.force_login(user)
        assert create_league(client, f"Address {number} league", REMOTE_ADDR=HERE).status_code == 201
    make_moderator(moderators[4])
    client.force_login(moderators[4])
    response = create_league(client, "Address 4 league", REMOTE_ADDR=HERE)
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"
    assert "from this address" in response.json()["detail"]
    assert int(response["Retry-After"]) == 59
    assert create_league(client, "Address 4 league", REMOTE_ADDR=ELSEWHERE).status_code == 201


def test_the_token_endpoint_is_not_an_api_write(api_client, player, password, settings):
    settings.API_WRITE_LIMIT_PER_ADDRESS = "2/minute"
    for _ in range(4):
        response = api_client.post(
            reverse("api-token"), {"username": "player", "password": password}, format="json"
        )
        assert response.status_code == 200


def test_the_default_limits():
    from django.conf import settings

    assert settings.SIGN_UP_LIMIT_PER_ADDRESS == "5/hour"
    assert settings.PASSWORD_RESET_LIMIT_PER_ADDRESS == "5/hour"
    assert settings.PASSWORD_RESET_LIMIT_PER_EMAIL == "3/hour"
    assert settings.API_WRITE_LIMIT_PER_ACCOUNT == "120/minute"
    assert settings.API_WRITE_LIMIT_PER_ADDRESS == "120/minute"


def test_a_cache_that_is_down_refuses_nobody(client, moderator, settings, monkeypatch):
    class Down:
        def incr(self, *args, **kwargs):
            raise ConnectionError("cache down")

        add = incr

    settings.API_WRITE_LIMIT_PER_ACCOUNT = "1/minute"
    monkeypatch.setattr("phm.limits.cache", Down())
    client.force_login(moderator)
    assert create_league(client, "Down 1 league").status_code == 201
    assert create_league(client, "Down 2 league").status_code == 201
