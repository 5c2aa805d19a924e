"""The HTML report (``--format html``): one self-contained, inert, readable page.

The first tests read the page as HTML; the ``slow`` ones open it in headless Chromium
(Debian's ``chromium`` and ``chromium-driver``, driven by selenium) and use it as a
person would. ``SITEMAP_LINT_UPDATE_SCREENSHOT=1`` also writes docs/report.png, the
README's picture, from the same browser session.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint.cli import main
from sitemap_lint.engine.checker import FileResult
from sitemap_lint.finding import Finding
from sitemap_lint.live.audit import LiveStats
from sitemap_lint.report import html as html_report
from sitemap_lint.report.base import RunInfo
from sitemap_lint.report.html import HtmlReporter, embedded_json, markdown_blocks
from sitemap_lint.rules import RULES
from sitemap_lint.run import RunSettings, execute
from sitemap_lint.sets.facts import STATS_KEYS, FileStats
from sitemap_lint.support.printable import printable
from tests.helpers import ROOT
from tests.site_server import Route, SiteServer, loopback_only  # noqa: F401

MIXED = "fixtures/report/mixed.xml"
CLEAN = "fixtures/report/clean.xml"


class Page(HTMLParser):
    """The parts of a page the tests look at: every tag with its attributes, the text,
    the scripts' contents, the rows of the findings table."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self._in_script = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data
        else:
            self.text.append(data)

    def all(self, tag: str, **wanted: str) -> list[dict[str, str | None]]:
        return [
            attrs
            for name, attrs in self.tags
            if name == tag and all(attrs.get(k.replace("_", "-")) == v for k, v in wanted.items())
        ]

    def rows(self) -> list[dict[str, str | None]]:
        return [attrs for name, attrs in self.tags if name == "tr" and "data-code" in attrs]

    def data(self) -> Any:
        return json.loads(self.scripts[0])


def render(paths: list[str], **options: Any) -> tuple[int, str]:
    out = StringIO()
    settings = RunSettings(
        paths=paths, format="html", now="2025-06-01", color="never", isolated=True, **options
    )
    return execute(settings, out=out, err=StringIO()), out.getvalue()


@pytest.fixture
def repo_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(ROOT)
    return ROOT


def finding(code: str, message: str, line: int = 3, column: int = 5) -> Finding:
    rule = RULES[code]
    return Finding(rule.code, rule.name, rule.severity, message, line, column)


def page_of(results: list[FileResult], run: RunInfo | None = None) -> str:
    out = StringIO()
    HtmlReporter(out, run=run).report(results)
    return out.getvalue()


# -- the page as HTML -------------------------------------------------------------------


def test_the_page_has_header_totals_files_findings_rules_and_footer(repo_root: Path) -> None:
    status, text = render([MIXED, CLEAN])
    assert status == 1
    page = Page(text)
    words = " ".join(" ".join(page.text).split())
    assert "2025-06-01 (--now)" in words and "google" in words  # --now and the profile
    assert page.all("span", id="exit-status") and ">1</span>" in text
    for card, value in (("files", "2"), ("errors", "4"), ("warnings", "3"), ("infos", "1")):
        assert f'id="total-{card}">{value}<' in text
    nodes = page.all("li", **{"class": "tree-node"})
    assert [node["data-file"] for node in nodes] == [MIXED, CLEAN]
    assert {node["data-depth"] for node in nodes} == {"0"}  # two inputs, neither lists a file
    rows = page.rows()
    assert len(rows) == 8
    assert {row["data-severity"] for row in rows} == {"error", "warning", "info"}
    for code in {row["data-code"] for row in rows}:  # every code's documentation is there
        assert page.all("article", id=f"rule-{code}"), code
        assert page.all("a", href=f"#rule-{code}")
    assert "What it does" in words
    command = page.all("code", id="command")
    assert command
    assert (
        f"sitemap-lint --format html --now 2025-06-01 --isolated --color never {MIXED} {CLEAN}"
        in text
    )
    # By rule, by file, and the entries' lastmod, changefreq and priority.
    charts = [a["id"] for t, a in page.tags if t == "figure"]
    assert charts == [
        "chart-rules",
        "chart-files",
        "chart-lastmod",
        "chart-changefreq",
        "chart-priority",
    ]
    assert len([t for t, a in page.tags if t == "svg"]) == 5


def test_the_page_gives_the_status_the_run_exits_with_when_fix_cannot_write(
    tmp_path: Path,
) -> None:
    """--fix leaves a file with a second hard link as it is and the run exits 2; the
    page, written all the same, says 2, not the status of its findings."""
    target = tmp_path / "sitemap.xml"
    shutil.copyfile(ROOT / "fixtures" / "fix" / "mixed.xml", target)
    os.link(target, tmp_path / "other.xml")
    page = tmp_path / "report.html"
    args = ["--isolated", "--fix", "--format", "html", "-o", str(page), "--now", "2025-06-01"]
    assert main([*args, str(target)]) == 2
    text = page.read_text(encoding="utf-8")
    assert re.search(r'id="exit-status">2</span> \w', text), "the page gives status 2, said"


def test_no_heading_level_is_skipped() -> None:
    """A screen reader lists the headings as an outline: the live audit's tables (h3)
    stand under the overview's heading (h2), not straight under the page's (h1)."""
    chain = ["https://example.com/a 301", "https://example.com/b 200"]
    live = LiveStats(listed=1, requested=1, statuses={"301": 1}, chains=[chain])
    live.slowest = [("example.com", 0.25)]
    run = RunInfo(("s.xml",), None, "google", 1, "sitemap-lint --live s.xml", live=live.as_dict())
    text = page_of([FileResult("s.xml", [finding("UR001", "relative")])], run)
    levels = [int(level) for level in re.findall(r"<h([1-6])\b", text)]
    assert levels[:3] == [1, 2, 3]
    assert all(later <= earlier + 1 for earlier, later in itertools.pairwise(levels))


def test_the_footer_command_repeats_the_run(repo_root: Path, tmp_path: Path) -> None:
    status, text = render([MIXED, CLEAN], fail_on="warning", ignore="UR001")
    command = text.split('<code id="command">', 1)[1].split("</code>", 1)[0]
    words = shlex.split(command.replace("&#39;", "'").replace("&quot;", '"'))
    assert words[0] == "sitemap-lint" and "--ignore" in words and "--fail-on" in words
    words[words.index("--format") + 1] = "json"
    out = StringIO()
    sys_stdout = sys.stdout
    try:
        sys.stdout = out
        again = main(words[1:])
    finally:
        sys.stdout = sys_stdout
    assert again == status
    findings = [f for entry in json.loads(out.getvalue())["files"] for f in entry["findings"]]
    assert len(findings) == len(Page(text).rows())
    assert "UR001" not in {f["code"] for f in findings}


def test_the_page_loads_nothing_from_elsewhere(repo_root: Path) -> None:
    _, text = render([MIXED, CLEAN])
    page = Page(text)
    for tag, attrs in page.tags:
        for name in ("src", "href", "srcset", "data", "action"):
            value = attrs.get(name) or ""
            assert not value or value.startswith("#"), (tag, name, value)
        assert tag not in ("link", "iframe", "img", "object", "embed", "image"), tag
    assert "@import" not in text
    assert text.count("url(") == text.count("url(#")  # the charts' clip paths only
    ids = [attrs["id"] for tag, attrs in page.tags if attrs.get("id")]
    assert len(ids) == len(set(ids))


HOSTILE_NAME = 'x"><script>alert("name")</script><img src=x onerror=alert(1)>.xml'
HOSTILE_MESSAGES = (
    "URL 'https://e.com/\"onmouseover=\"alert(1)' is relative",
    "</script><script>alert('message')</script>",
    "<!-- <script> \u2028 & &amp;",
)


HOSTILE_CODE = '"onmouseover="alert(1)"><script>alert("hreflang")</script>'


def hostile_results() -> list[FileResult]:
    findings = [finding("UR001", message, line) for line, message in enumerate(HOSTILE_MESSAGES, 3)]
    stats = FileStats(size=100)
    stats.hreflangs.update({HOSTILE_CODE: 2, "en": 1})
    stats.changefreqs.update({"weekly": 3})
    return [FileResult(HOSTILE_NAME, findings, kind="urlset", urls=3, stats=stats)]


