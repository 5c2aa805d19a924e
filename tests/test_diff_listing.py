"""A file of a diff's side read into its columns: the fast route (``diff.scan``) must
read every file exactly as the lxml parse does, or leave it to the parse.

Each case is read twice, through ``listing_of`` and through the parse alone, and the
two listings must be equal in every column (and in the problem of a file that is not
well-formed XML).
"""

from __future__ import annotations

import itertools
import os
import random
import threading
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench import shapes
from sitemap_lint.diff import listing
from sitemap_lint.diff.compare import compare
from sitemap_lint.diff.hashing import hash_array, url_hash, url_hashes
from sitemap_lint.diff.scan import scan_urlset
from sitemap_lint.diff.sides import read_sides
from sitemap_lint.sets.runner import SetSettings

COLUMNS = (
    "kind",
    "problem",
    "hashes",
    "lastmods",
    "changefreqs",
    "priorities",
    "urls",
    "children",
    "alternate_pages",
    "alternate_hrefs",
)
# The shapes generators write most: each must take the fast route.
FAST_SHAPES = {
    "pretty",
    "crlf",
    "one-line",
    "line-each",
    "amp-query",
    "predefined",
    "loc-only",
    "every-form",
    "extra-ns",
    "iri",
    "percent-utf8",
    "tabs-xsi-dates",
    "finding-each",
}
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def _parsed(data: bytes, monkeypatch: pytest.MonkeyPatch) -> listing.Listing:
    """The listing the lxml parse alone gives."""
    with monkeypatch.context() as patch:
        patch.setattr(listing, "scan_urlset", lambda data: None)
        return listing.listing_of(data)


