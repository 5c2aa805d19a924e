"""The live audit's client against a real server process (tests/live_server.py)."""

from __future__ import annotations

import asyncio
import resource
import socket
import time
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime
from email.utils import formatdate
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint._version import __version__
from sitemap_lint.inputs.guard import Guard, HostPolicy, RefusedAddress
from sitemap_lint.live.client import (
    Client,
    ClientSettings,
    GuardedResolver,
    Response,
    freshness,
    retry_after,
)
from sitemap_lint.live.model import (
    CHILD,
    CONNECT,
    IMAGE,
    INVALID_URL,
    PAGE,
    PROTOCOL,
    REFUSED,
    SCHEME,
    STALLED,
    TIMEOUT,
    TOO_LARGE,
    VIDEO_CONTENT,
    Answer,
    Target,
)
from sitemap_lint.live.robots import Robots, origin, read_rules
from sitemap_lint.rules.live import judge
from tests.live_server import HTML, LiveServer, live_server  # noqa: F401
from tests.site_server import unused_url

pytestmark = pytest.mark.slow


def settings(server: LiveServer, **changes: object) -> ClientSettings:
    values: dict[str, object] = {"named_hosts": (server.url(),), "timeout": 5.0, "backoff": 0.05}
    values.update(changes)
    return ClientSettings(**values)  # type: ignore[arg-type]


async def _fetch(server: LiveServer, path: str, kind: str, **changes: object) -> Answer:
    async with Client(settings(server, **changes), robots=False) as client:
        return await client.fetch(server.url(path), kind)


def fetch(server: LiveServer, path: str, kind: str = PAGE, **changes: object) -> Answer:
    return asyncio.run(_fetch(server, path, kind, **changes))


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:  # noqa: F811
    live_server.reset()
    return live_server


@pytest.mark.parametrize("status", [200, 404, 410, 500, 503])
def test_the_status_is_the_answer(server: LiveServer, status: int) -> None:
    answer = fetch(server, f"/status/{status}", retries=0)
    assert (answer.status, answer.error, answer.chain) == (status, None, [])
    assert answer.final_url == server.url(f"/status/{status}")


def test_a_redirect_chain_is_followed_and_recorded(server: LiveServer) -> None:
    answer = fetch(server, "/redirect/3")
    assert answer.status == 200
    assert answer.final_url == server.url("/redirect/0")
    assert [(hop.url, hop.status, hop.location) for hop in answer.chain] == [
        (server.url("/redirect/3"), 302, "/redirect/2"),
        (server.url("/redirect/2"), 302, "/redirect/1"),
        (server.url("/redirect/1"), 302, "/redirect/0"),
    ]
    assert not answer.loop and not answer.too_many_hops


def test_a_loop_stops_where_it_comes_back(server: LiveServer) -> None:
    answer = fetch(server, "/loop/a")
    assert answer.loop and answer.status == 302
    assert answer.final_url == server.url("/loop/b")
    assert answer.loop_to == server.url("/loop/a")  # where the loop closes
    assert [hop.url for hop in answer.chain] == [server.url("/loop/a")]
    assert [entry.path for entry in server.log()] == ["/loop/a", "/loop/b"]


def test_a_chain_longer_than_five_hops_is_cut(server: LiveServer) -> None:
    answer = fetch(server, "/redirect/7")
    assert answer.too_many_hops and answer.status == 302
    assert len(answer.chain) == 5
    assert [entry.path for entry in server.log()][-1] == "/redirect/2"
    assert fetch(server, "/redirect/5").status == 200  # five hops are allowed


def test_a_slow_first_byte_times_out(server: LiveServer) -> None:
    started = time.monotonic()
    answer = fetch(server, "/slow?seconds=60", timeout=1.0, retries=0)
    assert (answer.status, answer.error) == (None, TIMEOUT)
    assert time.monotonic() - started < 20


def test_a_head_that_never_ends_is_read_only_to_its_bound(server: LiveServer) -> None:
    # Only long, not a compression bomb: checked on the part read, as a long head is.
    started = time.monotonic()
    answer = fetch(server, "/endless", timeout=10.0, head_bytes=100_000)
    assert (answer.status, answer.error) == (200, None)
    assert answer.signals is not None and answer.signals.noindex is None
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("pause", [0.0, 0.2])
def test_a_head_is_read_to_its_end_however_it_is_cut(server: LiveServer, pause: float) -> None:
    head = "<html><head><script>document.write('<body>');</script>"
    rest = '<meta name="robots" content="noindex"></head><body></body></html>'
    server.route("/cut", parts=[head, rest], pause=pause)
    answer = fetch(server, "/cut")
    assert answer.signals is not None and answer.signals.noindex == "meta robots"


@pytest.mark.parametrize("cut_off", [True, False])
@pytest.mark.parametrize("length", [2_000, 1_000_000])
def test_a_body_that_breaks_off_after_the_head_is_judged_by_its_head(
    server: LiveServer, cut_off: bool, length: int
) -> None:
    """The connection closed, or the rest never sent, after the end of the head: the
    head is the answer, whatever length the body announced (a short one's rest is read
    to keep the connection, and given up)."""
    head = '<html><head><meta name="robots" content="noindex"></head><body>'
    headers = [("Content-Length", str(length))]
    server.route("/broken", parts=[head], headers=headers, pause=0.1, cut_off=cut_off)
    started = time.monotonic()
    answer = fetch(server, "/broken", timeout=3.0)
    assert (answer.status, answer.error) == (200, None)
    assert answer.signals is not None and answer.signals.noindex == "meta robots"
    assert time.monotonic() - started < 3.0


@pytest.mark.parametrize("length", [None, 5_000])
def test_a_connection_closed_before_the_end_of_the_head_is_a_connection_error(
    server: LiveServer, length: int | None
) -> None:
    """Retried as a failed connection is, and told so: not "not valid HTTP"."""
    headers = [] if length is None else [("Content-Length", str(length))]
    server.route("/lost", parts=["<html><head><title>"], headers=headers, cut_off=True)
    answer = fetch(server, "/lost", retries=2)
    assert (answer.status, answer.error, answer.attempts) == (None, CONNECT, 3)
    assert answer.detail is not None
    assert answer.detail.startswith("closed before the end of the body")
    if length is not None:
        assert answer.detail.endswith(f": 19 of {length} bytes received")
    assert [entry.path for entry in server.log()] == ["/lost"] * 3


def test_a_body_that_drips_forever_times_out(server: LiveServer) -> None:
    started = time.monotonic()
    answer = fetch(server, "/drip?seconds=0.2", timeout=1.0, retries=0)
    assert (answer.status, answer.error) == (None, STALLED)
    assert answer.detail == "status 200 came, but not the rest within the 1 s timeout"
    assert time.monotonic() - started < 20


