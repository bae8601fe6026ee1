"""Deliveries recorded before errors were reduced to "delivery failed (HTTP n / timeout / refused)" kept the
network's own words (addresses, ports, "Connection refused" or a TLS error), which tell a moderator what
answers inside the server's network: rewrite them in the new words."""

from django.db import migrations
from django.db.models import CharField, Q, Value
from django.db.models.functions import Cast, Concat

SWITCHED_OFF = "The webhook is switched off."


def generic_errors(apps, schema_editor):
    delivery = apps.get_model("webhooks", "WebhookDelivery")
    old = delivery.objects.exclude(last_error="").exclude(last_error=SWITCHED_OFF)
    old = old.exclude(last_error__startswith="delivery failed (")
    old.filter(last_status_code__isnull=False).update(
        last_error=Concat(Value("delivery failed (HTTP "), Cast("last_status_code", CharField()), Value(")"))
    )
    unanswered = old.filter(last_status_code__isnull=True)
    unanswered.filter(Q(last_error__icontains="timeout") | Q(last_error__icontains="timed out")).update(
        last_error="delivery failed (timeout)"
    )
    unanswered.exclude(last_error="delivery failed (timeout)").update(last_error="delivery failed (refused)")


class Migration(migrations.Migration):
    dependencies = [("webhooks", "0001_webhooks")]

    operations = [migrations.RunPython(generic_errors, migrations.RunPython.noop, elidable=True)]
