"""Benchmark of the round tally (issue 6): match table, tally, results-table API, against one SQL aggregate.

    .venv/bin/python bench/tally.py [--sizes 100,300,1000] [--repeat 5] [--database-url postgres://…] [--keep]
                                    [--profile]

Needs PostgreSQL. Creates its own database (default postgres://postgres@127.0.0.1:5432/phm_bench_tally;
the name must start with "phm_bench_tally"), dropped and recreated at the start, dropped at the end unless
--keep. For each size N: N players (with profiles) and N hands with one version each (bulk inserts, no
legality check), the deadline in the past and the hands numbered (`reveal_round`), then it times:

  build    scoring.services.build_match_table(round): N·(N-1)/2 matches (once per size);
  report   every match set to a legal pair, status "agreed", in one UPDATE (setup, not part of the tally),
           followed by VACUUM ANALYZE of the match table (what autovacuum would do after a day of reports);
  tally    scoring.services.store_tally(round) after bumping the RoundTally revision (so it is stale);
  compute  scoring.services.compute_tally(round), and points_by_hand(round) alone (its SQL part);
  baseline one SQL aggregate of each hand's points (UNION ALL of both sides, GROUP BY hand), cursor and
           fetchall;
  render   GET /api/rounds/{id}/table/ through django.test.Client, JSON included, with the stored tally
           current, and once with it stale (the view then computes the tally itself).

Idempotent steps run --repeat times (default 5; best and median printed; the summary table uses the median,
the 3x verdict the best runs).
Targets (issue 6): tally within 3x the SQL baseline; 1,000 hands (499,500 matches) tallied in under 10 s;
cost growing linearly in the number of matches (per-match cost flat across sizes).
"""

import argparse
import cProfile
import io
import os
import pstats
import secrets
import statistics
import sys
import time
import warnings
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/phm_bench_tally"
DB_PREFIX = "phm_bench_tally"  # the only databases this script ever drops
UNUSABLE = "!"  # an unusable password hash: nobody logs in as a benchmark player
CARDS = ["Black Lotus", "Mox Pearl", "Mox Sapphire", "Mox Jet", "Mox Ruby"]

# Every match gets one of the five legal pairs, chosen by a hash of its id (deterministic, evenly spread).
REPORT_SQL = """
UPDATE scoring_match SET
    points_a = CASE k WHEN 0 THEN 6 WHEN 1 THEN 4 WHEN 2 THEN 2 WHEN 3 THEN 1 ELSE 0 END,
    points_b = CASE k WHEN 0 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN 2 WHEN 3 THEN 4 ELSE 6 END,
    status = 'agreed', updated_at = now()
FROM (
    SELECT id AS match_id, (hashint8(id::bigint) & 2147483647) %% 5 AS k
    FROM scoring_match WHERE round_id = %s
) pick
WHERE scoring_match.id = pick.match_id
"""
BASELINE_SQL = """
SELECT hand, SUM(points) FROM (
    SELECT hand_a_id AS hand, points_a AS points FROM scoring_match WHERE round_id = %s
    UNION ALL
    SELECT hand_b_id, points_b FROM scoring_match WHERE round_id = %s
) t GROUP BY hand
"""


def database_name(url):
    name = url.rsplit("/", 1)[1].split("?", 1)[0]
    if not name.startswith(DB_PREFIX):
        raise SystemExit(
            f"refusing to drop {name!r}: the benchmark database's name must start with {DB_PREFIX!r}"
        )
    return name


def recreate_database(url, drop_only=False):
    import psycopg2
    from psycopg2 import sql

    name = database_name(url)
    admin = psycopg2.connect(url.rsplit("/", 1)[0] + "/postgres")
    admin.autocommit = True
    with admin.cursor() as cursor:
        cursor.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if not drop_only:
            cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    admin.close()


def timed(function, *args, **kwargs):
    started = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - started, result


def repeat(times, function, before=None):
    """[seconds] of `times` runs of function(); before() runs untimed ahead of each."""
    seconds = []
    result = None
    for _ in range(times):
        if before:
            before()
        elapsed, result = timed(function)
        seconds.append(elapsed)
    return seconds, result


def describe(label, seconds, matches, extra=""):
    best, median = min(seconds), statistics.median(seconds)
    print(
        f"    {label:<22} best {best * 1000:9.1f} ms   median {median * 1000:9.1f} ms   "
        f"{median / matches * 1e6:7.2f} µs/match{extra}"
    )


