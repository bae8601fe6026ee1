"""Building the match table: inline for small rounds, queued with progress for large
ones, in committed steps that can run twice or resume; the SQL path on PostgreSQL; tallies that do not
rewrite what did not change."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEntry
from scoring.models import HandTally, Match, RoundTally
from scoring.services import table_build
from scoring.services.reports import report_row
from scoring.services.table import build_match_table, insert_pairs
from scoring.services.table_build import build_in_steps, table_or_progress
from scoring.services.tally import store_tally
from submissions.models import Hand
from submissions.services.reveal import reveal_round
from tests.conftest import skip_unless

from .conftest import match_between


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _pairs(round_):
    return set(Match.objects.filter(round=round_).values_list("hand_a__number", "hand_b__number").order_by())


def _all_pairs(count):
    return {(a, b) for a in range(1, count + 1) for b in range(a + 1, count + 1)}


def test_step_ends_split_the_pairs_into_steps():
    assert table_build.step_ends([], 10) == [0]
    assert table_build.step_ends([1, 2, 3], 100) == [3]
    # 6 hands: hand 1 has 5 pairs, hand 2 has 4, 3 has 3, 4 has 2, 5 has 1.
    assert table_build.step_ends([1, 2, 3, 4, 5, 6], 5) == [1, 3, 6]
    assert table_build.step_ends([2, 5, 7], 1) == [2, 5, 7]


def test_a_small_round_is_built_right_away(revealed_round):
    round_, _players = revealed_round(4, build=False)
    progress = table_or_progress(round_)
    assert progress.ready and progress.percent == 100
    assert progress.tally == RoundTally.objects.get(round=round_)
    assert _pairs(round_) == _all_pairs(4)
    again = table_or_progress(round_)
    assert again.ready and again.tally == progress.tally


def test_nothing_before_the_reveal(revealed_round, api_client):
    from tests.factories import RoundFactory

    round_, _players = revealed_round(3, build=False)
    open_round = RoundFactory(league=round_.league)
    assert table_or_progress(open_round) is None
    reply = api_client.get(f"/api/rounds/{open_round.pk}/table/progress/")
    assert reply.status_code == 404 and "no-store" in reply["Cache-Control"]
    assert not Match.objects.filter(round=open_round).exists()


def test_a_large_round_is_queued_once_and_reports_progress(
    revealed_round, monkeypatch, django_capture_on_commit_callbacks, api_client
):
    monkeypatch.setattr(table_build, "INLINE_BUILD_HANDS", 3)
    round_, _players = revealed_round(6, build=False)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        progress = table_or_progress(round_)
        again = table_or_progress(round_)  # a page polled again: no second task
    assert (progress.ready, progress.built, progress.total, progress.percent) == (False, 0, 15, 0)
    assert not again.ready
    assert len(callbacks) == 1
    assert not Match.objects.filter(round=round_).exists()  # nothing was built in the request

    monkeypatch.setattr(table_build, "STEP_PAIRS", 5)
    callbacks[0]()  # the task (eager here) builds it
    done = table_or_progress(round_)
    assert done.ready
    assert _pairs(round_) == _all_pairs(6)
    assert api_client.get(f"/api/rounds/{round_.pk}/table/progress/").json() == {
        "ready": True,
        "built": 0,
        "total": 0,
        "percent": 100,
    }


def test_progress_counts_the_committed_steps(revealed_round, monkeypatch, api_client):
    monkeypatch.setattr(table_build, "INLINE_BUILD_HANDS", 3)
    round_, _players = revealed_round(6, build=False)
    reveal_round(round_.pk)
    insert_pairs(round_.pk, after_number=0, up_to_number=1)  # the first step: hand 1's 5 pairs
    progress = table_or_progress(round_)
    assert (progress.ready, progress.built, progress.total, progress.percent) == (False, 5, 15, 33)
    body = api_client.get(f"/api/rounds/{round_.pk}/table/progress/").json()
    assert body == {"ready": False, "built": 5, "total": 15, "percent": 33}


def test_the_stepwise_build_makes_the_same_table_and_can_run_again_or_resume(revealed_round):
    round_, _players = revealed_round(7, build=False)
    tally = build_in_steps(round_.pk, step_pairs=4)
    assert tally == RoundTally.objects.get(round=round_)
    assert _pairs(round_) == _all_pairs(7)
    entry = AuditEntry.objects.filter(action="round.table_built").latest("pk")
    assert entry.after == {"hands": 7, "matches": 21}
    # Again: nothing changes.
    assert build_in_steps(round_.pk, step_pairs=4) == tally
    assert Match.objects.filter(round=round_).count() == 21

    # A worker died after some steps: the next run completes the table, each pair once.
    other, _ = revealed_round(7, build=False)
    reveal_round(other.pk)
    insert_pairs(other.pk, after_number=0, up_to_number=2)
    insert_pairs(other.pk, after_number=4, up_to_number=5)  # even out of order
    assert build_in_steps(other.pk, step_pairs=4) is not None
    assert _pairs(other) == _all_pairs(7)
    assert Match.objects.filter(round=other).count() == 21


def test_a_build_is_idempotent_and_fills_in_what_is_missing(revealed_round):
    round_, _players = revealed_round(5)
    tally = RoundTally.objects.get(round=round_)
    assert build_match_table(round_.pk) == tally
    assert Match.objects.filter(round=round_).count() == 10
    # A table whose bookkeeping row is gone and some matches too (an import, a repair): rebuilt whole.
    kept = match_between(round_, 1, 2)
    tally.delete()
    Match.objects.filter(round=round_).exclude(pk=kept.pk).filter(hand_b__number__gte=4).delete()
    assert build_match_table(round_.pk) is not None
    assert _pairs(round_) == _all_pairs(5)
    assert Match.objects.filter(pk=kept.pk).exists()


def test_disqualified_hands_get_no_matches_in_a_stepwise_build(revealed_round, moderator):
    from submissions.services.review import review_hand

    round_, _players = revealed_round(5, build=False)
    reveal_round(round_.pk)
    hand = Hand.objects.get(round=round_, number=3)
    review_hand(actor=moderator, hand_id=hand.pk, action="disqualify", message="Illegal")
    build_in_steps(round_.pk, step_pairs=2)
    assert _pairs(round_) == {pair for pair in _all_pairs(5) if 3 not in pair}


# PostgreSQL: the SQL path of the build, and tallies that leave unchanged lines alone -------------------------


@pytest.fixture
def on_postgres():
    skip_unless(connection.vendor == "postgresql", "the build's SQL path is PostgreSQL's (DATABASE_URL)")


@pytest.mark.needs_postgres
def test_the_build_on_postgresql_inserts_each_pair_once(on_postgres, revealed_round):
    round_, _players = revealed_round(30, build=False)
    with CaptureQueriesContext(connection) as captured:
        build_match_table(round_.pk)
    inserts = [query["sql"] for query in captured if query["sql"].startswith('INSERT INTO "scoring_match"')]
    assert len(inserts) == 1 and "ON CONFLICT" not in inserts[0]
    assert _pairs(round_) == _all_pairs(30)
    # Twice, and with some pairs already there: the upsert path, still each pair once.
    assert build_match_table(round_.pk) is not None
    RoundTally.objects.filter(round=round_).delete()
    Match.objects.filter(round=round_, hand_a__number__gte=20).delete()
    with CaptureQueriesContext(connection) as captured:
        build_match_table(round_.pk)
    assert any("ON CONFLICT DO NOTHING" in query["sql"] for query in captured)
    assert Match.objects.filter(round=round_).count() == 435


@pytest.mark.needs_postgres
def test_a_tally_leaves_unchanged_lines_alone(on_postgres, revealed_round):
    round_, players = revealed_round(4)
    report_row(player=players[0], round_id=round_.pk, row="1 | X 6 0 2")
    assert store_tally(round_.pk)

    def versions():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT hand_id, xmin::text FROM scoring_handtally WHERE round_id = %s ORDER BY hand_id",
                [round_.pk],
            )
            return dict(cursor.fetchall())

    before = versions()
    RoundTally.objects.filter(round=round_).update(revision=RoundTally.objects.get(round=round_).revision + 1)
    with CaptureQueriesContext(connection) as captured:
        assert store_tally(round_.pk)
    statements = [query["sql"] for query in captured if not query["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    assert len(statements) == 2, statements  # the revision's UPDATE, then one statement for every line
    assert versions() == before  # nothing changed, nothing rewritten

    report_row(player=players[1], round_id=round_.pk, row="2 | 0 X 4 4")
    assert store_tally(round_.pk)
    after = versions()
    hands = dict(Hand.objects.filter(round=round_).values_list("number", "pk"))
    assert after[hands[1]] == before[hands[1]]  # hand 1's line (8 points, first) did not change
    assert after[hands[2]] != before[hands[2]]
    assert HandTally.objects.get(hand_id=hands[2]).points == 8
