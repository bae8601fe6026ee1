"""The round table's numbers: each hand's points, League points and rank (rules 5.2, 6.1).

Points are two SQL aggregates (a hand is `a` in some matches and `b` in others), so tallying costs the same
few queries for 5 hands or 1,000. The stored `HandTally` rows are written by a task after changes (coalesced)
and at finalization; readers use them only when they are current, and compute otherwise.
"""

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import F, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from submissions.models import Hand, HandStatus

from .. import signals
from ..models import BonusAward, HandTally, Match, RoundTally
from ..outcomes import league_points, shared_ranks
from .table import VALID_HAND


@dataclass
class TallyLine:
    hand: Hand
    points: int
    opponents: int
    league_points: int
    rank: int = 0


def hands_in_table(round_id: int, *, with_players: bool = True, with_bonus: bool = False) -> list[Hand]:
    """The round's valid hands in entry order, with their players for pages (one query); storing a tally needs
    only their ids and numbers. `with_bonus`: each hand's `round_bonus`, its player's bonus League points in
    this round (6.2, 7.7), in the same query."""
    hands = Hand.objects.filter(VALID_HAND, round_id=round_id, number__isnull=False).order_by("number")
    hands = hands.select_related("player__profile") if with_players else hands.only("pk", "number")
    if with_bonus:
        hands = hands.annotate(round_bonus=round_bonus())
    return list(hands)


def round_bonus() -> Coalesce:
    """For a query of hands: the hand's player's bonus League points in the hand's round (6.2, 7.7), 0 for
    none (a subquery, so no extra query)."""
    awards = (
        BonusAward.objects.counted()
        .filter(round_id=OuterRef("round_id"), player_id=OuterRef("player_id"))
        .values("player_id")
        .annotate(total=Sum("points"))
        .values("total")
    )
    return Coalesce(Subquery(awards), 0)


def points_by_hand(round_id: int) -> dict[int, int]:
    """{hand id: points} over the round's matches in the table that have a result (three queries)."""
    return points_by_hand_in_rounds([round_id])


def points_by_hand_in_rounds(round_ids: Collection[int]) -> dict[int, int]:
    """{hand id: points} over the matches of these rounds (three queries whatever their number). Disqualified
    hands are excluded by id rather than by joining every match to its hands: a round rarely has any, and the
    joins doubled the cost of the aggregates (bench/tally.py)."""
    disqualified = list(
        Hand.objects.filter(round_id__in=round_ids, status=HandStatus.DISQUALIFIED).values_list(
            "pk", flat=True
        )
    )
    counted = Match.objects.filter(round_id__in=round_ids, points_a__isnull=False)
    if disqualified:
        counted = counted.exclude(hand_a_id__in=disqualified).exclude(hand_b_id__in=disqualified)
    totals: dict[int, int] = {}
    for field, points in (("hand_a_id", "points_a"), ("hand_b_id", "points_b")):
        for hand_id, total in counted.values_list(field).annotate(total=Sum(points)).order_by():
            totals[hand_id] = totals.get(hand_id, 0) + total
    return totals


def compute_tally(round_id: int, hands: Sequence[Hand] | None = None) -> list[TallyLine]:
    """Every valid hand's line, ranked by League points (equal League points share a rank), then entry
    number."""
    hands = hands if hands is not None else hands_in_table(round_id)
    return _ranked_lines(hands, points_by_hand(round_id))


def compute_tallies(round_ids: Iterable[int]) -> dict[int, TallyLine]:
    """{hand id: line} for the tables of many rounds at once, as `compute_tally` gives them one round at a
    time (four queries whatever the number of rounds)."""
    round_ids = sorted(set(round_ids))
    hands = Hand.objects.filter(VALID_HAND, round_id__in=round_ids, number__isnull=False).only(
        "pk", "number", "round_id"
    )
    by_round = defaultdict(list)
    for hand in hands:
        by_round[hand.round_id].append(hand)
    totals = points_by_hand_in_rounds(round_ids)
    return {
        line.hand.pk: line for round_hands in by_round.values() for line in _ranked_lines(round_hands, totals)
    }


def _ranked_lines(hands, totals):
    """One round's lines from its valid hands and {hand id: points}: every other hand is an opponent."""
    opponents = max(len(hands) - 1, 0)
    lines = [
        TallyLine(hand, totals.get(hand.pk, 0), opponents, league_points(totals.get(hand.pk, 0), opponents))
        for hand in hands
    ]
    lines.sort(key=lambda line: (-line.league_points, line.hand.number))
    for line, rank in zip(lines, shared_ranks([line.league_points for line in lines]), strict=True):
        line.rank = rank
    return lines


def stored_tally(round_id: int, hands: Sequence[Hand]) -> list[TallyLine] | None:
    """The stored lines for `hands` (one query), or None when any is missing."""
    stored = {row.hand_id: row for row in HandTally.objects.filter(round_id=round_id)}
    if any(hand.pk not in stored for hand in hands):
        return None
    lines = [
        TallyLine(
            hand,
            stored[hand.pk].points,
            stored[hand.pk].opponents,
            stored[hand.pk].league_points,
            stored[hand.pk].rank,
        )
        for hand in hands
    ]
    return sorted(lines, key=lambda line: (line.rank, line.hand.number))


def note_results_changed(round_id: int) -> None:
    """Call inside the transaction that changed a result: the stored tally is stale from its commit on, and a
    task recomputes it after the commit (bursts of changes coalesce into one run)."""
    RoundTally.objects.filter(round_id=round_id).update(revision=F("revision") + 1)
    signals.results_changed.send(sender=RoundTally, round_id=round_id)  # scoring.receivers schedules the task


