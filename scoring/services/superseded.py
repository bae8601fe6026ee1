"""Results about a hand that a moderator replaced or disqualified after they were reported (rule 4.2a).

The old reports stay in each match's history, marked superseded (never deleted). A replaced hand is another
hand: its matches that had results "need a new result" — no result counts until someone reports again, and
finalization is refused without force while any is left. A disqualified hand's matches leave the table.
The players concerned are told in the same transaction.

Runs inside the review's transaction (submissions' signals), where the round row is locked shared and the hand
locked; it takes the round's tally row and then the matches, in the order every report takes them, so a
report racing the replacement either lands before it (and is superseded) or after it (and is the new result).
"""

from datetime import datetime

from django.contrib.auth.models import User
from django.utils import timezone

from audit.services import log_action
from submissions.models import Hand

from .. import notifications
from ..models import Challenge, Match, MatchReport, MatchStatus, RoundTally
from .tally import note_results_changed

REPLACED_NOTE = "Hand {number} was replaced by a similar hand (rule 4.2a) after this report."
DISQUALIFIED_NOTE = "Hand {number} was disqualified (rule 4.2a) after this report."


def supersede_results(
    *,
    round_id: int,
    hand_id: int,
    actor: User | None,
    disqualified: bool = False,
    now: datetime | None = None,
) -> list[Match]:
    """Supersede the results of the hand's matches; returns the matches that had any (after the change)."""
    tally = RoundTally.objects.select_for_update().filter(round_id=round_id).first()
    if tally is None:
        return []  # no match table yet: nothing was reported
    now = now or timezone.now()
    hand = Hand.objects.get(pk=hand_id)
    matches = list(
        (
            Match.objects.filter(round_id=round_id, hand_a_id=hand_id)
            | Match.objects.filter(round_id=round_id, hand_b_id=hand_id)
        )
        .select_for_update()
        .order_by("pk")
    )
    ids = [match.pk for match in matches]
    reported = set(
        MatchReport.objects.filter(match_id__in=ids, is_current=True).values_list("match_id", flat=True)
    )
    challenged = set(
        Challenge.objects.filter(match_id__in=ids, state=Challenge.State.OPEN).values_list(
            "match_id", flat=True
        )
    )
    affected = [
        match for match in matches if match.pk in reported or match.pk in challenged or match.has_decision
    ]
    if not affected:
        return []
    note = (DISQUALIFIED_NOTE if disqualified else REPLACED_NOTE).format(number=hand.number_label or hand.pk)
    affected_ids = [match.pk for match in affected]
    MatchReport.objects.filter(match_id__in=affected_ids, is_current=True).update(
        is_current=False, superseded_at=now, superseded_note=note
    )
    Challenge.objects.filter(match_id__in=affected_ids, state=Challenge.State.OPEN).update(
        state=Challenge.State.CLOSED, note=note, resolved_by=actor, resolved_at=now
    )
    decisions = {}
    for match in affected:
        if match.has_decision:
            decisions[match.pk] = f"{match.decided_points_a}-{match.decided_points_b}"
        match.decided_points_a = match.decided_points_b = None
        match.decided_by, match.decided_at = None, None
        match.decided_note = ""  # the decision and its note stay in the audit entry below
        match.points_a = match.points_b = None
        match.needs_new_result = not disqualified
        match.status = MatchStatus.UNREPORTED if disqualified else MatchStatus.NEEDS_RESULT
        match.updated_at = now
    Match.objects.bulk_update(
        affected,
        [
            "decided_points_a",
            "decided_points_b",
            "decided_by",
            "decided_at",
            "decided_note",
            "points_a",
            "points_b",
            "needs_new_result",
            "status",
            "updated_at",
        ],
    )
    note_results_changed(round_id)
    log_action(
        hand.round,
        "round.results_superseded",
        actor=actor,
        after={
            "hand": hand.number,
            "matches": affected_ids,
            "decisions_cleared": decisions,
            "needs_new_result": not disqualified,
        },
        note=note,
    )
    notifications.results_superseded(hand, affected_ids, disqualified=disqualified)
    return affected
