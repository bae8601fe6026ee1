"""A player's entry in a round. Its versions, commitments and reviews come with hand submission (step 4)."""

from django.conf import settings
from django.db import models


class Hand(models.Model):
    round = models.ForeignKey("rounds.Round", on_delete=models.PROTECT, related_name="hands")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hands")
    created_at = models.DateTimeField(
        auto_now_add=True, help_text="First submission: hands are numbered by it."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            # One current hand per player per round (DESIGN.md §2, rule 4.2).
            models.UniqueConstraint(fields=["round", "player"], name="hand_one_per_player_per_round"),
        ]

    def __str__(self):
        return f"Hand #{self.pk} in round {self.round_id}"
