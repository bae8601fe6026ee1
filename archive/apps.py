from django.apps import AppConfig

from audit.labels import register_labels

from .audit_labels import AUDIT_LABELS


class ArchiveConfig(AppConfig):
    name = "archive"

    def ready(self):
        register_labels(AUDIT_LABELS)