def test_sitemap_values_come_out_inert() -> None:
    text = page_of(hostile_results(), RunInfo((HOSTILE_NAME,), None, "google", 1, "sitemap-lint"))
    page = Page(text)
    # Only the page's own two scripts: the JSON data and the behaviour.
    assert [attrs.get("type") for tag, attrs in page.tags if tag == "script"] == [
        "application/json",
        None,
    ]
    assert not [(tag, name) for tag, attrs in page.tags for name in attrs if name.startswith("on")]
    assert not page.all("img")
    # The values read back exactly as they were, as text.
    words = "".join(page.text)
    assert HOSTILE_NAME in words
    for message in HOSTILE_MESSAGES:
        assert printable(message) in words  # a line separator as an escape
    assert {row["data-file"] for row in page.rows()} == {HOSTILE_NAME}
    # A hreflang value drawn in a chart is the chart's text, escaped by the renderer.
    chart = text.split('id="chart-hreflang"', 1)[1].split("</figure>", 1)[0]
    assert "<script" not in chart and "&lt;script&gt;" in chart
    assert [a["id"] for t, a in page.tags if t == "li"] == ["node-file-1"]


def test_a_message_shows_its_invisible_characters_as_the_text_report_does() -> None:
    """A URL a message quotes may hold a bidirectional control that would show the rest
    of the row reversed (``404?\\u202egpj.exe`` read as ``exe.jpg``): the row shows it
    as an escape, like the text report."""
    message = "page https://e.com/a?\u202egpj.exe\u200f\x01 is not found (404)"
    text = page_of([FileResult("a.xml", [finding("UR001", message)])])
    assert not {"\u202e", "\u200f", "\x01"} & set(text)
    assert "page https://e.com/a?\\u202egpj.exe\\u200f\\x01 is not found (404)" in Page(text).text


def test_the_same_files_give_the_same_page_without_now(tmp_path: Path) -> None:
    """Without --now the page carries no time (the clock's would change it every
    minute): a report kept in version control or compared in CI changes only with its
    findings. With --now it says the time the rules took as now."""
    sitemap = tmp_path / "sitemap.xml"
    shutil.copyfile(ROOT / MIXED, sitemap)
    pages = []
    for _ in range(2):
        out = StringIO()
        settings = RunSettings(paths=[str(sitemap)], format="html", color="never", isolated=True)
        execute(settings, out=out, err=StringIO())
        pages.append(out.getvalue())
    assert pages[0] == pages[1]
    assert "<dt>Now</dt>" not in pages[0]
    assert not re.search(r"\d\d:\d\d UTC", pages[0])
    _, text = render([MIXED])
    assert "<dt>Now</dt><dd>2025-06-01 (--now)</dd>" in text


def test_the_title_counts_in_words() -> None:
    one_each = [finding("UR001", "relative"), finding("UR011", "not encoded")]
    text = page_of([FileResult("a.xml", one_each)])
    assert "<title>Sitemap audit: 1 error, 1 warning</title>" in text
    assert "1 file</dd>" in text  # without the run's inputs: how many files
    text = page_of([FileResult("a.xml", one_each * 2), FileResult("b.xml", [])])
    assert "<title>Sitemap audit: 2 errors, 2 warnings</title>" in text
    assert "2 files</dd>" in text


def test_the_title_says_when_there_is_nothing_to_fix_and_counts_info() -> None:
    """A tab's title is what a person sees of a page among others: a clean run says so,
    and a run with only info findings does not read as one without any."""
    text = page_of([FileResult("a.xml", [])])
    assert "<title>Sitemap audit: no findings</title>" in text
    only_info = [finding("UR018", "the same URL"), finding("UR018", "again")]
    assert str(RULES["UR018"].severity) == "info"
    text = page_of([FileResult("a.xml", only_info)])
    assert "<title>Sitemap audit: 0 errors, 0 warnings, 2 info</title>" in text


def test_the_header_names_the_first_inputs_of_many() -> None:
    """A shell glob may give thousands of files: the header names the first ten, the
    footer's command (in a box of its own) all of them, and the charts count them."""
    names = [f"sitemap-{n:04d}.xml" for n in range(1200)]
    results = [FileResult(name, [finding("UR001", "relative")]) for name in names]
    run = RunInfo(tuple(names), None, "google", 1, "sitemap-lint " + " ".join(names))
    text = page_of(results, run)
    header = text.split("<dt>Checked</dt>", 1)[1].split("</dd>", 1)[0]
    assert re.findall(r"<code>([^<]*)</code>", header) == names[:10]
    assert header.endswith(" and 1,190 more (under Files)")
    command = text.split('<code id="command">', 1)[1].split("</code>", 1)[0]
    assert command.split()[1:] == names
    assert "top 15 of 1,200 files" in text


def test_embedded_json_cannot_end_its_script() -> None:
    text = page_of(hostile_results())
    page = Page(text)
    data = page.data()  # the whole JSON is inside the first script, and parses
    assert data["files"][0]["name"] == HOSTILE_NAME
    raw = text.split('<script type="application/json" id="report-data">', 1)[1]
    raw = raw.split("</script>", 1)[0]
    assert "<" not in raw and ">" not in raw and "&" not in raw
    value = {"a": "</script><!--\u2028"}
    assert json.loads(embedded_json(value)) == value
    assert "</" not in embedded_json(value)


def rule_options(text: str) -> dict[str, str]:
    """The rule filter's options: each code with its label."""
    select = text.split('id="filter-rule"', 1)[1].split("</select>", 1)[0]
    return dict(re.findall(r'<option value="(\w+)">([^<]*)</option>', select))


def test_at_most_row_limit_rows_the_first_of_every_rule_then_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(html_report, "ROW_LIMIT", 5)
    findings = [finding("UR008", f"fragment {n}", line=n) for n in range(3, 10)]
    findings += [finding("UR001", f"relative {n}", line=n) for n in range(10, 14)]
    findings += [finding("UR003", f"long {n}", line=n) for n in range(14, 15)]
    text = page_of([FileResult("big.xml", findings)])
    page = Page(text)
    rows = page.rows()
    # The first of each rule (a quota of one here), then errors first, in file order.
    assert [(row["data-code"], row["data-severity"]) for row in rows] == [
        ("UR008", "warning"),
        ("UR001", "error"),
        ("UR001", "error"),
        ("UR001", "error"),
        ("UR003", "error"),
    ]
    words = " ".join(" ".join(page.text).split())
    assert "shows 5 of 12 findings" in words and "7 more" in words and "--format json" in words
    assert "not embedded: UR008 url-fragment 6 of 7, UR001 url-not-absolute 1 of 4 ." in words
    assert page.data()["total"] == 12 and page.data()["shown"] == 5
    assert page.data()["rules"]["UR008"] == {"name": "url-fragment", "count": 7, "shown": 1}
    # The charts and the rule documentation still count every finding; the filter says
    # how many of a rule's findings it can show.
    assert "url-fragment · 7 findings" in words
    assert rule_options(text) == {
        "UR008": "UR008 url-fragment (1 of 7 shown)",
        "UR001": "UR001 url-not-absolute (3 of 4 shown)",
        "UR003": "UR003 url-too-long (1)",
    }


def test_a_capped_page_keeps_a_rule_with_one_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    """600 findings of one rule, then one of another, on a page of 100 rows: the last
    one is on the page, and every rule's count in the filter is the rows it shows."""
    monkeypatch.setattr(html_report, "ROW_LIMIT", 100)
    findings = [finding("SC002", f"outside {n}", line=n) for n in range(3, 603)]
    findings.append(finding("LM001", "60,001 URLs", line=603))
    text = page_of([FileResult("big.xml", findings)])
    page = Page(text)
    codes = [row["data-code"] for row in page.rows()]
    assert len(codes) == 100 and codes.count("LM001") == 1
    shown = {code: codes.count(code) for code in codes}
    assert rule_options(text) == {
        "SC002": f"SC002 url-outside-directory ({shown['SC002']} of 600 shown)",
        "LM001": "LM001 too-many-urls (1)",
    }
    words = " ".join(" ".join(page.text).split())
    assert "501 more are not embedded: SC002 url-outside-directory 501 of 600 ." in words


