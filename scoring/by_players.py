"""What a moderator who played in a round decided in it — allowed only where nobody else can manage the league
(rounds.permissions) — for the pages that show it publicly: the results page's "Decided by a moderator who
played" box, the match page and the round page ("decided by a moderator who played this round")."""

from django.db.models import Exists, OuterRef

from audit.selectors import audit_trail
from submissions.models import Hand, HandReview
from submissions.selectors import by_a_player_of_the_round

from .models import BonusAward, Challenge, Match

ROUND_DECISIONS = ("round.finalized", "round.reopened")


def _plays(round_id, field):
    """Whether the user in `field` of the filtered row has a hand in the round."""
    return Exists(Hand.objects.filter(round_id=round_id, player_id=OuterRef(field)))


def _reviews(**filters):
    return (
        HandReview.objects.filter(by_a_player_of_the_round(), **filters)
        .select_related("hand", "moderator__profile")
        .order_by("created_at", "pk")
    )


def _round_decisions(round_):
    """The round's finalizing and reopening by a moderator with a hand in it: audit entries, oldest first."""
    return (
        audit_trail(round_)
        .filter(action__in=ROUND_DECISIONS)
        .filter(_plays(round_.pk, "actor_id"))
        .select_related("actor__profile")
        .order_by("created_at", "id")
    )


def decisions_by_players(round_):
    """Everything of the kind in the round: results such a moderator set, challenges they resolved, bonuses
    they awarded (to themselves or to anyone) and bonuses they withdrew, their reviews of its hands (flag,
    notice, rename, disqualify, replace) and their finalizing or reopening it. Six queries; `any` says whether
    there is anything."""
    found = {
        "matches": list(
            Match.objects.filter(round=round_, decided_points_a__isnull=False)
            .filter(_plays(round_.pk, "decided_by_id"))
            .select_related("hand_a", "hand_b", "decided_by__profile")
        ),
        "challenges": list(
            Challenge.objects.filter(match__round=round_, resolved_by__isnull=False)
            .filter(_plays(round_.pk, "resolved_by_id"))
            .select_related("match__hand_a", "match__hand_b", "resolved_by__profile")
        ),
        "bonuses": list(
            BonusAward.objects.counted()
            .filter(round=round_)
            .filter(_plays(round_.pk, "awarded_by_id"))
            .select_related("player__profile", "awarded_by__profile")
        ),
        "withdrawals": list(
            BonusAward.objects.filter(round=round_, withdrawn_by__isnull=False)
            .filter(_plays(round_.pk, "withdrawn_by_id"))
            .select_related("player__profile", "withdrawn_by__profile")
            .order_by("withdrawn_at", "pk")
        ),
        "reviews": list(_reviews(hand__round_id=round_.pk)),
        "round": list(_round_decisions(round_)),
    }
    return {**found, "any": any(found.values())}


def match_decisions_by_players(match):
    """For the match page: the reviews of its two hands by a moderator who played the round ({hand id:
    [HandReview]}) and the round's finalizing or reopening by one; two queries."""
    by_hand = {}
    for review in _reviews(hand_id__in=[match.hand_a_id, match.hand_b_id]):
        by_hand.setdefault(review.hand_id, []).append(review)
    return {"reviews": by_hand, "round": list(_round_decisions(match.round))}
