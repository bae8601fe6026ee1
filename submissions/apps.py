from django.apps import AppConfig

from audit.labels import register_labels

from .audit_labels import AUDIT_LABELS


class SubmissionsConfig(AppConfig):
    name = "submissions"

    def ready(self):
        register_labels(AUDIT_LABELS)
        from outbox import deferred
        from outbox import selectors as outbox_selectors

        # notifications: reminders when rounds open; round_pages: the round pages' hands; tasks: the reveal
        # task the reveal scheduler (receivers) finds by name.
        from . import notifications, receivers, round_pages, selectors, tasks  # noqa: F401
        from .services import receipts

        receivers.connect()
        # Receipts are rendered by the worker that sends them, from their hand version.
        deferred.register(receipts.RECEIPT_KIND, receipts.render_receipt)
        # Before the deadline a round's receipts and review notices are for moderators who declared only.
        outbox_selectors.register_secret_filter(selectors.in_rounds_declared_by)
