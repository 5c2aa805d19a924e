"""The HTML report (``--format html``): one self-contained, inert, readable page.

The first tests read the page as HTML; the ``slow`` ones open it in headless Chromium
(Debian's ``chromium`` and ``chromium-driver``, driven by selenium) and use it as a
person would. ``SITEMAP_LINT_UPDATE_SCREENSHOT=1`` also writes docs/report.png, the
README's picture, from the same browser session.
"""

from __future__ import annotations

import json
import os
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

from sitemap_lint.checker import FileResult
from sitemap_lint.cli import main
from sitemap_lint.finding import Finding
from sitemap_lint.report import html as html_report
from sitemap_lint.report.base import RunInfo
from sitemap_lint.report.html import HtmlReporter, embedded_json, markdown_blocks
from sitemap_lint.rules import RULES
from sitemap_lint.run import RunSettings, execute
from tests.helpers import ROOT

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


def hostile_results() -> list[FileResult]:
    findings = [finding("UR001", message, line) for line, message in enumerate(HOSTILE_MESSAGES, 3)]
    return [FileResult(HOSTILE_NAME, findings, kind="urlset", urls=3)]


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
        assert message in words
    assert {row["data-file"] for row in page.rows()} == {HOSTILE_NAME}


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


def test_at_most_row_limit_rows_errors_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(html_report, "ROW_LIMIT", 5)
    findings = [finding("UR008", f"fragment {n}", line=n) for n in range(3, 10)]
    findings += [finding("UR001", f"relative {n}", line=n) for n in range(10, 14)]
    findings += [finding("UR003", f"long {n}", line=n) for n in range(14, 15)]
    text = page_of([FileResult("big.xml", findings)])
    page = Page(text)
    rows = page.rows()
    assert len(rows) == 5
    assert {row["data-code"] for row in rows} == {"UR001", "UR003"}  # the errors
    words = " ".join(" ".join(page.text).split())
    assert "shows 5 of 12 findings" in words and "7 more" in words and "--format json" in words
    assert page.data()["total"] == 12 and page.data()["shown"] == 5
    # The charts and the rule counts still count every finding.
    rule = page.all("option", value="UR008")
    assert rule
    assert "UR008 url-fragment (7)" in words


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
    driver.get(page.as_uri())
    assert driver.execute_script("return document.readyState") == "complete"
    problems = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert problems == []
    assert set(requested_urls(driver)) == {page.as_uri()}
    resources = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    assert resources == []


def check_in_browser(driver: Any, page: Path, shot: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_page(driver, page)
    data = driver.execute_script(
        "return JSON.parse(document.getElementById('report-data').textContent)"
    )
    # The file list shows every file.
    files = driver.find_elements(By.CSS_SELECTOR, "tr.file-row")
    assert [row.get_attribute("data-file") for row in files] == [f["name"] for f in data["files"]]
    assert all(row.is_displayed() for row in files)
    # Filtering by a rule shows exactly that rule's rows.
    rows = driver.find_elements(By.CSS_SELECTOR, "#findings-table tbody tr")
    assert len(rows) == data["shown"]
    codes = driver.execute_script(
        "return Array.from(document.querySelectorAll('#findings-table tbody tr'),"
        " r => r.dataset.code)"
    )
    for code in sorted(set(codes))[:3]:
        Select(driver.find_element(By.ID, "filter-rule")).select_by_value(code)
        visible = driver.execute_script(
            "return Array.from(document.querySelectorAll('#findings-table tbody tr'))"
            ".filter(r => !r.hidden).map(r => r.dataset.code)"
        )
        assert visible == [c for c in codes if c == code]
        shown = driver.find_element(By.ID, "shown-count").text
        assert shown.startswith(f"{len(visible):,} of {len(codes):,} shown")
    Select(driver.find_element(By.ID, "filter-rule")).select_by_value("")
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
    # A file's name in the file list shows that file's findings.
    link = driver.find_elements(By.CSS_SELECTOR, "a.file-link")[-1]
    name = link.get_attribute("data-file")
    link.click()
    visible = driver.execute_script(
        "return Array.from(document.querySelectorAll('#findings-table tbody tr'))"
        ".filter(r => !r.hidden).map(r => r.dataset.file)"
    )
    assert visible and set(visible) == {name}
    assert len(visible) == len(
        driver.find_elements(By.CSS_SELECTOR, f'tr[data-file="{name}"][data-code]')
    )
    Select(driver.find_element(By.ID, "filter-file")).select_by_value("")
    # Sorting by line puts the rows in order of their line numbers.
    driver.find_element(By.CSS_SELECTOR, "th[data-sort=line]").click()
    lines = driver.execute_script(
        "return Array.from(document.querySelectorAll('#findings-table tbody tr'),"
        " r => +r.cells[3].textContent)"
    )
    assert lines == sorted(lines)
    driver.execute_script("window.scrollTo({top: 0, behavior: 'instant'})")
    assert driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []


@pytest.mark.slow
def test_fixture_report_in_a_browser(repo_root: Path, tmp_path: Path, driver: Any) -> None:
    page = tmp_path / "report.html"
    assert main(["--format", "html", "-o", str(page), "--now", "2025-06-01", MIXED, CLEAN]) == 1
    check_in_browser(driver, page, tmp_path / "report.png")
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
        ("big.xml", "1"),
        ("small.xml", "1"),
    ]
    words = " ".join(" ".join(parsed.text).split())
    assert "sitemapindex" in words and "urlset" in words
    assert "50,000" in words and 'style="width: 100.0%"' in page.read_text(encoding="utf-8")
    assert parsed.all("p", id="truncated")  # more findings than the page embeds
    assert len(parsed.rows()) == html_report.ROW_LIMIT
    check_in_browser(driver, page, tmp_path / "report.png")
