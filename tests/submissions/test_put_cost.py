"""What a PUT my-hand costs: its statements, no e-mail rendered in the request, and the receipt the
outbox renders at sending — the same hand, time, version and commitment, to the owner only."""

from unittest import mock

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from outbox import deferred
from outbox import services as outbox_services
from outbox.models import Message
from phm.links import site_url
from rounds.models.audit import AuditEntry
from submissions import services
from submissions.models import HandVersion
from tests import builders

from .conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db


def token_client(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def put(client, round_, name, cards):
    return client.put(
        f"/api/rounds/{round_.pk}/my-hand/", {"name": name, "cards": cards, "attest": True}, format="json"
    )


def test_a_changed_hand_with_a_receipt_costs_these_statements_and_renders_no_template(open_round, alice):
    client = token_client(alice)
    assert put(client, open_round, "K", KJELD).status_code == 201
    assert (
        put(client, open_round, "S", SCEPTER).status_code == 200
    )  # the catalog memo now has both hands' cards
    with (
        CaptureQueriesContext(connection) as ctx,
        mock.patch("outbox.rendering.render_to_string", side_effect=AssertionError("rendered in the PUT")),
    ):
        response = put(client, open_round, "K", KJELD)
    assert response.status_code == 200
    statements = [query["sql"].split()[0].upper() for query in ctx.captured_queries]
    if connection.vendor == "postgresql":
        # Token with its user and profile; the round (shared lock, league, preview check); the own hand (FOR
        # UPDATE); lower the current version; one WITH … for hand, version, audit entry and receipt; and the
        # test transaction's savepoint around the atomic block.
        assert statements == ["SELECT", "SAVEPOINT", "SELECT", "SELECT", "UPDATE", "WITH", "RELEASE"], [
            q["sql"][:120] for q in ctx.captured_queries
        ]
    else:
        assert len(statements) <= 11, statements
    message = Message.objects.get(subject__contains="version 3")
    current = HandVersion.objects.get(hand__player=alice, is_current=True)
    assert current.number == 3 and message.body == "" and message.source_id == current.pk


def test_the_receipt_row_names_its_version_and_its_body_is_rendered_when_sent(open_round, alice):
    client = token_client(alice)
    answer = put(client, open_round, "Kjeld", KJELD).json()
    version = HandVersion.objects.get(hand__player=alice, number=1)
    message = Message.objects.get(kind="hand.receipt")
    assert message.source_id == version.pk and message.body == "" and message.secret
    assert message.recipient == alice and message.to_address == "alice@example.org"
    assert message.round_id == open_round.pk and message.league_id == open_round.league_id
    assert message.subject == f"[PHM] Your hand for round {open_round.code}, version 1"
    assert answer["commitment"] == version.commitment

    assert outbox_services.deliver(message.pk) == "sent"
    [sent] = mail.outbox
    assert sent.to == ["alice@example.org"] and sent.subject == message.subject
    assert "Version: 1" in sent.body and "Name: Kjeld" in sent.body
    assert " / ".join(KJELD) in sent.body and version.commitment in sent.body
    assert f"Submitted: {version.submitted_at:%A %-d %B %Y, %H:%M}" in sent.body
    message.refresh_from_db()
    assert message.body == sent.body  # the row keeps what was sent
    assert message.html_body and version.commitment in message.html_body


def test_the_receipt_is_the_one_the_templates_made_in_the_request(open_round, alice):
    """Rendered at sending with the context the request used to render it with: the same text."""
    submission = builders.submit(alice, open_round, KJELD, name="Kjeld")
    message = Message.objects.get(kind="hand.receipt")
    expected_text, expected_html = outbox_services.rendering.render_email(
        kind="hand.receipt",
        user=alice,
        subject=message.subject,
        template="submissions/email/receipt.txt",
        context={
            "version": submission.version,
            "hand": submission.hand,
            "round": open_round,
            "url": site_url(reverse("submissions:receipt", args=[open_round.pk, 1])),
        },
    )
    assert deferred.body_of(message) == expected_text
    assert services.render_receipt(message) == (expected_text, expected_html)


def test_a_receipt_whose_version_is_gone_fails_for_good(open_round, alice):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    message = Message.objects.get(kind="hand.receipt")
    Message.objects.filter(pk=message.pk).update(source_id=10**12)
    assert outbox_services.deliver(message.pk) == "failed"
    message.refresh_from_db()
    assert message.state == Message.State.FAILED and "gone" in message.last_error
    assert mail.outbox == []


def test_a_receipt_is_only_ever_rendered_for_the_versions_own_player(open_round, alice, bob):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    message = Message.objects.get(kind="hand.receipt")
    Message.objects.filter(pk=message.pk).update(recipient=bob, to_address="bob@example.org")
    assert outbox_services.deliver(message.pk) == "failed"
    assert mail.outbox == []


def test_the_statement_sends_the_values_djangos_own_saves_would(open_round, alice):
    """_save_submission builds its SQL once; its values must stay those of the ORM's INSERT compiler."""
    from django.db.models import sql

    builders.submit(alice, open_round, KJELD, name="Kjeld")
    rows = [
        HandVersion.objects.get(hand__player=alice),
        AuditEntry.objects.filter(action="hand.submitted").latest("pk"),
        Message.objects.get(kind="hand.receipt"),
    ]
    for row in rows:
        fields = services._inserted_fields(type(row))
        query = sql.InsertQuery(type(row))
        query.insert_values(fields, [row])
        with time_machine.travel(open_round.deadline, tick=False):  # auto_now_add reads the clock for both
            [(text, compiled)] = query.get_compiler(connection=connection).as_sql()
            ours = services._insert_params(row, connection)
        assert [str(value) for value in ours] == [str(value) for value in compiled]
        columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
        assert columns in text


def test_the_token_query_brings_the_profile(open_round, alice):
    from accounts.authentication import TokenAuthentication

    key = Token.objects.create(user=alice).key
    with CaptureQueriesContext(connection) as ctx:
        user, _ = TokenAuthentication().authenticate_credentials(key)
        assert user.profile.forum_username == "WhammeWhamme"
    assert len(ctx.captured_queries) == 1


def test_a_bad_or_inactive_token_is_refused(alice):
    client = token_client(alice)
    alice.is_active = False
    alice.save()
    assert client.get("/api/rounds/").status_code in (401, 403)
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token nope")
    response = bad.get("/api/rounds/")
    assert response.status_code == 401 and response.json()["detail"] == "Invalid token."
