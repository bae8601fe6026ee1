"""Read side of scoring: the results matrix, a match with its history, the moderator's queue. Each is a
constant
number of queries whatever the number of hands (asserted in tests for 5 and 40 hands)."""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, cast

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Prefetch

from rounds.models import Round
from submissions.models import Hand, HandVersion
from submissions.selectors import player_display_name

from .by_players import decisions_by_players, match_decisions_by_players  # noqa: F401  (the pages read them here)
from .models import Challenge, Match, MatchReport, MatchStatus
from .services.access import revealed_round_table
from .services.table import VALID_HAND, in_table
from .services.tally import compute_tally, hands_in_table, stored_tally


@dataclass
class Cell:
    column: int  # the opponent's entry number
    points: int | None = None  # this row's hand's points in the match
    status: str = ""
    match_id: int | None = None

    @property
    def is_self(self):
        return self.match_id is None and not self.status

    @property
    def result_class(self):
        """What the colour means, for CSS; the cell's text always says it too (not colour alone)."""
        if self.points is None:
            return "unknown"
        return {6: "win", 4: "win", 2: "even", 1: "loss", 0: "loss"}[self.points]


@dataclass
class Row:
    hand: object
    number: int
    player: str
    hand_name: str
    cells: list
    points: int
    league_points: int  # the round's own (rule 5.2), before bonus: the standings add bonus apart
    rank: int
    mine: bool = False
    bonus_points: int = 0  # awarded in this round (6.2, 7.7), not in league_points


@dataclass
class ResultsTable:
    round: object
    rows: list  # in entry-number order: the matrix
    final: bool
    stale: bool  # the stored tally was behind: these numbers were computed for this request
    status_counts: Counter = field(default_factory=Counter)

    @property
    def numbers(self):
        return [row.number for row in self.rows]

    @property
    def by_rank(self):
        return sorted(self.rows, key=lambda row: (row.rank, row.number))

    @property
    def matches(self):
        return sum(self.status_counts.values())

    @property
    def has_results(self):
        """Whether any match has a result yet (reported, agreed, set, disputed, challenged or final): before
        that every hand has 0 League points and a chart of them would show nothing."""
        waiting = (MatchStatus.UNREPORTED, MatchStatus.NEEDS_RESULT)
        return any(count for status, count in self.status_counts.items() if status not in waiting)

    @property
    def needs_result(self):
        """How many matches need a new result (4.2a): a hand was replaced after results existed."""
        return self.status_counts[MatchStatus.NEEDS_RESULT]

    @property
    def status_summary(self):
        """[(words, count)] for the statuses that occur, in the order a round goes through them."""
        words = {
            MatchStatus.AGREED: "agreed",
            MatchStatus.REPORTED: "reported by one side",
            MatchStatus.SET: "set by the moderator",
            MatchStatus.DISPUTED: "disputed",
            MatchStatus.CHALLENGED: "challenged",
            MatchStatus.NEEDS_RESULT: "need a new result",
            MatchStatus.UNREPORTED: "unreported",
            MatchStatus.FINAL: "final",
        }
        return [
            (label, self.status_counts[status])
            for status, label in words.items()
            if self.status_counts[status]
        ]


def results_table(
    round_: Round,
    *,
    viewer: AbstractBaseUser | AnonymousUser | None = None,
    now: datetime | None = None,
    cells: bool = True,
) -> ResultsTable:
    """The round's table as a matrix (ScoringNotFound before the reveal): 4-5 queries for any number of
    hands. League points are the round's own (5.2); each row's bonus of this round is apart. With
    `cells=False` each row carries only `points_by_opponent` ({"number": points or None}): what the table API
    sends, without a cell object per match and side (a million of them for 1,000 hands)."""
    tally = revealed_round_table(round_, now)
    hands = hands_in_table(round_.pk, with_bonus=True)
    lines = stored_tally(round_.pk, hands) if tally.is_current else None
    stale = lines is None
    if lines is None:
        lines = compute_tally(round_.pk, hands)
    numbers = {hand.pk: hand.number for hand in hands}
    matches = [
        match
        for match in Match.objects.filter(round_id=round_.pk).values_list(
            "pk", "hand_a_id", "hand_b_id", "points_a", "points_b", "status"
        )
        if match[1] in numbers and match[2] in numbers  # a disqualified hand's matches are out of the table
    ]
    by_hand = (_cell_rows if cells else _points_rows)(hands, numbers, matches)
    viewer_id = getattr(viewer, "pk", None)
    rows = []
    # hands_in_table gives numbered hands only, each with its `round_bonus` (with_bonus=True).
    for line in sorted(lines, key=lambda line: cast(int, line.hand.number)):
        hand = line.hand
        row = Row(
            hand=hand,
            number=cast(int, hand.number),
            player=player_display_name(hand.player),
            hand_name=hand.name,
            cells=by_hand[hand.pk] if cells else [],
            points=line.points,
            league_points=line.league_points,
            rank=line.rank,
            mine=viewer_id is not None and hand.player_id == viewer_id,
            bonus_points=hand.round_bonus,  # type: ignore[attr-defined]
        )
        if not cells:
            row.points_by_opponent = by_hand[hand.pk]  # type: ignore[attr-defined]
        rows.append(row)
    counts = Counter(match[5] for match in matches)
    return ResultsTable(round_, rows, final=round_.state == "final", stale=stale, status_counts=counts)


