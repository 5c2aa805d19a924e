"""A differential fuzz of schema validity: sitemap-lint's verdict against xmllint's.

    python bench/fuzz_schema.py --minutes 5 [--seed N] [--keep DIR] [--cases N] [--batch N]

Each case is a small sitemap: a urlset whose entries hold every extension (image:image,
video:video, news:news, xhtml:link, mobile:mobile, PageMap), or a sitemapindex. It is
built as a tree from valid parts, then mutated 0-3 times: children out of order, missing
or repeated, unknown elements in and out of the namespaces (and from ``##other``
namespaces, where ``xs:any`` allows them or not), wrong namespaces, attributes where
none are allowed or required ones missing, values at and past each facet (lengths,
enumerations, patterns, ranges, dates of every form, booleans, country lists, URIs),
empty values, white space around values, mixed content, other prefixes, CDATA,
character references, comments and processing instructions in odd places.

The cases run in batches: ``xmllint --noout --schema`` with the bundle of the case's
root (schemas/bundle-urlset.xsd or bundle-siteindex.xsd) over the batch, and one
``python -m sitemap_lint --format json --isolated`` over the same files. A case is a
disagreement when:

- xmllint finds it invalid (or not well-formed) and sitemap-lint reports no error (a
  finding of a code in tests/test_corpus.py's STRICT_ERRORS counts as one: Google
  accepts those, so they are warnings by default; a finding of a check across the set's
  files does not: the batch is a set, and its files share their URLs);
- xmllint finds it valid and sitemap-lint reports an XS finding (other rules may report
  errors on valid files: the linter is stricter on purpose);
- the run crashes (a traceback, an exit status other than 0 and 1) or a finding has no
  line or column.

Each disagreement is checked again without the fast path (SITEMAP_LINT_FAST_PATH=0) and
labelled by whether it stays; ``--keep`` writes its file and a note of both verdicts.
Known classes where xmllint is wrong or the difference is intended are counted apart
(``KNOWN``). Prints the totals at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "linter" / "sitemap_lint" / "schemas"
sys.path.insert(0, str(ROOT))

from tests.test_corpus import STRICT_ERRORS  # noqa: E402

NOW = "2026-12-01T00:00:00Z"
# The checks across a set's files: a batch is one set, so these are no verdict on a case.
SET_CODES = frozenset(("SE001", "SE002", "SE003", "SE004", "SE005", "SE006", "SE007"))
SET_CODES |= {"HL006", "HL007", "HL008"}

NAMESPACES = {
    "sm": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
    "mobile": "http://www.google.com/schemas/sitemap-mobile/1.0",
    "pagemap": "http://www.google.com/schemas/sitemap-pagemap/1.0",
    "xsi": "http://www.w3.org/2001/XMLSchema-instance",
}
# Namespaces no bundled schema declares: look-alikes of the real ones and others.
LOOKALIKES = (
    "http://www.sitemaps.org/schemas/sitemap/0.84",
    "https://www.sitemaps.org/schemas/sitemap/0.9",
    "http://www.sitemaps.org/schemas/sitemap/0.9/",
    "http://www.google.com/schemas/sitemap-image/1.0",
    "https://www.google.com/schemas/sitemap-image/1.1",
    "http://www.google.com/schemas/sitemap-video/1.0",
    "http://www.google.com/schemas/sitemap-news/0.84",
    "http://www.w3.org/1999/xhtml/",
    "http://www.google.com/schemas/sitemap-pagemap/1.1",
)
FOREIGN = ("http://example.com/ns/custom", "urn:x-other", "http://www.w3.org/2005/Atom")


@dataclass
class El:
    """An element: its namespace (a key of NAMESPACES, another URI, or "" for none), its
    local name, its attributes (raw names, values as written) and its children (elements,
    or markup as written: text, references, CDATA, comments, instructions)."""

    ns: str
    name: str
    attrs: list[tuple[str, str]] = field(default_factory=list)
    children: list[El | str] = field(default_factory=list)

    def copy(self) -> El:
        kids = [c.copy() if isinstance(c, El) else c for c in self.children]
        return El(self.ns, self.name, list(self.attrs), kids)

    def walk(self) -> list[El]:
        found = [self]
        for child in self.children:
            if isinstance(child, El):
                found.extend(child.walk())
        return found


def leaf(ns: str, name: str, value: str, attrs: list[tuple[str, str]] | None = None) -> El:
    return El(ns, name, attrs or [], [escape(value)] if value else [])


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- valid parts ------------------------------------------------------------------------

PAGES = "https://www.example.com/"


def url_entry(rng: random.Random, n: int) -> El:
    children: list[El | str] = [leaf("sm", "loc", f"{PAGES}p/{n}")]
    if rng.random() < 0.6:
        children.append(leaf("sm", "lastmod", rng.choice(VALUES["sm", "lastmod"][0])))
    if rng.random() < 0.4:
        children.append(leaf("sm", "changefreq", rng.choice(VALUES["sm", "changefreq"][0])))
    if rng.random() < 0.4:
        children.append(leaf("sm", "priority", rng.choice(VALUES["sm", "priority"][0])))
    for make in EXTENSIONS:
        if rng.random() < 0.3:
            children.extend(make(rng, n))
    return El("sm", "url", [], children)


def images(rng: random.Random, n: int) -> list[El]:
    found = []
    for k in range(rng.choice((1, 1, 2))):
        kids: list[El | str] = [leaf("image", "loc", f"https://cdn.example.com/{n}/{k}.jpg")]
        for name in ("caption", "geo_location", "title"):
            if rng.random() < 0.3:
                kids.append(leaf("image", name, rng.choice(VALUES["image", name][0])))
        if rng.random() < 0.2:
            kids.append(leaf("image", "license", "https://www.example.com/license"))
        found.append(El("image", "image", [], kids))
    return found


def video(rng: random.Random, n: int) -> list[El]:
    kids: list[El | str] = [
        leaf("video", "thumbnail_loc", f"https://cdn.example.com/{n}.jpg"),
        leaf("video", "title", "A video"),
        leaf("video", "description", "What the video shows"),
    ]
    optional: list[El] = [
        leaf("video", "content_loc", f"https://cdn.example.com/{n}.mp4"),
        leaf("video", "player_loc", f"https://www.example.com/player?v={n}"),
        leaf("video", "duration", "600"),
        leaf("video", "expiration_date", "2027-11-05T19:20:30+08:00"),
        leaf("video", "rating", "4.2"),
        leaf("video", "content_segment_loc", f"https://cdn.example.com/{n}-1.mp4"),
        leaf("video", "view_count", "12345"),
        leaf("video", "publication_date", "2026-11-05T19:20:30+08:00"),
        leaf("video", "tag", "steak"),
        leaf("video", "category", "Grilling"),
        leaf("video", "family_friendly", "yes"),
        leaf("video", "restriction", "IE GB US CA", [("relationship", "allow")]),
        leaf("video", "gallery_loc", "https://www.example.com/gallery", [("title", "G")]),
        leaf("video", "price", "1.99", [("currency", "EUR"), ("type", "rent")]),
        leaf("video", "requires_subscription", "no"),
        leaf("video", "uploader", "GrillyMcGrillerson", [("info", f"{PAGES}users/g")]),
        El(
            "video",
            "tvshow",
            [],
            [
                leaf("video", "show_title", "Grilling"),
                leaf("video", "video_type", "full"),
                leaf("video", "episode_title", "Steak"),
                leaf("video", "season_number", "3"),
                leaf("video", "episode_number", "14"),
                leaf("video", "premier_date", "2026-11-05"),
            ],
        ),
        leaf("video", "platform", "web tv", [("relationship", "allow")]),
        leaf("video", "live", "no"),
        leaf("video", "id", "tms:12345", [("type", "tms:program")]),
    ]
    kids.extend(el for el in optional if rng.random() < 0.4)
    return [El("video", "video", [], kids)]


def news(rng: random.Random, n: int) -> list[El]:
    publication = El(
        "news",
        "publication",
        [],
        [leaf("news", "name", "The Example Times"), leaf("news", "language", "en")],
    )
    kids: list[El | str] = [publication]
    if rng.random() < 0.2:
        kids.append(leaf("news", "access", "Subscription"))
    if rng.random() < 0.2:
        kids.append(leaf("news", "genres", "PressRelease, Blog"))
    kids.append(leaf("news", "publication_date", "2026-11-30T10:00:00Z"))
    kids.append(leaf("news", "title", f"Story {n}"))
    if rng.random() < 0.2:
        kids.append(leaf("news", "keywords", "business, merger"))
    if rng.random() < 0.2:
        kids.append(leaf("news", "stock_tickers", "NASDAQ:A, NASDAQ:B"))
    return [El("news", "news", [], kids)]


def links(rng: random.Random, n: int) -> list[El]:
    codes = rng.sample(["en", "de", "fr-CH", "x-default", "zh-Hant-TW"], rng.randrange(1, 4))
    return [
        El(
            "xhtml",
            "link",
            [("rel", "alternate"), ("hreflang", code), ("href", f"{PAGES}{code}/p/{n}")],
        )
        for code in codes
    ]


def mobile(rng: random.Random, n: int) -> list[El]:
    return [El("mobile", "mobile")]


def pagemap(rng: random.Random, n: int) -> list[El]:
    data = El(
        "pagemap",
        "DataObject",
        [("type", "document"), ("id", f"d{n}")],
        [
            El("pagemap", "Attribute", [("name", "title")], ["Title"]),
            El("pagemap", "Attribute", [("name", "rating"), ("value", "4")]),
        ],
    )
    kids: list[El | str] = [data]
    if rng.random() < 0.3:
        kids.insert(0, El("pagemap", "Template", [("src", f"{PAGES}template.xml")]))
    return [El("pagemap", "PageMap", [], kids)]


EXTENSIONS = (images, video, news, links, mobile, pagemap)


def sitemap_entry(rng: random.Random, n: int) -> El:
    children: list[El | str] = [leaf("sm", "loc", f"{PAGES}sitemap-{n}.xml")]
    if rng.random() < 0.6:
        children.append(leaf("sm", "lastmod", rng.choice(VALUES["sm", "lastmod"][0])))
    return El("sm", "sitemap", [], children)


def document(rng: random.Random, case: int) -> El:
    if rng.random() < 0.2:
        entries = [sitemap_entry(rng, case * 1000 + k) for k in range(rng.randrange(1, 4))]
        return El("sm", "sitemapindex", [], list(entries))
    # Now and then more entries than one batch of the checker's schema validation (256).
    count = rng.randrange(1, 4) if rng.random() < 0.98 else rng.randrange(250, 300)
    entries = [url_entry(rng, case * 1000 + k) for k in range(count)]
    return El("sm", "urlset", [], list(entries))


# -- values: (valid, invalid) per element, and per attribute ----------------------------

DATES_VALID = (
    "2026-11-05",
    "2026-11-05T19:20:30Z",
    "2026-11-05T19:20:30+01:00",
    "2026-11-05T19:20:30.45-05:00",
    "2026-11-05T19:20:30",
    "2024-02-29",
    "2026-11-05Z",
    "2026-11-05+02:00",
    "2026-11-05T19:20:30+14:00",
    "2026-11-05T24:00:00Z",
    "2026-11-05T19:20:30.123456789Z",
    " 2026-11-05 ",
    "\n2026-11-05T19:20:30Z\n",
    "1999-12-31T23:59:59-14:00",
)
DATES_INVALID = (
    "2026-11-05T19:20Z",
    "2026-11-05T19:20+01:00",
    "2026-11",
    "2026",
    "2026-11-05 19:20:30",
    "2026-11-05T19:20:30+15:00",
    "2026-11-05T19:20:60Z",
    "2026-11-05T25:00:00Z",
    "2026-11-05T24:00:01Z",
    "2026-02-30",
    "2023-02-29",
    "2026-13-01",
    "2026-1-5",
    "0000-01-01",
    "02026-11-05",
    "2026-11-05T19:20:30+0100",
    "2026-11-05T19:20:30.Z",
    "2026-11-05T19:20:30,5Z",
    "2026-11-05t19:20:30z",
    "20261105",
    "",
    "yesterday",
    "2026-11-05T19:20:30Z ",
)
YES_NO = (("yes", "no", "Yes", "NO", "YES", "No"), ("yEs", "true", "1", " yes", "no ", "", "y"))
URIS_VALID = (
    "https://www.example.com/a b",
    "https://www.example.com/caf\u00e9",
    "https://www.example.com/a%2Fb",
    "https://www.example.com/?q=a&b=c",
    "/relative/path",
    "https://www.example.com/a#frag",
    " https://www.example.com/spaced ",
    "mailto:someone@example.com",
    "https://www.example.com/{x}",
)
URIS_INVALID = ("https://www.example.com/%zz", "http://[::1", "https://a b.example.com/", "::")
# Addresses whose validity libxml2's anyURI decides in its own way: both lists take some.
URIS_ODD = (
    "https://www.example.com/%",
    "https://www.example.com/a%2",
    "https://www.example.com/#a#b",
    "https://www.example.com:/",
    "https://www.example.com:99999/",
    "https://user@www.example.com/",
    "https://[::1]/",
    "https:///a",
    "//www.example.com/",
    "https:",
    "#",
    "?",
    "https://www.example.com/\\a",
    "https://www.example.com/a|b^c`d",
    "https://www.example.com/\u00e9\u4e2d",
    "https://www.example.com/a&#9;b",
    "https://www.example.com/<a>",
    'https://www.example.com/"q"',
    "http://a.io/" + "%41" * 3,
)


def text_lengths(limit: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (
        ("x" * limit, "\u00e9" * limit, "a & b", "  padded  "),
        ("x" * (limit + 1), "\u00e9" * (limit + 1)),
    )


VALUES: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {
    ("sm", "loc"): (
        (
            f"{PAGES}p",
            "http://a.io/",
            "https://www.example.com/" + "p" * 2024,
            *URIS_VALID,
            *URIS_ODD,
        ),
        ("http://a.i/", "https://www.example.com/" + "p" * 2025, "", *URIS_INVALID),
    ),
    ("sm", "lastmod"): (DATES_VALID, DATES_INVALID),
    ("sm", "changefreq"): (
        ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never"),
        ("Daily", "DAILY", " daily", "daily ", "\ndaily\n", "dialy", "", "fortnightly"),
    ),
    ("sm", "priority"): (
        ("0.5", "1.0", "1", "0", "0.0", "+0.5", ".5", "1.", "-0", "0.50000", " 0.5 ", "001.0"),
        ("1.1", "-0.1", "1e-1", "high", "", "0,5", "NaN", "1.0000001", "0.5 5", "INF"),
    ),
    ("image", "loc"): (URIS_VALID + URIS_ODD, (*URIS_INVALID, "")),
    ("image", "license"): (URIS_VALID, URIS_INVALID),
    ("image", "caption"): (("A caption", "", "  ", "<b>"), ()),
    ("image", "geo_location"): (("Limerick, Ireland", ""), ()),
    ("image", "title"): (("A title", ""), ()),
    ("video", "thumbnail_loc"): (URIS_VALID, URIS_INVALID),
    ("video", "content_loc"): (URIS_VALID + URIS_ODD, URIS_INVALID),
    ("video", "player_loc"): (URIS_VALID, URIS_INVALID),
    ("video", "gallery_loc"): (URIS_VALID, URIS_INVALID),
    ("video", "content_segment_loc"): (URIS_VALID, URIS_INVALID),
    ("video", "title"): text_lengths(100),
    ("video", "description"): text_lengths(2048),
    ("video", "category"): text_lengths(256),
    ("video", "duration"): (
        ("0", "1", "28800", "+60", "060", " 60 "),
        ("28801", "-1", "1.0", "1e3", "", "PT10M", "6 0"),
    ),
    ("video", "rating"): (
        ("0", "5", "5.0", "4.25", "0.0", "+3", " 2.5 ", "05.00"),
        ("5.01", "-0.1", "4,5", "", "five", "1e0"),
    ),
    ("video", "view_count"): (("0", "12345", "+7", " 8 "), ("-1", "1.5", "", "lots")),
    ("video", "expiration_date"): (DATES_VALID, DATES_INVALID),
    ("video", "publication_date"): (DATES_VALID, DATES_INVALID),
    ("video", "premier_date"): (DATES_VALID, DATES_INVALID),
    ("video", "family_friendly"): YES_NO,
    ("video", "requires_subscription"): YES_NO,
    ("video", "live"): YES_NO,
    ("video", "restriction"): (
        ("IE GB US CA", "US", "", "US  CA", "ZZ"),
        ("us", "USA", " US", "US ", "US,CA", "US\tCA", "US\nCA", "U"),
    ),
    ("video", "platform"): (
        ("web", "web mobile tv", "", "tv tv"),
        ("WEB", "web  mobile", " web", "web,tv", "desktop"),
    ),
    ("video", "price"): (("1.99", "", "free", "-3"), ()),
    ("video", "uploader"): text_lengths(255),
    ("video", "tag"): (("steak", "", "a" * 300), ()),
    ("video", "id"): (("tms:12345", ""), ()),
    ("video", "show_title"): (("Grilling", ""), ()),
    ("video", "video_type"): (
        ("full", "preview", "clip", "interview", "news", "other"),
        ("Full", "FULL", "trailer", "", " full"),
    ),
    ("video", "episode_title"): (("Steak", ""), ()),
    ("video", "season_number"): (("1", "3", "+2", "01"), ("0", "-1", "1.5", "", "one")),
    ("video", "episode_number"): (("1", "14"), ("0", "-3", "")),
    ("news", "name"): (("The Example Times", "", "A (B)"), ()),
    ("news", "language"): (
        ("en", "de", "zh-cn", "zh-tw", "ast", "xx"),
        ("EN", "en-us", "zh-CN", "eng1", "e", "engl", "", " en", "en_US", "zh-hk"),
    ),
    ("news", "access"): (
        ("Subscription", "Registration"),
        ("subscription", "Free", "", " Registration", "Subscription, Registration"),
    ),
    ("news", "genres"): (
        ("PressRelease", "Blog, OpEd", "Satire,Opinion", "UserGenerated,   Blog"),
        ("blog", "Blog ,OpEd", "Blog;OpEd", "", "Blog, ", " Blog", "News"),
    ),
    ("news", "publication_date"): (DATES_VALID, DATES_INVALID),
    ("news", "title"): (("A story", "", "x" * 200), ()),
    ("news", "keywords"): (("a, b", ""), ()),
    ("news", "stock_tickers"): (
        ("NASDAQ:A", "NYSE:B, NASDAQ:C,LSE:D", "A:1, B:2, C:3, D:4, E:5", "\u00e9:\u00e9"),
        ("A:1, B:2, C:3, D:4, E:5, F:6", "AMAT", ":A", "A:", "A: B", "A:B,", "", " A:B"),
    ),
}
ATTRIBUTE_VALUES: dict[tuple[str, str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {
    ("video", "restriction", "relationship"): (("allow", "deny"), ("Allow", "DENY", "", " allow")),
    ("video", "platform", "relationship"): (("allow", "deny"), ("block", "")),
    ("video", "player_loc", "allow_embed"): (YES_NO[0], YES_NO[1]),
    ("video", "player_loc", "autoplay"): (("ap=1", ""), ()),
    ("video", "price", "currency"): (("EUR", "USD"), ("eur", "EURO", "", "E1R")),
    ("video", "price", "type"): (("rent", "purchase", "RENT", "PURCHASE"), ("Rent", "buy", "")),
    ("video", "price", "resolution"): (("hd", "SD"), ("Hd", "4k", "")),
    ("video", "uploader", "info"): (URIS_VALID, URIS_INVALID),
    ("video", "gallery_loc", "title"): (("Gallery", ""), ()),
    ("video", "content_segment_loc", "duration"): (("0", "28800"), ("28801", "-1", "x")),
    ("video", "id", "type"): (
        ("tms:series", "tms:program", "rovi:series", "rovi:program", "freebase", "url"),
        ("TMS:series", "imdb", ""),
    ),
    ("xhtml", "link", "hreflang"): (
        ("en", "en-GB", "x-default", "zh-Hant-TW", "abcdefgh-12345678", "i-klingon"),
        ("en_GB", "", "abcdefghi", "en-", "-en", "en--GB", "fr CH", "\u00e9n"),
    ),
    ("xhtml", "link", "lang"): (("en", "de-AT"), ("en_US", "")),
    ("xhtml", "link", "href"): (URIS_VALID + URIS_ODD, URIS_INVALID),
    ("xhtml", "link", "rel"): (("alternate", "canonical", ""), ()),
    ("xhtml", "link", "dir"): (("ltr", "rtl"), ("LTR", "up", "")),
    ("xhtml", "link", "id"): (("a1", "_x", "a.b-c"), ("1a", "a b", "", "a:b")),
    ("xhtml", "link", "media"): (("screen",), ()),
    ("pagemap", "Template", "src"): (URIS_VALID, URIS_INVALID),
    ("pagemap", "DataObject", "type"): (("document", ""), ()),
    ("pagemap", "Attribute", "name"): (("title", ""), ()),
    ("pagemap", "Attribute", "value"): (("4", ""), ()),
}
# Attributes each element must have.
REQUIRED = {
    ("video", "restriction"): "relationship",
    ("video", "platform"): "relationship",
    ("video", "id"): "type",
    ("pagemap", "Template"): "src",
    ("pagemap", "DataObject"): "type",
    ("pagemap", "Attribute"): "name",
}
# Attributes to add where they are not declared (with a value), or are.
ODD_ATTRIBUTES = (
    ("foo", "1"),
    ("id", "x"),
    ("xml:lang", "en"),
    ("xml:space", "preserve"),
    ("xsi:nil", "true"),
    ("xsi:type", "xsd:string"),
    ("xsi:schemaLocation", "http://www.sitemaps.org/schemas/sitemap/0.9 sitemap.xsd"),
    ("xsi:noNamespaceSchemaLocation", "x.xsd"),
    ("f:a", "1"),
    ("xmlns:unused", "http://example.com/unused"),
    ("relationship", "allow"),
    ("type", "url"),
    ("href", f"{PAGES}x"),
    ("title", "t"),
)


# -- mutations --------------------------------------------------------------------------


def elements(root: El) -> list[El]:
    return root.walk()


def values(root: El) -> list[El]:
    """The elements whose content is one value (no child elements)."""
    return [e for e in root.walk() if not any(isinstance(c, El) for c in e.children)]


def parents(root: El) -> list[El]:
    return [e for e in root.walk() if any(isinstance(c, El) for c in e.children)]


def mutate_value(root: El, rng: random.Random) -> str:
    candidates = [e for e in values(root) if (e.ns, e.name) in VALUES]
    if not candidates:
        return "none"
    target = rng.choice(candidates)
    valid, invalid = VALUES[target.ns, target.name]
    pool = invalid if invalid and rng.random() < 0.6 else valid
    target.children = [escape(rng.choice(pool))] if pool else []
    return f"value of {target.name}"


def mutate_attribute_value(root: El, rng: random.Random) -> str:
    candidates = [
        (e, name)
        for e in root.walk()
        for name, _ in e.attrs
        if (e.ns, e.name, name) in ATTRIBUTE_VALUES
    ]
    if not candidates:
        return "none"
    target, name = rng.choice(candidates)
    valid, invalid = ATTRIBUTE_VALUES[target.ns, target.name, name]
    pool = invalid if invalid and rng.random() < 0.6 else valid
    value = rng.choice(pool)
    quoted = escape(value).replace('"', "&quot;")
    target.attrs = [(n, quoted if n == name else v) for n, v in target.attrs]
    return f"attribute {name} of {target.name}"


def lexical(root: El, rng: random.Random) -> str:
    """A value written another way: spaces around it, CDATA, references, a comment or an
    instruction inside it, an entity."""
    candidates = [e for e in values(root) if e.children]
    if not candidates:
        return "none"
    target = rng.choice(candidates)
    text = "".join(c for c in target.children if isinstance(c, str))
    raw = text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    kind = rng.choice(("space", "cdata", "split-cdata", "reference", "comment", "pi", "entity"))
    at = rng.randrange(len(text) + 1)
    while 0 < at < len(text) and "&" in text[max(0, at - 8) : at]:
        at -= 1  # not inside a reference
    if kind == "space":
        new = rng.choice((" ", "\n  ", "\t", "\r\n", "&#32;", "&#xA;")) + text
        new += rng.choice(("", " ", "\n", "&#9;"))
    elif kind == "cdata":
        new = f"<![CDATA[{raw}]]>"
    elif kind == "split-cdata":
        cut = rng.randrange(len(raw) + 1)
        new = f"<![CDATA[{raw[:cut]}]]><![CDATA[{raw[cut:]}]]>"
    elif kind == "reference" and raw:
        cut = rng.randrange(len(raw))
        code = ord(raw[cut])
        reference = rng.choice((f"&#{code};", f"&#x{code:X};"))
        new = escape(raw[:cut]) + reference + escape(raw[cut + 1 :])
    elif kind == "comment":
        new = text[:at] + "<!-- c -->" + text[at:]
    elif kind == "pi":
        new = text[:at] + "<?pi x?>" + text[at:]
    else:
        new = text[:at] + rng.choice(("&amp;", "&lt;", "&quot;", "&apos;")) + text[at:]
    target.children = [new]
    return f"{kind} in {target.name}"


def reorder(root: El, rng: random.Random) -> str:
    candidates = [e for e in parents(root) if len([c for c in e.children if isinstance(c, El)]) > 1]
    if not candidates:
        return "none"
    target = rng.choice(candidates)
    kids = [c for c in target.children if isinstance(c, El)]
    if rng.random() < 0.5:
        rng.shuffle(kids)
    else:
        at = rng.randrange(len(kids) - 1)
        kids[at], kids[at + 1] = kids[at + 1], kids[at]
    target.children = list(kids)
    return f"order in {target.name}"


def delete(root: El, rng: random.Random) -> str:
    candidates = [e for e in parents(root) if e is not root or len(e.children) > 1]
    if not candidates:
        return "none"
    target = rng.choice(candidates)
    kids = [c for c in target.children if isinstance(c, El)]
    gone = rng.choice(kids)
    target.children.remove(gone)
    return f"{gone.name} removed from {target.name}"


def below_root(root: El, rng: random.Random) -> El | None:
    """An element below the root, chosen by ``rng`` (None: the root has none)."""
    candidates = [e for e in root.walk() if e is not root]
    return rng.choice(candidates) if candidates else None


def repeat(root: El, rng: random.Random) -> str:
    target = below_root(root, rng)
    if target is None:
        return "none"
    holder = next(e for e in root.walk() if target in e.children)
    at = holder.children.index(target)
    times = 1 if rng.random() < 0.8 else rng.choice((31, 32, 33))
    for _ in range(times):
        holder.children.insert(at, target.copy())
    return f"{target.name} repeated {times}"


# (namespace, name, content) of elements to insert anywhere.
INSERTS = (
    ("sm", "foo", "x"),
    ("sm", "url", ""),
    ("sm", "loc", f"{PAGES}extra"),
    ("sm", "lastmod", "2026-11-05"),
    ("sm", "sitemap", ""),
    ("image", "foo", "x"),
    ("image", "image", ""),
    ("image", "loc", "https://cdn.example.com/x.jpg"),
    ("image", "caption", "c"),
    ("video", "foo", "x"),
    ("video", "title", "t"),
    ("video", "video", ""),
    ("video", "tag", "t"),
    ("news", "news", ""),
    ("news", "foo", "x"),
    ("news", "title", "t"),
    ("xhtml", "link", ""),
    ("xhtml", "a", "x"),
    ("mobile", "mobile", ""),
    ("mobile", "foo", ""),
    ("pagemap", "PageMap", ""),
    ("pagemap", "DataObject", ""),
    ("pagemap", "Attribute", "v"),
    ("", "foo", "x"),
    ("", "loc", f"{PAGES}x"),
    (FOREIGN[0], "custom", "x"),
    (FOREIGN[1], "thing", ""),
    (FOREIGN[2], "link", ""),
)


def insert(root: El, rng: random.Random) -> str:
    target = rng.choice([e for e in root.walk()])
    ns, name, content = rng.choice(INSERTS)
    if ns.startswith(("http", "urn")) and rng.random() < 0.3:
        ns = rng.choice(LOOKALIKES)
    new = leaf(ns, name, content)
    target.children.insert(rng.randrange(len(target.children) + 1), new)
    return f"{name} ({ns or 'no namespace'}) into {target.name}"


def renamespace(root: El, rng: random.Random) -> str:
    target = rng.choice(root.walk())
    target.ns = rng.choice((*LOOKALIKES, *FOREIGN, "", "sm", "image", "video"))
    return f"namespace of {target.name}"


def add_attribute(root: El, rng: random.Random) -> str:
    target = rng.choice(root.walk())
    required = REQUIRED.get((target.ns, target.name))
    if required and rng.random() < 0.4:
        target.attrs = [(n, v) for n, v in target.attrs if n != required]
        return f"{required} removed from {target.name}"
    name, value = rng.choice(ODD_ATTRIBUTES)
    if any(n == name for n, _ in target.attrs):
        return "none"
    target.attrs.append((name, value))
    return f"attribute {name} on {target.name}"


def mixed(root: El, rng: random.Random) -> str:
    candidates = parents(root) or [root]
    target = rng.choice(candidates)
    text = rng.choice(
        ("x", " x ", "&#32;", "&#160;", "\u00a0", "&amp;", "<![CDATA[ ]]>", "<![CDATA[x]]>")
    )
    target.children.insert(rng.randrange(len(target.children) + 1), text)
    return f"text {text!r} in {target.name}"


def oddity(root: El, rng: random.Random) -> str:
    """A comment, an instruction or white space between children."""
    target = rng.choice(root.walk())
    text = rng.choice(("<!-- c -->", "<?pi x?>", "\n\t ", "<!---->", "<?xml-stylesheet href='a'?>"))
    target.children.insert(rng.randrange(len(target.children) + 1), text)
    return f"{text!r} in {target.name}"


def broken(root: El, rng: random.Random) -> str:
    """Markup that is not well-formed, or not namespace-well-formed."""
    target = below_root(root, rng)
    if target is None:
        return "none"
    kind = rng.randrange(4)
    if kind == 0:
        target.children.append(rng.choice(("&", "<", "&nbsp;", "&#0;", "]]>", "&#xD800;")))
        return f"raw markup character in {target.name}"
    if kind == 1:
        target.ns = "undeclared"
        return f"undeclared prefix on {target.name}"
    if kind == 2:
        target.attrs.append(target.attrs[0] if target.attrs else ("a", "1"))
        target.attrs.append(("a", "1"))
        return f"repeated attribute on {target.name}"
    target.children.append("<unclosed>")
    return f"unclosed element in {target.name}"


def same_id(root: El, rng: random.Random) -> str:
    """The same id (an xs:ID, unique in a document) on two xhtml:link elements."""
    found = [e for e in root.walk() if e.ns == "xhtml" and e.name == "link"]
    if not found:
        return "none"
    chosen = rng.sample(found, min(2, len(found)))
    value = rng.choice(("a", "a", " a ", "x-1"))
    for link in chosen:
        link.attrs = [(n, v) for n, v in link.attrs if n != "id"] + [("id", value)]
    return f"id {value!r} on {len(chosen)} links"


def empty(root: El, rng: random.Random) -> str:
    target = below_root(root, rng)
    if target is None:
        return "none"
    target.children = []
    return f"{target.name} emptied"


MUTATIONS = (
    (mutate_value, 6),
    (mutate_attribute_value, 3),
    (lexical, 3),
    (reorder, 2),
    (delete, 2),
    (repeat, 2),
    (insert, 3),
    (renamespace, 1),
    (add_attribute, 2),
    (mixed, 1),
    (oddity, 1),
    (empty, 1),
    (broken, 1),
    (same_id, 1),
)


def mutated(root: El, rng: random.Random) -> list[str]:
    kinds = [m for m, _ in MUTATIONS]
    weights = [w for _, w in MUTATIONS]
    done = []
    for _ in range(rng.choice((0, 1, 1, 1, 2, 2, 3))):
        done.append(rng.choices(kinds, weights)[0](root, rng))
    return done


# -- writing ----------------------------------------------------------------------------


@dataclass
class Layout:
    """How a document writes its namespaces: the prefix of each (None: the default
    namespace), where they are declared, and the white space between elements."""

    prefixes: dict[str, str | None]
    declare_on_root: bool
    indent: str


def layout(rng: random.Random) -> Layout:
    prefixes: dict[str, str | None] = {
        "sm": None if rng.random() < 0.85 else rng.choice(("sm", "s")),
        "image": rng.choice(("image", "image", "img")),
        "video": rng.choice(("video", "video", "v")),
        "news": rng.choice(("news", "news", "n")),
        "xhtml": rng.choice(("xhtml", "xhtml", "x")),
        "mobile": rng.choice(("mobile", "m")),
        "pagemap": rng.choice(("pagemap", "PageMap", "pm")),
        "xsi": "xsi",
    }
    return Layout(prefixes, rng.random() < 0.85, rng.choice(("\n  ", "", "\r\n\t")))


def serialize(root: El, shape: Layout) -> str:
    root_attrs = list(root.attrs)
    scope: dict[str, str] = {}  # namespace URI -> prefix ("" for the default namespace)
    if shape.declare_on_root:
        for key, prefix in shape.prefixes.items():
            uri = NAMESPACES[key]
            root_attrs.append((f"xmlns:{prefix}" if prefix else "xmlns", uri))
            scope[uri] = prefix or ""
    scope.setdefault("", "")
    out: list[str] = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    write(root, root_attrs, scope, "", shape, out, 0)
    out.append("\n")
    return "".join(out)


def write(
    element: El,
    attrs: list[tuple[str, str]],
    scope: dict[str, str],
    default: str,
    shape: Layout,
    out: list[str],
    depth: int,
) -> None:
    if element.ns == "undeclared":
        out.append(f"<u:{element.name}/>")
        return
    uri = NAMESPACES.get(element.ns, element.ns)
    scope = dict(scope)
    declarations: list[tuple[str, str]] = []
    if any(n == "xmlns" for n, _ in attrs):
        default = next(v for n, v in attrs if n == "xmlns")
    for name, value in attrs:
        if name.startswith("xmlns:"):
            scope[value] = name[6:]
    if uri == default:
        tag = element.name
    elif scope.get(uri):
        tag = f"{scope[uri]}:{element.name}"
    elif uri == "":
        declarations.append(("xmlns", ""))
        default = ""
        tag = element.name
    elif element.ns in shape.prefixes and shape.prefixes[element.ns] is None:
        declarations.append(("xmlns", uri))
        default = uri
        tag = element.name
    else:
        wanted = shape.prefixes.get(element.ns)
        prefix = wanted if wanted and wanted not in scope.values() else f"ns{depth}"
        declarations.append((f"xmlns:{prefix}", uri))
        scope[uri] = prefix
        tag = f"{prefix}:{element.name}"
    for name, _ in attrs:
        prefix = name.split(":", 1)[0] if ":" in name else ""
        if prefix in ("xsi", "f", "xsd") and prefix not in scope.values():
            target = {"xsi": NAMESPACES["xsi"], "f": FOREIGN[0]}.get(
                prefix, "http://www.w3.org/2001/XMLSchema"
            )
            declarations.append((f"xmlns:{prefix}", target))
            scope[target] = prefix
    if any(n == "xsi:type" for n, _ in attrs) and "http://www.w3.org/2001/XMLSchema" not in scope:
        declarations.append(("xmlns:xsd", "http://www.w3.org/2001/XMLSchema"))
        scope["http://www.w3.org/2001/XMLSchema"] = "xsd"
    text = "".join(f' {n}="{v}"' for n, v in [*attrs, *declarations])
    if not element.children:
        out.append(f"<{tag}{text}/>")
        return
    out.append(f"<{tag}{text}>")
    nested = any(isinstance(c, El) for c in element.children)
    for child in element.children:
        if isinstance(child, El):
            if nested and shape.indent:
                out.append(shape.indent + "  " * depth)
            write(child, child.attrs, scope, default, shape, out, depth + 1)
        else:
            out.append(child)
    if nested and shape.indent:
        out.append(shape.indent + "  " * (depth - 1) if depth else shape.indent[:1])
    out.append(f"</{tag}>")


# -- checking ---------------------------------------------------------------------------


@dataclass
class Case:
    number: int
    text: str
    root: str
    mutations: list[str]
    path: Path | None = None


@dataclass
class Verdict:
    case: Case
    xmllint: str  # "valid", "invalid", "not-well-formed" or "internal"
    xmllint_says: str
    status: int
    findings: list[dict[str, object]]
    problem: str | None = None
    known: str | None = None


def make_case(seed: int, number: int) -> Case:
    rng = random.Random(f"{seed}:{number}")
    root = document(rng, number)
    done = mutated(root, rng)
    shape = layout(rng)
    if rng.random() < 0.1:  # a root attribute, or text, comments, stray elements at the top
        done.append(root_oddity(root, rng))
    return Case(number, serialize(root, shape), root.name, done)


def root_oddity(root: El, rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        name, value = rng.choice(ODD_ATTRIBUTES)
        root.attrs.append((name, value))
        return f"attribute {name} on the root"
    if kind == 1:
        image = El("image", "image", [], [leaf("image", "loc", "https://cdn.example.com/t.jpg")])
        root.children.insert(rng.choice((0, len(root.children))), image)
        return "image:image at the top"
    if kind == 2:
        root.children.insert(rng.randrange(len(root.children) + 1), "text")
        return "text in the root"
    root.children.insert(0, El(FOREIGN[0], "generator", [], ["x"]))
    return "a foreign element at the top"


def xmllint_verdicts(paths: list[Path], schema: Path) -> dict[Path, tuple[str, str]]:
    """Each file's verdict by ``xmllint --noout --schema``, and what it said."""
    if not paths:
        return {}
    done = subprocess.run(
        ["xmllint", "--noout", "--schema", str(schema), *map(str, paths)],
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    said: dict[str, list[str]] = {}
    verdicts: dict[Path, tuple[str, str]] = {}
    names = {str(p): p for p in paths}
    for line in done.stderr.splitlines():
        for name in names:
            if line.startswith(name + ":") or line.startswith(name + " "):
                said.setdefault(name, []).append(line[len(name) :])
                break
    for name, path in names.items():
        lines = said.get(name, [])
        text = "\n".join(lines)
        if " validates" in lines:
            verdicts[path] = ("valid", text)
        elif " fails to validate" in lines:
            verdicts[path] = ("invalid", text)
        elif " validation generated an internal error" in lines:
            verdicts[path] = ("internal", text)
        else:
            verdicts[path] = ("not-well-formed", text)
    return verdicts


def lint(
    paths: list[Path], fast_path: bool = True
) -> tuple[int, str, dict[str, list[dict[str, object]]]]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "linter"), env.get("PYTHONPATH")]))
    if not fast_path:
        env["SITEMAP_LINT_FAST_PATH"] = "0"
    done = subprocess.run(
        [sys.executable, "-m", "sitemap_lint", "--format", "json", "--isolated", "--now", NOW]
        + [str(path) for path in paths],
        capture_output=True,
        text=True,
        env=env,
        cwd=paths[0].parent,
        check=False,
    )
    try:
        report = json.loads(done.stdout)
        files = {entry["path"]: entry["findings"] for entry in report["files"]}
    except (json.JSONDecodeError, KeyError, TypeError):
        files = {}
    return done.returncode, done.stderr, files


