"""Settings for PHM Moderator, read from the environment (see README: Configuration).

With nothing set, the app runs on the embedded default: SQLite in the project folder, Celery tasks run
eagerly in-process, and a local-memory cache. DATABASE_URL and REDIS_URL switch to the real stack.
"""

from datetime import timedelta
from pathlib import Path

import dj_database_url
from kombu import Exchange, Queue

from .env import (
    env_bool,
    env_int,
    env_list,
    env_str,
    networks_setting,
    next_redis_database,
    rate_setting,
    require_site_url,
    resolve_secret_key,
)
from .queues import delivery_queue

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = resolve_secret_key(DEBUG)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_htmx",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "accounts",
    "audit",
    "rounds",
    "submissions",
    "scoring",
    "archive",
    "stats",
    "outbox",
    "webhooks",
    "home",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.ViewerTimezoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Control characters, oversized bodies, Cache-Control of API replies (phm.input_guard).
    "phm.input_guard.InputGuardMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes requires: turns a locked-out login into the lockout response (accounts.throttle).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "phm.urls"
WSGI_APPLICATION = "phm.wsgi.application"
ASGI_APPLICATION = "phm.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.viewer",
                "outbox.context_processors.notifications",
            ],
        },
    },
]

# Database: DATABASE_URL (postgres://user:pass@host:5432/name) or the SQLite file in the project folder.
# CONN_MAX_AGE 0 (a connection per request) by default: when PostgreSQL runs out of connections, idle
# persistent connections held by other threads would keep new requests failing for as long as they live;
# per-request connections free themselves at once, so the site recovers within seconds. Raise DB_CONN_MAX_AGE
# only when web workers * threads + worker concurrency + beat stays well below max_connections (README).
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A server that does not answer must not hold a request for minutes.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
# Work done by Celery tasks gives up instead of waiting for ever on a lock (phm.celery sets these on the
# worker's sessions); the task is then retried. Web requests keep PostgreSQL's defaults.
DB_TASK_LOCK_TIMEOUT = env_int("DB_TASK_LOCK_TIMEOUT", 10)
DB_TASK_STATEMENT_TIMEOUT = env_int("DB_TASK_STATEMENT_TIMEOUT", 100)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis, when configured, is the Celery broker (REDIS_URL) and the cache (REDIS_CACHE_URL: by default the
# same server, next database number, so clearing the cache never drops the task queue). Without it tasks run
# eagerly in-process and the cache is local memory. Redis is an accelerator, never a dependency of a write:
# the cache ignores connection errors (reads miss, writes are skipped), publishing a task fails fast and is
# logged (phm.tasks.publish), and the beat backstops below catch up once Redis is back.
REDIS_URL = env_str("REDIS_URL") or None
REDIS_CACHE_URL = env_str("REDIS_CACHE_URL") or (next_redis_database(REDIS_URL) if REDIS_URL else None)
REDIS_SOCKET_TIMEOUT = 0.5  # seconds; a Redis that does not answer is treated as down, quickly
if REDIS_CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_CACHE_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "phm"),
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": REDIS_SOCKET_TIMEOUT,
                "SOCKET_TIMEOUT": REDIS_SOCKET_TIMEOUT,
            },
        }
    }
    # A dead cache is reported by /healthz and by the failed publishes (phm.tasks), once each: not by a
    # traceback for every cache miss.
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "phm"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
# Results are kept only for the tasks that ask for them (phm.ping); nothing reads the others'.
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# Two queues (phm.queues): deliveries (mail, webhook posts) on CELERY_QUEUE + "-deliveries", everything else
# (reveals, tables, tallies) on CELERY_QUEUE, so no slow mail server can delay a reveal. A worker started
# without --queues consumes both; docker-compose.yml runs one worker for each.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")
# Each queue with an exchange and routing key of its own name, as Celery makes a queue it creates on demand
# (without them both would be bound to the default's routing key).
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name)
    for name in (CELERY_TASK_DEFAULT_QUEUE, delivery_queue(CELERY_TASK_DEFAULT_QUEUE))
)
CELERY_TASK_ROUTES = ("phm.queues.route_task",)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Every task gives up in time (soft: an exception it can clean up after; hard: the child is killed) — well
# before the broker's visibility timeout, so a task still running is never handed to a second worker.
CELERY_TASK_SOFT_TIME_LIMIT = 90
CELERY_TASK_TIME_LIMIT = 120
# Exact-time tasks are only ever scheduled for moments at most TASK_ETA_HORIZON seconds away (phm.tasks); the
# backstops schedule the rest when they come near. Redis hands an unacknowledged message (a worker killed
# with SIGKILL) to another worker after the visibility timeout, and would also re-deliver every copy of a
# task whose countdown outlasts it: so the timeout must exceed the horizon plus the hard time limit, and it is
# kept short otherwise so a stranded message comes back within minutes, not an hour.
TASK_ETA_HORIZON = 120
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 600,
    "socket_connect_timeout": REDIS_SOCKET_TIMEOUT,
    "socket_timeout": 5,
    # Publishing is not retried by kombu: no request waits on a broker that is down (phm.tasks.publish).
    "max_retries": 0,
}
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_SOCKET_TIMEOUT
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The backstops: idempotent catch-up for whatever exact-time tasks were lost with a broker or worker.
BACKSTOP_INTERVAL = env_int("BACKSTOP_INTERVAL", 60)
CELERY_BEAT_SCHEDULE = {
    # Reveals rounds past their deadline and schedules the exact-time reveal of rounds about to reach it.
    "reveal-due-rounds": {"task": "submissions.reveal_due_rounds", "schedule": float(BACKSTOP_INTERVAL)},
    # Match tables nobody built, tallies behind their results (scoring.tasks).
    "score-due-rounds": {"task": "scoring.score_due_rounds", "schedule": float(BACKSTOP_INTERVAL)},
    # Outbox messages still pending: queued while Redis was down, or waiting for a retry (outbox.tasks).
    "send-pending-messages": {"task": "outbox.send_pending", "schedule": float(BACKSTOP_INTERVAL)},
    # League webhook posts still pending: queued while Redis was down, or due for a retry (webhooks.tasks).
    "send-pending-webhooks": {"task": "webhooks.send_pending", "schedule": float(BACKSTOP_INTERVAL)},
    # Open rounds whose hands are to be judged again after their cards changed (submissions.rules_check).
    "check-due-hands": {"task": "submissions.check_due_hands", "schedule": float(BACKSTOP_INTERVAL)},
    # Deadline reminders 24 h and 1 h ahead to players who have not submitted (submissions.reminders).
    "send-deadline-reminders": {"task": "submissions.send_reminders", "schedule": float(BACKSTOP_INTERVAL)},
    # Daily digests whose hour has come (outbox.digest).
    "send-digests": {"task": "outbox.send_digests", "schedule": float(BACKSTOP_INTERVAL)},
}
# Seconds a tally waits after a result changes, so a burst of reports is tallied once.
SCORING_TALLY_DELAY = 2

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Every password check goes through accounts.throttle.LoginBackend: django-axes refuses a locked-out request
# before the password hasher runs. The ModelBackend after it checks no password (LoginBackend ends the chain);
# it stays for the sessions it made and for explicit logins (sign-up).
AUTHENTICATION_BACKENDS = [
    "accounts.throttle.LoginBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# By default mail is printed to the console while developing (DEBUG), and written to files (EMAIL_FILE_PATH)
# otherwise: the console backend writes whole messages, password-reset links included, into the logs.
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.filebased.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=False)
# Seconds an SMTP server may take to answer; mail is sent by workers (outbox), never inside a request.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH") or str(BASE_DIR / "sent-mail")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "PHM Moderator <phm@localhost>")
# The outbox (outbox app): attempts before a message is marked failed, and the first retry's delay in seconds
# (doubling each time, at most an hour).
OUTBOX_MAX_ATTEMPTS = env_int("OUTBOX_MAX_ATTEMPTS", 12)
OUTBOX_RETRY_DELAY = env_int("OUTBOX_RETRY_DELAY", 15)
# Seconds during which the messages a web process commits share one delivery task (outbox.doorbell); 0: one
# task per commit. Not read from the environment.
OUTBOX_PUBLISH_WINDOW = 0.05
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# League webhooks (webhooks app): seconds a receiver may take to answer a POST (attempts and back-off are the
# outbox's), and whether http:// to 127.0.0.1/localhost (loopback addresses only) is accepted: ignored unless
# DEBUG is on, so never in production (docs/operations.md, Webhooks reach public addresses only).
WEBHOOK_TIMEOUT = 10
WEBHOOK_ALLOW_LOCAL_HTTP = DEBUG
# Where links in emails point, e.g. https://phm.example.org (empty: links are site-relative paths, fine only
# while mail goes to the console or files: a production site sending real mail refuses to start without it).
SITE_URL = env_str("SITE_URL", "")
require_site_url(debug=DEBUG, email_backend=EMAIL_BACKEND, site_url=SITE_URL)
# The hour (in each person's time zone) their daily digest is sent, when they chose one.
DIGEST_HOUR = env_int("DIGEST_HOUR", 7) % 24

SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY") else None
# Behind the TLS proxy, the client's address is the one the proxy appended to X-Forwarded-For, believed only
# on connections from these addresses or networks: the proxy's own (phm.client_address). Empty: never.
TRUSTED_PROXIES = networks_setting(
    env_list("TRUSTED_PROXIES", default=["127.0.0.0/8", "::1"]), "TRUSTED_PROXIES"
)
X_FRAME_OPTIONS = "DENY"

# Request bodies: 1 MB is far above the largest legitimate one (an archive import of a whole round's forum
# posts); larger ones are refused with 413 before they are read (phm.input_guard).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# --- HTTPS (README: Before going live) ----------------------------------------------------------------------
# Behind a TLS proxy the site is HTTPS only: plain HTTP is redirected (but the container health check, which
# talks to gunicorn directly), and browsers are told to use HTTPS for HSTS_SECONDS (0 turns HSTS off).
SECURE_SSL_REDIRECT = SECURE_PROXY_SSL_HEADER is not None
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 31536000 if SECURE_SSL_REDIRECT else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", default=True)

# --- Card images (off by default: the site then loads nothing from elsewhere) ------------------------------
# On: card previews and card pages show Scryfall's image of the card, the text staying as the fallback.
CARD_IMAGES = env_bool("CARD_IMAGES", default=False)
# Scryfall's image URL by name answers with a redirect to its image host: the CSP must allow both.
CARD_IMAGE_HOSTS = ["https://api.scryfall.com", "https://cards.scryfall.io"] if CARD_IMAGES else []

