"""The comparison of two sides: what was added, removed, moved and changed.

Each side's entries become columns (numpy arrays: a hash, a lastmod, a priority... an
entry), and the sides are joined by URL hash with sorted set operations, so that a side
of ten million URLs costs a few hundred megabytes and a few seconds, not a table of
Python objects. The URLs shown (the first ones of each kind, in the order of the
files) are read back from their files' compressed text by their place.

numpy is imported here only, by ``sitemap-lint diff``: it does these joins in C.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sitemap_lint.diff import places
from sitemap_lint.diff.hashing import url_hashes
from sitemap_lint.diff.listing import (
    CHANGEFREQS,
    NO_LASTMOD,
    ORIGIN_AND_REST,
    Listing,
    normal_joined,
)
from sitemap_lint.diff.sides import Side
from sitemap_lint.domain.identity import normal_url

RECENT_SECONDS = 3600  # a lastmod this close to the run's time is "now"
# The sides are joined one slice of the hash space at a time (a sixteenth of the entries
# held twice at once, not all of them), and their columns scanned in chunks.
SLICE_BITS = 4
SLICE_SHIFT = 64 - SLICE_BITS
CHUNK = 1 << 20
JOIN_THREADS = 2


@dataclass(eq=False)
class Shown:
    """A URL the report shows, with the file (its place) that lists it, or two places for
    a URL that moved."""

    url: str
    place: str
    other: str = ""


@dataclass(eq=False)
class Backdated:
    """A URL whose lastmod moved back, with the file (its place) that lists it now and
    its old and new lastmods (UTC seconds)."""

    url: str
    place: str
    old: int
    new: int


@dataclass(eq=False)
class Rewrite:
    """URLs removed that the new side lists written otherwise, one way (``how``): how
    many, and the first of them as each side writes it."""

    how: str
    count: int
    old: str
    new: str


@dataclass(eq=False)
class Changes:
    """What changed from the old side to the new one."""

    old_urls: int = 0
    new_urls: int = 0
    old_files: int = 0
    new_files: int = 0
    added: int = 0
    removed: int = 0
    common: int = 0
    moved: int = 0
    added_shown: list[Shown] = field(default_factory=list)
    removed_shown: list[Shown] = field(default_factory=list)
    moved_shown: list[Shown] = field(default_factory=list)
    children_added: list[str] = field(default_factory=list)
    children_removed: list[str] = field(default_factory=list)
    old_children: int = 0  # sitemaps the old side's indexes (and robots.txt) list
    # (old origin, new origin, URLs whose path and query now stand on the new origin)
    origins: list[tuple[str, str, int]] = field(default_factory=list)
    # URLs removed that the new side lists written otherwise: a trailing slash added or
    # dropped, the path's case changed, the query's parameters reordered
    rewrites: list[Rewrite] = field(default_factory=list)
    # (section, URLs) of the URLs removed and added, most first: a section is an
    # origin's first directory (``https://example.com/blog/``), or its pages at the top
    # (``https://example.com/``)
    sections_removed: list[tuple[str, int]] = field(default_factory=list)
    sections_added: list[tuple[str, int]] = field(default_factory=list)
    lastmod_changed: int = 0  # URLs on both sides whose lastmod changed
    lastmod_earlier: int = 0  # of those, the URLs whose new lastmod is before the old one
    lastmod_dropped: int = 0  # of those, the URLs that no longer carry one
    earlier_shown: list[Backdated] = field(default_factory=list)  # the first of those
    # The new side's most common lastmod (UTC seconds) and how many entries carry it,
    # when at least two do (a lastmod one entry carries is shared with none).
    same_moment: tuple[int, int] | None = None
    recent: int = 0  # new entries whose lastmod is at most an hour before the run's time (or later)
    with_lastmod: int = 0  # new entries with a lastmod
    priority_changed: int = 0
    changefreq_changed: int = 0
    # The most common changes of value (the first --show): (old, new, URLs)
    priority_changes: list[tuple[str, str, int]] = field(default_factory=list)
    changefreq_changes: list[tuple[str, str, int]] = field(default_factory=list)
    alternates: int = 0  # the new side's hreflang alternates (xhtml:link with an href)
    hreflang_broken: int = 0  # new alternates naming a URL the new side no longer lists
    hreflang_shown: list[Shown] = field(default_factory=list)
    # (place, added, removed) of each file with either
    by_file: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def old_distinct(self) -> int:
        """The old side's URLs, each once (``old_urls`` counts entries, a URL listed
        twice twice): what a share of the old URLs is of."""
        return self.common + self.removed


class _Flat:
    """A side's URL entries as columns (numpy arrays, one item an entry, in the sides'
    order): each entry's file number, hash, lastmod, priority and changefreq; the files
    keep their compressed text, read back for the URLs shown and those that changed."""

    def __init__(self, side: Side, numbers: list[int]) -> None:
        kept = [f.listing.kind in ("urlset", "text") for f in side.files]
        self.files = [f for f, keep in zip(side.files, kept, strict=True) if keep]
        listings = [f.listing for f in self.files]
        counts = [len(listing) for listing in listings]
        self.starts = np.concatenate(([0], np.cumsum(counts, dtype=np.int64)))
        self.total = int(self.starts[-1])
        self.hashes = _column(side, listings, "hashes", np.uint64)
        self.lastmods = _column(side, listings, "lastmods", np.int64)
        self.priorities = _column(side, listings, "priorities", np.int16)
        self.changefreqs = _column(side, listings, "changefreqs", np.uint8)
        self.alternate_entries = np.concatenate(
            [
                np.frombuffer(listing.alternate_pages, dtype=np.uint32).astype(np.int64) + start
                for listing, start in zip(listings, self.starts, strict=False)
            ]
            or [np.zeros(0, np.int64)]
        )
        self.alternate_hrefs = _joined(listings, "alternate_hrefs", np.uint64)
        # Each file's number (``places.numbers``), shared by the file it is paired with on
        # the other side.
        self.file_numbers = [n for n, keep in zip(numbers, kept, strict=True) if keep]
        self.paired = np.array(self.file_numbers, dtype=np.uint32)
        self._text: dict[int, list[str]] = {}

    def numbers(self, indexes: NDArray[np.int64]) -> NDArray[np.int64]:
        """The file number of each entry of ``indexes``."""
        return np.searchsorted(self.starts, indexes, side="right") - 1

    def place(self, index: int) -> str:
        return self.files[self._number(index)].place

    def _number(self, index: int) -> int:
        return int(self.numbers(np.array([index], dtype=np.int64))[0])

    def url(self, index: int) -> str:
        number = self._number(index)
        text = self._text.get(number)
        if text is None:
            text = self._text[number] = self.files[number].listing.url_text()
        return text[index - int(self.starts[number])]

    def origins_and_rests(self, indexes: NDArray[np.int64]) -> tuple[list[str], list[str]]:
        """The origin and the rest (path, query, fragment) of each entry of ``indexes``
        (in increasing order), read back from the files' text, in the URLs' normal form (a
        lower-case origin without its default port, ``/`` for no path)."""
        origins: list[str] = []
        rests: list[str] = []
        numbers = self.numbers(indexes)
        groups = np.split(indexes, np.flatnonzero(np.diff(numbers)) + 1) if len(indexes) else []
        for group in groups:
            number = int(self.numbers(group[:1])[0])
            rows = group - self.starts[number]
            text = normal_joined(_rows(self.files[number].listing, rows), len(rows))
            split = ORIGIN_AND_REST.findall(text.decode("utf-8", "surrogatepass"))
            origins.extend(origin.lower() for origin, _rest in split)
            rests.extend(rest or "/" for _origin, rest in split)
        return origins, rests

    def slices(self) -> NDArray[np.uint8]:
        """Each entry's slice of the hash space (the hash's top bits)."""
        return np.concatenate(
            [
                (self.hashes[start : start + CHUNK] >> np.uint64(SLICE_SHIFT)).astype(np.uint8)
                for start in range(0, self.total, CHUNK)
            ]
            or [np.zeros(0, np.uint8)]
        )

    def first_listings(
        self, inside: NDArray[np.bool_]
    ) -> tuple[NDArray[np.uint64], NDArray[np.int64]]:
        """Each URL hash of the entries ``inside`` marks once, sorted, with the index of
        its first entry."""
        indexes = np.flatnonzero(inside)
        hashes = self.hashes[indexes]
        order = np.argsort(hashes, kind="stable")
        hashes = hashes[order]
        first = np.ones(len(hashes), dtype=bool)
        np.not_equal(hashes[1:], hashes[:-1], out=first[1:])
        return hashes[first], indexes[order[first]]


def _rows(listing: Listing, rows: NDArray[np.int64]) -> bytes:
    """The URLs of a file's ``rows`` (in increasing order), joined by line breaks (UTF-8):
    only they are taken, found by the line breaks of the file's text."""
    text = zlib.decompress(listing.urls)
    breaks = np.flatnonzero(np.frombuffer(text, dtype=np.uint8) == ord("\n"))
    if len(breaks) != len(listing) - 1:  # a URL holding a line break: the file's lines
        lines = listing.url_text()
        return "\n".join(lines[row] for row in rows.tolist()).encode("utf-8", "surrogatepass")
    starts = np.concatenate(([0], breaks + 1))[rows].tolist()
    ends = np.concatenate((breaks, [len(text)]))[rows].tolist()
    return b"\n".join([text[start:end] for start, end in zip(starts, ends, strict=True)])


