"""Structure rules: which elements stand where, how often and in which order."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Protocol

from sitemap_lint.finding import Finding
from sitemap_lint.model import SITEMAP_NS, USUAL_PREFIXES, XML_NS, XML_SPACE, Node, written_name
from sitemap_lint.rules.base import ERROR, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.events import FileEnd, Markup, MarkupKind, TopLevel
from sitemap_lint.rules.lookalike import differences
from sitemap_lint.rules.registry import CHILDREN, END, MARKUP, ROOT, TOP_LEVEL, proved_value
from sitemap_lint.support.patterns import lazy

ROOTS = {"urlset": "url", "sitemapindex": "sitemap"}
ENTRY_CHILDREN = {
    "url": ("loc", "lastmod", "changefreq", "priority"),
    "sitemap": ("loc", "lastmod"),
}
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"


class Covers(Protocol):
    """What a finding covers: the nodes whose schema errors it explains (a Node
    covers itself and its descendants)."""

    def iter(self) -> Iterator[Node]: ...


class Reporter(Protocol):
    def add(self, finding: Finding, covers: Covers | None = None) -> None: ...


class FileContext(Protocol):
    """What the structure checks read of ``rules.entry.FileContext``."""

    @property
    def entry_name(self) -> str: ...

    @property
    def prefixes(self) -> Mapping[str, str]: ...


class CoverageReporter(Reporter, Protocol):
    """A reporter that also tells whether a finding covered a node (``sink.FindingSink``)."""

    def covered(self, node: Node) -> bool: ...


UNKNOWN_ROOT = rule(
    "ST001",
    "unknown-root",
    ERROR,
    summary="The root element is neither `urlset` nor `sitemapindex`",
    what="""
        Checks that the document's root element is `urlset` (a sitemap) or
        `sitemapindex`. A root that is an entry (`url`, `sitemap`) means the
        root's start tag is missing: the message says which to write before
        it, and the entries after the first are not reported again as content
        after the root.
    """,
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
        `image`). An element of the root that wraps entries (a second `urlset`
        inside the first) is reported once, as a wrapper to remove; the root
        then has entries (no ST008).
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
        `lastmod`, `changefreq` or `priority` (only text may stand there). The
        extension elements that hold only elements are checked the same way:
        text between the children of `image:image`, `video:video`,
        `video:tvshow`, `news:news` or `news:publication` is reported where it
        starts. Text in a CDATA section is text: `<![CDATA[...]]>` is legal XML
        inside a value such as `image:loc`, not between elements. Text in the
        root that starts with a template tag (`{% ... %}`, `{{ ... }}`) is named
        as such: the file is a template's source (Jekyll, Hugo, Jinja), not the
        sitemap rendered from it. A PHP error message printed into the root
        (`<br />` `<b>Warning</b>: ... in <b>file.php</b> on line <b>12</b>`)
        is one finding where it starts, not one per tag of it; a byte order mark
        left between elements (U+FEFF, from joined files) is named as such.
    """,
    why="""
        Stray text is usually a broken template (an unclosed tag, a value printed
        outside its element, a CDATA section meant for a caption); Yandex reports
        "Tag cannot contain other tags". The file is invalid against the schema,
        and search engines ignore the text.
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
        `xsi:schemaLocation` are allowed; on `urlset` and `sitemapindex`, only
        `xsi:schemaLocation` and `xsi:noNamespaceSchemaLocation` are (the schema
        rejects `xsi:type` and `xsi:nil` there).
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

EXTENSION_OUTSIDE_ENTRY = rule(
    "ST012",
    "extension-outside-entry",
    ERROR,
    summary="An extension element directly in `urlset` or `sitemapindex`, outside any entry",
    what="""
        Detects elements of the image, video, news, XHTML (hreflang), mobile and
        PageMap extensions that stand directly in the root, outside every `url`
        (or `sitemap`), and points at the element. An element of any other
        namespace is reported there too once an entry precedes it: the schema
        takes such elements in the root only before the first entry. (An element
        in a look-alike of the sitemap namespace is NS002's.)
    """,
    why="""
        An extension element describes the page of the `url` it stands in;
        outside one it describes nothing, and search engines ignore it. (The
        schema even rejects it after the first `url`.) It is usually a
        generator that closed the `url` too early.
    """,
    bad="""
        <url><loc>https://example.com/shoes</loc></url>
        <image:image><image:loc>https://example.com/img/shoe.jpg</image:loc></image:image>
    """,
    good="""
        <url>
          <loc>https://example.com/shoes</loc>
          <image:image><image:loc>https://example.com/img/shoe.jpg</image:loc></image:image>
        </url>
    """,
)

EXTENSION_IN_INDEX = rule(
    "ST013",
    "extension-in-index-entry",
    WARNING,
    summary="An extension element in a `sitemap` entry of a sitemap index",
    what="""
        Detects elements of the image, video, news, XHTML (hreflang), mobile and
        PageMap extensions in a `sitemap` entry of a sitemap index, and points at each.
        What they hold is still checked, by their own rules and the schema: moved
        into a `url`, they keep their defects.
    """,
    why="""
        An index entry names a sitemap file: Google reads its `loc` and `lastmod`
        only. An extension describes a page (its images, videos, news article or
        language versions), so in an index it describes nothing and is ignored,
        although the schemas accept it there. It is usually a generator that wrote
        the index with the template of a sitemap, and the pages it meant to annotate
        go without it.
    """,
    bad="""
        <sitemap>
          <loc>https://example.com/sitemap-products.xml</loc>
          <image:image><image:loc>https://example.com/img/banner.jpg</image:loc></image:image>
        </sitemap>
    """,
    good="""
        <sitemap>
          <loc>https://example.com/sitemap-products.xml</loc>
        </sitemap>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Structure"
ORDER = 50

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
    EXTENSION_OUTSIDE_ENTRY,
    EXTENSION_IN_INDEX,
)

# Extension elements written without their prefix, and the namespace they need.
_EXTENSIONS = {
    "image": ("image", "http://www.google.com/schemas/sitemap-image/1.1"),
    "video": ("video", "http://www.google.com/schemas/sitemap-video/1.1"),
    "news": ("news", "http://www.google.com/schemas/sitemap-news/0.9"),
    "link": ("xhtml", "http://www.w3.org/1999/xhtml"),
    "mobile": ("mobile", "http://www.google.com/schemas/sitemap-mobile/1.0"),
    "PageMap": ("pagemap", "http://www.google.com/schemas/sitemap-pagemap/1.0"),
}
# The extension namespaces and their usual prefixes.
EXTENSION_PREFIXES = {namespace: prefix for prefix, namespace in _EXTENSIONS.values()}


class Only:
    """Marks one node as covered without its descendants.

    ``Reporter.add`` marks every node that ``covers.iter()`` yields. A finding
    about the element itself (an attribute, stray text) must not hide schema
    errors further down, such as an invalid ``image:image`` in the same entry.
    """

    __slots__ = ("node",)

    def __init__(self, node: Node):
        self.node = node

    def iter(self) -> Iterator[Node]:
        return iter((self.node,))


def unknown_root(root: Node) -> Finding:
    wrapper = _ROOT_OF.get(root.name)
    if wrapper is not None:
        return UNKNOWN_ROOT.at(
            root.line,
            root.column,
            f"the file starts with a <{root.name}> entry: the <{wrapper}> start tag is "
            f'missing; write <{wrapper} xmlns="{SITEMAP_NS}"> before the first '
            f"<{root.name}> (and end the file with </{wrapper}>)",
        )
    hint = _did_you_mean(root.name, ROOTS)
    return UNKNOWN_ROOT.at(
        root.line,
        root.column,
        f"root element <{root.name}> is not a sitemap root{hint}; "
        "use <urlset> for a sitemap or <sitemapindex> for an index",
    )


# An entry's name -> the root that holds such entries.
_ROOT_OF = {entry: root for root, entry in ROOTS.items()}


def no_entries(root: Node) -> Finding:
    entry = ROOTS[root.name]
    return NO_ENTRIES.at(
        root.line,
        root.column,
        f"<{root.name}> has no <{entry}> entries; add at least one, or stop listing this file "
        "(in its index, robots.txt or Search Console) while it has none",
    )