def test_a_capped_page_links_only_the_files_whose_findings_it_embeds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three files of three errors each on a page of five rows: the third file's
    findings are not embedded, so its name in the tree links to nothing and the file
    filter does not offer it; every link to a file lands on a row of the table."""
    monkeypatch.setattr(html_report, "ROW_LIMIT", 5)
    results = [
        FileResult(name, [finding("UR001", f"relative {n}", line=n) for n in range(3, 6)])
        for name in ("one.xml", "two.xml", "three.xml")
    ]
    page = Page(page_of(results))
    assert [row["data-file"] for row in page.rows()] == ["one.xml"] * 3 + ["two.xml"] * 2
    links = page.all("a", **{"class": "file-link"})
    assert [link["data-file"] for link in links] == ["one.xml", "two.xml"]
    anchors = {row["id"] for row in page.rows() if "id" in row}
    assert {link["href"] for link in links} == {f"#{anchor}" for anchor in anchors}
    options = [
        attrs["value"]
        for tag, attrs in page.tags
        if tag == "option" and attrs.get("value", "").endswith(".xml")
    ]
    assert options == ["one.xml", "two.xml"]
    nodes = page.all("li", **{"class": "tree-node"})
    assert [node["data-file"] for node in nodes] == ["one.xml", "two.xml", "three.xml"]


class Writes(StringIO):
    """A stream that keeps the size of each write."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def write(self, text: str) -> int:
        self.sizes.append(len(text))
        return super().write(text)


def many_findings(count: int) -> list[FileResult]:
    """``count`` findings of two rules over two files, with messages to escape."""
    half = count // 2
    return [
        FileResult(
            f"dir/<{name}>.xml",
            [finding(code, f"<b>{n} & 'x'", line=n) for n in range(half) for code in codes],
        )
        for name, codes in (("a", ("UR001",)), ("b", ("DT001",)))
    ]


def test_the_page_is_written_as_it_is_made() -> None:
    """10,000 rows: the page goes out in pieces, never as one string in memory."""
    results = many_findings(html_report.ROW_LIMIT)
    out = Writes()
    HtmlReporter(out).report(results)
    assert len(out.sizes) > 10
    assert max(out.sizes) < 2 * html_report.PIECE
    text = out.getvalue()
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert len(Page(text).rows()) == html_report.ROW_LIMIT
    assert text.count('"message">&lt;b&gt;0 &amp; &#39;x&#39;<') == 2  # each file's first row


def test_a_row_escapes_its_rule_and_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a row says of its file and its rule is made once per file and per rule;
    each row escapes its message, and each file's first row holds its anchor."""
    calls: list[str] = []
    real = html_report.printable

    def counted(text: str) -> str:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(html_report, "printable", counted)
    results = many_findings(2_000)
    page = Page(page_of(results))
    # The file list and the chart by file: per file, not per row.
    assert len([name for name in calls if name.startswith("dir/")]) == 4
    rows = page.rows()
    assert len(rows) == 2_000
    assert [(row["data-file"], row.get("id")) for row in rows if row.get("id")] == [
        ("dir/<a>.xml", "file-1"),
        ("dir/<b>.xml", "file-2"),
    ]
    assert {row["data-code"] for row in rows} == {"UR001", "DT001"}
    assert "<b>5 & 'x'" in page.text


def test_rule_documentation_keeps_headings_code_and_inline_code() -> None:
    blocks = list(markdown_blocks(RULES["UR003"].doc))
    assert [b.text for b in blocks if b.kind == "heading"][:2] == [
        "What it does",
        "Why is this bad?",
    ]
    assert any(b.kind == "code" and "<loc>" in b.text for b in blocks)
    first = next(b for b in blocks if b.kind == "paragraph")
    assert (True, "loc") in first.runs


def test_a_rule_summary_shows_its_inline_code(repo_root: Path) -> None:
    _, text = render([MIXED])
    summary = RULES["VA003"].summary
    assert "`" in summary
    assert summary.replace("`priority`", "<code>priority</code>") in text


def test_without_the_extra_html_exits_2_with_one_line(repo_root: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['vl_convert'] = None\n"
        "from sitemap_lint.cli import main\n"
        f"sys.exit(main(['--format', 'html', {CLEAN!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "pip install 'sitemap-lint[html]'" in done.stderr


def test_output_file(repo_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(target), "--now", "2025-06-01", MIXED]) == 1
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "report written to" in capsys.readouterr().err


# -- the set as a tree, and the entries counted ---------------------------------------


def write_set(site: Path) -> None:
    """index.xml -> a.xml, nested.xml (an index inside the index: SE-reported, not
    followed) and b.xml, all local, mapped from https://example.com/."""
    site.mkdir()
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    index = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    (site / "index.xml").write_text(
        head
        + index
        + "".join(
            f"<sitemap><loc>https://example.com/{name}.xml</loc></sitemap>\n"
            for name in ("a", "nested", "b")
        )
        + "</sitemapindex>\n",
        encoding="utf-8",
    )
    (site / "nested.xml").write_text(
        head + index + "<sitemap><loc>https://example.com/c.xml</loc></sitemap>\n</sitemapindex>\n",
        encoding="utf-8",
    )
    for name, count in (("a", 3), ("b", 2), ("c", 1)):
        (site / f"{name}.xml").write_text(
            head
            + '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + "".join(
                f"<url><loc>https://example.com/{name}/{n}</loc>"
                f"<lastmod>2025-0{n + 1}-01</lastmod><changefreq>daily</changefreq></url>\n"
                for n in range(count)
            )
            + "</urlset>\n",
            encoding="utf-8",
        )


def set_outcome(site: Path, format: str) -> list[FileResult]:
    from sitemap_lint.run import compute
    from sitemap_lint.settings.config import resolve

    settings = RunSettings(
        paths=[str(site / "index.xml")],
        format=format,
        now="2025-06-01",
        isolated=True,
        follow=True,
        maps=[f"https://example.com/={site}"],
    )
    return compute(settings, resolve(None, True)).results