def _column(side: Side, listings: list[Listing], name: str, dtype: type) -> NDArray[Any]:
    """One column of every listing, joined (read back from the side's column store)."""
    if all(listing.stored >= 0 for listing in listings):
        itemsize = np.dtype(dtype).itemsize
        return np.frombuffer(side.store.column(listings, name, itemsize), dtype=dtype)
    return _joined(listings, name, dtype)


def _joined(listings: list[Listing], name: str, dtype: type) -> NDArray[Any]:
    """One column of every listing, joined from the listings' own arrays."""
    parts: list[NDArray[Any]] = [
        np.frombuffer(getattr(listing, name).tobytes(), dtype=dtype) for listing in listings
    ]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def compare(old: Side, new: Side, now: datetime, show: int) -> Changes:
    """What changed from ``old`` to ``new``; ``show``: how many URLs of each kind to name."""
    old_numbers, new_numbers = places.numbers(old.files, new.files)
    before, after = _Flat(old, old_numbers), _Flat(new, new_numbers)
    changes = Changes(
        old_urls=before.total,
        new_urls=after.total,
        old_files=len(old.files),
        new_files=len(new.files),
    )
    _children(old, new, changes)
    gone, came, removed_hashes = _join(before, after, changes, show, int(now.timestamp()))
    changes.removed, changes.added = len(gone), len(came)
    changes.removed_shown = [Shown(before.url(int(i)), before.place(int(i))) for i in gone[:show]]
    changes.added_shown = [Shown(after.url(int(j)), after.place(int(j))) for j in came[:show]]
    # The URLs removed and added, read back to pair them and to count them by section.
    old_urls = before.origins_and_rests(gone) if len(gone) else ([], [])
    new_urls = after.origins_and_rests(came) if len(came) else ([], [])
    changes.sections_removed = _sections(old_urls)
    changes.sections_added = _sections(new_urls)
    if len(gone) and len(came):
        changes.origins = _origins(old_urls, new_urls)
        changes.rewrites = _rewrites(before, after, gone, came, old_urls, new_urls)
    _lastmods(after, now, changes)
    _hreflang(after, removed_hashes, changes, show)
    removed_by_file = np.bincount(before.numbers(gone), minlength=len(before.files))
    added_by_file = np.bincount(after.numbers(came), minlength=len(after.files))
    # Counted by file paired across the sides, named as the new side names it.
    names = dict(zip(before.file_numbers, (f.place for f in before.files), strict=True))
    names.update(zip(after.file_numbers, (f.place for f in after.files), strict=True))
    by_number: dict[int, list[int]] = {}
    for number, count in zip(after.file_numbers, added_by_file.tolist(), strict=True):
        if count:
            by_number.setdefault(number, [0, 0])[0] += count
    for number, count in zip(before.file_numbers, removed_by_file.tolist(), strict=True):
        if count:
            by_number.setdefault(number, [0, 0])[1] += count
    changes.by_file = sorted((names[n], a, r) for n, (a, r) in by_number.items())
    return changes


