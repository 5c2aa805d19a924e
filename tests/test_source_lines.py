"""The source of each finding in the text report: the line, a caret under the column.

Each test checks a real run: the caret must stand under the character the checker's
column names, in the file as decoded (CR LF, a byte order mark, tabs, characters
wider than a cell, escapes), and the text shown must be inert.
"""

from __future__ import annotations

import gzip
import io
import json
import sys
from io import StringIO
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from sitemap_lint.inputs.lines import AROUND, WHOLE_LINE, SourceLine, read_lines
from sitemap_lint.inputs.reader import Source
from sitemap_lint.report.text import ELLIPSIS, escape, excerpt
from sitemap_lint.run import RunSettings, execute
from tests.helpers import Draws, draws, run_cli

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n'


def run(path: Path | str, *, fmt: str = "text", **options: object) -> str:
    out = StringIO()
    settings = RunSettings(
        paths=[str(path)], format=fmt, now="2025-06-01", color="never", isolated=True, **options
    )
    execute(settings, out=out, err=StringIO())
    return out.getvalue()


def findings_of(path: Path) -> list[dict[str, object]]:
    (file,) = json.loads(run(path, fmt="json"))["files"]
    findings: list[dict[str, object]] = file["findings"]
    return findings


def blocks(out: str) -> dict[tuple[int, int, str], tuple[str, int, int]]:
    """Each finding shown with its source: (line, column, code) -> (the text after
    the gutter, the caret's offset in cells, its width)."""
    lines = out.split("\n")
    found = {}
    for index, line in enumerate(lines):
        parts = line.split()
        if not line.startswith("  ") or len(parts) < 3 or ":" not in parts[0]:
            continue
        if not parts[0].replace(":", "").isdigit():
            continue
        number, column = map(int, parts[0].split(":"))
        at = next(i for i in range(index + 1, len(lines)) if f" {number} | " in lines[i] + " ")
        source, caret = lines[at], lines[at + 1]
        gutter = source.index(" | ") + 3
        assert source[: gutter - 3].strip() == str(number)
        assert caret[:gutter].strip() == "|"
        marks = caret[gutter:]
        offset = len(marks) - len(marks.lstrip(" "))
        found[number, column, parts[2]] = (source[gutter:], offset, len(marks.strip()))
    return found


def under_caret(shown: str, offset: int, width: int) -> str:
    """The characters of ``shown`` that take the cells ``offset`` to ``offset + width``."""
    cells = 0
    picked = []
    for char in shown:
        if offset <= cells < offset + width:
            picked.append(char)
        cells += cell_len(char)
    return "".join(picked)


def decoded_lines(data: bytes) -> list[str]:
    """The file's lines as XML counts them (CR LF, CR, LF), without a BOM."""
    text = data.decode("utf-8").removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def assert_carets_under_columns(path: Path, data: bytes) -> dict[tuple[int, int, str], str]:
    """Every finding is shown, its caret under the character at its column; returns
    what stands under each caret."""
    path.write_bytes(data)
    shown = blocks(run(path))
    lines = decoded_lines(data)
    under = {}
    for finding in findings_of(path):
        key = (finding["line"], finding["column"], finding["code"])
        assert key in shown, key
        text, offset, width = shown[key]
        line = lines[finding["line"] - 1]
        expected = line[finding["column"] - 1 : finding["column"]]
        under[key] = under_caret(text, offset, width)
        assert under[key] == (escape(expected) or " "[: len(expected)]), (key, text)
        if len(line) <= WHOLE_LINE:
            assert text == escape(line)
    return under


def test_ascii_caret_under_the_column(tmp_path: Path) -> None:
    data = (HEAD + "  <url><loc>/about</loc><priority>1.5</priority></url>\n</urlset>\n").encode()
    under = assert_carets_under_columns(tmp_path / "sitemap.xml", data)
    assert sorted(under.values()) == ["<", "<"]  # the <loc> and the <priority>


def test_non_ascii_and_wide_characters_before_the_column(tmp_path: Path) -> None:
    line = "  <url><loc>https://exämple.com/日本語/ü</loc><priority>2</priority></url>\n"
    data = (HEAD + line + "</urlset>\n").encode()
    under = assert_carets_under_columns(tmp_path / "sitemap.xml", data)
    _text, offset, _ = blocks(run(tmp_path / "sitemap.xml"))[
        3, line.index("<priority>") + 1, "VA003"
    ]
    assert offset == cell_len(line[: line.index("<priority>")]) > line.index("<priority>")
    assert "<" in under.values()


