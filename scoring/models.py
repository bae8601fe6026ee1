"""Matches between revealed hands, what players reported about them, challenges, and the round's tally.

A match's status and points are derived from its reports, the moderator's decision, open challenges and
whether
the round is final (`scoring.status.derive`); they are stored on the match so lists and tallies are one query.
"""

import operator
from functools import reduce

from django.conf import settings
from django.db import models
from django.db.models import Q

from .outcomes import LEGAL_PAIRS


def _legal_pair(prefix=""):
    """Check constraint: `<prefix>points_a/b` are one of the five possible results (outcomes.LEGAL_PAIRS)."""
    a, b = f"{prefix}points_a", f"{prefix}points_b"
    pairs = [Q(**{a: points_a, b: points_b}) for points_a, points_b in sorted(LEGAL_PAIRS)]
    return reduce(operator.or_, pairs)


def _legal_pair_or_none(prefix):
    """The same, or both empty (no result yet)."""
    return Q(**{f"{prefix}points_a__isnull": True, f"{prefix}points_b__isnull": True}) | _legal_pair(prefix)


class MatchStatus(models.TextChoices):
    UNREPORTED = "unreported", "Unreported"
    REPORTED = "reported", "Reported by one side"
    AGREED = "agreed", "Agreed"
    DISPUTED = "disputed", "Disputed"
    SET = "set", "Set by the moderator"
    CHALLENGED = "challenged", "Challenged"
    FINAL = "final", "Final"
    # Rule 4.2a: one of its hands was replaced after results existed; the old reports are superseded.
    NEEDS_RESULT = "needs_result", "Needs a new result"


class Match(models.Model):
    """One theoretical match between two hands of a round; `a` is the lower entry number (docs/api.md)."""

    # No single-column indexes on round and hand_a: the (round, status) index and the unique pair cover them,
    # and every index costs time when a 1,000-hand round inserts its 499,500 matches.
    # Not foreign-key constraints: three per-row checks made 1.5 million of them for such a round, more than
    # half of its build. The database checks the same, and more (both hands are hands of the match's round),
    # once per statement with triggers (migration 0005): a match's hands exist and are locked as a foreign key
    # would lock them, its round and hands never change, a hand with matches cannot be deleted.
    round = models.ForeignKey(
        "rounds.Round", on_delete=models.CASCADE, related_name="matches", db_index=False, db_constraint=False
    )
    hand_a = models.ForeignKey(
        "submissions.Hand", on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    hand_b = models.ForeignKey(
        "submissions.Hand", on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    points_a = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The result as it stands.")
    points_b = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=MatchStatus.choices, default=MatchStatus.UNREPORTED)
    # The moderator's decision (a set result or an upheld challenge) outranks the players' reports.
    decided_points_a = models.PositiveSmallIntegerField(null=True, blank=True)
    decided_points_b = models.PositiveSmallIntegerField(null=True, blank=True)
    # Indexed only where set (Meta.indexes): a new table's 499,500 empty values would each cost an entry.
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    decided_note = models.TextField(blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    needs_new_result = models.BooleanField(
        default=False,
        help_text="A hand of this match was replaced (4.2a) after results existed: until someone reports "
        "again, it has no result and the round cannot be finalized without force.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round_id", "hand_a_id", "hand_b_id"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["hand_a", "hand_b"], name="match_once_per_pair"),
            models.CheckConstraint(condition=~Q(hand_a=models.F("hand_b")), name="match_two_hands"),
            # 0-0 is no result a report can give: only finalization sets it, for undetermined matches (6.3b).
            models.CheckConstraint(
                condition=_legal_pair_or_none("") | Q(points_a=0, points_b=0), name="match_points_legal"
            ),
            models.CheckConstraint(condition=_legal_pair_or_none("decided_"), name="match_decision_legal"),
            models.CheckConstraint(condition=Q(status__in=MatchStatus.values), name="match_status_known"),
        ]
        indexes = [
            models.Index(fields=["round", "status"]),
            models.Index(
                fields=["decided_by"], condition=Q(decided_by__isnull=False), name="match_decided_by_set"
            ),
        ]

    def __str__(self):
        return f"Match {self.hand_a_id} v {self.hand_b_id} in round {self.round_id}"

    @property
    def has_decision(self):
        return self.decided_points_a is not None

    def played_by(self, user_id):
        """Whether `user_id` owns one of the two hands (needs hand_a and hand_b loaded)."""
        return user_id is not None and user_id in (self.hand_a.player_id, self.hand_b.player_id)


class MatchReport(models.Model):
    """What one person says a match's result is. A player's report on their own match counts (rule 6.3);
    anyone
    else's is a verification or proposal (6.3a), shown but not binding. Never edited: a change is a new
    version."""

    class Side(models.TextChoices):
        A = "a", "Player of hand a"
        B = "b", "Player of hand b"
        OTHER = "other", "Another player (verification)"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    side = models.CharField(max_length=5, choices=Side.choices)
    points_a = models.PositiveSmallIntegerField()
    points_b = models.PositiveSmallIntegerField()
    comment = models.TextField(blank=True)
    version = models.PositiveSmallIntegerField(default=1)
    is_current = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Kept in the history, never deleted: a report about a hand that a moderator replaced or disqualified.
    superseded_at = models.DateTimeField(null=True, blank=True)
    superseded_note = models.TextField(blank=True)

    class Meta:
        ordering = ["match_id", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "reporter", "version"], name="match_report_version_unique"
            ),
            models.UniqueConstraint(
                fields=["match", "reporter"], condition=Q(is_current=True), name="match_report_one_current"
            ),
            models.CheckConstraint(condition=_legal_pair(), name="match_report_points_legal"),
            models.CheckConstraint(condition=Q(side__in=["a", "b", "other"]), name="match_report_side_known"),
        ]

    def __str__(self):
        return f"{self.points_a}-{self.points_b} on match {self.match_id} by {self.reporter_id}"


