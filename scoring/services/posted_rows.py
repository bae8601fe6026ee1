"""Players' posted rows: a moderator pastes forum posts in which players posted their own results
rows (`3 | 6 0 X 2 | 8 | 267 (2-2 vs 4 is controversial)`), and each row becomes that hand's player's reports.

The text is one or many posts as pasted: BBCode quotes, "Posted by ..." lines, prose and blank lines around
the rows. Every line that reads as a row of this round (`forum_rows.parse_row` with the round's hand count)
is a row; a line that starts like a row but does not read as one is a problem; anything else is skipped and
listed.
A row's number says whose hand it is; each known cell becomes that player's report on the match against that
column's hand, through the same path as a player's own row (`results.report_cells`), so the usual rules apply
(a report binds its two players, 6.3; reports that disagree make a dispute). The moderator who pasted it is
recorded as `entered_by` in each report's audit entry, and the row's note is each report's comment.
"""

import re
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.names import display_name
from audit.services import log_action
from rounds.models import Round, RoundState
from rounds.permissions import others_who_can_manage
from submissions import selectors as hand_selectors
from submissions.models import HandStatus

from ..forum_rows import OWN_COLUMN, UNKNOWN, RowFormatError, parse_row
from ..models import Match, MatchReport
from ..outcomes import OPPONENT_POINTS
from .access import _require_moderator, plays_in, revealed_round_table, scoring_round
from .changes import MAX_TEXT
from .errors import ScoringConflict, ScoringInputError
from .reports import numbered_hands, report_cells, row_cells, stated_totals_warning

MAX_POSTS_TEXT = 100_000
# BBCode that wraps or decorates posts: quotes, emphasis, colours, code. Removed before a line is read.
_POST_TAG = re.compile(
    r"\[/?(?:quote|b|i|u|s|color|size|font|code|spoiler)(?:=[^\]\n]{0,80})?\]", re.IGNORECASE
)
# A line that starts like a row: a hand number, then "|", a tab or comma, or only score-like tokens. No two
# runs of spaces may meet (`\s*[.)]?\s*` tries every way of splitting a run of spaces: quadratic).
_ROW_LIKE_START = re.compile(r"\s*(?:\|\s*)?[0-9]{1,3}\s*(?:[.)]\s*)?[|\t,]")
_SCORE_LIKE_TOKEN = re.compile(r"[0-9]{1,3}[.)]?|[xX?_\-\u2013\u2014]")


@dataclass
class PostedRow:
    """A row found in the text: whose it is and what it says."""

    line: int
    number: int
    player: str  # the username (the API's `player`)
    cells: tuple
    note: str
    reports: int = 0  # the cells that become (or became) reports
    player_name: str = ""  # as the tables show them (the moderator's page)
    totals_warning: str = ""  # its stated PT or Points that its cells do not give (the cells count)

    @property
    def cells_text(self):
        """The cells as a row shows them: `6 0 X ?`."""
        return " ".join(UNKNOWN if cell is None else str(cell) for cell in self.cells)


@dataclass
class PostedRowsResult:
    dry_run: bool
    rows: list = field(default_factory=list)  # PostedRow, by hand number
    skipped: list = field(default_factory=list)  # "Line 3: Posted by ..." — prose, not rows
    problems: list = field(default_factory=list)  # rows that cannot be imported; nothing is saved while any
    warnings: list = field(default_factory=list)  # e.g. a hand's row posted twice (the later one counts)
    reports: list = field(default_factory=list)  # the MatchReports stored or confirmed (applied only)
    # "01 Ann v 02 Bob will be a dispute: ...": matches whose two players' reports will differ
    disputes: list = field(default_factory=list)

    @property
    def report_count(self):
        return sum(row.reports for row in self.rows)

    @property
    def totals_differ(self):
        """The rows whose stated PT or Points their cells do not give."""
        return [row for row in self.rows if row.totals_warning]

    @property
    def needs_a_look(self):
        """Whether the import would save something a moderator should read first: stated totals the cells
        do not give (the cells count), or disputes it makes."""
        return bool(self.totals_differ or self.disputes)


