"""live.targets: the URLs a sitemap lists, at the positions the static findings give, and
the deterministic sample of them."""

from __future__ import annotations

import hashlib
import tracemalloc
from pathlib import Path

import pytest

from sitemap_lint.engine.dispatch import InputChecks
from sitemap_lint.engine.sink import FindingList
from sitemap_lint.inputs.decoding import Decoder
from sitemap_lint.inputs.reader import ByteStream, Source
from sitemap_lint.live.model import (
    ALTERNATE,
    ATTRIBUTE,
    CHILD,
    IMAGE,
    PAGE,
    SPAN,
    VIDEO_CONTENT,
    VIDEO_PLAYER,
    VIDEO_THUMBNAIL,
    Target,
)
from sitemap_lint.live.targets import TargetReader, sample
from tests.helpers import RULE_FIXTURES, lint_content, lint_fixture

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
IMAGE_NS = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
VIDEO_NS = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
XHTML_NS = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"'


def read(text: str, size: int | None = None) -> list[Target]:
    """The targets of ``text`` fed whole, or in chunks of ``size`` characters."""
    reader = TargetReader()
    chunks = [text] if size is None else [text[i : i + size] for i in range(0, len(text), size)]
    for chunk in chunks:
        reader.feed(chunk)
    reader.feed("", final=True)
    return reader.targets()


def read_file(path: Path) -> list[Target]:
    """The targets of a file, decoded and fed as the static check decodes and feeds it."""
    stream = ByteStream(Source(str(path), path), InputChecks(FindingList()))
    decoder = Decoder(InputChecks(FindingList()))
    texts = decoder.decode(stream.chunks())
    first = next(texts, "")  # the decoder's offsets are known once its first text is out
    reader = TargetReader(decoder.line_offset, decoder.column_offset)
    reader.feed(first)
    for text in texts:
        reader.feed(text)
    reader.feed("", final=True)
    return reader.targets()


FULL = f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset {NS} {IMAGE_NS} {VIDEO_NS} {XHTML_NS}>
  <url>
    <loc>https://example.com/a</loc>
    <lastmod>2024-05-01</lastmod>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a"/>
    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/>
    <image:image><image:loc>https://example.com/a.jpg</image:loc></image:image>
    <video:video>
      <video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc>
      <video:title>T</video:title>
      <video:content_loc>https://example.com/v.mp4</video:content_loc>
      <video:player_loc>https://example.com/player?v=1&amp;a=2</video:player_loc>
    </video:video>
  </url>
  <url><loc>  https://example.com/b
  </loc></url>
</urlset>
"""


def test_every_kind_in_file_order_with_positions() -> None:
    assert read(FULL) == [
        Target(
            "https://example.com/a",
            PAGE,
            4,
            5,
            "2024-05-01",
            (("de", "https://example.com/de/a"), ("en", "https://example.com/a")),
        ),
        Target("https://example.com/de/a", ALTERNATE, 6, 5),
        Target("https://example.com/a", ALTERNATE, 7, 5),
        Target("https://example.com/a.jpg", IMAGE, 8, 18),
        Target("https://example.com/t.jpg", VIDEO_THUMBNAIL, 10, 7),
        Target("https://example.com/v.mp4", VIDEO_CONTENT, 12, 7),
        Target("https://example.com/player?v=1&a=2", VIDEO_PLAYER, 13, 7),
        Target("https://example.com/b", PAGE, 16, 8),
    ]


def test_entries_read_after_an_error_give_the_same_targets() -> None:
    damaged = FULL.replace(
        f"{XHTML_NS}>\n", f"{XHTML_NS}>\n<url><loc>https://example.com/x</loc></bad></url>\n", 1
    )
    shifted = [
        Target(t.url, t.kind, t.line + 1, t.column, t.lastmod, t.alternates) for t in read(FULL)
    ]
    assert read(damaged) == shifted
    assert read(damaged, 5) == shifted


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64])
def test_chunks_anywhere_read_the_same(size: int) -> None:
    text = FULL.replace(
        "</urlset>", "<url><loc>https://example.com/?a=1&amp;b=2&c</loc></url>\n</urlset>"
    )
    assert read(text, size) == read(text)
    assert read(text)[-1].url == "https://example.com/?a=1&b=2&c"


def test_an_index_lists_children() -> None:
    text = f"""<sitemapindex {NS}>