# --- Content-Security-Policy (django-csp) -------------------------------------------------------------------
# Nothing inline: every script and style is a file under /static/. The Swagger UI page (/api/docs/) loads its
# own files and the schema from here too (phm.urls). Images come from here only, unless CARD_IMAGES is on.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:", *CARD_IMAGE_HOSTS],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

# --- Login throttling (django-axes; accounts.throttle) ------------------------------------------------------
# Failed logins on the login page, the API token endpoint and the admin are counted per (username, IP
# address), per IP address and per username; each level locks at its own limit, for LOGIN_LOCKOUT_MINUTES.
LOGIN_FAILURE_LIMITS = {
    "pair": env_int("LOGIN_FAILURE_LIMIT", 5),
    "ip_address": env_int("LOGIN_FAILURE_LIMIT_PER_IP", 20),
    "account": env_int("LOGIN_FAILURE_LIMIT_PER_ACCOUNT", 50),
}
AXES_HANDLER = "accounts.throttle.LoginThrottleHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address", "username"]
AXES_FAILURE_LIMIT = max(LOGIN_FAILURE_LIMITS.values())
# Password checks one IP address may have running at the same moment; more are refused unchecked (429).
LOGIN_CHECKS_AT_ONCE_PER_IP = 2
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15))
# Attempts while locked out are refused without being counted, so a lock always ends after the cool-off.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# A success does not wipe the counts: they are per IP too, and one's own account must not reset them.
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_CALLABLE = "accounts.throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "phm.client_address.client_ip"
# The username as counted: cut to the 255 characters axes stores (longer ones cannot be accounts anyway).
AXES_USERNAME_CALLABLE = "accounts.throttle.client_username"
AXES_HTTP_RESPONSE_CODE = 429
# No log of successful logins (addresses of every visit): only the failures that count are kept.
AXES_DISABLE_ACCESS_LOG = True
# No banner on every start (it would land in the output of every management command).
AXES_VERBOSE = False
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "csrfmiddlewaretoken"]

