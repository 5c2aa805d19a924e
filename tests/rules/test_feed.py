"""Feed family: RSS 2.0 and Atom feeds used as sitemaps; each failing fixture gives exactly
the expected findings, passing ones none; the sitemap rules they reuse apply to their links."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from sitemap_lint.engine.checker import check_source
from sitemap_lint.finding import Severity
from sitemap_lint.formats.feed import is_feed
from sitemap_lint.inputs.reader import Source
from sitemap_lint.model import Node
from sitemap_lint.rules.feed import read_date
from sitemap_lint.settings.options import Options
from sitemap_lint.settings.selection import Selection
from tests.helpers import (
    NOW,
    RULE_FIXTURES,
    check_message,
    engine,
    found,
    lint,
    lint_content,
)

# Every readable feed also gets the advisory that it is used as a sitemap, at its root.
ADVICE = (("FD001", 2),)


@pytest.mark.parametrize(
    ("fixture", "text"),
    [
        ("FD001/fail.xml", "Yandex does not; list the URLs in an XML sitemap"),
        ("FD001/fail-atom-03.xml", "Atom 0.3 feed"),
        ("FD002/fail.xml", '<rss version="0.91"> is not RSS 2.0'),
        ("FD002/fail-no-version.xml", 'write <rss version="2.0">'),
        ("FD002/fail-rdf.xml", "RSS 1.0 or 0.90"),
        ("FD002/fail-atom-namespace.xml", 'write <feed xmlns="http://www.w3.org/2005/Atom">'),
        ("FD003/fail-atom.xml", "feed has no entries"),
        ("FD004/fail-guid.xml", "add <link>https://example.com/news/trail-runner-2</link>"),
        ("FD004/fail-empty.xml", "<link> of this <item> is empty"),
        ("FD004/fail-atom-self.xml", '(only rel="edit", rel="self")'),
        ("FD004/fail-atom-text.xml", 'write <link href="https://example.com/blog/testing'),
        ("FD005/fail.xml", "write Wed, 28 May 2025 09:30:00 +0000"),
        ("FD005/fail-no-timezone.xml", "has no timezone; write Wed, 28 May 2025 09:30:00 +0000"),
        (
            "FD005/fail-impossible.xml",
            "February 2025 has no day 29; it has 28 days: write the real date",
        ),
        (
            "FD005/fail-atom-impossible.xml",
            "April 2025 has no day 31; it has 30 days: write the real date",
        ),
        ("FD005/fail-offset.xml", "timezone offset +2500 is beyond ±14:00"),
        ("FD005/fail-atom-offset.xml", "timezone offset +05:60 has minute 60"),
        ("FD005/fail-offset-colon.xml", "timezone as '+02:00', which RFC 822 does not read"),
        ("FD005/fail-offset-gmt.xml", "write Wed, 28 May 2025 09:30:00 +0200"),
        ("FD005/fail-unknown-zone.xml", "does not know ('CEST', UTC+02:00); write Wed"),
        ("FD005/fail-unreadable.xml", "e.g. Wed, 08 May 2024 10:00:00 +0000"),
        ("FD005/fail-atom.xml", "write 2025-05-28T09:30:00+02:00"),
        ("FD005/fail-atom-date-only.xml", "write 2025-05-28T00:00:00Z if the time is UTC"),
        ("FD005/fail-atom-no-seconds.xml", "write 2025-05-28T09:30:00+02:00"),
        ("FD005/fail-atom-lower-case.xml", "write 2025-05-28T09:30:00Z"),
        ("FD006/fail.xml", "2 of 3 items have no <pubDate>"),
        ("FD006/fail-atom.xml", "<entry> has no <updated>"),
    ],
)
def test_message_gives_the_fix(fixture: str, text: str) -> None:
    check_message(fixture, text)


def test_an_rss_version_is_quoted_as_the_attribute_is_written(tmp_path: Path) -> None:
    """FD002 shows the version inside its tag as markup writes it (as the other rules
    show an attribute), its quotes and ampersands escaped, not as a Python string."""
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<rss version='0.9\"1&amp;'><channel><item><link>https://example.com/</link></item>"
        "</channel></rss>\n"
    )
    (finding,) = [
        f for f in lint_content(tmp_path, content, "feed.xml").findings if f.code == "FD002"
    ]
    assert finding.message.startswith('<rss version="0.9&quot;1&amp;"> is not RSS 2.0')


def test_yandex_profile_makes_the_advice_an_error() -> None:
    assert Selection().levels["FD001"] is Severity.INFO
    assert Selection(profile="yandex").levels["FD001"] is Severity.ERROR


@pytest.mark.parametrize(
    ("ns", "name", "claimed"),
    [
        ("", "rss", True),
        ("http://www.w3.org/2005/Atom", "feed", True),
        ("http://purl.org/atom/ns#", "feed", True),
        ("", "feed", True),
        ("http://www.w3.org/1999/02/22-rdf-syntax-ns#", "RDF", True),
        ("http://www.sitemaps.org/schemas/sitemap/0.9", "urlset", False),
        ("http://example.com/catalogue", "feed", False),
        ("", "html", False),
    ],
)
def test_is_feed(ns: str, name: str, claimed: bool) -> None:
    assert is_feed(Node(ns, name, {}, 1, 1)) is claimed


# -- facts for the checks across a set of files -------------------------------------------


def _facts(path: Path):
    result = check_source(Source(str(path), path), Options(now=NOW, collect=True), engine())
    return result.facts


def test_facts_of_an_rss_feed() -> None:
    facts = _facts(RULE_FIXTURES / "FD001" / "fail.xml")
    assert facts.kind == "rss"
    assert facts.url_count == 2
    assert facts.newest_lastmod == datetime(2025, 5, 28, 9, 30, tzinfo=UTC)


def test_facts_of_an_atom_feed() -> None:
    facts = _facts(RULE_FIXTURES / "FD001" / "fail-atom.xml")
    assert facts.kind == "atom"
    assert facts.url_count == 2
    assert facts.newest_lastmod == datetime(2025, 5, 28, 9, 30, tzinfo=UTC)


def test_facts_of_an_unsupported_feed() -> None:
    assert (_facts(RULE_FIXTURES / "FD002" / "fail-rdf.xml").kind, 0) == ("", 0)
    facts = _facts(RULE_FIXTURES / "FD002" / "fail.xml")
    assert (facts.kind, facts.url_count) == ("rss", 0)


def test_facts_count_items_without_link_not() -> None:
    facts = _facts(RULE_FIXTURES / "FD004" / "fail.xml")
    assert facts.url_count == 1


# -- the sitemap rules applied to feed links ----------------------------------------------

RSS_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Example Shop News</title>
    <link>https://example.com/news/</link>
    <description>New products and stories from the Example Shop.</description>
"""
RSS_TAIL = "  </channel>\n</rss>\n"


