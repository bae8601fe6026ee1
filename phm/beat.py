"""Celery beat with a heartbeat file, so a container health check can tell a live beat from a stuck one.

Beat answers no `celery inspect ping` (it is not a worker), and its schedule file is written only every few
minutes, and only after it sent a task. This scheduler touches `<schedule file>.heartbeat` after every pass of
its loop; with `--max-interval 30` beat loops at least every 30 seconds, whatever the schedule.

    celery -A phm beat -S phm.beat:HeartbeatScheduler --schedule /tmp/celerybeat-schedule --max-interval 30
    python docker/healthcheck.py beat /tmp/celerybeat-schedule.heartbeat   # exit 0 while fresh
"""

from pathlib import Path

from celery.beat import PersistentScheduler

HEARTBEAT_SUFFIX = ".heartbeat"


def heartbeat_path(schedule_filename):
    return Path(f"{schedule_filename}{HEARTBEAT_SUFFIX}")


class HeartbeatScheduler(PersistentScheduler):
    def setup_schedule(self):
        super().setup_schedule()
        self.heartbeat = heartbeat_path(self.schedule_filename)

    def tick(self, *args, **kwargs):
        delay = super().tick(*args, **kwargs)
        self.heartbeat.touch()
        return delay