def test_a_head_that_stalls_after_the_status_is_told_from_no_answer(
    server: LiveServer,
) -> None:
    """The status and headers came, then nothing: LV004 says so, not "no answer"."""
    server.route("/stalls", parts=["<html><head><title>", ""], pause=5)
    answer = fetch(server, "/stalls", timeout=1.0, retries=0)
    assert (answer.status, answer.error) == (None, STALLED)
    (finding,) = judge(Target(answer.url, PAGE, 3, 5), answer, datetime.now(UTC))
    assert finding.code == "LV004"
    assert "its answer stalled (status 200 came, but not the rest within the 1 s timeout)" in (
        finding.message
    )


def test_a_gzip_bomb_stops_at_the_bound(server: LiveServer) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    answer = fetch(server, "/bomb", timeout=10.0)
    assert (answer.status, answer.error) == (200, TOO_LARGE)
    assert time.monotonic() - started < 10
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 100  # it expands to 4 GiB


def test_a_header_of_a_megabyte_is_a_protocol_error(server: LiveServer) -> None:
    answer = fetch(server, "/big-header", retries=0)
    assert (answer.status, answer.error) == (None, PROTOCOL)
    assert answer.detail is not None and "a header line longer than 65536 bytes" in answer.detail


@pytest.mark.parametrize(
    ("path", "kind"),
    [("/private-redirect", "private"), ("/loopback-redirect", "loopback")],
)
def test_a_redirect_to_an_internal_address_is_refused(
    server: LiveServer, path: str, kind: str
) -> None:
    answer = fetch(server, path)
    assert (answer.status, answer.error) == (None, REFUSED)
    assert answer.detail is not None and answer.detail.endswith(f" is a {kind} address")
    assert [hop.url for hop in answer.chain] == [server.url(path)]
    assert [entry.path for entry in server.log()] == [path]  # nothing reached 127.0.0.2


# Every spelling of an internal address, as a redirect's Location from a public name
# (sent to the server by connect_to): "{port}" is the server's, which listens on
# 127.0.0.2 too, so that a spelling let through would reach it.
SPELLINGS = [
    ("127.2:{port}", "127.0.0.2 is a loopback address"),
    ("0x7f.2:{port}", "127.0.0.2 is a loopback address"),
    ("2130706434:{port}", "127.0.0.2 is a loopback address"),
    ("017700000002:{port}", "127.0.0.2 is a loopback address"),
    ("0x7f000002:{port}", "127.0.0.2 is a loopback address"),
    ("127.0.0.2.:{port}", "127.0.0.2 is a loopback address"),
    ("[::ffff:127.0.0.2]:{port}", "::ffff:127.0.0.2 is a loopback address"),
    ("[::ffff:7f00:2]:{port}", "::ffff:127.0.0.2 is a loopback address"),
    ("example.com@127.0.0.2:{port}", "127.0.0.2 is a loopback address"),
    ("0.0.0.0:{port}", "0.0.0.0 is an unspecified address"),
    ("[::1]:{port}", "::1 is a loopback address"),
    ("[0:0:0:0:0:ffff:a9fe:a9fe]", "::ffff:169.254.169.254 is a link-local address"),
    (
        "[64:ff9b::a9fe:a9fe]",
        "64:ff9b::a9fe:a9fe is a link-local address (NAT64 for 169.254.169.254)",
    ),
    ("[2002:7f00:2::]", "2002:7f00:2:: is a loopback address (6to4 for 127.0.0.2)"),
    ("[fe80::1%25eth0]", "fe80::1%25eth0 is a link-local address"),
    ("[fd00::1]", "fd00::1 is a unique-local address"),
    ("100.64.0.1", "100.64.0.1 is a carrier-grade NAT address"),
    ("192.0.0.1", "192.0.0.1 is a reserved address"),
    ("198.18.0.1", "198.18.0.1 is a reserved address"),
    ("240.0.0.1", "240.0.0.1 is a reserved address"),
    ("255.255.255.255", "255.255.255.255 is a reserved address"),
    ("localhost:2", "localhost resolves to 127.0.0.1, a loopback address"),
    ("\u24dbocalhost:2", "localhost resolves to 127.0.0.1, a loopback address"),
]


def test_every_spelling_of_an_internal_address_is_refused_after_a_redirect(
    server: LiveServer,
) -> None:
    mapped = settings(server, named_hosts=(), connect_to=(("example.com:80", server.origin),))

    async def ask() -> list[Answer]:
        answers = []
        async with Client(mapped, robots=False) as client:
            for spelling, _ in SPELLINGS:
                location = f"http://{spelling.format(port=server.port)}/status/200"
                server.route("/away", status=302, headers=[("Location", location)])
                answers.append(await client.fetch(f"http://example.com/away?{len(answers)}", PAGE))
        return answers

    answers = asyncio.run(ask())
    assert [(answer.error, answer.detail) for answer in answers] == [
        (REFUSED, detail) for _, detail in SPELLINGS
    ]
    assert {entry.path.partition("?")[0] for entry in server.log()} == {"/away"}


def test_an_unnamed_loopback_host_is_refused_and_allowed_when_told(server: LiveServer) -> None:
    other = server.url("/status/200", host="127.0.0.2")

    async def ask(**changes: object) -> Answer:
        async with Client(settings(server, **changes), robots=False) as client:
            return await client.fetch(other, PAGE)

    refused = asyncio.run(ask())
    assert refused.error == REFUSED and "loopback" in (refused.detail or "")
    assert asyncio.run(ask(allow_private=True)).status == 200
    assert asyncio.run(ask(named_hosts=(other,))).status == 200


@pytest.mark.parametrize("named", ["127.0.0.1", "localhost"])
def test_a_client_refuses_an_internal_address_at_every_hop_of_its_run(
    server: LiveServer, named: str
) -> None:
    # the guard's verdicts are kept for the run: each hop to 127.0.0.2 is refused again,
    # with the named host written as an address or as a name (looked up in a thread)
    own = server.url("/status/200", host=named)
    other = server.url("/status/200", host="127.0.0.2")

    async def run() -> list[Answer]:
        async with Client(settings(server, named_hosts=(own,)), robots=False) as client:
            redirect = server.url("/loopback-redirect", host=named)
            return [await client.fetch(url, PAGE) for url in 2 * (own, redirect, other)]

    answers = asyncio.run(run())
    assert [answer.status for answer in answers] == 2 * [200, None, None]
    for answer in answers[1:3] + answers[4:]:
        assert answer.error == REFUSED
        assert answer.detail == "127.0.0.2 is a loopback address"
    assert [entry.path for entry in server.log()] == [
        *("/status/200", "/loopback-redirect", "/status/200", "/loopback-redirect")
    ]
    assert not any(entry.host.startswith("127.0.0.2") for entry in server.log())


