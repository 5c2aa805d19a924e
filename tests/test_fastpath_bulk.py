"""Windows of entries proved at once (fastpath/bulk.py) make the loop's entries.

Each input is checked without the fast path and with it, the windows tried from the
first entries on and cut small, so that they start, stop and fail everywhere: the
findings (places and fixes included) and the set facts (every URL's place) must be the
same. The inputs are sitemaps of one layout (as generators write them) with a defect or
an odd value here and there, which the windows must leave to the loop.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bench import shapes
from sitemap_lint import fastpath
from sitemap_lint.engine.checker import check_source
from sitemap_lint.fastpath import bulk
from sitemap_lint.inputs.reader import Source
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, engine
from tests.test_fastpath import _NAMED, NS, facts_of, small_blocks

# Layouts: (before the entry's tag, between it and the loc, between fields, before the
# entry's end tag), a newline standing for the file's.
LAYOUTS = {
    "pretty": ("\n  ", "\n    ", "\n    ", "\n  "),
    "tabs": ("\n\t", "\n\t\t", "\n\t\t", "\n\t"),
    "one-line": ("", "", "", ""),
    "line-each": ("\n", "", "", ""),
    "loc-inline": ("\n  ", "", "\n    ", "\n  "),
    "spaced-one-line": (" ", " ", " ", " "),
}
# What an entry may hold instead of its plain values: (field, value).
ODD_VALUES = (
    ("loc", "https://www.example.com/p?a=1&amp;b={i}"),
    ("loc", "https://www.example.com/p?a=1&amp;amp;b={i}"),  # UR017
    ("loc", "https://www.example.com/p?a=1&amp;b=2;c={i}"),
    ("loc", "https://www.example.com/p?a=1&b={i}"),  # a raw "&"
    ("loc", "https://www.example.com/p?a=1&#38;b={i}"),
    ("loc", "https://www.example.com/caf%C3%A9-{i}"),
    ("loc", "https://www.example.com/caf%c3%a9-{i}"),  # lower-case digits
    ("loc", "https://www.example.com/%41-{i}"),  # an unreserved character escaped
    ("loc", "https://www.example.com/café-{i}"),  # UR011
    ("loc", "https://WWW.example.com/{i}"),
    ("loc", "https://www.example.com/#top-{i}"),
    ("loc", "https://www.example.com/" + "a" * 1100 + "{i}"),  # UR012
    ("loc", "http://a.b/{i}"),
    ("loc", "https://www.example.com/a b-{i}"),  # characters no URL holds
    ("loc", "https://www.example.com/a|b-{i}?c=d^e"),
    ("loc", "<![CDATA[https://www.example.com/cdata-{i}]]>"),
    ("loc", " https://www.example.com/spaced-{i} "),
    ("loc", "https://www.example.com/page-0.html"),  # a duplicate of the first
    ("lastmod", "2024-13-01"),
    ("lastmod", "2024-05-01 10:00:00"),  # DT001
    ("lastmod", "2031-01-01"),  # in the future
    ("lastmod", "<![CDATA[2024-05-01]]>"),
    ("lastmod", "2024-05-0{i}"),
    ("changefreq", "Daily"),
    ("changefreq", "<![CDATA[weekly]]>"),
    ("priority", "1.5"),
    ("priority", "0.50"),
    ("priority", "<![CDATA[0.5]]>"),
    ("comment", "<!-- a comment holding <loc> -->"),
    ("comment", "<!-- generated -->"),
    ("layout", ""),
)

GAPS = (
    "<!-- page {i} -->",
    '<!-- page {i} --><?render id="{i}"?>',
    "<!-- <loc>https://www.example.com/section/page-{i}.html</loc> -->",  # its own loc
    "<!--\n  page {i},\n  over lines\n-->",
    '<?render id="{i}"?>\n  <!-- {i} -->',
    "<!-- page {i}{more} -->",  # over more lines now and then
    "<!-- page {i} -->{indent}",  # the entry's tag one column on now and then
)


def uniform_sitemap(
    count: int,
    rng: random.Random,
    odd: float = 0.0,
    layout: str | None = None,
    varying: bool | None = None,
    gaps: bool = False,
) -> str:
    """``count`` entries in one layout (``layout``, or chosen by ``rng``), with the
    fields each writes (the same in each, or ``varying`` from entry to entry), a share
    ``odd`` of them with an odd value or another layout (ODD_VALUES); with ``gaps``, a
    comment or instruction of its own before each entry (GAPS), on lines of its own."""
    name = layout or rng.choice(sorted(LAYOUTS))
    before, inside, between, end = LAYOUTS[name]
    fields = [f for f in ("lastmod", "changefreq", "priority") if rng.random() < 0.7]
    if varying is None:
        varying = rng.random() < 0.3
    entries = []
    for i in range(count):
        if varying:
            fields = [f for f in ("lastmod", "changefreq", "priority") if rng.random() < 0.6]
        values = {
            "loc": f"https://www.example.com/section/page-{i}.html",
            "lastmod": f"2024-05-{i % 28 + 1:02d}T{i % 24:02d}:{i % 60:02d}:00+00:00",
            "changefreq": rng.choice(["daily", "weekly"]),
            "priority": f"0.{i % 10}",
        }
        kind, odd_value = ODD_VALUES[rng.randrange(len(ODD_VALUES))]
        written = fields
        parts = (before, inside, between, end)
        comment = ""
        if i and rng.random() < odd:
            if kind == "layout":
                parts = LAYOUTS[rng.choice(sorted(LAYOUTS))]
            elif kind == "comment":
                comment = odd_value
            else:
                values[kind] = odd_value.format(i=i)
                if kind != "loc" and kind not in written:
                    written = [*fields, kind]
                    written.sort(key=("lastmod", "changefreq", "priority").index)
        head, to_loc, gap, tail = parts
        if gaps and "\n" in head:
            shown = GAPS[i % len(GAPS)].format(i=i, more="\n" * (i % 3), indent="")
            head = f"{head}{shown}{head}"
        body = f"<loc>{values['loc']}</loc>" + "".join(
            f"{gap}<{field}>{values[field]}</{field}>" for field in written
        )
        entries.append(f"{head}<url>{to_loc}{comment}{body}{tail}</url>")
    newline = rng.choice(["\n", "\r\n"])
    text = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">{"".join(entries)}\n</urlset>\n'
    return text.replace("\n", newline)


def compare(
    monkeypatch: pytest.MonkeyPatch, path: Path, block: int | None = None, long_urls: bool = False
) -> tuple[int, int]:
    """Check ``path`` without and with the fast path, windows tried early and small
    (``long_urls``: its locs delimited as in a file of long URLs); assert the same
    findings and facts. (Entries proved, entries the windows took.)"""
    slow, slow_facts, _, _ = _check(monkeypatch, path, "0", block)
    fast, fast_facts, proved, taken = _check(monkeypatch, path, "1", block, long_urls)
    assert fast == slow
    assert fast_facts == slow_facts
    return proved, taken


def same_entries(monkeypatch: pytest.MonkeyPatch, path: Path, long_urls: bool = False) -> None:
    """The fast path's entries of ``path`` (every value it hands over, and its places)
    are the same with windows tried early and small as without any."""
    with_windows = _entries(monkeypatch, path, 1, long_urls)
    assert with_windows == _entries(monkeypatch, path, fastpath.MAX_ENTRIES, long_urls)


def _entries(
    monkeypatch: pytest.MonkeyPatch, path: Path, bulk_from: int, long_urls: bool
) -> list[tuple[Any, ...]]:
    """The proved entries of ``path``, windows tried from entry ``bulk_from`` on."""
    monkeypatch.setenv(fastpath.ENV, "1")
    monkeypatch.setattr(fastpath, "LONG_URL", 0 if long_urls else fastpath.LONG_URL)
    monkeypatch.setattr(fastpath, "SMALL", 0)
    monkeypatch.setattr(fastpath, "_BULK_FROM", bulk_from)
    monkeypatch.setattr(fastpath, "_BULK_AGAIN", 2)
    monkeypatch.setattr(fastpath, "_BULK_SHORT", 2)
    monkeypatch.setattr(fastpath, "_BULK_SHORT_EXTENDED", 2)
    monkeypatch.setattr(bulk, "MIN_ENTRIES", 2)
    monkeypatch.setattr(bulk, "MIN_WINDOW", 64)
    runs: list[fastpath.ProvenRun] = []
    init = fastpath.ProvenRun.__init__

    def recording(self: fastpath.ProvenRun, fast: fastpath.FastPath) -> None:
        init(self, fast)
        runs.append(self)

    monkeypatch.setattr(fastpath.ProvenRun, "__init__", recording)
    try:
        check_source(Source(str(path), path), Options(now=NOW), engine())
    finally:
        monkeypatch.undo()
    return [tuple(entry) for run in runs for entry in run.entries]


def _check(
    monkeypatch: pytest.MonkeyPatch,
    path: Path,
    switch: str,
    block: int | None,
    long_urls: bool = False,
) -> tuple[list[str], Any, int, int]:
    """The findings and facts of ``path`` with the fast path on or off (``switch``),
    the entries it proved and those the windows took."""
    monkeypatch.setenv(fastpath.ENV, switch)
    if long_urls:
        monkeypatch.setattr(fastpath, "LONG_URL", 0)
    monkeypatch.setattr(fastpath, "SMALL", 0)
    monkeypatch.setattr(fastpath, "_BULK_FROM", 1)
    monkeypatch.setattr(fastpath, "_BULK_AGAIN", 2)
    monkeypatch.setattr(fastpath, "_BULK_SHORT", 2)
    monkeypatch.setattr(fastpath, "_BULK_SHORT_EXTENDED", 2)
    monkeypatch.setattr(bulk, "MIN_ENTRIES", 2)
    monkeypatch.setattr(bulk, "MIN_WINDOW", 64)
    if block is not None:
        small_blocks(monkeypatch, block)
    taken = [0]
    original = bulk.Bulk.take

    def take(self: bulk.Bulk, *args: Any) -> Any:
        window = original(self, *args)
        taken[0] += 0 if window is None else len(window.entries)
        return window

    monkeypatch.setattr(bulk.Bulk, "take", take)
    made: list[fastpath.FastPath] = []
    init = fastpath.FastPath.__init__

    def counting(self: fastpath.FastPath, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(fastpath.FastPath, "__init__", counting)
    try:
        result = check_source(Source(str(path), path), Options(now=NOW, collect=True), engine())
    finally:
        monkeypatch.undo()
    findings = [repr(f) for f in result.findings]
    return findings, facts_of(result), sum(f.proved for f in made), taken[0]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("varying", [False, True], ids=["same-fields", "varying-fields"])
@pytest.mark.parametrize("long_urls", [False, True], ids=["short-urls", "long-urls"])
def test_clean_entries_of_each_layout_are_taken_in_windows(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    layout: str,
    newline: str,
    varying: bool,
    long_urls: bool,
) -> None:
    """Entries of one layout, with the same optional fields or not, each on lines of its
    own or all on one line; their locs delimited as in a file of short or long URLs."""
    text = uniform_sitemap(300, random.Random(layout), layout=layout, varying=varying)
    path = tmp_path / "sitemap.xml"
    path.write_text(text.replace("\r\n", "\n").replace("\n", newline), encoding="utf-8")
    proved, taken = compare(monkeypatch, path, long_urls=long_urls)
    same_entries(monkeypatch, path, long_urls)
    assert proved == 300
    assert taken >= 250


@pytest.mark.parametrize("seed", range(60))
def test_odd_entries_are_left_to_the_loop(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    path = tmp_path / "sitemap.xml"
    path.write_text(
        uniform_sitemap(
            rng.randrange(20, 400), rng, rng.choice([0.01, 0.05, 0.2]), gaps=seed % 4 == 1
        ),
        encoding="utf-8",
    )
    compare(monkeypatch, path, rng.choice([None, 97, 500, 4096]), long_urls=seed % 3 == 0)
    same_entries(monkeypatch, path, seed % 3 == 0)


@pytest.mark.parametrize("long_urls", [False, True], ids=["short-urls", "long-urls"])
@pytest.mark.parametrize(("field", "value"), ODD_VALUES)
def test_each_odd_value_among_clean_entries(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, field: str, value: str, long_urls: bool
) -> None:
    rng = random.Random(7)
    text = uniform_sitemap(120, rng)
    entries = text.split("</url>")
    for at in (3, 40, 41, 100):
        if field == "comment":
            entries[at] = entries[at].replace("<loc>", value + "<loc>")
        elif field == "layout":
            entries[at] = entries[at].replace("<loc>", "\n\n <loc>")
        elif f"<{field}>" in entries[at]:
            start = entries[at].index(f"<{field}>") + len(field) + 2
            stop = entries[at].index(f"</{field}>")
            entries[at] = entries[at][:start] + value.format(i=at) + entries[at][stop:]
    path = tmp_path / "sitemap.xml"
    path.write_text("</url>".join(entries), encoding="utf-8")
    _proved, taken = compare(monkeypatch, path, long_urls=long_urls)
    same_entries(monkeypatch, path, long_urls)
    # (A file whose locs may have white space around them is read entry by entry: the
    # text " https:" or "<loc> " among its first entries says so.)
    if not value.startswith(" ") and "<loc>" not in value:
        assert taken >= 60  # the clean stretches between them


@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("layout", ["pretty", "tabs", "line-each"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_entries_after_comments_and_instructions_are_taken_in_windows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, gap: str, layout: str, newline: str
) -> None:
    """A comment or instruction of its own before each entry (one that holds the
    entry's loc too), on lines of its own: the windows take the entries after them."""
    rng = random.Random(gap)
    text = uniform_sitemap(200, rng, layout=layout, varying=rng.random() < 0.5)
    before = LAYOUTS[layout][0]
    more, indent = ("", "\n", "\n\n more\n"), ("", " ")
    entries = text.split(f"{before}<url>")
    text = entries[0] + "".join(
        f"{before}{gap.format(i=i, more=more[i % 3], indent='')}{before}"
        f"{indent[i % 7 == 3] if '{indent}' in gap else ''}<url>{entry}"
        for i, entry in enumerate(entries[1:])
    )
    path = tmp_path / "sitemap.xml"
    path.write_text(text.replace("\r\n", "\n").replace("\n", newline), encoding="utf-8")
    proved, taken = compare(monkeypatch, path)
    same_entries(monkeypatch, path)
    assert proved == 200
    assert taken >= (100 if "{indent}" in gap else 150)  # (a window ends at each moved tag)


def test_an_entry_on_the_line_of_the_one_before_ends_a_window_after_comments(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Entries each after a comment on a line of its own, but every fifth on the line of
    the entry before it, indented as the others are (its tag at their column)."""
    entries = "".join(
        ("  " if i % 5 == 4 else f"\n  <!-- page {i} -->\n  ")
        + f"<url>\n    <loc>https://www.example.com/page-{i}.html</loc>\n  </url>"
        for i in range(150)
    )
    path = tmp_path / "sitemap.xml"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">{entries}\n</urlset>\n',
        encoding="utf-8",
    )
    _proved, taken = compare(monkeypatch, path)
    same_entries(monkeypatch, path)
    assert taken >= 40  # (the windows between them)


@pytest.mark.parametrize("name", ["news", "image", "xhtml-link", "video"])
def test_windows_stop_at_each_entry_with_extension_elements(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    """In a file with extension namespaces, the windows take the plain entries between
    those with extension elements (news: one in 50; the others: one in 10)."""
    extended = shapes.text(shapes.SHAPES[name], 160).split("</url>")
    if name != "news":  # every tenth entry of the shape, the others plain
        plain = shapes.text(shapes.SHAPES["pretty"], 160).split("</url>")
        extended[1:-1] = [plain[i] if i % 3 else extended[i] for i in range(1, len(extended) - 1)]
    path = tmp_path / "sitemap.xml"
    path.write_text("</url>".join(extended), encoding="utf-8")
    proved, taken = compare(monkeypatch, path)
    same_entries(monkeypatch, path)
    assert proved >= 150
    assert taken >= 60


@pytest.mark.parametrize("inside", ["<!-- <loc>https://www.example.com/a</loc> -->", "<?x <loc>?>"])
def test_a_comment_holding_a_loc_tag_in_each_entry_is_not_taken_for_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, inside: str
) -> None:
    """A comment or instruction between each entry's tag and its loc, the same in each,
    holding "<loc>": each entry's loc is the one after it."""
    entries = "".join(
        f"\n  <!-- page {i} -->\n  <url>\n    {inside}\n"
        f"    <loc>https://www.example.com/page-{i}.html</loc>\n  </url>"
        for i in range(120)
    )
    path = tmp_path / "sitemap.xml"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">{entries}\n</urlset>\n',
        encoding="utf-8",
    )
    compare(monkeypatch, path)
    same_entries(monkeypatch, path)


@pytest.mark.parametrize(
    "loc",
    [
        "https://www.example.com/p?a=1&amp;b={i}",
        "https://www.example.com/p?a=1&#38;b={i}&#x26;c=2",
        "https://www.example.com/men&apos;s-{i}?a=1&amp;b=2",
        "https://www.example.com/p?a=1&amp;b=&#59;{i}",  # a ";" read from a reference
    ],
)
@pytest.mark.parametrize("long_urls", [False, True], ids=["short-urls", "long-urls"])
def test_references_in_every_entry(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, loc: str, long_urls: bool
) -> None:
    entries = "".join(
        f"\n  <url>\n    <loc>{loc.format(i=i)}</loc>\n"
        f"    <lastmod>2024-05-01T10&#58;{i % 60:02d}:00Z</lastmod>\n"
        "    <changefreq>d&#x61;ily</changefreq>\n  </url>"
        for i in range(200)
    )
    path = tmp_path / "sitemap.xml"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">{entries}\n</urlset>\n',
        encoding="utf-8",
    )
    proved, taken = compare(monkeypatch, path, long_urls=long_urls)
    same_entries(monkeypatch, path, long_urls)
    assert proved == 200
    if "&#59;" not in loc:  # (a ";" beside an "&" in a read loc: the loop looks at it)
        assert taken >= 150


