"""Compose messages inside the transaction that causes them (outbox.queue saves them and announces them after
the commit; `queue` and `send_after_commit` are that module's); deliver them from workers, once per attempt.

Delivery holds the message's row lock (FOR UPDATE SKIP LOCKED) while it talks to the mail server, so two tasks
for the same message — a retry and the backstop, or a re-delivered broker message — never both send it: the
second finds the row locked or already sent and does nothing. The one case that can repeat a message is a
worker killed after the server accepted it and before the commit: mail is at least once, never lost.

Every delivery task is one DeliveryRun: one connection, and a time budget well inside the task's time
limits (the connection itself ends at the budget's deadline: outbox.smtp). A run stops at the first failure
that is the server's rather than the message's (the rest would only wait for the same timeout), or when its
time is up; what it did not try stays pending and due, for the next run.
"""

import contextlib
import logging
import smtplib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone

from audit.services import log_action
from phm.links import site_url
from rounds.models import League, Round

from . import deferred, kinds, preferences, rendering, unread
from .models import Message, Notification
from .queue import queue, send_after_commit

logger = logging.getLogger(__name__)

MAX_RETRY_DELAY = 3600  # seconds: an hour between attempts at most
MAX_ERROR_LENGTH = 2000
DELIVERY_BATCH = 500
# Seconds one delivery task may spend sending: well inside its soft time limit (CELERY_TASK_SOFT_TIME_LIMIT).
DELIVERY_TIME_BUDGET = 60
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"


# Composing --------------------------------------------------------------------------------------------------


def email(
    *,
    kind: str,
    user: User,
    subject: str,
    template: str,
    context: dict[str, Any],
    round_: Round | None = None,
    league: League | None = None,
    secret: bool = False,
    action_label: str | None = None,
) -> Message | None:
    """An unsaved e-mail to `user`, its body rendered now (what was true at the change) in their time zone, as
    plain text with an HTML alternative; or None when they have no address or turned this kind's e-mail off.
    Held for the daily digest when they asked for one and the kind may wait. `secret`: the body tells what
    only its recipient may know before the deadline."""
    if not user.email or not preferences.wants(user, kind, "email"):
        return None
    if round_ is not None and league is None:
        league = round_.league
    text, html = rendering.render_email(
        kind=kind, user=user, subject=subject, template=template, context=context, action_label=action_label
    )
    held = preferences.digest_for(user, kind)
    return Message(
        kind=kind,
        recipient=user,
        to_address=user.email,
        subject=subject[: Message._meta.get_field("subject").max_length],
        body=text,
        html_body=html,
        round=round_,
        league=league,
        secret=secret,
        state=Message.State.HELD if held else Message.State.PENDING,
    )


def site_notification(
    *, kind: str, user: User, text: str, url: str, round_: Round | None = None, league: League | None = None
) -> Notification | None:
    """An unsaved notification for the bell, or None when `user` turned this kind off on the site."""
    if not preferences.wants(user, kind, "site"):
        return None
    if round_ is not None and league is None:
        league = round_.league
    return Notification(
        kind=kind,
        recipient=user,
        text=text[: Notification._meta.get_field("text").max_length],
        url=url,
        round=round_,
        league=league,
    )


def notify(
    users: Iterable[User],
    *,
    kind: str,
    build: Callable[[User], "Notice | None"],
    round_: Round | None = None,
    league: League | None = None,
    secret: bool = False,
) -> tuple[list[Message], list[Notification]]:
    """Tell each of `users` (once each, even when they come twice) about one event, by the site and by e-mail
    as each of them chose, in the caller's transaction. `build(user)` returns a Notice for that person."""
    messages: list[Message | None] = []
    notifications: list[Notification | None] = []
    for user in {user.pk: user for user in users}.values():
        notice = build(user)
        if notice is None:
            continue
        notifications.append(
            site_notification(
                kind=kind, user=user, text=notice.text, url=notice.path, round_=round_, league=league
            )
        )
        messages.append(
            email(
                kind=kind,
                user=user,
                subject=notice.subject,
                template=notice.template,
                context={**notice.context, "url": site_url(notice.path)},
                round_=round_,
                league=league,
                secret=secret,
                action_label=notice.action_label,
            )
        )
    saved = [item for item in notifications if item is not None]
    if saved:
        Notification.objects.bulk_create(saved)
        unread.forget([item.recipient_id for item in saved])
    return queue(messages), saved


