"""Small, strict readers for settings that come from the environment."""

import ipaddress
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_str(name, default=None, environ=None):
    environ = os.environ if environ is None else environ
    value = environ.get(name)
    return default if value is None else value.strip()


def env_bool(name, default=False, environ=None):
    raw = env_str(name, environ=environ)
    if raw is None:
        return default
    word = raw.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of {sorted(TRUE_WORDS | FALSE_WORDS - {''})}, not {raw!r}."
    )


def env_int(name, default, environ=None):
    raw = env_str(name, environ=environ)
    if raw in (None, ""):
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from None


def env_list(name, default=(), environ=None):
    """A comma-separated list; blanks around items and empty items are dropped."""
    raw = env_str(name, environ=environ)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


DEV_SECRET_KEY = "django-insecure-dev-only-phm-moderator-never-use-in-production"  # noqa: S105


def resolve_secret_key(debug, environ=None):
    """The configured SECRET_KEY; a fixed development key only while DEBUG is on."""
    key = env_str("SECRET_KEY", environ=environ)
    if key:
        return key
    if debug:
        return DEV_SECRET_KEY
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. Set the SECRET_KEY environment variable (any long random string), "
        "or set DEBUG=1 for local development."
    )


MAIL_LEAVING_THE_MACHINE = ("django.core.mail.backends.smtp.EmailBackend",)


def require_site_url(*, debug, email_backend, site_url):
    """E-mails need absolute links: a production site that sends real mail must know its own address."""
    if debug or email_backend not in MAIL_LEAVING_THE_MACHINE:
        return
    if not site_url.startswith(("https://", "http://")):
        raise ImproperlyConfigured(
            "SITE_URL is not set: e-mails need absolute links. Set SITE_URL to the site's public address, "
            "e.g. https://phm.example.org (or use the console or file e-mail backend)."
        )


REDIS_DATABASES = 16  # Redis's default `databases` setting


def next_redis_database(url):
    """The same Redis server as `url` with the next database number (the last one wraps to the one before it):
    the default home of the cache, apart from the broker's queue in `url`'s own database."""
    parts = urlsplit(url)
    path = parts.path.strip("/")
    try:
        number = int(path) if path else 0
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL must end in a database number, not {url!r}.") from None
    following = number + 1 if number + 1 < REDIS_DATABASES else number - 1
    return urlunsplit(parts._replace(path=f"/{following}"))


# Request limits (phm.limits) -------------------------------------------------------------------------------

PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
UNITS = {
    **dict.fromkeys(("s", "sec", "second", "seconds"), "second"),
    **dict.fromkeys(("m", "min", "minute", "minutes"), "minute"),
    **dict.fromkeys(("h", "hour", "hours"), "hour"),
    **dict.fromkeys(("d", "day", "days"), "day"),
}
OFF_WORDS = {"", "0", "off", "none"}
_RATE = re.compile(r"^(\d+)\s*/\s*([a-z]+)$")


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int
    period: str

    @property
    def period_text(self):
        """ "an hour", "a minute"."""
        return f"{'an' if self.period == 'hour' else 'a'} {self.period}"

    def __str__(self):
        return f"{self.count} {self.period_text}"


@lru_cache(maxsize=32)
def parse_rate(text, name="a limit"):
    """ "5/hour" → Rate(5, 3600); the period may be second, minute, hour or day (or s, m, h, d, plurals).
    None for "off" (or "0", "none", empty): no limit."""
    if text is None or str(text).strip().lower() in OFF_WORDS:
        return None
    match = _RATE.match(str(text).strip().lower())
    period = UNITS.get(match.group(2)) if match else None
    if period is None:
        raise ImproperlyConfigured(
            f"{name} must be a number of uses per second, minute, hour or day, such as 5/hour, or off; "
            f"not {text!r}."
        )
    count = int(match.group(1))
    return None if count == 0 else Rate(count, PERIODS[period], period)


def rate_setting(text, name):
    """A rate read from the environment, checked at start-up; stored as its text (tests may change it)."""
    parse_rate(text, name)
    return text


# Trusted proxies (phm.client_address) ----------------------------------------------------------------------


def parse_networks(entries, name="TRUSTED_PROXIES"):
    """Addresses and networks (`10.0.0.2`, `172.16.0.0/12`, `::1`) as ip_network objects; a clear error for
    anything else."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {entry!r} is neither an IP address nor a network such as 172.16.0.0/12."
            ) from None
    return tuple(networks)


def networks_setting(entries, name):
    """A list of addresses and networks read from the environment, checked at start-up; kept as text."""
    parse_networks(entries, name)
    return list(entries)
