"""Building a large match table in the background, with progress a page can show.

A page that needs the table calls `table_or_progress(round_)`: below `INLINE_BUILD_HANDS` hands the table is
built right there (under a second), as `table_of` always did; above, the build is queued (a Celery task sent
after the commit, the round id as its argument) and the page hears "being built, k of n matches" until the
task's last step creates the `RoundTally`.

The task builds in steps of about `STEP_PAIRS` pairs (the hands with the lowest numbers first), each step
committed on its own so that its matches count as progress; the last step is `build_match_table` for what
is left, which creates the `RoundTally`. Every step runs under the round's lock, skips a range whose pairs are
in already, and the unique pair constraint stands behind it all: running it twice, concurrently, or again
after a worker died half-way ends with the same table.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from phm.tasks import publish
from rounds.locks import lock_round
from rounds.models import Round
from submissions import selectors as hand_selectors
from submissions.models import Hand
from submissions.services.reveal import reveal_round

from ..models import Match, RoundTally
from .table import VALID_HAND, build_match_table, insert_pairs

# Above this many hands a page does not build the table itself: 200 hands are 19,900 matches (~0.2 s).
INLINE_BUILD_HANDS = 200
STEP_PAIRS = 50_000
# One queued build per round at a time: a page polled every few seconds must not queue one per request.
QUEUED_SECONDS = 300
# Found by name: the task's module imports this one.
BUILD_TASK = "scoring.build_match_table"


@dataclass(frozen=True)
class TableProgress:
    """What a page shows: the table (`tally`, once built) or how far its build is (`built` of `total`)."""

    tally: RoundTally | None
    built: int
    total: int

    @property
    def ready(self):
        return self.tally is not None

    @property
    def percent(self):
        return 100 if self.ready or not self.total else min(99, self.built * 100 // self.total)


def table_or_progress(round_: Round, now: datetime | None = None) -> TableProgress | None:
    """For pages: None before the reveal (nothing of the table exists for anyone), the built table, or its
    progress with the build queued. Two queries when the table exists; a few more while it is built."""
    now = now or timezone.now()
    if round_.state == "draft" or not hand_selectors.is_revealed(round_, now):
        return None
    tally = RoundTally.objects.filter(round_id=round_.pk).first()
    if tally is not None:
        return TableProgress(tally, 0, 0)
    hands = Hand.objects.filter(VALID_HAND, round_id=round_.pk).count()
    total = hands * (hands - 1) // 2
    if hands <= INLINE_BUILD_HANDS:
        tally = build_match_table(round_.pk, now=now)
        return TableProgress(tally, total, total)
    queue_build(round_.pk)
    return TableProgress(None, Match.objects.filter(round_id=round_.pk).count(), total)


def _queued_key(round_id):
    return f"scoring:table-build-queued:{round_id}"


def queue_build(round_id: int) -> bool:
    """Send the build task after the current transaction commits, unless one was sent recently. If the broker
    is down the next page view tries again, and the beat backstop builds it anyway."""

    def send():
        if not publish(current_app.tasks[BUILD_TASK], round_id):
            cache.delete(_queued_key(round_id))

    if cache.add(_queued_key(round_id), 1, timeout=QUEUED_SECONDS) is False:
        return False
    transaction.on_commit(send, robust=True)
    return True


def build_in_steps(
    round_id: int, now: datetime | None = None, step_pairs: int = STEP_PAIRS
) -> RoundTally | None:
    """The task's build: the pairs in committed steps, then `build_match_table` for the rest and the
    `RoundTally`. Returns the RoundTally (None before the reveal)."""
    reveal_round(round_id, now=now)
    numbered = Hand.objects.filter(VALID_HAND, round_id=round_id, number__isnull=False)
    numbers = sorted(cast("Iterable[int]", numbered.values_list("number", flat=True)))  # numbered hands only
    done, inserted = 0, 0  # pairs whose hand `a` has a number up to `done` are in
    for up_to in step_ends(numbers, step_pairs)[:-1]:
        with transaction.atomic():
            round_ = lock_round(round_id)
            if round_ is None or not hand_selectors.is_revealed(round_, now or timezone.now()):
                return None
            tally = RoundTally.objects.filter(round=round_).first()
            if tally is not None:
                return tally  # someone built it meanwhile
            inserted += insert_pairs(round_id, after_number=done, up_to_number=up_to)
        done = up_to
    return build_match_table(round_id, now=now, after_number=done or None, inserted_before=inserted)


def step_ends(numbers: Sequence[int], step_pairs: int) -> list[int]:
    """The last hand number of each step, each step holding about `step_pairs` pairs (a hand's pairs are the
    hands numbered after it)."""
    ends, pairs = [], 0
    for position, number in enumerate(numbers):
        pairs += len(numbers) - 1 - position
        if pairs >= step_pairs:
            ends.append(number)
            pairs = 0
    if not ends or ends[-1] != numbers[-1]:
        ends.append(numbers[-1] if numbers else 0)
    return ends
