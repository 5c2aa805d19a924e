"""Internal addresses are not fetched unless the user named the host (FE014).

Two real local servers stand for a site and an internal service: ``site`` on 127.0.0.1
(the URL the user gives) and ``internal`` on 127.0.0.2 (on Linux the whole of
127.0.0.0/8 is loopback), whose request log must stay empty whenever the guard refuses.
No test reaches any other address.
"""

from __future__ import annotations

import pickle
import shutil
import socket
import ssl
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from ipaddress import IPv4Address, ip_address
from pathlib import Path
from typing import Any

import pytest

import sitemap_lint
from sitemap_lint.inputs.fetch import Fetcher, FetchSettings
from sitemap_lint.inputs.guard import (
    Guard,
    HostPolicy,
    Pins,
    RefusedAddress,
    address_kind,
    canonical_host,
    parse_ipv4,
    url_origin,
)
from sitemap_lint.sets.runner import FileTask
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, NetworkUsed, run_json
from tests.site_server import PROXY_VARIABLES, Route, SiteServer, redirect

SECRET = b"SECRET-TOKEN-5f1c\n"
LOCAL_ADDRESSES = frozenset({"127.0.0.1", "127.0.0.2", "::1"})


def urlset(origin: str = "https://example.com") -> bytes:
    """A clean sitemap of one page of ``origin`` (served there, it is in scope)."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"  <url><loc>{origin}/page-{len(origin)}</loc></url>\n"
        "</urlset>\n"
    ).encode()


URLSET = urlset()


def index(*children: str) -> bytes:
    entries = "".join(f"  <sitemap><loc>{child}</loc></sitemap>\n" for child in children)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{entries}</sitemapindex>\n"
    ).encode()


def findings(report: dict[str, Any]) -> dict[str, list[str]]:
    return {entry["path"]: [f["code"] for f in entry["findings"]] for entry in report["files"]}


def messages(report: dict[str, Any]) -> str:
    return "\n".join(f["message"] for entry in report["files"] for f in entry["findings"])


@pytest.fixture
def local_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections and lookups of this process stay on 127.0.0.1, 127.0.0.2 and ::1
    (anything else raises NetworkUsed); no proxy from the environment."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    connect, lookup = socket.socket.connect, socket.getaddrinfo

    def checked_connect(self: socket.socket, address: Any) -> None:
        if self.family != socket.AF_UNIX and address[0] not in LOCAL_ADDRESSES:
            raise NetworkUsed(f"connection outside the loopback servers: {address!r}")
        connect(self, address)

    def checked_lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in {*LOCAL_ADDRESSES, "localhost"}:
            raise NetworkUsed(f"lookup outside the loopback servers: {host!r}")
        return lookup(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", checked_connect)
    monkeypatch.setattr(socket, "getaddrinfo", checked_lookup)


@pytest.fixture
def site(local_only: None) -> Iterator[SiteServer]:
    with SiteServer() as server:
        yield server


@pytest.fixture
def internal(local_only: None) -> Iterator[SiteServer]:
    with SiteServer("127.0.0.2") as server:
        server.routes["/secret.xml"] = Route(body=SECRET, content_type="text/plain")
        yield server


# -- addresses ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.2", "loopback"),
        ("::1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.31.0.1", "private"),
        ("192.168.1.1", "private"),
        ("169.254.0.1", "link-local"),
        ("fe80::1", "link-local"),
        ("100.64.0.1", "carrier-grade NAT"),
        ("fd12:3456::1", "unique-local"),
        ("224.0.0.251", "multicast"),
        ("ff02::1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("240.0.0.1", "reserved"),
        ("192.0.2.10", "reserved"),  # documentation
        ("192.0.0.8", "reserved"),  # an IETF protocol assignment (global for Python 3.11.7)
        ("192.0.0.9", "reserved"),
        ("192.88.99.1", "reserved"),  # the retired 6to4 relay anycast
        ("::ffff:192.0.0.8", "reserved"),
        ("2001:db8::1", "reserved"),
        ("fec0::1", "site-local"),
        ("::ffff:127.0.0.2", "loopback"),  # IPv4-mapped
        ("::ffff:10.0.0.1", "private"),
        ("64:ff9b::a00:1", "private"),  # NAT64 of 10.0.0.1
        ("2002:a00:1::", "private"),  # 6to4 of 10.0.0.1
        ("93.184.215.14", None),
        ("2606:4700::1111", None),
        ("::ffff:93.184.215.14", None),
        ("2002:5db8:d70e::", None),  # 6to4 of a public address
    ],
)
def test_address_kinds(address: str, kind: str | None) -> None:
    assert address_kind(ip_address(address)) == kind


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("2130706434", "127.0.0.2"),
        ("0x7f.1", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("0177.0.0.2", "127.0.0.2"),
        ("127.1", "127.0.0.1"),
        ("0x7f000002", "127.0.0.2"),
        ("10.1.258", "10.1.1.2"),
        ("127.0.0.2.", "127.0.0.2"),
        ("0", "0.0.0.0"),
    ],
)
def test_url_hosts_read_as_ipv4_like_the_resolver(host: str, address: str) -> None:
    assert parse_ipv4(host) == IPv4Address(address)
    assert socket.inet_aton(host.rstrip(".")) == IPv4Address(address).packed  # the platform's


@pytest.mark.parametrize(
    "host", ["example.com", "1.2.3.4.5", "256.0.0.1", "08.1.1.1", "1.2.3.x", "", "0x1g"]
)
def test_hosts_that_are_not_ipv4(host: str) -> None:
    assert parse_ipv4(host) is None


def test_named_hosts_are_compared_as_the_client_connects() -> None:
    assert url_origin("http://LOCALHOST:8000/sitemap.xml") == ("localhost", 8000)
    assert url_origin("https://Example.com/") == ("example.com", 443)
    assert url_origin("http://2130706433/") == ("127.0.0.1", 80)
    assert url_origin("http://[::ffff:127.0.0.1]:81/") == ("127.0.0.1", 81)
    assert url_origin("ftp://example.com/") is None
    assert url_origin("http://[::1/") is None
    policy = HostPolicy.naming(["http://localhost:8000/sitemap.xml", "not a url"])
    assert policy.names("localhost", 8000) and policy.names("LOCALHOST.", 8000)
    assert not policy.names("localhost", 6379)
    assert canonical_host("[::FFFF:7F00:2]") == "127.0.0.2"


def test_a_host_resolving_to_a_named_address_and_port_is_allowed(local_only: None) -> None:
    guard = Guard(HostPolicy.naming(["http://127.0.0.1:8000/"]))
    assert guard.connectable("localhost", 8000) == ["127.0.0.1"]
    assert guard.connectable("2130706433", 8000) == ["127.0.0.1"]
    with pytest.raises(RefusedAddress) as refused:
        guard.connectable("localhost", 6379)  # another service on the same machine
    assert (refused.value.kind, str(refused.value.address)) == ("loopback", "127.0.0.1")
    assert Guard(HostPolicy(allow_private=True)).connectable("127.0.0.2", 1) == ["127.0.0.2"]


def test_only_the_checked_addresses_of_a_mixed_answer_are_connected_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answer = [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", 80)),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 80)),
    ]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: answer)
    assert Guard(HostPolicy()).connectable("mixed.example", 80) == ["93.184.215.14"]
    answer.pop()
    with pytest.raises(RefusedAddress):
        Guard(HostPolicy()).connectable("mixed.example", 80)


def _answers(*addresses: str, port: int = 80) -> list[Any]:
    return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)) for address in addresses]


def test_a_named_host_is_pinned_to_the_addresses_of_its_first_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hostile DNS for the named name: later answers that differ are checked as any
    host's (an internal one refused, a public one allowed)."""
    answers = [
        _answers("127.0.0.1"),
        _answers("169.254.169.254"),
        _answers("169.254.169.254", "127.0.0.1"),
        _answers("93.184.215.14"),
    ]
    looked: list[str] = []

    def lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
        looked.append(host)
        return answers[len(looked) - 1]

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    guard = Guard(HostPolicy.naming(["http://site.example:8000/"]))
    assert guard.connectable("site.example", 8000) == ["127.0.0.1"]
    with pytest.raises(RefusedAddress) as refused:
        guard.connectable("Site.Example.", 8000)
    assert (refused.value.kind, str(refused.value.address)) == ("link-local", "169.254.169.254")
    assert guard.connectable("site.example", 8000) == ["127.0.0.1"]
    assert guard.connectable("site.example", 8000) == ["93.184.215.14"]
    assert looked == ["site.example", "Site.Example.", "site.example", "site.example"]


