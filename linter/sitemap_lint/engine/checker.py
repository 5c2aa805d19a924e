"""Checks one input: bytes -> decoded text -> parsed entries -> rules -> findings.

``check_source`` is the only entry point. The ``FileChecker`` receives the
parser's events, runs the rules on each entry as soon as it is complete, and
validates entries against the XSD in batches. The entry fields go to the
registered checks (``dispatch``) that report an enabled rule. Every finding goes
to the file's ``FindingSink``, which drops a schema error on a node that a rule
already reported (the rule's message is the clearer one) and applies the
suppression comments and the run's selection at the end.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, cast

from sitemap_lint import fastpath
from sitemap_lint.engine.dispatch import Dispatch, InputChecks, calls, once
from sitemap_lint.engine.results import FileResult
from sitemap_lint.engine.sink import FindingSink
from sitemap_lint.finding import Finding
from sitemap_lint.formats.xml import DROP_MARK, StreamParser
from sitemap_lint.inputs.decoding import Decoder
from sitemap_lint.inputs.reader import ByteStream, Source
from sitemap_lint.model import (
    SITEMAP_NS,
    XHTML_NS,
    XML_SPACE,
    EntryPointer,
    Node,
    RefusedReferences,
    loc_index,
    pointer_step,
    unended_at,
)
from sitemap_lint.rules import events, limits, namespace, structure, xml
from sitemap_lint.rules.entry import FileContext
from sitemap_lint.rules.events import (
    FileEnd,
    Markup,
    MarkupKind,
    Prolog,
    Replacements,
    SchemaError,
    TopLevel,
)
from sitemap_lint.rules.input import looks_binary
from sitemap_lint.rules.registry import MARKUP, PROLOG, ROOT
from sitemap_lint.rules.structure import Covers
from sitemap_lint.rules.suppression import idle_rules
from sitemap_lint.sets.facts import Child, FileFacts, FileStats
from sitemap_lint.settings.options import Options
from sitemap_lint.support.chunks import joined_blocks
from sitemap_lint.support.locations import names_robots
from sitemap_lint.support.patterns import lazy
from sitemap_lint.xsd import Engine, messages
from sitemap_lint.xsd.shadow import ShadowTree

if TYPE_CHECKING:
    from sitemap_lint.fastpath import ProvenRun
    from sitemap_lint.formats.feed import FeedChecker
    from sitemap_lint.live.targets import TargetReader
    from sitemap_lint.sets.robots import RobotsPolicy
    from sitemap_lint.xsd import ShadowEngine


# The root names formats.feed.is_feed takes (that module is loaded for them only).
_FEED_ROOTS = frozenset({"rss", "feed", "RDF"})

__all__ = ["FileResult", "check_source"]

FEED_SIZE = 1 << 20
# How much of a text that starts with no markup is read before deciding what it is
# (formats.text.BLOCK: what is_text_sitemap looks at).
SNIFF_SIZE = 1 << 16
BATCH_ENTRIES = 256
BATCH_NODES = 60_000
_HTML_START = lazy(
    r"\s*(?:<\?xml[^>]*\?>\s*)?(?:(?><!--.*?-->)\s*)*<(?:!doctype\s+html|html[\s>])",
    re.IGNORECASE | re.DOTALL,
)
_URL_IN_BRACKETS = lazy(r"<\s*https?://[^\s<>]*>", re.IGNORECASE)
_COMMENT = lazy(r"<!--(.*?)-->", re.DOTALL)
_END_OF_INPUT_ERRORS = {3, 5, 6}  # no element found, unclosed token, partial character
_UNBOUND_PREFIX = 27
_START_TAG = lazy(r"<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)")  # its local name


def check_source(source: Source, options: Options, engine: Engine) -> FileResult:
    selection = options.selection
    sink = FindingSink(selection.for_file(source.name) if selection is not None else None)
    sink.idle = idle_rules(options, fetched=source.is_fetched)
    sink.external = selection.external if selection is not None else ()
    facts = FileFacts() if options.collect else None
    stats = FileStats() if options.stats else None
    problems = InputChecks(sink, options.enabled, options)
    stream = ByteStream(source, problems)
    decoder = Decoder(problems)
    texts = decoder.decode(stream.chunks())
    first = _first_content(texts)
    form = _form(source, first, stream.stopped_early)
    if form == events.NOT_XML:
        # Encoding findings about a file that is not XML at all would only be noise.
        sink.drop("EN")
    prolog = Prolog(
        first,
        form,
        declaration=decoder.declaration,
        leading=decoder.leading,
        byte_order_mark=decoder.byte_order_mark,
        wide=decoder.wide,
        read=stream.total,
        size=_size(source, stream),
        cut_short=stream.stopped_early,
        robots_named=_is_robots(source),
        text_named=_is_text(source),
    )
    once(PROLOG, prolog, options, sink, options.enabled)
    if decoder.leading is not None and form == events.XML:
        _leading_comments(decoder.leading, sink)
    if form == events.ROBOTS:  # an empty or blank one too: it allows everything
        from sitemap_lint.formats.robots import check_robots_file

        check_robots_file(
            first or "",
            texts,
            options,
            sink,
            facts,
            source.url,
            lambda: stream.stopped_early,
            decoder.replacements,
            decoder.byte_order_mark,
        )
        return _result(source, sink, facts, stats, stream, "robots")
    if first is None or form in (events.NOT_XML, events.HTML):
        return _result(source, sink, facts, stats, stream)
    if form == events.TEXT:
        from sitemap_lint.formats.text import check_text

        lines = None
        if options.live:  # the URLs it lists, at their lines and columns
            from sitemap_lint.live.targets import LineTargets

            lines = LineTargets()
        name = source.url or source.name
        urls = check_text(
            first,
            texts,
            options,
            sink,
            facts,
            name,
            lines,
            lambda: stream.stopped_early,
            decoder.replacements,
        )
        result = _result(source, sink, facts, stats, stream, "text", urls, options.live)
        if lines is not None:
            result.targets = lines.targets
        return result
    shadow = ShadowTree() if hasattr(engine, "all_valid") and decoder.codec == "utf-8" else None
    checker = FileChecker(sink, options, engine, stream, shadow, facts)
    checker.replacements = decoder.replacements  # filled as the text is decoded
    checker.stats = stats
    parser = StreamParser(checker, decoder.line_offset, decoder.column_offset)
    checker.parser = parser
    blocks = _blocks(_chain(first, texts))
    reader = None
    if options.live:  # the URLs it lists, read from the text as written (before fastpath)
        from sitemap_lint.live.targets import TargetReader

        reader = TargetReader(decoder.line_offset, decoder.column_offset)
        blocks = _read_targets(blocks, reader)
    # Runs of plain clean entries reach the parsers as comments (fastpath/).
    fast = fastpath.start(first, options, decoder.codec, checker, parser)
    try:
        for text in blocks if fast is None else fast.blocks(blocks):
            if shadow is not None:
                shadow.feed(text)
            if not parser.feed(text):
                break
            checker.after_chunk()
        else:
            parser.close()
            if shadow is not None:
                shadow.close()
        checker.finish()
    finally:
        parser.release()
        checker.parser = None
        # The checks refer back to the checker (through their FileContext): without this
        # cycle the file's state (a hash per URL) is freed now, not at a later gc run.
        checker.dispatch = None
    result = _result(source, sink, facts, stats, stream, checker.kind, checker.urls, options.live)
    result.sitemaps = checker.sitemaps
    if reader is not None:
        reader.feed("", final=True)
        result.targets = reader.targets()
        result.target_pointer = reader.pointer()
    return result


def _form(source: Source, first: str | None, cut_short: bool = False) -> str:
    """What the input is, from its first text: which front end reads it. A file named
    robots.txt without text is an empty robots.txt (RFC 9309: everything is allowed),
    unless the reader stopped before any text (``cut_short``: it said why). Binary data
    is no text sitemap or robots.txt, whatever its name."""
    if first is None:
        return events.ROBOTS if _is_robots(source) and not cut_short else events.EMPTY
    start = first.lstrip()
    # A URL in angle brackets starts a text sitemap's line, not markup.
    markup = start.startswith("<") and _URL_IN_BRACKETS.match(start) is None
    if not markup and looks_binary(first):
        return events.NOT_XML
    if _is_robots(source) or (not markup and _looks_like_robots(start)):
        return events.ROBOTS
    if not markup:
        from sitemap_lint.formats.text import is_text_sitemap

        return events.TEXT if is_text_sitemap(first, source.url or source.name) else events.NOT_XML
    return events.HTML if _HTML_START.match(first) else events.XML


def _size(source: Source, stream: ByteStream) -> int:
    """The file's size in bytes, as far as it is known without reading it all."""
    return len(source.data) if source.data is not None else stream.total


