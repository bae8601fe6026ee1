"""POSTing a webhook to a public address only.

The host is resolved once, when connecting, and every address it resolves to must be public
(webhooks.addresses): one private address among public ones refuses the lot. The socket is then connected to
an address that was checked — there is no second lookup, so a name that resolves elsewhere a moment later (DNS
rebinding) cannot lead anywhere else. TLS still checks the certificate against the URL's host name: only the
socket's address is chosen here, SNI and hostname verification use the name. Plain http is sent only under the
development exception (webhooks.validation.allow_local_http), and then to loopback addresses only. Redirects
are never followed, and no proxy from the environment is used (it would connect in our place, unchecked).
"""

import ipaddress
import socket
import ssl
import sys
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util.timeout import _DEFAULT_TIMEOUT

from .addresses import address_problem, loopback_problem
from .validation import is_local_http


class AddressRefused(OSError):
    """The host resolves to an address a webhook may not reach, or to none."""


def checked_addresses(host: str, port: int, *, loopback_only: bool = False) -> list[tuple]:
    """The getaddrinfo entries of `host`, looked up once, when every address is allowed; AddressRefused
    naming the first that is not (socket.gaierror when the name does not resolve)."""
    entries = [
        entry
        for entry in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        if entry[0] in (socket.AF_INET, socket.AF_INET6)
    ]
    if not entries:
        raise AddressRefused(f"{host} resolves to no IP address")
    judge = loopback_problem if loopback_only else address_problem
    for entry in entries:
        address = ipaddress.ip_address(entry[4][0])
        problem = judge(address)
        if problem:
            raise AddressRefused(f"{host} resolves to {address} ({problem})")
    return entries


class _CheckedConnection:
    """Mixed into urllib3's connections: opens the socket to a checked address (see the module docstring)."""

    loopback_only = False

    def _new_conn(self):
        try:
            entries = checked_addresses(self._dns_host, self.port, loopback_only=self.loopback_only)
        except socket.gaierror as error:
            raise NameResolutionError(self.host, self, error) from error
        except AddressRefused as error:
            raise NewConnectionError(self, f"Refused: {error}") from error
        last_error = None
        for family, socktype, proto, _name, sockaddr in entries:
            sock = socket.socket(family, socktype, proto)
            try:
                for option in self.socket_options or ():
                    sock.setsockopt(*option)
                if self.timeout is not _DEFAULT_TIMEOUT:
                    sock.settimeout(self.timeout)
                sock.connect(sockaddr)
            except OSError as error:
                sock.close()
                last_error = error
                continue
            sys.audit("http.client.connect", self, self.host, self.port)
            return sock
        if isinstance(last_error, TimeoutError):
            raise ConnectTimeoutError(self, f"Connection to {self.host} timed out.") from last_error
        raise NewConnectionError(self, f"Failed to establish a new connection: {last_error}") from last_error


class PublicHTTPSConnection(_CheckedConnection, HTTPSConnection):
    pass


class LoopbackHTTPConnection(_CheckedConnection, HTTPConnection):
    loopback_only = True


class PublicHTTPSConnectionPool(HTTPSConnectionPool):
    ConnectionCls = PublicHTTPSConnection


class LoopbackHTTPConnectionPool(HTTPConnectionPool):
    ConnectionCls = LoopbackHTTPConnection


class CheckedAdapter(HTTPAdapter):
    """A requests adapter whose connections are the checked ones above, for one scheme."""

    def __init__(self, scheme, pool_class):
        self._scheme, self._pool_class = scheme, pool_class
        super().__init__(max_retries=0)  # each attempt is one delivery attempt, counted and logged

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {self._scheme: self._pool_class}


def post(url: str, *, data: bytes, headers: dict, timeout: float) -> requests.Response:
    """POST `data` to `url` through a checked connection; the answer's body is never read. Raises
    requests.RequestException (a refused address is a requests.ConnectionError like a closed port)."""
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), parts.hostname or ""
    with requests.Session() as session:
        session.trust_env = False  # no proxy, .netrc or CA bundle from the environment
        session.mount("https://", CheckedAdapter("https", PublicHTTPSConnectionPool))
        if is_local_http(scheme, host):
            session.mount("http://", CheckedAdapter("http", LoopbackHTTPConnectionPool))
        elif scheme != "https":
            raise requests.ConnectionError(AddressRefused(f"{scheme}:// to {host} is not sent"))
        response = session.post(
            url, data=data, headers=headers, timeout=timeout, allow_redirects=False, stream=True
        )
        response.close()
        return response


def _causes(error):
    """`error` and every exception behind it (causes, contexts, urllib3's reasons, wrapped arguments)."""
    seen, pending = [], [error]
    while pending:
        current = pending.pop(0)
        if not isinstance(current, BaseException) or any(current is known for known in seen):
            continue
        seen.append(current)
        pending += [current.__cause__, current.__context__, getattr(current, "reason", None)]
        pending += [argument for argument in current.args if isinstance(argument, BaseException)]
    return seen


def describe(error: BaseException) -> str:
    """What went wrong, for the server's log only: never the URL (a Discord URL's path is its token)."""
    causes = _causes(error)
    for kinds, words in (
        (AddressRefused, None),
        (socket.gaierror, "the name does not resolve"),
        (TimeoutError, "timed out"),
        (ConnectionRefusedError, "connection refused"),
        (ConnectionResetError, "connection reset"),
        (ssl.SSLError, None),
    ):
        for cause in causes:
            if isinstance(cause, kinds):
                if words is None:
                    return f"{type(cause).__name__}: {cause}"
                return words
    return type(causes[-1]).__name__
