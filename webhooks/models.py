"""Outgoing league webhooks: a league's moderators point a Discord or a generic JSON
webhook at the league, and every round that opens, reveals its hands or becomes final is posted there.

Each post is first a `WebhookDelivery` row, written in the same transaction as the change that causes it
(like outbox.models.Message), holding the exact bytes that are sent; workers deliver it with retries."""

from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

# What a webhook may subscribe to, in the order a round goes through them.
EVENTS = ["round_opened", "hands_revealed", "results_final"]
MASK_FROM = 16  # characters of a URL's last path segment from which it is shown shortened
EVENT_LABELS = {
    "round_opened": "Round opened",
    "hands_revealed": "Hands posted",
    "results_final": "Results final",
    "test": "Test message",
}


class Webhook(models.Model):
    class Kind(models.TextChoices):
        DISCORD = "discord", "Discord"
        JSON = "json", "Generic JSON (signed)"

    league = models.ForeignKey("rounds.League", on_delete=models.CASCADE, related_name="webhooks")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.DISCORD)
    url = models.CharField(max_length=2000, help_text="Where the messages are POSTed (https).")
    events = models.JSONField(default=list, help_text=f"A subset of {EVENTS}.")
    secret = models.CharField(
        max_length=200,
        blank=True,
        help_text="HMAC-SHA256 key of a JSON webhook's X-PHM-Signature header. Shown once, at creation.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    active = models.BooleanField(default=True, help_text="Switched off: nothing is sent to it.")

    class Meta:
        ordering = ["league_id", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["discord", "json"]), name="webhook_kind_known"),
            models.CheckConstraint(condition=~Q(url=""), name="webhook_has_url"),
            # A JSON webhook is always signed.
            models.CheckConstraint(
                condition=Q(kind="discord") | ~Q(secret=""), name="webhook_json_has_secret"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} webhook #{self.pk} of {self.league_id}"

    @property
    def event_labels(self):
        return [EVENT_LABELS.get(event, event) for event in self.events]

    @property
    def secret_hint(self):
        """What is shown of the secret after its creation: its last four characters."""
        return f"…{self.secret[-4:]}" if self.secret else ""

    @property
    def url_display(self):
        """The URL without what may be a credential: a Discord webhook's URL ends with its token (anyone who
        has it can post to the channel), so a long last path segment is shortened and a query left out."""
        parts = urlsplit(self.url)
        head, _, last = parts.path.rpartition("/")
        if len(last) >= MASK_FROM:
            last = f"{last[:4]}…{last[-4:]}"
        shown = (
            f"{parts.scheme}://{parts.netloc}{head}/{last}"
            if parts.path
            else f"{parts.scheme}://{parts.netloc}"
        )
        return shown + ("?…" if parts.query else "")


class WebhookDelivery(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=20)
    round = models.ForeignKey(
        "rounds.Round", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    payload = models.TextField(help_text="The exact body that is POSTed (UTF-8 JSON).")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status_code = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The HTTP status of the last attempt; empty when none came back."
    )
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["pending", "sent", "failed"]), name="webhook_delivery_known_state"
            ),
            models.CheckConstraint(
                condition=Q(event__in=[*EVENTS, "test"]), name="webhook_delivery_known_event"
            ),
            models.CheckConstraint(
                condition=Q(state="sent", sent_at__isnull=False)
                | (~Q(state="sent") & Q(sent_at__isnull=True)),
                name="webhook_delivery_sent_when_sent",
            ),
            models.CheckConstraint(
                condition=Q(last_status_code__isnull=True)
                | Q(last_status_code__gte=100, last_status_code__lte=599),
                name="webhook_delivery_status_code_http",
            ),
        ]
        indexes = [
            # The backstop's question: what is due? Only pending rows, a small part of the table.
            models.Index(
                fields=["next_attempt_at"], condition=Q(state="pending"), name="webhook_delivery_due"
            ),
            # A webhook's last deliveries, for the moderator's page.
            models.Index(fields=["webhook", "-created_at"], name="webhook_delivery_latest"),
        ]

    def __str__(self):
        return f"{self.event} to webhook #{self.webhook_id} ({self.state})"

    @property
    def event_label(self):
        return EVENT_LABELS.get(self.event, self.event)
