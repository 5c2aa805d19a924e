"""A side of a diff: the files an argument names, followed as ``check`` follows them.

The set's own discovery (``sets.SetRunner``: directories, URLs, indexes, robots.txt,
``--follow``, ``--map``, the limits, cycles, the fetch and its guards) reads the files;
only what is done with each file differs: it is read into a ``Listing`` (in worker
processes for large files) instead of being checked, and no rule across files runs.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from sitemap_lint.diff.listing import Listing, read_listing
from sitemap_lint.diff.places import place, root_directory
from sitemap_lint.engine.dispatch import calls
from sitemap_lint.engine.results import FileResult
from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Severity
from sitemap_lint.inputs.reader import InputError, Source
from sitemap_lint.rules.registry import SET
from sitemap_lint.sets.runner import LocalExecutor, SetRunner, SetSettings
from sitemap_lint.settings.options import Options


@dataclass(eq=False)
class SideFile:
    """One file of a side: its name as given or listed, where it sits relative to the
    side's root directory (how files of the two sides are matched: ``places``), its
    listing, and whether the side names it (no file of the side lists it)."""

    name: str
    place: str
    listing: Listing
    root: bool = False


class ColumnStore:
    """The columns of a side's listings (hashes, lastmods, priorities, changefreqs), moved
    to a temporary file as each listing arrives and read back joined, in the side's
    order, for the comparison: the process holds each column once, not once in every
    listing's arrays and again joined."""

    COLUMNS = ("hashes", "lastmods", "priorities", "changefreqs")

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115  (open for the side's life)
        self._end = 0

    def keep(self, listing: Listing) -> None:
        """Move ``listing``'s columns to the file (its arrays are left empty)."""
        listing.stored = self._end
        self._file.seek(self._end)
        for name in self.COLUMNS:
            values = getattr(listing, name)
            self._file.write(memoryview(values).cast("B"))
            self._end += len(values) * values.itemsize
            del values[:]

    def column(self, listings: list[Listing], name: str, itemsize: int) -> bytearray:
        """One column of ``listings``, joined in their order."""
        joined = bytearray(sum(len(listing) for listing in listings) * itemsize)
        view = memoryview(joined)
        at = 0
        for listing in listings:
            size = len(listing) * itemsize
            self._file.seek(listing.stored + self._offset(listing, name))
            self._file.readinto(view[at : at + size])
            at += size
        return joined

    def _offset(self, listing: Listing, name: str) -> int:
        offset = 0
        for column in self.COLUMNS:
            if column == name:
                return offset
            offset += len(listing) * _ITEMSIZES[column]
        raise KeyError(name)

    def close(self) -> None:
        self._file.close()


_ITEMSIZES = {"hashes": 8, "lastmods": 8, "priorities": 2, "changefreqs": 1}


@dataclass(eq=False)
class Side:
    """Every file a side's arguments name, in the order the set reads them."""

    label: str  # OLD or NEW, as messages say it
    arguments: list[str]
    files: list[SideFile] = field(default_factory=list)
    store: ColumnStore = field(default_factory=ColumnStore)
    # The sitemaps listed that were not read (neither --follow nor a --map asked for
    # them) -> the file that lists them.
    not_asked: dict[str, str] = field(default_factory=dict)

    @property
    def urls(self) -> int:
        return sum(len(f.listing) for f in self.files if f.listing.kind in ("urlset", "text"))


# A sitemap of the side was not read (not found, past a limit): its URLs would all
# look removed or added, so nothing is compared. (An index that lists itself, or one
# that led to it, SE002, was read once: its listing again adds nothing.)
_UNREAD = frozenset({"SE005", "SE007"})


class _Workers:
    """The worker processes both sides' big files are read in, started when the first
    one is needed and shared, so that one side's last files and the other's first ones
    keep every core busy."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def pool(self, workers: int) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                import multiprocessing

                from sitemap_lint.engine import collector

                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    workers, mp_context=context, initializer=collector.tune
                )
            return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


class _SideRunner(SetRunner):
    """The set run with each file read into its listing."""

    def __init__(self, settings: SetSettings, workers: _Workers) -> None:
        self.listings: dict[str, Listing] = {}
        self.store = ColumnStore()
        self._workers_shared = workers
        super().__init__(settings, Options(now=datetime.now(UTC)), "libxml2", lambda name: None)

    def _local_executor(self, engine_name: str) -> LocalExecutor:
        return _SideExecutor(self, engine_name)

    def _keep(self, result: FileResult, listing: Listing) -> FileResult:
        with self._lock:
            if listing.kind in ("urlset", "text"):
                self.store.keep(listing)
            self.listings[result.name] = listing
        return result

    def _set_checks(self) -> tuple[Callable[..., None], ...]:
        """A diff compares, it does not lint: only the set checks of the rules it reads
        (a cycle of listings)."""
        return calls(SET, _UNREAD)


class _SideExecutor(LocalExecutor):
    """The set's executor with each file read into its listing, in the worker processes
    both sides share."""

    def __init__(self, runner: _SideRunner, engine_name: str) -> None:
        super().__init__(engine_name, runner.settings.workers, runner._fetch)
        self.runner = runner

    def pool(self) -> ProcessPoolExecutor:
        return self.runner._workers_shared.pool(self.workers)

    def check_file(self, source: Source, options: Options, in_pool: bool) -> FileResult:
        if in_pool and not self._pool_broken:
            try:
                result, listing = self.pool().submit(read_listing, source).result()
            except (BrokenProcessPool, OSError, RuntimeError):
                self._pool_broken = True
            else:
                return self.runner._keep(result, listing)
        return self.runner._keep(*read_listing(source))

    def close(self) -> None:
        pass  # the shared worker processes are closed by ``read_sides``


def read_sides(
    old: list[str], old_settings: SetSettings, new: list[str], new_settings: SetSettings
) -> tuple[Side, Side]:
    """Read both sides at once, their big files in the same worker processes; a side that
    cannot be read is a UsageError (the old side's first)."""
    workers = _Workers()
    try:
        with ThreadPoolExecutor(2, thread_name_prefix="sitemap-lint-side") as threads:
            reading_old = threads.submit(read_side, "OLD", old, old_settings, workers)
            reading_new = threads.submit(read_side, "NEW", new, new_settings, workers)
            wait((reading_old, reading_new))
            for reading in (reading_old, reading_new):
                if reading.exception() is not None:  # the other side's store goes too
                    for other in (reading_old, reading_new):
                        if other.exception() is None:
                            other.result().store.close()
                    reading.result()
            return reading_old.result(), reading_new.result()
    finally:
        workers.close()


def read_side(
    label: str, arguments: list[str], settings: SetSettings, workers: _Workers | None = None
) -> Side:
    """Read every file of one side; a side that cannot be read is a UsageError (exit 2)
    naming the side and the file."""
    if workers is None:
        workers = _Workers()
        try:
            return read_side(label, arguments, settings, workers)
        finally:
            workers.close()
    runner = _SideRunner(replace(settings), workers)
    try:
        results = runner.run(arguments)
    except (UsageError, InputError) as error:
        raise UsageError(f"{label}: {error}") from None
    side = Side(label, arguments, store=runner.store, not_asked=dict(runner.discovery.not_asked))
    # The arguments' directories, then those of the files a map reads for an argument
    # (``https://example.com/sitemap.xml`` read from ``public/``): their children stand
    # below ``public/`` as the URL's stand below ``https://example.com/``.
    roots = list(
        dict.fromkeys(
            [root_directory(argument) for argument in arguments]
            + [root_directory(result.name) for result in results if result.parent is None]
        )
    )
    for result in results:
        for finding in result.findings:
            if finding.code in _UNREAD or (
                finding.code.startswith(("IN", "FE")) and finding.severity >= Severity.ERROR
            ):
                raise UsageError(
                    f"{label} {result.name}: {finding.code} {finding.message}; nothing was compared"
                )
        listing = runner.listings.get(result.name)
        if listing is None:
            continue
        if listing.problem is not None:
            raise UsageError(
                f"{label} {result.name}: {listing.problem}; check it with "
                f"`sitemap-lint check {result.name}`; nothing was compared"
            )
        where = place(result.name, roots)
        side.files.append(SideFile(result.name, where, listing, root=result.parent is None))
    return side


def refuse_unread_sitemaps(old: Side, new: Side) -> None:
    """A UsageError (exit 2) where a side lists a sitemap that was not read, unless the
    other side leaves it unread too, while a side has URLs: the sitemap's URLs would all
    look removed or added."""
    if not (old.urls or new.urls):
        return  # indexes on both sides: their lists of sitemaps are compared
    for side, other, look in ((old, new, "added"), (new, old, "removed")):
        child = next((url for url in side.not_asked if url not in other.not_asked), None)
        if child is not None:
            raise UsageError(
                f"{side.label} {side.not_asked[child]} lists a sitemap that was not read "
                f"({child}); its URLs would all look {look}: give --follow to fetch the "
                "sitemaps indexes list, or --map URL_PREFIX=DIR (--old-map, --new-map) to "
                "read them from a directory; nothing was compared"
            )
