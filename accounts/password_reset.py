"""Password reset by e-mail, with the same work in the request whether or not an address has an account.

The request only checks the form and hands the address to a task (accounts.tasks.send_password_reset): the
task looks the accounts up, makes the link and has the mail queued in the outbox (the password_reset_mail
signal). So the reply takes as long for an unknown address as for a known one and says the same. Only while
the broker cannot take the task is the work done in the request instead (the mail is not lost; the timing then
differs, as it does on the embedded default, where tasks run in-process).
"""

from celery import current_app
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.template.loader import render_to_string

from phm.tasks import publish

from .signals import password_reset_mail

SUBJECT_TEMPLATE = "registration/password_reset_subject.txt"
EMAIL_TEMPLATE = "registration/password_reset_email.txt"
# Found by name: the task's module calls send_reset here.
RESET_TASK = "accounts.send_password_reset"


def request_reset(*, email: str, domain: str, use_https: bool) -> None:
    """Have the reset mail for `email` sent (to each active account with that address, if any)."""
    task = current_app.tasks[RESET_TASK]
    if not publish(task, email, domain, use_https, private=True):
        send_reset(email=email, domain=domain, use_https=use_https)


def send_reset(*, email: str, domain: str, use_https: bool) -> None:
    """Queue the reset mail for every active account with the address `email` (Django's reset form), its link
    on `domain` (the host the request came to; SITE_URL wins when set)."""
    form = OutboxPasswordResetForm({"email": email})
    if form.is_valid():
        form.compose(domain=domain, use_https=use_https)


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's reset form, its e-mail sent through the outbox like every other message (retried, visible to
    administrators as secret: it holds a link that logs its reader into the account). Saving it in a request
    only hands the address on (request_reset): the same work whether or not it has an account."""

    def save(self, domain_override=None, use_https=False, request=None, **kwargs):
        request_reset(
            email=self.cleaned_data["email"],
            domain=domain_override or request.get_host(),
            use_https=use_https,
        )

    def compose(self, *, domain, use_https):
        """Django's save: a link for each active account with this address, queued by send_mail."""
        PasswordResetForm.save(
            self,
            domain_override=domain,
            use_https=use_https,
            subject_template_name=SUBJECT_TEMPLATE,
            email_template_name=EMAIL_TEMPLATE,
        )

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        user = context["user"]
        site_url = settings.SITE_URL.rstrip("/") or f"{context['protocol']}://{context['domain']}"
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        password_reset_mail.send(
            sender=OutboxPasswordResetForm,
            user=user,
            subject=subject,
            template=email_template_name,
            context={**context, "site_url": site_url},
        )