@dataclass(eq=False)
class _Slice:
    """One slice of the hash space joined: the first entries of the URLs removed and
    added, the hashes removed, what changed among the URLs on both sides, and the first
    entries that moved to another file (old and new indexes, by old index)."""

    gone: NDArray[np.int64]
    came: NDArray[np.int64]
    removed: NDArray[np.uint64]
    # common; lastmod, priority, changefreq changed; moved; lastmod earlier, dropped
    counts: NDArray[np.int64]
    moved_old: NDArray[np.int64]
    moved_new: NDArray[np.int64]
    earlier_old: NDArray[np.int64]  # the first entries whose lastmod moved back, by new index
    earlier_new: NDArray[np.int64]
    # The changes of priority and of changefreq, each (old << 16 | new) with its count
    priority_pairs: tuple[NDArray[np.int64], NDArray[np.int64]]
    changefreq_pairs: tuple[NDArray[np.int64], NDArray[np.int64]]


def _join(
    before: _Flat, after: _Flat, changes: Changes, show: int, now: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.uint64]]:
    """The sides joined by URL hash, slice by slice (two at a time: numpy's sorts and
    searches leave the interpreter free): the first entries of the URLs removed and of
    those added (their indexes, each in its side's order) and the hashes removed; the
    entries on both sides are compared into ``changes``."""
    old_slices, new_slices = before.slices(), after.slices()

    def join(number: int) -> _Slice:
        return _join_slice(before, after, old_slices == number, new_slices == number, show, now)

    with ThreadPoolExecutor(JOIN_THREADS, thread_name_prefix="sitemap-lint-join") as threads:
        slices = list(threads.map(join, range(1 << SLICE_BITS)))
    counts = np.sum([part.counts for part in slices], axis=0).tolist()
    changes.common, changes.lastmod_changed, changes.priority_changed = counts[:3]
    changes.changefreq_changed, changes.moved, changes.lastmod_earlier = counts[3:6]
    changes.lastmod_dropped = counts[6]
    changes.priority_changes = _transitions(
        [part.priority_pairs for part in slices], _priority_text, show
    )
    changes.changefreq_changes = _transitions(
        [part.changefreq_pairs for part in slices], _changefreq_text, show
    )
    moved_old = np.concatenate([part.moved_old for part in slices])
    moved_new = np.concatenate([part.moved_new for part in slices])
    order = np.argsort(moved_old, kind="stable")[:show]
    changes.moved_shown = [
        Shown(after.url(int(j)), before.place(int(i)), after.place(int(j)))
        for i, j in zip(moved_old[order], moved_new[order], strict=True)
    ]
    earlier_old = np.concatenate([part.earlier_old for part in slices])
    earlier_new = np.concatenate([part.earlier_new for part in slices])
    order = np.argsort(earlier_new, kind="stable")[:show]
    changes.earlier_shown = [
        Backdated(
            after.url(int(j)),
            after.place(int(j)),
            int(before.lastmods[int(i)]),
            int(after.lastmods[int(j)]),
        )
        for i, j in zip(earlier_old[order], earlier_new[order], strict=True)
    ]
    return (
        np.sort(np.concatenate([part.gone for part in slices])),
        np.sort(np.concatenate([part.came for part in slices])),
        np.concatenate([part.removed for part in slices]),
    )


