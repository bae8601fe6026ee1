"""Domain signals of the accounts app: what it tells the apps above it, which it never imports."""

from django.dispatch import Signal

# A password-reset mail is composed for one account: `user`, `subject`, `template` (the body's text
# template) and `context`. The outbox queues it (outbox.receivers); sent where the mail is composed
# (accounts.password_reset), in that caller's transaction.
password_reset_mail = Signal()
