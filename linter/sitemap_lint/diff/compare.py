"""The comparison of two sides: what was added, removed, moved and changed.

URLs are joined by their 64-bit hash one slice of the hash space at a time (its top
bits), so that memory holds a few arrays a side and one slice's tables, not a table of
every URL. The URLs shown (the first ones of each kind, in the order of the files) are
read back from their files' compressed text by their place.
"""

from __future__ import annotations

import heapq
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime

from sitemap_lint.diff.listing import NO_LASTMOD
from sitemap_lint.diff.sides import Side

SLICE_BITS = 4  # the hash space compared in 16 slices
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
    """A side's URL entries as one sequence of columns (each entry's file number, hash,
    lastmod, priority and changefreq); the files keep their text, paths and origins."""

    def __init__(self, side: Side) -> None:
        self.files = [f for f in side.files if f.listing.kind in ("urlset", "text")]
        self.starts: list[int] = []
        self.numbers: array[int] = array("I")
        self.hashes: array[int] = array("Q")
        self.lastmods: array[int] = array("q")
        self.priorities: array[int] = array("h")
        self.changefreqs: array[int] = array("B")
        total = 0
        for number, f in enumerate(self.files):
            listing = f.listing
            self.starts.append(total)
            self.numbers.extend(array("I", [number]) * len(listing))
            # Moved, not copied: the listing keeps only what is read back for a few URLs.
            self.hashes.extend(listing.hashes)
            self.lastmods.extend(listing.lastmods)
            self.priorities.extend(listing.priorities)
            self.changefreqs.extend(listing.changefreqs)
            del listing.hashes[:], listing.lastmods[:], listing.priorities[:]
            del listing.changefreqs[:]
            total += len(listing.paths)
        self.total = total
        self._text: dict[int, list[str]] = {}

    def locate(self, index: int) -> tuple[int, int]:
        """(file number, row) of an entry."""
        from bisect import bisect_right

        number = bisect_right(self.starts, index) - 1
        return number, index - self.starts[number]

    def place(self, index: int) -> str:
        return self.files[self.numbers[index]].place

    def url(self, index: int) -> str:
        number, row = self.locate(index)
        text = self._text.get(number)
        if text is None:
            text = self._text[number] = self.files[number].listing.url_text()
        return text[row]

    def slices(self) -> list[array[int]]:
        """The entries' indexes by slice of the hash space, each in the sides' order."""
        parts = [array("I") for _ in range(1 << SLICE_BITS)]
        add = [part.append for part in parts]
        shift = 64 - SLICE_BITS
        for index, value in enumerate(self.hashes):
            add[value >> shift](index)
        return parts


def compare(old: Side, new: Side, now: datetime, show: int) -> Changes:
    """What changed from ``old`` to ``new``; ``show``: how many URLs of each kind to name."""
    before, after = _Flat(old), _Flat(new)
    changes = Changes(
        old_urls=before.total,
        new_urls=after.total,
        old_files=len(old.files),
        new_files=len(new.files),
    )
    _children(old, new, changes)
    added: list[int] = []  # the first ``show`` of each kind, as entry indexes
    removed: list[int] = []
    moved: list[tuple[int, int]] = []
    added_count: Counter[int] = Counter()  # by file number
    removed_count: Counter[int] = Counter()
    paths_removed: list[tuple[int, int]] = []  # (path hash, old origin id) ...
    paths_added: list[tuple[int, int]] = []
    removed_hashes: set[int] = set()
    for old_part, new_part in zip(before.slices(), after.slices(), strict=True):
        first_old = _first_of_each(before.hashes, old_part)
        first_new = _first_of_each(after.hashes, new_part)
        gone = first_old.keys() - first_new.keys()
        came = first_new.keys() - first_old.keys()
        both = first_old.keys() & first_new.keys()
        changes.removed += len(gone)
        changes.added += len(came)
        changes.common += len(both)
        gone_indexes = sorted(first_old[value] for value in gone)
        came_indexes = sorted(first_new[value] for value in came)
        removed = heapq.nsmallest(show, [*removed, *gone_indexes[:show]])
        added = heapq.nsmallest(show, [*added, *came_indexes[:show]])
        removed_count.update(before.numbers[index] for index in gone_indexes)
        added_count.update(after.numbers[index] for index in came_indexes)
        paths_removed.extend(_paths(before, gone_indexes))
        paths_added.extend(_paths(after, came_indexes))
        removed_hashes |= gone
        pairs = [(first_old[value], first_new[value]) for value in both]
        moved = _compare_common(before, after, pairs, changes, moved, show)
    changes.added_shown = [Shown(after.url(j), after.place(j)) for j in added]
    changes.removed_shown = [Shown(before.url(i), before.place(i)) for i in removed]
    changes.moved_shown = [Shown(after.url(j), before.place(i), after.place(j)) for i, j in moved]
    changes.origins = _origins(before, after, paths_removed, paths_added)
    _lastmods(after, now, changes)
    _hreflang(after, removed_hashes, changes, show)
    places = sorted(
        {before.files[n].place for n in removed_count} | {after.files[n].place for n in added_count}
    )
    by_place_added = Counter({after.files[n].place: c for n, c in added_count.items()})
    by_place_removed = Counter({before.files[n].place: c for n, c in removed_count.items()})
    changes.by_file = [(p, by_place_added[p], by_place_removed[p]) for p in places]
    return changes


