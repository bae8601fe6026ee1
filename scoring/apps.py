from django.apps import AppConfig

from audit.labels import register_labels

from .audit_labels import AUDIT_LABELS


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        register_labels(AUDIT_LABELS)
        # signals: tables after reveals, tallies after disqualifications; card_pages: a card's metagame;
        # round_pages: the viewer's matches on a revealed round's page.
        from . import card_pages, round_pages, signals  # noqa: F401
