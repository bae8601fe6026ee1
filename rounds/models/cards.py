"""The card catalog: every Magic card, its faces, sets and printings, and where the data came from.

Rows are written in bulk by `rounds.catalog.loader` (the shipped snapshot on migrate, `import_cards` later);
name lookups go through the in-memory index of `rounds.catalog.resolve`, which the loader invalidates.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


class CatalogVersion(models.Model):
    """One load of card data; the newest row is what "catalog as of DATE" refers to."""

    source = models.CharField(
        max_length=300, help_text="File or URL the cards were read from, and its format."
    )
    as_of = models.DateField(help_text="Date of the data: cards printed after it may be missing.")
    loaded_at = models.DateTimeField(auto_now_add=True)
    cards_added = models.PositiveIntegerField(default=0)
    cards_changed = models.PositiveIntegerField(default=0)
    card_count = models.PositiveIntegerField(default=0, help_text="Cards in the catalog after this load.")

    class Meta:
        ordering = ["-loaded_at", "-id"]
        get_latest_by = ["loaded_at", "id"]

    def __str__(self):
        return f"{self.source} (as of {self.as_of})"


class CardSet(models.Model):
    code = models.CharField(max_length=10, unique=True, help_text="Set code in capitals, e.g. LEA, DGM.")
    name = models.CharField(max_length=200, blank=True, help_text="Blank when the source gave only the code.")
    release_date = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["release_date", "code"]
        constraints = [
            models.CheckConstraint(condition=~Q(code=""), name="card_set_code_not_empty"),
        ]

    def __str__(self):
        return f"{self.name} ({self.code})" if self.name else self.code


class DataQuality(models.TextChoices):
    FULL = "full", "Complete record"
    PARTIAL_TEXT = "partial+text", "Partial record with Oracle text"
    PARTIAL = "partial", "No Oracle text"
    NAME_ONLY = "name_only", "Name only"


class Legality(models.TextChoices):
    LEGAL = "legal", "Legal"
    RESTRICTED = "restricted", "Restricted"
    BANNED = "banned", "Banned"
    NOT_LEGAL = "not_legal", "Not legal"


class Card(models.Model):
    """One Oracle card. `name` is the name players write; `oracle_name` joins every face with ` // `."""

    oracle_name = models.CharField(max_length=255, unique=True)
    name = models.CharField(
        max_length=255,
        db_index=True,
        help_text="As players write it: `A // B` for split and aftermath cards, the front face otherwise.",
    )
    normalized_name = models.CharField(max_length=255, db_index=True, help_text="Lookup key of `name`.")
    slug = models.SlugField(max_length=220, unique=True)
    layout = models.CharField(max_length=30, blank=True, help_text="Blank when the source gave none.")
    type_line = models.CharField(max_length=255, blank=True)
    mana_cost = models.CharField(max_length=100, blank=True)
    mana_value = models.FloatField(null=True, blank=True)
    oracle_text = models.TextField(blank=True)
    legalities = models.JSONField(
        default=dict, blank=True, help_text='Format key → "legal", "restricted", "banned" or "not_legal".'
    )
    first_printed = models.DateField(null=True, blank=True)
    paper = models.BooleanField(default=True, help_text="False for cards that exist only in digital games.")
    data_quality = models.CharField(max_length=12, choices=DataQuality.choices, default=DataQuality.FULL)
    content_hash = models.CharField(
        max_length=40, help_text="Fingerprint of the imported record, to skip no-op updates."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=~Q(name="") & ~Q(oracle_name=""), name="card_has_a_name"),
            models.CheckConstraint(
                condition=Q(data_quality__in=DataQuality.values), name="card_data_quality_known"
            ),
            models.CheckConstraint(
                condition=Q(mana_value__isnull=True) | Q(mana_value__gte=0),
                name="card_mana_value_not_negative",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("rounds:card-detail", kwargs={"slug": self.slug})

    def legality(self, format_key):
        return self.legalities.get(format_key, Legality.NOT_LEGAL)

    @property
    def mana_value_display(self):
        """`3`, not `3.0`; half points of Un-cards stay `0.5`; unknown is None."""
        if self.mana_value is None:
            return None
        return int(self.mana_value) if float(self.mana_value).is_integer() else self.mana_value

    @property
    def is_multi_face(self):
        return " // " in self.oracle_name


class CardFace(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="faces")
    position = models.PositiveSmallIntegerField(help_text="0 for the front face / left half.")
    name = models.CharField(max_length=255)
    normalized_name = models.CharField(max_length=255, db_index=True)

    class Meta:
        ordering = ["card", "position"]
        constraints = [
            models.UniqueConstraint(fields=["card", "position"], name="card_face_position_unique"),
            models.CheckConstraint(condition=~Q(name=""), name="card_face_has_a_name"),
        ]

    def __str__(self):
        return self.name


class Printing(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printings")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="printings")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["card", "card_set"], name="printing_card_set_unique"),
        ]

    def __str__(self):
        return f"{self.card} in {self.card_set.code}"


class AcceptedCard(models.Model):
    """A moderator's decision that a name the catalog lacks (a brand-new card) is a card, for one round."""

    round = models.ForeignKey("rounds.Round", on_delete=models.CASCADE, related_name="accepted_cards")
    name = models.CharField(max_length=255)
    normalized_name = models.CharField(max_length=255)
    reason = models.TextField(help_text="Why the card is accepted, e.g. where it was spoiled or released.")
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="accepted_cards"
    )
    accepted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "name"]
        constraints = [
            models.UniqueConstraint(fields=["round", "normalized_name"], name="accepted_card_once_per_round"),
            models.CheckConstraint(
                condition=~Q(name="") & ~Q(reason=""), name="accepted_card_named_with_reason"
            ),
        ]

    def __str__(self):
        return f"{self.name} (accepted for {self.round})"


class CardLegalityChange(models.Model):
    """One change of a card's legality in a format, as a catalog load learnt it (rule 2.1a).

    `before` is blank when the card was new to the catalog. `effective_at` is when the load wrote it (the
    version's `loaded_at`): a round is judged by the catalog as it stood when the round opened, so a change
    counts for the rounds opened after the catalog learnt it, whatever date the data itself carries."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="legality_changes")
    format = models.CharField(max_length=30)
    before = models.CharField(
        max_length=12, blank=True, help_text="Blank: the card was not in the catalog before this load."
    )
    after = models.CharField(max_length=12, choices=Legality.choices)
    effective_at = models.DateTimeField(db_index=True)
    catalog_version = models.ForeignKey(
        CatalogVersion, on_delete=models.CASCADE, related_name="legality_changes"
    )

    class Meta:
        ordering = ["card", "effective_at", "id"]
        indexes = [models.Index(fields=["card", "effective_at"], name="legality_change_card_when")]
        constraints = [
            models.CheckConstraint(condition=~Q(format=""), name="legality_change_has_a_format"),
            models.CheckConstraint(
                condition=Q(after__in=Legality.values)
                & (Q(before="") | Q(before__in=Legality.values))
                & ~Q(before=models.F("after")),
                name="legality_change_changes_something",
            ),
        ]

    def __str__(self):
        return f"{self.card}: {self.format} {self.before or 'new'} → {self.after}"
