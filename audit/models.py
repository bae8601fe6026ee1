"""The audit trail: who changed what, when, from what to what. Entries are never edited.

The table is the one the rounds app created (`rounds_auditentry`), with its index names: the trail moved to
this app without touching the database."""

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from .labels import label_for

# Audit values that are usernames (the entries keep the stable login name; pages show the forum name).
PEOPLE_FIELDS = {"player", "players", "winners", "reporter", "entered_by", "moderators"}


class AuditEntry(models.Model):
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT)
    object_id = models.PositiveBigIntegerField()
    subject = GenericForeignKey("content_type", "object_id")
    action = models.CharField(max_length=50, help_text='A dotted verb such as "round.opened".')
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    before = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "rounds_auditentry"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(
                fields=["content_type", "object_id", "-created_at"], name="rounds_audi_content_5b970b_idx"
            )
        ]
        verbose_name_plural = "audit entries"

    def __str__(self):
        return f"{self.action} by {self.actor or 'the system'} at {self.created_at:%Y-%m-%d %H:%M}"

    @property
    def label(self):
        return label_for(self.action)

    def changes(self):
        """[(field, before, after)] for the fields whose value differs; people by their forum names once
        `audit.selectors.name_people` has looked them up (the entry stores usernames)."""
        keys = list(dict.fromkeys([*self.before, *self.after]))
        return [
            (key, self._shown(key, self.before.get(key)), self._shown(key, self.after.get(key)))
            for key in keys
            if self.before.get(key) != self.after.get(key)
        ]

    def _shown(self, key, value):
        people = getattr(self, "people", None)
        if not people or key not in PEOPLE_FIELDS or value is None:
            return value
        if isinstance(value, list):
            return [people.get(item, item) if isinstance(item, str) else item for item in value]
        return people.get(value, value) if isinstance(value, str) else value