def test_a_set_run_says_which_file_listed_which(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_set(site)
    results = set_outcome(site, "html")
    names = [Path(result.name).name for result in results]
    assert names == ["index.xml", "a.xml", "nested.xml", "b.xml"]
    assert [result.parent for result in results] == [None, 0, 0, 0]
    stats = [result.stats for result in results]
    assert all(s is not None for s in stats)
    assert [dict(s.months) for s in stats if s is not None] == [
        {},  # an index's entries are sitemaps, not pages
        {"2025-01": 1, "2025-02": 1, "2025-03": 1},
        {},
        {"2025-01": 1, "2025-02": 1},
    ]
    assert results[1].stats is not None and results[1].stats.changefreqs == {"daily": 3}
    assert results[1].stats.size == (site / "a.xml").stat().st_size
    # The page: the index with its three children, in the order it lists them.
    text = page_of(results)
    nodes = Page(text).all("li", **{"class": "tree-node"})
    assert [(Path(n["data-file"] or "").name, n["data-depth"]) for n in nodes] == [
        ("index.xml", "0"),
        ("a.xml", "1"),
        ("nested.xml", "1"),
        ("b.xml", "1"),
    ]


def test_other_formats_count_nothing(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_set(site)
    results = set_outcome(site, "json")
    assert [result.stats for result in results] == [None] * 4
    assert [result.parent for result in results] == [None, 0, 0, 0]  # plain data, kept


def test_a_parent_that_is_not_an_earlier_file_is_a_root() -> None:
    results = [
        FileResult("a.xml", parent=1),  # not earlier: no cycle can be drawn
        FileResult("b.xml", parent=0),
        FileResult("c.xml", parent=7),  # out of range
    ]
    nodes = Page(page_of(results)).all("li", **{"class": "tree-node"})
    assert [(n["data-file"], n["data-depth"]) for n in nodes] == [
        ("a.xml", "0"),
        ("b.xml", "1"),
        ("c.xml", "0"),
    ]


def test_entry_counts_are_normalised_and_bounded() -> None:
    from datetime import datetime

    from sitemap_lint.model import Node
    from sitemap_lint.sets.facts import INVALID, NONE, OTHER

    def node(name: str, text: str = "", **attrs: str) -> Node:
        made = Node("http://www.sitemaps.org/schemas/sitemap/0.9", name, attrs, 1, 1)
        made.text = text
        return made

    stats = FileStats()
    entry = node("url")
    found = {"loc": node("loc", "https://e.com/"), "changefreq": node("changefreq", " Daily ")}
    entry.children = list(found.values())
    stats.add_entry(found, datetime(2025, 3, 9), entry)
    for priority, changefreq in (("0.50", "sometimes"), ("1.01", "never"), ("nan", "")):
        found = {
            "priority": node("priority", priority),
            "changefreq": node("changefreq", changefreq),
        }
        stats.add_entry(found, None, entry)
    stats.add_entry({"lastmod": node("lastmod", "last tuesday")}, None, entry)
    assert stats.months == {"2025-03": 1, NONE: 3, INVALID: 1}
    assert stats.changefreqs == {"daily": 1, INVALID: 1, "never": 1, NONE: 2}
    assert stats.priorities == {NONE: 2, "0.5": 1, INVALID: 2}
    # hreflang: each code once per entry, whatever the links' order or repeats.
    xhtml = "http://www.w3.org/1999/xhtml"
    links = [
        Node(xhtml, "link", {"rel": "alternate", "hreflang": code, "href": "x"}, 1, 1)
        for code in ("en", "de", "en")
    ]
    entry.children = [found_loc := node("loc", "https://e.com/"), *links]
    stats.add_entry({"loc": found_loc}, None, entry)
    assert stats.hreflangs == {"en": 1, "de": 1}
    # Thrice as many distinct values as are counted: no more than STATS_KEYS keys each.
    hostile = FileStats()
    for n in range(3 * STATS_KEYS):
        link = Node(xhtml, "link", {"hreflang": f"x-{n}" * 20}, 1, 1)
        entry.children = [found_loc, link]
        hostile.add_entry({"loc": found_loc}, datetime(1 + n, 1, 1), entry)
    assert len(hostile.months) == len(hostile.hreflangs) == STATS_KEYS + 1
    assert hostile.months[OTHER] == hostile.hreflangs[OTHER] == 2 * STATS_KEYS
    assert max(map(len, hostile.hreflangs)) <= 35


# -- what each file is, its URLs, and the lastmod time line -------------------------------


def node_columns(text: str) -> list[tuple[str, str]]:
    """Each tree node's kind and URLs, as the page writes them."""
    tree = text.split('id="file-tree"', 1)[1]
    kinds = re.findall(r'<span class="node-kind">([^<]*)</span>', tree)
    urls = re.findall(r'<span class="node-urls num"[^>]*>([^<]*)', tree)
    return list(zip(kinds, urls, strict=True))


def urls_card(text: str) -> str:
    return text.split('id="total-urls">', 1)[1].split("<", 1)[0]


def test_the_page_says_what_the_baseline_left_out(tmp_path: Path) -> None:
    """With --baseline a page of no findings is not a clean site: it says, as the text
    report does, how many findings the baseline matched and how many it no longer sees."""
    sitemap = tmp_path / "sitemap.xml"
    shutil.copyfile(ROOT / MIXED, sitemap)
    baseline = tmp_path / "baseline.json"
    assert main(["--isolated", "--write-baseline", str(baseline), str(sitemap)]) == 0
    page = tmp_path / "report.html"
    args = ["--isolated", "--format", "html", "-o", str(page), "--baseline", str(baseline)]
    assert main([*args, str(sitemap)]) == 0
    words = " ".join("".join(Page(page.read_text(encoding="utf-8")).text).split())
    assert "8 findings matched the baseline (not shown)." in words
    assert "not seen again" not in words
    sitemap.write_text(CLEAN_TEXT, encoding="utf-8")
    assert main([*args, str(sitemap)]) == 0
    words = " ".join("".join(Page(page.read_text(encoding="utf-8")).text).split())
    assert (
        "0 findings matched the baseline (not shown). 8 recorded findings were not seen"
        " again; --write-baseline refreshes the file." in words
    )


CLEAN_TEXT = (ROOT / CLEAN).read_text(encoding="utf-8")


FIXABLE = "fixtures/fix/mixed.xml"


@pytest.mark.parametrize(
    ("unsafe", "said"),
    [
        (False, "8 fixable with --fix. (3 hidden fixes can be enabled with --unsafe-fixes.)"),
        (True, "11 fixable with --fix."),
    ],
)
def test_the_page_counts_and_marks_what_fix_fixes(repo_root: Path, unsafe: bool, said: str) -> None:
    """As the text report does: how many findings ``--fix`` fixes (and the unsafe fixes
    it leaves without ``--unsafe-fixes``), and which: each such row says so, in words a
    search finds."""
    _, text = render([FIXABLE], unsafe_fixes=unsafe)
    words = " ".join("".join(Page(text).text).split())
    assert said in words
    fixable = text.count('<span class="badge badge-fix"')
    assert fixable == 1 + int(said.split()[0])  # the count's own badge, then each row's
    rows = re.findall(r"<tr class=\"sev-.*?</tr>", text, re.S)
    assert len(rows) == 11
    assert sum("badge-fix" in row for row in rows) == fixable - 1
    _, clean = render([CLEAN])
    assert "fixable" not in clean


def test_a_plain_run_shows_each_file_kind_and_urls(repo_root: Path, tmp_path: Path) -> None:
    _, text = render([MIXED])  # one file: checked on its own, not as a set
    assert node_columns(text) == [("urlset", "6 URLs")]
    assert urls_card(text) == "6"
    assert [(f["kind"], f["urls"]) for f in Page(text).data()["files"]] == [("urlset", 6)]
    folder = tmp_path / "sitemaps"  # a directory: its files named together
    folder.mkdir()
    shutil.copyfile(MIXED, folder / "sitemap-a.xml")
    shutil.copyfile(CLEAN, folder / "sitemap-b.xml")
    _, text = render([str(folder)])
    assert node_columns(text) == [("urlset", "6 URLs"), ("urlset", "1 URL")]
    assert urls_card(text) == "7"


def visible_labels(chart: str) -> list[str]:
    """The texts a chart shows (the renderer keeps a label it hides, transparent)."""
    return [
        text
        for attrs, text in re.findall(r"<text([^>]*)>([^<]*)</text>", chart)
        if 'opacity="0"' not in attrs
    ]


def test_the_lastmod_time_line_labels_years_through_the_newest() -> None:
    """26 years of lastmod (more months than are drawn as months), entries without one,
    with an invalid one and past the counted values: the years are labelled every few,
    counted back from the newest; each special bar is drawn and labelled."""
    stats = FileStats(size=100)
    for year in range(2000, 2026):
        stats.months.update({f"{year}-01": year - 1990, f"{year}-07": 3})
    stats.months.update({"none": 7, "invalid": 2, "other": 4})
    text = page_of([FileResult("dated.xml", kind="urlset", urls=1000, stats=stats)])
    chart = text.split('id="chart-lastmod"', 1)[1].split("</figure>", 1)[0]
    labels = visible_labels(chart)
    years = [int(label) for label in labels if label.isdigit() and len(label) == 4]
    assert years[-1] == 2025 and len(years) >= 8
    steps = {later - earlier for earlier, later in itertools.pairwise(years)}
    assert len(steps) == 1  # evenly spaced
    assert {"not given", "invalid", "other values"} <= set(labels)
    assert 'fill="#6b7280"' in chart  # the bar of values past the counted ones


# -- in a real browser ------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def browser(scripts: bool = True) -> Any:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    if not CHROMIUM or not CHROMEDRIVER:
        pytest.skip("no Chromium here: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        "--hide-scrollbars",
    ):
        options.add_argument(argument)
    options.binary_location = CHROMIUM
    if not scripts:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2}
        )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture
