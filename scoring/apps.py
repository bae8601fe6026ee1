from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        from . import signals  # noqa: F401  (builds tables after reveals, tallies after disqualifications)
