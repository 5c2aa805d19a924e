"""What one checked file tells the checks across a set of files.

A file's checker fills a ``FileFacts`` when the run checks a set (several files,
an index's children, a robots.txt's sitemaps). URLs are kept as 64-bit hashes
with their line, never as strings, so a set of millions of URLs stays small.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from datetime import datetime
from hashlib import blake2b


def url_hash(url: str) -> int:
    """A stable 64-bit hash of a URL, the same in every process (unlike ``hash``)."""
    return int.from_bytes(blake2b(url.encode("utf-8", "surrogatepass"), digest_size=8).digest())


@dataclass(frozen=True, slots=True)
class Child:
    """A sitemap an index lists: its URL as written, where, and its lastmod."""

    url: str
    line: int
    column: int
    lastmod: datetime | None = None


@dataclass
class FileFacts:
    """Collected while one file is checked; ``kind`` is what the file turned out to be:
    urlset, sitemapindex, text, rss, atom, robots, or '' when unknown or unreadable."""

    kind: str = ""
    url_count: int = 0
    # The newest lastmod of the file's entries (a urlset's pages, an index's sitemaps).
    newest_lastmod: datetime | None = None
    children: list[Child] = field(default_factory=list)
    # hreflang records (rules.hreflang.Alternates), checked across files by the set.
    alternates: list = field(default_factory=list)
    _hashes: array = field(default_factory=lambda: array("Q"))
    _lines: array = field(default_factory=lambda: array("L"))

    def add_url(self, url: str, line: int) -> None:
        self.url_count += 1
        self._hashes.append(url_hash(url))
        self._lines.append(line)

    def add_lastmod(self, moment: datetime) -> None:
        if self.newest_lastmod is None or moment > self.newest_lastmod:
            self.newest_lastmod = moment

    def sorted_urls(self) -> tuple[array, array]:
        """The URL hashes in ascending order, each once, with the line of its first
        occurrence; the order lets the set search them with ``bisect``."""
        hashes, lines = self._hashes, self._lines
        order = sorted(range(len(hashes)), key=hashes.__getitem__)
        out_hashes, out_lines = array("Q"), array("L")
        previous = None
        for index in order:
            value = hashes[index]
            if value == previous:
                continue  # a duplicate in the same file: DU001 reports it
            previous = value
            out_hashes.append(value)
            out_lines.append(lines[index])
        return out_hashes, out_lines
