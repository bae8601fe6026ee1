"""Who wants what, and how: per kind e-mail on/off and site on/off, and the daily digest. Kept on the
accounts profile (loaded with every logged-in request anyway). Unsubscribe links are signed, never expire, and
turn off one kind's e-mail for one person, without logging in."""

from django.core import signing
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction

from accounts.models import Profile
from accounts.services import is_moderator
from audit.services import log_action
from phm.errors import Forbidden, InputError

from .kinds import BY_KEY, KINDS, Kind
from .queue import release_held

CHANNELS = ("email", "site")
UNSUBSCRIBE_SALT = "phm.outbox.unsubscribe"


class PreferenceError(InputError):
    """Preferences that make no sense; `errors` maps a field to its messages."""


class ModeratorKindsOnly(Forbidden):
    """A player tried to choose how a moderator's kind reaches them."""


def kinds_for(user) -> list[Kind]:
    """The kinds `user` chooses among: every kind for a moderator, the players' kinds for anyone else (the
    moderators' kinds are only ever sent to those who can manage a league)."""
    if is_moderator(user):
        return list(KINDS)
    return [kind for kind in KINDS if not kind.for_moderators]


def shown_choices(user):
    """choices_for(user), only of the kinds `user` chooses among (kinds_for)."""
    choices = choices_for(user)
    return {kind.key: choices[kind.key] for kind in kinds_for(user)}


def profile_of(user):
    try:
        return user.profile
    except ObjectDoesNotExist:
        return None


def digest_enabled(user):
    profile = profile_of(user)
    return bool(profile and profile.email_digest)


def choices_from(stored):
    """Every kind's {"email", "site"} from a profile's stored choices (defaults for the missing ones)."""
    stored = stored if isinstance(stored, dict) else {}
    result = {}
    for kind in KINDS:
        saved = stored.get(kind.key) if isinstance(stored.get(kind.key), dict) else {}
        result[kind.key] = {
            "email": bool(saved.get("email", kind.email_default)),
            "site": bool(saved.get("site", kind.site_default)) and kind.site,
        }
    return result


def choices_for(user):
    profile = profile_of(user)
    return choices_from(profile.notification_choices if profile else {})


def wants(user, kind_key, channel):
    """Whether `user` wants `kind_key` by `channel` ("email" or "site"). Kinds outside the catalogue (a
    password reset) are always sent by e-mail and never shown on the site."""
    kind = BY_KEY.get(kind_key)
    if kind is None:
        return channel == "email"
    return choices_for(user)[kind_key][channel]


def digest_for(user, kind_key):
    """Whether an e-mail of this kind waits for the person's daily digest."""
    kind = BY_KEY.get(kind_key)
    profile = profile_of(user)
    return bool(kind and kind.digest and profile and profile.email_digest)


def update(user, choices=None, digest=None, *, any_kind=False):
    """Change some choices (a partial {kind: {channel: bool}}) and/or the digest; unknown kinds or channels,
    and values that are not true/false, are refused with a message naming them, a moderator's kind for
    anyone else (ModeratorKindsOnly) unless `any_kind` (an unsubscribe link of a moderator no longer one).
    Returns the full choices."""
    errors = {}
    changes = {}
    if choices is not None and not isinstance(choices, dict):
        errors["preferences"] = ['Send an object such as {"round.opened": {"email": false}}.']
        choices = {}
    for key, value in (choices or {}).items():
        kind = BY_KEY.get(key)
        if kind is None:
            errors[key] = [f"Unknown kind. Known kinds: {', '.join(BY_KEY)}."]
            continue
        if not isinstance(value, dict):
            errors[key] = ['Give {"email": true/false, "site": true/false}.']
            continue
        for channel, flag in value.items():
            if channel not in CHANNELS:
                errors[key] = [f'Unknown channel "{channel}": use "email" or "site".']
            elif not isinstance(flag, bool):
                errors[key] = [f'"{channel}" must be true or false.']
            elif channel == "site" and flag and not kind.site:
                errors[key] = [f"{kind.label} are sent by e-mail only."]
            else:
                changes.setdefault(key, {})[channel] = flag
    if digest is not None and not isinstance(digest, bool):
        errors["digest"] = ["Must be true or false."]
    if errors:
        raise PreferenceError(errors)
    moderators_only = [key for key in changes if BY_KEY[key].for_moderators]
    if moderators_only and not any_kind and not is_moderator(user):
        raise ModeratorKindsOnly(
            f"{', '.join(moderators_only)}: only moderators are told of disputes and challenges in the "
            "leagues they manage, so only they choose how."
        )
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
        stored = dict(profile.notification_choices or {})
        for key, channels in changes.items():
            stored[key] = {**(stored.get(key) or {}), **channels}
        profile.notification_choices = stored
        released = digest is False and profile.email_digest
        if digest is not None:
            profile.email_digest = digest
        profile.save(update_fields=["notification_choices", "email_digest"])
        if released:
            release_held(user)
    if hasattr(user, "_state"):
        user.profile = profile  # later checks in this request see the new choices
    return choices_from(profile.notification_choices)


# Unsubscribe links ------------------------------------------------------------------------------------------


def _signer():
    return signing.Signer(salt=UNSUBSCRIBE_SALT)  # no timestamp: a link in an old e-mail keeps working


def unsubscribe_token(user_id, kind_key):
    return _signer().sign_object({"u": user_id, "k": kind_key}, compress=True)


def read_unsubscribe_token(token):
    """(user id, kind) of a genuine token, else None."""
    try:
        data = _signer().unsign_object(token)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("k") not in BY_KEY or not isinstance(data.get("u"), int):
        return None
    return data["u"], data["k"]


def unsubscribe(user, kind_key):
    """Turn off one kind's e-mail for one person (audited on their account's trail)."""
    with transaction.atomic():
        was = choices_for(user)[kind_key]["email"]
        update(user, {kind_key: {"email": False}}, any_kind=True)
        if was:
            log_action(
                user,
                "notifications.unsubscribed",
                actor=user,
                before={kind_key: True},
                after={kind_key: False},
            )
    return was
