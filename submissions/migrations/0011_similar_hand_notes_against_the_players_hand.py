"""A moderator's similar hand (rule 4.2a) recorded which cards it removed or replaced by comparing it with the
version before it: after two replacements the note of the second compared it with the first (a moderator's),
and the hands post said "Shivan Dragon removed" of a hand whose player never held it. Each replacement's note
is computed again against the player's own last version before it, as new replacements now are."""

from django.db import migrations


def audit_entry_model(apps):
    """The audit entries (the audit app's since rounds 0013; the rounds app's before it)."""
    try:
        return apps.get_model("audit", "AuditEntry")
    except LookupError:
        return apps.get_model("rounds", "AuditEntry")


def card_changes(old_cards, new_cards):
    """submissions.similar_hands.card_changes as it was when this migration was written."""
    remaining = list(new_cards)
    gone = []
    for card in old_cards:
        if card in remaining:
            remaining.remove(card)
        else:
            gone.append(card)
    replaced = [{"card": card, "by": by} for card, by in zip(gone, remaining, strict=False)]
    return {"removed": gone[len(replaced) :], "replaced": replaced, "added": remaining[len(replaced) :]}


def recompute(apps, schema_editor):
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
        if not isinstance(number, int):
            continue
        version = HandVersion.objects.filter(hand_id=hand_id, number=number, source="moderator").first()
        own = (
            HandVersion.objects.filter(hand_id=hand_id, number__lt=number, source="player")
            .order_by("-number")
            .first()
        )
        if version is None or own is None:
            continue
        changes = card_changes(list(own.cards), list(version.cards))
        if changes != version.card_changes:
            HandVersion.objects.filter(pk=version.pk).update(card_changes=changes)


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("audit", "0001_initial"),
        ("submissions", "0010_mark_similar_hands_made_by_their_player"),
    ]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