def _assert_same(data: bytes, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The fast route and the parse agree on ``data``; whether the fast route read it."""
    fast, parsed = listing.listing_of(data), _parsed(data, monkeypatch)
    for column in COLUMNS:
        assert getattr(fast, column) == getattr(parsed, column), (column, data[:400])
    return scan_urlset(data) is not None


@pytest.mark.parametrize("name", sorted(shapes.SHAPES))
def test_every_shape_reads_as_the_parse_reads_it(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = shapes.text(shapes.SHAPES[name], 40).encode("utf-8")
    fast = _assert_same(data, monkeypatch)
    assert fast == (name in FAST_SHAPES)
    assert len(listing.listing_of(data)) == 40


def _urlset(entries: str, attributes: str = "", declaration: str = "") -> str:
    head = declaration or '<?xml version="1.0" encoding="UTF-8"?>'
    return f'{head}\n<urlset xmlns="{NS}"{attributes}>\n{entries}</urlset>\n'


PLAIN = (
    "  <url>\n    <loc>https://example.com/a?x=1&amp;y=2</loc>\n"
    "    <lastmod>2025-01-02</lastmod>\n    <changefreq>daily</changefreq>\n"
    "    <priority>0.5</priority>\n  </url>\n"
)
SECOND = PLAIN.replace("/a?", "/b?").replace("2025-01-02", "2025-03-04T05:06:07+01:00")
# Files near the fast route's shape: some it reads, the rest it must leave to the parse.
NEAR = {
    "plain": _urlset(PLAIN + SECOND),
    "empty urlset": _urlset(""),
    "empty values": _urlset(
        "<url><loc></loc><lastmod></lastmod><changefreq></changefreq>"
        "<priority></priority></url>\n" * 2
    ),
    "blank values": _urlset(
        "<url><loc> </loc><lastmod> </lastmod><changefreq> </changefreq>"
        "<priority> </priority></url>\n" * 2
    ),
    "spaced loc": _urlset(PLAIN.replace("<loc>", "<loc>\n  ").replace("</loc>", " \t</loc>")),
    "crlf": _urlset(PLAIN + SECOND).replace("\n", "\r\n"),
    "cr alone": _urlset(PLAIN + SECOND).replace("\n", "\r"),
    "cr in value": _urlset(PLAIN.replace("/a?", "/a\r\n?")),
    "bom": "\ufeff" + _urlset(PLAIN),
    "no declaration": _urlset(PLAIN, declaration="  "),
    "single quotes": _urlset(PLAIN, declaration="<?xml version='1.0' encoding='utf-8'?>"),
    "standalone": _urlset(PLAIN, declaration='<?xml version="1.0" standalone="yes" ?>'),
    "latin-1": _urlset(PLAIN, declaration='<?xml version="1.0" encoding="ISO-8859-1"?>'),
    "version 1.1": _urlset(PLAIN, declaration='<?xml version="1.1"?>'),
    "space before declaration": " " + _urlset(PLAIN),
    "xsi declared": _urlset(
        PLAIN,
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="a b"',
    ),
    "xsi undeclared": _urlset(PLAIN, ' xsi:schemaLocation="a b"'),
    "xmlns twice": _urlset(PLAIN, f' xmlns="{NS}"'),
    "other namespace": _urlset(PLAIN).replace(NS, "http://example.com/ns"),
    "empty prefix": _urlset(PLAIN, ' xmlns:p=""'),
    "attribute twice": _urlset(PLAIN, ' a="1" a="2"'),
    "same local name": _urlset(PLAIN, ' xmlns:p="u" xmlns:q="u" p:a="1" q:a="2"'),
    "entities": _urlset(PLAIN.replace("/a?", "/&lt;&gt;&quot;&apos;&amp;amp;?")),
    "numeric reference": _urlset(PLAIN.replace("/a?", "/&#38;?")),
    "undefined entity": _urlset(PLAIN.replace("/a?", "/&nbsp;?")),
    "bare ampersand": _urlset(PLAIN.replace("&amp;", "&")),
    "cdata end": _urlset(PLAIN.replace("/a?", "/]]>?")),
    "greater than": _urlset(PLAIN.replace("/a?", "/>?")),
    "control character": _urlset(PLAIN.replace("/a?", "/\x01?")),
    "not a character": _urlset(PLAIN.replace("/a?", "/\ufffe?")),
    "astral": _urlset(PLAIN.replace("/a?", "/\U0001f600?")),
    "comment": _urlset("<!-- c -->\n" + PLAIN),
    "comment after": _urlset(PLAIN) + "<!-- c -->\n",
    "text after root": _urlset(PLAIN) + "x",
    "text between": _urlset(PLAIN + "x\n" + SECOND),
    "other order": _urlset(PLAIN.replace("<lastmod>", "<lastmoX>")).replace(
        "<lastmoX>2025-01-02</lastmod>\n    <changefreq>daily</changefreq>",
        "<changefreq>daily</changefreq>\n    <lastmod>2025-01-02</lastmod>",
    ),
    "field twice": _urlset(PLAIN.replace("</lastmod>", "</lastmod><lastmod>2020-01-01</lastmod>")),
    "mixed fields": _urlset(PLAIN + "<url><loc>https://example.com/c</loc></url>\n" + SECOND),
    "second entry longer": _urlset(
        "<url><loc>https://example.com/c</loc></url>\n" + PLAIN + SECOND
    ),
    "entry unclosed": _urlset(PLAIN + "<url><loc>https://example.com/c</loc>\n"),
    "tag with space": _urlset(PLAIN.replace("<loc>", "<loc >")),
    "self-closing": _urlset(PLAIN.replace("<lastmod>2025-01-02</lastmod>", "<lastmod/>")),
    "unknown child": _urlset(PLAIN.replace("</url>", "<x>1</x></url>")),
    "no urlset end": _urlset(PLAIN).replace("</urlset>", ""),
    "index": _urlset(PLAIN).replace("urlset", "sitemapindex").replace("<url>", "<sitemap>"),
    "invalid utf-8": _urlset(PLAIN).replace("/a?", "/\udcff?"),
}


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")  # "invalid utf-8": a lone 0xFF byte


@pytest.mark.parametrize("name", sorted(NEAR))
def test_files_near_the_fast_shape_read_as_the_parse_reads_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _assert_same(_bytes(NEAR[name]), monkeypatch)


def test_the_plain_files_take_the_fast_route(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = {name for name, text in NEAR.items() if _assert_same(_bytes(text), monkeypatch)}
    assert {"plain", "crlf", "bom", "entities", "empty values", "xsi declared"} <= fast
    assert not fast & {"comment", "xsi undeclared", "mixed fields", "undefined entity"}


def test_mutated_files_read_as_the_parse_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded mutations of a plain file (a byte replaced, inserted or deleted, at a place
    in its markup or its values): the fast route reads a mutant as the parse does, or
    leaves it to the parse."""
    base = _urlset(PLAIN + SECOND + PLAIN.replace("/a?", "/c?")).encode("utf-8")
    alphabet = b"<>/&;\"' \t\r\n=?x:\x00\xff\xef#]"
    generator = random.Random(31)
    fast = 0
    for _ in range(600):
        data = bytearray(base)
        for _edit in range(generator.randint(1, 3)):
            place = generator.randrange(len(data))
            byte = alphabet[generator.randrange(len(alphabet))]
            edit = generator.randrange(3)
            if edit == 0:
                data[place] = byte
            elif edit == 1:
                data.insert(place, byte)
            else:
                del data[place]
        fast += _assert_same(bytes(data), monkeypatch)
    assert fast > 50  # many mutants (a changed value) stay in the fast shape


def test_a_url_hashes_alike_whatever_file_holds_it() -> None:
    short = [f"https://example.com/p/{i}" for i in range(100)]
    long = ["https://example.com/" + "x" * 3000, "", "https://example.com/é" * 20]
    together = hash_array([*short[:50], *long, *short[50:]]).tolist()
    assert together == [url_hash(url) for url in [*short[:50], *long, *short[50:]]]
    assert list(url_hashes(short)) == together[:50] + together[53:]
    assert len(set(together)) == len(together)


def test_a_very_long_url_costs_its_own_length_not_that_times_the_others() -> None:
    """100 URLs of 3 KB and one of 2 MB: not a table of 101 rows of 2 MB (200 MB), nor a
    numpy step for each of its 8-byte words; each hashes as it does alone."""
    long = [f"https://example.com/{i}/" + "b" * 3000 for i in range(100)]
    huge = "https://example.com/" + "a" * 2_000_000
    tracemalloc.start()
    try:
        hashes = hash_array([*long, huge]).tolist()
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40_000_000
    assert hashes == [url_hash(url) for url in [*long, huge]]
    assert len(set(hashes)) == len(hashes)
    assert url_hash(huge) != url_hash(huge + "a")


def test_urls_differing_in_one_bit_or_a_padding_byte_hash_apart() -> None:
    urls = ["a" * n for n in range(40)] + [f"https://e.com/{chr(c)}" for c in range(32, 127)]
    hashes = hash_array(urls).tolist()
    assert len(set(hashes)) == len(urls)
    # Every output bit flips for some pair: no bit is stuck.
    spread = 0
    for first, second in itertools.pairwise(hashes):
        spread |= first ^ second
    assert spread == (1 << 64) - 1


def _write_side(directory: Path, files: list[list[tuple[str, str | None]]]) -> None:
    directory.mkdir()
    for number, entries in enumerate(files):
        body = "".join(
            f"<url><loc>{url}</loc>{f'<lastmod>{stamp}</lastmod>' if stamp else ''}</url>\n"
            for url, stamp in entries
        )
        (directory / f"sitemap-{number}.xml").write_text(_urlset(body), encoding="utf-8")


def test_the_join_by_slices_matches_a_plain_reference(tmp_path: Path) -> None:
    """Two random sides (URLs listed twice, moved between files, dropped, added, lastmods
    changed) compared, against sets and dicts of the URLs' first listings."""
    generator = random.Random(4)
    pages = [f"https://example.com/{generator.choice('abc')}/{i}" for i in range(400)]
    stamps = [None, "2025-01-01", "2025-06-01T10:00:00Z"]

    def side(count: int) -> list[list[tuple[str, str | None]]]:
        return [
            [(generator.choice(pages), generator.choice(stamps)) for _ in range(count)]
            for _file in range(4)
        ]

    old, new = side(120), side(120)
    _write_side(tmp_path / "old", old)
    _write_side(tmp_path / "new", new)
    before, after = read_sides(
        [str(tmp_path / "old")], SetSettings(), [str(tmp_path / "new")], SetSettings()
    )
    changes = compare(before, after, datetime(2026, 12, 4, tzinfo=UTC), show=1000)

    def first(files: list[list[tuple[str, str | None]]]) -> dict[str, tuple[int, str | None]]:
        seen: dict[str, tuple[int, str | None]] = {}
        for number, entries in enumerate(files):
            for url, stamp in entries:
                seen.setdefault(url, (number, stamp))
        return seen

    old_first, new_first = first(old), first(new)
    common = old_first.keys() & new_first.keys()
    assert [shown.url for shown in changes.removed_shown] == [
        url for url in old_first if url not in new_first
    ]
    assert [shown.url for shown in changes.added_shown] == [
        url for url in new_first if url not in old_first
    ]
    assert changes.common == len(common)
    # Moved: its old file (the first listing it) no longer lists it, another one does.
    listed_in = {(url, number) for number, entries in enumerate(new) for url, _stamp in entries}
    moved = [
        url for url in old_first if url in common and (url, old_first[url][0]) not in listed_in
    ]
    assert changes.moved == len(moved)
    assert [shown.url for shown in changes.moved_shown] == moved
    assert changes.lastmod_changed == sum(old_first[u][1] != new_first[u][1] for u in common)
    assert changes.with_lastmod == sum(stamp is not None for f in new for _u, stamp in f)


def test_a_url_list_with_a_robots_line_is_no_robots_txt() -> None:
    """A file starting with a URL is a text sitemap, as the check reads it: a stray
    `Sitemap:` line makes it no sitemap, never a robots.txt without URLs."""
    text = b"https://example.com/a\nhttps://example.com/b\nSitemap: https://example.com/x.xml\n"
    read = listing.listing_of(text)
    assert read.kind != "robots"
    assert read.problem is not None and "line 3 is not an absolute http(s) URL" in read.problem
    robots = listing.listing_of(b"User-agent: *\nSitemap: https://example.com/x.xml\n")
    assert robots.kind == "robots"


def test_a_url_list_under_a_sitemap_line_is_no_robots_txt() -> None:
    """As the check reads it: a first `Sitemap:` line does not make the URLs under it
    unread lines of a robots.txt."""
    text = b"Sitemap: https://example.com/x.txt\nhttps://example.com/a\nhttps://example.com/b\n"
    read = listing.listing_of(text)
    assert read.kind != "robots"
    assert read.problem is not None and "line 1 is not an absolute http(s) URL" in read.problem


def test_a_robots_txt_lists_the_sitemaps_the_check_follows() -> None:
    robots = listing.listing_of(
        b"User-agent: *\n"
        b"Sitemap: https://example.com/a.xml # the main one\n"
        b"SITEMAP:https://example.com/b.xml\t\n"
        b"Site-map: https://example.com/c.xml\n"
        b"Sitemap: /relative.xml\n"
        b"# Sitemap: https://example.com/commented.xml\n"
        b"Sitemap: https://example.com/d.xml https://example.com/e.xml\n"  # followed by neither
    )
    assert robots.children == [
        "https://example.com/a.xml",
        "https://example.com/b.xml",
        "https://example.com/c.xml",
    ]


def test_a_byte_order_mark_leaves_a_text_sitemap_or_a_robots_txt_what_it_is() -> None:
    """As the check reads them (a robots.txt may start with one: RFC 9309)."""
    bom = b"\xef\xbb\xbf"
    text = listing.listing_of(bom + b"https://example.com/a\r\nhttps://example.com/b\r\n")
    assert (text.kind, text.problem, text.url_text()) == (
        "text",
        None,
        ["https://example.com/a", "https://example.com/b"],
    )
    robots = listing.listing_of(bom + b"User-agent: *\nSitemap: https://example.com/x.xml\n")
    assert (robots.kind, robots.children) == ("robots", ["https://example.com/x.xml"])
    xml = listing.listing_of(
        bom + b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<url><loc>https://example.com/a</loc></url></urlset>"
    )
    assert (xml.kind, xml.url_text()) == ("urlset", ["https://example.com/a"])
    assert listing.listing_of(bom).problem == "an empty file, not a sitemap"


@pytest.mark.parametrize("declaration", ['SYSTEM "{path}"', 'PUBLIC "-//X//Y//EN" "{uri}"', ""])
def test_no_dtd_or_entity_a_file_names_is_read(declaration: str, tmp_path: Path) -> None:
    """A DOCTYPE's external subset, or an external parameter entity, names a FIFO: the
    parse opens nothing (opening it would block until a writer comes)."""
    fifo = tmp_path / "subset.dtd"
    os.mkfifo(fifo)
    subset = declaration.format(path=fifo, uri=fifo.as_uri())
    internal = "" if subset else f' [<!ENTITY % p SYSTEM "{fifo.as_uri()}"> %p;]'
    data = (
        f'<?xml version="1.0"?>\n<!DOCTYPE urlset {subset}{internal}>\n'
        f'<urlset xmlns="{NS}"><url><loc>https://example.com/a</loc></url></urlset>\n'
    ).encode()
    read: list[listing.Listing] = []
    reader = threading.Thread(target=lambda: read.append(listing.listing_of(data)), daemon=True)
    reader.start()
    reader.join(10)
    waited = not read
    if waited:  # the parse opened the FIFO and waits for a writer: let it go
        os.close(os.open(fifo, os.O_WRONLY))
        reader.join(10)
    assert not waited
    assert (read[0].kind, read[0].problem, read[0].count) == ("urlset", None, 1)
