from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    name = "submissions"

    def ready(self):
        from outbox import deferred
        from outbox import selectors as outbox_selectors

        from . import round_pages, selectors, services, signals  # noqa: F401  (the round pages' hands; the reveal scheduler)

        # Receipts are rendered by the worker that sends them, from their hand version.
        deferred.register(services.RECEIPT_KIND, services.render_receipt)
        # Before the deadline a round's receipts and review notices are for moderators who declared only.
        outbox_selectors.register_secret_filter(selectors.in_rounds_declared_by)
