"""A delivery task is one bounded run: one connection, a time budget, stopped by the first failure of the
server; what it did not try stays pending for the next run (nothing lost, nothing sent twice)."""

import smtplib
from unittest import mock

import pytest
from django.core import mail
from django.utils import timezone

from outbox import services, tasks
from outbox.models import Message
from outbox.smtp import DeadlineSMTP
from tests import builders
from tests.phm.stack import DrippingSMTPServer, MailSink, SilentSMTPServer, free_port
from tests.submissions.conftest import KJELD

pytestmark = pytest.mark.django_db


@pytest.fixture
def receipts(open_round, make_user):
    """Three pending receipts, in the order they were queued."""
    for n in range(3):
        player = make_user(f"runner{n}", email=f"runner{n}@example.org")
        with mock.patch("outbox.doorbell.publish"):  # queued, not sent: the test sends them
            builders.submit(player, open_round, KJELD)
    return list(Message.objects.order_by("pk").values_list("pk", flat=True))


def connection_sending(*results):
    """A mail connection whose successive sends return or raise `results`."""
    connection = mock.MagicMock()
    connection.send_messages.side_effect = list(results)
    return mock.patch("outbox.services.get_connection", return_value=connection)


def states(ids):
    return [Message.objects.get(pk=pk).state for pk in ids]


def smtp_to(settings, port, timeout):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, timeout


def test_a_bundle_ends_at_the_first_failure_of_the_server_and_leaves_the_rest_due(receipts):
    with connection_sending(ConnectionRefusedError(111, "Connection refused")) as get_connection:
        assert tasks.send_messages(receipts) == ["retry", "left", "left"]
    assert get_connection.return_value.send_messages.call_count == 1  # not three times the same timeout
    assert [Message.objects.get(pk=pk).attempts for pk in receipts] == [1, 0, 0]
    assert states(receipts) == [Message.State.PENDING] * 3
    assert services.due_message_ids(now=timezone.now()) == receipts[1:]  # the next run sends them


def test_a_message_the_server_refuses_does_not_end_the_bundle(receipts):
    refused = smtplib.SMTPRecipientsRefused({"runner0@example.org": (550, b"No such user")})
    with connection_sending(refused, 1, 1) as get_connection:
        assert tasks.send_messages(receipts) == ["failed", "sent", "sent"]
    get_connection.assert_called_once()  # one connection for the run


def test_a_bundle_whose_time_is_up_hands_the_rest_to_a_new_task(receipts):
    clock = iter(
        [0.0, 1.0, 1000.0, 1000.0]
    )  # the run starts; the first message is in time, the second is not
    with (
        mock.patch("outbox.services.time.monotonic", side_effect=lambda: next(clock)),
        mock.patch("outbox.tasks.publish") as publish,
    ):
        assert tasks.send_messages(receipts) == ["sent", "left", "left"]
    publish.assert_called_once_with(tasks.send_messages, receipts[1:])
    assert states(receipts) == [Message.State.SENT, Message.State.PENDING, Message.State.PENDING]
    assert tasks.send_messages(receipts) == ["skipped", "sent", "sent"]  # the new task: each sent once
    assert len(mail.outbox) == 3


def test_a_bundle_stopped_by_the_server_leaves_the_rest_to_the_backstop(receipts):
    with (
        connection_sending(smtplib.SMTPServerDisconnected("Connection unexpectedly closed")),
        mock.patch("outbox.tasks.publish") as publish,
        mock.patch("outbox.tasks.publish_at") as publish_at,
    ):
        tasks.send_messages(receipts)
    publish.assert_not_called()  # the server is down: no new task now, the backstop tries within a minute
    [retry] = publish_at.call_args_list  # the failed one is retried at its time
    assert retry.args[0] is tasks.send_message and retry.args[2] == receipts[0]


def test_a_silent_mail_server_costs_a_bundle_one_timeout(receipts, settings):
    silent = SilentSMTPServer(free_port())
    try:
        smtp_to(settings, silent.port, timeout=1)
        assert tasks.send_messages(receipts) == ["retry", "left", "left"]
    finally:
        silent.close()
    assert len(silent.connections) == 1
    assert "timed out" in Message.objects.get(pk=receipts[0]).last_error


def test_the_run_cuts_off_a_server_that_keeps_answering_too_slowly(receipts, settings):
    """Each byte comes well within EMAIL_TIMEOUT, so only the run's deadline ends the conversation."""
    dripping = DrippingSMTPServer(free_port(), interval=0.1, lasting=30)
    try:
        smtp_to(settings, dripping.port, timeout=5)
        run = services.deliver_bundle(receipts, time_budget=1)
    finally:
        dripping.close()
    assert run.outcomes == ["retry", "left", "left"] and run.stopped == "server"
    assert Message.objects.get(pk=receipts[0]).last_error.startswith("TimeIsUp: ")


def test_a_bundle_goes_over_one_smtp_connection(receipts, settings):
    sink = MailSink(free_port())
    try:
        smtp_to(settings, sink._controller.port, timeout=5)
        with mock.patch.object(
            DeadlineSMTP, "connect", autospec=True, side_effect=smtplib.SMTP.connect
        ) as connect:
            assert tasks.send_messages(receipts) == ["sent", "sent", "sent"]
    finally:
        sink.close()
    assert connect.call_count == 1
    assert sorted(sink.message_ids()) == sorted(str(pk) for pk in receipts)


def test_the_backstop_is_one_run_too(receipts):
    with connection_sending(
        smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
    ) as get_connection:
        assert services.deliver_due() == {"sent": 0, "retry": 1, "failed": 0, "skipped": 0}
    get_connection.assert_called_once()
    assert services.deliver_due() == {"sent": 2, "retry": 0, "failed": 0, "skipped": 0}