def test_a_named_name_keeps_the_addresses_of_its_first_lookup_for_the_audit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a hostile DNS for the name the user gave: 127.0.0.1 first, the metadata address
    # after; the later lookup is refused, and so is the address the name resolved to
    answers = ["127.0.0.1", "169.254.169.254"]

    def lookup(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        assert host == "site.example"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers.pop(0), port))]

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    named = ClientSettings(named_hosts=("http://site.example:8000/",))

    async def resolve() -> list[object]:
        verdicts: list[object] = []
        async with Client(named, robots=False) as client:
            assert client._resolver is not None
            for host in ("site.example", "site.example", "169.254.169.254"):
                try:
                    verdicts.append(await client._resolver.connectable(host, 8000))
                except RefusedAddress as refused:
                    verdicts.append(refused.kind)
        return verdicts

    assert asyncio.run(resolve()) == [["127.0.0.1"], "link-local", "link-local"]


def test_the_resolver_keeps_each_verdict_on_an_address_for_the_run() -> None:
    checked: list[tuple[str, int]] = []

    class CountingGuard(Guard):
        def connectable(self, host: str, port: int) -> list[str]:
            checked.append((host, port))
            return super().connectable(host, port)

    resolver = GuardedResolver(CountingGuard(HostPolicy.naming(["http://127.0.0.1:81/"])), {})

    refusals: list[RefusedAddress] = []

    async def run() -> None:
        for _ in range(3):
            assert await resolver.connectable("127.0.0.1", 81) == ["127.0.0.1"]
            for host in ("10.0.0.1", "127.0.0.1"):
                with pytest.raises(RefusedAddress) as refused:
                    await resolver.connectable(host, 80)
                refusals.append(refused.value)

    asyncio.run(run())
    assert checked == [("127.0.0.1", 81), ("10.0.0.1", 80), ("127.0.0.1", 80)]
    assert [(error.host, error.kind) for error in refusals] == 3 * [
        ("10.0.0.1", "private"),
        ("127.0.0.1", "loopback"),
    ]
    assert len({id(error) for error in refusals}) == 6  # each raised anew


def test_a_host_name_is_checked_by_what_it_resolves_to(server: LiveServer) -> None:
    # (a host resolving to a named address and port is allowed: here none is named)
    async def ask() -> Answer:
        unnamed = settings(server, named_hosts=(unused_url(),))
        async with Client(unnamed, robots=False) as client:
            return await client.fetch(server.url("/status/200", host="localhost"), PAGE)

    answer = asyncio.run(ask())
    assert answer.error == REFUSED and "loopback" in (answer.detail or "")
    assert server.log() == []


def test_connect_to_keeps_the_host_header(server: LiveServer) -> None:
    mapped = settings(
        server,
        named_hosts=("http://example.com/",),
        connect_to=(("example.com:80", server.origin),),
    )

    async def ask() -> Answer:
        async with Client(mapped, robots=False) as client:
            return await client.fetch("http://example.com/pages/plain", PAGE)

    answer = asyncio.run(ask())
    assert answer.status == 200 and answer.final_url == "http://example.com/pages/plain"
    assert [(entry.host, entry.path) for entry in server.log()] == [("example.com", "/pages/plain")]


def _mapped_fetch(server: LiveServer, url: str, source: str) -> Answer:
    """``url`` fetched with ``source`` (host:port) sent to the server, nothing named."""
    mapped = settings(server, named_hosts=(), connect_to=((source, server.origin),), timeout=2.0)

    async def ask() -> Answer:
        async with Client(mapped, robots=False) as client:
            return await client.fetch(url, PAGE)

    return asyncio.run(ask())


def test_connect_to_sends_an_address_written_in_the_url_to_its_target(
    server: LiveServer,
) -> None:
    elsewhere = unused_url("/pages/plain")
    answer = _mapped_fetch(server, elsewhere, elsewhere.split("/")[2])
    assert (answer.status, answer.error) == (200, None)
    assert [entry.path for entry in server.log()] == ["/pages/plain"]


def test_connect_to_sends_a_public_address_to_its_named_target(server: LiveServer) -> None:
    answer = _mapped_fetch(server, "http://93.184.216.34/pages/plain", "93.184.216.34:80")
    assert (answer.status, answer.error) == (200, None)
    assert [(entry.host, entry.path) for entry in server.log()] == [
        ("93.184.216.34", "/pages/plain")
    ]


def test_a_redirect_robots_txt_disallows_is_not_followed(server: LiveServer) -> None:
    target = server.url("/private/x", host="127.0.0.2")
    server.route("/hop", status=302, headers=[("Location", target)])

    async def ask() -> Answer:
        async with Client(settings(server, named_hosts=(), allow_private=True)) as client:
            return await client.fetch(server.url("/hop"), PAGE)

    answer = asyncio.run(ask())
    assert (answer.robots_disallowed, answer.status, answer.final_url) == (True, None, target)
    assert [(hop.url, hop.status) for hop in answer.chain] == [(server.url("/hop"), 302)]
    assert answer.sent == 1
    assert [(entry.host, entry.path) for entry in server.log()] == [
        (server.origin, "/robots.txt"),
        (server.origin, "/hop"),
        (f"127.0.0.2:{server.port}", "/robots.txt"),
    ]


def test_a_location_in_utf_8_is_read_as_utf_8(server: LiveServer) -> None:
    server.route("/moved", status=302, headers=[("Location", "/pages/plain-\u00e9")])
    server.route("/pages/plain-%C3%A9", body="<html><head></head></html>")
    answer = fetch(server, "/moved")
    assert [hop.location for hop in answer.chain] == ["/pages/plain-\u00e9"]
    assert (answer.status, answer.final_url) == (200, server.url("/pages/plain-%C3%A9"))


@pytest.mark.parametrize(
    "url", ["http://a\\b@127.0.0.1:1/x", "http://[::1/x", "http://127.0.0.1:99999/x"]
)
def test_a_url_no_request_can_be_made_for_sends_nothing(url: str) -> None:
    async def ask() -> Answer:
        async with Client(ClientSettings(retries=0, allow_private=True), robots=False) as client:
            return await client.fetch(url, PAGE)

    answer = asyncio.run(ask())
    assert (answer.error, answer.sent) == (INVALID_URL, 0)


