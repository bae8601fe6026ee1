"""The steps every result change shares (reports, decisions, challenges): clean the input, lock the
round (shared; finalization locks it exclusively, so nothing slips past it), then the round's tally row and
the match row, re-derive the match's status from everything known about it, mark the tally stale and audit
the change."""

from audit.services import log_action
from rounds.locks import lock_round_shared
from rounds.models import RoundState
from submissions.models import HandStatus

from .. import moderator_notices, notifications
from ..models import Challenge, Match, MatchReport, MatchStatus, RoundTally
from ..outcomes import OPPONENT_POINTS, POINTS_VALUES, is_legal_pair
from ..status import derive
from .access import visible_match
from .errors import ScoringConflict, ScoringInputError
from .tally import note_results_changed

MAX_TEXT = 2000


def _final_message(round_):
    return f"Round {round_.code} is final: its results can no longer change (a moderator can reopen it)."


def _clean_result(points_a, points_b):
    try:
        points_a, points_b = int(points_a), int(points_b)
    except (TypeError, ValueError):
        raise ScoringInputError({"points_a": ["Give both sides' points as numbers, e.g. 4 and 1."]}) from None
    if not is_legal_pair(points_a, points_b):
        allowed = ", ".join(f"{p}-{OPPONENT_POINTS[p]}" for p in POINTS_VALUES)
        raise ScoringInputError(
            {"points_a": [f"{points_a}-{points_b} is not a possible match result; it is one of {allowed}."]}
        )
    return points_a, points_b


def _clean_text(text, field_name, *, required=False, what="a comment"):
    text = str(text or "").strip()
    if required and not text:
        raise ScoringInputError({field_name: [f"Give {what}."]})
    if len(text) > MAX_TEXT:
        raise ScoringInputError({field_name: [f"Keep it under {MAX_TEXT} characters."]})
    return text


def _lock_for_change(match_id, now=None):
    """Lock the match's round (shared), the round's tally row and the match, in that order; refuse if the
    round
    is final or the match out of the table. Every change bumps the tally's revision, so taking its row before
    any
    match makes concurrent changes in one round queue up instead of deadlocking over match rows."""
    match = visible_match(match_id, now)
    round_ = lock_round_shared(match.round_id)
    if round_.state == RoundState.FINAL:
        raise ScoringConflict(_final_message(match.round))
    RoundTally.objects.select_for_update().filter(round_id=match.round_id).first()
    locked = Match.objects.select_for_update().get(pk=match.pk)
    for name in ("round", "hand_a", "hand_b"):
        setattr(locked, name, getattr(match, name))
    if HandStatus.DISQUALIFIED in (match.hand_a.status, match.hand_b.status):
        raise ScoringConflict("One of these hands was disqualified: the match is out of the table.")
    return locked


def refresh_match(match: Match, *, final: bool = False) -> str:
    """Re-derive the match's status and standing result from its current reports, decision and challenges."""
    sides = {
        side: (points_a, points_b)
        for side, points_a, points_b in MatchReport.objects.filter(
            match=match, is_current=True, side__in=["a", "b"]
        ).values_list("side", "points_a", "points_b")
    }
    standing = derive(
        side_a=sides.get("a"),
        side_b=sides.get("b"),
        decision=(match.decided_points_a, match.decided_points_b) if match.has_decision else None,
        challenged=Challenge.objects.filter(match=match, state=Challenge.State.OPEN).exists(),
        final=final,
        needs_result=match.needs_new_result,
    )
    before = (match.status, match.points_a, match.points_b, match.needs_new_result)
    match.status, match.points_a, match.points_b = standing.status, standing.points_a, standing.points_b
    # A new report or decision is the new result the match needed (4.2a): the flag goes with it.
    match.needs_new_result = standing.status == MatchStatus.NEEDS_RESULT
    if (match.status, match.points_a, match.points_b, match.needs_new_result) != before:
        match.save(update_fields=["status", "points_a", "points_b", "needs_new_result", "updated_at"])
    return before[0]


def _snapshot(match):
    return {"status": match.status, "points_a": match.points_a, "points_b": match.points_b}


def _after_change(match, action, actor, before, *, note="", extra=None):
    previous_status = before["status"]
    note_results_changed(match.round_id)
    log_action(
        match, action, actor=actor, before=before, after={**_snapshot(match), **(extra or {})}, note=note
    )
    if match.status == "disputed" and previous_status != "disputed":
        notifications.dispute_opened(match.pk)
        moderator_notices.dispute_opened(match.pk, actor=actor)