# --- Request limits (phm.limits) ----------------------------------------------------------------------------
# Uses per window, "N/second|minute|hour|day" or "off", counted in the cache per client address (as
# phm.client_address derives it), per account or per e-mail address; past a limit: 429 with Retry-After.
# Sign-ups: accounts made from one address (a form with errors does not count).
SIGN_UP_LIMIT_PER_ADDRESS = rate_setting(
    env_str("SIGN_UP_LIMIT_PER_ADDRESS", "5/hour"), "SIGN_UP_LIMIT_PER_ADDRESS"
)
# Password-reset requests from one address, and for one e-mail address (whether or not it has an account).
PASSWORD_RESET_LIMIT_PER_ADDRESS = rate_setting(
    env_str("PASSWORD_RESET_LIMIT_PER_ADDRESS", "5/hour"), "PASSWORD_RESET_LIMIT_PER_ADDRESS"
)
PASSWORD_RESET_LIMIT_PER_EMAIL = rate_setting(
    env_str("PASSWORD_RESET_LIMIT_PER_EMAIL", "3/hour"), "PASSWORD_RESET_LIMIT_PER_EMAIL"
)
# API requests other than GET, HEAD and OPTIONS, per signed-in account and per address (the token endpoint
# is not one: its failures count as failed logins).
API_WRITE_LIMIT_PER_ACCOUNT = rate_setting(
    env_str("API_WRITE_LIMIT_PER_ACCOUNT", "120/minute"), "API_WRITE_LIMIT_PER_ACCOUNT"
)
API_WRITE_LIMIT_PER_ADDRESS = rate_setting(
    env_str("API_WRITE_LIMIT_PER_ADDRESS", "120/minute"), "API_WRITE_LIMIT_PER_ADDRESS"
)

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

REST_FRAMEWORK = {
    # Token first: an unauthenticated request then gets 401 with WWW-Authenticate, as docs/api.md requires.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "phm.api.exception_handler",
    # API writes per account and per address (phm.limits; API_WRITE_LIMIT_*).
    "DEFAULT_THROTTLE_CLASSES": ["phm.limits.ApiWriteThrottle"],
    # Bounded size and JSON depth, no control characters in any field (phm.input_guard).
    "DEFAULT_PARSER_CLASSES": [
        "phm.input_guard.GuardedJSONParser",
        "phm.input_guard.GuardedFormParser",
        "phm.input_guard.GuardedMultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "PHM Moderator API",
    "DESCRIPTION": "Perfect Hand Magic rounds, hands, results and standings.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The same choice set (a player's match points) is used by several serializers: one component name.
    "ENUM_NAME_OVERRIDES": {"MatchPointsEnum": "scoring.outcomes.POINTS_CHOICES"},
    # What a request may send is described apart from what a reply holds (a required text is never empty).
    "COMPONENT_SPLIT_REQUEST": True,
    # 3.1: JSON Schema proper, so the schema can say that no key of a sent object holds a control character.
    "OAS_VERSION": "3.1.0",
    # Bodies are documented as JSON, the API's language (docs/api.md); forms are still read, undocumented.
    "PARSER_WHITELIST": ["phm.input_guard.GuardedJSONParser"],
    # Every status each operation can answer, and the input guard's rule for text (phm.schema).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "phm.schema.document_errors"],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

MODERATORS_GROUP = "moderators"
