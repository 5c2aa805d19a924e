"""News family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

import ast
import gzip
from pathlib import Path

import pytest

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node
from sitemap_lint.rules import news
from tests.helpers import RULE_FIXTURES, check_message, found, lint

MESSAGES = [
    ("NW001/fail.xml", "has no <news:title>; add <news:title>"),
    ("NW001/fail-publication.xml", "has no <news:publication>; add <news:publication>"),
    ("NW001/fail-name.xml", "has no <news:name>; add <news:name>"),
    ("NW001/fail-language.xml", "has no <news:language>; add <news:language>"),
    ("NW001/fail-date.xml", "add <news:publication_date> with the date"),
    ("NW001/fail-empty-title.xml", "<news:title> is empty; give the article's title"),
    (
        "NW002/fail.xml",
        "'en-US' carries a region or script; news sitemaps take the language alone: write en",
    ),
    ("NW002/fail-name.xml", "'English' is a language name, not its code: write en"),
    ("NW002/fail-upper.xml", "'EN' must be written in lower case: write en"),
    ("NW002/fail-chinese.xml", "write zh-cn"),
    ("NW003/fail.xml", "write zh-cn (Simplified Chinese) or zh-tw (Traditional Chinese)"),
    ("NW003/fail-unknown.xml", "'eg' is not an ISO 639 language code"),
    ("NW003/fail-withdrawn.xml", "withdrawn ISO 639 code (Hebrew); write he"),
    ("NW004/fail.xml", "(the first is at line 18); a URL is one article: keep one"),
    ("NW005/fail.xml.gz", "sitemap has 1,001 news:news elements, more than the 1,000"),
    ("NW006/fail.xml", "is 11 days old (now is 2025-06-01T00:00:00Z)"),
    ("NW006/fail-time.xml", "is 50 hours old"),
    ("NW007/fail.xml", "'Example Times' differs from 'The Example Times' at line 8"),
    ("NW008/fail.xml", "write Subscription"),
    ("NW008/fail-free.xml", "articles free to read need no <news:access>: remove it"),
    ("NW009/fail.xml", "write PressRelease, Blog"),
    ("NW009/fail-unknown.xml", "'Sports' is not a genre"),
    ("NW010/fail.xml", "'AMAT' is not an EXCHANGE:SYMBOL pair"),
    ("NW010/fail-separator.xml", "write NASDAQ:AMAT, BOM:500325"),
    ("NW010/fail-six.xml", "lists 6 tickers, more than the 5 allowed"),
    (
        "NW012/fail-legacy.xml",
        "<news:genres> is legacy, no longer documented by Google: removing it also fixes this",
    ),
    ("NW011/fail.xml", "uses the legacy field <news:keywords>, which Google no longer documents"),
    (
        "NW011/fail-several.xml",
        "the legacy fields <news:genres>, <news:keywords>, <news:stock_tickers>",
    ),
]

FIXTURES = sorted(
    path
    for rule in news.RULES
    for path in (RULE_FIXTURES / rule.code).iterdir()
    if path.name.endswith((".xml", ".xml.gz"))
)


@pytest.mark.parametrize(("fixture", "text"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message_shows_the_fix(fixture: str, text: str) -> None:
    check_message(fixture, text)


def test_unknown_element_in_url_says_how_to_fix() -> None:
    messages = [f.message for f in lint(RULE_FIXTURES / "NW017" / "fail.xml").findings]
    assert (
        "<news:article> is not an element of the news extension; only <news:news> may stand "
        "there: remove it (or, if it holds the fields of <news:news>, rename it to that)"
    ) in messages


# -- sitemaps written on the fly ----------------------------------------------------------------

HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url>
    <loc>https://example.com/business/merger-talks</loc>
"""
TAIL = """  </url>
</urlset>
"""
PUBLICATION = """      <news:publication>
        <news:name>The Example Times</news:name>
        <news:language>en</news:language>
      </news:publication>
"""


def news_sitemap(tmp_path: Path, body: str) -> Path:
    """A sitemap whose one url holds ``body``; its first line is line 6."""
    path = tmp_path / "news-sitemap.xml"
    path.write_text(HEAD + body + TAIL, encoding="utf-8")
    return path


