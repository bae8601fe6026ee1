"""Small, strict readers for settings that come from the environment."""

import os
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
