"""A player's entry in a round (`Hand`), every version they submitted (`HandVersion`) and what moderators did
to it (`HandReview`). Which of these anyone may see, and when, is decided in `submissions.selectors`."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from .similar_hands import describe_card_changes

# How the site's own flag begins (submissions.services.rules_check.flag_note): no moderator writes it.
RULES_FLAG_PREFIX = "The cards this round allows changed after you submitted:"


class HandStatus(models.TextChoices):
    SUBMITTED = "submitted", "Submitted"
    DISQUALIFIED = "disqualified", "Disqualified"  # rule 4.2a, after the deadline
    REPLACED = "replaced", "Replaced by a similar hand"  # rule 4.2a, after the deadline


class Hand(models.Model):
    round = models.ForeignKey("rounds.Round", on_delete=models.PROTECT, related_name="hands")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hands")
    name = models.CharField(
        max_length=100,
        blank=True,
        help_text="The hand's current name (rule 4.3): the player's or a moderator's.",
    )
    number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Entry number (01, 02…) given at the reveal, by first submission."
    )
    status = models.CharField(max_length=12, choices=HandStatus.choices, default=HandStatus.SUBMITTED)
    flagged = models.BooleanField(
        default=False, help_text="A moderator warned that the hand is illegal (4.2a)."
    )
    flag_message = models.TextField(blank=True)
    notice = models.TextField(blank=True, help_text="Rule 4.2b: the hand cannot win against any hand.")
    disqualification_reason = models.TextField(blank=True)
    comment = models.TextField(
        blank=True,
        help_text="The moderator's comment on the entry, as posted under it (shown after the reveal).",
    )
    accepted_problems = models.JSONField(
        default=list,
        blank=True,
        help_text="Rule problems the forum's host accepted when this hand was played there (archive import): "
        "plain sentences, shown with the hand.",
    )
    created_at = models.DateTimeField(
        auto_now_add=True, help_text="First submission: hands are numbered by it."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            # One current hand per player per round (rule 4.2).
            models.UniqueConstraint(fields=["round", "player"], name="hand_one_per_player_per_round"),
            models.UniqueConstraint(
                fields=["round", "number"],
                condition=Q(number__isnull=False),
                name="hand_number_unique_in_round",
            ),
            models.CheckConstraint(condition=Q(status__in=HandStatus.values), name="hand_status_known"),
            models.CheckConstraint(
                condition=Q(number__isnull=True) | Q(number__gte=1), name="hand_number_from_1"
            ),
        ]

    def __str__(self):
        return f"Hand #{self.pk} in round {self.round_id}"

    @property
    def flagged_by_rules(self):
        """Whether the flag is the site's own (RULES_FLAG_PREFIX, submissions.services.rules_check): set when
        the cards the round allows changed while it was open, and lifted when they change back. A moderator's
        flag has their own words (and keeps them when the site adds its note after them)."""
        return self.flagged and self.flag_message.startswith(RULES_FLAG_PREFIX)

    @property
    def number_label(self):
        """How the forum writes entry numbers: 01, 02, … (None before the reveal)."""
        number = getattr(self, "display_number", None) or self.number
        return f"{number:02d}" if number else ""


class HandVersion(models.Model):
    """One submitted state of a hand. Versions are never edited; a change is a new version (rule 4.2)."""

    class Source(models.TextChoices):
        PLAYER = "player", "Submitted by the player"
        MODERATOR = "moderator", "Similar hand by a moderator (4.2a)"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveSmallIntegerField(help_text="1 for the first submission, then 2, 3, …")
    name = models.CharField(max_length=100, blank=True)
    cards = models.JSONField(help_text="Card names in the player's order, as the catalog spells them.")
    attested = models.JSONField(
        default=list, blank=True, help_text='Rules the player attested, e.g. ["3.1"].'
    )
    decisions = models.JSONField(
        default=dict,
        blank=True,
        help_text="Rule 7.2b: the player's decisions by the round's keys; secret like the cards.",
    )
    nonce = models.CharField(
        max_length=64, help_text="Secret until the reveal; makes the commitment unguessable."
    )
    commitment = models.CharField(
        max_length=64, help_text="SHA-256 (hex) of the canonical text and the nonce."
    )
    # The commitment hashes `round: <round id>`. A hand moved from another instance (import_league) keeps
    # the id it was committed under there; empty means this database's id of the hand's round.
    commitment_round_key = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        editable=False,
        help_text="The round id the commitment was computed with, when it is not this round's own id.",
    )
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.PLAYER)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    submitted_at = models.DateTimeField()
    is_current = models.BooleanField(default=True)
    # A moderator's similar hand (4.2a): which cards of the previous version it removed or replaced,
    # {"removed": [names], "replaced": [{"card", "by"}], "added": [names]}; empty for a player's version.
    card_changes = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["hand_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "number"], name="hand_version_number_unique"),
            # Exactly one version is the hand's current one; the partial index makes a second impossible.
            models.UniqueConstraint(
                fields=["hand"], condition=Q(is_current=True), name="hand_one_current_version"
            ),
            models.CheckConstraint(
                condition=Q(source__in=["player", "moderator"]), name="hand_version_source_known"
            ),
        ]

    def __str__(self):
        return f"Version {self.number} of hand #{self.hand_id}"

    @property
    def changes_note(self):
        """What a moderator's similar hand changed, as a sentence ("" for a player's version)."""
        return describe_card_changes(self.card_changes) if self.source == self.Source.MODERATOR else ""


class HandReview(models.Model):
    """A moderator's action on a hand, as the player sees it (the audit trail keeps the before/after too)."""

    class Action(models.TextChoices):
        FLAG = "flag", "Flagged as illegal"
        UNFLAG = "unflag", "Flag removed"
        NOTICE = "notice", "Notice (4.2b)"
        RENAME = "rename", "Renamed (4.3)"
        DISQUALIFY = "disqualify", "Disqualified (4.2a)"
        REPLACE = "replace", "Replaced by a similar hand (4.2a)"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="reviews")
    action = models.CharField(max_length=12, choices=Action.choices)
    message = models.TextField(blank=True)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="Empty: the site flagged or unflagged the hand itself, when the round's cards changed.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=["flag", "unflag", "notice", "rename", "disqualify", "replace"]),
                name="hand_review_action_known",
            )
        ]

    def __str__(self):
        return f"{self.get_action_display()} on hand #{self.hand_id}"


