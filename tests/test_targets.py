"""Checks of the whole file: its start (``prolog``), its root (``root``) and its end
(``end``); of each entry's children (``children``) and each element of the root that is
no entry (``top-level``); of each line of a text sitemap (``line``) and of each item of
a feed (``item``).

A plugin registers them as the built-in families do, they see every file once, and
they keep the fast path on (they are not entry checks). The built-in rules reported
there (the input, declaration and entry-count rules) are covered by the fixtures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sitemap_lint import fastpath
from sitemap_lint.engine.checker import check_source
from sitemap_lint.inputs.reader import Source
from sitemap_lint.model import Node
from sitemap_lint.rules.base import WARNING, check, pattern, rule
from sitemap_lint.rules.entry import FileContext
from sitemap_lint.rules.events import (
    Directives,
    FeedItem,
    FeedRecord,
    FeedStart,
    FileEnd,
    InputProblem,
    Markup,
    Prolog,
    RobotsRecord,
    SchemaError,
    SitemapLine,
    TextLine,
    TextRecord,
    TopLevel,
    Unfixed,
)
from sitemap_lint.rules.registry import (
    CHECKS,
    CHILDREN,
    DIRECTIVES,
    END,
    FEED,
    INPUT,
    ITEM,
    LINE,
    MARKUP,
    NAMESPACE,
    PROLOG,
    ROOT,
    SCHEMA,
    SITEMAP_LINE,
    TOP_LEVEL,
    UNFIXED,
    CheckSpec,
    rules,
)
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, engine
from tests.test_fastpath import HEAD, check_both, write
from tests.test_proofs import plugin_sitemap

NOTED = rule(
    "ZX001",
    "noted-file",
    WARNING,
    summary="A file a plugin notes",
    what="Notes a file the test's plugin check looks at once.",
    why="It shows that a check of the whole file sees what it must see.",
    bad="<urlset/>",
    good="<urlset><url><loc>https://example.com/</loc></url></urlset>",
)


@contextmanager
def file_check(
    target: str, look: Callable[[object, object, Reporter], None]
) -> Iterator[CheckSpec]:
    """A plugin's check of ``target`` (``prolog``, ``end``, ``line`` or ``item``),
    registered while the block runs."""
    rules()
    before = len(CHECKS)
    check(target, emits=(NOTED,))(look)
    try:
        yield CHECKS[-1]
    finally:
        del CHECKS[before:]


def _count_entries(end: object, file: object, report: Reporter) -> None:
    assert isinstance(end, FileEnd)
    where = (1, 1) if end.root is None else (end.root.line, end.root.column)
    state = "cut short" if end.cut_short else "whole"
    report.add(NOTED.at(*where, f"{end.kind}: {end.entries} entries, {state}"))


def _note_declaration(prolog: object, options: object, report: Reporter) -> None:
    assert isinstance(prolog, Prolog)
    declaration = prolog.declaration
    if declaration is None:
        report.add(NOTED.at(1, 1, f"{prolog.form}: no XML declaration"))
    else:
        line, column = declaration.encoding_at
        report.add(NOTED.at(line, column, f"{prolog.form}: {declaration.encoding}"))


def messages(path: Path) -> list[tuple[str, int, int, str]]:
    result = check_source(Source(str(path), path), Options(now=NOW), engine())
    return [(f.code, f.line, f.column, f.message) for f in result.findings if f.code == "ZX001"]


def test_an_end_check_counts_the_entries_and_the_fast_path_stays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with file_check(END, _count_entries):
        assert fastpath.unproved(None) == []
        assert fastpath.notes(lambda: None) == []
        outcome = check_both(monkeypatch, write(tmp_path, plugin_sitemap(280)))
    assert outcome.proved >= 200  # the proved entries are counted at the end
    noted = [(f.line, f.column, f.message) for f in outcome.findings if f.code == "ZX001"]
    assert noted == [(2, 1, "urlset: 280 entries, whole")]


def test_an_end_check_sees_every_kind_of_file(tmp_path: Path) -> None:
    urls = "".join(f"https://www.example.com/{i}\n" for i in range(3))
    feed = (
        '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>t</title>'
        "<link>https://www.example.com/</link><description>d</description>"
        "<item><link>https://www.example.com/a</link></item></channel></rss>\n"
    )
    broken = HEAD + "  <url><loc>https://www.example.com/</loc></url>\n  <url><loc>x</lo"
    with file_check(END, _count_entries):
        assert messages(write(tmp_path, urls, "urls.txt")) == [
            ("ZX001", 1, 1, "text: 3 entries, whole")
        ]
        assert messages(write(tmp_path, feed, "feed.xml")) == [
            ("ZX001", 2, 1, "rss: 1 entries, whole")
        ]
        assert messages(write(tmp_path, broken, "broken.xml")) == [
            ("ZX001", 2, 1, "urlset: 1 entries, cut short")
        ]
        robots = "User-agent: *\nSitemap: https://www.example.com/sitemap.xml\n"
        assert messages(write(tmp_path, robots, "robots.txt")) == [
            ("ZX001", 1, 1, "robots: 1 entries, whole")
        ]
        # Another root: no sitemap, no end of one.
        assert messages(write(tmp_path, "<html-ish/>", "other.xml")) == []


def _note_record(end: object, file: object, report: Reporter) -> None:
    assert isinstance(end, FileEnd)
    record = end.record
    if isinstance(record, TextRecord):
        name = Path(record.name).name
        note = f"{name}: {record.blank_lines} blank from line {record.first_blank}"
    elif isinstance(record, FeedRecord):
        first = record.first_undated
        where = None if first is None else (first.line, first.column)
        note = f"<{record.item}> without <{record.date}>: {record.undated}, first at {where}"
    elif isinstance(record, RobotsRecord):
        note = f"Sitemap lines: {record.sitemap_lines}, cut at {record.cut}"
    else:
        note = f"{end.kind}: no record"
    report.add(NOTED.at(1, 1, note))


def test_an_end_check_reads_what_the_front_end_recorded(tmp_path: Path) -> None:
    urls = "https://www.example.com/a\n\n\nhttps://www.example.com/b\n"
    feed = (
        '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
        '<entry><link href="https://www.example.com/a"/></entry>\n'
        '<entry><link href="https://www.example.com/b"/></entry>\n</feed>\n'
    )
    robots = "User-agent: *\nDisallow: /cart/\n"
    with file_check(END, _note_record):
        assert messages(write(tmp_path, urls, "urls.xml")) == [
            ("ZX001", 1, 1, "urls.xml: 2 blank from line 2")
        ]
        assert messages(write(tmp_path, feed, "feed.xml")) == [
            ("ZX001", 1, 1, "<entry> without <updated>: 2, first at (3, 1)")
        ]
        assert messages(write(tmp_path, robots, "robots.txt")) == [
            ("ZX001", 1, 1, "Sitemap lines: 0, cut at None")
        ]
        assert messages(write(tmp_path, plugin_sitemap(3))) == [
            ("ZX001", 1, 1, "urlset: no record")
        ]


def test_a_prolog_check_reads_the_declaration_and_the_fast_path_stays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    declared = plugin_sitemap(280).replace('encoding="UTF-8"', 'encoding="utf-8"')
    with file_check(PROLOG, _note_declaration):
        assert fastpath.unproved(None) == []
        outcome = check_both(monkeypatch, write(tmp_path, declared))
        assert outcome.proved >= 200
        noted = [(f.line, f.column, f.message) for f in outcome.findings if f.code == "ZX001"]
        assert noted == [(1, 21, "xml: utf-8")]
        undeclared = declared.split("\n", 1)[1]
        assert messages(write(tmp_path, undeclared, "bare.xml")) == [
            ("ZX001", 1, 1, "xml: no XML declaration")
        ]
        assert messages(write(tmp_path, "\n \n", "blank.xml")) == [
            ("ZX001", 1, 1, "empty: no XML declaration")
        ]
        assert messages(write(tmp_path, "<!doctype html><html></html>", "page.xml")) == [
            ("ZX001", 1, 1, "html: no XML declaration")
        ]


def test_a_check_of_the_prolog_or_the_end_runs_only_for_its_rules(tmp_path: Path) -> None:
    seen: list[str] = []

    def look(event: object, context: object, report: Reporter) -> None:
        seen.append(type(event).__name__)

    path = write(tmp_path, plugin_sitemap(3))
    for target in (PROLOG, END):
        with file_check(target, look):
            other = Options(now=NOW, enabled=frozenset({"UR001"}))
            check_source(Source(str(path), path), other, engine())
            before = list(seen)
            check_source(Source(str(path), path), Options(now=NOW), engine())
            assert seen == [*before, "Prolog" if target == PROLOG else "FileEnd"]
    assert seen == ["Prolog", "FileEnd"]


def test_a_check_of_the_prolog_or_the_end_has_no_pattern_proof() -> None:
    for target in (PROLOG, END):
        with pytest.raises(ValueError, match="entry fields only"):
            check(target, emits=("UR001",), proof=pattern("x"))


def test_a_check_of_the_prolog_or_the_end_is_a_function() -> None:
    class Counter:
        def check(self, event: object, context: object, report: Reporter) -> None:
            """Nothing: the registration fails first."""

    for target in (PROLOG, END, INPUT, CHILDREN, TOP_LEVEL, NAMESPACE, MARKUP, LINE, ITEM, FEED):
        with pytest.raises(ValueError, match="is a function"):
            check(target, emits=(NOTED,))(Counter)


def _note_line(line: object, file: object, report: Reporter) -> None:
    assert isinstance(line, TextLine)
    kind = "url" if line.verdict is None else line.verdict.kind
    report.add(NOTED.at(line.number, line.column, f"{kind}: {line.stripped} ({line.length})"))


def test_a_line_check_sees_each_line_of_a_text_sitemap(tmp_path: Path) -> None:
    urls = "# pages\n  https://www.example.com/a\n\nhttps://www.example.com/b 2024-05-01\n"
    with file_check(LINE, _note_line):
        assert messages(write(tmp_path, urls, "urls.txt")) == [
            ("ZX001", 1, 1, "comment: # pages (7)"),
            ("ZX001", 2, 3, "url: https://www.example.com/a (27)"),
            ("ZX001", 4, 1, "extra: https://www.example.com/b 2024-05-01 (36)"),
        ]
        # An XML sitemap has no lines to check.
        assert messages(write(tmp_path, plugin_sitemap(3))) == []
        # Nor does the check run when none of its rules is enabled.
        path = write(tmp_path, urls, "urls.txt")
        other = Options(now=NOW, enabled=frozenset({"UR001"}))
        result = check_source(Source(str(path), path), other, engine())
        assert [f for f in result.findings if f.code == "ZX001"] == []


def _note_item(item: object, file: object, report: Reporter) -> None:
    assert isinstance(item, FeedItem)
    link = None if item.link is None else (item.link.line, item.url)
    date = item.date_problem or (None if item.moment is None else item.moment.isoformat())
    node = item.node
    report.add(NOTED.at(node.line, node.column, f"{node.name}: {link}, {date}"))


def test_an_item_check_sees_each_item_of_a_feed(tmp_path: Path) -> None:
    rss = (
        '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>t</title>\n'
        "<item><link>https://www.example.com/a</link>"
        "<pubDate>Wed, 08 May 2024 10:00:00 +0000</pubDate></item>\n"
        "<item><guid>https://www.example.com/b</guid><pubDate>2024-05-08</pubDate></item>\n"
        "</channel></rss>\n"
    )
    with file_check(ITEM, _note_item):
        found = messages(write(tmp_path, rss, "feed.xml"))
        assert found[0] == (
            "ZX001",
            3,
            1,
            "item: (3, 'https://www.example.com/a'), 2024-05-08T10:00:00+00:00",
        )
        assert found[1][:3] == ("ZX001", 4, 1)
        assert found[1][3].startswith("item: None, '2024-05-08' is not an RFC 822 date")
        assert len(found) == 2
        # A sitemap has entries, not items; a feed search engines do not read, none either.
        assert messages(write(tmp_path, plugin_sitemap(3))) == []
        old = rss.replace('version="2.0"', 'version="0.91"')
        assert messages(write(tmp_path, old, "old.xml")) == []


def _note_children(entry: object, file: object, report: Reporter) -> None:
    assert isinstance(entry, Node)
    names = ",".join(child.name for child in entry.children)
    report.add(NOTED.at(entry.line, entry.column, f"{entry.name}: {names}"))


def test_a_children_check_sees_each_entry_and_turns_the_fast_path_off(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with file_check(CHILDREN, _note_children) as spec:
        # A plugin's check of the children cannot be proved: the fast path is off.
        assert fastpath.unproved(None) == [spec]
        entries = "".join(
            f"  <url><loc>https://www.example.com/{i}</loc><priority>0.5</priority></url>\n"
            for i in range(300)
        )
        outcome = check_both(monkeypatch, write(tmp_path, HEAD + entries + "</urlset>\n"))
    assert outcome.proved == 0
    noted = [f.message for f in outcome.findings if f.code == "ZX001"]
    assert noted == ["url: loc,priority"] * 300


def test_the_fields_are_found_when_no_structure_rule_runs(tmp_path: Path) -> None:
    """With the structure rules off, the fields still reach the field checks (the
    structure check's fallback finds them, reporting nothing)."""
    page = HEAD + (
        "  <url><lastmod>2024-13-01</lastmod><loc>https://www.example.com/a</loc></url>\n"
        "</urlset>\n"
    )
    path = write(tmp_path, page)
    options = Options(now=NOW, enabled=frozenset({"DT002"}))
    result = check_source(Source(str(path), path), options, engine())
    assert [f.code for f in result.findings] == ["DT002"]


def _note_top_level(element: object, file: object, report: Reporter) -> None:
    assert isinstance(element, TopLevel)
    node = element.node
    note = f"{node.name} in {element.root.name} after {element.entries_before} entries"
    report.add(NOTED.at(node.line, node.column, note))


def test_a_top_level_check_sees_what_is_no_entry_and_the_fast_path_stays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    entries = "".join(f"  <url><loc>https://www.example.com/{i}</loc></url>\n" for i in range(300))
    page = HEAD + entries + "  <sitemap><loc>https://www.example.com/s.xml</loc></sitemap>\n"
    page += '  <x:note xmlns:x="urn:x">hi</x:note>\n</urlset>\n'
    with file_check(TOP_LEVEL, _note_top_level):
        assert fastpath.unproved(None) == []
        outcome = check_both(monkeypatch, write(tmp_path, page))
    assert outcome.proved >= 200
    noted = [(f.line, f.message) for f in outcome.findings if f.code == "ZX001"]
    assert noted == [
        (303, "sitemap in urlset after 300 entries"),
        (304, "note in urlset after 300 entries"),
    ]


def _note_root(root: object, file: object, report: Reporter) -> None:
    assert isinstance(root, Node) and isinstance(file, FileContext)
    report.add(NOTED.at(root.line, root.column, f"{root.name}: '{file.entry_name}'"))


def test_a_root_check_sees_every_root_but_a_feeds(tmp_path: Path) -> None:
    feed = '<?xml version="1.0"?>\n<rss version="2.0"><channel></channel></rss>\n'
    with file_check(ROOT, _note_root):
        assert messages(write(tmp_path, plugin_sitemap(2))) == [("ZX001", 2, 1, "urlset: 'url'")]
        other = write(tmp_path, '<?xml version="1.0"?>\n<catalog/>\n', "other.xml")
        assert messages(other) == [("ZX001", 2, 1, "catalog: ''")]
        assert messages(write(tmp_path, feed, "feed.xml")) == []
    # The built-in check of the root's name reports the other root.
    result = check_source(Source(str(other), other), Options(now=NOW), engine())
    assert [f.code for f in result.findings] == ["ST001"]


def _note_markup(markup: object, options: object, report: Reporter) -> None:
    assert isinstance(markup, Markup)
    note = f"{markup.kind} {markup.name}".strip()
    report.add(NOTED.at(markup.line, markup.column, note))


def test_a_markup_check_sees_what_the_reader_met_and_the_fast_path_stays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    entries = "".join(f"  <url><loc>https://www.example.com/{i}</loc></url>\n" for i in range(300))
    broken = (
        '<?xml version="1.0"?>\n<!DOCTYPE urlset>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + entries
        + "  stray\n  <url><loc>https://www.example.com/a?b&c</loc></url>\n"
        "  <url><loc>https://www.example.com/open</url>\n</urlset>\n"
    )
    with file_check(MARKUP, _note_markup):
        assert fastpath.unproved(None) == []
        found = messages(write(tmp_path, broken))
    assert found[0] == ("ZX001", 2, 1, "doctype urlset")
    kinds = [message for _code, _line, _column, message in found[1:]]
    assert kinds[0] == "root-text urlset"
    assert "syntax loc" in kinds
    assert "unclosed loc" in kinds
    # A clean file gives the check nothing.
    with file_check(MARKUP, _note_markup):
        outcome = check_both(monkeypatch, write(tmp_path, HEAD + entries + "</urlset>\n"))
    assert outcome.proved >= 200
    assert [f for f in outcome.findings if f.code == "ZX001"] == []


def _note_namespace(node: object, file: object, report: Reporter) -> None:
    assert isinstance(node, Node)
    report.add(NOTED.at(node.line, node.column, f"{node.ns} ({node.name})"))


def test_a_namespace_check_sees_the_first_element_of_each_unknown_namespace(
    tmp_path: Path,
) -> None:
    page = (
        '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:x="urn:x" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
        "<url><loc>https://www.example.com/a</loc><x:a>1</x:a><x:b>2</x:b></url>\n"
        "<url><loc>https://www.example.com/b</loc><image:image><image:loc>"
        "https://www.example.com/i.png</image:loc></image:image><y:c xmlns:y='urn:y'/></url>\n"
        "</urlset>\n"
    )
    with file_check(NAMESPACE, _note_namespace):
        assert messages(write(tmp_path, page)) == [
            ("ZX001", 3, 42, "urn:x (a)"),
            ("ZX001", 4, 121, "urn:y (c)"),
        ]


def _note_feed(feed: object, file: object, report: Reporter) -> None:
    assert isinstance(feed, FeedStart)
    report.add(NOTED.at(feed.root.line, feed.root.column, f"{feed.root.name}: {feed.title!r}"))


def test_a_feed_check_sees_the_root_of_each_feed(tmp_path: Path) -> None:
    rss = '<?xml version="1.0"?>\n<rss version="2.0"><channel></channel></rss>\n'
    old = '<?xml version="1.0"?>\n<rss version="0.91"><channel></channel></rss>\n'
    with file_check(FEED, _note_feed):
        assert messages(write(tmp_path, rss, "feed.xml")) == [("ZX001", 2, 1, "rss: 'RSS 2.0'")]
        assert messages(write(tmp_path, old, "old.xml")) == [("ZX001", 2, 1, "rss: ''")]
        assert messages(write(tmp_path, plugin_sitemap(2))) == []


def _note_sitemap_line(line: object, file: object, report: Reporter) -> None:
    assert isinstance(line, SitemapLine)
    note = f"{line.name}{':' if line.colon else ''} {line.value} {line.listed_before}"
    report.add(NOTED.at(line.number, line.column, note))


def test_a_sitemap_line_check_sees_each_sitemap_line_of_a_robots_txt(tmp_path: Path) -> None:
    robots = (
        "User-agent: *\nSitemap: https://www.example.com/a.xml\n"
        "sitemap https://www.example.com/b.xml\nSitemap: https://www.example.com/a.xml\n"
    )
    with file_check(SITEMAP_LINE, _note_sitemap_line):
        assert messages(write(tmp_path, robots, "robots.txt")) == [
            ("ZX001", 2, 10, "Sitemap: https://www.example.com/a.xml None"),
            ("ZX001", 3, 9, "sitemap https://www.example.com/b.xml None"),
            ("ZX001", 4, 10, "Sitemap: https://www.example.com/a.xml 2"),
        ]


def _note_input(problem: object, options: object, report: Reporter) -> None:
    assert isinstance(problem, InputProblem)
    note = f"{problem.kind} {problem.codec} {problem.data!r}".strip()
    report.add(NOTED.at(problem.line, problem.column, note))


def test_an_input_check_sees_what_the_reader_and_decoder_met(tmp_path: Path) -> None:
    import gzip

    page = plugin_sitemap(3).encode()
    packed = tmp_path / "packed.xml"  # gzip bytes under a plain name
    packed.write_bytes(gzip.compress(page))
    broken = tmp_path / "broken.xml"
    broken.write_bytes(page.replace(b"page-1", b"p\xe9ge-1"))
    with file_check(INPUT, _note_input):
        assert messages(packed) == [("ZX001", 1, 1, "gzip-name  b''")]
        assert messages(broken) == [("ZX001", 9, 43, "invalid-bytes utf-8 b'\\xe9'")]
        assert messages(write(tmp_path, plugin_sitemap(3))) == []


def test_every_rule_is_reported_by_a_check() -> None:
    """A rule reported by hand, outside the rule API, fails here: its check must be
    declared (``check(target, emits=...)``)."""
    rules()
    emitted = {code for spec in CHECKS for code in spec.emits}
    assert sorted(set(rules()) - emitted) == []


def test_a_plugins_markup_check_sees_every_raw_ampersand(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The fast path proves a loc with a raw "&" and reports its XM004 itself; with a
    plugin's check of the markup, it leaves those entries to the parser, so the check
    sees each syntax error with and without the fast path."""
    entries = "".join(
        f"  <url><loc>https://www.example.com/{i}?a=1&b=2</loc></url>\n" for i in range(300)
    )
    path = write(tmp_path, HEAD + entries + "</urlset>\n")
    outcome = check_both(monkeypatch, path)
    assert outcome.proved >= 200
    assert sum(f.code == "XM004" for f in outcome.findings) == 300
    # A run whose checks of the markup do not report XM004 gets none either way.
    outcome = check_both(monkeypatch, path, enabled=frozenset({"UR001", "IM001"}))
    assert outcome.proved >= 200
    assert [f for f in outcome.findings if f.code == "XM004"] == []
    with file_check(MARKUP, _note_markup):
        outcome = check_both(monkeypatch, path)
    assert outcome.proved == 0
    assert sum(f.message == "syntax loc" for f in outcome.findings if f.code == "ZX001") == 300
    assert sum(f.code == "XM004" for f in outcome.findings) == 300


def _note_schema_error(error: object, file: object, report: Reporter) -> None:
    assert isinstance(error, SchemaError)
    node = error.node
    report.add(NOTED.at(node.line, node.column, f"{node.name}: {error.message[:28]}"))


def test_a_schema_check_sees_what_the_schema_engine_rejects() -> None:
    path = Path(__file__).resolve().parent.parent / "fixtures" / "rules" / "XS001" / "fail.xml"
    with file_check(SCHEMA, _note_schema_error):
        assert messages(path) == [("ZX001", 8, 7, "loc: This element is not expected")]


def _note_directives(directives: object, options: object, report: Reporter) -> None:
    assert isinstance(directives, Directives)
    for unused in directives.unused:
        report.add(NOTED.at(unused.line, unused.column, f"unused {','.join(unused.codes)}"))
    for invalid in directives.invalid:
        report.add(NOTED.at(invalid.line, invalid.column, f"invalid: {invalid.reason[:20]}"))


def test_a_directives_check_sees_what_the_inline_directives_left(tmp_path: Path) -> None:
    page = HEAD + (
        "<!-- sitemap-lint: disable-file UR008 -->\n"
        "<!-- sitemap-lint: disable-next-line DT001 -->\n"
        "  <url><loc>https://www.example.com/a</loc><lastmod>2024-13-01</lastmod></url>\n"
        "<!-- sitemap-lint: mute UR001 -->\n"
        "</urlset>\n"
    )
    with file_check(DIRECTIVES, _note_directives):
        assert messages(write(tmp_path, page)) == [
            ("ZX001", 3, 1, "unused UR008"),
            ("ZX001", 4, 1, "unused DT001"),
            ("ZX001", 6, 1, "invalid: unknown directive 'm"),
        ]
    # The built-in check reports them too.
    path = write(tmp_path, page)
    result = check_source(Source(str(path), path), Options(now=NOW), engine())
    assert [f.code for f in result.findings if f.code.startswith("SU")] == [
        "SU001",
        "SU001",
        "SU002",
    ]


def _note_unfixed(unfixed: object, options: object, report: Reporter) -> None:
    assert isinstance(unfixed, Unfixed)
    report.add(NOTED.at(1, 1, unfixed.reason[:40]))


def test_an_unfixed_check_sees_a_file_the_fixer_leaves_as_it_is(tmp_path: Path) -> None:
    from sitemap_lint.fix.engine import fix_source

    page = HEAD + (
        "  <url><loc>https://www.example.com/?a=1&b=2</loc></url>\n"
        "  <url><loc>https://www.example.com/caf\xe9</loc></url>\n</urlset>\n"
    )
    path = tmp_path / "latin.xml"
    path.write_bytes(page.encode("latin-1"))  # a byte invalid in UTF-8, and a fixable "&"
    with file_check(UNFIXED, _note_unfixed):
        done = fix_source(Source(str(path), path), Options(now=NOW), engine(), unsafe=False)
    assert done.fixed is None
    assert [(f.code, f.message) for f in done.refused] == [
        ("FX001", done.refused[0].message),
        ("ZX001", "it holds bytes that are not valid in its"),
    ]
    assert "not valid in its encoding" in done.refused[0].message