@check(END, emits=(NO_ENTRIES,), proof=NO_PROOF)
def check_entry_count(end: FileEnd, file: object, report: Reporter) -> None:
    """A urlset or index without entries; not when reading stopped before its end, nor
    when it holds the other root's entries (ST007 says so at each: one defect)."""
    root = end.root
    if end.entries or end.misplaced or end.cut_short or is_empty_news_sitemap(end):
        return  # (an empty news sitemap is NW019's)
    if root is not None and root.name in ROOTS:
        report.add(no_entries(root))


def is_empty_news_sitemap(end: FileEnd) -> bool:
    """Whether ``end`` is that of a news sitemap without entries, read to its end: a
    urlset that declares the news namespace (NW019's, not ST008's)."""
    root = end.root
    return (
        root is not None
        and end.kind == "urlset"
        and root.name == "urlset"
        and not (end.entries or end.misplaced or end.cut_short)
        and USUAL_PREFIXES["news"] in end.namespaces
    )


@check(ROOT, emits=(UNKNOWN_ROOT,), proof=NO_PROOF)
def root_name(root: Node, file: FileContext, report: Reporter) -> None:
    """ST001 for a root that is neither ``urlset`` nor ``sitemapindex`` (nor a feed's)."""
    if not file.entry_name:
        report.add(unknown_root(root))


@check(ROOT, emits=(UNEXPECTED_ATTRIBUTE,), covers=True, proof=NO_PROOF)
def root_attributes(root: Node, file: FileContext, report: Reporter) -> None:
    """The attributes of a sitemap's or an index's root (the root is always read: no
    proof needed)."""
    if root.attrs and file.entry_name:
        check_attributes(root, report, ROOT_XSI)


def _attribute(key: str, value: str) -> str:
    """An attribute as a message names it: ``xml:lang="en"``, or with the namespace its
    prefix stands for (``gen="x" (namespace urn:x)``)."""
    ns, _, local = key.rpartition("}")
    ns = ns.lstrip("{")
    if ns == XML_NS:
        return f'xml:{local}="{value}"'
    if ns == XSI_NS:
        return f'xsi:{local}="{value}"'
    return f'{local}="{value}"' + (f" (namespace {ns})" if ns else "")


# The xsi: attributes the schema accepts on a root: the others (xsi:type, xsi:nil) make
# it invalid. No engine validates the root (entries are validated under a stand-in), so
# the rule says so; an entry's or a value's xsi: attributes are the schema's to judge.
ROOT_XSI = frozenset((f"{XSI_NS}}}schemaLocation", f"{XSI_NS}}}noNamespaceSchemaLocation"))


def check_attributes(node: Node, report: Reporter, xsi: frozenset[str] | None = None) -> None:
    """One finding per element for its attributes; ``xsi:`` attributes are allowed (those
    of ``xsi`` only, when given)."""
    unexpected = [
        _attribute(key, value)
        for key, value in node.attrs.items()
        if not key.startswith(XSI_NS + "}") or (xsi is not None and key not in xsi)
    ]
    if not unexpected:
        return
    report.add(
        UNEXPECTED_ATTRIBUTE.at(
            node.line,
            node.column,
            f"<{node.name}> takes no attributes; remove {' and '.join(unexpected)}",
        ),
        Only(node),
    )


@check(
    TOP_LEVEL,
    emits=(UNKNOWN_ELEMENT, MISPLACED_ENTRY, EXTENSION_OUTSIDE_ENTRY),
    covers=True,
    proof=NO_PROOF,
)
def top_level_element(element: TopLevel, file: FileContext, report: Reporter) -> None:
    """An element directly in the root that is not one of its entries (the fast path
    proves entries only: no proof needed)."""
    node, root = element.node, element.root
    if node.ns != root.ns:
        check_foreign_top_level(node, root, report, element.entries_before, file.prefixes)
    else:
        check_top_level(node, root, report, file.prefixes)


