"""The source lines of findings, read again after the check for the text report.

The input is read a second time, through the same ``ByteStream`` and ``Decoder`` the
checker used (gzip undone, the same caps, the same codec and replacement of invalid
bytes), so lines and columns are the checker's: lines are broken at CR LF, CR or LF
(as XML counts them), columns are 1-based characters of the decoded text, and a
byte order mark is not part of the first line. Only the wanted lines are kept, and
of a long line only the characters around the wanted columns: memory stays flat
however large the file.

This module imports no parser and no rule when loaded (reporters import
``SourceLine``); reading a file loads the input layer.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from itertools import islice
from typing import TYPE_CHECKING

from sitemap_lint.support.records import NamedTuple

if TYPE_CHECKING:
    from sitemap_lint.inputs.reader import Source

# A line up to this many characters is kept (and shown) whole.
WHOLE_LINE = 120
# Of a longer line, this many characters before and after a wanted column.
AROUND = 60

_BREAK = re.compile(r"\r\n|\r|\n")


class SourceLine(NamedTuple):
    """What is kept of one line: its ``length`` in characters (without the line
    break) and ``pieces``, each the text from a 1-based column on (in order, not
    overlapping). A line of up to ``WHOLE_LINE`` characters is one piece, whole."""

    length: int
    pieces: tuple[tuple[int, str], ...]

    def text(self, first: int, last: int) -> str:
        """The kept characters of columns ``first`` to ``last`` (1-based, inclusive)."""
        for start, text in self.pieces:
            if start <= first < start + len(text):
                return text[first - start : last - start + 1]
        return ""


def read_lines(source: Source, wanted: Mapping[int, Iterable[int]]) -> dict[int, SourceLine]:
    """The lines of ``source`` numbered in ``wanted`` (line -> its wanted columns).

    Returns what could be read; a source that cannot be read again gives no lines.
    """
    from sitemap_lint.engine.dispatch import InputChecks
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.inputs.decoding import Decoder
    from sitemap_lint.inputs.reader import ByteStream, InputError

    if not wanted:
        return {}
    collector = _Collector(wanted)
    stream = ByteStream(source, InputChecks(FindingList()))
    try:
        for text in Decoder(InputChecks(FindingList()), keep_leading=True).decode(stream.chunks()):
            if collector.feed(text):
                break
    except (InputError, OSError):
        pass
    return collector.lines()


def _ranges(columns: Iterable[int]) -> list[tuple[int, int]]:
    """The 1-based inclusive column ranges to keep of a line: its start (a short line
    whole) and around each wanted column, merged."""
    spans = sorted([(1, WHOLE_LINE + 1), *((max(c - AROUND, 1), c + AROUND) for c in columns)])
    merged: list[tuple[int, int]] = []
    for first, last in spans:
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


class _Collector:
    """Follows the decoded text chunk by chunk and keeps the wanted parts of lines."""

    def __init__(self, wanted: Mapping[int, Iterable[int]]):
        self.columns = wanted  # the wanted columns of each wanted line
        self.wanted = sorted(wanted)
        self.last = self.wanted[-1]
        self.line = 1  # the line the next character belongs to
        self.column = 1  # ... and its column
        self.pending_cr = False  # the last chunk ended with CR (its LF may come next)
        self.parts: dict[int, list[tuple[int, str]]] = {}
        # The short lines read whole within one chunk, as they are shown.
        self.whole: dict[int, SourceLine] = {}
        self.lengths: dict[int, int] = {}
        # The ranges of the line being read (``_ranges``), worked out once: a long line
        # comes in many chunks, and may want a column for each of many findings.
        self.spans: tuple[int, list[tuple[int, int]]] | None = None

    def feed(self, text: str) -> bool:
        """Take the next chunk; True once every wanted line is complete."""
        if self.pending_cr and text.startswith("\n"):
            text = text[1:]  # the LF of a CR LF split between chunks: no new line
        if not text:
            return False
        self.pending_cr = text.endswith("\r")
        breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
        first = self.line
        low = bisect_left(self.wanted, first)
        high = bisect_right(self.wanted, first + breaks)
        if low == high:  # no wanted line here
            self._skip(text, breaks)
        elif "\r" not in text:
            # Only the wanted lines are looked at (a finding on every fifth line of a
            # 10 MB file wants 50,000 of them).
            segments = text.split("\n")
            column = self.column
            whole = self.whole
            last = first + breaks  # the line the chunk ends in: maybe not at its end
            for line in self.wanted[low:high]:
                segment = segments[line - first]
                if line != last and (line != first or column == 1) and len(segment) <= WHOLE_LINE:
                    whole[line] = SourceLine(len(segment), ((1, segment),))
                    continue
                self.line = line
                self.column = column if line == first else 1
                self._keep(segment)
            self.line = first + breaks
            self.column = column + len(text) if not breaks else len(segments[-1]) + 1
        else:
            segments = _BREAK.split(text)
            for index, segment in enumerate(segments):
                if index:
                    self.line += 1
                    self.column = 1
                if self.line in self.columns:
                    self._keep(segment)
                self.column += len(segment)
        return self.line > self.last

    def _skip(self, text: str, breaks: int) -> None:
        if breaks:
            self.line += breaks
            last = max(text.rfind("\n"), text.rfind("\r"))
            self.column = len(text) - last
        else:
            self.column += len(text)

    def _keep(self, segment: str) -> None:
        first = self.column
        last = first + len(segment) - 1
        self.lengths[self.line] = last
        parts = self.parts.setdefault(self.line, [])
        if first == 1 and last <= WHOLE_LINE:  # a short line (or its start): kept whole
            parts.append((1, segment))
            return
        if self.spans is None or self.spans[0] != self.line:
            self.spans = (self.line, _ranges(self.columns[self.line]))
        spans = self.spans[1]
        # The ranges are merged, so in order of both ends: the first one this chunk
        # reaches, and those after it up to the chunk's end.
        for low, high in islice(spans, max(bisect_left(spans, (first + 1,)) - 1, 0), None):
            if low > last:
                break
            start, end = max(low, first), min(high, last)
            if start <= end:
                parts.append((start, segment[start - first : end - first + 1]))

    def lines(self) -> dict[int, SourceLine]:
        found = self.whole
        for line, length in self.lengths.items():
            # The parts that follow one another (a range read in several chunks) are
            # joined once each.
            runs: list[tuple[int, list[str]]] = []
            end = 0
            for start, text in self.parts.get(line, []):
                if runs and end == start:
                    runs[-1][1].append(text)
                else:
                    runs.append((start, [text]))
                end = start + len(text)
            pieces = tuple((start, "".join(texts)) for start, texts in runs)
            found[line] = SourceLine(length, pieces)
        return found