def driver() -> Iterator[Any]:
    session = browser()
    try:
        yield session
    finally:
        session.quit()


def requested_urls(driver: Any) -> list[str]:
    """Every URL the page asked for, from the DevTools network log."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def open_page(driver: Any, page: Path) -> None:
    from selenium.webdriver.support.wait import WebDriverWait

    driver.get(page.as_uri())
    # (A page of several megabytes may still be parsed when a loaded machine's
    # ChromeDriver returns: the load is waited for, with a bound.)
    WebDriverWait(driver, 120, poll_frequency=0.2).until(
        lambda session: session.execute_script("return document.readyState") == "complete"
    )
    problems = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert problems == []
    assert set(requested_urls(driver)) == {page.as_uri()}
    resources = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    assert resources == []


ROWS_JS = "return Array.from(document.querySelectorAll('#findings-table tbody tr'))"
VISIBLE_JS = ROWS_JS + ".filter(r => !r.hidden)"
# Each tree node with the index (in the report's data) of the node it hangs under.
TREE_JS = """return Array.from(document.querySelectorAll('li.tree-node'), li => {
  const up = li.parentElement.closest('li.tree-node');
  return [li.dataset.file, up ? +up.id.replace('node-file-', '') - 1 : null];
})"""
# A click on a column heading: the milliseconds it takes with the layout it causes, and
# how many changes of the table body's children it makes (a record per row moved one by
# one, one for a body emptied or filled at once).
SORT_JS = """const th = document.querySelector('th[data-sort=' + arguments[0] + ']');
const observer = new MutationObserver(() => {});
observer.observe(document.querySelector('#findings-table tbody'), {childList: true});
const start = performance.now();
th.click();
document.body.offsetHeight;
const ms = performance.now() - start;
const changes = observer.takeRecords().length;
observer.disconnect();
return [ms, changes]"""
# Each sort, on a shared and loaded machine: 0.2-0.5 s idle, 1.6-2.5 s with the CPU
# throttled six times; a sort that moved the rows one by one took 6-28 s there.
SORT_LIMIT_MS = 4_000


def sort_by(driver: Any, column: str) -> float:
    """Click ``column``'s heading; the milliseconds the sort took, checked to rebuild
    the table body in one step."""
    ms, changes = driver.execute_script(SORT_JS, column)
    assert changes <= 2, f"sorting by {column} changed the table body {changes} times"
    return float(ms)


def check_in_browser(driver: Any, page: Path, shot: Path, charts: list[str]) -> dict[str, float]:
    """Use the page as a person would; returns the times of the sorts, in ms."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    open_page(driver, page)
    data = driver.execute_script(
        "return JSON.parse(document.getElementById('report-data').textContent)"
    )
    # The tree shows every file, each under the file that listed it.
    nodes = driver.find_elements(By.CSS_SELECTOR, "li.tree-node")
    assert all(node.is_displayed() for node in nodes)
    assert driver.execute_script(TREE_JS) == [[f["name"], f["parent"]] for f in data["files"]]
    # The charts are inline SVG, each drawn.
    figures = driver.find_elements(By.CSS_SELECTOR, "figure.chart")
    assert [figure.get_attribute("id") for figure in figures] == charts
    for figure in figures:
        svg = figure.find_element(By.CSS_SELECTOR, "svg")
        assert svg.size["width"] > 50 and svg.size["height"] > 20
        # A drawing in the role of an image, named by its caption's title.
        caption = figure.find_element(By.TAG_NAME, "figcaption").text
        assert svg.aria_role == "image" and svg.accessible_name
        assert caption.startswith(svg.accessible_name)
        assert figure.find_elements(By.CSS_SELECTOR, "path, rect")
    # Filtering by a rule shows exactly that rule's rows.
    rows = driver.find_elements(By.CSS_SELECTOR, "#findings-table tbody tr")
    assert len(rows) == data["shown"]
    codes = driver.execute_script(ROWS_JS + ".map(r => r.dataset.code)")
    for code in sorted(set(codes))[:3]:
        Select(driver.find_element(By.ID, "filter-rule")).select_by_value(code)
        visible = driver.execute_script(VISIBLE_JS + ".map(r => r.dataset.code)")
        assert visible == [c for c in codes if c == code]
        shown = driver.find_element(By.ID, "shown-count").text
        assert shown.startswith(f"{len(visible):,} of {len(codes):,} shown")
    Select(driver.find_element(By.ID, "filter-rule")).select_by_value("")
    # Free-text search, once typing pauses: the rows whose text has every word.
    word = codes[-1].lower()
    driver.find_element(By.ID, "filter-text").send_keys(word)
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script(VISIBLE_JS + ".length") == codes.count(codes[-1])
    )
    driver.find_element(By.ID, "filter-text").clear()
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script(VISIBLE_JS + ".length") == len(codes)
    )
    # A rule link opens that rule's documentation.
    link = driver.find_element(By.CSS_SELECTOR, "a.rule-link")
    code = link.get_attribute("data-code")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    dialog = driver.find_element(By.ID, "rule-dialog")
    assert dialog.get_attribute("open") is not None
    assert code in dialog.text and "What it does" in dialog.text
    dialog.find_element(By.CSS_SELECTOR, "button.close").click()
    assert dialog.get_attribute("open") is None
    # A click on a file in the tree shows that file's findings, and marks its node.
    links = driver.find_elements(By.CSS_SELECTOR, "#file-tree a.file-link")
    assert links
    for link in (links[-1], links[0]):
        name = link.get_attribute("data-file")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        link.click()
        visible = driver.execute_script(VISIBLE_JS + ".map(r => r.dataset.file)")
        assert visible and set(visible) == {name}
        assert visible == [
            f for f in driver.execute_script(ROWS_JS + ".map(r => r.dataset.file)") if f == name
        ]
        selected = driver.find_elements(By.CSS_SELECTOR, "li.tree-node.selected")
        assert [node.get_attribute("data-file") for node in selected] == [name]
        assert (
            Select(driver.find_element(By.ID, "filter-file")).first_selected_option.get_attribute(
                "value"
            )
            == name
        )
    Select(driver.find_element(By.ID, "filter-file")).select_by_value("")
    assert not driver.find_elements(By.CSS_SELECTOR, "li.tree-node.selected")
    # Sorting by line puts the rows in order of their line numbers, and back; every
    # sort is as quick as the first, on the same column or another.
    line_js = ROWS_JS + ".map(r => +r.cells[3].textContent)"
    times = {"line": sort_by(driver, "line")}
    lines = driver.execute_script(line_js)
    assert lines == sorted(lines)
    times["line, reversed"] = sort_by(driver, "line")
    assert driver.execute_script(line_js) == sorted(lines, reverse=True)
    times["message"] = sort_by(driver, "message")
    messages = driver.execute_script(ROWS_JS + ".map(r => r.cells[5].textContent.toLowerCase())")
    assert messages == sorted(messages)
    times["line, again"] = sort_by(driver, "line")
    assert driver.execute_script(line_js) == lines
    times["severity"] = sort_by(driver, "severity")
    ranks = driver.execute_script(
        ROWS_JS + ".map(r => ['error', 'warning', 'info'].indexOf(r.dataset.severity))"
    )
    assert ranks == sorted(ranks)
    assert max(times.values()) < SORT_LIMIT_MS, times
    driver.execute_script("window.scrollTo({top: 0, behavior: 'instant'})")
    assert driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    assert [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
    assert set(requested_urls(driver)) <= {page.as_uri()}
    return times


FIXTURE_CHARTS = [
    "chart-rules",
    "chart-files",
    "chart-lastmod",
    "chart-changefreq",
    "chart-priority",
]
SITE_CHARTS = [*FIXTURE_CHARTS, "chart-hreflang"]


@pytest.mark.slow
def test_fixture_report_in_a_browser(repo_root: Path, tmp_path: Path, driver: Any) -> None:
    page = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(page), "--now", "2025-06-01", MIXED, CLEAN]) == 1
    check_in_browser(driver, page, tmp_path / "report.png", FIXTURE_CHARTS)
    if os.environ.get("SITEMAP_LINT_UPDATE_SCREENSHOT"):
        save_readme_screenshot(tmp_path / "report.png")


