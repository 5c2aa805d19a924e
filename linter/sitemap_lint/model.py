"""The parsed form of a sitemap entry: a small tree of nodes with positions."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from sitemap_lint.support.records import NamedTuple

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XML_NS = "http://www.w3.org/XML/1998/namespace"  # bound to the prefix xml in every document
XHTML_NS = "http://www.w3.org/1999/xhtml"  # of xhtml:link, the hreflang alternates
# The prefixes sitemaps write for the namespaces they use, and those namespaces.
USUAL_PREFIXES = {
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": XHTML_NS,
    "mobile": "http://www.google.com/schemas/sitemap-mobile/1.0",
    "pagemap": "http://www.google.com/schemas/sitemap-pagemap/1.0",
    "xsi": "http://www.w3.org/2001/XMLSchema-instance",
}
# XML's white space (2.3, S): a no-break space or another Unicode space is text.
XML_SPACE = " \t\r\n"
# What a "<" that opens a tag follows: it is not glued to the text before it.
UNGLUED = " \t\r\n>\"'"
# A "<" in text that starts no tag, as the XML reader takes it (formats/xml.py): no name,
# "/", "!" or "?" after it; or glued to the text before it (``q=a<b``, ``q=<<b``: not
# after white space, ">" or a quote) and opening no end tag, comment or instruction.
RAW_LT = r"<(?![^\W\d]|[:/!?])|(?<=[^ \t\r\n>\"'])<(?![/!?])"
# Quotes that are not XML's, written around attribute values by editors and word
# processors: typographic ones, guillemets, primes, a backtick, an acute accent.
OTHER_QUOTES = (
    "\u201c\u201d\u201e\u201f\u2018\u2019\u201a\u201b\u00ab\u00bb\u2039\u203a\u2032\u2033`\u00b4"
)
# An XML declaration as the reader reads one: to its first ">", or up to the "<" that
# follows when it has none (its "?>" missing).
XML_DECLARATION = r"<\?xml(?=[ \t\r\n?>])[^<>]*>?"
# Read leniently where the XML reader stopped in a tag (formats/starttag.py, the
# reader's recovery, rules/xml.py's messages): an attribute's name, the "=" after it,
# a value in XML's quotes.
ATTRIBUTE_NAME = r"[^\s<>=\"'/]+"
EQUALS = r"[ \t]*=[ \t]*"
# An attribute's name (group 1) and "=" right before a place: the reader stopped at a
# value (XM011 when it has no XML quotes).
BEFORE_VALUE = rf"({ATTRIBUTE_NAME}){EQUALS}\Z"
QUOTED_VALUE = r"\"[^\"<]*\"|'[^'<]*'"
# White space and then a tag's name (group 1, with its "/" for an end tag) after a "<":
# a tag written with a space after its "<" (XM001 names it), no stray "<".
SPACED_TAG = r"[ \t]+(/?[A-Za-z_][\w.:-]*)"
# What the text of a document can end inside of: (how it opens, what it is, how it ends).
UNENDED = (
    ("<!--", "comment", "-->"),
    ("<![CDATA[", "CDATA section", "]]>"),
    ("<?", "processing instruction", "?>"),
)


class Prefixes(dict[str, str]):
    """Namespace -> the prefix a document declares for it first ('' for the default
    namespace), as its reader reads them; ``placed``: the elements written with another
    prefix (one an element below the root declares for the namespace: ``<url
    xmlns:i="...">``), by their start tag's line and column, and that prefix."""

    __slots__ = ("placed",)

    def __init__(self) -> None:
        super().__init__()
        self.placed: dict[tuple[int, int], str] = {}

    def at(self, node: Node) -> Mapping[str, str]:
        """The prefixes as the document writes them where ``node`` stands: its own
        namespace's as written in its start tag."""
        if self.placed:
            prefix = self.placed.get((node.line, node.column))
            if prefix is not None:
                return {**self, node.ns: prefix}
        return self


def prefixes_at(prefixes: Mapping[str, str], node: Node) -> Mapping[str, str]:
    """``prefixes`` (a document's, or any mapping) as the document writes them where
    ``node`` stands (``Prefixes.at``)."""
    return prefixes.at(node) if isinstance(prefixes, Prefixes) else prefixes


def written_name(node: Node, prefixes: Mapping[str, str], usual: str) -> str:
    """``node``'s name as the document writes it, for a message: with the prefix the
    document declares for its namespace where it stands (none where that is the default
    namespace), or ``usual`` where none is known (a check handed no document's
    prefixes)."""
    prefix = prefixes_at(prefixes, node).get(node.ns) if node.ns else ""
    if prefix is None:
        prefix = usual
    return f"{prefix}:{node.name}" if prefix else node.name


def pointer_step(ns: str, name: str, prefixes: Mapping[str, str]) -> str:
    """An element's name in a pointer: with the document's prefix for its namespace."""
    prefix = prefixes.get(ns, "") if ns else ""
    return f"{prefix}:{name}" if prefix else name


def unended_at(text: str | bytes, offset: int) -> tuple[str, str, str] | None:
    """The section of ``UNENDED`` that starts at ``offset`` of ``text`` (decoded, or
    its UTF-8 bytes), or None."""
    head = text[offset : offset + 9]
    opening = head.decode("utf-8", errors="replace") if isinstance(head, bytes) else head
    return next((section for section in UNENDED if opening.startswith(section[0])), None)


