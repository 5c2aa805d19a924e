"""Duplicate family: each failing fixture gives exactly the expected finding; the passing one none."""

from __future__ import annotations

import pytest

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node
from sitemap_lint.rules import duplicates
from sitemap_lint.rules.duplicates import DuplicateTracker
from tests.helpers import Case, check_case, check_pass, lint

CASES = [
    Case("DU001", "fail.xml", line=22),  # the product page again, at the end
    Case("DU001", "fail-minified.xml", line=2),  # both on line 2, in different columns
    # The padded copy is still a duplicate; the padding itself is a second defect.
    Case("DU001", "fail-padded.xml", line=22, also=(("UR005", 22),)),
    Case("DU001", "fail-index.xml", line=12),  # a child sitemap listed twice
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_failing_fixture(case: Case) -> None:
    check_case(case)


@pytest.mark.parametrize("code", [rule.code for rule in duplicates.RULES])
def test_passing_fixture(code: str) -> None:
    check_pass(code)


def _duplicate(case: Case) -> Finding:
    (finding,) = [f for f in lint(case.path).findings if f.code == "DU001"]
    return finding


def test_message_points_to_the_first_occurrence() -> None:
    message = _duplicate(CASES[0]).message
    assert "'https://example.com/products/shoes' is already listed at line 10;" in message
    assert "remove this entry" in message


def test_minified_message_gives_the_column_of_the_first_occurrence() -> None:
    finding = _duplicate(CASES[1])
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
