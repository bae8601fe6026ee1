"""The outbox: messages are written with the change that causes them and sent once, with retries."""

import smtplib
from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from django.core import mail
from django.db import transaction
from django.utils import timezone

from outbox import services, tasks
from outbox.models import Message
from rounds.models.audit import AuditEntry
from submissions import services as hand_services
from tests import builders
from tests.submissions.conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db


def submit(player, round_, cards=KJELD, name="Kjeld"):
    return builders.submit(player, round_, cards, name=name)


def failing_backend(error):
    """A mail connection whose every send raises `error`."""
    connection = mock.MagicMock()
    connection.send_messages.side_effect = error
    return mock.patch("outbox.services.get_connection", return_value=connection)


def test_a_receipt_is_written_with_the_hand_and_sent_after_the_commit(
    open_round, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        submission = submit(alice, open_round)
        message = Message.objects.get()
        assert message.state == Message.State.PENDING  # in the database before anything is sent
        assert mail.outbox == []
    for callback in callbacks:
        callback()
    message.refresh_from_db()
    assert message.state == Message.State.SENT and message.attempts == 1 and message.sent_at
    assert message.kind == "hand.receipt" and message.recipient == alice and message.secret
    assert message.round == open_round and message.league == open_round.league
    [sent] = mail.outbox
    assert sent.to == ["alice@example.org"]
    assert submission.version.commitment in sent.body and " / ".join(KJELD) in sent.body
    assert sent.extra_headers["X-PHM-Message"] == str(message.pk)


def test_a_change_that_rolls_back_sends_nothing(open_round, alice):
    with pytest.raises(RuntimeError), transaction.atomic():
        submit(alice, open_round)
        assert Message.objects.count() == 1
        raise RuntimeError("something after the submission failed")
    assert Message.objects.count() == 0


def test_a_player_without_an_address_gets_no_message(open_round, make_user):
    quiet = make_user("quiet")
    submit(quiet, open_round)
    assert Message.objects.count() == 0


def test_a_message_is_sent_once_however_often_its_task_runs(open_round, alice):
    submit(alice, open_round)
    message = Message.objects.get()
    assert services.deliver(message.pk) == "sent"
    assert services.deliver(message.pk) == "skipped"
    assert tasks.send_message(message.pk) == "skipped"
    assert services.deliver_due() == {"sent": 0, "retry": 0, "failed": 0, "skipped": 0}
    assert len(mail.outbox) == 1


def test_a_mail_server_that_fails_leaves_the_message_pending_with_a_growing_delay(
    open_round, alice, settings
):
    submit(alice, open_round)
    message = Message.objects.get()
    with failing_backend(smtplib.SMTPServerDisconnected("Connection unexpectedly closed")):
        assert services.deliver(message.pk) == "retry"
        message.refresh_from_db()
        first_retry = message.next_attempt_at
        assert message.state == Message.State.PENDING and message.attempts == 1
        assert message.last_error == "SMTPServerDisconnected: Connection unexpectedly closed"
        assert services.deliver(message.pk) == "skipped"  # not due yet
        with time_machine.travel(first_retry + timedelta(seconds=1), tick=False):
            assert services.deliver(message.pk) == "retry"
    message.refresh_from_db()
    assert message.attempts == 2
    assert [services.retry_delay(n) for n in (1, 2, 3)] == [
        settings.OUTBOX_RETRY_DELAY,
        2 * settings.OUTBOX_RETRY_DELAY,
        4 * settings.OUTBOX_RETRY_DELAY,
    ]
    assert services.retry_delay(50) == services.MAX_RETRY_DELAY
    with time_machine.travel(message.next_attempt_at, tick=False):
        assert services.deliver_due() == {"sent": 1, "retry": 0, "failed": 0, "skipped": 0}
    message.refresh_from_db()
    assert message.state == Message.State.SENT and message.attempts == 3
    assert len(mail.outbox) == 1


def test_a_timeout_is_retried_like_any_network_error(open_round, alice):
    submit(alice, open_round)
    message = Message.objects.get()
    with failing_backend(TimeoutError("timed out")):
        assert services.deliver(message.pk) == "retry"
    message.refresh_from_db()
    assert message.last_error == "TimeoutError: timed out"


def test_a_refused_recipient_is_not_retried(open_round, alice):
    submit(alice, open_round)
    message = Message.objects.get()
    refused = smtplib.SMTPRecipientsRefused({"alice@example.org": (550, b"No such user")})
    with failing_backend(refused):
        assert services.deliver(message.pk) == "failed"
    message.refresh_from_db()
    assert message.state == Message.State.FAILED and message.attempts == 1


def test_a_message_is_given_up_after_the_last_attempt(open_round, alice, settings):
    settings.OUTBOX_MAX_ATTEMPTS = 2
    submit(alice, open_round)
    message = Message.objects.get()
    with failing_backend(ConnectionRefusedError(111, "Connection refused")):
        assert services.deliver(message.pk) == "retry"
        message.refresh_from_db()
        with time_machine.travel(message.next_attempt_at, tick=False):
            assert services.deliver(message.pk) == "failed"
    message.refresh_from_db()
    assert message.state == Message.State.FAILED and message.attempts == 2


def test_the_backstop_stops_at_the_first_failure(open_round, alice, bob):
    submit(alice, open_round)
    submit(bob, open_round, cards=SCEPTER)
    with failing_backend(ConnectionRefusedError(111, "Connection refused")) as get_connection:
        assert services.deliver_due() == {"sent": 0, "retry": 1, "failed": 0, "skipped": 0}
    assert get_connection.return_value.send_messages.call_count == 1  # the second would wait just the same
    assert Message.objects.filter(attempts=0).count() == 1


def test_a_moderator_can_send_a_failed_message_again(open_round, alice, moderator):
    submit(alice, open_round)
    message = Message.objects.get()
    with failing_backend(smtplib.SMTPRecipientsRefused({"alice@example.org": (550, b"Mailbox full")})):
        services.deliver(message.pk)
    assert services.retry_now([message], actor=moderator) == [message.pk]
    message.refresh_from_db()
    assert message.state == Message.State.PENDING and message.attempts == 0
    assert services.deliver(message.pk) == "sent"
    entry = AuditEntry.objects.get(action="mail.retried")
    assert entry.actor == moderator and entry.before == {"state": "failed", "attempts": 1}
    assert services.retry_now([message], actor=moderator) == []  # sent ones are left alone


def test_submitting_never_fails_because_of_the_mail_server(
    open_round, alice, api_client, django_capture_on_commit_callbacks
):
    """Eager tasks (the embedded default) send right after the commit: a broken server costs nothing."""
    api_client.force_authenticate(alice)
    with (
        failing_backend(ConnectionRefusedError(111, "Connection refused")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = api_client.put(
            f"/api/rounds/{open_round.pk}/my-hand/",
            {"name": "K", "cards": KJELD, "attest": True},
            format="json",
        )
    assert response.status_code == 201
    message = Message.objects.get()
    assert message.state == Message.State.PENDING and message.attempts == 1


def test_a_broker_that_is_down_leaves_the_message_for_the_backstop(
    open_round, alice, django_capture_on_commit_callbacks
):
    with (
        mock.patch.object(tasks.send_messages, "apply_async", side_effect=ConnectionError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        submit(alice, open_round)
    message = Message.objects.get()
    assert message.state == Message.State.PENDING and message.attempts == 0
    assert tasks.send_pending() == {"sent": 1, "retry": 0, "failed": 0, "skipped": 0}
    assert len(mail.outbox) == 1


def test_the_send_pending_mail_command_sends_what_is_due(open_round, alice):
    from io import StringIO

    from django.core.management import call_command

    submit(alice, open_round)
    out = StringIO()
    call_command("send_pending_mail", stdout=out)
    assert out.getvalue().strip() == "sent: 1, retry: 0, failed: 0, skipped: 0"


def test_review_notices_and_result_mails_go_through_the_outbox(open_round, alice, moderator):
    hand = submit(alice, open_round).hand
    hand_services.declare_not_playing(moderator=moderator, round_id=open_round.pk)
    hand_services.review_hand(actor=moderator, hand_id=hand.pk, action="flag", message="Not legal: 6 cards")
    kinds = sorted(Message.objects.values_list("kind", flat=True))
    assert kinds == ["hand.receipt", "hand.review"]
    review = Message.objects.get(kind="hand.review")
    assert "Not legal: 6 cards" in review.body and review.recipient == alice


def test_the_due_index_covers_only_pending_messages():
    index = next(index for index in Message._meta.indexes if index.name == "outbox_message_due")
    assert index.fields == ["next_attempt_at"] and "pending" in str(index.condition)


def test_backstop_runs_on_the_beat_schedule(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["send-pending-messages"]
    assert entry == {"task": "outbox.send_pending", "schedule": float(settings.BACKSTOP_INTERVAL)}
    assert timezone.now()  # the schedule is in seconds, independent of the clock


def test_the_file_backend_works_with_its_default_folder(open_round, alice, settings, tmp_path):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "sent-mail")
    submit(alice, open_round)
    assert services.deliver(Message.objects.get().pk) == "sent"
    [written] = (tmp_path / "sent-mail").iterdir()
    assert "Your hand for round" in written.read_text()


def test_the_backstop_sends_batch_after_batch_until_nothing_is_due(open_round, alice, bob, make_user):
    carol = make_user("carol", email="carol@example.org")
    for player, cards in ((alice, KJELD), (bob, SCEPTER), (carol, KJELD)):
        submit(player, open_round, cards=cards)
    assert services.deliver_due(batch=2) == {"sent": 3, "retry": 0, "failed": 0, "skipped": 0}
