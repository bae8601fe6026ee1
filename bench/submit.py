"""Benchmark of hand submission against the framework floor, in the same server.

    .venv/bin/python bench/submit.py [--clients 50] [--seconds 20] [--rate 100,200] [--repeats 3]
                                     [--workers 3] [--threads 4] [--worker-class gthread|sync] [--orm-write]

Needs PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/phm_bench_submit (created if missing),
and Redis as the broker (BENCH_REDIS_URL, else redis://127.0.0.1:6379/7): the receipt's delivery task is
published to a queue of the benchmark's own that no worker reads, as in production minus the worker; the queue
is deleted afterwards. Starts gunicorn on 127.0.0.1 (only) with bench.floor_settings: the product's settings
and URLs plus the floor, PUT /bench/floor/ (bench/floor_urls.py: DRF view, the app's token authentication, a
serializer for a small JSON body, one INSERT inside transaction.atomic()). Makes one open 5-card round and
players with e-mail addresses (so every PUT queues its receipt), then, `--repeats` times, interleaved:

- closed loop: N clients, each sending its next request when the last one is answered, for `--seconds`: the
  floor, then PUT /api/rounds/{id}/my-hand/ (alternating legal 5-card hands: every request stores a version);
- open loop at each `--rate`: requests sent at fixed times (i / rate), latency measured from the time each
  was scheduled, not from when a client got round to sending it; the floor, then PUT.

With `--orm-write`, a second gunicorn on the same database and round serves the same PUT by the ORM's saves
(SUBMISSIONS_ORM_WRITE, as every database but PostgreSQL does) instead of the one-statement write
(submissions.services.pg_write); each of its phases follows the one-statement PUT's, against the same floor.

Server CPU per request: utime + stime of the gunicorn master and its workers (and reaped children) from
/proc, before and after each phase, divided by the phase's requests. Prints each phase, then a table per
measure (figure, floor from the same run, ratio, target, met or not) and the lost / duplicated versions:
acknowledged but not stored, or stored twice.
Targets: server CPU per PUT <= 1.5x the floor's; closed-loop throughput >= 0.67x the floor's at 50
clients; open-loop p99 <= 50 ms at 200/s; none lost or duplicated.
"""

import argparse
import http.client
import json
import os
import queue
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

from bench.common import NO_REQUEST_LIMITS, ensure_database, free_port, percentile, request  # noqa: E402  (after the path)
from phm.queues import delivery_queue  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/phm_bench_submit"
DEFAULT_REDIS = "redis://127.0.0.1:6379/7"
QUEUE = "phm-bench-submit"  # the Celery queue the server publishes to: the benchmark's own, deleted after
HOST = "127.0.0.1"  # the benchmark never talks to anything but this machine
OPEN_LOOP_CONNECTIONS = 64  # client threads of the open loop: enough that a send waits for the server only
TARGET_CPU_RATIO = 1.5
TARGET_THROUGHPUT_RATIO = 0.67
TARGET_P99_MS, TARGET_P99_RATE = 50.0, 200

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


def set_up(players):
    """A fresh league, an open round and `players` players with e-mail addresses and API tokens; the floor's
    table."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts import services as accounts
    from bench.floor_urls import CREATE_TABLE
    from rounds.services import leagues
    from rounds.services import lifecycle as round_lifecycle

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(CREATE_TABLE)
    run = secrets.token_hex(3)
    moderator = accounts.register_player(username=f"benchmod-{run}", password=secrets.token_hex(16))
    accounts.make_moderator(moderator)
    # No digits at the end: a name ending in a number claims that league number, and runs would collide.
    league = leagues.create_league(actor=moderator, name=f"Bench {run} league")
    now = timezone.now()
    round_ = round_lifecycle.create_round(
        actor=moderator, league=league, now=now, open_now=True, title="Bench", hand_size=5,
        deadline=now + timedelta(days=1),
    )  # fmt: skip
    tokens = []
    for n in range(players):
        player = accounts.register_player(
            username=f"bench-{run}-{n}",
            password=None,  # API tokens only: no password to hash for hundreds of players
            email=f"bench-{run}-{n}@example.invalid",
        )
        tokens.append((player.pk, Token.objects.create(user=player).key))
    return round_.pk, tokens


def start_server(port, args, env):
    command = [
        sys.executable, "-m", "gunicorn", "phm.wsgi", "-b", f"{HOST}:{port}", "-k", args.worker_class,
        "-w", str(args.workers), "--threads", str(args.threads), "--log-level", "warning",
    ]  # fmt: skip
    # Our own gunicorn with fixed arguments: nothing untrusted reaches the command line. Its access log (the
    # production gunicorn.conf.py) is written, as in production, but not shown.
    server = subprocess.Popen(  # noqa: S603
        command, cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL
    )
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


def _process_ticks(pid, with_children):
    """utime + stime (+ cutime + cstime of reaped children) of one process, in clock ticks; 0 if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    # After the ")" closing the command name: state is field 3, so utime (14) is index 11.
    ticks = int(fields[11]) + int(fields[12])
    return ticks + (int(fields[13]) + int(fields[14]) if with_children else 0)