@dataclass
class Notice:
    """What one person is told: the bell's line and link (a path), the e-mail's subject, template and context
    (`url` is added: the absolute link), and the label of the e-mail's button."""

    text: str
    path: str
    subject: str
    template: str
    context: dict = field(default_factory=dict)
    action_label: str = "Open on the site"


# Delivery ---------------------------------------------------------------------------------------------------


def retry_delay(attempts: int) -> int:
    """Seconds before the next attempt after `attempts` failed ones: OUTBOX_RETRY_DELAY, doubling, ≤ 1 h."""
    return min(settings.OUTBOX_RETRY_DELAY * 2 ** max(attempts - 1, 0), MAX_RETRY_DELAY)


def is_permanent(error: BaseException) -> bool:
    """Errors that no retry can cure: the server refused the recipients or the message itself (5xx), or the
    row a deferred body is rendered from is gone."""
    if isinstance(error, deferred.SourceGone):
        return True
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    return isinstance(error, smtplib.SMTPDataError) and error.smtp_code >= 500


def deliver(
    message_id: int, *, connection: BaseEmailBackend | None = None, now: datetime | None = None
) -> str:
    """Try to send one message now. Returns "sent", "retry", "failed" or "skipped" (already sent, given up,
    not due yet, or being sent by another worker this instant)."""
    return _attempt(message_id, connection=connection, now=now)[0]


def _attempt(message_id, *, connection, now):
    """deliver(), and the error of a failed attempt."""
    with transaction.atomic():
        message = (
            Message.objects.select_for_update(skip_locked=True)
            .filter(pk=message_id, state=Message.State.PENDING, next_attempt_at__lte=now or timezone.now())
            .first()
        )
        if message is None:
            return "skipped", None
        saved_fields = ["state", "sent_at", "attempts", "last_attempt_at"]
        try:
            if deferred.is_deferred(message):
                deferred.render(message)  # kept with the delivery: what was sent is what the row says
                saved_fields += ["body", "html_body"]
            _send(message, connection)
        except Exception as error:  # any failure leaves the message pending, with what went wrong
            return _record_failure(message, error), error
        message.state, message.sent_at = Message.State.SENT, timezone.now()
        message.attempts += 1
        message.last_attempt_at = message.sent_at
        message.save(update_fields=saved_fields)
        return "sent", None


def _send(message, connection):
    headers = {"X-PHM-Message": str(message.pk)}
    if message.recipient_id and kinds.kind(message.kind):
        # RFC 8058: the mail client may POST to this address to unsubscribe in one click.
        headers["List-Unsubscribe"] = f"<{rendering.unsubscribe_url(message.recipient_id, message.kind)}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    if connection is None:
        connection = get_connection(fail_silently=False)
    elif getattr(connection, "one_connection_per_run", False):
        connection.open()  # kept open for the run's next messages (a no-op once open)
    mail = EmailMultiAlternatives(
        subject=message.subject,
        body=message.body,
        to=[message.to_address],
        connection=connection,
        headers=headers,
    )
    if message.html_body:
        mail.attach_alternative(message.html_body, "text/html")
    mail.send(fail_silently=False)


def _record_failure(message, error):
    moment = timezone.now()
    message.attempts += 1
    message.last_attempt_at = moment
    message.last_error = f"{type(error).__name__}: {error}"[:MAX_ERROR_LENGTH]
    if is_permanent(error) or message.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
        message.state = Message.State.FAILED
        outcome = "failed"
        logger.error("Gave up on message %s after %s attempts: %s", message.pk, message.attempts, error)
    else:
        message.next_attempt_at = moment + timedelta(seconds=retry_delay(message.attempts))
        outcome = "retry"
        logger.warning("Message %s not sent (attempt %s): %s", message.pk, message.attempts, error)
    message.save(update_fields=["attempts", "last_attempt_at", "last_error", "state", "next_attempt_at"])
    return outcome


