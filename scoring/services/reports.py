"""Reporting results (rule 6.3) and verifying them (6.3a): one match at a time, or a player's whole row in the
forum format."""

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.db import transaction

from accounts.names import display_name
from rounds.models import Round
from submissions.models import Hand, HandStatus

from ..forum_rows import (
    HEADER_LEAGUE_POINTS,
    HEADER_POINTS,
    ForumRow,
    RowFormatError,
    parse_row,
    row_total_mismatches,
    row_totals,
)
from ..models import Match, MatchReport
from ..outcomes import OPPONENT_POINTS
from .access import revealed_round_table, scoring_round
from .changes import _after_change, _clean_result, _clean_text, _lock_for_change, _snapshot, refresh_match
from .errors import ScoringConflict, ScoringForbidden, ScoringInputError


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


def agree_with_opponent(
    *, player: User, match_id: int | str, report_id: int | str | None = None, now: datetime | None = None
) -> MatchReport:
    """The player's report that agrees with their opponent's current report of the match: the same result,
    from the player's side (6.3), so that the match is agreed. `report_id`: the opponent's report the player
    read; if the opponent has changed it since, nothing is saved (ScoringConflict naming what they say now).
    Refused for anyone but the match's two players (ScoringForbidden), and when the opponent has not reported
    (ScoringConflict). Agreeing with what the player already reported stores nothing."""
    with transaction.atomic():
        match = _lock_for_change(match_id, now)
        side = side_of(player, match)
        if side == MatchReport.Side.OTHER:
            raise ScoringForbidden(
                "Only the two players of a match agree on its result; anyone else verifies or proposes one "
                "(rule 6.3a)."
            )
        opponent_side = MatchReport.Side.B if side == MatchReport.Side.A else MatchReport.Side.A
        opponent = match.hand_b if side == MatchReport.Side.A else match.hand_a
        claim = MatchReport.objects.filter(match=match, side=opponent_side, is_current=True).first()
        if claim is None:
            raise ScoringConflict(
                f"{display_name(opponent.player)} has not reported this match: there is no result to agree "
                "with yet."
            )
        if report_id not in (None, "") and str(claim.pk) != str(report_id):
            raise ScoringConflict(
                f"{display_name(opponent.player)} changed their report since you read it: they now say "
                f"{claim.points_a}-{claim.points_b} ({match.hand_a.number_label} first). Nothing was saved; "
                "read it again before agreeing."
            )
        mine = MatchReport.objects.filter(match=match, reporter=player, is_current=True).first()
        if mine is not None and (mine.points_a, mine.points_b) == (claim.points_a, claim.points_b):
            return mine
        return _store_report(match, player, claim.points_a, claim.points_b, "")


def opponent_claim(match: Match, reports: list[MatchReport], viewer_id: int | None) -> MatchReport | None:
    """The opponent's current report that a player of the match has not (or not yet) agreed with: what the
    match page offers to agree with in one click; None for anyone else, or when there is nothing to agree
    with. `reports`: the match's reports (its history)."""
    if viewer_id is None or viewer_id not in (match.hand_a.player_id, match.hand_b.player_id):
        return None
    opponent_side = MatchReport.Side.B if match.hand_a.player_id == viewer_id else MatchReport.Side.A
    current = [report for report in reports if report.is_current]
    claim = next((report for report in current if report.side == opponent_side), None)
    mine = next((report for report in current if report.reporter_id == viewer_id), None)
    if claim is None or (
        mine is not None and (mine.points_a, mine.points_b) == (claim.points_a, claim.points_b)
    ):
        return None
    return claim


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
    warnings: list = field(default_factory=list)  # plain sentences: stated totals its cells do not give


class StatedTotalsDiffer(ScoringInputError):
    """A row's stated `| PT | Points` are not what its cells give, and the caller asked to be stopped: the
    sentence names each figure and what the cells give. Nothing was saved."""

    code = "stated_totals_differ"


def report_row(
    *,
    player: User,
    round_id: int | str,
    row: str | None,
    now: datetime | None = None,
    stop_if_totals_differ: bool = False,
) -> RowReport:
    """A player's whole row in the forum format (`3 | 6 0 X 2 4 | PT | Points`): one report per filled cell,
    from the player's point of view; blank and `?` cells are not reported. The row's note, if any, becomes
    each report's comment (without one, a report keeps its comment). All or nothing.

    The cells count, never the stated PT and Points: totals they do not give are a warning in the answer
    (`warnings`), or, with `stop_if_totals_differ` (a page that asks the player to confirm first),
    StatedTotalsDiffer and nothing saved."""
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
    warning = stated_totals_warning(parsed, hands)
    if warning and stop_if_totals_differ:
        raise StatedTotalsDiffer({"row": [warning]})
    with transaction.atomic():
        outcome = report_cells(own, hands, row_cells(parsed), note=note, now=now)
    outcome.warnings = [warning] if warning else []
    return outcome


def stated_totals_warning(row: ForumRow, hands: dict[int, Hand]) -> str:
    """ "" when the row states no `| PT | Points`, or the ones its cells give; otherwise which figure differs,
    what the cells give, and that the cells count. The cells are scored as the table scores them: a
    disqualified hand's column counts nothing, and the opponents are the other hands in the table (5.2)."""
    out_of_table = {number for number, hand in hands.items() if hand.status == HandStatus.DISQUALIFIED}
    opponents = max(len(hands) - len(out_of_table) - 1, 0)
    mismatches = row_total_mismatches(row, opponents=opponents, out_of_table=out_of_table)
    if not mismatches:
        return ""
    points, league = row_totals(row, opponents=opponents, out_of_table=out_of_table)
    return " ".join(
        [
            *(mismatch.message for mismatch in mismatches),
            f"The cells count, not the stated totals: they are what is reported, and they give "
            f"{HEADER_POINTS} {points} and {HEADER_LEAGUE_POINTS} {league}.",
        ]
    )


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