def _children(pid):
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def server_cpu_seconds(master_pid):
    """CPU the server has used so far: the master with its reaped workers, plus the live workers."""
    ticks = _process_ticks(master_pid, with_children=True)
    ticks += sum(_process_ticks(worker, with_children=True) for worker in _children(master_pid))
    return ticks / os.sysconf("SC_CLK_TCK")


class Phase:
    """One measured phase: its responses, wall time, server CPU and the load average when it ended."""

    def __init__(self, label, results, elapsed, cpu_seconds, offered_rate=None):
        flat = [r for per_client in results for r in per_client]
        self.label, self.elapsed, self.cpu_seconds, self.offered_rate = (
            label,
            elapsed,
            cpu_seconds,
            offered_rate,
        )
        self.requests = len(flat)
        ok = [r for r in flat if r[0] in (200, 201)]
        self.ok = len(ok)
        self.latencies = [r[2] for r in ok]
        self.failures = {}
        for r in flat:
            if r[0] not in (200, 201):
                self.failures[str(r[0])] = self.failures.get(str(r[0]), 0) + 1
        self.rate = self.ok / elapsed if elapsed else 0.0
        self.cpu_ms = 1000 * cpu_seconds / self.requests if self.requests else float("nan")
        self.load = os.getloadavg()[0]

    def p(self, fraction):
        return percentile(self.latencies, fraction)

    def line(self):
        offered = f" at {self.offered_rate:g}/s" if self.offered_rate else ""
        text = (
            f"  {self.label + offered:<26} {self.requests:6d} req, {self.requests - self.ok:4d} failed  "
            f"{self.rate:7.1f} req/s  p50 {self.p(0.5):7.1f} ms  p99 {self.p(0.99):7.1f} ms  "
            f"server CPU {self.cpu_ms:5.2f} ms/req  load {self.load:4.1f}"
        )
        return text + (f"\n    failures by status: {self.failures}" if self.failures else "")


def _measured(label, master_pid, run, offered_rate=None):
    before = server_cpu_seconds(master_pid)
    results, elapsed = run()
    phase = Phase(label, results, elapsed, server_cpu_seconds(master_pid) - before, offered_rate)
    print(phase.line(), flush=True)
    return phase


def closed_loop(port, seconds, clients, make_request):
    """`clients` threads for `seconds`; each repeats make_request(n, connection, i). Returns results."""
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