def due_message_ids(now: datetime | None = None, limit: int = DELIVERY_BATCH) -> list[int]:
    return list(
        Message.objects.filter(state=Message.State.PENDING, next_attempt_at__lte=now or timezone.now())
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def server_failure(error: BaseException | None) -> bool:
    """Whether a failed attempt says the mail server (not this message) is the problem: a connection refused,
    timed out or dropped, a failed greeting or login. smtplib's errors are OSErrors; of those, a refused
    recipient, sender or message is the message's own."""
    message_refused = (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError)
    return isinstance(error, OSError) and not isinstance(error, message_refused)


def mail_connection(deadline: float) -> BaseEmailBackend:
    """A connection to the configured backend for one run; Django's SMTP backend (with the same settings) ends
    at `deadline` (outbox.smtp)."""
    if settings.EMAIL_BACKEND == SMTP_BACKEND:
        return get_connection("outbox.smtp.EmailBackend", fail_silently=False, deadline=deadline)
    return get_connection(fail_silently=False)


class DeliveryRun:
    """The messages one task sends over one connection, within `time_budget` seconds. `deliver(id)` returns
    the outcome, or "left" once the run has stopped (`stopped`: "time" or "server") without trying it."""

    def __init__(self, *, now=None, time_budget=DELIVERY_TIME_BUDGET):
        self.now = now
        self.deadline = time.monotonic() + time_budget
        self.counts = {"sent": 0, "retry": 0, "failed": 0, "skipped": 0}
        self.stopped = None
        self._connection = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if self._connection is not None:
            with contextlib.suppress(Exception):  # what was sent is recorded; a failed QUIT changes nothing
                self._connection.close()

    def deliver(self, message_id: int) -> str:
        if self.stopped is None and time.monotonic() >= self.deadline:
            self.stopped = "time"
        if self.stopped:
            return "left"
        if self._connection is None:
            self._connection = mail_connection(self.deadline)
        outcome, error = _attempt(message_id, connection=self._connection, now=self.now)
        self.counts[outcome] += 1
        if server_failure(error):
            self.stopped = "server"
        return outcome


def deliver_bundle(
    message_ids: list[int], *, now: datetime | None = None, time_budget: float = DELIVERY_TIME_BUDGET
) -> DeliveryRun:
    """Send the given messages in order, as one run; returns the run (its outcomes are in deliver()'s)."""
    with DeliveryRun(now=now, time_budget=time_budget) as run:
        run.outcomes = [run.deliver(message_id) for message_id in message_ids]
    return run


def deliver_due(
    now: datetime | None = None, time_budget: float = DELIVERY_TIME_BUDGET, batch: int = DELIVERY_BATCH
) -> dict[str, int]:
    """Send what is due, batch after batch, as one run. Stops at the first failure of the server (it is
    probably down: the rest would only wait for the same timeout), when the time is up, or when a batch was
    not full (nothing more is due)."""
    with DeliveryRun(now=now, time_budget=time_budget) as run:
        while True:
            due = due_message_ids(now, limit=batch)
            for message_id in due:
                run.deliver(message_id)
                if run.stopped:
                    return run.counts
            if len(due) < batch:
                return run.counts


# Moderators -------------------------------------------------------------------------------------------------


def retry_now(messages: Iterable[Message], actor: User) -> list[int]:
    """Send failed or waiting messages again at once, with a fresh set of attempts; audited."""
    retried = []
    with transaction.atomic():
        for message in (
            Message.objects.select_for_update()
            .filter(pk__in=[message.pk for message in messages])
            .exclude(state=Message.State.SENT)
        ):
            before = {"state": message.state, "attempts": message.attempts}
            message.state, message.attempts, message.next_attempt_at = (
                Message.State.PENDING,
                0,
                timezone.now(),
            )
            message.save(update_fields=["state", "attempts", "next_attempt_at"])
            log_action(message, "mail.retried", actor=actor, before=before, after={"state": message.state})
            retried.append(message.pk)
        send_after_commit(retried)
    return retried
