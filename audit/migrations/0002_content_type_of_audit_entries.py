"""The content type of the audit entries follows the model to the audit app (rounds.auditentry ->
audit.auditentry), with its id: the permissions and admin log entries that point at it keep working."""

from django.db import migrations

MODEL = "auditentry"


def _move(apps, old_label, new_label):
    ContentType = apps.get_model("contenttypes", "ContentType")
    old = ContentType.objects.filter(app_label=old_label, model=MODEL).first()
    if old is None:
        return
    # A row of the new name exists only if content types were created between the two migrations; it is
    # younger than the old one (which the permissions were granted on), so the old one takes its place.
    ContentType.objects.filter(app_label=new_label, model=MODEL).delete()
    old.app_label = new_label
    old.save(update_fields=["app_label"])


def forwards(apps, schema_editor):
    _move(apps, "rounds", "audit")


def backwards(apps, schema_editor):
    _move(apps, "audit", "rounds")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("audit", "0001_initial"),
        ("rounds", "0013_auditentry_moved_to_audit"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
