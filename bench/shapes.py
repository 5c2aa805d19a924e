"""The same clean sitemap written in each lexical shape a valid sitemap takes.

    python bench/shapes.py DIR [--count N] [--long]   # the shapes into DIR/NAME.xml

Each shape is one small writer: a head (the XML declaration and the root's start tag),
one entry per URL, a tail. Entry ``i`` names the same page in every shape (the URL of
``https://www.example.com/section/.../page-i.html`` or its shape's form of it), so the
shapes differ in how they are written, not in what they hold. The output depends on
the count alone (no randomness). With ``long``, each URL carries a path of about 850
characters (the bench's 50 MB input at 50,000 URLs), less what the shape adds to an
entry: every long file is about as large as the reference's, under 50 MiB.

Every shape is valid against the bundled schemas and gives no finding when checked
at ``NOW``, except those whose ``finding`` names the one finding each URL gives: the
deliberate one (a lastmod that is not a W3C date) and the IRI shape (non-ASCII paths,
which UR011 reports by design). ``bench/run.py --shapes`` times them beside xmllint;
``bench/fuzz_fastpath.py`` mutates them; tests/test_bench_shapes.py checks them.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import quote

NOW = "2026-12-01T00:00:00Z"  # the time every shape is checked at (news dates follow it)

SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
IMAGE = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO = "http://www.google.com/schemas/sitemap-video/1.1"
NEWS = "http://www.google.com/schemas/sitemap-news/0.9"
XHTML = "http://www.w3.org/1999/xhtml"
XSI = "http://www.w3.org/2001/XMLSchema-instance"

DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'
SHORT_PATH = 40  # characters of padding in a URL's path (the bench's short paths)
LONG_PATH = 850  # the bench's long paths: about 50 MB at 50,000 URLs
LONG_PADDING = "section/" * (LONG_PATH // 8)  # the reference's
CHANGEFREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
LANGUAGES = ("en", "de", "fr")


@dataclass(frozen=True)
class Shape:
    """How one sitemap is written: ``entry(i, padding)`` is the text of entry ``i``."""

    name: str
    about: str
    entry: Callable[[int, str], str]
    head: str = f'{DECLARATION}\n<urlset xmlns="{SITEMAP}">\n'
    tail: str = "</urlset>\n"
    segment: str = "section/"  # repeated to pad a URL's path
    extension: bool = False  # validated with the extension schemas' bundle
    long: bool = True  # also measured with long paths
    finding: str = ""  # the code each URL is reported for ("": none)
    clean: str = "pretty"  # a finding's shape: the shape of the same file without it
    schema_valid: bool = True  # valid against the schemas (xmllint says so)


def padding(shape: Shape, long: bool) -> str:
    """The repeated path segment, about SHORT_PATH or LONG_PATH characters once encoded
    (so that no URL passes 1,024 characters, which UR012 reports). Long paths are cut
    by what the shape adds to an entry, so that its entries are no longer than the
    reference's and the file stays under the protocol's 50 MiB (LM002) at 50,000 URLs."""
    repeats = max((LONG_PATH if long else SHORT_PATH) // len(quote(shape.segment, safe="/%")), 1)
    if long:
        excess = size(shape.entry(0, shape.segment * repeats)) - size(pretty(0, LONG_PADDING))
        repeats -= max(-(-excess // size(shape.segment)), 0)
    return shape.segment * repeats


def size(text: str) -> int:
    return len(text.encode("utf-8"))


def entries(shape: Shape, count: int, long: bool = False) -> Iterator[str]:
    pad = padding(shape, long)
    return (shape.entry(i, pad) for i in range(count))


def text(shape: Shape, count: int, long: bool = False) -> str:
    return shape.head + "".join(entries(shape, count, long)) + shape.tail


def write(shape: Shape, path: Path, count: int, long: bool = False) -> None:
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(shape.head)
        out.writelines(entries(shape, count, long))
        out.write(shape.tail)


# -- the pieces of an entry --------------------------------------------------------


def page(i: int, pad: str, query: str = "") -> str:
    return f"https://www.example.com/{pad}page-{i}.html{query}"


def day(i: int) -> str:
    return f"2024-05-{i % 28 + 1:02d}"


def moment(i: int) -> str:
    return f"{day(i)}T10:{i % 60:02d}:00+00:00"


def fields(loc: str, i: int, lastmod: str = "") -> list[tuple[str, str]]:
    """The four children of a URL entry, as the bench's plain input has them."""
    return [
        ("loc", loc),
        ("lastmod", lastmod or moment(i)),
        ("changefreq", "daily"),
        ("priority", f"0.{i % 10}"),
    ]


