"""Password reset by e-mail, with the same work in the request whether or not an address has an account.

The request only checks the form and hands the address to a task (accounts.tasks.send_password_reset): the
task looks the accounts up, makes the link and queues the mail in the outbox. So the reply takes as long for
an unknown address as for a known one and says the same. Only while the broker cannot take the task is the
work done in the request instead (the mail is not lost; the timing then differs, as it does on the embedded
default, where tasks run in-process).
"""

from phm.tasks import publish

SUBJECT_TEMPLATE = "registration/password_reset_subject.txt"
EMAIL_TEMPLATE = "registration/password_reset_email.txt"


def request_reset(*, email: str, domain: str, use_https: bool) -> None:
    """Have the reset mail for `email` sent (to each active account with that address, if any)."""
    from .tasks import send_password_reset

    if not publish(send_password_reset, email, domain, use_https, private=True):
        send_reset(email=email, domain=domain, use_https=use_https)


def send_reset(*, email: str, domain: str, use_https: bool) -> None:
    """Queue the reset mail for every active account with the address `email` (Django's reset form), its link
    on `domain` (the host the request came to; SITE_URL wins when set)."""
    from .forms import OutboxPasswordResetForm

    form = OutboxPasswordResetForm({"email": email})
    if form.is_valid():
        form.compose(domain=domain, use_https=use_https)
