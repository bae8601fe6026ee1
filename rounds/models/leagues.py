"""Leagues and their rounds. A round's visible state past its deadline is derived from time."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


class League(models.Model):
    class State(models.TextChoices):
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=100, unique=True, help_text='For example "League 45".')
    number = models.PositiveIntegerField(
        null=True,
        blank=True,
        unique=True,
        help_text="Shown in round codes such as 45:01; taken from the name.",
    )
    rounds_planned = models.PositiveSmallIntegerField(
        default=4, help_text="A league is normally 4 rounds (5.1)."
    )
    moderators = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="moderated_leagues",
        help_text="Who manages this league's rounds. Empty: every site moderator.",
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.ACTIVE)
    followers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="followed_leagues",
        help_text="People told when a round opens here although they have no hand in the league yet.",
    )
    winners = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="leagues_won",
        help_text="Declared by a moderator (5.3, 5.3a); several when they are joint winners.",
    )
    winners_note = models.TextField(blank=True)
    winners_computed = models.BooleanField(
        default=False,
        help_text="The winners were computed from the standings (5.3, 5.3a), not declared by a moderator.",
    )
    tiebreak_rounds_allowed = models.PositiveSmallIntegerField(
        default=1,
        help_text="Rule 5.3a: how many tie-break rounds the players tied for first may play; still tied "
        "after them, they are joint winners.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=1), name="league_plans_at_least_one_round"
            ),
            models.CheckConstraint(condition=Q(state__in=["active", "finished"]), name="league_state_known"),
            models.CheckConstraint(
                condition=Q(tiebreak_rounds_allowed__lte=20), name="league_tiebreak_rounds_allowed_range"
            ),
        ]

    def __str__(self):
        return self.name


class RoundState(models.TextChoices):
    DRAFT = "draft", "Draft"
    OPEN = "open", "Open"
    REVEALED = "revealed", "Revealed"
    FINAL = "final", "Final"


class LandRule(models.TextChoices):
    """Rule 7.3. Any land rule brings the Land Rule Banned List into play."""

    NONE = "none", "No land rule"
    LR = "LR", "Land Rule (LR)"
    ELR = "ELR", "Extra Land Rule (ELR)"
    DLR = "DLR", "Draw Land Rule (DLR)"


class HandSizeMode(models.TextChoices):
    """Whether a hand has exactly the round's hand size or any number of cards from one up to it."""

    EXACTLY = "exactly", "Exactly N cards"
    UP_TO = "up_to", "Up to N cards"


class DeadlinePrecision(models.TextChoices):
    """How well a round's deadline is known. A round played here has an exact one; a round imported from the
    forum may have an approximate one (the post gave no year, which was inferred) or none at all, and then
    `deadline` only places the round among its league's rounds."""

    EXACT = "exact", "Exact"
    APPROXIMATE = "approximate", "Approximate"
    UNKNOWN = "unknown", "Unknown"


# Rule 7.1 tells of hands of one to seven cards; a moderator may go beyond (explicitly), never past this.
MAX_HAND_SIZE = 15
USUAL_MAX_HAND_SIZE = 7


