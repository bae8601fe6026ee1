# The decided_by index only where a decision exists (bench/tally.py: the build of a large table).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rounds", "0012_round_archive_fields"),
        ("scoring", "0003_bonus_withdrawal"),
        ("submissions", "0009_backfill_imported_fingerprints"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="decided_by",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("decided_by__isnull", False)),
                fields=["decided_by"],
                name="match_decided_by_set",
            ),
        ),
    ]
