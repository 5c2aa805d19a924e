"""Value family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

import pytest

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node
from sitemap_lint.rules import values
from sitemap_lint.rules.values import check_changefreq, check_priority
from tests.helpers import check_message

MESSAGES = [
    ("VA001/fail.xml", "did you mean 'daily'?"),
    ("VA001/fail-typo.xml", "did you mean 'daily'?"),
    ("VA001/fail-word.xml", "use one of always, hourly, daily, weekly, monthly, yearly, never"),
    ("VA002/fail.xml", "written exactly 'daily'"),
    ("VA002/fail-space.xml", "written exactly 'weekly'"),
    ("VA003/fail.xml", "write 1.0 for the most important pages"),
    ("VA003/fail-negative.xml", "write 0.0 for the least important pages"),
    ("VA003/fail-comma.xml", "write 0.5"),
    ("VA003/fail-word.xml", "write a decimal from 0.0 to 1.0"),
    ("VA003/fail-scale.xml", "as a percentage write 0.8"),
    ("VA003/fail-percent.xml", "write 0.5"),
]


@pytest.mark.parametrize(("fixture", "text"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message_shows_the_fix(fixture: str, text: str) -> None:
    check_message(fixture, text)


class Collect:
    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.covered: list[Node] = []

    def add(self, finding: Finding, covers: Node | None = None) -> None:
        self.findings.append(finding)
        if covers is not None:
            self.covered.append(covers)


def changefreq(value: str) -> Collect:
    report = Collect()
    check_changefreq(value, Node("", "changefreq", {}, 6, 5), report)
    return report


def priority(value: str) -> Collect:
    report = Collect()
    check_priority(value, Node("", "priority", {}, 7, 5), report)
    return report


@pytest.mark.parametrize("value", values.CHANGEFREQS)
def test_every_changefreq_value_passes(value: str) -> None:
    assert changefreq(value).findings == []


@pytest.mark.parametrize(
    ("value", "guess"),
    [
        ("every day", "daily"),
        ("Every-Week", "weekly"),
        ("per hour", "hourly"),
        ("annually", "yearly"),
        ("monthy", "monthly"),
        ("weakly", "weekly"),
        ("alway", "always"),
        ("nevr", "never"),
    ],
)
def test_changefreq_suggestion(value: str, guess: str) -> None:
    report = changefreq(value)
    (finding,) = report.findings
    assert finding.code == "VA001"
    assert f"did you mean {guess!r}?" in finding.message
    assert report.covered  # the schema rejects the value too: one finding, not two


@pytest.mark.parametrize("value", ["sometimes", "fortnightly", "2"])
def test_changefreq_without_a_good_guess_lists_the_values(value: str) -> None:
    (finding,) = changefreq(value).findings
    assert "did you mean" not in finding.message
    assert "use one of always, hourly" in finding.message


@pytest.mark.parametrize("value", ["DAILY", "Weekly", "monthly ", "\n  never\n"])
def test_changefreq_form(value: str) -> None:
    report = changefreq(value)
    assert [f.code for f in report.findings] == ["VA002"]
    assert report.covered


@pytest.mark.parametrize(
    "value", ["0.0", "0", "0.5", ".5", "1", "1.0", "1.00", "0.75", "+0.5", "-0", "1.", " 0.8 "]
)
def test_priority_in_range_passes(value: str) -> None:
    assert priority(value).findings == []


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("1.5", "outside 0.0 to 1.0; write 1.0"),
        ("1.0000001", "outside 0.0 to 1.0"),
        ("-0.1", "write 0.0"),
        ("5", "on a 0-10 scale write 0.5"),
        ("10", "on a 0-10 scale write 1.0"),
        ("80", "as a percentage write 0.8"),
        ("100", "as a percentage write 1.0"),
        ("50%", "is a percentage; write 0.5"),
        ("150%", "is a percentage; write a decimal from 0.0 to 1.0"),
        ("0,5", "uses a decimal comma; write 0.5"),
        ("2,5", "uses a decimal comma and is outside 0.0 to 1.0"),
        ("high", "is not a number"),
        ("1e-1", "is in scientific notation, which the schema's decimal does not take; write 0.1"),
        ("NaN", "is not a number"),
    ],
)
def test_priority_messages(value: str, text: str) -> None:
    report = priority(value)
    (finding,) = report.findings
    assert finding.code == "VA003"
    assert text in finding.message, finding.message
    assert report.covered
