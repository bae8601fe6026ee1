"""The container plumbing: gunicorn.conf.py, beat's heartbeat and docker/healthcheck.py (docker-compose.yml)."""

import os
import runpy
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery.beat import ScheduleEntry

from phm.beat import HeartbeatScheduler, heartbeat_path
from phm.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]
HEALTHCHECK = ROOT / "docker" / "healthcheck.py"


def load_gunicorn_conf(monkeypatch, **env):
    for name in ("PORT", "WEB_CONCURRENCY", "GUNICORN_THREADS", "GUNICORN_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_gunicorn_conf_defaults(monkeypatch):
    conf = load_gunicorn_conf(monkeypatch)
    assert conf["bind"] == "0.0.0.0:8000"
    assert (conf["workers"], conf["threads"], conf["timeout"]) == (3, 1, 30)
    assert conf["accesslog"] == "-"
    assert conf["wsgi_app"] == "phm.wsgi:application"


def test_gunicorn_conf_reads_the_environment(monkeypatch):
    conf = load_gunicorn_conf(
        monkeypatch, PORT="9000", WEB_CONCURRENCY="5", GUNICORN_THREADS="4", GUNICORN_TIMEOUT="60"
    )
    assert conf["bind"] == "0.0.0.0:9000"
    assert (conf["workers"], conf["threads"], conf["timeout"], conf["graceful_timeout"]) == (5, 4, 60, 60)


@pytest.mark.parametrize("value", ["three", "0"])
def test_gunicorn_conf_refuses_a_bad_number(monkeypatch, value):
    with pytest.raises(SystemExit, match="WEB_CONCURRENCY"):
        load_gunicorn_conf(monkeypatch, WEB_CONCURRENCY=value)


def test_beat_scheduler_touches_its_heartbeat_on_every_tick(tmp_path):
    schedule = tmp_path / "celerybeat-schedule"
    scheduler = HeartbeatScheduler(app=celery_app, schedule_filename=str(schedule), lazy=False)
    try:
        scheduler.schedule.clear()  # nothing is due: a tick sends no task
        scheduler.schedule["idle"] = ScheduleEntry(
            name="idle", task="phm.ping", schedule=3600.0, app=celery_app, last_run_at=celery_app.now()
        )
        assert not heartbeat_path(schedule).exists()
        scheduler.tick()
        assert heartbeat_path(schedule).exists()
    finally:
        scheduler.close()


def run_healthcheck(*args, env=None):
    return subprocess.run(
        [sys.executable, str(HEALTHCHECK), *args], capture_output=True, text=True, env=env, timeout=30
    )


def test_beat_healthcheck_passes_on_a_fresh_heartbeat_and_fails_on_a_stale_or_missing_one(tmp_path):
    heartbeat = tmp_path / "beat.heartbeat"
    assert run_healthcheck("beat", str(heartbeat)).returncode == 1
    heartbeat.touch()
    assert run_healthcheck("beat", str(heartbeat), "120").returncode == 0
    old = time.time() - 300
    os.utime(heartbeat, (old, old))
    stale = run_healthcheck("beat", str(heartbeat), "120")
    assert stale.returncode == 1
    assert "old" in stale.stderr


def test_web_healthcheck_fails_when_nothing_listens():
    env = {**os.environ, "PORT": "9"}  # discard: nothing serves HTTP there
    result = run_healthcheck("web", env=env)
    assert result.returncode == 1
    assert "unreachable" in result.stderr


def test_healthcheck_usage_error():
    assert run_healthcheck("nonsense").returncode == 2


def compose_file():
    import yaml  # drf-spectacular's dependency

    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def compose_default(value):
    """The default of a `${VAR:-default}` value."""
    import re

    return re.fullmatch(r"\$\{\w+:-(.*)\}", value).group(1)


def test_compose_mails_to_files_in_a_volume_by_default_never_to_the_log():
    """The console backend would put every message, password-reset links included, into `docker logs`."""
    import re

    compose = compose_file()
    environment = compose["x-app-environment"]
    default = compose_default(environment["EMAIL_BACKEND"])
    assert default == "django.core.mail.backends.filebased.EmailBackend"
    example = (ROOT / ".env.example").read_text()
    assert re.findall(r"^# ?EMAIL_BACKEND=(\S+)$", example, re.MULTILINE) == [default]
    folder = compose_default(environment["EMAIL_FILE_PATH"])
    assert f"sent-mail:{folder}" in compose["services"]["worker-deliveries"]["volumes"]
    assert "sent-mail" in compose["volumes"]


def test_compose_runs_a_worker_on_each_queue_with_its_health_check():
    from phm.queues import delivery_queue

    services = compose_file()["services"]
    workers = {name: service for name, service in services.items() if "worker" in service.get("command", [])}
    assert sorted(workers) == ["worker", "worker-deliveries"]

    def option(service, name):
        [value] = [arg.split("=", 1)[1] for arg in service["command"] if arg.startswith(f"--{name}=")]
        return value

    queue = "${CELERY_QUEUE:-celery}"
    assert option(workers["worker"], "queues") == queue
    assert option(workers["worker-deliveries"], "queues") == queue + delivery_queue("")
    for service in workers.values():
        node = option(service, "hostname").replace("%h", "$$HOSTNAME")
        assert f"--destination={node} " in service["healthcheck"]["test"][1]
