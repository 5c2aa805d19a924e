"""Fetching over HTTP from a real local server: every outcome is a Fetched, never an exception."""

from __future__ import annotations

import gzip
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from functools import cache

import pytest

from sitemap_lint import __version__
from sitemap_lint.inputs.fetch import Fetched, Fetcher, FetchSettings
from sitemap_lint.inputs.guard import HostPolicy
from sitemap_lint.inputs.reader import READ_CAP
from tests.site_server import Route, SiteServer, loopback_only, redirect, unused_url  # noqa: F401

pytestmark = pytest.mark.slow  # local servers, threads and timeouts

SITEMAP = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc></url>
</urlset>
"""
HTML = b"<!DOCTYPE html>\n<html><head><title>Shop</title></head><body></body></html>\n"
MiB = 1024 * 1024
# What a fetch does with a response; which hosts it may reach: tests/test_private_hosts.py.
ALL_HOSTS = HostPolicy(allow_private=True)


@pytest.fixture
def site(loopback_only) -> Iterator[SiteServer]:  # noqa: F811
    with SiteServer() as server:
        yield server


@pytest.fixture
def fetcher() -> Iterator[Fetcher]:
    with Fetcher(FetchSettings(hosts=ALL_HOSTS, timeout=2.0)) as client:
        yield client


def outcome(fetched: Fetched) -> tuple[int | None, str | None, bytes | None, list[str]]:
    return (
        fetched.status,
        fetched.content_type,
        fetched.body,
        [finding.code for finding in fetched.findings],
    )


def message(fetched: Fetched) -> str:
    (finding,) = fetched.findings
    assert (finding.line, finding.column) == (1, 1)
    return finding.message


# Successful fetches


def test_xml_sitemap(site: SiteServer, fetcher: Fetcher) -> None:
    site.routes["/sitemap.xml"] = Route(body=SITEMAP, content_type="application/xml; charset=UTF-8")
    url = site.url("/sitemap.xml")
    assert fetcher.get(url) == Fetched(url, url, 200, "application/xml", SITEMAP, ())


def test_request_names_the_tool_and_the_encodings_it_accepts(
    site: SiteServer, fetcher: Fetcher
) -> None:
    site.routes["/sitemap.xml"] = Route(body=SITEMAP)
    fetcher.get(site.url("/sitemap.xml"))
    (request,) = site.log
    assert request.method == "GET"
    assert request.headers["User-Agent"] == f"sitemap-lint/{__version__}"
    assert request.headers["Accept-Encoding"] == "gzip, deflate"


def test_cookies_are_not_sent_back(site: SiteServer, fetcher: Fetcher) -> None:
    site.routes["/set.xml"] = Route(
        status=302, content_type=None, location="/sitemap.xml", headers=(("Set-Cookie", "s=1"),)
    )
    site.routes["/sitemap.xml"] = Route(body=SITEMAP)
    assert outcome(fetcher.get(site.url("/set.xml")))[-1] == []
    fetcher.get(site.url("/sitemap.xml"))
    assert [request.headers.get("Cookie") for request in site.log] == [None, None, None]


@pytest.mark.parametrize("media", ["application/x-gzip", "application/gzip"])
def test_gzip_file_is_returned_as_is(site: SiteServer, fetcher: Fetcher, media: str) -> None:
    packed = gzip.compress(SITEMAP)
    site.routes["/sitemap.xml.gz"] = Route(body=packed, content_type=media)
    fetched = fetcher.get(site.url("/sitemap.xml.gz"))
    assert outcome(fetched) == (200, media, packed, [])


@pytest.mark.parametrize(
    ("encoding", "encode"),
    [
        ("gzip", gzip.compress),
        ("x-gzip", gzip.compress),
        ("deflate", zlib.compress),  # a zlib stream, as HTTP defines deflate
        ("deflate", lambda data: zlib.compress(data, wbits=-15)),  # raw deflate, as some send
        ("gzip", lambda data: gzip.compress(data[:50]) + gzip.compress(data[50:])),  # 2 members
        ("identity", bytes),
        ("gzip, gzip", lambda data: gzip.compress(gzip.compress(data))),
    ],
)
def test_content_encoding_is_undone(
    site: SiteServer, fetcher: Fetcher, encoding: str, encode
) -> None:
    site.routes["/sitemap.xml"] = Route(
        body=encode(SITEMAP), headers=(("Content-Encoding", encoding),)
    )
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, "application/xml", SITEMAP, [])


def test_gzip_file_sent_with_gzip_encoding_keeps_the_file(
    site: SiteServer, fetcher: Fetcher
) -> None:
    packed = gzip.compress(SITEMAP)
    site.routes["/sitemap.xml.gz"] = Route(
        body=gzip.compress(packed),
        content_type="application/x-gzip",
        headers=(("Content-Encoding", "gzip"),),
    )
    fetched = fetcher.get(site.url("/sitemap.xml.gz"))
    assert outcome(fetched) == (200, "application/x-gzip", packed, [])


def test_streamed_body_without_length(site: SiteServer, fetcher: Fetcher) -> None:
    site.routes["/sitemap.xml"] = Route(body=lambda: [SITEMAP[:40], SITEMAP[40:]])
    assert outcome(fetcher.get(site.url("/sitemap.xml"))) == (200, "application/xml", SITEMAP, [])


def test_concurrent_fetches_share_one_client(site: SiteServer, fetcher: Fetcher) -> None:
    bodies = {n: SITEMAP.replace(b"/<", f"/{n}<".encode()) for n in range(8)}
    for n, body in bodies.items():
        site.routes[f"/sitemap-{n}.xml"] = Route(body=body, delay=0.05)
    results: dict[int, Fetched] = {}

    def fetch(n: int) -> None:
        results[n] = fetcher.get(site.url(f"/sitemap-{n}.xml"))

    threads = [threading.Thread(target=fetch, args=(n,)) for n in bodies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {n: outcome(fetched) for n, fetched in results.items()} == {
        n: (200, "application/xml", body, []) for n, body in bodies.items()
    }


# Size caps and compression bombs


@cache
def gzip_bomb(size: int) -> bytes:
    """``size`` zero bytes in one gzip member (about 1,000 times smaller)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(MiB)
    parts = [packer.compress(block) for _ in range(size // MiB)]
    return b"".join([*parts, packer.flush()])


def fetch_capped(site: SiteServer, route: Route, max_bytes: int) -> tuple[Fetched, int]:
    """The fetch, and the peak of memory allocated meanwhile (both threads)."""
    site.routes["/sitemap.xml"] = route
    tracemalloc.start()
    try:
        with Fetcher(FetchSettings(hosts=ALL_HOSTS, timeout=2.0, max_bytes=max_bytes)) as client:
            fetched = client.get(site.url("/sitemap.xml"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return fetched, peak


def test_gzip_bomb_stops_one_byte_past_the_cap(site: SiteServer) -> None:
    bomb = gzip_bomb(100 * MiB)
    assert len(bomb) < 150_000
    route = Route(body=bomb, headers=(("Content-Encoding", "gzip"),))
    fetched, peak = fetch_capped(site, route, MiB)
    assert outcome(fetched) == (200, "application/xml", bytes(MiB + 1), [])
    assert peak < 6 * MiB, f"peak {peak:,} bytes"


def test_bomb_of_many_gzip_members(site: SiteServer) -> None:
    """1 MB on the wire, 1 GiB decoded: a thousand members of 1 MiB of zeros each."""
    member = gzip.compress(bytes(MiB), compresslevel=9, mtime=0)
    members = 1024

    def stream() -> Iterator[bytes]:
        for _ in range(members):
            yield member

    route = Route(body=stream, headers=(("Content-Encoding", "gzip"),))
    fetched, peak = fetch_capped(site, route, 3 * MiB)
    assert len(member) * members > 1_000_000
    assert outcome(fetched) == (200, "application/xml", bytes(3 * MiB + 1), [])
    assert peak < 12 * MiB, f"peak {peak:,} bytes"


@pytest.mark.parametrize("codings", [6, 5000])
def test_a_long_chain_of_content_codings_is_not_undone(
    site: SiteServer, fetcher: Fetcher, codings: int
) -> None:
    """Past five codings (as urllib3 stops) the body is not decoded: a finding, not a
    decoder per coding (thousands of them nested past the recursion limit)."""
    body = SITEMAP
    for _ in range(codings if codings < 10 else 0):
        body = gzip.compress(body, mtime=0)
    header = ", ".join(["gzip"] * codings)
    site.routes["/sitemap.xml"] = Route(body=body, headers=(("Content-Encoding", header),))
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, "application/xml", None, ["FE012"])
    assert f"({codings:,} content codings, more than the 5 a fetch undoes)" in message(fetched)


def test_five_content_codings_are_undone(site: SiteServer, fetcher: Fetcher) -> None:
    body = SITEMAP
    for _ in range(5):
        body = gzip.compress(body, mtime=0)
    header = ", ".join(["gzip"] * 5)
    site.routes["/sitemap.xml"] = Route(body=body, headers=(("Content-Encoding", header),))
    assert outcome(fetcher.get(site.url("/sitemap.xml"))) == (200, "application/xml", SITEMAP, [])


def test_deflate_bomb_stops_one_byte_past_the_cap(site: SiteServer) -> None:
    body = zlib.compress(bytes(20 * MiB), 9)
    site.routes["/sitemap.xml"] = Route(body=body, headers=(("Content-Encoding", "deflate"),))
    with Fetcher(FetchSettings(hosts=ALL_HOSTS, timeout=2.0, max_bytes=100_000)) as client:
        fetched = client.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, "application/xml", bytes(100_001), [])


def test_plain_body_stops_one_byte_past_the_cap(site: SiteServer) -> None:
    site.routes["/sitemap.xml"] = Route(body=SITEMAP * 100)
    with Fetcher(FetchSettings(hosts=ALL_HOSTS, timeout=2.0, max_bytes=1000)) as client:
        fetched = client.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, "application/xml", (SITEMAP * 100)[:1001], [])


def test_default_cap_on_a_huge_streamed_body(site: SiteServer) -> None:
    """An 80 MiB body made on the fly: exactly READ_CAP + 1 bytes come back (the
    reader then reports the size limit), and the rest is never asked for."""
    chunk = (b"<url><loc>https://example.com/page</loc></url>\n" * 1400)[: 64 * 1024]
    total = 80 * MiB
    sent: list[int] = []

    def endless() -> Iterator[bytes]:
        for _ in range(total // len(chunk)):
            sent.append(len(chunk))
            yield chunk

    site.routes["/sitemap.xml"] = Route(body=endless)
    with Fetcher(FetchSettings(hosts=ALL_HOSTS, timeout=5.0)) as client:
        fetched = client.get(site.url("/sitemap.xml"))
    assert outcome(fetched)[:2] == (200, "application/xml")
    assert fetched.findings == ()
    assert fetched.body is not None and len(fetched.body) == READ_CAP + 1
    tail = (READ_CAP + 1) % len(chunk)
    assert fetched.body.startswith(chunk) and fetched.body.endswith(chunk + chunk[:tail])
    time.sleep(0.1)
    assert sum(sent) < total


# HTTP errors


@pytest.mark.parametrize(
    ("status", "code", "words"),
    [
        (404, "FE001", "404 Not Found"),
        (410, "FE001", "410 Gone"),
        (403, "FE001", "without a login"),
        (500, "FE002", "retry later"),
        (503, "FE002", "503 Service Unavailable"),
        (429, "FE002", "temporary"),
    ],
)
def test_error_status(
    site: SiteServer, fetcher: Fetcher, status: int, code: str, words: str
) -> None:
    site.routes["/sitemap.xml"] = Route(status=status, body=HTML, content_type="text/html")
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (status, "text/html", None, [code])
    assert words in message(fetched)


@pytest.mark.parametrize(
    ("status", "words"),
    [(404, "publish the site's robots.txt"), (403, "fetch robots.txt without a login")],
)
def test_error_status_of_a_robots_txt_speaks_of_robots_txt(
    site: SiteServer, fetcher: Fetcher, status: int, words: str
) -> None:
    site.routes["/robots.txt"] = Route(status=status, body=HTML, content_type="text/html")
    text = message(fetcher.get(site.url("/robots.txt")))
    assert words in text
    assert "sitemap at this URL" not in text


# Redirects


def test_permanent_redirect_to_a_valid_file(site: SiteServer, fetcher: Fetcher) -> None:
    site.routes["/old.xml"] = redirect("/sitemap.xml", 301)
    site.routes["/sitemap.xml"] = Route(body=SITEMAP)
    fetched = fetcher.get(site.url("/old.xml"))
    assert fetched.url == site.url("/old.xml")
    assert fetched.final_url == site.url("/sitemap.xml")
    assert outcome(fetched) == (200, "application/xml", SITEMAP, ["FE013"])
    assert site.url("/sitemap.xml") in message(fetched)
    assert site.paths == ["/old.xml", "/sitemap.xml"]


def test_a_fetched_file_s_directive_for_a_fetch_rule_is_judged(site: SiteServer) -> None:
    """A local file's directive naming an FE rule is not judged (no fetch ran); a
    fetched file's is: used where the fetch reported it, unused where it did not."""
    import sitemap_lint
    from tests.helpers import NOW

    body = SITEMAP.replace(b"<urlset", b"<!-- sitemap-lint: disable-file FE013 -->\n<urlset")
    site.routes["/old.xml"] = redirect("/sitemap.xml", 301)
    site.routes["/sitemap.xml"] = Route(body=body)

    def found(path: str) -> list[tuple[str, int]]:
        result = sitemap_lint.lint_paths(
            [site.url(path)], now=NOW, isolated=True, allow_private_hosts=True, select=["FE", "SU"]
        )
        return [(f.code, f.line) for f in result.findings]

    assert found("/old.xml") == []
    assert found("/sitemap.xml") == [("SU001", 2)]


def test_permanent_redirect_of_a_robots_txt_is_no_finding(
    site: SiteServer, fetcher: Fetcher
) -> None:
    robots = b"User-agent: *\nAllow: /\n"
    site.routes["/robots.txt"] = redirect(site.url("/new/robots.txt"), 301)
    site.routes["/new/robots.txt"] = Route(body=robots, content_type="text/plain")
    fetched = fetcher.get(site.url("/robots.txt"))
    assert outcome(fetched) == (200, "text/plain", robots, [])


@pytest.mark.parametrize("status", [302, 303, 307])
def test_temporary_redirect_is_no_finding(site: SiteServer, fetcher: Fetcher, status: int) -> None:
    site.routes["/now.xml"] = redirect(site.url("/sitemap.xml"), status)
    site.routes["/sitemap.xml"] = Route(body=SITEMAP)
    fetched = fetcher.get(site.url("/now.xml"))
    assert fetched.final_url == site.url("/sitemap.xml")
    assert outcome(fetched) == (200, "application/xml", SITEMAP, [])


def test_redirect_loop(site: SiteServer, fetcher: Fetcher) -> None:
    site.routes["/a.xml"] = redirect("/b.xml")
    site.routes["/b.xml"] = redirect("/a.xml", 302)
    fetched = fetcher.get(site.url("/a.xml"))
    assert outcome(fetched) == (302, None, None, ["FE005"])
    assert fetched.final_url == site.url("/b.xml")
    assert "/a.xml -> " in message(fetched) and "/b.xml -> " in message(fetched)
    assert site.paths == ["/a.xml", "/b.xml"]


def test_too_many_redirects(site: SiteServer, fetcher: Fetcher) -> None:
    for n in range(10):
        site.routes[f"/{n}.xml"] = redirect(f"/{n + 1}.xml", 302)
    fetched = fetcher.get(site.url("/0.xml"))
    assert outcome(fetched) == (302, None, None, ["FE006"])
    assert "more than 5 redirects" in message(fetched)
    assert site.paths == [f"/{n}.xml" for n in range(6)]


@pytest.mark.parametrize(
    "location",
    [
        "file:///etc/passwd",
        # a scheme and no host: httpx, building the next request, raised on these, and
        # the fetch was called a failure of the redirecting URL (FE003)
        "data:text/xml,<urlset/>",
        "jar:file:///etc/passwd!/",
        "view-source:file:///etc/passwd",
    ],
)
def test_redirect_to_another_scheme_is_not_followed(
    site: SiteServer, fetcher: Fetcher, location: str
) -> None:
    site.routes["/sitemap.xml"] = redirect(location)
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (301, None, None, ["FE007"])
    scheme = location.partition(":")[0]
    assert f"redirects to {location} ({scheme}:), which is not fetched" in message(fetched)
    assert site.paths == ["/sitemap.xml"]


@pytest.mark.parametrize("location", [None, "http://[::1/sitemap.xml", "http://:80/x"])
def test_broken_redirect(site: SiteServer, fetcher: Fetcher, location: str | None) -> None:
    site.routes["/sitemap.xml"] = Route(status=302, content_type=None, location=location)
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (302, None, None, ["FE008"])
    assert site.paths == ["/sitemap.xml"]


def test_redirect_with_several_different_locations_is_broken(
    site: SiteServer, fetcher: Fetcher
) -> None:
    """Which target is meant is unknown (browsers refuse it); httpx would join the two
    into one URL, '/a.xml, /b.xml', and request that."""
    locations = (("Location", "/a.xml"), ("Location", "/b.xml"))
    site.routes["/sitemap.xml"] = Route(status=302, content_type=None, headers=locations)
    site.routes["/a.xml"] = Route(body=SITEMAP)
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (302, None, None, ["FE008"])
    assert message(fetched) == (
        f"{site.url('/sitemap.xml')} redirects (302) with several different Location"
        " headers (/a.xml and /b.xml); send one Location header"
    )
    assert site.paths == ["/sitemap.xml"]


def test_redirect_repeating_one_location_is_followed(site: SiteServer, fetcher: Fetcher) -> None:
    locations = (("Location", "/a.xml"), ("Location", "/a.xml"))
    site.routes["/sitemap.xml"] = Route(status=302, content_type=None, headers=locations)
    site.routes["/a.xml"] = Route(body=SITEMAP)
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert (fetched.final_url, fetched.body) == (site.url("/a.xml"), SITEMAP)


# Failures without a usable response


def test_slow_response_gives_up_after_the_timeout(site: SiteServer) -> None:
    site.routes["/sitemap.xml"] = Route(body=SITEMAP, delay=5)
    started = time.monotonic()
    with Fetcher(FetchSettings(hosts=ALL_HOSTS, timeout=0.5)) as client:
        fetched = client.get(site.url("/sitemap.xml"))
    assert time.monotonic() - started < 3
    assert outcome(fetched) == (200, "application/xml", None, ["FE004"])
    assert "0.5 s" in message(fetched)


def test_trickling_body_gives_up_at_the_body_deadline(
    site: SiteServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sitemap_lint.inputs import fetch

    def trickle() -> Iterator[bytes]:
        for _ in range(2000):
            time.sleep(0.005)  # 200 times within the read timeout: a loaded machine too
            yield b" "

    site.routes["/sitemap.xml"] = Route(body=trickle)
    monkeypatch.setattr(fetch, "BODY_TIMEOUTS", 3)
    started = time.monotonic()
    settings = FetchSettings(hosts=ALL_HOSTS, timeout=1.0)  # the whole body: 3 x 1 s
    with Fetcher(settings) as client:
        fetched = client.get(site.url("/sitemap.xml"))
    assert time.monotonic() - started < 8
    assert outcome(fetched) == (200, "application/xml", None, ["FE004"])
    assert "still arriving 3 s after the request, its body unfinished" in message(fetched)


def _trickled_header() -> Iterator[bytes]:
    yield b"HTTP/1.1 200 OK\r\nX-Slow: "
    for _ in range(2000):
        time.sleep(0.005)
        yield b"x"


def _endless_informational_responses() -> Iterator[bytes]:
    for _ in range(2000):
        time.sleep(0.005)
        yield b"HTTP/1.1 100 Continue\r\n\r\n"


@pytest.mark.parametrize("trickle", [_trickled_header, _endless_informational_responses])
@pytest.mark.parametrize("guarded", [False, True], ids=["all-hosts", "guarded"])
def test_trickling_head_gives_up_at_the_deadline(
    site: SiteServer,
    monkeypatch: pytest.MonkeyPatch,
    guarded: bool,
    trickle: Callable[[], Iterator[bytes]],
) -> None:
    """A server that sends its head a byte at a time, or 100 Continue after 100
    Continue, each within the read timeout, is given up on as a trickling body is: no
    read resets the clock."""
    from sitemap_lint.inputs import fetch

    site.routes["/sitemap.xml"] = Route(raw=trickle)
    monkeypatch.setattr(fetch, "BODY_TIMEOUTS", 3)
    url = site.url("/sitemap.xml")
    hosts = HostPolicy.naming([url]) if guarded else ALL_HOSTS
    started = time.monotonic()
    with Fetcher(FetchSettings(hosts=hosts, timeout=1.0)) as client:  # 3 x 1 s in all
        fetched = client.get(url)
    assert time.monotonic() - started < 8
    assert outcome(fetched) == (None, None, None, ["FE004"])
    assert "still arriving 3 s after the request, its headers unfinished" in message(fetched)


def test_connection_refused(loopback_only, fetcher: Fetcher) -> None:  # noqa: F811
    url = unused_url("/sitemap.xml")
    fetched = fetcher.get(url)
    assert fetched == Fetched(url, url, None, None, None, fetched.problems)
    assert outcome(fetched) == (None, None, None, ["FE003"])
    assert "refused" in message(fetched)


def test_host_that_does_not_resolve(loopback_only, fetcher: Fetcher, monkeypatch) -> None:  # noqa: F811
    def no_such_host(address, *args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "create_connection", no_such_host)
    fetched = fetcher.get("https://sitemap.invalid/sitemap.xml")
    assert outcome(fetched) == (None, None, None, ["FE003"])
    assert "sitemap.invalid does not resolve" in message(fetched)
    # the host name alone: neither the port nor a password written before the host
    fetched = fetcher.get("https://user:s3cret@sitemap.invalid:8443/sitemap.xml")
    assert "the host name sitemap.invalid does not resolve" in message(fetched)
    assert "s3cret" not in message(fetched).replace(fetched.url, "")


def test_tls_handshake_failure(site: SiteServer, fetcher: Fetcher) -> None:
    url = f"https://127.0.0.1:{site.port}/sitemap.xml"  # the server speaks plain HTTP
    fetched = fetcher.get(url)
    assert outcome(fetched) == (None, None, None, ["FE003"])
    assert "TLS" in message(fetched)


def test_body_cut_short(site: SiteServer, fetcher: Fetcher) -> None:
    site.routes["/sitemap.xml"] = Route(body=SITEMAP, headers=(("Content-Length", "9999"),))
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, "application/xml", None, ["FE003"])


@pytest.mark.parametrize(
    "url", ["ftp://127.0.0.1/sitemap.xml", "file:///etc/passwd", "127.0.0.1/sitemap.xml"]
)
def test_other_schemes_are_never_requested(site: SiteServer, fetcher: Fetcher, url: str) -> None:
    fetched = fetcher.get(url)
    assert fetched == Fetched(url, url, None, None, None, fetched.problems)
    assert [f.code for f in fetched.findings] == ["FE007"]
    assert site.log == []


def test_invalid_url_is_a_finding(loopback_only, fetcher: Fetcher) -> None:  # noqa: F811
    fetched = fetcher.get("http://[::1/sitemap.xml")
    assert outcome(fetched) == (None, None, None, ["FE003"])
    assert "not a valid URL" in message(fetched)


def test_an_invalid_url_holding_a_line_break_is_quoted_on_one_line(
    loopback_only,  # noqa: F811
    fetcher: Fetcher,
) -> None:
    fetched = fetcher.get("http://example.com/a\nb.xml")
    assert outcome(fetched)[3] == ["FE003"]
    text = message(fetched)
    assert "http://example.com/a\\x0ab.xml" in text and "\n" not in text


# Content types and encodings


def test_html_page_is_left_to_the_checker(site: SiteServer, fetcher: Fetcher) -> None:
    site.routes["/sitemap.xml"] = Route(body=HTML, content_type="text/html; charset=utf-8")
    assert outcome(fetcher.get(site.url("/sitemap.xml"))) == (200, "text/html", HTML, [])


@pytest.mark.parametrize(
    ("media", "expected"),
    [
        ("text/html", "text/html"),  # XML served as HTML
        ("image/png", "image/png"),
        ("Application/JSON; charset=utf-8", "application/json"),
    ],
)
def test_wrong_content_type(site: SiteServer, fetcher: Fetcher, media: str, expected: str) -> None:
    site.routes["/sitemap.xml"] = Route(body=SITEMAP, content_type=media)
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, expected, SITEMAP, ["FE009"])
    assert "application/xml" in message(fetched)


@pytest.mark.parametrize(
    "media", ["text/xml", "application/rss+xml", "application/atom+xml", "text/plain"]
)
def test_accepted_content_types(site: SiteServer, fetcher: Fetcher, media: str) -> None:
    site.routes["/sitemap.xml"] = Route(body=SITEMAP, content_type=media)
    assert outcome(fetcher.get(site.url("/sitemap.xml"))) == (200, media, SITEMAP, [])


def test_missing_content_type(site: SiteServer, fetcher: Fetcher) -> None:
    site.routes["/sitemap.xml"] = Route(body=SITEMAP, content_type=None)
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, None, SITEMAP, ["FE010"])


