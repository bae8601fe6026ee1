"""gunicorn settings, read from the environment (see README: Configuration).

gunicorn loads ./gunicorn.conf.py by itself when started in the project folder; the Docker image's CMD
names it explicitly. Command-line options still override what is set here.

Size WEB_CONCURRENCY x GUNICORN_THREADS against PostgreSQL's max_connections (README: Sizing connections).
"""

import os


def _env_int(name, default):
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {raw!r}.") from None
    if value < 1:
        raise SystemExit(f"{name} must be at least 1, not {value}.")
    return value


wsgi_app = "phm.wsgi:application"
bind = f"0.0.0.0:{_env_int('PORT', 8000)}"  # inside the container; compose decides what the host publishes
workers = _env_int("WEB_CONCURRENCY", 3)
threads = _env_int("GUNICORN_THREADS", 1)  # more than 1 switches gunicorn to its gthread worker
timeout = _env_int("GUNICORN_TIMEOUT", 30)
# On SIGTERM, requests in flight get as long to finish as any request may take.
graceful_timeout = timeout
# Worker heartbeats on tmpfs: a slow container file system must not get healthy workers killed.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # noqa: S108
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").strip().lower() or "info"