def _rss(tmp_path: Path, *items: tuple[str, str]) -> Path:
    """A feed whose items start on lines 7, 11, 15, ... (four lines each)."""
    body = "".join(
        f"    <item>\n      <link>{link}</link>\n      <pubDate>{date}</pubDate>\n    </item>\n"
        for link, date in items
    )
    path = tmp_path / "feed.xml"
    path.write_text(RSS_HEAD + body + RSS_TAIL, encoding="utf-8")
    return path


DATE = "Wed, 28 May 2025 09:30:00 +0000"


def test_url_rules_apply_to_links(tmp_path: Path) -> None:
    path = _rss(tmp_path, ("/news/trail-runner-2", DATE), ("https://example.com/a b", DATE))
    codes = found(lint(path))
    assert codes == [("FD001", 2), ("UR001", 8), ("UR006", 12)], lint(path).findings


def test_duplicate_links(tmp_path: Path) -> None:
    url = "https://example.com/news/trail-runner-2"
    path = _rss(tmp_path, (url, DATE), (url, DATE))
    assert found(lint(path)) == [("FD001", 2), ("DU001", 12)]


def test_scope_with_a_sitemap_url(tmp_path: Path) -> None:
    path = _rss(
        tmp_path,
        ("https://example.com/news/trail-runner-2", DATE),
        ("https://example.com/about", DATE),
        ("https://www.example.com/news/summer", DATE),
    )
    result = lint(path, "https://example.com/news/feed.xml")
    assert found(result) == [("FD001", 2), ("SC002", 12), ("SC001", 16)]


