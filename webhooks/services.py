"""Webhooks of a league: adding and removing them (moderators of the league, audited), writing deliveries in
the transaction of the event that causes them, and sending them from workers with retries.

Posts go out through webhooks.transport: public addresses only, checked when connecting. What a moderator sees
of a failure is one of three phrases (see `failure_text`), the same for a closed port, a refused address, a
reset connection or a name that does not resolve, so the answers cannot map a network; the details go to the
server's log.

Delivery holds the delivery's row lock (FOR UPDATE SKIP LOCKED) while it POSTs, as outbox.services.deliver
does for mail: a retry and the backstop never both send it. A worker killed after the receiver accepted the
POST and before the commit sends it again: at least once, never lost (X-PHM-Delivery tells a repeat).
"""

import hashlib
import hmac
import logging
import time
from collections.abc import Iterable
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit

import requests
from celery import current_app
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import log_action
from outbox.services import MAX_RETRY_DELAY, retry_delay
from phm.errors import Conflict, Forbidden, NotFound
from phm.tasks import publish
from rounds.models import League, Round
from rounds.permissions import can_manage_league

from . import payloads, transport
from .models import Webhook, WebhookDelivery
from .validation import WebhookInputError, clean_events, clean_kind, clean_secret, clean_url

logger = logging.getLogger(__name__)

MAX_WEBHOOKS_PER_LEAGUE = 10
MAX_ERROR_LENGTH = 2000
DELIVERY_BATCH = 200
DELIVERY_TIME_BUDGET = 60  # seconds a backstop run may spend sending
USER_AGENT = "PHM-Moderator-Webhooks/1"
# Found by name: the task's module delivers through this one.
SEND_DELIVERY = "webhooks.send_delivery"
# Statuses worth another try: the receiver timed out, is rate limiting, or is failing on its side.
RETRY_STATUSES = {408, 429}
# What a delivery's error says (its `last_error`, on the page, in the API and the admin).
FAILED_TIMEOUT = "delivery failed (timeout)"
FAILED_REFUSED = "delivery failed (refused)"
SWITCHED_OFF = "The webhook is switched off."

__all__ = ["WebhookInputError"]


class WebhookNotFound(NotFound):
    pass


class WebhookForbidden(Forbidden):
    pass


class WebhookConflict(Conflict):
    pass


# Managing webhooks ------------------------------------------------------------------------------------------


def _require_moderator(actor, league):
    if not can_manage_league(actor, league):
        raise WebhookForbidden("Only a moderator of this league can manage its webhooks.")