@pytest.mark.parametrize("host", ["[evil:host]", "[::ffff:127.1]", "4294967297"])
def test_a_host_taken_for_an_address_that_is_none_is_an_invalid_url(
    server: LiveServer, host: str
) -> None:
    # aiohttp connects to such a host as written, asking no resolver: the system's
    # would look "evil:host" up as a name (in /etc/hosts, in DNS) and the connection
    # would go wherever it says, past the guard
    async def ask() -> Answer:
        async with Client(settings(server, retries=1), robots=False) as client:
            return await client.fetch(f"http://{host}:{server.port}/status/200", PAGE)

    answer = asyncio.run(ask())
    assert (answer.error, answer.attempts, answer.sent) == (INVALID_URL, 1, 0)
    assert answer.detail == f"InvalidUrlClientError: {host.strip('[]')} - is not an IP address"
    assert server.log() == []


def test_the_user_agent_names_the_tool_and_its_version(server: LiveServer) -> None:
    fetch(server, "/status/200")
    agent = server.log()[0].headers["User-Agent"]
    assert agent.startswith(f"sitemap-lint/{__version__} ")


def test_429_waits_its_retry_after(server: LiveServer) -> None:
    answer = fetch(server, "/retry/429/1?after=1")
    assert (answer.status, answer.attempts) == (200, 2)
    first, second = server.log()
    assert second.time - first.time >= 0.9


def test_503_with_an_http_date_is_retried(server: LiveServer) -> None:
    answer = fetch(server, "/retry/503/1?after=date&seconds=2")
    assert (answer.status, answer.attempts) == (200, 2)
    first, second = server.log()
    assert second.time - first.time >= 0.5  # the date has a precision of a second


@pytest.mark.parametrize("after", ["1", "date&seconds=2"])
def test_a_retry_after_holds_every_request_to_its_host(server: LiveServer, after: str) -> None:
    # the host said when to come back: none of its other URLs is asked before then
    # (the two asked at once with the first are in flight when it says so)
    async def ask() -> list[Answer]:
        async with Client(settings(server, per_host=2), robots=False) as client:
            urls = [server.url(f"/retry/429/1?after={after}&n={n}") for n in range(6)]
            return await asyncio.gather(*(client.fetch(url, PAGE) for url in urls))

    answers = asyncio.run(ask())
    assert [(answer.status, answer.attempts) for answer in answers] == 6 * [(200, 2)]
    log = server.log()
    said = min(entry.time for entry in log)
    later = sorted(entry.time - said for entry in log)[2:]
    assert len(later) == 10 and min(later) >= 0.5  # a date has a precision of a second


def test_a_retry_after_holds_the_host_after_the_last_attempt_too(server: LiveServer) -> None:
    async def ask() -> list[Answer]:
        async with Client(settings(server, retries=0), robots=False) as client:
            first = await client.fetch(server.url("/retry/429/1?after=1"), PAGE)
            return [first, await client.fetch(server.url("/status/200"), PAGE)]

    answers = asyncio.run(ask())
    assert [answer.status for answer in answers] == [429, 200]
    first, second = server.log()
    assert second.time - first.time >= 0.9


def test_a_host_that_keeps_answering_429_is_held_a_bounded_time_in_all(
    server: LiveServer,
) -> None:
    # each 429 holds the host again: past ``held_cap`` seconds in all, its 429s are
    # the answers at once, and the run does not grow with its URLs times their wait
    started = time.monotonic()

    async def ask() -> list[Answer]:
        changes = {"per_host": 2, "held_cap": 2.0}
        async with Client(settings(server, **changes), robots=False) as client:
            urls = [server.url(f"/retry/429/9?after=1&n={n}") for n in range(12)]
            return await asyncio.gather(*(client.fetch(url, PAGE) for url in urls))

    answers = asyncio.run(ask())
    assert {answer.status for answer in answers} == {429}
    assert time.monotonic() - started < 6
    assert any(answer.attempts == 1 for answer in answers)


@pytest.mark.parametrize("skew", [3600.0, -3600.0])
def test_a_retry_after_date_is_read_against_the_servers_clock(
    server: LiveServer, skew: float
) -> None:
    # a server whose clock is an hour off asks for a second: read against the local
    # clock, its date is an hour away (past the cap: given up) or long gone (no wait)
    said = time.time() + skew
    headers = [
        ("Date", formatdate(said, usegmt=True)),
        ("Retry-After", formatdate(said + 2, usegmt=True)),
    ]
    server.route("/skewed", status=503, headers=headers)
    answer = fetch(server, "/skewed", retries=1)
    assert (answer.status, answer.attempts) == (503, 2)
    first, second = server.log()
    assert second.time - first.time >= 0.9  # the date has a precision of a second


def test_a_retry_after_past_the_cap_gives_up_with_the_status(server: LiveServer) -> None:
    answer = fetch(server, "/retry/429/5?after=120")
    assert (answer.status, answer.attempts) == (429, 1)


def test_retries_end_with_the_last_status(server: LiveServer) -> None:
    answer = fetch(server, "/retry/503/9?after=none", retries=2)
    assert (answer.status, answer.attempts) == (503, 3)
    assert len(server.log()) == 3


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ([("Cache-Control", "max-age=\u00b2")], 200),
        ([("Cache-Control", "max-age=60"), ("Age", "\u00b2")], 200),
        ([("Retry-After", "\u00b2")], 429),
    ],
)
def test_a_number_in_other_digits_is_no_number(
    server: LiveServer, headers: list[tuple[str, str]], status: int
) -> None:
    # str.isdigit holds for "²", which float() refuses: the answer was lost to a
    # ValueError (LV004 for a page that answers 200)
    server.route("/odd", status=status, headers=headers, content_type=HTML)
    answer = fetch(server, "/odd")
    assert (answer.status, answer.error) == (status, None)
    assert retry_after("\u00b2") is None and retry_after("\u0663") is None
    assert freshness([("Cache-Control", "max-age=\u0663")], 0.0) is None


def test_retry_after_reads_seconds_and_dates() -> None:
    assert retry_after("7") == 7.0
    assert retry_after("Wed, 01 Jan 2025 00:00:10 GMT", now=1735689600.0) == 10.0
    assert retry_after("soon") is None and retry_after(None) is None


def test_an_unreachable_port_is_a_connection_error_after_retries() -> None:
    url = unused_url("/a")

    async def ask() -> Answer:
        named = ClientSettings(named_hosts=(url,), retries=1, backoff=0.01, timeout=5.0)
        async with Client(named, robots=False) as client:
            return await client.fetch(url, PAGE)

    answer = asyncio.run(ask())
    assert (answer.status, answer.error, answer.attempts) == (None, CONNECT, 2)


