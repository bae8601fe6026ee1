"""A person is named by their forum name, else their username, the same way everywhere."""

import pytest
from django.contrib.auth.models import AnonymousUser, User

from accounts.models import Profile
from accounts.names import display_name
from accounts.templatetags.people import display_name as display_name_filter
from submissions.selectors import player_display_name

pytestmark = pytest.mark.django_db


def named(username, forum_username=None):
    user = User.objects.create_user(username)
    if forum_username is not None:
        Profile.objects.create(user=user, forum_username=forum_username)
    return User.objects.select_related("profile").get(pk=user.pk)


def test_the_forum_name_wins_over_the_username():
    assert display_name(named("lotus", "Black Lotus")) == "Black Lotus"


def test_without_a_forum_name_or_a_profile_the_username_is_shown():
    assert display_name(named("mox", "")) == "mox"
    assert display_name(named("ruby")) == "ruby"


def test_no_one_has_an_empty_name():
    assert display_name(None) == ""
    assert display_name(AnonymousUser()) == ""


def test_the_profile_the_filter_and_the_player_pages_name_people_alike():
    for user in (named("lotus", "Black Lotus"), named("mox", ""), named("ruby")):
        expected = display_name(user)
        assert display_name_filter(user) == expected
        assert player_display_name(user) == expected
        if hasattr(user, "profile"):
            assert user.profile.display_name == expected
