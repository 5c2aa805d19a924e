"""Scope family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

import pytest

from sitemap_lint.rules import scope
from sitemap_lint.rules.scope import _remove_dot_segments
from tests.helpers import RULE_FIXTURES, Case, check_case, check_pass, lint

CATALOG = "https://example.com/catalog/sitemap.xml"

CASES = [
    Case("SC001", "fail.xml", line=16, sitemap_url=CATALOG),  # http:// instead of https://
    Case("SC001", "fail-www.xml", line=16, sitemap_url=CATALOG),  # www. instead of the bare host
    Case("SC001", "fail-port.xml", line=16, sitemap_url=CATALOG),  # :8080
    Case("SC001", "fail-index.xml", line=8, sitemap_url=CATALOG),  # a child sitemap on example.org
    Case("SC002", "fail.xml", line=16, sitemap_url=CATALOG),  # /about, above /catalog/
    Case("SC002", "fail-sibling.xml", line=16, sitemap_url=CATALOG),  # /catalogue/ beside it
    Case("SC002", "fail-dot-segments.xml", line=16, sitemap_url=CATALOG),  # /catalog/../about
    Case("SC002", "fail-index.xml", line=8, sitemap_url=CATALOG),  # a child above the index
    Case("SC003", "fail.xml", line=16),  # http:// among https:// URLs
    Case("SC003", "fail-several.xml", line=16),  # three URLs on two other origins: one finding
]

# Where the passing fixtures are served from (None: checked without --sitemap-url).
SITEMAP_URLS = {"SC001": CATALOG, "SC002": CATALOG}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_failing_fixture(case: Case) -> None:
    check_case(case)


@pytest.mark.parametrize("code", [rule.code for rule in scope.RULES])
def test_passing_fixture(code: str) -> None:
    check_pass(code, SITEMAP_URLS.get(code))


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
    check_pass("SC002", sitemap_url)


def test_without_sitemap_url_scope_is_not_checked() -> None:
    """SC001/SC002 need --sitemap-url; their fixtures are then clean."""
    for case in CASES[:4]:
        assert [f.code for f in lint(case.path).findings] == ["SC003"]
    for case in CASES[4:8]:
        assert lint(case.path).findings == []


def _message(case: Case) -> str:
    (finding,) = lint(case.path, case.sitemap_url).findings
    return finding.message


def test_other_origin_message_names_both_origins() -> None:
    message = _message(CASES[1])
    assert "https://www.example.com" in message
    assert "list only URLs on https://example.com" in message


def test_index_messages_speak_of_sitemaps() -> None:
    assert "list only sitemaps on https://example.com" in _message(CASES[3])
    assert "list only sitemaps under /catalog/" in _message(CASES[7])


def test_outside_directory_message_shows_the_resolved_path() -> None:
    message = _message(CASES[6])
    assert "'/catalog/../about' (that is, '/about')" in message
    assert "list only URLs under /catalog/" in message


def test_mixed_origins_counts_every_url_off_the_first_origin() -> None:
    message = _message(CASES[9])
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
    path = RULE_FIXTURES / "UR011" / "fail-idn-sharp-s.xml"
    codes = [f.code for f in lint(path, sitemap_url).findings]
    assert codes == ["UR011"]
    assert [f.code for f in lint(path, "https://fass.de/sitemap.xml").findings].count("SC001") == 3