def test_the_address_a_named_host_resolves_to_is_not_trusted_for_another_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: _answers("169.254.169.254"))
    guard = Guard(HostPolicy.naming(["http://site.example/"]))
    assert guard.connectable("site.example", 80) == ["169.254.169.254"]  # the user's choice
    for host in ("169.254.169.254", "other.example"):
        with pytest.raises(RefusedAddress) as refused:
            guard.connectable(host, 80)
        assert refused.value.kind == "link-local"
        with pytest.raises(RefusedAddress):
            guard.check(host, 80, ip_address("169.254.169.254"))


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://0.0.0.0:8000/sitemap.xml", "its host is 0.0.0.0, an unspecified address"),
        ("http://[::]:8000/sitemap.xml", "its host is ::, an unspecified address"),
        ("http://0:8000/sitemap.xml", "is the address 0.0.0.0, an unspecified address"),
        ("http://127.0.0.2:8000/sitemap.xml", "its host is 127.0.0.2, a loopback address"),
        # an IPv6 address judged by the IPv4 address it carries says which
        (
            "http://[64:ff9b::a9fe:a9fe]:8000/sitemap.xml",
            "its host is 64:ff9b::a9fe:a9fe, a link-local address (NAT64 for 169.254.169.254),",
        ),
        (
            "http://[2002:7f00:2::1]:8000/sitemap.xml",
            "its host is 2002:7f00:2::1, a loopback address (6to4 for 127.0.0.2),",
        ),
    ],
)
def test_the_refusal_names_the_kind_of_address_with_its_article(
    local_only: None, url: str, says: str
) -> None:
    with Fetcher(FetchSettings(timeout=2.0)) as fetcher:
        (refused,) = fetcher.get(url).findings
    assert refused.code == "FE014"
    assert says in refused.message


