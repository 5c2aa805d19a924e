"""Streaming parse: decoded text in, entries out.

Expat reads the text in one pass and reports every element with its line and
column. The root element is announced first; each child of the root (a ``url``
or ``sitemap`` entry, or anything else standing there) is handed over as a
finished tree of nodes, then forgotten, so memory does not grow with the file.
No entity is ever expanded and nothing is ever fetched: a DOCTYPE is reported
and its declarations are ignored.

Recovery. Expat stops at the first well-formedness error; in a sitemap the check goes
on. A lexical defect with an obvious reading (a raw ``&``, an undefined entity, a
character XML does not allow) is reported, marked in the text (a mark of the same length
in characters, so no position moves; in a tag's name such a character is left out and a
space put after the name) and the entry is read again from its start tag by a fresh
parser: its other fields are still checked, and the marks are turned back into the text
as written when the entry is handed over (an entry too long to be read again is read on
from the text the defect stands in, behind start tags of its open elements). Three defects of an entry's markup are
repaired so too (``_markup_repair``): a raw ``<`` in a field's value (its mark read back
as its fix writes it, ``%3C`` in a URL), an end tag of the open element whose ``>`` is
missing before white space and the next tag (a ``>`` in place of its first space, or put
before its line break), and a stray ``<`` between an entry's elements (read as white
space, with a start tag glued to it whose element the entry never closes: ``<<b>``).
A start tag with a value not in XML's quotes, or with a raw ``<`` in a value in them, is
read written right (``starttag``: the ``<`` as its fix writes it, ``%3C`` in a URL,
``&lt;`` elsewhere): the characters it gains are taken off the positions after it on its
line (``expat_position``); a tag on several lines is its findings' context whole, so that
they name it.
An error in a mark is the repair failing: it is not reported again, and reading resumes
as after structural damage. Structural damage (a mismatched, missing or stray end tag,
a bad attribute, ``--`` in a comment, a raw ``<`` elsewhere) is reported and reading
resumes at the next entry start tag or the root's end tag (in an
RSS feed also the ``<channel>``'s end tag: its items are the entries, and a parser resumed
inside it reads a synthetic ``<channel>`` after the synthetic root); the
comments in the text skipped up to there are delivered all the same (their directives
count), and only lines holding more than white space and comments are reported as
skipped. A resumed parser first reads a synthetic copy of the root start tag on the same
line as the resumed text, so every position it reports maps back to the file: lines by
``line_offset``, columns of its first line by ``column_offset``. A malformed XML
declaration at the start is reported and read as one: the parser starts after it. The text is kept as
UTF-8 for the last two blocks only, so memory stays flat.

The text read may be shorter than the file's on some lines: the fast path hands each
run of proved entries over as a short comment (fastpath/). It says where with
``shortened``; every position reported is mapped back to the file's (``position``),
and recovery counts in the text as read (``_to_read``).
"""

from __future__ import annotations

import pyexpat
import re
from bisect import bisect_left, bisect_right, insort
from collections import deque
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Protocol

from sitemap_lint.formats.starttag import first_start_tag, read_start_tag
from sitemap_lint.model import (
    ATTRIBUTE_NAME,
    BEFORE_VALUE,
    EQUALS,
    MAX_TEXT,
    SPACED_TAG,
    UNGLUED,
    USUAL_PREFIXES,
    XML_DECLARATION,
    XML_NS,
    XML_SPACE,
    Node,
    Prefixes,
    RefusedReferences,
    unended_at,
)
from sitemap_lint.support.patterns import lazy

# Deeper elements are not kept: no sitemap needs them, and they would only cost memory.
MAX_DEPTH = 32
# Syntax errors reported per file; past this the rest of the file is not read.
MAX_SYNTAX_ERRORS = 100_000
# An entry is read again after a lexical repair only if the defect is this near its start;
# a longer one is read on from the text the defect stands in (``_read_on``).
MAX_REPLAY = 1 << 16
# Of one entry, the most bytes read again in all, whatever its repairs.
REPLAY_BUDGET = 8 * MAX_REPLAY
# The start of a parser's segment or mark: what they are looked up by.
_FIRST = itemgetter(0)
# Around an error, the most of its line that is looked at (each side), in bytes.
CONTEXT_BYTES = 4096
# Marks put in place of a defect, read back when the entry is handed over: the '&' of
# a raw or undefined reference, and a character XML does not allow (dropped).
AMP_MARK = "\ufdd1"
DROP_MARK = "\ufdd0"
# ... and a raw "<" in a value, read back as the fix writes it: "%3C" in a URL, "<"
# elsewhere (as "&lt;" reads).
LT_MARK = "\ufdd2"
_AMP_MARK_BYTES = AMP_MARK.encode()
_DROP_MARK_BYTES = DROP_MARK.encode()
_LT_MARK_BYTES = LT_MARK.encode()
_END_OF_INPUT = {3, 5, 6}  # no element found, unclosed token, partial character
_INVALID_TOKEN = 4
_TAG_MISMATCH = 7
_UNDEFINED_ENTITY = 11
_BAD_CHAR_REF = 14
_XML_DECL = 30
_UNBOUND_PREFIX = 27
_UNCLOSED_TOKEN = 5
_UNCLOSED_CDATA = 20
_REFERENCE_RUN = lazy(rb"#?[\w.:-]*")
# An attribute's name and "=" before a place, and another attribute of the same tag
# after it whose value is not in XML's quotes (the match ends at the value).
_BEFORE_ATTRIBUTE_VALUE = lazy(BEFORE_VALUE.encode())
_UNQUOTED_AFTER = lazy(f"[ \\t]{ATTRIBUTE_NAME}{EQUALS}(?=[^\"' \\t\\r\\n])".encode())
_VALID_REFERENCE = lazy(rb"&(?:[A-Za-z_][\w.-]*;|#[0-9]+;|#x[0-9A-Fa-f]+;)")
_ENTITY_REF = lazy(rb"&([A-Za-z_][\w.-]*);")
_PREDEFINED = {b"amp", b"lt", b"gt", b"quot", b"apos"}
_END_TAG_NAME = lazy(rb"[^\s>/]+")
_SPACE = lazy(rb"[ \t\r\n]*")
_REFUSED_REFERENCE = lazy(AMP_MARK + "(?=#)")
# A character XML does not allow: a control character, U+FFFE, U+FFFF.
_BAD_CHAR = lazy(rb"\xef\xbf[\xbe\xbf]|[\x00-\x08\x0b\x0c\x0e-\x1f]")
_NAME_BYTE = rb"[\w.:\x80-\xff-]"
# A tag's "<" with what may follow it, and the start of its name (all of a name).
_OPENED_NAME = lazy(rb"<[/?!]?" + _NAME_BYTE + rb"*")
_NAMED = lazy(rb"<[/?!]?" + _NAME_BYTE + rb"+")
# The rest of a name from a character XML does not allow, with any more of them; right
# after a bare "<", also what opens an end tag, an instruction or a declaration.
_NAME_RUN = lazy(rb"(?:" + _BAD_CHAR.pattern + rb"|" + _NAME_BYTE + rb")*")
_OPENER_RUN = lazy(rb"(?:" + _BAD_CHAR.pattern + rb")+[/?!]?" + _NAME_RUN.pattern)
# What a repair marks: a character XML does not allow, or a raw "&".
_DEFECT = lazy(_BAD_CHAR.pattern + rb"|&")
_LINE_BREAK = lazy(rb"\r\n?|\n")
_NOT_SPACE = lazy(rb"[^ \t\r\n]")
# A whole tag name, and what may start one.
_TAG_NAME = lazy(_NAME_BYTE + rb"+")
_PREFIXED_NAME = lazy(rb"<?([A-Za-z_][\w.-]*):[A-Za-z_]")
_TAG_PREFIXES = lazy(rb"[ \t\r\n]([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*[ \t\r\n]*=")
_NAME_START_BYTE = lazy(rb"[A-Za-z_:\x80-\xff]")
# Before a "<" glued to a value's text (``q=a<b``), anything but these (model.RAW_LT).
_UNGLUED = UNGLUED.encode()
# A value that is a URL, whose raw "<" reads as "%3C" (as rules/xml.py's XM005 says).
_URL_START = lazy(r"[A-Za-z][A-Za-z0-9+.-]*://")
_DECLARATION = lazy(XML_DECLARATION.encode())  # at the start of the text
# White space, then a tag's name, after a "<" (``< url``, ``< /url``; rules/xml.py).
_SPACED_TAG = lazy(SPACED_TAG.encode())
# A start tag glued to a stray "<" before it (``<<b>``), and its name.
_STRAY_TAG = lazy(rb"<(" + _NAME_BYTE + rb"+)(?:[ \t\r\n][^<>]*)?(?<!/)>")


class Handler(Protocol):
    def on_root(self, root: Node) -> None: ...
    def on_entry(self, entry: Node) -> None: ...
    def on_root_text(self, line: int, column: int, text: str = "") -> None: ...
    def on_doctype(self, name: str, line: int, column: int) -> None: ...
    def on_too_deep(self, outermost: Node, line: int, column: int) -> None: ...
    def on_comment(self, text: str, line: int, column: int) -> None: ...
    def on_syntax_error(
        self, code: int, line: int, column: int, context: str, offset: int
    ) -> None: ...
    def on_unclosed(self, entry: Node, node: Node, qname: str, line: int, column: int) -> None: ...
    def on_unended(self, what: str, closer: str, line: int, column: int) -> None: ...
    def on_lost_entry(self, entry: Node) -> None: ...
    def on_skipped(self, first: int, last: int, resumed: int | None) -> None: ...
    def on_too_many_errors(self, line: int, column: int) -> None: ...


class _Shortened:
    """Where the text read is shorter than the file on one line: at each place, the
    0-based column after the shortened text, as read and in the file, and how many
    characters are missing up to it (in order along the line)."""

    __slots__ = ("file", "missing", "read")

    def __init__(self) -> None:
        self.read: list[int] = []
        self.file: list[int] = []
        self.missing: list[int] = []

    def to_file(self, column: int) -> int:
        found = bisect_right(self.read, column)
        return column + self.missing[found - 1] if found else column

    def to_read(self, column: int) -> int:
        found = bisect_right(self.file, column)
        return column - self.missing[found - 1] if found else column


class _Built:
    """A restart's input up to its last mark, from file byte ``offset`` after
    ``prefix`` (the synthetic start tags), with the repairs ``repairs`` made, kept so
    that the next restart from the same place, with more repairs after these, adds only
    what they add: a text with thousands of raw '&' is read again once for each, and
    building each input again from its start would cost the square of their number."""

    __slots__ = (
        "at",
        "body",
        "column",
        "index",
        "line",
        "longer",
        "marks",
        "offset",
        "prefix",
        "repairs",
        "segment",
    )

    def __init__(self, offset: int, prefix: bytes) -> None:
        self.offset = offset
        self.prefix = prefix
        self.repairs: list[tuple[int, int, bytes]] = []
        self.body = prefix  # the input: the prefix, then the file's text and the marks
        self.at = offset  # the file byte offset after the last repair
        self.index = len(prefix)  # the input's byte index there
        # ``StreamParser._segment`` and ``_marks`` of the input, which the parser reads
        # as they are (only this adds to them).
        self.segment: list[tuple[int, int, int]] = [(0, -1, len(prefix)), (len(prefix), offset, -1)]
        self.marks: list[tuple[int, int, bytes]] = []
        # ``StreamParser._longer`` of the input (``_note_mark``), and the position
        # (line, 0-based column in characters) after it.
        self.longer: dict[int, list[tuple[int, int]]] = {}
        self.line, self.column = _moved(1, 0, prefix)

    def leads_to(self, offset: int, prefix: bytes, repairs: list[tuple[int, int, bytes]]) -> bool:
        """Whether a restart at ``offset`` after ``prefix`` with ``repairs`` reads this
        input first."""
        made = self.repairs
        count = len(made)
        return (
            offset == self.offset
            and prefix == self.prefix
            and repairs[:count] == made
            and (len(repairs) == count or repairs[count][0] >= self.at)
        )

    def extend(self, repairs: list[tuple[int, int, bytes]], window: bytes, base: int) -> None:
        """Add the repairs of ``repairs`` after those already made (the text before
        each read from ``window``, which starts at file byte ``base``)."""
        made = len(self.repairs)
        if made == len(repairs):
            return
        parts = [self.body]
        at, index, line, column = self.at, self.index, self.line, self.column
        segment, marks, longer = self.segment, self.marks, self.longer
        segment.pop()  # the open end
        for start, end, mark in repairs[made:]:
            text = window[at - base : start - base]
            parts += (text, mark)
            segment.append((index, at, start - at))
            index += start - at
            segment.append((index, -1, len(mark)))
            marks.append((index, start, mark))
            index += len(mark)
            line, column = _moved(line, column, text)
            line, column = _note_mark(longer, line, column, mark, window[start - base : end - base])
            at = end
        segment.append((index, at, -1))
        self.repairs.extend(repairs[made:])
        self.body = b"".join(parts)
        self.at, self.index, self.line, self.column = at, index, line, column