def _in_file(hashes: NDArray[np.uint64], files: NDArray[np.uint32]) -> NDArray[np.uint64]:
    """A URL's hash and the number of a file listing it as one number (a file's number
    mixed in by a large odd multiplier: two pairs meet by chance as two hashes do)."""
    return hashes ^ (files.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))


def _transitions(
    parts: list[tuple[NDArray[np.int64], NDArray[np.int64]]],
    text: Callable[[int], str],
    show: int,
) -> list[tuple[str, str, int]]:
    """The ``show`` most common changes of a value (old, new, URLs), from the slices'
    counts of each (old << 16 | new); ties by the values' order."""
    pairs = np.concatenate([p for p, _counts in parts])
    if not len(pairs):
        return []
    every, inverse = np.unique(pairs, return_inverse=True)
    totals = np.bincount(inverse, weights=np.concatenate([c for _p, c in parts]))
    order = np.lexsort((every, -totals))[:show]
    return [
        (text(int(every[i]) >> 16), text(int(every[i]) & 0xFFFF), int(totals[i]))
        for i in order.tolist()
    ]


def _priority_text(value: int) -> str:
    """A priority kept in thousandths, offset by one past NO_PRIORITY: ``0.8``, or
    ``none`` (absent or not a priority)."""
    return "none" if value == 0 else f"{(value - 1) / 1000:g}"


