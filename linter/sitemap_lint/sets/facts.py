"""What one checked file tells the checks across a set of files.

A file's checker fills a ``FileFacts`` when the run checks a set (several files,
an index's children, a robots.txt's sitemaps). URLs are kept as 64-bit hashes
with their line, never as strings, so a set of millions of URLs stays small.
"""

from __future__ import annotations

import sys
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache, partial
from itertools import accumulate, chain
from operator import methodcaller
from typing import TYPE_CHECKING

from sitemap_lint.domain.identity import normal_url
from sitemap_lint.model import XHTML_NS
from sitemap_lint.support.records import Frozen, Mutable

if TYPE_CHECKING:
    from hashlib import blake2b

    from sitemap_lint.model import EntryPointer, Node
    from sitemap_lint.rules.hreflang import Alternates


def url_hash(url: str) -> int:
    """A stable 64-bit hash of a URL, the same in every process (unlike ``hash``): its
    8-byte BLAKE2b digest. A copy of an empty hasher made once costs far less than a
    new one (whose keyword arguments are parsed) for each of millions of URLs."""
    hasher = _empty_hasher().copy()
    hasher.update(url.encode("utf-8", "surrogatepass"))
    return int.from_bytes(hasher.digest())


@cache
def _empty_hasher() -> blake2b:
    # hashlib loads OpenSSL, a few milliseconds that single-file runs do not need.
    from hashlib import blake2b

    return blake2b(digest_size=8)


def url_hashes(urls: Iterable[str]) -> array[int]:
    """``url_hash`` of each of ``urls``, every step in C: the digests joined and read as
    one array (whose items are in the machine's byte order, the digests big-endian)."""
    hashes = array("Q")
    hashes.frombytes(b"".join(map(_DIGEST, map(_new_hasher(), map(_ENCODE, urls)))))
    if sys.byteorder == "little":
        hashes.byteswap()
    return hashes


_ENCODE = methodcaller("encode", "utf-8", "surrogatepass")
_DIGEST = methodcaller("digest")


@cache
def _new_hasher() -> partial[blake2b]:
    from hashlib import blake2b

    return partial(blake2b, digest_size=8)


# A URL's hash names its slice of the hash space by its top bits.
HASH_SLICES = 16
_SLICE_SHIFT = 64 - (HASH_SLICES.bit_length() - 1)


# How many URLs not in normal form a file keeps the normal form of, for the messages.
NORMAL_FORMS_KEPT = 10_000


@dataclass(init=False, repr=False, eq=False, slots=True)
class Child(Frozen):
    """A sitemap an index lists: its URL as written, where, its lastmod, and the index of
    its entry (``model.loc_index``, read by ``FileFacts.pointer``; 0: none, as a
    robots.txt's lines)."""

    url: str
    line: int
    column: int
    lastmod: datetime | None = None
    index: int = 0

    def __init__(
        self,
        url: str,
        line: int,
        column: int,
        lastmod: datetime | None = None,
        index: int = 0,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "url", url)
        setattr_(self, "line", line)
        setattr_(self, "column", column)
        setattr_(self, "lastmod", lastmod)
        setattr_(self, "index", index)


