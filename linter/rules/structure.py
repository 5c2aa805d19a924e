"""Structure rules: which elements stand where, how often and in which order."""

from __future__ import annotations

import difflib
from typing import Protocol

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node
from sitemap_lint.rules.base import ERROR, rule

ROOTS = {"urlset": "url", "sitemapindex": "sitemap"}
ENTRY_CHILDREN = {
    "url": ("loc", "lastmod", "changefreq", "priority"),
    "sitemap": ("loc", "lastmod"),
}
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"


class Reporter(Protocol):
    def add(self, finding: Finding, covers: Node | None = None) -> None: ...


UNKNOWN_ROOT = rule(
    "ST001",
    "unknown-root",
    ERROR,
    summary="The root element is neither `urlset` nor `sitemapindex`",
    what="Checks that the document's root element is `urlset` (a sitemap) or `sitemapindex`.",
    why="""
        Search engines accept only these two roots in an XML sitemap ("Unsupported
        format"); anything else is not read.
    """,
    bad='<urls xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    good='<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
)

MISSING_LOC = rule(
    "ST002",
    "missing-loc",
    ERROR,
    summary="An entry has no `loc`",
    what="Checks that every `url` and every `sitemap` entry has a `loc` child.",
    why="""
        `loc` is the only required field: an entry without it says nothing, and
        Google reports "Missing XML tag".
    """,
    bad="<url><lastmod>2024-05-01</lastmod></url>",
    good="<url><loc>https://example.com/</loc><lastmod>2024-05-01</lastmod></url>",
)

REPEATED_CHILD = rule(
    "ST003",
    "repeated-child",
    ERROR,
    summary="A child that may occur once occurs again",
    what="Detects a second `loc`, `lastmod`, `changefreq` or `priority` in one entry.",
    why="""
        Each field occurs at most once per entry. Google reports "Invalid XML: too
        many tags"; which value wins is undefined. Two pages need two entries.
    """,
    bad="""
        <url>
          <loc>https://example.com/a</loc>
          <loc>https://example.com/b</loc>
        </url>
    """,
    good="""
        <url><loc>https://example.com/a</loc></url>
        <url><loc>https://example.com/b</loc></url>
    """,
)

UNKNOWN_ELEMENT = rule(
    "ST004",
    "unknown-element",
    ERROR,
    summary="An element the sitemap namespace does not define",
    what="""
        Reports elements in the sitemap namespace that the protocol does not
        define at that place, with the closest valid name ("did you mean").
        Extension elements belong in their own namespace (`image:image`, not
        `image`).
    """,
    why="""
        Unknown tags make the file invalid against the schema; Yandex reports
        "Unknown tag" and the data in them is lost.
    """,
    bad="<url><loc>https://example.com/</loc><changefrec>daily</changefrec></url>",
    good="<url><loc>https://example.com/</loc><changefreq>daily</changefreq></url>",
)

CHILD_ORDER = rule(
    "ST005",
    "child-order",
    ERROR,
    summary="Children of an entry are out of the schema's order",
    what="""
        Checks the order `loc`, `lastmod`, `changefreq`, `priority`, then
        extension elements (for an index entry: `loc`, `lastmod`, then extensions).
    """,
    why="""
        The schema defines a sequence, so another order makes the file invalid,
        and strict consumers reject it even though lenient crawlers read it.
    """,
    bad="<url><lastmod>2024-05-01</lastmod><loc>https://example.com/</loc></url>",
    good="<url><loc>https://example.com/</loc><lastmod>2024-05-01</lastmod></url>",
)

EMPTY_VALUE = rule(
    "ST006",
    "empty-value",
    ERROR,
    summary="An element that needs a value is empty",
    what="Detects `loc`, `lastmod`, `changefreq` and `priority` with no text (or only whitespace).",
    why="""
        An empty value is invalid ("Tag cannot be empty"); for `loc` the entry
        names no page. Leave optional elements out instead of writing them empty.
    """,
    bad="<url><loc>https://example.com/</loc><lastmod></lastmod></url>",
    good="<url><loc>https://example.com/</loc></url>",
)

MISPLACED_ENTRY = rule(
    "ST007",
    "misplaced-entry",
    ERROR,
    summary="A `url` in a sitemap index, or a `sitemap` in a URL set",
    what="Detects entries of the other document type: `url` inside `sitemapindex`, `sitemap` inside `urlset`.",
    why="""
        An index lists sitemaps and a sitemap lists pages; mixing them makes the
        file invalid and the entries are ignored. Move pages into a sitemap and
        list that sitemap in the index.
    """,
    bad="""
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc></url>
        </sitemapindex>
    """,
    good="""
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <sitemap><loc>https://example.com/sitemap-pages.xml</loc></sitemap>
        </sitemapindex>
    """,
)