def elements(values: list[tuple[str, str]], prefix: str = "") -> list[str]:
    return [f"<{prefix}{name}>{value}</{prefix}{name}>" for name, value in values]


def url(children: list[str], indent: str = "  ", newline: str = "\n", prefix: str = "") -> str:
    """An entry with each child on a line of its own, ``indent`` deeper than the entry;
    ``indent`` and ``newline`` empty put it all on one line."""
    inner = "".join(f"{indent * 2}{child}{newline}" for child in children)
    return f"{indent}<{prefix}url>{newline}{inner}{indent}</{prefix}url>{newline}"


def root(*declarations: str, newline: str = "\n") -> str:
    """The head of a urlset with the sitemap namespace and ``declarations`` (a line each)."""
    extra = "".join(f"\n        {d}" for d in declarations)
    return f'{DECLARATION}{newline}<urlset xmlns="{SITEMAP}"{extra}>{newline}'


# -- the core shapes -------------------------------------------------------------------


def pretty(i: int, pad: str) -> str:
    return url(elements(fields(page(i, pad), i)))


def crlf(i: int, pad: str) -> str:
    return url(elements(fields(page(i, pad), i)), newline="\r\n")


def tabs_dates(i: int, pad: str) -> str:
    return url(elements(fields(page(i, pad), i, lastmod=day(i))), indent="\t")


def one_line(i: int, pad: str) -> str:
    return url(elements(fields(page(i, pad), i)), indent="", newline="")


def line_each(i: int, pad: str) -> str:
    return url(elements(fields(page(i, pad), i)), indent="", newline="") + "\n"


def amp_query(i: int, pad: str) -> str:
    return url(elements(fields(page(i, pad, f"?color=red&amp;size={i % 7}"), i)))


def character_references(i: int, pad: str) -> str:
    """``&#38;`` and ``&#x26;`` for the query's ampersands, and a reference in each of
    the other values (``&#58;`` a colon, ``&#x61;`` an ``a``, ``&#46;`` a full stop)."""
    loc = page(i, pad, f"?color=red&#38;size={i % 7}&#x26;fit=slim")
    return url(
        [
            f"<loc>{loc}</loc>",
            f"<lastmod>{day(i)}T10&#58;{i % 60:02d}:00+00:00</lastmod>",
            "<changefreq>d&#x61;ily</changefreq>",
            f"<priority>0&#46;{i % 10}</priority>",
        ]
    )


def predefined_references(i: int, pad: str) -> str:
    """``&amp;`` and ``&apos;`` in each loc: the two of the five predefined references
    that a URL may hold (``&lt;``, ``&gt;`` and ``&quot;`` stand for characters a URL
    must encode, and the other core values are dates, words and numbers; the video
    shape holds all five)."""
    loc = f"https://www.example.com/{pad}men&apos;s-shoes-{i}.html?size=9&amp;width=wide"
    return url(elements(fields(loc, i)))


def cdata(i: int, pad: str) -> str:
    """A CDATA section around each loc, with the query's ``&`` raw inside it."""
    return url(elements(fields(f"<![CDATA[{page(i, pad, f'?color=red&size={i % 7}')}]]>", i)))


def cdata_values(i: int, pad: str) -> str:
    """Every value in a CDATA section, as All in One SEO writes them (tabs, too)."""
    values = [(name, f"<![CDATA[{value}]]>") for name, value in fields(page(i, pad), i)]
    return url(elements(values), indent="\t")


def comment_between(i: int, pad: str) -> str:
    return f"  <!-- page {i} -->\n" + pretty(i, pad)


def comment_wide(i: int, pad: str) -> str:
    """A comment outside ASCII before each entry, in the language of the site's users."""
    return f"  <!-- Page d'accueil : vidéo n° {i} — Größe -->\n" + pretty(i, pad)


def inside(i: int, pad: str) -> str:
    """A processing instruction before each entry, a comment and an instruction between
    its children."""
    children = elements(fields(page(i, pad), i))
    children.insert(1, f"<!-- changed by the editor, revision {i % 97} -->")
    children.insert(3, '<?cache ttl="3600"?>')
    return f'  <?render id="{i}"?>\n' + url(children)


def prefixed(i: int, pad: str) -> str:
    return url(elements(fields(page(i, pad), i), prefix="sm:"), prefix="sm:")


def loc_only(i: int, pad: str) -> str:
    return url([f"<loc>{page(i, pad)}</loc>"])


