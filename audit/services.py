"""Writing the audit trail: one entry per change, inside the transaction that makes the change."""

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.contenttypes.models import ContentType
from django.db import models

from .models import AuditEntry


def audit_entry(
    subject: models.Model,
    action: str,
    *,
    actor: AbstractBaseUser | AnonymousUser | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    note: str = "",
) -> AuditEntry:
    """The (unsaved) entry recording one change of `subject`: for callers that write it with other rows."""
    # The field takes the project's user model; callers know it as an AbstractBaseUser.
    user: Any = actor if actor is not None and actor.is_authenticated else None
    return AuditEntry(
        content_type=ContentType.objects.get_for_model(subject, for_concrete_model=False),
        object_id=subject.pk,
        action=action,
        actor=user,
        before=dict(before or {}),
        after=dict(after or {}),
        note=note,
    )


def log_action(
    subject: models.Model,
    action: str,
    *,
    actor: AbstractBaseUser | AnonymousUser | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    note: str = "",
) -> AuditEntry:
    """Record one change of `subject`; call it inside the transaction that makes the change."""
    entry = audit_entry(subject, action, actor=actor, before=before, after=after, note=note)
    entry.save(force_insert=True)
    return entry
