"""A deferred e-mail names the row its body is rendered from when it is sent (outbox.deferred)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("outbox", "0002_notifications"),
    ]

    operations = [
        migrations.AddField(
            model_name="message",
            name="source_id",
            field=models.BigIntegerField(blank=True, null=True),
        ),
    ]