def judge(xmllint: str, findings: list[dict[str, object]]) -> str | None:
    """The disagreement of a case, or None."""
    for finding in findings:
        if not (isinstance(finding.get("line"), int) and isinstance(finding.get("column"), int)):
            return "finding without a position"
        if finding["line"] < 1 or finding["column"] < 1:  # type: ignore[operator]
            return "finding without a position"
    reported = any(
        (f["severity"] == "error" or f["code"] in STRICT_ERRORS) and f["code"] not in SET_CODES
        for f in findings
    )
    if xmllint in ("invalid", "not-well-formed") and not reported:
        return f"xmllint: {xmllint}; no error reported"
    if xmllint == "valid" and any(str(f["code"]).startswith("XS") for f in findings):
        return "xmllint: valid; XS finding reported"
    return None


STRICT_WILDCARD = (
    "No matching global element declaration available, but demanded by the strict wildcard"
)


WHITE_CDATA = re.compile(r"<!\[CDATA\[([ \t\r\n]*)\]\]>")
CHARACTER_CONTENT = "Character content other than whitespace is not allowed"
ROOT_ELEMENT = re.compile(r"element (urlset|sitemapindex): ")


def xmllint_errors(verdict: Verdict) -> list[str]:
    return [line for line in verdict.xmllint_says.splitlines() if "error" in line]


