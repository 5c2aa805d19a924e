"""Text sitemaps: routing, line splitting, the TX rules, and the URL, scope, duplicate and
limit rules applied to the lines. Every file goes through ``check_source``."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from sitemap_lint.engine.checker import check_source
from sitemap_lint.formats.text import LineScanner, is_text_sitemap
from sitemap_lint.inputs.reader import Source
from sitemap_lint.model import MAX_TEXT
from sitemap_lint.settings.options import Options
from tests.helpers import (
    NOW,
    RULE_FIXTURES,
    check_message,
    engine,
    found,
    lint,
    lint_content,
    lint_fixture,
    write,
)


def _lint_text(directory: Path, content: str | bytes, name: str = "sitemap.txt", **options):
    return lint_content(directory, content, name, **options)


# -- the fixtures ---------------------------------------------------------------------------


@pytest.mark.slow
def test_too_many_findings_stops_checking_but_not_counting() -> None:
    """TX005/fail.txt.gz: 40,010 copies of a line with four defects (and, from the second
    on, a duplicate): after line 40,001 there are 200,004 findings, so line 40,002 is not
    checked. Its .expected lists the TX005 finding only; this counts the others."""
    findings = lint_fixture("TX005/fail.txt.gz").findings
    assert [(f.code, f.line) for f in findings if f.code == "TX005"] == [("TX005", 40_002)]
    assert len(findings) == 200_004 + 1
    assert max(f.line for f in findings if f.code != "TX005") == 40_001


@pytest.mark.slow
def test_too_many_findings_still_counts_the_urls(tmp_path: Path) -> None:
    line = " https://example.com/shoes/trail runner%zz#reviews\n"
    result = _lint_text(tmp_path, line * 50_001)
    (stopped,) = [f for f in result.findings if f.code == "TX005"]
    assert stopped.line == 40_002
    (limit,) = [f for f in result.findings if f.code == "LM001"]
    assert (limit.line, limit.column) == (50_001, 2)
    assert "50,001 URLs" in limit.message


@pytest.mark.slow
def test_lines_only_counted_after_too_many_findings_count_only_when_they_hold_a_url(
    tmp_path: Path,
) -> None:
    """Comments past 200,000 findings are no URLs: no LM001 for a file that lists none."""
    result = _lint_text(tmp_path, "# note\n" * 250_001 + "https://example.com/a\n")
    assert [f.code for f in result.findings if f.code != "TX001"] == ["TX005"]
    assert result.urls == 1


# -- messages --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("TX001/fail.txt", "comment '# Product pages"),
        ("TX001/fail-markup.txt", "write 'https://example.com/shoes/city-walker' alone"),
        ("TX001/fail-heading.txt", "heading 'URL'; a text sitemap has no header line"),
        ("TX001/fail-footer.txt", "'Total: 3 URLs'"),
        ("TX001/fail-sitemap-line.txt", "a text sitemap cannot list other sitemaps"),
        ("TX001/fail-prose.txt", "'Sitemap of example.com' is text, not a URL"),
        ("TX002/fail.txt", "write 'https://example.com/shoes/trail-runner'"),
        ("TX002/fail.txt", "(dates need an XML sitemap with <lastmod>)"),
        ("TX002/fail-several.txt", "line holds 2 URLs"),
        ("TX002/fail-csv.txt", "',2025-05-28' after the URL"),
        ("TX002/fail-bullet.txt", "'-' before the URL"),
        ("TX003/fail.txt", "3 spaces after the URL"),
        ("TX003/fail-indented.txt", "a tab before the URL"),
        ("TX004/fail.txt", "a blank line;"),
        ("TX004/fail-several.txt", "3 blank lines, the first here"),
    ],
)
def test_message(fixture: str, expected: str) -> None:
    check_message(fixture, expected)


def test_whitespace_finding_points_at_the_trailing_whitespace() -> None:
    (finding,) = lint(RULE_FIXTURES / "TX003" / "fail.txt").findings
    assert finding.column == len("https://example.com/shoes/trail-runner") + 1


@pytest.mark.parametrize(
    ("line", "at"),
    [
        ("  https://example.com/a\t2025-05-28\tweekly", "2025"),
        ("  https://example.com/a,2025-05-28", ","),
        ("  https://example.com/a https://example.com/b", "https://example.com/b"),
        ("  https://example.com/a, https://example.com/b", ","),
        ("  https://example.com/a , 2025-05-28", ","),
        ("  https://example.com/a;  weekly", ";"),
    ],
)
def test_content_after_the_url_is_reported_where_it_starts(
    tmp_path: Path, line: str, at: str
) -> None:
    """At its first character, not at the white space that separates it from the URL."""
    result = _lint_text(tmp_path, f"https://example.com/\n{line}\n")
    tx002 = [(f.line, f.column) for f in result.findings if f.code == "TX002"]
    assert tx002 == [(2, line.index(at, len("  https://example.com/a")) + 1)]


def test_a_separator_before_white_space_is_no_part_of_the_url(tmp_path: Path) -> None:
    result = _lint_text(tmp_path, "https://example.com/\nhttps://example.com/a; weekly\n")
    (finding,) = [f for f in result.findings if f.code == "TX002"]
    assert finding.message.endswith("write 'https://example.com/a'")


def test_url_after_extra_content_is_checked_at_its_own_column(tmp_path: Path) -> None:
    result = _lint_text(tmp_path, "https://example.com/\n1. https://example.com/a b\n")
    assert [(f.code, f.column) for f in result.findings] == [("TX002", 1)]
    result = _lint_text(tmp_path, "https://example.com/\n1. htTPS://example.com/a 0.5\n")
    assert [(f.code, f.column) for f in result.findings] == [("TX002", 1), ("UR018", 4)]
    result = _lint_text(tmp_path, "https://example.com/\n* https://example.com/a#top 0.5\n")
    assert [(f.code, f.column) for f in result.findings] == [("TX002", 1), ("UR008", 3)]


# -- what stays the URL rules' ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "codes"),
    [
        ("/shoes/trail-runner", ["UR001"]),  # relative: UR001 says so, not TX001
        ("//example.com/shoes", ["UR001"]),  # scheme-relative, not a comment
        ("www.example.com/shoes", ["UR001"]),
        ("- /shoes", ["UR001"]),  # no word, no http://: a broken URL
        ("https://example.com/red shoes", ["UR006"]),  # a space inside the path
        ("https://example.com/a?next=https://example.com/b", []),  # a URL in the query
        ("https://example.com/a,b;c|d", ["UR006"]),  # ',' ';' are allowed, '|' is not
        ("ftp://example.com/file", ["UR002"]),
        ("HTTPS://EXAMPLE.COM/Shoes", ["UR018"]),  # the same page, written otherwise
    ],
)
def test_url_lines_get_the_url_rules_only(tmp_path: Path, line: str, codes: list[str]) -> None:
    result = _lint_text(tmp_path, f"https://example.com/\n{line}\n")
    assert [f.code for f in result.findings] == codes
    assert all(f.line == 2 for f in result.findings)


def test_a_padded_url_gets_one_whitespace_finding_and_its_url_findings(tmp_path: Path) -> None:
    result = _lint_text(tmp_path, "https://example.com/\n  /shoes \n")
    assert [(f.code, f.column) for f in result.findings] == [("TX003", 1), ("UR001", 3)]


def test_a_comment_gets_one_finding_even_when_indented(tmp_path: Path) -> None:
    result = _lint_text(tmp_path, "https://example.com/\n   # https://example.com/old \n")
    assert [(f.code, f.line, f.column) for f in result.findings] == [("TX001", 2, 4)]


def test_duplicates(tmp_path: Path) -> None:
    content = "https://example.com/\nhttps://example.com/a\nhttps://example.com/\n"
    result = _lint_text(tmp_path, content)
    assert found(result) == [("DU001", 3)]
    # A line holds only its URL: nothing to merge into the first one.
    assert result.findings[0].message == (
        "URL 'https://example.com/' is already listed at line 1; remove this line"
    )


def test_yandex_length_is_reported_for_text_lines(tmp_path: Path) -> None:
    url = "https://example.com/" + "a" * 1_500
    result = _lint_text(tmp_path, f"https://example.com/\n{url}\n")
    assert found(result) == [("UR012", 2)]
    assert "1,520 characters" in result.findings[0].message


def test_a_huge_line_is_cut_and_reported_once(tmp_path: Path) -> None:
    content = "https://example.com/\nhttps://example.com/" + "a" * (MAX_TEXT * 3) + "\n"
    result = _lint_text(tmp_path, content)
    assert found(result) == [("UR003", 2)]
    assert "more than 262,144 characters" in result.findings[0].message


# -- scope -----------------------------------------------------------------------------------

CATALOG = "https://example.com/catalog/sitemap.txt"
SCOPED = """https://example.com/catalog/
https://example.com/catalog/shoes
http://example.com/catalog/boots
https://example.com/about
https://example.com/catalog/../about
"""


def test_scope_with_the_sitemap_url(tmp_path: Path) -> None:
    from sitemap_lint.run import parse_sitemap_url

    result = _lint_text(tmp_path, SCOPED, sitemap_url=parse_sitemap_url(CATALOG))
    # Line 5 is line 4 again once its ".." is resolved (DU001), as out of scope.
    assert found(result) == [("SC001", 3), ("SC002", 4), ("DU001", 5), ("SC002", 5), ("UR018", 5)]


def test_a_relative_line_is_written_against_the_sitemap_url(tmp_path: Path) -> None:
    from sitemap_lint.run import parse_sitemap_url

    result = _lint_text(
        tmp_path,
        "/about\nnews/1\n",
        sitemap_url=parse_sitemap_url("https://example.org/maps/sitemap.txt"),
    )
    assert [f.message.rsplit(", ", 1)[-1] for f in result.findings if f.code == "UR001"] == [
        "https://example.org/about",
        "https://example.org/maps/news/1",
    ]


def test_scope_without_the_sitemap_url_reports_mixed_origins_once(tmp_path: Path) -> None:
    result = _lint_text(tmp_path, SCOPED)
    # Line 5 is line 4 once its ".." is resolved: a duplicate, no other origin (and not
    # written in its canonical form).
    assert found(result) == [("SC003", 3), ("DU001", 5), ("UR018", 5)]


# -- limits ----------------------------------------------------------------------------------


def _many(count: int) -> str:
    return "".join(f"https://example.com/products/{index}\n" for index in range(count))


@pytest.mark.slow
def test_50001_urls_give_one_limit_finding_at_the_50001st(tmp_path: Path) -> None:
    result = _lint_text(tmp_path, _many(50_001))
    assert found(result) == [("LM001", 50_001)]
    assert "50,001 URLs" in result.findings[0].message


@pytest.mark.slow
def test_50000_urls_pass(tmp_path: Path) -> None:
    assert _lint_text(tmp_path, _many(50_000)).findings == []


@pytest.mark.slow
def test_lines_that_are_not_urls_do_not_count(tmp_path: Path) -> None:
    result = _lint_text(tmp_path, "# heading\n" + _many(50_000))
    assert found(result) == [("TX001", 1)]


def test_gzip_text_sitemap(tmp_path: Path) -> None:
    path = write(tmp_path, "sitemap.txt.gz", gzip.compress(b"/a\nhttps://example.com/\n"))
    result = check_source(Source(str(path), path), Options(now=NOW), engine())
    assert found(result) == [("UR001", 1)]


# -- routing ---------------------------------------------------------------------------------


def test_xml_in_a_txt_file_is_checked_as_xml(tmp_path: Path) -> None:
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>/relative</loc></url>\n"
        "</urlset>\n"
    )
    result = _lint_text(tmp_path, content, collect=True)
    assert found(result) == [("UR001", 3)]
    assert result.facts.kind == "urlset"


@pytest.mark.parametrize("name", ["sitemap", "sitemap.xml", "urls.php"])
def test_a_url_list_is_recognised_without_a_txt_name(tmp_path: Path, name: str) -> None:
    result = _lint_text(tmp_path, "https://example.com/\n/relative\n", name=name, collect=True)
    assert found(result) == [("TX006", 1), ("UR001", 2)]  # and the name is reported
    assert result.facts.kind == "text"


@pytest.mark.parametrize("name", ["sitemap.txt", "sitemap"])
def test_urls_in_angle_brackets_from_the_first_line_are_a_text_sitemap(
    tmp_path: Path, name: str
) -> None:
    content = "<https://example.com/a>\n<https://example.com/b>\n/relative\n"
    result = _lint_text(tmp_path, content, name=name, collect=True)
    assert result.facts.kind == "text"
    findings = [(f.code, f.line, f.column) for f in result.findings if f.code != "TX006"]
    assert findings == [("TX002", 1, 1), ("TX002", 2, 1), ("UR001", 3, 1)]
    assert "'<' before and '>' after the URL" in result.findings[0].message


def test_a_url_list_with_a_heading_is_recognised_without_a_txt_name(tmp_path: Path) -> None:
    result = _lint_text(tmp_path, "# pages\nhttps://example.com/\n", name="sitemap")
    assert found(result) == [("TX001", 1), ("TX006", 1)]


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("name", ["sitemap.txt", "urls"])
def test_a_url_list_under_a_sitemap_line_is_a_text_sitemap_not_a_robots_txt(
    tmp_path: Path, name: str, end: str
) -> None:
    # Read as a robots.txt, its URL lines would go unchecked and the file pass.
    lines = ["Sitemap: https://example.com/sitemap.txt", "https://example.com/a", "/b"]
    result = _lint_text(tmp_path, end.join(lines) + end, name=name, collect=True)
    assert result.facts.kind == "text"
    assert [(code, line) for code, line in found(result) if code != "TX006"] == [
        ("TX001", 1),
        ("UR001", 3),
    ]
    assert "a text sitemap cannot list other sitemaps" in result.findings[0].message


def test_a_robots_txt_with_a_stray_url_line_stays_a_robots_txt(tmp_path: Path) -> None:
    content = "User-agent: *\nDisallow: /private/\nhttps://example.com/sitemap.xml\n"
    result = _lint_text(tmp_path, content, name="rules.txt", collect=True)
    assert result.facts.kind == "robots"


def test_other_text_without_a_txt_name_is_not_xml(tmp_path: Path) -> None:
    result = _lint_text(tmp_path, "hello\nworld\nagain\nhttps://example.com/\n", name="sitemap")
    assert found(result) == [("IN006", 1)]


def test_a_url_list_after_many_comment_lines_is_a_text_sitemap(tmp_path: Path) -> None:
    comments = "".join(f"# generated by the site, note {n}\n" for n in range(200))
    result = _lint_text(tmp_path, comments + "\nhttps://example.com/a\n", name="urls.lst")
    codes = {code for code, _ in found(result)}
    assert "IN006" not in codes
    assert {"TX001", "TX006"} <= codes


def test_the_first_text_is_read_on_past_small_chunks() -> None:
    from sitemap_lint.engine.checker import _first_content

    chunks = ["\n", "# one\n", "# two\n", "# three\n", "# four\n", "https://example.com/\n"]
    assert _first_content(iter(chunks)) == "".join(chunks)
    assert _first_content(iter(["\n ", "<urlset>", "<url>"])) == "\n <urlset>"
    assert _first_content(iter(["\n", " "])) is None


def test_an_empty_txt_file_is_empty(tmp_path: Path) -> None:
    assert found(_lint_text(tmp_path, "")) == [("IN001", 1)]
    assert found(_lint_text(tmp_path, "\n \n\t\n")) == [("IN001", 1)]


def test_facts(tmp_path: Path) -> None:
    content = "https://example.com/\n# note\n\nhttps://example.com/a\n/b\n"
    result = _lint_text(tmp_path, content, collect=True)
    assert result.facts.kind == "text"
    assert result.facts.url_count == 3


@pytest.mark.parametrize(
    ("first", "name", "expected"),
    [
        ("anything", "sitemap.txt", True),
        ("anything", "/srv/www/SITEMAP.TXT", True),
        ("anything", "https://example.com/sitemap.txt?version=2", True),
        ("anything", "sitemap.txt.gz", True),
        ("anything", "sitemap.text", False),
        ("https://example.com/", "sitemap", True),
        ("\n\n  HTTP://example.com/", "sitemap.xml", True),
        ("# heading\nhttps://example.com/", "sitemap", True),
        ("https", "sitemap", False),
        ("example.com/a\nhttps://example.com/", "sitemap", False),  # a broken URL first
        ("one\ntwo\nthree\nhttps://example.com/", "sitemap", False),
        ("# a\n# b\n\n// c\n; d\n/* e */\n# f\nhttps://example.com/", "sitemap", True),
        ("# a\n# b\n# c\n# d\nURLs\nhttps://example.com/", "sitemap", True),
        ("# a\n# b\n# c\n# d\nnot a url\nat all\nhere\nhttps://example.com/", "x", False),
        ("# a comment line\n" * 5000 + "https://example.com/", "sitemap", False),  # past BLOCK
        ('{"urls": ["https://example.com/"]}', "sitemap.json", False),
    ],
)
def test_is_text_sitemap(first: str, name: str, expected: bool) -> None:
    assert is_text_sitemap(first, name) is expected


# -- line ends -------------------------------------------------------------------------------


@pytest.mark.parametrize("end", ["\r\n", "\r", "\n"])
def test_line_numbers_with_every_line_end(tmp_path: Path, end: str) -> None:
    lines = ["https://example.com/", "/relative", "", "https://example.com/a ", "x y z"]
    result = _lint_text(tmp_path, end.join(lines) + end)
    assert found(result) == [("UR001", 2), ("TX004", 3), ("TX003", 4), ("TX001", 5)]


def test_mixed_line_ends(tmp_path: Path) -> None:
    content = "https://example.com/\r\nhttps://example.com/a\rhttps://example.com/b\n/c\r\n"
    assert found(_lint_text(tmp_path, content)) == [("UR001", 4)]


def test_a_final_line_without_a_line_break_is_a_line(tmp_path: Path) -> None:
    assert found(_lint_text(tmp_path, "https://example.com/\n/a")) == [("UR001", 2)]
    assert found(_lint_text(tmp_path, "https://example.com/\n  ")) == [("TX004", 2)]
    assert _lint_text(tmp_path, "https://example.com/").findings == []


def _reference(content: str) -> list[tuple[int, str]]:
    """The non-blank lines, split the simple way."""
    lines = content.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return [(number, line) for number, line in enumerate(lines, 1) if line.strip()]


SAMPLE = "a\r\n\r\nbb\r\rc \n\n\n  d\r\n\te\rf\n \n"


@pytest.mark.parametrize("cut", range(len(SAMPLE) + 1))
def test_lines_split_across_chunks(cut: int) -> None:
    for chunks in (
        [SAMPLE[:cut], SAMPLE[cut:]],
        [SAMPLE[:cut], SAMPLE[cut : cut + 1], SAMPLE[cut + 1 :]],
    ):
        scanner = LineScanner()
        lines = [(number, line.text) for number, line in scanner.lines(c for c in chunks if c)]
        assert lines == _reference(SAMPLE), chunks
        assert (scanner.number, scanner.blank, scanner.first_blank) == (11, 5, 2)


def test_every_character_in_its_own_chunk() -> None:
    scanner = LineScanner()
    lines = [(number, line.text) for number, line in scanner.lines(iter(SAMPLE))]
    assert lines == _reference(SAMPLE)


def test_a_long_line_is_kept_only_up_to_the_cap() -> None:
    chunks = ["x" * 100_000] * 10 + ["\nshort\n"]
    lines = list(LineScanner().lines(chunks))
    assert [(number, len(line.text), line.length) for number, line in lines] == [
        (1, MAX_TEXT, 1_000_000),
        (2, 5, 5),
    ]


def test_counting_mode_counts_in_bulk() -> None:
    scanner = LineScanner()
    lines = scanner.lines(["a\n\nb\n", "c\n \nd\ne", "f\n"])
    assert next(lines) == (1, ("a", 1))
    scanner.counting = True
    assert list(lines) == []
    assert (scanner.counted, scanner.blank, scanner.first_blank, scanner.number) == (4, 2, 2, 7)


def test_counting_mode_counts_only_the_lines_that_hold_a_url() -> None:
    scanner = LineScanner()
    lines = scanner.lines(["a\n# one\n<p>\n", "https://example.com/b\n\n- https://example.com/c"])
    assert next(lines) == (1, ("a", 1))
    scanner.counting = True
    assert list(lines) == []
    assert (scanner.counted, scanner.blank, scanner.number) == (2, 1, 6)
    scanner = LineScanner()
    lines = scanner.lines(["a\n# one\nUser-agent: *\nhttps://example.com/b\n# two\n"])
    assert next(lines) == (1, ("a", 1))
    scanner.counting = True
    assert list(lines) == []
    assert (scanner.counted, scanner.blank, scanner.number) == (1, 0, 5)


# -- TX006: a text sitemap under a name that does not end in .txt -----------------------------


@pytest.mark.parametrize(
    ("name", "renamed"),
    [
        ("sitemap.xml", "sitemap.txt"),
        ("out/sitemap.xml.gz", "sitemap.txt.gz"),
        ("sitemap", "sitemap.txt"),
        ("https://example.com/feeds/urls.php?page=2", "urls.txt"),
        ("https://example.com/", "sitemap.txt"),
    ],
)
def test_text_sitemap_not_txt_names_the_new_name(name: str, renamed: str) -> None:
    from sitemap_lint.rules.text import not_txt

    finding = not_txt(name)
    assert finding is not None and finding.code == "TX006"
    assert f"rename it to {renamed}" in finding.message


@pytest.mark.parametrize(
    "name", ["sitemap.txt", "SITEMAP.TXT", "urls.txt.gz", "https://example.com/s.txt?x=1", "-"]
)
def test_text_sitemap_named_txt_or_read_from_stdin_is_fine(name: str) -> None:
    from sitemap_lint.rules.text import not_txt

    assert not_txt(name) is None


def test_text_sitemap_not_txt_is_an_error_under_google_only() -> None:
    from sitemap_lint.finding import Severity
    from sitemap_lint.rules.text import NOT_TXT
    from sitemap_lint.settings.profiles import severity_under

    assert severity_under("google", "TX006", NOT_TXT.severity) is Severity.ERROR
    assert severity_under("bing", "TX006", NOT_TXT.severity) is Severity.WARNING


def test_white_space_around_a_url_is_removed_by_the_safe_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from tests.helpers import run_cli

    path = write(
        tmp_path,
        "sitemap.txt",
        "  https://example.com/a  \r\n\thttps://example.com/b\r\n"
        "https://example.com/c\u00a0\r\n  /d\r\nhttps://example.com/e",
    )
    status, out, _err = run_cli(["check", "--isolated", "-f", "json", str(path)], capsys)
    findings = json.loads(out)["files"][0]["findings"]
    fixes = {(f["code"], f["line"]): f.get("fix") for f in findings}
    assert all(fixes[("TX003", line)]["applicability"] == "safe" for line in (1, 2, 3, 4))
    assert fixes[("UR001", 4)] is None
    run_cli(["check", "--isolated", "--fix", str(path)], capsys)
    assert path.read_bytes() == (
        b"https://example.com/a\r\nhttps://example.com/b\r\nhttps://example.com/c\r\n/d\r\n"
        b"https://example.com/e"
    )
    status, out, _err = run_cli(["check", "--isolated", "--diff", str(path)], capsys)
    assert (status, out) == (0, "")


def test_an_escape_in_a_text_sitemap_is_text_and_its_unsafe_fix_writes_the_character(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers import run_cli

    path = write(tmp_path, "sitemap.txt", "https://example.com/a?x=1&amp;y=2\r\n&amp;b\r\n")
    result = _lint_text(tmp_path, path.read_bytes())
    # The relative line is UR001's: its escape is no second finding.
    assert found(result) == [("UR017", 1), ("UR001", 2)]
    run_cli(["check", "--isolated", "--fix", str(path)], capsys)
    assert path.read_bytes().startswith(b"https://example.com/a?x=1&amp;y=2\r\n")  # unsafe
    run_cli(["check", "--isolated", "--fix", "--unsafe-fixes", str(path)], capsys)
    assert path.read_bytes() == b"https://example.com/a?x=1&y=2\r\n&amp;b\r\n"


@pytest.mark.parametrize("line", [":foo", "?page=2"])
def test_a_line_that_is_no_url_is_not_called_an_element(tmp_path: Path, line: str) -> None:
    result = _lint_text(tmp_path, f"https://example.com/\n{line}\n")
    assert found(result) == [("UR001", 2)]
    assert result.findings[0].message.startswith(f"URL '{line}' is not an absolute URL")
