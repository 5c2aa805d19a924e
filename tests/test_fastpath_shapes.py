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

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from bench import shapes as bench_shapes
from sitemap_lint.run import parse_sitemap_url
from tests.helpers import in_turn
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
    cdata: bool = False  # every value in a CDATA section


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
    if shape.cdata:
        fields = [field.replace(">", "><![CDATA[", 1).replace("</", "]]></", 1) for field in fields]
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
    # Comments outside ASCII, as generators write them in their users' language.
    "comment-between-wide": Shape(between="<!-- Page d'accueil avec vidéo \U0001f3ac -->"),
    "comment-inside-wide-oneline": Shape(layout="oneline", inside="<!-- champ n° # — Größe -->"),
    "pi-between": Shape(between='<?generator page="1" ?>'),
    "pi-inside": Shape(layout="line", inside="<?pi?>"),
    "pi-inside-oneline": Shape(layout="oneline", inside=" <?x-y a?> "),
    "cdata-values": Shape(cdata=True),
    "cdata-values-oneline-crlf": Shape(layout="oneline", newline="\r\n", cdata=True),
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
    # The tag with letters that match its own in another case (U+017F, U+0131): SU002.
    "suppression-wide": lambda e: "<!-- \u017fitemap-l\u0131nt: disable DU001 -->" + e,
}


@pytest.mark.parametrize(("window", "minimum"), [(None, 55), (97, 0), (300, 1), (2048, 20)])
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_clean_shapes_are_proved(monkeypatch, tmp_path, name, window, minimum):
    shape = SHAPES[name]
    text = sitemap(entries_of(60, shape, 1), shape)
    outcome = check_both(monkeypatch, write(tmp_path, text), window)
    assert outcome.findings == []
    assert outcome.proved >= minimum


@pytest.mark.parametrize(
    ("name", "planted", "window"),
    in_turn(
        list(itertools.product(sorted(SHAPES), sorted(PLANTED))),
        [(None,), (160,), (1000,)],
        lambda case, way: "-".join(map(str, (*case, *way))),
    ),
)
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


# -- a prefixed sitemap namespace, other declarations on the root --------------------

XSI = (
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    f'xsi:schemaLocation="{NS} http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd"'
)
PREFIXED_SHAPES = {
    "prefix": Shape(root=f'<sm:urlset xmlns:sm="{NS}">', close="</sm:urlset>", prefix="sm:"),
    "prefix-oneline-crlf": Shape(
        layout="oneline",
        newline="\r\n",
        root=f'<s.m-1:urlset xmlns:s.m-1="{NS}">',
        close="</s.m-1:urlset>",
        prefix="s.m-1:",
    ),
    "prefix-comments": Shape(
        root=f"<sm:urlset {XSI}\n  xmlns:sm='{NS}' xmlns=\"http://example.com/other\">",
        close="</sm:urlset>",
        prefix="sm:",
        between="<!-- entry -->",
        inside="<?pi #?>",
    ),
    "xsi": Shape(root=f'<urlset xmlns="{NS}" {XSI} xmlns:a="http://example.com/a">'),
    "xsi-line": Shape(layout="line", root=f'<urlset {XSI} xmlns="{NS}">'),
}
_CORE_TAG = r"<(/?)(url|loc|lastmod|changefreq|priority)>"


def prefixed(planted: str, prefix: str) -> Callable[[str], str]:
    """A PLANTED change on an entry written with ``prefix``."""
    import re

    def plant(text: str) -> str:
        bare = text.replace(f"<{prefix}", "<").replace(f"</{prefix}", "</")
        return re.sub(_CORE_TAG, rf"<\1{prefix}\2>", PLANTED[planted](bare))

    return plant