def known_difference(case: Case, verdict: Verdict) -> str | None:
    """The known classes of disagreement where xmllint is wrong or the difference is
    intended (see bench/README.md): a case xmllint rejects, where
    each of its errors is of a known class; None for any other case."""
    errors = xmllint_errors(verdict)
    if verdict.xmllint != "invalid" or not errors:
        return None
    reasons = set()
    codes = {f["code"] for f in verdict.findings}
    left = []
    for line in errors:
        if STRICT_WILDCARD in line and "NS003" in codes:
            # Elements of a namespace no bundled schema declares: the strict wildcard
            # rejects them, Google ignores them. NS003 says so as a warning (an error
            # under the strict profile), by design.
            reasons.add("NS003")
        else:
            left.append(line)
    if left and all(CHARACTER_CONTENT in line for line in left) and WHITE_CDATA.search(case.text):
        # White space in a CDATA section between elements: XML Schema 1.0 allows white
        # space characters in element-only content however they are written (3.4.4,
        # clause 2.3; CDATA sections are not in the infoset), but libxml2 counts a CDATA
        # section as character content. sitemap-lint reads it as white space, as lxml's
        # parse does. Known when xmllint rejects none of these elements written as plain
        # text.
        plain = WHITE_CDATA.sub(lambda section: section[1], case.text)
        assert case.path is not None
        written = case.path.with_suffix(".plain.xml")
        written.write_text(plain, encoding="utf-8", newline="")
        schema = "bundle-siteindex.xsd" if case.root == "sitemapindex" else "bundle-urlset.xsd"
        _, said = xmllint_verdicts([written], SCHEMAS / schema)[written]
        written.unlink()
        if not any(
            CHARACTER_CONTENT in line and not ROOT_ELEMENT.search(line)
            for line in said.splitlines()
        ):
            reasons.add("white space in CDATA between elements (libxml2)")
            left = []
    return ", ".join(sorted(reasons)) if not left else None


