"""Benchmark of hand submission with Redis up and down, and of mail catching up once Redis is back.

    .venv/bin/python bench/faults.py [--clients 12] [--seconds 15] [--backstop-interval 60] [--mails 200]
                                     [--repeat 1] [--workers 3] [--threads 4] [--keep-logs]

Needs PostgreSQL and Redis on 127.0.0.1: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/phm_bench_faults
(created if missing; the name must start with phm_bench_faults); Redis databases 8 (broker) and 9 (cache) of
redis://127.0.0.1:6379, only under this run's queue names and cache prefix (deleted at the end).
Everything talks only to 127.0.0.1. Makes one open 5-card round and one player with an e-mail address per
client (so every PUT also writes a receipt to the outbox and publishes its delivery task), then:

1. Redis UP: gunicorn with REDIS_URL/REDIS_CACHE_URL on the real Redis (tasks go to a queue nobody consumes),
   `--seconds` of PUT /api/rounds/{id}/my-hand/ from `--clients` closed-loop clients, then samples of
   GET /api/cards/?q=bolt, GET /api/cards/resolve/?name=… (exact and fuzzy), POST /api/cards/resolve/ and
   GET /healthz. Redis DOWN: the same with both URLs on a local port that was bound and closed (nothing
   listens). `--repeat N` interleaves N such pairs (the machine's load moves between phases).
   Prints throughput, p50/p99, the down/up p99 ratio (target <= 1.5x) and status codes.
2. After each phase: every acknowledged (2xx) version must be stored, and each player's last acknowledged one
   must be their current version; prints lost / duplicated (target 0).
3. Mail after an outage: the earlier phases' receipts are retired (state failed) so only this step's count;
   with the web still on a dead Redis, `--mails` PUTs queue as many receipts, which stay pending. Then Redis
   "comes back": a Celery worker with embedded beat (`celery -A phm worker -B --pool=solo`) on the real Redis,
   its own queue, BACKSTOP_INTERVAL=`--backstop-interval`, SMTP to an aiosmtpd sink on 127.0.0.1. Prints the
   time from the worker's start (and from its "ready" log line) to the last receipt received and no pending
   row left, and checks every message arrived exactly once (by its X-PHM-Message header).

Every subprocess (gunicorn, celery) is stopped at the end, also on errors and Ctrl-C. Logs stay in a temporary
folder whose path is printed (kept with --keep-logs, else deleted).
"""

import argparse
import email
import http.client
import json
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402  (after the path is set)
from bench.common import NO_REQUEST_LIMITS, free_port, percentile, request  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/phm_bench_faults"
DB_PREFIX = "phm_bench_faults"
HOST = "127.0.0.1"  # the benchmark never talks to anything but this machine
REDIS = f"redis://{HOST}:6379"
BROKER_DB, CACHE_DB = 8, 9

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

processes = []  # every subprocess started, stopped in main()'s finally


def ensure_database(url):
    name = url.rsplit("/", 1)[1]
    if not name.startswith(DB_PREFIX):
        raise SystemExit(f"bench/faults.py only uses databases named {DB_PREFIX}*, not {name!r}")
    common.ensure_database(url)


