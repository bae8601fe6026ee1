"""`manage.py check --deploy`: a production site whose mail would end up in its logs."""

from django.conf import settings
from django.core import checks

CONSOLE_BACKEND = "django.core.mail.backends.console.EmailBackend"


@checks.register(checks.Tags.security, deploy=True)
def mail_is_not_logged(app_configs, **kwargs):
    if settings.DEBUG or settings.EMAIL_BACKEND != CONSOLE_BACKEND:
        return []
    return [
        checks.Warning(
            "EMAIL_BACKEND is the console backend: every e-mail, hand receipts and password-reset links "
            "included, is written to the log of the process that sends it.",
            hint="Use django.core.mail.backends.smtp.EmailBackend for real mail, or the file backend "
            "(django.core.mail.backends.filebased.EmailBackend, EMAIL_FILE_PATH).",
            id="outbox.W001",
        )
    ]
