"""The daily digest: e-mails held for people who asked for one, sent together once a day at DIGEST_HOUR in
their time zone. Turning the digest off releases what is held at once (outbox.queue.release_held)."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from accounts.timezones import zone_or_utc

from . import rendering
from .models import Message
from .queue import queue


def last_digest_slot(now, zone_name):
    """The latest DIGEST_HOUR:00 in the person's zone at or before `now`."""
    local = now.astimezone(zone_or_utc(zone_name))
    slot = local.replace(hour=settings.DIGEST_HOUR, minute=0, second=0, microsecond=0)
    return slot if slot <= local else slot - timedelta(days=1)


def is_due(profile, now):
    slot = last_digest_slot(now, profile.time_zone)
    return profile.digest_sent_at is None or profile.digest_sent_at < slot


def waiting_recipients():
    return list(
        Message.objects.filter(state=Message.State.HELD, recipient__isnull=False)
        .values_list("recipient_id", flat=True)
        .distinct()
    )


def send_digests(now=None):
    """One digest for each person whose slot has come and who has held messages; returns how many. Safe to
    run twice at once: each person's profile row is locked while their digest is made."""
    now = now or timezone.now()
    sent = 0
    for user_id in waiting_recipients():
        with transaction.atomic():
            profile = (
                Profile.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
            )
            if profile is None or not is_due(profile, now):
                continue
            held = list(
                Message.objects.select_for_update(skip_locked=True)
                .filter(recipient_id=user_id, state=Message.State.HELD)
                .order_by("created_at", "pk")
            )
            if not held or not profile.user.email:
                continue
            digest = digest_message(profile.user, held)
            queue([digest])
            Message.objects.filter(pk__in=[message.pk for message in held]).update(
                state=Message.State.BUNDLED, digest=digest
            )
            profile.digest_sent_at = now
            profile.save(update_fields=["digest_sent_at"])
            sent += 1
    return sent


def digest_message(user, held):
    count = len(held)
    subject = f"[PHM] Your daily digest: {count} update{'s' if count != 1 else ''}"
    text, html = rendering.render_email(
        kind="digest",
        user=user,
        subject=subject,
        template="outbox/email/digest.txt",
        context={"messages": [(message.subject, main_text(message.body)) for message in held]},
    )
    return Message(
        kind="digest",
        recipient=user,
        to_address=user.email,
        subject=subject,
        body=text,
        html_body=html,
        secret=any(message.secret for message in held),
    )


def main_text(body):
    """A message's text without its footer (the digest has its own)."""
    return body.split(rendering.FOOTER_MARK, 1)[0].strip()
