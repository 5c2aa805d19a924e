"""The comparison of two sides: what was added, removed, moved and changed.

Each side's entries become columns (numpy arrays: a hash, a lastmod, a priority... an
entry), and the sides are joined by URL hash with sorted set operations, so that a side
of ten million URLs costs a few hundred megabytes and a few seconds, not a table of
Python objects. The URLs shown (the first ones of each kind, in the order of the
files) are read back from their files' compressed text by their place.

numpy is imported here only, by ``sitemap-lint diff``: it does these joins in C.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sitemap_lint.diff.listing import NO_LASTMOD, ORIGIN_AND_REST, Listing
from sitemap_lint.diff.sides import Side
from sitemap_lint.facts import url_hashes

RECENT_SECONDS = 3600  # a lastmod this close to the run's time is "now"


@dataclass(eq=False)
class Shown:
    """A URL the report shows, with the file (its place) that lists it, or two places for
    a URL that moved."""

    url: str
    place: str
    other: str = ""


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
    # (old origin, new origin, URLs whose path and query now stand on the new origin)
    origins: list[tuple[str, str, int]] = field(default_factory=list)
    lastmod_changed: int = 0  # URLs on both sides whose lastmod changed
    # The new side's most common lastmod (UTC seconds) and how many entries carry it.
    same_moment: tuple[int, int] | None = None
    recent: int = 0  # new entries whose lastmod lies within the hour before the run's time
    with_lastmod: int = 0  # new entries with a lastmod
    priority_changed: int = 0
    changefreq_changed: int = 0
    hreflang_broken: int = 0  # new alternates naming a URL the new side no longer lists
    hreflang_shown: list[Shown] = field(default_factory=list)
    # (place, added, removed) of each file with either
    by_file: list[tuple[str, int, int]] = field(default_factory=list)


class _Flat:
    """A side's URL entries as columns (numpy arrays, one item an entry, in the sides'
    order): each entry's file number, hash, lastmod, priority and changefreq; the files
    keep their compressed text, read back for the URLs shown and those that changed."""

    def __init__(self, side: Side, places: dict[str, int]) -> None:
        self.files = [f for f in side.files if f.listing.kind in ("urlset", "text")]
        listings = [f.listing for f in self.files]
        counts = [len(listing) for listing in listings]
        self.starts = np.concatenate(([0], np.cumsum(counts, dtype=np.int64)))
        self.total = int(self.starts[-1])
        self.numbers = np.repeat(np.arange(len(listings), dtype=np.uint32), counts)
        self.hashes = _column(listings, "hashes", np.uint64)
        self.lastmods = _column(listings, "lastmods", np.int64)
        self.priorities = _column(listings, "priorities", np.int16)
        self.changefreqs = _column(listings, "changefreqs", np.uint8)
        self.alternate_entries = np.concatenate(
            [
                np.frombuffer(listing.alternate_pages, dtype=np.uint32).astype(np.int64) + start
                for listing, start in zip(listings, self.starts, strict=False)
            ]
            or [np.zeros(0, np.int64)]
        )
        self.alternate_hrefs = _column(listings, "alternate_hrefs", np.uint64)
        # Each file's place as a number shared by both sides.
        self.places = np.array(
            [places.setdefault(f.place, len(places)) for f in self.files], dtype=np.uint32
        )
        self._text: dict[int, list[str]] = {}

    def place(self, index: int) -> str:
        return self.files[int(self.numbers[index])].place

    def url(self, index: int) -> str:
        number = int(self.numbers[index])
        text = self._text.get(number)
        if text is None:
            text = self._text[number] = self.files[number].listing.url_text()
        return text[index - int(self.starts[number])]

    def origins_and_paths(self, indexes: NDArray[np.int64]) -> tuple[list[str], NDArray[np.uint64]]:
        """The origin (lower case) and the hash of the rest (path, query, fragment) of each
        entry of ``indexes``, read back from the files' text."""
        origins: list[str] = []
        paths: list[str] = []
        numbers = self.numbers[indexes]
        for number in np.unique(numbers).tolist():
            rows = (indexes[numbers == number] - self.starts[number]).tolist()
            text = self.files[number].listing.url_text()
            split = ORIGIN_AND_REST.findall("\n".join(text[row] for row in rows))
            origins.extend(origin.lower() for origin, _rest in split)
            paths.extend(rest or "/" for _origin, rest in split)
        return origins, np.frombuffer(url_hashes(paths).tobytes(), dtype=np.uint64)

    def first_listings(self) -> tuple[NDArray[np.uint64], NDArray[np.int64]]:
        """Each URL hash once, sorted, with the index of its first entry."""
        hashes, first = np.unique(self.hashes, return_index=True)
        return hashes, first.astype(np.int64)


