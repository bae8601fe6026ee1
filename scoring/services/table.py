"""The match table: one match per pair of valid hands, built once the round is revealed.

Built by a task right after the reveal, and by whoever needs it first if that task has not run (pages never
depend on a worker). Idempotent: the round row is locked, the `RoundTally` row marks a built table, and the
unique pair constraint makes a second insert of a pair a no-op whatever happens.
"""

from datetime import datetime

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from audit.services import log_action
from rounds.locks import lock_round
from rounds.models import Round
from submissions import selectors as hand_selectors
from submissions.models import Hand, HandStatus
from submissions.services.reveal import reveal_round

from ..models import Match, RoundTally

VALID_HAND = ~Q(status=HandStatus.DISQUALIFIED)


def in_table(prefix: str = "") -> Q:
    """A match counts while neither of its hands is disqualified: disqualifying a hand after the table was
    built
    takes its matches out without deleting what was reported on them. `prefix` reaches the match from
    elsewhere."""
    disqualified = HandStatus.DISQUALIFIED
    return ~Q(**{f"{prefix}hand_a__status": disqualified}) & ~Q(**{f"{prefix}hand_b__status": disqualified})


MATCH_IN_TABLE = in_table()


def matches_in_table(round_id: int) -> QuerySet[Match]:
    return Match.objects.filter(MATCH_IN_TABLE, round_id=round_id)


def table_of(round_: Round, now: datetime | None = None) -> RoundTally | None:
    """The round's `RoundTally` (its scoring bookkeeping), building the match table first if the round is past
    its deadline and nobody built it yet; None before the reveal."""
    now = now or timezone.now()
    if round_.state == "draft" or not hand_selectors.is_revealed(round_, now):
        return None
    tally = RoundTally.objects.filter(round_id=round_.pk).first()
    return tally or build_match_table(round_.pk, now=now)


def build_match_table(
    round_id: int, now: datetime | None = None, *, after_number: int | None = None, inserted_before: int = 0
) -> RoundTally | None:
    """Number the hands (the reveal, if not done) and create every pair's match in one statement.
    `after_number`: the pairs whose lower number is at most that are in already (committed by the steps of
    `table_build.build_in_steps`, `inserted_before` of them): only the rest are inserted."""
    reveal_round(round_id, now=now)
    with transaction.atomic():
        round_ = lock_round(round_id)
        if round_ is None or not hand_selectors.is_revealed(round_, now or timezone.now()):
            return None
        existing = RoundTally.objects.filter(round=round_).first()
        if existing is not None:
            return existing
        created = insert_pairs(round_id, after_number=after_number)
        tally = RoundTally.objects.create(round=round_)
        hands = Hand.objects.filter(VALID_HAND, round=round_).count()
        log_action(round_, "round.table_built", after={"hands": hands, "matches": inserted_before + created})
    return tally


def insert_pairs(round_id: int, *, after_number: int | None = None, up_to_number: int | None = None) -> int:
    """INSERT … SELECT over the hands joined with themselves: N·(N-1)/2 rows without shipping them through
    Python (499,500 for 1,000 hands). `a` is the lower entry number (docs/api.md).

    The caller holds the round's lock and no `RoundTally` exists, so normally the round has no match yet and
    a plain INSERT is enough; `ON CONFLICT DO NOTHING` (a speculative insertion per row) is kept for a round
    that has some already (an imported league, a build resumed). The unique pair constraint stands behind
    both. (No ORDER BY: the nested loop gives the pairs in about (a, b) order anyway, and sorting half a
    million rows spills to disk.) The foreign-key checks of these rows are one per statement, not three per
    row (scoring migration 0005).

    `after_number`, `up_to_number`: only the pairs whose hand `a` has a number in that range (the steps of a
    large build)."""
    match_table = connection.ops.quote_name(Match._meta.db_table)
    hand_table = connection.ops.quote_name(Hand._meta.db_table)
    pairs = (
        f"SELECT a.round_id, a.id, b.id, 'unreported', '', false, %s FROM {hand_table} a "  # noqa: S608
        f"JOIN {hand_table} b ON b.round_id = a.round_id AND b.number > a.number "
        "WHERE a.round_id = %s AND a.number > %s AND a.number <= %s AND a.status <> %s AND b.status <> %s"
    )
    matches = Match.objects.filter(round_id=round_id)
    if after_number is not None:
        matches = matches.filter(hand_a__number__gt=after_number)
    if up_to_number is not None:
        matches = matches.filter(hand_a__number__lte=up_to_number)
    if matches.exists():
        pairs += " ON CONFLICT DO NOTHING"  # after the WHERE, which SQLite needs between a join and it
    sql = (
        f"INSERT INTO {match_table} (round_id, hand_a_id, hand_b_id, status, decided_note, needs_new_result, "
        f"updated_at) {pairs}"
    )
    disqualified = HandStatus.DISQUALIFIED.value
    with connection.cursor() as cursor:
        low, high = after_number or 0, up_to_number or 1 << 30  # numbers are positive small integers
        cursor.execute(sql, [timezone.now(), round_id, low, high, disqualified, disqualified])
        return cursor.rowcount


def rounds_missing_a_table(now: datetime | None = None) -> list[int]:
    """Revealed rounds without a match table: what the periodic backstop builds."""
    now = now or timezone.now()
    return list(
        Round.objects.filter(
            state__in=["open", "revealed"], deadline__lte=now, tally__isnull=True
        ).values_list("pk", flat=True)
    )