def _is_robots(source: Source) -> bool:
    return names_robots(source.url or source.name)


def _is_text(source: Source) -> bool:
    """Whether the name (a URL's path) is a text sitemap's: a ``.txt`` but robots.txt."""
    name = _named(source)
    return name.endswith((".txt", ".txt.gz")) and not _is_robots(source)


def _named(source: Source) -> str:
    name = source.url.split("?", 1)[0] if source.url else source.name
    return name.lower()


def _looks_like_robots(start: str) -> bool:
    """Whether text starting with ``start`` (its first non-blank character) is a
    robots.txt by its lines (``domain.robotstxt.looks_like_robots``)."""
    from sitemap_lint.domain.robotstxt import looks_like_robots

    return looks_like_robots(start)


def _result(
    source: Source,
    sink: FindingSink,
    facts: FileFacts | None,
    stats: FileStats | None,
    stream: ByteStream,
    kind: str | None = None,
    urls: int | None = None,
    live: bool = False,
) -> FileResult:
    """The file's result; what it is and its URLs (``kind``, ``urls``) come with it,
    but in a set, whose runner gives them from the facts. With ``live`` the file's
    sink stays open for the live audit's findings (``live.audit.finish``)."""
    if stats is not None:
        stats.size = stream.total
    if facts is None and live:
        findings = sink.settle()
        return FileResult(source.name, findings, kind=kind, urls=urls, stats=stats, sink=sink)
    if facts is None:
        return FileResult(source.name, sink.close(), kind=kind, urls=urls, stats=stats)
    # A file of a set: findings across files come later, through its open sink.
    return FileResult(source.name, sink.settle(), facts, stats=stats, sink=sink)


