from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from . import names
from .timezones import DEFAULT_TIME_ZONE


class Profile(models.Model):
    """What a player tells us about themselves beyond the login: forum name and time zone."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    forum_username = models.CharField(
        max_length=100,
        blank=True,
        help_text="Your name on the forum, so other players recognise you.",
    )
    time_zone = models.CharField(
        max_length=64,
        default=DEFAULT_TIME_ZONE,
        help_text="Deadlines are shown in this time zone and in UTC.",
    )
    # What the person wants to be told, and how: {kind: {"email": bool, "site": bool}} (outbox.kinds names the
    # kinds and their defaults; a kind missing here has its default). Kept on the profile, which every request
    # of a logged-in person loads anyway, so honouring it costs no query.
    notification_choices = models.JSONField(default=dict, blank=True)
    email_digest = models.BooleanField(
        default=False,
        help_text="Gather e-mails into one a day (receipts, reminders and resets still come at once).",
    )
    digest_sent_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        constraints = [
            # Two accounts must not claim the same forum identity; empty means "not given".
            models.UniqueConstraint(
                Lower("forum_username"),
                condition=~Q(forum_username=""),
                name="profile_forum_username_unique_ci",
            ),
        ]

    def __str__(self):
        return f"Profile of {self.user}"

    @property
    def display_name(self):
        return names.display_name(self.user)


class CalendarToken(models.Model):
    """The secret in a player's personal calendar link (/calendar/<token>.ics). Revoked by replacing it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_token"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"Calendar link of {self.user}"