<sitemap><loc>https://example.com/s1.xml</loc><lastmod>2024-01-02T00:00:00Z</lastmod></sitemap>
<sitemap><lastmod>2024-01-03</lastmod><loc>https://example.com/s2.xml</loc></sitemap>
</sitemapindex>"""
    assert read(text) == [
        Target("https://example.com/s1.xml", CHILD, 2, 10, "2024-01-02T00:00:00Z"),
        Target("https://example.com/s2.xml", CHILD, 3, 39, "2024-01-03"),
    ]


def test_any_prefix_and_the_namespace_decides() -> None:
    text = """<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"
 xmlns:i="http://www.google.com/schemas/sitemap-image/1.1"
 xmlns:image="http://www.google.com/schemas/sitemap-image/1.0">
<s:url><s:loc>https://example.com/a</s:loc>
<i:image><i:loc>https://example.com/1.jpg</i:loc></i:image>
<image:image><image:loc>https://example.com/2.jpg</image:loc></image:image>
<loc>https://example.com/not-in-the-namespace</loc>
</s:url></s:urlset>"""
    assert [(t.url, t.kind) for t in read(text)] == [
        ("https://example.com/a", PAGE),
        ("https://example.com/1.jpg", IMAGE),
    ]


def test_a_sitemap_without_namespace_is_read_by_local_names() -> None:
    text = "<urlset><url><loc>https://example.com/a</loc></url></urlset>"
    assert read(text) == [Target("https://example.com/a", PAGE, 1, 14)]


@pytest.mark.parametrize(
    "text",
    [
        "<rss><channel><item><link>https://example.com/a</link></item></channel></rss>",
        "<html><body><url><loc>https://example.com/a</loc></url></body></html>",
        f"<urlset {NS}><url><url><loc>https://example.com/deeper</loc></url></url></urlset>",
        f"<urlset {NS}><loc>https://example.com/outside-an-entry</loc></urlset>",
        f"<urlset {NS}><url><loc> </loc></url><url><loc/></url></urlset>",
        f"<urlset {NS} {XHTML_NS}><url><xhtml:link rel='alternate' hreflang='de'/></url></urlset>",
        f"<urlset {NS} {XHTML_NS}><url><xhtml:link rel='canonical' href='/x'/></url></urlset>",
        "",
        "not xml at all",
    ],
)
def test_no_targets(text: str) -> None:
    assert read(text) == []


def test_the_first_loc_of_an_entry_counts() -> None:
    text = f"<urlset {NS}><url><loc>https://example.com/1</loc><loc>https://example.com/2</loc></url></urlset>"
    assert [t.url for t in read(text)] == ["https://example.com/1"]


@pytest.mark.parametrize("nested", [False, True])
def test_a_box_s_repeated_urls_are_requested_as_the_check_reads_them(nested: bool) -> None:
    """The check reads a box's first image:loc, content_loc and player_loc (a repeat is
    a schema error) and every thumbnail_loc: the audit requests those, no more."""
    box = (
        "<image:image><image:loc>https://example.com/i1</image:loc>"
        "<image:loc>https://example.com/i2</image:loc></image:image>"
        "<video:video><video:thumbnail_loc>https://example.com/t1</video:thumbnail_loc>"
        "<video:thumbnail_loc>https://example.com/t2</video:thumbnail_loc>"
        "<video:title>T</video:title><video:description>D</video:description>"
        "<video:content_loc>https://example.com/c1</video:content_loc>"
        "<video:content_loc>https://example.com/c2</video:content_loc>"
        "<video:player_loc>https://example.com/p1</video:player_loc>"
        "<video:player_loc>https://example.com/p2</video:player_loc></video:video>"
    )
    entry = f"<url><loc>https://example.com/</loc>{box}</url>"
    if nested:  # an entry inside an entry: read by the check's own reader
        entry = f"<url><loc>https://example.com/0</loc>{entry}"
    text = f"<urlset {NS} {IMAGE_NS} {VIDEO_NS}>{entry}</urlset>"
    urls = [t.url for t in read(text) if t.kind != PAGE]
    assert urls == [
        "https://example.com/i1",
        "https://example.com/t1",
        "https://example.com/t2",
        "https://example.com/c1",
        "https://example.com/p1",
    ]


def test_an_alternate_without_hreflang_is_requested_but_not_paired() -> None:
    text = (
        f"<urlset {NS} {XHTML_NS}><url><loc>https://example.com/a</loc>"
        '<xhtml:link rel="alternate" href="https://example.com/b"/></url></urlset>'
    )
    page, alternate = read(text)
    assert page.alternates == ()
    assert (alternate.url, alternate.kind) == ("https://example.com/b", ALTERNATE)


def test_after_a_syntax_error_reading_resumes_at_the_next_entry() -> None:
    text = (
        f"<urlset {NS}>\n<url><loc>https://example.com/1</loc></url>\n"
        "<url><loc>https://example.com/2</loc></uurl>\n"
        "<url><loc>https://example.com/3</loc></url>\n</urlset>"
    )
    reader = TargetReader()
    reader.feed(text)
    reader.feed("<more/> <<<")  # after the root: an error, and nothing raised
    reader.feed("", final=True)
    assert [(t.url, t.line) for t in reader.targets()] == [
        ("https://example.com/1", 2),
        ("https://example.com/3", 4),
    ]


def test_an_error_outside_the_root_ends_the_reading() -> None:
    text = f"<urlset {NS}><url><loc>https://example.com/1</loc></url></urlset><x>"
    reader = TargetReader()
    reader.feed(text)
    reader.feed("<url><loc>https://example.com/2</loc></url>", final=True)
    assert [t.url for t in reader.targets()] == ["https://example.com/1"]


def test_an_unfinished_file_keeps_its_finished_entries() -> None:
    text = f"<urlset {NS}><url><loc>https://example.com/1</loc></url><url><loc>https://exa"
    assert [t.url for t in read(text)] == ["https://example.com/1"]


@pytest.mark.parametrize(
    ("written", "url"),
    [
        ("https://example.com/?a=1&b=2", "https://example.com/?a=1&b=2"),  # a raw "&"
        ("https://example.com/?a=1&amp;b=2", "https://example.com/?a=1&b=2"),
        ("https://example.com/caf&#233;", "https://example.com/caf\u00e9"),
        ("https://example.com/caf&#xE9;", "https://example.com/caf\u00e9"),
        ("https://example.com/&nbsp;x", "https://example.com/&nbsp;x"),  # kept as written
        ("https://example.com/a&", "https://example.com/a&"),
        ("https://example.com/\x0bx", "https://example.com/x"),  # dropped, as the check does
    ],
)
def test_lexical_defects_are_read_past(written: str, url: str) -> None:
    text = f"<urlset {NS}><url><loc>{written}</loc></url><url><loc>https://example.com/next</loc></url></urlset>"
    assert [t.url for t in read(text)] == [url, "https://example.com/next"]


def test_a_declared_entity_is_never_expanded() -> None:
    text = (
        '<!DOCTYPE urlset [<!ENTITY host "evil.example">]>\n'
        f"<urlset {NS}><url><loc>https://&host;/a</loc></url></urlset>"
    )
    assert [t.url for t in read(text)] == ["https://&host;/a"]


# -- the positions the static findings give --------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "UR001/fail.xml",
        "UR001/fail-hreflang-href.xml",
        "UR001/fail-index.xml",
        "SC001/fail.xml",
        "SC001/fail-index.xml",
        "SC001/fail-port.xml",
    ],
)
def test_positions_agree_with_fixture_findings(name: str) -> None:
    code = name.split("/", 1)[0]
    findings = [f for f in lint_fixture(name).findings if f.code == code]
    assert findings
    positions = {(t.line, t.column) for t in read_file(RULE_FIXTURES / name)}
    for finding in findings:
        assert (finding.line, finding.column) in positions, finding


LOC = "<loc>/relative</loc>"
SHAPES = {
    "one line": f"<urlset {NS}><url>{LOC}</url><url>{LOC}</url></urlset>",
    "non-ASCII before": f"<urlset {NS}><url><lastmod>ñ日本</lastmod>{LOC}</url></urlset>",
    "astral before": f"<urlset {NS}><!-- 😀😀 --><url>{LOC}</url></urlset>",
    "CR LF": f'<?xml version="1.0"?>\r\n<urlset {NS}>\r\n<url>\r\n  {LOC}</url>\r\n</urlset>',
    "CR alone": f"<urlset {NS}>\r<url>\r\t\t{LOC}</url>\r</urlset>",
    "text before the declaration": f'\n  junk <?xml version="1.0"?><urlset {NS}><url>{LOC}</url></urlset>',
    "raw & before": f"<urlset {NS}><url><lastmod>a&b</lastmod>{LOC}</url></urlset>",
    "byte order mark": f"\ufeff<urlset {NS}><url>{LOC}</url></urlset>",
    "image": f"<urlset {NS} {IMAGE_NS}><url><loc>https://example.com/</loc>"
    "<image:image>\n<image:loc>/i.jpg</image:loc></image:image></url></urlset>",
    # Syntax errors: reading resumes where the check resumes, at the same positions.
    "undeclared prefix": f"<urlset {NS}>\n<url>{LOC}<image:image/></url>\n<url>{LOC}</url>\n"
    f"  <url>{LOC}</url></urlset>",
    "mismatched end tag": f"<urlset {NS}>\n<url>{LOC}</lastmod></url><url>  {LOC}</url>\n</urlset>",
    "entry end tag missing": f"<urlset {NS}>\n<url>{LOC}\n<url>{LOC}</url>\n<url>{LOC}</url></urlset>",
    "raw < in a loc": f"<urlset {NS}><url><loc>/a<b</loc></url><url>{LOC}</url></urlset>",
    "one line, errors": f"<urlset {NS}><url>{LOC}</x></url><url>{LOC}</url><url>{LOC}</y></urlset>",
    "stray end tag between": f"<urlset {NS}>\n<url>{LOC}</url></stray>\n <url>{LOC}</url></urlset>",
    "after a raw &": f"<urlset {NS}><url><loc>/?a&b</loc></url>\n<url>{LOC}</x></url><url>{LOC}</url></urlset>",
    "index with an error": f"<sitemapindex {NS}>\n<sitemap>{LOC}</x></sitemap>\n"
    f"<sitemap>\n {LOC}</sitemap>\n</sitemapindex>",
    "an error at the end of a long entry": f"<urlset {NS}>\n<url>{LOC}<note>{'x' * 1_200_000}"
    f"</note></bad></url>\n<url>{LOC}</url></urlset>",
    "declared entity": '<!DOCTYPE urlset [<!ENTITY e "x">]>\n'
    f"<urlset {NS}><url><loc>/&e;</loc></url><url>{LOC}</bad></url>\n<url>{LOC}</url></urlset>",
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_positions_agree_with_the_static_check(shape: str, tmp_path: Path) -> None:
    result = lint_content(tmp_path, SHAPES[shape], sitemap_url=None)
    relative = [(f.line, f.column) for f in result.findings if f.code in ("UR001", "IM003")]
    if shape == "image":
        relative = [(f.line, f.column) for f in result.findings if "/i.jpg" in f.message]
    assert relative
    targets = read_file(tmp_path / "sitemap.xml")
    assert {(t.line, t.column) for t in targets if t.url.startswith("/")} == set(relative)


def test_positions_agree_in_latin_1(tmp_path: Path) -> None:
    text = f'<?xml version="1.0" encoding="ISO-8859-1"?>\n<urlset {NS}><url><lastmod>é</lastmod>{LOC}</url></urlset>'
    result = lint_content(tmp_path, text.encode("latin-1"))
    relative = [(f.line, f.column) for f in result.findings if f.code == "UR001"]
    assert relative == [(t.line, t.column) for t in read_file(tmp_path / "sitemap.xml")]


# -- sampling ------------------------------------------------------------------------------------


def targets(count: int) -> list[Target]:
    return [Target(f"https://example.com/p/{index}", PAGE, index + 1, 5) for index in range(count)]


def test_no_sampling_keeps_everything() -> None:
    listed = targets(10)
    assert sample(listed, None, None, 0, None) == listed
    assert sample(listed, None, None, 0, 3) == listed[:3]


def test_count_chooses_exactly_that_many_in_file_order() -> None:
    listed = targets(1000)
    chosen = sample(listed, 50, None, 7, None)
    assert len(chosen) == 50
    assert chosen == sorted(chosen, key=lambda t: t.line)
    assert chosen == sample(list(listed), 50, None, 7, None)  # the same choice again
    assert chosen != sample(listed, 50, None, 8, None)  # another seed, another choice
    assert chosen != listed[:50]
    assert sample(listed, 5000, None, 7, None) == listed
    assert sample(listed, 0, None, 7, None) == []


def test_a_share_is_the_urls_a_count_of_that_size_chooses() -> None:
    listed = targets(1000)
    # 10% of 1,000 is the 100 URLs with the lowest seeded hashes: those 100 would choose.
    assert sample(listed, None, 10.0, 3, None) == sample(listed, 100, None, 3, None)


def test_percent_chooses_exactly_that_share() -> None:
    assert len(sample(targets(10_000), None, 10.0, 1, None)) == 1000
    assert len(sample(targets(10), None, 10.0, 1, None)) == 1
    assert sample(targets(100), None, 100.0, 1, None) == targets(100)
    assert sample(targets(100), None, 0.0, 1, None) == []


def test_limit_applies_after_sampling() -> None:
    listed = targets(1000)
    assert sample(listed, 100, None, 2, 10) == sample(listed, 100, None, 2, None)[:10]


def test_the_choice_is_the_same_on_every_platform() -> None:
    # The score is BLAKE2b of "<seed>\n<url>": computed here from its definition.
    listed = targets(20)

    def score(target: Target) -> bytes:
        return hashlib.blake2b(f"5\n{target.url}".encode(), digest_size=8).digest()

    lowest = sorted(listed, key=score)[:4]
    assert sample(listed, 4, None, 5, None) == sorted(lowest, key=lambda t: t.line)


def test_text_that_no_value_gathers_is_not_kept() -> None:
    words = "<note>" + "w" * 10_000 + "</note>"
    reader = TargetReader()
    reader.feed(f"<urlset {NS}><url><loc>https://example.com/a</loc>")
    tracemalloc.start()
    try:
        for _ in range(800):  # 8 MB of text in one entry
            reader.feed(words)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000
    reader.feed("</url></urlset>", final=True)
    assert [t.url for t in reader.targets()] == ["https://example.com/a"]


def test_a_document_that_is_no_sitemap_gives_no_targets() -> None:
    reader = TargetReader()
    reader.feed("<rss><channel>")
    reader.feed("<url><loc>https://example.com/a</loc></url>" + "&oops; <<<")
    reader.feed("", final=True)
    assert reader.targets() == []


def test_a_text_sitemaps_urls_are_pages_at_their_lines_and_columns(tmp_path: Path) -> None:
    text = "https://example.com/a\n\n  https://example.com/b\n- https://example.com/c\n"
    result = lint_content(tmp_path, text, "sitemap.txt", live=True)
    assert result.targets == [
        Target("https://example.com/a", PAGE, 1, 1, written=SPAN),
        Target("https://example.com/b", PAGE, 3, 3, written=SPAN),
        Target("https://example.com/c", PAGE, 4, 3, written=SPAN),
    ]
    assert lint_content(tmp_path, text, "sitemap.txt").targets is None  # without --live


RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel><title>T</title><link>https://example.com/</link>
    <item><link>https://example.com/a</link><pubDate>Mon, 05 May 2025 10:00:00 GMT</pubDate></item>
    <item><title>no link</title></item>
    <item><link> https://example.com/b?x=1&amp;y=2 </link></item>
  </channel>
  <item><link>https://example.com/stray</link></item>
</rss>
"""