def article(date: str, middle: str = "", publication: str = PUBLICATION) -> str:
    return (
        "    <news:news>\n"  # line 6
        + publication  # lines 7-10
        + middle
        + f"      <news:publication_date>{date}</news:publication_date>\n"
        + "      <news:title>Companies A and B in merger talks</news:title>\n"
        + "    </news:news>\n"
    )


def test_exactly_1000_news_pass(tmp_path: Path) -> None:
    lines = gzip.decompress((RULE_FIXTURES / "NW005" / "fail.xml.gz").read_bytes()).split(b"\n")
    del lines[3]
    path = tmp_path / "news-sitemap.xml.gz"
    path.write_bytes(gzip.compress(b"\n".join(lines), 1, mtime=0))
    assert found(lint(path)) == []


@pytest.mark.parametrize(
    "date",
    [
        "2025-05-31T08:00:00+00:00",
        "2025-05-30T00:00:01Z",  # 47 hours 59 minutes before now
        "2025-05-30T00:00:00Z",  # exactly two days
        "2025-05-29",  # a date alone counts as the end of its day
        "2025-05-30T02:00:00+02:00",  # 2025-05-30T00:00:00Z
        "2025-06-01",  # today
    ],
)
def test_recent_articles_pass(tmp_path: Path, date: str) -> None:
    assert found(lint(news_sitemap(tmp_path, article(date)))) == []


def test_a_date_on_the_calendar_s_last_day_is_in_the_future_not_a_crash(tmp_path: Path) -> None:
    assert found(lint(news_sitemap(tmp_path, article("9999-12-31")))) == [("DT005", 11)]


@pytest.mark.parametrize(
    ("date", "text"),
    [
        ("2025-05-29T23:59:59Z", "is more than 48 hours old"),  # one second past the limit
        ("2025-05-29T23:00:00Z", "is 49 hours old"),
        ("2025-05-29T22:30:00Z", "is more than 49 hours old"),
    ],
)
def test_age_in_hours_is_never_rounded_down_to_the_limit(
    tmp_path: Path, date: str, text: str
) -> None:
    (finding,) = lint(news_sitemap(tmp_path, article(date))).findings
    assert text in finding.message, finding.message


@pytest.mark.parametrize(
    ("date", "codes"),
    [
        ("2025-05-29T23:59:59Z", [("NW006", 11)]),
        ("2025-05-28", [("NW006", 11)]),
        ("2025-05-29T23:00:00", [("DT004", 11), ("NW006", 11)]),  # no timezone, and old
        ("2025-06-15T08:00:00+00:00", [("DT005", 11)]),  # the future: the date rule, once
        ("2025-05-31 08:00", [("DT001", 11)]),  # not W3C: one finding, no schema error
        ("2025-02-30", [("DT002", 11)]),
        ("2025-05", [("DT003", 11)]),  # a month alone: too coarse to judge its age
    ],
)
def test_publication_date_reuses_the_date_rules(
    tmp_path: Path, date: str, codes: list[tuple[str, int]]
) -> None:
    result = lint(news_sitemap(tmp_path, article(date)))
    assert found(result) == codes
    for finding in result.findings:
        if finding.code.startswith("DT00") and finding.code != "DT005":
            assert "<news:publication_date>" in finding.message


def test_two_missing_fields_give_one_finding_and_no_schema_error(tmp_path: Path) -> None:
    body = "    <news:news>\n" + PUBLICATION + "    </news:news>\n"
    result = lint(news_sitemap(tmp_path, body))
    assert found(result) == [("NW001", 6)]
    assert result.findings[0].message.startswith(
        "<news:news> has no <news:publication_date> or <news:title>; add "
        "<news:publication_date> (the date"
    )


def test_empty_news_gives_one_finding_naming_every_missing_child(tmp_path: Path) -> None:
    result = lint(news_sitemap(tmp_path, "    <news:news/>\n"))
    assert found(result) == [("NW001", 6)]
    message = result.findings[0].message
    assert message.startswith(
        "<news:news> has no <news:publication>, <news:publication_date> or <news:title>; "
    )
    assert "add <news:publication> (with <news:name> and <news:language>)" in message


