"""Text sitemaps: one absolute URL per line, UTF-8, nothing else.

``check_source`` routes a file here when it is not XML and ``is_text_sitemap``
says so. The text is read line by line as it streams (CR LF, CR and LF each end
a line, also across chunks); a line longer than ``model.MAX_TEXT`` characters
is kept only up to that length. Each line that is meant as a URL goes through
the same URL, scope, duplicate and limit rules as a ``loc``; the text rules
(``rules.text``) report lines that are not URLs or hold more than a URL.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from sitemap_lint.engine.dispatch import calls, once
from sitemap_lint.model import MAX_TEXT, Node
from sitemap_lint.rules import events, limits, scope, urls
from sitemap_lint.rules import text as rules
from sitemap_lint.rules.duplicates import DuplicateTracker
from sitemap_lint.rules.entry import FileContext
from sitemap_lint.rules.events import FileEnd, LineKind, LineVerdict, TextLine, TextRecord
from sitemap_lint.rules.registry import END, LINE
from sitemap_lint.support.locations import names_robots
from sitemap_lint.support.records import NamedTuple

if TYPE_CHECKING:
    from sitemap_lint.engine.sink import FindingSink
    from sitemap_lint.rules.events import Replacements
    from sitemap_lint.sets.facts import FileFacts
    from sitemap_lint.settings.options import Options

# Text is split into lines in blocks of at most this many characters, so that a
# huge run of line breaks never becomes one huge list.
BLOCK = 1 << 16
# The lines other than comments looked at to recognise a URL list without a .txt name
# (a heading or two may stand above the URLs); comments and blank lines are passed over
# within the first BLOCK characters.
SNIFF_LINES = 3

_HTTP = re.compile(r"https?://", re.IGNORECASE)
# The usual line: a URL and nothing that could separate it from something else.
_PLAIN_URL = re.compile(r"https?://[^\s\"'<>`,;|]*\Z", re.IGNORECASE)
# A URL ends at whitespace, quotes, angle brackets or a backtick.
_URL_TOKEN = re.compile(r"[^\s\"'<>`]+")
_VALUE = (
    r"(?:https?://|\d{4}-\d\d(?:-\d\d)?\b|\d+(?:\.\d+)?(?:[\s,;|]|\Z)"
    r"|(?:always|hourly|daily|weekly|monthly|yearly|never)\b)"
)
# A column separator inside the URL token: `,` `;` or `|` followed by another value.
_COLUMN = re.compile(rf"[,;|]+(?=\s*{_VALUE})", re.IGNORECASE)
_STARTS_WITH_VALUE = re.compile(rf"(?:{_VALUE}|[-|,;#]|//)", re.IGNORECASE)
# Another URL on the line, after a separator.
_NEXT_URL = re.compile(r"(?<=[\s,;|\"'<>])https?://", re.IGNORECASE)
# `Name: value` (a header field, a robots.txt line); `http:` and `https:` are schemes.
_FIELD = re.compile(r"(?!https?\s*:)([A-Za-z][A-Za-z0-9_-]*)\s*:(?:\s|\Z)", re.IGNORECASE)
_HEADING = re.compile(
    r"(?:urls?|locs?|links?|pages?|address(?:es)?|sitemap|end|eof)(?:\s*[,;\t|].*)?\Z",
    re.IGNORECASE,
)
# The first word of a line of text (not a path, a host or a scheme).
_WORD = re.compile(r"[^\W\d_][^/.:\\]*\Z")
# `//` and then a host: a scheme-relative URL (UR001 says so), not a comment.
_HOST_START = re.compile(r"[A-Za-z0-9\[]")


class Line(NamedTuple):
    text: str  # at most MAX_TEXT characters
    length: int  # the line's real length


# -- recognising a text sitemap -------------------------------------------------------


def is_text_sitemap(first: str, name: str) -> bool:
    """Whether a file that is not XML is a text sitemap: a name ending in .txt
    (or .txt.gz), or a URL (maybe in quotes or angle brackets) among its first
    lines that are neither blank nor comments, within the first BLOCK characters."""
    path = name.split("?", 1)[0].split("#", 1)[0].lower()
    if path.endswith(".gz"):
        path = path[:-3]
    if path.endswith(".txt") and not names_robots(path):
        return True
    seen = 0
    for line in _first_lines(first[:BLOCK]):
        stripped = line.strip()
        if not stripped:
            continue
        if _HTTP.match(stripped.lstrip("<\"'")):
            return True
        verdict = _classify(stripped)
        if verdict is not None and verdict.kind == LineKind.COMMENT:
            continue
        seen += 1
        if seen >= SNIFF_LINES or _looks_like_url(stripped):
            return False
    return False


def _first_lines(head: str) -> list[str]:
    return head.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _looks_like_url(line: str) -> bool:
    """Whether a line may be a (broken) URL: then it is no heading above a URL list."""
    return _classify(line) is None and not _FIELD.match(line)


# -- splitting into lines ---------------------------------------------------------------

# A line with something other than whitespace on it, from its start.
_FILLED_LINE = re.compile(r"^[^\S\n]*\S[^\n]*", re.MULTILINE)
# A line that starts with a URL, maybe after white space: it holds a URL (``holds_url``).
_URL_LINE = re.compile(r"^[^\S\n]*https?://", re.MULTILINE | re.IGNORECASE)


class LineScanner:
    """Splits the text into lines and hands out the non-blank ones with their numbers;
    blank lines are only counted. A final line break does not start a line.

    Once ``counting`` is set, non-blank lines are no longer handed out: those that hold
    a URL are only counted (in ``counted``), a block at a time.
    """

    def __init__(self) -> None:
        self.number = 0  # the last line seen
        self.blank = 0
        self.first_blank = 0
        self.counting = False
        self.counted = 0

    def lines(
        self, texts: Iterable[str], cut_short: Callable[[], bool] = lambda: False
    ) -> Iterator[tuple[int, Line]]:
        """The non-blank lines of ``texts``; ``cut_short`` says at the end whether reading
        stopped before the end of the file: then a last line without its line break is a
        piece of a line, left out."""
        carry: list[str] = []  # the start of the current line, at most MAX_TEXT characters
        carry_length = 0
        kept = 0
        skip_lf = False  # the last block ended with CR: a LF first in this one ends nothing
        for block in _blocks(texts):
            if skip_lf:
                skip_lf = False
                if block[0] == "\n":
                    block = block[1:]
                    if not block:
                        continue
            if block[-1] == "\r":
                skip_lf = True
            if "\r" in block:
                block = block.replace("\r\n", "\n").replace("\r", "\n")
            first_break = block.find("\n")
            if first_break >= 0:
                head = block[:first_break]
                if carry:
                    if kept < MAX_TEXT:
                        carry.append(head[: MAX_TEXT - kept])
                    yield from self._one(Line("".join(carry), carry_length + len(head)))
                    carry, carry_length, kept = [], 0, 0
                else:
                    yield from self._one(Line(head, len(head)))
                last_break = block.rfind("\n")
                if first_break < last_break:
                    yield from self._between(block, first_break + 1, last_break)
                tail = block[last_break + 1 :]
            else:
                tail = block
            if tail:
                carry_length += len(tail)
                if kept < MAX_TEXT:
                    piece = tail[: MAX_TEXT - kept]
                    carry.append(piece)
                    kept += len(piece)
        if carry_length and not cut_short():
            yield from self._one(Line("".join(carry), carry_length))

    def _one(self, line: Line) -> Iterator[tuple[int, Line]]:
        if not line.text or line.text.isspace():
            self._blanks(1)
            self.number += 1
            return
        self.number += 1
        if self.counting:
            self.counted += holds_url(line.text)
        else:
            yield self.number, line

    def _between(self, block: str, start: int, end: int) -> Iterator[tuple[int, Line]]:
        """The complete lines of ``block[start:end]`` (each shorter than BLOCK)."""
        last = self.number + block.count("\n", start, end) + 1
        if self.counting:
            filled = _FILLED_LINE.findall(block, start, end)
            if self.first_blank or len(filled) == last - self.number:
                self.counted += _url_lines(block, start, end, filled)
                self.blank += last - self.number - len(filled)
                self.number = last
                return
            # Otherwise go line by line, once: to find the first blank line.
        position = start  # where line self.number + 1 starts
        for match in _FILLED_LINE.finditer(block, start, end):
            number = self.number + 1 + block.count("\n", position, match.start())
            self._blanks(number - self.number - 1)
            self.number = number
            if self.counting:
                self.counted += holds_url(match.group())
            else:
                text = match.group()
                yield number, Line(text, len(text))
            position = match.end() + 1
        self._blanks(last - self.number)
        self.number = last

    def _blanks(self, count: int) -> None:
        if count > 0:
            if not self.blank:
                self.first_blank = self.number + 1
            self.blank += count


def _url_lines(block: str, start: int, end: int, filled: list[str]) -> int:
    """How many of the non-blank lines ``filled`` of ``block[start:end]`` hold a URL: by one
    count when each starts with one (the usual case), else line by line."""
    starting = len(_URL_LINE.findall(block, start, end))
    if starting == len(filled):
        return starting
    return sum(map(holds_url, filled))


def _blocks(texts: Iterable[str]) -> Iterator[str]:
    for piece in texts:
        for start in range(0, len(piece), BLOCK):
            yield piece[start : start + BLOCK]


# -- what a line is -----------------------------------------------------------------------


def _classify(line: str) -> LineVerdict | None:
    """What a stripped, non-blank line is when it is not simply a URL (None: a URL,
    maybe a broken one, for the URL rules to check)."""
    if _PLAIN_URL.match(line):
        return None
    first = line[0]
    if first == "<" and not _HTTP.match(line, 1):
        return _markup(line)
    if first in "#;" or line.startswith("/*"):
        return LineVerdict(LineKind.COMMENT)
    if line.startswith("//") and not _HOST_START.match(line, 2):
        return LineVerdict(LineKind.COMMENT)
    found = _HTTP.search(line)
    if found is None:
        return _plain_text(line)
    if found.start() > 0 and _FIELD.match(line):
        return _with_url(LineKind.FIELD, line, found.start())
    return _extra_content(line, found.start())


def holds_url(line: str) -> bool:
    """Whether a non-blank line counts as a URL of the file: a URL, maybe a broken one or
    with more on the line (not a comment, a heading, markup or a robots.txt line)."""
    return _holds_url(line.strip())


def _holds_url(stripped: str) -> bool:
    if _HTTP.match(stripped):
        return True  # a URL, maybe with more after it
    verdict = _classify(stripped)
    return verdict is None or verdict.kind == LineKind.EXTRA


def _markup(line: str) -> LineVerdict:
    found = _HTTP.search(line)
    return (
        LineVerdict(LineKind.MARKUP)
        if found is None
        else _with_url(LineKind.MARKUP, line, found.start())
    )


def _plain_text(line: str) -> LineVerdict | None:
    if _FIELD.match(line):
        return LineVerdict(LineKind.FIELD)
    if _HEADING.match(line):
        return LineVerdict(LineKind.HEADING)
    if not any(char.isalnum() for char in line):
        return LineVerdict(LineKind.SEPARATOR)
    head, _, rest = line.partition(" ")
    if "\t" in head:
        head, _, rest = line.partition("\t")
    if rest.strip() and _WORD.match(head):
        return LineVerdict(LineKind.PROSE)
    return None


def _with_url(kind: str, line: str, start: int) -> LineVerdict:
    token = _URL_TOKEN.match(line, start)
    url = token.group() if token else ""
    return LineVerdict(kind, url, start)


def _extra_content(line: str, start: int) -> LineVerdict | None:
    """A URL with something around it: a bullet or quotes before, columns or more URLs
    after. None when the line is the URL alone (or a URL with a space in it)."""
    token = _URL_TOKEN.match(line, start)
    assert token is not None  # ``start`` is where "http" begins
    end = token.end()
    url = token.group()
    column = _COLUMN.search(line, start)  # (its value may stand past white space)
    if column is not None and column.start() < end:
        url = line[start : column.start()]
        end = column.start()
    else:
        column = None
    before = line[:start]
    after = line[end:]
    count = 1 + len(_NEXT_URL.findall(line, end))
    if not before and after:
        separated = after[0] == "\t" or column is not None
        if not separated and not _STARTS_WITH_VALUE.match(after.lstrip()) and count == 1:
            return None  # a space inside the URL: the URL rules report it
    if not before and not after:
        return None
    return LineVerdict(LineKind.EXTRA, url, start, before, after, count)


# -- checking ------------------------------------------------------------------------------


class TextChecker:
    """Checks the lines of one text sitemap, one at a time."""

    def __init__(
        self,
        options: Options,
        sink: FindingSink,
        facts: FileFacts | None,
        on_url: Callable[[str, int, int], None] | None = None,
        cut_short: Callable[[], bool] = lambda: False,
        name: str = "",
        replacements: Replacements | None = None,
    ):
        self.report = sink
        self.name = name  # the file's path or URL, for the end checks
        self.cut_short = cut_short  # whether the reader stopped before the end
        self.options = options
        self.on_url = on_url  # given each URL checked, with its line and column
        # The lines are checked until they gave MAX_FINDINGS findings.
        self.stop_at = sink.added + rules.MAX_FINDINGS
        self.facts = facts
        self.duplicates = DuplicateTracker()
        self.robots, self.scope = scope.for_file(options)
        self.scanner = LineScanner()
        self.urls = 0
        self.over_limit: tuple[int, int] | None = None
        self.stopped_at: tuple[int, int] | None = None
        self.file = FileContext(options, events.TEXT, "url", replacements=replacements)
        self.line_checks = calls(LINE, options.enabled)  # the checks of each line

    def check(self, texts: Iterable[str]) -> None:
        scanner = self.scanner
        for number, line in scanner.lines(texts, self.cut_short):
            self.check_line(number, line)
            if self.stopped_at is not None and self.over_limit is not None:
                scanner.counting = True  # nothing left to report: only count the rest
        self.urls += scanner.counted
        self.finish()

    def check_line(self, number: int, line: Line) -> None:
        text = line.text
        stripped = text.strip()
        if self.stopped_at is None and self.report.added >= self.stop_at:
            self.stopped_at = (number, text.index(stripped[0]) + 1)
        if self.stopped_at is not None:
            if _holds_url(stripped):
                self._count_line(number, text.index(stripped[0]) + 1)
            return
        column = text.index(stripped[0]) + 1
        verdict = _classify(stripped)
        if self.line_checks:
            event = TextLine(number, column, text, line.length, stripped, verdict)
            for call in self.line_checks:
                call(event, self.file, self.report)
        if verdict is None:
            self._check_url(stripped, number, column)
        elif verdict.kind == LineKind.EXTRA:
            self._check_url(verdict.url, number, column + verdict.offset)

    def _check_url(self, url: str, number: int, column: int) -> None:
        self._count(url, number, column)
        if self.on_url is not None:
            self.on_url(url, number, column)
        node = Node("", "URL", {}, number, column)
        node.text = url
        report = self.report
        parsed = urls.check_url(
            url,
            node,
            report,
            field="URL",
            replacements=self.file.replacements,
            base=self.options.sitemap_url,
        )
        if parsed is not None or _HTTP.match(url):  # else UR001 says what it is
            urls.check_escaped_twice(node, report, plain="text sitemap")
        if parsed is not None:
            self.scope.check(parsed, node, report)
            if self.robots is not None:
                self.robots.check(url, parsed, node, report)
        self.duplicates.check(url, node, report, remove="remove this line")

    def _count(self, url: str, number: int, column: int) -> None:
        self._count_line(number, column)
        if self.facts is not None:
            self.facts.add_url(url, number, column)

    def _count_line(self, number: int, column: int) -> None:
        self.urls += 1
        if self.urls == limits.MAX_ENTRIES + 1:
            self.over_limit = (number, column)

    def finish(self) -> None:
        report = self.report
        scanner = self.scanner
        record = TextRecord(self.name, scanner.blank, scanner.first_blank, self.stopped_at)
        end = FileEnd(events.TEXT, None, self.urls, self.over_limit, self.cut_short(), record)
        once(END, end, self.file, report, self.options.enabled)
        mixed = self.scope.finish()
        if mixed is not None:
            report.add(mixed)


def check_text(
    first: str,
    texts: Iterator[str],
    options: Options,
    sink: FindingSink,
    facts: FileFacts | None,
    name: str = "",
    on_url: Callable[[str, int, int], None] | None = None,
    cut_short: Callable[[], bool] = lambda: False,
    replacements: Replacements | None = None,
) -> int:
    """Check a text sitemap: ``first`` is its start, ``texts`` the rest of its text;
    ``name`` is the file's path or URL; ``on_url`` is given each URL checked, with its
    line and column; ``cut_short`` says at the end whether the reader stopped before
    it; ``replacements``: where its decoder replaced bytes (the URL rules'). Returns how
    many URLs it lists."""
    if facts is not None:
        facts.kind = "text"
    checker = TextChecker(options, sink, facts, on_url, cut_short, name, replacements)
    checker.check(_chain(first, texts))
    return checker.urls


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest
