from django.apps import AppConfig


class OutboxConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "outbox"
    verbose_name = "Outbox"

    def ready(self):
        # The deploy check; the delivery tasks, which the doorbell finds by name.
        from . import checks, tasks  # noqa: F401