@pytest.mark.parametrize(("window", "minimum"), [(None, 55), (300, 1), (2048, 20)])
@pytest.mark.parametrize("name", sorted(PREFIXED_SHAPES))
def test_prefixed_and_declaring_roots_are_proved(monkeypatch, tmp_path, name, window, minimum):
    shape = PREFIXED_SHAPES[name]
    entries = entries_of(60, shape, 6)
    entries[50] = entry(8, shape)  # a duplicate: its pointer names the prefixed elements
    outcome = check_both(monkeypatch, write(tmp_path, sitemap(entries, shape)), window)
    assert [f.code for f in outcome.findings] == ["DU001"]
    assert outcome.proved >= minimum


@pytest.mark.parametrize(
    ("name", "planted", "window"),
    in_turn(
        list(
            itertools.product(["prefix", "prefix-oneline-crlf", "prefix-comments"], sorted(PLANTED))
        ),
        [(None,), (160,), (1000,)],
        lambda case, way: "-".join(map(str, (*case, *way))),
    ),
)
def test_prefixed_shapes_with_findings(monkeypatch, tmp_path, name, planted, window):
    shape = PREFIXED_SHAPES[name]
    entries = entries_of(40, shape, 7)
    plant = prefixed(planted, shape.prefix)
    for at in (5, 6, 23, 38):
        entries[at] = plant(entries[at])
    entries[30] = entry(4, shape)
    check_both(monkeypatch, write(tmp_path, sitemap(entries, shape)), window)


@pytest.mark.parametrize(
    ("root", "prefix"),
    [
        (f'<sm:urlset xmlns:sm="{NS}">', ""),  # entries in no namespace
        (f'<sm:urlset xmlns:sm="{NS}" xmlns="{NS}">', ""),  # entries in the default one
        (f'<urlset xmlns="{NS}" xmlns:sm="{NS}">', "sm:"),
        (f'<sm:urlset xmlns:sm="{NS}" xmlns:x="{NS}">', "x:"),
        (f'<sm:urlset xmlns:sm="{NS}/">', "sm:"),  # a look-alike namespace
        (f'<sm:urlset xmlns="{NS}">', "sm:"),  # an unbound prefix
        (f'<xmlsm:urlset xmlns:xmlsm="{NS}">', "xmlsm:"),
        (f'<sm:urlset xmlns:sm="{NS}" xmlns:sm="{NS}">', "sm:"),
    ],
)
def test_other_prefixes_go_to_the_full_checker(monkeypatch, tmp_path, root, prefix):
    close = root.split(" ", 1)[0].replace("<", "</") + ">"
    shape = Shape(root=root, close=close, prefix=prefix)
    entries = entries_of(30, shape, 8)
    entries[20] = entry(3, shape)
    check_both(monkeypatch, write(tmp_path, sitemap(entries, shape)), 256)
    check_both(monkeypatch, write(tmp_path, sitemap(entries, shape)))


@pytest.mark.parametrize("long_urls", [False, True])
def test_prefixed_references_and_raw_ampersands(monkeypatch, tmp_path, long_urls):
    shape = PREFIXED_SHAPES["prefix"]
    entries = [entry(i, shape, loc=referred_loc(i, "amp")) for i in range(20)]
    entries += [entry(i, shape, loc=referred_loc(i, "cdata")) for i in range(20, 40)]
    entries += [entry(i, shape, loc=f"https://www.example.com/r/{i}?a=1&b=2") for i in range(9)]
    entries.append(entry(3, shape, loc=referred_loc(3, "amp")))
    path = write(tmp_path, sitemap(entries, shape))
    outcome = check_both(monkeypatch, path, long_urls=long_urls)
    assert outcome.proved == 50
    assert_same_json(monkeypatch, path)


def test_a_prefixed_index_is_proved(monkeypatch, tmp_path):
    children = "".join(
        f"<sm:sitemap><sm:loc>https://www.example.com/s-{i}.xml</sm:loc>"
        f"<sm:lastmod>2024-01-0{i % 9 + 1}</sm:lastmod></sm:sitemap>\n"
        for i in range(40)
    )
    text = f'<sm:sitemapindex xmlns:sm="{NS}">\n{children}</sm:sitemapindex>\n'
    outcome = check_both(monkeypatch, write(tmp_path, text))
    assert outcome.proved == 40