def test_a_body_that_is_not_a_sitemap_is_named_not_quoted() -> None:
    from sitemap_lint.rules.input import not_xml

    text = "Notice: token SECRET-TOKEN-5f1c\n<urlset>"
    assert "SECRET" in not_xml(text).message  # a file or URL the user gave: quoted
    for start in (text, "SECRET-TOKEN-5f1c", '{"token": "SECRET-TOKEN-5f1c"}'):
        message = not_xml(start, unquoted_size=1234).message
        assert "SECRET" not in message and "not quoted" in message
    assert "it looks like text (1,234 bytes, not quoted" in not_xml("SECRET", 1234).message


# -- one fetch -----------------------------------------------------------------------------


@pytest.mark.slow
def test_the_host_is_resolved_once_and_the_connection_goes_to_the_checked_address(
    site: SiteServer, internal: SiteServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DNS rebinding: the name answers the named server's address first and the internal
    one after; the request still reaches the address checked, with the name as Host."""
    site.routes["/sitemap.xml"] = Route(body=URLSET)
    lookup = socket.getaddrinfo
    answers: list[str] = []

    def rebinding(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "rebind.example":
            return lookup(host, port, *args, **kwargs)
        answers.append("127.0.0.1" if not answers else "127.0.0.2")
        return lookup(answers[-1], port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    policy = HostPolicy.naming([site.url()])
    with Fetcher(FetchSettings(timeout=5.0, hosts=policy)) as fetcher:
        fetched = fetcher.get(f"http://rebind.example:{site.port}/sitemap.xml")
    assert (fetched.status, fetched.body, fetched.findings) == (200, URLSET, ())
    assert answers == ["127.0.0.1"]
    assert [entry.headers["Host"] for entry in site.log] == [f"rebind.example:{site.port}"]
    assert internal.log == []


def test_an_unresolvable_host_is_still_reported_as_such(
    local_only: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_such_host(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    with Fetcher(FetchSettings(timeout=2.0)) as fetcher:
        fetched = fetcher.get("https://sitemap.invalid/sitemap.xml")
    (finding,) = fetched.findings
    assert finding.code == "FE003"
    assert "sitemap.invalid does not resolve" in finding.message


@pytest.mark.slow
def test_a_guarded_fetch_uses_no_proxy(site: SiteServer, monkeypatch: pytest.MonkeyPatch) -> None:
    site.routes["/sitemap.xml"] = Route(body=URLSET)
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{unused.getsockname()[1]}")
        with Fetcher(FetchSettings(timeout=5.0, hosts=HostPolicy.naming([site.url()]))) as f:
            fetched = f.get(site.url("/sitemap.xml"))
    assert (fetched.status, fetched.findings) == (200, ())
    assert site.paths == ["/sitemap.xml"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("route", "code", "said"),
    [
        (Route(status=403, reason="SECRET-TOKEN-5f1c"), "FE001", "answers 403 Forbidden;"),
        (Route(status=599, reason="SECRET-TOKEN-5f1c"), "FE002", "answers 599;"),
        (Route(raw=SECRET + b"\r\n"), "FE003", "the response is broken (illegal status line)"),
        (
            Route(raw=b"HTTP/1.1 200 OK\r\n" + SECRET + b"\r\n"),
            "FE003",
            "the response is broken (illegal header line)",
        ),
    ],
)
def test_a_failed_fetch_repeats_nothing_the_server_sent(
    site: SiteServer, route: Route, code: str, said: str
) -> None:
    site.routes["/sitemap.xml"] = route
    with Fetcher(FetchSettings(timeout=5.0, hosts=HostPolicy.naming([site.url()]))) as fetcher:
        (finding,) = fetcher.get(site.url("/sitemap.xml")).findings
    assert finding.code == code and said in finding.message
    assert "SECRET" not in finding.message


# -- TLS: the connection goes to the checked address, TLS still names the host --------------


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A certificate authority and a certificate for ``localhost`` it signed: (CA, cert, key)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("the openssl command is not installed")
    folder = tmp_path_factory.mktemp("tls")

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], cwd=folder, check=True, capture_output=True)

    curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes")
    run("req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=sitemap-lint test CA",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")  # fmt: skip
    run("req", *curve, "-keyout", "host.key", "-out", "host.csr", "-subj", "/CN=localhost")
    (folder / "host.ext").write_text(
        "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n"
        "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
        "authorityKeyIdentifier=keyid\nsubjectKeyIdentifier=hash\n"
    )
    run("x509", "-req", "-in", "host.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "host.pem", "-days", "2", "-extfile", "host.ext")  # fmt: skip
    return folder / "ca.pem", folder / "host.pem", folder / "host.key"


class _TLSHandler(BaseHTTPRequestHandler):
    server: _TLSServer

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.server.hosts.append(self.headers.get("Host", ""))
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(URLSET)))
        self.end_headers()
        self.wfile.write(URLSET)


class _TLSServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, certificate: Path, key: Path) -> None:
        super().__init__(("127.0.0.1", 0), _TLSHandler)
        self.hosts: list[str] = []
        self.server_names: list[str | None] = []
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(certificate, key)
        self.context.sni_callback = self._named

    def _named(self, connection: Any, name: str | None, context: Any) -> None:
        self.server_names.append(name)

    def get_request(self) -> tuple[socket.socket, Any]:
        connection, address = super().get_request()
        return self.context.wrap_socket(connection, server_side=True), address

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a refused handshake is part of a test


@pytest.fixture
def tls_site(
    certificates: tuple[Path, Path, Path], local_only: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[_TLSServer]:
    authority, certificate, key = certificates
    monkeypatch.setenv("SSL_CERT_FILE", str(authority))  # trusted by the fetch's TLS context
    server = _TLSServer(certificate, key)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02})
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.mark.slow
def test_tls_names_and_verifies_the_host_while_connecting_to_its_checked_address(
    tls_site: _TLSServer,
) -> None:
    port = tls_site.server_address[1]
    url = f"https://localhost:{port}/sitemap.xml"
    with Fetcher(FetchSettings(timeout=5.0, hosts=HostPolicy.naming([url]))) as fetcher:
        fetched = fetcher.get(url)
        by_address = fetcher.get(f"https://127.0.0.1:{port}/sitemap.xml")
    assert (fetched.status, fetched.body, fetched.findings) == (200, URLSET, ())
    assert tls_site.server_names[0] == "localhost"
    assert tls_site.hosts == [f"localhost:{port}"]
    # The same server by the address localhost resolved to: the name is trusted, not
    # its address (which the certificate does not name either).
    (finding,) = by_address.findings
    assert finding.code == "FE014" and "127.0.0.1, a loopback address" in finding.message


# -- runs: command line, configuration, API --------------------------------------------------


@pytest.mark.slow
def test_the_installed_command_refuses_an_internal_child_and_prints_nothing_of_it(
    site: SiteServer, internal: SiteServer
) -> None:
    site.routes["/idx.xml"] = Route(body=index(internal.url("/secret.xml")))
    command = shutil.which("sitemap-lint", path=str(Path(sys.executable).parent))
    assert command is not None
    done = subprocess.run(
        [command, "--format", "concise", "--now", "2025-06-01", site.url("/idx.xml")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    child = internal.url("/secret.xml")
    assert f"{child}:1:1: FE014 {child} was not fetched: its host is 127.0.0.2, a loopback" in (
        done.stdout
    )
    assert "SECRET" not in done.stdout + done.stderr
    assert internal.log == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "host", ["127.0.0.2", "2130706434", "0x7f.0.0.2", "017700000002", "[::ffff:127.0.0.2]"]
)
def test_every_form_of_the_internal_address_is_refused(
    site: SiteServer, internal: SiteServer, host: str
) -> None:
    child = f"http://{host}:{internal.port}/secret.xml"
    site.routes["/idx.xml"] = Route(body=index(child))
    status, report = run_json([site.url("/idx.xml")])
    assert status == 1
    assert findings(report) == {site.url("/idx.xml"): ["SC001"], child: ["FE014"]}
    assert "127.0.0.2, a loopback address" in messages(report)
    assert internal.log == []


@pytest.mark.slow
def test_a_redirect_from_the_named_host_to_the_internal_one_is_refused(
    site: SiteServer, internal: SiteServer
) -> None:
    site.routes["/idx.xml"] = redirect(internal.url("/secret.xml"), 302)
    status, report = run_json([site.url("/idx.xml")])
    assert status == 1
    assert findings(report) == {site.url("/idx.xml"): ["FE014"]}
    assert f"redirects to {internal.url('/secret.xml')}, which was not fetched" in messages(report)
    assert site.paths == ["/idx.xml"] and internal.log == []


@pytest.mark.slow
def test_a_child_or_a_redirect_on_a_bad_port_is_not_fetched(site: SiteServer) -> None:
    # the Fetch standard's bad ports: no request, whatever the address (even with
    # --allow-private-hosts, which allows addresses, not ports)
    site.routes["/idx.xml"] = Route(body=index("http://127.0.0.1:25/mail.xml", site.url("/to-x11")))
    site.routes["/to-x11"] = redirect("http://127.0.0.1:6000/x.xml", 302)
    status, report = run_json([site.url("/idx.xml")], allow_private_hosts=True)
    assert status == 1
    codes = findings(report)
    assert codes["http://127.0.0.1:25/mail.xml"] == ["FE003"]
    assert codes[site.url("/to-x11")] == ["FE003"]
    text = messages(report)
    assert (
        "http://127.0.0.1:25/mail.xml was not fetched: port 25 (smtp) is one of the ports"
        " browsers send no request to (the Fetch standard's bad ports)" in text
    )
    assert f"{site.url('/to-x11')} redirects to http://127.0.0.1:6000/x.xml, which was not" in text
    assert sorted(site.paths) == ["/idx.xml", "/to-x11"]


def test_a_bad_port_the_user_names_is_fetched(local_only: None) -> None:
    policy = HostPolicy.naming(["http://127.0.0.1:6000/sitemap.xml"])
    assert policy.refuses_port("127.0.0.1", 25) and policy.refuses_port("localhost", 6000)
    assert not policy.refuses_port("127.0.0.1", 6000) and not policy.refuses_port("a.example", 80)
    with Fetcher(FetchSettings(timeout=2.0, hosts=policy)) as fetcher:
        (named,) = fetcher.get("http://127.0.0.1:6000/sitemap.xml").findings
        (other,) = fetcher.get("http://127.0.0.1:6001/sitemap.xml").findings
        (refused,) = fetcher.get("http://localhost:6000/sitemap.xml").findings
    assert "bad ports" not in named.message  # requested (nothing listens there)
    assert "bad ports" not in other.message
    assert "bad ports" in refused.message


@pytest.mark.slow
def test_allow_private_hosts_fetches_it_without_quoting_what_it_answers(
    site: SiteServer, internal: SiteServer
) -> None:
    site.routes["/idx.xml"] = Route(body=index(internal.url("/secret.xml")))
    status, report = run_json([site.url("/idx.xml")], allow_private_hosts=True)
    assert status == 1
    assert findings(report)[internal.url("/secret.xml")] == ["IN006"]
    assert f"it looks like text ({len(SECRET)} bytes, not quoted" in messages(report)
    assert "SECRET" not in messages(report)
    assert internal.paths == ["/secret.xml"]


@pytest.mark.slow
def test_the_named_url_works_as_before_and_its_own_body_is_quoted(
    site: SiteServer, internal: SiteServer
) -> None:
    """localhost named: its children on localhost are fetched, not one on 127.0.0.1 (the
    address it resolves to: the name is trusted, not its address); the given URL's own
    text is quoted as ever."""
    base = f"http://localhost:{site.port}"
    site.routes["/idx.xml"] = Route(body=index(f"{base}/a.xml", f"{site.url('/b.xml')}"))
    site.routes["/a.xml"] = Route(body=urlset(base))
    site.routes["/b.xml"] = Route(body=urlset(site.url("")))
    site.routes["/down.xml"] = Route(body=b"Down for maintenance\n", content_type="text/plain")
    status, report = run_json([f"{base}/idx.xml"])
    assert status == 1  # SC001: b.xml is on 127.0.0.1, another host name
    assert findings(report) == {
        f"{base}/idx.xml": ["SC001"],
        f"{base}/a.xml": [],
        site.url("/b.xml"): ["FE014"],
    }
    assert sorted(site.paths) == ["/a.xml", "/idx.xml"]
    _status, report = run_json([f"{base}/down.xml"])
    assert "it looks like text starting 'Down for maintenance'" in messages(report)
    assert internal.log == []


@pytest.mark.slow
def test_a_robots_url_names_its_host(site: SiteServer, internal: SiteServer) -> None:
    internal.routes["/robots.txt"] = Route(body=b"User-agent: *\n", content_type="text/plain")
    internal.routes["/child.xml"] = Route(body=urlset(internal.url("")))
    site.routes["/idx.xml"] = Route(body=index(internal.url("/child.xml")))
    status, report = run_json([site.url("/idx.xml")], robots=(internal.url("/robots.txt"),))
    assert findings(report)[internal.url("/child.xml")] == []
    assert internal.paths == ["/robots.txt", "/child.xml"]
    assert status == 1  # SC001 only


@pytest.mark.slow
def test_the_configuration_key_and_the_api_keyword(
    site: SiteServer, internal: SiteServer, tmp_path: Path
) -> None:
    site.routes["/idx.xml"] = Route(body=index(internal.url("/child.xml")))
    internal.routes["/child.xml"] = Route(body=urlset(internal.url("")))
    url = site.url("/idx.xml")

    def child_codes(result: sitemap_lint.LintResult) -> list[str]:
        (child,) = [file for file in result.files if file.path == internal.url("/child.xml")]
        return [finding.code for finding in child.findings]

    assert child_codes(sitemap_lint.lint_paths([url], isolated=True, now=NOW)) == ["FE014"]
    assert internal.log == []
    result = sitemap_lint.lint_paths([url], isolated=True, now=NOW, allow_private_hosts=True)
    assert child_codes(result) == []
    config = tmp_path / ".sitemap-lint.toml"
    config.write_text("allow-private-hosts = true\n")
    assert child_codes(sitemap_lint.lint_paths([url], config=config, now=NOW)) == []
    assert internal.paths == ["/child.xml", "/child.xml"]


# -- the allowance travels with the task (the fetch of a cluster worker) ----------------------


def _task(url: str, hosts: HostPolicy) -> FileTask:
    return FileTask(url, None, url, True, None, Options(now=NOW), False, True, hosts)


@pytest.mark.slow
def test_a_worker_fetches_with_the_policy_its_task_carries(
    site: SiteServer, internal: SiteServer
) -> None:
    from sitemap_lint.sets.cluster import check_on_worker

    internal.routes["/child.xml"] = Route(body=urlset(internal.url("")))
    child = internal.url("/child.xml")
    named = HostPolicy.naming([site.url()])
    allowed = HostPolicy.naming([site.url()], allow_private=True)
    check: Callable[[FileTask], Any] = lambda task: check_on_worker(task, "libxml2", 5.0)  # noqa: E731
    refused = check(pickle.loads(pickle.dumps(_task(child, named))))  # as Dask ships it
    assert [f.code for f in refused.result.findings] == ["FE014"]
    assert internal.log == []
    fetched = check(pickle.loads(pickle.dumps(_task(child, allowed))))
    # (The page is on the internal host: UR019, which the run's selection leaves out
    # under --allow-private-hosts; a task's own options select every rule.)
    assert [f.code for f in fetched.result.findings] == ["UR019"]
    assert internal.paths == ["/child.xml"]


@pytest.mark.slow
def test_on_a_dask_cluster_the_workers_refuse_and_allow_alike(
    site: SiteServer, internal: SiteServer, tmp_path: Path
) -> None:
    from tests.test_cluster import Cluster, lint

    internal.routes["/child.xml"] = Route(body=urlset(internal.url("")))
    site.routes["/idx.xml"] = Route(body=index(internal.url("/child.xml")))
    cluster = Cluster(tmp_path / "cluster", workers=1).start()
    try:
        scheduler = ["--scheduler", cluster.address, site.url("/idx.xml")]
        status, out, err = lint(scheduler, tmp_path)
        assert (status, err) == (1, "")
        assert b'"code": "FE014"' in out and internal.log == []
        status, out, err = lint(["--allow-private-hosts", *scheduler], tmp_path)
        assert (status, err) == (1, "")  # SC001: the child is on another host
        assert b"FE014" not in out and internal.paths == ["/child.xml"]
    finally:
        cluster.stop()


# -- one pin table a run --------------------------------------------------------------------


def test_the_guards_of_a_run_share_its_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first lookup of the run pins the name, whichever guard makes it: a hostile DNS
    gets no second "first lookup" from the run's other guard."""
    answers = [_answers("127.0.0.1"), _answers("169.254.169.254")]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: answers.pop(0))
    policy = HostPolicy.naming(["http://site.example/"])
    pins = Pins()
    assert Guard(policy, pins).connectable("site.example", 80) == ["127.0.0.1"]
    with pytest.raises(RefusedAddress):
        Guard(policy, pins).connectable("site.example", 80)


