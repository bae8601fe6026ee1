"""Delivery tasks: one per message right after its commit, and the beat backstop for whatever is pending.

They run on the delivery queue (phm.queues), never in the way of a reveal. Each is one delivery run, bounded
in time (outbox.services.DeliveryRun); what a run leaves untried stays pending: nothing is lost or doubled."""

from celery import shared_task

from phm.tasks import publish, publish_at

from . import digest, services
from .models import Message


def _schedule_retry(message_id):
    # A near retry is scheduled exactly; a later one is left to the backstop (no long countdowns).
    next_attempt = Message.objects.filter(pk=message_id).values_list("next_attempt_at", flat=True).first()
    if next_attempt is not None:
        publish_at(send_message, next_attempt, message_id)


@shared_task(name="outbox.send_message")
def send_message(message_id):
    return send_messages([message_id])[0]


@shared_task(name="outbox.send_messages")
def send_messages(message_ids):
    """The messages a web process committed within one window (outbox.doorbell), over one connection; their
    outcomes, "left" for those the run did not try. Left because the time was up (the server answers, slowly):
    the next task carries on at once. Left because the server failed: the backstop tries again later."""
    run = services.deliver_bundle(message_ids)
    for message_id, outcome in zip(message_ids, run.outcomes, strict=True):
        if outcome == "retry":
            _schedule_retry(message_id)
    if run.stopped == "time":
        left = [pk for pk, outcome in zip(message_ids, run.outcomes, strict=True) if outcome == "left"]
        publish(send_messages, left)
    return run.outcomes


@shared_task(name="outbox.send_pending")
def send_pending():
    """Every BACKSTOP_INTERVAL seconds: messages queued while the broker was down, and retries now due."""
    return services.deliver_due()


@shared_task(name="outbox.send_digests")
def send_digests():
    """Every BACKSTOP_INTERVAL seconds: the daily digests whose hour has come."""
    return digest.send_digests()
