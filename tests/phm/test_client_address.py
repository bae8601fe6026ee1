"""The client's address (phm.client_address): X-Forwarded-For is believed only behind the TLS proxy and only on
connections from TRUSTED_PROXIES; the login throttle and the request limits all use this one helper."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from phm.client_address import client_ip, parse_address
from phm.env import networks_setting, parse_rate


@pytest.fixture
def behind_the_proxy(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXIES = ["127.0.0.0/8", "::1", "172.16.0.0/12"]


def address_of(remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_ip(RequestFactory().get("/", **extra))


def test_without_the_proxy_the_header_is_ignored(settings):
    settings.SECURE_PROXY_SSL_HEADER = None
    assert address_of("127.0.0.1", "203.0.113.9") == "127.0.0.1"


def test_from_a_trusted_proxy_the_last_entry_is_the_client(behind_the_proxy):
    assert address_of("127.0.0.1", "203.0.113.9") == "203.0.113.9"
    assert address_of("172.18.0.1", "spoofed, 203.0.113.9") == "203.0.113.9"
    assert address_of("::1", "2001:db8::7") == "2001:db8::7"
    assert address_of("127.0.0.1") == "127.0.0.1"  # a request to the proxy's own health check


def test_from_any_other_address_the_header_is_ignored(behind_the_proxy):
    assert address_of("198.51.100.23", "203.0.113.9") == "198.51.100.23"
    assert address_of("10.0.0.2", "203.0.113.9") == "10.0.0.2"


def test_an_empty_list_trusts_no_proxy(behind_the_proxy, settings):
    settings.TRUSTED_PROXIES = []
    assert address_of("127.0.0.1", "203.0.113.9") == "127.0.0.1"


def test_addresses_with_ports_and_mapped_ipv4_are_read(behind_the_proxy):
    assert address_of("127.0.0.1", "203.0.113.9:4711") == "203.0.113.9"
    assert address_of("127.0.0.1", "[2001:db8::7]:4711") == "2001:db8::7"
    assert address_of("::ffff:127.0.0.1", "203.0.113.9") == "203.0.113.9"
    assert address_of("127.0.0.1", "203.0.113.9, not-an-address") == "127.0.0.1"
    assert parse_address("nonsense") is None
    assert address_of("nonsense") is None


def test_every_limit_uses_the_one_helper(settings):
    from accounts import throttle
    from phm import limits

    assert settings.AXES_CLIENT_IP_CALLABLE == "phm.client_address.client_ip"
    assert throttle.client_ip is client_ip
    assert limits.client_ip is client_ip


def test_trusted_proxies_must_be_addresses_or_networks():
    assert networks_setting(["127.0.0.1", "172.16.0.0/12", "::1"], "TRUSTED_PROXIES")
    with pytest.raises(
        ImproperlyConfigured, match=r"'proxy\.example' is neither an IP address nor a network"
    ):
        networks_setting(["proxy.example"], "TRUSTED_PROXIES")


@pytest.mark.parametrize(
    ("text", "count", "seconds"),
    [
        ("5/hour", 5, 3600),
        ("120/minute", 120, 60),
        ("120/min", 120, 60),
        ("10/s", 10, 1),
        ("3 / days", 3, 86400),
    ],
)
def test_limit_rates(text, count, seconds):
    rate = parse_rate(text)
    assert (rate.count, rate.seconds) == (count, seconds)


@pytest.mark.parametrize("text", ["off", "0", "", "OFF", None])
def test_a_limit_can_be_off(text):
    assert parse_rate(text) is None


@pytest.mark.parametrize("text", ["5", "five/hour", "5/fortnight", "-1/hour"])
def test_a_malformed_limit_is_refused_with_its_name(text):
    with pytest.raises(ImproperlyConfigured, match="SIGN_UP_LIMIT_PER_ADDRESS must be a number of uses per"):
        parse_rate(text, "SIGN_UP_LIMIT_PER_ADDRESS")
