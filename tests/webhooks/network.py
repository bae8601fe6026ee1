"""Test doubles for what a webhook delivery does on the network: a raw TCP listener that counts connections,
a resolver whose answers a test sets, and a socket class that records every connect (and never reaches past
this machine: a public address is either routed to a local port or refused)."""

import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

RealSocket = socket.socket
real_getaddrinfo = socket.getaddrinfo
MARKER = b"phm-test-marker"


class Listener:
    """A TCP server that accepts, reads what the client sends first (a TLS ClientHello, an HTTP request),
    and closes. `connections()` counts exactly the connections made before it is called."""

    def __init__(self, host="127.0.0.1"):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.host = host
        self.sock = RealSocket(family, socket.SOCK_STREAM)
        self.sock.bind((host, 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.received = []  # the first bytes of each connection
        self._marked = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # closed
            conn.settimeout(0.5)
            try:
                data = conn.recv(4096)
            except OSError:
                data = b""
            conn.close()
            if data == MARKER:
                self._marked.set()
            else:
                self.received.append(data)

    def connections(self):
        """Connections are accepted in the order they were made: once our own marker connection is
        accepted, every earlier one has been counted."""
        self._marked.clear()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        with RealSocket(family, socket.SOCK_STREAM) as marker:
            marker.connect((self.host, self.port))
            marker.sendall(MARKER)
            assert self._marked.wait(5)
        return len(self.received)

    def close(self):
        self.sock.close()


def closed_port():
    """A port on 127.0.0.1 that nothing listens on."""
    with RealSocket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Network:
    """socket.socket and socket.getaddrinfo as a test sets them.

    `answer(name, *addresses)` sets what a name resolves to (a list of such tuples: one answer per lookup, the
    last one repeated); other names resolve for real. `route(address, port, to)` sends a connection to a public
    address to a local (host, port) instead; any other public address is refused without leaving the machine.
    `connects` lists every address a socket tried to connect to, `lookups` every name looked up."""

    def __init__(self, monkeypatch):
        self.answers = {}
        self.routes = {}
        self.connects = []
        self.lookups = []
        network = self

        class RecordingSocket(RealSocket):
            def connect(self, address):
                network.connects.append(address[:2])
                target = network.routes.get(address[:2])
                if target is not None:
                    return super().connect(target)
                if address[0] in ("127.0.0.1", "::1"):
                    return super().connect(address)
                raise ConnectionRefusedError(f"the test network does not reach {address[0]}")

            def connect_ex(self, address):  # pragma: no cover  (not used by urllib3)
                raise AssertionError("connect_ex is not expected")

        def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
            self.lookups.append(host)
            if host in self.answers:
                queue = self.answers[host]
                addresses = queue.pop(0) if len(queue) > 1 else queue[0]
                if addresses is None:
                    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
                return [_entry(address, port) for address in addresses]
            return real_getaddrinfo(host, port, family, type, proto, flags)

        monkeypatch.setattr(socket, "socket", RecordingSocket)
        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)

    def answer(self, name, *answers):
        """Each answer a tuple of addresses (or None: the name does not resolve)."""
        self.answers[name] = list(answers)

    def route(self, address, port, to):
        self.routes[(address, port)] = to


def _entry(address, port):
    if ":" in address:
        return (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))
    return (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))


TEST_CERTIFICATE = Path(__file__).with_name("tls") / "hooks.example.org.pem"  # self-signed, tests only


class TLSReceiver:
    """An https receiver on 127.0.0.1 with a certificate for hooks.example.org (answers 204 to a POST)."""

    def __init__(self):
        self.requests = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.requests.append({"host": self.headers["Host"], "body": body})
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(TEST_CERTIFICATE)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
