"""E-mails rendered when they are sent rather than when they are queued.

A hot write (a hand's submission) queues a small row — the kind, the recipient and address, the subject and
the id of the row the body comes from (`Message.source_id`) — in its own transaction, and the worker that
sends the message renders the body from that row first. The request then pays for one INSERT, not for the
templates.

The app that owns the source registers the renderer (its AppConfig.ready): the outbox stands beside the layers
and imports none of them. Deferred kinds are never held for a digest, whose text is built from stored bodies.
"""

from . import kinds, preferences
from .models import Message

_renderers = {}


class SourceGone(LookupError):
    """The row a deferred body is rendered from no longer exists: nothing can ever be sent."""


def register(kind_key, render):
    """`render(message)` returns (plain text, HTML) of the message's body, or raises SourceGone."""
    kind = kinds.kind(kind_key)
    if kind is None or kind.digest:
        raise ValueError(f"{kind_key}: a deferred e-mail must be a known kind that never waits for a digest")
    _renderers[kind_key] = render


def email(*, kind, user, subject, round_=None, league_id=None, secret=False):
    """An unsaved message to `user` whose body is rendered at sending; or None when they have no address or
    turned this kind's e-mail off. The caller sets `source_id` (it may only know it inside its INSERT)."""
    if kind not in _renderers:
        raise LookupError(f"no deferred renderer registered for {kind}")
    if not user.email or not preferences.wants(user, kind, "email"):
        return None
    return Message(
        kind=kind,
        recipient=user,
        to_address=user.email,
        subject=subject[: Message._meta.get_field("subject").max_length],
        body="",
        html_body="",
        round_id=round_.pk if round_ is not None else None,
        league_id=league_id if league_id is not None else (round_.league_id if round_ is not None else None),
        secret=secret,
        state=Message.State.PENDING,
    )


def is_deferred(message):
    return message.source_id is not None and not message.body and message.kind in _renderers


def render(message):
    """Fill in the body of a deferred message (unsaved: the sender saves it with the delivery)."""
    message.body, message.html_body = _renderers[message.kind](message)


def body_of(message):
    """The message's plain-text body: as stored, or as it will be rendered when it is sent."""
    return _renderers[message.kind](message)[0] if is_deferred(message) else message.body
