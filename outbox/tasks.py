"""Delivery tasks: one per message right after its commit, and the beat backstop for whatever is pending."""

from celery import shared_task

from phm.tasks import publish_at

from . import digest, services
from .models import Message


@shared_task(name="outbox.send_message")
def send_message(message_id):
    outcome = services.deliver(message_id)
    if outcome == "retry":
        # A near retry is scheduled exactly; a later one is left to the backstop (no long countdowns).
        next_attempt = Message.objects.filter(pk=message_id).values_list("next_attempt_at", flat=True).first()
        if next_attempt is not None:
            publish_at(send_message, next_attempt, message_id)
    return outcome


@shared_task(name="outbox.send_messages")
def send_messages(message_ids):
    """The messages a web process committed within one window (outbox.doorbell), each as send_message."""
    return [send_message(message_id) for message_id in message_ids]


@shared_task(name="outbox.send_pending")
def send_pending():
    """Every BACKSTOP_INTERVAL seconds: messages queued while the broker was down, and retries now due."""
    return services.deliver_due()


@shared_task(name="outbox.send_digests")
def send_digests():
    """Every BACKSTOP_INTERVAL seconds: the daily digests whose hour has come."""
    return digest.send_digests()
