"""The audit trail: who changed what, when, from what to what. Entries are never edited."""

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models


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
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["content_type", "object_id", "-created_at"])]
        verbose_name_plural = "audit entries"

    def __str__(self):
        return f"{self.action} by {self.actor or 'the system'} at {self.created_at:%Y-%m-%d %H:%M}"

    @property
    def label(self):
        return ACTION_LABELS.get(self.action, self.action)

    def changes(self):
        """[(field, before, after)] for the fields whose value differs; people by their forum names once
        `name_people` has looked them up (the entry stores usernames)."""
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


# Audit values that are usernames (the entries keep the stable login name; pages show the forum name).
PEOPLE_FIELDS = {"player", "players", "winners", "reporter", "entered_by", "moderators"}


def name_people(entries):
    """The entries, each told the forum names of the people its values name (one query for all of them)."""
    from django.contrib.auth import get_user_model

    from accounts.templatetags.people import display_name_of

    entries = list(entries)
    usernames = set()
    for entry in entries:
        for values in (entry.before, entry.after):
            for key in PEOPLE_FIELDS & set(values):
                value = values[key]
                usernames.update(value if isinstance(value, list) else [value])
    usernames = {name for name in usernames if isinstance(name, str)}
    people = {}
    if usernames:
        users = get_user_model().objects.filter(username__in=usernames).select_related("profile")
        people = {user.get_username(): display_name_of(user) for user in users}
    for entry in entries:
        entry.people = people
    return entries


ACTION_LABELS = {
    "league.created": "League created",
    "round.created": "Round created",
    "round.changed": "Rules changed",
    "round.opened": "Round opened",
    "round.deadline_extended": "Deadline extended",
    "round.closed_early": "Submissions ended early",
    "round.banned_resynced": "Banned lists re-synchronised",
    "round.revealed": "Hands revealed",
    "round.table_built": "Match table built",
    "round.finalized": "Round finalized",
    "round.reopened": "Round reopened",
    "round.bonus_awarded": "Bonus League points awarded",
    "round.bonus_withdrawn": "Bonus League points withdrawn",
    "round.posted_rows_imported": "Players' posted rows imported",
    "round.tiebreak_added": "Tie-break round added (5.3a)",
    "round.card_accepted": "Card accepted (3.2a)",
    "round.card_withdrawn": "Accepted card withdrawn",
    "round.hands_previewed": "Moderator chose to see the hands (will not play)",
    "league.winners_declared": "Winners declared",
    "league.winners_computed": "Winners known from the standings (5.3, 5.3a)",
    "league.changed": "League settings changed",
    "round.results_superseded": "Results superseded: a hand was replaced or disqualified (4.2a)",
    "league.webhook_added": "Webhook added",
    "league.webhook_removed": "Webhook removed",
    "match.reported": "Result reported",
    "match.verified": "Result verified by another player",
    "match.result_set": "Result set by the moderator",
    "match.challenged": "Result challenged",
    "challenge.upheld": "Challenge upheld",
    "challenge.rejected": "Challenge rejected",
    "hand.submitted": "Hand submitted",
    "hand.changed": "Hand changed (new version)",
    "hand.flag": "Hand flagged as illegal",
    "hand.unflag": "Flag removed",
    "hand.notice": "Notice attached (4.2b)",
    "hand.rename": "Hand renamed",
    "hand.disqualify": "Hand disqualified",
    "hand.replace": "Hand replaced by a similar hand",
    "mail.retried": "Message sent again by a moderator",
}


def audit_entry(subject, action, *, actor=None, before=None, after=None, note=""):
    """The (unsaved) entry recording one change of `subject`: for callers that write it with other rows."""
    return AuditEntry(
        content_type=ContentType.objects.get_for_model(subject, for_concrete_model=False),
        object_id=subject.pk,
        action=action,
        actor=actor if actor is not None and actor.is_authenticated else None,
        before=before or {},
        after=after or {},
        note=note,
    )


def log_action(subject, action, *, actor=None, before=None, after=None, note=""):
    """Record one change of `subject`; call it inside the transaction that makes the change."""
    entry = audit_entry(subject, action, actor=actor, before=before, after=after, note=note)
    entry.save(force_insert=True)
    return entry


def audit_trail(subject):
    ct = ContentType.objects.get_for_model(subject, for_concrete_model=False)
    # With the actors' profiles: pages name them by their forum name.
    return AuditEntry.objects.filter(content_type=ct, object_id=subject.pk).select_related("actor__profile")
