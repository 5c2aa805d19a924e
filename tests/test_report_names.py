"""File names and URLs a report cannot take as they are, in every format of ``check`` and
``diff``: an escape sequence or a bidirectional control (never written raw where a
person reads it), a byte that is no UTF-8 (a lone surrogate to Python, which no UTF-8
writer can write), a URL that is no URI as it is (SARIF)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from io import StringIO
from pathlib import Path

import pytest

from sitemap_lint.engine.results import FileResult
from sitemap_lint.finding import Finding
from sitemap_lint.report import REPORTERS
from sitemap_lint.report.sarif import SarifReporter
from sitemap_lint.rules import RULES
from sitemap_lint.support.printable import encodable, encodable_json, printable
from tests.helpers import run_cli
from tests.test_reporters import assert_valid_sarif

ESCAPE = "a\x1b[31mred\x07\u202eb.xml"  # a colour, a bell, a right-to-left override
NOT_UTF8 = os.fsdecode(b"x\xffy.xml")  # the byte 0xff, as Python reads a file name
RAW = ("\x1b", "\x07", "\u202e")
FORMATS = list(REPORTERS)


def finding(code: str = "UR001", message: str = "relative") -> Finding:
    rule = RULES[code]
    return Finding(rule.code, rule.name, rule.severity, message, 3, 5)


def report(fmt: str, results: list[FileResult]) -> str:
    if fmt == "html":
        pytest.importorskip("vl_convert")
    out = StringIO()
    REPORTERS[fmt](out, color=False).report(results)
    return out.getvalue()


def test_printable_escapes_controls_format_characters_and_bytes_that_are_no_utf8() -> None:
    assert printable("plain ü 漢字 a b") == "plain ü 漢字 a b"
    assert printable(ESCAPE) == "a\\x1b[31mred\\x07\\u202eb.xml"
    assert printable("a\tb\nc\u2028\U000e0001") == "a\\x09b\\x0ac\\u2028\\U000e0001"
    assert printable(NOT_UTF8) == "x\\xffy.xml" == encodable(NOT_UTF8)
    assert printable("\ud800") == "\\ud800" == encodable("\ud800")
    assert printable("a\ufffe\uffff\ufdd0\U0010fffe") == "a\\ufffe\\uffff\\ufdd0\\U0010fffe"
    assert encodable(ESCAPE) == ESCAPE  # the formats that carry them keep them
    encoded = encodable_json(json.dumps({NOT_UTF8: "\x1b"}, ensure_ascii=False))
    assert json.loads(encoded) == {"x\\xffy.xml": "\x1b"}


@pytest.mark.parametrize("fmt", ["text", "concise", "github"])
def test_a_file_name_never_reaches_the_terminal_raw(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    message = "seen in b\x1b[2J.xml\u202e too"  # a message may name another file
    out = report(fmt, [FileResult(ESCAPE, [finding(message=message)])])
    assert not any(char in out for char in RAW), out
    assert "a\\x1b[31mred\\x07\\u202eb.xml" in out and "b\\x1b[2J.xml\\u202e too" in out


def test_the_text_report_keeps_a_message_s_lines_apart() -> None:
    out = report("text", [FileResult("s.xml", [finding(message="one\x1b\ntwo")])])
    assert "one\\x1b\n" in out and "two" in out


def test_github_still_escapes_a_line_break_in_a_name_as_the_toolkit_does() -> None:
    out = report("github", [FileResult("a\r\nb.xml", [finding()])])
    assert out.startswith("::error file=a%0D%0Ab.xml,")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_name_that_is_no_utf8_is_written_in_every_format(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / NOT_UTF8).write_text("<x/>")
    other = f"also listed in {NOT_UTF8}"
    out = report(fmt, [FileResult(NOT_UTF8, [finding(), finding("XS001", other)])])
    out.encode("utf-8")  # no lone surrogate is left
    if fmt in ("json", "gitlab", "sarif"):
        json.loads(out)
    if fmt == "junit":
        ET.fromstring(out)
    expected = {"sarif": "x%FFy.xml", "json": "x\\\\xffy.xml", "gitlab": "x\\\\xffy.xml"}
    assert expected.get(fmt, "x\\xffy.xml") in out


def test_sarif_names_a_file_that_is_no_utf8_by_its_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / NOT_UTF8).write_text("<x/>")
    log = json.loads(report("sarif", [FileResult(NOT_UTF8, [finding()])]))
    assert_valid_sarif(log)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "x%FFy.xml", "uriBaseId": "%SRCROOT%"}


def test_sarif_names_a_fetched_sitemap_by_a_valid_uri() -> None:
    urls = [
        "https://example.com/ü sitemap.xml",
        'https://example.com/s.xml?a=<b>&c="d"%zz',
        "https://example.com/already%20encoded.xml?x=1#top",
        "http://[::1]:8080/a[1].xml",  # brackets: an IP literal's only
    ]
    out = StringIO()
    SarifReporter(out).report([FileResult(url, [finding()]) for url in urls])
    log = json.loads(out.getvalue())
    assert_valid_sarif(log)
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["runs"][0]["results"]
    ]
    assert uris == [
        {"uri": "https://example.com/%C3%BC%20sitemap.xml"},
        {"uri": "https://example.com/s.xml?a=%3Cb%3E&c=%22d%22%25zz"},
        {"uri": "https://example.com/already%20encoded.xml?x=1#top"},
        {"uri": "http://[::1]:8080/a%5B1%5D.xml"},
    ]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "gitlab", "concise", "html"])
def test_output_file_takes_a_report_naming_a_file_that_is_no_utf8(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if fmt == "html":
        pytest.importorskip("vl_convert")
    monkeypatch.chdir(tmp_path)
    (tmp_path / NOT_UTF8).write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>'
    )
    status, _out, err = run_cli(["--isolated", "-f", fmt, "-o", "report", NOT_UTF8], capsys)
    assert status == 1, err
    written = (tmp_path / "report").read_text(encoding="utf-8")  # UTF-8, whole
    assert "xffy.xml" in written or "x%FFy.xml" in written


def _html_page_of(tmp_path: Path, file_name: str) -> str:
    """The HTML report, made in a process of its own, of a sitemap named ``file_name``
    with an entry that has no loc (exit 1)."""
    pytest.importorskip("vl_convert")
    name = tmp_path / file_name
    name.write_text('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url/></urlset>')
    page = tmp_path / "report.html"
    completed = subprocess.run(
        [sys.executable, "-m", "sitemap_lint", "--isolated", "-f", "html", "-o", page, name],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 1, completed.stderr
    return page.read_text(encoding="utf-8")


def test_the_html_report_shows_a_name_with_control_characters(tmp_path: Path) -> None:
    """The chart renderer stopped the whole process (SIGABRT) on a control character in a
    file's label; the page is made in a process of its own here for that reason."""
    text = _html_page_of(tmp_path, "ctl\x1b[31m\x01\x7f.xml")
    assert "ctl\\x1b[31m\\x01\\x7f.xml" in text and "\x1b" not in text and "\x01" not in text
    assert 'id="chart-files"' in text