class PendingHandCheck(models.Model):
    """The cards an open round allows changed (a ban added or lifted, the lists re-synced, an accepted card
    withdrawn): its hands are still to be judged again, and flagged or unflagged (4.2a). Written in the
    transaction of the change, whatever the hands, and removed by the worker that judged them
    (submissions.services.rules_check), so a lost task is only late: the backstop finds the row."""

    round = models.OneToOneField("rounds.Round", on_delete=models.CASCADE, related_name="+")
    requested_at = models.DateTimeField()

    def __str__(self):
        return f"Hands of round {self.round_id} to judge again"


class HandsPreview(models.Model):
    """A moderator saw a round's hands before its deadline; from then on they may not play in it (§5)."""

    round = models.ForeignKey("rounds.Round", on_delete=models.CASCADE, related_name="hand_previews")
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    first_seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "moderator"], name="hands_preview_once_per_moderator"),
        ]

    def __str__(self):
        return (
            f"{self.moderator} saw the hands of round {self.round_id} at {self.first_seen_at:%Y-%m-%d %H:%M}"
        )


class DeadlineReminder(models.Model):
    """A deadline reminder sent to a player: the unique key makes "never twice" a database fact, even when two
    backstops run at once. A moved deadline is a new deadline, and gets its own reminders."""

    class Lead(models.TextChoices):
        DAY = "24h", "24 hours before"
        HOUR = "1h", "1 hour before"

    round = models.ForeignKey("rounds.Round", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    lead = models.CharField(max_length=4, choices=Lead.choices)
    deadline = models.DateTimeField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player", "lead", "deadline"], name="deadline_reminder_once"
            ),
            models.CheckConstraint(condition=models.Q(lead__in=["24h", "1h"]), name="deadline_reminder_lead"),
        ]

    def __str__(self):
        return f"{self.lead} reminder for round {self.round_id} to {self.player_id}"
