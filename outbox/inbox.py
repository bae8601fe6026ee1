"""A person's site notifications: list, count, mark read. Nobody reads or marks anyone else's."""

from django.utils import timezone

from . import unread
from .models import Notification

MAX_IDS = 500


def for_user(user):
    return Notification.objects.filter(recipient=user)


def mark_read(user, *, ids=None, everything=False, now=None):
    """Mark some (ids) or all of `user`'s unread notifications read; ids of others are ignored. Returns how
    many changed."""
    unread_ones = for_user(user).filter(read_at__isnull=True)
    if not everything:
        unread_ones = unread_ones.filter(pk__in=list(ids or [])[:MAX_IDS])
    changed = unread_ones.update(read_at=now or timezone.now())
    if changed:
        unread.forget([user.pk])
    return changed


def open_notification(user, notification_id):
    """The notification's link, after marking it read; None when it is not `user`'s."""
    notification = for_user(user).filter(pk=notification_id).first()
    if notification is None:
        return None
    if notification.read_at is None:
        mark_read(user, ids=[notification.pk])
    return safe_path(notification.url)


def safe_path(url):
    """Only paths on this site are followed (a stored link is never an open redirect)."""
    return url if url.startswith("/") and not url.startswith("//") and "\\" not in url else "/"