def _read_targets(blocks: Iterable[str], reader: TargetReader) -> Iterator[str]:
    """``blocks`` as they are, each also fed to the live audit's target reader."""
    for text in blocks:
        reader.feed(text)
        yield text


def _declared_below(parser: StreamParser) -> tuple[tuple[str, str, str, int, int, int], ...]:
    """The declarations of prefixes the reader met below the root, for an undeclared
    prefix's finding (``Markup.below``)."""
    return tuple(
        (prefix, uri, *place)
        for prefix, declarations in parser.declared_below.items()
        for uri, place in declarations.items()
    )


def _leading_comments(leading: str, sink: FindingSink) -> None:
    """The comments in the text before a late XML declaration, which XM002 reports, to
    the sink: a suppression directive there applies as one after the declaration does."""
    for match in _COMMENT.finditer(leading):
        before = leading[: match.start()]
        last_break = max(before.rfind("\n"), before.rfind("\r"))
        line = 1 + before.count("\n") + before.count("\r") - before.count("\r\n")
        sink.comment(match.group(1), line, match.start() - last_break)


def _first_content(texts: Iterator[str]) -> str | None:
    """The decoded text up to its first chunk with more than XML's white space (a form
    feed or U+2028 is none); None for a blank file. Text that does not start with
    markup is read on to ``SNIFF_SIZE`` characters (or its end), so that what it is
    (``_form``) is decided on the same prefix however the input came in chunks: a text
    sitemap's URLs may follow many lines of comments."""
    pending: list[str] = []
    size = 0
    found = False
    for text in texts:
        pending.append(text)
        size += len(text)
        if not found:
            if not text.strip(XML_SPACE):
                continue
            found = True
            if "".join(pending).lstrip().startswith("<"):
                break
        if size >= SNIFF_SIZE:
            break
    return "".join(pending) if found else None


def _blocks(texts: Iterable[str], size: int = FEED_SIZE) -> Iterator[str]:
    """Join decoded chunks into blocks of about ``size`` characters.

    Expat (before 2.6) re-reads an unfinished token from its start on every
    feed, so a huge comment or tag fed in small chunks costs quadratic time;
    large blocks keep that bounded.
    """
    return joined_blocks(texts, size)


def _chain(first: str, rest: Iterable[str]) -> Iterator[str]:
    yield first
    yield from rest


