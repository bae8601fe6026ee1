from django.apps import AppConfig

from audit.labels import register_labels

from .audit_labels import AUDIT_LABELS


class SubmissionsConfig(AppConfig):
    name = "submissions"

    def ready(self):
        register_labels(AUDIT_LABELS)
        from outbox import deferred

        from . import round_pages, services, signals  # noqa: F401  (the round pages' hands; the reveal scheduler)

        # Receipts are rendered by the worker that sends them, from their hand version.
        deferred.register(services.RECEIPT_KIND, services.render_receipt)
