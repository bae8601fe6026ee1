"""Brute-force protection for every password check (django-axes, configured in phm/settings.py).

Failed logins are counted in the database (axes' AccessAttempt rows, one per username, IP address and user
agent) on three levels, each with its own limit within the cool-off window (LOGIN_LOCKOUT_MINUTES):

- one username from one IP address (LOGIN_FAILURE_LIMIT): the usual guesser, locked out of that account only;
  the account's owner, elsewhere, is not;
- one IP address, whatever the usernames (LOGIN_FAILURE_LIMIT_PER_IP): a guesser going through many accounts;
- one username, from anywhere (LOGIN_FAILURE_LIMIT_PER_ACCOUNT): a guesser spread over many addresses. Its
  limit is much higher, since reaching it locks the owner out as well, for the cool-off only.

A lock ends by itself after the cool-off: attempts made while locked out are refused without being counted, so
nobody can keep an account locked for ever. Locked-out requests never reach the password hasher: LoginBackend
refuses them first. It also lets one IP address have only LOGIN_CHECKS_AT_ONCE_PER_IP password checks running
at the same moment, so a burst of parallel guesses cannot all be checked before the first failures are
counted.
"""

import contextlib
import logging
import math
from datetime import timedelta

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone

from phm.client_address import client_ip

logger = logging.getLogger(__name__)

# The order of settings.AXES_LOCKOUT_PARAMETERS; each has its own limit (LOGIN_FAILURE_LIMITS).
PAIR, IP_ADDRESS, ACCOUNT = "pair", "ip_address", "account"
LEVELS = (PAIR, IP_ADDRESS, ACCOUNT)
USERNAME_COLUMN_LENGTH = AccessAttempt._meta.get_field("username").max_length


def client_username(request, credentials=None):
    """AXES_USERNAME_CALLABLE: the username a login attempt is counted under, as axes reads it (the
    credentials, else the posted form), cut to the length of axes' column. No account has a username that
    long (User.username holds 150), so the cut never merges a real account with another."""
    if credentials:
        username = credentials.get(settings.AXES_USERNAME_FORM_FIELD)
    else:
        username = getattr(request, "data", request.POST).get(settings.AXES_USERNAME_FORM_FIELD)
    if isinstance(username, str):
        return username[:USERNAME_COLUMN_LENGTH]
    return username


BUSY_RETRY_SECONDS = 5
SLOT_TIMEOUT = 60  # seconds: a slot held by a process that died frees itself


@contextlib.contextmanager
def password_check_slot(request):
    """Yields whether this request may check a password now: at most LOGIN_CHECKS_AT_ONCE_PER_IP at once per
    IP address, counted in the cache (Redis in production; a cache that is down lets every check through)."""
    key = f"login-checks-at-once:{getattr(request, 'axes_ip_address', None) or client_ip(request)}"
    try:
        cache.add(key, 0, timeout=SLOT_TIMEOUT)
        running = cache.incr(key)
    except Exception:  # the key expired meanwhile, or the cache is unreachable: do not hold logins up
        logger.warning("Login concurrency not counted (cache unavailable)", exc_info=True)
        yield True
        return
    try:
        yield running is None or running <= settings.LOGIN_CHECKS_AT_ONCE_PER_IP
    finally:
        with contextlib.suppress(Exception):
            cache.decr(key)


