"""Benchmark of the paged matches API (`GET /api/rounds/{id}/matches/`, scoring/matches_reply.py) against the
unpaged list it replaced, measured in the same run.

    .venv/bin/python bench/matches.py [--sizes 100,400] [--repeat 5] [--database-url postgres://…] [--keep]

Needs PostgreSQL. Creates its own database (default postgres://postgres@127.0.0.1:5432/phm_bench_matches;
the name must start with "phm_bench_matches"), dropped and recreated at the start, dropped at the end unless
--keep. For each size N: N hands, the match table built, every match given a result (as bench/tally.py
does). Then, through django.test.Client (local-memory cache, DEBUG off):

  v1       the replaced view's work: MatchSerializer over every match (select_related), DRF's JSONRenderer
           (what one anonymous request cost; 11.6 s for 400 hands on the production stack);
  first    the first page (1,000 matches): built (cache cleared), from the cache, and 304 on its ETag;
  last     the last page, built (the deepest OFFSET);
  all      every page in turn, as a client following `Link: rel="next"` reads the whole list: built, then
           cached;
  bytes    a page and the whole list, plain and gzip;
  exports  `GET /api/rounds/{id}/export/csv/` and `…/bbcode/`, for the record: whole documents, not paged.

Best and median of --repeat runs (default 5).
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
sys.path.insert(0, str(ROOT / "bench"))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/phm_bench_matches"
DB_PREFIX = "phm_bench_matches"  # the only databases this script ever drops


def runs(times, function, before=None):
    seconds = []
    for _ in range(times):
        if before:
            before()
        started = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - started)
    return seconds


def line(label, seconds, extra=""):
    best, median = min(seconds), statistics.median(seconds)
    print(f"    {label:<28} best {best * 1000:9.1f} ms   median {median * 1000:9.1f} ms{extra}")
    return median


def v1_list(round_id):
    """The replaced view's body: every match through the serializer."""
    from rest_framework.renderers import JSONRenderer

    from scoring.serializers import MatchSerializer
    from scoring.services.table import matches_in_table

    matches = (
        matches_in_table(round_id)
        .select_related("hand_a__player", "hand_b__player")
        .order_by("hand_a__number", "hand_b__number")
    )
    return JSONRenderer().render(MatchSerializer(matches, many=True).data)


def measure(size, repeat, client):
    from django.core.cache import cache
    from django.db import connection
    from tally import REPORT_SQL, set_up_round  # bench/tally.py, beside this script

    from scoring import matches_reply
    from scoring.services.table import build_match_table

    round_id = set_up_round(size)
    build_match_table(round_id)
    with connection.cursor() as cursor:
        cursor.execute(REPORT_SQL, [round_id])
    total = size * (size - 1) // 2
    limit = matches_reply.DEFAULT_LIMIT
    url = f"/api/rounds/{round_id}/matches/"
    print(f"\n  N = {size} hands, {total:,} matches, pages of {limit}")

    v1_body = v1_list(round_id)
    v1 = line("v1: the whole list", runs(repeat, lambda: v1_list(round_id)), f"   {len(v1_body):,} bytes")

    def get(path, **headers):
        response = client.get(path, **headers)
        assert response.status_code in (200, 304), response.status_code
        return response

    built = line("first page, built", runs(repeat, lambda: get(url), before=cache.clear))
    cached = line("first page, cached", runs(repeat, lambda: get(url)))
    etag = get(url)["ETag"]
    line("first page, 304", runs(repeat, lambda: get(url, HTTP_IF_NONE_MATCH=etag)))
    last_offset = (total - 1) // limit * limit
    line("last page, built", runs(repeat, lambda: get(f"{url}?offset={last_offset}"), before=cache.clear))

    def every_page():
        offset, pages = 0, 0
        while offset < total:
            get(f"{url}?offset={offset}")
            offset, pages = offset + limit, pages + 1
        return pages

    every_built = line("every page, built", runs(max(1, repeat // 2), every_page, before=cache.clear))
    every_cached = line("every page, cached", runs(max(1, repeat // 2), every_page))
    page = get(url).content
    zipped = get(url, HTTP_ACCEPT_ENCODING="gzip").content
    whole = b"".join(get(f"{url}?offset={offset}").content for offset in range(0, total, limit))
    whole_zipped = sum(
        len(get(f"{url}?offset={offset}", HTTP_ACCEPT_ENCODING="gzip").content)
        for offset in range(0, total, limit)
    )
    print(
        f"    bytes: a page {len(page):,} plain, {len(zipped):,} gzip; every page {len(whole):,} plain, "
        f"{whole_zipped:,} gzip (v1 {len(v1_body):,})"
    )
    for kind in ("csv", "bbcode"):
        body = get(f"/api/rounds/{round_id}/export/{kind}/").content
        line(
            f"export/{kind} (not paged)",
            runs(max(1, repeat // 2), lambda kind=kind: get(f"/api/rounds/{round_id}/export/{kind}/")),
            f"   {len(body):,} bytes",
        )
    print(
        f"    ratios to v1 (medians): first page built {built / v1:.3f}, cached {cached / v1:.4f}; "
        f"every page built {every_built / v1:.2f}, cached {every_cached / v1:.3f}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,400")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    args = parser.parse_args()
    if not args.database_url.startswith("postgres"):
        raise SystemExit("bench/matches.py measures PostgreSQL: --database-url postgres://…")
    from common import disposable_database_name, recreate_disposable_database

    disposable_database_name(args.database_url, DB_PREFIX)
    os.environ.update(
        {
            "DATABASE_URL": args.database_url,
            "DJANGO_SETTINGS_MODULE": "phm.settings",
            "SECRET_KEY": secrets.token_hex(32),
            "DEBUG": "0",
            "LOG_LEVEL": "WARNING",
            "ALLOWED_HOSTS": "testserver",
            "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
        }
    )
    os.environ.pop("REDIS_URL", None)  # Celery eager, local-memory cache: nothing leaves the process
    warnings.filterwarnings("ignore", message="No directory at")
    recreate_disposable_database(args.database_url, DB_PREFIX)
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import Client

        from submissions.signals import round_revealed

        round_revealed.disconnect(dispatch_uid="scoring.build_table_after_reveal")
        call_command("migrate", verbosity=0)
        print(f"bench/matches.py: {os.cpu_count()} CPUs, sizes {args.sizes}, {args.repeat} repeats")
        client = Client()
        for size in (int(size) for size in args.sizes.split(",")):
            measure(size, args.repeat, client)
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            recreate_disposable_database(args.database_url, DB_PREFIX, drop_only=True)


if __name__ == "__main__":
    main()