def test_only_http_and_https_are_requested(server: LiveServer) -> None:
    async def ask(url: str) -> Answer:
        async with Client(settings(server), robots=False) as client:
            return await client.fetch(url, PAGE)

    assert asyncio.run(ask("ftp://example.com/a")).error == SCHEME
    server.route("/to-ftp", status=301, headers=[("Location", "ftp://example.com/")])
    answer = asyncio.run(ask(server.url("/to-ftp")))
    assert (answer.status, answer.error) == (301, SCHEME)


@pytest.mark.parametrize(
    ("name", "field", "expected"),
    [
        ("noindex-header", "noindex", "X-Robots-Tag"),
        ("meta-robots", "noindex", "meta robots"),
        ("meta-googlebot", "noindex", "meta googlebot"),
        ("canonical-header", "canonical", "https://example.com/other"),
        ("canonical-element", "canonical", "{base}/pages/other"),
        ("last-modified", "modified_source", "Last-Modified"),
        ("json-ld", "modified_source", "JSON-LD dateModified"),
        ("article-time", "modified_source", "article:modified_time"),
    ],
)
def test_a_page_signals_are_read(server: LiveServer, name: str, field: str, expected: str) -> None:
    answer = fetch(server, f"/pages/{name}")
    assert answer.signals is not None
    assert getattr(answer.signals, field) == expected.format(base=server.url(""))
    assert server.log()[0].method == "GET"


def test_a_page_hreflang_links_are_read(server: LiveServer) -> None:
    answer = fetch(server, "/pages/hreflang")
    assert answer.signals is not None
    assert answer.signals.alternates == (
        ("de", server.url("/de/")),
        ("en", server.url("/en/")),
    )


def test_a_page_given_by_the_test(server: LiveServer) -> None:
    server.route(
        "/given",
        body="<html><head><meta name=robots content=none></head><body></body></html>",
        headers=[("Last-Modified", "Tue, 01 Apr 2025 00:00:00 GMT")],
    )
    answer = fetch(server, "/given")
    assert answer.signals is not None and answer.signals.noindex == "meta robots"
    assert answer.last_modified == "Tue, 01 Apr 2025 00:00:00 GMT"


@pytest.mark.parametrize(
    ("path", "kind", "media"),
    [("/image.png", IMAGE, "image/png"), ("/video.mp4", VIDEO_CONTENT, "video/mp4")],
)
def test_media_are_asked_with_head(server: LiveServer, path: str, kind: str, media: str) -> None:
    answer = fetch(server, path, kind)
    assert (answer.status, answer.content_type, answer.signals) == (200, media, None)
    assert [entry.method for entry in server.log()] == ["HEAD"]


def test_head_answered_405_is_asked_again_with_get(server: LiveServer) -> None:
    server.route("/no-head", status=405, content_type="text/plain")
    answer = fetch(server, "/no-head", IMAGE)
    assert answer.status == 405
    assert [entry.method for entry in server.log()] == ["HEAD", "GET"]


def test_head_answered_403_is_asked_again_with_get(server: LiveServer) -> None:
    """A URL signed for GET alone (an S3 presigned URL) refuses a HEAD with 403: the
    image is judged by the GET, as a crawler fetching it would be answered."""
    server.route("/signed.png", head_status=403, content_type="image/png", body="png")
    answer = fetch(server, "/signed.png", IMAGE)
    assert (answer.status, answer.content_type) == (200, "image/png")
    assert [entry.method for entry in server.log()] == ["HEAD", "GET"]


@pytest.mark.parametrize("head_status", [404, 410, 400, 500])
def test_head_answered_an_error_is_asked_again_with_get(
    server: LiveServer, head_status: int
) -> None:
    """A route that answers GET alone (a HEAD answered 404, 500...): the child sitemap
    is judged by the GET, as a crawler fetching it is answered."""
    server.route("/child.xml", head_status=head_status, content_type="application/xml")
    answer = fetch(server, "/child.xml", CHILD)
    assert answer.status == 200
    assert [entry.method for entry in server.log()] == ["HEAD", "GET"]


def test_head_answered_429_is_not_asked_again_with_get(server: LiveServer) -> None:
    server.route("/busy.png", status=429, content_type="text/plain")
    answer = fetch(server, "/busy.png", IMAGE, retries=0)
    assert answer.status == 429
    assert [entry.method for entry in server.log()] == ["HEAD"]


class DictStore:
    """A cache kept in a dict (the interface of live.cache.Cache)."""

    def __init__(self) -> None:
        self.answers: dict[str, Answer] = {}

    def get(self, url: str) -> Answer | None:
        return self.answers.get(url)

    def get_many(self, urls: Iterable[str]) -> dict[str, Answer]:
        return {url: self.answers[url] for url in urls if url in self.answers}

    def put_many(self, answers: Iterable[Answer]) -> None:
        self.answers.update((answer.url, answer) for answer in answers)


def _twice(server: LiveServer, store: object, path: str) -> tuple[Answer, Answer]:
    async def run() -> list[Answer]:
        found = []
        for _ in range(2):
            async with Client(settings(server), cache=store, robots=False) as client:  # type: ignore[arg-type]
                found.append((await client.fetch_all([(server.url(path), PAGE)]))[server.url(path)])
        return found

    first, second = asyncio.run(run())
    return first, second


def test_a_cached_answer_is_asked_again_conditionally(server: LiveServer) -> None:
    first, second = _twice(server, DictStore(), "/cached")
    assert (first.status, first.from_cache, first.etag) == (200, False, '"v1"')
    assert (second.status, second.from_cache) == (200, True)
    assert second.signals == first.signals
    asked = server.log()[1].headers
    assert asked["If-None-Match"] == '"v1"'
    assert asked["If-Modified-Since"] == "Wed, 01 Jan 2025 00:00:00 GMT"


@pytest.mark.parametrize(
    "query", ["max-age=3600", "expires=3600", "cache-control=private,max-age=60"]
)
def test_a_fresh_cached_answer_is_given_without_a_request(server: LiveServer, query: str) -> None:
    server.reset()
    first, second = _twice(server, DictStore(), f"/cached?{query}")
    assert (first.fresh, second.fresh, second.from_cache, second.attempts) == (False, True, True, 0)
    assert second.signals == first.signals and second.status == 200
    assert len(server.log()) == 1


@pytest.mark.parametrize(
    "query",
    [
        "max-age=0",
        "expires=-60",
        "cache-control=no-cache,max-age=3600",
        "cache-control=max-age=soon",
        "cache-control=public",  # no lifetime given: no heuristic freshness
    ],
)
def test_a_stale_cached_answer_is_asked_again_conditionally(server: LiveServer, query: str) -> None:
    server.reset()
    first, second = _twice(server, DictStore(), f"/cached?{query}")
    assert (first.fresh_until, second.fresh, second.from_cache) == (None, False, True)
    log = server.log()
    assert len(log) == 2 and log[1].headers["If-None-Match"] == '"v1"'


