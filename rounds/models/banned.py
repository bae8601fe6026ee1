"""The PHM Banned List and the Land Rule Banned List, kept as data with a history of every change.

Entries hold the card name as the rules text prints it (not a foreign key): the lists are seeded by a data
migration that runs before the catalog is loaded, and a list must survive a catalog refresh untouched.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class BanCategory(models.TextChoices):
    ACCELERATION = "acceleration", "Acceleration"
    DISRUPTION = "disruption", "Disruption"
    LANDS = "lands", "Lands"
    WIN_CONDITIONS = "win_conditions", "Win Conditions"


class BannedList(models.Model):
    PHM = "phm"
    LAND_RULE = "land-rule"

    key = models.SlugField(max_length=30, unique=True, help_text='"phm" or "land-rule".')
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "key"]

    def __str__(self):
        return self.name


class BannedCard(models.Model):
    banned_list = models.ForeignKey(BannedList, on_delete=models.CASCADE, related_name="entries")
    card_name = models.CharField(max_length=255, help_text="The card's name as players write it.")
    normalized_name = models.CharField(max_length=255, editable=False)
    category = models.CharField(max_length=20, choices=BanCategory.choices)
    position = models.PositiveSmallIntegerField(default=0, help_text="Order within its category.")

    class Meta:
        ordering = ["banned_list", "category", "position", "card_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["banned_list", "normalized_name"], name="banned_card_once_per_list"
            ),
            models.CheckConstraint(
                condition=Q(category__in=BanCategory.values), name="banned_card_category_known"
            ),
            models.CheckConstraint(condition=~Q(card_name=""), name="banned_card_has_a_name"),
        ]

    def __str__(self):
        return f"{self.card_name} ({self.get_category_display()})"


class BannedListChange(models.Model):
    """Audit trail: who added, removed or re-categorised which card on which list, and when."""

    class Action(models.TextChoices):
        ADDED = "added", "Added"
        REMOVED = "removed", "Removed"
        CHANGED = "changed", "Changed"

    banned_list = models.ForeignKey(BannedList, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=10, choices=Action.choices)
    card_name = models.CharField(max_length=255)
    category_before = models.CharField(max_length=20, choices=BanCategory.choices, blank=True)
    category_after = models.CharField(max_length=20, choices=BanCategory.choices, blank=True)
    name_before = models.CharField(max_length=255, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="banned_list_changes"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-changed_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=["added", "removed", "changed"]),
                name="banned_list_change_action_known",
            ),
        ]

    def __str__(self):
        return f"{self.get_action_display()} {self.card_name} on {self.banned_list}"
