"""Benchmark of hand submission under concurrency, against a trivial page on the same server.

    .venv/bin/python bench/submit.py [--clients 50] [--seconds 30] [--workers 3] [--threads 4]
                                     [--worker-class gthread|sync]

Needs PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/phm_bench_submit (created if missing).
Starts gunicorn on 127.0.0.1 (only), makes one open 5-card round and one player per client, then for
`--seconds` each drives N concurrent clients: first GET /healthz (the trivial page, one `SELECT 1`), then
PUT /api/rounds/{id}/my-hand/ alternating legal 5-card hands, so every request stores a new version.
Prints throughput, p50/p99 latency, the throughput ratio, and after the run counts hands that were
acknowledged but not stored (lost) and versions or hands stored twice (duplicated).
Targets (issue 5): submission throughput >= 0.5x the trivial page's; p99 <= 150 ms at 50 clients;
none lost or duplicated.
"""

import argparse
import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import ensure_database, free_port, percentile, request  # noqa: E402  (after the path)

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/phm_bench_submit"
HOST = "127.0.0.1"  # the benchmark never talks to anything but this machine

HANDS = [
    ["Leyline of Singularity", "Karakas", "Kjeldoran Warrior", "Mishra's Workshop", "Wheel of Torture"],
    ["Ancient Tomb", "Gustha's Scepter", "Lodestone Golem", "Mishra's Workshop", "Sphere of Resistance"],
    [
        "Leyline of the Void",
        "Chalice of the Void",
        "Dark Depths",
        "Thespian's Stage",
        "Urborg, Tomb of Yawgmoth",
    ],
]