def every_form(i: int, pad: str) -> str:
    """Every optional child, each value cycling through its valid forms: a date, a time
    in UTC (``Z``), with an offset and with fractions of a second; each changefreq; a
    priority of one, two or three digits."""
    lastmods = (
        day(i),
        f"{day(i)}T10:{i % 60:02d}:00Z",
        f"{day(i)}T10:{i % 60:02d}:00-05:00",
        f"{day(i)}T10:{i % 60:02d}:00.{i % 1000:03d}+02:00",
    )
    priorities = ("1.0", f"0.{i % 10}", f"0.{i % 100:02d}", "0.125", "0", "1")
    values = [
        ("loc", page(i, pad)),
        ("lastmod", lastmods[i % len(lastmods)]),
        ("changefreq", CHANGEFREQS[i % len(CHANGEFREQS)]),
        ("priority", priorities[i % len(priorities)]),
    ]
    return url(elements(values))


def percent_encoded(i: int, pad: str) -> str:
    """UTF-8 paths percent-encoded: a Cyrillic catalogue slug and ``café`` per page."""
    return url(elements(fields(f"https://www.example.com/{pad}caf%C3%A9-{i}.html", i)))


def iri(i: int, pad: str) -> str:
    """The same paths unencoded: UR011 (url-not-encoded) reports each, by design."""
    return url(elements(fields(f"https://www.example.com/{pad}café-{i}.html", i)))


def finding_each(i: int, pad: str) -> str:
    """A lastmod with a space for the ``T`` in every entry: one DT001 each."""
    return url(elements(fields(page(i, pad), i, lastmod=f"{day(i)} 10:{i % 60:02d}:00")))


# -- the extension shapes --------------------------------------------------------------


def images(i: int, pad: str) -> str:
    """Two images an entry."""
    pictures = [
        f"<image:image><image:loc>https://cdn.example.com/img/{pad}{i}-{n}.jpg"
        "</image:loc></image:image>"
        for n in range(2)
    ]
    return url(elements(fields(page(i, pad), i)[:2]) + pictures)


def images_cdata(i: int, pad: str) -> str:
    """Two images an entry, every value and image URL in a CDATA section."""
    values = [(name, f"<![CDATA[{value}]]>") for name, value in fields(page(i, pad), i)[:2]]
    pictures = [
        f"<image:image><image:loc><![CDATA[https://cdn.example.com/img/{pad}{i}-{n}.jpg]]>"
        "</image:loc></image:image>"
        for n in range(2)
    ]
    return url(elements(values) + pictures, indent="\t")


def images_captioned(i: int, pad: str) -> str:
    """The entries of ``images``, the first image with a caption and a title (schema
    order), as shop generators write them: one IM004 (Google ignores both since 2022)
    in each entry."""
    pictures = [
        f"<image:image><image:loc>https://cdn.example.com/img/{pad}{i}-{n}.jpg</image:loc>"
        + (
            f"<image:caption>Blue shirt, size {i % 5}</image:caption>"
            f"<image:title>Blue shirt {i}</image:title>"
            if n == 0
            else ""
        )
        + "</image:image>"
        for n in range(2)
    ]
    return url(elements(fields(page(i, pad), i)[:2]) + pictures)


def hreflang(i: int, pad: str) -> str:
    """Clusters of one page in English, German and French, each listing all three and
    x-default (the English page)."""
    cluster = i // len(LANGUAGES)
    language = LANGUAGES[i % len(LANGUAGES)]

    def href(code: str) -> str:
        return f"https://www.example.com/{code}/{pad}page-{cluster}.html"

    links = [
        f'<xhtml:link rel="alternate" hreflang="{code}" href="{href(code)}"/>' for code in LANGUAGES
    ]
    links.append(f'<xhtml:link rel="alternate" hreflang="x-default" href="{href("en")}"/>')
    return url([f"<loc>{href(language)}</loc>", f"<lastmod>{day(i)}</lastmod>", *links])


def hreflang_query(i: int, pad: str) -> str:
    """The hreflang clusters of one page told apart by its query, ``&amp;`` between the
    parameters of each loc and href (as PHP sites write them)."""
    cluster = i // len(LANGUAGES)

    def href(code: str) -> str:
        return f"https://www.example.com/{pad}page.php?id={cluster}&amp;lang={code}"

    links = [
        f'<xhtml:link rel="alternate" hreflang="{code}" href="{href(code)}"/>' for code in LANGUAGES
    ]
    links.append(f'<xhtml:link rel="alternate" hreflang="x-default" href="{href("en")}"/>')
    code = LANGUAGES[i % len(LANGUAGES)]
    return url([f"<loc>{href(code)}</loc>", f"<lastmod>{day(i)}</lastmod>", *links])