@pytest.mark.slow
def test_with_scripts_off_the_page_is_all_there(repo_root: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(page), "--now", "2025-06-01", MIXED, CLEAN]) == 1
    session = browser(scripts=False)
    try:
        session.get(page.as_uri())
        assert not session.find_element(By.ID, "filters").is_displayed()  # only with scripts
        rows = session.find_elements(By.CSS_SELECTOR, "#findings-table tbody tr")
        assert len(rows) == 8 and all(row.is_displayed() for row in rows)
        nodes = session.find_elements(By.CSS_SELECTOR, "li.tree-node")
        assert [node.get_attribute("data-file") for node in nodes] == [MIXED, CLEAN]
        assert all(node.is_displayed() for node in nodes)
        assert len(session.find_elements(By.CSS_SELECTOR, "svg.marks")) == 5
        link = session.find_element(By.CSS_SELECTOR, "a.rule-link")
        code = link.get_attribute("data-code")
        link.click()  # a plain anchor: the rule's documentation further down the page
        assert session.current_url.endswith(f"#rule-{code}")
        article = session.find_element(By.ID, f"rule-{code}")
        assert article.is_displayed() and "What it does" in article.text
        top = session.execute_script("return arguments[0].getBoundingClientRect().top", article)
        assert 40 <= top < 300  # below the sticky section bar
    finally:
        session.quit()


def _tab_until(driver: Any, reached_js: str, what: str) -> Any:
    """Press Tab until the script ``reached_js`` returns something (which is returned)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for _ in range(100):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        reached = driver.execute_script(reached_js)
        if reached:
            return reached
    pytest.fail(f"no key Tab reaches {what}")


@pytest.mark.slow
def test_sorting_and_a_rule_dialog_from_the_keyboard(
    repo_root: Path, tmp_path: Path, driver: Any
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(page), "--now", "2025-06-01", MIXED, CLEAN]) == 1
    open_page(driver, page)
    focused = "return document.activeElement"
    line_heading = focused + ".closest('th[data-sort=\"line\"]')"
    heading = _tab_until(driver, line_heading, "the Line heading")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    assert heading.get_attribute("aria-sort") == "ascending"
    lines = driver.execute_script(ROWS_JS + ".map(r => +r.cells[3].textContent)")
    assert lines == sorted(lines) and lines != sorted(lines, reverse=True)
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    assert heading.get_attribute("aria-sort") == "descending"
    assert driver.execute_script(ROWS_JS + ".map(r => +r.cells[3].textContent)") == sorted(
        lines, reverse=True
    )
    # A rule link, then Enter: the dialog has the rule's heading as its name.
    _tab_until(driver, focused + ".classList.contains('rule-link')", "a rule link")
    code = driver.execute_script(focused + ".dataset.code")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    name = driver.execute_script(
        "const dialog = document.getElementById('rule-dialog');"
        "const title = document.getElementById(dialog.getAttribute('aria-labelledby'));"
        "return dialog.open && title && dialog.contains(title) ? title.textContent : null"
    )
    assert name is not None and code in name
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    assert driver.find_element("id", "rule-dialog").get_attribute("open") is None
    assert [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []


# Each element's own text whose colour on its background contrasts less than WCAG 2's
# AA asks (4.5:1; 3:1 for text of 24px, or bold from 18.66px); the charts apart.
LOW_CONTRAST_JS = """
function rgb(text) { return text.match(/[\\d.]+/g).map(Number); }
function luminance(c) {
  const v = c.slice(0, 3).map(x => {
    x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function background(e) {
  for (; e; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] > 0) return c;
  }
  return [255, 255, 255];
}
const low = [];
for (const e of document.querySelectorAll('body *')) {
  const own = Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own || e.closest('svg') || !e.getClientRects().length) continue;
  const style = getComputedStyle(e);
  const a = luminance(rgb(style.color)), b = luminance(background(e));
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const size = parseFloat(style.fontSize), bold = +style.fontWeight >= 700;
  if (ratio < (size >= 24 || (bold && size >= 18.66) ? 3 : 4.5)) {
    low.push(e.className + ' ' + ratio.toFixed(2) + ': ' + e.textContent.trim().slice(0, 30));
  }
}
return low;
"""


@pytest.mark.slow
def test_every_text_contrasts_enough_with_its_background(
    repo_root: Path, tmp_path: Path, driver: Any
) -> None:
    page = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(page), "--now", "2025-06-01", MIXED, CLEAN]) == 1
    open_page(driver, page)
    assert driver.execute_script(LOW_CONTRAST_JS) == []
    # A file's node once the findings are filtered by it.
    driver.execute_script(
        "document.querySelectorAll('li.tree-node').forEach(n => n.classList.add('selected'))"
    )
    assert driver.execute_script(LOW_CONTRAST_JS) == []
    # The exit status of a run that passed, and of one that could not check.
    for status in (0, 2):
        driver.execute_script(
            "document.getElementById('exit-status').className = 'status status-' + arguments[0]",
            status,
        )
        assert driver.execute_script(LOW_CONTRAST_JS) == [], status


# Each chart's texts (labels) and marks (bars, legend swatches) that contrast less with
# their panel than WCAG 2's AA asks: 4.5:1 for text, 3:1 for graphics.
LOW_CONTRAST_CHARTS_JS = """
function rgb(text) { return text.match(/[\\d.]+/g).map(Number); }
function luminance(c) {
  const v = c.slice(0, 3).map(x => {
    x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function ratio(a, b) {
  const x = luminance(a), y = luminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
const low = [];
for (const figure of document.querySelectorAll('figure.chart')) {
  const panel = rgb(getComputedStyle(figure).backgroundColor);
  for (const text of figure.querySelectorAll('svg text')) {
    const r = ratio(rgb(getComputedStyle(text).fill), panel);
    if (r < 4.5) low.push(figure.id + ' text ' + r.toFixed(2) + ': ' + text.textContent);
  }
  for (const mark of figure.querySelectorAll('svg .role-mark path, svg .role-legend-symbol path')) {
    const fill = getComputedStyle(mark).fill;
    if (!fill.startsWith('rgb')) continue;
    const r = ratio(rgb(fill), panel);
    if (r < 3) low.push(figure.id + ' mark ' + r.toFixed(2) + ': ' + fill);
  }
}
return low;
"""


@pytest.mark.slow
def test_in_dark_mode_the_page_is_dark_and_every_text_contrasts_enough(
    repo_root: Path, tmp_path: Path, driver: Any
) -> None:
    """A reader whose system is set to dark gets a dark page (not a white one in the
    dark), every text and chart readable on it; light stays as it was."""
    page = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(page), "--now", "2025-06-01", MIXED, CLEAN]) == 1
    background = "return getComputedStyle(document.body).backgroundColor"
    open_page(driver, page)
    assert driver.execute_script(background) == "rgb(246, 247, 249)"
    assert driver.execute_script(LOW_CONTRAST_CHARTS_JS) == []
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
    )
    channels = [int(x) for x in re.findall(r"\d+", driver.execute_script(background))[:3]]
    assert max(channels) < 60, channels
    assert driver.execute_script(LOW_CONTRAST_JS) == []
    assert driver.execute_script(LOW_CONTRAST_CHARTS_JS) == []
    grid = driver.execute_script(
        "return Array.from(document.querySelectorAll('figure.chart .role-axis-grid line'),"
        " line => getComputedStyle(line).stroke)"
    )
    assert grid and "rgb(230, 232, 235)" not in grid  # no light rules across a dark chart
    # The rule dialog, the selected file's node, and each exit status.
    driver.execute_script(
        "document.querySelectorAll('li.tree-node').forEach(n => n.classList.add('selected'))"
    )
    link = driver.find_element("css selector", "a.rule-link")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    assert driver.find_element("id", "rule-dialog").get_attribute("open") is not None
    assert driver.execute_script(LOW_CONTRAST_JS) == []
    for status in (0, 2):
        driver.execute_script(
            "document.getElementById('exit-status').className = 'status status-' + arguments[0]",
            status,
        )
        assert driver.execute_script(LOW_CONTRAST_JS) == [], status


@pytest.mark.slow
def test_in_a_narrow_window_the_page_does_not_scroll_sideways(
    repo_root: Path, tmp_path: Path, driver: Any
) -> None:
    """A phone's width: the charts shrink to the window; only the wide table and tree
    scroll, each in its own panel."""
    page = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(page), "--now", "2025-06-01", MIXED, CLEAN]) == 1
    driver.set_window_size(420, 900)
    open_page(driver, page)
    width, window = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= window
    charts = driver.execute_script(
        "return Array.from(document.querySelectorAll('figure.chart'),"
        " figure => figure.getBoundingClientRect().right)"
    )
    assert len(charts) == 5 and max(charts) <= window


@pytest.mark.slow
def test_a_screen_reader_reads_every_finding_before_it_is_scrolled_to(
    repo_root: Path, tmp_path: Path, driver: Any
) -> None:
    """The findings below the window are in the accessibility tree, each row with its
    six cells, not empty rows: a page of this size lays out every row (only a page of
    thousands lays out the rows on screen alone, for its sorts' sake)."""
    page = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(page), "--now", "2025-06-01", MIXED, CLEAN]) == 1
    open_page(driver, page)
    assert driver.execute_script(
        "const r = document.querySelector('#findings-table tbody tr').getBoundingClientRect();"
        "return r.top > window.innerHeight"
    )  # the findings are below the window
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    nodes = {node["nodeId"]: node for node in tree["nodes"]}
    rows = [node for node in tree["nodes"] if node.get("role", {}).get("value") == "row"]
    assert len(rows) == 1 + len(Page(page.read_text(encoding="utf-8")).rows())
    kinds = []
    for row in rows:
        cells = [nodes[child] for child in row.get("childIds", []) if child in nodes]
        kinds.append([cell.get("role", {}).get("value") for cell in cells])
    assert kinds.count(["columnheader"] * 6) == 1
    assert kinds.count(["cell"] * 6) == len(rows) - 1, kinds
    assert 'class="findings"' in page.read_text(encoding="utf-8")


def test_only_a_page_of_thousands_of_findings_lays_out_the_rows_on_screen_alone() -> None:
    few = page_of([FileResult("a.xml", [finding("UR001", "relative")] * 20)])
    assert '<table class="findings" id="findings-table">' in few
    many = [finding("UR001", "relative", line) for line in range(1, html_report.ONSCREEN_ROWS + 2)]
    assert '<table class="findings onscreen" id="findings-table">' in page_of(
        [FileResult("a.xml", many)]
    )


@pytest.mark.slow
def test_a_redirect_chain_of_a_very_long_url_wraps_within_its_panel(
    tmp_path: Path, driver: Any
) -> None:
    """A URL of thousands of characters in a redirect chain breaks across lines: the
    chains' panel does not grow tens of thousands of pixels wide, with every other
    chain on one line across it."""
    long_url = "https://example.com/?" + "q" * 3000
    chains = [[f"{long_url} 301", "https://example.com/ 200"], ["https://e.com/a 301", "b 200"]]
    live = LiveStats(listed=2, requested=2, statuses={"301": 2}, chains=chains).as_dict()
    run = RunInfo(("s.xml",), None, "google", 1, "sitemap-lint --live s.xml", live=live)
    page = tmp_path / "audited.html"
    page.write_text(page_of([FileResult("s.xml", [finding("UR001", "x")])], run))
    open_page(driver, page)
    past = driver.execute_script(
        "const panel = document.querySelector('.live-chains').parentElement;"
        "return panel.scrollWidth - panel.clientWidth"
    )
    assert past <= 0


@pytest.mark.slow
def test_on_a_phone_a_rule_document_with_long_code_does_not_scroll_sideways(
    repo_root: Path, tmp_path: Path, driver: Any
) -> None:
    """A phone 360 pixels wide (a window cannot be made that narrow: the screen is
    emulated): a rule's documentation writes a namespace URI or an attribute as inline
    code without a space to break at; it breaks anywhere rather than widen the page."""
    page = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(page), "--now", "2025-06-01", FIXABLE]) == 1
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": True},
    )
    open_page(driver, page)
    assert driver.find_elements("css selector", "#rule-NS002 .doc p code")
    width, window = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert window == 360 and width <= window
    # The sticky section bar keeps to one line, below which an anchor lands.
    bar, margin = driver.execute_script(
        "return [document.querySelector('nav.tabs').offsetHeight,"
        " parseFloat(getComputedStyle(document.querySelector('section')).scrollMarginTop)]"
    )
    assert bar <= margin, (bar, margin)


