"""Checks a robots.txt file: its Sitemap lines, its size, and that it is text at all.

The file is read line by line as it streams in, keeping one line (capped) at a
time. Only the first 500 KiB are checked, as Google reads only those; after
that the Sitemap lines are merely counted, for the size finding. What is known only
at the end (no Sitemap line, the size) is handed to the ``end`` checks of
``rules.robots`` in a ``rules.events.RobotsRecord``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from sitemap_lint.domain.robotstxt import SITEMAP_FIELD, lists_two_urls, sitemap_line
from sitemap_lint.domain.urls import normal_escapes
from sitemap_lint.engine.dispatch import calls, once
from sitemap_lint.model import MAX_TEXT, Node
from sitemap_lint.rules import encoding, events
from sitemap_lint.rules import robots as rules
from sitemap_lint.rules.entry import FileContext
from sitemap_lint.rules.events import FileEnd, RobotsRecord, SitemapLine
from sitemap_lint.rules.registry import END, SITEMAP_LINE
from sitemap_lint.rules.urls import check_escaped_twice, check_url
from sitemap_lint.sets.facts import Child, FileFacts
from sitemap_lint.sets.robots import GOOGLE_LIMIT

if TYPE_CHECKING:
    from sitemap_lint.engine.sink import FindingSink
    from sitemap_lint.rules.events import Replacements
    from sitemap_lint.settings.options import Options

# The same, cheaply, at the start of any line of a block of text (after the limit).
_SITEMAP_START = re.compile(r"(?:\A|(?<=[\r\n]))[ \t]*site-?map", re.I)
_LINE_BREAK = re.compile(r"\r\n?|\n")
_QUERY_OR_FRAGMENT = re.compile(r"([?#])")
_WORDS = ("sitemap", "site-map")
# Enough of a line after the limit to tell whether it is a Sitemap line.
_LINE_START = 64


def check_robots_file(
    first: str,
    texts: Iterator[str],
    options: Options,
    sink: FindingSink,
    facts: FileFacts | None,
    url: str | None,
    cut_short: Callable[[], bool] = lambda: False,
    replacements: Replacements | None = None,
    byte_order_mark: bool = False,
) -> None:
    """Check the robots.txt whose decoded text is ``first`` then ``texts``; ``url`` is
    where it was fetched from (None for a local file: then where ``--sitemap-url`` says
    it is served, if given); ``cut_short`` says at the end
    whether the reader stopped before it; ``replacements``: where its decoder replaced
    bytes (the URL rules' ``replacements``); ``byte_order_mark``: its bytes start with
    UTF-8's. An HTML page is left to its ``prolog`` check."""
    if byte_order_mark:  # robots.txt may start with a byte order mark (RFC 9309, 2.2)
        sink.drop(encoding.BYTE_ORDER_MARK.code)
    if facts is not None:
        facts.kind = "robots"
    served = options.sitemap_url
    if url is None and served is not None:
        url = served.origin + served.path
    if rules.HTML_START.match(first):
        return
    context = FileContext(options, events.ROBOTS, "sitemap", replacements=replacements)
    offset = 3 if byte_order_mark else 0
    checker = _RobotsChecker(sink, facts, url, context, options.enabled, offset)
    checker.feed(first)
    for text in texts:
        checker.feed(text)
    checker.finish(cut_short())
    record = RobotsRecord(
        url, checker.sitemap_lines, checker.cut, checker.sitemaps_after, checker.text_after
    )
    lines = checker.sitemap_lines + checker.sitemaps_after
    end = FileEnd(events.ROBOTS, None, lines, None, cut_short(), record)
    once(END, end, context, sink, options.enabled)


class _RobotsChecker:
    def __init__(
        self,
        report: FindingSink,
        facts: FileFacts | None,
        url: str | None,
        file: FileContext,
        enabled: frozenset[str] | None,
        offset: int,
    ):
        self.report = report
        self.facts = facts
        self.url = url  # where the robots.txt was fetched from (None: a local file)
        self.file = file
        self.line_checks = calls(SITEMAP_LINE, enabled)  # the checks of each Sitemap line
        self.number = 1  # of the line being read
        self.start = offset  # its first byte in the file
        self.pieces: list[str] = []
        self.kept = 0  # characters of it kept in pieces
        self.chars = 0  # its characters so far
        self.size = 0  # and bytes
        self.limit_column: int | None = None  # where the limit falls in it
        self.after_cr = False  # the last text ended in CR: an LF may follow
        self.sitemap_lines = 0
        self.seen: dict[str, int] = {}  # normalised sitemap URL -> its first line
        # After the limit: where it falls, the Sitemap lines and the text after it.
        self.cut: tuple[int, int] | None = None
        self.sitemaps_after = 0
        self.text_after = False
        self.carry = ""

    # -- reading lines -------------------------------------------------------------

    def feed(self, text: str) -> None:
        if self.after_cr and text.startswith("\n"):
            text = text[1:]
            self.start += 1
        self.after_cr = text.endswith("\r")
        if self.cut is not None:
            self._scan_after_limit(text)
            return
        position = 0
        for match in _LINE_BREAK.finditer(text):
            self._take(text[position : match.start()])
            self._end_line(match.end() - match.start())
            position = match.end()
            if self.cut is not None:
                self._scan_after_limit(text[position:])
                return
        self._take(text[position:])

    def _take(self, piece: str) -> None:
        if not piece:
            return
        if self.kept < MAX_TEXT:
            self.pieces.append(piece[: MAX_TEXT - self.kept])
            self.kept += min(len(piece), MAX_TEXT - self.kept)
        data = None if piece.isascii() else piece.encode("utf-8", "replace")
        size = len(piece) if data is None else len(data)
        inside = GOOGLE_LIMIT - self.start - self.size  # bytes of this piece Google reads
        if self.limit_column is None and size > inside:
            read = inside if data is None else len(data[:inside].decode("utf-8", "ignore"))
            self.limit_column = self.chars + read + 1
        self.chars += len(piece)
        self.size += size

    def _end_line(self, break_size: int) -> None:
        line = "".join(self.pieces)
        end = self.start + self.size
        if end > GOOGLE_LIMIT:
            self._limit_in_line(line)
        else:
            self._line(line)
            if end + break_size > GOOGLE_LIMIT:
                self.cut = (self.number + 1, 1)  # the limit falls on the line break
        self.number += 1
        self.start = end + break_size
        self.pieces.clear()
        self.kept = 0
        self.chars = 0
        self.size = 0

    def _limit_in_line(self, line: str) -> None:
        """The limit falls inside this line: Google reads it only up to there."""
        self.cut = (self.number, self.limit_column or 1)
        self.text_after = True
        if _SITEMAP_START.match(line):
            self.sitemaps_after += 1

    def _scan_after_limit(self, text: str) -> None:
        """Past the limit only the Sitemap lines are counted, a block at a time."""
        text = self.carry + text
        last = max(text.rfind("\n"), text.rfind("\r"))
        if last < 0:
            self.carry = text[:_LINE_START]
            self.text_after = self.text_after or bool(text.strip())
            return
        complete = text[: last + 1]
        self.carry = text[last + 1 :][:_LINE_START]
        self.sitemaps_after += _count_sitemap_lines(complete)
        self.text_after = self.text_after or not complete.isspace()

    def finish(self, cut_short: bool = False) -> None:
        """The last line, unless reading stopped before the end of the file
        (``cut_short``): then a line without its line break is a piece of one, left out."""
        if self.cut is None:
            if (self.pieces or self.size) and not cut_short:
                self._end_line(0)
        else:
            self._scan_after_limit("\n")

    # -- one line ------------------------------------------------------------------

    def _line(self, line: str) -> None:
        match = sitemap_line(line)
        if match is None:
            return
        colon = match.re is SITEMAP_FIELD
        self.sitemap_lines += 1
        value = match.group(2)
        column = match.start(2) + 1 if value else len(match.string.rstrip()) + 1
        first = self._sitemap(value, column) if rules.looks_absolute(value) else None
        if self.line_checks:
            event = SitemapLine(
                self.number,
                column,
                value,
                match.group(1),
                match.start(1) + 1,
                colon,
                first,
                self.url,
            )
            for call in self.line_checks:
                call(event, self.file, self.report)

    def _sitemap(self, value: str, column: int) -> int | None:
        """Check the URL of a Sitemap line and record it; the line where the same sitemap
        was listed before, if any."""
        node = Node("", "Sitemap", {}, self.number, column)
        parsed = check_url(
            value, node, self.report, field="Sitemap", replacements=self.file.replacements
        )
        check_escaped_twice(node, self.report, plain="robots.txt", value=value)
        if parsed is None or lists_two_urls(value):
            return None  # two URLs run together (UR006): neither is followed
        key = parsed.origin + _normal_after_authority(value)
        first = self.seen.setdefault(key, self.number)
        if first != self.number:
            return first
        if self.facts is not None:
            self.facts.children.append(Child(value, self.number, column))
        return None


def _count_sitemap_lines(block: str) -> int:
    """The Sitemap lines of ``block`` (which starts a line), by plain string counts when
    every "sitemap" in it starts a line (the usual case), else by the regular expression."""
    lower = block.lower()
    total = lower.count("sitemap") + lower.count("site-map")
    if not total:
        return 0
    at_line_start = sum(lower.count(brk + word) for brk in "\r\n" for word in _WORDS)
    at_line_start += lower.startswith(_WORDS)
    if at_line_start == total:
        return total
    return len(_SITEMAP_START.findall(block))


def _normal_after_authority(url: str) -> str:
    """The path and query of an absolute URL (``_after_authority``) as the scope rules
    compare paths (``domain.urls.normal_escapes``): the escapes in normal form, those of
    unreserved characters decoded, a space or a character outside ASCII percent-encoded;
    the "?" and "#" that start the query and the fragment kept."""
    pieces = _QUERY_OR_FRAGMENT.split(_after_authority(url))
    return "".join(
        piece if index % 2 else normal_escapes(piece) for index, piece in enumerate(pieces)
    )


def _after_authority(url: str) -> str:
    """The path and query of an absolute URL (``/`` when it has neither)."""
    rest = url.split("//", 1)[1] if "//" in url else url
    for index, char in enumerate(rest):
        if char in "/?":
            return rest[index:] if char == "/" else "/" + rest[index:]
    return "/"
