"""Scope family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.domain.urls import normal_path
from sitemap_lint.rules.scope import _remove_dot_segments
from sitemap_lint.run import parse_sitemap_url
from tests.helpers import fixture, lint, lint_content
from tests.helpers import message as message_of

CATALOG = "https://example.com/catalog/sitemap.xml"


# Where the passing fixtures are served from (None: checked without --sitemap-url).
SITEMAP_URLS = {"SC001": CATALOG, "SC002": CATALOG}


@pytest.mark.parametrize(
    "sitemap_url",
    [
        "https://example.com/sitemap.xml",
        "https://example.com:443/catalog/sitemap.xml",
        "https://EXAMPLE.com/catalog/sitemap.xml",
        "https://example.com/catalog/./sitemap.xml",
    ],
)
def test_passing_fixture_from_other_equivalent_locations(sitemap_url: str) -> None:
    assert lint(fixture("SC002/pass.xml"), sitemap_url).findings == []


def test_without_sitemap_url_scope_is_not_checked() -> None:
    """SC001/SC002 need --sitemap-url; their fixtures are then clean."""
    for name in ("fail.xml", "fail-www.xml", "fail-port.xml", "fail-index.xml"):
        assert [f.code for f in lint(fixture(f"SC001/{name}")).findings] == ["SC003"]
    for name in ("fail.xml", "fail-sibling.xml", "fail-dot-segments.xml", "fail-index.xml"):
        found = lint(fixture(f"SC002/{name}")).findings
        assert [f.code for f in found if f.code != "UR018"] == []  # (dot segments: UR018)


def test_other_origin_message_names_both_origins() -> None:
    message = message_of("SC001/fail-www.xml")
    assert "https://www.example.com" in message
    assert "list only URLs on https://example.com" in message


def test_index_messages_speak_of_sitemaps() -> None:
    assert "list only sitemaps on https://example.com" in message_of("SC001/fail-index.xml")
    assert "list only sitemaps under /catalog/" in message_of("SC002/fail-index.xml")


def test_outside_directory_message_shows_the_resolved_path() -> None:
    message = message_of("SC002/fail-dot-segments.xml")
    assert "'/catalog/../about' (that is, '/about')" in message
    assert "list only URLs under /catalog/" in message


def test_mixed_origins_counts_every_url_off_the_first_origin() -> None:
    message = message_of("SC003/fail-several.xml")
    assert "URL on https://www.example.com" in message
    assert "first URL (line 4) is on https://example.com" in message
    assert "3 URLs in this file are not on" in message
    assert "--sitemap-url" in message


@pytest.mark.parametrize(
    ("path", "resolved"),
    [
        ("/", "/"),
        ("/a/b", "/a/b"),
        ("/a/./b", "/a/b"),
        ("/a/b/../c", "/a/c"),
        ("/a/b/..", "/a/"),
        ("/..", "/"),
        ("/a/.well-known/x", "/a/.well-known/x"),
    ],
)
def test_remove_dot_segments(path: str, resolved: str) -> None:
    assert _remove_dot_segments(path) == resolved


@pytest.mark.parametrize(
    "sitemap_url",
    [
        "https://faß.de/sitemap.xml",
        "https://FAß.DE./sitemap.xml",
        "https://xn--fa-hia.de/sitemap.xml",
    ],
)
def test_idn_hosts_compare_as_browsers_encode_them(sitemap_url: str) -> None:
    """faß.de is xn--fa-hia.de (UTS #46), not fass.de (IDNA 2003): the same origin."""
    path = fixture("UR011/fail-idn-sharp-s.xml")
    codes = [f.code for f in lint(path, sitemap_url).findings]
    assert codes == ["UR011"]
    assert [f.code for f in lint(path, "https://fass.de/sitemap.xml").findings].count("SC001") == 3


@pytest.mark.parametrize(
    ("path", "normal"),
    [
        ("/~alice/a", "/~alice/a"),
        ("/%7Ealice/a", "/~alice/a"),
        ("/%7ealice/a", "/~alice/a"),
        ("/caf%c3%a9/", "/caf%C3%A9/"),
        ("/café/", "/caf%C3%A9/"),
        ("/a%2fb/x/%2E%2E/c", "/a%2Fb/c"),
        ("/a b/50%/%zz", "/a%20b/50%/%zz"),
        ("/a/./b/../c", "/a/c"),
    ],
)
def test_normal_path(path: str, normal: str) -> None:
    assert normal_path(path) == normal


@pytest.mark.parametrize(
    ("directory", "url_path"),
    [
        ("%7Ealice", "~alice"),
        ("~alice", "%7Ealice"),
        ("%7ealice", "%7Ealice"),
        ("caf%C3%A9", "café"),
        ("café", "caf%C3%A9"),
        ("caf%c3%a9", "caf%C3%A9"),
        ("caf%C3%A9", "caf%c3%a9"),
    ],
)
def test_equivalent_encodings_are_one_directory(directory: str, url_path: str) -> None:
    """RFC 3986, 2.3 and 6.2.2.1, RFC 3987: a crawler compares them as one."""
    from sitemap_lint.domain.urls import ParsedURL
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.model import Node
    from sitemap_lint.rules.scope import ScopeChecker
    from sitemap_lint.rules.urls import parse_url

    checker = ScopeChecker(parse_url(f"https://example.com/{directory}/sitemap.xml"))
    found = FindingList()
    node = Node("", "loc", {}, 1, 1)
    for path in (f"/{url_path}/a", f"/{url_path}/"):
        checker.check(ParsedURL("https", "example.com", 443, path), node, found)
    assert list(found) == []
    checker.check(ParsedURL("https", "example.com", 443, f"/x/{url_path}/a"), node, found)
    assert [f.code for f in found] == ["SC002"]


@pytest.mark.parametrize(
    ("sitemap_url", "hosts"),
    [
        ("https://[::1]/sitemap.xml", ["[0:0::1]", "[::0001]", "[0::1]:443"]),
        ("https://[0:0::1]/sitemap.xml", ["[::1]"]),
        ("https://127.0.0.1/sitemap.xml", ["127.1", "0x7f.0.0.1", "127.0.0.1."]),
        ("https://127.1/sitemap.xml", ["127.0.0.1"]),
    ],
)
def test_spellings_of_one_ip_address_are_one_origin(
    sitemap_url: str, hosts: list[str], tmp_path: Path
) -> None:
    """Browsers write an IP address host in one form (WHATWG URL): [::1], 127.0.0.1."""
    entries = "".join(f"<url><loc>https://{host}/page</loc></url>" for host in hosts)
    content = f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'
    location = parse_sitemap_url(sitemap_url)
    found = lint_content(tmp_path, content, sitemap_url=location).findings
    # (":443": UR018; a loopback host: UR019)
    assert [f.code for f in found if f.code not in ("UR018", "UR019")] == []
    other = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://[::2]/page</loc></url></urlset>'
    found = lint_content(tmp_path, other, sitemap_url=location).findings
    assert [f.code for f in found if f.code != "UR019"] == ["SC001"]