class Challenge(models.Model):
    """Rule 6.3c: a player may challenge a result until the round is final (here: the league's players and its
    moderators, scoring.services.access.challenge_refusal); the moderator upholds or rejects."""

    class State(models.TextChoices):
        OPEN = "open", "Open"
        UPHELD = "upheld", "Upheld"
        REJECTED = "rejected", "Rejected"
        CLOSED = "closed", "Closed when the round was finalized"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    note = models.TextField(blank=True, help_text="The moderator's answer.")
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "challenger"],
                condition=Q(state="open"),
                name="challenge_one_open_per_person",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["open", "upheld", "rejected", "closed"]), name="challenge_state_known"
            ),
        ]

    def __str__(self):
        return f"Challenge #{self.pk} of match {self.match_id} ({self.state})"


class RoundTally(models.Model):
    """The round's scoring bookkeeping: exists once its match table is built. `revision` counts result
    changes;
    the stored `HandTally` rows are current when `tallied_revision` equals it (otherwise pages compute)."""

    round = models.OneToOneField("rounds.Round", on_delete=models.CASCADE, related_name="tally")
    revision = models.PositiveIntegerField(default=0)
    tallied_revision = models.PositiveIntegerField(null=True, blank=True)
    tallied_at = models.DateTimeField(null=True, blank=True)
    built_at = models.DateTimeField(auto_now_add=True, help_text="When the match table was built.")
    finalized_at = models.DateTimeField(null=True, blank=True)
    finalized_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    final_figures = models.JSONField(
        null=True,
        blank=True,
        help_text=(
            "Each player's [rank, points, League points] as the round was last made final, by login name: "
            "what a finalization after a reopening compares with to tell players what changed. Empty until "
            "the round is first final."
        ),
    )

    class Meta:
        verbose_name_plural = "round tallies"

    def __str__(self):
        return f"Tally of round {self.round_id} (revision {self.revision})"

    @property
    def is_current(self):
        return self.tallied_revision == self.revision


class HandTally(models.Model):
    """A hand's line of the stored round table (rule 6.1)."""

    round = models.ForeignKey("rounds.Round", on_delete=models.CASCADE, related_name="hand_tallies")
    hand = models.OneToOneField("submissions.Hand", on_delete=models.CASCADE, related_name="tally")
    points = models.PositiveIntegerField()
    opponents = models.PositiveIntegerField()
    league_points = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()

    class Meta:
        ordering = ["round_id", "rank", "hand_id"]

    def __str__(self):
        return f"Hand {self.hand_id}: {self.points} points, {self.league_points} League points"


class BonusAwardQuerySet(models.QuerySet):
    def counted(self):
        """The awards that count: a withdrawn award stays on record but counts nowhere."""
        return self.filter(withdrawn_at__isnull=True)


class BonusAward(models.Model):
    """Rules 6.2 and 7.7: League points a moderator awards a player in a round, with the reason.

    A mistaken award is withdrawn, not deleted (nor offset by a negative award, which the rules do not know):
    it keeps who withdrew it, when and why, and stops counting (`BonusAward.objects.counted()`)."""

    round = models.ForeignKey("rounds.Round", on_delete=models.CASCADE, related_name="bonus_awards")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bonus_awards"
    )
    points = models.IntegerField(help_text="League points earned (6.2, 7.7a): always positive.")
    reason = models.TextField()
    awarded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    withdrawal_reason = models.TextField(blank=True, default="")

    objects = BonusAwardQuerySet.as_manager()

    class Meta:
        ordering = ["round_id", "created_at", "pk"]
        constraints = [
            # Rules 6.2 and 7.7a know earned bonus points only, no penalties.
            models.CheckConstraint(condition=Q(points__gt=0), name="bonus_positive"),
            # A withdrawal always says when, by whom and why; an award in force has none of it.
            models.CheckConstraint(
                condition=(
                    Q(withdrawn_at__isnull=True, withdrawn_by__isnull=True, withdrawal_reason="")
                    | (Q(withdrawn_at__isnull=False, withdrawn_by__isnull=False) & ~Q(withdrawal_reason=""))
                ),
                name="bonus_withdrawal_complete",
            ),
        ]

    def __str__(self):
        return f"{self.points:+d} League points for {self.player_id} in round {self.round_id}"

    @property
    def withdrawn(self):
        return self.withdrawn_at is not None

    @property
    def self_awarded(self):
        """A moderator's bonus to themselves: allowed only to a league's sole moderator, and shown."""
        return self.awarded_by_id == self.player_id