@check(MARKUP, emits=(UNEXPECTED_TEXT, TOO_DEEP), covers=True, proof=NO_PROOF)
def markup_structure(markup: Markup, options: object, report: Reporter) -> None:
    """Text directly in the root of a sitemap or index; elements nested deeper than the
    reader follows."""
    if markup.kind == MarkupKind.ROOT_TEXT:
        entry = ROOTS.get(markup.name)
        entries = f"<{entry}> entries" if entry else "entries"
        code = _template_code(markup.context)
        php = _PHP_MESSAGE.fullmatch(markup.context)
        if php is not None:
            message = (
                f"PHP {php.group(1)} printed into the sitemap: its error message, HTML tags "
                f"and text, stands directly inside <{markup.name}>; the script that writes "
                "the sitemap reported an error: correct what the message says, and turn "
                "display_errors off on the server, so that the file holds only its entries"
            )
        elif _only_marks(markup.context):
            message = _MARK_MESSAGE.format(f"directly inside <{markup.name}>")
        elif code is not None:
            message = (
                f"template code {code!r} directly inside <{markup.name}>: this is a sitemap "
                "template's source, not rendered; check and submit the sitemap that the "
                "build or the server writes from it"
            )
        else:
            message = (
                f"text directly inside <{markup.name}>; only {entries} may stand there: "
                "remove the text, or move it into the entry it belongs to"
            )
        report.add(UNEXPECTED_TEXT.at(markup.line, markup.column, message))
    elif markup.kind == MarkupKind.TOO_DEEP and markup.node is not None:
        report.add(
            TOO_DEEP.at(
                markup.line,
                markup.column,
                "elements nested more than 32 levels deep; they were not checked: remove the "
                "extra levels (no sitemap element nests more than a few deep)",
            ),
            markup.node,
        )


def check_top_level(
    node: Node, root: Node, report: Reporter, prefixes: Mapping[str, str] | None = None
) -> None:
    """A sitemap-namespace element directly in the root that is not the right entry.
    ``prefixes``: the document's, which name its elements in ST004's messages as it
    writes them (an element in no namespace by its bare name)."""
    expected = ROOTS[root.name]
    if node.name in ENTRY_CHILDREN:
        if root.name == "sitemapindex":
            message = (
                f"<{node.name}> does not belong in <{root.name}>: an index lists only "
                "<sitemap> entries; move the page into a sitemap and list that sitemap here"
            )
        else:
            message = (
                f"<{node.name}> does not belong in <{root.name}>: a sitemap lists only "
                "<url> entries; list the sitemap in a <sitemapindex> instead"
            )
        report.add(MISPLACED_ENTRY.at(node.line, node.column, message), node)
        return
    wrapped = wrapped_entries(node, root.ns, expected)
    if wrapped:
        report.add(wrapper(node, root, wrapped, prefixes), node)
        return
    written = _writer(root.ns, prefixes)
    if node.name in ROOTS:  # the other root: a URL set in an index, or an index in one
        name, root_name = written(node.name), written(root.name)
        fix = (
            f"an index lists sitemap files: move this <{name}> to a file of its own and "
            f"list that file's URL in a <{written('sitemap')}> entry here"
            if root.name == "sitemapindex"
            else f"a sitemap lists pages, not sitemaps: move this <{name}> to a file of "
            "its own and list this sitemap in it"
        )
        report.add(
            UNKNOWN_ELEMENT.at(
                node.line, node.column, f"<{name}> cannot stand inside <{root_name}>; {fix}"
            ),
            node,
        )
        return
    if node.name in ENTRY_CHILDREN[expected]:
        hint = f"; it must stand inside a <{written(expected)}> entry"
    else:
        hint = (
            _did_you_mean(node.name, [expected], written)
            + f"; only <{written(expected)}> entries stand there"
        )
    report.add(
        UNKNOWN_ELEMENT.at(
            node.line,
            node.column,
            f"unknown element <{written(node.name)}> in <{written(root.name)}>{hint}",
        ),
        node,
    )


def wrapped_entries(node: Node, ns: str, entry: str) -> int:
    """How many ``entry`` elements of namespace ``ns`` stand directly in ``node``, an
    element of the root that wraps entries (a second ``urlset`` inside the first)."""
    return sum(1 for child in node.children if child.name == entry and child.ns == ns)