def check_batch(cases: list[Case], directory: Path) -> list[Verdict]:
    for stale in directory.iterdir():
        stale.unlink()
    for case in cases:
        case.path = directory / f"case-{case.number}.xml"
        case.path.write_text(case.text, encoding="utf-8", newline="")
    paths = [c.path for c in cases if c.path]
    index = [c.path for c in cases if c.path and c.root == "sitemapindex"]
    urlsets = [p for p in paths if p not in index]
    said = xmllint_verdicts(urlsets, SCHEMAS / "bundle-urlset.xsd")
    said |= xmllint_verdicts(index, SCHEMAS / "bundle-siteindex.xsd")
    status, stderr, files = lint(paths)
    if status not in (0, 1) or "Traceback" in stderr or len(files) != len(paths):
        if len(cases) > 1:  # find the case: each alone
            return [v for case in cases for v in check_batch([case], directory)]
        case = cases[0]
        kind, text = said[case.path]  # type: ignore[index]
        problem = f"crash: status {status}: {stderr.strip()[-2000:]}"
        return [Verdict(case, kind, text, status, [], problem)]
    verdicts = []
    for case in cases:
        assert case.path is not None
        kind, text = said[case.path]
        findings = files[str(case.path)]
        verdict = Verdict(case, kind, text, status, findings, judge(kind, findings))
        if verdict.problem:
            verdict.known = known_difference(case, verdict)
        verdicts.append(verdict)
    return verdicts


