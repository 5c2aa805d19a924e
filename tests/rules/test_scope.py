"""Scope family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

import pytest

from sitemap_lint.rules.scope import _remove_dot_segments
from tests.helpers import fixture, lint
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
        assert lint(fixture(f"SC002/{name}")).findings == []


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
    assert "3 URL(s)" in message
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