def wrapper(
    node: Node, root: Node, wrapped: int, prefixes: Mapping[str, str] | None = None
) -> Finding:
    """ST004 for an element of the root that wraps ``wrapped`` of its entries (named as
    the document writes them: ``prefixes``)."""
    written = _writer(root.ns, prefixes)
    name, root_name = written(node.name), written(root.name)
    entries = f"{wrapped:,} <{written(ROOTS[root.name])}> {'entry' if wrapped == 1 else 'entries'}"
    return UNKNOWN_ELEMENT.at(
        node.line,
        node.column,
        f"<{name}> inside <{root_name}> wraps {entries}, which search engines do not "
        f"read there: remove the <{name}> start and end tags, so that the entries "
        f"stand directly in <{root_name}>",
    )


def check_foreign_top_level(
    node: Node,
    root: Node,
    report: Reporter,
    entries_before: int = 0,
    prefixes: Mapping[str, str] | None = None,
) -> None:
    """An element outside the sitemap namespace directly in the root: an extension
    element outside any entry, an element in no namespace, or an element of another
    namespace after the first entry (``entries_before``: the entries read before it). The
    schema rejects all three there; an element of an unknown namespace before the first
    entry is the namespace rules' business. ``prefixes``: the document's, which name the
    element as it is written."""
    entry = ROOTS[root.name]
    root_name = _writer(root.ns, prefixes)(root.name)
    if not node.ns and node.name in ENTRY_CHILDREN:
        message = (
            f"<{node.name}> has no namespace, so it is no entry of <{root_name}>: the schema "
            "rejects it and search engines ignore it; put it in the sitemap namespace "
            '(give it the root\'s prefix, or remove the xmlns="" that takes it out)'
        )
        report.add(UNKNOWN_ELEMENT.at(node.line, node.column, message), node)
        return
    if not node.ns:
        message = (
            f"<{node.name}> has no namespace and stands directly in <{root_name}>; the schema "
            f"rejects it there and search engines ignore it: remove it" + _extension_hint(node.name)
        )
        report.add(UNKNOWN_ELEMENT.at(node.line, node.column, message), node)
        return
    prefix = EXTENSION_PREFIXES.get(node.ns)
    if prefix is None:
        if entries_before and not differences(node.ns):  # a look-alike: NS002
            message = (
                f"<{node.name}> of namespace {node.ns} stands directly in <{root.name}> after "
                f"its first <{entry}>; the schema takes elements of other namespaces there "
                "only before the first entry, and search engines ignore it: move it into the "
                f"<{entry}> it describes (after its <loc>) or remove it"
            )
            report.add(EXTENSION_OUTSIDE_ENTRY.at(node.line, node.column, message), node)
        return
    if entry == "url":
        fix = "move it into the <url> of the page it describes (after its <loc>)"
    else:
        fix = "remove it (an index lists sitemaps; extensions describe pages in a sitemap)"
    report.add(
        EXTENSION_OUTSIDE_ENTRY.at(
            node.line,
            node.column,
            f"<{written_name(node, prefixes or {}, prefix)}> stands directly in <{root.name}>, "
            f"outside any <{entry}>; "
            f"search engines ignore it: {fix}",
        ),
        node,
    )


def _extension_hint(name: str) -> str:
    if name not in _EXTENSIONS:
        return ""
    prefix, namespace = _EXTENSIONS[name]
    return (
        f", or write it as <{prefix}:{name}> (its children too) with "
        f'xmlns:{prefix}="{namespace}" declared'
    )


_RANKS = {
    kind: {name: rank for rank, name in enumerate(names)} for kind, names in ENTRY_CHILDREN.items()
}


class _Unheard:
    """A reporter that keeps nothing: the fields of an entry read without the checks."""

    def add(self, finding: Finding, covers: Covers | None = None) -> None:
        pass


_UNHEARD = _Unheard()


def read_fields(entry: Node) -> dict[str, Node]:
    """The fields of ``entry`` as ``children`` finds them, reporting nothing (the
    fallback when none of its rules is enabled)."""
    return check_entry(entry, entry.ns, _UNHEARD)


@check(
    CHILDREN,
    emits=(
        MISSING_LOC,
        REPEATED_CHILD,
        UNKNOWN_ELEMENT,
        CHILD_ORDER,
        EMPTY_VALUE,
        UNEXPECTED_TEXT,
        UNEXPECTED_ATTRIBUTE,
        EXTENSION_IN_INDEX,
    ),
    covers=True,
    provides="fields",
    fallback=read_fields,
    proof=proved_value("structure"),
)
def children(entry: Node, file: FileContext, report: Reporter) -> dict[str, Node]:
    """An entry's children: which stand there, how often and in which order; the
    entry's fields (the first of each with a value) for the field checks."""
    return check_entry(entry, entry.ns, report, file.prefixes)


