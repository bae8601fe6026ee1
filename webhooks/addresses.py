"""Which addresses a webhook may reach: public (globally routable) unicast addresses only, however the host
is spelled. Used twice: when a URL is saved (a clear message for a host that is plainly local or private)
and, the check that matters since a name can resolve differently later, when connecting
(webhooks.transport), for every address the host resolves to."""

import ipaddress
import string

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Refused whatever Python's own tables say (they differ between versions: 3.11 calls multicast, site-local
# and some special-purpose IPv6 ranges "global"). Labels are for the server's log and the form's message.
REFUSED_NETWORKS = [
    (ipaddress.ip_network(network), label)
    for network, label in (
        ("0.0.0.0/8", "this host"),
        ("10.0.0.0/8", "private"),
        ("100.64.0.0/10", "shared address space (carrier-grade NAT)"),
        ("127.0.0.0/8", "loopback"),
        ("169.254.0.0/16", "link-local"),
        ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "IETF protocol assignments"),
        ("192.0.2.0/24", "documentation"),
        ("192.88.99.0/24", "6to4 relay"),
        ("192.168.0.0/16", "private"),
        ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation"),
        ("203.0.113.0/24", "documentation"),
        ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"),  # with the broadcast address 255.255.255.255
        ("::/128", "unspecified"),
        ("::1/128", "loopback"),
        ("::/96", "IPv4-compatible"),
        ("::ffff:0:0:0/96", "IPv4-translated"),
        ("64:ff9b:1::/48", "local-use NAT64"),
        ("100::/64", "discard-only"),
        ("2001::/32", "Teredo"),
        ("2001:2::/48", "benchmarking"),
        ("2001:10::/28", "ORCHID"),
        ("2001:db8::/32", "documentation"),
        ("3fff::/20", "documentation"),
        ("5f00::/16", "segment routing"),
        ("fc00::/7", "unique-local"),
        ("fe80::/10", "link-local"),
        ("fec0::/10", "site-local"),
        ("ff00::/8", "multicast"),
    )
]
LOOPBACK_NETWORKS = [ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128")]
NAT64 = ipaddress.ip_network("64:ff9b::/96")
SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
# Names that never lead to a public receiver: this machine, the local network, cloud metadata services.
LOCAL_NAMES = {"localhost", "ip6-localhost", "ip6-loopback"}
LOCAL_SUFFIXES = (".localhost", ".localdomain", ".local", ".internal", ".home.arpa", ".lan")
HEX_DIGITS = set(string.hexdigits)


def _without_scope(address: IPAddress) -> IPAddress:
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id:
        return ipaddress.IPv6Address(str(address).split("%", 1)[0])
    return address


def reached_address(address: IPAddress) -> IPAddress:
    """The IPv4 address a connection to an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6
    address reaches; any other address itself."""
    address = _without_scope(address)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address in NAT64:
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


def address_problem(address: IPAddress) -> str:
    """What `address` is when a webhook may not connect to it ("loopback", "private", …), "" when it may.
    An IPv6 address that carries an IPv4 one (IPv4-mapped, NAT64, 6to4) is judged by the IPv4 one as well."""
    address = _without_scope(address)
    if isinstance(address, ipaddress.IPv6Address):
        if reached_address(address) != address:
            return address_problem(reached_address(address))
        if address in SIX_TO_FOUR:
            problem = address_problem(address.sixtofour)
            if problem:
                return f"6to4 of {problem}"
    for network, label in REFUSED_NETWORKS:
        if address.version == network.version and address in network:
            return label
    if address.is_multicast:
        return "multicast"
    if address.is_unspecified or address.is_loopback or address.is_link_local:
        return "this host or its link"
    if address.is_private or not address.is_global:
        return "not globally routable"
    return ""


def loopback_problem(address: IPAddress) -> str:
    """For the development exception (http:// to this machine while DEBUG is on): loopback addresses only."""
    address = _without_scope(address)
    if any(address.version == network.version and address in network for network in LOOPBACK_NETWORKS):
        return ""
    return "not loopback"


def _is_number(label: str) -> bool:
    if label[:2].lower() == "0x":
        return all(character in HEX_DIGITS for character in label[2:])
    return label.isascii() and label.isdigit()


def _ipv4_part(label: str) -> int:
    if not label:
        raise ValueError("an empty part")
    if label[:2].lower() == "0x":
        return int(label[2:] or "0", 16)
    if len(label) > 1 and label.startswith("0"):
        return int(label, 8)  # ValueError on 8 or 9, as a resolver refuses them
    return int(label, 10)


def numeric_address(host: str) -> IPAddress | None:
    """The IP address `host` spells, read as resolvers and browsers read it: IPv6 (with or without brackets)
    or IPv4 of one to four parts, each decimal, octal (leading 0) or hexadecimal (0x) — `127.1`, `0x7f000001`,
    `2130706433` and `0177.0.0.1` are all 127.0.0.1. None for a host name. ValueError for a host whose last
    label is a number but which is no address (it cannot be a host name either)."""
    host = host.strip("[]")
    if ":" in host:
        return ipaddress.IPv6Address(host)
    labels = (host[:-1] if host.endswith(".") else host).split(".")
    if not labels[-1] or not _is_number(labels[-1]):
        return None
    parts = [_ipv4_part(label) for label in labels]
    if len(parts) > 4 or any(part > 255 for part in parts[:-1]) or parts[-1] >= 256 ** (5 - len(parts)):
        raise ValueError("out of range")
    value = parts[-1]
    for position, part in enumerate(parts[:-1]):
        value += part << (8 * (3 - position))
    return ipaddress.IPv4Address(value)


def is_local_name(host: str) -> bool:
    """A name that can only mean this machine or a local network: localhost (with or without its trailing
    dot), the local-only suffixes, and a single label (completed by the resolver's search domains)."""
    name = host.rstrip(".").lower()
    return name in LOCAL_NAMES or name.endswith(LOCAL_SUFFIXES) or "." not in name