def store_tally(round_id: int) -> bool:
    """Store the round's table unless the stored one is current; True when it wrote. The tally row is locked
    first, by the UPDATE that records the revision: every result change bumps the revision under that same
    lock, so the revision recorded is exactly the one the lines below are computed from (they are read by the
    next statement, after the lock)."""
    table = connection.ops.quote_name(RoundTally._meta.db_table)
    record = (
        f"UPDATE {table} SET tallied_revision = revision, tallied_at = %s "  # noqa: S608
        "WHERE round_id = %s AND (tallied_revision IS NULL OR tallied_revision <> revision)"
    )
    if connection.vendor == "postgresql":
        # The stored tally is derived data: a crash that loses this commit leaves it stale, and stale tallies
        # are computed again (by pages, the next task and the backstop). So its commit need not wait for the
        # WAL to reach the disk; sent with the UPDATE, it costs no round trip.
        record = f"SET LOCAL synchronous_commit TO OFF; {record}"
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(record, [timezone.now(), round_id])
            recorded = cursor.rowcount
        if not recorded:
            return False  # no table yet, or another run already stored this revision
        write_tally(round_id)
    return True


def write_tally(round_id: int) -> None:
    """Every valid hand's stored line, computed in SQL: points over the matches in the table, League points
    half up as integers, ranks by RANK() — the same numbers `compute_tally` gives (tested), without shipping
    matches or lines through Python (bench/tally.py: the fixed cost of small rounds). Only lines whose
    numbers changed are written.

    On PostgreSQL it is one statement: the lines computed once (a CTE), the lines of hands that left the
    table deleted, the changed ones updated, the missing ones inserted. Not an upsert: `ON CONFLICT DO
    UPDATE … WHERE` locks every conflicting row (a write per line) even when it leaves it as it is. Callers
    hold the round's tally row locked, so no other writer of these lines runs meanwhile (and the unique hand
    constraint stands behind the insert). Elsewhere: a DELETE and an upsert."""
    quote = connection.ops.quote_name
    lines, hands, matches = (quote(model._meta.db_table) for model in (HandTally, Hand, Match))
    rank = quote("rank")
    disqualified = HandStatus.DISQUALIFIED.value
    valid = f"round_id = %s AND status <> '{disqualified}' AND number IS NOT NULL"
    out_of_table = f"(SELECT id FROM {hands} WHERE round_id = %s AND status = '{disqualified}')"  # noqa: S608
    # Table names come from the models and values go as parameters. A hand leaves the table only by
    # disqualification: its stored line goes.
    drop = f"DELETE FROM {lines} WHERE round_id = %s AND hand_id IN {out_of_table}"  # noqa: S608
    computed = f"""
        SELECT %s AS round_id, id AS hand_id, points, opponents, league_points,
            RANK() OVER (ORDER BY league_points DESC) AS {rank}
        FROM (
            SELECT id, points, opponents,
                CASE WHEN opponents > 0 THEN (200 * points + opponents) / (2 * opponents) ELSE 0 END
                    AS league_points
            FROM (
                -- Every other valid hand is an opponent: counted once by the window, not once per hand.
                SELECT h.id, COALESCE(s.points, 0) AS points, COUNT(*) OVER () - 1 AS opponents
                FROM {hands} h
                LEFT JOIN (
                    SELECT hand, SUM(points) AS points FROM (
                        SELECT hand_a_id AS hand, points_a AS points FROM {matches}
                        WHERE round_id = %s AND points_a IS NOT NULL
                            AND hand_a_id NOT IN {out_of_table} AND hand_b_id NOT IN {out_of_table}
                        UNION ALL
                        SELECT hand_b_id, points_b FROM {matches}
                        WHERE round_id = %s AND points_b IS NOT NULL
                            AND hand_a_id NOT IN {out_of_table} AND hand_b_id NOT IN {out_of_table}
                    ) sides GROUP BY hand
                ) s ON s.hand = h.id
                WHERE h.{valid}
            ) counted
        ) ranked
    """  # noqa: S608
    columns = f"points, opponents, league_points, {rank}"
    if connection.vendor == "postgresql":
        statements = [
            f"""
            WITH computed AS MATERIALIZED ({computed}),
            dropped AS ({drop}),
            changed AS (
                UPDATE {lines} stored SET points = c.points, opponents = c.opponents,
                    league_points = c.league_points, {rank} = c.{rank}
                FROM computed c
                WHERE stored.hand_id = c.hand_id
                    AND (stored.points, stored.opponents, stored.league_points, stored.{rank})
                        <> (c.points, c.opponents, c.league_points, c.{rank})
            )
            INSERT INTO {lines} (round_id, hand_id, {columns})
            SELECT round_id, hand_id, {columns} FROM computed c
            WHERE NOT EXISTS (SELECT 1 FROM {lines} stored WHERE stored.hand_id = c.hand_id)
            """  # noqa: S608
        ]
    else:
        statements = [
            drop,
            f"""
            INSERT INTO {lines} (round_id, hand_id, {columns})
            SELECT round_id, hand_id, {columns} FROM ({computed}) c
            WHERE true
            ON CONFLICT (hand_id) DO UPDATE SET points = excluded.points, opponents = excluded.opponents,
                league_points = excluded.league_points, {rank} = excluded.{rank}
            WHERE ({lines}.points, {lines}.opponents, {lines}.league_points, {lines}.{rank})
                <> (excluded.points, excluded.opponents, excluded.league_points, excluded.{rank})
            """,  # noqa: S608
        ]
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql, [round_id] * sql.count("%s"))


def stale_tallies() -> list[int]:
    """Rounds whose stored table is behind their results: the periodic backstop for lost tasks."""
    return list(RoundTally.objects.exclude(tallied_revision=F("revision")).values_list("round_id", flat=True))