def check_entry(
    entry: Node, sitemap_ns: str, report: Reporter, prefixes: Mapping[str, str] | None = None
) -> dict[str, Node]:
    """Check an entry's children; return the first occurrence of each field with a value.
    ``prefixes``: the document's, which name its elements in the messages as it writes
    them."""
    written = prefixes or {}
    allowed = ENTRY_CHILDREN[entry.name]
    ranks = _RANKS[entry.name]
    found: dict[str, Node] = {}
    last_rank = -1
    extension_seen: Node | None = None
    loc_explained = False  # a finding already says where the entry's URL went
    if entry.attrs:
        check_attributes(entry, report)
    if entry.nested_text or (not entry.children and entry.text.strip(XML_SPACE)):
        loc_explained = _stray_text(entry, report)
    for child in entry.children:
        if child.ns != sitemap_ns:
            if extension_seen is None:
                extension_seen = child
            if not child.ns:
                _no_namespace(child, entry, report, written)
                loc_explained = loc_explained or child.name == "loc"
            elif entry.name == "sitemap" and child.ns in _EXTENSION_FAMILIES:
                report.add(_extension_in_index(child, written))  # (its content: its checks')
            continue
        name = child.name
        rank = ranks.get(name, -1)
        if rank < 0:
            finding, suggested = _unknown_child(child, entry, written)
            report.add(finding, child)
            loc_explained = loc_explained or suggested == "loc"
            continue
        if name in found:
            first = found[name]
            fix = "; two pages need two entries" if name == "loc" else ""
            report.add(
                REPEATED_CHILD.at(
                    child.line,
                    child.column,
                    f"<{name}> repeated in one <{entry.name}> (first at line {first.line}); "
                    f"keep one{fix}",
                ),
                child,
            )
            continue
        found[name] = child
        if rank < last_rank or extension_seen is not None:
            # The schema reports the first child where its sequence breaks, which
            # may stand before this one: <lastmod> when <loc> comes second.
            report.add(
                _order(child, entry, allowed, extension_seen, written),
                _sequence_break(entry, allowed, sitemap_ns) or child,
            )
        else:
            last_rank = rank
        if child.attrs:
            check_attributes(child, report)
        if child.children:
            report.add(
                UNEXPECTED_TEXT.at(
                    child.line,
                    child.column,
                    f"<{name}> contains the element <{_written(child.children[0], written)}>; "
                    "it may only hold text: remove the markup and keep the value",
                ),
                child,
            )
            del found[name]
        elif not child.text or child.text.isspace():
            report.add(
                EMPTY_VALUE.at(
                    child.line,
                    child.column,
                    f"<{name}> is empty; "
                    + (
                        f"give the {'page' if entry.name == 'url' else 'sitemap'}'s URL"
                        if name == "loc"
                        else "give a value or remove it"
                    ),
                ),
                child,
            )
            del found[name]
    if (
        "loc" not in found
        and not loc_explained
        and not any(c.name == "loc" and c.ns == sitemap_ns for c in entry.children)
    ):
        report.add(
            MISSING_LOC.at(
                entry.line,
                entry.column,
                f"<{entry.name}> has no <loc>; add <loc> with the "
                f"{'page' if entry.name == 'url' else 'sitemap'}'s URL as its first child",
            ),
            entry,
        )
    return found


def _no_namespace(child: Node, entry: Node, report: Reporter, prefixes: Mapping[str, str]) -> None:
    """A child in no namespace, where only extension elements (each in its own
    namespace) may stand: the schema's wildcard takes other namespaces only. The entry
    is named as the document writes it (``prefixes``; the child has no prefix)."""
    name = child.name
    if name in ENTRY_CHILDREN[entry.name]:
        fix = (
            'put it in the sitemap namespace (remove the xmlns="" that takes it out, or '
            "give it the root's prefix)"
        )
    else:
        fix = "remove it" + _extension_hint(name)
    message = (
        f"<{name}> in <{_writer(entry.ns, prefixes)(entry.name)}> has no namespace; only "
        "extension elements in their own "
        f"namespace may stand there and the schema rejects it: {fix}"
    )
    report.add(UNKNOWN_ELEMENT.at(child.line, child.column, message), child)