def test_mixed_origins_without_a_sitemap_url(tmp_path: Path) -> None:
    path = _rss(
        tmp_path,
        ("https://example.com/news/trail-runner-2", DATE),
        ("http://example.com/news/summer", DATE),
    )
    assert found(lint(path)) == [("FD001", 2), ("SC003", 12)]


def test_future_date_is_reported_once(tmp_path: Path) -> None:
    path = _rss(tmp_path, ("https://example.com/news/launch", "Mon, 01 Jun 2026 09:00:00 GMT"))
    result = lint(path)
    assert found(result) == [("FD001", 2), ("DT005", 9)]
    assert "now is 2025-06-01T00:00:00Z" in result.findings[1].message


def test_a_wrong_weekday_is_reported_with_the_right_one(tmp_path: Path) -> None:
    path = _rss(tmp_path, ("https://example.com/news/launch", "tue, 28 May 2025 09:30:00 +0000"))
    result = lint(path)
    assert found(result) == [("FD001", 2), ("FD005", 9)]
    assert result.findings[1].message == (
        "<pubDate> 'tue, 28 May 2025 09:30:00 +0000' names the wrong weekday: 28 May 2025 "
        "is a Wednesday; write Wed, 28 May 2025 09:30:00 +0000"
    )


def test_an_atom_date_in_lower_case_is_reported_as_atom_s_rule(tmp_path: Path) -> None:
    path = tmp_path / "feed.xml"
    path.write_text(
        '<feed xmlns="http://www.w3.org/2005/Atom">\n<entry><link href="https://example.com/a"/>'
        "<updated>2025-05-28t09:30:00z</updated></entry>\n</feed>\n",
        encoding="utf-8",
    )
    result = lint(path)
    assert found(result) == [("FD001", 1), ("FD005", 2)]
    assert result.findings[1].message == (
        "<updated> '2025-05-28t09:30:00z' writes 't' or 'z' in lower case, which RFC 3339 "
        "allows but Atom does not; write 2025-05-28T09:30:00Z"
    )


def test_an_atom_alternate_link_is_read_whatever_the_case_of_its_rel(tmp_path: Path) -> None:
    path = tmp_path / "feed.xml"
    path.write_text(
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        '<entry><link rel="Alternate" href="/a"/><updated>2025-05-28T09:30:00Z</updated>'
        "</entry>\n</feed>\n",
        encoding="utf-8",
    )
    assert found(lint(path)) == [("FD001", 1), ("UR001", 2)]


def test_an_atom_link_with_an_empty_href_is_said_to_be_empty(tmp_path: Path) -> None:
    path = tmp_path / "feed.xml"
    path.write_text(
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        '<entry><link href=" "/><updated>2025-05-28T09:30:00Z</updated></entry>\n</feed>\n',
        encoding="utf-8",
    )
    result = lint(path)
    assert found(result) == [("FD001", 1), ("FD004", 2)]
    assert result.findings[1].message == (
        "<link> has an empty href; write the page's absolute URL in it"
    )


def test_a_repeated_unusable_atom_link_is_one_finding(tmp_path: Path) -> None:
    path = tmp_path / "feed.xml"
    path.write_text(
        '<feed xmlns="http://www.w3.org/2005/Atom">\n<entry>\n'
        "<link>https://example.com/a</link>\n<link>https://example.com/a</link>\n"
        "<link rel='alternate'/>\n<updated>2025-05-28T09:30:00Z</updated></entry>\n</feed>\n",
        encoding="utf-8",
    )
    result = lint(path)
    assert found(result) == [("FD001", 1), ("FD004", 3)]
    assert result.findings[1].message == (
        "<link> holds its URL as text, but Atom reads it from href; write "
        '<link href="https://example.com/a"/>, and remove the repeated <link>s at lines 4 '
        "and 5: readers keep only one"
    )