def hreflang_reordered(i: int, pad: str) -> str:
    """The hreflang clusters, each link's href before its hreflang, in single quotes every
    other cluster (attribute order and quotes mean nothing to XML)."""
    written = hreflang(i, pad)
    written = re.sub(r'hreflang="([^"]*)" href="([^"]*)"', r'href="\2" hreflang="\1"', written)
    return written.replace('"', "'") if i // len(LANGUAGES) % 2 else written


def video(i: int, pad: str, every_child: bool = False) -> str:
    """One video an entry, its title and description holding all five predefined
    references; ``every_child``: in one entry of three, also the optional children
    Google documents with a value (expiration, rating, views, restriction,
    subscription, uploader, platform)."""
    media = f"https://cdn.example.com/{pad}video-{i}"
    details = [
        f"<video:thumbnail_loc>{media}.jpg</video:thumbnail_loc>",
        f"<video:title>Rock &amp; roll, part {i}: &quot;live&quot; at Joe&apos;s</video:title>",
        "<video:description>Three chords &lt;and&gt; the truth &amp; nothing else."
        "</video:description>",
        f"<video:content_loc>{media}.mp4</video:content_loc>",
        f"<video:duration>{60 + i % 3000}</video:duration>",
        f"<video:publication_date>{moment(i)}</video:publication_date>",
        "<video:family_friendly>yes</video:family_friendly>",
        "<video:live>no</video:live>",
    ]
    if every_child and i % 3 == 0:  # (in each entry, the file would pass 50 MiB)
        details[5:5] = [
            "<video:expiration_date>2031-01-01</video:expiration_date>",
            f"<video:rating>{i % 50 / 10}</video:rating>",
            f"<video:view_count>{i * 37}</video:view_count>",
        ]
        details[-1:-1] = [
            '<video:restriction relationship="allow">US CA GB</video:restriction>',
            "<video:requires_subscription>no</video:requires_subscription>",
            '<video:uploader info="https://www.example.com/users/grill">Grill &amp; Co'
            "</video:uploader>",
            '<video:platform relationship="deny">tv</video:platform>',
        ]
    block = "".join(f"\n      {d}" for d in details)
    return url(
        [*elements(fields(page(i, pad), i)[:2]), f"<video:video>{block}\n    </video:video>"]
    )


NEWS_EVERY = 50  # Google reads at most 1,000 news:news a sitemap (NW005): 1 in 50 of 50,000


def news(i: int, pad: str) -> str:
    """News about one entry in 50 (published the day before ``NOW``), the others plain."""
    children = elements(fields(page(i, pad), i)[:2])
    if i % NEWS_EVERY == 0:
        published = f"2026-11-30T{i // NEWS_EVERY % 24:02d}:{i % 60:02d}:00+00:00"
        children.append(
            "<news:news>\n      <news:publication>\n"
            "        <news:name>The Example Times</news:name>\n"
            "        <news:language>en</news:language>\n      </news:publication>\n"
            f"      <news:publication_date>{published}</news:publication_date>\n"
            f"      <news:title>Harvest &amp; prices: &quot;a record&quot; in region {i}"
            "</news:title>\n    </news:news>"
        )
    return url(children)


PREFIXED_HEAD = f'{DECLARATION}\n<sm:urlset xmlns:sm="{SITEMAP}">\n'
ONE_LINE_HEAD = f'{DECLARATION}<urlset xmlns="{SITEMAP}">'
EXTRA_NAMESPACES = (
    f'xmlns:image="{IMAGE}"',
    f'xmlns:video="{VIDEO}"',
    f'xmlns:news="{NEWS}"',
    f'xmlns:xhtml="{XHTML}"',
    f'xmlns:xsi="{XSI}"',
)
SCHEMA_LOCATION = (
    f'xmlns:xsi="{XSI}"',
    f'xsi:schemaLocation="{SITEMAP} {SITEMAP}/sitemap.xsd"',
)