def _column(listings: list[Listing], name: str, dtype: type) -> NDArray[Any]:
    """One column of every listing, joined; the listings' own arrays are emptied (the
    numbers are held once)."""
    parts: list[NDArray[Any] | None] = []
    for listing in listings:
        values = getattr(listing, name)
        parts.append(np.frombuffer(values.tobytes(), dtype=dtype) if len(values) else None)
        del values[:]
    kept = [part for part in parts if part is not None]
    return np.concatenate(kept) if kept else np.zeros(0, dtype=dtype)


def compare(old: Side, new: Side, now: datetime, show: int) -> Changes:
    """What changed from ``old`` to ``new``; ``show``: how many URLs of each kind to name."""
    places: dict[str, int] = {}
    before, after = _Flat(old, places), _Flat(new, places)
    changes = Changes(
        old_urls=before.total,
        new_urls=after.total,
        old_files=len(old.files),
        new_files=len(new.files),
    )
    _children(old, new, changes)
    old_hashes, old_first = before.first_listings()
    new_hashes, new_first = after.first_listings()
    _, old_at, new_at = np.intersect1d(old_hashes, new_hashes, True, return_indices=True)
    kept_old = np.zeros(len(old_hashes), dtype=bool)
    kept_old[old_at] = True
    kept_new = np.zeros(len(new_hashes), dtype=bool)
    kept_new[new_at] = True
    gone = np.sort(old_first[~kept_old])  # entry indexes, in the old side's order
    came = np.sort(new_first[~kept_new])
    removed_hashes = old_hashes[~kept_old]
    del old_hashes, new_hashes, kept_old, kept_new
    changes.removed, changes.added = len(gone), len(came)
    changes.common = len(old_at)
    changes.removed_shown = [Shown(before.url(int(i)), before.place(int(i))) for i in gone[:show]]
    changes.added_shown = [Shown(after.url(int(j)), after.place(int(j))) for j in came[:show]]
    _compare_common(before, after, old_first[old_at], new_first[new_at], changes, show)
    changes.origins = _origins(before, after, gone, came)
    _lastmods(after, now, changes)
    _hreflang(after, removed_hashes, changes, show)
    removed_by_file = np.bincount(before.numbers[gone], minlength=len(before.files))
    added_by_file = np.bincount(after.numbers[came], minlength=len(after.files))
    by_place: dict[str, list[int]] = {}
    for f, count in zip(after.files, added_by_file.tolist(), strict=True):
        if count:
            by_place.setdefault(f.place, [0, 0])[0] += count
    for f, count in zip(before.files, removed_by_file.tolist(), strict=True):
        if count:
            by_place.setdefault(f.place, [0, 0])[1] += count
    changes.by_file = [(p, a, r) for p, (a, r) in sorted(by_place.items())]
    return changes


