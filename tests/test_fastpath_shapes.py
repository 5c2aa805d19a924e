"""The fast path on every valid shape of a sitemap: same reports with and without it.

Each case writes small generated sitemaps of one shape (pretty-printed or on one line,
LF or CR LF, tabs, comments and processing instructions between and inside entries,
...), clean and with findings in entries and syntax errors after the runs (on the
same line, on a one-line file), and compares the full findings and set facts with
``SITEMAP_LINT_FAST_PATH=0`` (``check_both``), over blocks of several sizes. The clean
files also assert that entries were proved, so that a shape the fast path stopped
taking fails here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from tests.test_fastpath import NS, assert_same_json, check_both, write


@dataclass(frozen=True)
class Shape:
    """How a generated sitemap is written."""

    layout: str = "pretty"  # pretty, line (an entry a line), oneline
    newline: str = "\n"
    indent: str = "  "
    between: str = ""  # written before each entry (a comment, an instruction)
    inside: str = ""  # written between an entry's fields
    root: str = f'<urlset xmlns="{NS}">'
    close: str = "</urlset>"
    prefix: str = ""  # the sitemap namespace's prefix on the entries' elements


def entry(i: int, shape: Shape, loc: str | None = None, rng: random.Random | None = None) -> str:
    p = shape.prefix
    loc = loc or f"https://www.example.com/section/page-{i}.html"
    fields = [f"<{p}loc>{loc}</{p}loc>"]
    if rng is None or rng.random() < 0.8:
        fields.append(f"<{p}lastmod>2024-05-{i % 28 + 1:02d}</{p}lastmod>")
    if rng is None or rng.random() < 0.5:
        fields.append(f"<{p}changefreq>weekly</{p}changefreq>")
    if rng is None or rng.random() < 0.5:
        fields.append(f"<{p}priority>0.{i % 10}</{p}priority>")
    inside = shape.inside.replace("#", str(i))
    if shape.layout == "pretty":
        nl, indent = shape.newline, shape.indent
        joined = f"{nl}{indent * 2}{inside}".join(fields)
        return f"{indent}<{p}url>{nl}{indent * 2}{joined}{nl}{indent}</{p}url>{nl}"
    return f"<{p}url>{inside.join(fields)}</{p}url>"


def sitemap(entries: list[str], shape: Shape) -> str:
    nl = shape.newline
    between = shape.between
    if shape.layout == "pretty":
        body = "".join(f"{shape.indent}{between}{nl}{e}" if between else e for e in entries)
    elif shape.layout == "line":
        body = "".join(f"{shape.indent}{between}{e}{nl}" for e in entries)
    else:
        body = "".join(f"{between}{e}" for e in entries)
    head = f'<?xml version="1.0" encoding="UTF-8"?>{nl}{shape.root}'
    if shape.layout != "oneline":
        head += nl
    return f"{head}{body}{shape.close}{nl}"


def entries_of(count: int, shape: Shape, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [entry(i, shape, rng=rng) for i in range(count)]


SHAPES = {
    "pretty": Shape(),
    "pretty-crlf": Shape(newline="\r\n"),
    "pretty-tabs": Shape(indent="\t"),
    "line": Shape(layout="line"),
    "oneline": Shape(layout="oneline"),
    "oneline-crlf": Shape(layout="oneline", newline="\r\n"),
    "comment-between": Shape(between="<!-- entry -->"),
    "comment-between-oneline": Shape(layout="oneline", between="<!-- entry -->"),
    "comment-inside": Shape(inside="<!-- field of # -->"),
    "pi-between": Shape(between='<?generator page="1" ?>'),
    "pi-inside": Shape(layout="line", inside="<?pi?>"),
    "pi-inside-oneline": Shape(layout="oneline", inside=" <?x-y a?> "),
}

# What is planted in some entries: findings the rules make, and syntax errors after
# which the parser recovers (or stops).
PLANTED = {
    "bad-lastmod": lambda e: (
        e.replace("<lastmod>2024", "<lastmod>2024-13-01<x/>", 1)
        if "<lastmod>" in e
        else e.replace("</loc>", "</loc><lastmod>2024-13-01</lastmod>", 1)
    ),
    "priority": lambda e: (
        e.replace("</loc>", "</loc><priority>1.5</priority>", 1) if "<priority>" not in e else e
    ),
    "duplicate": lambda e: e.replace("page-", "page-1", 1).replace("page-1", "page-", 1),
    "raw-amp": lambda e: e.replace(".html<", ".html?a=1&b=2<", 1),
    "entity": lambda e: e.replace(".html<", ".html&nbsp;<", 1),
    "raw-lt": lambda e: e.replace("<loc>", "<loc><", 1),
    "no-end-tag": lambda e: e.replace("</loc>", "", 1),
    "stray-text": lambda e: e + "stray",
    "suppression": lambda e: "<!-- sitemap-lint: disable DU001 -->" + e,
    "xml-pi": lambda e: "<?xml version='1.0'?>" + e,
    "pi-colon": lambda e: "<?a:b c?>" + e,
    "comment-dashes": lambda e: "<!-- a -- b -->" + e,
}


@pytest.mark.parametrize(("window", "minimum"), [(None, 55), (97, 0), (300, 1), (2048, 20)])
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_clean_shapes_are_proved(monkeypatch, tmp_path, name, window, minimum):
    shape = SHAPES[name]
    text = sitemap(entries_of(60, shape, 1), shape)
    outcome = check_both(monkeypatch, write(tmp_path, text), window)
    assert outcome.findings == []
    assert outcome.proved >= minimum


@pytest.mark.parametrize("window", [None, 160, 1000])
@pytest.mark.parametrize("planted", sorted(PLANTED))
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shapes_with_findings_and_syntax_errors(monkeypatch, tmp_path, name, planted, window):
    shape = SHAPES[name]
    entries = entries_of(40, shape, 2)
    plant = PLANTED[planted]
    for at in (5, 6, 23, 38):
        entries[at] = plant(entries[at])
    entries[30] = entry(4, shape)  # a duplicate after the planted entries
    check_both(monkeypatch, write(tmp_path, sitemap(entries, shape)), window)


@pytest.mark.parametrize("name", ["oneline", "line", "comment-between-oneline"])
def test_json_reports_of_shapes_with_syntax_errors(monkeypatch, tmp_path, name):
    """The JSON report (fixes, excerpts read again from the file) is the same bytes."""
    shape = SHAPES[name]
    entries = entries_of(50, shape, 3)
    entries[20] = PLANTED["raw-lt"](entries[20])
    entries[35] = PLANTED["entity"](entries[35])
    entries[40] = entry(7, shape)
    assert_same_json(monkeypatch, write(tmp_path, sitemap(entries, shape)))


def test_a_syntax_error_quotes_its_line_as_the_file_has_it(monkeypatch, tmp_path):
    """On one line, the runs around a syntax error are blanked in the text the parser
    reads; the error's message quotes the line as written (checked with check_both),
    and the entries around it are still proved."""
    shape = SHAPES["oneline"]
    entries = entries_of(80, shape, 4)
    entries[40] = entries[40].replace("</loc>", "</loc><lastmod>2024-01-01</lastmod x>", 1)
    outcome = check_both(monkeypatch, write(tmp_path, sitemap(entries, shape)))
    assert outcome.proved >= 70
    assert any(f.code.startswith("XM") for f in outcome.findings)


# -- references and CDATA in a loc ---------------------------------------------------

REFERRED_SHAPES = {
    "amp": Shape(),
    "amp-oneline": Shape(layout="oneline"),
    "cdata": Shape(),
    "cdata-oneline-crlf": Shape(layout="oneline", newline="\r\n"),
}


def referred_loc(i: int, name: str) -> str:
    if name.startswith("amp"):
        return f"https://www.example.com/p/{i}?a={i}&amp;b=2&#38;c=&#x26;d"
    return f"<![CDATA[https://www.example.com/p/{i}?a={i}]]>"


@pytest.mark.parametrize("long_urls", [False, True])
@pytest.mark.parametrize("window", [None, 300])
@pytest.mark.parametrize("name", sorted(REFERRED_SHAPES))
def test_references_and_cdata_in_locs_are_proved(monkeypatch, tmp_path, name, window, long_urls):
    shape = REFERRED_SHAPES[name]
    entries = [entry(i, shape, loc=referred_loc(i, name)) for i in range(50)]
    entries[45] = entry(3, shape, loc=referred_loc(3, name))  # a duplicate
    path = write(tmp_path, sitemap(entries, shape))
    outcome = check_both(monkeypatch, path, window, long_urls=long_urls)
    assert [f.code for f in outcome.findings] == ["DU001"]
    if window is None:
        assert outcome.proved == 50


@pytest.mark.parametrize(
    "loc",
    [
        "https://www.example.com/a?b=1&amp;c=2",
        "https://www.example.com/a?b=1&amp;amp;c=2",  # the value holds "&amp;"
        "https://www.example.com/a&#47;b&#x2F;c",
        "https://www.example.com/&#0065;&#x0041;",
        "https://www.example.com/a?b=&lt;c&gt;",  # decodes to characters URLs refuse
        "https://www.example.com/a?b=&quot;c&apos;",
        "https://www.example.com/a&#35;top",  # decodes to a fragment
        "https://www.example.com/a&#32;b",
        "https://www.example.com/a&#127;b",
        "https://www.example.com/a&#233;b",
        "https://www.example.com/a&#0;b",  # not a character XML allows
        "https://www.example.com/a&#x110000;b",
        "https://www.example.com/a&#99999999;b",
        "https://www.example.com/a&#x;b",
        "https://www.example.com/a&#;b",
        "https://www.example.com/a&amp;b&c=1",  # a reference and a raw "&"
        "https://www.example.com/a&nbsp;b",
        "https://www.example.com/a#b&amp;c",
        "https://www.EXAMPLE.com/a&amp;b",
        "https://www.example.com:8080/a&amp;b",
        "https://www.example.com/" + "p" * 990 + "&amp;b",  # 1,024 characters read
        "https://www.example.com/" + "p" * 991 + "&amp;b",  # 1,025
        "https&#58;//www.example.com/a",
        "<![CDATA[https://www.example.com/a]]>",
        "<![CDATA[https://www.example.com/a?b&c]]>",
        "<![CDATA[https://www.example.com/a?b&amp;c]]>",
        "<![CDATA[https://www.example.com/a#b]]>",
        "<![CDATA[ https://www.example.com/a]]>",
        "<![CDATA[https://www.example.com/a]]><![CDATA[b]]>",
        "<![CDATA[https://www.example.com/a]]>b",
        "a<![CDATA[https://www.example.com/a]]>",
        "<![CDATA[https://www.example.com/a<b]]>",
        "<![CDATA[https://a.i/]]>",
    ],
)
@pytest.mark.parametrize("long_urls", [False, True])
def test_referred_and_cdata_locs_at_the_limits(monkeypatch, tmp_path, loc, long_urls):
    shape = Shape(layout="line")
    entries = entries_of(30, shape, 5)
    entries[15] = entry(15, shape, loc=loc)
    entries[20] = entry(15, shape, loc=loc)  # the same again: a duplicate if it is a URL
    check_both(monkeypatch, write(tmp_path, sitemap(entries, shape)), 256, long_urls=long_urls)
    check_both(monkeypatch, write(tmp_path, sitemap(entries, shape)), None, long_urls=long_urls)