def league_for(actor: User, league_id: int) -> League:
    """The league if the actor moderates it: WebhookNotFound for an unknown one, WebhookForbidden else."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise WebhookNotFound("No such league.")
    _require_moderator(actor, league)
    return league


def webhook_for(actor: User, webhook_id: int) -> Webhook:
    webhook = Webhook.objects.select_related("league").filter(pk=webhook_id).first()
    if webhook is None:
        raise WebhookNotFound("No such webhook.")
    _require_moderator(actor, webhook.league)
    return webhook


def _described(webhook):
    return {"webhook": webhook.pk, "kind": webhook.kind, "url": webhook.url_display, "events": webhook.events}


def create_webhook(
    *, actor: User, league: League, url: Any, kind: Any, events: Any, secret: Any = None
) -> tuple[Webhook, str]:
    """A new webhook of the league. Returns (webhook, secret): the secret in full, for this once only."""
    _require_moderator(actor, league)
    errors: dict[str, list[str]] = {}
    cleaned: dict[str, Any] = {}
    for name, clean, value in (
        ("url", clean_url, url),
        ("kind", clean_kind, kind),
        ("events", clean_events, events),
    ):
        try:
            cleaned[name] = clean(value)
        except WebhookInputError as error:
            errors.update(error.errors)
    if "kind" in cleaned:
        try:
            cleaned["secret"] = clean_secret(cleaned["kind"], secret)
        except WebhookInputError as error:
            errors.update(error.errors)
    if errors:
        raise WebhookInputError(errors)
    with transaction.atomic():
        League.objects.select_for_update().get(pk=league.pk)  # one count at a time
        existing = Webhook.objects.filter(league=league)
        if existing.count() >= MAX_WEBHOOKS_PER_LEAGUE:
            raise WebhookConflict(
                f"{league.name} already has {MAX_WEBHOOKS_PER_LEAGUE} webhooks; "
                "remove one before adding another."
            )
        if existing.filter(url=cleaned["url"]).exists():
            raise WebhookConflict(f"{league.name} already has a webhook with this URL.")
        webhook = Webhook.objects.create(league=league, created_by=actor, **cleaned)
        log_action(league, "league.webhook_added", actor=actor, after=_described(webhook))
    return webhook, webhook.secret


def delete_webhook(*, actor: User, webhook_id: int) -> None:
    """Remove a webhook and its deliveries (pending ones are never sent); audited on the league."""
    with transaction.atomic():
        webhook = webhook_for(actor, webhook_id)
        log_action(webhook.league, "league.webhook_removed", actor=actor, before=_described(webhook))
        webhook.delete()


def send_test(*, actor: User, webhook_id: int, now: datetime | None = None) -> WebhookDelivery:
    """Queue a harmless test message to the webhook; it is sent at once by a worker."""
    with transaction.atomic():
        webhook = webhook_for(actor, webhook_id)
        delivery = WebhookDelivery.objects.create(
            webhook=webhook, event="test", payload=payloads.build_test(webhook.kind, webhook.league, now)
        )
        send_after_commit([delivery.pk])
    return delivery


# Events -----------------------------------------------------------------------------------------------------


def queue_event(event: str, round_id: int, now: datetime | None = None) -> list[WebhookDelivery]:
    """One delivery per active webhook of the round's league subscribed to `event`, written in the caller's
    transaction (the change that causes it) and published to the workers after its commit. A league
    without webhooks costs two queries."""
    round_ = Round.objects.select_related("league").filter(pk=round_id).first()
    if round_ is None or round_.opened_at is None:
        # Never opened on this site: a past round imported from the forum's archive is history, not news.
        return []
    hooks = [
        hook
        for hook in Webhook.objects.filter(league_id=round_.league_id, active=True)
        if event in hook.events
    ]
    if not hooks:
        return []
    now = now or timezone.now()
    data = payloads.event_data(event, round_)
    bodies = {}
    deliveries = []
    for hook in hooks:
        if hook.kind not in bodies:
            bodies[hook.kind] = payloads.build(hook.kind, event, round_, data, now)
        deliveries.append(WebhookDelivery(webhook=hook, event=event, round=round_, payload=bodies[hook.kind]))
    WebhookDelivery.objects.bulk_create(deliveries)
    send_after_commit([delivery.pk for delivery in deliveries])
    return deliveries


def send_after_commit(delivery_ids: Iterable[int]) -> None:
    """One delivery task per row after the commit; if the broker is down the backstop sends them."""
    ids = list(delivery_ids)
    transaction.on_commit(lambda: _publish_deliveries(ids), robust=True)


def _publish_deliveries(delivery_ids: list[int]) -> None:
    send_delivery = current_app.tasks[SEND_DELIVERY]
    for delivery_id in delivery_ids:
        publish(send_delivery, delivery_id)


# Delivery ---------------------------------------------------------------------------------------------------


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """X-PHM-Signature: HMAC-SHA256 of "<timestamp>.<body>" with the webhook's secret, as hex."""
    message = f"{timestamp}.".encode() + body
    return "sha256=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def request_headers(delivery: WebhookDelivery, body: bytes, moment: datetime) -> dict[str, str]:
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-PHM-Event": delivery.event,
        "X-PHM-Delivery": str(delivery.pk),
    }
    if delivery.webhook.kind == Webhook.Kind.JSON:
        timestamp = str(int(moment.timestamp()))
        headers["X-PHM-Timestamp"] = timestamp
        headers["X-PHM-Signature"] = signature(delivery.webhook.secret, timestamp, body)
    return headers


def failure_text(status: int | None = None, *, timeout: bool = False) -> str:
    """The moderator's words for a failed attempt: "delivery failed (HTTP 503)", "… (timeout)" or
    "… (refused)"."""
    if status is not None:
        return f"delivery failed (HTTP {status})"
    return FAILED_TIMEOUT if timeout else FAILED_REFUSED


def _post(delivery, moment):
    body = delivery.payload.encode("utf-8")
    return transport.post(  # redirects are never followed: one could lead anywhere
        delivery.webhook.url,
        data=body,
        headers=request_headers(delivery, body, moment),
        timeout=settings.WEBHOOK_TIMEOUT,
    )


