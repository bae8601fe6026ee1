"""The audit trail moves from the rounds app to this one. The table stays as it is (`rounds_auditentry`, its
index and constraints): this only gives the model to this app's state; rounds 0013 takes it out of rounds'."""

import django.core.serializers.json
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("rounds", "0004_round_rules_league_moderators_audit"),
        ("rounds", "0012_round_archive_fields"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("object_id", models.PositiveBigIntegerField()),
                        (
                            "action",
                            models.CharField(
                                help_text='A dotted verb such as "round.opened".', max_length=50
                            ),
                        ),
                        (
                            "before",
                            models.JSONField(
                                blank=True,
                                default=dict,
                                encoder=django.core.serializers.json.DjangoJSONEncoder,
                            ),
                        ),
                        (
                            "after",
                            models.JSONField(
                                blank=True,
                                default=dict,
                                encoder=django.core.serializers.json.DjangoJSONEncoder,
                            ),
                        ),
                        ("note", models.TextField(blank=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="audit_entries",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "content_type",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT, to="contenttypes.contenttype"
                            ),
                        ),
                    ],
                    options={
                        "verbose_name_plural": "audit entries",
                        "db_table": "rounds_auditentry",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(
                                fields=["content_type", "object_id", "-created_at"],
                                name="rounds_audi_content_5b970b_idx",
                            )
                        ],
                    },
                ),
            ],
        ),
    ]