@pytest.mark.parametrize("query", ["cache-control=no-store", "cache-control=max-age=60,No-Store"])
def test_an_answer_whose_response_says_no_store_is_not_stored(
    server: LiveServer, query: str
) -> None:
    """RFC 9111, section 5.2.2.5: a cache must not store such a response, so the next
    run asks for the page whole, not conditionally."""
    server.reset()
    store = DictStore()
    first, second = _twice(server, store, f"/cached?{query}")
    assert (first.status, second.status, second.from_cache) == (200, 200, False)
    assert store.answers == {}
    log = server.log()
    assert len(log) == 2 and "If-None-Match" not in log[1].headers


def test_a_304_that_says_no_store_leaves_the_stored_answer_as_it_was(server: LiveServer) -> None:
    server.reset()
    store = DictStore()
    url = server.url("/cached?cache-control=no-store")
    first, _ = _twice(server, store, "/cached")
    stored = store.answers[url] = replace(first, url=url)

    async def run() -> Answer:
        async with Client(settings(server), cache=store, robots=False) as client:  # type: ignore[arg-type]
            return (await client.fetch_all([(url, PAGE)]))[url]

    revalidated = asyncio.run(run())
    assert (revalidated.status, revalidated.from_cache) == (200, True)
    assert server.log()[-1].headers["If-None-Match"] == '"v1"'
    assert store.answers[url] is stored  # not written again


def test_a_304_makes_the_stored_answer_fresh_again(server: LiveServer) -> None:
    server.reset()
    store = DictStore()
    first, _ = _twice(server, store, "/cached?max-age=3600")
    store.answers[first.url] = replace(first, fresh_until=time.time() - 1)  # gone stale

    async def run() -> list[Answer]:
        found = []
        for _ in range(2):
            async with Client(settings(server), cache=store, robots=False) as client:
                found.append((await client.fetch_all([(first.url, PAGE)]))[first.url])
        return found

    revalidated, fresh = asyncio.run(run())
    assert (revalidated.from_cache, revalidated.fresh, fresh.fresh) == (True, False, True)
    assert revalidated.fresh_until is not None and revalidated.fresh_until > time.time() + 3000
    assert len(server.log()) == 2  # the first request, then the 304: none for the last


def test_freshness_follows_rfc_9111() -> None:
    now = 1_750_000_000.0
    date = formatdate(now - 100, usegmt=True)
    assert freshness([("Cache-Control", "max-age=600")], now) == now + 600
    assert freshness([("Cache-Control", "max-age=600"), ("Age", "50")], now) == now + 550
    # Age is the larger of the stated age and the time since Date.
    assert freshness([("cache-control", "max-age=600"), ("Date", date)], now) == now + 500
    expires = formatdate(now + 200, usegmt=True)
    assert freshness([("Expires", expires), ("Date", date)], now) == now + 200
    assert freshness([("Expires", expires)], now) == now + 200
    # max-age wins over Expires; the first of repeated directives counts.
    headers = [("Cache-Control", "max-age=10, max-age=900"), ("Expires", expires)]
    assert freshness(headers, now) == now + 10
    assert freshness([("Cache-Control", 'max-age="30"')], now) == now + 30
    assert freshness([("Expires", "0")], now) is None  # invalid: already expired
    assert freshness([("Cache-Control", "max-age=600"), ("Age", "600")], now) is None
    assert freshness([("Cache-Control", "max-age=600, no-cache")], now) is None
    assert freshness([("Last-Modified", date)], now) is None


def test_the_sqlite_cache_serves_the_second_run(server: LiveServer, tmp_path: Path) -> None:
    from sitemap_lint.live.cache import Cache

    with Cache(tmp_path / "live.sqlite3") as cache:
        first, second = _twice(server, cache, "/cached")
    assert second.from_cache and second.status == first.status == 200


def test_robots_txt_is_read_once_and_disallowed_urls_are_not_requested(
    server: LiveServer,
) -> None:
    paths = ["/private/a", "/status/200", "/private/b", "/pages/plain"]

    async def run() -> dict[str, Answer]:
        async with Client(settings(server, concurrency=4)) as client:
            return await client.fetch_all([(server.url(path), PAGE) for path in paths])

    answers = asyncio.run(run())
    assert [answers[server.url(path)].robots_disallowed for path in paths] == [
        True,
        False,
        True,
        False,
    ]
    asked = sorted(entry.path for entry in server.log())
    assert asked == ["/pages/plain", "/robots.txt", "/status/200"]


def test_crawl_delay_spaces_a_host_requests(server: LiveServer) -> None:
    server.route("/robots.txt", body="User-agent: *\nCrawl-delay: 0.4\n", content_type="text/plain")

    async def run() -> None:
        async with Client(settings(server, concurrency=4, per_host=4)) as client:
            await client.fetch_all([(server.url(f"/status/200?{n}"), PAGE) for n in range(4)])

    asyncio.run(run())
    times = sorted(entry.time for entry in server.log() if entry.path != "/robots.txt")
    assert len(times) == 4 and times[-1] - times[0] >= 1.0  # three gaps of 0.4 s, loosely


def test_a_crawl_delayed_host_keeps_no_other_host_waiting(server: LiveServer) -> None:
    delayed, other = server.origin, f"127.0.0.2:{server.port}"
    robots = "User-agent: *\nCrawl-delay: 0.8\n"
    server.route("/robots.txt", body=robots, content_type="text/plain", host=delayed)
    # the other host's robots.txt comes last: its request queues behind the delayed ones
    server.route("/robots.txt", content_type="text/plain", delay=0.2, host=other)
    urls = [server.url(f"/status/200?{n}") for n in range(3)]
    urls.append(server.url("/status/200?other", host="127.0.0.2"))
    allowed = settings(server, named_hosts=(), allow_private=True, concurrency=2)

    async def run() -> None:
        async with Client(allowed) as client:
            await client.fetch_all([(url, PAGE) for url in urls])

    asyncio.run(run())
    asked = {entry.path: entry.time for entry in server.log() if entry.path != "/robots.txt"}
    assert asked["/status/200?2"] - asked["/status/200?0"] >= 1.4  # two gaps of 0.8 s
    assert asked["/status/200?other"] - asked["/status/200?0"] < 0.5


@pytest.mark.parametrize(
    ("status", "unavailable"), [(404, ""), (503, "answers 503"), (429, "answers 429")]
)
def test_a_robots_txt_that_fails_allows_everything(
    server: LiveServer, status: int, unavailable: str
) -> None:
    server.route("/robots.txt", status=status, body="Disallow: /", content_type="text/plain")

    async def run() -> Answer:
        async with Client(settings(server, retries=0)) as client:
            return await client.fetch(server.url("/private/a"), PAGE)

    answer = asyncio.run(run())
    assert answer.status == 404 and not answer.robots_disallowed
    assert answer.robots_unreachable == unavailable


