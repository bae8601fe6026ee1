from django.apps import AppConfig
from django.db.models.signals import post_migrate

from audit.labels import register_labels

from .audit_labels import AUDIT_LABELS


class RoundsConfig(AppConfig):
    name = "rounds"
    verbose_name = "Leagues, rounds and cards"

    def ready(self):
        register_labels(AUDIT_LABELS)
        from . import signals

        post_migrate.connect(
            signals.fill_empty_catalog, sender=self, dispatch_uid="rounds-fill-empty-catalog"
        )
