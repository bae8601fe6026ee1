"""Benchmark of the results page: `/rounds/{id}/results/` against the table API
(`/api/rounds/{id}/table/`) of the same round, measured in the same run.

    .venv/bin/python bench/results.py [--sizes 20,100,300] [--repeat 5] [--database-url postgres://…] [--keep]

Needs PostgreSQL. Creates its own database (default postgres://postgres@127.0.0.1:5432/phm_results_bench; the
name must start with "phm_results_bench"), dropped and recreated at the start, dropped at the end unless
--keep. For each size N it builds a round as bench/tally.py does (N players and hands, revealed, the match
table built, every match agreed, the tally stored), then through django.test.Client, logged in as a player of
the round (so their own row is marked):

  page cold   the results page with the cache cleared before each request (the matrix, ranking and chart
              written and cached);
  page warm   the results page from the cache;
  matrix      the full matrix page /rounds/{id}/results/matrix/ (warm), its bytes;
  API built   the table API with the cache cleared (brotli);
  API cached  the table API from the cache (brotli).

Targets: at 100 hands the page <= 300 kB and within 3x the table API; at 300 hands <= 1.5 MB and within 10x
(warm page against the cached API, medians; cold against built printed too).
"""

import argparse
import os
import secrets
import statistics
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/phm_results_bench"
DB_PREFIX = "phm_results_bench"  # the only databases this script ever drops
TARGETS = {100: (300_000, 3), 300: (1_500_000, 10)}  # N: (page bytes, page / table API)


def database_name(url):
    from common import disposable_database_name  # bench/common.py, beside this script

    return disposable_database_name(url, DB_PREFIX)


def recreate_database(url, drop_only=False):
    from common import recreate_disposable_database

    recreate_disposable_database(url, DB_PREFIX, drop_only)


def measure(size, args, client):
    import time

    from django.core.cache import cache
    from django.db import connection
    from tally import REPORT_SQL, set_up_round  # bench/tally.py, beside this script

    from scoring.services.table import build_match_table
    from scoring.services.tally import store_tally
    from submissions.models import Hand

    round_id = set_up_round(size)
    build_match_table(round_id)
    with connection.cursor() as cursor:
        cursor.execute(REPORT_SQL, [round_id])
    store_tally(round_id)
    player = Hand.objects.filter(round_id=round_id, number=max(1, size // 2)).get().player
    client.force_login(player)

    def get(path, **headers):
        started = time.perf_counter()
        response = client.get(path, **headers)
        elapsed = time.perf_counter() - started
        if response.status_code != 200:
            raise SystemExit(f"GET {path} answered {response.status_code}")
        return elapsed, len(response.content)

    def timed(path, clear=False, **headers):
        times, length = [], 0
        for _ in range(args.repeat):
            if clear:
                cache.clear()
            elapsed, length = get(path, **headers)
            times.append(elapsed)
        return {"best": min(times), "median": statistics.median(times), "bytes": length}

    page = f"/rounds/{round_id}/results/"
    api = f"/api/rounds/{round_id}/table/"
    br = {"HTTP_ACCEPT_ENCODING": "br"}
    get(page)  # warm-up: the client's middleware chain, the templates
    figures = {
        "size": size,
        "page_cold": timed(page, clear=True),
        "page_warm": timed(page),
        "matrix": timed(f"/rounds/{round_id}/results/matrix/"),
        "api_built": timed(api, clear=True, **br),
        "api_cached": timed(api, **br),
    }
    for label in ("page_cold", "page_warm", "matrix", "api_built", "api_cached"):
        f = figures[label]
        print(
            f"  N={size:<4} {label:<11} best {f['best'] * 1000:8.1f} ms  "
            f"median {f['median'] * 1000:8.1f} ms  {f['bytes'] / 1000:9.1f} kB"
        )
    return figures


def verdict(met):
    return "met" if met else "NOT met"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20,100,300")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    database_name(args.database_url)
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
    recreate_database(args.database_url)
    try:
        import django

        django.setup()
        from django.conf import settings

        # The static files are not collected here: plain storage, as the tests use (no manifest to read).
        settings.STORAGES = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        from django.core.management import call_command
        from django.test import Client

        from submissions.signals import round_revealed

        round_revealed.disconnect(dispatch_uid="scoring.build_table_after_reveal")  # built below, on purpose
        call_command("migrate", verbosity=0)
        print(f"database {database_name(args.database_url)}, sizes {sizes}, {args.repeat} repeats")
        client = Client()
        results = [measure(size, args, client) for size in sizes]
        print()
        print("Targets, medians, the table API measured in the same run:")
        print(f"  {'figure':<40} {'value':>12} {'baseline':>12} {'ratio':>8}  target -> verdict")
        for r in results:
            n, warm, cold = r["size"], r["page_warm"], r["page_cold"]
            api, built = r["api_cached"], r["api_built"]
            size_target, ratio_target = TARGETS.get(n, (None, None))
            ratio = warm["median"] / api["median"]
            tail = (
                f"  <= {ratio_target}x -> {verdict(ratio <= ratio_target)}"
                if ratio_target
                else "  (no target)"
            )
            print(
                f"  {f'N={n} page warm / table API cached':<40} {warm['median'] * 1000:>9.1f} ms "
                f"{api['median'] * 1000:>9.1f} ms {ratio:>7.2f}x{tail}"
            )
            print(
                f"  {f'N={n} page cold / table API built':<40} {cold['median'] * 1000:>9.1f} ms "
                f"{built['median'] * 1000:>9.1f} ms {cold['median'] / built['median']:>7.2f}x  (no target)"
            )
            tail = (
                f"  <= {size_target / 1000:.0f} kB -> {verdict(warm['bytes'] <= size_target)}"
                if size_target
                else "  (no target)"
            )
            print(f"  {f'N={n} page bytes':<40} {warm['bytes'] / 1000:>9.1f} kB {'':>12} {'':>8}{tail}")
            print(
                f"  {f'N={n} full matrix page (on demand)':<40} {r['matrix']['bytes'] / 1000:>9.1f} kB "
                f"{r['matrix']['median'] * 1000:>9.1f} ms {'':>8}  (no target)"
            )
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            recreate_database(args.database_url, drop_only=True)


if __name__ == "__main__":
    main()
