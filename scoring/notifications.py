"""E-mails about results: a dispute opened, a challenge made, a challenge answered. Queued in the outbox
inside the transaction that makes the change (call these there); workers send them after the commit."""

from django.urls import reverse

from outbox import services as outbox
from phm.links import site_url

from .models import Challenge, Match


def _send(kind, subject, template, context, users):
    recipients = {user.pk: user for user in users}.values()  # one message per person, even in two roles
    round_ = context["round"]
    outbox.queue(
        outbox.email(kind=kind, user=user, subject=subject, template=template, context=context, round_=round_)
        for user in recipients
    )


def _match(match_id):
    return Match.objects.select_related("round__league", "hand_a__player", "hand_b__player").get(pk=match_id)


def _context(match, **extra):
    return {
        "match": match,
        "round": match.round,
        "url": site_url(reverse("scoring:match", args=[match.pk])),
        **extra,
    }


def _subject(match, what):
    return f"[PHM] {match.round.code} match {match.hand_a.number:02d} v {match.hand_b.number:02d}: {what}"


def dispute_opened(match_id):
    match = _match(match_id)
    players = [match.hand_a.player, match.hand_b.player]
    _send(
        "match.dispute",
        _subject(match, "results differ"),
        "scoring/email/dispute.txt",
        _context(match),
        players,
    )


def challenge_opened(challenge_id):
    challenge = Challenge.objects.select_related("challenger").get(pk=challenge_id)
    match = _match(challenge.match_id)
    players = [match.hand_a.player, match.hand_b.player]
    context = _context(match, challenge=challenge)
    _send(
        "match.challenge",
        _subject(match, "result challenged"),
        "scoring/email/challenge_opened.txt",
        context,
        players,
    )


def challenge_resolved(challenge_id):
    challenge = Challenge.objects.select_related("challenger").get(pk=challenge_id)
    match = _match(challenge.match_id)
    people = [match.hand_a.player, match.hand_b.player, challenge.challenger]
    context = _context(match, challenge=challenge)
    subject = _subject(match, f"challenge {challenge.get_state_display().lower()}")
    _send("match.challenge_resolved", subject, "scoring/email/challenge_resolved.txt", context, people)