def set_up(clients, run):
    """A fresh league, an open round and one player (e-mail address, API token) per client."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts import services as accounts
    from rounds.services import leagues
    from rounds.services import lifecycle as round_lifecycle

    call_command("migrate", verbosity=0)
    moderator = accounts.register_player(username=f"benchmod-{run}", password=secrets.token_hex(16))
    accounts.make_moderator(moderator)
    # No digits at the end: a name ending in a number claims that league number, and runs would collide.
    league = leagues.create_league(actor=moderator, name=f"Bench {run} faults league")
    now = timezone.now()
    round_ = round_lifecycle.create_round(
        actor=moderator, league=league, now=now, open_now=True, title="Bench faults", hand_size=5,
        deadline=now + timedelta(days=1),
    )  # fmt: skip
    tokens = []
    for n in range(clients):
        player = accounts.register_player(
            username=f"bench-{run}-{n}",
            password=secrets.token_hex(16),
            email=f"bench-{run}-{n}@bench.invalid",
        )
        tokens.append((player.pk, Token.objects.create(user=player).key))
    return round_.pk, tokens


def closed_port():
    """A local port that was just bound and closed, and that refuses connections."""
    port = free_port()
    with socket.socket() as probe:
        if probe.connect_ex((HOST, port)) == 0:
            raise SystemExit(f"port {port} unexpectedly accepts connections")
    return port


def start(command, env, log_path):
    log = open(log_path, "ab")  # noqa: SIM115 — owned by the process, closed by stop()
    # Our own gunicorn/celery with fixed arguments: nothing untrusted reaches the command line.
    process = subprocess.Popen(  # noqa: S603
        command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    process.log = log
    processes.append(process)
    return process


def stop(process, grace=20):
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=grace)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    process.log.close()
    if process in processes:
        processes.remove(process)


def start_server(port, args, env, log_path):
    command = [
        sys.executable, "-m", "gunicorn", "phm.wsgi", "-b", f"{HOST}:{port}", "-k", "gthread",
        "-w", str(args.workers), "--threads", str(args.threads), "--log-level", "warning",
    ]  # fmt: skip
    server = start(command, env, log_path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with {server.returncode}; see {log_path}")
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=5)
            connection.request("GET", "/healthz")
            connection.getresponse().read()  # 200, or 503 while Redis is down: either way it serves
            return server
        except (OSError, http.client.HTTPException):
            time.sleep(0.3)
    raise SystemExit("gunicorn did not start within 60 s")


def drive(port, clients, make_request, *, seconds=None, count=None):
    """Run `clients` threads for `seconds` (or until `count` requests in all); each repeats
    make_request(n, connection, i). Returns per-client results and the elapsed time."""
    stop_at = time.monotonic() + (seconds if seconds is not None else 3600)
    results = [[] for _ in range(clients)]
    barrier = threading.Barrier(clients)
    tickets = iter(range(count)) if count is not None else None
    ticket_lock = threading.Lock()

    def client(n):
        connection = http.client.HTTPConnection(HOST, port, timeout=30)
        barrier.wait()
        i = 0
        while time.monotonic() < stop_at:
            if tickets is not None:
                with ticket_lock:
                    if next(tickets, None) is None:
                        break
            try:
                results[n].append(make_request(n, connection, i))
            except (OSError, http.client.HTTPException) as error:
                results[n].append(("error", repr(error), 0.0))
                connection.close()
                connection = http.client.HTTPConnection(HOST, port, timeout=30)
            i += 1
        connection.close()

    # Daemons: on Ctrl-C the main thread stops the server at once instead of waiting for the clients.
    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, time.perf_counter() - started


def summarise(label, results, elapsed, ok_statuses=(200, 201)):
    flat = [r for per_client in results for r in per_client]
    ok = [r for r in flat if r[0] in ok_statuses]
    latencies = [r[2] for r in ok]
    rate = len(ok) / elapsed if elapsed else float("nan")
    statuses = {}
    for r in flat:
        statuses[str(r[0])] = statuses.get(str(r[0]), 0) + 1
    print(
        f"  {label:<34} {len(flat):6d} requests {rate:8.1f} ok/s   "
        f"p50 {percentile(latencies, 0.5):7.1f} ms   p99 {percentile(latencies, 0.99):7.1f} ms   "
        f"statuses {statuses}"
    )
    return rate, latencies


class Submitter:
    """PUTs alternating legal hands; remembers what the server acknowledged, per player."""

    def __init__(self, round_id, tokens):
        self.round_id, self.tokens = round_id, tokens
        self.acknowledged = [[] for _ in tokens]  # (version, commitment) per client, in order

    def __call__(self, n, connection, i):
        body = json.dumps({"name": f"Bench hand {i}", "cards": HANDS[(n + i) % len(HANDS)], "attest": True})
        headers = {"Authorization": f"Token {self.tokens[n][1]}", "Content-Type": "application/json"}
        status, data, ms = request(connection, "PUT", f"/api/rounds/{self.round_id}/my-hand/", body, headers)
        if status in (200, 201):
            answer = json.loads(data)
            self.acknowledged[n].append((answer["version"], answer["commitment"]))
        return status, "", ms


def check_stored(submitter, label):
    """Acknowledged versions against the database: every one stored, the last one current, none twice."""
    from submissions.models import Hand, HandVersion

    stored, current = {}, {}
    for player_id, number, commitment, is_current in HandVersion.objects.filter(
        hand__round_id=submitter.round_id
    ).values_list("hand__player_id", "number", "commitment", "is_current"):
        stored.setdefault(player_id, []).append((number, commitment))
        if is_current:
            current.setdefault(player_id, []).append((number, commitment))
    lost = duplicated = not_current = 0
    for (player_id, _), acknowledged in zip(submitter.tokens, submitter.acknowledged, strict=True):
        versions = stored.get(player_id, [])
        lost += len(set(acknowledged) - set(versions))
        duplicated += len(versions) - len(set(versions))
        duplicated += len({number for number, _ in versions}) != len(versions)
        duplicated += max(len(current.get(player_id, [])) - 1, 0)  # two current versions
        if acknowledged and current.get(player_id, [None])[0] != acknowledged[-1]:
            not_current += 1
    players = list(Hand.objects.filter(round_id=submitter.round_id).values_list("player_id", flat=True))
    duplicated += len(players) - len(set(players))
    acknowledged_total = sum(len(a) for a in submitter.acknowledged)
    stored_total = sum(len(v) for v in stored.values())
    print(
        f"  {label}: acknowledged so far {acknowledged_total}, stored {stored_total}; lost {lost}, "
        f"duplicated {duplicated}, last acknowledged not current {not_current}"
    )
    return lost + not_current, duplicated


def card_samples(port, clients, seconds):
    """The card endpoints (docs/api.md: Rounds and cards) and /healthz; resolve is a GET with ?name=."""
    shapes = [
        ("GET /api/cards/?q=bolt", "GET", "/api/cards/?q=bolt"),
        ("GET /api/cards/resolve/ exact", "GET", "/api/cards/resolve/?name=" + quote("Lightning Bolt")),
        ("GET /api/cards/resolve/ fuzzy", "GET", "/api/cards/resolve/?name=" + quote("lightnig blot")),
    ]
    for label, method, path in shapes:
        results, elapsed = drive(
            port, clients, lambda n, c, i, m=method, p=path: request(c, m, p), seconds=seconds
        )
        summarise(label, results, elapsed)
    post = json.dumps({"name": "Lightning Bolt"})
    headers = {"Content-Type": "application/json"}
    results, elapsed = drive(
        port, 1, lambda n, c, i: request(c, "POST", "/api/cards/resolve/", post, headers), count=20
    )
    summarise("POST /api/cards/resolve/ (no POST)", results, elapsed, ok_statuses=(405,))
    results, elapsed = drive(port, 1, lambda n, c, i: request(c, "GET", "/healthz"), count=20)
    summarise("GET /healthz (200 up, 503 down)", results, elapsed, ok_statuses=(200, 503))


def log_findings(log_path, puts=0):
    """What a log says: publish failures, cache errors, tracebacks, 5xx answers, and its size."""
    text = Path(log_path).read_text(errors="replace")
    size = len(text.encode())
    findings = {
        "could not publish": text.count("Could not publish"),
        "cache errors ignored": text.count("Exception ignored"),
        "tracebacks": text.count("Traceback (most recent call last)"),
        "Internal Server Error": text.count("Internal Server Error"),
        "5xx in access log": sum(1 for line in text.splitlines() if '" 5' in line and line.startswith(HOST)),
        "log KiB": round(size / 1024),
    }
    if puts:
        findings["log bytes per PUT"] = round(size / puts)
    return {key: value for key, value in findings.items() if value}


def warm(port, clients):
    """Warm every worker (the catalog index is built once per process) before measuring anything."""
    drive(port, min(clients, 16), lambda n, c, i: request(c, "GET", "/cards/check/?name=Karakas"), seconds=4)


def phase(name, args, env, port, submitter, log_dir):
    print(f"Phase {name}:")
    log_path = log_dir / f"gunicorn-{name.lower().replace(' ', '-')}.log"
    server = start_server(port, args, env, log_path)
    try:
        warm(port, args.clients)
        results, elapsed = drive(port, args.clients, submitter, seconds=args.seconds)
        rate, latencies = summarise("PUT my-hand (5 cards, receipt)", results, elapsed)
        card_samples(port, min(args.clients, 4), min(3.0, args.seconds / 3))
    finally:
        stop(server)
    puts = sum(len(r) for r in results)
    print(f"  log {log_path.name} (whole phase): {log_findings(log_path, puts) or 'nothing notable'}")
    lost, duplicated = check_stored(submitter, "after " + name)
    return rate, latencies, lost, duplicated


class Sink:
    """aiosmtpd handler: records X-PHM-Message of every message received, with its arrival time."""

    def __init__(self):
        self.received = []  # (monotonic time, X-PHM-Message)
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.original_content or envelope.content)
        with self.lock:
            self.received.append((time.monotonic(), message.get("X-PHM-Message")))
        return "250 Message accepted for delivery"


def clean_redis(run):
    """Delete this run's broker queues and bindings (db 8) and its cache keys (db 9)."""
    import redis

    for db, pattern in ((BROKER_DB, f"*bench-faults-{run}*"), (CACHE_DB, f"bench-faults-{run}*")):
        client = redis.Redis.from_url(f"{REDIS}/{db}")
        try:
            keys = list(client.scan_iter(match=pattern, count=1000))
            if keys:
                client.delete(*keys)
            # kombu keeps queue bindings as members of _kombu.binding.<exchange> sets
            for key in client.scan_iter(match="_kombu.binding.*"):
                for member in client.smembers(key):
                    if f"bench-faults-{run}".encode() in member:
                        client.srem(key, member)
        finally:
            client.close()