def test_a_run_s_pins_travel_as_its_tasks_carry_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pickled as a cluster's tasks carry it: the names pinned so far and the run; a
    worker's fetcher is the run's, never another run's."""
    from sitemap_lint.sets import cluster

    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: _answers("10.0.0.5"))
    pins = Pins()
    pins.resolve(HostPolicy.naming(["http://site.example/"]))
    copy = pickle.loads(pickle.dumps(pins))
    assert copy.run == pins.run
    assert copy.pin("site.example", ["127.0.0.1"]) == {ip_address("10.0.0.5")}
    monkeypatch.setattr(cluster, "_fetchers", {})
    hosts = HostPolicy.naming(["http://site.example/"])
    first = cluster._fetcher(5.0, hosts, copy)
    assert cluster._fetcher(5.0, hosts, pickle.loads(pickle.dumps(pins))) is first
    later = cluster._fetcher(5.0, hosts, Pins())
    assert later is not first and later.settings.pins is not copy


@pytest.mark.slow
def test_the_fetcher_and_the_live_client_of_a_run_share_its_pins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The named host's first lookup (the fetch of the sitemap) pins it for the live
    audit too: a later answer of its DNS (another loopback address) is refused."""
    from tests.live_server import LiveServer

    lookup = socket.getaddrinfo
    looked: list[str] = []

    def hostile(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "site.example":
            return lookup(host, port, *args, **kwargs)
        looked.append(host)
        return _answers("127.0.0.1" if len(looked) == 1 else "127.0.0.2", port=int(port))

    with LiveServer() as server:
        port = server.origin.rsplit(":", 1)[1]
        page = f"http://site.example:{port}/pages/plain"
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"  <url><loc>{page}</loc></url>\n</urlset>\n"
        )
        server.route("/sitemap.xml", body=body, content_type="application/xml")
        monkeypatch.setattr(socket, "getaddrinfo", hostile)
        result = sitemap_lint.lint_paths(
            [f"http://site.example:{port}/sitemap.xml"],
            now=NOW,
            isolated=True,
            live=True,
            no_live_cache=True,
            live_timeout=10.0,
        )
        monkeypatch.undo()
        reached = [entry.path for entry in server.log()]
    assert len(looked) >= 2  # the fetcher's lookup, then the live client's
    assert "/pages/plain" not in reached
    assert [f.code for f in result.findings if f.code.startswith("LV")] == ["LV014"]


# -- a cluster run pins every host it names before its tasks go out -------------------------

SCHEDULER = "tcp://127.0.0.1:9"  # never reached: the run's executor is a ShippedCluster


class ShippedCluster:
    """``sets.Executor`` as a Dask cluster of ``workers`` runs it, in this process: each
    task pickled as Dask ships it and run on the copy by the workers' own function, the
    tasks of a level dealt to the workers in turn, each worker with fetchers of its own
    (``cluster._fetchers``: they keep the copy of the run's pins its first fetch
    carried); the live audit's groups shipped the same way, one a task. ``carried``:
    the names pinned in the copy of the table each fetching task carried."""

    elsewhere = True

    def __init__(self, workers: int = 2) -> None:
        self.fetchers: list[dict[Any, Any]] = [{} for _ in range(workers)]
        self.carried: list[dict[str, frozenset[Any]]] = []

    def check(self, tasks: Sequence[FileTask]) -> Iterator[Any]:
        from sitemap_lint.sets import cluster

        for number, task in enumerate(tasks):
            copy = shipped(task)
            if copy.fetch and copy.pins is not None:
                self.carried.append(copy.pins.__getstate__()["pinned"])
            kept = cluster._fetchers
            cluster._fetchers = self.fetchers[number % len(self.fetchers)]
            try:
                checked = cluster.check_on_worker(copy, "libxml2", 5.0)
            finally:
                cluster._fetchers = kept
            checked.handle = checked.result.facts
            yield checked

    def duplicates(self, handles: Sequence[Any], urls: int) -> list[Any]:
        from sitemap_lint.sets.runner import find_duplicates

        return find_duplicates(handles)

    def hreflang(self, files: Sequence[tuple[str, Any, Any]], records: int) -> list[Any]:
        from sitemap_lint.rules.sets import hreflang_findings

        return hreflang_findings([(name, facts) for name, facts, _pointer in files])

    def workers_for_live(self) -> int:
        return len(self.fetchers)

    def live(
        self, function: Callable[..., Any], groups: Sequence[Any], settings: Any, cached: Any
    ) -> list[Any]:
        return [
            function(*shipped((group, settings, answers)))
            for group, answers in zip(groups, cached, strict=True)
        ]

    def close(self) -> None:
        return None


def shipped(value: Any) -> Any:
    """``value`` as a task's argument reaches a worker: a pickled copy."""
    return pickle.loads(pickle.dumps(value))