def test_crlf_line_breaks(tmp_path: Path) -> None:
    body = HEAD + "  <url><loc>/a</loc></url>\n  <url><loc>/b</loc></url>\n</urlset>\n"
    data = body.replace("\n", "\r\n").encode()
    out = run_and_check(tmp_path, data)
    assert "\r" not in out
    assert "4 |   <url><loc>/b</loc></url>\n" in out


def test_lone_cr_line_breaks(tmp_path: Path) -> None:
    body = HEAD + "  <url><loc>/a</loc></url>\n  <url><loc>/b</loc></url>\n</urlset>\n"
    out = run_and_check(tmp_path, body.replace("\n", "\r").encode())
    assert "4 |   <url><loc>/b</loc></url>\n" in out


def run_and_check(tmp_path: Path, data: bytes) -> str:
    assert_carets_under_columns(tmp_path / "sitemap.xml", data)
    return run(tmp_path / "sitemap.xml")


def test_byte_order_mark_is_not_part_of_the_line(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbf" + (HEAD.replace("\n", "") + "<url><loc>/a</loc></url></urlset>").encode()
    under = assert_carets_under_columns(tmp_path / "sitemap.xml", data)
    assert under[1, 1, "EN004"] == "<"  # the BOM finding at 1:1, under the '<' of <?xml
    assert "\ufeff" not in run(tmp_path / "sitemap.xml")


def test_tabs_are_one_space(tmp_path: Path) -> None:
    data = (HEAD + "\t<url>\t<loc>/a</loc></url>\n</urlset>\n").encode()
    assert_carets_under_columns(tmp_path / "sitemap.xml", data)
    out = run(tmp_path / "sitemap.xml")
    assert "\t" not in out
    assert "3 |  <url> <loc>/a</loc></url>\n" in out


def test_content_before_the_declaration_keeps_its_place(tmp_path: Path) -> None:
    data = ("junk\n  " + HEAD + "  <url><loc>/a</loc></url>\n</urlset>\n").encode()
    assert_carets_under_columns(tmp_path / "sitemap.xml", data)


def test_a_long_line_shows_an_excerpt_around_the_column(tmp_path: Path) -> None:
    entries = [f"<url><loc>https://example.com/page-{i}</loc></url>" for i in range(120)]
    entries[60] = "<url><loc>/relative</loc></url>"
    line = HEAD.replace("\n", "") + "".join(entries) + "</urlset>"
    assert len(line) > 5000
    path = tmp_path / "sitemap.xml"
    path.write_text(line)
    (key,) = [k for k in blocks(run(path)) if k[2] == "UR001"]
    text, offset, width = blocks(run(path))[key]
    assert text.startswith(ELLIPSIS) and text.endswith(ELLIPSIS)
    assert len(text) <= 2 * AROUND + 2
    assert under_caret(text, offset, width) == line[key[1] - 1]
    assert text[offset:].startswith("<loc>/relative</loc>")
    assert_carets_under_columns(path, line.encode())


def test_escape_sequences_are_inert(tmp_path: Path) -> None:
    data = (HEAD + "  <url><loc>/\x1b[31mred\x07</loc></url>\n</urlset>\n").encode()
    path = tmp_path / "sitemap.xml"
    path.write_bytes(data)
    out = run(path)
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b[31mred\\x07" in out
    (text, offset, width) = next(v for k, v in blocks(out).items() if k[2] == "XM001")
    assert text[offset : offset + width] == "\\x1b"  # the caret spans the escape


def test_excerpt_keeps_the_caret_under_its_character_after_escapes() -> None:
    text = "a\x1b[0mb\tc\u202ed日本e"
    line = SourceLine(len(text), ((1, text),))
    for column, char in enumerate(text, 1):
        shown, offset, width = excerpt(line, column)
        assert under_caret(shown, offset, width) == escape(char)
    assert excerpt(line, len(text) + 1)[1] == cell_len(escape(text))  # just past the end


def test_excerpt_at_the_start_and_end_of_a_long_line() -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(5000))
    lines = read_lines_of(text, [1, 5000, 5001])
    start = excerpt(lines, 1)
    assert start[0].endswith(ELLIPSIS) and not start[0].startswith(ELLIPSIS)
    assert start[1:] == (0, 1) and len(start[0]) == WHOLE_LINE + 1
    end = excerpt(lines, 5000)
    assert end[0].startswith(ELLIPSIS) and not end[0].endswith(ELLIPSIS)
    assert end[0][end[1]] == text[-1]
    past = excerpt(lines, 5001)
    assert past[1] == cell_len(past[0])


def read_lines_of(text: str, columns: list[int]) -> SourceLine:
    return read_lines(Source("-", None, data=text.encode()), {1: columns})[1]


def test_reading_lines_counts_breaks_as_xml_does() -> None:
    data = b"one\r\ntwo\rthree\nfour\r\n\r\nsix"
    lines = read_lines(Source("-", None, data=data), {n: [1] for n in range(1, 8)})
    assert {n: line.text(1, line.length) for n, line in lines.items()} == {
        1: "one",
        2: "two",
        3: "three",
        4: "four",
        5: "",
        6: "six",
    }


def test_reading_lines_across_chunks_keeps_crlf_one_break() -> None:
    from sitemap_lint.inputs import lines as module

    collector = module._Collector({2: [1], 3: [1]})
    for chunk in ("a\r", "\nb\r", "\n", "c"):
        collector.feed(chunk)
    found = collector.lines()
    assert found[2].text(1, 1) == "b" and found[3].text(1, 1) == "c"


def test_a_long_line_read_in_many_chunks_works_out_its_ranges_once(monkeypatch) -> None:
    """A minified file's one line comes in many chunks, with a finding every few
    columns: what to keep of it is worked out once, not again for each chunk (the text
    report's time grew with the square of the file)."""
    from sitemap_lint.inputs import lines as module

    calls: list[int] = []
    ranges = module._ranges

    def counted(columns: list[int]) -> list[tuple[int, int]]:
        calls.append(len(columns))
        return ranges(columns)

    monkeypatch.setattr(module, "_ranges", counted)
    line = "".join(f"<url><loc>https://h/{n}</loc></url>" for n in range(5000))
    columns = list(range(1, len(line), 300))
    collector = module._Collector({1: columns})
    for at in range(0, len(line), 1000):
        collector.feed(line[at : at + 1000])
    kept = collector.lines()[1]
    assert len(calls) == 1
    for first, last in ranges(columns):
        last = min(last, len(line))
        assert kept.text(first, last) == line[first - 1 : last]


@pytest.mark.parametrize("draws", draws(50, 250, settings(deadline=None)))
def test_the_lines_kept_are_those_of_the_whole_text(draws: Draws) -> None:
    """Fed in any chunks, with or without CR, the collector keeps of each wanted line
    what ``_ranges`` names of it (XML's line breaks: CR LF, CR, LF)."""

    @draws
    @given(
        st.text(alphabet="ab\n\r", max_size=400),
        st.lists(st.integers(1, 60), max_size=8),
        st.dictionaries(st.integers(1, 40), st.lists(st.integers(1, 300), min_size=1, max_size=3)),
    )
    def check(text: str, cuts: list[int], wanted: dict[int, list[int]]) -> None:
        import re

        from sitemap_lint.inputs import lines as module

        if not wanted or not text:
            return  # (an empty file has no line to show)
        collector = module._Collector(wanted)
        at = 0
        for cut in [*sorted(cuts), len(text)]:
            if cut > at:
                collector.feed(text[at:cut])
                at = cut
        found = collector.lines()
        whole = re.split(r"\r\n|\r|\n", text)
        for number, columns in wanted.items():
            if number > len(whole):
                assert number not in found
                continue
            line = whole[number - 1]
            kept = found[number]
            assert kept.length == len(line)
            for first, last in module._ranges(columns):
                last = min(last, len(line))
                if first <= last:
                    assert kept.text(first, last) == line[first - 1 : last]

    check()


@pytest.mark.parametrize("ending", ["\n", ""])
def test_finding_at_the_end_of_the_file(tmp_path: Path, ending: str) -> None:
    last_line = "  <url><loc>https://example.com/</loc></url>"
    data = (HEAD + last_line + ending).encode()  # no </urlset>
    path = tmp_path / "sitemap.xml"
    assert_carets_under_columns(path, data)
    last = findings_of(path)[-1]
    assert last["code"] == "XM008"
    text, offset, width = blocks(run(path))[last["line"], last["column"], "XM008"]
    if ending:  # on the empty line after the last break
        assert (last["line"], text, offset, width) == (4, "", 0, 1)
    else:  # just after the last character
        assert (last["line"], text, offset, width) == (3, last_line, len(last_line), 1)


def test_finding_at_line_one_column_one(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text("<html><body>hi</body></html>\n")
    (key,) = blocks(run(path))
    assert key[:2] == (1, 1)
    text, offset, width = blocks(run(path))[key]
    assert text == "<html><body>hi</body></html>" and (offset, width) == (0, 1)


def test_gzip_input(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml.gz"
    path.write_bytes(gzip.compress((HEAD + "  <url><loc>/a</loc></url>\n</urlset>\n").encode()))
    text, offset, _width = blocks(run(path))[3, 8, "UR001"]
    assert text == "  <url><loc>/a</loc></url>" and text[offset:].startswith("<loc>")


def test_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = (HEAD + "  <url><loc>/a</loc></url>\n</urlset>\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _err = run_cli(["--isolated", "--color", "never", "-"], capsys)
    assert status == 1
    assert "    3 |   <url><loc>/a</loc></url>\n      |        ^\n" in out


def test_no_show_source_flag_and_configuration(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + "  <url><loc>/a</loc></url>\n</urlset>\n")
    with_source = run(path)
    assert " | " in with_source
    without = run(path, show_source=False)
    assert " | " not in without and len(without.splitlines()) == 4  # name, finding, blank, totals
    config = tmp_path / ".sitemap-lint.toml"
    config.write_text("show-source = false\n")
    settings = dict(paths=[str(path)], now="2025-06-01", color="never", config=str(config))
    out = StringIO()
    execute(RunSettings(**settings), out=out, err=StringIO())
    assert out.getvalue() == without
    out = StringIO()
    execute(RunSettings(**settings, show_source=True), out=out, err=StringIO())
    assert out.getvalue() == with_source  # the command line wins


def test_cli_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sitemap_lint.cli import main

    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + "  <url><loc>/a</loc></url>\n</urlset>\n")
    assert main(["--isolated", "--no-show-source", str(path)]) == 1
    assert " | " not in capsys.readouterr().out
    assert main(["--isolated", "--show-source", str(path)]) == 1
    assert "3 |   <url><loc>/a</loc></url>" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["concise", "json", "github"])
def test_other_formats_show_no_source(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + "  <url><loc>/a</loc></url>\n</urlset>\n")
    assert run(path, fmt=fmt) == run(path, fmt=fmt, show_source=False)
    assert "<url><loc>/a" not in run(path, fmt=fmt)


def test_show_source_in_the_configuration_must_be_true_or_false(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sitemap_lint.cli import main

    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + "</urlset>\n")
    config = tmp_path / ".sitemap-lint.toml"
    config.write_text('show-source = "no"\n')
    assert main(["--config", str(config), str(path)]) == 2
    assert "show-source" in capsys.readouterr().err


@pytest.mark.parametrize("width", [50, 80, 200])
def test_source_fits_the_terminal(tmp_path: Path, width: int) -> None:
    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.finding import Finding
    from sitemap_lint.report.text import TextReporter
    from sitemap_lint.rules import RULES
    from sitemap_lint.run import source_lines

    path = tmp_path / "sitemap.xml"
    line = "x" * 300 + "<loc>/a</loc>" + "y" * 300
    path.write_text(f"{line}\n")
    rule = RULES["UR001"]
    column = line.index("<loc>") + 1
    found = Finding(rule.code, rule.name, rule.severity, "relative", 1, column)
    out = StringIO()
    TextReporter(
        out, color=False, width=width, source=source_lines({"s": Source("s", path)})
    ).report([FileResult("s", [found])])
    longest = max(len(row) for row in out.getvalue().splitlines() if " | " in row)
    assert longest == min(width, len("    1 | ") + WHOLE_LINE + 2)
    text, offset, width_ = blocks(out.getvalue())[1, column, "UR001"]
    assert text[offset:].startswith("<loc>/a</loc>") and width_ == 1
    assert text.startswith(ELLIPSIS) and text.endswith(ELLIPSIS)