class _NestedEntry(Exception):
    """Raised from an end handler: an entry's end tag is missing, so the entry that
    follows was read as its child; reading starts again at that entry."""


class StreamParser:
    """Feeds text to expat and turns its callbacks into nodes for a Handler.

    One class, longer than most: the tree handlers are closures over its state (the
    element stack, the gathered text), and recovery after a syntax error restarts the
    parser in the middle of that state (the window of recent bytes, the replay, the
    resync search), so the two cannot be separated without exposing both."""

    def __init__(self, handler: Handler, line_offset: int = 0, column_offset: int = 0):
        self.handler: Handler | None = handler
        self.line_offset = line_offset
        self.column_offset = column_offset
        self.saw_root = False
        self.root_closed = False
        self.failed = False
        # Recovery: set by the handler at a sitemap root, with the entries' expat tag.
        self.recover = False
        self.entry_tag: str | None = None
        self.syntax_errors = 0
        # Errors repaired where they stand, the entry read again from its start tag (a
        # raw "&", an undefined entity): nothing after the entry is skipped.
        self.entry_repairs = 0
        # The entry read again last (its file byte offset) and the bytes read again of it.
        self._replayed = (-1, 0)
        # Namespace -> the prefix the document declares for it ('' for the default).
        # (``Prefixes.placed``: the elements written with a prefix declared below the root.)
        self.prefixes = Prefixes()
        # How many declarations below the root are in scope: while any is, each start tag's
        # prefix is read (``_note_placed``).
        self._scoped = 0
        self.root_node: Node | None = None
        self._root_declarations: list[tuple[str, str]] = []
        # The prefixes declared on elements below the root, out of scope after them:
        # prefix -> namespace -> (the last declaring element's qualified name, its line,
        # column, how many elements declared it so), the last namespace declared last.
        self.declared_below: dict[str, dict[str, tuple[str, int, int, int]]] = {}
        self._recent: list[tuple[int, str]] = []  # (first line number, text) of the first chunks
        # Set by the fast path, whose runs of proved entries this parser reads as short
        # comments, for the context of a syntax error: (the text of a file line from a
        # 0-based column on, as read; the line; the column; a place in the text) -> the
        # text as the file has it, and the place in it.
        self.restore_context: Callable[[str, int, int, int], tuple[str, int]] | None = None
        self._line_count = 1
        self._too_deep_reported = False
        # File line -> where the text read on it is shorter than the file's (``shortened``).
        self._shortened: dict[int, _Shortened] = {}
        # Depth-1 elements whose children are handed over one by one as entries, like an
        # RSS <channel>'s items, so a big feed is never held whole: (namespace, name).
        self.containers: frozenset[tuple[str, str]] = frozenset()
        # The start tag of the container the entries stand in (an RSS <channel>), which a
        # restart inside it opens again after the synthetic root, and the start of its end
        # tag; None: no container.
        self._container_tag: str | None = None
        self._container_end = b""
        self._in_container = False
        self._container_node: Node | None = None
        self._entry_depth = 1  # of the entries: 1 (children of the root), 2 in a container
        self._names: dict[str, tuple[str, str]] = {}
        # The text as UTF-8: the last two blocks, from file byte offset _window_base.
        self._window = b""
        self._window_base = 0
        # Where the window's first "<!" stands (-1: none; None: not looked for yet):
        # before it, no comment or CDATA section is open.
        self._first_bang: int | None = None
        self._block_start = 0
        self._fed = 0
        # The current parser's input: (its byte index, file byte offset or -1 for
        # synthetic text, length or -1 for the open end) in order.
        self._segment: list[tuple[int, int, int]] = [(0, 0, -1)]
        self._repairs: list[tuple[int, int, bytes]] = []  # (start, end, mark) in file bytes
        # The marks in the current parser's input: (its byte index, the file byte offset
        # of the defect it stands for, the mark).
        self._marks: list[tuple[int, int, bytes]] = []
        self._marked = False  # the current parser's text holds marks
        self._replay_until: tuple[int, int] | None = None  # events before this were delivered
        self._last_error = -1  # file byte offset of the last error
        self._last_unbound = -1  # that of the last undeclared prefix
        self._last_restart = -1
        # The first entry start tag read as a child of an open entry:
        # (byte index, line, column, children of the open entry before it).
        self._nested: tuple[int, int, int, int] | None = None
        # Looking for the place to resume: (file byte offset searched from, its line,
        # its 0-based column, the line of the error).
        self._skip: tuple[int, int, int, int] | None = None
        # The lines after the error's that the skipped text holds more than white space and
        # comments on: the first, the last, the last before that (0: none).
        self._skipped = [0, 0, 0]
        self._resync: re.Pattern[bytes] | None = None
        self._prefix: bytes | None = None  # the synthetic root start tag
        self._built: _Built | None = None  # the last restart's input
        # The file byte offset of the "<" of the tag before a text read on, one up to
        # which each "<" after that tag in the text is a repair's, and where the parser
        # reads on in the text (-1: not yet), for ``_tag_before``.
        self._text_tag: tuple[int, int, int] | None = None
        # The DOCTYPE, once read: (its name, whether it names an external subset, the
        # general entities its internal subset declares, in order).
        self._doctype_seen: tuple[str, bool, list[str]] | None = None
        self._restarted = False
        self._prefix_chars = 0
        self._stack: list[Node] = []
        self._entry_open: tuple[int, Node] | None = None
        # The open elements a restart reads on inside (``_read_on``): its synthetic start
        # tags open them again, with these nodes.
        self._reopen: list[Node] = []
        # Where a mark in the current parser's input is longer than the text it stands
        # for on its last line (a tag written right: a bare value gains its quotes):
        # parser line -> (the 0-based parser column after the mark, the characters more).
        self._longer: dict[int, list[tuple[int, int]]] = {}
        self._parser = self._new_parser()

    def _new_parser(self) -> pyexpat.XMLParserType:
        parser = pyexpat.ParserCreate("utf-8", namespace_separator="}")
        parser.buffer_text = True
        parser.buffer_size = 1 << 16
        parser.SetParamEntityParsing(pyexpat.XML_PARAM_ENTITY_PARSING_NEVER)
        # The attributes the document writes: not the defaults a DOCTYPE's ATTLIST
        # declares (XM003 reports the DOCTYPE; the schema never sees those defaults).
        parser.specified_attributes = True
        parser.StartDoctypeDeclHandler = self._doctype
        parser.StartNamespaceDeclHandler = self._namespace
        parser.EndNamespaceDeclHandler = self._namespace_end
        self._scoped = 0
        self._parser = parser
        self._longer = {}
        self._install_tree_handlers(parser)
        return parser

    # -- feeding ---------------------------------------------------------------

    def feed(self, text: str) -> bool:
        if not self.saw_root:
            self._remember(text)
        data = text.encode("utf-8")
        window = self._window
        # The window holds the last block and this one, and the skipped text from where
        # the search for a place to resume goes on (after short blocks, further back).
        keep = self._block_start if self._skip is None else min(self._block_start, self._skip[0])
        self._window = window[keep - self._window_base :] + data
        self._window_base = keep
        self._first_bang = None
        first = not self._fed
        self._block_start = self._fed
        self._fed += len(data)
        chunks: list[bytes | memoryview] = [data] if self._skip is None else self._search_resync()
        if first and self._skip is None:
            chunks = self._after_declaration(data)
        if not self._run(chunks, final=False):
            return False
        pieces = self._pieces
        if len(pieces) > 1 and sum(map(len, pieces)) > MAX_TEXT:
            # A text longer than any value: keep its start only, so that memory stays
            # bounded (it grows by at most one fed block in between).
            pieces[:] = ["".join(pieces)[:MAX_TEXT]]
        return True

    def close(self) -> None:
        if self.failed:
            return
        if self._skip is not None:
            self._end_in_skip()
            return
        self._run([b""], final=True)

    def release(self) -> None:
        """Drop the expat handlers and the handler: they and this parser refer to each
        other, and the cycle would keep the file's text and nodes alive until the
        garbage collector's next full run."""
        _detach(self._parser)
        self.handler = None
        self.restore_context = None
        self._recent.clear()
        self._window = b""
        self._built = None
        self._stack = []
        self._entry_open = None

    def _run(self, chunks: Iterable[bytes | memoryview], final: bool) -> bool:
        """Parse ``chunks``; after an error, recover and go on. False: reading stopped."""
        queue = deque(chunks)
        while queue:
            chunk = queue.popleft()
            try:
                self._parser.Parse(chunk, final and not queue)
                continue
            except _NestedEntry:
                following = self._missing_entry_end()
            except pyexpat.ExpatError as error:
                following = self._on_error(error, final)
            if following is None:
                self.failed = True
                return False
            queue = deque(following)
            if final and not queue and self._skip is not None:
                self._end_in_skip()
                return not self.failed
        return True

    def _after_declaration(self, data: bytes) -> list[bytes | memoryview]:
        """The first block to parse: ``data``, or what follows its XML declaration when
        expat finds that malformed (reported as one syntax error where expat stops in
        it, or where its "?>" is missing): it is read as a declaration, and the parser
        starts after it, its positions mapped to the file's as after a restart."""
        found = _DECLARATION.match(data)
        if found is None or found.end() == len(data):
            return [data]  # none, or it runs past the block: expat says what it finds
        end = found.end()
        index = _declaration_error(data[:end])
        if index is None:
            return [data]
        assert self.handler is not None  # parsing ends before a release
        line, column = self.position(*self._advance(1, 0, 0, index))
        self.syntax_errors += 1
        context, at = self._error_context(index, line, column)
        self.handler.on_syntax_error(_XML_DECL, line, column, context, at)
        return self._read_again_from(end)

    def _read_again_from(
        self, start: int, written: bytes = b"", resume: int = -1
    ) -> list[bytes | memoryview]:
        """A fresh parser for the first block from its byte ``start`` on, reading
        ``written`` in place of the bytes up to ``resume`` (a tag written right); its
        positions map to the file's as after a restart. The input to parse."""
        window = self._window
        resume = start if resume < 0 else resume
        line, column = self._advance(1, 0, 0, start)  # in the text as read
        self.column_offset = column + (self.column_offset if line == 1 else 0)
        self.line_offset += line - 1
        _detach(self._parser)
        self._new_parser()  # its handlers map positions with the offsets
        self._segment = [(0, -1, len(written)), (len(written), resume, -1)]
        self._marks = [(0, start, written)] if written else []
        if written:
            _note_mark(self._longer, 1, 0, written, window[start:resume])
        rest = memoryview(window)[resume:]
        if self._recent:  # the text as this parser reads it, its lines counted from 1
            text = (written + rest).decode("utf-8", errors="replace")
            self._recent = [(1, text)]
            self._line_count = 1 + text.count("\n")
        return [written, rest] if written else [rest]

    def _remember(self, text: str) -> None:
        self._recent.append((self._line_count, text))
        if len(self._recent) > 2:
            del self._recent[0]
        self._line_count += text.count("\n")

    def _find_back(self, marker: str, line: int, column: int) -> tuple[int, int]:
        """Parser position (line, 0-based column) of the last ``marker`` before a position."""
        if not self._recent:
            return line, column
        first, text = self._recent[-1]
        offset = 0
        for _ in range(line - first):
            offset = text.find("\n", offset) + 1
        found = text.rfind(marker, 0, offset + column + 1)
        if found < 0:
            return line, column
        found_line = first + text.count("\n", 0, found)
        return found_line, found - (text.rfind("\n", 0, found) + 1)

    def position(self, line: int, column: int) -> tuple[int, int]:
        """Parser position (1-based line, 0-based column) to file position (both 1-based)."""
        if line == 1:
            column += self.column_offset
        line += self.line_offset
        if self._shortened:
            shortened = self._shortened.get(line)
            if shortened is not None:
                column = shortened.to_file(column)
        return line, column + 1

    def expat_position(self, line: int, column: int) -> tuple[int, int]:
        """``position`` of a place expat reports in its input, which a mark longer than
        the text it stands for may have moved on its line (``_longer``)."""
        places = self._longer.get(line) if self._longer else None
        if places:
            column -= sum(extra for end, extra in places if column >= end)
        return self.position(line, column)

    def shortened(self, line: int, column: int, missing: int) -> None:
        """The text this parser reads lacks ``missing`` characters of file line ``line``
        before its 0-based file ``column`` (after any it lacks before on the line)."""
        found = self._shortened.get(line)
        if found is None:
            found = self._shortened[line] = _Shortened()
        if found.missing:
            missing += found.missing[-1]
        found.read.append(column - missing)
        found.file.append(column)
        found.missing.append(missing)

    def forget_shortened(self, line: int) -> None:
        """Lines before file line ``line`` are behind the parser for good (further back
        than any restart or error reaches)."""
        shortened = self._shortened
        while shortened:
            first = next(iter(shortened))
            if first >= line:
                break
            del shortened[first]

    def read_column(self, line: int, column: int) -> int:
        """The 0-based column of the text read at 0-based file ``column`` of file line
        ``line`` (not in shortened text)."""
        found = self._shortened.get(line)
        return column if found is None else found.to_read(column)

    def _file_column(self, line: int, column: int) -> int:
        found = self._shortened.get(line)
        return column if found is None else found.to_file(column)

    def _text_start(
        self, text: str, line: int, column: int, sections: list[list[int]]
    ) -> tuple[int, int]:
        """``_text_start`` for the text the parser just gathered, before the tag at
        ``line``, ``column``. Where its first character stands on the line of the markup
        before it and a line break follows, that markup's end places it, read in the
        window (unless a comment, an instruction or a CDATA section stands in the text,
        or a reference before its first character: the count back from the tag then
        stops at the line's start)."""
        found = _text_start(text, line, column, sections)
        first = len(text) - len(text.lstrip(XML_SPACE))
        parser = self._parser
        parser_line = parser.CurrentLineNumber - text.count("\n")
        if sections or "\n" in text[:first] or "\n" not in text[first:] or parser_line <= 1:
            return found
        window = self._window
        at = self._file_offset(parser.CurrentByteIndex) - self._window_base
        if at <= 0 or at > len(window):
            return found
        gt = window.rfind(b">", max(at - MAX_REPLAY, 0), at)
        if gt < 0:
            return found
        raw = window[gt + 1 : at].decode("utf-8", errors="replace")
        raw = raw.replace("\r\n", "\n").replace("\r", "\n")
        if raw.count("\n") != text.count("\n") or raw[: first + 1] != text[: first + 1]:
            return found  # a comment or an instruction in the text, "&#10;" before it
        line_start = max(window.rfind(b"\n", 0, gt), window.rfind(b"\r", 0, gt))
        if line_start < 0:
            return found  # the line starts before the window
        before = window[line_start + 1 : gt + 1].decode("utf-8", errors="replace")
        return self.position(parser_line, len(before) + first)

    # -- positions in the file's bytes ----------------------------------------------

    def _file_offset(self, index: int) -> int:
        """The file byte offset of the current parser's byte ``index``; -1 in synthetic text."""
        # (The segments are in order of their starts: a window with thousands of
        # repairs has as many, looked up at each element.)
        at = bisect_right(self._segment, index, key=_FIRST) - 1
        if at < 0:
            return -1
        start, offset, length = self._segment[at]
        if offset < 0 or (length >= 0 and index >= start + length):
            return -1
        return offset + index - start

    def _start_offset(self, index: int) -> int:
        """The file byte offset of the start tag at the current parser's byte ``index``:
        also of one the parser read written right (a mark that starts where the file's
        tag does); -1 in other synthetic text."""
        offset = self._file_offset(index)
        if offset < 0:
            marks = self._marks
            for start, defect, mark in marks[bisect_left(marks, index, key=_FIRST) :]:
                if start != index:
                    break
                if mark.startswith(b"<"):
                    return defect
        return offset

    def _marked_defect(self, index: int) -> tuple[int, int]:
        """For the current parser's byte ``index`` in a mark: the file byte offset of the
        defect the mark stands for, and the characters of the mark before ``index``;
        (-1, 0) elsewhere."""
        at = bisect_right(self._marks, index, key=_FIRST) - 1  # (in order, apart)
        if at >= 0:
            start, offset, mark = self._marks[at]
            if index < start + len(mark):
                return offset, len(mark[: index - start].decode("utf-8", errors="replace"))
        return -1, 0

    def _context(self, offset: int) -> tuple[str, int]:
        """The text of the line around file byte ``offset`` (at most CONTEXT_BYTES each
        side) and the offset's position in it, in characters."""
        window = self._window
        at = offset - self._window_base
        if offset < 0 or at < 0 or at > len(window):
            return "", 0
        low = max(at - CONTEXT_BYTES, 0)
        start = max(window.rfind(b"\n", low, at), window.rfind(b"\r", low, at)) + 1
        if start == 0:
            start = low
            while start < at and 0x80 <= window[start] < 0xC0:
                start += 1  # not in the middle of a character
        high = min(at + CONTEXT_BYTES, len(window))
        ends = [e for e in (window.find(b"\n", at, high), window.find(b"\r", at, high)) if e >= 0]
        end = min(ends) if ends else high
        line = window[start:end].decode("utf-8", errors="replace")
        return line, len(window[start:at].decode("utf-8", errors="replace"))

    def _advance(self, line: int, column: int, start: int, end: int) -> tuple[int, int]:
        """The file position (line, 0-based column) of byte offset ``end``, given that of
        ``start`` (both in the window, no CR LF split between them)."""
        data = self._window[start - self._window_base : end - self._window_base]
        breaks = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
        if not breaks:
            return line, column + len(data.decode("utf-8", errors="replace"))
        last = max(data.rfind(b"\n"), data.rfind(b"\r"))
        return line + breaks, len(data[last + 1 :].decode("utf-8", errors="replace"))

    # -- recovery ------------------------------------------------------------------

    def _on_error(self, error: pyexpat.ExpatError, final: bool) -> list[bytes | memoryview] | None:
        """Report an error; the input to parse next, or None to stop."""
        handler = self.handler
        assert handler is not None  # parsing ends before a release
        code = error.code
        offset = self._file_offset(self._parser.ErrorByteIndex)
        line, column = self.expat_position(error.lineno, error.offset)
        if offset < 0:
            # An error in a mark is one at the defect it stands for: a repair that did
            # not help.
            offset, into = self._marked_defect(self._parser.ErrorByteIndex)
            column -= into
        if final and code in (_UNCLOSED_TOKEN, _UNCLOSED_CDATA):
            following = self._unended(code, offset, line, column)
            if following is not None:
                return following
        recover = (
            self.recover
            and self.saw_root
            and not self.root_closed
            and bool(self._stack)
            and code not in _END_OF_INPUT
            and offset >= 0
        )
        # An undeclared prefix in a tag whose value was repaired is a defect of its own,
        # met once the repair let the tag be read (at its "<", before the value).
        unbound_first = code == _UNBOUND_PREFIX and offset != self._last_unbound
        if code == _UNBOUND_PREFIX:
            self._last_unbound = offset
        if recover and offset <= self._last_error and not unbound_first:
            # A repair that did not help: resume at the next entry, reported once.
            self._lose_open_entry()
            return self._resume_after(offset, line, column - 1, line)
        if not recover:
            if not self.saw_root and offset >= 0:
                if code == _UNBOUND_PREFIX:
                    declared = self._declare_on_root(offset, line, column)
                    if declared is not None:
                        return declared
                # A root start tag the text ends in is cut short (XM008), not miswritten.
                cut = final and code in _END_OF_INPUT
                read_again = None if cut else self._read_root_tag_again(offset)
                if read_again is not None:
                    return read_again
            self._lose_open_entry()
            handler.on_syntax_error(code, line, column, *self._error_context(offset, line, column))
            return None
        if self._count_error(line, column):
            return None
        self._last_error = offset
        if code == _UNBOUND_PREFIX:
            declared = self._declare_usual_prefix(offset, line, column)
            if declared is not None:
                return declared
        repair = self._lexical(code, offset)
        shown = offset, line, column  # where the finding stands
        if repair is None:
            in_markup = self._markup_repair(code, offset)
            if in_markup is not None:
                repair, at_offset = in_markup
                shown = at_offset, *self._position_before(line, column, at_offset, offset)
        if repair is None and code == _TAG_MISMATCH:
            following = self._unclosed_at_end_tag(offset, line, column)
            if following is not None:
                return following
        # A start tag read again written right: on several lines, the whole tag names it.
        rewritten = repair is not None and code == _INVALID_TOKEN and repair[2].startswith(b"<")
        tag_context = None
        if rewritten and repair is not None:
            tag_context = self._tag_context(repair[0], repair[1], offset)
        context, at = tag_context or self._error_context(*shown)
        handler.on_syntax_error(code, shown[1], shown[2], context, at)
        if code == _INVALID_TOKEN and (repair is None or rewritten):
            # The tag is not read (or read again written right): its other values too.
            self._report_unquoted_after(offset, line, column, context, at)
            if repair is not None:
                self._report_sections_after(repair[0], offset, line, column, context, at)
        stack = self._stack
        if repair is not None:
            start, end, mark = repair
            self._report_also(start, end, offset, (line, column), context, at)
            entry = self._entry_open if len(stack) > self._entry_depth else None
            if entry is not None:
                entry_offset = self._start_offset(entry[0])
                node = entry[1]
                if self._replayable(entry_offset, offset):
                    insort(self._repairs, (start, end, mark))  # a raw "<": after what follows
                    self._replay_until = (line, column)
                    self.entry_repairs += 1
                    return self._replay(entry_offset, offset, node.line, node.column - 1)
                read_on = self._read_on(repair, offset, line, column)
                if read_on is not None:
                    return read_on
            elif len(stack) == self._entry_depth and start >= self._window_base:
                # Between entries, or in an entry's start tag: resume at that tag.
                window = self._window
                at = start - self._window_base
                low = max(at - MAX_REPLAY, 0)
                tag = window.rfind(b"<", low, at)
                gt = window.rfind(b">", low, at)
                if tag < 0 or tag < gt:
                    # In text: from its start after the markup before it, so that the
                    # text is read whole, where it stands (a tag read again: at it).
                    tag = gt + 1 if gt >= 0 and not window.startswith(b"<", at) else at
                insort(self._repairs, (start, end, mark))
                self._replay_until = (line, column)
                resume = self._window_base + tag
                return self._restart(resume, *self._position_back(line, column - 1, resume, offset))
        if self._entry_open is None and len(stack) == self._entry_depth:
            self._lose_entry_start_tag(offset)
        self._lose_open_entry()
        return self._resume_after(offset, line, column - 1, line)

    def _read_root_tag_again(self, offset: int) -> list[bytes | memoryview] | None:
        """An error at file byte ``offset`` in the root's start tag, of a kind
        ``starttag`` reads (an attribute value without XML's quotes or without its
        closing quote, no space between two attributes, the '>' missing): each defect
        of the tag is reported where it stands, and the document is read again from the
        tag written right (what follows it on its line placed back where the file has
        it: ``expat_position``). None: not such an error."""
        window = self._window
        if self._window_base or self._segment != [(0, 0, -1)] or self._doctype_seen:
            return None
        start = first_start_tag(window)
        read = read_start_tag(window, start) if 0 <= start <= offset else None
        if read is None or offset > max(window.find(b"<", read.end), read.end):
            return None
        assert self.handler is not None  # parsing ends before a release
        for defect in read.defects:
            line, column = self.position(*self._advance(1, 0, 0, defect))
            self.syntax_errors += 1
            # The tag up to the end of its last line (or of the defect's): what the
            # finding names.
            shown, at = _whole_tag_context(window, start, max(defect, read.end - 1), defect)
            self.handler.on_syntax_error(_INVALID_TOKEN, line, column, shown, at)
        return self._read_again_from(start, read.written, read.end)

    def _unended(
        self, code: int, offset: int, line: int, column: int
    ) -> list[bytes | memoryview] | None:
        """The text ended inside a comment, CDATA section or processing instruction
        (expat's error at file byte ``offset``, ``line``, ``column``) that an entry or the
        root's end tag follows: its end is missing, not the file's. Reported at its
        start; reading resumes at that entry or end tag. None: not such a case."""
        window = self._window
        base = self._window_base
        if not (self.recover and self.saw_root and not self.root_closed and self._stack):
            return None
        if self._resync is None or offset < base:
            return None
        # Expat stops at a comment's or an instruction's start, at the end for a CDATA
        # section: the last one opened is the one not closed.
        start = window.rfind(b"<![CDATA[") if code == _UNCLOSED_CDATA else offset - base
        if start < 0 or start >= len(window):
            return None
        section = unended_at(window, start)
        if section is None:
            return None
        opener, what, closer = section
        if self._resync.search(window, start + len(opener)) is None:
            return None  # nothing follows it: the file itself is cut short
        if code == _UNCLOSED_CDATA:
            line, column = self._position_before(line, column, base + start, offset)
        if self._count_error(line, column):
            return None
        assert self.handler is not None  # parsing ends before a release
        self.handler.on_unended(what, closer, line, column)
        self._last_error = base + start
        self._lose_open_entry()
        return self._resume_after(base + start + len(opener), line, column - 1 + len(opener), line)

    def _error_context(self, offset: int, line: int, column: int) -> tuple[str, int]:
        """The context of an error at file byte ``offset`` (file ``line`` and 1-based
        ``column``): its line's text as the file has it, and the error's place in it."""
        context, at = self._context(offset)
        if self.restore_context is not None and context:
            start = self.read_column(line, column - 1) - at
            context, at = self.restore_context(context, line, start, at)
        return context, at

    def _position_before(self, line: int, column: int, start: int, end: int) -> tuple[int, int]:
        """The file position (line, 1-based column) of file byte ``start``, given that of
        ``end`` after it (``line``, ``column``; both in the window)."""
        back_line, back = self._position_back(line, self.read_column(line, column - 1), start, end)
        return back_line, self._file_column(back_line, back) + 1

    def _replayable(self, entry_offset: int, offset: int) -> bool:
        """Whether the entry that starts at file byte ``entry_offset`` can be read again
        after a repair at ``offset``: its start is still in the window, at most
        ``MAX_REPLAY`` bytes back, and the entry's reads again so far, with this one,
        read at most ``REPLAY_BUDGET`` bytes (a long stretch of damaged text read as one
        entry, an error every few bytes, would be read again at every error)."""
        length = offset - entry_offset
        if entry_offset < self._window_base or length > MAX_REPLAY:
            return False
        return self._replayed_bytes(entry_offset) + length <= REPLAY_BUDGET

    def _replayed_bytes(self, entry_offset: int) -> int:
        at, spent = self._replayed
        return spent if at == entry_offset else 0

    def _replay(
        self, entry_offset: int, offset: int, line: int, column: int
    ) -> list[bytes | memoryview]:
        """Read the entry that starts at file byte ``entry_offset`` (at ``line`` and
        0-based ``column``) again, after an error at ``offset``, counting what it reads
        again against the budget (``_replayable``)."""
        spent = self._replayed_bytes(entry_offset) + offset - entry_offset
        self._replayed = (entry_offset, spent)
        return self._restart(entry_offset, line, column)

    def _read_on(
        self, repair: tuple[int, int, bytes], offset: int, line: int, column: int
    ) -> list[bytes | memoryview] | None:
        """A lexical repair in the text of an entry too long to be read again from its
        start (the error at file byte ``offset``, ``line``, ``column``): the parser
        starts again at that text (after the tag before it), behind synthetic start tags
        of the open elements, whose nodes are those already read, so the entry's fields
        after the defect are read too. None: the text is not in the window, or the
        defect is in a tag (or after one in the text: ``q=<b>c</loc>``)."""
        window = self._window
        base = self._window_base
        at = repair[0] - base
        if at < 0 or at > len(window) or self._in_section(at):
            return None
        # The tag before the text: the text may hold a ">" of its own, a tag's quoted
        # value too; after a comment, an instruction or a CDATA section: not read on.
        lt = self._tag_before(at)
        gt = window.find(b">", lt, at) if lt >= 0 else -1
        tag = window[lt : gt + 1]
        if gt < 0 or tag[1:2] in (b"!", b"?") or tag.count(b'"') % 2 or tag.count(b"'") % 2:
            return None
        if len(self._stack) - self._entry_depth > MAX_DEPTH:
            # Damaged text read as nested tags: each error would open them all again. The
            # entry is lost, and the lines skipped are said.
            return None
        insort(self._repairs, repair)
        self._replay_until = (line, column)
        self.entry_repairs += 1
        opened = self._stack[self._entry_depth :]
        reopen = "".join(self._reopened_tag(node) for node in opened)
        self._reopen = opened
        resume = base + gt + 1
        if self._text_tag is not None:
            self._text_tag = (*self._text_tag[:2], resume)
        return self._restart(resume, *self._position_back(line, column - 1, resume, offset), reopen)

    def _tag_before(self, at: int) -> int:
        """The window index of the "<" of the last tag before window index ``at``, past
        the raw "<" of the text in between, which repairs mark; -1: none in the window.
        Kept for the next error of the same text (``_text_tag``): a text with thousands
        of raw "<" is not walked back over all of them at each."""
        window, base = self._window, self._window_base
        known = self._text_tag
        if known is not None and base <= known[0] and known[1] <= base + at:
            place = known[1] - base
            while (place := window.find(b"<", place, at)) >= 0:
                if not self._repaired_at(base + place):
                    break
                place += 1
            else:
                self._text_tag = (known[0], base + at, known[2])
                return known[0] - base
        lt = window.rfind(b"<", 0, at)
        while lt >= 0 and self._repaired_at(base + lt):
            lt = window.rfind(b"<", 0, lt)
        self._text_tag = (base + lt, base + at, -1) if lt >= 0 else None
        return lt

    def _repaired_at(self, offset: int) -> bool:
        """Whether a repair starts at file byte ``offset``."""
        repairs = self._repairs
        at = bisect_left(repairs, offset, key=_FIRST)
        return at < len(repairs) and repairs[at][0] == offset

    def _reopened_tag(self, node: Node) -> str:
        """A synthetic start tag of ``node``, open when a restart reads on inside it,
        which declares its namespace (none: the empty one)."""
        if not node.ns:
            return f'<{node.name} xmlns="">'
        prefix = self.prefixes.get(node.ns, "")
        declared = f"xmlns:{prefix}" if prefix else "xmlns"
        return f'<{self._qname(node)} {declared}="{_escape(node.ns)}">'

    def _markup_repair(self, code: int, offset: int) -> tuple[tuple[int, int, bytes], int] | None:
        """A defect in the markup of an open entry with an obvious reading, found at the
        error at file byte ``offset``: the repair (start, end, mark) and the file byte
        offset where the finding stands. The entry is read again with it, or, when it is
        too long for that, read on after it (``_read_on``: only a "<" right before the
        error). An end tag of the innermost open element whose ``>`` is missing (its
        whole name, white space, then the "<" expat stopped at) gets its ``>``, in place
        of its first space, or put before a line break (where nothing after it on the
        line moves): the finding stands where the ``>`` is missing. A stray "<" between
        the entry's elements is read as white space (``_stray_repair``). A raw "<" in a
        field's value (no name after it, or glued to the text before it: ``q=a<b``) is
        marked, and the finding stands after it (rules/xml.py reads a "<" there as the
        defect)."""
        stack = self._stack
        entry = self._entry_open
        if (
            code not in (_INVALID_TOKEN, _TAG_MISMATCH)
            or len(stack) <= self._entry_depth
            or entry is None
        ):
            return None
        base = self._window_base
        # An entry too long to be read again is read on after the repair where it
        # stands (``_read_on``): only a "<" right before the error, as reported without it.
        replayable = self._replayable(self._start_offset(entry[0]), offset)
        if not replayable and code == _TAG_MISMATCH:
            return None
        window = self._window
        at = offset - base
        if at < 1 or at >= len(window):
            return None
        if code == _TAG_MISMATCH:
            return self._glued_repair(offset) or self._misnamed_end_tag(offset)
        if replayable and window[at] == 0x3C:  # "<"
            space = at
            while space > max(at - CONTEXT_BYTES, 0) and window[space - 1] in b" \t\r\n":
                space -= 1
            tag = window.rfind(b"</", max(space - 256, 0), space)
            if (
                space < at
                and tag >= 0
                and _TAG_NAME.fullmatch(window, tag + 2, space)
                and window[tag + 2 : space].decode("utf-8", "replace") == self._qname(stack[-1])
                and not self._in_section(tag)
            ):
                where = base + space
                if window[space] in b" \t":
                    return (where, where + 1, b">"), where
                return (where, where, b">"), where
        if len(stack) == self._entry_depth + 1:
            return self._stray_repair(offset)
        # Deeper: in a field's value, where a raw "<" is repaired.
        if window[at - 1] == 0x3C and window[at : at + 1] not in (b"/", b"?", b"!"):
            lt = at - 1  # no name after it: expat stopped right after it
        elif not replayable:
            return None
        else:
            lt = window.rfind(b"<", max(at - 256, 0), at)
            if (
                lt < 1
                or window[lt - 1] in _UNGLUED
                or not _NAME_START_BYTE.match(window, lt + 1)
                or b">" in window[lt:at]
            ):
                return None
        if self._in_section(lt):
            return None
        return (base + lt, base + lt + 1, _LT_MARK_BYTES), base + lt + 1

    def _stray_repair(self, offset: int) -> tuple[tuple[int, int, bytes], int] | None:
        """A stray "<" between the elements of an open entry (expat stopped right after
        it, at file byte ``offset``: no name follows it, and only white space stands
        since the last tag), with any more right after it, read as white space, so that
        the entry reads as if it were removed; a start tag glued to it (``<<b>``) whose
        element is never closed in the entry is stray markup with it. The finding stands where expat stopped, as
        without the repair (rules/xml.py names the "<")."""
        window = self._window
        at = offset - self._window_base - 1
        if window[at] != 0x3C or window[at + 1 : at + 2] in (b"/", b"?", b"!"):
            return None
        if _SPACED_TAG.match(window, at + 1):
            return None  # a tag's name after white space (``< /url>``): rules/xml.py's own
        gt = window.rfind(b">", max(at - CONTEXT_BYTES, 0), at)
        if gt < 0 or window[gt + 1 : at].strip(b" \t\r\n") or self._in_section(at):
            return None
        end = at + 1
        while window.startswith(b"<<", end):
            end += 1  # a run of them
        tag = _STRAY_TAG.match(window, end)
        if tag is not None:
            closing = f"</{self._qname(self._stack[-1])}".encode()
            entry_end = window.find(closing, tag.end())
            name = b"</" + tag.group(1)
            if entry_end >= 0 and window.find(name, tag.end(), entry_end) < 0:
                end = tag.end()  # its element is never closed: the tag is stray too
        chars = len(window[at:end].decode("utf-8", errors="replace"))
        start = self._window_base + at
        return (start, start + end - at, b" " * chars), offset

    def _misnamed_end_tag(self, offset: int) -> tuple[tuple[int, int, bytes], int] | None:
        """At an end tag (file byte ``offset``, its name) that names the parent of the
        field open there (``<loc>...</url>``) where the markup after it goes on in that
        parent (another field's start tag, or the parent's own end tag): the end tag is
        the field's, misnamed, rather than the parent's with the field's missing; it is
        read as the field's, so that the fields after it are read where they stand."""
        stack = self._stack
        if len(stack) != self._entry_depth + 2 or stack[-1].children:
            return None  # not in a field of an entry
        window = self._window
        base = self._window_base
        at = offset - base
        name = _END_TAG_NAME.match(window, at)
        parent = self._qname(stack[-2])
        if name is None or name.group(0).decode("utf-8", "replace") != parent:
            return None
        gt = name.end()
        while window[gt : gt + 1] in (b" ", b"\t", b"\r", b"\n"):
            gt += 1
        if window[gt : gt + 1] != b">":
            return None
        after = gt + 1
        while window[after : after + 1] in (b" ", b"\t", b"\r", b"\n"):
            after += 1
        following = _TAG_NAME.match(window, after + 1) if window.startswith(b"<", after) else None
        closing = window.startswith(b"</" + parent.encode() + b">", after)
        if following is None and not closing:
            return None
        if following is not None and following.group(0).decode("utf-8", "replace") == parent:
            return None  # the next entry starts: the parent's end tag it is
        if self._in_section(at):
            return None
        return (offset, offset + name.end() - at, self._qname(stack[-1]).encode()), offset

    def _glued_repair(self, offset: int) -> tuple[tuple[int, int, bytes], int] | None:
        """At the end tag (file byte ``offset``) of a field whose value holds a raw "<"
        that reads as a start tag (``q=<b>bold</loc>``: the tag glued to the text
        before it, never closed): that "<" is marked as ``_markup_repair`` marks one;
        the finding stands at the end tag (rules/xml.py finds the "<" from there)."""
        stack = self._stack
        if len(stack) < self._entry_depth + 3:
            return None  # the "tag" stands in a field of an entry
        window = self._window
        base = self._window_base
        name = _END_TAG_NAME.match(window, offset - base)
        if name is None or name.group(0).decode("utf-8", "replace") != self._qname(stack[-2]):
            return None
        lt = self._glued_at(stack[-1], offset)
        if lt < 0 or b"<" in window[lt + 1 : offset - base - 2] or self._in_section(lt):
            return None
        return (base + lt, base + lt + 1, _LT_MARK_BYTES), offset

    def _lose_entry_start_tag(self, offset: int) -> None:
        """An error inside an entry's start tag: the entry is lost before it began."""
        window = self._window
        at = offset - self._window_base
        low = max(at - MAX_REPLAY, 0)
        tag = window.rfind(b"<", low, at)
        if tag < 0 or tag < window.rfind(b">", low, at) or self._resync is None:
            return
        match = self._resync.match(window, tag)
        if match is not None and not window.startswith(b"</", tag) and self.handler is not None:
            ns, _, name = (self.entry_tag or "").rpartition("}")
            self.handler.on_lost_entry(Node(ns, name, {}, 0, 0))

    def _position_back(self, line: int, column: int, start: int, end: int) -> tuple[int, int]:
        """The file position (line, 0-based column) of byte offset ``start``, given that
        of ``end`` after it (both in the window)."""
        window = self._window
        base = self._window_base
        data = window[start - base : end - base]
        breaks = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
        if not breaks:
            return line, column - len(data.decode("utf-8", errors="replace"))
        low = max(start - base - CONTEXT_BYTES, 0)
        line_start = max(
            window.rfind(b"\n", low, start - base), window.rfind(b"\r", low, start - base)
        )
        before = window[line_start + 1 : start - base].decode("utf-8", errors="replace")
        return line - breaks, len(before)

    def _count_error(self, line: int, column: int) -> bool:
        """Count one more syntax error; True (and reported) when there are too many."""
        self.syntax_errors += 1
        if self.syntax_errors <= MAX_SYNTAX_ERRORS:
            return False
        assert self.handler is not None
        self.handler.on_too_many_errors(line, column)
        self._lose_open_entry()
        return True

    def _lexical(self, code: int, offset: int) -> tuple[int, int, bytes] | None:
        """A defect with an obvious reading at file byte ``offset``: (start, end, mark)."""
        window = self._window
        at = offset - self._window_base
        if at < 0 or at >= len(window):
            return None
        if code == _INVALID_TOKEN:
            amp = self._raw_amp(at)
            bad = _BAD_CHAR.match(window, at)
            if bad is not None:
                if amp >= 0:  # "&a" and the character: both marked
                    mark = _AMP_MARK_BYTES + window[amp + 1 : at] + _DROP_MARK_BYTES
                    return self._window_base + amp, offset + bad.end() - at, mark
                repair = self._left_out_of_name(at)
                return repair or (offset, offset + bad.end() - at, _DROP_MARK_BYTES)
            if amp >= 0:
                return self._window_base + amp, self._window_base + amp + 1, _AMP_MARK_BYTES
            return self._requoted_tag(at)
        if code == _BAD_CHAR_REF and window.startswith(b"&", at):
            return offset, offset + 1, _AMP_MARK_BYTES
        if code == _UNDEFINED_ENTITY:
            if window.startswith(b"&", at):
                return offset, offset + 1, _AMP_MARK_BYTES
            # In an attribute value expat points at the start of the tag.
            tag_end = window.find(b">", at, at + CONTEXT_BYTES)
            for match in _ENTITY_REF.finditer(window, at, tag_end if tag_end >= 0 else at):
                if match.group(1) not in _PREDEFINED:
                    where = self._window_base + match.start()
                    return where, where + 1, _AMP_MARK_BYTES
        return None

    def _declare_usual_prefix(
        self, offset: int, line: int, column: int
    ) -> list[bytes | memoryview] | None:
        """An undeclared prefix in the start tag at file byte ``offset`` that sitemaps
        use for one namespace (``image``, ``xhtml``, ...), or that an element before it
        declares for its own scope: reported, then read as that namespace's (the usual
        one, else the one that element declares) for the rest of the document (the
        synthetic root declares it), from
        the open entry's start tag or this tag, so that the entry is read and nothing is
        skipped. None: another prefix, or the text to read again is out of reach."""
        handler = self.handler
        assert handler is not None  # parsing ends before a release
        base = self._window_base
        prefix = self._undeclared_usual_prefix(offset - base)
        if prefix is None:
            return None
        stack = self._stack
        entry = self._entry_open if len(stack) > self._entry_depth else None
        if entry is not None:
            resume = self._start_offset(entry[0])
            if not self._replayable(resume, offset):
                return None
            resume_line, resume_column = entry[1].line, entry[1].column - 1
        elif len(stack) == self._entry_depth and offset >= base:
            resume = offset
            resume_line, resume_column = self._position_back(line, column - 1, resume, offset)
        else:
            return None
        handler.on_syntax_error(_UNBOUND_PREFIX, line, column, self._whole_tag(offset - base), 0)
        self._root_declarations.append((prefix, self._namespace_of(prefix)))
        self._prefix = None  # the synthetic root, written again with the declaration
        self._replay_until = (line, column)
        return self._replay(resume, offset, resume_line, resume_column)

    def _undeclared_usual_prefix(self, at: int) -> str | None:
        """The prefix the start tag at window index ``at`` uses without a declaration
        (its element's, else an attribute's), when sitemaps use it for one namespace
        (``USUAL_PREFIXES``) or an element before declares it (``declared_below``); None
        otherwise."""
        window = self._window
        if at < 0 or not window.startswith(b"<", at):
            return None
        tag_end = window.find(b">", at, at + CONTEXT_BYTES)
        tag = window[at : tag_end if tag_end >= 0 else at + CONTEXT_BYTES]
        declared = {prefix.encode() for prefix, _uri in self._root_declarations}
        declared.update(re.findall(rb"xmlns:([\w.-]+)", tag))
        used = [match.group(1) for match in _TAG_PREFIXES.finditer(tag)]
        element = _PREFIXED_NAME.match(tag, 1)
        if element is not None:
            used.insert(0, element.group(1))
        prefix = next((p.decode() for p in used if p not in declared and p != b"xml"), None)
        if prefix is None:
            return None
        return prefix if prefix in USUAL_PREFIXES or prefix in self.declared_below else None

    def _namespace_of(self, prefix: str) -> str:
        """The namespace an undeclared ``prefix`` is read in: the one sitemaps use it
        for, else the one of its last declaration below the root."""
        usual = USUAL_PREFIXES.get(prefix)
        return usual if usual is not None else next(reversed(self.declared_below[prefix]))

    def _declare_on_root(
        self, offset: int, line: int, column: int
    ) -> list[bytes | memoryview] | None:
        """An undeclared usual prefix in the root's start tag (at file byte ``offset``),
        like ``xsi:schemaLocation`` without ``xmlns:xsi``: reported, and the document read
        again from the root's tag with the declaration added after its name. None: another
        prefix, or not the first block's root tag."""
        window = self._window
        if self._window_base or self._segment != [(0, 0, -1)] or self._doctype_seen:
            return None
        start = first_start_tag(window)
        if start != offset:
            return None
        prefix = self._undeclared_usual_prefix(start)
        name = _TAG_NAME.match(window, start + 1)
        if prefix is None or name is None:
            return None
        assert self.handler is not None  # parsing ends before a release
        self.syntax_errors += 1
        self.handler.on_syntax_error(_UNBOUND_PREFIX, line, column, self._whole_tag(start), 0)
        declaration = f' xmlns:{prefix}="{_escape(self._namespace_of(prefix))}"'.encode()
        return self._read_again_from(start, window[start : name.end()] + declaration, name.end())

    def _whole_tag(self, at: int) -> str:
        """The start tag at window index ``at``, on however many lines it is written."""
        window = self._window
        tag_end = window.find(b">", at, at + CONTEXT_BYTES)
        end = tag_end + 1 if tag_end >= 0 else at + CONTEXT_BYTES
        return window[at:end].decode("utf-8", errors="replace")

    def _requoted_tag(self, at: int) -> tuple[int, int, bytes] | None:
        """The start tag around window index ``at``, where the reader stopped at a value in
        typographic quotes or none, written with XML's quotes: (start, end, the tag written
        right). A bare value gains two quotes: what follows the tag on its line is placed
        back where the file has it (``expat_position``). A tag whose '>' is missing is
        written right only when it ends its line: before more on the line, its "<" is
        rather a raw one in a value (``q=a<b</loc>``)."""
        window = self._window
        tag = window.rfind(b"<", max(at - CONTEXT_BYTES, 0), at)
        read = read_start_tag(window, tag) if tag >= 0 and not self._in_section(tag) else None
        if read is None or at not in read.defects:
            return None
        if read.end in read.defects:
            after = _LINE_BREAK.search(window, read.end)
            if after is None or window[read.end : after.start()].strip():
                return None
        base = self._window_base
        return base + tag, base + read.end, read.written

    def _raw_amp(self, at: int) -> int:
        """The window index of the raw "&" that the error at window index ``at`` stops
        in, or -1. The finding names it (rules/xml.py): in "&a&b" expat stops at the
        second "&", and the first is the raw one."""
        window = self._window
        low = max(at - 256, 0)
        for amp in (window.rfind(b"&", low, at), window.rfind(b"&", low, at + 1)):
            if (
                amp >= 0
                and _REFERENCE_RUN.fullmatch(window, amp + 1, at)
                and not _VALID_REFERENCE.match(window, amp)
            ):
                return amp
        return -1

    def _left_out_of_name(self, at: int) -> tuple[int, int, bytes] | None:
        """Characters XML does not allow from window index ``at`` on, in the name a tag
        opens (a NUL after its "<", "</", "<?" or "<!", or inside the name): left out,
        with as many spaces after the name, so the tag reads as meant and nothing after
        it moves. None elsewhere, or when no name is left (a NUL, then a space)."""
        window = self._window
        tag = window.rfind(b"<", max(at - 256, 0), at)
        if tag < 0 or not _OPENED_NAME.fullmatch(window, tag, at) or self._in_section(tag):
            return None
        run = (_OPENER_RUN if at - tag == 1 else _NAME_RUN).match(window, at)
        assert run is not None  # it starts with the character
        written = run.group(0)
        kept = _BAD_CHAR.sub(b"", written)
        if not _NAMED.fullmatch(window[tag:at] + kept):
            return None
        left_out = len(_BAD_CHAR.findall(written))
        start = self._window_base + at
        return start, start + len(written), kept + b" " * left_out

    def _in_section(self, at: int) -> bool:
        """Whether window index ``at`` stands in a comment or a CDATA section."""
        window = self._window
        if self._first_bang is None:
            self._first_bang = window.find(b"<!")
        if not 0 <= self._first_bang < at:  # (the usual case)
            return False
        low = max(at - MAX_REPLAY, 0)
        if window.rfind(b"<!", low, at) < 0:
            return False
        cdata = window.rfind(b"<![CDATA[", low, at)
        if cdata >= 0 and window.find(b"]]>", cdata, at) < 0:
            return True
        comment = window.rfind(b"<!--", low, at)
        return comment >= 0 and window.find(b"-->", comment, at) < 0

    def _report_also(
        self, start: int, end: int, offset: int, where: tuple[int, int], context: str, at: int
    ) -> None:
        """After the error at a character XML does not allow at file byte ``offset``
        (reported at ``where``, place ``at`` of ``context``), report the other defects
        its repair marks, file bytes ``start`` to ``end`` on the same line: each is an
        error of its own."""
        window = self._window
        first = offset - self._window_base
        if _BAD_CHAR.match(window, first) is None:
            return  # the finding names the repair's one defect
        assert self.handler is not None
        line, column = where
        for found in _DEFECT.finditer(window, start - self._window_base, end - self._window_base):
            if found.start() == first:
                continue
            if found.start() < first:
                chars = -len(window[found.start() : first].decode("utf-8", errors="replace"))
            else:
                chars = len(window[first : found.start()].decode("utf-8", errors="replace"))
            self.syntax_errors += 1
            self.handler.on_syntax_error(_INVALID_TOKEN, line, column + chars, context, at + chars)

    def _report_unquoted_after(
        self, offset: int, line: int, column: int, context: str, at: int
    ) -> None:
        """After an error at an attribute value without XML's quotes (file byte
        ``offset``, at ``line``:``column``, place ``at`` of ``context``), report the
        other such values of the tag on the same line: the tag cannot be read, so expat
        would never reach them."""
        window = self._window
        start = offset - self._window_base
        if not _BEFORE_ATTRIBUTE_VALUE.search(window, max(start - 256, 0), start):
            return
        end = window.find(b">", start, start + CONTEXT_BYTES)
        line_end = _LINE_BREAK.search(window, start, start + CONTEXT_BYTES)
        if end < 0 or (line_end is not None and line_end.start() < end):
            return
        assert self.handler is not None
        for found in _UNQUOTED_AFTER.finditer(window, start + 1, end):
            chars = len(window[start : found.end()].decode("utf-8", errors="replace"))
            self.syntax_errors += 1
            self.handler.on_syntax_error(_INVALID_TOKEN, line, column + chars, context, at + chars)

    def _report_sections_after(
        self, start: int, offset: int, line: int, column: int, context: str, at: int
    ) -> None:
        """After an error in the start tag at file byte ``start``, read again written
        right (the error at file byte ``offset``, at ``line``:``column``, place ``at`` of
        ``context``), report the other comments and instructions inside the tag, and the
        other raw "<" in its values: each is a defect of its own, which the repair reads
        as white space, or as its fix writes it. The context of a tag on several lines is
        the whole tag (``_tag_context``), which names them all; else only those on the
        error's line are reported."""
        window = self._window
        base = self._window_base
        read = read_start_tag(window, start - base)
        if read is None:
            return
        first = offset - base
        whole = _LINE_BREAK.search(window, start - base, read.end) is not None
        line_end = None if whole else _LINE_BREAK.search(window, first, read.end)
        last = read.end if line_end is None else line_end.start()
        assert self.handler is not None
        read_line, read_column = line, self.read_column(line, column - 1)
        for defect in read.defects:
            if first < defect < last and window.startswith(b"<", defect):
                chars = len(window[first:defect].decode("utf-8", errors="replace"))
                there, there_column = self._advance(read_line, read_column, offset, base + defect)
                there_column = self._file_column(there, there_column) + 1
                self.syntax_errors += 1
                self.handler.on_syntax_error(
                    _INVALID_TOKEN, there, there_column, context, at + chars
                )

    def _tag_context(self, start: int, end: int, offset: int) -> tuple[str, int] | None:
        """For an error at file byte ``offset`` in the start tag from file byte ``start``
        to ``end``, read again written right: the context that names the tag when it
        stands on several lines (from its "<" to the end of its last line, or of the
        error's line when that is later), and the error's place in it; None for a tag on
        one line (its line is the context)."""
        window = self._window
        base = self._window_base
        if start < base or _LINE_BREAK.search(window, start - base, end - base) is None:
            return None
        return _whole_tag_context(window, start - base, max(offset, end - 1) - base, offset - base)

    def _unclosed_at_end_tag(
        self, offset: int, line: int, column: int
    ) -> list[bytes | memoryview] | None:
        """An end tag that closes an element further out: the elements inside it were
        never closed. Report each; resume at the end tag when it is the root's."""
        window = self._window
        match = _END_TAG_NAME.match(window, offset - self._window_base)
        if match is None:
            return None
        qname = match.group(0).decode("utf-8", errors="replace")
        local = qname.rpartition(":")[2]
        stack = self._stack
        closes = next((i for i in range(len(stack) - 2, -1, -1) if stack[i].name == local), None)
        if closes is None or self._glued(stack[-1], offset):
            return None
        assert self.handler is not None
        for node in stack[closes + 1 :]:
            self.handler.on_unclosed(stack[1], node, self._qname(node), line, column - 2)
        self.syntax_errors += len(stack) - closes - 2  # one was counted already
        if closes == 0:
            if len(stack) == 2 and self._entry_open is not None:
                self._deliver(stack[1])
                self._entry_open = None
            else:
                self._lose_open_entry()
            return self._resume_after(offset - 2, line, column - 3, line)
        self._lose_open_entry()
        return self._resume_after(offset, line, column - 1, line)

    def _glued(self, node: Node, offset: int) -> bool:
        """Whether ``node``'s start tag is glued to the text before it (``q=a<b>c``): a
        raw '<' in a value rather than an element."""
        return self._glued_at(node, offset) > 0

    def _glued_at(self, node: Node, offset: int) -> int:
        """The window index of ``node``'s start tag when it is glued to the text before
        it (see ``_glued``), else -1."""
        window = self._window
        at = offset - self._window_base
        tag = b"<" + self._qname(node).encode("utf-8")
        start = window.rfind(tag, max(at - CONTEXT_BYTES, 0), at)
        if start > 0 and window[start - 1] not in _UNGLUED:
            return start
        return -1

    def _missing_entry_end(self) -> list[bytes | memoryview] | None:
        """An entry was read inside an entry whose end tag is missing: report the open
        entry, hand it over with the children before the first inner one, and read
        again from that inner entry's start tag."""
        nested = self._nested
        stack = self._stack
        assert nested is not None and len(stack) >= 2 and self.handler is not None
        index, line, column, children = nested
        outer = stack[self._entry_depth]
        offset = self._file_offset(index)
        if self._count_error(line, column):
            return None
        self.handler.on_unclosed(outer, outer, self._qname(outer), line, column)
        del outer.children[children:]
        outer.nested_text = None
        self._deliver(outer)
        self._entry_open = None
        self._last_error = offset
        return self._restart(offset, line, column - 1)

    def _deliver(self, entry: Node) -> None:
        if self._marked:
            _unmark(entry)
        assert self.handler is not None
        self.handler.on_entry(entry)

    def _lose_open_entry(self) -> None:
        """The open entry cannot be read: the handler counts it."""
        entry = self._entry_open
        self._entry_open = None
        if entry is not None and self.handler is not None:
            self.handler.on_lost_entry(entry[1])

    def _resume_after(
        self, offset: int, line: int, column: int, error_line: int
    ) -> list[bytes | memoryview]:
        """Resume at the next entry start tag or root end tag at or after ``offset``
        (at ``line``, 0-based file ``column``); until it comes, skip (counting in the
        text as read)."""
        column = self.read_column(line, column)
        self._skip = (max(offset, self._window_base), line, column, error_line)
        self._skipped = [0, 0, 0]
        return self._search_resync()

    def _search_resync(self) -> list[bytes | memoryview]:
        """Look for the place to resume in the skipped text; the comments before it are
        read all the same (for their directives) and are no skipped text."""
        assert self._skip is not None and self._resync is not None
        start, line, column, error_line = self._skip
        window = self._window
        base = self._window_base
        at = start - base
        match = self._resync.search(window, at)
        while match is not None and base + match.start() == self._last_restart:
            match = self._resync.search(window, match.start() + 1)
        # Each comment read ends before the place to resume: it stays the one found.
        limit = len(window) if match is None else match.start()
        at, line, column, open_comment = self._skipped_comments(at, limit, line, column, error_line)
        if match is None and open_comment >= 0 and len(window) - open_comment <= MAX_REPLAY:
            # A comment not ended yet: read it once the next block comes.
            line, column = self._skip_text(at, open_comment, line, column, error_line)
            self._skip = (base + open_comment, line, column, error_line)
            return []
        if match is None:
            # Keep looking in the next block; a tag may be split at the end of this one.
            keep = max(len(window) - 256, at)
            while keep > at and (0x80 <= window[keep] < 0xC0 or window[keep - 1 : keep] == b"\r"):
                keep -= 1
            line, column = self._skip_text(at, keep, line, column, error_line)
            self._skip = (base + keep, line, column, error_line)
            return []
        self._skip = None
        found = match.start()
        line, column = self._skip_text(at, found, line, column, error_line)
        first, top, second = self._skipped
        last = top if top < line else second
        if first and first <= last:
            assert self.handler is not None
            self.handler.on_skipped(first, last, line)
        return self._restart(base + found, line, self._file_column(line, column))

    def _skipped_comments(
        self, at: int, limit: int, line: int, column: int, error_line: int
    ) -> tuple[int, int, int, int]:
        """Read the comments that end between window bytes ``at`` and ``limit`` of the
        skipped text (``_skipped_comment``): where the text after the last one starts
        and its position (``line``, 0-based ``column``, as ``_skip_text`` counts), and
        where a comment not ended before ``limit`` starts (-1: none)."""
        window = self._window
        base = self._window_base
        while (comment := window.find(b"<!--", at, limit)) >= 0:
            close = window.find(b"-->", comment + 4, limit)
            if close < 0:
                return at, line, column, comment
            line, column = self._skip_text(at, comment, line, column, error_line)
            self._skipped_comment(comment, close, line, column)
            line, column = self._advance(line, column, base + comment, base + close + 3)
            at = close + 3
        return at, line, column, -1

    def _skip_text(
        self, start: int, end: int, line: int, column: int, error_line: int
    ) -> tuple[int, int]:
        """Window bytes ``start`` to ``end`` (from ``line``, 0-based ``column``, in the
        text as read) are skipped: note the lines after the error's where they hold more
        than white space (``_skipped``: the first, the last and the last before it); the
        position at ``end``."""
        window = self._window
        if line == error_line:
            # The rest of the error's line is no skipped line.
            found = _LINE_BREAK.search(window, start, end)
            from_, from_line = (found.end(), line + 1) if found is not None else (end, line)
        else:
            from_, from_line = start, line
        first = _NOT_SPACE.search(window, from_, end)
        if first is not None:
            last = len(window[from_:end].rstrip(b" \t\r\n")) + from_ - 1
            first_line = from_line + _breaks(window[from_ : first.start()])
            last_line = from_line + _breaks(window[from_:last])
            before = max(window.rfind(b"\n", from_, last), window.rfind(b"\r", from_, last))
            before_line = 0
            if before > first.start():  # a line with more before the last one
                kept = len(window[from_:before].rstrip(b" \t\r\n")) + from_ - 1
                before_line = from_line + _breaks(window[from_:kept])
            noted = self._skipped
            if not noted[0] or first_line < noted[0]:
                noted[0] = first_line
            lines = {noted[1], noted[2], last_line, before_line} - {0}
            top = max(lines)
            noted[1] = top
            noted[2] = max((n for n in lines if n < top), default=0)
        return self._advance(line, column, self._window_base + start, self._window_base + end)

    def _skipped_comment(self, start: int, end: int, line: int, column: int) -> None:
        """A comment in the skipped text, window bytes ``start`` to ``end`` (its "-->"),
        at ``line`` and 0-based ``column`` of the text as read: delivered (its directives
        count) unless a replay already did."""
        assert self.handler is not None
        where = (line, self._file_column(line, column) + 1)
        replay = self._replay_until
        if replay is not None and where < replay:
            return
        text = self._window[start + 4 : end].decode("utf-8", errors="replace")
        self.handler.on_comment(text, *where)

    def _end_in_skip(self) -> None:
        """The text ended while looking for the place to resume."""
        assert self._skip is not None and self.handler is not None
        start, line, column, error_line = self._skip
        self._skip = None
        window = self._window
        base = self._window_base
        at, line, column, _open = self._skipped_comments(
            start - base, len(window), line, column, error_line
        )
        line, column = self._skip_text(at, self._fed - base, line, column, error_line)
        first, last, _before = self._skipped
        if first:
            self.handler.on_skipped(first, last, None)
        self.handler.on_syntax_error(3, line, self._file_column(line, column) + 1, "", 0)
        self.failed = True

    def _restart(
        self, offset: int, line: int, column: int, reopen: str = ""
    ) -> list[bytes | memoryview]:
        """Start a fresh parser at file byte ``offset`` (at ``line`` and 0-based file
        ``column``), after a synthetic root start tag (and ``reopen``, the start tags of
        ``_reopen``); the input to parse."""
        _detach(self._parser)
        if self._prefix is None:
            synthetic = self._synthetic_doctype() + self._synthetic_root()
            self._prefix = synthetic.encode("utf-8")
            self._prefix_chars = len(synthetic)
        prefix = self._prefix
        prefix_chars = self._prefix_chars
        if self._restarts_in_container(offset):
            assert self._container_tag is not None
            prefix += self._container_tag.encode("utf-8")
            prefix_chars += len(self._container_tag)
        if reopen:
            prefix += reopen.encode("utf-8")
            prefix_chars += len(reopen)
        else:
            self._reopen = []
        self.line_offset = line - 1
        self.column_offset = self.read_column(line, column) - prefix_chars
        self._last_restart = offset
        self._nested = None
        text_tag = self._text_tag
        if text_tag is not None and offset > text_tag[0] and offset != text_tag[2]:
            self._text_tag = None  # the repairs of its text before ``offset`` are dropped
        self._repairs = self._repairs[bisect_left(self._repairs, offset, key=_FIRST) :]
        self._marked = bool(self._repairs)
        self._restarted = True
        self._new_parser()
        built = self._built
        if built is None or not built.leads_to(offset, prefix, self._repairs):
            built = self._built = _Built(offset, prefix)
        built.extend(self._repairs, self._window, self._window_base)
        self._segment = built.segment
        self._marks = built.marks
        if built.longer:
            self._longer = {number: list(places) for number, places in built.longer.items()}
        chunks: list[bytes | memoryview] = [built.body]
        view = memoryview(self._window)
        at = built.at
        # Expat copies what it is given into its own buffer: the rest of the window
        # goes in growing pieces, so that an error soon after costs little.
        at -= self._window_base
        for size in (4096, 65536):
            if len(view) - at > size:
                chunks.append(view[at : at + size])
                at += size
        chunks.append(view[at:])
        return chunks

    def _restarts_in_container(self, offset: int) -> bool:
        """Whether the text from file byte ``offset`` stands inside the open container
        (an entry or the container's end tag, not the root's end tag)."""
        if self._container_tag is None or not self._in_container:
            return False
        at = offset - self._window_base
        window = self._window
        return not window.startswith(b"</", at) or window.startswith(self._container_end, at)

    def _synthetic_doctype(self) -> str:
        """The DOCTYPE again, on one line, for a restart under one: the same entity
        names declared (empty) and an external subset named when it had one, so that a
        reference reads as it did before (kept as written, or an undefined entity)."""
        seen = self._doctype_seen
        if seen is None:
            return ""
        name, external, declared = seen
        subset = "".join(f'<!ENTITY {entity} "">' for entity in declared)
        return (
            f"<!DOCTYPE {name or 'x'}"
            + (' SYSTEM "about:blank"' if external else "")
            + (f" [{subset}]" if subset else "")
            + ">"
        )

    def _synthetic_root(self) -> str:
        """The root start tag, on one line: its name, namespace declarations and attributes."""
        root = self.root_node
        assert root is not None  # recovery starts inside the root only
        declared = dict(self._root_declarations)
        by_uri = {uri: prefix for prefix, uri in self._root_declarations}
        by_uri.setdefault(XML_NS, "xml")
        parts = [_qualified(root.ns, root.name, by_uri)]
        for prefix, uri in declared.items():
            parts.append(
                f'xmlns:{prefix}="{_escape(uri)}"' if prefix else f'xmlns="{_escape(uri)}"'
            )
        for key, value in root.attrs.items():
            ns, _, name = key.rpartition("}")
            parts.append(f'{_qualified(ns, name, by_uri, attribute=True)}="{_escape(value)}"')
        return "<" + " ".join(parts) + ">"

    def _qname(self, node: Node) -> str:
        return _qualified(node.ns, node.name, self.prefixes)

    def root_namespaces(self) -> frozenset[str]:
        """The namespaces the root's start tag declares."""
        return frozenset(uri for _prefix, uri in self._root_declarations)

    def root_prefixes(self) -> frozenset[str]:
        """The prefixes the root's start tag declares, with those recovery declared."""
        return frozenset(prefix for prefix, _uri in self._root_declarations if prefix)

    def open_element(self) -> tuple[str, tuple[int, int]] | None:
        """The qualified name of the innermost element open and where its start tag
        stands, or None outside the root."""
        if not self._stack:
            return None
        node = self._stack[-1]
        return self._qname(node), (node.line, node.column)

    def set_entries(self, root: Node, entry_name: str, container: str | None = None) -> None:
        """Recover from syntax errors in this sitemap or feed: its entries are
        ``entry_name`` elements in the root's namespace, children of the root or, with
        ``container``, of the root's child of that name (an RSS <channel>, which must be
        one of ``containers``)."""
        self.recover = True
        self.entry_tag = f"{root.ns}}}{entry_name}" if root.ns else entry_name
        prefix = self.prefixes.get(root.ns, "") if root.ns else ""
        qualified = f"{prefix}:" if prefix else ""
        entry = re.escape(f"{qualified}{entry_name}".encode())
        end = re.escape(f"{qualified}{root.name}".encode())
        # Also a comment of whitespace only: the fast path stands a run of proved entries
        # for one (fastpath/), which must not be skipped.
        ends = end
        if container is not None:
            self._container_tag = f"<{qualified}{container}>"
            self._container_end = f"</{qualified}{container}".encode()
            self._entry_depth = 2
            ends = rb"(?:" + end + rb"|" + re.escape(f"{qualified}{container}".encode()) + rb")"
        self._resync = re.compile(
            rb"<" + entry + rb"(?=[\s/>])|</" + ends + rb"\s*>|<!--[ \t\r\n]*-->"
        )

    # -- expat callbacks ---------------------------------------------------------

    def _namespace(self, prefix: str | None, uri: str | None) -> None:
        self.prefixes.setdefault(uri or "", prefix or "")
        if not self.saw_root:
            self._root_declarations.append((prefix or "", uri or ""))
            return
        self._scoped += 1
        if prefix:
            self._declared_below(prefix, uri or "")

    def _namespace_end(self, prefix: str | None) -> None:
        if self._scoped:
            self._scoped -= 1

    def _note_placed(self, node: Node) -> None:
        """Note the prefix ``node``'s start tag (the one being read) writes, where it is
        not the one the document declares first for its namespace."""
        parser = self._parser
        at = self._file_offset(parser.CurrentByteIndex) - self._window_base
        if at < 0 or not self._window.startswith(b"<", at):
            return  # a synthetic tag of a restart
        name = _TAG_NAME.match(self._window, at + 1)
        if name is None:
            return
        prefix, colon, _ = name.group(0).decode("utf-8", errors="replace").partition(":")
        written = prefix if colon else ""
        if self.prefixes.get(node.ns, written) != written:
            self.prefixes.placed[node.line, node.column] = written

    def _declared_below(self, prefix: str, uri: str) -> None:
        """Note the declaration of ``prefix`` in the start tag being read, below the
        root (not one of a synthetic tag a restart reads, nor one noted already)."""
        parser = self._parser
        at = self._file_offset(parser.CurrentByteIndex) - self._window_base
        name = _TAG_NAME.match(self._window, at + 1) if at >= 0 else None
        if name is None or not self._window.startswith(b"<", at):
            return
        line, column = self.expat_position(parser.CurrentLineNumber, parser.CurrentColumnNumber)
        qname = name.group(0).decode("utf-8", errors="replace")
        found = self.declared_below.setdefault(prefix, {})
        last = found.pop(uri, None)
        if last is not None and last[1:3] == (line, column):
            found[uri] = last  # the same tag read again after a restart
            return
        found[uri] = (qname, line, column, 1 if last is None else last[3] + 1)

    def _install_tree_handlers(self, parser: pyexpat.XMLParserType) -> None:
        handler = self.handler
        assert handler is not None  # installed before any release
        names = self._names
        stack: list[Node] = []
        self._stack = stack
        pieces: list[str] = []
        self._pieces = pieces
        # CDATA sections in the text being gathered: [characters before it, characters
        # up to its end, line, column of "<![CDATA["], for the place of stray text.
        sections: list[list[int]] = []
        position = self.expat_position
        longer = self._longer
        line_offset = self.line_offset
        shortened = self._shortened
        state = self
        entry_tag = self.entry_tag
        nested_depth = self._entry_depth + 1  # where an entry inside an entry stands

        def split(tag: str) -> tuple[str, str]:
            ns, _, name = tag.rpartition("}")
            names[tag] = result = (ns, name)
            return result

        def start(tag: str, attrs: dict[str, str]) -> None:
            nonlocal entry_tag, nested_depth
            depth = len(stack)
            line = parser.CurrentLineNumber
            if (
                line == 1
                or depth == 0
                or (shortened and line + line_offset in shortened)
                or (longer and line in longer)
            ):
                line, column = position(line, parser.CurrentColumnNumber)
            else:
                line, column = line + line_offset, parser.CurrentColumnNumber + 1
            if state._reopen and depth >= state._entry_depth:
                node = state._reopen.pop(0)  # read on inside it (``_read_on``)
                if depth == state._entry_depth:
                    state._entry_open = (parser.CurrentByteIndex, node)
                stack.append(node)
                return
            ns, name = names.get(tag) or split(tag)
            if depth == 0:
                if state.root_node is not None:  # the synthetic root of a resumed parse
                    stack.append(state.root_node)
                    return
                node = Node(ns, name, attrs, line, column)
                state.saw_root = True
                state.root_node = node
                pieces.clear()
                stack.append(node)
                handler.on_root(node)
                entry_tag = state.entry_tag
                nested_depth = state._entry_depth + 1
                return
            node = Node(ns, name, attrs, line, column)
            if state._scoped:
                state._note_placed(node)
            if pieces:
                text = pieces[0] if len(pieces) == 1 else "".join(pieces)
                pieces.clear()
                if text.strip(XML_SPACE):
                    if depth == 1:
                        handler.on_root_text(*state._text_start(text, line, column, sections), text)
                    elif stack[-1].nested_text is None:
                        stack[-1].nested_text = state._text_start(text, line, column, sections)
                if sections:
                    sections.clear()
            if depth == 1:
                if state.containers and _is_container(state, node):
                    if state._in_container and state._container_node is not None:
                        node = state._container_node  # opened again by a restart
                    state._in_container = True
                    state._container_node = node
                else:
                    state._entry_open = (parser.CurrentByteIndex, node)
            elif depth == 2 and state.containers and _is_container(state, stack[1]):
                state._entry_open = (parser.CurrentByteIndex, node)
            elif depth == nested_depth and tag == entry_tag and state._nested is None:
                outer = stack[depth - 1]
                state._nested = (parser.CurrentByteIndex, line, column, len(outer.children))
            if depth >= MAX_DEPTH:
                stack.append(node)  # kept on the stack only, never attached
                if not state._too_deep_reported:
                    state._too_deep_reported = True
                    handler.on_too_deep(stack[2] if depth > 2 else stack[1], line, column)
                return
            if depth > 1 and not (
                depth == 2 and state.containers and _is_container(state, stack[1])
            ):
                stack[-1].children.append(node)
            stack.append(node)

        def end(tag: str) -> None:
            node = stack.pop()
            depth = len(stack)
            if pieces:
                text = pieces[0] if len(pieces) == 1 else "".join(pieces)
                pieces.clear()
                if not node.children:
                    node.text = text if len(text) <= MAX_TEXT else text[:MAX_TEXT]
                elif text.strip(XML_SPACE) and node.nested_text is None:
                    node.nested_text = state._text_start(
                        text,
                        *position(parser.CurrentLineNumber, parser.CurrentColumnNumber),
                        sections,
                    )
                if sections:
                    sections.clear()
            if depth == 1:
                state._entry_open = None
                state._nested = None
                state._in_container = False
                if state._marked:
                    state._marked = False
                    _unmark(node)
                handler.on_entry(node)
            elif depth == 0:
                state.root_closed = True
                if node.text.strip(XML_SPACE):
                    end_line, end_column = position(
                        parser.CurrentLineNumber, parser.CurrentColumnNumber
                    )
                    handler.on_root_text(*_text_start(node.text, end_line, end_column), node.text)
            elif depth == 2 and state.containers and _is_container(state, stack[1]):
                state._entry_open = None
                state._nested = None
                if state._marked:
                    state._marked = False
                    _unmark(node)
                handler.on_entry(node)
            elif depth == nested_depth and tag == entry_tag and state._entry_end_missing(parser):
                raise _NestedEntry

        def comment(text: str) -> None:
            where = position(parser.CurrentLineNumber, parser.CurrentColumnNumber)
            replay = state._replay_until
            if replay is not None and where < replay:
                return  # read again after a repair: delivered the first time
            handler.on_comment(text, *where)

        def cdata_start() -> None:
            if not pieces:
                sections.clear()
            if len(sections) < 8:
                gathered = sum(map(len, pieces))
                where = position(parser.CurrentLineNumber, parser.CurrentColumnNumber)
                sections.append([gathered, gathered, *where])

        def cdata_end() -> None:
            if sections:
                sections[-1][1] = sum(map(len, pieces))

        parser.CommentHandler = comment
        parser.StartCdataSectionHandler = cdata_start
        parser.EndCdataSectionHandler = cdata_end
        parser.StartElementHandler = start
        parser.EndElementHandler = end
        # Expat reports character data inside the root element only; a bound method
        # of the list costs no Python frame per call.
        parser.CharacterDataHandler = pieces.append

    def _entry_end_missing(self, parser: pyexpat.XMLParserType) -> bool:
        """An entry just ended inside an open entry: whether what follows its end tag is
        another entry or the root's end (the open entry's end tag is missing) rather
        than the open entry's end tag (entries nested, but well-formed)."""
        nested = self._nested
        if nested is None or not self.recover or self._resync is None:
            return False
        outer = self._stack[self._entry_depth]
        if f"{outer.ns}}}{outer.name}" != self.entry_tag and outer.name != self.entry_tag:
            return False
        if self._file_offset(nested[0]) < self._window_base:
            return False  # no longer in the window
        offset = self._file_offset(parser.CurrentByteIndex)
        if offset < 0:
            return False
        window = self._window
        at = window.find(b">", offset - self._window_base)
        if at < 0:
            return False
        following = _SPACE.match(window, at + 1)
        assert following is not None  # matches the empty string
        return self._resync.match(window, following.end()) is not None

    def _doctype(
        self, name: str, system_id: str | None, public_id: str | None, has_internal_subset: bool
    ) -> None:
        if self._doctype_seen is not None:  # the synthetic one of a restart
            self._pass_references()
            return
        self._doctype_seen = (name or "", bool(system_id or public_id), [])
        self._pass_references()
        line, column = self._find_back(
            "<!DOCTYPE", self._parser.CurrentLineNumber, self._parser.CurrentColumnNumber
        )
        assert self.handler is not None  # expat calls back only while it parses
        self.handler.on_doctype(name or "", *self.position(line, column))

    def _pass_references(self) -> None:
        # With a default handler set, expat passes entity references through
        # unexpanded instead of replacing them: no billion laughs, no XXE. A reference
        # stays in the value as written (``&name;``): a value with an entity it does
        # not expand is not that value with the entity left out.
        pieces, stack = self._pieces, self._stack

        def passed(data: str) -> None:  # an external entity's reference, among others
            if stack and data.startswith("&") and data.endswith(";"):
                pieces.append(data)

        def skipped(name: str, is_parameter_entity: bool) -> None:  # internal, undeclared
            if stack and not is_parameter_entity:
                pieces.append(f"&{name};")

        seen = self._doctype_seen
        assert seen is not None
        declared = seen[2]

        def declare(name: str, is_parameter_entity: bool, *_rest: object) -> None:
            # Only the name is kept (a restart declares it again, empty): no value is
            # ever expanded.
            if not is_parameter_entity and len(declared) < _DECLARED_KEPT:
                declared.append(name)

        self._parser.DefaultHandler = passed
        self._parser.SkippedEntityHandler = skipped
        self._parser.EntityDeclHandler = declare if not self._restarted else _ignore_entity