def my_entry_number(round_: Round, viewer: AbstractBaseUser | AnonymousUser) -> int | None:
    """The entry number of the viewer's hand in the round's table, None for a viewer without one (no query
    for an anonymous viewer, one otherwise)."""
    if not getattr(viewer, "is_authenticated", False):
        return None
    return (
        Hand.objects.filter(VALID_HAND, round_id=round_.pk, player_id=viewer.pk, number__isnull=False)
        .values_list("number", flat=True)
        .first()
    )


def _cell_rows(hands, numbers, matches):
    """{hand id: [Cell per column]} for the page's matrix."""
    cells = {hand.pk: {} for hand in hands}
    for match_id, hand_a, hand_b, points_a, points_b, status in matches:
        cells[hand_a][numbers[hand_b]] = Cell(numbers[hand_b], points_a, status, match_id)
        cells[hand_b][numbers[hand_a]] = Cell(numbers[hand_a], points_b, status, match_id)
    return {
        hand.pk: [
            Cell(number)
            if number == hand.number
            else cells[hand.pk].get(number, Cell(number, status="missing"))
            for number in numbers.values()
        ]
        for hand in hands
    }


def _points_rows(hands, numbers, matches):
    """{hand id: {"opponent number": points or None}} for the table API."""
    labels = {hand_id: str(number) for hand_id, number in numbers.items()}
    points = {hand.pk: dict.fromkeys(labels[o.pk] for o in hands if o.pk != hand.pk) for hand in hands}
    for _match_id, hand_a, hand_b, points_a, points_b, _status in matches:
        points[hand_a][labels[hand_b]] = points_a
        points[hand_b][labels[hand_a]] = points_b
    return points


def match_history(match: Match) -> dict[str, Any]:
    """Every report version (newest first), the current report of each person, and the challenges."""
    reports = list(
        MatchReport.objects.filter(match=match)
        .select_related("reporter__profile")
        .order_by("-created_at", "-pk")
    )
    challenges = list(
        Challenge.objects.filter(match=match)
        .select_related("challenger__profile", "resolved_by__profile")
        .order_by("created_at")
    )
    current = [report for report in reports if report.is_current]
    deciders = {challenge.resolved_by_id for challenge in challenges} | {match.decided_by_id}
    playing = players_among(match.round_id, deciders)
    for challenge in challenges:
        challenge.resolved_by_a_player = challenge.resolved_by_id in playing  # type: ignore[attr-defined]
    return {
        # Set by a moderator with a hand in the round (their own match or a rival's): allowed only where
        # nobody else can manage the league (rounds.permissions), and shown.
        "decided_by_a_player": match.has_decision and match.decided_by_id in playing,
        "reports": reports,
        "side_a": next((r for r in current if r.side == MatchReport.Side.A), None),
        "side_b": next((r for r in current if r.side == MatchReport.Side.B), None),
        "verifications": [r for r in current if r.side == MatchReport.Side.OTHER],
        "challenges": challenges,
        "open_challenges": [c for c in challenges if c.state == Challenge.State.OPEN],
    }


def players_among(round_id: int, user_ids: Iterable[int | None]) -> set[int]:
    """The ids among `user_ids` of people with a hand in the round; no query when there are none to check."""
    user_ids = {user_id for user_id in user_ids if user_id is not None}
    if not user_ids:
        return set()
    return set(
        Hand.objects.filter(round_id=round_id, player_id__in=user_ids).values_list("player_id", flat=True)
    )