def test_the_html_footer_shows_the_command_with_the_name_escaped(tmp_path: Path) -> None:
    """The footer's command names the file as the rest of the page does: a line break,
    an escape sequence and a bidirectional control as escapes, none of them raw."""
    text = _html_page_of(tmp_path, "two\nlines\x1b[31m\u202e.xml")
    command = text.split('<code id="command">', 1)[1].split("</code>", 1)[0]
    assert "two\\x0alines\\x1b[31m\\u202e.xml" in command
    assert not any(char in command for char in "\n\x1b\u202e")
    assert "\x1b" not in text and "\u202e" not in text


def _urlset(*urls: str) -> str:
    body = "".join(f"<url><loc>{url}</loc></url>\n" for url in urls)
    return f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{body}</urlset>\n'


@pytest.fixture
def odd_sides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Two deploys whose one file has a name with an escape sequence and a byte that is
    no UTF-8, and whose new side lists a URL with a C1 control and a bidirectional one."""
    monkeypatch.chdir(tmp_path)
    name = f"site\x1b[31m{NOT_UTF8}.sitemap.xml"
    for side, urls in (
        ("old", ["https://example.com/a", "https://example.com/b"]),
        ("new", ["https://example.com/a", "https://example.com/\u009b2J\u202e"]),
    ):
        (tmp_path / side).mkdir()
        (tmp_path / side / name).write_text(_urlset(*urls), encoding="utf-8")
    return tmp_path / "old", tmp_path / "new"


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_diff_reports_names_and_urls_it_cannot_take_as_they_are(
    fmt: str, odd_sides: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    if fmt == "html":
        pytest.importorskip("vl_convert")
    old, new = odd_sides
    for target in ("-", "report"):
        status, out, err = run_cli(["diff", "-f", fmt, "-o", target, str(old), str(new)], capsys)
        assert status == 0, err
        written = out if target == "-" else Path(target).read_text(encoding="utf-8")
        written.encode("utf-8")
        if fmt == "json":
            document = json.loads(written)
            assert document["by_file"][0]["file"] == "site\x1b[31mx\\xffy.xml.sitemap.xml"
        else:
            assert not any(char in written for char in ("\x1b", "\u009b", "\u202e")), written
            assert "site\\x1b[31mx\\xffy.xml.sitemap.xml" in written
            assert "https://example.com/\\x9b2J\\u202e" in written


def test_an_error_line_and_the_summary_name_a_file_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _out, err = run_cli(["--isolated", "missing\x1b[31m.xml"], capsys)
    assert status == 2
    assert err == "sitemap-lint: error: missing\\x1b[31m.xml: no such file or directory\n"
    status, _out, err = run_cli(["diff", "missing\x1b[31m.xml", "other.xml"], capsys)
    assert status == 2 and "\x1b" not in err and "missing\\x1b[31m.xml" in err
    (tmp_path / "s.xml").write_text(_urlset("https://example.com/"))
    status, _out, err = run_cli(["--isolated", "-o", "r\x1b[2J.txt", "s.xml"], capsys)
    assert status == 0 and err.endswith("report written to r\\x1b[2J.txt\n")


def test_a_baseline_records_a_file_name_that_is_no_utf8_and_matches_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / NOT_UTF8).write_text(_urlset("/relative"))
    status, _out, err = run_cli(["--isolated", "--write-baseline", "b.json", NOT_UTF8], capsys)
    assert status == 0, err
    recorded = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    assert {entry["path"] for entry in recorded["findings"]} == {NOT_UTF8}
    status, out, err = run_cli(["--isolated", "--baseline", "b.json", NOT_UTF8], capsys)
    assert status == 0, err
    assert "no problems found" in out and "matched the baseline" in out


def test_github_says_which_fetched_sitemap_an_annotation_is_about() -> None:
    """A fetched sitemap has no file in the checkout: without its URL, the annotations
    of an index's children could not be told apart."""
    results = [
        FileResult("https://example.com/sitemap-1.xml", [finding()]),
        FileResult("https://example.com/sitemap-2.xml", [finding()]),
        FileResult("-", [finding()]),
    ]
    assert report("github", results).splitlines() == [
        "::error line=3,col=5,title=UR001 url-not-absolute"
        "::https://example.com/sitemap-1.xml:3:5: relative",
        "::error line=3,col=5,title=UR001 url-not-absolute"
        "::https://example.com/sitemap-2.xml:3:5: relative",
        "::error line=3,col=5,title=UR001 url-not-absolute::<stdin>:3:5: relative",
    ]


