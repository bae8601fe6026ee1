from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        # signals: tables after reveals, tallies after disqualifications; card_pages: a card's metagame;
        # round_pages: the viewer's matches on a revealed round's page.
        from . import card_pages, round_pages, signals  # noqa: F401