def current_cards(hand_ids: Iterable[int]) -> dict[int, list[str]]:
    """{hand id: its current card names} (one query)."""
    return dict(
        HandVersion.objects.filter(hand_id__in=hand_ids, is_current=True).values_list("hand_id", "cards")
    )


def current_versions(hand_ids: Iterable[int]) -> dict[int, HandVersion]:
    """{hand id: its current version} with what a revealed hand shows: cards, decisions (7.2b) and a
    moderator's similar-hand changes (4.2a); one query. Only for hands already revealed to the viewer."""
    versions = HandVersion.objects.filter(hand_id__in=hand_ids, is_current=True).only(
        "hand_id", "cards", "decisions", "card_changes", "source"
    )
    return {version.hand_id: version for version in versions}


def moderator_queue(round_id: int) -> dict[str, list[Match]]:
    """What needs the moderator: disputes, open challenges, matches needing a new result (4.2a) and matches
    nobody reported (four queries)."""
    in_this_round = Match.objects.filter(in_table(), round_id=round_id).select_related(
        "hand_a__player__profile", "hand_b__player__profile"
    )
    open_challenges = Prefetch(
        "challenges",
        queryset=Challenge.objects.filter(state=Challenge.State.OPEN).select_related("challenger__profile"),
        to_attr="open_challenges",
    )
    return {
        "disputed": list(
            in_this_round.filter(status=MatchStatus.DISPUTED).order_by("hand_a__number", "hand_b__number")
        ),
        "challenged": list(
            in_this_round.filter(status=MatchStatus.CHALLENGED)
            .prefetch_related(open_challenges)
            .order_by("hand_a__number", "hand_b__number")
        ),
        "needs_result": list(
            in_this_round.filter(status=MatchStatus.NEEDS_RESULT).order_by("hand_a__number", "hand_b__number")
        ),
        "unreported": list(
            in_this_round.filter(status=MatchStatus.UNREPORTED).order_by("hand_a__number", "hand_b__number")
        ),
    }


class _OpenItems(Protocol):
    """What `finalization_consequences` reads of services.finalization.OpenItems (imported here, it would make
    a cycle: finalization, changes, notifications, selectors)."""

    @property
    def disputed(self) -> Sequence[Match]: ...

    @property
    def challenged(self) -> Sequence[Challenge]: ...

    @property
    def needs_result(self) -> Sequence[Match] | None: ...

    def __bool__(self) -> bool: ...


def _count(n, one, many):
    return f"{n} {one if n == 1 else many}"


def finalization_consequences(
    table: ResultsTable, queue: Mapping[str, Sequence[Match]], open_items: _OpenItems
) -> list[str]:
    """What finalizing the round now does, in sentences for the moderator's confirmation (no query): from its
    table, its moderator queue and its open items (services.finalization.open_items)."""
    counts = table.status_counts
    unreported = len(queue["unreported"])
    if unreported:
        become = _count(unreported, "match nobody reported becomes", "matches nobody reported become")
        lines = [f"{become} 0-0 (rule 6.3b)."]
    else:
        lines = ["Every match has a result: none becomes 0-0 by rule 6.3b."]
    one_sided = counts.get(MatchStatus.REPORTED, 0)
    if one_sided:
        lines.append(
            f"{_count(one_sided, 'match reported by one side keeps', 'matches reported by one side keep')} "
            "that report."
        )
    if open_items:
        parts = [
            f"{_count(len(open_items.disputed), 'disputed match becomes', 'disputed matches become')} 0-0"
            if open_items.disputed
            else "",
            f"{_count(len(open_items.needs_result or []), 'match needing', 'matches needing')} a new result "
            f"{'becomes' if len(open_items.needs_result or []) == 1 else 'become'} 0-0"
            if open_items.needs_result
            else "",
            f"{_count(len(open_items.challenged), 'open challenge is', 'open challenges are')} closed"
            if open_items.challenged
            else "",
        ]
        parts = [part for part in parts if part]
        said = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
        lines.append(f"{said[0].upper()}{said[1:]}, but only if you tick “Finalize anyway”.")
    lines.append("The table freezes: no result can change until you reopen the round.")
    lines.append(
        f"{_count(len(table.rows), 'player is', 'players are')} told their PT, League points and rank "
        "(on the site and by e-mail, as each chose)."
    )
    return lines
