from django.apps import AppConfig

from audit.labels import register_labels

from .audit_labels import AUDIT_LABELS


class OutboxConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "outbox"
    verbose_name = "Outbox"

    def ready(self):
        register_labels(AUDIT_LABELS)
        # The deploy check; the receivers of the domain signals; the delivery tasks (found by name).
        from . import checks, receivers, tasks  # noqa: F401
