"""A round imported from the forum keeps the code the forum gave it, and says how well its deadline is known
(exact, approximate, unknown); only such a round, revealed or final, may have a deadline that is not exact."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rounds", "0013_auditentry_moved_to_audit"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="deadline_precision",
            field=models.CharField(
                choices=[("exact", "Exact"), ("approximate", "Approximate"), ("unknown", "Unknown")],
                default="exact",
                help_text="Approximate or unknown only for a round imported from the forum, revealed or final: its deadline is history, never a time anything waits for.",
                max_length=12,
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="forum_code",
            field=models.CharField(
                blank=True,
                db_index=True,
                editable=False,
                help_text="For a round imported from a forum post: the code the forum gave it (32:02), the one people search for. Empty for rounds played here.",
                max_length=20,
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("deadline_precision__in", ["exact", "approximate", "unknown"])),
                name="round_deadline_precision_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("deadline_precision", "exact"),
                    models.Q(
                        models.Q(("imported_fingerprint", ""), _negated=True),
                        ("state__in", ["revealed", "final"]),
                    ),
                    _connector="OR",
                ),
                name="round_inexact_deadline_only_when_archived",
            ),
        ),
    ]