def on_shipped_cluster(monkeypatch: pytest.MonkeyPatch) -> ShippedCluster:
    """The cluster a run with ``--scheduler`` connects to."""
    from sitemap_lint.sets import cluster

    workers = ShippedCluster()
    monkeypatch.setattr(cluster, "connect", lambda *args, **kwargs: workers)
    return workers


def rebinding(monkeypatch: pytest.MonkeyPatch, host: str) -> list[str]:
    """``host`` resolves to 127.0.0.1 at its first lookup and to 127.0.0.2 at every later
    one: a DNS that gives each machine of a cluster that looks it up first an internal
    address of its own. The lookups of ``host`` are listed as they are made."""
    lookup = socket.getaddrinfo
    looked: list[str] = []

    def hostile(name: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if name != host:
            return lookup(name, port, *args, **kwargs)
        looked.append(name)
        return _answers("127.0.0.1" if len(looked) == 1 else "127.0.0.2", port=int(port))

    monkeypatch.setattr(socket, "getaddrinfo", hostile)
    return looked


@pytest.mark.slow
@pytest.mark.parametrize("setting", ["sitemap_url", "maps"])
def test_a_cluster_run_pins_a_host_that_only_a_setting_names(
    setting: str, local_only: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The host of --sitemap-url, or of a --map prefix (its URLs outside the prefix are
    fetched), is trusted by its name: it is looked up once on the run's machine before
    the first task that fetches goes out, and every worker's copy of the table holds
    that lookup's address. Each worker's own lookup answers an internal address, refused
    (FE014) on both workers; unpinned, the second worker trusted its own first answer
    and fetched from there."""
    with SiteServer() as site, SiteServer("127.0.0.2", port=site.port) as internal:
        origin = f"http://served.example:{site.port}"
        children = [f"{origin}/a.xml", f"{origin}/b.xml"]
        for path in ("/a.xml", "/b.xml"):
            site.routes[path] = Route(body=urlset(origin))
            internal.routes[path] = Route(body=SECRET, content_type="text/plain")
        directory = tmp_path / "site"
        directory.mkdir()
        (directory / "index.xml").write_bytes(index(*children))
        named: dict[str, Any] = (
            {"sitemap_url": f"{origin}/index.xml"}
            if setting == "sitemap_url"
            else {"maps": (f"{origin}/local/={directory}",)}
        )
        workers = on_shipped_cluster(monkeypatch)
        looked = rebinding(monkeypatch, "served.example")
        _status, report = run_json(
            [str(directory / "index.xml")], follow=True, scheduler=SCHEDULER, **named
        )
    assert [findings(report)[child] for child in children] == [["FE014"], ["FE014"]]
    assert "served.example resolves to 127.0.0.2, a loopback address" in messages(report)
    assert internal.log == [] and site.log == []
    pinned = {"served.example": frozenset({IPv4Address("127.0.0.1")})}
    assert workers.carried == [pinned, pinned]
    assert len(looked) >= 3  # here first, then on each worker


@pytest.mark.slow
def test_a_cluster_s_live_audit_pins_the_hosts_live_connect_to_sends_requests_to(
    local_only: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A --live-connect-to target is trusted by its name: it is looked up once on the
    run's machine before the audit's tasks go out (one a listed host: a.example's and
    b.example's, both sent to the target). Each task's own lookup answers an internal
    address, refused (LV014) in both; unpinned, the second task trusted its own first
    answer and requested the page there."""
    with SiteServer() as site, SiteServer("127.0.0.2", port=site.port) as internal:
        for server in (site, internal):
            server.routes["/page"] = Route(body=b"<html><head></head></html>", content_type=None)
            server.routes["/robots.txt"] = Route(body=b"User-agent: *\n", content_type=None)
        pages = ["http://a.example/page", "http://b.example/page"]
        sitemap = tmp_path / "sitemap.xml"
        sitemap.write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + "".join(f"  <url><loc>{page}</loc></url>\n" for page in pages)
            + "</urlset>\n",
            encoding="utf-8",
        )
        target = f"staging.example:{site.port}"
        on_shipped_cluster(monkeypatch)
        looked = rebinding(monkeypatch, "staging.example")
        _status, report = run_json(
            [str(sitemap)],
            scheduler=SCHEDULER,
            live=True,
            no_live_cache=True,
            live_timeout=5.0,
            live_connect_to=(f"a.example:80:{target}", f"b.example:80:{target}"),
        )
    (file,) = report["files"]
    assert [f["code"] for f in file["findings"] if f["code"].startswith("LV")] == [
        "LV014",
        "LV014",
    ]
    assert internal.log == [] and site.log == []
    assert len(looked) >= 3  # here first, then in each task


def test_a_cluster_run_that_fetches_nothing_looks_no_host_up(
    local_only: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A --map prefix names its host, but a run whose files are all read from disk
    connects nowhere: no lookup is made to pin it (``local_only`` raises on one)."""
    directory = tmp_path / "site"
    directory.mkdir()
    (directory / "index.xml").write_bytes(index("https://mapped.example/a.xml"))
    (directory / "a.xml").write_bytes(urlset("https://mapped.example"))
    workers = on_shipped_cluster(monkeypatch)
    status, report = run_json(
        [str(directory / "index.xml")],
        maps=(f"https://mapped.example/={directory}",),
        scheduler=SCHEDULER,
    )
    assert status == 0 and all(codes == [] for codes in findings(report).values())
    assert len(findings(report)) == 2 and workers.carried == []


def test_pins_look_nothing_up_when_every_address_is_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With --allow-private-hosts a guard pins nothing, so a run pins nothing ahead."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NetworkUsed(f"lookup of {args[0]!r}")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    pins = Pins()
    pins.resolve(HostPolicy.naming(["http://site.example/"], allow_private=True))
    assert pins.__getstate__()["pinned"] == {}
    with pytest.raises(NetworkUsed):
        pins.resolve(HostPolicy.naming(["http://site.example/"]))


def test_a_name_with_a_label_over_63_characters_does_not_resolve() -> None:
    from sitemap_lint.inputs.guard import Guard, HostPolicy, Pins

    host = "a" * 70 + ".example.com"
    pins = Pins()
    # Left to the first guard, as a name that does not resolve:
    pins.resolve(HostPolicy(named=frozenset({(host, 443)})))
    guard = Guard(HostPolicy.naming([f"https://{host}/s.xml"]), pins)
    with pytest.raises(OSError, match="not a host name"):
        guard.connectable(host, 443)
