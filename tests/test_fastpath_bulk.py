"""Windows of entries proved at once (fastpath/bulk.py) make the loop's entries.

Each input is checked without the fast path and with it, the windows tried from the
first entries on and cut small, so that they start, stop and fail everywhere: the
findings (places and fixes included) and the set facts (every URL's place) must be the
same. The inputs are sitemaps of one layout (as generators write them) with a defect or
an odd value here and there, which the windows must leave to the loop.
"""

from __future__ import annotations

import random
import re
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
from tests.test_fastpath_news import DEFECTS as NEWS_DEFECTS
from tests.test_fastpath_news import IMAGE, NEWS_NS, news_block, news_children, news_head

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
    ("loc", "https://www.example.com:443/{i}"),  # UR018: a default port, ...
    ("loc", "https://www.example.com/a/./{i}"),  # dot segments,
    ("loc", "https://www.example.com/a/{i}/.."),
    ("loc", "https://www.example.com?page={i}"),  # no path
    ("loc", "https://www.example.com/.well-known/{i}"),  # (no dot segment: clean)
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
    monkeypatch: pytest.MonkeyPatch,
    path: Path,
    block: int | None = None,
    long_urls: bool = False,
    window: int = 64,
) -> tuple[int, int]:
    """Check ``path`` without and with the fast path, windows tried early and small
    (``window`` characters at least; ``long_urls``: its locs delimited as in a file of
    long URLs); assert the same findings and facts. (Entries proved, entries the
    windows took.)"""
    slow, slow_facts, _, _ = _check(monkeypatch, path, "0", block)
    fast, fast_facts, proved, taken = _check(monkeypatch, path, "1", block, long_urls, window)
    assert fast == slow
    assert fast_facts == slow_facts
    return proved, taken


def same_entries(monkeypatch: pytest.MonkeyPatch, path: Path, long_urls: bool = False) -> None:
    """The fast path's entries of ``path`` (every value it hands over, and its places;
    the values it reports in place, and their places; the parts of a loc outside
    ASCII) are the same with windows tried early and small as without any."""
    with_windows = _entries(monkeypatch, path, 1, long_urls)
    assert with_windows == _entries(monkeypatch, path, fastpath.MAX_ENTRIES, long_urls)


def _entries(
    monkeypatch: pytest.MonkeyPatch, path: Path, bulk_from: int, long_urls: bool
) -> list[tuple[Any, ...]]:
    """The proved entries of ``path``, each with its values reported in place and the
    parts of its loc outside ASCII (None: none), windows tried from entry ``bulk_from``
    on."""
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
    return [
        (
            *entry,
            (run.values or {}).get(number),
            _groups((run.iris or {}).get(number)),
            (run.news or {}).get(number),
            (run.deprecated or {}).get(number),
        )
        for run in runs
        for number, entry in enumerate(run.entries)
    ]


def _groups(parts: re.Match[str] | None) -> tuple[Any, ...] | None:
    return None if parts is None else (parts.string, parts.span(), parts.groups())


