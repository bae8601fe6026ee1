"""What results add to the rounds app's round page (rounds.page_extensions): the viewer's own matches, once
the hands are revealed (before the deadline a round has no matches, and nothing of the hands may show)."""

from dataclasses import dataclass

from django.db.models import Q

from rounds.page_extensions import ROUND_PAGE, provides
from submissions.selectors import is_revealed

from .models import Match, MatchReport
from .services.table import in_table


@dataclass
class ViewerMatch:
    """One match of the viewer's hand, seen from their side (the round page's "My matches")."""

    match: object
    mine: object  # the viewer's hand
    opponent: object  # the other hand, with its player and profile
    my_points: int | None
    their_points: int | None
    reported: bool  # the viewer has a current report on it


def viewer_matches(round_id, user):
    """The matches of `user`'s hand(s) in the round, in the order of the opponents' numbers; two queries
    whatever the number of hands (none for an anonymous viewer)."""
    if not user.is_authenticated:
        return []
    matches = list(
        Match.objects.filter(in_table(), round_id=round_id)
        .filter(Q(hand_a__player=user) | Q(hand_b__player=user))
        .select_related("hand_a__player__profile", "hand_b__player__profile")
        .order_by("hand_a__number", "hand_b__number")
    )
    if not matches:
        return []
    reported = set(
        MatchReport.objects.filter(
            match__in=[match.pk for match in matches], reporter=user, is_current=True
        ).values_list("match_id", flat=True)
    )
    rows = []
    for match in matches:
        mine_is_a = match.hand_a.player_id == user.pk
        rows.append(
            ViewerMatch(
                match=match,
                mine=match.hand_a if mine_is_a else match.hand_b,
                opponent=match.hand_b if mine_is_a else match.hand_a,
                my_points=match.points_a if mine_is_a else match.points_b,
                their_points=match.points_b if mine_is_a else match.points_a,
                reported=match.pk in reported,
            )
        )
    rows.sort(key=lambda row: (row.mine.number or 0, row.opponent.number or 0))
    return rows


@provides(ROUND_PAGE)
def my_matches_on_the_round_page(request, round_, now, context):
    if not is_revealed(round_, now) or not request.user.is_authenticated:
        return {"my_matches": []}
    return {"my_matches": viewer_matches(round_.pk, request.user)}
