"""The audit trail moved to the audit app (audit 0001): the model leaves rounds' state, its table stays.

After the migrations that read the entries through the historical rounds model (submissions 0009 and 0010):
on a new database the graph would otherwise run this one before them."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("rounds", "0012_round_archive_fields"),
        ("audit", "0001_initial"),
        ("submissions", "0010_mark_similar_hands_made_by_their_player"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name="AuditEntry")],
        ),
    ]