def _check(
    monkeypatch: pytest.MonkeyPatch,
    path: Path,
    switch: str,
    block: int | None,
    long_urls: bool = False,
    window: int = 64,
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
    monkeypatch.setattr(bulk, "MIN_WINDOW", window)
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


# Values their checks report (each entry is proved with those findings): the date
# rules' DT001 (a space for "T"), DT002 (no zone), a changefreq in capitals, a priority
# written with two decimals.
REPORTED = {
    "lastmod": ("2024-05-{day:02d} 10:00:00", "2024-05-{day:02d}T10:00:00"),
    "changefreq": ("Daily", "WEEKLY"),
    "priority": ("0.50", "1.0"),
}


def reported_sitemap(
    path: Path,
    layout: str,
    fields: tuple[str, ...],
    every: int,
    rng: random.Random,
    gaps: str = "",
    inside: str = "",
    mixed: bool = False,
) -> None:
    """200 entries with a lastmod, a changefreq and a priority each, in ``layout``;
    in every ``every``-th entry the values of ``fields`` are ones their checks report
    (REPORTED). ``gaps``: a comment or instruction of its own before each entry (a
    template of GAPS', "GAPS": each of them in turn, "SOME": the first before each
    entry but every fourth); ``inside``: a comment or
    instruction after the loc and after the lastmod of every fifth entry; ``mixed``:
    the fields after the loc on its line in some entries, on lines of their own in the
    others."""
    head, to_loc, gap, tail = LAYOUTS[layout]
    entries = []
    for i in range(200):
        values = {
            "lastmod": f"2024-05-{i % 28 + 1:02d}T10:00:00+00:00",
            "changefreq": "daily",
            "priority": "0.5",
        }
        if i % every == 0:
            for field in fields:
                values[field] = rng.choice(REPORTED[field]).format(day=i % 28 + 1)
        between = rng.choice(["", " ", gap]) if mixed else gap
        note = inside if i % 5 == 2 else ""
        body = "".join(
            f"{between}<{field}>{value}</{field}>{note if field == 'lastmod' else ''}"
            for field, value in values.items()
        )
        before = head
        if gaps and "\n" in head and not (gaps == "SOME" and i % 4 == 0):
            template = {"GAPS": GAPS[i % len(GAPS)], "SOME": GAPS[0]}.get(gaps, gaps)
            shown = template.format(i=i, more="\n" * (i % 3), indent="")
            before = f"{head}{shown}{head}"
        entries.append(
            f"{before}<url>{to_loc}<loc>https://www.example.com/p-{i}.html</loc>{note}{body}"
            f"{tail}</url>"
        )
    path.write_text(f'<?xml version="1.0"?>\n<urlset xmlns="{NS}">{"".join(entries)}\n</urlset>\n')


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize(
    "fields",
    [("lastmod",), ("changefreq",), ("priority",), ("lastmod", "priority"), tuple(REPORTED)],
    ids="+".join,
)
@pytest.mark.parametrize("every", [1, 3], ids=["every-entry", "every-third"])
def test_entries_whose_values_are_reported_are_taken_in_windows(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    layout: str,
    fields: tuple[str, ...],
    every: int,
) -> None:
    """An entry whose lastmod, changefreq or priority its check reports is proved with
    those findings, in a window as by the loop: the same findings, and the same values
    reported in place at the same places."""
    path = tmp_path / "sitemap.xml"
    reported_sitemap(path, layout, fields, every, random.Random(f"{layout}{fields}{every}"))
    proved, taken = compare(monkeypatch, path)
    same_entries(monkeypatch, path)
    assert proved == 200
    assert taken >= 150


@pytest.mark.parametrize("layout", ["pretty", "tabs", "line-each", "loc-inline"])
@pytest.mark.parametrize(
    ("gaps", "inside", "mixed"),
    [
        ("GAPS", "", False),
        ("SOME", "", False),
        ("SOME", "", True),
        ('<?render id="{i}"?>', "", False),
        ("<!-- page {i} -->", "", False),
        ("", "<!-- <lastmod>2024-01-01</lastmod><priority>1.0</priority> -->", False),
        ("", "<!-- <changefreq>never</changefreq> -->", False),
        ("", '<?render id="1"?>', False),
        ("", "", True),
        ("GAPS", "<!-- a note -->", True),
    ],
    ids=[
        "gaps",
        "some-gaps",
        "some-gaps-mixed",
        "instructions-before",
        "comments-before",
        "tags-in-comments",
        "changefreq-in-comments",
        "instructions",
        "mixed",
        "all",
    ],
)
def test_reported_values_beside_comments_and_layouts(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    layout: str,
    gaps: str,
    inside: str,
    mixed: bool,
) -> None:
    """Entries whose values are reported each after a comment or instruction of its
    own, with one inside (some holding the fields' tags), or with their fields on the
    loc's line in some entries: the places of the reported values are those the loop
    gives, or the loop takes those entries."""
    path = tmp_path / "sitemap.xml"
    for every in (1, 2, 4):
        rng = random.Random(f"{layout}{gaps}{inside}{mixed}{every}")
        reported_sitemap(path, layout, tuple(REPORTED), every, rng, gaps, inside, mixed)
        compare(monkeypatch, path)
        same_entries(monkeypatch, path)


IRIS = (
    "https://www.example.com/café-{i}.html",
    "https://www.example.com/каталог/товар-{i}",
    "https://www.example.com/p?q=ü&amp;n={i}",  # a reference: the loop takes it
    "https://www.example.com/%C3%A9/é-{i}",
    "https://www.example.com/%c3%a9/é-{i}",  # lower-case digits
    "https://www.example.com/é#top-{i}",  # a fragment
    "https://exämple.com/{i}",  # outside ASCII in the host
    "https://www.example.com/\u00a0{i}",
    "https://WWW.example.com/é-{i}",
    "https://www.example.com/caf&#233;-{i}",  # read from a reference: the loop takes it
)


@pytest.mark.parametrize("layout", ["pretty", "one-line", "line-each"])
@pytest.mark.parametrize("every", [1, 3], ids=["every-entry", "every-third"])
@pytest.mark.parametrize("long_urls", [False, True], ids=["short-urls", "long-urls"])
def test_locs_outside_ascii_are_taken_in_windows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, layout: str, every: int, long_urls: bool
) -> None:
    """A loc outside ASCII that the URL rules report once (UR011) is taken in a window
    as by the loop, its parts with it; others (a reference, a fragment, a host outside
    ASCII, escapes not in normal form) are left to the loop. Every ninth entry is laid
    out otherwise (a window's places stop before it)."""
    rng = random.Random(f"{layout}{every}{long_urls}")
    head, to_loc, gap, tail = LAYOUTS[layout]
    entries = []
    for i in range(200):
        loc = f"https://www.example.com/p-{i}.html"
        if i % every == 0:
            loc = (IRIS[0] if rng.random() < 0.8 else rng.choice(IRIS)).format(i=i)
        body = f"{gap}<lastmod>2024-05-{i % 28 + 1:02d}</lastmod>"
        inside = "\n\n " if i % 9 == 4 else to_loc
        entries.append(f"{head}<url>{inside}<loc>{loc}</loc>{body}{tail}</url>")
    path = tmp_path / "sitemap.xml"
    text = f'<?xml version="1.0"?>\n<urlset xmlns="{NS}">{"".join(entries)}\n</urlset>\n'
    path.write_text(text, encoding="utf-8")
    _proved, taken = compare(monkeypatch, path, long_urls=long_urls)
    same_entries(monkeypatch, path, long_urls)
    if not long_urls:
        assert taken >= 40


