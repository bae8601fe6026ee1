"""Django's SMTP backend with a deadline: no conversation with the mail server outlives the delivery run that
opened it (outbox.services.DeliveryRun).

EMAIL_TIMEOUT bounds each single wait for the server (the connection, the greeting, each reply). That is
not enough on its own: a server that answers every command just before the timeout, or a byte at a time,
could keep one conversation going for minutes, past the task's time limits. So the connection also carries
the run's deadline: every wait is at most the time left, and when the deadline passes a timer shuts the
socket down, whatever is being waited for. The message being sent then fails like any network error and is
retried later; the run sends nothing more.
"""

import functools
import smtplib
import socket
import threading
import time
from contextlib import suppress

from django.core.mail.backends import smtp


class TimeIsUp(smtplib.SMTPServerDisconnected):
    """The delivery run's deadline cut the conversation off."""


class _Deadline:
    """For smtplib.SMTP and SMTP_SSL: the conversation ends at `deadline` (time.monotonic())."""

    def __init__(self, *args, deadline, **kwargs):
        self._deadline = deadline
        self._cut = threading.Event()
        self._timer = threading.Timer(max(deadline - time.monotonic(), 0), self._cut_off)
        self._timer.daemon = True
        self._timer.start()
        try:
            super().__init__(*args, **kwargs)  # connects and reads the greeting
        except BaseException:
            self._timer.cancel()
            raise

    def _time_left(self):
        left = self._deadline - time.monotonic()
        if left <= 0 or self._cut.is_set():
            raise TimeIsUp("the delivery run's time was up")
        return left

    def _cut_off(self):
        self._cut.set()
        sock = self.sock
        if sock is not None:
            # socket.socket's own shutdown, also for a TLS socket: it wakes a recv or send blocked in another
            # thread, which then fails at once.
            with suppress(OSError):
                socket.socket.shutdown(sock, socket.SHUT_RDWR)

    def _get_socket(self, host, port, timeout):
        left = self._time_left()
        return super()._get_socket(host, port, left if timeout is None else min(timeout, left))

    def send(self, s):
        self._time_left()
        try:
            return super().send(s)
        except OSError as error:
            if self._cut.is_set():
                raise TimeIsUp("the delivery run's time was up") from error
            raise

    def getreply(self):
        self._time_left()
        try:
            reply = super().getreply()
        except OSError as error:
            if self._cut.is_set():
                raise TimeIsUp("the delivery run's time was up") from error
            raise
        if self._cut.is_set():  # what was read before the cut may be half a line, parsed as a reply
            raise TimeIsUp("the delivery run's time was up")
        return reply

    def close(self):
        self._timer.cancel()
        super().close()


class DeadlineSMTP(_Deadline, smtplib.SMTP):
    pass


class DeadlineSMTP_SSL(_Deadline, smtplib.SMTP_SSL):
    pass


class EmailBackend(smtp.EmailBackend):
    """django.core.mail.backends.smtp.EmailBackend (same settings), whose connection ends at `deadline`
    (time.monotonic()); without one it is Django's backend unchanged."""

    # A delivery run opens it once for all its messages (outbox.services); other backends open per message
    # (the file backend: one file each).
    one_connection_per_run = True

    def __init__(self, *args, deadline=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.deadline = deadline

    @property
    def connection_class(self):
        if self.deadline is None:
            return super().connection_class
        return functools.partial(DeadlineSMTP_SSL if self.use_ssl else DeadlineSMTP, deadline=self.deadline)
