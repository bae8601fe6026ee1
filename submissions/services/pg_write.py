"""The PostgreSQL write of a submission: the rows of write.save_submission (the hand's new name and flag, its
new version, the audit entry and the receipt's outbox row) in one statement of data-modifying CTEs, the
receipt's INSERT reading the version's new id. Its text is built once per process from the models' _meta
(_submission_sql); its values are prepared by the models' own fields, as the ORM's saves would prepare them.
tests/submissions/test_write_paths.py proves both paths write the same rows."""

from __future__ import annotations

import functools
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.utils import timezone

from audit.models import AuditEntry
from outbox import services as outbox
from outbox.models import Message
from submissions.models import Hand, HandVersion
from submissions.services.write import HAND_UPDATE_FIELDS


def save_submission(
    hand: Hand, version: HandVersion, entry: AuditEntry, receipt: Message | None = None
) -> None:
    """write.save_submission in one statement (PostgreSQL only). The rows are independent of each other but
    for the receipt's version id (the old version was lowered before), so their order inside the statement
    does not matter."""
    hand.updated_at = timezone.now()  # what auto_now does on save()
    # The connection itself, not the `connection` proxy: every field's preparation reads it several times,
    # and each read of the proxy is a thread-local lookup.
    db = connections[DEFAULT_DB_ALIAS]
    params = [
        *_insert_params(version, db),
        *_field_params(Hand, HAND_UPDATE_FIELDS, hand, db),
        hand.pk,
        *_insert_params(entry, db),
    ]
    if receipt is not None:
        params.extend(_insert_params(receipt, db, without=("source_id",)))
    with db.cursor() as cursor:
        cursor.execute(_submission_sql(type(entry), with_receipt=receipt is not None), params)
        row = cursor.fetchone()
    version.pk = row[0]
    saved_rows: list[Model] = [version, entry]
    if receipt is not None:
        receipt.pk, receipt.source_id = row[1], version.pk
        saved_rows.append(receipt)
        outbox.send_after_commit([receipt.pk])
    for saved in saved_rows:
        saved._state.adding = False
        saved._state.db = db.alias


@functools.cache
def _inserted_fields(model: type[Model], without: tuple[str, ...] = ()) -> list[Field[Any, Any]]:
    return [
        field
        for field in model._meta.local_concrete_fields
        if not field.primary_key and field.attname not in without
    ]


def _field_params(
    model: type[Model], names: tuple[str, ...], obj: Model, db: BaseDatabaseWrapper
) -> list[Any]:
    """The values obj.save() would send for these fields (their own get_db_prep_save)."""
    return [_field(model, name).get_db_prep_save(getattr(obj, name), db) for name in names]


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    """The model's concrete field `name` (never a relation's reverse side or a generic foreign key)."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or field.column is None:
        raise TypeError(f"{model.__name__}.{name} is not a concrete field")
    return field


def _column(field: Field[Any, Any]) -> str:
    if field.column is None:
        raise TypeError(f"{field} has no column")
    return field.column


def _insert_params(obj: Model, db: BaseDatabaseWrapper, without: tuple[str, ...] = ()) -> list[Any]:
    """The values obj.save() would INSERT for a new row, in _inserted_fields order."""
    fields = _inserted_fields(type(obj), without)
    return [field.get_db_prep_save(field.pre_save(obj, True), db) for field in fields]


@functools.cache
def _submission_sql(audit_model: type[Model], with_receipt: bool) -> str:
    """The text of the submission's one statement: built once per process, not compiled by the ORM on every
    PUT. Its placeholders follow save_submission's params."""
    qn = connection.ops.quote_name

    def insert(model: type[Model], without: tuple[str, ...] = ()) -> tuple[str, str]:
        fields = _inserted_fields(model, without)
        columns = ", ".join(qn(_column(field)) for field in fields)
        return f"INSERT INTO {qn(model._meta.db_table)} ({columns})", ", ".join(["%s"] * len(fields))

    version_insert, version_values = insert(HandVersion)
    audit_insert, audit_values = insert(audit_model)
    assignments = ", ".join(f"{qn(_column(_field(Hand, name)))} = %s" for name in HAND_UPDATE_FIELDS)
    ctes = [
        f'"version_insert" AS ({version_insert} VALUES ({version_values}) RETURNING "id")',
        f'"hand_update" AS (UPDATE {qn(Hand._meta.db_table)} SET {assignments} WHERE "id" = %s)',  # noqa: S608
        f'"audit_insert" AS ({audit_insert} VALUES ({audit_values}))',
    ]
    selected = ['(SELECT "id" FROM "version_insert")']
    if with_receipt:
        receipt_insert, receipt_values = insert(Message, without=("source_id",))
        receipt_cte = (
            f'"receipt_insert" AS ({receipt_insert[:-1]}, "source_id") '  # noqa: S608  (names from _meta)
            f'SELECT {receipt_values}, "id" FROM "version_insert" RETURNING "id")'
        )
        ctes.append(receipt_cte)
        selected.append('(SELECT "id" FROM "receipt_insert")')
    return f"WITH {', '.join(ctes)} SELECT {', '.join(selected)}"
