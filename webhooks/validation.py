"""What a moderator may enter for a webhook: an https URL to a public address (http only to this machine,
while DEBUG and settings.WEBHOOK_ALLOW_LOCAL_HTTP are both on), a kind, events and, for a JSON webhook, a
secret.

The address check here only refuses what is plainly local or private in the URL itself; the one that holds is
made again on every connection (webhooks.transport), since a name can resolve to another address later."""

import re
import secrets
from urllib.parse import urlsplit

from django.conf import settings

from phm.errors import InputError

from .addresses import address_problem, is_local_name, numeric_address, reached_address
from .models import EVENTS, Webhook

MAX_URL_LENGTH = 2000
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
SECRET_LENGTH = (16, 200)
SECRET_PATTERN = re.compile(r"^[\x21-\x7e]+$")  # printable ASCII, no spaces


class WebhookInputError(InputError):
    """Bad webhook settings: `errors` maps a field to its problems (400)."""


def allow_local_http():
    """The development exception: http:// to 127.0.0.1 or localhost (loopback addresses only). Honoured
    only while DEBUG is on: a settings file that turns WEBHOOK_ALLOW_LOCAL_HTTP on cannot open it in
    production."""
    return bool(settings.DEBUG and getattr(settings, "WEBHOOK_ALLOW_LOCAL_HTTP", True))


def is_local_http(scheme, host):
    """Whether a URL with this scheme and host uses the development exception."""
    return scheme == "http" and host in LOCAL_HOSTS and allow_local_http()


def host_problem(host):
    """Why `host` is plainly not a public address, or "". Numbers are read as a resolver reads them."""
    try:
        address = numeric_address(host)
    except ValueError:
        return "This is not a valid URL: its host is neither a name nor an IP address."
    public = "a webhook must point to a public https:// address."
    if address is None:
        if is_local_name(host):
            return f"{host} is a local or private address; {public}"
        return ""
    if address_problem(address):
        meant = reached_address(address)
        spelled = "" if str(meant) == host else f" ({host} means {meant})"
        return f"{host} is a local or private address{spelled}; {public}"
    return ""


def url_problem(url):
    """Why `url` cannot be a webhook's address, or "" when it can."""
    if not url:
        return "Give the webhook's URL."
    if len(url) > MAX_URL_LENGTH:
        return f"A webhook URL has at most {MAX_URL_LENGTH} characters."
    if any(character.isspace() for character in url):
        return "A URL has no spaces in it."
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError on a port that is not a number)
    except ValueError:
        return "This is not a valid URL."
    scheme, host = parts.scheme.lower(), (parts.hostname or "")
    if scheme not in ("https", "http"):
        return "Use an https:// URL."
    if not host:
        return "The URL has no host name: it should look like https://discord.com/api/webhooks/…"
    if parts.username is not None or parts.password is not None:
        return "Leave the user name and password out of the URL."
    if scheme == "http":
        if is_local_http(scheme, host):
            return ""
        if host in LOCAL_HOSTS:
            return "http:// to this machine is accepted only while DEBUG is on; use an https:// URL."
        return (
            "Use an https:// URL: messages are not sent unencrypted "
            "(http:// only to 127.0.0.1 or localhost while DEBUG is on)."
        )
    return host_problem(host)


def clean_url(url):
    url = (url or "").strip()
    problem = url_problem(url)
    if problem:
        raise WebhookInputError({"url": [problem]})
    return url


def clean_kind(kind):
    if kind not in Webhook.Kind.values:
        raise WebhookInputError({"kind": ['Choose "discord" or "json".']})
    return kind


def clean_events(events):
    if not isinstance(events, list | tuple) or not all(isinstance(event, str) for event in events):
        raise WebhookInputError({"events": [f"Give a list of events from: {', '.join(EVENTS)}."]})
    unknown = [event for event in events if event not in EVENTS]
    if unknown:
        raise WebhookInputError(
            {"events": [f"Unknown event {unknown[0]!r}; choose from: {', '.join(EVENTS)}."]}
        )
    if not events:
        raise WebhookInputError({"events": ["Choose at least one event to send."]})
    return [event for event in EVENTS if event in events]


def clean_secret(kind, secret):
    """The secret to keep: the one given, or a new random one for a JSON webhook; "" for Discord."""
    secret = (secret or "").strip()
    if kind == Webhook.Kind.DISCORD:
        if secret:
            raise WebhookInputError(
                {"secret": ["A Discord webhook has no secret: Discord does not check signatures."]}
            )
        return ""
    if not secret:
        return secrets.token_urlsafe(32)
    low, high = SECRET_LENGTH
    if not low <= len(secret) <= high or not SECRET_PATTERN.match(secret):
        raise WebhookInputError(
            {
                "secret": [
                    f"A secret is {low} to {high} printable characters without spaces (or leave it out)."
                ]
            }
        )
    return secret
