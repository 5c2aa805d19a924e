"""A side of a diff: the files an argument names, followed as ``check`` follows them.

The set's own discovery (``sets.SetRunner``: directories, URLs, indexes, robots.txt,
``--follow``, ``--map``, the limits, cycles, the fetch and its guards) reads the files;
only what is done with each file differs: it is read into a ``Listing`` (in worker
processes for large files) instead of being checked, and no rule across files runs.
"""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from urllib.parse import urlsplit

from sitemap_lint.diff.listing import Listing, read_listing
from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Severity
from sitemap_lint.inputs.reader import InputError, Source
from sitemap_lint.options import Options
from sitemap_lint.results import FileResult
from sitemap_lint.sets import Job, SetRunner, SetSettings


@dataclass(eq=False)
class SideFile:
    """One file of a side: its name as given or listed, where it sits relative to the
    side's root (how files of the two sides are matched), and its listing."""

    name: str
    place: str
    listing: Listing


@dataclass(eq=False)
class Side:
    """Every file a side's arguments name, in the order the set reads them."""

    label: str  # OLD or NEW, as messages say it
    arguments: list[str]
    files: list[SideFile] = field(default_factory=list)

    @property
    def urls(self) -> int:
        return sum(len(f.listing) for f in self.files if f.listing.kind in ("urlset", "text"))


# A sitemap of the side was not read (not found, past a limit, in a cycle): its URLs
# would all look removed or added, so nothing is compared.
_UNREAD = frozenset({"SE002", "SE005", "SE007"})


class _SideRunner(SetRunner):
    """The set run with each file read into its listing."""

    def __init__(self, settings: SetSettings) -> None:
        super().__init__(settings, Options(now=datetime.now(UTC)), "libxml2", lambda name: None)
        self.listings: dict[str, Listing] = {}

    def _check(self, source: Source, options: Options, in_pool: bool) -> FileResult:
        if in_pool and not self._pool_broken:
            try:
                result, listing = self._process_pool().submit(read_listing, source).result()
            except (BrokenProcessPool, OSError, RuntimeError):
                self._pool_broken = True
            else:
                return self._keep(result, listing)
        return self._keep(*read_listing(source))

    def _keep(self, result: FileResult, listing: Listing) -> FileResult:
        with self._lock:
            self.listings[result.name] = listing
        return result

    # No rule across files: a diff compares, it does not lint.
    def _check_lastmods(self, jobs: list[Job]) -> None:
        pass

    def _check_duplicates(self, jobs: list[Job]) -> None:
        pass

    def _check_hreflang(self, jobs: list[Job]) -> None:
        pass


def read_side(label: str, arguments: list[str], settings: SetSettings) -> Side:
    """Read every file of one side; a side that cannot be read is a UsageError (exit 2)
    naming the side and the file."""
    runner = _SideRunner(replace(settings))
    try:
        results = runner.run(arguments)
    except (UsageError, InputError) as error:
        raise UsageError(f"{label}: {error}") from None
    side = Side(label, arguments)
    roots = [_root_place(argument) for argument in arguments]
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
        side.files.append(SideFile(result.name, _place(result.name, roots), listing))
    return side


def _root_place(argument: str) -> str:
    """The directory a side's argument stands in, as a prefix to strip from its files."""
    if "://" in argument:
        parts = urlsplit(argument)
        directory = parts.path.rsplit("/", 1)[0] + "/"
        return f"{parts.scheme}://{parts.netloc}{directory}"
    from pathlib import Path

    path = Path(argument)
    return (str(path) if path.is_dir() else str(path.parent)).rstrip("/") + "/"


def _place(name: str, roots: list[str]) -> str:
    """A file's place relative to its side's root: how files of the two sides match."""
    for root in roots:
        if root not in ("./", "/") and name.startswith(root):
            return name[len(root) :]
    if "://" in name:
        return urlsplit(name).path.lstrip("/")
    return name.removeprefix("./")
