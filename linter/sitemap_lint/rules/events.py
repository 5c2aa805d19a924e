"""What the checks of a whole file are given: its start (``prolog``) and its end (``end``).

A ``prolog`` check gets a ``Prolog`` once a file, after the first bytes are decoded and
before any front end reads the text: the start of the text, what the input turned out
to be (``form``) and the XML declaration as the decoder read it. An ``end`` check gets
a ``FileEnd`` once a file, when every entry was read: the counts of the file.
"""

from __future__ import annotations

from sitemap_lint.model import Node

# What an input is (``Prolog.form``), as the pipeline finds it from its first text.
EMPTY = "empty"  # no text, or only white space
ROBOTS = "robots"  # a robots.txt file
TEXT = "text"  # a text sitemap: one URL per line
NOT_XML = "not-xml"  # text that is neither XML nor a text sitemap
HTML = "html"  # an HTML page
XML = "xml"  # markup: an XML sitemap, a feed, or another XML document

# A position in the file: its line and column, both 1-based.
Position = tuple[int, int]


class Declaration:
    """The pseudo-attributes of the XML declaration at the start of the file, as written
    (None when absent), with their positions (of ``encoding`` and ``version``)."""

    __slots__ = ("encoding", "encoding_at", "version", "version_at")

    def __init__(self) -> None:
        self.encoding: str | None = None
        self.encoding_at: Position = (1, 1)
        self.version: str | None = None
        self.version_at: Position = (1, 1)


class Prolog:
    """The start of one input.

    ``text``: its first decoded text, up to its first chunk that is not white space
    (None when it has none); ``form``: what it is (see the constants above);
    ``declaration``: the XML declaration the decoder read (None when the file starts with
    none, or is in UTF-16 or UTF-32); ``leading``: the text the decoder dropped before a
    late XML declaration (None: none); ``byte_order_mark``: the bytes start with UTF-8's
    byte order mark; ``wide``: the text is UTF-16 or UTF-32 (its family, its codec and
    the encoding its declaration names), else None; ``read``: the bytes read so far
    (uncompressed); ``size``: its size in bytes as far as it is known without reading it
    all; ``cut_short``: the reader stopped before its end."""

    __slots__ = (
        "byte_order_mark",
        "cut_short",
        "declaration",
        "form",
        "leading",
        "read",
        "size",
        "text",
        "wide",
    )

    def __init__(
        self,
        text: str | None,
        form: str,
        *,
        declaration: Declaration | None,
        leading: str | None,
        byte_order_mark: bool,
        wide: tuple[str, str, str | None] | None,
        read: int,
        size: int,
        cut_short: bool,
    ) -> None:
        self.text = text
        self.form = form
        self.declaration = declaration
        self.leading = leading
        self.byte_order_mark = byte_order_mark
        self.wide = wide
        self.read = read
        self.size = size
        self.cut_short = cut_short


class FileEnd:
    """The end of one sitemap (or feed, or text sitemap), every entry read.

    ``kind``: ``urlset``, ``sitemapindex``, ``rss``, ``atom`` or ``text``; ``root``: the
    root element (None in a text sitemap); ``entries``: how many entries (``url``,
    ``sitemap``, feed items, text lines with a URL) it has; ``past_limit``: where the
    first entry past the protocol's 50,000 stands, if any; ``cut_short``: reading or
    parsing stopped before the end (a syntax error, the size limit), so entries may be
    missing."""

    __slots__ = ("cut_short", "entries", "kind", "past_limit", "root")

    def __init__(
        self,
        kind: str,
        root: Node | None,
        entries: int,
        past_limit: Position | None,
        cut_short: bool,
    ) -> None:
        self.kind = kind
        self.root = root
        self.entries = entries
        self.past_limit = past_limit
        self.cut_short = cut_short
