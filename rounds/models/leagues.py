"""Leagues and their rounds. A round's visible state past its deadline is derived from time (DESIGN.md §3)."""

from django.db import models
from django.db.models import Q


class League(models.Model):
    name = models.CharField(max_length=100, unique=True, help_text='For example "League 45".')
    rounds_planned = models.PositiveSmallIntegerField(default=4)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=1), name="league_plans_at_least_one_round"
            ),
        ]

    def __str__(self):
        return self.name


class RoundState(models.TextChoices):
    DRAFT = "draft", "Draft"
    OPEN = "open", "Open"
    REVEALED = "revealed", "Revealed"
    FINAL = "final", "Final"


class Round(models.Model):
    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=200)
    hand_size = models.PositiveSmallIntegerField()
    deadline = models.DateTimeField()
    state = models.CharField(max_length=10, choices=RoundState.choices, default=RoundState.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-deadline"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="round_number_unique_in_league"),
            models.CheckConstraint(
                condition=Q(hand_size__gte=1, hand_size__lte=7), name="round_hand_size_1_to_7"
            ),
            models.CheckConstraint(condition=Q(state__in=RoundState.values), name="round_state_known"),
        ]
        indexes = [models.Index(fields=["state", "deadline"])]

    def __str__(self):
        return f"{self.league} round {self.number}: {self.title}"

    def state_at(self, now):
        """The state a visitor sees at `now`: an open round whose deadline has passed is revealed."""
        if self.state == RoundState.OPEN and self.deadline <= now:
            return RoundState.REVEALED
        return RoundState(self.state)
