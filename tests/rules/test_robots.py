"""robots.txt family. The findings of each fixture are in the .expected file beside it
(tests/test_expected.py): the robots.txt fixtures are read as served at ROBOTS_URL; the
sitemaps of url-disallowed-by-robots are checked with fixtures/rules/RB007/robots.txt.
Here: messages, agents and the size limit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemap_lint.engine.checker import check_source
from sitemap_lint.engine.results import FileResult
from sitemap_lint.engine.sink import FindingSink
from sitemap_lint.finding import Finding
from sitemap_lint.formats.robots import check_robots_file
from sitemap_lint.inputs.reader import Source
from sitemap_lint.sets.facts import FileFacts
from sitemap_lint.sets.robots import GOOGLE_LIMIT
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, RULE_FIXTURES, engine, found, lint, run_json, write

ROBOTS_URL = "https://example.com/robots.txt"
POLICY_ROBOTS = RULE_FIXTURES / "RB007" / "robots.txt"


def lint_robots(path: Path, url: str | None = ROBOTS_URL, collect: bool = False) -> FileResult:
    options = Options(now=NOW, collect=collect)
    return check_source(Source(str(path), path, url=url), options, engine())


def lint_with_robots(path: Path, agent: str = "Googlebot") -> FileResult:
    text = POLICY_ROBOTS.read_text(encoding="utf-8")
    options = Options(now=NOW, robots=((ROBOTS_URL, text),), agent=agent)
    return check_source(Source(str(path), path), options, engine())


def _message(fixture: str, url: str | None = ROBOTS_URL) -> Finding:
    code, name = fixture.split("/")
    path = RULE_FIXTURES / code / name
    result = lint_with_robots(path) if path.suffix == ".xml" else lint_robots(path, url)
    (finding,) = [f for f in result.findings if f.code == code]
    return finding


# -- messages -------------------------------------------------------------------------


def test_relative_sitemap_is_resolved_against_the_robots_url() -> None:
    finding = _message("RB001/fail.txt", url="https://www.example.org/robots.txt")
    assert finding.column == 10
    assert "'/sitemap.xml' is relative" in finding.message
    assert "write the absolute URL, https://www.example.org/sitemap.xml" in finding.message


def test_relative_sitemap_of_a_local_robots_txt_gets_an_example() -> None:
    message = _message("RB001/fail.txt", url=None).message
    assert "such as https://example.com/sitemap.xml" in message


@pytest.mark.parametrize(
    ("fixture", "text"),
    [
        ("RB001/fail-no-scheme.txt", "has no scheme; write https://www.example.com/sitemap.xml"),
        ("RB001/fail-scheme.txt", "has scheme 'ftp'"),
        ("RB001/fail-empty.txt", "Sitemap line without a URL"),
        ("RB002/fail.txt", "write 'Sitemap: https://example.com/sitemap.xml'"),
        ("RB003/fail.txt", "is already listed at line 4; remove this line"),
        ("RB004/fail.txt", "'Sitemap: https://example.com/sitemap.xml'"),
        ("RB005/fail.txt.gz", "including 1 Sitemap line:"),
        ("RB006/fail.txt", "serve a plain-text robots.txt"),
        ("RB007/fail.xml", "Googlebot may not fetch 'https://example.com/drafts/launch'"),
        ("RB007/fail.xml", f"{ROBOTS_URL} disallows it"),
        ("RB007/fail.xml", "remove the URL from the sitemap, or allow it in robots.txt"),
    ],
)
def test_message_says_what_and_how_to_fix(fixture: str, text: str) -> None:
    message = _message(fixture).message
    assert text in message, message


def test_scheme_typo_gets_a_guess() -> None:
    findings = _check_text("Sitemap: htps://example.com/sitemap.xml\n")
    assert [f.code for f in findings] == ["RB001"]
    assert "did you mean https://example.com/sitemap.xml?" in findings[0].message


@pytest.mark.parametrize(
    ("value", "how"),
    [
        ("<https://example.com/sitemap.xml>", "inside '<' and '>'"),
        ('"https://example.com/sitemap.xml"', "in double quotes"),
        ("'https://example.com/sitemap.xml'", "in single quotes"),
    ],
)
def test_a_wrapped_url_is_written_alone(value: str, how: str) -> None:
    findings = _check_text(f"Sitemap: {value}\n")
    assert [(f.code, f.line, f.column) for f in findings] == [("RB001", 1, 10)]
    assert findings[0].message == (
        f"Sitemap URL {value!r} is written {how}; write the URL alone: "
        "'Sitemap: https://example.com/sitemap.xml'"
    )


@pytest.mark.parametrize(
    ("blank", "named"),
    [
        ("\u00a0", "a no-break space (U+00A0)"),
        ("\u200b", "a zero width space (U+200B)"),
        ("\u3000", "an ideographic space (U+3000)"),
    ],
)
def test_invisible_white_space_before_the_url_is_named(blank: str, named: str) -> None:
    # Not "relative ... such as https://example.com/\xa0https://...".
    findings = _check_text(f"Sitemap:{blank}https://example.com/sitemap.xml\n")
    assert [(f.code, f.line, f.column) for f in findings] == [("RB001", 1, 9)]
    assert findings[0].message == (
        f"Sitemap URL {blank + 'https://example.com/sitemap.xml'!r} starts with {named}, "
        "which crawlers do not skip as white space; write the URL alone: "
        "'Sitemap: https://example.com/sitemap.xml'"
    )


def test_invisible_white_space_after_the_url_is_said_of_the_line_not_of_an_element() -> None:
    findings = _check_text("Sitemap: https://example.com/sitemap.xml\u00a0\n")
    assert [(f.code, f.line, f.column) for f in findings] == [("UR005", 1, 10)]
    assert "<Sitemap>" not in findings[0].message
    assert findings[0].message.endswith("write 'Sitemap: https://example.com/sitemap.xml'")
    assert findings[0].fix is None


@pytest.mark.parametrize(
    "line", ["Sitemap=https://example.com/a.xml", "Sitemap = https://example.com/a.xml"]
)
def test_an_equals_sign_in_place_of_the_colon_is_a_missing_colon(line: str) -> None:
    findings = _check_text(f"{line}\n")
    assert [(f.code, f.line, f.column) for f in findings] == [("RB002", 1, 1)]
    assert findings[0].message == (
        "no ':' after 'Sitemap'; write 'Sitemap: https://example.com/a.xml'"
    )


def test_malformed_http_urls_get_the_url_rules_findings_only() -> None:
    text = (
        "Sitemap: https:/example.com/sitemap.xml\n"
        "Sitemap: https://example.com/site map.xml\n"
        "Sitemap: https://example.com/sitemap.xml#top\n"
    )
    findings = _check_text(text)
    assert [(f.code, f.line, f.column) for f in findings] == [
        ("UR001", 1, 10),
        ("UR006", 2, 10),
    ]  # '#top' is a comment in robots.txt


def test_the_policy_finding_names_the_agent_of_the_profile() -> None:
    result = lint_with_robots(RULE_FIXTURES / "RB007" / "fail.xml", agent="Bingbot")
    (finding,) = result.findings
    assert finding.message.startswith("Bingbot may not fetch")


def test_a_long_disallowed_url_keeps_its_end_in_the_message(tmp_path: Path) -> None:
    """Pages of one section share a long start: the end tells them apart."""
    url = "https://example.com/drafts/" + "x" * 120 + "-page-7.html"
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"<url><loc>{url}</loc></url>\n</urlset>\n",
        encoding="utf-8",
    )
    (finding,) = lint_with_robots(sitemap).findings
    assert "...xxxxxxxxxxxxxxxxxxxx-page-7.html'" in finding.message
    assert "'https://example.com/drafts/xxx" in finding.message


def test_other_crawlers_follow_their_own_group() -> None:
    """The * group does not disallow /internal/, the PDF or the session URLs."""
    result = lint_with_robots(RULE_FIXTURES / "RB007" / "fail-wildcard.xml", agent="Bingbot")
    assert result.findings == []


# -- the limit ------------------------------------------------------------------------


def _check_text(text: str, url: str | None = ROBOTS_URL, facts: FileFacts | None = None):
    sink = FindingSink()
    check_robots_file(text, iter(()), Options(now=NOW), sink, facts, url)
    return sorted(sink.findings, key=Finding.sort_key)


def _check_chunks(chunks: list[str]) -> list[Finding]:
    sink = FindingSink()
    rest: Iterator[str] = iter(chunks[1:])
    check_robots_file(chunks[0], rest, Options(now=NOW), sink, None, ROBOTS_URL)
    return sink.findings


def _padded(size: int, tail: str = "") -> str:
    """A robots.txt of exactly ``size`` bytes before ``tail``."""
    head = "Sitemap: https://example.com/sitemap.xml\n"
    filler = size - len(head)
    lines = ["#" + "x" * 98 + "\n"] * (filler // 100)
    last = filler % 100
    if last:
        lines.append("#" * (last - 1) + "\n")
    return head + "".join(lines) + tail


def test_exactly_500_kib_is_read_whole() -> None:
    assert _check_text(_padded(GOOGLE_LIMIT)) == []


def test_one_byte_more_is_cut_at_the_next_line() -> None:
    text = _padded(GOOGLE_LIMIT, "Disallow: /x\n")
    (finding,) = _check_text(text)
    assert finding.code == "RB005"
    assert (finding.line, finding.column) == (text.count("\n"), 1)


def test_the_limit_inside_a_line_gives_its_column() -> None:
    text = _padded(GOOGLE_LIMIT - 4, "Disallow: /private/\n")
    (finding,) = _check_text(text)
    assert (finding.line, finding.column) == (text.count("\n"), 5)


def test_a_last_line_break_alone_past_the_limit_is_harmless() -> None:
    """Only the file's final line break stands past 500 KiB: nothing Google reads is
    lost (there was a finding on a line after the last)."""
    text = _padded(GOOGLE_LIMIT + 1)
    assert len(text.encode()) == GOOGLE_LIMIT + 1 and text.endswith("#\n")
    assert _check_text(text) == []


def test_blank_lines_after_the_limit_are_harmless() -> None:
    assert _check_text(_padded(GOOGLE_LIMIT, "\n\n  \n")) == []


def test_sitemap_lines_only_after_the_limit() -> None:
    text = "#" + "x" * (GOOGLE_LIMIT + 10) + "\nsitemap: https://example.com/a.xml\r"
    text += "Sitemap: https://example.com/b.xml"
    (finding,) = _check_text(text)
    assert (finding.code, finding.line) == ("RB005", 1)
    assert "including 2 Sitemap lines:" in finding.message


def test_indented_sitemap_lines_after_the_limit_count_and_mentions_do_not() -> None:
    text = _padded(GOOGLE_LIMIT, "# see the sitemap\n  Sitemap: https://example.com/a.xml\n")
    text += "SITEMAP: https://example.com/b.xml\n"
    (finding,) = _check_text(text)
    assert "including 2 Sitemap lines:" in finding.message


def test_multibyte_characters_count_as_their_utf8_bytes() -> None:
    text = "Sitemap: https://example.com/sitemap.xml\n" + "#" + "é" * (GOOGLE_LIMIT // 2) + "\n"
    (finding,) = _check_text(text)
    assert finding.code == "RB005"
    assert finding.line == 2


def test_lines_split_anywhere_across_chunks() -> None:
    text = "User-agent: *\r\nDisallow: /a\r\rSitemap: /s.xml\nSitemap https://example.com/s.xml\r\n"
    whole = [(f.code, f.line, f.column) for f in _check_text(text)]
    assert whole == [("RB001", 4, 10), ("RB002", 5, 1)]
    for size in (1, 2, 3, 5, 7):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert [(f.code, f.line, f.column) for f in _check_chunks(chunks)] == whole, size


def test_a_huge_single_line_is_bounded() -> None:
    text = "Sitemap: https://example.com/" + "a" * 3_000_000
    findings = _check_chunks([text[i : i + 65536] for i in range(0, len(text), 65536)])
    assert [f.code for f in findings] == ["RB005"]


# -- routing, encoding, facts ------------------------------------------------------------


def test_a_robots_txt_under_another_name_is_recognised() -> None:
    assert found(lint(RULE_FIXTURES / "RB004" / "fail.txt")) == [("RB004", 1)]


def test_a_byte_order_mark_is_allowed() -> None:
    data = b"\xef\xbb\xbfSitemap: https://example.com/sitemap.xml\n"
    result = check_source(
        Source("robots.txt", None, url=ROBOTS_URL, data=data), Options(now=NOW), engine()
    )
    assert result.findings == []


def test_facts_list_each_usable_sitemap_once_in_file_order() -> None:
    facts = FileFacts()
    text = (
        "Sitemap: https://example.com/b.xml\n"
        "Sitemap: /relative.xml\n"
        "User-agent: *\n"
        "Disallow: /\n"
        "sitemap: https://cdn.example.net/a.xml\n"  # on another host: cross-submission
        "Sitemap: https://EXAMPLE.com/b.xml\n"
    )
    findings = _check_text(text, facts=facts)
    assert [f.code for f in findings] == ["RB001", "RB003", "UR018"]  # (EXAMPLE.com)
    assert facts.kind == "robots"
    assert [(c.url, c.line, c.column) for c in facts.children] == [
        ("https://example.com/b.xml", 1, 10),
        ("https://cdn.example.net/a.xml", 5, 10),
    ]


def test_facts_through_check_source() -> None:
    result = lint_robots(RULE_FIXTURES / "RB001" / "pass.txt", collect=True)
    assert result.facts.kind == "robots"
    assert [c.url for c in result.facts.children] == [
        "https://example.com/sitemap.xml",
        "https://example.com/news/sitemap.xml",
    ]


def test_html_page_gets_one_finding_and_no_facts() -> None:
    result = lint_robots(RULE_FIXTURES / "RB006" / "fail.txt", collect=True)
    assert [f.code for f in result.findings] == ["RB006"]
    assert result.facts.kind == "robots"
    assert result.facts.children == []


@pytest.mark.parametrize("ignored", [(), ("EN004",)])
def test_the_byte_order_mark_counts_towards_the_limit_whatever_is_ignored(
    tmp_path: Path, ignored: tuple[str, ...]
) -> None:
    """The three bytes of a byte order mark are bytes Google reads, whether or not the
    run reports EN004 (the column of the limit was three further on with it ignored)."""
    text = _padded(GOOGLE_LIMIT - 4 - 3, "Disallow: /private/\n")
    path = write(tmp_path, "robots.txt", b"\xef\xbb\xbf" + text.encode())
    _status, report = run_json([str(path)], ignore=",".join(ignored) or None)
    places = [(f["code"], f["line"], f["column"]) for f in report["files"][0]["findings"]]
    assert ("RB005", text.count("\n"), 5) in places