PRINTED_WIDTH = 718  # CSS pixels a browser prints on an A4 page with its default margins
# Each panel that would scroll on screen, with how far its content reaches past it.
CUT_ON_PAPER_JS = """return Array.from(
  document.querySelectorAll('.table-scroll, .tree-panel, .chart'),
  panel => [panel.className, panel.scrollWidth - panel.clientWidth]
).filter(([, past]) => past > 0)"""


@pytest.mark.slow
def test_printed_every_column_fits_the_page(repo_root: Path, tmp_path: Path, driver: Any) -> None:
    """Paper does not scroll: printed, the findings' messages and the tree's counts are
    on the page, not cut off at the edge of a panel."""
    fixtures = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(fixtures), "--now", "2025-06-01", MIXED, CLEAN]) == 1
    long_url = "https://example.com/" + "a/" * 400
    chain = [f"{long_url} 301", "https://example.com/ 200"]
    live = LiveStats(listed=1, requested=1, statuses={"301": 1}, chains=[chain]).as_dict()
    audited = tmp_path / "audited.html"
    run = RunInfo(("s.xml",), None, "google", 1, "sitemap-lint --live s.xml", live=live)
    audited.write_text(page_of([FileResult("s.xml", [finding("UR001", "x")])], run))
    driver.set_window_size(PRINTED_WIDTH, 900)
    for page in (fixtures, audited):
        open_page(driver, page)
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        width = driver.execute_script("return document.documentElement.clientWidth")
        assert driver.execute_script(CUT_ON_PAPER_JS) == [], page.name
        edges = driver.execute_script(
            "return Array.from(document.querySelectorAll("
            "'#findings-table td.message, .tree-node .node-findings, .live-chains td'),"
            " cell => cell.getBoundingClientRect().right)"
        )
        assert edges and max(edges) <= width, page.name


@pytest.mark.slow
def test_a_run_of_many_inputs_keeps_its_header_and_footer_short(
    tmp_path: Path, driver: Any
) -> None:
    names = [f"sitemap-{n:04d}.xml" for n in range(1200)]
    results = [FileResult(name, [finding("UR001", "relative")]) for name in names]
    run = RunInfo(tuple(names), None, "google", 1, "sitemap-lint " + " ".join(names))
    page = tmp_path / "report.html"
    page.write_text(page_of(results, run), encoding="utf-8")
    open_page(driver, page)
    header, footer = driver.execute_script(
        "return ['header', 'footer'].map(tag => document.querySelector(tag).offsetHeight)"
    )
    assert header < 400 and footer < 400, (header, footer)
    box = driver.find_element("css selector", ".command-box")
    assert driver.execute_script("return arguments[0].scrollHeight", box) > 1000
    assert box.get_attribute("tabindex") == "0"  # scrolled from the keyboard too


@pytest.mark.slow
def test_the_diff_page_in_a_browser_keeps_a_long_url_within_the_page(
    tmp_path: Path, driver: Any
) -> None:
    long_url = "https://example.com/" + "a" * 3000

    def urlset(*urls: str) -> str:
        entries = "".join(f"  <url><loc>{url}</loc></url>\n" for url in urls)
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{entries}</urlset>\n'
        )

    old, new, page = tmp_path / "old.xml", tmp_path / "new.xml", tmp_path / "diff.html"
    old.write_text(urlset("https://example.com/kept"), encoding="utf-8")
    new.write_text(urlset("https://example.com/kept", long_url), encoding="utf-8")
    args = ["diff", "-f", "html", "-o", str(page), "--now", "2025-06-01", str(old), str(new)]
    assert main(args) == 0
    open_page(driver, page)
    widths = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths
    assert long_url in driver.find_element("id", "changes").text.replace("\n", "")
    labels = driver.execute_script(
        "return ['old-urls', 'new-urls'].map("
        "id => document.getElementById(id).nextElementSibling.textContent)"
    )
    assert labels == ["old URLs (1 file)", "new URLs (1 file)"]
    chart = driver.find_element("css selector", "#chart-by-file svg")
    assert chart.accessible_name == "URLs added and removed, by file"


