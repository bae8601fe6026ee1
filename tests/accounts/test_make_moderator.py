import pytest
from django.core.management import CommandError, call_command

from accounts.services import is_moderator

pytestmark = pytest.mark.django_db


def test_make_moderator_adds_to_group_and_is_idempotent(player, capsys):
    assert not is_moderator(player)
    call_command("make_moderator", "player")
    assert "player is now a moderator." in capsys.readouterr().out
    assert player.groups.filter(name="moderators").exists()
    assert is_moderator(player)
    player.refresh_from_db()
    assert player.is_staff  # to keep the banned lists in the admin
    call_command("make_moderator", "player")
    assert "already a moderator" in capsys.readouterr().out
    assert player.groups.count() == 1


def test_make_moderator_remove(moderator, capsys):
    call_command("make_moderator", "mod", "--remove")
    assert "no longer a moderator" in capsys.readouterr().out
    assert not is_moderator(moderator)
    moderator.refresh_from_db()
    assert not moderator.is_staff


def test_make_moderator_unknown_user_suggests(player):
    with pytest.raises(CommandError, match=r'No user named "playr".*Did you mean: player\?'):
        call_command("make_moderator", "playr")


def test_superuser_is_a_moderator(user_model):
    admin = user_model.objects.create_superuser("root", "root@example.com", "pw-for-root-123")
    assert is_moderator(admin)


def test_anonymous_is_not_a_moderator():
    from django.contrib.auth.models import AnonymousUser

    assert not is_moderator(AnonymousUser())
