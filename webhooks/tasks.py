"""Delivery tasks: one per delivery right after its commit, and the beat backstop for whatever is pending."""

from celery import shared_task

from phm.tasks import publish_at

from . import services
from .models import WebhookDelivery


@shared_task(name="webhooks.send_delivery")
def send_delivery(delivery_id):
    outcome = services.deliver(delivery_id)
    if outcome == "retry":
        # A near retry is scheduled exactly; a later one is left to the backstop (no long countdowns).
        next_attempt = (
            WebhookDelivery.objects.filter(pk=delivery_id).values_list("next_attempt_at", flat=True).first()
        )
        if next_attempt is not None:
            publish_at(send_delivery, next_attempt, delivery_id)
    return outcome


@shared_task(name="webhooks.send_pending")
def send_pending():
    """Every BACKSTOP_INTERVAL seconds: deliveries queued while the broker was down, and retries now due."""
    return services.deliver_due()
