"""The users section on import: matched by username, the missing ones created without a usable password.

An account that exists here is left as it is (its e-mail and profile belong to this instance). A new account
gets the file's e-mail, names and profile; it can log in only after a password reset or an administrator's
`changepassword`, since no credential ever travels in the file."""

from django.contrib.auth import get_user_model
from django.db.models.functions import Lower
from django.utils.dateparse import parse_datetime

from accounts.models import Profile
from accounts.timezones import DEFAULT_TIME_ZONE, is_known_time_zone

from .document import TransferFormatError, list_at

TEXT_FIELDS = ["email", "first_name", "last_name", "forum_username"]


def import_users(document, warnings):
    """username → user for every user of the file; returns (users, created usernames)."""
    rows = list_at(document, "users", "document", required=True)
    wanted = _read_rows(rows)
    user_model = get_user_model()
    users = {user.get_username(): user for user in user_model.objects.filter(username__in=wanted)}
    forum_names = Profile.objects.exclude(forum_username="").values_list(Lower("forum_username"), flat=True)
    forum_names_taken = set(forum_names)
    created = []
    for username, row in wanted.items():
        if username in users:
            continue
        user = user_model(
            username=username,
            email=row["email"],
            first_name=row["first_name"],
            last_name=row["last_name"],
            date_joined=row["date_joined"],
        )
        user.set_unusable_password()
        user.save()
        Profile.objects.create(
            user=user,
            forum_username=_forum_name(row, forum_names_taken, warnings),
            time_zone=_zone(row, warnings),
        )
        users[username] = user
        created.append(username)
    return users, created


def _read_rows(rows):
    wanted = {}
    for index, row in enumerate(rows):
        path = f"users[{index}]"
        if not isinstance(row, dict):
            raise TransferFormatError(f"{path}: expected an object.")
        username = row.get("username")
        if not isinstance(username, str) or not username.strip():
            raise TransferFormatError(f"{path}.username: a user needs a username.")
        if username in wanted:
            raise TransferFormatError(f"{path}: the user {username!r} appears twice.")
        for key in TEXT_FIELDS:
            if not isinstance(row.get(key, ""), str):
                raise TransferFormatError(f"{path}.{key}: expected text.")
        joined = parse_datetime(row["date_joined"]) if isinstance(row.get("date_joined"), str) else None
        if joined is None:
            raise TransferFormatError(f"{path}.date_joined: expected an ISO 8601 time.")
        wanted[username] = {key: row.get(key, "") for key in TEXT_FIELDS} | {
            "date_joined": joined,
            "time_zone": row.get("time_zone"),
        }
    return wanted


def _forum_name(row, taken, warnings):
    """The file's forum name, unless another account here already claims it (the name is unique)."""
    name = row["forum_username"].strip()
    if name and name.lower() in taken:
        warnings.append(
            f"The forum name {name!r} is already taken here: its new account was created without it."
        )
        return ""
    taken.add(name.lower())
    return name


def _zone(row, warnings):
    zone = row["time_zone"]
    if zone is None or is_known_time_zone(zone):
        return zone or DEFAULT_TIME_ZONE
    warnings.append(f"Unknown time zone {zone!r}: its account was created with {DEFAULT_TIME_ZONE}.")
    return DEFAULT_TIME_ZONE