def _changefreq_text(value: int) -> str:
    """A changefreq kept as 1 + its place in CHANGEFREQS: ``daily``, ``none`` (absent),
    or ``another word``."""
    if value == 0:
        return "none"
    return CHANGEFREQS[value - 1] if value <= len(CHANGEFREQS) else "another word"


def _join_slice(
    before: _Flat,
    after: _Flat,
    old_in: NDArray[np.bool_],
    new_in: NDArray[np.bool_],
    show: int,
    now: int,
) -> _Slice:
    """The entries of one slice (``old_in`` and ``new_in`` mark them) joined; ``now``:
    the run's time (UTC seconds)."""
    old_hashes, old_first = before.first_listings(old_in)
    new_hashes, new_first = after.first_listings(new_in)
    at = np.searchsorted(old_hashes, new_hashes)
    found = np.zeros(len(new_hashes), dtype=bool)
    inside = at < len(old_hashes)
    found[inside] = old_hashes[at[inside]] == new_hashes[inside]
    kept_old = np.zeros(len(old_hashes), dtype=bool)
    kept_old[at[found]] = True
    old_common, new_common = old_first[at[found]], new_first[found]
    old_lastmods, new_lastmods = before.lastmods[old_common], after.lastmods[new_common]
    # NO_LASTMOD is the least value: a lastmod dropped is no move back; nor is one set
    # back from the future (after the run's time: DT005), which fixes it.
    earlier = (new_lastmods < old_lastmods) & (new_lastmods != NO_LASTMOD) & (old_lastmods <= now)
    old_priorities = before.priorities[old_common].astype(np.int64)
    new_priorities = after.priorities[new_common].astype(np.int64)
    old_changefreqs = before.changefreqs[old_common].astype(np.int64)
    new_changefreqs = after.changefreqs[new_common].astype(np.int64)
    priority_moved = old_priorities != new_priorities
    changefreq_moved = old_changefreqs != new_changefreqs
    changed = [
        np.count_nonzero(old_lastmods != new_lastmods),
        np.count_nonzero(priority_moved),
        np.count_nonzero(changefreq_moved),
    ]
    # Each change of value as one number: (old << 16) | new, the priority's offset past
    # NO_PRIORITY (-1), counted by value.
    priority_pairs = np.unique(
        ((old_priorities[priority_moved] + 1) << 16) | (new_priorities[priority_moved] + 1),
        return_counts=True,
    )
    changefreq_pairs = np.unique(
        (old_changefreqs[changefreq_moved] << 16) | new_changefreqs[changefreq_moved],
        return_counts=True,
    )
    old_files = before.paired[before.numbers(old_common)]
    elsewhere = old_files != after.paired[after.numbers(new_common)]
    if np.any(elsewhere):  # moved, unless the file it was in still lists it too
        listed = np.flatnonzero(new_in)
        new_pairs = _in_file(after.hashes[listed], after.paired[after.numbers(listed)])
        moved = np.flatnonzero(elsewhere)
        old_pairs = _in_file(before.hashes[old_common[moved]], old_files[moved])
        elsewhere[moved[np.isin(old_pairs, new_pairs)]] = False
    moved_old, moved_new = old_common[elsewhere], new_common[elsewhere]
    order = np.argsort(moved_old, kind="stable")[:show]
    earlier_old, earlier_new = old_common[earlier], new_common[earlier]
    back = np.argsort(earlier_new, kind="stable")[:show]
    return _Slice(
        old_first[~kept_old],
        new_first[~found],
        old_hashes[~kept_old],
        np.array(
            [
                len(old_common),
                *changed,
                len(moved_old),
                np.count_nonzero(earlier),
                np.count_nonzero((new_lastmods == NO_LASTMOD) & (old_lastmods != NO_LASTMOD)),
            ],
            dtype=np.int64,
        ),
        moved_old[order],
        moved_new[order],
        earlier_old[back],
        earlier_new[back],
        priority_pairs,
        changefreq_pairs,
    )


