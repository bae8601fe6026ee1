"""What the moderators ruled in a round and the bonus they awarded in it, as the results post lists them:
results set, challenges upheld or rejected (each with its note), and the bonus League points that count.

A ruling is a decision a moderator made on the site: a match's result set (`match.result_set`) or a challenge
resolved. The results an archive import wrote for a whole forum table are decisions too, but nobody ruled
them: a decided match is a ruling only when its audit trail says a moderator set it or upheld a challenge
(the latest of those two made the decision that stands). Three queries, whatever the size of the round.
"""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from audit.models import AuditEntry
from rounds.models import Round
from submissions.models import Hand

from .models import BonusAward, Challenge, Match
from .services.table import in_table

SET, UPHELD, REJECTED = "set", "upheld", "rejected"
_DECIDING_ACTIONS = ("match.result_set", "challenge.upheld")


@dataclass(frozen=True)
class Ruling:
    """One decision of a moderator about a match of the round."""

    match: Match  # with its hands and their players
    kind: str  # SET, UPHELD or REJECTED
    note: str  # the moderator's note
    at: datetime
    by_a_player: bool  # decided by a moderator with a hand in the round (allowed only when nobody else could)
    result: tuple[int, int] | None = None  # (points a, points b): the result it set, while it stands
    challenge: Challenge | None = None  # the challenge it answered (with its challenger and reason)


def round_rulings(round_: Round) -> list[Ruling]:
    """The round's rulings on matches in its table, match by match in table order, each match's in the order
    they were made (two queries)."""
    decisions = AuditEntry.objects.filter(
        content_type__app_label=Match._meta.app_label,
        content_type__model=Match._meta.model_name,
        object_id=OuterRef("pk"),
        action__in=_DECIDING_ACTIONS,
    ).order_by("-created_at", "-pk")
    # An upheld challenge's entry names the challenge (`after.challenge`); a result set names none.
    decisions = decisions.annotate(challenge_id=Cast(KeyTextTransform("challenge", "after"), IntegerField()))
    decided = list(
        Match.objects.filter(in_table(), round_id=round_.pk, decided_points_a__isnull=False)
        .annotate(
            decision_action=Subquery(decisions.values("action")[:1]),
            decision_challenge=Subquery(decisions.values("challenge_id")[:1]),
            by_a_player=_plays("round_id", "decided_by_id"),
        )
        .filter(decision_action__isnull=False)
        .select_related("hand_a__player__profile", "hand_b__player__profile")
    )
    resolved = (
        Challenge.objects.filter(in_table("match__"), match__round_id=round_.pk, state__in=[UPHELD, REJECTED])
        .annotate(by_a_player=_plays("match__round_id", "resolved_by_id"))
        .select_related(
            "challenger__profile", "match__hand_a__player__profile", "match__hand_b__player__profile"
        )
    )
    standing = {}  # match id -> the challenge id whose upholding made the decision that stands
    rulings = []
    for match in decided:
        if match.decision_action == "challenge.upheld":
            standing[match.pk] = match.decision_challenge
            continue
        result = (match.decided_points_a, match.decided_points_b)
        rulings.append(Ruling(match, SET, match.decided_note, match.decided_at, match.by_a_player, result))
    decided_results = {match.pk: (match.decided_points_a, match.decided_points_b) for match in decided}
    for challenge in resolved:
        match = challenge.match
        stands = challenge.state == UPHELD and standing.get(match.pk) == challenge.pk
        rulings.append(
            Ruling(
                match,
                challenge.state,
                challenge.note,
                challenge.resolved_at or challenge.created_at,
                challenge.by_a_player,
                decided_results.get(match.pk) if stands else None,
                challenge,
            )
        )
    return sorted(rulings, key=lambda ruling: (*_numbers(ruling.match), ruling.at))


def _numbers(match):
    return (match.hand_a.number or 0, match.hand_b.number or 0)


def _plays(round_field: str, user_field: str) -> Exists:
    """For a query of matches or challenges: whether the person in `user_field` has a hand in the round."""
    return Exists(Hand.objects.filter(round_id=OuterRef(round_field), player_id=OuterRef(user_field)))


def counted_bonus_awards(round_: Round) -> QuerySet[BonusAward]:
    """The round's bonus awards that count, in the order they were awarded, with their players (one query).
    A withdrawn award counts nowhere, so the results post leaves it out, as the standings do."""
    return (
        BonusAward.objects.counted()
        .filter(round_id=round_.pk)
        .select_related("player__profile")
        .order_by("created_at", "pk")
    )
