"""A webhook reaches public addresses only: the host is resolved when connecting, every address it resolves to
is checked (IPv4 and IPv6, in every spelling), the connection goes to the address checked (no second lookup),
and a moderator reads only "delivery failed (HTTP n / timeout / refused)", whatever the network did.

Rows whose URL the form now refuses are written directly: they stand for webhooks saved before that check,
or for a name that resolves elsewhere since it was saved — the connection's check must hold on its own."""

import logging
import socket

import pytest

from webhooks import services
from webhooks.models import Webhook, WebhookDelivery

from .network import TEST_CERTIFICATE, Listener, Network, TLSReceiver, closed_port

pytestmark = pytest.mark.django_db

REFUSED = "delivery failed (refused)"
PUBLIC = "93.184.216.34"  # a global address; the test network never really reaches it
OTHER_PUBLIC = "93.184.216.35"


def ipv6_available():
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.fixture
def network(monkeypatch, settings):
    settings.WEBHOOK_TIMEOUT = 2
    return Network(monkeypatch)


@pytest.fixture
def listener():
    server = Listener()
    yield server
    server.close()


def saved_webhook(league, url):
    """A webhook row as it may stand in the database (saved before the form refused such URLs)."""
    return Webhook.objects.create(league=league, url=url, kind="discord", events=["round_opened"])


def attempt(moderator, webhook):
    """One delivery attempt of a test message; the delivery afterwards."""
    delivery = services.send_test(actor=moderator, webhook_id=webhook.pk)
    services.deliver(delivery.pk)
    return WebhookDelivery.objects.get(pk=delivery.pk)


def assert_refused(delivery):
    assert delivery.last_error == REFUSED
    assert delivery.last_status_code is None and delivery.state == "pending" and delivery.attempts == 1


@pytest.mark.parametrize(
    "host",
    [
        "127.1",
        "0x7f000001",
        "2130706433",
        "0177.0.0.1",
        "0x7f.0.0.1",
        "localhost.",
        "localhost",
        "127.0.0.1",
        "0",
        "0.0.0.0",  # noqa: S104  (a host to connect to, not one to bind)
        "[::ffff:7f00:1]",
        "[::ffff:127.0.0.1]",
    ],
)
def test_every_spelling_of_this_machine_is_refused_when_connecting(
    network, listener, moderator, league, host
):
    network.answer("localhost.", ("127.0.0.1",))  # as most resolvers answer it (this one does not)
    webhook = saved_webhook(league, f"https://{host}:{listener.port}/hook")
    delivery = attempt(moderator, webhook)
    assert listener.connections() == 0
    assert network.connects == []
    assert_refused(delivery)


@pytest.mark.skipif(not ipv6_available(), reason="no IPv6 loopback here")
@pytest.mark.parametrize("host", ["[::1]", "[0:0:0:0:0:0:0:1]"])
def test_the_ipv6_loopback_is_refused_when_connecting(network, moderator, league, host):
    listener6 = Listener("::1")
    try:
        delivery = attempt(moderator, saved_webhook(league, f"https://{host}:{listener6.port}/hook"))
        assert listener6.connections() == 0
    finally:
        listener6.close()
    assert network.connects == []
    assert_refused(delivery)


@pytest.mark.parametrize(
    "url",
    [
        "https://2852039166/latest/meta-data/",  # 169.254.169.254, the cloud metadata service
        "https://0xa9fea9fe/latest/meta-data/",
        "https://169.254.169.254/latest/meta-data/",
        "https://167772161/hook",  # 10.0.0.1
        "https://192.168.1.1/hook",
        "https://172.16.0.1/hook",
        "https://100.64.0.1/hook",
        "https://224.0.0.1/hook",
        "https://240.0.0.1/hook",
        "https://[fe80::1]/hook",
        "https://[fc00::1]/hook",
        "https://[fd00:ec2::254]/latest/meta-data/",
        "https://[ff02::1]/hook",
        "https://[::a9fe:a9fe]/hook",  # IPv4-compatible
        "https://[64:ff9b::a9fe:a9fe]/hook",  # NAT64 of the metadata address
        "https://[2002:a00:1::1]/hook",  # 6to4 of 10.0.0.1
        "https://[2001:db8::1]/hook",
    ],
)
def test_private_link_local_and_special_addresses_are_refused_without_a_connection(
    network, moderator, league, url
):
    delivery = attempt(moderator, saved_webhook(league, url))
    assert network.connects == []
    assert_refused(delivery)


