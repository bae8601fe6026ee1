from django.apps import AppConfig


class OutboxConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "outbox"
    verbose_name = "Outbox"

    def ready(self):
        # The deploy check; the receivers of the domain signals; the delivery tasks (found by name).
        from . import checks, receivers, tasks  # noqa: F401
