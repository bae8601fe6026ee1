"""Account tasks: the password-reset mail, composed by a worker (accounts.password_reset)."""

from celery import shared_task

from . import password_reset


@shared_task(name="accounts.send_password_reset")
def send_password_reset(email, domain, use_https):
    password_reset.send_reset(email=email, domain=domain, use_https=use_https)