@dataclass(init=False, repr=False, eq=False)
class FileFacts(Mutable):
    """Collected while one file is checked; ``kind`` is what the file turned out to be:
    urlset, sitemapindex, text, rss, atom, robots, or '' when unknown or unreadable."""

    kind: str = ""
    url_count: int = 0
    # The newest lastmod of the file's entries (a urlset's pages, an index's sitemaps).
    newest_lastmod: datetime | None = None
    children: list[Child] = field(default_factory=list)
    # hreflang records, checked across files by the set: the hreflang checker's
    # (rules.hreflang.AlternatesTable, compact), or any others.
    alternates: Sequence[Alternates] = field(default_factory=list)
    # The normal form (see ``normal_url``) of URLs written otherwise, by hash.
    normal_forms: dict[int, str] = field(default_factory=dict)
    # How the findings across files name the file's entries (None: it has no elements).
    pointer: EntryPointer | None = None
    # In the file's order (the positions a list until then: converting each of 50,000
    # large ints to an array's item costs more than keeping them), then (``compact``) by
    # slice of the hash space.
    _hashes: array[int] = field(default_factory=lambda: array("Q"))
    _positions: array[int] | list[int] = field(default_factory=list)  # line << 32 | column
    # Beside each position, the index of the URL's entry (``model.loc_index``, read by
    # ``pointer``; 0: none): an array from the start (a small int converts at once).
    _indexes: array[int] | list[int] = field(default_factory=lambda: array("Q"))
    # Once compacted: where each slice starts in ``_hashes``, and where the last ends.
    _slices: array[int] | None = None

    def __init__(
        self,
        kind: str = "",
        url_count: int = 0,
        newest_lastmod: datetime | None = None,
        children: list[Child] | None = None,
        alternates: Sequence[Alternates] | None = None,
        normal_forms: dict[int, str] | None = None,
        pointer: EntryPointer | None = None,
        _hashes: array[int] | None = None,
        _positions: array[int] | list[int] | None = None,
        _indexes: array[int] | list[int] | None = None,
        _slices: array[int] | None = None,
    ) -> None:
        self.kind = kind
        self.url_count = url_count
        self.newest_lastmod = newest_lastmod
        self.children = [] if children is None else children
        self.alternates = [] if alternates is None else alternates
        self.normal_forms = {} if normal_forms is None else normal_forms
        self.pointer = pointer
        self._hashes = array("Q") if _hashes is None else _hashes
        self._positions = [] if _positions is None else _positions
        self._indexes = array("Q") if _indexes is None else _indexes
        self._slices = _slices
        self._table: tuple[int, dict[int, tuple[int, int]]] | None = None  # first_listing's

    def add_url(
        self, url: str, line: int, column: int = 1, normal: str | None = None, index: int = 0
    ) -> None:
        """A URL of the file, where it stands; ``normal``: its ``normal_url``, if known;
        ``index``: its entry's (0: none)."""
        self.url_count += 1
        if normal is None:
            normal = normal_url(url)
        value = url_hash(normal)
        if normal != url and len(self.normal_forms) < NORMAL_FORMS_KEPT:
            self.normal_forms.setdefault(value, normal)
        self._hashes.append(value)
        self._positions.append(line << 32 | column)
        self._indexes.append(index)

    def add_urls(
        self, urls: Sequence[str], normals: Sequence[str], positions: Iterable[int], first: int
    ) -> None:
        """``add_url`` for each of ``urls`` in turn, given each one's normal form and its
        position (``line << 32 | column``), their entries' indexes counting from ``first``."""
        self.url_count += len(urls)
        hashes = url_hashes(normals)
        if normals is not urls:
            kept = self.normal_forms
            for url, normal, value in zip(urls, normals, hashes, strict=True):
                if normal != url and len(kept) < NORMAL_FORMS_KEPT:
                    kept.setdefault(value, normal)
        self._hashes.extend(hashes)
        self._positions.extend(positions)
        self._indexes.extend(range(first, first + len(urls)))

    def add_lastmod(self, moment: datetime) -> None:
        if moment.tzinfo is None:  # a date without a zone: read as UTC
            moment = moment.replace(tzinfo=UTC)
        if self.newest_lastmod is None or moment > self.newest_lastmod:
            self.newest_lastmod = moment

    @property
    def hashes(self) -> array[int]:
        return self._hashes

    @property
    def positions(self) -> Sequence[int]:
        """Where each hash's URL is: ``line << 32 | column``."""
        return self._positions

    @property
    def indexes(self) -> Sequence[int]:
        """The index of each hash's entry (``pointer``; 0: none)."""
        return self._indexes

    def compact(self) -> None:
        """Order the URL hashes by slice of the hash space (its top bits, ``HASH_SLICES``
        of them), each slice in the file's order, with their positions: the set compares
        one slice of every file at a time. Every step but one pass in Python runs in C
        (a file may list 50,000 URLs, a set thousands of files)."""
        if self._slices is not None:
            return
        hashes: list[list[int]] = [[] for _ in range(HASH_SLICES)]
        positions: list[list[int]] = [[] for _ in range(HASH_SLICES)]
        indexes: list[list[int]] = [[] for _ in range(HASH_SLICES)]
        add_hash = [part.append for part in hashes]
        add_position = [part.append for part in positions]
        add_index = [part.append for part in indexes]
        for value, position, index in zip(
            self._hashes, self._positions, self._indexes, strict=True
        ):
            part = value >> _SLICE_SHIFT
            add_hash[part](value)
            add_position[part](position)
            add_index[part](index)
        self._hashes = array("Q", chain.from_iterable(hashes))
        self._positions = array("Q", chain.from_iterable(positions))
        self._indexes = array("Q", chain.from_iterable(indexes))
        self._slices = array("Q", accumulate(map(len, hashes), initial=0))

    def hash_slice(self, part: int, parts: int = HASH_SLICES) -> Slice:
        """The compacted URL hashes in slice ``part`` of ``parts`` (a power of two) of the
        64-bit hash space, in the file's order, with their positions and entries' indexes."""
        positions, indexes = self._positions, self._indexes
        assert self._slices is not None and isinstance(positions, array), "compact() first"
        assert isinstance(indexes, array)  # compacted with the positions
        if parts == HASH_SLICES:
            low, high = self._slices[part], self._slices[part + 1]
            return self._hashes[low:high], positions[low:high], indexes[low:high]
        if parts < HASH_SLICES:
            width = HASH_SLICES // parts
            low, high = self._slices[part * width], self._slices[(part + 1) * width]
            return _in_file_order(self._hashes[low:high], positions[low:high], indexes[low:high])
        # Finer than the compacted slices (a cluster's partitions of a huge set).
        per = parts // HASH_SLICES
        low, high = self._slices[part // per], self._slices[part // per + 1]
        step = (1 << 64) // parts
        start, stop = part * step, (part + 1) * step
        hashes = self._hashes[low:high]
        kept = [at for at, value in enumerate(hashes) if start <= value < stop]
        return (
            array("Q", map(hashes.__getitem__, kept)),
            array("Q", map(positions[low:high].__getitem__, kept)),
            array("Q", map(indexes[low:high].__getitem__, kept)),
        )

    def first_listing(self, value: int) -> tuple[int, int] | None:
        """Where the URL of hash ``value`` is first listed (``line << 32 | column``) and the
        index of its entry, or None; the file's table of one slice is kept for the next
        lookup."""
        part = value >> _SLICE_SHIFT
        table = self._table
        if table is None or table[0] != part:
            hashes, positions, indexes = self.hash_slice(part)
            first = first_offsets(hashes)
            table = self._table = (
                part,
                {key: (positions[at], indexes[at]) for key, at in first.items()},
            )
        return table[1].get(value)


# A slice of a file's URL hashes (``FileFacts.hash_slice``): the hashes, their positions
# (``line << 32 | column``) and their entries' indexes (``FileFacts.pointer``).
Slice = tuple["array[int]", "array[int]", "array[int]"]


def _in_file_order(hashes: array[int], positions: array[int], indexes: array[int]) -> Slice:
    """Several compacted slices, each in the file's order, merged in the file's order: a
    file's positions grow from each URL to the next (the sort runs in C and merges the
    slices as the sorted runs they are)."""
    order = sorted(range(len(positions)), key=positions.__getitem__)
    return (
        array("Q", map(hashes.__getitem__, order)),
        array("Q", map(positions.__getitem__, order)),
        array("Q", map(indexes.__getitem__, order)),
    )


def first_offsets(hashes: array[int]) -> dict[int, int]:
    """Each hash of a slice (in the file's order) with the offset of its first listing."""
    return dict(zip(reversed(hashes), range(len(hashes) - 1, -1, -1), strict=True))


def sorted_first_listings(piece: Slice) -> Slice:
    """The distinct hashes of a slice (in the file's order) sorted, each with the
    position and entry's index of its first listing (for ``bisect``)."""
    hashes, positions, indexes = piece
    first = first_offsets(hashes)
    ordered = sorted(first)
    offsets = list(map(first.__getitem__, ordered))
    return (
        array("Q", ordered),
        array("Q", map(positions.__getitem__, offsets)),
        array("Q", map(indexes.__getitem__, offsets)),
    )


CHANGEFREQS = frozenset(("always", "hourly", "daily", "weekly", "monthly", "yearly", "never"))
NONE = "none"  # the field is missing
INVALID = "invalid"  # the field is there but not a value the protocol allows
OTHER = "other"  # a distinct value past STATS_KEYS
STATS_KEYS = 400  # distinct values counted per field; the rest count as OTHER
STATS_KEY_LENGTH = 35  # a hreflang code longer than this (BCP 47's usual maximum) is cut


@dataclass(init=False, repr=False, eq=False)
class FileStats(Mutable):
    """What a file's entries look like, counted: the HTML report's charts. Filled only
    when ``Options.stats`` asks for it (``--format html``), kept on the result after a set
    run drops the facts. Counters of distinct values, never lists of entries: the
    values are normalised (a month, a changefreq keyword, a priority to one decimal) and
    each counter keeps at most ``STATS_KEYS`` keys, so a file of millions of entries or of
    hostile values costs a few kilobytes."""

    size: int | None = None  # bytes read, uncompressed
    # A urlset's entries: per lastmod month ("2025-06"; NONE, INVALID), per changefreq
    # keyword and per priority ("0.5"), and per hreflang code, the entries that list it.
    months: Counter[str] = field(default_factory=Counter)
    changefreqs: Counter[str] = field(default_factory=Counter)
    priorities: Counter[str] = field(default_factory=Counter)
    hreflangs: Counter[str] = field(default_factory=Counter)

    def __init__(
        self,
        size: int | None = None,
        months: Counter[str] | None = None,
        changefreqs: Counter[str] | None = None,
        priorities: Counter[str] | None = None,
        hreflangs: Counter[str] | None = None,
    ) -> None:
        self.size = size
        self.months = Counter() if months is None else months
        self.changefreqs = Counter() if changefreqs is None else changefreqs
        self.priorities = Counter() if priorities is None else priorities
        self.hreflangs = Counter() if hreflangs is None else hreflangs

    def add_entry(self, found: dict[str, Node], moment: datetime | None, entry: Node) -> None:
        """One ``<url>``: its core fields as the structure check found them, the moment of
        its lastmod (None when missing or unreadable) and the entry for its xhtml:links."""
        codes: Iterable[str] = ()
        if len(found) != len(entry.children):  # more than the core fields
            codes = [
                child.attrs["hreflang"]
                for child in entry.children
                if child.name == "link" and child.ns == XHTML_NS and child.attrs.get("hreflang")
            ]
        lastmod, changefreq, priority = map(found.get, ("lastmod", "changefreq", "priority"))
        self.add_values(
            moment,
            None if lastmod is None else lastmod.text,
            None if changefreq is None else changefreq.text,
            None if priority is None else priority.text,
            codes,
        )

    def add_values(
        self,
        moment: datetime | None,
        lastmod: str | None,
        changefreq: str | None,
        priority: str | None,
        codes: Iterable[str],
    ) -> None:
        """One ``<url>`` by its values (None: the field is missing) and the hreflang
        codes of its xhtml:links, as the parser reads them (the fast path's entries too)."""
        if moment is not None:
            month = f"{moment.year:04d}-{moment.month:02d}"
        else:
            month = NONE if lastmod is None or not lastmod.strip() else INVALID
        _count(self.months, month)
        _count(self.changefreqs, _changefreq(changefreq) if changefreq is not None else NONE)
        _count(self.priorities, _priority(priority) if priority is not None else NONE)
        # In their order: a file's distinct codes past STATS_KEYS count as OTHER.
        for code in sorted({code.strip()[:STATS_KEY_LENGTH] for code in codes}):
            if code:
                _count(self.hreflangs, code)


def _count(counter: Counter[str], key: str) -> None:
    if key in counter or len(counter) < STATS_KEYS:
        counter[key] += 1
    else:
        counter[OTHER] += 1


def _changefreq(text: str) -> str:
    value = text.strip().lower()
    return value if value in CHANGEFREQS else (NONE if not value else INVALID)


def _priority(text: str) -> str:
    value = text.strip()
    if not value:
        return NONE
    try:
        number = float(value)
    except ValueError:
        return INVALID
    if not 0.0 <= number <= 1.0:  # also NaN
        return INVALID
    return f"{number:.1f}"
