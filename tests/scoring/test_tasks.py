"""Scheduling of the tally task: one per burst of changes, and a lost one replaced within seconds."""

from datetime import timedelta
from unittest import mock

import time_machine
from django.core.cache import cache
from django.utils import timezone

from scoring import tasks


def test_a_burst_of_changes_schedules_one_tally_and_a_lost_one_is_replaced_within_seconds(settings):
    # A local-memory cache: its expiry follows the travelling clock (Redis's would not).
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()
    start = timezone.now()
    with mock.patch.object(tasks.tally_round, "apply_async") as apply_async:
        with time_machine.travel(start, tick=False):
            tasks.schedule_tally(7)
            tasks.schedule_tally(7)  # same burst: the first one covers it
        assert apply_async.call_count == 1
        assert apply_async.call_args.kwargs == {"args": [7], "countdown": settings.SCORING_TALLY_DELAY}
        # That task never ran (its worker died with it): the next change schedules another soon after.
        assert tasks.tally_guard_seconds() <= settings.SCORING_TALLY_DELAY + 10
        with time_machine.travel(start + timedelta(seconds=tasks.tally_guard_seconds() + 1), tick=False):
            tasks.schedule_tally(7)
        assert apply_async.call_count == 2


def test_a_broker_outage_lets_the_next_change_try_again(settings):
    cache.clear()
    with mock.patch.object(tasks.tally_round, "apply_async", side_effect=ConnectionError("down")) as failing:
        tasks.schedule_tally(8)
    with mock.patch.object(tasks.tally_round, "apply_async") as apply_async:
        tasks.schedule_tally(8)
    assert failing.called and apply_async.called


def test_every_task_has_time_limits_well_inside_the_visibility_timeout(settings):
    from phm.celery import app

    assert settings.CELERY_TASK_SOFT_TIME_LIMIT < settings.CELERY_TASK_TIME_LIMIT
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility > settings.CELERY_TASK_TIME_LIMIT + settings.TASK_ETA_HORIZON
    assert app.conf.task_time_limit == settings.CELERY_TASK_TIME_LIMIT
    assert app.conf.task_ignore_result is True