@pytest.mark.parametrize(
    ("field", "left"),
    [
        ("changefreq", "<![CDATA[daily]]>"),
        ("changefreq", "Daily"),
        ("lastmod", "1969-&#49;2-31"),
        ("lastmod", "2024-05-01 10:00"),
    ],
)
def test_windows_from_an_entry_left_to_the_loop_among_reported_values(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, field: str, left: str
) -> None:
    """Pairs of entries left to the loop or reported (a changefreq in CDATA, a lastmod
    with a reference) among entries whose lastmods are reported, a comment before every
    seventh entry: windows from any of them."""
    entries = []
    for i in range(120):
        values = {"lastmod": f"2024-05-{i % 28 + 1:02d} 10:00", "changefreq": "daily"}
        if i % 10 in (5, 6):
            values[field] = left
        body = "".join(f"\n    <{name}>{value}</{name}>" for name, value in values.items())
        comment = "<!-- x -->" if i % 7 == 0 else ""
        entries.append(
            f"\n  {comment}<url>\n    <loc>https://www.example.com/p-{i}.html</loc>{body}\n  </url>"
        )
    path = tmp_path / "sitemap.xml"
    path.write_text(f'<?xml version="1.0"?>\n<urlset xmlns="{NS}">{"".join(entries)}\n</urlset>\n')
    compare(monkeypatch, path)
    same_entries(monkeypatch, path)


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
def test_windows_take_entries_with_extension_elements(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    """In a file with extension namespaces, the windows take the entries with
    extension elements and the plain ones between them (news: one in 50; the others:
    one in 3)."""
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
        "https://www.example.com/salt&amp;pepper/p-{i}?a=1&amp;b=2",  # "&amp;" in the path
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


def news_windows_sitemap(layout: str, odd: float, seed: int, gaps: bool = False) -> str:
    """Entries in one layout, a news:news in one of three (of the prefix ``n`` in some
    files), a share ``odd`` of them with a defect in a child, an image beside it, or a
    comment or instruction before it; with ``gaps``, a comment or instruction of its
    own before each entry (GAPS)."""
    rng = random.Random(seed)
    prefix = rng.choice(["news", "n"])
    before, inside, between, end = LAYOUTS[layout]
    entries = []
    for i in range(150):
        fields = [
            f"<loc>https://www.example.com/news/article-{i}</loc>",
            f"<lastmod>2025-05-{i % 28 + 1:02d}</lastmod>",
        ]
        if i % 3 == 1:
            children = news_children(i)
            items = ["{news}"]
            if rng.random() < odd:
                kind = rng.randrange(4)
                if kind == 0:
                    name, written = rng.choice(NEWS_DEFECTS)
                    children[name] = written
                elif kind == 1:
                    items.insert(rng.randrange(2), IMAGE.format(i=i))
                else:
                    items.insert(rng.randrange(2), "<!-- news -->" if kind == 2 else "<?pi?>")
            news = news_block(children, between).replace("N:", f"{prefix}:")
            fields.append(between.join(items).format(news=news))
        head = before
        if gaps:
            head = f"{before}{GAPS[i % len(GAPS)].format(i=i, more='', indent='')}{before}"
        entries.append(f"{head}<url>{inside}{between.join(fields)}{end}</url>")
    image = "http://www.google.com/schemas/sitemap-image/1.1"
    head = news_head(prefix).replace(f'="{NEWS_NS}">', f'="{NEWS_NS}" xmlns:image="{image}">')
    return head + "".join(entries) + "\n</urlset>\n"


@pytest.mark.parametrize(
    "layout", ["pretty", "one-line", "tabs", "spaced-one-line", "pretty-gaps", "tabs-gaps"]
)
@pytest.mark.parametrize("odd", [0.0, 0.2], ids=["clean", "odd"])
@pytest.mark.parametrize("seed", [1, 2])
def test_entries_with_a_news_element_are_taken_in_windows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, layout: str, odd: float, seed: int
) -> None:
    """An entry with a proved news:news (an image, a comment or an instruction beside
    it or not) is taken in a window, with the places of its news:news and news:name
    start tags; one with a defect in the news:news ends the window (the loop takes it),
    as does each one after a comment of its own (its places are the loop's to count)."""
    name = layout.removesuffix("-gaps")
    path = tmp_path / "sitemap.xml"
    path.write_text(news_windows_sitemap(name, odd, seed, layout != name), encoding="utf-8")
    news_taken = [0]
    original = bulk.Bulk.take

    def take(self: bulk.Bulk, *args: Any) -> Any:
        window = original(self, *args)
        news_taken[0] += len(window.news or ()) if window is not None else 0
        return window

    compare(monkeypatch, path)
    monkeypatch.setattr(bulk.Bulk, "take", take)  # (counting the run with windows)
    same_entries(monkeypatch, path)
    if layout == name:
        assert news_taken[0] >= (20 if odd else 45)  # (of 50)


