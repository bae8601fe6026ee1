"""Rounds imported from the forum before imports were fingerprinted get their fingerprint, so they count as
imported (corrections apply to them) and the same post is not imported again. The digest is the one
`scoring.post_import.fingerprint` computes: sorted "number|forum name|cards" lines, casefolded, SHA-256."""

import hashlib

from django.db import migrations


def audit_entry_model(apps):
    """The audit entries: the rounds app's model when the migration graph runs this (it moves to the audit app
    in rounds 0013, which runs after this migration); the audit app's in the running project's registry."""
    try:
        return apps.get_model("rounds", "AuditEntry")
    except LookupError:
        return apps.get_model("audit", "AuditEntry")


def backfill(apps, schema_editor):
    Round = apps.get_model("rounds", "Round")
    AuditEntry = audit_entry_model(apps)
    ContentType = apps.get_model("contenttypes", "ContentType")
    HandVersion = apps.get_model("submissions", "HandVersion")
    round_type = ContentType.objects.filter(app_label="rounds", model="round").first()
    if round_type is None:
        return
    imported_ids = AuditEntry.objects.filter(content_type=round_type, action="round.imported").values_list(
        "object_id", flat=True
    )
    for round_ in Round.objects.filter(pk__in=list(imported_ids), imported_fingerprint=""):
        lines = []
        first_versions = HandVersion.objects.filter(hand__round=round_, number=1).select_related(
            "hand__player__profile"
        )
        for version in first_versions:
            player = version.hand.player
            profile = getattr(player, "profile", None)
            posted = (profile.forum_username if profile else "") or player.username
            cards = "/".join(version.cards).casefold()
            lines.append("|".join((str(version.hand.number), posted.casefold(), cards)))
        if lines:
            digest = hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()
            Round.objects.filter(pk=round_.pk).update(imported_fingerprint=digest)


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0001_initial"),
        ("rounds", "0012_round_archive_fields"),
        ("submissions", "0008_hand_comment_accepted_problems"),
    ]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
