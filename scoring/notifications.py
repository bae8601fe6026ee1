"""E-mails about results: a dispute opened, a challenge made, a challenge answered. Sent after the commit; the
same facts are on the match page, so a lost e-mail loses nothing."""

from django.core.mail import send_mass_mail
from django.template.loader import render_to_string
from django.urls import reverse

from phm.links import site_url

from .models import Challenge, Match


def _send(subject, template, context, users):
    addresses = sorted({user.email for user in users if user.email})
    if not addresses:
        return
    body = render_to_string(template, context)
    send_mass_mail([(subject, body, None, [address]) for address in addresses])


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
    _send(_subject(match, "results differ"), "scoring/email/dispute.txt", _context(match), players)


def challenge_opened(challenge_id):
    challenge = Challenge.objects.select_related("challenger").get(pk=challenge_id)
    match = _match(challenge.match_id)
    players = [match.hand_a.player, match.hand_b.player]
    context = _context(match, challenge=challenge)
    _send(_subject(match, "result challenged"), "scoring/email/challenge_opened.txt", context, players)


def challenge_resolved(challenge_id):
    challenge = Challenge.objects.select_related("challenger").get(pk=challenge_id)
    match = _match(challenge.match_id)
    people = [match.hand_a.player, match.hand_b.player, challenge.challenger]
    context = _context(match, challenge=challenge)
    subject = _subject(match, f"challenge {challenge.get_state_display().lower()}")
    _send(subject, "scoring/email/challenge_resolved.txt", context, people)