# The levels of PHP's error messages, as its HTML errors write them in <b>: the
# checker (engine.checker) reads a message's markup in the root as one text.
PHP_LEVELS = frozenset(
    {
        "warning",
        "notice",
        "deprecated",
        "strict standards",
        "fatal error",
        "parse error",
        "catchable fatal error",
        "recoverable fatal error",
    }
)
_PHP_MESSAGE = lazy(r"<b>([A-Za-z ]+)</b>")

# Text that is only byte order marks: files joined, or a template or include saved with one.
_MARK_MESSAGE = (
    "character U+FEFF, a byte order mark, {} where only markup and white space may "
    "stand (joining files saved with one, or including one, leaves it; editors show "
    "nothing there); remove it"
)


def _only_marks(text: str) -> bool:
    """Whether ``text`` holds byte order marks (U+FEFF) and white space only."""
    return "\ufeff" in text and not text.strip(XML_SPACE + "\ufeff")


def _template_code(text: str) -> str | None:
    """The first line of ``text`` when it starts with a template tag (``{% ... %}``,
    ``{{ ... }}``: Liquid, Jinja, Hugo, Handlebars), cut to 60 characters; else None."""
    if not text.startswith(("{%", "{{", "{#")):
        return None
    line = text.split("\n", 1)[0].strip(XML_SPACE)
    return line if len(line) <= 60 else line[:57] + "..."


def _stray_text(entry: Node, report: Reporter) -> bool:
    """Report text directly inside an entry; True when that text is the entry's only content."""
    text = entry.text.strip(XML_SPACE)
    if _only_marks(text):
        message = _MARK_MESSAGE.format(f"directly inside <{entry.name}>")
        line, column = entry.nested_text or (entry.line, entry.column)
        report.add(UNEXPECTED_TEXT.at(line, column, message), Only(entry))
        return False
    if entry.children or not text:
        message = (
            f"text directly inside <{entry.name}>; only child elements stand there: "
            "remove the text or move it into the element it belongs to"
        )
        line, column = entry.nested_text or (entry.line, entry.column)
        report.add(UNEXPECTED_TEXT.at(line, column, message), Only(entry))
        return False
    shown = text if len(text) <= 80 else text[:77] + "..."
    message = (
        f"text directly inside <{entry.name}>; put the URL in a <loc> child: "
        f"<{entry.name}><loc>{shown}</loc></{entry.name}>"
    )
    report.add(UNEXPECTED_TEXT.at(entry.line, entry.column, message), entry)
    return True


def _sequence_break(entry: Node, allowed: tuple[str, ...], sitemap_ns: str) -> Node | None:
    """The first child at which the schema's sequence (loc first, then in order) fails."""
    last_rank = -1
    in_extensions = False
    for child in entry.children:
        if child.ns != sitemap_ns:
            if last_rank < 0:
                return child
            in_extensions = True
            continue
        rank = allowed.index(child.name) if child.name in allowed else -1
        if in_extensions or rank <= last_rank or (last_rank < 0 and rank != 0):
            return child
        last_rank = rank
    return None


def _unknown_child(
    child: Node, entry: Node, prefixes: Mapping[str, str]
) -> tuple[Finding, str | None]:
    """The finding for a sitemap-namespace child the entry does not define, and the
    field name it suggests instead (if any); elements named as the document writes them
    (``prefixes``)."""
    name = child.name
    written = _writer(entry.ns, prefixes)
    shown, entry_name = written(name), written(entry.name)
    suggested = None
    if entry.name == "sitemap" and name in ENTRY_CHILDREN["url"]:
        message = (
            f"<{shown}> is not allowed in a sitemap index entry (only <{written('loc')}> and "
            f"<{written('lastmod')}> are); remove it"
        )
    elif name in _EXTENSIONS:
        prefix, namespace = _EXTENSIONS[name]
        message = (
            f"<{shown}> is in the sitemap namespace; extension elements need their own "
            f'namespace: write <{prefix}:{name}> (its children too) and declare xmlns:{prefix}="{namespace}"'
        )
    elif name in ENTRY_CHILDREN:
        message = (
            f"<{shown}> inside <{entry_name}>; entries do not nest: close the "
            f"<{entry_name}> before the next entry starts"
        )
    else:
        suggested = _suggest(name, ENTRY_CHILDREN[entry.name])
        if suggested is None:
            fields = ", ".join(f"<{written(n)}>" for n in ENTRY_CHILDREN[entry.name])
            hint = (
                f"; <{entry_name}> takes only {fields} and extension elements in their "
                "own namespace: remove it"
            )
        else:
            hint = _hint(name, suggested, written) + "; rename it"
        message = f"unknown element <{shown}> in <{entry_name}>{hint}"
    return UNKNOWN_ELEMENT.at(child.line, child.column, message), suggested