def test_robots_rules_are_googlebot_s() -> None:
    rules = read_rules(200, "User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: *\nDisallow: /\n")
    assert rules.disallows("https://example.com/g/a")
    assert not rules.disallows("https://example.com/other")


def test_robots_are_fetched_once_for_concurrent_asks() -> None:
    calls: list[str] = []

    async def fetch_text(url: str) -> tuple[int | None, str]:
        calls.append(url)
        await asyncio.sleep(0.01)
        return 200, "User-agent: *\nDisallow: /x\n"

    async def run() -> list[bool]:
        robots = Robots(fetch_text)
        found = await asyncio.gather(*(robots.rules(f"https://a.test/x{n}") for n in range(5)))
        return [
            rules is not None and rules.disallows(f"https://a.test/x{n}")
            for n, rules in enumerate(found)
        ]

    assert asyncio.run(run()) == [True] * 5
    assert calls == ["https://a.test/robots.txt"]


def test_the_per_host_limit_holds(server: LiveServer) -> None:
    async def run() -> None:
        limited = settings(server, concurrency=12, per_host=3)
        async with Client(limited, robots=False) as client:
            await client.fetch_all(
                [(server.url(f"/slow?seconds=0.1&n={n}"), PAGE) for n in range(24)]
            )

    asyncio.run(run())
    assert len(server.log()) == 24
    assert 1 <= server.max_in_flight() <= 3


@pytest.mark.parametrize(
    "spelling", ["\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com", "EXAMPLE.com."]
)
def test_one_host_however_spelled_is_one_host(server: LiveServer, spelling: str) -> None:
    # its per-host limit (and Crawl-delay) and where --live-connect-to sends it: a
    # full-width spelling had a limit of its own and went to the name's own address
    async def run() -> list[Answer]:
        mapped = settings(
            server, per_host=1, named_hosts=(), connect_to=(("example.com:80", server.origin),)
        )
        async with Client(mapped, robots=False) as client:
            urls = [
                f"http://{host}/slow?seconds=0.3&n={n}"
                for n in range(3)
                for host in ("example.com", spelling)
            ]
            return await asyncio.gather(*(client.fetch(url, PAGE) for url in urls))

    started = time.monotonic()
    answers = asyncio.run(run())
    assert [(answer.status, answer.error) for answer in answers] == 6 * [(200, None)]
    assert time.monotonic() - started >= 1.8  # one at a time


def test_the_limit_of_all_hosts_holds(server: LiveServer) -> None:
    hosts = [f"h{n}.example" for n in range(6)]
    mapped = settings(
        server,
        concurrency=3,
        per_host=2,
        named_hosts=(),
        connect_to=tuple((f"{host}:80", server.origin) for host in hosts),
    )

    async def run() -> None:
        async with Client(mapped, robots=False) as client:
            urls = [f"http://{host}/slow?seconds=0.4&n={n}" for host in hosts for n in range(2)]
            await client.fetch_all((url, PAGE) for url in urls)

    asyncio.run(run())
    arrivals = sorted(entry.time for entry in server.log())
    assert len(arrivals) == 12
    # each answer takes 0.4 s: at most three arrive within any 0.3 s
    assert max(sum(a <= t < a + 0.3 for t in arrivals) for a in arrivals) <= 3


def test_fetch_all_streams_its_answers(server: LiveServer) -> None:
    seen: list[int | None] = []

    async def run() -> dict[str, Answer]:
        async with Client(settings(server), robots=False) as client:
            targets = ((server.url(f"/status/{code}"), PAGE) for code in (200, 404, 200))
            return await client.fetch_all(
                targets, on_answer=lambda a: seen.append(a.status), keep=False
            )

    assert asyncio.run(run()) == {}
    assert sorted(seen, key=str) == [200, 200, 404]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("HTTP://Example.COM:8080/a/b?c#d", "http://example.com:8080"),
        ("https://example.com?q=/x", "https://example.com"),
        ("https://example.com#/x", "https://example.com"),
        ("https://u:p@[::1]:81/x", "https://[::1]:81"),
        ("http://www.example.com:80/p1", "http://www.example.com"),  # the default port
        ("HTTPS://Example.COM:443/", "https://example.com"),
        ("http://example.com:/", "http://example.com"),
        ("http://example.com:0080/x", "http://example.com"),
        ("https://example.com:80/", "https://example.com:80"),
        ("http://[::1]:80/", "http://[::1]"),
        ("http://B\u00fccher.Example:8080/", "http://xn--bcher-kva.example:8080"),
        ("http://example.com:x/", "http://example.com:x"),  # no request can be made
        (" http://exa\tmple.com/x", "http://example.com"),
        ("http:/\t/example.com/x", "http://example.com"),
        ("http:x://example.com/", None),
        ("ftp://example.com/", None),
        ("http://[::1/x", None),
        ("http:///x", None),
        ("//example.com/x", None),
    ],
)
def test_a_url_origin_is_read_as_urlsplit_reads_it_one_spelling_a_host(
    url: str, expected: str | None
) -> None:
    assert origin(url) == expected
    assert origin(url) == expected  # the second time from the memo


def test_a_response_header_is_its_first_value_whatever_the_case() -> None:
    response = Response(
        "http://example.com/",
        200,
        [("content-TYPE", "text/HTML; charset=latin-1"), ("ETag", '"a"'), ("etag", '"b"')],
        "é".encode("latin-1"),
    )
    assert response.header("ETAG") == '"a"' and response.header("Location") is None
    assert response.content_type == "text/html"
    assert response.text() == "é"


ROBOTS_TEXTS = [
    "User-agent: *\nDisallow: /private/\n",
    "User-agent: Googlebot\nDisallow: /a\nAllow: /a/b\n\nUser-agent: *\nDisallow: /\n",
    "User-agent: *\nDisallow: /bench/1\nAllow: /bench/10\nDisallow: /x=\n",
    "User-agent: *\nDisallow: /é\nDisallow: /a b\n",
    "User-agent: *\nAllow: /dir/index.html\nDisallow: /dir/\n",  # an anchored Allow
    "User-agent: *\nDisallow: /p?\n",
    "User-agent: *\nDisallow: /p%3F\nDisallow: /q%3fs\n",
    "User-agent: *\nDisallow: /*kb\n",
    "User-agent: *\nDisallow: /p$\n",
    "User-agent: *\nDisallow: /pkb # *\n",
    "User-agent: *\nDisallow: /bench/1\nSitemap: https://example.com/s.xml?x=1\n",
    "User-agent: *\nDisallow:\n",
    "",
]
ROBOTS_URLS = [
    f"{origin}{rest}"
    for origin in ("http://example.com", "HTTPS://u@Example.com:8080")
    for rest in (
        *("/", "/p", "/p?", "/p?x", "/p?x#f", "/p#f?x", "/p/?q=/a b", "/pa?kb=1"),
        *("/bench/1?kb=100", "/bench/10?kb=1", "/bench/2?x=%3F", "/x=?y", "/a/b?c"),
        *("/private/x?y", "/private?y", "/dir/?q", "/dir/index.html?q", "/é?x", "/a%20b?x"),
        *("//p?x", "?x", "/robots.txt?x", "/p;x?y", "/a b?c", "/pkb?x", "/p?kb"),
    )
]