def test_an_rss_feeds_items_are_pages_at_their_links() -> None:
    assert read(RSS) == [
        Target("https://example.com/a", PAGE, 4, 11),
        Target("https://example.com/b?x=1&y=2", PAGE, 6, 11),
        Target("https://example.com/stray", PAGE, 8, 9),
    ]
    assert read(RSS, size=7) == read(RSS)
    assert read(RSS.replace('version="2.0"', 'version="0.91"')) == []  # not read statically


ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link rel="self" href="https://example.com/feed.xml"/>
  <entry>
    <link rel="self" href="https://example.com/a.atom"/>
    <link rel="alternate" href="https://example.com/a"/>
    <link href="https://example.com/a-second"/>
    <updated>2025-05-05T10:00:00Z</updated>
  </entry>
  <entry><link rel="alternate"/><link href="https://example.com/ignored"/></entry>
  <entry><link href="https://example.com/b"/></entry>
</feed>
"""


def test_an_atom_feeds_entries_are_pages_at_their_first_alternate_link() -> None:
    assert read(ATOM) == [
        Target("https://example.com/a", PAGE, 6, 5, "2025-05-05T10:00:00Z", written=ATTRIBUTE),
        Target("https://example.com/b", PAGE, 11, 10, written=ATTRIBUTE),
    ]
    assert read(ATOM, size=5) == read(ATOM)


def test_a_feeds_targets_stand_where_the_static_findings_do(tmp_path: Path) -> None:
    for name, text in (("rss.xml", RSS), ("atom.xml", ATOM)):
        spaced = text.replace("https://example.com/a<", "https://example.com/a b<").replace(
            '"https://example.com/a"', '"https://example.com/a b"'
        )
        result = lint_content(tmp_path, spaced, name, live=True)
        (space,) = [f for f in result.findings if f.code == "UR006"]
        assert result.targets is not None
        assert (space.line, space.column) == (result.targets[0].line, result.targets[0].column)
        assert result.targets[0].url == "https://example.com/a b"


@pytest.mark.parametrize(
    ("feed", "damaged"),
    [
        (RSS, ("<link>https://example.com/a</link>", "<link>https://example.com/a</lnk>")),
        (RSS, ("  </channel>\n", "  </channel>\n  <item><bad></item>\n")),  # stray items
        (RSS, ("<title>T</title>", "<title>T</x></title>")),  # in the channel
        (ATOM, ("<updated>", "</oops><updated>")),
        (ATOM, ("  <entry><link href", "  <x></y>\n  <entry><link href")),  # between
    ],
    ids=["rss item", "rss stray item", "rss channel", "atom entry", "atom between"],
)
def test_a_feeds_items_after_a_syntax_error_are_those_the_check_reads(
    tmp_path: Path, feed: str, damaged: tuple[str, str]
) -> None:
    text = feed.replace(*damaged, 1).replace("https://example.com/", "/")
    result = lint_content(tmp_path, text, "feed.xml", live=True)
    relative = sorted((f.line, f.column) for f in result.findings if f.code == "UR001")
    assert result.targets is not None
    listed = sorted((t.line, t.column) for t in result.targets)
    assert listed == relative
    assert result.targets[-1].url == ("/stray" if feed == RSS else "/b")  # after the error


NESTED = [
    # (the sitemap's start tag, the entries; every loc, media loc and alternate's href is
    # relative, so the static check names each one it reads: UR001 or its extension's)
    (f"<urlset {NS} {IMAGE_NS} {VIDEO_NS} {XHTML_NS}>", "url", "loc", "image:", "video:"),
    (
        f'<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" {IMAGE_NS} '
        f"{VIDEO_NS} {XHTML_NS}>",
        "sm:url",
        "sm:loc",
        "image:",
        "video:",
    ),
]


@pytest.mark.parametrize(("root", "entry", "loc", "image", "video"), NESTED)
@pytest.mark.parametrize("shape", ["outer end missing", "two inside", "one inside"])
def test_an_entry_inside_an_entry_gives_what_the_check_reads(
    tmp_path: Path, root: str, entry: str, loc: str, image: str, video: str, shape: str
) -> None:
    def inner(n: int) -> str:
        return (
            f"<{entry}><{loc}>/p{n}</{loc}><{image}image><{image}loc>/i{n}</{image}loc>"
            f"</{image}image><{video}video><{video}thumbnail_loc>/t{n}</{video}thumbnail_loc>"
            f"<{video}content_loc>/c{n}</{video}content_loc></{video}video>"
            f'<xhtml:link rel="alternate" hreflang="en" href="/a{n}"/></{entry}>'
        )

    outer = f"<{entry}><{loc}>/p1</{loc}>\n{inner(2)}"
    if shape == "two inside":  # the outer end tag stands after them: a stray one
        outer += f"{inner(4)}</{entry}>"
    elif shape == "one inside":
        outer += f"</{entry}>"
    last = f"<{entry}><{loc}>/p3</{loc}><xhtml:link rel='alternate' href='/a3'/></{entry}>"
    text = f'<?xml version="1.0"?>\n{root}\n{outer}\n{last}\n</{root[1:].split()[0]}>\n'
    result = lint_content(tmp_path, text, sitemap_url=None)
    read_by_check = sorted((f.line, f.column) for f in result.findings if "relative" in f.message)
    listed = read_file(tmp_path / "sitemap.xml")
    assert sorted((t.line, t.column) for t in listed) == read_by_check
    urls = {t.url for t in listed}
    two = {"/p2", "/i2", "/t2", "/c2", "/a2"}
    if shape == "one inside":  # a child of the outer entry, which no search engine reads
        assert urls == {"/p1", "/p3", "/a3"}
    else:  # read as entries of their own: the outer one's end tag is missing
        four = {u.replace("2", "4") for u in two} if shape == "two inside" else set()
        assert urls == {"/p1", *two, *four, "/p3", "/a3"}
