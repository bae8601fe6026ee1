from django.apps import AppConfig

from audit.labels import register_labels

from .audit_labels import AUDIT_LABELS


class WebhooksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self):
        register_labels(AUDIT_LABELS)
        # The receivers of the domain signals (rounds opened, hands revealed, results final), the link on the
        # moderator's dashboard, and the delivery tasks (found by name).
        from . import moderator_pages, receivers, tasks  # noqa: F401
