"""Request limits: how often one address or one account may sign up, ask for password-reset mail or write
through the API (README: Request limits). Failed logins have their own counting (accounts.throttle).

A limit is a rate such as "5/hour": at most that many uses in each window of that length, counted in the cache
(Redis in production) with one atomic increment per use. A use past the limit is refused with 429 and
Retry-After (the seconds until the window ends): the API in its error format (`{"detail", "code":
"throttled"}`), the pages with a page that says when to try again. A cache that is down counts nothing and
refuses nothing.
"""

import contextlib
import hashlib
import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from rest_framework.exceptions import Throttled
from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import BaseThrottle

from .client_address import client_ip
from .env import Rate, parse_rate

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after: int = 0  # seconds until the window ends, when refused
    key: str | None = None
    rate: Rate | None = None


ALLOWED = Verdict(True)


def _key(scope, ident, window):
    digest = hashlib.sha256(str(ident).encode()).hexdigest()[:32]  # no address or e-mail in the cache as is
    return f"limit:{scope}:{digest}:{window}"


def _increment(key, timeout):
    """The key's new count (1 when it did not exist), or None when the cache cannot count."""
    try:
        try:
            return cache.incr(key)
        except ValueError:  # no such key yet: this use opens the window
            if cache.add(key, 1, timeout=timeout):
                return 1
            return cache.incr(key)  # another request opened it meanwhile
    except Exception:  # the cache is unreachable: nobody is refused because of it
        logger.warning("Request limit not counted (cache unavailable)", exc_info=True)
        return None


def take(scope, ident, rate_text, request=None, now=None):
    """Count one use of `scope` by `ident` (an address, an account id, an e-mail address) against the rate
    `rate_text` (a setting's value). Refused when the window already holds the rate's count."""
    rate = parse_rate(rate_text)
    if rate is None or ident is None:
        return ALLOWED
    now = time.time() if now is None else now
    window = int(now // rate.seconds)
    key = _key(scope, ident, window)
    used = _increment(key, rate.seconds + 5)
    if used is None or used <= rate.count:
        return Verdict(True, key=key, rate=rate)
    if used == rate.count + 1:  # once per window, not once per refused request
        logger.warning(
            "Request limit %s (%s) reached by %s",
            scope,
            rate,
            client_ip(request) if request is not None else "-",
        )
    retry_after = max(1, math.ceil((window + 1) * rate.seconds - now))
    return Verdict(False, retry_after=retry_after, key=key, rate=rate)


def give_back(verdict):
    """Undo the count of an allowed use that turned out not to count (a sign-up form with errors)."""
    if not verdict.allowed or verdict.key is None:
        return
    with contextlib.suppress(Exception):  # expired meanwhile, or the cache is down: nothing to give back
        cache.decr(verdict.key)


def wait_text(seconds):
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def refused_page(request, verdict, message, template="429.html"):
    """429 for the pages: `message` says what was limited; the page adds when to try again."""
    response = render(
        request,
        template,
        {"message": message, "retry_after": verdict.retry_after, "wait": wait_text(verdict.retry_after)},
        status=429,
    )
    response["Retry-After"] = str(verdict.retry_after)
    return response


# The API ----------------------------------------------------------------------------------------------------


class Limited(Throttled):
    extra_detail_singular = "Try again in {wait} second."
    extra_detail_plural = "Try again in {wait} seconds."


class ApiWriteThrottle(BaseThrottle):
    """Every API request but GET, HEAD and OPTIONS counts against API_WRITE_LIMIT_PER_ACCOUNT (signed-in
    requests) and API_WRITE_LIMIT_PER_ADDRESS. Past either: 429 `{"detail", "code": "throttled"}` with
    Retry-After. The token endpoint is not a write: failed logins are counted by accounts.throttle."""

    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        user = getattr(request, "user", None)
        checks = [("api-writes-address", client_ip(request), settings.API_WRITE_LIMIT_PER_ADDRESS, "address")]
        if user is not None and user.is_authenticated:
            checks.insert(0, ("api-writes-account", user.pk, settings.API_WRITE_LIMIT_PER_ACCOUNT, "account"))
        for scope, ident, rate_text, who in checks:
            verdict = take(scope, ident, rate_text, request=request)
            if not verdict.allowed:
                raise Limited(
                    wait=verdict.retry_after,
                    detail=f"Too many changes from this {who}: at most {verdict.rate} through the API.",
                )
        return True
