"""The text report writes plain lines itself where nothing is styled or wrapped: the
same characters as rich renders them."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from sitemap_lint import cli
from sitemap_lint.engine.results import FileResult
from sitemap_lint.finding import Finding, Severity
from sitemap_lint.inputs.lines import AROUND, WHOLE_LINE, SourceLine
from sitemap_lint.report import text as text_report
from sitemap_lint.report.text import MIN_EXCERPT, TextReporter
from tests.helpers import FIXTURES, RULE_FIXTURES, Draws, draws

CASES = [
    FIXTURES / "report" / "mixed.xml",
    *sorted(RULE_FIXTURES.glob("XM*/fail*.xml")),
    *sorted(RULE_FIXTURES.glob("EN*/fail*.xml")),
]


def through_rich(console: Console, wrap: int | None) -> object:
    def emit(text: Text | None) -> None:
        console.print() if text is None else console.print(text)

    return emit


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_plain_lines_are_what_rich_renders(
    path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--isolated", "--now", "2026-12-01", "--statistics", str(path)]
    capsys.readouterr()
    cli.main(args)
    written = capsys.readouterr().out
    monkeypatch.setattr(text_report, "_printer", through_rich)
    cli.main(args)
    assert written == capsys.readouterr().out


def test_a_tab_control_characters_and_wide_characters_in_a_line(tmp_path: Path) -> None:
    import io

    for plain in ["a\tb  x", "\x07bell\x1b[31m", "漢字 ok", "", "  trailing  "]:
        out = io.StringIO()
        console = Console(file=out, highlight=False, soft_wrap=True, width=None)
        text_report._printer(console, None)(Text(plain))
        text_report._printer(console, None)(None)
        expected = io.StringIO()
        reference = Console(file=expected, highlight=False, soft_wrap=True, width=None)
        reference.print(Text(plain))
        reference.print()
        assert out.getvalue() == expected.getvalue(), plain


def escaped_excerpt(line: SourceLine, column: int, room: int) -> tuple[str, int, int]:
    """What ``excerpt`` shows, by its definition: each part escaped, then measured."""
    column = min(max(column, 1), line.length + 1)
    if line.length <= room:
        first, last = 1, line.length
    else:
        half = min(room, 2 * AROUND) // 2
        first = max(1, column - half)
        last = min(line.length, first + 2 * half - 1 if first == 1 else column + half - 1)
    text = line.text(first, last)
    before = ("…" if first > 1 else "") + text_report.escape(text[: column - first])
    at = text_report.escape(text[column - first : column - first + 1])
    after = text_report.escape(text[column - first + 1 :]) + ("…" if last < line.length else "")
    return before + at + after, cell_len(before), max(cell_len(at), 1)


@pytest.mark.parametrize("draws", draws(60, 300, settings(deadline=None)))
def test_an_excerpt_is_its_line_escaped(draws: Draws) -> None:
    """A printable line is shown without escaping each part of it: the same text, caret
    and width as escaping gives."""

    @draws
    @given(
        st.one_of(
            st.text(st.characters(codec="utf-8"), max_size=300),
            st.from_regex(r"[ -~]{0,300}", fullmatch=True),  # printable ASCII
            st.from_regex(r"[ -~…é漢]{0,300}", fullmatch=True),
        ),
        st.integers(-2, 310),
        st.sampled_from([WHOLE_LINE, 40, MIN_EXCERPT]),
    )
    def check(text: str, column: int, room: int) -> None:
        line = SourceLine(len(text), ((1, text),))
        assert text_report.excerpt(line, column, room) == escaped_excerpt(line, column, room)

    check()


class Writes(io.StringIO):
    """A stream that counts its writes."""

    writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def test_many_findings_with_their_source_are_written_in_batches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """6,000 findings with their (printable) source lines: a few writes, and no line
    escaped part by part."""
    escapes: list[str] = []
    real = text_report.escape
    monkeypatch.setattr(text_report, "escape", lambda text: escapes.append(text) or real(text))
    count = 6_000
    findings = [
        Finding("DT001", "lastmod-invalid", Severity.ERROR, f"bad {n}", n, 5, xpath="/urlset")
        for n in range(1, count + 1)
    ]
    lines = {n: SourceLine(20, ((1, f"  <lastmod>{n:>8}"),)) for n in range(1, count + 1)}
    out = Writes()
    report = TextReporter(out, color=False, summary=False, source=lambda _result: lines)
    report.report([FileResult("s.xml", findings)])
    assert out.writes < 20
    assert escapes == []
    assert out.getvalue().count("^") == count and out.getvalue().count("bad ") == count
