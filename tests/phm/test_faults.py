"""Faults on the real stack (PostgreSQL, Redis, real worker, gunicorn): nothing a player did is lost.

(a) a mail server that never answers, (b) Redis unreachable, (c) a worker killed in the middle of a reveal and
of a table build, (d) the database out of connections, (e) a mail server that never answers while a round
reaches its deadline. Each starts its own processes (tests/phm/stack.py).
"""

import contextlib
import json
import urllib.error
import urllib.request
import uuid
from datetime import timedelta
from unittest import mock

import psycopg2
import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from rest_framework.authtoken.models import Token

from outbox.models import Message
from phm.tasks import ping
from rounds.models import Round, RoundState
from rounds.models.audit import AuditEntry
from scoring.models import Match
from scoring.services import build_match_table
from submissions import services as hand_services
from submissions.models import Hand
from tests import builders
from tests.submissions.conftest import KJELD, SCEPTER, VOID

from .stack import database_url, free_port, wait_for

pytestmark = [pytest.mark.needs_postgres, pytest.mark.needs_redis]

CLOSED_REDIS = "redis://127.0.0.1:{port}/0"


def http(method, url, token=None, body=None):
    """(status, headers, parsed JSON or text) of one request to a server under test."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)  # noqa: S310 (http://127.0.0.1 only)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (http://127.0.0.1 only)
            status, headers, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, raw = error.code, error.headers, error.read()
    text = raw.decode()
    if headers.get("Content-Type", "").startswith("application/json"):
        return status, headers, json.loads(text)
    return status, headers, text


def open_round(league, moderator, days=2):
    now = timezone.now()
    return builders.open_round(
        league=league, actor=moderator, title="Faults", deadline=now + timedelta(days=days)
    )


def players(make_user, count):
    made = [make_user(f"p{n}", email=f"p{n}@example.org") for n in range(1, count + 1)]
    return made, [Token.objects.create(user=player).key for player in made]


def past_deadline(round_):
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def plain_text(message):
    """The text/plain part of a received e-mail (receipts also carry an HTML alternative)."""
    parts = [part for part in message.walk() if part.get_content_type() == "text/plain"]
    return "".join(part.get_payload(decode=True).decode() for part in parts)


def smtp_settings(port, **more):
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": port,
        "SITE_URL": "https://phm.example",
        **more,
    }


def test_a_mail_server_that_never_answers_costs_the_player_nothing(fault_stack, league, moderator, make_user):
    """(a) The hand is saved and acknowledged without touching SMTP; the receipt goes out once a working
    server takes the silent one's place."""
    port = free_port()
    silent = fault_stack.silent_smtp(port)
    fault_stack.start_worker(
        **smtp_settings(port, EMAIL_TIMEOUT=1, OUTBOX_RETRY_DELAY=2, BACKSTOP_INTERVAL=2)
    )
    round_ = open_round(league, moderator)
    [player], _ = players(make_user, 1)
    # The request's own process never opens a mail connection: sending is the workers' job.
    with mock.patch("django.core.mail.backends.smtp.EmailBackend.open", side_effect=AssertionError("SMTP")):
        submission = builders.submit(player, round_, KJELD, name="K")
    assert submission.created
    message = Message.objects.get(kind="hand.receipt")
    assert wait_for(lambda: Message.objects.get(pk=message.pk).attempts >= 1, timeout=60)
    message.refresh_from_db()
    assert message.state == Message.State.PENDING
    assert "timed out" in message.last_error
    assert silent.connections, "the worker should have tried the silent server"

    silent.close()
    sink = fault_stack.mail_sink(port)
    assert wait_for(lambda: Message.objects.get(pk=message.pk).state == Message.State.SENT, timeout=60)
    assert sink.message_ids() == [str(message.pk)]
    assert submission.version.commitment in plain_text(sink.messages[0])


