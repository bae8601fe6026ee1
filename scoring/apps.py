from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        # receivers: tables after reveals, tallies after changes and disqualifications; notifications: the
        # players' messages; card_pages: a card's metagame; round_pages: the viewer's matches on a revealed
        # round's page.
        from . import card_pages, notifications, receivers, round_pages  # noqa: F401