def retry_after(response: requests.Response, moment: datetime) -> float | None:
    """Seconds a 429 asks to wait (Retry-After: seconds or an HTTP date), at most an hour; None if absent."""
    value = (response.headers.get("Retry-After") or "").strip()
    if not value:
        return None
    if value.isdigit():
        return min(int(value), MAX_RETRY_DELAY)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return min(max((when - moment).total_seconds(), 0), MAX_RETRY_DELAY)


def deliver(delivery_id: int, *, now: datetime | None = None) -> str:
    """Try to POST one delivery now. Returns "sent", "retry", "failed" or "skipped" (already sent, given up,
    not due yet, or being sent by another worker this instant)."""
    moment = now or timezone.now()
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("webhook")
            .filter(pk=delivery_id, state=WebhookDelivery.State.PENDING, next_attempt_at__lte=moment)
            .first()
        )
        if delivery is None:
            return "skipped"
        if not delivery.webhook.active:
            return _finish(delivery, moment, "failed", error=SWITCHED_OFF)
        try:
            response = _post(delivery, moment)
        except (requests.RequestException, OSError) as error:
            # Every failure to connect is retried alike, a refused address too: state and attempts tell
            # nothing more than the words do.
            timeout = isinstance(error, requests.Timeout)
            detail = transport.describe(error)
            return _finish(delivery, moment, "retry", error=failure_text(timeout=timeout), detail=detail)
        status = response.status_code
        if 200 <= status < 300:
            return _finish(delivery, moment, "sent", status=status)
        detail = f"HTTP {status} {response.reason or ''}".strip()
        if status >= 500 or status in RETRY_STATUSES:
            wait = retry_after(response, moment) if status == 429 else None
            return _finish(
                delivery, moment, "retry", status=status, error=failure_text(status), detail=detail, wait=wait
            )
        if 300 <= status < 400:
            detail += " (a redirect, never followed)"
        return _finish(delivery, moment, "failed", status=status, error=failure_text(status), detail=detail)


def _finish(delivery, moment, outcome, *, status=None, error="", detail="", wait=None):
    """Record an attempt: `error` is what the moderator sees, `detail` (server's log only) what happened."""
    delivery.attempts += 1
    delivery.last_attempt_at = moment
    delivery.last_status_code = status
    delivery.last_error = error[:MAX_ERROR_LENGTH]
    if outcome == "sent":
        delivery.state, delivery.sent_at = WebhookDelivery.State.SENT, moment
    elif outcome == "retry" and delivery.attempts < settings.OUTBOX_MAX_ATTEMPTS:
        delay = retry_delay(delivery.attempts) if wait is None else wait
        delivery.next_attempt_at = moment + timedelta(seconds=delay)
        logger.warning(
            "Webhook delivery %s to %s not sent (attempt %s): %s",
            delivery.pk,
            _host(delivery),
            delivery.attempts,
            detail or error,
        )
    else:
        outcome = "failed"
        delivery.state = WebhookDelivery.State.FAILED
        logger.error(
            "Gave up on webhook delivery %s to %s after %s attempts: %s",
            delivery.pk,
            _host(delivery),
            delivery.attempts,
            detail or error,
        )
    delivery.save(
        update_fields=[
            "attempts",
            "last_attempt_at",
            "last_status_code",
            "last_error",
            "state",
            "sent_at",
            "next_attempt_at",
        ]
    )
    return outcome


def _host(delivery):
    """The receiver's host, for the log: never the whole URL (a Discord URL's path is its token)."""
    return urlsplit(delivery.webhook.url).hostname or "?"


def due_delivery_ids(now: datetime | None = None, limit: int = DELIVERY_BATCH) -> list[int]:
    return list(
        WebhookDelivery.objects.filter(
            state=WebhookDelivery.State.PENDING, next_attempt_at__lte=now or timezone.now()
        )
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def deliver_due(
    now: datetime | None = None, time_budget: float = DELIVERY_TIME_BUDGET, batch: int = DELIVERY_BATCH
) -> dict[str, int]:
    """Send what is due until the time is up. Unlike mail, one receiver that is down says nothing about the
    others: a failure does not stop the run; a delivery left to retry is not due again within it."""
    counts = {"sent": 0, "retry": 0, "failed": 0, "skipped": 0}
    started = time.monotonic()
    while True:
        due = due_delivery_ids(now, limit=batch)
        for delivery_id in due:
            counts[deliver(delivery_id, now=now)] += 1
            if time.monotonic() - started > time_budget:
                return counts
        if len(due) < batch:
            return counts
