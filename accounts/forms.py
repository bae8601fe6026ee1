from django import forms
from django.contrib.auth.forms import UserCreationForm

from phm.text import clean_name

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