def test_empty_publication_reports_name_and_language_once(tmp_path: Path) -> None:
    body = article("2025-05-31", publication="      <news:publication/>\n")
    result = lint(news_sitemap(tmp_path, body))
    assert found(result) == [("NW001", 7)]
    assert result.findings[0].message.startswith(
        "<news:publication> has no <news:name> or <news:language>; add <news:name>"
    )


def test_misspelt_and_missing_fields_in_one_finding(tmp_path: Path) -> None:
    body = (
        "    <news:news>\n"
        + PUBLICATION
        + "      <news:tilte>Companies A and B in merger talks</news:tilte>\n"
        + "    </news:news>\n"
    )
    result = lint(news_sitemap(tmp_path, body))
    assert found(result) == [("NW001", 6)]
    assert result.findings[0].message == (
        "<news:news> has no <news:publication_date> or <news:title>; rename <news:tilte> to "
        "<news:title>; add <news:publication_date> (the date the article was first published, "
        "e.g. 2025-05-31T08:00:00+00:00)"
    )


def test_order_is_a_warning_in_place_of_the_schema_error(tmp_path: Path) -> None:
    # news:title before news:publication_date: Google reads any order, the schema does not.
    body = (
        "    <news:news>\n"
        + PUBLICATION
        + "      <news:title>Companies A and B in merger talks</news:title>\n"
        + "      <news:publication_date>2025-05-31</news:publication_date>\n"
        + "    </news:news>\n"
    )
    result = lint(news_sitemap(tmp_path, body))
    assert found(result) == [("NW012", 11)]
    assert "move <news:publication_date> up" in result.findings[0].message


def test_schema_errors_no_rule_explains_remain(tmp_path: Path) -> None:
    # A repeated optional field: the schema's to report.
    body = (
        "    <news:news>\n"
        + PUBLICATION
        + "      <news:publication_date>2025-05-31</news:publication_date>\n"
        + "      <news:title>Companies A and B in merger talks</news:title>\n"
        + "      <news:title>Companies A and B in merger talks</news:title>\n"
        + "    </news:news>\n"
    )
    assert found(lint(news_sitemap(tmp_path, body))) == [("XS001", 13)]


def test_name_differences_are_reported_once(tmp_path: Path) -> None:
    def entry(name: str) -> str:
        slug = name.replace(" ", "-")
        return (
            f"  <url><loc>https://example.com/{slug}</loc><news:news><news:publication>"
            f"<news:name>{name}</news:name><news:language>en</news:language></news:publication>"
            "<news:publication_date>2025-05-31</news:publication_date>"
            "<news:title>A</news:title></news:news></url>\n"
        )

    path = tmp_path / "news-sitemap.xml"
    path.write_text(
        HEAD.split("  <url>")[0]
        + entry("The Example Times")
        + entry("the example times")
        + entry("Example Daily")
        + "</urlset>\n",
        encoding="utf-8",
    )
    result = lint(path)
    assert found(result) == [("NW007", 5)]
    assert "differs (only in letter case) from 'The Example Times' at line 4" in (
        result.findings[0].message
    )


def test_legacy_fields_with_valid_values_are_only_flagged(tmp_path: Path) -> None:
    middle = (
        "      <news:access>Registration</news:access>\n"
        "      <news:genres>PressRelease, OpEd,UserGenerated</news:genres>\n"
    )
    assert found(lint(news_sitemap(tmp_path, article("2025-05-31", middle)))) == [("NW011", 11)]


# -- the language code ---------------------------------------------------------------------------


class Collect:
    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.covered: list[Node | None] = []

    def add(self, finding: Finding, covers=None) -> None:
        self.findings.append(finding)
        self.covered.append(covers)


def language(value: str) -> list[tuple[str, str]]:
    report = Collect()
    news.check_language(value, Node(news.NAMESPACE, "language", {}, 3, 9), report)
    return [(f.code, f.message) for f in report.findings]


@pytest.mark.parametrize("value", ["en", "de", "fr", "pt", "eng", "ger", "haw", "zh-cn", "zh-tw"])
def test_valid_languages(value: str) -> None:
    assert language(value) == []


