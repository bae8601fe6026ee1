"""The demo's clock: its days count from midnight UTC of the day it is seeded, and each step of its story runs
as if it were the moment the story gives it.

The services are given `now=` for what they decide. What is stamped without asking — auto_now fields, audit
entries, reports, decisions, notifications, outbox messages (whose `default=timezone.now` holds Django's own
function) — reads Django's clock, `django.utils.timezone.now()`, which asks its module's `datetime` for the
time: that one name is replaced for the step, in this process only.
"""

import itertools
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from unittest import mock

from django.utils import timezone as django_timezone


class Clock:
    def __init__(self, now):
        self.now = now
        self.midnight = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)

    def at(self, days, hour):
        """`hour` o'clock UTC, `days` after (negative: before) the seeding day."""
        return self.midnight + timedelta(days=days, hours=hour)

    @contextmanager
    def set_to(self, moment):
        """Django's clock reads `moment` inside the block — a microsecond later at each reading, so rows
        keep the order they were made in."""
        readings = (moment + timedelta(microseconds=tick) for tick in itertools.count())
        with mock.patch.object(django_timezone, "datetime", _story_datetime(readings)):
            yield


class _LooksLikeDatetime(type):
    """isinstance(value, <the story's datetime>) answers as for datetime itself: Django's template_localtime
    asks it of every value a template shows."""

    def __instancecheck__(cls, instance):
        return isinstance(instance, datetime)


def _story_datetime(readings):
    class StoryDatetime(datetime, metaclass=_LooksLikeDatetime):
        @classmethod
        def now(cls, tz=None):
            moment = next(readings)
            return moment.astimezone(tz) if tz is not None else moment.replace(tzinfo=None)

    return StoryDatetime