@pytest.mark.parametrize("text", ROBOTS_TEXTS)
def test_a_url_with_a_query_is_read_as_protego_reads_it(text: str) -> None:
    # rules that never reach a query decide a URL by its path: the same verdicts
    rules = read_rules(200, text)
    whole = replace(rules, by_path=False)
    assert rules.by_path == (text in ROBOTS_TEXTS[:4] + ROBOTS_TEXTS[11:])
    for url in ROBOTS_URLS:
        assert rules.disallows(url) == whole.disallows(url), url
    assert any(whole.disallows(url) for url in ROBOTS_URLS) == ("Disallow: /" in text)


@pytest.mark.parametrize("pause", [0.0, 0.2])
def test_a_page_sent_as_several_gzip_members_is_read_across_them(
    server: LiveServer, pause: float
) -> None:
    head = "<html><head><title>a page in two gzip members</title>"
    rest = '<link rel="canonical" href="/pages/other"></head><body></body></html>'
    server.route("/members", parts=[head, rest], pause=pause, gzip=True)
    answer = fetch(server, "/members")
    assert answer.signals is not None
    assert answer.signals.canonical == server.url("/pages/other")


def test_a_bomb_in_many_gzip_members_stops_at_the_bound(server: LiveServer) -> None:
    blank = "<html><head>" + " " * 60_000  # each member decodes to 600 times its size
    server.route("/bomb-members", parts=[blank] * 10, gzip=True)
    answer = fetch(server, "/bomb-members", head_bytes=300_000)
    assert (answer.status, answer.error) == (200, TOO_LARGE)


@pytest.mark.parametrize(
    ("content_type", "body", "expected"),
    [
        (
            "text/html",
            b"<meta charset=iso-8859-1><p>caf\xe9",
            "<meta charset=iso-8859-1><p>caf\u00e9",
        ),
        (
            "text/html",
            b"<META HTTP-EQUIV='content-type' CONTENT='text/html; charset=\"windows-1252\"'>\x80",
            "<META HTTP-EQUIV='content-type' CONTENT='text/html; charset=\"windows-1252\"'>\u20ac",
        ),
        # the Content-Type's charset first; a byte order mark before both
        (
            "text/html; charset=utf-8",
            b"<meta charset=latin-1>\xc3\xa9",
            "<meta charset=latin-1>\u00e9",
        ),
        ("text/html; charset=latin-1", b"\xef\xbb\xbf\xc3\xa9", "\u00e9"),
        ("text/html", "\ufeff<p>\u00e9".encode("utf-16-le"), "<p>\u00e9"),
        # a UTF-16 meta is read as UTF-8; a charset in a comment or another attribute,
        # or an unknown one is none
        ("text/html", b"<meta charset=utf-16>\xc3\xa9", "<meta charset=utf-16>\u00e9"),
        (
            "text/html",
            b"<!-- <meta charset=latin-1> -->\xc3\xa9",
            "<!-- <meta charset=latin-1> -->\u00e9",
        ),
        (
            "text/html",
            b"<meta name=x content='charset=latin-1'>\xc3\xa9",
            "<meta name=x content='charset=latin-1'>\u00e9",
        ),
        ("text/html", b"<meta charset=no-such>\xc3\xa9", "<meta charset=no-such>\u00e9"),
        (
            "text/html",
            b"<meta charset=no-such><meta charset=latin-1>\xe9",
            "<meta charset=no-such><meta charset=latin-1>\u00e9",
        ),
        # past the first 1024 bytes, a meta of the head still counts (HTML's parser
        # meets it and reads the page again in its charset), but not one in a comment,
        # in raw text, in a noscript element or after the head, nor an unknown one
        (
            "text/html",
            b" " * 1024 + b"<meta charset=latin-1>\xc3\xa9",
            " " * 1024 + "<meta charset=latin-1>\u00c3\u00a9",
        ),
        (
            "text/html",
            b"<head><title>" + b"x" * 1024 + b"</title><meta http-equiv=content-type"
            b" content='text/html; charset=windows-1252'>\x80",
            "<head><title>" + "x" * 1024 + "</title><meta http-equiv=content-type"
            " content='text/html; charset=windows-1252'>\u20ac",
        ),
        (
            "text/html",
            b"<meta charset=no-such>" + b" " * 1024 + b"<meta charset=latin-1>\xe9",
            "<meta charset=no-such>" + " " * 1024 + "<meta charset=latin-1>\u00e9",
        ),
        (
            "text/html",
            b"<!--" + b" " * 1024 + b"<meta charset=latin-1>-->\xc3\xa9",
            "<!--" + " " * 1024 + "<meta charset=latin-1>-->\u00e9",
        ),
        (
            "text/html",
            b"<script>" + b" " * 1024 + b"'<meta charset=latin-1>'</script>\xc3\xa9",
            "<script>" + " " * 1024 + "'<meta charset=latin-1>'</script>\u00e9",
        ),
        (
            "text/html",
            b"<noscript>" + b" " * 1024 + b"<meta charset=latin-1></noscript>\xc3\xa9",
            "<noscript>" + " " * 1024 + "<meta charset=latin-1></noscript>\u00e9",
        ),
        (
            "text/html",
            b"<head></head><body>" + b" " * 1024 + b"<meta charset=latin-1>\xc3\xa9",
            "<head></head><body>" + " " * 1024 + "<meta charset=latin-1>\u00e9",
        ),
        (
            "text/html",
            b" " * 1024 + b"<meta charset=no-such>\xc3\xa9",
            " " * 1024 + "<meta charset=no-such>\u00e9",
        ),
    ],
)
def test_a_page_is_decoded_as_a_browser_decodes_it(
    content_type: str, body: bytes, expected: str
) -> None:
    response = Response("http://example.com/", 200, [("Content-Type", content_type)], body)
    assert response.page_text() == expected