def test_a_mail_server_that_never_answers_does_not_delay_the_reveal(
    fault_stack, league, moderator, make_user, settings
):
    """(e) Mail has a queue and a worker of its own: with a silent mail server and 40 receipts just queued, the
    round is revealed within seconds of its deadline; the receipts stay pending (none lost, none given up) and
    go out, each once, when a working server takes the silent one's place."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # 40 accounts, quickly
    port = free_port()
    silent = fault_stack.silent_smtp(port)
    mail = smtp_settings(port, EMAIL_TIMEOUT=5, OUTBOX_RETRY_DELAY=2, BACKSTOP_INTERVAL=2)
    fault_stack.start_worker(queues=[fault_stack.queue], **mail)
    fault_stack.start_worker(beat=False, queues=[fault_stack.delivery_queue], **mail)
    for queue in (fault_stack.queue, fault_stack.delivery_queue):  # both workers are up
        assert ping.apply_async(args=[queue], queue=queue).get(timeout=90) == {"pong": queue}
    round_ = open_round(league, moderator)
    made, _ = players(make_user, 40)
    for player in made:  # each receipt is handed to the workers as its hand commits
        builders.submit(player, round_, KJELD)
    receipts = set(Message.objects.filter(kind="hand.receipt").values_list("pk", flat=True))
    assert len(receipts) == 40
    assert wait_for(lambda: silent.connections, timeout=30)  # the mail worker is stuck on the silent server
    deadline = timezone.now() + timedelta(seconds=2)
    Round.objects.filter(pk=round_.pk).update(deadline=deadline)

    # Materialised by the worker (the beat backstop runs every 2 s): within 15 s of the deadline, not minutes.
    revealed = wait_for(lambda: Round.objects.get(pk=round_.pk).state == RoundState.REVEALED, timeout=17)
    assert revealed, "the reveal waited behind the mail"
    assert Hand.objects.filter(round=round_, number__isnull=False).count() == 40
    states = Message.objects.filter(pk__in=receipts).values_list("state", flat=True)
    assert set(states) == {Message.State.PENDING}

    silent.close()
    sink = fault_stack.mail_sink(port)
    assert wait_for(
        lambda: not Message.objects.filter(pk__in=receipts).exclude(state=Message.State.SENT).exists(),
        timeout=120,
    )
    received = [int(pk) for pk in sink.message_ids() if int(pk) in receipts]
    assert sorted(received) == sorted(receipts)  # each receipt once


def test_with_redis_unreachable_everything_a_player_does_still_works(
    fault_stack, league, moderator, make_user
):
    """(b) Web processes whose Redis (broker and cache) is a closed port: submitting, reporting, card search
    and round edits answer normally; their mails wait in the outbox and go out once Redis is back."""
    sink = fault_stack.mail_sink()
    closed = CLOSED_REDIS.format(port=free_port())
    _, base = fault_stack.start_web(
        REDIS_URL=closed, REDIS_CACHE_URL=closed, **smtp_settings(sink._controller.port)
    )
    [alice, bob, carol], [alice_token, bob_token, _] = players(make_user, 3)
    moderator_token = Token.objects.create(user=moderator).key
    # A revealed round with its table, for the reports.
    played = open_round(league, moderator)
    for player, cards in ((alice, KJELD), (bob, SCEPTER), (carol, VOID)):
        builders.submit(player, played, cards)
    past_deadline(played)
    hand_services.reveal_round(played.pk)
    build_match_table(played.pk)
    current = open_round(league, moderator)
    Message.objects.all().delete()  # receipts, "hands posted", "round opened": sent in this process

    status, _, _ = http(
        "PUT",
        f"{base}/api/rounds/{current.pk}/my-hand/",
        alice_token,
        {"name": "K", "cards": KJELD, "attest": True},
    )
    assert status == 201
    assert http("GET", f"{base}/api/cards/?q=workshop")[0] == 200
    status, _, resolved = http("GET", f"{base}/api/cards/resolve/?name=mishras%20workshop")
    assert status == 200 and resolved["card"]["name"] == "Mishra's Workshop"
    match = Match.objects.get(round=played, hand_a__player=alice, hand_b__player=bob)
    assert (
        http("POST", f"{base}/api/matches/{match.pk}/reports/", alice_token, {"points_a": 6, "points_b": 0})[
            0
        ]
        == 201
    )
    assert (
        http("POST", f"{base}/api/matches/{match.pk}/reports/", bob_token, {"points_a": 0, "points_b": 6})[0]
        == 201
    )
    new_deadline = (timezone.now() + timedelta(days=3)).isoformat()
    status, _, _ = http(
        "PATCH", f"{base}/api/rounds/{current.pk}/", moderator_token, {"deadline": new_deadline}
    )
    assert status == 200
    assert http("POST", f"{base}/api/rounds/{current.pk}/close/", moderator_token, {})[0] == 200

    assert Hand.objects.filter(round=current, player=alice).exists()
    pending = set(
        Message.objects.filter(state=Message.State.PENDING, attempts=0).values_list("pk", flat=True)
    )
    kinds = sorted(Message.objects.values_list("kind", flat=True))
    assert kinds == ["hand.receipt", "match.dispute", "match.dispute"]
    assert len(pending) == 3 and sink.messages == []

    # Redis is back: a worker with the beat backstop sends every pending message, once.
    fault_stack.start_worker(BACKSTOP_INTERVAL=2, **smtp_settings(sink._controller.port))
    assert wait_for(lambda: not Message.objects.filter(state=Message.State.PENDING).exists(), timeout=60)
    assert Round.objects.get(pk=current.pk).state == RoundState.REVEALED  # the backstop revealed it too
    # ... and told alice "hands posted": every message sent exactly once, nothing else
    posted = Message.objects.filter(kind="hands.revealed").values_list("pk", flat=True)
    assert sorted(sink.message_ids()) == sorted(str(pk) for pk in [*pending, *posted])


@contextlib.contextmanager
def holding(statement, params=()):
    """Another session holding a lock (taken by `statement`) until the block ends."""
    other = psycopg2.connect(database_url(settings.DATABASES["default"]))
    try:
        with other.cursor() as cursor:
            cursor.execute(statement, params)
        yield other
    finally:
        other.rollback()
        other.close()


def blocked_on_lock(table):
    """Whether some other session is waiting for a lock while working on `table`."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE %s "
            "AND pid <> pg_backend_pid()",
            [f"%{table}%"],
        )
        return cursor.fetchone()[0] > 0