def _declaration_error(declaration: bytes) -> int | None:
    """Where expat finds the XML declaration ``declaration`` (``_DECLARATION``)
    malformed: the byte index of its error, or of the ">" (or the end) where its "?>"
    is missing; None when it is well-formed."""
    parser = pyexpat.ParserCreate("utf-8")
    try:
        parser.Parse(declaration + b"<x/>", True)
    except pyexpat.ExpatError as error:
        index = parser.ErrorByteIndex
        if error.code in _END_OF_INPUT or index <= 0:  # the declaration never ends
            written = declaration.rstrip(b" \t\r\n")
            return len(written) - 1 if written.endswith(b">") else len(written)
        return index if index < len(declaration) else None
    return None


def _breaks(data: bytes) -> int:
    """The line breaks in ``data`` (CR LF, CR and LF each end a line)."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def _tail_chars(data: bytes) -> int:
    """The characters of ``data`` after its last line break (all of them without one)."""
    last = max(data.rfind(b"\n"), data.rfind(b"\r"))
    return len(data[last + 1 :].decode("utf-8", errors="replace"))


def _note_mark(
    longer: dict[int, list[tuple[int, int]]], line: int, column: int, mark: bytes, replaced: bytes
) -> tuple[int, int]:
    """The position after ``mark`` read from ``line``, ``column``; where the mark is
    longer on its last line than the text it stands for (``replaced``), noted in
    ``longer`` (``StreamParser._longer``)."""
    line, column = _moved(line, column, mark)
    extra = _tail_chars(mark) - _tail_chars(replaced)
    if extra:
        longer.setdefault(line, []).append((column, extra))
    return line, column


def _moved(line: int, column: int, data: bytes) -> tuple[int, int]:
    """The position (line, 0-based column in characters) after ``data`` read from
    ``line``, ``column``."""
    breaks = _breaks(data)
    if not breaks:
        return line, column + _tail_chars(data)
    return line + breaks, _tail_chars(data)


def _whole_tag_context(window: bytes, start: int, last: int, at: int) -> tuple[str, int]:
    """The text of ``window`` from index ``start`` (a tag's "<") to the end of the line
    that holds index ``last``, and the place of index ``at`` in it, in characters."""
    breaks = _LINE_BREAK.search(window, last)
    context = window[start : breaks.start() if breaks is not None else len(window)]
    place = len(window[start:at].decode("utf-8", errors="replace"))
    return context.decode("utf-8", errors="replace"), place


def _detach(parser: pyexpat.XMLParserType) -> None:
    for name in (
        "StartElementHandler",
        "EndElementHandler",
        "CharacterDataHandler",
        "CommentHandler",
        "StartCdataSectionHandler",
        "EndCdataSectionHandler",
        "StartDoctypeDeclHandler",
        "StartNamespaceDeclHandler",
        "DefaultHandler",
        "SkippedEntityHandler",
        "EntityDeclHandler",
    ):
        setattr(parser, name, None)


def _unmark(entry: Node) -> None:
    """Put back the text as written where a defect was marked for the parse."""
    for node in entry.iter():
        if AMP_MARK in node.text or DROP_MARK in node.text or LT_MARK in node.text:
            node.text = _unmarked_text(node.text)
        for key, value in node.attrs.items():
            if AMP_MARK in value or DROP_MARK in value or LT_MARK in value:
                node.attrs[key] = (
                    value.replace(AMP_MARK, "&").replace(DROP_MARK, "").replace(LT_MARK, "<")
                )


def _unmarked_text(marked: str) -> str:
    """``marked`` as written; where a marked '&' starts '&#' (a character reference the
    parser refused), the text says where that '#' stands. A raw '<' reads as its fix
    writes it: '%3C' in a URL (the value's other rules see the URL fixed), '<' elsewhere."""
    text = marked.replace(DROP_MARK, "")
    if LT_MARK in text:
        url = _URL_START.match(text.strip().replace(LT_MARK, "<")) is not None
        text = text.replace(LT_MARK, "%3C" if url else "<")
    if AMP_MARK + "#" not in text:
        return text.replace(AMP_MARK, "&")
    refused = RefusedReferences(text.replace(AMP_MARK, "&"))
    refused.hashes = frozenset(m.end() for m in _REFUSED_REFERENCE.finditer(text))
    return refused


def _qualified(ns: str, name: str, prefixes: dict[str, str], attribute: bool = False) -> str:
    if not ns:
        return name
    prefix = prefixes.get(ns)
    if prefix is None or (attribute and not prefix):
        return name
    return f"{prefix}:{name}" if prefix else name


def _escape(value: str) -> str:
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace('"', "&quot;")
        .replace("\t", "&#9;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
    )


def _is_container(state: StreamParser, node: Node) -> bool:
    return (node.ns, node.name) in state.containers


def cut_context(line: str, at: int) -> tuple[str, int]:
    """``line`` around its place ``at`` cut as a syntax error's context is (at most
    CONTEXT_BYTES of UTF-8 each side, ``StreamParser._context``), and the place in it."""
    before = line[:at].encode("utf-8")
    left = line[:at]
    if len(before) > CONTEXT_BYTES:
        cut = len(before) - CONTEXT_BYTES
        while cut < len(before) and 0x80 <= before[cut] < 0xC0:
            cut += 1  # not in the middle of a character
        left = before[cut:].decode("utf-8", errors="replace")
    after = line[at:].encode("utf-8")
    right = line[at:]
    if len(after) > CONTEXT_BYTES:
        right = after[:CONTEXT_BYTES].decode("utf-8", errors="replace")
    return left + right, len(left)


def _text_start(
    text: str, line: int, column: int, sections: list[list[int]] | None = None
) -> tuple[int, int]:
    """Where the first non-whitespace character of ``text`` stands, given the
    position of the tag that follows the text. CDATA markup has no length in
    ``text``, so the CDATA sections gathered with it (``sections``) place it: the start
    of the section that holds it, or counted back from a section later on its line."""
    first = len(text) - len(text.lstrip(XML_SPACE))
    for before, after, section_line, section_column in sections or ():
        if before <= first < after:
            return section_line, section_column
        if first < before and "\n" not in text[first:before]:
            return section_line, max(section_column - (before - first), 1)
    rest = text[first:]
    newlines = rest.count("\n")
    if not newlines:
        return line, max(column - len(rest), 1)
    line_start = text.rfind("\n", 0, first)
    return line - newlines, (first - line_start) if line_start >= 0 else 1


_DECLARED_KEPT = 10_000  # entity names a restart declares again


def _ignore_entity(*_args: object) -> None:
    return None