def import_posted_rows(
    *, actor: User, round_id: int, text: str, dry_run: bool = False, now: datetime | None = None
) -> PostedRowsResult:
    """Read players' posted rows out of `text` and, unless `dry_run`, make each known cell the row's player's
    report, with the row's note as its comment. Moderators of the round's league only (ScoringForbidden); the
    round must be revealed and not final (ScoringConflict). No row found, or any problem when applying:
    ScoringInputError, and nothing is saved."""
    now = now or timezone.now()
    round_ = posted_rows_round(actor=actor, round_id=round_id, now=now)
    text = str(text or "")
    if len(text) > MAX_POSTS_TEXT:
        raise ScoringInputError({"text": [f"Paste at most {MAX_POSTS_TEXT:,} characters at a time."]})
    revealed_round_table(round_, now)  # builds the match table if nobody did yet
    hands = numbered_hands(round_)
    if not hands:
        raise ScoringConflict(f"Round {round_.code} has no numbered hands, so no row can be imported.")
    result = PostedRowsResult(dry_run=dry_run)
    parsed_rows = _read_rows(result, text, hands)
    _check_own_interest(result, actor, round_)
    result.disputes = _disputes(round_, hands, {row.number: parsed_rows[row.number] for row in result.rows})
    if not result.rows:
        found = " ".join(result.problems)
        raise ScoringInputError(
            {"text": [f'No results row found: a row looks like "3 | 6 0 X 2 | 8 | 267". {found}'.strip()]}
        )
    if dry_run:
        return result
    if result.problems:
        raise ScoringInputError({"text": ["Nothing imported: fix the problems first.", *result.problems]})
    with transaction.atomic():
        for posted in result.rows:
            own = hands[posted.number]
            outcome = report_cells(
                own, hands, row_cells(parsed_rows[posted.number]), note=posted.note, entered_by=actor, now=now
            )
            result.reports.extend(outcome.reports)
            result.warnings.extend(f"Row {posted.number}: {sentence}" for sentence in outcome.skipped)
        log_action(
            round_,
            "round.posted_rows_imported",
            actor=actor,
            after={"rows": len(result.rows), "reports": len(result.reports)},
        )
    return result


def posted_rows_round(
    *, actor: AbstractBaseUser | AnonymousUser, round_id: int, now: datetime | None = None
) -> Round:
    """The round whose players' rows `actor` may import: ScoringNotFound (unknown or draft), ScoringForbidden
    (not a moderator of its league: checked first, so nobody else learns anything more), ScoringConflict (not
    revealed yet, or final)."""
    round_ = scoring_round(round_id)
    _require_moderator(actor, round_)
    if round_.state == RoundState.FINAL:
        raise ScoringConflict(
            f"Round {round_.code} is final: its results can no longer change (reopen it to import rows)."
        )
    if not hand_selectors.is_revealed(round_, now or timezone.now()):
        raise ScoringConflict(
            f"Round {round_.code} is still open for hands: players' rows are imported after its deadline."
        )
    return round_


def _read_rows(result, text, hands):
    """Fill result.rows (the last row of each hand), .skipped, .problems and .warnings; return {number: the
    parsed row}."""
    columns = max(hands)
    found = {}
    for line_number, line in enumerate(text.splitlines(), start=1):
        line = _POST_TAG.sub("", line).strip()
        if not line:
            continue
        if not _looks_like_row(line):
            result.skipped.append(f"Line {line_number}: {_shortened(line)}")
            continue
        try:
            row = parse_row(line, columns=columns)
        except RowFormatError as error:
            result.problems.append(f"Line {line_number}: {error}")
            continue
        posted = _posted_row(result, line_number, row, hands)
        if posted is None:
            continue
        if row.number in found:
            earlier = found[row.number][0].line
            result.warnings.append(
                f"Line {line_number}: row {row.number} again (first on line {earlier}); the later one counts."
            )
        found[row.number] = (posted, row)
    result.rows = [posted for posted, _ in sorted(found.values(), key=lambda pair: pair[0].number)]
    return {number: row for number, (_, row) in found.items()}


def posted_rows_refusal(actor: AbstractBaseUser | AnonymousUser | None, round_: Round) -> str:
    """Why `actor` may not enter the round's players' rows, or "": rows typed in by a moderator who plays in
    the round are results in their own interest (their own match, or a rival's), refused while someone else
    can manage the league, who is named (rounds.permissions, as for setting a result). Where nobody else can,
    its only moderator may (README: "never self-serving")."""
    if not plays_in(actor, round_.pk):
        return ""
    others = others_who_can_manage(round_.league, actor)
    if not others:
        return ""
    return (
        "You play in this round, so you cannot enter its players' rows: its results are yours to win too. "
        f"Ask another moderator of this league ({others}) to import them."
    )


def _check_own_interest(result, actor, round_):
    refusal = posted_rows_refusal(actor, round_)
    if refusal:
        result.problems.append(refusal)


