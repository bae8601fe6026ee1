"""A similar hand (rule 4.2a) that a moderator made of their own hand was stored as a version "by the player"
(the source was inferred from who made it), so the round page and the hands list published its fresh
commitment as the player's and did not name it as a replacement. Every version a replacement made is marked
as the moderator's: the audit entry of each replacement ("hand.replace") names the version it made."""

from django.db import migrations


def audit_entry_model(apps):
    """The audit entries: the rounds app's model when the migration graph runs this (it moves to the audit app
    in rounds 0013, which runs after this migration); the audit app's in the running project's registry."""
    try:
        return apps.get_model("rounds", "AuditEntry")
    except LookupError:
        return apps.get_model("audit", "AuditEntry")


def mark(apps, schema_editor):
    AuditEntry = audit_entry_model(apps)
    ContentType = apps.get_model("contenttypes", "ContentType")
    HandVersion = apps.get_model("submissions", "HandVersion")
    hand_type = ContentType.objects.filter(app_label="submissions", model="hand").first()
    if hand_type is None:
        return
    replacements = AuditEntry.objects.filter(content_type=hand_type, action="hand.replace").values_list(
        "object_id", "after"
    )
    for hand_id, after in replacements.iterator():
        number = (after or {}).get("version")
        if isinstance(number, int):
            HandVersion.objects.filter(hand_id=hand_id, number=number, source="player").update(
                source="moderator"
            )


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("rounds", "0012_round_archive_fields"),
        ("submissions", "0009_backfill_imported_fingerprints"),
    ]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