def test_plain_http_to_this_machine_is_refused_when_the_development_exception_is_off(
    network, listener, moderator, league, settings
):
    webhook = saved_webhook(league, f"http://127.0.0.1:{listener.port}/hook")
    settings.DEBUG = False  # WEBHOOK_ALLOW_LOCAL_HTTP stays on: it needs DEBUG too
    delivery = attempt(moderator, webhook)
    assert listener.connections() == 0 and network.connects == []
    assert_refused(delivery)


def test_a_name_public_when_saved_and_local_when_sent_is_refused(network, listener, moderator, league):
    network.answer("hooks.example.org", (PUBLIC,))
    webhook, _ = services.create_webhook(
        actor=moderator,
        league=league,
        url=f"https://hooks.example.org:{listener.port}/hook",
        kind="discord",
        events=["round_opened"],
    )
    network.answer("hooks.example.org", ("127.0.0.1",))  # the name's owner points it here (DNS rebinding)
    delivery = attempt(moderator, webhook)
    assert listener.connections() == 0 and network.connects == []
    assert_refused(delivery)


def test_the_connection_goes_to_the_address_checked_with_one_lookup(network, listener, moderator, league):
    # First answer public, every later one this machine: a second lookup after the check would connect here.
    network.answer("hooks.example.org", (PUBLIC,), ("127.0.0.1",))
    network.route(PUBLIC, 443, ("127.0.0.1", listener.port))
    delivery = attempt(moderator, saved_webhook(league, "https://hooks.example.org/api/webhooks/1/token"))
    assert network.lookups.count("hooks.example.org") == 1
    assert network.connects == [(PUBLIC, 443)]
    assert listener.connections() == 1
    # TLS is spoken to the name, not to the address: the ClientHello carries it (SNI).
    assert b"hooks.example.org" in listener.received[0]
    assert_refused(delivery)  # the listener speaks no TLS


def test_tls_is_verified_against_the_host_name_not_the_address_connected_to(
    network, moderator, league, monkeypatch
):
    import requests

    receiver = TLSReceiver()
    post = requests.Session.post
    monkeypatch.setattr(
        requests.Session,
        "post",
        lambda self, url, **kw: post(self, url, **{**kw, "verify": str(TEST_CERTIFICATE)}),
    )
    network.answer("hooks.example.org", (PUBLIC,))
    network.answer("elsewhere.example.org", (OTHER_PUBLIC,))
    network.route(PUBLIC, 443, ("127.0.0.1", receiver.port))
    network.route(OTHER_PUBLIC, 443, ("127.0.0.1", receiver.port))  # the same server, another name
    try:
        sent = attempt(moderator, saved_webhook(league, "https://hooks.example.org/hook"))
        mismatch = attempt(moderator, saved_webhook(league, "https://elsewhere.example.org/hook"))
    finally:
        receiver.close()
    assert sent.state == "sent" and sent.last_status_code == 204
    assert [request["host"] for request in receiver.requests] == ["hooks.example.org"]
    assert_refused(mismatch)  # its certificate names hooks.example.org only


@pytest.mark.parametrize(
    "addresses",
    [
        (PUBLIC, "10.0.0.1"),
        (PUBLIC, "127.0.0.1"),
        ("127.0.0.1", PUBLIC),
        (PUBLIC, "::1"),
        (PUBLIC, "fd00::1"),
        ("2606:4700::1111", "::ffff:127.0.0.1"),
    ],
)
def test_a_name_with_one_private_address_among_public_ones_is_refused(
    network, listener, moderator, league, addresses
):
    network.answer("mixed.example.org", addresses)
    network.route(PUBLIC, listener.port, ("127.0.0.1", listener.port))
    network.route("2606:4700::1111", listener.port, ("127.0.0.1", listener.port))
    delivery = attempt(moderator, saved_webhook(league, f"https://mixed.example.org:{listener.port}/"))
    assert network.connects == []  # not even to the public address
    assert listener.connections() == 0
    assert_refused(delivery)


@pytest.mark.parametrize(
    "address",
    [
        "::1",
        "::ffff:127.0.0.1",
        "::ffff:a9fe:a9fe",
        "fe80::1",
        "fc00::1",
        "64:ff9b::7f00:1",
        "2002:7f00:1::1",
    ],
)
def test_a_name_resolving_to_a_local_ipv6_address_is_refused(network, moderator, league, address):
    network.answer("six.example.org", (address,))
    delivery = attempt(moderator, saved_webhook(league, "https://six.example.org/hook"))
    assert network.connects == []
    assert_refused(delivery)


