"""The client's address, the one every limit and log line uses (README: Login throttling and request limits).

A request comes from REMOTE_ADDR, the other end of the connection. Behind the TLS proxy (BEHIND_TLS_PROXY)
that is the proxy, and the client is the address the proxy appended last to X-Forwarded-For — but only when
the connection does come from one of the proxy's addresses (TRUSTED_PROXIES). From anywhere else the header is
whatever the client chose to send, so it is ignored: a client that reaches gunicorn directly cannot pick a new
address for each request. Left-hand entries of X-Forwarded-For are never trusted either (the proxy appends to
what the client sent).
"""

import ipaddress
import logging
from functools import lru_cache

from django.conf import settings

from .env import parse_networks

logger = logging.getLogger(__name__)


@lru_cache(maxsize=8)
def _networks(entries):
    return parse_networks(entries)


def parse_address(text):
    """An IP address from REMOTE_ADDR or an X-Forwarded-For entry (`203.0.113.9`, `2001:db8::1`, also with a
    port: `203.0.113.9:4711`, `[2001:db8::1]:4711`); IPv4-mapped IPv6 as IPv4. None for anything else."""
    text = (text or "").strip()
    candidates = [text]
    if text.startswith("[") and "]" in text:
        candidates.append(text[1 : text.index("]")])
    elif text.count(":") == 1:
        candidates.append(text.split(":", 1)[0])
    for candidate in candidates:
        try:
            address = ipaddress.ip_address(candidate)
        except ValueError:
            continue
        mapped = getattr(address, "ipv4_mapped", None)
        return mapped or address
    return None


def from_trusted_proxy(address):
    """Whether `address` (an ip_address) is one of TRUSTED_PROXIES."""
    return any(address in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_ip(request):
    """The client's address as a string (None when the connection's own address is unknown)."""
    remote = parse_address(request.META.get("REMOTE_ADDR"))
    if remote is None:
        return None
    if settings.SECURE_PROXY_SSL_HEADER and from_trusted_proxy(remote):
        forwarded = [part for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded:
            appended = parse_address(forwarded[-1])
            if appended is not None:
                return str(appended)
            logger.warning("X-Forwarded-For from the proxy ends in no address: %r", forwarded[-1][:100])
    return str(remote)