class FileChecker:
    """Receives parser events for one file and turns them into findings.

    One class, longer than most: it is the handler expat's callbacks reach for every
    element of every entry, and what it keeps between them (the open entry, the schema
    batch, the coverage of the sink, the counts, the pointers) is read on that hot
    path; split into parts it would pay an attribute lookup more a callback."""

    def __init__(
        self,
        sink: FindingSink,
        options: Options,
        engine: Engine,
        stream: ByteStream,
        shadow: ShadowTree | None = None,
        facts: FileFacts | None = None,
    ):
        self.sink = sink
        self.facts = facts
        # Where the decoder replaced bytes with U+FFFD, filled as the text is decoded
        # (None: no decoder): the URL rules tell them from a U+FFFD the file holds.
        self.replacements: Replacements | None = None
        self.stats: FileStats | None = None  # the HTML report's counts (Options.stats)
        self.feed: FeedChecker | None = None  # when the root is an RSS or Atom feed
        self.options = options
        self.engine = engine
        self.stream = stream
        self.parser: StreamParser | None = None
        self.root: Node | None = None
        self.root_name: str | None = None
        self.entry_name = ""
        self.sitemap_ns = SITEMAP_NS
        self.count = 0
        # The other root's entries directly in the root, and entries in no namespace.
        self.misplaced = 0
        self.url_count = 0  # entries with a <loc> (a urlset's URLs)
        self.over_limit: Node | None = None
        self.dispatch: Dispatch | None = None  # the entry checks, chosen at the root
        self.reported_namespaces: set[str] = set()
        self._batch: list[Node] = []
        self._batch_nodes = 0
        self._batch_extensions = False  # a waiting entry holds an extension element
        # The waiting entries' xhtml:link elements with an id, and the ids of those
        # validated before (value: the line of the first): an xs:ID is unique in the
        # document, and the schema sees one batch at a time.
        self._batch_ids: list[Node] = []
        self._ids: dict[str, int] = {}
        self.shadow = shadow
        self._doctype: Markup | None = None  # a DOCTYPE, reported at the end
        self._markup_checks: tuple[Callable[..., None], ...] | None = None
        # The comments that stand for entries the fast path proved, by position.
        self.proven: dict[tuple[int, int], ProvenRun] = {}
        self.entry_index = 0  # entries of the document so far, read or not (see advance)
        self._syntax_pending: list[int] = []  # syntax findings not yet given a pointer
        # A PHP error message in the root (``_php_message``): a <br> held until the next
        # element says whether it starts one; True while its markup is read.
        self._held_break: TopLevel | None = None
        self._in_php = False
        self._other_index: dict[tuple[str, str], int] = {}  # other root children, by name
        self.root_children = 0  # the root's child elements so far, entries or not
        # A root child written as an entry's name is in another namespace: its pointer is
        # its place among all the root's children (``*[N]``), while its checks run.
        self._starred: tuple[Node, int] | None = None

    @property
    def kind(self) -> str | None:
        """What the file turned out to be: urlset, sitemapindex, rss or atom; None for
        another root."""
        if self.feed is not None:
            return self.feed.kind or None
        return self.root_name

    @property
    def urls(self) -> int | None:
        """The URLs the file lists: a urlset's or a feed's; None for an index."""
        if self.feed is not None:
            return self.feed.url_count if self.feed.kind else None
        return self.url_count if self.root_name == "urlset" else None

    @property
    def sitemaps(self) -> int | None:
        """A sitemap index's entries, as ST008 counts them; None for another file."""
        return self.count if self.feed is None and self.root_name == "sitemapindex" else None

    # -- the reporter interface (the feed checker also reads parser and stream) ---

    def add(self, finding: Finding, covers: Covers | None = None) -> None:
        self.sink.add(finding, covers)

    # -- parser events -----------------------------------------------------------

    def _start_feed(self, root: Node) -> bool:
        """Whether the root is a feed's; then the feed checker takes the file over."""
        from sitemap_lint.formats import feed as feeds

        if not feeds.is_feed(root):
            return False
        if self.shadow is not None:
            self.shadow.stop()
        self.feed = feeds.FeedChecker(root, self.options, self, self.facts, self.replacements)
        if self.parser is not None and root.name == "rss":
            self.parser.containers = frozenset({("", "channel")})
            self.parser.set_entries(root, "item", container="channel")
        elif self.parser is not None and self.feed.kind == "atom":
            self.parser.set_entries(root, "entry")
        return True

    def on_root(self, root: Node) -> None:
        self.root = root
        if root.name in _FEED_ROOTS and self._start_feed(root):
            return
        if root.name not in structure.ROOTS:
            other = FileContext(self.options, root.name, "", None, self.replacements)
            once(ROOT, root, other, self.sink, self.options.enabled)
            return
        self.root_name = root.name
        self.entry_name = structure.ROOTS[root.name]
        self.sitemap_ns = root.ns
        if root.ns != SITEMAP_NS and self.shadow is not None:
            self.shadow.stop()  # the shadow elements carry the look-alike namespace
        head, loc = self.child_pointer(self.sitemap_ns, self.entry_name, "loc")
        pointer = EntryPointer(head, loc)
        if self.facts is not None:
            self.facts.kind = root.name
            self.facts.pointer = pointer
        if self.parser is not None:
            self.parser.set_entries(root, self.entry_name)
        context = FileContext(
            self.options,
            root.name,
            self.entry_name,
            self._robots_policy,
            self.replacements,
            pointer,
            self._element_path,
            self.parser.prefixes if self.parser is not None else None,
        )
        self.dispatch = Dispatch(context, self.options.enabled)
        self.dispatch.root(root, self.sink)

    def _robots_policy(self) -> RobotsPolicy:
        from sitemap_lint.sets.robots import robots_policy

        return robots_policy(self.options.robots, self.options.agent)

    def advance(self, count: int = 1) -> int:
        """Count ``count`` more entries of the document (read, lost to a syntax error, or
        skipped by a caller that proved them fine); the index of the last one."""
        self.entry_index += count
        self.root_children += count
        return self.entry_index

    def on_entry(self, entry: Node) -> None:
        if self.feed is not None:
            self.feed.on_entry(entry)
            return
        if self.root_name is None:
            return
        findings = self.sink.findings
        before = len(findings)
        self._on_entry(entry)
        if len(findings) > before:
            self.point(entry, range(before, len(findings)))
        if self._syntax_pending:
            self.point(entry, self._syntax_pending)
            self._syntax_pending = []

    def on_lost_entry(self, entry: Node) -> None:
        """An entry that a syntax error made unreadable: it still takes its place."""
        if self.root_name is not None and self._is_entry(entry):
            entry.index = self.advance()
            findings = self.sink.findings
            for i in self._syntax_pending:
                self.sink.replace(i, findings[i].with_xpath(self._root_path(entry)))
            self._syntax_pending = []

    def _is_entry(self, node: Node) -> bool:
        return node.name == self.entry_name and node.ns == self.sitemap_ns

    def _on_entry(self, entry: Node) -> None:
        self._starred = None
        if self._is_entry(entry):
            self._end_php_message()
            entry.index = self.advance()
        else:
            key = (entry.ns, entry.name)
            entry.index = self._other_index[key] = self._other_index.get(key, 0) + 1
            self.root_children += 1
            if self._unprefixed_elsewhere(entry):
                self._starred = (entry, self.root_children)
        dispatch = self.dispatch
        assert dispatch is not None  # made with the root
        if entry.ns != self.sitemap_ns or entry.name != self.entry_name:
            assert self.root is not None  # set with root_name
            if entry.name in structure.ENTRY_CHILDREN and entry.ns in (self.sitemap_ns, ""):
                self.misplaced += 1  # the other root's entry (ST007), or one in no namespace
            elif entry.ns == self.sitemap_ns and self.entry_name:
                self.misplaced += structure.wrapped_entries(entry, entry.ns, self.entry_name)
            element = TopLevel(entry, self.root, self.count)
            if self._php_message(element):
                return
            dispatch.top_level(element, self.sink)
            if entry.ns != self.sitemap_ns:
                self._check_namespace(entry)
            return
        self.count += 1
        if self.count == limits.MAX_ENTRIES + 1:
            self.over_limit = entry
        found = dispatch.children(entry, self.sink)
        context = dispatch.entry(entry, found, self.entry_name)
        dispatch.fields(context, self.sink)
        if "loc" in found:
            self.url_count += 1
        if self.facts is not None:
            self._collect(entry, found.get("loc"), context.moment, found.get("lastmod"))
        if self.stats is not None and self.entry_name == "url":
            self.stats.add_entry(found, context.moment, entry)
        if len(found) != len(entry.children):  # more than the core fields: extensions?
            extension_seen = False
            for child in entry.children:
                if child.ns != self.sitemap_ns:
                    self._check_namespace(child)
                    extension_seen = True
                    if "id" in child.attrs and child.name == "link" and child.ns == XHTML_NS:
                        self._batch_ids.append(child)
            if extension_seen:
                self._batch_extensions = True
                if self.entry_name == "url":
                    dispatch.extensions(context, self.sink)
        dispatch.entries(context, self.sink)
        self._batch.append(entry)
        self._batch_nodes += 1 + len(entry.children)
        if len(self._batch) >= BATCH_ENTRIES or self._batch_nodes >= BATCH_NODES:
            self._validate_pending()

    def _collect(
        self, entry: Node, loc: Node | None, moment: datetime | None, lastmod: Node | None
    ) -> None:
        facts = self.facts
        assert facts is not None  # called only when the run collects facts
        if moment is not None:
            facts.add_lastmod(moment)
        if loc is None:
            return
        url = loc.text.strip()
        index = loc_index(entry, loc)
        if self.entry_name == "sitemap":
            stated = moment
            if moment is not None and lastmod is not None:
                from sitemap_lint.rules.dates import parse_date

                parsed = parse_date(lastmod.text)
                if parsed is not None:  # a month or a year: its last day (SE006)
                    stated = parsed.last_day()
            facts.children.append(Child(url, loc.line, loc.column, stated, index))
        else:
            facts.add_url(url, loc.line, loc.column, index=index)

    def after_chunk(self) -> None:
        """More text was parsed: entries waiting for their shadow elements may be ready."""
        if len(self._batch) >= BATCH_ENTRIES or self._batch_nodes >= BATCH_NODES:
            self._validate_pending()

    def _markup(self, markup: Markup) -> range:
        """Hand what the reader met to the checks of the markup; where their findings
        stand in the sink."""
        checks = self._markup_checks
        if checks is None:  # looked up once a file: a damaged file has many errors
            checks = self._markup_checks = calls(MARKUP, self.options.enabled)
        findings = self.sink.findings
        before = len(findings)
        for check in checks:
            check(markup, self.options, self.sink)
        return range(before, len(findings))

    def _php_message(self, element: TopLevel) -> bool:
        """Whether ``element`` is markup of a PHP error message that the script writing
        the sitemap printed into it (``<br />\\n<b>Warning</b>:  ... in <b>file</b> on line
        <b>12</b><br />``), reported once, as text in the root, where it starts (its
        <br>, held until the next element tells)."""
        node = element.node
        plain = node.ns in (self.sitemap_ns, "") and not node.children and not node.attrs
        if plain and node.name == "br" and not node.text.strip(XML_SPACE):
            if not self._in_php:
                self._release_break()
            self._held_break = element  # in a message: where the next one would start
            return True
        if plain and node.name == "b":
            level = " ".join(node.text.split())
            if level.lower() in structure.PHP_LEVELS:
                start = self._held_break.node if self._held_break is not None else node
                self._held_break = None
                self._in_php = True
                context = f"<b>{level}</b>"
                found = self._markup(
                    Markup(
                        MarkupKind.ROOT_TEXT,
                        start.line,
                        start.column,
                        self.root_name or "",
                        context=context,
                    )
                )
                if found:
                    self.point(start, found)
                return True
            if self._in_php:
                return True  # the file or the line the message names
        self._end_php_message()
        return False

    def _end_php_message(self) -> None:
        if self._in_php:
            self._in_php = False
            self._held_break = None  # the message's last <br>
        self._release_break()

    def _release_break(self) -> None:
        """Check a <br> held by ``_php_message`` that starts no PHP message."""
        held = self._held_break
        if held is None:
            return
        self._held_break = None
        assert self.dispatch is not None
        findings = self.sink.findings
        before = len(findings)
        self.dispatch.top_level(held, self.sink)
        if len(findings) > before:
            self.point(held.node, range(before, len(findings)))

    def on_root_text(self, line: int, column: int, text: str = "") -> None:
        if self.root_name is None:
            return
        if self._in_php:
            return  # the text of a PHP error message, reported with its level
        self._release_break()
        context = text.replace(DROP_MARK, "").strip(XML_SPACE)[:200]
        if not context and DROP_MARK in text:
            return  # only characters XML does not allow, each XM001's already
        self._markup(Markup(MarkupKind.ROOT_TEXT, line, column, self.root_name, context=context))

    def on_doctype(self, name: str, line: int, column: int) -> None:
        # Reported when the file is read: an entity of its own may stop the parser.
        self._doctype = Markup(MarkupKind.DOCTYPE, line, column, name)
        if self.shadow is not None:
            self.shadow.stop()  # entity references would read differently there

    def on_comment(self, text: str, line: int, column: int) -> None:
        """Comments carry no sitemap data, only inline suppression directives."""
        run = self.proven.pop((line, column), None) if self.proven else None
        if run is not None:  # entries the fast path proved: counted, and seen by the checks
            proved = run.enter(self)
            self.count += proved
            self.url_count += proved  # a proved entry has its <loc>
            self.advance(proved)
            return
        self.sink.comment(text, line, column)

    def on_too_deep(self, outermost: Node, line: int, column: int) -> None:
        self._markup(Markup(MarkupKind.TOO_DEEP, line, column, node=outermost))

    def on_syntax_error(self, code: int, line: int, column: int, context: str, offset: int) -> None:
        if self.shadow is not None:
            self.shadow.stop()  # entries after this one are validated by rebuilding them
        if self._doctype is not None and xml.is_entity_error(code):
            # An entity of the DOCTYPE's own stopped the parser: one finding says both.
            parser = self.parser
            resumed = parser is not None and parser.recover and not parser.root_closed
            self._doctype = self._doctype._replace(
                code=code, at=(line, column), resumed=1 if resumed else None
            )
            return
        parser = self.parser
        at_end = code in _END_OF_INPUT_ERRORS
        if at_end and self.stream.stopped_early:
            return  # the reader already said why the document is incomplete
        if at_end and parser is not None and parser.saw_root and not parser.root_closed:
            root = self.root.name if self.root is not None else "root"
            self._markup(Markup(MarkupKind.TRUNCATED, line, column, root))
            return
        if at_end and parser is not None and not parser.saw_root:
            cut = _START_TAG.match(context, offset)
            if cut is not None:  # the text ends inside the root's start tag
                self._markup(Markup(MarkupKind.TRUNCATED, line, column, cut.group(1)))
                return
            if unended_at(context, offset) is None:
                self._markup(Markup(MarkupKind.NO_ROOT, line, column))
                return
        before_root = None if parser is None else not parser.saw_root
        opened = None if parser is None else parser.open_element()
        name, at = opened if opened is not None else ("", None)
        if opened is None and parser is not None and parser.root_closed and self.root is not None:
            name = self.root.name  # after the root's end: the root's name
        declared = frozenset() if parser is None else parser.root_prefixes()
        below = () if parser is None or code != _UNBOUND_PREFIX else _declared_below(parser)
        error = Markup(
            MarkupKind.SYNTAX,
            line,
            column,
            name,
            code,
            context,
            offset,
            before_root,
            at,
            declared=declared,
            below=below,
        )
        added = self._markup(error)
        if parser is not None and parser.recover and not parser.root_closed:
            self._syntax_pending.extend(added)

    def on_unclosed(self, entry: Node, node: Node, qname: str, line: int, column: int) -> None:
        """``node`` (in ``entry``, the next entry to be counted) has no end tag."""
        unclosed = Markup(MarkupKind.UNCLOSED, node.line, node.column, qname, at=(line, column))
        added = self._markup(unclosed)
        if self.root_name is not None and self._is_entry(entry):
            entry.index = self.entry_index + 1
            xpath = self._xpath(entry, 0, 0, node)
            findings = self.sink.findings
            for index in added:
                self.sink.replace(index, findings[index].with_xpath(xpath))

    def on_unended(self, what: str, closer: str, line: int, column: int) -> None:
        """A comment, CDATA section or instruction (``what``) not closed by ``closer``
        before the text ends; reading resumed after it."""
        if self.shadow is not None:
            self.shadow.stop()  # entries after this one are validated by rebuilding them
        added = self._markup(Markup(MarkupKind.UNENDED, line, column, what, context=closer))
        self._syntax_pending.extend(added)

    def on_skipped(self, first: int, last: int, resumed: int | None) -> None:
        skipped = Markup(MarkupKind.SKIPPED, first, 1, self.entry_name or "entry")
        self._markup(skipped._replace(last=last, resumed=resumed))

    def on_too_many_errors(self, line: int, column: int) -> None:
        self._markup(Markup(MarkupKind.TOO_MANY, line, column))

    # -- where in the document ---------------------------------------------------

    def point(self, entry: Node, indexes: Iterable[int]) -> None:
        """Name the element in ``entry`` of the findings at ``indexes``."""
        findings = self.sink.findings
        for i in indexes:
            finding = findings[i]
            if finding.xpath is None:
                path = self._xpath(entry, finding.line, finding.column)
                if path is not None:
                    self.sink.replace(i, finding.with_xpath(path))

    def child_pointer(self, ns: str, entry: str, child: str) -> tuple[str, str]:
        """The pointer ``point`` gives the only ``child`` element of an ``entry`` element
        (both in namespace ``ns``) as ``head``, the entry's index, ``tail``."""
        prefixes = self.parser.prefixes if self.parser is not None else {}
        root = self.root
        assert root is not None  # entries come after the root
        head = f"/{pointer_step(root.ns, root.name, prefixes)}/{pointer_step(ns, entry, prefixes)}["
        return head, f"]/{pointer_step(ns, child, prefixes)}"

    def _element_path(self, entry: Node, node: Node) -> str | None:
        """The pointer to ``node`` in ``entry`` (an entry the checks were handed)."""
        return self._xpath(entry, 0, 0, node) if self.root is not None else None

    def _root_path(self, entry: Node) -> str:
        prefixes = self.parser.prefixes if self.parser is not None else {}
        root = self.root
        assert root is not None  # entries come after the root
        step = pointer_step(root.ns, root.name, prefixes)
        if self._starred is not None and self._starred[0] is entry:
            return f"/{step}/*[{self._starred[1]}]"
        return f"/{step}/{pointer_step(entry.ns, entry.name, prefixes)}[{entry.index or 1}]"

    def _unprefixed_elsewhere(self, node: Node) -> bool:
        """Whether the pointer would write ``node``'s name without a prefix although it is
        not in the namespace such names stand for (the root's, when it has no prefix):
        ``<url xmlns="https://www.sitemaps.org/...">`` would read as a sitemap entry."""
        prefixes = self.parser.prefixes if self.parser is not None else {}
        root = self.root
        assert root is not None  # root children come after the root
        if ":" in pointer_step(node.ns, node.name, prefixes):
            return False
        default = "" if ":" in pointer_step(root.ns, root.name, prefixes) else root.ns
        return node.ns != default

    def _xpath(self, entry: Node, line: int, column: int, target: Node | None = None) -> str | None:
        """The pointer to ``target`` in ``entry``, or to the last element of ``entry``
        that starts at or before ``line``:``column``; None when the position is before it."""
        where = (line, column)
        if target is None and (entry.line, entry.column) > where:
            return None
        prefixes = self.parser.prefixes if self.parser is not None else {}
        best = self._root_path(entry)
        if target is None:  # down the children that start at or before the position
            node = entry
            while node.children:
                children = node.children
                chosen = None
                for child in children:
                    if (child.line, child.column) > where:
                        break
                    chosen = child
                if chosen is None:
                    break
                step = pointer_step(chosen.ns, chosen.name, prefixes)
                same = [c for c in children if c.name == chosen.name and c.ns == chosen.ns]
                if chosen.children or len(same) > 1:
                    step = f"{step}[{same.index(chosen) + 1}]"
                best = f"{best}/{step}"
                node = chosen
            return best
        pending: list[tuple[Node, str]] = [(entry, best)]
        while pending:
            node, path = pending.pop()
            if node is target:
                return path
            if target is None and (node.line, node.column) <= where:
                best = path
            counts: dict[tuple[str, str], int] = {}
            for child in node.children:
                key = (child.ns, child.name)
                counts[key] = counts.get(key, 0) + 1
            seen: dict[tuple[str, str], int] = {}
            steps = []
            for child in node.children:
                key = (child.ns, child.name)
                seen[key] = number = seen.get(key, 0) + 1
                step = pointer_step(child.ns, child.name, prefixes)
                if child.children or counts[key] > 1:
                    step = f"{step}[{number}]"
                steps.append((child, f"{path}/{step}"))
            pending.extend(reversed(steps))
        return None if target is not None else best

    # -- end of file -------------------------------------------------------------

    def finish(self) -> None:
        if self._doctype is not None:
            self._markup(self._doctype)
        if self.feed is not None:
            self.feed.finish()
        self._finish_document()

    def _finish_document(self) -> None:
        self._validate_pending(final=True)
        if self.root_name is None:
            return
        self._end_php_message()
        parser = self.parser
        failed = parser is not None and (parser.failed or parser.syntax_errors > 0)
        dispatch = self.dispatch
        if dispatch is not None:
            node = self.over_limit
            past_limit = None if node is None else (node.line, node.column)
            cut_short = failed or self.stream.stopped_early
            parser = self.parser
            declared = frozenset() if parser is None else parser.root_namespaces()
            end = FileEnd(
                self.root_name,
                self.root,
                self.count,
                past_limit,
                cut_short,
                None,
                self.misplaced,
                declared,
            )
            dispatch.end(end, self.sink)
            dispatch.finish(self.sink, self.facts)

    def _check_namespace(self, node: Node) -> None:
        ns = node.ns
        if ns in namespace.SCHEMA_NAMESPACES or ns in self.reported_namespaces:
            return
        self.reported_namespaces.add(ns)
        dispatch = self.dispatch
        assert dispatch is not None  # elements are checked under a known root only
        dispatch.namespace(node, self.sink)

    def _validate_pending(self, final: bool = False) -> None:
        """Validate the waiting entries: through the shadow parse when it has them all
        and they are valid, otherwise by rebuilding them (exact node for each error)."""
        batch = self._batch
        if not batch:
            return
        assert self.root_name is not None  # entries are batched only under a known root
        shadow = self.shadow
        elements = None
        if shadow is not None and shadow.active:
            elements = shadow.take(batch, f"{{{SITEMAP_NS}}}{self.entry_name}", self._line_offset())
            if elements is None and shadow.active and not final and len(batch) < 4 * BATCH_ENTRIES:
                return  # the shadow parse is a little behind; wait for the next chunk
        repeated = self._repeated_ids() if self._batch_ids else []
        # The shadow parse exists only for an engine with all_valid (check_source).
        if (
            elements is not None
            and not repeated
            and cast("ShadowEngine", self.engine).all_valid(
                self.root_name, elements, self._batch_extensions
            )
        ):
            self._batch = []
            self._batch_nodes = 0
            self._batch_extensions = False
            self.sink.clear_coverage()
            return
        self._validate_batch(repeated)

    def _repeated_ids(self) -> list[tuple[Node, str]]:
        """The schema errors of the waiting xhtml:link ids that an earlier batch holds
        (those repeated within the batch are the schema's to find); the batch's ids are
        kept for the next."""
        repeated = []
        seen = self._ids
        new: dict[str, int] = {}
        for node in self._batch_ids:
            value = node.attrs["id"].strip(XML_SPACE)  # xs:ID collapses white space
            first = seen.get(value)
            if first is not None:
                repeated.append(
                    (
                        node,
                        f"attribute id: '{value}' is not a valid value of the atomic type "
                        f"'xs:ID': the document uses it already (line {first}); ids are unique",
                    )
                )
            else:
                new.setdefault(value, node.line)
        self._batch_ids = []
        seen.update(new)
        return repeated

    def _line_offset(self) -> int:
        return self.parser.line_offset if self.parser is not None else 0

    def _validate_batch(self, found: Sequence[tuple[Node, str]] = ()) -> None:
        """Validate the waiting entries by rebuilding them; ``found``: their errors found
        across batches (``_repeated_ids``)."""
        batch = self._batch
        if not batch:
            return
        assert self.root_name is not None  # entries are batched only under a known root
        try:
            errors = self.engine.validate(
                self.root_name, batch, self.sitemap_ns, self._batch_extensions
            )
            errors.extend(found)
        finally:
            self._batch = []
            self._batch_nodes = 0
            self._batch_extensions = False
        sink = self.sink
        findings = sink.findings
        dispatch = self.dispatch
        assert dispatch is not None  # entries are batched only under a known root
        reported: set[int] = set()
        entries: dict[int, Node] | None = None
        for node, message in errors:
            key = id(node)
            if key in reported or sink.covered(node):
                continue
            if isinstance(node.text, RefusedReferences):
                # The schema reads its refused character references as written ("&#0;",
                # "#" and all): XM001 reports each of them.
                continue
            if node.ns in self.reported_namespaces and messages.unknown_namespace(message):
                continue  # the namespace's finding says so (NS003, NS004)
            reported.add(key)
            before = len(findings)
            dispatch.schema_error(SchemaError(node, message), sink)
            if len(findings) == before:
                continue
            if entries is None:
                entries = {id(n): entry for entry in batch for n in entry.iter()}
            entry = entries.get(key)
            if entry is not None:
                xpath = self._xpath(entry, 0, 0, node)
                for index in range(before, len(findings)):
                    sink.replace(index, findings[index].with_xpath(xpath))
        sink.clear_coverage()