def mail_phase(args, env, port, submitter, log_dir, run):
    from django.db.models import Count

    from outbox.models import Message

    print(f"Mail after an outage (BACKSTOP_INTERVAL={args.backstop_interval} s, {args.mails} receipts):")
    retired = Message.objects.filter(state=Message.State.PENDING).update(
        state=Message.State.FAILED, last_error="bench/faults.py: retired before the mail step"
    )
    print(f"  retired {retired} receipts of the earlier phases (not part of this step)")
    before = set(Message.objects.values_list("pk", flat=True))

    from aiosmtpd.controller import Controller

    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command at INFO

    sink = Sink()
    smtp_port = free_port()
    controller = Controller(sink, hostname=HOST, port=smtp_port)
    controller.start()
    worker = None
    try:
        web_log = log_dir / "gunicorn-mail.log"
        server = start_server(port, args, env, web_log)
        try:
            warm(port, args.clients)
            results, elapsed = drive(port, min(args.clients, args.mails), submitter, count=args.mails)
            summarise("PUT my-hand, Redis down", results, elapsed)
        finally:
            stop(server)
        print(f"  log {web_log.name}: {log_findings(web_log, args.mails) or 'nothing notable'}")
        lost, duplicated = check_stored(submitter, "after the mail step's PUTs")
        queued = set(Message.objects.values_list("pk", flat=True)) - before
        pending = Message.objects.filter(pk__in=queued, state=Message.State.PENDING).count()
        print(f"  receipts queued {len(queued)}, pending {pending} (broker down: nothing published)")

        queue = f"bench-faults-{run}-mail"
        schedule = log_dir / "celerybeat-schedule"
        worker_env = {
            **env,
            "REDIS_URL": f"{REDIS}/{BROKER_DB}",
            "REDIS_CACHE_URL": f"{REDIS}/{CACHE_DB}",
            "CELERY_QUEUE": queue,
            "BACKSTOP_INTERVAL": str(args.backstop_interval),
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": HOST,
            "EMAIL_PORT": str(smtp_port),
            "EMAIL_TIMEOUT": "5",
            "LOG_LEVEL": "INFO",
        }
        command = [
            sys.executable, "-m", "celery", "-A", "phm", "worker", "-B", "--pool=solo",
            "-Q", f"{queue},{queue}-deliveries",  # both queues (phm.queues)
            "-s", str(schedule), "-n", f"{queue}@%h", "--loglevel=INFO",
        ]  # fmt: skip
        log_path = log_dir / "celery.log"
        started = time.monotonic()
        worker = start(command, worker_env, log_path)
        ready_at = first_backstop_at = None
        deadline = started + 3 * args.backstop_interval + 90
        done_at = None
        while time.monotonic() < deadline:
            if worker.poll() is not None:
                raise SystemExit(f"celery exited with {worker.returncode}; see {log_path}")
            text = log_path.read_text(errors="replace")
            if ready_at is None and " ready." in text:
                ready_at = time.monotonic()
            if first_backstop_at is None and "Sending due task send-pending-messages" in text:
                first_backstop_at = time.monotonic()
            with sink.lock:
                got = {header for _, header in sink.received}
            if {str(pk) for pk in queued} <= got and not Message.objects.filter(
                pk__in=queued, state=Message.State.PENDING
            ).exists():
                done_at = time.monotonic()
                break
            time.sleep(0.1)
        time.sleep(1)  # a moment for a late duplicate to show
    finally:
        if worker is not None:
            stop(worker)
        controller.stop()
        clean_redis(run)

    with sink.lock:
        received = list(sink.received)
    counts = {}
    for _, header in received:
        counts[header] = counts.get(header, 0) + 1
    wanted = {str(pk) for pk in queued}
    twice = sum(1 for header, count in counts.items() if count > 1)
    missing = len(wanted - set(counts))
    unexpected = len(set(counts) - wanted)
    last_mail = max((moment for moment, header in received if header in wanted), default=None)
    states = dict(Message.objects.filter(pk__in=queued).values_list("state").annotate(n=Count("id")))

    def since(moment, origin):
        return f"{moment - origin:6.1f} s" if moment is not None and origin is not None else "   n/a"

    print(f"  worker start -> ready line            {since(ready_at, started)}")
    print(f"  worker start -> first backstop sent   {since(first_backstop_at, started)}")
    print(f"  worker start -> last receipt received {since(last_mail, started)}")
    print(f"  ready line   -> last receipt received {since(last_mail, ready_at)}")
    print(f"  worker start -> no pending row left   {since(done_at, started)}")
    print(
        f"  receipts {len(wanted)}: received {len(wanted) - missing}, missing {missing}, "
        f"delivered twice {twice}, unexpected {unexpected}; outbox states {states}"
    )
    print(f"  log {log_path.name}: {log_findings(log_path) or 'nothing notable'}")
    return lost, duplicated, missing, twice, last_mail - started if last_mail else None