NO_ENTRIES = rule(
    "ST008",
    "no-entries",
    ERROR,
    summary="The sitemap or index has no entries",
    what="Checks that a `urlset` has at least one `url` and a `sitemapindex` at least one `sitemap`.",
    why="""
        The schema requires at least one entry, and Google reports "Empty
        sitemap". An empty file usually means the generator found nothing to list.
    """,
    bad='<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
    good="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc></url>
        </urlset>
    """,
)

UNEXPECTED_TEXT = rule(
    "ST009",
    "unexpected-content",
    ERROR,
    summary="Text between elements, or elements inside a value",
    what="""
        Detects text directly inside `urlset`, `sitemapindex`, `url` or `sitemap`
        (only elements may stand there), and child elements inside `loc`,
        `lastmod`, `changefreq` or `priority` (only text may stand there).
    """,
    why="""
        Stray text is usually a broken template (an unclosed tag, a value printed
        outside its element); Yandex reports "Tag cannot contain other tags". The
        file is invalid against the schema.
    """,
    bad="<url>https://example.com/<loc>https://example.com/</loc></url>",
    good="<url><loc>https://example.com/</loc></url>",
)

UNEXPECTED_ATTRIBUTE = rule(
    "ST010",
    "unexpected-attribute",
    ERROR,
    summary="An attribute on a sitemap element",
    what="""
        Detects attributes on the sitemap namespace's elements, which define
        none. Namespace declarations and `xsi:` attributes such as
        `xsi:schemaLocation` are allowed.
    """,
    why="""
        The schema allows no attributes there, so the file is invalid; Google
        reports "Invalid attribute value". The data in them is ignored.
    """,
    bad='<url><loc type="page">https://example.com/</loc></url>',
    good="<url><loc>https://example.com/</loc></url>",
)

TOO_DEEP = rule(
    "ST011",
    "nesting-too-deep",
    ERROR,
    summary="Elements nested deeper than any sitemap needs",
    what="""
        Reports elements nested more than 32 levels deep; they are not checked,
        so a hostile file cannot exhaust memory or time.
    """,
    why="No sitemap or extension nests deeper than a few levels; such a file is broken or hostile.",
    bad="<url><loc>https://example.com/</loc><x:a><x:a><x:a>... (hundreds of levels)</x:a></x:a></x:a></url>",
    good="<url><loc>https://example.com/</loc></url>",
)

RULES = (
    UNKNOWN_ROOT,
    MISSING_LOC,
    REPEATED_CHILD,
    UNKNOWN_ELEMENT,
    CHILD_ORDER,
    EMPTY_VALUE,
    MISPLACED_ENTRY,
    NO_ENTRIES,
    UNEXPECTED_TEXT,
    UNEXPECTED_ATTRIBUTE,
    TOO_DEEP,
)

_KNOWN_EXTENSION_NAMES = {"image", "video", "news", "link", "mobile"}


def unknown_root(root: Node) -> Finding:
    hint = _did_you_mean(root.name, ROOTS)
    if root.name in ("rss", "feed"):
        hint = " (RSS and Atom feeds are not checked by this command)"
    return UNKNOWN_ROOT.at(
        root.line,
        root.column,
        f"root element <{root.name}> is not a sitemap root{hint}; "
        "use <urlset> for a sitemap or <sitemapindex> for an index",
    )


def no_entries(root: Node) -> Finding:
    entry = ROOTS[root.name]
    return NO_ENTRIES.at(
        root.line, root.column, f"<{root.name}> has no <{entry}> entries; add at least one"
    )


def check_attributes(node: Node, report: Reporter) -> None:
    for key in node.attrs:
        if key.startswith(XSI_NS + "}"):
            continue
        shown = key.rpartition("}")[2]
        report.add(
            UNEXPECTED_ATTRIBUTE.at(
                node.line,
                node.column,
                f'<{node.name}> takes no attributes; remove {shown}="{node.attrs[key]}"',
            ),
            node,
        )
        return


def check_top_level(node: Node, root: Node, report: Reporter) -> None:
    """A sitemap-namespace element directly in the root that is not the right entry."""
    expected = ROOTS[root.name]
    if node.name in ENTRY_CHILDREN:
        message = (
            f"<{node.name}> does not belong in <{root.name}>; "
            f"a {'sitemap index lists <sitemap>' if root.name == 'sitemapindex' else 'sitemap lists <url>'}"
            " entries"
        )
        report.add(MISPLACED_ENTRY.at(node.line, node.column, message), node)
        return
    hint = _did_you_mean(node.name, [expected])
    if node.name in ENTRY_CHILDREN["url"]:
        hint = f" (it must stand inside a <{expected}> entry)"
    report.add(
        UNKNOWN_ELEMENT.at(
            node.line, node.column, f"unknown element <{node.name}> in <{root.name}>{hint}"
        ),
        node,
    )


def check_entry(entry: Node, sitemap_ns: str, report: Reporter) -> dict[str, Node]:
    """Check an entry's children; return the first occurrence of each field with a value."""
    allowed = ENTRY_CHILDREN[entry.name]
    found: dict[str, Node] = {}
    last_rank = -1
    extension_seen: Node | None = None
    if entry.attrs:
        check_attributes(entry, report)
    if entry.nested_text or (not entry.children and entry.text.strip()):
        report.add(
            UNEXPECTED_TEXT.at(
                entry.line,
                entry.column,
                f"text directly inside <{entry.name}>; values belong in its child elements",
            ),
            entry,
        )
    for child in entry.children:
        if child.ns != sitemap_ns:
            if extension_seen is None:
                extension_seen = child
            continue
        name = child.name
        rank = allowed.index(name) if name in allowed else -1
        if rank < 0:
            report.add(_unknown_child(child, entry), child)
            continue
        if name in found:
            first = found[name]
            report.add(
                REPEATED_CHILD.at(
                    child.line,
                    child.column,
                    f"<{name}> repeated in one <{entry.name}> (first at line {first.line}); "
                    "keep one",
                ),
                child,
            )
            continue
        found[name] = child
        if rank < last_rank or extension_seen is not None:
            report.add(_order(child, entry, allowed, extension_seen), child)
        else:
            last_rank = rank
        if child.attrs:
            check_attributes(child, report)
        if child.children:
            report.add(
                UNEXPECTED_TEXT.at(
                    child.line,
                    child.column,
                    f"<{name}> contains the element <{child.children[0].name}>; "
                    "it may only hold text",
                ),
                child,
            )
            del found[name]
        elif not child.text.strip():
            report.add(
                EMPTY_VALUE.at(
                    child.line,
                    child.column,
                    f"<{name}> is empty; "
                    + ("give the page's URL" if name == "loc" else "give a value or remove it"),
                ),
                child,
            )
            del found[name]
    if "loc" not in found and not any(
        c.name == "loc" and c.ns == sitemap_ns for c in entry.children
    ):
        report.add(
            MISSING_LOC.at(
                entry.line,
                entry.column,
                f"<{entry.name}> has no <loc>; every entry needs the URL it stands for",
            ),
            entry,
        )
    return found


def _unknown_child(child: Node, entry: Node) -> Finding:
    name = child.name
    if entry.name == "sitemap" and name in ENTRY_CHILDREN["url"]:
        message = f"<{name}> is not allowed in a sitemap index entry; remove it"
    elif name in _KNOWN_EXTENSION_NAMES:
        message = (
            f"<{name}> is in the sitemap namespace; extension elements need their own "
            f"prefix and namespace (for example <{name}:{name}>)"
        )
    else:
        message = f"unknown element <{name}> in <{entry.name}>" + _did_you_mean(
            name, ENTRY_CHILDREN[entry.name]
        )
    return UNKNOWN_ELEMENT.at(child.line, child.column, message)


def _order(child: Node, entry: Node, allowed: tuple[str, ...], extension: Node | None) -> Finding:
    if extension is not None and (extension.line, extension.column) < (child.line, child.column):
        message = f"<{child.name}> must come before extension elements such as <{extension.name}>"
    else:
        message = f"<{child.name}> is out of order; the order is " + ", ".join(
            f"<{name}>" for name in allowed
        )
    return CHILD_ORDER.at(child.line, child.column, message)


def _did_you_mean(name: str, candidates) -> str:
    lowered = {c.lower(): c for c in candidates}
    if name.lower() in lowered:
        return f" (did you mean <{lowered[name.lower()]}>? names are case-sensitive)"
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean <{close[0]}>?)" if close else ""
