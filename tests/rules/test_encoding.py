"""Encoding family: UTF-8 only; other encodings are reported and the file is still checked."""

import pytest

from sitemap_lint.finding import Severity
from tests.helpers import RULE_FIXTURES, lint

# Cases that fail because of a bug outside this family's modules (see the reasons).


def only(code: str, fixture: str):
    [finding] = [f for f in lint(RULE_FIXTURES / code / fixture).findings if f.code == code]
    return finding


@pytest.mark.parametrize(
    ("fixture", "column", "shown"),
    [("fail.xml", 23, "byte E9 is"), ("fail-windows-1252.xml", 26, "byte 92 is")],
)
def test_invalid_bytes_message_shows_the_byte(fixture: str, column: int, shown: str) -> None:
    finding = only("EN001", fixture)
    assert shown in finding.message
    assert "re-encode the file as UTF-8" in finding.message
    assert finding.column == column


def test_invalid_bytes_are_reported_once_per_line() -> None:
    result = lint(RULE_FIXTURES / "EN001" / "fail-two-lines.xml")
    assert [(f.line, f.column) for f in result.findings] == [(8, 23), (15, 22)]


@pytest.mark.parametrize(
    ("fixture", "declared", "fix"),
    [
        ("fail.xml", 'encoding="iso-8859-1"', "convert the file to UTF-8"),
        ("fail-windows-1252.xml", 'encoding="windows-1252"', "convert the file to UTF-8"),
        (
            "fail-utf16-declared.xml",
            'encoding="utf-16" but the bytes are not',
            'write encoding="UTF-8"',
        ),
    ],
)
def test_declared_encoding_message(fixture: str, declared: str, fix: str) -> None:
    message = only("EN002", fixture).message
    assert declared in message
    assert fix in message


def test_declared_encoding_is_used_to_decode() -> None:
    # The Latin-1 'é' decodes with the declared encoding: no EN001 on top of EN002.
    result = lint(RULE_FIXTURES / "EN002" / "fail.xml")
    assert [f.code for f in result.findings] == ["EN002"]


@pytest.mark.parametrize(
    ("fixture", "family"),
    [
        ("fail.xml", "UTF-16 (utf-16-le)"),
        ("fail-no-bom.xml", "UTF-16 (utf-16-le)"),
        ("fail-big-endian.xml", "UTF-16 (utf-16-be)"),
        ("fail-utf32.xml", "UTF-32 (utf-32-le)"),
    ],
)
def test_wide_encoding_message_names_it(fixture: str, family: str) -> None:
    message = only("EN003", fixture).message
    assert family in message
    assert "must be UTF-8" in message


def test_byte_order_mark_is_info_only() -> None:
    finding = only("EN004", "fail.xml")
    assert finding.severity is Severity.INFO
    assert "without" in finding.message
