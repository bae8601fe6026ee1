"""Settings come from the environment; each case loads the settings module in a fresh interpreter."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from phm.env import DEV_SECRET_KEY, env_bool, env_int, env_list, resolve_secret_key

PROJECT_DIR = Path(__file__).resolve().parents[2]

PROBE = """
import json
from django.conf import settings
print(json.dumps({
    "debug": settings.DEBUG,
    "secret": settings.SECRET_KEY,
    "hosts": settings.ALLOWED_HOSTS,
    "engine": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "db_host": settings.DATABASES["default"].get("HOST", ""),
    "cache": settings.CACHES["default"]["BACKEND"],
    "cache_location": settings.CACHES["default"].get("LOCATION"),
    "cache_ignores_errors": settings.CACHES["default"].get("OPTIONS", {}).get("IGNORE_EXCEPTIONS", False),
    "conn_max_age": settings.DATABASES["default"]["CONN_MAX_AGE"],
    "conn_health_checks": settings.DATABASES["default"]["CONN_HEALTH_CHECKS"],
    "ignore_result": settings.CELERY_TASK_IGNORE_RESULT,
    "email_timeout": settings.EMAIL_TIMEOUT,
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "broker": settings.CELERY_BROKER_URL,
    "email": settings.EMAIL_BACKEND,
    "use_tz": settings.USE_TZ,
    "time_zone": settings.TIME_ZONE,
    "trusted_proxies": settings.TRUSTED_PROXIES,
    "sign_up_limit": settings.SIGN_UP_LIMIT_PER_ADDRESS,
    "api_write_limit": settings.API_WRITE_LIMIT_PER_ACCOUNT,
}))
"""

VARIABLES = [
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
    "REDIS_CACHE_URL",
    "EMAIL_BACKEND",
    "SITE_URL",
    "DB_CONN_MAX_AGE",
    "TRUSTED_PROXIES",
    "SIGN_UP_LIMIT_PER_ADDRESS",
    "API_WRITE_LIMIT_PER_ACCOUNT",
]


def load_settings(**env):
    clean = {key: value for key, value in os.environ.items() if key not in VARIABLES}
    clean.update(env, DJANGO_SETTINGS_MODULE="phm.settings")
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=PROJECT_DIR, env=clean, capture_output=True, text=True, timeout=60
    )
    return result


def loaded(**env):
    result = load_settings(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_embedded_default_is_sqlite_eager_locmem_console_utc():
    values = loaded(DEBUG="1")
    assert values["debug"] is True
    assert values["secret"] == DEV_SECRET_KEY
    assert values["engine"] == "django.db.backends.sqlite3"
    assert values["db_name"] == str(PROJECT_DIR / "db.sqlite3")
    assert values["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert values["eager"] is True
    assert values["broker"] == "memory://"
    assert values["email"] == "django.core.mail.backends.console.EmailBackend"
    assert values["use_tz"] is True
    assert values["time_zone"] == "UTC"


def test_outside_development_mail_goes_to_files_by_default_never_to_the_log():
    """The console backend writes whole messages (password-reset links too) into the logs."""
    assert loaded(SECRET_KEY="s3cret")["email"] == "django.core.mail.backends.filebased.EmailBackend"
    assert loaded(DEBUG="1")["email"] == "django.core.mail.backends.console.EmailBackend"


def test_the_cache_can_have_a_redis_of_its_own():
    values = loaded(
        SECRET_KEY="s3cret",
        REDIS_URL="redis://broker.example:6379/0",
        REDIS_CACHE_URL="redis://cache.example/5",
    )
    assert values["broker"] == "redis://broker.example:6379/0"
    assert values["cache_location"] == "redis://cache.example/5"


def test_refuses_to_send_real_mail_without_site_url_in_production():
    result = load_settings(SECRET_KEY="s3cret", EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend")
    assert result.returncode != 0
    assert "SITE_URL is not set" in result.stderr
    # Console or file mail, or development, need no address.
    assert loaded(SECRET_KEY="s3cret")["debug"] is False
    assert loaded(DEBUG="1", EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend")["debug"] is True


def test_refuses_to_start_without_secret_key_when_debug_is_off():
    result = load_settings()
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_trusted_proxies_default_to_loopback_and_are_read_and_checked():
    assert loaded(SECRET_KEY="s3cret")["trusted_proxies"] == ["127.0.0.0/8", "::1"]
    values = loaded(SECRET_KEY="s3cret", TRUSTED_PROXIES="10.0.0.2, 172.16.0.0/12")
    assert values["trusted_proxies"] == ["10.0.0.2", "172.16.0.0/12"]
    assert loaded(SECRET_KEY="s3cret", TRUSTED_PROXIES="")["trusted_proxies"] == []
    result = load_settings(SECRET_KEY="s3cret", TRUSTED_PROXIES="proxy.example")
    assert result.returncode != 0
    assert "TRUSTED_PROXIES: 'proxy.example' is neither an IP address nor a network" in result.stderr


def test_request_limits_are_read_and_checked():
    values = loaded(SECRET_KEY="s3cret", SIGN_UP_LIMIT_PER_ADDRESS="2/day", API_WRITE_LIMIT_PER_ACCOUNT="off")
    assert (values["sign_up_limit"], values["api_write_limit"]) == ("2/day", "off")
    result = load_settings(SECRET_KEY="s3cret", SIGN_UP_LIMIT_PER_ADDRESS="lots")
    assert result.returncode != 0
    assert (
        "SIGN_UP_LIMIT_PER_ADDRESS must be a number of uses per second, minute, hour or day" in result.stderr
    )


def test_database_url_redis_url_and_hosts_are_read():
    values = loaded(
        SECRET_KEY="s3cret",
        DATABASE_URL="postgres://phm:pw@db.example:5432/phm_prod",
        REDIS_URL="redis://cache.example:6379/2",
        ALLOWED_HOSTS="phm.example, www.phm.example ,",
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        SITE_URL="https://phm.example",
    )
    assert values["debug"] is False
    assert values["secret"] == "s3cret"
    assert values["engine"] == "django.db.backends.postgresql"
    assert (values["db_name"], values["db_host"]) == ("phm_prod", "db.example")
    # The cache lives in the next Redis database: clearing it never drops the broker's queue.
    assert values["cache"] == "django_redis.cache.RedisCache"
    assert values["cache_location"] == "redis://cache.example:6379/3"
    assert values["cache_ignores_errors"] is True
    assert values["eager"] is False
    assert values["broker"] == "redis://cache.example:6379/2"
    assert values["ignore_result"] is True
    # A connection per request, checked before reuse: the site recovers at once after an exhaustion.
    assert (values["conn_max_age"], values["conn_health_checks"]) == (0, True)
    assert values["email_timeout"] == 10
    assert values["hosts"] == ["phm.example", "www.phm.example"]
    assert values["email"] == "django.core.mail.backends.smtp.EmailBackend"


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("true", True), ("On", True), ("0", False), ("no", False), ("", False)]
)
def test_env_bool_words(raw, expected):
    assert env_bool("X", environ={"X": raw}) is expected


def test_env_bool_rejects_unknown_word_and_defaults_when_unset():
    with pytest.raises(ImproperlyConfigured, match="X must be one of"):
        env_bool("X", environ={"X": "maybe"})
    assert env_bool("X", default=True, environ={}) is True


def test_env_int_and_list():
    assert env_int("N", 5, environ={}) == 5
    assert env_int("N", 5, environ={"N": "12"}) == 12
    with pytest.raises(ImproperlyConfigured, match="whole number"):
        env_int("N", 5, environ={"N": "twelve"})
    assert env_list("L", default=["a"], environ={}) == ["a"]
    assert env_list("L", environ={"L": " a, ,b "}) == ["a", "b"]


def test_secret_key_rules():
    assert resolve_secret_key(False, environ={"SECRET_KEY": "k"}) == "k"
    assert resolve_secret_key(True, environ={}) == DEV_SECRET_KEY
    with pytest.raises(ImproperlyConfigured):
        resolve_secret_key(False, environ={"SECRET_KEY": "  "})
