"""Duplicate family: each failing fixture gives exactly the expected finding; the passing one none."""

from __future__ import annotations

import pytest

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node
from sitemap_lint.rules.duplicates import DuplicateTracker
from tests.helpers import lint_fixture


def _duplicate(name: str) -> Finding:
    (finding,) = [f for f in lint_fixture(name).findings if f.code == "DU001"]
    return finding


def test_message_points_to_the_first_occurrence() -> None:
    message = _duplicate("DU001/fail.xml").message
    assert "'https://example.com/products/shoes' is already listed at line 10;" in message
    assert "remove this entry" in message


def test_minified_message_gives_the_column_of_the_first_occurrence() -> None:
    finding = _duplicate("DU001/fail-minified.xml")
    assert "already listed at line 2, column 137" in finding.message
    assert finding.column > 137


class Collect:
    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def add(self, finding: Finding, covers: Node | None = None) -> None:
        self.findings.append(finding)


def test_tracker_reports_every_repeat_against_the_first() -> None:
    tracker, report = DuplicateTracker(), Collect()
    for line, url in enumerate(["https://example.com/a", "https://example.com/b"] * 3, start=4):
        tracker.check(url, Node("", "loc", {}, line, 5), report)
    assert [(f.line, f.message.split("at ")[1][:7]) for f in report.findings] == [
        (6, "line 4;"),
        (7, "line 5;"),
        (8, "line 4;"),
        (9, "line 5;"),
    ]


def test_tracker_tells_apart_urls_that_differ_only_slightly() -> None:
    tracker, report = DuplicateTracker(), Collect()
    urls = [
        "https://example.com/a",
        "https://example.com/a/",
        "https://example.com/A",
        "http://example.com/a",
        "https://example.com/a?x=1",
    ]
    for column, url in enumerate(urls, start=1):
        tracker.check(url, Node("", "loc", {}, 1, column * 100), report)
    assert report.findings == []


def test_a_long_url_keeps_its_end_in_the_message() -> None:
    """A long URL is cut in its middle: pages of one site share their start, and what
    tells one from the next (``-2.jpg``, ``page/3/``) is at the end."""
    tracker, report = DuplicateTracker(), Collect()
    url = "https://example.com/wp-content/uploads/2024/07/" + "%D8%AA" * 20 + "-BAT-2.jpg"
    for line in (4, 8):
        tracker.check(url, Node("", "loc", {}, line, 5), report)
    (finding,) = report.findings
    assert "-BAT-2.jpg' is already listed at line 4" in finding.message
    assert "https://example.com/wp-content/" in finding.message


# -- the normal form: host case, default port, empty path ------------------------------------


@pytest.mark.parametrize(
    ("url", "normal"),
    [
        ("https://EXAMPLE.com/One", "https://example.com/One"),
        ("HTTPS://example.com:443/a", "https://example.com/a"),
        ("http://example.com:80", "http://example.com/"),
        ("https://example.com:80/a", "https://example.com:80/a"),
        ("https://example.com?q=1", "https://example.com/?q=1"),
        ("https://user:Pw@Example.com:/a", "https://user:Pw@example.com/a"),
        ("https://[2001:DB8::1]:443/", "https://[2001:db8::1]/"),
        ("not a url", "not a url"),
        # RFC 3986 6.2.2.1-2: escapes' hex digits in upper case, unreserved ones decoded.
        ("https://example.com/caf%c3%a9?q=%e2%82%ac", "https://example.com/caf%C3%A9?q=%E2%82%AC"),
        ("https://example.com/%7Euser/%41%2d%5f%2E%30", "https://example.com/~user/A-_.0"),
        ("https://example.com/a%2fb%3F%25%20", "https://example.com/a%2Fb%3F%25%20"),
        ("https://example.com/%zz%4", "https://example.com/%zz%4"),
        # RFC 3987 3.1: an IRI is the URI of its UTF-8, percent-encoded; the host in IDNA.
        ("https://example.com/café?q=ü#ß", "https://example.com/caf%C3%A9?q=%C3%BC#%C3%9F"),
        ("https://Bücher.example/é", "https://xn--bcher-kva.example/%C3%A9"),
        ("https://☃.example/a", "https://☃.example/a"),  # no IDNA form: kept
        ("https://example.com/é/./a/../b?x=/./é", "https://example.com/%C3%A9/b?x=/./%C3%A9"),
        ("https://example.com?q=é", "https://example.com/?q=%C3%A9"),
        ("https://Example.com/é", "https://example.com/%C3%A9"),
        ("https://example.com:443/é", "https://example.com/%C3%A9"),
        ("https://é@example.com/é", "https://%C3%A9@example.com/%C3%A9"),
        ("https://bücher.example/./é", "https://xn--bcher-kva.example/%C3%A9"),
        # RFC 3986 6.2.2.3: dot-segments removed from the path (not the query).
        ("https://example.com/a/./b/../c?x=/../y", "https://example.com/a/c?x=/../y"),
        ("https://example.com/a/b/..", "https://example.com/a/"),
        ("https://example.com/../%2E%2e/x/.", "https://example.com/x/"),
        ("https://example.com/.well-known/a..b", "https://example.com/.well-known/a..b"),
    ],
)
def test_normal_url(url: str, normal: str) -> None:
    from sitemap_lint.sets.facts import normal_url

    assert normal_url(url) == normal


def test_duplicates_in_normal_form_name_it_and_exact_ones_keep_their_message(tmp_path) -> None:
    from tests.helpers import lint_content

    content = (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc>https://EXAMPLE.com/a</loc></url>\n"
        "<url><loc>https://EXAMPLE.com/a</loc></url>\n"
        "<url><loc>https://example.com:443/a</loc></url>\n"
        "</urlset>\n"
    )
    first, second = [f for f in lint_content(tmp_path, content).findings if f.code == "DU001"]
    assert (first.line, second.line) == (3, 4)
    assert "is already listed at line 2" in first.message
    assert "both are 'https://example.com/a' once normalised" in second.message


def test_escapes_differing_in_case_or_of_unreserved_characters_are_duplicates(tmp_path) -> None:
    from tests.helpers import lint_content

    content = (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc>https://example.com/caf%C3%A9</loc></url>\n"
        "<url><loc>https://example.com/caf%c3%a9</loc></url>\n"
        "<url><loc>https://example.com/~team</loc></url>\n"
        "<url><loc>https://example.com/%7Eteam</loc></url>\n"
        "<url><loc>https://example.com/a%2Fb</loc></url>\n"
        "<url><loc>https://example.com/a/b</loc></url>\n"
        "<url><loc>https://example.com/café</loc></url>\n"
        "<url><loc>https://bücher.example/</loc></url>\n"
        "<url><loc>https://xn--bcher-kva.example/</loc></url>\n"
        "<url><loc>https://example.com/x/./y/../z</loc></url>\n"
        "<url><loc>https://example.com/x/z</loc></url>\n"
        "</urlset>\n"
    )
    found = [f for f in lint_content(tmp_path, content).findings if f.code == "DU001"]
    assert [(f.line, f.message.split(" once")[0].split("both are ")[1]) for f in found] == [
        (3, "'https://example.com/caf%C3%A9'"),
        (5, "'https://example.com/~team'"),
        (8, "'https://example.com/caf%C3%A9'"),
        (10, "'https://xn--bcher-kva.example/'"),
        (12, "'https://example.com/x/z'"),
    ]
    assert "how a character is percent-encoded and '.' or '..'" in found[0].message
