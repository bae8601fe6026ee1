"""Putting messages in the outbox: saved in the caller's transaction, handed to the workers once it commits.

The bottom of the outbox's own layers: composing (outbox.services), preferences and the digest put messages
here; this module knows only the rows and the doorbell that announces them."""

from collections.abc import Iterable

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from .doorbell import doorbell
from .models import Message


def queue(messages: Iterable[Message | None]) -> list[Message]:
    """Save the messages in the caller's transaction; they are handed to the workers once it commits (those
    held for a digest wait for it)."""
    saved = [message for message in messages if message is not None]
    if not saved:
        return []
    Message.objects.bulk_create(saved)
    send_after_commit([message.pk for message in saved if message.state == Message.State.PENDING])
    return saved


def send_after_commit(message_ids: Iterable[int]) -> None:
    """Hand the messages to the workers after the commit (a rollback sends nothing): a delivery task carries
    them with the others this process commits within OUTBOX_PUBLISH_WINDOW (outbox.doorbell). If the broker
    is down the messages stay pending and the backstop sends them."""
    ids = list(message_ids)
    transaction.on_commit(lambda: doorbell.ring(ids), robust=True)


def release_held(user: AbstractBaseUser) -> int:
    """Digest turned off: what was waiting goes out now. Returns how many messages were released."""
    ids = list(Message.objects.filter(recipient=user, state=Message.State.HELD).values_list("pk", flat=True))
    if ids:
        Message.objects.filter(pk__in=ids).update(state=Message.State.PENDING, next_attempt_at=timezone.now())
        send_after_commit(ids)
    return len(ids)