def _posted_row(result, line_number, row, hands):
    """The row's PostedRow, or None with the problem noted (no such hand, disqualified, a note too long)."""
    hand = hands.get(row.number)
    where = f"Line {line_number}: row {row.number}"
    if hand is None:
        result.problems.append(f"{where}: this round has no hand {row.number:02d}.")
        return None
    if hand.status == HandStatus.DISQUALIFIED:
        result.problems.append(f"{where}: hand {row.number:02d} is disqualified, so its row is not imported.")
        return None
    if len(row.note) > MAX_TEXT:
        result.problems.append(f"{where}: its note is longer than {MAX_TEXT} characters.")
        return None
    cells = row_cells(row)
    if not cells:
        result.warnings.append(f"{where} has no result in it: nothing to report.")
    totals_warning = stated_totals_warning(row, hands)
    if totals_warning:
        result.warnings.append(f"Line {line_number}: {totals_warning}")
    disqualified = {number for number, other in hands.items() if other.status == HandStatus.DISQUALIFIED}
    return PostedRow(
        line=line_number,
        number=row.number,
        player=hand.player.get_username(),
        player_name=display_name(hand.player),
        cells=row.cells,
        note=row.note,
        reports=len(set(cells) - disqualified),
        totals_warning=totals_warning,
    )


def _disputes(round_, hands, rows):
    """A sentence for each match the rows leave with two different reports of its players and no moderator's
    result: a row's cell against the opponent's current report, or against the opponent's row in the same
    text (a row's unknown cell leaves its player's report as it is). Two queries: the current reports of the
    rows' matches, and the round's decided matches."""
    disqualified = {number for number, hand in hands.items() if hand.status == HandStatus.DISQUALIFIED}
    pasted = {}  # (a, b) -> {side: (points_a, points_b)} from the rows, in the match's a-b order
    for number, row in rows.items():
        for column, points in row_cells(row).items():
            if column in disqualified or column not in hands:
                continue
            pair, side = (number, column), "a"
            if column < number:
                pair, side = (column, number), "b"
            own_first = (points, OPPONENT_POINTS[points])
            pasted.setdefault(pair, {})[side] = own_first if side == "a" else own_first[::-1]
    if not rows:
        return []
    row_hands = [hands[number].pk for number in rows]
    reported = {}
    for number_a, number_b, side, points_a, points_b in MatchReport.objects.filter(
        Q(match__hand_a_id__in=row_hands) | Q(match__hand_b_id__in=row_hands),
        match__round_id=round_.pk,
        is_current=True,
        side__in=[MatchReport.Side.A, MatchReport.Side.B],
    ).values_list("match__hand_a__number", "match__hand_b__number", "side", "points_a", "points_b"):
        reported.setdefault((number_a, number_b), {})[side] = (points_a, points_b)
    decided = set(
        Match.objects.filter(round_id=round_.pk, decided_points_a__isnull=False).values_list(
            "hand_a__number", "hand_b__number"
        )
    )
    sentences = []
    for pair in sorted(pasted):
        before = reported.get(pair, {})
        after = {**before, **pasted[pair]}
        if pair in decided or len(after) < 2 or after["a"] == after["b"]:
            continue
        was_disputed = len(before) == 2 and before["a"] != before["b"]
        sentences.append(_dispute_sentence(hands, pair, pasted[pair], after, was_disputed))
    return sentences


def _dispute_sentence(hands, pair, pasted, after, was_disputed):
    """`01 Ann v 02 Bob will be a dispute: Ann's row says 6-0 to Ann; Bob reported 4-1 to Bob.`"""
    names = {side: display_name(hands[number].player) for side, number in zip("ab", pair, strict=True)}
    labels = " v ".join(f"{number:02d} {names[side]}" for side, number in zip("ab", pair, strict=True))
    claims = []
    for side in "ab" if "a" in pasted else "ba":
        says = "'s row says" if side in pasted else " reported"
        claims.append(f"{names[side]}{says} {_result_text(after[side], names)}")
    verb = "stays a dispute" if was_disputed else "will be a dispute"
    return f"{labels} {verb}: {'; '.join(claims)}."


def _result_text(points, names):
    """`6-0 to Ann`, `2-2`: a result with the winner named, so whose points come first is never in doubt."""
    points_a, points_b = points
    if points_a == points_b:
        return f"{points_a}-{points_b}"
    if points_a > points_b:
        return f"{points_a}-{points_b} to {names['a']}"
    return f"{points_b}-{points_a} to {names['b']}"


def _looks_like_row(line):
    """Whether the line is meant as a row (so a reading error is a problem, not prose): a hand number followed
    by a "|", tab or comma, or by nothing but score-like tokens (`3 6 0 X 2`)."""
    if _ROW_LIKE_START.match(line):
        return True
    tokens = line.split("(")[0].split()
    return (
        len(tokens) > 1
        and tokens[0].rstrip(".)").isdigit()
        and all(_SCORE_LIKE_TOKEN.fullmatch(token) for token in tokens)
        and any(token.upper() == OWN_COLUMN for token in tokens)
    )


def _shortened(line, limit=80):
    return f"{line[:limit]}..." if len(line) > limit else line
