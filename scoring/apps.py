from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        # receivers: tables after reveals, tallies after changes and disqualifications; notifications: the
        # players' messages; round_pages: the viewer's matches on a revealed round's page.
        from . import notifications, receivers, round_pages  # noqa: F401
