"""What the checks of a whole file are given: its start (``prolog``) and its end (``end``).

A ``prolog`` check gets a ``Prolog`` once a file, after the first bytes are decoded and
before any front end reads the text: the start of the text, what the input turned out
to be (``form``) and the XML declaration as the decoder read it. An ``end`` check gets
a ``FileEnd`` once a file, when every entry was read: the counts of the file, and what
the front end of a text sitemap, a feed or a robots.txt recorded on the way
(``FileEnd.record``: a ``TextRecord``, ``FeedRecord`` or ``RobotsRecord``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from sitemap_lint.model import Node
from sitemap_lint.support.records import NamedTuple

if TYPE_CHECKING:
    from sitemap_lint.live.model import Answer, BudgetCut, Target, TargetPointer

# What an input is (``Prolog.form``), as the pipeline finds it from its first text.
EMPTY = "empty"  # no text, or only white space (but for a file named robots.txt)
ROBOTS = "robots"  # a robots.txt file, by its name (an empty one too) or its content
TEXT = "text"  # a text sitemap: one URL per line
NOT_XML = "not-xml"  # binary data, or text that is neither XML, a text sitemap nor robots.txt
HTML = "html"  # an HTML page
XML = "xml"  # markup: an XML sitemap, a feed, or another XML document

# A position in the file: its line and column, both 1-based.
Position = tuple[int, int]


class Declaration:
    """The pseudo-attributes of the XML declaration at the start of the file, as written
    (None when absent), with their positions (of ``encoding`` and ``version``)."""

    __slots__ = ("encoding", "encoding_at", "utf8_bytes", "version", "version_at")

    def __init__(self) -> None:
        self.encoding: str | None = None
        self.encoding_at: Position = (1, 1)
        # The declared encoding is a single-byte one, but the bytes are UTF-8 (its first
        # non-ASCII bytes decode as UTF-8, which text in that encoding hardly ever does):
        # the file is read as UTF-8.
        self.utf8_bytes = False
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
    all; ``cut_short``: the reader stopped before its end; ``robots_named``: its name
    (or its URL's path) is a robots.txt's; ``text_named``: it is another ``.txt`` (a text
    sitemap's, by its name)."""

    __slots__ = (
        "byte_order_mark",
        "cut_short",
        "declaration",
        "form",
        "leading",
        "read",
        "robots_named",
        "size",
        "text",
        "text_named",
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
        robots_named: bool = False,
        text_named: bool = False,
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
        self.robots_named = robots_named
        self.text_named = text_named


class MarkupKind:
    """What the XML reader met (``Markup.kind``)."""

    SYNTAX = "syntax"  # a syntax error expat reported
    TRUNCATED = "truncated"  # the text ended inside the root
    NO_ROOT = "no-root"  # the text ended before any root element
    UNCLOSED = "unclosed"  # an element without its end tag, found on recovery
    UNENDED = "unended"  # a comment, CDATA section or instruction the text ends in
    SKIPPED = "skipped"  # lines passed over after a syntax error
    TOO_MANY = "too-many-errors"  # reading stopped after too many syntax errors
    DOCTYPE = "doctype"  # a DOCTYPE declaration
    ROOT_TEXT = "root-text"  # text directly in the root of a sitemap or index
    TOO_DEEP = "too-deep"  # elements nested past the depth the reader follows


class Markup(NamedTuple):
    """What the XML reader met in the markup (``markup`` checks), where it stands.

    ``name``: the root's name (``truncated``, ``root-text``), the element's
    qualified name (``unclosed``), the DOCTYPE's name, the entries' name
    (``skipped``), the innermost element open (``syntax``: its qualified name, and in
    ``at`` where its start tag stands; after the root's end, the root's local name), or what is not ended (``unended``: "comment",
    ...); ``code``:
    expat's error code (``syntax``; for a ``doctype``, the error of the entity that
    stopped the reading, else -1); ``context`` and ``offset``: the text of a syntax
    error's line and the error's place in it (``unended``: what would end it, "-->";
    ``root-text``: the start of the text);
    ``before_root``: whether the root had not started (None: not known); ``at``: where
    an unclosed element was noticed, or the line where a DOCTYPE's entity stopped the
    reading; ``last``: the last line skipped; ``resumed``: the line where reading
    resumed after skipped lines (None: the file ended first; for a ``doctype``, 1 when
    reading went on after its entity, else None); ``node``: the outermost element
    nested too deep; ``declared``: the prefixes the root declares (``syntax``), in
    scope in every tag after it; ``below``: for an undeclared prefix, the declarations
    of prefixes read on elements below the root, whose scope ended before the error:
    (prefix, namespace, the last declaring element's qualified name, its line, column,
    how many elements declared the prefix for that namespace)."""

    kind: str
    line: int
    column: int
    name: str = ""
    code: int = -1
    context: str = ""
    offset: int = 0
    before_root: bool | None = None
    at: Position | None = None
    last: int = 0
    resumed: int | None = None
    node: Node | None = None
    declared: frozenset[str] = frozenset()
    below: tuple[tuple[str, str, str, int, int, int], ...] = ()


class FollowKind:
    """Why the following of a set's listings leaves a listed sitemap (``Unfollowed.kind``)."""

    CYCLE = "cycle"  # it is the listing file, or an index above it
    TWICE = "twice"  # the set already has it
    LIMIT = "limit"  # past --max-depth, --max-files or --max-bytes
    NOT_FOUND = "not-found"  # --map maps it to no readable file
    UNREADABLE = "unreadable"  # it could not be read or fetched (reported in that file)
    NESTED = "nested"  # it is itself an index, listed by an index
    ROBOTS = "robots"  # it is a robots.txt, listed as a sitemap


class Unfollowed(NamedTuple):
    """A sitemap an index or a robots.txt lists that the set does not follow, or follows
    no further (``listed`` checks).

    ``kind``: a ``FollowKind``; ``url``: the URL as listed; ``line``, ``column``: where
    the listing entry stands (for ``unreadable``, 1, 1 in the listed file itself);
    ``detail``: for ``cycle``, ``self`` or ``above``; for ``twice``, where it was listed
    first; for ``limit``, which (``depth``, ``files``, ``bytes``); for ``not-found`` and
    ``unreadable``, why; for ``nested`` and ``robots``, ``input`` when the listed file is
    an input of the run too (its sitemaps are checked from there); ``value``: for ``limit``, the
    limit's value; for ``nested``, how many sitemaps it lists; ``xpath``: the pointer to
    the listing entry's loc (None: a robots.txt's line, or the listed file itself);
    ``redirected``: for ``cycle`` and ``twice``, where the URL redirects to, when that
    is the file (for ``twice``, ``detail`` is then ``input`` when it is an input)."""

    kind: str
    url: str
    line: int
    column: int
    detail: str = ""
    value: int = 0
    xpath: str | None = None
    redirected: str = ""


class FetchKind:
    """What went wrong fetching a sitemap URL (``FetchProblem.kind``)."""

    SCHEME = "scheme"  # not http(s): the URL given, or a redirect's target
    INVALID_URL = "invalid-url"  # a host or port no request can go to
    NO_LOCATION = "no-location"  # a redirect without its Location
    BAD_LOCATION = "bad-location"  # a redirect to no valid URL
    LOOP = "loop"  # a redirect back to a URL of the chain
    TOO_MANY_REDIRECTS = "too-many-redirects"
    TEMPORARY_ERROR = "temporary-error"  # 5xx or 429
    ERROR_STATUS = "error-status"  # another status that is not 2xx
    UNKNOWN_ENCODING = "unknown-encoding"  # a Content-Encoding not asked for
    CORRUPT_ENCODING = "corrupt-encoding"  # a Content-Encoding that cannot be undone
    PERMANENT = "permanent"  # reached through a permanent redirect
    NO_CONTENT_TYPE = "no-content-type"
    WRONG_CONTENT_TYPE = "wrong-content-type"
    TIMEOUT = "timeout"  # ``detail``: connect, read, body or other
    REFUSED = "refused"  # a host on an address no input names
    BAD_PORT = "bad-port"  # a port of another protocol no input names (``detail``: why)
    FAILED = "failed"  # ``detail``: untrusted, tls, dns, refused, invalid-url, broken, other


class FetchProblem(NamedTuple):
    """What went wrong fetching a sitemap URL (``fetch`` checks), before any byte of it
    is read: reported at line 1, column 1 of the fetched file.

    ``kind``: a ``FetchKind``; ``url``: the URL concerned (the one requested last);
    ``origin``: the first URL of a redirect chain; ``target``: a redirect's target or
    Location, or the media type the body needs; ``status``: the HTTP status;
    ``detail``: the scheme, the encoding, the media type sent, which timeout, or what
    failed; ``text``: the words of the error that say more; ``chain``: the redirect
    chain; ``seconds``: the timeout; ``limit``: the most redirects followed; ``host``,
    ``address``, ``address_kind``, ``literal``: for a refused host, its name, the
    address it has, what kind of address that is, and whether the name is the address."""

    kind: str
    url: str
    origin: str = ""
    target: str = ""
    status: int = 0
    detail: str = ""
    text: str = ""
    chain: tuple[str, ...] = ()
    seconds: float = 0.0
    limit: int = 0
    host: str = ""
    address: str = ""
    address_kind: str = ""
    literal: bool = False


class InputKind:
    """What the reader or the decoder met in the raw bytes (``InputProblem.kind``)."""

    GZIP_NAME = "gzip-name"  # the name says gzip and the bytes do not, or the reverse
    COMPRESSION = "compression"  # a compression other than gzip
    GZIP_CORRUPT = "gzip-corrupt"  # a damaged gzip stream, or data after its end
    GZIP_TRUNCATED = "gzip-truncated"  # a gzip stream that ends inside a member
    TOO_LARGE = "too-large"  # more bytes than the protocol's 50 MiB (uncompressed)
    INVALID_BYTES = "invalid-bytes"  # bytes its encoding cannot decode, on a line
    STRAY_MARK = "stray-mark"  # bytes never valid in UTF-8 before the text


class InputProblem(NamedTuple):
    """What the reader or the decoder met in the raw bytes (``input`` checks), before
    any front end reads the text.

    ``kind``: an ``InputKind``; ``detail``: the other compression's name, why a gzip
    stream is damaged, the encoding family a stray mark belongs to, "robots.txt" for
    gzip data in a file of that name, or the declared name of the encoding that cannot
    decode invalid bytes (empty for UTF-8 and UTF-16/32); ``size``: the
    bytes read (uncompressed) so far; ``gzip``: the bytes are gzip (``gzip-name``, and
    for ``too-large`` the file was); ``capped``: reading stopped at the cap; ``codec``
    and ``data``: the encoding and the bytes it cannot decode (or the stray mark's
    bytes); ``line`` and ``column``: where they stand; ``cut``: the bytes it cannot
    decode are the start of a character that the end of the data leaves incomplete."""

    kind: str
    detail: str = ""
    size: int = 0
    gzip: bool = False
    capped: bool = False
    codec: str = ""
    data: bytes = b""
    line: int = 1
    column: int = 1
    cut: bool = False


class ProblemReport(Protocol):
    """Where the reader and the decoder hand what they meet (``engine.dispatch.InputChecks``)."""

    def problem(self, problem: InputProblem) -> None: ...


class Replacements:
    """Where the decoder put U+FFFD in place of bytes it could not decode (EN001, whether
    or not that rule runs), so that the URL rules tell them from a U+FFFD the file holds.

    ``lines``: the lines of the file where it replaced bytes; ``beyond``: past the cap on
    EN001 findings the decoder no longer looks where it replaces bytes, so every line
    from this one on may hold a replacement (None: it looked at every line). It is
    filled while the file is decoded, ahead of the front end: a line is in it before
    the text of that line reaches a check."""

    __slots__ = ("beyond", "lines")

    def __init__(self) -> None:
        self.lines: set[int] = set()
        self.beyond: int | None = None

    def between(self, first: int, last: int) -> bool:
        """Whether bytes may have been replaced on a line from ``first`` to ``last``."""
        if self.beyond is not None and last >= self.beyond:
            return True
        lines = self.lines
        if not lines:
            return False
        if last - first < len(lines):
            return any(line in lines for line in range(first, last + 1))
        return any(first <= line <= last for line in lines)


class Unfixed(NamedTuple):
    """A file with fixable findings that ``--fix`` (``--diff``, ``--fix-only``) leaves as
    it is, and why (``unfixed`` checks, once such a file)."""

    reason: str


class InvalidDirective(NamedTuple):
    """A ``sitemap-lint:`` comment that cannot be read as a directive, and why."""

    line: int
    column: int
    reason: str


class UnusedDirective(NamedTuple):
    """The codes of a directive that suppressed nothing: its ``action``, where it stands
    and the line it is for (0: the whole file); ``repeated``: its codes listed again."""

    action: str
    codes: tuple[str, ...]
    line: int
    column: int
    target: int
    repeated: tuple[str, ...] = ()


class Directives(NamedTuple):
    """A file's inline suppression directives once every finding of it is known
    (``directives`` checks, once a file that has any): those that cannot be read, and
    the codes of those that suppressed nothing."""

    invalid: tuple[InvalidDirective, ...]
    unused: tuple[UnusedDirective, ...]


class SchemaError(NamedTuple):
    """What the schema engine found wrong with an element that no finding of another
    check already explains (``schema`` checks): ``node``, the element, and the engine's
    ``message``."""

    node: Node
    message: str


class TopLevel(NamedTuple):
    """An element directly in the root of a sitemap or index that is not one of its
    entries (``top-level`` checks): a ``url`` in an index, an unknown element, an
    element of another namespace. ``node``: the element, its children included;
    ``root``: the root element; ``entries_before``: how many entries stand before it."""

    node: Node
    root: Node
    entries_before: int


class Answered(NamedTuple):
    """One URL a file lists and what the live audit got for it (``answer`` checks).

    ``target``: the URL as the file lists it (``live.model.Target``: its kind, where
    it stands, a page's lastmod and alternates); ``answer``: the response, its redirects
    and what the page's head says (``live.model.Answer``); ``now``: the run's moment;
    ``listed``: the page URLs the file lists, in normal form, when one of its answers
    was redirected (empty otherwise): where a redirect ends at one of them;
    ``pointer``: what names the file's targets' elements (``xpath``); ``stamped``: the
    listed page URLs whose Last-Modified is the time of a build or a deploy, shared by
    three or more of the file's pages (``live.audit.deploy_stamped``), which says
    nothing of when each changed."""

    target: Target
    answer: Answer
    now: datetime
    listed: frozenset[str] = frozenset()
    pointer: TargetPointer | None = None
    stamped: frozenset[str] = frozenset()

    @property
    def xpath(self) -> str | None:
        """The pointer to the target's element, for its findings (None: none)."""
        return self.pointer.of(self.target) if self.pointer is not None else None


class Audited(NamedTuple):
    """One file's URLs after the live audit answered them (``audited`` checks, once a
    file): ``targets``, every URL it lists (``live.model.Target``), answered or not;
    ``now``: the run's moment; ``answers``: the answer to each URL requested, by URL;
    ``pointer``: what names the targets' elements (``xpath``); ``cuts``: the hosts
    whose Crawl-delay the run's crawl budget cut short and whose first URL not
    requested this file is the first to list (``live.model.BudgetCut``, once a run)."""

    targets: Sequence[Target]
    now: datetime
    answers: Mapping[str, Answer] | None = None
    pointer: TargetPointer | None = None
    cuts: Sequence[BudgetCut] = ()

    def xpath(self, target: Target) -> str | None:
        """The pointer to ``target``'s element, for its findings (None: none)."""
        return self.pointer.of(target) if self.pointer is not None else None


class LineKind:
    """What a line of a text sitemap is when it is not a URL alone (``LineVerdict.kind``)."""

    COMMENT = "comment"
    MARKUP = "markup"
    FIELD = "field"
    HEADING = "heading"
    SEPARATOR = "separator"
    PROSE = "prose"
    EXTRA = "extra"  # a URL with something else: a bullet, quotes, columns, more URLs


class LineVerdict(NamedTuple):
    """What a line of a text sitemap is, when it is not simply a URL."""

    kind: str  # a ``LineKind``
    url: str = ""  # the URL found on the line, if any
    offset: int = 0  # where it starts in the stripped line
    before: str = ""
    after: str = ""
    count: int = 1  # type: ignore[assignment]  # URLs on the line (shadows tuple.count)


class TextLine(NamedTuple):
    """One line of a text sitemap with something on it (``line`` checks), as read.

    ``number``: its line number; ``column``: where its first character that is not
    white space stands; ``text``: the line, at most ``model.MAX_TEXT`` characters;
    ``length``: its real length; ``stripped``: ``text`` without the white space around
    it; ``verdict``: what it is when it is not a URL alone (None: a URL, maybe a broken
    one, which the URL rules check)."""

    number: int
    column: int
    text: str
    length: int
    stripped: str
    verdict: LineVerdict | None


class SitemapLine(NamedTuple):
    """A Sitemap line of a robots.txt within the 500 KiB Google reads (``sitemap-line``
    checks): its ``number``; ``column``, where its value starts; ``value``, the URL as
    written (empty: none); ``name``, the field's name as written and ``name_column``,
    where it starts; ``colon``, whether a ``:`` follows the name; ``listed_before``, the
    line that lists the same sitemap before (None: none, or the value is no usable URL);
    ``base``, where the robots.txt was fetched from (None: a local file)."""

    number: int
    column: int
    value: str
    name: str
    name_column: int
    colon: bool
    listed_before: int | None
    base: str | None


class FeedStart(NamedTuple):
    """The root of an RSS or Atom feed (``feed`` checks, once a feed): ``root``, the
    element (its attributes; no children yet); ``title``, the format search engines
    read it as (``RSS 2.0``, ``Atom 1.0``, ``Atom 0.3``; empty when they do not read
    it)."""

    root: Node
    title: str


class FeedItem(NamedTuple):
    """One item of an RSS feed or entry of an Atom feed (``item`` checks), as read.

    ``node``: the ``item`` or ``entry`` element, its children included; ``atom``: it is
    an Atom entry; ``link``: the element its URL comes from (None: it has no usable
    link); ``url``: that URL as written; ``date``: its date element (``pubDate``,
    ``updated`` or ``modified``; None: it has none); ``moment``: the date as read (None:
    no date, or not a valid one); ``date_problem``: what is wrong with the date and the
    fix (None: nothing)."""

    node: Node
    atom: bool
    link: Node | None
    url: str
    date: Node | None
    moment: datetime | None
    date_problem: str | None


class TextRecord:
    """What the front end of a text sitemap records for the end checks.

    ``name``: the file's path or URL (empty or ``-``: standard input); ``blank_lines``:
    how many lines are empty or white space only, the first at line ``first_blank``;
    ``unchecked``: where the first line stands that was only counted, not checked, once
    the lines gave too many findings (None: every line was checked)."""

    __slots__ = ("blank_lines", "first_blank", "name", "unchecked")

    def __init__(
        self, name: str, blank_lines: int, first_blank: int, unchecked: Position | None
    ) -> None:
        self.name = name
        self.blank_lines = blank_lines
        self.first_blank = first_blank
        self.unchecked = unchecked


class FeedRecord:
    """What the front end of a readable RSS or Atom feed records for the end checks.

    ``item``: the name of its items (``item`` or ``entry``); ``date``: the name of
    their date (``pubDate``, ``updated`` or ``modified``); ``undated``: how many items
    have no date, the first being ``first_undated`` (None: none)."""

    __slots__ = ("date", "first_undated", "item", "undated")

    def __init__(self, item: str, date: str, undated: int, first_undated: Node | None) -> None:
        self.item = item
        self.date = date
        self.undated = undated
        self.first_undated = first_undated

    @property
    def is_atom(self) -> bool:
        return self.item == "entry"


class RobotsRecord:
    """What the front end of a robots.txt records for the end checks.

    ``url``: where it was fetched from (None: a local file); ``sitemap_lines``: its
    Sitemap lines within the 500 KiB Google reads; ``cut``: where that limit falls
    (None: the file is smaller); ``sitemaps_after``: the Sitemap lines from there on;
    ``text_after``: whether anything but white space stands past the limit."""

    __slots__ = ("cut", "sitemap_lines", "sitemaps_after", "text_after", "url")

    def __init__(
        self,
        url: str | None,
        sitemap_lines: int,
        cut: Position | None,
        sitemaps_after: int,
        text_after: bool,
    ) -> None:
        self.url = url
        self.sitemap_lines = sitemap_lines
        self.cut = cut
        self.sitemaps_after = sitemaps_after
        self.text_after = text_after


# What a front end records for the end checks, by the kind of file.
Record = TextRecord | FeedRecord | RobotsRecord


class FileEnd:
    """The end of one sitemap (or feed, text sitemap, robots.txt), every entry read.

    ``kind``: ``urlset``, ``sitemapindex``, ``rss``, ``atom``, ``text`` or ``robots``;
    ``root``: the root element (None in a text sitemap and a robots.txt); ``entries``:
    how many entries (``url``, ``sitemap``, feed items, text lines with a URL, Sitemap
    lines of a robots.txt) it has; ``past_limit``: where the first entry past the
    protocol's 50,000 stands, if any; ``cut_short``: reading or parsing stopped before
    the end (a syntax error, the size limit), so entries may be missing; ``record``:
    what the front end of a text sitemap, a feed or a robots.txt recorded (None in an
    XML sitemap); ``misplaced``: the entries of the other root it holds (``sitemap`` in
    a ``urlset``, ``url`` in a ``sitemapindex``), those in no namespace and those an
    element of the root wraps, each reported where it stands; ``namespaces``: those the
    root's start tag declares (an XML sitemap's)."""

    __slots__ = (
        "cut_short",
        "entries",
        "kind",
        "misplaced",
        "namespaces",
        "past_limit",
        "record",
        "root",
    )

    def __init__(
        self,
        kind: str,
        root: Node | None,
        entries: int,
        past_limit: Position | None,
        cut_short: bool,
        record: Record | None = None,
        misplaced: int = 0,
        namespaces: frozenset[str] = frozenset(),
    ) -> None:
        self.kind = kind
        self.root = root
        self.entries = entries
        self.past_limit = past_limit
        self.cut_short = cut_short
        self.record = record
        self.misplaced = misplaced
        self.namespaces = namespaces