class Round(models.Model):
    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=200, help_text='For example "5 Card Alphabetized".')
    hand_size = models.PositiveSmallIntegerField(default=5)
    hand_size_mode = models.CharField(
        max_length=8,
        choices=HandSizeMode.choices,
        default=HandSizeMode.EXACTLY,
        help_text="Exactly the hand size, or any number of cards from 1 up to it.",
    )
    land_rule = models.CharField(max_length=4, choices=LandRule.choices, default=LandRule.NONE)
    life_rule = models.BooleanField(default=False, help_text="Rule 7.5: the life rule variant is in use.")
    backbuild = models.BooleanField(
        default=False, help_text="Rule 7.6: backbuild against the specified hands."
    )
    backbuild_hands = models.TextField(
        blank=True, help_text="The specified hands for backbuild, as forum text."
    )
    sanctioned_format = models.CharField(
        max_length=20,
        blank=True,
        help_text="Rule 7.4: only cards from sets legal in this format. Blank: none.",
    )
    allowed_sets = models.JSONField(
        default=list, blank=True, help_text='Set codes a hand may draw from (e.g. ["ISD"]). Empty: any set.'
    )
    extra_banned = models.JSONField(
        default=list, blank=True, help_text="The round's additional banned cards."
    )
    unbanned = models.JSONField(
        default=list,
        blank=True,
        help_text="Cards lifted from the PHM and Land Rule Banned Lists for this round (3.3: "
        '"unless otherwise specified by the round rules").',
    )
    variant_order = models.JSONField(
        default=list,
        blank=True,
        help_text="Rule 7.2a: the order the round lists its variants in (keys). Empty: the usual order.",
    )
    decisions = models.JSONField(
        default=list,
        blank=True,
        help_text="Rule 7.2b: decisions each player makes with their hand: "
        '[{"key","label","kind","choices"?}].',
    )
    format_rule = models.TextField(blank=True, help_text="The round's own rule, in Markdown.")
    card_rules = models.JSONField(
        default=list,
        blank=True,
        help_text='Card filters a hand must satisfy: [{"query", "at_least"?, "at_most"?, "message"?}]; '
        "without counts every card must match (rounds.cardquery, rounds.card_rules).",
    )
    tiebreak = models.BooleanField(
        default=False,
        help_text="Rule 5.3a: an extra round for the players tied for first; not counted in the standings.",
    )
    eligible_players = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="+",
        help_text="Who may enter a tie-break round. Empty: anyone.",
    )
    bonus_rule = models.TextField(
        blank=True, help_text="Rule 7.7: how bonus League points are earned, if any."
    )
    commentary = models.TextField(blank=True, help_text="The moderator's notes for players, in Markdown.")
    counts_in_standings = models.BooleanField(
        default=True,
        help_text="Off for an archive-only round: shown on player and card pages, left out of the standings.",
    )
    imported_fingerprint = models.CharField(
        max_length=64,
        blank=True,
        db_index=True,
        editable=False,
        help_text="For a round imported from a forum post: a digest of its entries, so the same post is "
        "not imported twice. Empty for rounds played here.",
    )
    forum_code = models.CharField(
        max_length=20,
        blank=True,
        db_index=True,
        editable=False,
        help_text="For a round imported from a forum post: the code the forum gave it (32:02), the one "
        "people search for. Empty for rounds played here.",
    )
    deadline = models.DateTimeField()
    deadline_precision = models.CharField(
        max_length=12,
        choices=DeadlinePrecision.choices,
        default=DeadlinePrecision.EXACT,
        help_text="Approximate or unknown only for a round imported from the forum, revealed or final: its "
        "deadline is history, never a time anything waits for.",
    )
    state = models.CharField(max_length=10, choices=RoundState.choices, default=RoundState.DRAFT)
    # Taken when the round opens (rule 2.1a spirit): later edits of the global lists do not change it.
    banned_snapshot = models.JSONField(default=list, blank=True, editable=False)
    catalog_as_of = models.DateField(null=True, blank=True, editable=False)
    opened_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When the catalog's legalities are judged (rule 2.1a): the opening, or the moderator's last re-sync,
    # which takes today's banned lists and catalog together. Null: the opening.
    legal_as_of = models.DateTimeField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-deadline"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="round_number_unique_in_league"),
            models.CheckConstraint(
                condition=Q(hand_size__gte=1, hand_size__lte=MAX_HAND_SIZE), name="round_hand_size_1_to_15"
            ),
            models.CheckConstraint(
                condition=Q(hand_size_mode__in=HandSizeMode.values), name="round_hand_size_mode_known"
            ),
            models.CheckConstraint(condition=Q(state__in=RoundState.values), name="round_state_known"),
            models.CheckConstraint(condition=Q(land_rule__in=LandRule.values), name="round_land_rule_known"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_1"),
            models.CheckConstraint(
                condition=Q(deadline_precision__in=DeadlinePrecision.values),
                name="round_deadline_precision_known",
            ),
            # A deadline that is not known exactly is an archived round's: never one that is open or a draft,
            # whose deadline the reveal waits for.
            models.CheckConstraint(
                condition=Q(deadline_precision=DeadlinePrecision.EXACT)
                | (~Q(imported_fingerprint="") & Q(state__in=[RoundState.REVEALED, RoundState.FINAL])),
                name="round_inexact_deadline_only_when_archived",
            ),
        ]
        indexes = [models.Index(fields=["state", "deadline"])]

    def __str__(self):
        return f"{self.code} {self.title}"

    def get_absolute_url(self):
        return reverse("rounds:round-detail", args=[self.pk])

    @property
    def code(self):
        """How the forum names a round: league number and round number, e.g. 45:01. In a league without a
        number, a round imported from the forum keeps the code the forum gave it (32:02)."""
        if self.league.number is None:
            return self.forum_code or f"{self.league.name} #{self.number:02d}"
        return f"{self.league.number}:{self.number:02d}"

    @property
    def deadline_known(self):
        """Whether `deadline` is the round's real deadline (exactly, or about): not a placeholder."""
        return self.deadline_precision != DeadlinePrecision.UNKNOWN

    def state_at(self, now):
        """The state a visitor sees at `now`: an open round whose deadline has passed is revealed."""
        if self.state == RoundState.OPEN and self.deadline <= now:
            return RoundState.REVEALED
        return RoundState(self.state)

    @property
    def hand_size_text(self):
        """ "5 cards" or "up to 5 cards", as the rules summary and pages say it."""
        cards = f"{self.hand_size} card{'s' if self.hand_size != 1 else ''}"
        return f"up to {cards}" if self.hand_size_mode == HandSizeMode.UP_TO else cards

    def hand_size_allows(self, count, *, similar_hand=False):
        """Whether a hand of `count` cards has the round's size. A moderator's similar hand (rule 4.2a) may
        have had illegal cards removed: one card up to the hand size."""
        if similar_hand or self.hand_size_mode == HandSizeMode.UP_TO:
            return 1 <= count <= self.hand_size
        return count == self.hand_size

    def accepts_hands_at(self, now):
        return self.state_at(now) == RoundState.OPEN
