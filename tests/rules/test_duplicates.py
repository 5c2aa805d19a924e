"""Duplicate family: each failing fixture gives exactly the expected finding; the passing one none."""

from __future__ import annotations

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
