"""Benchmark: does the password-reset form's reply time tell whether an address has an account?

    .venv/bin/python bench/reset_timing.py [--requests 40] [--database-url postgres://…/phm_bench_reset]
                                           [--redis-url redis://127.0.0.1:6379/7] [--keep]

Needs PostgreSQL (its own database, `phm_bench_reset`, dropped and recreated; any name not starting with that
is refused) and Redis as the broker (BENCH_REDIS_URL or --redis-url): the reset task is published to a queue
of the benchmark's own that no worker reads, as in production minus the worker; the queue is deleted after.
One account has the address `known@example.org`; `POST /accounts/password/reset/` goes through
django.test.Client (the full middleware stack, the request limits off), `--requests` times for the known
address and as many for an unknown one, interleaved (known, unknown, unknown, known, …) after a warm-up, in
two modes:

- task: the product as it runs in production: the request hands the address to the task, whatever it is;
- in request: the same code with the broker refusing the task, so the request looks the account up, makes the
  link and queues the mail itself — the work the form did in the request before, the baseline of this run.

Prints each mode's medians (and p90), the ratio known / unknown, and the target: the two medians within 10 %
of each other in the task mode.
"""

import argparse
import os
import secrets
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import NO_REQUEST_LIMITS, percentile, recreate_disposable_database  # noqa: E402  (after the path)

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/phm_bench_reset"
DEFAULT_REDIS = "redis://127.0.0.1:6379/7"
PREFIX = "phm_bench_reset"
QUEUE = "phm-bench-reset"  # the Celery queue the requests publish to: the benchmark's own, deleted after
KNOWN, UNKNOWN = "known@example.org", "nobody@example.org"
WARM_UP = 5
TARGET = 0.10  # the medians within 10 % of each other


def measure(client, count):
    """{address: [milliseconds, ...]} of `count` resets each, interleaved so drift hits both alike."""
    timings = {KNOWN: [], UNKNOWN: []}
    order = [KNOWN, UNKNOWN, UNKNOWN, KNOWN]
    for round_number in range(WARM_UP + count):
        for address in order[(round_number % 2) * 2 :][:2]:
            started = time.perf_counter()
            response = client.post("/accounts/password/reset/", {"email": address})
            elapsed = (time.perf_counter() - started) * 1000
            if response.status_code != 302:
                raise SystemExit(f"reset of {address} answered {response.status_code}")
            if round_number >= WARM_UP:
                timings[address].append(elapsed)
    return timings


def report(mode, timings):
    known, unknown = statistics.median(timings[KNOWN]), statistics.median(timings[UNKNOWN])
    print(
        f"  {mode:<11} known p50 {known:6.2f} ms (p90 {percentile(timings[KNOWN], 0.9):6.2f})  "
        f"unknown p50 {unknown:6.2f} ms (p90 {percentile(timings[UNKNOWN], 0.9):6.2f})  "
        f"ratio {known / unknown:5.2f}x  n = {len(timings[KNOWN])} + {len(timings[UNKNOWN])}"
    )
    return known / unknown


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DB)
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL") or DEFAULT_REDIS)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    os.environ.update(
        {
            "DATABASE_URL": args.database_url,
            "REDIS_URL": args.redis_url,
            "CELERY_QUEUE": QUEUE,
            "DJANGO_SETTINGS_MODULE": "phm.settings",
            "SECRET_KEY": secrets.token_hex(32),
            "DEBUG": "0",
            "LOG_LEVEL": "WARNING",
            "ALLOWED_HOSTS": "testserver",
            "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
            **NO_REQUEST_LIMITS,
        }
    )
    os.environ.pop("REDIS_CACHE_URL", None)  # the cache: the broker's server, next database
    warnings.filterwarnings("ignore", message="No directory at")
    recreate_disposable_database(args.database_url, PREFIX)
    try:
        import django

        django.setup()
        from django.conf import settings

        settings.STORAGES = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        from django.core.management import call_command
        from django.test import Client

        from accounts import password_reset
        from accounts import services as accounts
        from outbox.models import Message

        call_command("migrate", verbosity=0)
        accounts.register_player(username="known", password=secrets.token_hex(16), email=KNOWN)
        print(
            f"database {args.database_url.rsplit('/', 1)[1]}, broker {args.redis_url} (queue {QUEUE}), "
            f"{args.requests} requests per address and mode; load average {os.getloadavg()[0]:.1f}"
        )
        client = Client()
        task_ratio = report("task", measure(client, args.requests))
        queued_by_requests = Message.objects.count()
        publish = password_reset.publish
        password_reset.publish = lambda task, *task_args: False  # the broker refuses: work in the request
        try:
            baseline_ratio = report("in request", measure(client, args.requests))
        finally:
            password_reset.publish = publish
        print(
            f"  mail queued by the requests themselves: task mode {queued_by_requests}, "
            f"in-request mode {Message.objects.count() - queued_by_requests}"
        )
        met = abs(task_ratio - 1) <= TARGET
        print(
            f"Target: task-mode medians within {TARGET:.0%} of each other: ratio {task_ratio:.2f}x -> "
            f"{'met' if met else 'NOT met'} (baseline, work in the request: {baseline_ratio:.2f}x)"
        )
    finally:
        import redis

        redis.Redis.from_url(args.redis_url).delete(QUEUE)  # the tasks no worker was there to take
        if not args.keep:
            from django.db import connections

            connections.close_all()
            recreate_disposable_database(args.database_url, PREFIX, drop_only=True)


if __name__ == "__main__":
    main()