def test_a_repeated_usable_link_is_still_fd007_alone(tmp_path: Path) -> None:
    path = tmp_path / "feed.xml"
    path.write_text(
        f"{RSS_HEAD}    <item><link>https://example.com/a</link>\n<link></link>"
        f"<pubDate>{DATE}</pubDate></item>\n{RSS_TAIL}",
        encoding="utf-8",
    )
    assert found(lint(path)) == [("FD001", 2), ("FD007", 8)]


def test_an_rss_link_in_other_letter_case_is_named(tmp_path: Path) -> None:
    path = tmp_path / "feed.xml"
    path.write_text(
        f"{RSS_HEAD}    <item><Link>https://example.com/news/launch</Link>"
        f"<pubDate>{DATE}</pubDate></item>\n{RSS_TAIL}",
        encoding="utf-8",
    )
    result = lint(path)
    assert found(result) == [("FD001", 2), ("FD004", 7)]
    assert result.findings[1].column == 11  # the <Link>
    assert result.findings[1].message == (
        "<Link> is not <link>: XML names are case-sensitive, so search engines find no "
        "link in this <item>; write <link>https://example.com/news/launch</link>"
    )


def test_a_date_later_today_within_the_tolerance_is_not_future(tmp_path: Path) -> None:
    path = _rss(tmp_path, ("https://example.com/news/launch", "Sun, 01 Jun 2025 00:04:00 GMT"))
    assert found(lint(path)) == [("FD001", 2)]


def test_truncated_feed_is_not_also_reported_empty(tmp_path: Path) -> None:
    path = tmp_path / "feed.xml"
    text = RSS_HEAD + "    <item>\n      <link>https://example.com/news/a</link>\n"
    path.write_text(text, encoding="utf-8")
    codes = [code for code, _line in found(lint(path))]
    assert "FD003" not in codes
    assert codes[0] == "FD001" and len(codes) == 2  # the advice and the truncation


@pytest.mark.slow
def test_too_many_items(tmp_path: Path) -> None:
    count = 50_001
    items = "".join(
        f"<item><link>https://example.com/news/{n}</link><pubDate>{DATE}</pubDate></item>\n"
        for n in range(count)
    )
    path = tmp_path / "feed.xml"
    path.write_text(RSS_HEAD + items + RSS_TAIL, encoding="utf-8")
    result = check_source(Source(str(path), path), Options(now=NOW, collect=True), engine())
    first_past = RSS_HEAD.count("\n") + 1 + 50_000
    assert found(result) == [("FD001", 2), ("LM001", first_past)]
    assert result.facts.url_count == count


def test_huge_values_are_bounded(tmp_path: Path) -> None:
    """A 300 KB date or link gives one short finding, never a traceback."""
    path = _rss(tmp_path, ("https://example.com/" + "a" * 300_000, "Wed, " + "9" * 300_000))
    result = lint(path)
    assert [code for code, _ in found(result)] == ["FD001", "UR003", "FD005"]
    assert all(len(f.message) <= 500 for f in result.findings)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (
            "Wed, 8 May 2024 10:00 UTC+05:30",
            "'Wed, 8 May 2024 10:00 UTC+05:30' writes its timezone as 'UTC+05:30', which "
            "RFC 822 does not read; write Wed, 8 May 2024 10:00 +0530",
        ),
        (
            "Wed, 08 May 2024 10:00:00 GMT-3",
            "'Wed, 08 May 2024 10:00:00 GMT-3' writes its timezone as 'GMT-3', which RFC 822 "
            "does not read; write Wed, 08 May 2024 10:00:00 -0300",
        ),
        (  # and what is wrong once it is written so
            "Thu, 08 May 2024 10:00:00 +02:00",
            "'Thu, 08 May 2024 10:00:00 +02:00' writes its timezone as '+02:00', which RFC 822 "
            "does not read, and 'Thu, 08 May 2024 10:00:00 +0200' names the wrong weekday: "
            "8 May 2024 is a Wednesday; write Wed, 08 May 2024 10:00:00 +0200",
        ),
        (  # no RFC 822 date around it: the usual words
            "08/05/2024 10:00 +02:00",
            "'08/05/2024 10:00 +02:00' is not an RFC 822 date; write it in that form, e.g. "
            "Wed, 08 May 2024 10:00:00 +0000",
        ),
    ],
)
def test_an_offset_written_otherwise_is_not_said_to_be_missing(value: str, problem: str) -> None:
    assert _read_pub_date(value) == (None, problem)


