"""Reading the audit trail: one subject's entries, and the forum names of the people entries name."""

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import QuerySet

from accounts.names import display_name

from .models import PEOPLE_FIELDS, AuditEntry


def audit_trail(subject: models.Model) -> QuerySet[AuditEntry]:
    """The subject's entries, newest first."""
    ct = ContentType.objects.get_for_model(subject, for_concrete_model=False)
    # With the actors' profiles: pages name them by their forum name.
    return AuditEntry.objects.filter(content_type=ct, object_id=subject.pk).select_related("actor__profile")


def name_people(entries: Iterable[AuditEntry]) -> list[AuditEntry]:
    """The entries, each told the forum names of the people its values name (one query for all of them)."""
    entries = list(entries)
    usernames: set[str] = set()
    for entry in entries:
        for values in (entry.before, entry.after):
            for key in PEOPLE_FIELDS & set(values):
                value = values[key]
                usernames.update(value if isinstance(value, list) else [value])
    usernames = {name for name in usernames if isinstance(name, str)}
    people: dict[str, str] = {}
    if usernames:
        users = get_user_model().objects.filter(username__in=usernames).select_related("profile")
        people = {user.get_username(): display_name(user) for user in users}
    for entry in entries:
        entry.people = people  # type: ignore[attr-defined]
    return entries
