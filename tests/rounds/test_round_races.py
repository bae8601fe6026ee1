"""Races on the real database: concurrent moderators must not corrupt round numbers or deadlines."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from audit.selectors import audit_trail
from rounds.models import Round
from rounds.services import lifecycle as services
from rounds.services.errors import RoundConflict, RoundInputError
from tests.conftest import skip_unless

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(jobs):
    """Start every job at once (a barrier), wait for all; returns what each returned or raised."""
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)

    def worker(position, job):
        try:
            barrier.wait()
            results[position] = job()
        except Exception as error:
            results[position] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(n, job)) for n, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def on_postgres():
    skip_unless(connection.vendor == "postgresql", "row locks are only raced on PostgreSQL (DATABASE_URL)")


def test_concurrent_round_creation_numbers_rounds_once_each(on_postgres, league, moderator):
    now = timezone.now()

    def create(n):
        return lambda: services.create_round(
            actor=moderator,
            league=league,
            now=now,
            title=f"Race {n}",
            hand_size=3,
            deadline=now + timedelta(days=1),
        )

    results = run_together([create(n) for n in range(8)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(Round.objects.filter(league=league).values_list("number", flat=True)) == list(range(1, 9))


def test_close_and_extend_race_leaves_one_consistent_story(on_postgres, league, moderator):
    now = timezone.now()
    round_ = services.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title="Race",
        hand_size=3,
        deadline=now + timedelta(days=1),
    )
    closed_at = now + timedelta(minutes=1)
    extended_to = now + timedelta(days=2)
    results = run_together(
        [
            lambda: services.close_round_now(actor=moderator, round_id=round_.pk, now=closed_at),
            lambda: services.extend_deadline(
                actor=moderator, round_id=round_.pk, now=closed_at, new_deadline=extended_to
            ),
        ]
    )
    round_.refresh_from_db()
    actions = [entry.action for entry in audit_trail(round_)]
    if isinstance(results[1], RoundConflict | RoundInputError):
        # Close won: the extension saw a closed round and was refused.
        assert round_.deadline == closed_at
        assert "round.deadline_extended" not in actions
    else:
        # Extension won, then close ended submissions: the last change is the close.
        assert round_.deadline == closed_at
        assert actions[:2] == ["round.closed_early", "round.deadline_extended"]
    assert not isinstance(results[0], Exception), results


def test_an_edit_and_an_extension_at_once_never_leave_the_deadline_earlier(on_postgres, league, moderator):
    """One moderator saves the edit form (the deadline an hour later than posted), another extends it by a
    day, at the same moment. Whichever takes the round's row first, the deadline ends a day later: an edit
    that comes second sees the extension and is refused, since an open round's deadline only moves later."""
    now = timezone.now()
    posted = now + timedelta(days=1)
    round_ = services.create_round(
        actor=moderator, league=league, now=now, open_now=True, title="Race", hand_size=3, deadline=posted
    )
    extended_to = posted + timedelta(days=1)
    for _ in range(5):
        results = run_together(
            [
                lambda: services.update_round(
                    actor=moderator,
                    round_id=round_.pk,
                    now=now,
                    changes={"title": "Edited", "deadline": posted + timedelta(hours=1)},
                ),
                lambda: services.extend_deadline(
                    actor=moderator, round_id=round_.pk, now=now, new_deadline=extended_to
                ),
            ]
        )
        round_.refresh_from_db()
        assert round_.deadline == extended_to, results
        edit, extension = results
        assert not isinstance(extension, Exception), results
        if isinstance(edit, Exception):  # the extension came first
            assert isinstance(edit, RoundInputError) and "only move later" in str(edit)
        Round.objects.filter(pk=round_.pk).update(deadline=posted)
