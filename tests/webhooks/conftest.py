"""A webhook receiver for the tests: an HTTP server on 127.0.0.1 in a thread, recording every POST and
answering with the statuses it is told to (204 once they run out)."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.submissions.conftest import alice, bob, catalog_index, open_round  # noqa: F401  (fixtures)
from webhooks import services

SITE = "https://phm.example.org"


class Receiver:
    def __init__(self):
        self.requests = []
        self.answers = []  # (status, headers, delay) to give, in order
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def answer(self, *statuses):
        for status in statuses:
            self.answers.append(status if isinstance(status, tuple) else (status, {}, 0))

    @property
    def bodies(self):
        return [json.loads(request["body"]) for request in self.requests]

    def _handler(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                status, headers, delay = receiver.answers.pop(0) if receiver.answers else (204, {}, 0)
                if delay:
                    time.sleep(delay)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        return Handler


@pytest.fixture
def receiver():
    server = Receiver()
    server.thread.start()
    yield server
    server.server.shutdown()
    server.server.server_close()


@pytest.fixture(autouse=True)
def _webhook_settings(settings):
    # The development exception (http:// to 127.0.0.1) needs DEBUG too: the receiver above is plain http.
    settings.DEBUG = True
    settings.WEBHOOK_ALLOW_LOCAL_HTTP = True
    settings.SITE_URL = SITE


@pytest.fixture
def add_webhook(moderator, league):
    def add(
        url, kind="discord", events=("round_opened", "hands_revealed", "results_final"), secret=None, **kw
    ):
        webhook, _ = services.create_webhook(
            actor=kw.get("actor", moderator),
            league=kw.get("league", league),
            url=url,
            kind=kind,
            events=list(events),
            secret=secret,
        )
        return webhook

    return add
