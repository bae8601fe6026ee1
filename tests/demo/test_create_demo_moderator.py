"""`manage.py create_demo_moderator`: the demo moderator of `make run`, refused unless DEBUG is on."""

import pytest
from django.core.management import CommandError, call_command

from accounts.services import is_moderator

pytestmark = pytest.mark.django_db


def test_demo_moderator_refused_without_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="only created when DEBUG is on"):
        call_command("create_demo_moderator")


def test_demo_moderator_created_with_debug(settings, user_model):
    settings.DEBUG = True
    call_command("create_demo_moderator")
    call_command("create_demo_moderator")  # a second run resets, never duplicates
    user = user_model.objects.get(username="moderator")
    assert user.check_password("phm-moderator")
    assert is_moderator(user)