class LoginBackend(AxesStandaloneBackend, ModelBackend):
    """The one backend that checks passwords: refuses locked-out requests (axes) and bursts from one address,
    then checks the password as the ModelBackend does. A wrong password ends the backend chain, so the
    ModelBackend listed after this one (for sessions it made and for explicit logins) never checks it
    again."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            # No HTTP request, so no client to count (the test client's login(), a shell). Every entry point
            # of the site passes its request: the login page, the admin and the API token endpoint.
            user = ModelBackend.authenticate(self, request, username=username, password=password, **kwargs)
            if user is None:
                raise PermissionDenied("Wrong username or password.")
            return user
        AxesStandaloneBackend.authenticate(self, request, username=username, password=password, **kwargs)
        with password_check_slot(request) as granted:
            if not granted:
                # Refused unchecked and not counted as a failure (axes skips attempts flagged as locked out).
                request.axes_locked_out = True
                request.phm_login_busy = True
                raise PermissionDenied("Too many password checks at once from this address.")
            user = ModelBackend.authenticate(self, request, username=username, password=password, **kwargs)
        if user is None:
            raise PermissionDenied("Wrong username or password.")
        return user


class LoginThrottleHandler(AxesDatabaseHandler):
    """axes' database handler, with a separate limit for each level of AXES_LOCKOUT_PARAMETERS.

    axes compares one number, `get_failures`, with AXES_FAILURE_LIMIT: this handler returns that limit itself
    when any level reached its own limit, and something below it otherwise."""

    def level_counts(self, request, credentials=None):
        """{level: [(attempt_time, failures), ...]} of the attempts that still count, newest first."""
        rows = {}
        for level, attempts in zip(LEVELS, self.get_user_attempts(request, credentials), strict=True):
            rows[level] = list(
                attempts.order_by("-attempt_time").values_list("attempt_time", "failures_since_start")
            )
        return rows

    def get_failures(self, request, credentials=None):
        ceiling = settings.AXES_FAILURE_LIMIT
        if self.locked_until(request, credentials) is not None:
            return ceiling
        counts = self.level_counts(request, credentials)
        return min(sum(failures for _, failures in counts[PAIR]), ceiling - 1)

    def locked_until(self, request, credentials=None):
        """When the lock on this request ends, or None when it is not locked out. A level's lock ends when
        enough of its attempts have aged past the cool-off for its count to drop below the limit."""
        cool_off = get_cool_off(request) or timedelta(0)
        ends = []
        for level, rows in self.level_counts(request, credentials).items():
            limit = settings.LOGIN_FAILURE_LIMITS[level]
            total = 0
            for attempt_time, failures in rows:
                total += failures
                if total >= limit:
                    ends.append(attempt_time + cool_off)
                    break
        now = timezone.now()
        ends = [end for end in ends if end > now]
        return max(ends) if ends else None


def retry_after_seconds(request, credentials=None):
    """Seconds until this locked-out request may try again (at least 1)."""
    from axes.handlers.proxy import AxesProxyHandler

    handler = AxesProxyHandler.get_implementation()
    AxesProxyHandler.update_request(request)
    until = handler.locked_until(request, credentials) if hasattr(handler, "locked_until") else None
    if until is None:
        cool_off = get_cool_off(request)
        return int(cool_off.total_seconds()) if cool_off else 60
    return max(1, math.ceil((until - timezone.now()).total_seconds()))


def lockout_message(seconds):
    minutes = max(1, math.ceil(seconds / 60))
    unit = "minute" if minutes == 1 else "minutes"
    return (
        f"Too many failed login attempts. For your account's safety, logging in from here is paused: "
        f"try again in {minutes} {unit}. Forgot your password? Reset it by e-mail."
    )


def _is_api(request):
    return request.path.startswith("/api/")


def _is_admin(request):
    return request.path.startswith("/admin/")


def lockout_response(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: 429 with the time until retry. The API answers `{"detail", "code"}` JSON; the
    admin and the site show their login page with the message."""
    if getattr(request, "phm_login_busy", False):
        seconds = BUSY_RETRY_SECONDS
        message = "Too many login attempts at once from your address: wait a few seconds and try again."
    else:
        seconds = retry_after_seconds(request, credentials)
        message = lockout_message(seconds)
    username = get_client_username(request, credentials) or ""
    if _is_api(request):
        response = JsonResponse({"detail": message, "code": "throttled"}, status=429)
    elif _is_admin(request):
        from django.contrib.admin.forms import AdminAuthenticationForm

        context = {
            **admin.site.each_context(request),
            "title": "Log in",
            "subtitle": None,
            "app_path": request.get_full_path(),
            "form": AdminAuthenticationForm(request, initial={"username": username}),
            "lockout_message": message,
            "username": username,
        }
        response = render(request, "admin/login.html", context, status=429)
    else:
        from django.contrib.auth.forms import AuthenticationForm

        context = {
            "form": AuthenticationForm(request, initial={"username": username}),
            "next": request.POST.get("next", ""),
            "lockout_message": message,
        }
        response = render(request, "registration/login.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