def _order(
    child: Node,
    entry: Node,
    allowed: tuple[str, ...],
    extension: Node | None,
    prefixes: Mapping[str, str],
) -> Finding:
    if extension is not None and (extension.line, extension.column) < (child.line, child.column):
        message = (
            f"<{child.name}> must come before extension elements such as "
            f"<{_written(extension, prefixes)}>; move it up"
        )
    else:
        later = _later_before(child, entry, allowed)
        if later is None:
            wrong = f"<{child.name}> is out of order"
        else:
            where = f"line {later.line}"
            if later.line == child.line:
                where += f", column {later.column}"
            wrong = f"<{child.name}> must come before <{later.name}> ({where})"
        message = (
            f"{wrong}; write the children of <{entry.name}> in the order "
            + ", ".join(f"<{name}>" for name in allowed)
            + ", then extension elements"
        )
    return CHILD_ORDER.at(child.line, child.column, message)


def _later_before(child: Node, entry: Node, allowed: tuple[str, ...]) -> Node | None:
    """The first child of ``entry`` before ``child`` that the schema's order puts after it."""
    rank = allowed.index(child.name)
    for other in entry.children:
        if other is child:
            return None
        if other.ns == child.ns and other.name in allowed and allowed.index(other.name) > rank:
            return other
    return None


# The extensions by namespace, as the messages name them.
_EXTENSION_FAMILIES = {
    namespace: "XHTML (hreflang)"
    if prefix == "xhtml"
    else "PageMap"
    if prefix == "pagemap"
    else prefix
    for namespace, prefix in EXTENSION_PREFIXES.items()
}


def _extension_in_index(child: Node, prefixes: Mapping[str, str]) -> Finding:
    family = _EXTENSION_FAMILIES[child.ns]
    return EXTENSION_IN_INDEX.at(
        child.line,
        child.column,
        f"<{_written(child, prefixes)}> in an index entry, which names a sitemap file: the "
        f"{family} extension describes a page, and search engines ignore it here; move it "
        "into the <url> of its page, in the sitemap this entry lists, or remove it",
    )


def _written(node: Node, prefixes: Mapping[str, str]) -> str:
    """``node``'s name as the document writes it (``prefixes``), else with its usual
    prefix (image:image) when the namespace is a known one."""
    return written_name(node, prefixes, EXTENSION_PREFIXES.get(node.ns, ""))


def _suggest(name: str, candidates: Collection[str]) -> str | None:
    lowered = {c.lower(): c for c in candidates}
    if name.lower() in lowered:
        return lowered[name.lower()]
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return close[0] if close else None


def _hint(name: str, suggested: str, written: Callable[[str], str] = str) -> str:
    shown = written(suggested)
    if name.lower() == suggested.lower():
        return f" (did you mean <{shown}>? names are case-sensitive)"
    return f" (did you mean <{shown}>?)"


def _did_you_mean(
    name: str, candidates: Collection[str], written: Callable[[str], str] = str
) -> str:
    suggested = _suggest(name, candidates)
    return "" if suggested is None else _hint(name, suggested, written)


def _writer(ns: str, prefixes: Mapping[str, str] | None) -> Callable[[str], str]:
    """Writes a name of namespace ``ns`` as the document does (``prefixes``: its
    prefixes; none known: the name alone), for ST004's messages."""
    prefix = prefixes.get(ns, "") if prefixes and ns else ""
    return (lambda name: f"{prefix}:{name}") if prefix else str