CORE = (
    Shape("pretty", "pretty-printed, LF (the reference)", pretty),
    Shape("crlf", "CRLF line ends", crlf, head=root(newline="\r\n"), tail="</urlset>\r\n"),
    Shape(
        "tabs-xsi-dates",
        "tabs, xsi:schemaLocation, date-only lastmod",
        tabs_dates,
        head=root(*SCHEMA_LOCATION),
    ),
    Shape("one-line", "the whole file on one line", one_line, head=ONE_LINE_HEAD, tail="</urlset>"),
    Shape("line-each", "an entry a line", line_each),
    Shape("amp-query", "&amp; in the query of each loc", amp_query),
    Shape("char-refs", "&#38; &#x26; in locs, a reference in each value", character_references),
    Shape("predefined", "&amp; and &apos; in each loc", predefined_references),
    Shape("cdata", "each loc in CDATA (raw & inside)", cdata),
    Shape("cdata-values", "every value in CDATA (All in One SEO's form)", cdata_values),
    Shape("comment-between", "a comment before each entry", comment_between),
    Shape("comment-wide", "a comment outside ASCII before each entry", comment_wide),
    Shape("comment-pi-inside", "a PI before, a comment and a PI inside each", inside),
    Shape(
        "prefixed",
        "sm: prefix on every element",
        prefixed,
        head=PREFIXED_HEAD,
        tail="</sm:urlset>\n",
    ),
    Shape(
        "extra-ns",
        "five unused namespaces declared on the root",
        pretty,
        head=root(*EXTRA_NAMESPACES),
    ),
    Shape("loc-only", "loc alone in each entry", loc_only),
    Shape(
        "stylesheet",
        "an xml-stylesheet instruction before the root",
        pretty,
        head=f'{DECLARATION}\n<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>\n'
        f'<urlset xmlns="{SITEMAP}">\n',
    ),
    Shape("every-form", "every optional child, values in all forms", every_form),
    Shape(
        "percent-utf8",
        "percent-encoded UTF-8 paths",
        percent_encoded,
        segment="%D0%BA%D0%B0%D1%82%D0%B0%D0%BB%D0%BE%D0%B3/",
    ),
    Shape(
        "iri",
        "non-ASCII paths (UR011 by design)",
        iri,
        segment="каталог/",
        finding="UR011",
        clean="percent-utf8",
    ),
)
EXTENSIONS = (
    Shape(
        "image",
        "2 image:image an entry",
        images,
        head=root(f'xmlns:image="{IMAGE}"'),
        extension=True,
        long=False,
    ),
    Shape(
        "image-cdata",
        "image, every value and image:loc in CDATA",
        images_cdata,
        head=root(f'xmlns:image="{IMAGE}"'),
        extension=True,
        long=False,
    ),
    Shape(
        "xhtml-link",
        "4 xhtml:link hreflang alternates an entry",
        hreflang,
        head=root(f'xmlns:xhtml="{XHTML}"'),
        extension=True,
        long=False,
    ),
    Shape(
        "xhtml-link-attrs",
        "xhtml-link, href before hreflang, single quotes in half",
        hreflang_reordered,
        head=root(f'xmlns:xhtml="{XHTML}"'),
        extension=True,
        long=False,
    ),
    Shape(
        "xhtml-link-query",
        "xhtml-link, pages told apart by their query (&amp; in each href)",
        hreflang_query,
        head=root(f'xmlns:xhtml="{XHTML}"'),
        extension=True,
        long=False,
    ),
    Shape(
        "video-full",
        "video, and in 1 entry of 3 every other documented child",
        partial(video, every_child=True),
        head=root(f'xmlns:video="{VIDEO}"'),
        extension=True,
        long=False,
    ),
    Shape(
        "video",
        "a video:video an entry (all 5 references)",
        video,
        head=root(f'xmlns:video="{VIDEO}"'),
        extension=True,
        long=False,
    ),
    Shape(
        "news",
        "news:news in 1 entry of 50",
        news,
        head=root(f'xmlns:news="{NEWS}"'),
        extension=True,
        long=False,
    ),
)
FINDING = Shape(
    "finding-each",
    "a DT001 lastmod in every entry",
    finding_each,
    long=False,
    finding="DT001",
    schema_valid=False,
)
CAPTIONED = Shape(
    "image-captions",
    "image's entries, a caption and title in each (IM004 by design)",
    images_captioned,
    head=root(f'xmlns:image="{IMAGE}"'),
    extension=True,
    long=False,
    finding="IM004",
    clean="image",
)
SHAPES = {shape.name: shape for shape in (*CORE, *EXTENSIONS, FINDING, CAPTIONED)}
REFERENCE = SHAPES["pretty"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--count", type=int, default=50_000)
    parser.add_argument("--long", action="store_true", help="the core shapes, long paths")
    args = parser.parse_args()
    args.directory.mkdir(parents=True, exist_ok=True)
    for shape in SHAPES.values():
        if shape.long or not args.long:
            write(shape, args.directory / f"{shape.name}.xml", args.count, args.long)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