@pytest.mark.parametrize("label", ["c\x01", "z\ufffe", "q\uffff", "d\udcff"])
def test_a_chart_draws_any_label(label: str, tmp_path: Path) -> None:
    """The chart renderer stops the process (SIGABRT) on a character its SVG cannot hold:
    each label is drawn in a process of its own here for that reason."""
    pytest.importorskip("vl_convert")
    script = (
        "import sys\n"
        "from sitemap_lint.report.html import row_chart\n"
        "label = sys.argv[1].encode('ascii').decode('unicode_escape')\n"
        "svg = row_chart([{'label': label, 'count': 2, 'group': 'value'}], 'p')\n"
        "print('<svg' in svg)\n"
    )
    code = label.encode("unicode_escape").decode("ascii")
    completed = subprocess.run([sys.executable, "-c", script, code], capture_output=True, text=True)
    assert (completed.returncode, completed.stdout) == (0, "True\n"), completed.stderr[-300:]


def test_a_report_into_a_directory_that_does_not_exist_is_one_line_that_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.com/</loc></url></urlset>"
    )
    missing = tmp_path / "missing" / "report.txt"
    status, _out, err = run_cli(["--isolated", str(sitemap), "-o", str(missing)], capsys)
    assert status == 2
    assert err.strip().splitlines() == [
        f"sitemap-lint: error: --output-file {missing}: cannot write: its directory does not exist"
    ]