def _first_of_each(hashes: array[int], indexes: Iterable[int]) -> dict[int, int]:
    """Each hash of the slice with the index of its first entry."""
    first: dict[int, int] = {}
    setdefault = first.setdefault
    for index in indexes:
        setdefault(hashes[index], index)
    return first


def _compare_common(
    before: _Flat,
    after: _Flat,
    pairs: list[tuple[int, int]],
    changes: Changes,
    moved: list[tuple[int, int]],
    show: int,
) -> list[tuple[int, int]]:
    """The entries listed on both sides (old index, new index): what changed; the first
    ``show`` moved ones with ``moved`` (kept in order)."""
    old_numbers, new_numbers = before.numbers, after.numbers
    old_places = [f.place for f in before.files]
    new_places = [f.place for f in after.files]
    old_lastmods, new_lastmods = before.lastmods, after.lastmods
    old_priorities, new_priorities = before.priorities, after.priorities
    old_changefreqs, new_changefreqs = before.changefreqs, after.changefreqs
    moved_here = []
    for i, j in pairs:
        if old_places[old_numbers[i]] != new_places[new_numbers[j]]:
            moved_here.append((i, j))
        if old_lastmods[i] != new_lastmods[j]:
            changes.lastmod_changed += 1
        if old_priorities[i] != new_priorities[j]:
            changes.priority_changed += 1
        if old_changefreqs[i] != new_changefreqs[j]:
            changes.changefreq_changed += 1
    changes.moved += len(moved_here)
    return heapq.nsmallest(show, [*moved, *moved_here])


def _paths(flat: _Flat, indexes: Iterable[int]) -> Iterator[tuple[int, int]]:
    """(path hash, origin) of each entry; origins as (file number << 16 | origin id)."""
    for index in indexes:
        number, row = flat.locate(index)
        listing = flat.files[number].listing
        yield listing.paths[row], number << 16 | listing.origins[row]


def _origins(
    before: _Flat,
    after: _Flat,
    removed: list[tuple[int, int]],
    added: list[tuple[int, int]],
) -> list[tuple[str, str, int]]:
    """Removed URLs whose path and query now stand on another origin: a migration."""
    if not removed or not added:
        return []
    shift = 64 - SLICE_BITS
    gone_parts: list[list[tuple[int, int]]] = [[] for _ in range(1 << SLICE_BITS)]
    for item in removed:
        gone_parts[item[0] >> shift].append(item)
    came_parts: list[list[tuple[int, int]]] = [[] for _ in range(1 << SLICE_BITS)]
    for item in added:
        came_parts[item[0] >> shift].append(item)
    pairs: Counter[tuple[str, str]] = Counter()
    for gone, came in zip(gone_parts, came_parts, strict=True):
        new_origin = dict(came)
        for path, origin in gone:
            target = new_origin.get(path)
            if target is not None:
                pairs[(_origin_name(before, origin), _origin_name(after, target))] += 1
    return [(a, b, n) for (a, b), n in sorted(pairs.items(), key=lambda item: (-item[1], item[0]))]


def _origin_name(flat: _Flat, packed: int) -> str:
    return flat.files[packed >> 16].listing.origin_names[packed & 0xFFFF]


def _lastmods(after: _Flat, now: datetime, changes: Changes) -> None:
    """The new side's lastmod patterns: its most common moment, and the entries stamped
    within the hour before the run."""
    cut = int(now.timestamp()) - RECENT_SECONDS
    parts: list[array[int]] = [array("q") for _ in range(1 << SLICE_BITS)]
    mask = (1 << SLICE_BITS) - 1
    for value in after.lastmods:
        if value != NO_LASTMOD:
            parts[value & mask].append(value)
    best: tuple[int, int] | None = None
    for part in parts:
        changes.with_lastmod += len(part)
        changes.recent += sum(1 for value in part if value >= cut)
        if part:
            value, count = Counter(part).most_common(1)[0]
            if best is None or (count, -value) > (best[1], -best[0]):
                best = (value, count)
    changes.same_moment = best


def _hreflang(after: _Flat, removed: set[int], changes: Changes, show: int) -> None:
    """Alternates of the new side that name a URL it no longer lists."""
    if not removed:
        return
    for number, f in enumerate(after.files):
        listing = f.listing
        for page, href in zip(listing.alternate_pages, listing.alternate_hrefs, strict=True):
            if href in removed:
                changes.hreflang_broken += 1
                if len(changes.hreflang_shown) < show:
                    index = after.starts[number] + page
                    changes.hreflang_shown.append(Shown(after.url(index), f.place))


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
