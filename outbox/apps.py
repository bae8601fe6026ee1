from django.apps import AppConfig


class OutboxConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "outbox"
    verbose_name = "Outbox"

    def ready(self):
        from . import checks  # noqa: F401 (registers the deploy check)
