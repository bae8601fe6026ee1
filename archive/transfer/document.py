"""The league export document, version 1, and how its values are written and read.

    {"format": "phm-league-export", "version": 1, "exported_at": ..., "source": {"site_url": ...},
     "users": [{"username", "email", "first_name", "last_name", "date_joined", "forum_username",
                "time_zone"}],
     "league": {every League field, "moderators": [username], "winners": [username]},
     "rounds": [{every Round field, "eligible_players": [username], "accepted_cards": [...],
                 "hands_previews": [...], "bonus_awards": [...], "tally": {...} or null,
                 "hands": [{every Hand field, "versions": [...], "reviews": [...], "tally": {...} or null}],
                 "matches": [{"hand_a": username, "hand_b": username, every Match field,
                              "reports": [...], "challenges": [{"ref", every Challenge field}]}]}],
     "audit_trail": [{"subject": {...}, every AuditEntry field}]}

Natural keys throughout: users by username, a round by its number in the league, a hand by its round and
player, a match by its two hands' players. Only a challenge, which has none, carries its source id as "ref".
Users appear as usernames wherever the models hold a user; cards are names already (the models store names).
Rows are written field by field from the models (`row_of`) and read back the same way (`values_for`), so a
field added to a model travels without touching this package. Timestamps are ISO 8601 with microseconds.
"""

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from phm.errors import Conflict, DomainError

FORMAT = "phm-league-export"
VERSION = 1


class LeagueTransferError(DomainError):
    """Why an export or import cannot be done, as a sentence for the moderator."""


class TransferFormatError(LeagueTransferError):
    """The file is not a league export this version can read, or is inconsistent."""

    code = "invalid"


class TransferConflict(Conflict, LeagueTransferError):
    """The file is fine but this instance cannot take it as it is (a league of that name exists...)."""


def iso_time(moment):
    return moment.astimezone(dt.UTC).isoformat()  # DjangoJSONEncoder would drop the microseconds


def json_value(field, value):
    if value is None:
        return None
    if isinstance(field, models.DateTimeField):
        return iso_time(value)
    if isinstance(field, models.DateField):
        return value.isoformat()
    return value


def row_of(obj, usernames, *, skip=()):
    """Every concrete field of `obj` but its id, users as usernames; relations to other rows are left to the
    caller (`skip` them), since the document nests those."""
    row = {}
    for field in obj._meta.concrete_fields:
        if field.primary_key or field.name in skip:
            continue
        value = getattr(obj, field.attname)
        row[field.name] = (
            usernames[value] if field.is_relation and value is not None else json_value(field, value)
        )
    return row


def values_for(model, row, users, path, *, skip=()):
    """The model's field values from a document row, checked; users (a username → user dict) for user fields.
    A field the row lacks takes its default when it has one (a file from before the field existed)."""
    if not isinstance(row, dict):
        raise TransferFormatError(f"{path}: expected an object.")
    values = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or field.name in skip:
            continue
        where = f"{path}.{field.name}"
        if field.name not in row:
            if field.has_default() or field.null:
                continue
            raise TransferFormatError(f"{where} is missing.")
        value = row[field.name]
        if field.is_relation:
            values[field.name] = user_named(value, users, where, null=field.null)
        else:
            values[field.attname] = _checked(field, value, where)
    return values


def user_named(username, users, where, *, null=False):
    if username is None and null:
        return None
    if not isinstance(username, str) or username not in users:
        raise TransferFormatError(f"{where}: {username!r} is not a user of the file's users section.")
    return users[username]


def _checked(field, value, where):
    if value is None:
        if field.null:
            return None
        raise TransferFormatError(f"{where} may not be empty (null).")
    if isinstance(field, models.DateField | models.DateTimeField) and not isinstance(value, str):
        raise TransferFormatError(f"{where}: expected an ISO 8601 date or time, got {value!r}.")
    if isinstance(field, models.CharField | models.TextField) and not isinstance(value, str):
        raise TransferFormatError(f"{where}: expected text, got {value!r}.")
    if isinstance(field, models.IntegerField) and (isinstance(value, bool) or not isinstance(value, int)):
        raise TransferFormatError(f"{where}: expected a whole number, got {value!r}.")
    try:
        value = field.to_python(value)
        field.run_validators(value)
    except ValidationError as error:
        raise TransferFormatError(f"{where}: {' '.join(error.messages)}") from error
    if isinstance(field, models.DateTimeField) and timezone.is_naive(value):
        raise TransferFormatError(f"{where}: the time needs its UTC offset.")
    if field.choices and value not in {choice for choice, _ in field.flatchoices}:
        raise TransferFormatError(f"{where}: {value!r} is not one of the known values.")
    return value


def list_at(row, key, path, *, required=False):
    """`row[key]`, which must be a list; a missing nested list is empty unless `required`."""
    if not isinstance(row, dict) or (required and key not in row):
        raise TransferFormatError(f"{path}.{key}: a list is missing.")
    value = row.get(key, [])
    if not isinstance(value, list):
        raise TransferFormatError(f"{path}.{key}: expected a list.")
    return value