def _compare_common(
    before: _Flat,
    after: _Flat,
    old_indexes: NDArray[np.int64],
    new_indexes: NDArray[np.int64],
    changes: Changes,
    show: int,
) -> None:
    """The entries listed on both sides (their indexes, pair by pair): what changed."""
    changes.lastmod_changed = int(
        np.count_nonzero(before.lastmods[old_indexes] != after.lastmods[new_indexes])
    )
    changes.priority_changed = int(
        np.count_nonzero(before.priorities[old_indexes] != after.priorities[new_indexes])
    )
    changes.changefreq_changed = int(
        np.count_nonzero(before.changefreqs[old_indexes] != after.changefreqs[new_indexes])
    )
    old_places = before.places[before.numbers[old_indexes]]
    new_places = after.places[after.numbers[new_indexes]]
    elsewhere = old_places != new_places
    changes.moved = int(np.count_nonzero(elsewhere))
    if changes.moved:
        moved_old, moved_new = old_indexes[elsewhere], new_indexes[elsewhere]
        order = np.argsort(moved_old, kind="stable")[:show]
        changes.moved_shown = [
            Shown(after.url(int(j)), before.place(int(i)), after.place(int(j)))
            for i, j in zip(moved_old[order], moved_new[order], strict=True)
        ]


def _origins(
    before: _Flat, after: _Flat, gone: NDArray[np.int64], came: NDArray[np.int64]
) -> list[tuple[str, str, int]]:
    """Removed URLs whose path and query now stand on another origin: a migration."""
    if not len(gone) or not len(came):
        return []
    gone = gone[np.argsort(before.numbers[gone], kind="stable")]  # grouped by file, as read
    came = came[np.argsort(after.numbers[came], kind="stable")]
    gone_origins, gone_paths = before.origins_and_paths(gone)
    came_origins, came_paths_all = after.origins_and_paths(came)
    came_paths, came_first = np.unique(came_paths_all, return_index=True)
    found = np.flatnonzero(np.isin(gone_paths, came_paths))
    matched = came_first[np.searchsorted(came_paths, gone_paths[found])]
    named: dict[tuple[str, str], int] = {}
    for old_at, new_at in zip(found.tolist(), matched.tolist(), strict=True):
        key = (gone_origins[old_at], came_origins[new_at])
        if key[0] != key[1]:
            named[key] = named.get(key, 0) + 1
    return [(a, b, n) for (a, b), n in sorted(named.items(), key=lambda item: (-item[1], item[0]))]


def _lastmods(after: _Flat, now: datetime, changes: Changes) -> None:
    """The new side's lastmod patterns: its most common moment, and the entries stamped
    within the hour before the run."""
    dated = after.lastmods[after.lastmods != NO_LASTMOD]
    changes.with_lastmod = len(dated)
    changes.recent = int(np.count_nonzero(dated >= int(now.timestamp()) - RECENT_SECONDS))
    if len(dated):
        moments, counts = np.unique(dated, return_counts=True)
        best = int(np.argmax(counts))  # the earliest of the most common moments
        changes.same_moment = (int(moments[best]), int(counts[best]))


def _hreflang(after: _Flat, removed: NDArray[np.uint64], changes: Changes, show: int) -> None:
    """Alternates of the new side that name a URL it no longer lists."""
    if not len(removed) or not len(after.alternate_hrefs):
        return
    naming = after.alternate_entries[np.isin(after.alternate_hrefs, removed)]
    changes.hreflang_broken = len(naming)
    first = np.sort(naming, kind="stable")[:show]
    changes.hreflang_shown = [Shown(after.url(int(j)), after.place(int(j))) for j in first]


def _children(old: Side, new: Side, changes: Changes) -> None:
    """Sitemaps an index (or robots.txt) of one side lists that none of the other does."""
    listed_before = [c for f in old.files for c in f.listing.children]
    listed_after = [c for f in new.files for c in f.listing.children]
    before_places = {_child_place(c) for c in listed_before}
    after_places = {_child_place(c) for c in listed_after}
    changes.children_removed = [c for c in listed_before if _child_place(c) not in after_places]
    changes.children_added = [c for c in listed_after if _child_place(c) not in before_places]


def _child_place(url: str) -> str:
    """A listed sitemap compared by its path (the sides may be served from two hosts)."""
    from urllib.parse import urlsplit

    return urlsplit(url.strip()).path if "://" in url else url.strip()