@pytest.mark.parametrize("plain", [0, 20_000], ids=["dense", "sparse"])
@settings(max_examples=300, deadline=None)
@given(
    locs=st.lists(
        st.lists(
            st.one_of(
                st.sampled_from(["a", "/", "=", ";", "amp", "38", "x26", "61", "#", "#38;"]),
                st.sampled_from(_NAMED).map(lambda name: f"&{name};"),
                st.sampled_from([33, 38, 39, 59, 61, 65]).map(lambda code: f"&#{code};"),
                st.sampled_from([0x26, 0x3B, 0x41]).map(lambda code: f"&#x{code:x};"),
                st.just("&"),
            ),
            max_size=8,
        ),
        min_size=1,
        max_size=4,
    )
)
@example(locs=[["&#38;", "#x26;", "&#x26;"]])  # an "&" read, then a name after it
@example(locs=[["&#38;", "#61;"], ["&#61;"]])
@example(locs=[["&amp;", "#38;", "&#38;", "amp;"]])
def test_references_read_at_once_as_one_at_a_time(locs: list[list[str]], plain: int) -> None:
    """A window's references, read over all its locs at once, read each loc as
    ``fastpath._read_references`` reads it alone: references dense in the text (read
    one kind at a time) or sparse (``plain`` characters of a loc without any: read in
    one pass)."""
    texts = ["".join(pieces) for pieces in locs] + ["/" * plain]
    joined = "\n".join(texts)
    found = bulk.references_in(fastpath._REFERENCE_NAME_TEXT)(joined)
    read = bulk.reference_reader(found, fastpath._cached_character, len(joined))
    alone = [fastpath._read_references(text) for text in texts]
    if read is None:
        # A raw "&", or a reference to a character no path holds: some loc says so.
        assert any(read is None or not read[1] for read in alone)
        return
    joined = read(joined)
    assert all(read is not None and read[1] for read in alone)
    assert joined.split("\n") == [read[0] for read in alone if read is not None]