def fast_path_label(verdict: Verdict, directory: Path) -> str:
    """Whether the disagreement stays without the fast path."""
    case = verdict.case
    assert case.path is not None
    alone = directory / "alone"
    alone.mkdir(exist_ok=True)
    path = alone / case.path.name
    path.write_text(case.text, encoding="utf-8", newline="")
    labels = []
    for fast in (True, False):
        status, _, files = lint([path], fast_path=fast)
        findings = files.get(str(path), [])
        problem = judge(verdict.xmllint, findings) if status in (0, 1) else "crash"
        labels.append(problem is not None)
    path.unlink()
    if labels == [True, True]:
        return "also without the fast path"
    if labels == [True, False]:
        return "fast path only"
    return "only in a batch"


def keep(verdict: Verdict, label: str, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    case = verdict.case
    (directory / f"case-{case.number}.xml").write_text(case.text, encoding="utf-8", newline="")
    note = [
        f"case {case.number}: {verdict.problem} ({label})",
        f"mutations: {'; '.join(case.mutations) or 'none'}",
        f"xmllint: {verdict.xmllint}",
        verdict.xmllint_says,
        "sitemap-lint:",
        *(
            f"  {f['line']}:{f['column']} {f['code']} [{f['severity']}] {f['message']}"
            for f in verdict.findings
        ),
    ]
    (directory / f"case-{case.number}.txt").write_text("\n".join(note) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=0, help="stop after this many cases")
    parser.add_argument("--batch", type=int, default=200, help="cases per sitemap-lint run")
    parser.add_argument("--keep", type=Path, help="write the disagreeing cases here")
    parser.add_argument("--quiet", action="store_true", help="only the summary line")
    args = parser.parse_args()
    if shutil.which("xmllint") is None:
        print("xmllint not found (Debian: libxml2-utils)", file=sys.stderr)
        return 2
    deadline = time.monotonic() + args.minutes * 60
    counts: Counter[str] = Counter()
    disagreements = 0
    number = 0
    with tempfile.TemporaryDirectory(prefix="fuzz-schema-") as temporary:
        directory = Path(temporary)
        batch_directory = directory / "batch"
        batch_directory.mkdir()
        while time.monotonic() < deadline and not (args.cases and number >= args.cases):
            size = args.batch if not args.cases else min(args.batch, args.cases - number)
            cases = [make_case(args.seed, number + k) for k in range(size)]
            number += size
            for verdict in check_batch(cases, batch_directory):
                counts[verdict.xmllint] += 1
                if not verdict.problem:
                    continue
                if verdict.known:
                    counts[f"known: {verdict.known}"] += 1
                    continue
                disagreements += 1
                label = fast_path_label(verdict, directory)
                counts[
                    f"{verdict.problem.split(':')[0] if verdict.problem.startswith('crash') else verdict.problem}"
                ] += 1
                if not args.quiet:
                    print(
                        f"case {verdict.case.number}: {verdict.problem} ({label}); "
                        f"{'; '.join(verdict.case.mutations)}",
                        flush=True,
                    )
                if args.keep:
                    keep(verdict, label, args.keep)
    details = ", ".join(f"{name} {count}" for name, count in sorted(counts.items()))
    print(
        f"schema fuzz: seed {args.seed}, {number} cases ({details}); {disagreements} disagreements"
    )
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
