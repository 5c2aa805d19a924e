"""The text report writes plain lines itself where nothing is styled or wrapped: the
same characters as rich renders them."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from sitemap_lint import cli
from sitemap_lint.report import text as text_report
from tests.helpers import FIXTURES, RULE_FIXTURES

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
