from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.template.loader import render_to_string

from outbox import services as outbox
from phm.text import clean_name

from . import password_reset
from .models import Profile
from .timezones import time_zone_choices


def _forum_username_taken(name, exclude_user=None):
    others = Profile.objects.filter(forum_username__iexact=name)
    if exclude_user is not None:
        others = others.exclude(user=exclude_user)
    return bool(name) and others.exists()


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional. Used for receipts and notices from the moderator."
    )
    forum_username = forms.CharField(
        max_length=100, required=False, help_text="Your name on the forum, if it differs from your username."
    )
    time_zone = forms.ChoiceField(
        choices=time_zone_choices,
        initial="UTC",
        help_text="Deadlines are shown in this time zone and in UTC.",
    )

    class Meta(UserCreationForm.Meta):
        fields = ["username", "email"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(autofocus=True, autocomplete="username")
        self.order_fields(["username", "forum_username", "email", "time_zone", "password1", "password2"])

    def clean_forum_username(self):
        name = clean_name(self.cleaned_data["forum_username"])
        if _forum_username_taken(name):
            raise forms.ValidationError("Another account already uses this forum name.")
        return name


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(required=False)
    time_zone = forms.ChoiceField(
        choices=time_zone_choices, help_text=Profile._meta.get_field("time_zone").help_text
    )

    class Meta:
        model = Profile
        fields = ["forum_username", "time_zone"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].initial = self.instance.user.email
        self.order_fields(["email", "forum_username", "time_zone"])

    def clean_forum_username(self):
        name = clean_name(self.cleaned_data["forum_username"])
        if _forum_username_taken(name, exclude_user=self.instance.user):
            raise forms.ValidationError("Another account already uses this forum name.")
        return name

    def save(self, commit=True):
        profile = super().save(commit=False)
        profile.user.email = self.cleaned_data["email"]
        if commit:
            profile.user.save(update_fields=["email"])
            profile.save()
        return profile


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's reset form, its e-mail sent through the outbox like every other message (retried, visible to
    administrators as secret: it holds a link that logs its reader into the account). Saving it in a request
    only hands the address on (accounts.password_reset): the same work whether or not it has an account."""

    def save(self, domain_override=None, use_https=False, request=None, **kwargs):
        password_reset.request_reset(
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
            subject_template_name=password_reset.SUBJECT_TEMPLATE,
            email_template_name=password_reset.EMAIL_TEMPLATE,
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
        outbox.queue(
            [
                outbox.email(
                    kind="account.password_reset",
                    user=user,
                    subject=subject,
                    template=email_template_name,
                    context={**context, "site_url": site_url},
                    secret=True,
                )
            ]
        )
