"""One delivery task for the messages a web process commits within a few milliseconds of each other.

Publishing a Celery task costs a request more CPU than the INSERT of the message it announces (building the
task message, the broker round trip). Under load a process commits many messages a second (a receipt per
submission), so after a commit the first message id starts a short window (OUTBOX_PUBLISH_WINDOW seconds) and
the ids committed meanwhile join it; when the window closes, one `outbox.send_messages` task carries them all.
A receipt leaves at most one window later than it would alone.

Nothing depends on the publish: the messages are already committed, pending rows. If the process dies with a
window open, the beat backstop (outbox.send_pending) sends them. With eager tasks (the embedded default, and
tests) or a window of 0, every commit publishes at once, in the committing thread, as before."""

import threading

from celery import current_app
from django.conf import settings

from phm.tasks import publish, publishing_is_held

# Found by name: the task's module delivers through the modules that ring this bell.
SEND_MESSAGES = "outbox.send_messages"


class Doorbell:
    def __init__(self):
        self._lock = threading.Lock()
        self._pending = []
        self._timer = None
        self._task = None

    def ring(self, message_ids):
        send_messages = current_app.tasks[SEND_MESSAGES]
        ids = list(message_ids)
        if not ids or publishing_is_held():
            return
        window = settings.OUTBOX_PUBLISH_WINDOW
        if window <= 0 or tasks_run_eagerly(send_messages):
            publish(send_messages, ids)
            return
        with self._lock:
            self._pending.extend(ids)
            self._task = send_messages  # for the flush: the current app of the timer thread is a blank one
            if self._timer is None:
                self._timer = threading.Timer(window, self.flush)
                self._timer.daemon = True  # a process that exits leaves its window to the backstop
                self._timer.start()

    def flush(self):
        with self._lock:
            ids, self._pending, self._timer = self._pending, [], None
            send_messages = self._task or current_app.tasks[SEND_MESSAGES]
        if ids:
            publish(send_messages, ids)


def tasks_run_eagerly(task):
    return bool(task.app.conf.task_always_eager)


doorbell = Doorbell()
