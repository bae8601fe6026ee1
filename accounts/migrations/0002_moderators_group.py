from django.conf import settings
from django.db import migrations


def create_moderators_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name=settings.MODERATORS_GROUP)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_moderators_group, migrations.RunPython.noop)]
