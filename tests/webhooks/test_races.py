"""Races on PostgreSQL: a delivery's task and the backstop at once send it once (FOR UPDATE SKIP LOCKED)."""

import pytest

from tests.rounds.test_round_races import on_postgres, run_together  # noqa: F401  (fixture)
from webhooks import payloads, services
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_workers_sending_the_same_delivery_post_it_once(on_postgres, receiver, add_webhook, moderator):  # noqa: F811
    webhook = add_webhook(receiver.url)
    # Written without its after-commit task (which would send it at once here): the race is between workers.
    delivery = WebhookDelivery.objects.create(
        webhook=webhook, event="test", payload=payloads.build_test(webhook.kind, webhook.league)
    )
    receiver.answer((204, {}, 0.5))  # a slow receiver: the first sender holds the row lock meanwhile
    outcomes = run_together(
        [lambda: services.deliver(delivery.pk), services.deliver_due, services.deliver_due]
    )
    assert outcomes.count("sent") + sum(1 for o in outcomes if isinstance(o, dict) and o["sent"]) == 1, (
        outcomes
    )
    assert len(receiver.requests) == 1
    delivery.refresh_from_db()
    assert delivery.state == WebhookDelivery.State.SENT and delivery.attempts == 1