# Text kept per element: far above any valid value (URLs stop at 2,048 characters),
# low enough that a 30 MB text node does not cost hundreds of MB in copies.
MAX_TEXT = 1 << 18


# An element's number, as ``EntryPointer`` reads it: the entry's index (1-based, among
# the root's entries as ``engine.checker`` counts them) in the low bits, then the
# element's place among the entry's children of its name (0: the only one, written
# without an index), then its box's place (image:image, video:video) among the entry's
# children of that name. An entry's index alone names the entry.
_PLACE_SHIFT = 40
_BOX_SHIFT = 64
_PLACE_LIMIT = 1 << (_BOX_SHIFT - _PLACE_SHIFT)
_INDEX_LIMIT = 1 << _PLACE_SHIFT
_INDEX_MASK = _INDEX_LIMIT - 1


def element_number(index: int, place: int = 0, box: int = 0) -> int:
    """The number of the element at ``place`` in the ``box`` of the entry of ``index``;
    0 (no element named) when a number is past what it holds."""
    if not 0 < index < _INDEX_LIMIT or not 0 <= place < _PLACE_LIMIT or box < 0:
        return 0
    return index | place << _PLACE_SHIFT | box << _BOX_SHIFT


class EntryPointer(NamedTuple):
    """How a file's findings name its entries' elements once the entries are gone (the
    checks across entries and across files, which keep an entry's index, an int, beside
    its position; the live audit, whose targets keep their element's number): ``head``,
    the path up to the entry's index (``/urlset/url[``), and ``loc``, after the index to
    the entry's ``loc`` (``]/loc``), with the document's prefixes, as ``engine.checker``
    names the elements of an entry it reads. An index of 0 names no entry (one the
    file's checker did not count); ``loc_index`` tells which loc of an entry with
    several is meant."""

    head: str
    loc: str

    def entry(self, index: int) -> str | None:
        """The entry of ``index`` itself: ``/urlset/url[6]``."""
        index &= _INDEX_MASK
        return f"{self.head}{index}]" if index > 0 else None

    def at_loc(self, index: int) -> str | None:
        """The loc of the entry of ``index``: ``/urlset/url[6]/loc``."""
        place, index = index >> _PLACE_SHIFT, index & _INDEX_MASK
        if index <= 0:
            return None
        return f"{self.head}{index}{self.loc}" + (f"[{place}]" if place else "")

    def element(self, number: int, name: str, box: str = "") -> str | None:
        """The element ``name`` (a step, in its ``box``'s when not "") that ``number``
        (``element_number``) names: ``/urlset/url[6]/image:image[2]/image:loc``."""
        path = self.entry(number)
        if path is None:
            return None
        if box:
            box_place = number >> _BOX_SHIFT
            path = f"{path}/{box}[{box_place}]" if box_place else f"{path}/{box}"
        place = (number >> _PLACE_SHIFT) & (_PLACE_LIMIT - 1)
        return f"{path}/{name}[{place}]" if place else f"{path}/{name}"


def loc_index(entry: Node, loc: Node) -> int:
    """``entry``'s index with which of its locs ``loc`` is, when it has several."""
    same = [child for child in entry.children if child.name == loc.name and child.ns == loc.ns]
    if len(same) == 1:
        return entry.index
    return entry.index | next(n for n, c in enumerate(same, 1) if c is loc) << _PLACE_SHIFT


class RefusedReferences(str):
    """An element's text as written where the parser refused character references
    (``&#0;``, ``&#X41;``): ``hashes`` holds the offsets of their ``#``, which the
    reference's author did not mean as a URL fragment."""

    hashes: frozenset[int] = frozenset()


class Node:
    """One element: namespace, local name, attributes, direct text and children.

    ``line`` and ``column`` are 1-based and point at the start tag's ``<``.
    """

    __slots__ = (
        "attrs",
        "children",
        "column",
        "index",
        "line",
        "name",
        "nested_text",
        "ns",
        "text",
    )

    def __init__(self, ns: str, name: str, attrs: dict[str, str], line: int, column: int):
        self.ns = ns
        self.name = name
        self.attrs = attrs
        self.line = line
        self.column = column
        self.text = ""
        self.children: list[Node] = []
        # Where the first non-whitespace text between child elements starts (line,
        # column), or None when there is none.
        self.nested_text: tuple[int, int] | None = None
        # An entry's 1-based place among the root's children of its name (0: not set).
        self.index = 0

    @property
    def tag(self) -> str:
        return f"{{{self.ns}}}{self.name}" if self.ns else self.name

    def iter(self) -> Iterator[Node]:
        """This node and all its descendants, depth first, without recursion."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def __repr__(self) -> str:
        return f"<Node {self.tag} at {self.line}:{self.column}>"


class WrittenNode(Node):
    """A node whose text stands as written (no reference, no line break) on the line of
    its start tag, from column ``text_at``: a fix of its text is a span of the file
    (``fix.model.replace_text``)."""

    __slots__ = ("text_at",)

    def __init__(self, ns: str, name: str, line: int, column: int, text_at: int):
        super().__init__(ns, name, {}, line, column)
        self.text_at = text_at