def test_empty_body_has_no_content_type_finding(site: SiteServer, fetcher: Fetcher) -> None:
    site.routes["/sitemap.xml"] = Route(body=b"", content_type=None)
    assert outcome(fetcher.get(site.url("/sitemap.xml"))) == (200, None, b"", [])


@pytest.mark.parametrize("encoding", ["br", "zstd", "gzip, br"])
def test_unsupported_content_encoding(site: SiteServer, fetcher: Fetcher, encoding: str) -> None:
    site.routes["/sitemap.xml"] = Route(
        body=b"\x1b\x27\x00", headers=(("Content-Encoding", encoding),)
    )
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, "application/xml", None, ["FE011"])


@pytest.mark.parametrize(
    "body",
    [SITEMAP, gzip.compress(SITEMAP)[:-30], gzip.compress(SITEMAP)[:12]],
    ids=["not-compressed", "truncated", "header-only"],
)
def test_corrupt_content_encoding(site: SiteServer, fetcher: Fetcher, body: bytes) -> None:
    site.routes["/sitemap.xml"] = Route(body=body, headers=(("Content-Encoding", "gzip"),))
    fetched = fetcher.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, "application/xml", None, ["FE012"])


def test_compressed_body_that_never_ends(site: SiteServer) -> None:
    """Empty deflate blocks decode to nothing: the compressed size is capped too."""
    empty_blocks = b"\x00\x00\x00\xff\xff" * 100_000

    site.routes["/sitemap.xml"] = Route(
        body=lambda: [b"\x78\x9c", empty_blocks], headers=(("Content-Encoding", "deflate"),)
    )
    with Fetcher(FetchSettings(hosts=ALL_HOSTS, timeout=2.0, max_bytes=10_000)) as client:
        fetched = client.get(site.url("/sitemap.xml"))
    assert outcome(fetched) == (200, "application/xml", None, ["FE012"])