Split = tuple[list[str], list[str]]  # URLs' origins and rests (``_Flat.origins_and_rests``)


def _origins(old_urls: Split, new_urls: Split) -> list[tuple[str, str, int]]:
    """Removed URLs whose path and query now stand on another origin: a migration. A
    URL is paired with one added on its host (the scheme changed) or its host with or
    without ``www.`` first, else with the first one added with its path and query."""
    gone_origins, gone_rests = old_urls
    came_origins, came_rests = new_urls
    found, matched = _match(_sited(gone_origins, gone_rests), _sited(came_origins, came_rests))
    unpaired = np.ones(len(gone_rests), dtype=bool)
    unpaired[found] = False
    loose = np.flatnonzero(unpaired)
    also, also_matched = _match(_hashes(gone_rests)[loose], _hashes(came_rests))
    named: dict[tuple[str, str], int] = {}
    pairs = zip(
        [*found.tolist(), *loose[also].tolist()],
        [*matched.tolist(), *also_matched.tolist()],
        strict=True,
    )
    for old_at, new_at in pairs:
        key = (gone_origins[old_at], came_origins[new_at])
        if key[0] != key[1]:
            named[key] = named.get(key, 0) + 1
    return [(a, b, n) for (a, b), n in sorted(named.items(), key=lambda item: (-item[1], item[0]))]


def _sections(urls: Split) -> list[tuple[str, int]]:
    """The URLs of ``urls`` counted by section (``Changes.sections_removed``), most
    first, then by name."""
    counts: dict[str, int] = {}
    for origin, rest in zip(*urls, strict=True):
        path = rest.partition("?")[0].partition("#")[0]
        first, slash, _deeper = path.removeprefix("/").partition("/")
        section = f"{origin}/{first}/" if slash else f"{origin}/"
        counts[section] = counts.get(section, 0) + 1
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def _sited(origins: list[str], rests: list[str]) -> NDArray[np.uint64]:
    """The hash of each URL's host without its scheme, port and a leading ``www.``, with
    its path and query: the same page of a site, whatever its scheme or ``www.``."""
    sites: dict[str, str] = {}  # each origin's site, found once
    for origin in origins:
        if origin not in sites:
            sites[origin] = _site(origin) + "\n"
    return _hashes([sites[origin] + rest for origin, rest in zip(origins, rests, strict=True)])