def test_a_worker_killed_in_the_middle_of_a_reveal_and_a_table_build(
    fault_stack, league, moderator, make_user
):
    """(c) SIGKILL while the reveal, then the table build, wait on a lock: nothing half-done stays, and a
    restarted worker finishes each exactly once within a minute."""
    round_ = open_round(league, moderator)
    made, _ = players(make_user, 3)
    for player, cards in zip(made, (KJELD, SCEPTER, VOID), strict=True):
        builders.submit(player, round_, cards)
    past_deadline(round_)
    first_hand = Hand.objects.filter(round=round_).order_by("pk").first()

    with holding("SELECT id FROM submissions_hand WHERE id = %s FOR UPDATE", [first_hand.pk]):
        worker = fault_stack.start_worker(BACKSTOP_INTERVAL=2)  # its backstop starts the reveal, which waits
        assert wait_for(lambda: blocked_on_lock("submissions_hand"), timeout=60), fault_stack.log_of(worker)
        fault_stack.kill(worker)
    assert Round.objects.get(pk=round_.pk).state == RoundState.OPEN  # the killed reveal left nothing
    assert not Hand.objects.filter(round=round_, number__isnull=False).exists()

    with holding("LOCK TABLE scoring_match IN EXCLUSIVE MODE"):
        worker = fault_stack.start_worker(BACKSTOP_INTERVAL=2)  # reveals, then the table build waits
        assert wait_for(lambda: blocked_on_lock("scoring_match"), timeout=60), fault_stack.log_of(worker)
        assert Round.objects.get(pk=round_.pk).state == RoundState.REVEALED
        fault_stack.kill(worker)
    assert not Match.objects.filter(round=round_).exists()  # the killed build left nothing

    fault_stack.start_worker(BACKSTOP_INTERVAL=2)
    assert wait_for(lambda: Match.objects.filter(round=round_).count() == 3, timeout=60)
    numbers = sorted(Hand.objects.filter(round=round_).values_list("number", flat=True))
    assert numbers == [1, 2, 3]
    actions = list(
        AuditEntry.objects.filter(object_id=round_.pk, action__in=["round.revealed", "round.table_built"])
        .order_by("created_at")
        .values_list("action", flat=True)
    )
    assert actions == ["round.revealed", "round.table_built"]  # each exactly once


def test_the_database_out_of_connections_is_a_503_and_the_site_recovers(fault_stack, league, moderator):
    """(d) A role allowed two connections, both taken: pages and API answer 503 with Retry-After (not 500);
    once they are free the next request succeeds (no persistent connection keeps failing)."""
    role = f"phm_fault_{uuid.uuid4().hex[:8]}"
    name = settings.DATABASES["default"]["NAME"]
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT 2')
        cursor.execute(f'GRANT ALL ON ALL TABLES IN SCHEMA public TO "{role}"')
        cursor.execute(f'GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO "{role}"')
    try:
        url = database_url(settings.DATABASES["default"], user=role)
        _, base = fault_stack.start_web(DATABASE_URL=url)
        open_round(league, moderator)
        assert http("GET", f"{base}/api/rounds/")[0] == 200
        hogs = [psycopg2.connect(url) for _ in range(2)]
        try:
            status, headers, body = http("GET", f"{base}/api/rounds/")
            assert status == 503 and body["code"] == "unavailable" and headers["Retry-After"] == "5"
            status, headers, page = http("GET", f"{base}/rounds/")
            assert status == 503 and "The site is busy right now" in page
            assert http("GET", f"{base}/healthz")[0] == 503
        finally:
            for hog in hogs:
                hog.close()
        assert wait_for(lambda: http("GET", f"{base}/api/rounds/")[0] == 200, timeout=5, interval=0.1)
        assert http("GET", f"{base}/healthz")[0] == 200
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP OWNED BY "{role}"')
            cursor.execute(f'DROP ROLE IF EXISTS "{role}"')
        assert name  # the test database itself stays