def open_loop(port, seconds, rate, make_request):
    """Request i is due at start + i / rate; a pool of connections takes them in order. Latency is counted
    from the due time, so a request that waited for a free connection or a slow server counts that wait.
    make_request(i, connection) returns (status, body, ms); its own ms is replaced."""
    count = int(seconds * rate)
    due = queue.SimpleQueue()
    for i in range(count):
        due.put(i)
    results = [[] for _ in range(OPEN_LOOP_CONNECTIONS)]
    start = time.perf_counter() + 0.2  # every thread is waiting by then

    def client(slot):
        connection = http.client.HTTPConnection(HOST, port, timeout=30)
        while True:
            try:
                i = due.get_nowait()
            except queue.Empty:
                break
            scheduled = start + i / rate
            wait = scheduled - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            try:
                status, body, _ = make_request(i, connection)
            except (OSError, http.client.HTTPException) as error:
                status, body = "error", repr(error)
                connection.close()
                connection = http.client.HTTPConnection(HOST, port, timeout=30)
            results[slot].append((status, body, (time.perf_counter() - scheduled) * 1000))
        connection.close()

    threads = [threading.Thread(target=client, args=(slot,)) for slot in range(OPEN_LOOP_CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, time.perf_counter() - start


def _ratio(figure, floor):
    return figure / floor if floor else float("nan")


def report(repeats, rates, lost, duplicated):
    def verdict(ok):
        return "met" if ok else "**not met**"

    print("\nPer measure, each repeat: figure | floor (same run) | ratio | target | met")
    print("Server CPU per request, closed loop (ms):")
    for n, (floor, *puts) in enumerate((r["closed"] for r in repeats), 1):
        for put in puts:
            ratio = _ratio(put.cpu_ms, floor.cpu_ms)
            print(
                f"  run {n}: {put.label.split(',')[0]} {put.cpu_ms:5.2f} | floor {floor.cpu_ms:5.2f} | "
                f"{ratio:4.2f}x | <= {TARGET_CPU_RATIO}x | {verdict(ratio <= TARGET_CPU_RATIO)}"
            )
    print("Throughput, closed loop (req/s):")
    for n, (floor, *puts) in enumerate((r["closed"] for r in repeats), 1):
        for put in puts:
            ratio = _ratio(put.rate, floor.rate)
            print(
                f"  run {n}: {put.label.split(',')[0]} {put.rate:6.1f} | floor {floor.rate:6.1f} | "
                f"{ratio:4.2f}x | >= {TARGET_THROUGHPUT_RATIO}x | {verdict(ratio >= TARGET_THROUGHPUT_RATIO)}"
            )
    for rate in rates:
        print(f"Open loop at {rate:g}/s: p99 from the scheduled send (ms), achieved rate:")
        for n, repeat in enumerate(repeats, 1):
            floor, *puts = repeat["open"][rate]
            for put in puts:
                target = f"<= {TARGET_P99_MS:g} ms" if rate == TARGET_P99_RATE else "—"
                met = verdict(put.p(0.99) <= TARGET_P99_MS) if rate == TARGET_P99_RATE else "—"
                p99, floor_p99 = put.p(0.99), floor.p(0.99)
                print(
                    f"  run {n}: {put.label.split(',')[0]} p99 {p99:7.1f} ({put.rate:5.1f}/s) | "
                    f"floor p99 {floor_p99:7.1f} ({floor.rate:5.1f}/s) | {_ratio(p99, floor_p99):4.2f}x | "
                    f"{target} | {met}"
                )
    if any(len(r["closed"]) > 2 for r in repeats):
        print("ORM write against the one-statement write, closed loop (server CPU per PUT, throughput):")
        for n, (_, put, orm) in enumerate((r["closed"] for r in repeats), 1):
            cpu, throughput = _ratio(orm.cpu_ms, put.cpu_ms), _ratio(orm.rate, put.rate)
            print(
                f"  run {n}: CPU {orm.cpu_ms:5.2f} / {put.cpu_ms:5.2f} ms = {cpu:4.2f}x; "
                f"throughput {orm.rate:6.1f} / {put.rate:6.1f} req/s = {throughput:4.2f}x"
            )
    print(f"Lost {lost}, duplicated {duplicated} (target 0): {verdict(lost + duplicated == 0)}")


def count_lost_and_duplicated(round_id, tokens, sent):
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
    print(f"\n  acknowledged versions {acknowledged_total}, stored versions {stored_total}")
    return lost, duplicated


def receipts_rendered_at_sending(round_id, sample=200):
    """The work moved out of the PUT: the outbox's delivery of `sample` queued receipts, in this process
    (rendering from the version, then the dummy mail backend)."""
    from outbox import services as outbox
    from outbox.models import Message

    pending = list(
        Message.objects.filter(round_id=round_id, kind="hand.receipt", state=Message.State.PENDING)
        .order_by("pk")
        .values_list("pk", flat=True)[:sample]
    )
    started = time.process_time()
    outcomes = [outbox.deliver(pk) for pk in pending]
    spent = time.process_time() - started
    queued = Message.objects.filter(round_id=round_id, kind="hand.receipt").count()
    sent = outcomes.count("sent")
    print(
        f"  receipts queued {queued}; {sent} of {len(pending)} delivered here by the outbox, "
        f"{1000 * spent / max(len(pending), 1):.2f} ms CPU each (rendered from the version when sent)"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rate", default="100,200", help="open-loop rates, requests per second")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--worker-class", default="gthread", choices=["gthread", "sync"])
    parser.add_argument(
        "--orm-write",
        action="store_true",
        help="also measure the PUT written by the ORM's saves (a second server with SUBMISSIONS_ORM_WRITE)",
    )
    args = parser.parse_args()
    rates = [float(rate) for rate in args.rate.split(",") if rate.strip()]

    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DB
    if not database_url.startswith("postgres"):
        raise SystemExit("bench/submit.py measures the PostgreSQL stack: set DATABASE_URL=postgres://…")
    redis_url = os.environ.get("BENCH_REDIS_URL") or DEFAULT_REDIS
    ensure_database(database_url)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_QUEUE": QUEUE,
        "DJANGO_SETTINGS_MODULE": "bench.floor_settings",
        "PHM_BENCH_FLOOR": "1",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_hex(32),
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
        **NO_REQUEST_LIMITS,
    }
    env.pop("REDIS_CACHE_URL", None)  # the cache on the broker's next database, as the settings derive it
    os.environ.update(
        {
            key: env[key]
            for key in ("DATABASE_URL", "REDIS_URL", "CELERY_QUEUE", "SECRET_KEY", "DEBUG", "EMAIL_BACKEND")
        }
    )
    os.environ["DJANGO_SETTINGS_MODULE"] = "phm.settings"  # this process: set-up and counting only
    players = max(args.clients, int(max(rates, default=0)) * 2)  # open loop: one PUT per player per ~2 s
    round_id, tokens = set_up(players)
    port = free_port()
    print(
        f"gunicorn {args.worker_class} {args.workers} workers x {args.threads} threads on {HOST}:{port}, "
        f"{args.clients} closed-loop clients, open loop at {args.rate}/s, {args.seconds:.0f} s per phase, "
        f"{args.repeats} repeats, {players} players with e-mail addresses, PostgreSQL, broker {redis_url} "
        f"(queue {QUEUE}); load average {os.getloadavg()[0]:.1f} at the start"
    )
    sent = [[] for _ in tokens]
    floor_body = json.dumps({"name": "Floor hand", "cards": HANDS[0]})

    def headers(n):
        return {"Authorization": f"Token {tokens[n][1]}", "Content-Type": "application/json"}

    def floor(n, connection, i=0):
        return request(connection, "PUT", "/bench/floor/", floor_body, headers(n))

    def submit(n, connection, i):
        body = json.dumps({"name": f"Bench hand {i}", "cards": HANDS[(n + i) % len(HANDS)], "attest": True})
        status, data, ms = request(connection, "PUT", f"/api/rounds/{round_id}/my-hand/", body, headers(n))
        if status in (200, 201):
            answer = json.loads(data)
            sent[n].append((answer["version"], answer["commitment"]))
        return status, "", ms

    server = start_server(port, args, env)
    master = server.pid
    orm_server = orm_port = None
    repeats = []
    try:
        if args.orm_write:
            orm_port = free_port()
            orm_server = start_server(orm_port, args, {**env, "PHM_BENCH_ORM_WRITE": "1"})
        # Warm every worker (the catalog index is built once per process) before measuring anything.
        for warmed in (port, orm_port) if orm_port else (port,):
            closed_loop(
                warmed,
                5,
                min(args.clients, 16),
                lambda n, c, i: request(c, "GET", "/cards/check/?name=Karakas"),
            )
            closed_loop(warmed, 3, min(args.clients, 16), lambda n, c, i: floor(n, c))
        for repeat in range(1, args.repeats + 1):
            print(f"Repeat {repeat}:", flush=True)
            closed = (
                _measured(
                    "floor, closed loop", master, lambda: closed_loop(port, args.seconds, args.clients, floor)
                ),
                _measured(
                    "PUT, closed loop", master, lambda: closed_loop(port, args.seconds, args.clients, submit)
                ),
            )
            if orm_server:
                closed += (
                    _measured(
                        "PUT (ORM write), closed loop",
                        orm_server.pid,
                        lambda: closed_loop(orm_port, args.seconds, args.clients, submit),
                    ),
                )
            opened = {}
            for rate in rates:
                opened[rate] = (
                    _measured(
                        "floor, open loop",
                        master,
                        lambda rate=rate: open_loop(
                            port, args.seconds, rate, lambda i, c: floor(i % players, c)
                        ),
                        rate,
                    ),
                    _measured(
                        "PUT, open loop",
                        master,
                        lambda rate=rate: open_loop(
                            port, args.seconds, rate, lambda i, c: submit(i % players, c, i // players)
                        ),
                        rate,
                    ),
                )
                if orm_server:
                    opened[rate] += (
                        _measured(
                            "PUT (ORM write), open loop",
                            orm_server.pid,
                            lambda rate=rate: open_loop(
                                orm_port,
                                args.seconds,
                                rate,
                                lambda i, c: submit(i % players, c, i // players),
                            ),
                            rate,
                        ),
                    )
            repeats.append({"closed": closed, "open": opened})
    finally:
        stop_server(server)
        if orm_server:
            stop_server(orm_server)
        import redis

        # the tasks no worker was there to take (the receipts' on the delivery queue: phm.queues)
        redis.Redis.from_url(redis_url).delete(QUEUE, delivery_queue(QUEUE))

    lost, duplicated = count_lost_and_duplicated(round_id, tokens, sent)
    receipts_rendered_at_sending(round_id)
    report(repeats, rates, lost, duplicated)


if __name__ == "__main__":
    main()
