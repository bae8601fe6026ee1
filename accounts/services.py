"""Account operations used by the pages, the admin and the management commands."""

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, Group, User
from django.db import transaction
from django.utils import timezone

from phm.text import clean_name

from .models import CalendarToken, Profile


def profile_for(user: User) -> Profile:
    """The user's profile, created on first use (accounts made by createsuperuser have none yet)."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def is_moderator(user: User | AnonymousUser) -> bool:
    """Moderators are superusers and members of the moderators group (docs/api.md: Conventions)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return user.groups.filter(name=settings.MODERATORS_GROUP).exists()


@transaction.atomic
def register_player(
    *, username: str, password: str, email: str = "", forum_username: str = "", time_zone: str = "UTC"
) -> User:
    user = get_user_model().objects.create_user(username=username, password=password, email=email)
    Profile.objects.create(user=user, forum_username=clean_name(forum_username), time_zone=time_zone)
    return user


def moderators_group() -> Group:
    group, _ = Group.objects.get_or_create(name=settings.MODERATORS_GROUP)
    return group


def make_moderator(user: User) -> bool:
    """Put `user` in the moderators group; returns False when they already were in it."""
    group = moderators_group()
    if user.groups.filter(pk=group.pk).exists():
        return False
    user.groups.add(group)
    if not user.is_staff:  # moderators keep the banned lists in the admin
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    return True


def remove_moderator(user: User) -> bool:
    """Take `user` out of the moderators group; returns False when they were not in it."""
    group = moderators_group()
    if not user.groups.filter(pk=group.pk).exists():
        return False
    user.groups.remove(group)
    if user.is_staff and not user.is_superuser:
        user.is_staff = False
        user.save(update_fields=["is_staff"])
    return True


# Personal calendar link ------------------------------------------------------------------------------------

CALENDAR_TOKEN_BYTES = 32


def _new_calendar_secret():
    return secrets.token_urlsafe(CALENDAR_TOKEN_BYTES)


def calendar_token_for(user: User) -> str:
    """The user's calendar secret, made on first use."""
    token, _ = CalendarToken.objects.get_or_create(user=user, defaults={"token": _new_calendar_secret()})
    return token.token


@transaction.atomic
def renew_calendar_token(user: User) -> str:
    """A new secret for the user's calendar link: the old link stops working at once. Returns the new one."""
    secret = _new_calendar_secret()
    updated = CalendarToken.objects.filter(user=user).update(token=secret, created_at=timezone.now())
    if not updated:
        CalendarToken.objects.create(user=user, token=secret)
    return secret


def user_for_calendar_token(secret: str | None) -> User | None:
    """The active user whose calendar link has this secret, or None (unknown, revoked, inactive account)."""
    longest = CalendarToken._meta.get_field("token").max_length
    if not secret or (longest is not None and len(secret) > longest):
        return None
    token = CalendarToken.objects.select_related("user").filter(token=secret).first()
    if token is None or not token.user.is_active:
        return None
    return token.user
