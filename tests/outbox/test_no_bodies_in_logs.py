"""What an e-mail says (a receipt's cards and commitment, a password-reset link) is in its outbox row and in the
mail, never in a log line: not when it is sent, not when the server fails or refuses it."""

import logging
import re
import smtplib
from unittest import mock

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from outbox import services
from outbox.models import Message
from tests import builders
from tests.submissions.conftest import KJELD

pytestmark = pytest.mark.django_db

FAILURES = [
    smtplib.SMTPServerDisconnected("Connection unexpectedly closed"),
    smtplib.SMTPDataError(451, b"Try again later"),
    smtplib.SMTPRecipientsRefused({"alice@example.org": (550, b"No such user")}),
]


def fail_then_send(message_id):
    """Every failure, each time the message is made due again, then a successful send."""
    for error in FAILURES:
        Message.objects.filter(pk=message_id).update(
            state=Message.State.PENDING, next_attempt_at=timezone.now()
        )
        connection = mock.MagicMock()
        connection.send_messages.side_effect = error
        with mock.patch("outbox.services.get_connection", return_value=connection):
            services.deliver(message_id)
    Message.objects.filter(pk=message_id).update(state=Message.State.PENDING, next_attempt_at=timezone.now())
    assert services.deliver(message_id) == "sent"


def test_a_receipt_never_reaches_the_logs(open_round, alice, caplog):
    caplog.set_level(logging.DEBUG)
    with mock.patch("outbox.doorbell.publish"):
        submission = builders.submit(alice, open_round, KJELD, name="Kjeld")
    message = Message.objects.get(kind="hand.receipt")
    fail_then_send(message.pk)
    [sent] = mail.outbox
    secrets = [submission.version.commitment, " / ".join(KJELD)]
    assert all(secret in sent.body for secret in secrets)
    assert f"Message {message.pk} not sent" in caplog.text  # the failures were logged ...
    assert not [secret for secret in secrets if secret in caplog.text]  # ... without the body
    assert sent.subject not in caplog.text


def test_a_password_reset_link_never_reaches_the_logs(client, make_user, caplog, settings):
    settings.SITE_URL = "https://phm.example.org"
    make_user("lotus", email="lotus@example.com")
    caplog.set_level(logging.DEBUG)
    with mock.patch("outbox.doorbell.publish"):
        client.post(reverse("password_reset"), {"email": "lotus@example.com"})
    message = Message.objects.get(kind="account.password_reset")
    fail_then_send(message.pk)
    link = re.search(r"/accounts/password/reset/\S+/\S+/", mail.outbox[0].body).group(0)
    assert link not in caplog.text