def set_up(clients):
    """A fresh league, an open round and one player (with an API token) per client."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts import services as accounts
    from rounds.services import leagues

    call_command("migrate", verbosity=0)
    run = secrets.token_hex(3)
    moderator = accounts.register_player(username=f"benchmod-{run}", password=secrets.token_hex(16))
    accounts.make_moderator(moderator)
    # No digits at the end: a name ending in a number claims that league number, and runs would collide.
    league = leagues.create_league(actor=moderator, name=f"Bench {run} league")
    now = timezone.now()
    round_ = leagues.create_round(
        actor=moderator, league=league, now=now, open_now=True, title="Bench", hand_size=5,
        deadline=now + timedelta(days=1),
    )  # fmt: skip
    tokens = []
    for n in range(clients):
        player = accounts.register_player(username=f"bench-{run}-{n}", password=secrets.token_hex(16))
        tokens.append((player.pk, Token.objects.create(user=player).key))
    return round_.pk, tokens


def start_server(port, args, env):
    command = [
        sys.executable, "-m", "gunicorn", "phm.wsgi", "-b", f"{HOST}:{port}", "-k", args.worker_class,
        "-w", str(args.workers), "--threads", str(args.threads), "--log-level", "warning",
    ]  # fmt: skip
    # Our own gunicorn with fixed arguments: nothing untrusted reaches the command line.
    server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)  # noqa: S603
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=5)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.3)
    stop_server(server)
    raise SystemExit("gunicorn did not start within 60 s")


def stop_server(server):
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(server.pid, signal.SIGKILL)


def drive(port, seconds, clients, make_request):
    """Run `clients` threads for `seconds`; each repeats make_request(n, connection, i). Returns results."""
    stop_at = time.monotonic() + seconds
    results = [[] for _ in range(clients)]
    barrier = threading.Barrier(clients)

    def client(n):
        connection = http.client.HTTPConnection(HOST, port, timeout=30)
        barrier.wait()
        i = 0
        while time.monotonic() < stop_at:
            try:
                results[n].append(make_request(n, connection, i))
            except (OSError, http.client.HTTPException) as error:
                results[n].append(("error", repr(error), 0.0))
                connection.close()
                connection = http.client.HTTPConnection(HOST, port, timeout=30)
            i += 1
        connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, time.perf_counter() - started


def summarise(label, results, elapsed):
    flat = [r for per_client in results for r in per_client]
    ok = [r for r in flat if r[0] in (200, 201)]
    latencies = [r[2] for r in ok]
    rate = len(ok) / elapsed
    print(
        f"  {label:<22} {len(flat):6d} requests, {len(ok):6d} ok, {len(flat) - len(ok):4d} failed   "
        f"{rate:8.1f} req/s   p50 {percentile(latencies, 0.5):7.1f} ms   "
        f"p99 {percentile(latencies, 0.99):7.1f} ms"
    )
    failures = {}
    for r in flat:
        if r[0] not in (200, 201):
            failures[str(r[0])] = failures.get(str(r[0]), 0) + 1
    if failures:
        print(f"    failures by status: {failures}")
    return rate, latencies


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--worker-class", default="gthread", choices=["gthread", "sync"])
    args = parser.parse_args()

    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DB
    if not database_url.startswith("postgres"):
        raise SystemExit("bench/submit.py measures the PostgreSQL stack: set DATABASE_URL=postgres://…")
    ensure_database(database_url)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "phm.settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_hex(32),
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
    }
    env.pop("REDIS_URL", None)  # the request path needs no broker; without one, no task leaves the process
    os.environ.update(
        {key: env[key] for key in ("DATABASE_URL", "SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE")}
    )
    os.environ.pop("REDIS_URL", None)
    round_id, tokens = set_up(args.clients)
    port = free_port()
    print(
        f"gunicorn {args.worker_class} {args.workers} workers x {args.threads} threads on {HOST}:{port}, "
        f"{args.clients} clients, {args.seconds:.0f} s per phase, PostgreSQL"
    )
    server = start_server(port, args, env)
    try:
        # Warm every worker (the catalog index is built once per process) before measuring anything.
        drive(port, 5, min(args.clients, 16), lambda n, c, i: request(c, "GET", "/cards/check/?name=Karakas"))
        baseline_results, baseline_elapsed = drive(
            port, args.seconds, args.clients, lambda n, c, i: request(c, "GET", "/healthz")
        )
        sent = [[] for _ in tokens]

        def submit(n, connection, i):
            body = json.dumps(
                {"name": f"Bench hand {i}", "cards": HANDS[(n + i) % len(HANDS)], "attest": True}
            )
            headers = {"Authorization": f"Token {tokens[n][1]}", "Content-Type": "application/json"}
            status, data, ms = request(connection, "PUT", f"/api/rounds/{round_id}/my-hand/", body, headers)
            if status in (200, 201):
                answer = json.loads(data)
                sent[n].append((answer["version"], answer["commitment"]))
            return status, "", ms

        submit_results, submit_elapsed = drive(port, args.seconds, args.clients, submit)
    finally:
        stop_server(server)

    print("Results:")
    baseline_rate, _ = summarise("trivial page /healthz", baseline_results, baseline_elapsed)
    submit_rate, submit_latencies = summarise("PUT my-hand (5 cards)", submit_results, submit_elapsed)

    from submissions.models import Hand, HandVersion

    stored = {}
    for player_id, number, commitment in HandVersion.objects.filter(hand__round_id=round_id).values_list(
        "hand__player_id", "number", "commitment"
    ):
        stored.setdefault(player_id, []).append((number, commitment))
    lost = duplicated = 0
    for (player_id, _), acknowledged in zip(tokens, sent, strict=True):
        versions = stored.get(player_id, [])
        lost += len(set(acknowledged) - set(versions))
        duplicated += len(versions) - len(set(versions))
        duplicated += len({number for number, _ in versions}) != len(versions)
    hands_per_player = Hand.objects.filter(round_id=round_id).values_list("player_id", flat=True)
    duplicated += len(hands_per_player) - len(set(hands_per_player))
    acknowledged_total = sum(len(a) for a in sent)
    stored_total = sum(len(v) for v in stored.values())
    print(f"  acknowledged versions {acknowledged_total}, stored versions {stored_total}")
    print(f"  lost {lost}, duplicated {duplicated}")
    print("Targets:")
    ratio = submit_rate / baseline_rate if baseline_rate else float("nan")
    print(f"  throughput ratio {ratio:.2f} (target >= 0.5)")
    print(f"  submission p99 {percentile(submit_latencies, 0.99):.1f} ms (target <= 150 ms at 50 clients)")
    print(f"  lost + duplicated {lost + duplicated} (target 0)")


if __name__ == "__main__":
    main()
