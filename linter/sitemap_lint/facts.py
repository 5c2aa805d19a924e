"""What one checked file tells the checks across a set of files.

A file's checker fills a ``FileFacts`` when the run checks a set (several files,
an index's children, a robots.txt's sitemaps). URLs are kept as 64-bit hashes
with their line, never as strings, so a set of millions of URLs stays small.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sitemap_lint.domain.identity import normal_url

if TYPE_CHECKING:
    from hashlib import blake2b

    from sitemap_lint.rules.hreflang import Alternates


def url_hash(url: str) -> int:
    """A stable 64-bit hash of a URL, the same in every process (unlike ``hash``)."""
    return int.from_bytes(_blake2b()(url.encode("utf-8", "surrogatepass"), digest_size=8).digest())


# How many URLs not in normal form a file keeps the normal form of, for the messages.
NORMAL_FORMS_KEPT = 10_000


def _blake2b() -> type[blake2b]:
    # hashlib loads OpenSSL, a few milliseconds that single-file runs do not need.
    from hashlib import blake2b

    return blake2b


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
    alternates: list[Alternates] = field(default_factory=list)
    # The normal form (see ``normal_url``) of URLs written otherwise, by hash.
    normal_forms: dict[int, str] = field(default_factory=dict)
    _hashes: array[int] = field(default_factory=lambda: array("Q"))
    _positions: array[int] = field(default_factory=lambda: array("Q"))  # line << 32 | column
    _sorted: bool = False

    def add_url(self, url: str, line: int, column: int = 1) -> None:
        self.url_count += 1
        normal = normal_url(url)
        value = url_hash(normal)
        if normal != url and len(self.normal_forms) < NORMAL_FORMS_KEPT:
            self.normal_forms.setdefault(value, normal)
        self._hashes.append(value)
        self._positions.append(line << 32 | column)

    def add_lastmod(self, moment: datetime) -> None:
        if moment.tzinfo is None:  # a date without a zone: read as UTC
            moment = moment.replace(tzinfo=UTC)
        if self.newest_lastmod is None or moment > self.newest_lastmod:
            self.newest_lastmod = moment

    @property
    def hashes(self) -> array[int]:
        return self._hashes

    @property
    def positions(self) -> array[int]:
        """Where each hash's URL is: ``line << 32 | column``."""
        return self._positions

    def compact(self) -> None:
        """Sort the URL hashes, each once, with the position of its first occurrence (a
        duplicate in the same file is DU001's); the order lets the set use ``bisect``."""
        if self._sorted:
            return
        hashes, positions = self._hashes, self._positions
        order = sorted(range(len(hashes)), key=hashes.__getitem__)
        out_hashes, out_positions = array("Q"), array("Q")
        previous = None
        for index in order:
            value = hashes[index]
            if value == previous:
                continue
            previous = value
            out_hashes.append(value)
            out_positions.append(positions[index])
        self._hashes, self._positions, self._sorted = out_hashes, out_positions, True