def test_httpx_is_imported_only_when_fetching() -> None:
    code = "import sys, sitemap_lint.inputs.fetch; print('httpx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_fetchers_share_one_tls_context_for_the_same_authorities(monkeypatch) -> None:
    import certifi
    import httpx

    Fetcher(FetchSettings(hosts=ALL_HOSTS)).close()  # the process's context is made
    made: list[object] = []
    original = httpx.create_ssl_context

    def spy(*args: object, **kwargs: object) -> object:
        made.append(args)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(httpx, "create_ssl_context", spy)
    for hosts in (ALL_HOSTS, HostPolicy.naming(["https://example.com/"])):
        Fetcher(FetchSettings(hosts=hosts)).close()
    assert made == []
    # Other trusted authorities (a custom CA, as tests/test_private_hosts.py names) get their own.
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    Fetcher(FetchSettings(hosts=ALL_HOSTS)).close()
    assert len(made) == 1


def test_a_plugin_checks_what_went_wrong_fetching(site: SiteServer, fetcher: Fetcher) -> None:
    """What went wrong comes through the rule API: a plugin's ``fetch`` check sees the
    problem as the fetcher found it, beside the built-in FE finding."""
    from sitemap_lint.engine.dispatch import fetch_findings
    from sitemap_lint.rules.events import FetchProblem
    from sitemap_lint.rules.registry import FETCH
    from sitemap_lint.rules.structure import Reporter
    from tests.helpers import noting_rule, plugin_checks

    noted = noting_rule("ZX005", "noted-fetch")

    def note(problem: FetchProblem, options: object, report: Reporter) -> None:
        report.add(noted.at(1, 1, f"{problem.kind} {problem.status}"))

    site.routes["/sitemap.xml"] = Route(status=404, body=HTML, content_type="text/html")
    fetched = fetcher.get(site.url("/sitemap.xml"))
    with plugin_checks((FETCH, noted, note)):
        found = fetch_findings(fetched.problems)
    assert [(f.code, f.message) for f in found if f.code == "ZX005"] == [
        ("ZX005", "error-status 404")
    ]
    assert [f.code for f in found] == ["FE001", "ZX005"]
    # A run that reports no FE rule makes nothing of it.
    assert fetch_findings(fetched.problems, frozenset({"UR001"})) == []


def test_a_sitemap_line_of_two_urls_run_together_is_followed_by_neither(site: SiteServer) -> None:
    """`Sitemap: A B` names no one sitemap: UR006 reports the line, and neither A, B nor
    "A B" is fetched; the robots.txt's other Sitemap lines are followed."""
    import sitemap_lint
    from tests.helpers import NOW

    first, second, third = (site.url(f"/{name}.xml") for name in ("a", "b", "c"))
    robots = f"User-agent: *\nAllow: /\nSitemap: {first} {second}\nSitemap: {third}\n"
    site.routes["/robots.txt"] = Route(body=robots.encode(), content_type="text/plain")
    for path in ("/a.xml", "/b.xml", "/c.xml"):
        site.routes[path] = Route(body=SITEMAP)
    result = sitemap_lint.lint_paths(
        [site.url("/robots.txt")], now=NOW, isolated=True, allow_private_hosts=True
    )
    assert site.paths == ["/robots.txt", "/c.xml"]
    assert [(f.code, f.line) for f in result.findings if f.path.endswith("robots.txt")] == [
        ("UR006", 3)
    ]