def set_up_round(size):
    """A league, an open round, `size` players with profiles and one hand (one version) each, past the
    deadline
    and numbered. Returns the round id."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from accounts.models import Profile
    from rounds.models import League, Round, RoundState
    from submissions.models import Hand, HandVersion
    from submissions.services import reveal_round

    User = get_user_model()
    now = timezone.now()
    run = f"{size}-{secrets.token_hex(2)}"
    league = League.objects.create(name=f"Bench tally {run}", number=None)
    round_ = Round.objects.create(
        league=league, number=1, title=f"Tally {size}", hand_size=5, state=RoundState.OPEN,
        deadline=now + timedelta(days=1), opened_at=now,
    )  # fmt: skip
    users = User.objects.bulk_create(
        [
            User(username=f"tally-{run}-{n:04d}", password=UNUSABLE, email=f"tally-{run}-{n}@example.org")
            for n in range(size)
        ]
    )
    Profile.objects.bulk_create(
        [Profile(user=user, forum_username=f"Forum {user.username}") for user in users]
    )
    hands = Hand.objects.bulk_create(
        [Hand(round=round_, player=user, name=f"Hand of {user.username}") for user in users], batch_size=1000
    )
    HandVersion.objects.bulk_create(
        [
            HandVersion(
                hand=hand,
                number=1,
                name=hand.name,
                cards=CARDS,
                nonce=f"{n:064d}",
                commitment=f"{n:064x}",
                created_by_id=hand.player_id,
                submitted_at=now,
            )
            for n, hand in enumerate(hands, start=1)
        ],
        batch_size=1000,
    )
    Round.objects.filter(pk=round_.pk).update(deadline=now - timedelta(minutes=1))
    if not reveal_round(round_.pk):
        raise SystemExit("reveal_round did not number the hands")
    return round_.pk


def measure(size, args, client):
    from django.db import connection
    from django.db.models import F

    from scoring import services
    from scoring.models import Match, RoundTally

    print(f"  N = {size}")
    setup_s, round_id = timed(set_up_round, size)
    print(f"    setup (players, hands, reveal) {setup_s:.2f} s")

    build_s, tally = timed(services.build_match_table, round_id)
    matches = Match.objects.filter(round_id=round_id).count()
    expected = size * (size - 1) // 2
    if tally is None or matches != expected:
        raise SystemExit(f"build_match_table made {matches} matches, expected {expected}")

    def report_every_match():
        with connection.cursor() as cursor:
            cursor.execute(REPORT_SQL, [round_id])
            return cursor.rowcount

    report_s, reported = timed(report_every_match)
    if reported != matches:
        raise SystemExit(f"reported {reported} matches of {matches}")

    def vacuum():
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE scoring_match")

    vacuum_s, _ = timed(vacuum)
    print(
        f"    {'build':<22} {build_s * 1000:9.1f} ms   {build_s / matches * 1e6:7.2f} µs/match  "
        f"({matches:,} matches)"
    )
    print(
        f"    {'report (setup UPDATE)':<22} {report_s * 1000:9.1f} ms   "
        f"then VACUUM ANALYZE {vacuum_s * 1000:.0f} ms"
    )

    def make_stale():
        RoundTally.objects.filter(round_id=round_id).update(revision=F("revision") + 1)

    def tally_once():
        if not services.store_tally(round_id):
            raise SystemExit("store_tally did not store (the tally was not stale)")

    tally_times, _ = repeat(args.repeat, tally_once, before=make_stale)
    compute_times, lines = repeat(args.repeat, lambda: services.compute_tally(round_id))
    points_times, points = repeat(args.repeat, lambda: services.points_by_hand(round_id))

    def baseline():
        with connection.cursor() as cursor:
            cursor.execute(BASELINE_SQL, [round_id, round_id])
            return cursor.fetchall()

    baseline_times, rows = repeat(args.repeat, baseline)
    if (
        dict(rows) != points
        or len(lines) != size
        or sum(points.values()) != sum(line.points for line in lines)
    ):
        raise SystemExit("the tally and the SQL baseline disagree")

    url = f"/api/rounds/{round_id}/table/"

    def render():
        response = client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"GET {url} answered {response.status_code}")
        return len(response.content)

    make_stale()
    services.store_tally(round_id)  # current again: render reads the stored lines
    render()  # warm-up: the first request through the client builds the middleware chain
    render_times, size_bytes = repeat(args.repeat, render)
    stale_times, _ = repeat(1, render, before=make_stale)

    describe("tally (store_tally)", tally_times, matches)
    describe("compute_tally", compute_times, matches)
    describe("  points_by_hand (SQL)", points_times, matches)
    describe("baseline (1 aggregate)", baseline_times, matches)
    describe("render (tally current)", render_times, matches, f"   {size_bytes / 1e6:.2f} MB")
    describe("render (tally stale)", stale_times, matches)

    profile = None
    if args.profile:
        profile = {}
        for label, function, before in (
            ("store_tally", tally_once, make_stale),
            ("render (tally current)", render, store_once_current(round_id, make_stale)),
        ):
            before()
            profiler = cProfile.Profile()
            profiler.enable()
            function()
            profiler.disable()
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
            profile[label] = out.getvalue()
    return {
        "size": size,
        "matches": matches,
        "build": build_s,
        "report": report_s,
        "tally": statistics.median(tally_times),
        "tally_best": min(tally_times),
        "compute": statistics.median(compute_times),
        "points": statistics.median(points_times),
        "baseline": statistics.median(baseline_times),
        "baseline_best": min(baseline_times),
        "render": statistics.median(render_times),
        "render_stale": stale_times[0],
        "bytes": size_bytes,
        "profile": profile,
    }


def store_once_current(round_id, make_stale):
    from scoring import services

    def before():
        make_stale()
        services.store_tally(round_id)

    return before


def print_summary(results):
    print()
    print("Summary (median of the repeats; µs/match = seconds / matches):")
    header = (
        f"{'N':>5} {'matches':>8} {'build s':>8} {'report s':>9} {'tally s':>8} {'compute s':>10} "
        f"{'baseline s':>11} {'tally/base':>11} {'render s':>9} {'resp MB':>8} "
        f"{'build':>7} {'tally':>7} {'base':>7} {'render':>7}"
    )
    print(header)
    print(f"{'':>95}{'— µs per match —':^31}")
    for r in results:
        m = r["matches"]
        print(
            f"{r['size']:>5} {m:>8,} {r['build']:>8.3f} {r['report']:>9.3f} {r['tally']:>8.3f} "
            f"{r['compute']:>10.3f} {r['baseline']:>11.3f} {r['tally'] / r['baseline']:>10.2f}x "
            f"{r['render']:>9.3f} {r['bytes'] / 1e6:>8.2f} "
            f"{r['build'] / m * 1e6:>7.2f} {r['tally'] / m * 1e6:>7.2f} {r['baseline'] / m * 1e6:>7.2f} "
            f"{r['render'] / m * 1e6:>7.2f}"
        )
    if len(results) > 1:
        first = results[0]
        print(f"Per-match cost relative to N = {first['size']} (1.00 = linear in the number of matches):")
        for r in results[1:]:
            ratios = "  ".join(
                f"{key} {(r[key] / r['matches']) / (first[key] / first['matches']):.2f}"
                for key in ("build", "tally", "compute", "baseline", "render")
            )
            print(f"  N = {r['size']:>5} ({r['matches'] / first['matches']:.0f}x the matches): {ratios}")

    print()
    print("Targets (issue 6):")
    for r in results:
        # The verdict uses the best runs: on a shared machine, small sizes' medians swing with other load.
        ratio = r["tally_best"] / r["baseline_best"]
        median_ratio = r["tally"] / r["baseline"]
        verdict = "met" if ratio <= 3 else "NOT met"
        print(
            f"  N = {r['size']:>5}: tally {ratio:.2f}x the SQL baseline, best runs "
            f"(medians {median_ratio:.2f}x) "
            f"— target <= 3x: {verdict}"
        )
    big = [r for r in results if r["size"] >= 1000]
    for r in big:
        verdict = "met" if r["tally"] < 10 else "NOT met"
        print(
            f"  N = {r['size']:>5}: {r['matches']:,} matches tallied in {r['tally']:.2f} s "
            f"— target < 10 s: {verdict}"
        )
    if len(results) > 1:
        first, last = results[0], results[-1]
        growth = (last["tally"] / last["matches"]) / (first["tally"] / first["matches"])
        verdict = "met" if growth <= 1.5 else "NOT met"
        print(
            f"  tally per-match cost N = {last['size']} vs N = {first['size']}: {growth:.2f}x "
            f"— target linear (≈1, allowing <= 1.5x): {verdict}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,300,1000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument("--profile", action="store_true", help="cProfile store_tally and render at each size")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    if not args.database_url.startswith("postgres"):
        raise SystemExit("bench/tally.py measures PostgreSQL: --database-url postgres://…")
    database_name(args.database_url)

    os.environ.update(
        {
            "DATABASE_URL": args.database_url,
            "DJANGO_SETTINGS_MODULE": "phm.settings",
            "SECRET_KEY": secrets.token_hex(32),
            "DEBUG": "0",  # no query log
            "LOG_LEVEL": "WARNING",
            "ALLOWED_HOSTS": "testserver",
            "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
        }
    )
    os.environ.pop("REDIS_URL", None)  # Celery eager, local-memory cache: nothing leaves the process
    warnings.filterwarnings("ignore", message="No directory at")  # staticfiles not collected: irrelevant here
    recreate_database(args.database_url)
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client

        from submissions.signals import round_revealed

        # The reveal would build the table (and tally) at once through the eager task: build is timed on its
        # own.
        round_revealed.disconnect(dispatch_uid="scoring.build_table_after_reveal")

        migrate_s, _ = timed(call_command, "migrate", verbosity=0)
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            version = cursor.fetchone()[0]
        print(
            f"PostgreSQL {version}, database {database_name(args.database_url)} "
            f"(migrated in {migrate_s:.1f} s), "
            f"{os.cpu_count()} CPUs, sizes {sizes}, {args.repeat} repeats"
        )
        client = Client()
        results = [measure(size, args, client) for size in sizes]
        print_summary(results)
        for r in results:
            for label, text in (r["profile"] or {}).items():
                print(f"\ncProfile of {label}, N = {r['size']} (top 25 by cumulative time):\n{text}")
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            recreate_database(args.database_url, drop_only=True)


if __name__ == "__main__":
    main()