def _site(origin: str) -> str:
    host = origin.partition("://")[2].rpartition("@")[2]
    host = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return host.removeprefix("www.")


def _match(
    gone: NDArray[np.uint64], came: NDArray[np.uint64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The positions of the keys of ``gone`` that ``came`` holds, and of the first of
    ``came`` holding each."""
    keys, first = np.unique(came, return_index=True)
    found = np.flatnonzero(np.isin(gone, keys))
    return found, first[np.searchsorted(keys, gone[found])]


def _hashes(rests: list[str]) -> NDArray[np.uint64]:
    return np.frombuffer(url_hashes(rests).tobytes(), dtype=np.uint64)


def _rewrites(
    before: _Flat,
    after: _Flat,
    gone: NDArray[np.int64],
    came: NDArray[np.int64],
    old_urls: Split,
    new_urls: Split,
) -> list[Rewrite]:
    """Removed URLs that the new side lists written otherwise on the same origin: a
    trailing slash added or dropped, the path's case changed, the query's parameters
    reordered (each another URL to a search engine, its page's signals split or lost).
    The kinds by count, then name; each with its first URL removed (in the old side's
    order) and the URL now listed for it."""
    (old_origins, old_rests), (new_origins, new_rests) = old_urls, new_urls
    found, matched = _match(
        _hashes([f"{o}\n{_loose(r)}" for o, r in zip(old_origins, old_rests, strict=True)]),
        _hashes([f"{o}\n{_loose(r)}" for o, r in zip(new_origins, new_rests, strict=True)]),
    )
    kinds: dict[str, list[Any]] = {}
    for old_at, new_at in zip(found.tolist(), matched.tolist(), strict=True):
        how = _rewritten(old_rests[old_at], new_rests[new_at])
        kind = kinds.get(how)
        if kind is None:
            kinds[how] = [1, before.url(int(gone[old_at])), after.url(int(came[new_at]))]
        else:
            kind[0] += 1
    return [
        Rewrite(how, count, old, new)
        for how, (count, old, new) in sorted(kinds.items(), key=lambda item: (-item[1][0], item[0]))
    ]


def _loose(rest: str) -> str:
    """A URL's path and query as a loose key: the path in lower case without its final
    ``/``s, the query's parameters sorted (an empty query as none), no fragment."""
    if "?" not in rest and "#" not in rest:  # most URLs: a path alone
        return rest.lower().rstrip("/") + "?"
    path, _mark, query, _hash, _fragment = _parts(rest)
    return f"{path.lower().rstrip('/')}?{'&'.join(sorted(query.split('&'))) if query else ''}"


def _parts(rest: str) -> tuple[str, str, str, str, str]:
    """A URL's path, ``?`` (or nothing), query, ``#`` (or nothing) and fragment."""
    rest, hash_, fragment = rest.partition("#")
    path, mark, query = rest.partition("?")
    return path, mark, query, hash_, fragment


def _rewritten(old: str, new: str) -> str:
    """How a URL's path, query and fragment were written otherwise (``old`` to ``new``,
    which ``_loose`` makes the same)."""
    if "?" not in old and "#" not in old and "?" not in new and "#" not in new:
        old_path, new_path = old, new  # most URLs: a path alone
        old_mark = old_query = old_hash = old_fragment = ""
        new_mark = new_query = new_hash = new_fragment = ""
    else:
        old_path, old_mark, old_query, old_hash, old_fragment = _parts(old)
        new_path, new_mark, new_query, new_hash, new_fragment = _parts(new)
    ways = []
    if old_path.rstrip("/") != new_path.rstrip("/"):
        ways.append("path case changed")
    old_slashes = len(old_path) - len(old_path.rstrip("/"))
    new_slashes = len(new_path) - len(new_path.rstrip("/"))
    if new_slashes != old_slashes:
        ways.append(f"trailing slash {'added' if new_slashes > old_slashes else 'dropped'}")
    if old_query != new_query:
        ways.append("query parameters reordered")
    elif old_mark != new_mark:
        ways.append(f"empty query {'added' if new_mark else 'dropped'}")
    if (old_hash, old_fragment) != (new_hash, new_fragment):
        change = "added" if not old_hash else "dropped" if not new_hash else "changed"
        ways.append(f"fragment {change}")
    return ", ".join(ways)


def _lastmods(after: _Flat, now: datetime, changes: Changes) -> None:
    """The new side's lastmod patterns: its most common moment, and the entries stamped
    within the hour before the run or later (the column counted a chunk at a time)."""
    recent_from = int(now.timestamp()) - RECENT_SECONDS
    moments: list[NDArray[np.int64]] = []
    counts: list[NDArray[np.int64]] = []
    for start in range(0, after.total, CHUNK):
        chunk = after.lastmods[start : start + CHUNK]
        dated = chunk[chunk != NO_LASTMOD]
        changes.with_lastmod += len(dated)
        changes.recent += int(np.count_nonzero(dated >= recent_from))
        chunk_moments, chunk_counts = np.unique(dated, return_counts=True)
        moments.append(chunk_moments)
        counts.append(chunk_counts)
    if changes.with_lastmod:
        every, inverse = np.unique(np.concatenate(moments), return_inverse=True)
        totals = np.bincount(inverse, weights=np.concatenate(counts))
        best = int(np.argmax(totals))  # the earliest of the most common moments
        if totals[best] >= 2:
            changes.same_moment = (int(every[best]), int(totals[best]))


def _hreflang(after: _Flat, removed: NDArray[np.uint64], changes: Changes, show: int) -> None:
    """Alternates of the new side that name a URL it no longer lists."""
    changes.alternates = len(after.alternate_hrefs)
    if not len(removed) or not len(after.alternate_hrefs):
        return
    naming = after.alternate_entries[np.isin(after.alternate_hrefs, removed)]
    changes.hreflang_broken = len(naming)
    first = np.sort(naming, kind="stable")[:show]
    changes.hreflang_shown = [Shown(after.url(int(j)), after.place(int(j))) for j in first]


def _children(old: Side, new: Side, changes: Changes) -> None:
    """Sitemaps an index (or robots.txt) of one side lists that none of the other does;
    one listed twice (by an index and robots.txt) counted once."""
    listed_before = _each_once(c for f in old.files for c in f.listing.children)
    listed_after = _each_once(c for f in new.files for c in f.listing.children)
    changes.old_children = len(listed_before)
    changes.children_removed = [c for p, c in listed_before.items() if p not in listed_after]
    changes.children_added = [c for p, c in listed_after.items() if p not in listed_before]


def _each_once(children: Iterator[str]) -> dict[str, str]:
    """Each place of ``children`` with the first child listed at it, in their order."""
    found: dict[str, str] = {}
    for child in children:
        found.setdefault(_child_place(child), child)
    return found


def _child_place(url: str) -> str:
    """A listed sitemap compared by its path and query (the sides may be served from two
    hosts; ``sitemap.php?page=2`` is not ``sitemap.php?page=3``), in the URLs' normal
    form, without a final ``.gz`` on its path (the same sitemap, now served compressed or
    no longer)."""
    from urllib.parse import urlsplit

    url = url.strip()
    if "://" not in url:
        return places.ungzipped(url)
    parts = urlsplit(normal_url(url))
    path = places.ungzipped(parts.path or "/")
    return f"{path}?{parts.query}" if parts.query else path
