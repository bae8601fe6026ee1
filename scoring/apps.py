from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        # signals: tables after reveals, tallies after disqualifications; card_pages: a card's metagame.
        from . import card_pages, signals  # noqa: F401
