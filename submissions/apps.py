from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    name = "submissions"

    def ready(self):
        from . import round_pages, signals  # noqa: F401  (the round pages' hands; the reveal scheduler)
