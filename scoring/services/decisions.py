"""The moderator's decisions: a match's result set outright (it outranks the reports), and challenges (rule
6.3c) opened by the league's players and moderators and upheld or rejected by the moderator."""

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from .. import moderator_notices, notifications
from ..models import Challenge, Match
from .access import _require_moderator, challenge_refusal, own_match_refusal, visible_match
from .changes import _after_change, _clean_result, _clean_text, _lock_for_change, _snapshot, refresh_match
from .errors import ScoringConflict, ScoringForbidden, ScoringInputError, ScoringNotFound


def set_result(
    *,
    actor: User,
    match_id: int | str,
    points_a: int | str,
    points_b: int | str,
    note: str = "",
    now: datetime | None = None,
) -> Match:
    """The moderator decides a match (docs/api.md: PUT /api/matches/{id}/result/); it outranks the reports."""
    match = visible_match(match_id, now)
    _require_moderator(actor, match.round)
    refusal = own_match_refusal(actor, match)
    if refusal:
        raise ScoringForbidden(refusal)
    points_a, points_b = _clean_result(points_a, points_b)
    note = _clean_text(note, "note")
    with transaction.atomic():
        match = _lock_for_change(match_id, now)
        before = _snapshot(match)
        _decide(match, actor, points_a, points_b, note)
        refresh_match(match)
        _after_change(match, "match.result_set", actor, before, note=note)
        notifications.result_set(match.pk)
    return match


def _decide(match, actor, points_a, points_b, note):
    match.decided_points_a, match.decided_points_b = points_a, points_b
    match.decided_by, match.decided_note, match.decided_at = actor, note, timezone.now()
    match.save(
        update_fields=["decided_points_a", "decided_points_b", "decided_by", "decided_note", "decided_at"]
    )


# Challenges -------------------------------------------------------------------------------------------------


def challenge_match(
    *, challenger: User, match_id: int | str, reason: str, now: datetime | None = None
) -> Challenge:
    """Rule 6.3c: the league's players and moderators may challenge a match's result, with a reason, until
    the round is final (access.challenge_refusal says who may)."""
    refusal = challenge_refusal(challenger, visible_match(match_id, now))
    if refusal:
        raise ScoringForbidden(refusal)
    reason = _clean_text(reason, "reason", required=True, what="the reason for the challenge")
    with transaction.atomic():
        match = _lock_for_change(match_id, now)
        if match.points_a is None and match.status != "disputed":
            raise ScoringConflict("Nothing to challenge yet: no result has been reported for this match.")
        if Challenge.objects.filter(match=match, challenger=challenger, state=Challenge.State.OPEN).exists():
            raise ScoringConflict(
                "You already have an open challenge on this match; the moderator will answer it."
            )
        before = _snapshot(match)
        challenge = Challenge.objects.create(match=match, challenger=challenger, reason=reason)
        refresh_match(match)
        _after_change(
            match, "match.challenged", challenger, before, note=reason, extra={"challenge": challenge.pk}
        )
        notifications.challenge_opened(challenge.pk)
        moderator_notices.challenge_opened(challenge.pk)
    return challenge


DECISIONS = ("upheld", "rejected")


def resolve_challenge(
    *,
    actor: User,
    challenge_id: int | str,
    decision: str,
    points_a: int | str | None = None,
    points_b: int | str | None = None,
    note: str = "",
    now: datetime | None = None,
) -> Challenge:
    """The moderator upholds a challenge with a new result, or rejects it with a note; everyone involved is
    told."""
    challenge = Challenge.objects.select_related("match").filter(pk=challenge_id).first()
    if challenge is None:
        raise ScoringNotFound("No such challenge.")
    match = visible_match(challenge.match_id, now)
    _require_moderator(actor, match.round)
    refusal = own_match_refusal(actor, match)
    if refusal:
        raise ScoringForbidden(refusal)
    if decision not in DECISIONS:
        raise ScoringInputError({"decision": ['Choose "upheld" or "rejected".']})
    if decision == "upheld":
        if points_a is None or points_b is None:
            raise ScoringInputError(
                {"points_a": ["Upholding a challenge sets a new result: give points_a and points_b."]}
            )
        points_a, points_b = _clean_result(points_a, points_b)
    note = _clean_text(note, "note", required=decision == "rejected", what="a note saying why")
    with transaction.atomic():
        match = _lock_for_change(challenge.match_id, now)
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
        if challenge.state != Challenge.State.OPEN:
            raise ScoringConflict(f"This challenge was already {challenge.get_state_display().lower()}.")
        before = _snapshot(match)
        challenge.state = decision
        challenge.note, challenge.resolved_by, challenge.resolved_at = note, actor, timezone.now()
        challenge.save(update_fields=["state", "note", "resolved_by", "resolved_at"])
        if decision == "upheld":
            _decide(match, actor, points_a, points_b, note)
        refresh_match(match)
        _after_change(
            match, f"challenge.{decision}", actor, before, note=note, extra={"challenge": challenge.pk}
        )
        notifications.challenge_resolved(challenge_id)
    return challenge
