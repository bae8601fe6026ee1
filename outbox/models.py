"""The outbox: everything sent to people is first a row, written in the same transaction as the
change that causes it, then delivered by workers with retries. A change that commits is never without its
message, and a message is never sent for a change that rolled back."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Message(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        HELD = "held", "Held for the daily digest"
        BUNDLED = "bundled", "Sent in a digest"

    kind = models.CharField(max_length=50, help_text='What the message is about, e.g. "hand.receipt".')
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    to_address = models.EmailField(max_length=254)
    subject = models.CharField(max_length=255)
    body = models.TextField()
    # The HTML alternative of `body` (empty: plain text only). A database default too: submissions insert
    # receipts with their own SQL.
    html_body = models.TextField(blank=True, default="", db_default="")
    # A message whose body is rendered when it is sent (outbox.deferred): the id of the row it is rendered
    # from, e.g. a receipt's hand version. Its body stays empty until then, so the request that queues it
    # renders nothing.
    source_id = models.BigIntegerField(null=True, blank=True)
    # For moderators' view of undelivered mail, and to keep it secret where it must be.
    league = models.ForeignKey(
        "rounds.League", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    round = models.ForeignKey(
        "rounds.Round", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    secret = models.BooleanField(
        default=False,
        help_text="The body tells a hand's secrets: only its recipient (and administrators) may read it.",
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    digest = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="bundled",
        help_text="The digest e-mail that carried this message (state bundled).",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["pending", "sent", "failed", "held", "bundled"]),
                name="outbox_message_known_state",
            ),
            models.CheckConstraint(
                condition=Q(state="sent", sent_at__isnull=False)
                | (~Q(state="sent") & Q(sent_at__isnull=True)),
                name="outbox_message_sent_when_sent",
            ),
        ]
        indexes = [
            # The backstop's question: what is due? Only pending rows, a small part of the table.
            models.Index(fields=["next_attempt_at"], condition=Q(state="pending"), name="outbox_message_due"),
            # The digest's question: whose messages are waiting?
            models.Index(
                fields=["recipient", "created_at"], condition=Q(state="held"), name="outbox_message_held"
            ),
        ]

    def __str__(self):
        return f"{self.kind} #{self.pk} ({self.state})"


class Notification(models.Model):
    """A notification on the site (the bell): one line of text and a link to the thing itself."""

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=50)
    text = models.CharField(max_length=500)
    url = models.CharField(max_length=500, help_text="A path on this site.")
    league = models.ForeignKey(
        "rounds.League", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    round = models.ForeignKey(
        "rounds.Round", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["recipient", "-created_at"], name="outbox_notification_list"),
            # The bell's count: a person's unread ones.
            models.Index(
                fields=["recipient"], condition=Q(read_at__isnull=True), name="outbox_notification_unread"
            ),
        ]

    def __str__(self):
        return f"{self.kind} for {self.recipient_id}: {self.text[:40]}"
