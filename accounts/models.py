from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

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
        return self.forum_username or self.user.get_username()
