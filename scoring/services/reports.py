"""Reporting results (rule 6.3) and verifying them (6.3a): one match at a time, or a player's whole row in the
forum format."""

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.db import transaction

from rounds.models import Round
from submissions.models import Hand, HandStatus

from ..forum_rows import ForumRow, RowFormatError, parse_row
from ..models import Match, MatchReport
from ..outcomes import OPPONENT_POINTS
from .access import revealed_round_table, scoring_round
from .changes import _after_change, _clean_result, _clean_text, _lock_for_change, _snapshot, refresh_match
from .errors import ScoringForbidden, ScoringInputError


def side_of(user: AbstractBaseUser, match: Match) -> str:
    if match.hand_a.player_id == user.pk:
        return MatchReport.Side.A
    if match.hand_b.player_id == user.pk:
        return MatchReport.Side.B
    return MatchReport.Side.OTHER


def report_match(
    *,
    reporter: User,
    match_id: int | str,
    points_a: int | str,
    points_b: int | str,
    comment: str = "",
    now: datetime | None = None,
) -> MatchReport:
    """The reporter's result of a match: binding for its two players (6.3), a verification for anyone else
    (6.3a). A change is a new version; sending the same result and comment again stores nothing."""
    points_a, points_b = _clean_result(points_a, points_b)
    comment = _clean_text(comment, "comment")
    with transaction.atomic():
        match = _lock_for_change(match_id, now)
        report = _store_report(match, reporter, points_a, points_b, comment)
    return report


def _store_report(match, reporter, points_a, points_b, comment, *, entered_by=None):
    """`entered_by`: the moderator who typed in the reporter's report (their posted row); the audit entry is
    theirs, naming both."""
    current = MatchReport.objects.filter(match=match, reporter=reporter, is_current=True).first()
    if current is not None and (current.points_a, current.points_b, current.comment) == (
        points_a,
        points_b,
        comment,
    ):
        return current
    before = _snapshot(match)
    if current is not None:
        MatchReport.objects.filter(pk=current.pk).update(is_current=False)
    side = side_of(reporter, match)
    report = MatchReport.objects.create(
        match=match,
        reporter=reporter,
        side=side,
        points_a=points_a,
        points_b=points_b,
        comment=comment,
        version=(current.version + 1) if current else _next_version(match, reporter),
    )
    refresh_match(match)
    action = "match.verified" if side == MatchReport.Side.OTHER else "match.reported"
    extra = {"report": f"{points_a}-{points_b}", "side": side}
    if entered_by is not None:
        extra |= {"reporter": reporter.get_username(), "entered_by": entered_by.get_username()}
    _after_change(match, action, entered_by or reporter, before, note=comment, extra=extra)
    return report


def _next_version(match, reporter):
    """The version of a first current report: 1, or after the reporter's superseded reports (4.2a)."""
    last = (
        MatchReport.objects.filter(match=match, reporter=reporter)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    return (last or 0) + 1


@dataclass
class RowReport:
    reports: list = field(default_factory=list)  # the reports stored or confirmed, one per reported cell
    skipped: list = field(default_factory=list)  # plain sentences: cells left out and why


def report_row(
    *, player: User, round_id: int | str, row: str | None, now: datetime | None = None
) -> RowReport:
    """A player's whole row in the forum format (`3 | 6 0 X 2 4 | PT | Points`): one report per filled cell,
    from the player's point of view; blank and `?` cells are not reported. The row's note, if any, becomes
    each report's comment (without one, a report keeps its comment). All or nothing."""
    round_ = scoring_round(round_id)
    revealed_round_table(round_, now)
    hands = numbered_hands(round_)
    own = next((hand for hand in hands.values() if hand.player_id == player.pk), None)
    if own is None:
        raise ScoringForbidden("You have no hand in this round, so you have no row to report.")
    try:
        parsed = parse_row(str(row or ""), columns=max(hands))
    except RowFormatError as error:
        raise ScoringInputError({"row": [str(error)]}) from None
    if parsed.number != own.number:
        raise ScoringInputError(
            {"row": [f"This is row {parsed.number}, but your hand is number {own.number:02d}."]}
        )
    note = _clean_text(parsed.note, "row")
    if not row_cells(parsed):
        raise ScoringInputError({"row": ["The row has no result in it: fill at least one cell."]})
    with transaction.atomic():
        return report_cells(own, hands, row_cells(parsed), note=note, now=now)


def numbered_hands(round_: Round) -> dict[int, Hand]:
    """{number: hand} of the round's numbered hands (the table's rows), with their players."""
    hands = Hand.objects.filter(round=round_, number__isnull=False).select_related("player__profile")
    return {hand.number: hand for hand in hands if hand.number is not None}


def row_cells(row: ForumRow) -> dict[int, int]:
    """{column: score} of a parsed row's known cells."""
    return {column: value for column, value in enumerate(row.cells, start=1) if isinstance(value, int)}


def report_cells(
    own: Hand,
    hands: dict[int, Hand],
    cells: dict[int, int],
    *,
    note: str = "",
    entered_by: User | None = None,
    now: datetime | None = None,
) -> RowReport:
    """The reports of hand `own`'s player for its `cells` ({opponent number: own score}) among `hands`
    ({number: hand}), one per match in match order (the lock order); a disqualified opponent's column is
    skipped. `note` is each report's comment (empty: a report keeps its current comment). Call inside a
    transaction."""
    player = own.player
    matches = _matches_of(own, [hands[column] for column in cells])
    outcome = RowReport()
    for column in sorted(cells, key=lambda column: matches[column].pk if column in matches else 0):
        opponent = hands[column]
        if opponent.status == HandStatus.DISQUALIFIED or column not in matches:
            outcome.skipped.append(f"Hand {column:02d} is disqualified: its column is not reported.")
            continue
        mine, theirs = cells[column], OPPONENT_POINTS[cells[column]]
        points_a, points_b = (mine, theirs) if (own.number or 0) < column else (theirs, mine)
        match = _lock_for_change(matches[column].pk, now)
        current = MatchReport.objects.filter(match=match, reporter=player, is_current=True).first()
        comment = note or (current.comment if current else "")
        outcome.reports.append(
            _store_report(match, player, points_a, points_b, comment, entered_by=entered_by)
        )
    return outcome


def _matches_of(hand, opponents):
    """{opponent number: match} for the hand's matches against `opponents` (one query)."""
    by_hand = {opponent.pk: opponent.number for opponent in opponents}
    found = Match.objects.filter(round_id=hand.round_id).filter(
        hand_a=hand, hand_b__in=list(by_hand)
    ) | Match.objects.filter(round_id=hand.round_id, hand_b=hand, hand_a__in=list(by_hand))
    return {
        by_hand[match.hand_b_id if match.hand_a_id == hand.pk else match.hand_a_id]: match for match in found
    }
