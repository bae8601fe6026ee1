"""Real processes for fault tests: a Celery worker (with beat), a gunicorn web server, a mail server that never
answers and a mail sink. Everything listens on 127.0.0.1 only and is stopped by its fixture."""

import contextlib
import email
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(predicate, timeout, interval=0.2):
    """Poll until `predicate()` is true; False if it never was within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


class SilentSMTPServer:
    """Accepts connections and never says a word: an SMTP client waits for its greeting until it times out."""

    def __init__(self, port):
        self.port = port
        self.connections = []
        self._listener = socket.create_server(("127.0.0.1", port), reuse_port=False)
        self._listener.settimeout(0.2)
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self):
        while not self._stopped.is_set():
            with contextlib.suppress(TimeoutError, OSError):
                connection, _ = self._listener.accept()
                self.connections.append(connection)

    def close(self):
        self._stopped.set()
        self._thread.join(timeout=5)
        for connection in [*self.connections, self._listener]:
            connection.close()


class DrippingSMTPServer(SilentSMTPServer):
    """Greets one byte at a time, a byte every `interval` seconds, and never ends the line (for `lasting`
    seconds, then hangs up): each wait of an SMTP client is short, the conversation never gets anywhere."""

    def __init__(self, port, interval=0.1, lasting=20):
        self.interval, self.lasting = interval, lasting
        super().__init__(port)

    def _accept(self):
        while not self._stopped.is_set():
            with contextlib.suppress(TimeoutError, OSError):
                connection, _ = self._listener.accept()
                self.connections.append(connection)
                threading.Thread(target=self._drip, args=(connection,), daemon=True).start()

    def _drip(self, connection):
        until = time.monotonic() + self.lasting
        with contextlib.suppress(OSError):
            while not self._stopped.is_set() and time.monotonic() < until:
                connection.sendall(b"2")
                time.sleep(self.interval)
        connection.close()


class MailSink:
    """A working SMTP server (aiosmtpd) that keeps what it receives."""

    def __init__(self, port):
        from aiosmtpd.controller import Controller

        self.messages = []
        sink = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                sink.messages.append(email.message_from_bytes(envelope.content))
                return "250 OK"

        self._controller = Controller(Handler(), hostname="127.0.0.1", port=port)
        self._controller.start()

    def message_ids(self):
        return [message["X-PHM-Message"] for message in self.messages]

    def close(self):
        self._controller.stop()


def database_url(db_settings, user=None):
    """DATABASE_URL naming the *test* database, so other processes see what the tests wrote; `user` (with no
    password: the test server trusts local connections) instead of the configured one if given."""
    auth = user or db_settings.get("USER") or ""
    if user is None and db_settings.get("PASSWORD"):
        auth += f":{db_settings['PASSWORD']}"
    host = f"{db_settings.get('HOST') or '127.0.0.1'}:{db_settings.get('PORT') or 5432}"
    return f"postgres://{auth}@{host}/{db_settings['NAME']}"


class Stack:
    """Starts and stops the processes of one test; `env` is the environment every process starts from."""

    def __init__(self, base_env, log_dir):
        self.base_env = base_env
        self.log_dir = log_dir
        self.queue = f"phm-fault-{uuid.uuid4().hex[:8]}"
        self._processes = []
        self._servers = []

    def _spawn(self, name, command, env):
        log = open(self.log_dir / f"{name}-{len(self._processes)}.log", "w")  # noqa: SIM115 (closed in stop)
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**self.base_env, "CELERY_QUEUE": self.queue, **{k: str(v) for k, v in env.items()}},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a SIGKILL takes the whole worker
        )
        process.log = log
        self._processes.append(process)
        return process

    @property
    def delivery_queue(self):
        from phm.queues import delivery_queue

        return delivery_queue(self.queue)

    def start_worker(self, beat=True, queues=None, **env):
        """A `celery worker` (solo pool) on this test's queues (both unless `queues` says which), with the beat
        backstops embedded."""
        queues = queues or [self.queue, self.delivery_queue]
        command = [sys.executable, "-m", "celery", "-A", "phm", "worker", "--pool=solo", "--loglevel=INFO"]
        command += ["-Q", ",".join(queues), "-n", f"{self.queue}-{len(self._processes)}@%h"]
        command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        if beat:
            command += ["-B", "-s", str(self.log_dir / f"beat-schedule-{len(self._processes)}")]
        return self._spawn("worker", command, env)

    def start_web(self, **env):
        """gunicorn on a free local port; returns (process, base URL) once it accepts connections."""
        port = free_port()
        command = [sys.executable, "-m", "gunicorn", "phm.wsgi:application", "-c", "/dev/null"]
        command += ["--bind", f"127.0.0.1:{port}", "--workers", "1", "--threads", "4", "--timeout", "30"]
        process = self._spawn("web", command, env)

        def accepting():
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
            return False

        assert wait_for(accepting, timeout=60), self.log_of(process)
        return process, f"http://127.0.0.1:{port}"

    def silent_smtp(self, port=None):
        server = SilentSMTPServer(port or free_port())
        self._servers.append(server)
        return server

    def mail_sink(self, port=None):
        sink = MailSink(port or free_port())
        self._servers.append(sink)
        return sink

    @staticmethod
    def kill(process):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=20)

    @staticmethod
    def log_of(process):
        process.log.flush()
        return Path(process.log.name).read_text()[-4000:]

    def stop(self):
        for process in self._processes:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    self.kill(process)
            process.log.close()
        for server in self._servers:
            with contextlib.suppress(Exception):
                server.close()