def test_open_closed_refused_and_unknown_read_the_same_to_the_moderator(
    network, listener, moderator, league, client
):
    closed = closed_port()
    network.answer("open.example.org", (PUBLIC,))
    network.answer("closed.example.org", (OTHER_PUBLIC,))
    network.answer("inside.example.org", ("10.0.0.1",))
    network.answer("nowhere.example.org", None)
    network.route(PUBLIC, 443, ("127.0.0.1", listener.port))  # accepts, then hangs up
    network.route(OTHER_PUBLIC, 443, ("127.0.0.1", closed))  # connection refused
    urls = [
        "https://open.example.org/hook",
        "https://closed.example.org/hook",
        "https://inside.example.org/hook",
        "https://nowhere.example.org/hook",
        f"https://127.0.0.1:{listener.port}/hook",
        f"https://127.0.0.1:{closed}/hook",
    ]
    deliveries = [attempt(moderator, saved_webhook(league, url)) for url in urls]
    assert listener.connections() == 1  # only the public one got there
    for delivery in deliveries:
        assert_refused(delivery)
    client.force_login(moderator)
    listed = client.get(f"/api/leagues/{league.pk}/webhooks/").json()
    seen = {
        (item["error"], item["status_code"], item["state"], item["attempts"])
        for hook in listed
        for item in hook["deliveries"]
    }
    assert seen == {(REFUSED, None, "pending", 1)}
    page = client.get(f"/moderate/leagues/{league.pk}/webhooks/").content.decode()
    assert page.count(REFUSED) == len(urls)
    assert "10.0.0.1" not in page and "Connection" not in page and "SSL" not in page


def test_the_server_log_says_why_without_the_url(network, listener, moderator, league, caplog):
    webhook = saved_webhook(league, f"https://127.1:{listener.port}/api/webhooks/1/secret-token-part")
    with caplog.at_level(logging.WARNING, logger="webhooks.services"):
        attempt(moderator, webhook)
    [record] = [record for record in caplog.records if record.name == "webhooks.services"]
    message = record.getMessage()
    assert "127.1 resolves to 127.0.0.1 (loopback)" in message
    assert "secret-token-part" not in message


def test_local_http_reaches_this_machine_in_debug_only(network, receiver, moderator, league, settings):
    webhook, _ = services.create_webhook(
        actor=moderator, league=league, url=receiver.url, kind="discord", events=["round_opened"]
    )
    assert services.deliver(services.send_test(actor=moderator, webhook_id=webhook.pk).pk) == "sent"
    assert len(receiver.requests) == 1
    settings.DEBUG = False
    delivery = attempt(moderator, webhook)
    assert len(receiver.requests) == 1
    assert_refused(delivery)


def test_local_http_reaches_loopback_addresses_only(network, listener, moderator, league):
    network.answer("localhost", ("10.0.0.1",))
    webhook, _ = services.create_webhook(
        actor=moderator,
        league=league,
        url=f"http://localhost:{listener.port}/hook",
        kind="discord",
        events=["round_opened"],
    )
    delivery = attempt(moderator, webhook)
    assert network.connects == []
    assert_refused(delivery)


def test_errors_recorded_in_the_old_words_are_rewritten(moderator, league):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("webhooks.migrations.0002_generic_delivery_errors")
    webhook = saved_webhook(league, "https://example.org/hook")
    old = {
        "ConnectionError: HTTPSConnectionPool(host='10.0.0.1', port=22): Connection refused": None,
        "SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number": None,
        "ReadTimeout: HTTPSConnectionPool(host='example.org', port=443): Read timed out.": None,
        "ConnectTimeout: Connection to example.org timed out.": None,
        "HTTP 503 Service Unavailable": 503,
        "HTTP 302 Found (redirects are not followed: give the final URL)": 302,
        "The webhook is switched off.": None,
        "": 204,
    }
    for error, status in old.items():
        WebhookDelivery.objects.create(
            webhook=webhook, event="test", payload="{}", last_error=error, last_status_code=status
        )
    migration.generic_errors(apps, None)
    assert sorted(WebhookDelivery.objects.values_list("last_error", flat=True)) == sorted(
        [
            REFUSED,
            REFUSED,
            "delivery failed (timeout)",
            "delivery failed (timeout)",
            "delivery failed (HTTP 503)",
            "delivery failed (HTTP 302)",
            "The webhook is switched off.",
            "",
        ]
    )