def interrupted(signum, frame):
    raise KeyboardInterrupt(signal.Signals(signum).name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--backstop-interval", type=int, default=60)
    parser.add_argument("--mails", type=int, default=200, help="receipts queued while Redis is down")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1, help="UP/DOWN pairs, interleaved")
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args()

    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DB
    if not database_url.startswith("postgres"):
        raise SystemExit("bench/faults.py measures the PostgreSQL stack: set DATABASE_URL=postgres://…")
    ensure_database(database_url)
    run = secrets.token_hex(3)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "phm.settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_hex(32),
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",  # the web never sends mail itself
        "CACHE_KEY_PREFIX": f"bench-faults-{run}",
        **NO_REQUEST_LIMITS,
    }
    for key in ("REDIS_URL", "REDIS_CACHE_URL", "CELERY_QUEUE", "BACKSTOP_INTERVAL"):
        env.pop(key, None)
        os.environ.pop(key, None)  # this process: eager tasks, local-memory cache
    os.environ.update(
        {key: env[key] for key in ("DATABASE_URL", "SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE")}
    )
    round_id, tokens = set_up(args.clients, run)
    submitter = Submitter(round_id, tokens)
    dead = closed_port()
    up_env = {
        **env,
        "REDIS_URL": f"{REDIS}/{BROKER_DB}",
        "REDIS_CACHE_URL": f"{REDIS}/{CACHE_DB}",
        "CELERY_QUEUE": f"bench-faults-{run}-up",  # nobody consumes it; deleted at the end
    }
    down_env = {**env, "REDIS_URL": f"{REDIS.rsplit(':', 1)[0]}:{dead}/{BROKER_DB}"}
    down_env["REDIS_CACHE_URL"] = f"{REDIS.rsplit(':', 1)[0]}:{dead}/{CACHE_DB}"
    log_dir = Path(tempfile.mkdtemp(prefix="phm-bench-faults-"))
    port = free_port()
    print(
        f"gunicorn gthread {args.workers} workers x {args.threads} threads on {HOST}:{port}, {args.clients} "
        f"clients, {args.seconds:.0f} s per phase, PostgreSQL; dead Redis on port {dead}; logs in {log_dir}"
    )
    # Ctrl-C and SIGTERM both unwind through the finally below (also when started with SIGINT ignored, as
    # background jobs of a non-interactive shell are).
    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    figures = {"UP": [], "DOWN": []}
    lost_total = duplicated_total = 0
    try:
        for repeat in range(1, args.repeat + 1):
            suffix = f" {repeat}" if args.repeat > 1 else ""
            for name, phase_env in (("UP", up_env), ("DOWN", down_env)):
                rate, latencies, lost, duplicated = phase(
                    name + suffix, args, phase_env, port, submitter, log_dir
                )
                figures[name].append((rate, latencies))
                lost_total += lost
                duplicated_total += duplicated
        mail_lost, mail_dup, missing, twice, to_last = mail_phase(
            args, down_env, port, submitter, log_dir, run
        )
    finally:
        for process in list(processes):
            stop(process)
        clean_redis(run)
        if not args.keep_logs:
            shutil.rmtree(log_dir, ignore_errors=True)

    print("Targets:")
    for n, ((up_rate, up_latencies), (down_rate, down_latencies)) in enumerate(
        zip(figures["UP"], figures["DOWN"], strict=True), start=1
    ):
        up_p99, down_p99 = percentile(up_latencies, 0.99), percentile(down_latencies, 0.99)
        print(
            f"  PUT p99 down/up {down_p99:.1f} / {up_p99:.1f} ms = {down_p99 / up_p99:.2f}x (<= 1.5x); "
            f"p50 {percentile(down_latencies, 0.5):.1f} / {percentile(up_latencies, 0.5):.1f} ms; "
            f"throughput {down_rate:.0f} / {up_rate:.0f} req/s" + (f"  (pair {n})" if args.repeat > 1 else "")
        )
    lost_total += mail_lost
    duplicated_total += mail_dup
    print(f"  lost {lost_total}, duplicated {duplicated_total} (target 0)")
    print(
        f"  mail: {args.mails} receipts, last received {to_last if to_last is None else round(to_last, 1)} s "
        f"after the worker started (BACKSTOP_INTERVAL {args.backstop_interval} s); missing {missing}, "
        f"twice {twice} (target 0)"
    )


if __name__ == "__main__":
    main()