def _read_pub_date(value: str) -> tuple[object, str | None]:
    node = Node("", "pubDate", {}, 1, 1)
    node.text = value
    return read_date(node, atom=False)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (  # one offset only: written as RFC 822 writes it
            "Wed, 08 May 2024 10:00:00 JST",
            "'Wed, 08 May 2024 10:00:00 JST' names a timezone RFC 822 does not know ('JST', "
            "UTC+09:00); write Wed, 08 May 2024 10:00:00 +0900",
        ),
        (
            "Wed, 08 May 2024 10:00:00 nst",
            "'Wed, 08 May 2024 10:00:00 nst' names a timezone RFC 822 does not know ('nst', "
            "UTC-03:30); write Wed, 08 May 2024 10:00:00 -0330",
        ),
        (  # India, Ireland or Israel: the offset is the writer's to give
            "Wed, 08 May 2024 10:00:00 IST",
            "'Wed, 08 May 2024 10:00:00 IST' names a timezone RFC 822 does not know ('IST'); "
            "write Wed, 08 May 2024 10:00:00 +0000 if the time is UTC (otherwise its offset, "
            "e.g. +0200)",
        ),
    ],
)
def test_a_zone_name_rfc_822_does_not_know(value: str, problem: str) -> None:
    assert _read_pub_date(value) == (None, problem)


def test_an_atom_href_escaped_twice_is_fixed_in_its_attribute(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers import run_cli

    path = tmp_path / "feed.xml"
    path.write_bytes((RULE_FIXTURES / "UR017" / "fail-feed.xml").read_bytes())
    run_cli(["check", "--isolated", "--fix", "--unsafe-fixes", str(path)], capsys)
    text = path.read_text(encoding="utf-8")
    assert '<link href="https://example.com/news?item=trail-runner-2&amp;lang=en"/>' in text
    assert '<link href="https://example.com/news?item=city-walker&amp;lang=en"/>' in text


@pytest.mark.slow
def test_rss_items_are_not_held_for_the_whole_feed(tmp_path: Path) -> None:
    """The items of an RSS channel are handed to the checks one at a time and dropped, as
    a sitemap's entries are: the peak memory grows with the items only by what each URL
    leaves (its hash for the duplicates), not by the items' text. Both feeds are a few
    times larger than the parser's block, so the blocks and buffers cost the same."""
    import tracemalloc

    text = "word " * 200  # an item of about 1.2 KB

    def peak(count: int) -> int:
        items = "".join(
            f"<item><title>Story {n}</title><link>https://example.com/news/{n}</link>"
            f"<pubDate>{DATE}</pubDate><description>{text}</description></item>\n"
            for n in range(count)
        )
        path = tmp_path / f"feed-{count}.xml"
        path.write_text(f"{RSS_HEAD}{items}{RSS_TAIL}", encoding="utf-8")
        tracemalloc.start()
        try:
            result = check_source(Source(str(path), path), Options(now=NOW), engine())
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            assert found(result) == [("FD001", 2)]

    small, large = peak(4_000), peak(10_000)
    # About 100 bytes an item; held, the 6,000 more items would take more than 7 MB.
    assert large - small < 6_000 * 300, (small, large)
