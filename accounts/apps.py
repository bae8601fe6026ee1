from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and profiles"

    def ready(self):
        from . import tasks  # noqa: F401  (the password-reset task, which accounts.password_reset finds by name)
