"""The bell's unread count, cached per person (the navbar asks on every page). Redis being down only costs the
query: the cache ignores its errors."""

from django.core.cache import cache
from django.db import transaction

from .models import Notification

TTL = 300  # seconds; every change of the count deletes the key anyway


def _key(user_id):
    return f"phm:unread:{user_id}"


def count(user_id):
    value = cache.get(_key(user_id))
    if value is None:
        value = Notification.objects.filter(recipient_id=user_id, read_at__isnull=True).count()
        cache.set(_key(user_id), value, TTL)
    return value


def forget(user_ids):
    """Drop the cached counts, now and after the commit (before it, a reader could cache the old count)."""
    keys = [_key(user_id) for user_id in set(user_ids)]
    if keys:
        cache.delete_many(keys)  # now, for this request's own later reads
        transaction.on_commit(lambda: cache.delete_many(keys), robust=True)
