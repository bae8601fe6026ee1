"""The outbox's answers to the domain signals of the apps below it (connected in OutboxConfig.ready())."""

from django.dispatch import receiver

from accounts.signals import password_reset_mail

from . import services


@receiver(password_reset_mail, dispatch_uid="outbox.password_reset_mail")
def queue_password_reset_mail(sender, user, subject, template, context, **kwargs):
    """The reset link logs its reader into the account: secret, for administrators' eyes only."""
    services.queue(
        [
            services.email(
                kind="account.password_reset",
                user=user,
                subject=subject,
                template=template,
                context=context,
                secret=True,
            )
        ]
    )