EXTENDED_HEAD = (
    f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}"'
    ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
    ' xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
    f' xmlns:news="{NEWS_NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml">'
)


def extended_sitemap(layout: str, seed: int) -> str:
    """Entries in one layout with extension elements of every kind, alone or together,
    clean or not: images (some with a caption, deprecated), videos (some with a
    defect), a news:news, hreflang alternates, and plain entries between them."""
    rng = random.Random(seed)
    before, inside, between, end = LAYOUTS[layout]
    entries = []
    for i in range(150):
        page = f"https://www.example.com/p/{i}"
        items = []
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            kind = rng.choice(["image", "video", "news", "link"] * 4 + ["caption", "bad-video"])
            if kind == "image":
                items.append(IMAGE.format(i=f"{i}-{len(items)}"))
            elif kind == "caption":
                items.append(
                    f"<image:image><image:loc>https://cdn.example.com/{i}.png</image:loc>"
                    "<image:caption>A caption</image:caption></image:image>"
                )
            elif kind in ("video", "bad-video"):
                thumbnail = f"https://cdn.example.com/v{i}.jpg"
                content = page if kind == "bad-video" else f"https://cdn.example.com/v{i}.mp4"
                items.append(
                    f"<video:video><video:thumbnail_loc>{thumbnail}</video:thumbnail_loc>"
                    f"<video:title>Part {i}</video:title>"
                    "<video:description>Three chords.</video:description>"
                    f"<video:content_loc>{content}</video:content_loc></video:video>"
                )
            elif kind == "news":
                items.append(news_block(news_children(i), "").replace("N:", "news:"))
            else:
                items.append(f'<xhtml:link rel="alternate" hreflang="en" href="{page}"/>')
        fields = [f"<loc>{page}</loc>", *items]
        entries.append(f"{before}<url>{inside}{between.join(fields)}{end}</url>")
    return EXTENDED_HEAD + "".join(entries) + "\n</urlset>\n"