# -- percent-escapes in a loc -----------------------------------------------------------


def escaped_loc(i: int) -> str:
    return (
        f"https://www.example.com/p%C3%A1gina-{i}/%E2%82%AC%20{i}"
        f"?q=caf%C3%A9%2Fx%26y&amp;r=%F0%9F%98%80-{i}"
    )


@pytest.mark.parametrize("long_urls", [False, True])
@pytest.mark.parametrize("window", [None, 300, 2048])
@pytest.mark.parametrize("name", ["pretty", "oneline-crlf", "comment-inside"])
def test_percent_escaped_locs_are_proved(monkeypatch, tmp_path, name, window, long_urls):
    shape = SHAPES[name]
    entries = [entry(i, shape, loc=escaped_loc(i)) for i in range(50)]
    entries[45] = entry(3, shape, loc=escaped_loc(3))  # a duplicate
    path = write(tmp_path, sitemap(entries, shape))
    outcome = check_both(monkeypatch, path, window, long_urls=long_urls)
    assert [f.code for f in outcome.findings] == ["DU001"]
    if window is None:
        assert outcome.proved == 50


ESCAPES = [
    "%C3%A1",
    "%c3%a1",  # lower case
    "%E9",  # Latin-1 (UR014)
    "%C3",  # a cut-off sequence (UR014)
    "%C3%A1%E9",
    "%A1%C3",
    "%00",  # UR013
    "%0A",
    "%7F",
    "%C2%80",  # U+0080
    "%C2%A0",
    "%2520",  # UR015
    "%25",
    "%25%32%30",
    "%41",  # an escaped unreserved character
    "%2D%2E%5F%7E",
    "%2E%2E/x",
    "%2F%3F%23%5B%5D%40",
    "%20%21%22%24%26%27%28%29%2A%2B%2C%3B%3D%3A%3C%3E%5C%5E%60%7B%7C%7D",
    "%",  # UR007
    "%2",
    "%G0",
    "50%-off",
    "%F0%9F%98%80",
    "%F4%90%80%80",  # beyond U+10FFFF
    "%ED%A0%80",  # a surrogate
    "%C0%AF",  # overlong
    "&#37;C3&#x25;A1",  # escapes written with references
    "&#37;E9",
    "%26amp%3B",
    "%C3%A1#frag",
]


@pytest.mark.parametrize(
    ("escape", "where", "long_urls"),
    in_turn(
        [(escape,) for escape in ESCAPES],
        list(itertools.product(["path", "query"], [False, True])),
        lambda case, way: "-".join(map(str, (*way, *case))),
    ),
)
def test_percent_escapes_at_the_limits(monkeypatch, tmp_path, escape, where, long_urls):
    shape = Shape(layout="line")
    entries = entries_of(30, shape, 9)
    loc = (
        f"https://www.example.com/a{escape}b"
        if where == "path"
        else f"https://www.example.com/a?b={escape}"
    )
    entries[15] = entry(15, shape, loc=loc)
    entries[20] = entry(15, shape, loc=loc)  # the same again: a duplicate if it is a URL
    for window in (256, None):
        path = write(tmp_path, sitemap(entries, shape))
        check_both(monkeypatch, path, window, long_urls=long_urls)


def test_percent_escapes_in_scope_and_raw_ampersands(monkeypatch, tmp_path):
    shape = Shape(layout="line")
    entries = [entry(i, shape, loc=escaped_loc(i).replace("&amp;", "&")) for i in range(30)]
    entries[10] = entry(10, shape, loc="https://other.example.com/p%C3%A1gina")
    entries[12] = entry(12, shape, loc="https://www.example.com/d%C3%A9/x")
    path = write(tmp_path, sitemap(entries, shape))
    location = parse_sitemap_url("https://www.example.com/p%C3%A1gina-0/s.xml")
    check_both(monkeypatch, path, 256, sitemap_url=location)
    outcome = check_both(monkeypatch, path, sitemap_url=location)
    assert outcome.proved >= 20
    assert {f.code for f in outcome.findings} == {"XM004", "SC001", "SC002"}
    assert_same_json(monkeypatch, path)


