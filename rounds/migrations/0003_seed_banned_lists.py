from django.db import migrations

from rounds.banned_seed import seed_banned_lists
from rounds.catalog.names import normalize_name


def seed(apps, schema_editor):
    seed_banned_lists(
        apps.get_model("rounds", "BannedList"), apps.get_model("rounds", "BannedCard"), normalize_name
    )


def unseed(apps, schema_editor):
    apps.get_model("rounds", "BannedList").objects.filter(key__in=["phm", "land-rule"]).delete()


class Migration(migrations.Migration):
    dependencies = [("rounds", "0002_card_catalog_and_banned_lists")]

    operations = [migrations.RunPython(seed, unseed)]