@pytest.mark.parametrize("layout", ["pretty", "one-line", "tabs", "loc-inline"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_entries_with_extension_elements_of_every_kind_in_windows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, layout: str, seed: int
) -> None:
    """The windows take the entries whose extension elements are proved (images, some
    with deprecated children, videos, news, alternates, and several together), with
    their facts and places as the loop makes them; a video with a defect ends a window."""
    path = tmp_path / "sitemap.xml"
    path.write_text(extended_sitemap(layout, seed), encoding="utf-8")
    extended = [0]
    original = bulk.Bulk.take

    def take(self: bulk.Bulk, *args: Any) -> Any:
        window = original(self, *args)
        if window is not None:
            extended[0] += sum(entry[7] is not None for entry in window.entries)
        return window

    compare(monkeypatch, path)
    monkeypatch.setattr(bulk.Bulk, "take", take)  # (counting the run with windows)
    same_entries(monkeypatch, path)
    assert extended[0] >= 15  # (of about 90, the windows stopping at the others)


@pytest.mark.parametrize("long_urls", [False, True], ids=["short-urls", "long-urls"])
@pytest.mark.parametrize(
    "loc",
    [
        "https://www.example.com/watch/pag&e-{i}",  # a raw "&": no URL is read
        "https://www.example.com/watch/page-{i}#t",
        "https://WWW.example.com/watch/page-{i}",
        "http://a.b/{i}",
    ],
)
def test_the_extension_elements_of_an_entry_whose_loc_is_not_proved(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, loc: str, long_urls: bool
) -> None:
    """A window proves an entry's extension elements only where its loc is proved, as
    the loop does: their proofs read the loc."""
    entries = []
    for i in range(60):
        page = (loc if i % 7 == 3 else "https://www.example.com/watch/page-{i}").format(i=i)
        entries.append(
            f"\n  <url>\n    <loc>{page}</loc>\n    <video:video>"
            f"<video:thumbnail_loc>https://cdn.example.com/v{i}.jpg</video:thumbnail_loc>"
            f"<video:title>Part {i}</video:title><video:description>Chords.</video:description>"
            f"<video:content_loc>https://cdn.example.com/v{i}.mp4</video:content_loc>"
            '<video:uploader info="https://www.example.com/users/grill">Grill</video:uploader>'
            "</video:video>\n  </url>"
        )
    path = tmp_path / "sitemap.xml"
    path.write_text(EXTENDED_HEAD + "".join(entries) + "\n</urlset>\n", encoding="utf-8")
    compare(monkeypatch, path, long_urls=long_urls)
    same_entries(monkeypatch, path, long_urls)


# Found by the fast-path fuzz (seed 962): entries of both layouts, one loc with a line
# break before its end tag, one with a character reference.
_MIXED_ENTRIES = """
  <url>
    <loc>https://www.example.com/section/page-65.html</loc>
    <changefreq>dialy</changefreq>
  </url>
  <url><loc>https://www.example.com/section/page-66.html</loc><changefreq>daily</changefreq></url>
  <url>
    <loc>https://www.exa&#109;ple.com/section/page-67.html</loc>
    <priority>0&#46;5</priority>
  </url>
  <url>
    <loc>https://www.example.com/section/page-68.html</loc>
    <priority>1e-1</priority>
  </url>
  <url><loc>https://www.example.com/section/page-69.html</loc><priority>0.9</priority></url>
  <url><loc>https://www.example.com/section/page-79.html</loc><changefreq>never</changefreq></url>
  <url><loc><![CDATA[https://www.example.com/section/page-80.html]]></loc></url>
  <url>
    <loc>https://www.example.com/section/page-81.html</loc>
    <priority>0.1</priority>
  </url>
  <url><loc>https://www.example.com/section/page-82.html{newline} </loc><priority>5</priority></url>
  <url>
    <loc>https://www.example.com/section/&#112;age-83.html</loc>
    <priority>&amp;.0</priority>
  </url>
"""


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("long_urls", [False, True], ids=["short-urls", "long-urls"])
def test_a_loc_with_a_line_break_in_a_window_whose_locs_hold_references(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, newline: str, long_urls: bool
) -> None:
    """In a file of long URLs a loc's group runs to its end tag, white space included: a
    line break before ``</loc>`` (UR005) stays in that loc while a window reads the
    references of the others at once."""
    path = tmp_path / "sitemap.xml"
    entries = _MIXED_ENTRIES.replace("{newline}", newline)
    path.write_bytes(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">{entries}</urlset>\n'.encode()
    )
    for window in (64, 4096):
        compare(monkeypatch, path, long_urls=long_urls, window=window)
    same_entries(monkeypatch, path, long_urls)
