import os

import pytest
from django.contrib.auth import get_user_model

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
