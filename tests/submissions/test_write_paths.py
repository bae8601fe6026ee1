"""PostgreSQL writes a submission in one hand-built statement (submissions.services.pg_write); every other
database by the ORM's saves (submissions.services.write). Both must write the same rows: the hand, its
versions, its audit entries and the receipt's outbox message, and hand the receipt to the workers after the
commit. Each case runs the same submission through both paths (the ORM's forced by SUBMISSIONS_ORM_WRITE),
each inside a savepoint rolled back afterwards, and compares the rows but for ids and timestamps."""

from unittest import mock

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from audit.models import AuditEntry
from outbox.models import Message
from submissions.models import Hand, HandVersion
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand, uses_one_statement_write
from tests import builders
from tests.conftest import skip_unless

from .conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db

# Set by the database or the clock at the moment of writing: they differ between any two runs.
NOT_COMPARED = {"id", "created_at", "updated_at", "next_attempt_at"}


@pytest.fixture
def on_postgres():
    skip_unless(connection.vendor == "postgresql", "the one-statement write is PostgreSQL's (DATABASE_URL)")


def _row(obj, markers):
    """The row's values but for NOT_COMPARED, with the ids of rows the run made replaced by their markers."""
    values = {}
    for field in type(obj)._meta.concrete_fields:
        if field.attname in NOT_COMPARED:
            continue
        value = field.value_from_object(obj)
        marker = markers.get((field.attname, value)) if isinstance(value, int) else None
        values[field.attname] = marker or value
    return values


def _rows_of(round_, player):
    """Every row a submission of `player` in `round_` writes, comparable across runs."""
    hand = Hand.objects.get(round=round_, player=player)
    versions = list(HandVersion.objects.filter(hand=hand).order_by("number"))
    markers = {("hand_id", hand.pk): "the hand", ("object_id", hand.pk): "the hand"}
    markers.update({("source_id", version.pk): f"version {version.number}" for version in versions})
    entries = AuditEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Hand), object_id=hand.pk
    ).order_by("pk")
    messages = Message.objects.filter(recipient=player, kind="hand.receipt").order_by("pk")
    return {
        "hand": _row(hand, markers),
        "versions": [_row(version, markers) for version in versions],
        "audit entries": [_row(entry, markers) for entry in entries],
        "outbox messages": [_row(message, markers) for message in messages],
    }


def _written_by(settings, orm, submit):
    """(the rows after `submit()`, the statements it ran, the callbacks it left for the commit), with the
    ORM's write forced or not; rolled back afterwards, so the other path starts from the same rows."""
    settings.SUBMISSIONS_ORM_WRITE = orm
    assert uses_one_statement_write() is not orm
    nonces = iter(f"{n:032x}" for n in range(1, 10))  # the same secret nonces in both runs
    with (
        mock.patch("submissions.commitments.new_nonce", side_effect=lambda: next(nonces)),
        transaction.atomic(),
    ):
        waiting = len(connection.run_on_commit)
        with CaptureQueriesContext(connection) as queries:
            submission = submit()
        rows = _rows_of(submission.hand.round, submission.hand.player)
        after_commit = len(connection.run_on_commit) - waiting
        transaction.set_rollback(True)
    statements = [query["sql"].split()[0].upper() for query in queries.captured_queries]
    return rows, statements, after_commit


def _both_paths(settings, submit):
    by_orm, orm_statements, orm_after_commit = _written_by(settings, True, submit)
    by_statement, statements, after_commit = _written_by(settings, False, submit)
    assert "WITH" in statements and "WITH" not in orm_statements  # each path was the one taken
    assert by_statement == by_orm
    assert after_commit == orm_after_commit
    return by_orm


def test_a_first_hand_is_written_the_same_by_both_paths(on_postgres, settings, open_round, alice):
    moment = timezone.now()

    def submit():
        return builders.submit(alice, open_round, KJELD, name="Kjeld", now=moment)

    rows = _both_paths(settings, submit)
    assert [version["number"] for version in rows["versions"]] == [1]
    assert [entry["action"] for entry in rows["audit entries"]] == ["hand.submitted"]
    assert [message["source_id"] for message in rows["outbox messages"]] == ["version 1"]


def test_an_edit_of_a_flagged_hand_is_written_the_same_by_both_paths(
    on_postgres, settings, open_round, alice
):
    moment = timezone.now()
    builders.submit(alice, open_round, KJELD, name="Kjeld", now=moment)
    Hand.objects.filter(round=open_round, player=alice).update(flagged=True, flag_message="Karakas?")

    def submit():
        return builders.submit(alice, open_round, SCEPTER, name="Scepter", now=moment)

    rows = _both_paths(settings, submit)
    assert rows["hand"]["name"] == "Scepter" and rows["hand"]["flagged"] is False
    assert [(version["number"], version["is_current"]) for version in rows["versions"]] == [
        (1, False),
        (2, True),
    ]
    assert [entry["action"] for entry in rows["audit entries"]] == ["hand.submitted", "hand.changed"]
    assert rows["audit entries"][1]["note"] == "The change lifted the moderator's flag."
    assert [message["source_id"] for message in rows["outbox messages"]] == ["version 1", "version 2"]


def test_a_hand_without_a_receipt_is_written_the_same_by_both_paths(
    on_postgres, settings, open_round, make_user
):
    player = make_user("noaddress")  # no e-mail address: no receipt, the statement without its INSERT
    moment = timezone.now()
    submit_hand(player=player, round_id=open_round.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE)

    def submit():
        return builders.submit(player, open_round, SCEPTER, name="S", now=moment)

    rows = _both_paths(settings, submit)
    assert rows["outbox messages"] == [] and len(rows["versions"]) == 2