def save_readme_screenshot(shot: Path) -> None:
    """docs/report.png: the screenshot, as a small palette PNG."""
    target = ROOT / "docs" / "report.png"
    try:
        from PIL import Image
    except ImportError:
        shutil.copyfile(shot, target)
        return
    with Image.open(shot) as image:
        small = image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
        small.save(target, optimize=True)


def big_sitemap(path: Path, count: int = 50_000) -> None:
    """``count`` URLs; every 4th has a fragment (UR008), every 9th is relative (UR001)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for n in range(count):
        url = f"https://example.com/page/{n}"
        if n % 9 == 0:
            url = f"/page/{n}"
        elif n % 4 == 0:
            url += "#top"
        lines.append(f"  <url><loc>{url}</loc></url>")
    lines.append("</urlset>")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
def test_a_50000_url_sitemap_in_a_browser(tmp_path: Path, driver: Any) -> None:
    """A site: an index followed to a 50,000-URL sitemap and a small one (mapped to
    local files), so the page knows each file's kind and URLs."""
    site = tmp_path / "site"
    site.mkdir()
    big_sitemap(site / "big.xml")
    big_sitemap(site / "small.xml", 200)
    (site / "index.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <sitemap><loc>https://example.com/big.xml</loc></sitemap>\n"
        "  <sitemap><loc>https://example.com/small.xml</loc></sitemap>\n"
        "</sitemapindex>\n",
        encoding="utf-8",
    )
    page = tmp_path / "report.html"
    arguments = ["--follow", "--map", f"https://example.com/={site}", "--now", "2025-06-01"]
    assert main(["--format", "html", "-o", str(page), *arguments, str(site / "index.xml")]) == 1
    parsed = Page(page.read_text(encoding="utf-8"))
    files = parsed.all("li", **{"class": "tree-node"})
    assert [(f["data-file"], f["data-depth"]) for f in files] == [
        (str(site / "index.xml"), "0"),
        (str(site / "big.xml"), "1"),
        (str(site / "small.xml"), "1"),
    ]
    words = " ".join(" ".join(parsed.text).split())
    assert "sitemapindex" in words and "urlset" in words
    assert "50,000" in words and 'style="width: 100.0%"' in page.read_text(encoding="utf-8")
    assert parsed.all("p", id="truncated")  # more findings than the page embeds
    assert len(parsed.rows()) == html_report.ROW_LIMIT
    times = check_in_browser(driver, page, tmp_path / "report.png", FIXTURE_CHARTS)
    print(f"sorting 10,000 rows, ms (click to layout): {times}")


# -- a site over HTTP: robots.txt -> index -> sitemaps ------------------------------------

URLSET_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
)
FREQS = ("daily", "weekly", "monthly", "sometimes")


def language_sitemap(
    base: str, language: str, other: str | None, count: int, one_way: int = 0
) -> bytes:
    """``count`` pages of ``language``: lastmod over 2024's months (every 5th page has
    none), four changefreq values (one invalid), priorities 0.1 to 0.9 and one of 7
    (invalid); with ``other``, each page lists itself and its ``other`` version, but
    with ``one_way`` every ``one_way``-th page lists only itself."""
    lines = [URLSET_HEAD]
    for n in range(count):
        page = f"{base}/{language}/{n}"
        parts = [f"<loc>{page}</loc>"]
        if n % 5:
            parts.append(f"<lastmod>2024-{n % 12 + 1:02d}-15</lastmod>")
        parts.append(f"<changefreq>{FREQS[n % 4]}</changefreq>")
        parts.append(f"<priority>{'7' if n == 3 else f'0.{n % 9 + 1}'}</priority>")
        if other is not None:
            links = [(language, page), (other, f"{base}/{other}/{n}")]
            for code, href in links[: 1 if one_way and n % one_way == 0 else 2]:
                parts.append(f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>')
        lines.append("<url>" + "".join(parts) + "</url>\n")
    lines.append("</urlset>\n")
    return "".join(lines).encode()


def serve_languages(site: SiteServer) -> str:
    """robots.txt -> index -> en.xml and de.xml (alternates of each other, but every
    third German page does not link back: 10 missing return links) and plain.xml."""
    base = site.url("").rstrip("/")
    site.routes["/robots.txt"] = Route(
        body=f"User-agent: *\nAllow: /\n\nSitemap: {base}/index.xml\n".encode(),
        content_type="text/plain",
    )
    site.routes["/index.xml"] = Route(
        body=(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + "".join(
                f"<sitemap><loc>{base}/{name}.xml</loc></sitemap>\n"
                for name in ("en", "de", "plain")
            )
            + "</sitemapindex>\n"
        ).encode()
    )
    site.routes["/en.xml"] = Route(body=language_sitemap(base, "en", "de", 40))
    site.routes["/de.xml"] = Route(body=language_sitemap(base, "de", "en", 30, one_way=3))
    site.routes["/plain.xml"] = Route(body=language_sitemap(base, "fr", None, 25))
    return base


def site_report(tmp_path: Path) -> tuple[int, Path, str]:
    page = tmp_path / "report.html"
    with SiteServer() as site:
        base = serve_languages(site)
        status = main(
            ["--format", "html", "-o", str(page), "--now", "2025-06-01", f"{base}/robots.txt"]
        )
    return status, page, base


@pytest.mark.slow
def test_a_site_from_its_robots_txt(tmp_path: Path, loopback_only) -> None:  # noqa: F811
    status, page, base = site_report(tmp_path)
    assert status == 1
    text = page.read_text(encoding="utf-8")
    parsed = Page(text)
    nodes = [(n["data-file"], n["data-depth"]) for n in parsed.all("li", **{"class": "tree-node"})]
    assert nodes == [
        (f"{base}/robots.txt", "0"),
        (f"{base}/index.xml", "1"),
        (f"{base}/en.xml", "2"),
        (f"{base}/de.xml", "2"),
        (f"{base}/plain.xml", "2"),
    ]
    assert [f["parent"] for f in parsed.data()["files"]] == [None, 0, 1, 1, 1]
    # Scripts off, the tree is nested lists: the index and robots.txt open their children.
    assert text.count("<details open>") == 2
    assert [a["id"] for t, a in parsed.tags if t == "figure"] == SITE_CHARTS
    words = " ".join(" ".join(parsed.text).split())
    # 95 entries: 76 with a lastmod in 2024 (7 per month, 5 or 6), 19 without.
    assert "entries per month; 19 without lastmod" in words
    assert "URLs per code; 10 missing return links" in words
    chart = text.split('id="chart-lastmod"', 1)[1].split("</figure>", 1)[0]
    assert "2024-01" in chart and "2024-12" in chart and "not given" in chart
    chart = text.split('id="chart-changefreq"', 1)[1].split("</figure>", 1)[0]
    assert "weekly" in chart and "invalid" in chart and "sometimes" not in chart
    chart = text.split('id="chart-priority"', 1)[1].split("</figure>", 1)[0]
    assert "0.9" in chart and "invalid" in chart
    chart = text.split('id="chart-hreflang"', 1)[1].split("</figure>", 1)[0]
    assert ">en<" in chart and ">de<" in chart and ">fr<" not in chart


@pytest.mark.slow
def test_a_site_from_its_robots_txt_in_a_browser(
    tmp_path: Path,
    driver: Any,
    loopback_only,  # noqa: F811
) -> None:
    _, page, _ = site_report(tmp_path)
    check_in_browser(driver, page, tmp_path / "site.png", SITE_CHARTS)
