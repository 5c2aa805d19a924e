"""Which addresses a fetch may connect to: public ones, and those of the hosts the user named.

A URL that a sitemap index, a robots.txt or a redirect lists is written by whoever
serves that file. Fetched from a CI runner or a laptop, it could reach what only that
machine reaches: its loopback services, the private network, a cloud's metadata
address. Such addresses are refused unless the user named the host (``HostPolicy``)
or allowed them all. A named host is trusted by its name, pinned to the addresses of its
first lookup in the run (``Guard``, ``Pins``: one table the run's fetcher and live client
share): neither a later answer of its DNS nor a URL that writes the address it resolved
to is trusted for it.

The check is made on the connection itself (``GuardedBackend``, an httpcore network
backend behind ``guarded_transport``): the host is resolved once, every address it
resolves to is checked, and the connection goes only to addresses that passed, so no
second lookup (DNS rebinding) can answer differently. The request keeps the host name
in its Host header, its TLS server name and its certificate check. Every hop of a
redirect is a new request, checked the same way.

Ports are checked too (``HostPolicy.refuses_port``): no request goes to one of the Fetch
standard's bad ports (``BAD_PORTS``: SMTP, POP3, X11, ...), where an HTTP request would
talk to another protocol's server, unless the user named that host and port.

Loading this module loads neither httpx nor httpcore: building a transport, or reading
a named URL as the client does, imports them.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import ssl

    import httpcore
    import httpx
    from httpcore import NetworkBackend as _NetworkBackend
else:
    _NetworkBackend = object

Address = IPv4Address | IPv6Address

DEFAULT_PORTS = {"http": 80, "https": 443}
_CARRIER_GRADE_NAT = IPv4Network("100.64.0.0/10")
_RFC1918 = (IPv4Network("10.0.0.0/8"), IPv4Network("172.16.0.0/12"), IPv4Network("192.168.0.0/16"))
# Special-purpose blocks that no public site stands on, which some Python versions call
# global: the IETF protocol assignments (192.0.0.8, a dummy address, among them) and the
# retired 6to4 relay anycast block.
_SPECIAL = (IPv4Network("192.0.0.0/24"), IPv4Network("192.88.99.0/24"))
_UNIQUE_LOCAL = IPv6Network("fc00::/7")
_NAT64 = IPv6Network("64:ff9b::/96")  # the well-known prefix: the IPv4 address is the last 32 bits
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_OCTAL_DIGITS = frozenset("01234567")
_DECIMAL_DIGITS = frozenset("0123456789")
# The Fetch standard's bad ports (its "port blocking"), each with the service it belongs
# to: ports of other protocols, to which browsers send no request, so that a page cannot
# make them talk to a mail, file, chat or login server.
BAD_PORTS: dict[int, str] = {
    0: "no service",
    1: "tcpmux",
    7: "echo",
    9: "discard",
    11: "systat",
    13: "daytime",
    15: "netstat",
    17: "qotd",
    19: "chargen",
    20: "ftp-data",
    21: "ftp",
    22: "ssh",
    23: "telnet",
    25: "smtp",
    37: "time",
    42: "name",
    43: "nicname",
    53: "domain",
    69: "tftp",
    77: "priv-rjs",
    79: "finger",
    87: "ttylink",
    95: "supdup",
    101: "hostname",
    102: "iso-tsap",
    103: "gppitnp",
    104: "acr-nema",
    109: "pop2",
    110: "pop3",
    111: "sunrpc",
    113: "auth",
    115: "sftp",
    117: "uucp-path",
    119: "nntp",
    123: "ntp",
    135: "epmap",
    137: "netbios-ns",
    139: "netbios-ssn",
    143: "imap",
    161: "snmp",
    179: "bgp",
    389: "ldap",
    427: "svrloc",
    465: "submissions",
    512: "exec",
    513: "login",
    514: "shell",
    515: "printer",
    526: "tempo",
    530: "courier",
    531: "chat",
    532: "netnews",
    540: "uucp",
    548: "afp",
    554: "rtsp",
    556: "remotefs",
    563: "nntps",
    587: "submission",
    601: "syslog-conn",
    636: "ldaps",
    989: "ftps-data",
    990: "ftps",
    993: "imaps",
    995: "pop3s",
    1719: "h323gatestat",
    1720: "h323hostcall",
    1723: "pptp",
    2049: "nfs",
    3659: "apple-sasl",
    4045: "npp",
    4190: "sieve",
    5060: "sip",
    5061: "sips",
    6000: "x11",
    6566: "sane-port",
    6665: "ircu",
    6666: "ircu",
    6667: "ircu",
    6668: "ircu",
    6669: "ircu",
    6679: "osaut",
    6697: "ircs-u",
    10080: "amanda",
}


def http_scheme(url: str) -> str | None:
    """The scheme of an http or https URL (``http://``, ``HTTPS://``) in lower case,
    else None: the only URLs a fetch requests."""
    scheme = url.partition(":")[0].lower()
    return scheme if scheme in DEFAULT_PORTS and url[len(scheme) :].startswith("://") else None


def bad_port_reason(port: int) -> str:
    """Why a request to ``port`` (one of ``BAD_PORTS``) is not sent, in words."""
    service = BAD_PORTS.get(port, "another protocol")
    return (
        f"port {port} ({service}) is one of the ports browsers send no request to (the"
        " Fetch standard's bad ports), lest it reach another protocol's server"
    )


def kind_article(kind: str) -> str:
    """An ``address_kind`` with its article: "a loopback", "an unspecified"."""
    vowel = kind[0] in "aeio" or kind.startswith("unspecified")
    return f"{'an' if vowel else 'a'} {kind}"


def kind_words(kind: str, address: Address | str) -> str:
    """An ``address_kind`` as a refusal says it: "a loopback address"; for an IPv6
    address judged by the IPv4 address it carries (NAT64, 6to4), which one, lest the
    kind be taken for the IPv6 address's own: "a loopback address (6to4 for 127.0.0.2)"."""
    words = f"{kind_article(kind)} address"
    try:
        parsed = ip_address(address) if isinstance(address, str) else address
    except ValueError:
        return words
    if isinstance(parsed, IPv6Address) and parsed.ipv4_mapped is None:
        nat64 = _nat64(parsed)
        if nat64 is not None:
            return f"{words} (NAT64 for {nat64})"
        if parsed.sixtofour is not None and address_kind(parsed.sixtofour) is not None:
            return f"{words} (6to4 for {parsed.sixtofour})"
    return words


def address_kind(address: Address) -> str | None:
    """What makes ``address`` internal ("loopback", "private", "link-local", ...), or
    None for a public address. An IPv6 address that carries an IPv4 address (mapped,
    NAT64, 6to4) is judged by that address too."""
    if isinstance(address, IPv6Address):
        embedded = address.ipv4_mapped or _nat64(address)
        if embedded is not None:
            return address_kind(embedded)
        if address.sixtofour is not None and address_kind(address.sixtofour) is not None:
            return address_kind(address.sixtofour)
    if address.is_unspecified:
        return "unspecified"
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link-local"
    if address.is_multicast:
        return "multicast"
    if isinstance(address, IPv4Address):
        if address in _CARRIER_GRADE_NAT:
            return "carrier-grade NAT"
        if any(address in network for network in _RFC1918):
            return "private"
        if any(address in network for network in _SPECIAL):
            return "reserved"
    else:
        if address in _UNIQUE_LOCAL:
            return "unique-local"
        if address.is_site_local:
            return "site-local"
    if address.is_private or address.is_reserved or not address.is_global:
        return "reserved"
    return None


def is_public(address: Address) -> bool:
    """Whether any fetch may connect to ``address``."""
    return address_kind(address) is None


def _nat64(address: IPv6Address) -> IPv4Address | None:
    return IPv4Address(int(address) & 0xFFFFFFFF) if address in _NAT64 else None


def parse_ipv4(host: str) -> IPv4Address | None:
    """``host`` read as an IPv4 address the way URLs read it (the WHATWG URL standard,
    as inet_aton does): one to four numbers, each decimal, octal (a leading 0) or hex
    (0x), the last filling the remaining bytes: ``2130706433``, ``0x7f.1``,
    ``017700000001`` and ``127.1`` are all 127.0.0.1. None when it is not one."""
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()  # one trailing dot
    if not 1 <= len(parts) <= 4:
        return None
    numbers = [_ipv4_number(part) for part in parts]
    if None in numbers:
        return None
    values = [number for number in numbers if number is not None]
    *leading, last = values
    if any(value > 255 for value in leading) or last >= 256 ** (5 - len(values)):
        return None
    total = last
    for index, value in enumerate(leading):
        total += value << (8 * (3 - index))
    return IPv4Address(total)


def _ipv4_number(part: str) -> int | None:
    if part[:2] in ("0x", "0X"):
        digits, allowed, base = part[2:], _HEX_DIGITS, 16
    elif len(part) > 1 and part[0] == "0":
        digits, allowed, base = part[1:], _OCTAL_DIGITS, 8
    else:
        digits, allowed, base = part, _DECIMAL_DIGITS, 10
    if not part or not set(digits) <= allowed:
        return None
    return int(digits, base) if digits else 0


@lru_cache(maxsize=4096)  # a run asks about the same few hosts for every URL
def host_address(host: str) -> Address | None:
    """The address a URL's host is written as (any IPv4 form, or IPv6 with or without
    its brackets), or None for a host name."""
    text = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if ":" in text:
        try:
            return IPv6Address(text)
        except ValueError:
            return None
    return parse_ipv4(text)


@lru_cache(maxsize=4096)
def canonical_host(host: str) -> str:
    """A host as compared with the named ones: an address in its standard form (the
    unwrapped IPv4 address of a mapped IPv6 one), a name in lower case without a
    trailing dot, and in its ASCII form (a full-width or other Unicode spelling of
    ``example.com`` is ``example.com``)."""
    address = host_address(host)
    if address is None:
        if not host.isascii():
            from sitemap_lint.domain.hosts import to_ascii

            host = to_ascii(host).ascii or host
        return host.lower().rstrip(".")
    return str(_unmapped(address))


def address_text(address: Address) -> str:
    """``address`` as written in messages: an IPv4-mapped one as ``::ffff:127.0.0.1``."""
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        return f"::ffff:{address.ipv4_mapped}"
    return str(address)


def _unmapped(address: Address) -> Address:
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@dataclass(frozen=True)
class HostPolicy:
    """What a fetch may connect to. ``named``: (canonical host, port) of the URLs the user
    gave, which may be fetched whatever they resolve to (a name at the addresses of its
    first lookup: ``Guard``), as may any host that resolves to an address named as such,
    at its port; ``allow_private``: every address may be fetched."""

    allow_private: bool = False
    named: frozenset[tuple[str, int]] = frozenset()

    @classmethod
    def naming(cls, urls: Iterable[str], allow_private: bool = False) -> HostPolicy:
        """The policy that trusts the hosts (and ports) of ``urls``; a URL that is not a
        valid http(s) URL names nothing."""
        named = {origin for origin in map(url_origin, urls) if origin is not None}
        return cls(allow_private, frozenset(named))

    def names(self, host: str, port: int) -> bool:
        return (canonical_host(host), port) in self.named

    def refuses_port(self, host: str, port: int) -> bool:
        """Whether no request goes to ``port`` of ``host``: one of the ``BAD_PORTS``,
        unless the user named that host and port (``--allow-private-hosts`` allows
        addresses, not ports)."""
        return port in BAD_PORTS and not self.names(host, port)

    def port_refusal(self, place: tuple[str, int] | None) -> str | None:
        """Why no request goes to ``place`` ((canonical host, port), as the client that
        connects parses the URL; None: not known), or None when one may."""
        if place is None or not self.refuses_port(*place):
            return None
        return bad_port_reason(place[1])


def url_origin(url: str) -> tuple[str, int] | None:
    """(canonical host, port) of an http(s) URL as the client connects to it, or None."""
    import httpx

    try:
        parsed = httpx.URL(url.strip())
        host = parsed.raw_host.decode("ascii")
    except (httpx.InvalidURL, ValueError, UnicodeError):
        return None
    default = DEFAULT_PORTS.get(parsed.scheme)
    if default is None or not host:
        return None
    return canonical_host(host), parsed.port or default


class RefusedAddress(Exception):
    """A connection the policy does not allow; nothing was sent."""

    def __init__(self, host: str, port: int, address: Address, kind: str) -> None:
        super().__init__(f"{host} resolves to {address_text(address)}, {kind_words(kind, address)}")
        self.host = host
        self.port = port
        self.address = address
        self.kind = kind


def looked_up(host: str, port: int) -> list[str]:
    """The addresses the system's resolver gives ``host`` for a TCP connection to
    ``port``, each once, in its order; OSError when the host does not resolve (a
    label over 63 characters too, which the resolver's IDNA step refuses)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except UnicodeError as error:
        raise socket.gaierror(socket.EAI_NONAME, f"not a host name: {error}") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class Pins:
    """The addresses each named host name is pinned to in one run: those of its first
    lookup by any of the run's guards (the set's fetcher, the live client); safe to use
    from several threads. Pickled (as a cluster's tasks carry it), a table is its
    names pinned so far and ``run``, which tells one run's table from another's: a
    worker shares it among one run's tasks and never gives it to another run."""

    def __init__(self) -> None:
        import uuid

        self.run = uuid.uuid4().hex
        self._lock = threading.Lock()
        self._pinned: dict[str, frozenset[Address]] = {}  # named name -> first addresses

    def pin(self, name: str, addresses: Iterable[str]) -> frozenset[Address]:
        """The addresses ``name`` is pinned to: ``addresses`` when it has none yet."""
        with self._lock:
            pinned = self._pinned.get(name)
            if pinned is None:
                pinned = self._pinned[name] = frozenset(
                    _unmapped(ip_address(text)) for text in addresses
                )
            return pinned

    def resolve(self, policy: HostPolicy) -> None:
        """Pin the names ``policy`` trusts now, each at its first lookup (a name that does
        not resolve is left to the first guard that looks it up; none when the policy
        allows every address, as its guards then pin nothing): for a run whose tasks
        take copies of the table to other machines."""
        if policy.allow_private:
            return
        for host, port in sorted(policy.named):
            if host_address(host) is not None or host in self._pinned:
                continue
            try:
                self.pin(host, looked_up(host, port))
            except OSError:
                continue

    def __getstate__(self) -> dict[str, object]:
        with self._lock:
            return {"run": self.run, "pinned": dict(self._pinned)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.run = state["run"]
        self._lock = threading.Lock()
        self._pinned = dict(state["pinned"])


class Guard:
    """Resolves a host once and checks its addresses against a ``HostPolicy``; safe to
    use from several threads.

    A host the user named is trusted by its name, at the addresses of its first lookup
    in the run (``pins``, the run's table; a guard of its own without): the name is
    pinned to them. A later lookup that answers other
    addresses (a hostile DNS server that answers 169.254.169.254 once the run is under
    way) has those checked as any host's, and an internal one refused unless every
    address is allowed. The addresses a named name resolves to are trusted for that
    name only, never for another host nor written as such in a URL: a listed
    ``http://169.254.169.254/`` is refused even when the named host resolved there. An
    address the user named as such (``http://127.0.0.1:8000/``) is trusted at its port
    whatever name resolves to it."""

    def __init__(self, policy: HostPolicy, pins: Pins | None = None) -> None:
        self.policy = policy
        self.pins = pins if pins is not None else Pins()
        self._named_addresses = frozenset(
            (_unmapped(address), port)
            for host, port in policy.named
            if (address := host_address(host)) is not None
        )

    def connectable(self, host: str, port: int) -> list[str]:
        """The addresses ``host`` resolves to that may be connected to, in the resolver's
        order: RefusedAddress (naming the first refused) when there is none, OSError
        when the host does not resolve."""
        literal = host_address(host)  # connected to as read here, not as the resolver reads it
        addresses = [str(literal)] if literal is not None else looked_up(host, port)
        if self.policy.allow_private:
            return addresses
        pinned: frozenset[Address] = frozenset()
        if self.policy.names(host, port):
            if literal is not None:
                return addresses
            pinned = self.pins.pin(canonical_host(host), addresses)
        allowed: list[str] = []
        refused: RefusedAddress | None = None
        for text in addresses:
            address = ip_address(text)
            if _unmapped(address) not in pinned:
                try:
                    self.check(host, port, address)
                except RefusedAddress as error:
                    refused = refused or error
                    continue
            allowed.append(text)
        if not allowed and refused is not None:
            raise refused
        return allowed

    def check(self, host: str, port: int, address: Address) -> None:
        """RefusedAddress unless ``address`` is public or one the user named as such,
        at that port."""
        if self.policy.allow_private:
            return
        kind = address_kind(address)
        if kind is not None and (_unmapped(address), port) not in self._named_addresses:
            raise RefusedAddress(host, port, address, kind)


class GuardedBackend(_NetworkBackend):
    """An httpcore network backend that connects only to the addresses ``guard`` checked
    (TLS, started by httpcore on the stream, still names and verifies the host)."""

    def __init__(self, guard: Guard, inner: httpcore.NetworkBackend | None = None) -> None:
        import httpcore

        self.guard = guard
        self._inner = inner if inner is not None else httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        import httpcore

        try:
            addresses = self.guard.connectable(host, port)
        except OSError as error:
            raise httpcore.ConnectError(str(error)) from error
        failure: Exception | None = None
        for address in addresses:
            try:
                return self._inner.connect_tcp(
                    address, port, timeout, local_address, socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as error:
                failure = error
        if failure is None:
            raise httpcore.ConnectError(f"{host} resolves to no address")
        raise failure

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        import httpcore

        raise httpcore.ConnectError("a guarded fetch connects over TCP only")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def guarded_transport(
    policy: HostPolicy, context: ssl.SSLContext, pins: Pins | None = None
) -> httpx.HTTPTransport:
    """An httpx transport whose every connection goes through ``GuardedBackend`` (its
    guard pinning to the run's ``pins``) and TLS ``context``; a client given it uses no
    proxy (a proxy would make the connection elsewhere)."""
    import httpcore
    import httpx

    transport = httpx.HTTPTransport(verify=context)
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=20)  # httpx's own
    # httpx takes no network backend: its pool is replaced by one with the same settings.
    transport._pool = httpcore.ConnectionPool(
        ssl_context=context,
        max_connections=limits.max_connections,
        max_keepalive_connections=limits.max_keepalive_connections,
        keepalive_expiry=limits.keepalive_expiry,
        network_backend=GuardedBackend(Guard(policy, pins)),
    )
    return transport