@pytest.mark.parametrize(
    ("value", "fix"),
    [
        ("en-US", "write en"),
        ("en_GB", "write en"),
        ("pt-BR", "write pt"),
        ("English", "write en"),
        ("german", "write de"),
        ("Greek", "write el"),  # ISO's name is "Modern Greek (1453-)"
        ("EN", "write en"),
        (" en ", "write en"),
        ("zh-CN", "write zh-cn"),
        ("zh_TW", "write zh-tw"),
        ("zh-Hans", "write zh-cn"),
        ("zh-HK", "write zh-tw"),
        ("Chinese", "write zh-cn (Simplified Chinese) or zh-tw (Traditional Chinese)"),
        ("zho-TW", "write zh-cn (Simplified Chinese) or zh-tw (Traditional Chinese)"),
        ("iw-IL", "write he"),
        ("Deutsch", "write the two- or three-letter code"),
        ("", "is empty"),
    ],
)
def test_language_form_names_the_fix(value: str, fix: str) -> None:
    ((code, message),) = language(value)
    assert code == "NW002"
    assert fix in message, message


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("zh", "write zh-cn"),
        ("zho", "'zho' does not say which script; write zh-cn"),
        ("chi", "'chi' does not say which script; write zh-cn"),
        ("xx", "not an ISO 639 language code"),
        ("iw", "write he"),
        ("in", "write id"),
        ("und", "special ISO 639 code (Undetermined)"),
    ],
)
def test_unknown_languages(value: str, text: str) -> None:
    ((code, message),) = language(value)
    assert code == "NW003"
    assert text in message, message


def test_only_schema_rejected_languages_cover_the_node() -> None:
    report = Collect()
    node = Node(news.NAMESPACE, "language", {}, 3, 9)
    news.check_language("EN", node, report)
    news.check_language("xx", node, report)
    assert report.covered == [node, None]


def test_pycountry_is_imported_lazily() -> None:
    """Start-up time: the ISO data loads only when a news sitemap needs it."""
    tree = ast.parse(Path(news.__file__).read_text(encoding="utf-8"))
    top_level = [
        alias.name.split(".")[0]
        for statement in tree.body
        if isinstance(statement, ast.Import | ast.ImportFrom)
        for alias in statement.names
    ] + [
        statement.module.split(".")[0]
        for statement in tree.body
        if isinstance(statement, ast.ImportFrom) and statement.module
    ]
    assert "pycountry" not in top_level


# -- legacy values -------------------------------------------------------------------------------


def legacy(name: str, value: str) -> list[tuple[str, str]]:
    report = Collect()
    node = Node(news.NAMESPACE, name, {}, 3, 7)
    node.text = value
    news._check_legacy([node], report)
    return [(f.code, f.message) for f in report.findings if f.code != "NW011"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("access", "Subscription"),
        ("access", "Registration"),
        ("genres", "Blog"),
        ("genres", "PressRelease, Satire,Opinion,  UserGenerated"),
        ("stock_tickers", "NASDAQ:AMAT"),
        ("stock_tickers", "NASDAQ:AMAT, BOM:500325,NYSE:A, NYSE:B, NYSE:C"),
        ("keywords", "anything, at all"),
    ],
)
def test_valid_legacy_values(name: str, value: str) -> None:
    assert legacy(name, value) == []


@pytest.mark.parametrize(
    ("name", "value", "text"),
    [
        ("access", "SUBSCRIPTION", "write Subscription"),
        ("access", " Registration ", "write Registration"),
        ("access", "premium", "write Subscription"),
        ("access", "", "give Subscription or Registration"),
        ("genres", "Op-Ed, User Generated", "write OpEd, UserGenerated"),
        ("genres", "Blog Opinion", "write Blog, Opinion"),
        ("genres", "Blog ,Opinion", "write Blog, Opinion"),
        ("genres", "Blogs", "write Blog"),
        ("genres", "News, Sports", "'News', 'Sports' are not genres"),
        ("stock_tickers", "NASDAQ:AMAT NYSE:A", "write NASDAQ:AMAT, NYSE:A"),
        ("stock_tickers", "NASDAQ : AMAT", "write NASDAQ:AMAT"),
        ("stock_tickers", "NASDAQ:", "'NASDAQ:' is not an EXCHANGE:SYMBOL pair"),
        ("stock_tickers", "", "is empty"),
    ],
)
def test_invalid_legacy_values(name: str, value: str, text: str) -> None:
    ((_code, message),) = legacy(name, value)
    assert text in message, message
