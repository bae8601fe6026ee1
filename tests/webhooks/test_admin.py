"""Webhook deliveries in the admin: superusers read them, nobody adds, changes or deletes one there, and
moderators do not see them (a payload's URL token is not theirs to read)."""

import pytest
from django.contrib.auth import get_user_model

from webhooks import services
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db


@pytest.fixture
def delivery(add_webhook, moderator, receiver):
    webhook = add_webhook(receiver.url)
    services.send_test(actor=moderator, webhook_id=webhook.pk)
    return WebhookDelivery.objects.get(webhook=webhook)


def test_superusers_read_deliveries_and_nobody_edits_them(client, delivery, password):
    get_user_model().objects.create_superuser("root", "root@example.org", password)
    client.login(username="root", password=password)
    assert client.get("/admin/webhooks/webhookdelivery/").status_code == 200
    page = client.get(f"/admin/webhooks/webhookdelivery/{delivery.pk}/change/")
    assert page.status_code == 200 and b"Save" not in page.content
    assert client.get("/admin/webhooks/webhookdelivery/add/").status_code == 403
    assert client.get(f"/admin/webhooks/webhookdelivery/{delivery.pk}/delete/").status_code == 403


def test_moderators_do_not_see_deliveries_in_the_admin(client, delivery, moderator):
    moderator.is_staff = True
    moderator.save()
    client.force_login(moderator)
    assert client.get("/admin/webhooks/webhookdelivery/").status_code == 403