def test_prefixed_entries_with_images_and_alternates(monkeypatch, tmp_path):
    def one(i: int) -> str:
        page = f"https://www.example.com/p{i % 25}"
        return (
            f"<sm:url><sm:loc>{page}</sm:loc>"
            f"<image:image><image:loc>https://img.example.com/{i}.png</image:loc></image:image>"
            f'<xhtml:link rel="alternate" hreflang="en" href="{page}"/>'
            f'<xhtml:link rel="alternate" hreflang="de" href="{page}/de"/></sm:url>\n'
        )

    root = (
        f'<sm:urlset xmlns:sm="{NS}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
    )
    text = root + "".join(map(one, range(30))) + "</sm:urlset>\n"
    outcome = check_both(monkeypatch, write(tmp_path, text))
    assert outcome.proved == 30
    assert {f.code for f in outcome.findings} == {"DU001"}
    check_both(monkeypatch, write(tmp_path, text), 300)


# -- the bench's shapes --------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(bench_shapes.SHAPES))
def test_every_entry_of_each_bench_shape_is_proved(monkeypatch, tmp_path, name):
    """Each way the bench writes a sitemap (bench/shapes.py) is proved whole: a shape
    that falls to the full checker (a cliff of 3-7x) fails here."""
    from datetime import datetime

    from sitemap_lint import fastpath
    from sitemap_lint.engine.checker import check_source
    from sitemap_lint.inputs.reader import Source
    from sitemap_lint.settings.options import Options
    from tests.helpers import engine
    from tests.test_fastpath import _Counter

    shape = bench_shapes.SHAPES[name]
    path = tmp_path / f"{name}.xml"
    bench_shapes.write(shape, path, 300)
    monkeypatch.setenv(fastpath.ENV, "1")
    counter = _Counter(monkeypatch)
    now = datetime.fromisoformat(bench_shapes.NOW.replace("Z", "+00:00"))
    result = check_source(Source(str(path), path), Options(now=now), engine())
    assert counter.proved == 300
    assert len(result.findings) == (300 if shape.finding else 0)


WIDE_COMMENTS = [
    "\u2028 line separator \u2029",  # (no line break to XML)
    "\ufeff\u200f\u202e right to left",
    "e\u0301\u0300 combining",
    "\U0001f600\U0010fffd astral",
    "\ud7ff\ue000\ufffc edges",
    "\u00a0\u0130\u0131\u017f\u212a",  # (each left to the full checker)
    "\u0085\u009f C1",  # (left too)
    "\ufffd replaced",  # (left too)
]


@pytest.mark.parametrize("layout", ["pretty", "oneline"])
@pytest.mark.parametrize("comment", WIDE_COMMENTS)
def test_comments_outside_ascii(monkeypatch, tmp_path, comment, layout):
    """Comments outside ASCII before entries and between their fields: proved when
    each character is one expat reads in a comment and none matches an ASCII letter in
    another case; the reports and the places of what follows them are the same."""
    shape = Shape(layout=layout, between=f"<!-- {comment} -->", inside=f"<!--{comment}#-->")
    entries = entries_of(40, shape, 5)
    entries[30] = entry(4, shape)  # a duplicate, placed after the comments
    outcome = check_both(monkeypatch, write(tmp_path, sitemap(entries, shape)))
    assert [f.code for f in outcome.findings] == ["DU001"]
    if not {"\u0130", "\u0085", "\ufffd"} & set(comment):
        assert outcome.proved >= 30
