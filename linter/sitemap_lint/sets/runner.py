"""Checks a set of files together: the inputs, the sitemaps a robots.txt names, an
index's children, and what holds across the files.

The set's algorithm is written once, in ``SetRunner``: files are checked level by
level (the inputs, then the sitemaps they list, ...; ``Discovery`` decides which), then
the checks across files join their facts (cycles, lastmods, duplicates, hreflang). Where
files are fetched and checked and facts joined is the ``Executor``'s alone:
``LocalExecutor`` fetches in parallel threads and checks big files in worker processes;
``sitemap_lint.sets.cluster.DaskExecutor`` does both on a Dask cluster. Every decision
(cycles, repeats, limits) is taken in the order of the entries, never in the order
fetches finish, so the same site gives the same report whatever the executor. Results
come back in input order: each index followed by its children. Every finding across
files goes to its file's sink, open until the set is done.
"""

from __future__ import annotations

import os
import re
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast
from urllib.parse import SplitResult, unquote, urlsplit, urlunsplit

from sitemap_lint.domain.identity import normal_url
from sitemap_lint.domain.urls import ParsedURL, remove_dot_segments
from sitemap_lint.engine.checker import check_source
from sitemap_lint.engine.dispatch import InputChecks, calls, fetch_findings, once
from sitemap_lint.engine.results import FileResult
from sitemap_lint.engine.sink import FindingList, FindingSink, Levels
from sitemap_lint.errors import name_plugin
from sitemap_lint.finding import Finding
from sitemap_lint.inputs.reader import (
    READ_CAP,
    STDIN,
    ByteStream,
    InputError,
    Source,
    expand,
    file_kind,
    is_url,
    read_standard_input,
    real_path,
    unfetched_url,
)
from sitemap_lint.model import EntryPointer
from sitemap_lint.rules import sets as rules
from sitemap_lint.rules.duplicates import DUPLICATE_LOC
from sitemap_lint.rules.events import FollowKind, Unfollowed
from sitemap_lint.rules.registry import FETCH, LISTED, SET
from sitemap_lint.rules.sets import INDEX_CYCLE, Duplicate
from sitemap_lint.rules.urls import parse_url, with_query
from sitemap_lint.sets.facts import HASH_SLICES, Child, FileFacts, Slice, first_offsets
from sitemap_lint.settings.options import Options
from sitemap_lint.support.locations import names_robots

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from sitemap_lint.inputs.fetch import Fetched, Fetcher
    from sitemap_lint.inputs.guard import HostPolicy, Pins
    from sitemap_lint.xsd import Engine

FETCH_THREADS = 8
# Files at least this big are checked in worker processes when a level has several.
POOL_MIN_SIZE = 1 << 20
ROBOTS_CAP = 500 * 1024
PEEK_BYTES = 64 * 1024  # read of a nested index's child to see its root element
# What a fetched child counts against --max-bytes until it is read: the most a fetch reads.
FETCH_RESERVE = READ_CAP + 1
URL_KINDS = rules.URL_KINDS
LISTING_KINDS = ("sitemapindex", "robots")
DOT_ESCAPE = re.compile("%2e", re.IGNORECASE)  # an escaped "." in a URL path


@dataclass(frozen=True)
class SetSettings:
    follow: bool = False  # follow a local index's (or robots.txt's) children
    maps: tuple[tuple[str, Path], ...] = ()  # (URL prefix, local directory)
    robots: tuple[str, ...] = ()  # robots.txt files or URLs that only inform the run
    # (robots.txt, what named it) where not --robots: a configuration file's key
    robots_named_by: tuple[tuple[str, str], ...] = ()
    max_depth: int = 3
    max_files: int = 10_000
    max_bytes: int = 20 * 1024**3
    workers: int = 0  # processes for checking; 0: one per core
    timeout: float = 10.0
    allow_private_hosts: bool = False  # fetch internal addresses no input names
    named_urls: tuple[str, ...] = ()  # URLs given besides the inputs (--sitemap-url)
    stdin_name: str = STDIN  # the name standard input is reported under (--stdin-filename)
    # The run's pin table (inputs.guard), shared with --live's client.
    pins: Pins | None = field(default=None, compare=False)


@dataclass(frozen=True)
class FileTask:
    """What checking one file of the set needs, wherever it runs: a file, standard
    input's bytes, or a URL to fetch, and the options of its check."""

    name: str
    path: Path | None
    url: str | None
    fetch: bool
    data: bytes | None
    options: Options
    robots: bool  # named robots.txt: its text informs the checks of the other files
    listed: bool  # listed by an index or robots.txt: unreadable is a finding, not the end
    hosts: HostPolicy | None = None  # where a fetch may connect (None: public hosts only)
    pins: Pins | None = field(default=None, compare=False)  # the run's (a copy on a worker)


@dataclass(eq=False)
class Checked:
    """One checked file: its result, the bytes read, and a robots.txt's text. An
    executor that keeps the file's facts elsewhere gives the result with the facts the
    discovery needs (kind, counts, children, newest lastmod) and a ``handle`` to the rest."""

    result: FileResult
    size: int = 0
    robots_text: str | None = None
    alternates: int = 0  # hreflang records in the file's facts
    final_url: str | None = None  # where a fetched file was served (redirects followed)
    handle: object = None


class Executor(Protocol):
    """Where a set's files are fetched and checked and its cross-file facts compared:
    ``LocalExecutor`` (this process, its threads and worker processes) or
    ``sitemap_lint.sets.cluster.DaskExecutor`` (a Dask cluster). The set's algorithm (discover,
    check, join) is ``SetRunner``'s whatever the executor."""

    # Whether the files are read in another working directory (their paths made absolute).
    elsewhere: bool

    def check(self, tasks: Sequence[FileTask]) -> Iterator[Checked]:
        """The checked files, in the order of ``tasks``."""
        ...

    def duplicates(self, handles: Sequence[object], urls: int) -> list[Duplicate]:
        """URLs in several files (``handles``: the files' facts, ``urls`` in all), as
        ``find_duplicates`` finds them, in any order within a file."""
        ...

    def hreflang(
        self, files: Sequence[tuple[str, object, EntryPointer | None]], records: int
    ) -> list[tuple[int, Finding]]:
        """The hreflang findings across files (``files``: each checked file's name, handle
        and how it names its entries; ``records``: their hreflang records in all), as
        ``rules.sets.hreflang_findings`` finds them."""
        ...

    def close(self) -> None: ...


@dataclass(eq=False)
class Job:
    """One file of the set: where it comes from and, once checked, its result."""

    name: str  # as shown in the report: the path or the URL
    key: str  # identity for cycles and repeats: the canonical URL, or the resolved path
    depth: int
    path: Path | None = None  # a local file (None: standard input, or a fetch)
    url: str | None = None  # where the file is served, when known
    served: str | None = None  # an input's --sitemap-url, as a key (canonical_url)
    fetch: bool = False
    parent: Job | None = None
    entry: Child | None = None  # the parent's entry that lists this file
    children: list[Job] = field(default_factory=list)
    result: FileResult | None = None
    size: int = 0
    planned: int = 0  # the bytes the discovery counted when it listed the file (a local one)
    robots_text: str | None = None  # the text of a robots.txt, for the other files' checks
    final_url: str | None = None  # where a fetched file was served (redirects followed)
    data: bytes | None = field(default=None, repr=False)  # read in place of standard input
    alternates: int = 0  # hreflang records of the file
    handle: object = None  # an executor's reference to the file's facts

    def preorder(self) -> Iterator[Job]:
        yield self
        for child in self.children:
            yield from child.preorder()

    def ancestors(self) -> Iterator[Job]:
        job = self.parent
        while job is not None:
            yield job
            job = job.parent


class SetRunner:
    """Checks the inputs of one run as a set; ``run`` returns the results in input order.

    One class, longer than most: the set's algorithm (discover, check, join) is its
    ``run``, and the inputs' robots.txt, the host policy, the fetcher and the executor it
    holds for the run are read by each of those steps."""

    def __init__(
        self,
        settings: SetSettings,
        options: Options,
        engine_name: str,
        sitemap_url_for: Callable[[str], ParsedURL | None],
        progress: Callable[[int, int], None] | None = None,
        stdin: Source | None = None,  # read in place of standard input ('-')
        executor: Executor | None = None,  # None: this process and its worker processes
    ):
        self.settings = settings
        self.executor = executor if executor is not None else self._local_executor(engine_name)
        # Left open by ``close`` for a step after the set (the live audit on the cluster);
        # its caller closes it.
        self.keep_executor = False
        self.stdin = stdin
        self.options = replace(options, collect=True)
        self.engine_name = engine_name
        self.sitemap_url_for = sitemap_url_for
        self.progress = progress
        self.robots: list[tuple[str, str]] = []
        self.hosts: HostPolicy | None = None  # set by run(): the hosts its inputs name
        self._pinned = False  # whether the named hosts were pinned for other machines
        self._fetcher: Fetcher | None = None
        self._lock = threading.Lock()
        self.discovery = Discovery(settings, self._fetch, self.options.enabled)
        self._done = 0

    # -- the run ---------------------------------------------------------------

    def run(self, arguments: list[str]) -> list[FileResult]:
        try:
            self.hosts = self._host_policy(arguments)
            self._load_robots()
            roots = self._roots(arguments)
            robots_first = [job for job in roots if _named_robots(job)]
            self._check_level(robots_first)
            for job in robots_first:
                self._learn_robots(job)
            level = [job for job in roots if not _named_robots(job)]
            self._check_level(level)
            level = list(roots)
            while level:
                level = self.discovery.next_level(level)
                self._check_level(level)
                level = self.discovery.redirected_back(level)
            jobs = [job for root in roots for job in root.preorder()]
            self._check_set(jobs, roots)
            # Files named together are reported as before; a site (fetched, followed, or
            # with robots.txt) gets a section per file in the text report.
            site = any(
                job.fetch or job.parent or job.robots_text is not None for job in jobs
            ) or bool(self.settings.follow or self.settings.robots or self.settings.maps)
            results = [_finished(job, site, self.options) for job in jobs]
            number = {id(job): index for index, job in enumerate(jobs)}
            for job, result in zip(jobs, results, strict=True):  # which file listed which
                result.parent = number[id(job.parent)] if job.parent is not None else None
            return results
        finally:
            self.close()

    def close(self) -> None:
        if self._fetcher is not None:
            self._fetcher.close()
            self._fetcher = None
        if not self.keep_executor:
            self.executor.close()

    def _local_executor(self, engine_name: str) -> LocalExecutor:
        return LocalExecutor(engine_name, self.settings.workers, self._fetch)

    # -- inputs ------------------------------------------------------------------

    def _host_policy(self, arguments: list[str]) -> HostPolicy:
        """The hosts a fetch may reach whatever their address: those of the URLs the
        user gave (inputs, --robots, --map prefixes, --sitemap-url)."""
        from sitemap_lint.inputs.guard import HostPolicy

        settings = self.settings
        urls = [
            *self._fetched_first(arguments),
            *(prefix for prefix, _directory in settings.maps),
            *settings.named_urls,
        ]
        return HostPolicy.naming(urls, allow_private=settings.allow_private_hosts)

    def _fetched_first(self, arguments: list[str]) -> list[str]:
        """The URLs the run fetches first: its inputs', then the --robots files'."""
        robots = self.settings.robots
        return [*(a for a in arguments if is_url(a)), *(r for r in robots if is_url(r))]

    def _roots(self, arguments: list[str]) -> list[Job]:
        roots: list[Job] = []
        for argument in arguments:
            if is_url(argument):
                roots.append(self._url_root(argument))
                continue
            for source in expand([argument], self.settings.stdin_name):
                if source.is_stdin and self.stdin is None and self.executor.elsewhere:
                    # Checked in another process: its bytes go with the task.
                    self.stdin = Source(source.name, None, data=read_standard_input())
                if source.is_stdin and self.stdin is not None:
                    source = self.stdin
                roots.append(self._local_root(source))
        # An input given twice (a path and the same file by another, a URL twice) is
        # checked once, under the name it was first given.
        once: dict[str, Job] = {}
        for job in roots:
            once.setdefault(job.key, job)
        roots = list(once.values())
        # A local input whose URL --sitemap-url gives is the file at that URL (an index
        # that lists the URL lists itself), unless other inputs are given that URL too.
        sharing = Counter(job.served for job in roots if job.served is not None)
        for job in roots:
            if job.served is not None and sharing[job.served] == 1 and job.served not in once:
                job.key = job.served
        self.discovery.add_roots(roots)
        return roots

    def _url_root(self, url: str) -> Job:
        """An input given as a URL: read from its directory when a --map prefix covers
        it, else fetched."""
        key = canonical_url(url)
        mapped = self.discovery.maps.file(url)
        if mapped is None:
            return Job(url, key, 0, url=url, fetch=True)
        path, problem = mapped
        if problem is not None:
            raise InputError(problem)
        return Job(_shown_path(path), key, 0, path=path, url=url)

    def _local_root(self, source: Source) -> Job:
        given = self.sitemap_url_for(source.name)
        served = canonical_url(f"{given.origin}{given.path}") if given is not None else None
        if source.path is None:
            return Job(source.name, "-", 0, data=source.data, served=served)
        resolved = real_path(source.path)
        url = self.discovery.maps.url(resolved)
        if url is not None:
            return Job(source.name, canonical_url(url), 0, path=source.path, url=url)
        return Job(source.name, f"file://{resolved}", 0, path=source.path, served=served)

    def _load_robots(self) -> None:
        """The robots.txt files given with --robots: read or fetched, never reported."""
        named_by = dict(self.settings.robots_named_by)
        for where in self.settings.robots:
            label = f"{named_by.get(where, '--robots')} {where}"
            mapped = self.discovery.maps.file(where) if is_url(where) else None
            if mapped is not None:  # under a --map prefix: read from its directory
                path, problem = mapped
                if problem is not None:
                    raise InputError(f"{label}: {problem}")
                data = _local_robots(label, _read_start(Source(label, path)))
                self.robots.append((where, _robots_text(data)))
                continue
            if is_url(where):
                fetched = self._fetch(where)
                if fetched.body is None:
                    found = fetch_findings(fetched.problems)
                    reason = found[0].message if found else "no body"
                    reason = reason.removeprefix(f"cannot fetch {where}: ")
                    raise InputError(f"{label}: cannot fetch: {reason}")
                text = _robots_text(fetched.body)
                self.robots.extend((url, text) for url in _governed(where, fetched.final_url))
                continue
            path = Path(where)
            if not path.exists():
                if where == STDIN:
                    raise InputError(
                        f"{label}: standard input is read as an input only; give the"
                        " robots.txt's file or URL, or check it as an input ('-')"
                    )
                unfetched = unfetched_url(where)
                if unfetched is not None:
                    raise InputError(f"{label}: {unfetched}")
            data = _local_robots(label, _read_start(Source(label, path)))
            url = self.discovery.maps.url(real_path(path))
            self.robots.append((url or "", _robots_text(data)))
        self.options = replace(self.options, robots=tuple(self.robots))

    def _learn_robots(self, job: Job) -> None:
        """A robots.txt among the inputs informs the checks of every other file."""
        if job.robots_text is None:
            return
        text = job.robots_text
        if job.url is None:
            self.robots.append(("", text))
        else:
            self.robots.extend((url, text) for url in _governed(job.url, job.final_url))
        self.options = replace(self.options, robots=tuple(self.robots))

    # -- checking a level ------------------------------------------------------

    def _check_level(self, level: list[Job]) -> None:
        """Check the files of ``level``, in batches the byte limit allows (``affordable``)."""
        while level:
            batch, level = self.discovery.affordable(level)
            if any(job.fetch for job in batch):
                self._pin_named()
            tasks = [self._task(job, absolute=self.executor.elsewhere) for job in batch]
            for job, checked in zip(batch, self.executor.check(tasks), strict=True):
                self._take(job, checked)
                self._advance(1)
            self.discovery.bytes += sum(job.size - job.planned for job in batch)

    def _pin_named(self) -> None:
        """Before the first task that fetches goes to another machine, pin every host the
        run names (``hosts``: the inputs', --robots', the --map prefixes', --sitemap-url's),
        so that every copy of the table its tasks carry holds the addresses of the one
        first lookup. Any fetch may reach any of them (a redirect leads anywhere); a task
        that reads a file connects nowhere, and a worker keeps the copy of its first
        fetch (``cluster._fetcher``). Hosts no one named are not pinned: their addresses
        are checked at every lookup."""
        pins = self.settings.pins
        if self._pinned or pins is None or self.hosts is None:
            return
        self._pinned = True
        if not isinstance(self.executor, LocalExecutor):  # here, the one table is the run's
            pins.resolve(self.hosts)

    def _advance(self, count: int) -> None:
        self._done += count
        if self.progress is not None:
            self.progress(self._done, self.discovery.files)

    def _task(self, job: Job, absolute: bool = False) -> FileTask:
        """``absolute``: the path as another process (another working directory) reads it."""
        path = job.path.absolute() if absolute and job.path is not None else job.path
        return FileTask(
            job.name,
            path,
            job.url,
            job.fetch,
            job.data,
            self._options_for(job),
            _named_robots(job),
            job.parent is not None,
            self.hosts,
            self.settings.pins,
        )

    @staticmethod
    def _take(job: Job, checked: Checked) -> None:
        job.result, job.size, job.robots_text = checked.result, checked.size, checked.robots_text
        job.final_url = checked.final_url
        checked.result.open_sink()  # the findings across files go there
        facts = checked.result.facts
        job.alternates = checked.alternates or (len(facts.alternates) if facts else 0)
        job.handle = checked.handle

    def _options_for(self, job: Job) -> Options:
        parsed = parse_url(job.url) if job.url else None
        location = with_query(parsed, job.url) if parsed is not None and job.url else None
        if location is None and job.parent is None:
            location = self.sitemap_url_for(job.name)
        # A body fetched from a URL the user did not give is not quoted in messages.
        quote = not _fetched_child(job)
        return replace(self.options, sitemap_url=location, quote=quote)

    def _fetch(self, url: str) -> Fetched:
        with self._lock:
            if self._fetcher is None:
                from sitemap_lint.inputs.fetch import Fetcher, FetchSettings

                hosts = self.hosts if self.hosts is not None else self._host_policy([])
                self._fetcher = Fetcher(
                    FetchSettings(self.settings.timeout, hosts=hosts, pins=self.settings.pins)
                )
            fetcher = self._fetcher
        return fetcher.get(url)

    # -- checks across the set -------------------------------------------------------

    def _check_set(self, jobs: list[Job], roots: list[Job]) -> None:
        """Hand the set, every file checked, to the ``set`` checks the run needs."""
        checks = self._set_checks()
        if not checks:
            return
        checked = [job for job in jobs if job.result is not None and job.result.facts is not None]
        if not checked:
            return  # no file was checked (a URL whose fetch failed): no set to check
        number = {id(job): index for index, job in enumerate(checked)}
        files = [
            rules.SetFile(
                job.name,
                job.key,
                _facts(job),
                number.get(id(job.parent)) if job.parent is not None else None,
                job.entry,
                job.handle,
                job.alternates,
            )
            for job in checked
        ]
        executor = self.executor

        def duplicates(indexes: Sequence[int], urls: int) -> list[Duplicate]:
            return executor.duplicates([files[index].handle for index in indexes], urls)

        def hreflang(records: int) -> list[tuple[int, Finding]]:
            named = [(file.name, file.handle, file.facts.pointer) for file in files]
            return executor.hreflang(named, records)

        event = rules.CheckedSet(
            files, [root.key for root in roots], _listed_key, duplicates, hreflang
        )
        results = [job.result for job in checked if job.result is not None]
        selection = self.options.selection
        levels = (
            [selection.for_file(result.name) for result in results]
            if selection is not None
            else None
        )
        report = SetReport([result.open_sink() for result in results], levels)
        for check in checks:
            check(event, self.options, report)

    def _set_checks(self) -> tuple[Callable[..., None], ...]:
        """The ``set`` checks of the rules the run reports."""
        return calls(SET, self.options.enabled)


# -- --map ---------------------------------------------------------------------------


class Maps:
    """The ``--map`` prefixes and their directories, each prefix folded
    (``_origin_folded``) and each directory resolved once for the run, which asks them
    about every sitemap an index lists."""

    def __init__(self, maps: Sequence[tuple[str, Path]]) -> None:
        # (prefix as given, prefix folded, directory resolved, directory as shown)
        self._maps = tuple(
            (prefix, _origin_folded(prefix), real_path(directory), _shown_path(directory))
            for prefix, directory in maps
        )

    def __bool__(self) -> bool:
        return bool(self._maps)

    def covers(self, url: str) -> bool:
        """Whether ``url`` is under a prefix (read from a directory, or said unreadable)."""
        folded = _origin_folded(url)
        return any(folded.startswith(start) for _prefix, start, _base, _where in self._maps)

    def file(self, url: str) -> tuple[Path, str | None] | None:
        """The local file ``url`` maps to, and why it cannot be read, if so."""
        folded = _origin_folded(url)
        for _prefix, start, base, where in self._maps:
            if not folded.startswith(start):
                continue
            rest = urlsplit(folded[len(start) :])
            relative = unquote(rest.path)
            if "\x00" in relative:
                return (
                    base,
                    f"{url} has a NUL byte (%00) in its path, which no file name has; it was not read",
                )
            path = real_path(base / relative)
            shown = f"{where}/{relative}" if relative else where
            if rest.query:
                return path, f"{url} has a query string and cannot map to a file under {where}"
            if path != base and base not in path.parents:
                return path, f"{url} maps to {shown}, outside {where}; it was not read"
            if not _is_regular_file(path):
                return path, f"{url} maps to {shown}, {_not_a_file(path)}"
            if relative.endswith("/"):
                # A file's name with a final "/" names a directory: the server finds none.
                return path, (
                    f"{url} maps to {shown}, but {shown.rstrip('/')} is a file, not a "
                    "directory, so a static server answers 404 for it; remove the final '/' "
                    "from the URL"
                )
            return path, None
        return None

    def url(self, path: Path) -> str | None:
        """The URL the local file ``path`` (resolved) is served at."""
        for prefix, _start, base, _where in self._maps:
            if path == base or base in path.parents:
                relative = path.relative_to(base).as_posix()
                return prefix + ("" if relative == "." else relative)
        return None


def _is_regular_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long, which ``is_file`` raises on
        return False


def _not_a_file(path: Path) -> str:
    """Why a mapped ``path`` that is no regular file cannot be checked, and what to do."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "which does not exist; build the file or remove the entry"
    except OSError as error:  # a loop of symbolic links, a name too long
        reason = error.strerror or type(error).__name__
        return f"which cannot be read ({reason}); fix the file or remove the entry"
    return f"which is {file_kind(mode)}, not a file; build the file or remove the entry"


# -- checks across the set ---------------------------------------------------------


class SetReport:
    """The ``set`` checks' findings, each handed to its file's sink (open until the set
    is done), through its ``add``. ``levels``: each file's rule levels (its per-file
    ignores applied; None: every rule), which the sinks get only when they close."""

    def __init__(
        self, sinks: Sequence[FindingSink], levels: Sequence[Levels | None] | None = None
    ) -> None:
        self.sinks = sinks
        self.levels = levels

    def add(self, file: int, finding: Finding) -> None:
        self._sink(file).add(finding)

    def withdraw(self, file: int, code: str, line: int, column: int) -> None:
        self._sink(file).withdraw(code, line, column)

    def silencer(self, file: int, code: str) -> Callable[[int], bool] | None:
        suppressions = self._sink(file).suppressions
        levels = self.levels[file] if self.levels is not None else None
        if levels is not None and code in levels and levels[code] is None:
            # A per-file ignore of the code: as a disable-file directive of the file.
            return _always
        return None if suppressions is None else suppressions.silencer(code)

    def holds(self, file: int, code: str, line: int, column: int) -> bool:
        return self._sink(file).holds(code, line, column)

    def _sink(self, file: int) -> FindingSink:
        """The sink of the file at index ``file`` of ``CheckedSet.files``; a bad index is
        refused by name (a negative one would silently count from the end)."""
        count = len(self.sinks)
        if isinstance(file, bool) or not isinstance(file, int) or not 0 <= file < count:
            raise IndexError(
                f"no file {file!r} in a set of {count} file{'' if count == 1 else 's'}: "
                f"a set reporter takes the index of a file of checked.files (0 to {count - 1})"
            )
        return self.sinks[file]


def _always(line: int) -> bool:
    return True


class Discovery:
    """Which files a set's checked files lead to: an index's children, a robots.txt's
    sitemaps, the indexes below a nested index; each file once (``seen``), within the
    run's depth, file and byte limits, with the findings of the following itself (SE002
    while following or through a redirect, SE003, SE004, SE005, SE007, SE008) in the
    listing file's sink.

    One class, longer than most: each way a listed file is not followed is decided
    against the same state (the files seen and peeked, the bytes and files counted, the
    limits already reported), which every step reads and updates in the entries'
    order; split, that state would be passed between the parts at every entry."""

    def __init__(
        self,
        settings: SetSettings,
        fetch: Callable[[str], Fetched],
        enabled: frozenset[str] | None = None,
    ) -> None:
        self.settings = settings
        self.fetch = fetch
        self.enabled = enabled  # the rules the run reports: the ``listed`` checks it needs
        self.maps = Maps(settings.maps)
        # Each file of the set by key: an input's job, or the file that lists it and the entry.
        self.seen: dict[str, Job | tuple[Job, Child]] = {}
        self._peeked: set[str] = set()  # children of nested indexes read for their root
        self._limits_reported: set[str] = set()
        self.files = 0  # in the set so far
        self.bytes = 0  # read so far
        # Sitemaps listed that the run was not asked to read (no --follow, no --map for
        # them) -> the file that lists them first: a diff would miss their URLs.
        self.not_asked: dict[str, str] = {}
        # A sitemap an index lists twice is DU001's, when the run reports it (not SE004's).
        self._repeats_are_duplicates = enabled is None or DUPLICATE_LOC.code in enabled

    def add_roots(self, roots: list[Job]) -> None:
        self.files = len(roots)
        for job in roots:
            self.seen.setdefault(job.key, job)

    def next_level(self, level: list[Job]) -> list[Job]:
        """The files the files of ``level`` list, to check next."""
        following: list[Job] = []
        for job in level:
            result = job.result
            facts = result.facts if result is not None else None
            if facts is None or facts.kind not in LISTING_KINDS:
                continue
            parent = job.parent
            if facts.kind == "robots" and parent is not None:
                self._listed_robots(job)  # its Sitemap lines are not followed from here
                continue
            may_fetch = self.settings.follow or any(j.fetch for j in (job, *job.ancestors()))
            if facts.kind == "sitemapindex" and parent is not None:
                assert parent.result is not None  # checked on an earlier level
                parent_kind = parent.result.facts.kind if parent.result.facts else ""
                if parent_kind == "sitemapindex":
                    self._nested(job)
                    if may_fetch or self.maps:
                        following += self._indexes_below(job, facts, may_fetch)
                    continue
            if not (may_fetch or self.maps):
                for child in facts.children:
                    self.not_asked.setdefault(child.url, job.name)
                continue
            # The normal forms listed so far: a repeat among them is DU001's in an index.
            # A robots.txt's facts leave out the lines RB003 reports; a repeat that it
            # does not compare (written with dot segments) is SE004's.
            duplicates = self._repeats_are_duplicates and facts.kind != "robots"
            listed: set[str] | None = set() if duplicates else None
            for child in facts.children:
                repeat = False
                if listed is not None:
                    normal = normal_url(child.url)
                    repeat = normal in listed
                    listed.add(normal)
                if not may_fetch and not self.maps.covers(child.url):
                    # (Reading a local file never leads to the network unasked.)
                    self.not_asked.setdefault(child.url, job.name)
                    continue
                new = self._child(job, child, repeat)
                if new is not None:
                    job.children.append(new)
                    following.append(new)
        return following

    def _nested(self, job: Job) -> None:
        entry = job.entry
        assert entry is not None and job.result is not None and job.result.facts is not None
        assert job.parent is not None and job.parent.result is not None  # a listed index
        count = len(job.result.facts.children)
        xpath = _loc_path(job.parent, entry)
        nested = Unfollowed(
            FollowKind.NESTED, entry.url, entry.line, entry.column, value=count, xpath=xpath
        )
        self._unfollowed(job.parent.result.open_sink(), nested)

    def _listed_robots(self, job: Job) -> None:
        """SE008 for the entry (or Sitemap line) that lists ``job``, a robots.txt."""
        entry = job.entry
        assert entry is not None and job.parent is not None and job.parent.result is not None
        xpath = _loc_path(job.parent, entry)
        listed = Unfollowed(FollowKind.ROBOTS, entry.url, entry.line, entry.column, xpath=xpath)
        self._unfollowed(job.parent.result.open_sink(), listed)

    def _nested_input(self, job: Job, listed: Job, child: Child, sink: FindingSink) -> None:
        """SE003 for an index's entry whose sitemap, an input of the run too (``listed``: a
        directory's file), is an index itself: as when it is checked below this index only;
        SE008 for an entry (or Sitemap line) whose file, an input too, is a robots.txt."""
        facts = listed.result.facts if listed.result is not None else None
        own = job.result.facts if job.result is not None else None
        if facts is not None and facts.kind == "robots" and own is not None:
            xpath = rules.loc_path(own, child.index)
            robots = Unfollowed(
                FollowKind.ROBOTS, child.url, child.line, child.column, "input", xpath=xpath
            )
            self._unfollowed(sink, robots)
            return
        if facts is None or facts.kind != "sitemapindex" or own is None:
            return
        if own.kind != "sitemapindex":
            return
        count = len(facts.children)
        nested = Unfollowed(
            FollowKind.NESTED,
            child.url,
            child.line,
            child.column,
            "input",
            count,
            rules.loc_path(own, child.index),
        )
        self._unfollowed(sink, nested)

    def _unfollowed(self, sink: FindingSink, listed: Unfollowed) -> None:
        """Hand a listed sitemap the set does not follow to the ``listed`` checks."""
        once(LISTED, listed, None, sink, self.enabled)

    def _indexes_below(self, job: Job, facts: FileFacts, may_fetch: bool) -> list[Job]:
        """The children of a nested index that are sitemap indexes themselves, as jobs to
        check (their own children are not followed either). The other children are only
        read far enough to see their root element, and not reported: a cycle through any
        number of indexes (a -> b -> c -> a) then closes in a checked file, where
        ``rules.check_cycles`` finds it. Files already in the set are left to that check."""
        looks: list[tuple[Child, str]] = []
        reserved = 0  # the most the peeks may read, each counted until it is done
        for child in facts.children:
            key = _listed_key(child.url)
            if key is None or key in self._peeked:
                continue
            earlier = self.seen.get(key)
            if isinstance(earlier, Job) and job.result is not None:
                # An input of the run: an index there is SE003 as when it is peeked.
                self._nested_input(job, earlier, child, job.result.open_sink())
            if earlier is not None:
                continue
            mapped = self.maps.covers(child.url)
            if not may_fetch and not mapped:
                continue
            if self._limit(job) is not None or len(self._peeked) >= self.settings.max_files:
                break
            if self.bytes + reserved >= self.settings.max_bytes:
                break
            reserved += PEEK_BYTES if mapped else FETCH_RESERVE
            self._peeked.add(key)
            looks.append((child, key))
        if not looks:
            return []
        threads = min(FETCH_THREADS, len(looks))
        with fetch_threads(threads) as executor:
            peeked = list(executor.map(lambda look: self._peek(look[0].url), looks))
        self.bytes += sum(read for _kind, _where, read in peeked)
        found: list[Job] = []
        for (child, key), (kind, where, _read) in zip(looks, peeked, strict=True):
            if kind != "sitemapindex" or self._limit(job) is not None:
                continue
            if where is not None:
                new = Job(_shown_path(where), key, job.depth + 1, path=where, url=child.url)
            else:  # fetched again to be checked, with what the fetch itself finds
                new = Job(child.url, key, job.depth + 1, url=child.url, fetch=True)
            new.parent, new.entry = job, child
            self.seen[key] = (job, child)
            self.files += 1
            self._plan(new)
            job.children.append(new)
            found.append(new)
        return found

    def _peek(self, url: str) -> tuple[str, Path | None, int]:
        """The root element's local name of the sitemap at ``url`` ("" when it cannot be
        read), with the file it maps to (None: fetched) and the bytes read for it (what
        ``--max-bytes`` counts: a fetch reads the whole body)."""
        mapped = self.maps.file(url)
        if mapped is not None:
            path, problem = mapped
            if problem is not None:
                return "", None, 0
            source, where, read = Source(url, path), path, PEEK_BYTES
        else:
            fetched = self.fetch(url)
            if fetched.body is None:
                return "", None, 0
            source, where = Source(url, None, url=url, data=fetched.body), None
            read = len(fetched.body)
        try:
            return root_name(_read_start(source, PEEK_BYTES)), where, read
        except (InputError, OSError, EOFError, ValueError):
            return "", None, read

    def _child(self, job: Job, child: Child, repeat: bool = False) -> Job | None:
        """The job for a child ``job`` lists, or None when it is not followed (reported
        why, unless it is a ``repeat`` of an earlier entry of ``job``, DU001's)."""
        assert job.result is not None  # its facts listed the child
        sink = job.result.open_sink()
        if not is_url(child.url) or parse_url(child.url) is None:
            return None  # the URL rules already reported the entry
        key = canonical_url(child.url)
        if any(up.key == key and _is_robots(up) for up in (job, *job.ancestors())):
            # This robots.txt or the one above, an input: SE008's, no cycle.
            self._unfollowed(sink, _listed(job, FollowKind.ROBOTS, child, "input"))
            return None
        if key == job.key or any(key == up.key for up in job.ancestors()):
            which = "self" if key == job.key else "above"
            # (The scope check reports an index listing itself where it knows its URL.)
            if which == "above" or not sink.holds(INDEX_CYCLE.code, child.line, child.column):
                self._unfollowed(sink, _listed(job, FollowKind.CYCLE, child, which))
            return None
        if repeat:
            return None  # one finding for it: DU001's, as a robots.txt's repeat is RB003's
        earlier = self.seen.get(key)
        if isinstance(earlier, Job):
            # An input of the run (named, or found in a directory): checked as one,
            # which says nothing about the sitemaps; a nested index is SE003's.
            self._nested_input(job, earlier, child, sink)
            return None
        if earlier is not None:
            lister, first_entry = earlier
            where = f"{lister.name}, line {first_entry.line}"
            self._unfollowed(sink, _listed(job, FollowKind.TWICE, child, where))
            return None
        limit = self._limit(job)
        if limit is not None:
            if limit not in self._limits_reported:
                self._limits_reported.add(limit)
                value = {
                    "depth": self.settings.max_depth,
                    "files": self.settings.max_files,
                    "bytes": self.settings.max_bytes,
                }[limit]
                self._unfollowed(sink, _listed(job, FollowKind.LIMIT, child, limit, value))
            return None
        mapped = self.maps.file(child.url)
        if mapped is not None:
            path, problem = mapped
            if problem is not None:
                self._unfollowed(sink, _listed(job, FollowKind.NOT_FOUND, child, problem))
                self.seen[key] = (job, child)
                return None
            new = Job(
                _shown_path(path),
                key,
                job.depth + 1,
                path=path,
                url=child.url,
                parent=job,
                entry=child,
            )
        else:
            new = Job(
                child.url, key, job.depth + 1, url=child.url, fetch=True, parent=job, entry=child
            )
        self.seen[key] = (job, child)
        self.files += 1
        self._plan(new)
        return new

    def _plan(self, job: Job) -> None:
        """Count the bytes of a local file as soon as it is listed: the files of one level
        are checked together, and the byte limit must hold between them too (a fetched
        file's size is known once it is read)."""
        if job.path is None:
            return
        try:
            job.planned = job.path.stat().st_size
        except OSError:
            return
        self.bytes += job.planned

    def affordable(self, level: list[Job]) -> tuple[list[Job], list[Job]]:
        """The jobs of ``level`` to check now, and those to check once their sizes are
        known. A local file's bytes were counted when it was listed; a fetched child's are
        known only once it is read, so each counts as the most a fetch reads
        (``READ_CAP``) until then: a fetched child is read only while the bytes read
        before it (in the level's order) are below ``--max-bytes``, as a local one is.
        When none can be read, the fetched children left are not followed (SE005 at the
        first one's entry)."""
        reserved = 0
        for at, job in enumerate(level):
            if not _fetched_child(job):
                continue  # counted when listed, or an input
            if self.bytes + reserved < self.settings.max_bytes:
                reserved += FETCH_RESERVE
                continue
            if at:
                return level[:at], level[at:]
            kept = [j for j in level if not _fetched_child(j)]
            for dropped in filter(_fetched_child, level):
                self._drop(dropped)
            return kept, []
        return level, []

    def redirected_back(self, level: list[Job]) -> list[Job]:
        """The jobs of ``level`` but the fetched sitemaps whose URL redirects to a file the
        set has already: the file that lists them or an index above it (SE002 on the
        listing entry, naming where the redirect ends), or a sitemap listed elsewhere in
        the set (SE004 there, naming where it is listed); the set does not check a file
        twice."""
        kept: list[Job] = []
        for job in level:
            cycle = _redirected_to_lister(job)
            where = "" if cycle else self._redirected_to_listed(job)
            if not cycle and not where:
                kept.append(job)
                continue
            parent, entry, final = job.parent, job.entry, job.final_url
            assert parent is not None and entry is not None and parent.result is not None
            assert final is not None
            parent.children.remove(job)
            self.files -= 1
            if cycle:
                listed = _listed(parent, FollowKind.CYCLE, entry, cycle)
            else:
                listed = _listed(parent, FollowKind.TWICE, entry, where)
            self._unfollowed(parent.result.open_sink(), listed._replace(redirected=final))
        return kept

    def _redirected_to_listed(self, job: Job) -> str:
        """Where the sitemap a fetched child's redirects end on is listed (as SE004 names
        it), when the set checks it as another file; "" when not. The final URL of a
        child kept counts as listed by its entry from then on."""
        key = _redirected_key(job)
        if key is None:
            return ""
        parent = job.parent
        assert parent is not None and job.entry is not None  # (a listed child's)
        earlier = self.seen.get(key)
        if isinstance(earlier, Job):
            return "input"
        if earlier is None:
            self.seen[key] = (parent, job.entry)
            return ""
        lister, first_entry = earlier
        if not any(_checked_as(child, key) for child in lister.children):
            return ""  # listed, but not checked there (a missing local file)
        return f"{lister.name}, line {first_entry.line}"

    def _drop(self, job: Job) -> None:
        """Leave out a fetched child listed before the byte limit was reached."""
        parent, entry = job.parent, job.entry
        assert parent is not None and entry is not None and parent.result is not None
        parent.children.remove(job)
        self.seen.pop(job.key, None)
        self.files -= 1
        if "bytes" not in self._limits_reported:
            self._limits_reported.add("bytes")
            limit = self.settings.max_bytes
            self._unfollowed(
                parent.result.open_sink(), _listed(parent, FollowKind.LIMIT, entry, "bytes", limit)
            )

    def _limit(self, job: Job) -> str | None:
        if job.depth + 1 > self.settings.max_depth:
            return "depth"
        if self.files >= self.settings.max_files:
            return "files"
        if self.bytes >= self.settings.max_bytes:
            return "bytes"
        return None


@contextmanager
def fetch_threads(count: int) -> Iterator[ThreadPoolExecutor]:
    """Threads that fetch: left behind when the run is interrupted (Ctrl-C) or its result
    is no longer wanted, rather than waited for until each fetch times out."""
    executor = ThreadPoolExecutor(count, thread_name_prefix="sitemap-lint")
    try:
        yield executor
    except BaseException:
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown()


class LocalExecutor:
    """``Executor`` in this process: a level's files fetched in threads, big files checked
    in worker processes when a level has several, duplicates compared a few hash slices at
    a time in those processes; a checked file's handle is its facts."""

    elsewhere = False

    def __init__(self, engine_name: str, workers: int, fetch: Callable[[str], Fetched]) -> None:
        self.engine_name = engine_name
        self.workers = workers or _cores()  # 0: one per core
        self.fetch = fetch
        self._pool: ProcessPoolExecutor | None = None
        self._pool_broken = False
        self._engine: Engine | None = None
        self._lock = threading.Lock()

    def check(self, tasks: Sequence[FileTask]) -> Iterator[Checked]:
        use_pool = self.workers > 1 and len(tasks) > 1
        if not use_pool and not any(task.fetch for task in tasks):
            # Nothing to wait for: check here, one file after the other (threads would
            # each keep a memory arena of their own).
            for task in tasks:
                yield self._run(task, use_pool=False)
            return
        threads = min(FETCH_THREADS, len(tasks))
        with fetch_threads(threads) as executor:
            futures = [executor.submit(self._run, task, use_pool) for task in tasks]
            for future in futures:
                yield future.result()

    def _run(self, task: FileTask, use_pool: bool) -> Checked:
        def check(source: Source, options: Options, big: bool) -> FileResult:
            return self.check_file(source, options, use_pool and big)

        checked = run_task(task, self.fetch, check)
        checked.handle = checked.result.facts
        return checked

    def check_file(self, source: Source, options: Options, in_pool: bool) -> FileResult:
        """One file's result, checked in a worker process when ``in_pool``."""
        if in_pool and not self._pool_broken:
            try:
                pool = self.pool()
                return pool.submit(check_in_worker, source, options, self.engine_name).result()
            except (BrokenProcessPool, OSError, RuntimeError):
                # No worker processes here (e.g. a caller's script without a main
                # guard, or no way to start processes): check in this process.
                self._pool_broken = True
        with self._lock:
            if self._engine is None:
                from sitemap_lint import xsd

                self._engine = xsd.load(self.engine_name)
            return check_for_set(source, options, self._engine)

    def pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=context, initializer=_prepare_worker
                )
            return self._pool

    def duplicates(self, handles: Sequence[object], urls: int) -> list[Duplicate]:
        """In the worker processes that checked the files, when there are some."""
        files = [cast(FileFacts, facts) for facts in handles]
        if self._pool is not None and not self._pool_broken:
            try:
                return find_duplicates(files, self._pool)
            except (BrokenProcessPool, OSError, RuntimeError):
                self._pool_broken = True
        return find_duplicates(files)

    def hreflang(
        self, files: Sequence[tuple[str, object, EntryPointer | None]], records: int
    ) -> list[tuple[int, Finding]]:
        named = [(name, cast(FileFacts, facts)) for name, facts, _pointer in files]
        return rules.hreflang_findings(named)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def _cores() -> int:
    try:  # a system call; os.cpu_count() would read a file under /sys
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


DUPLICATE_SLICES = HASH_SLICES  # the hash space compared one slice at a time
SLICES_IN_FLIGHT = 4  # slices sent to worker processes and not yet compared


def hash_slice(facts: FileFacts, part: int, parts: int = DUPLICATE_SLICES) -> Slice:
    """A file's URL hashes in slice ``part`` of ``parts`` (a power of two) of the 64-bit
    hash space, in the file's order, with their positions and entries' indexes."""
    return facts.hash_slice(part, parts)


def duplicates_in_slice(pieces: Sequence[Slice]) -> list[Duplicate]:
    """The URLs of one hash slice already listed by an earlier file (``pieces``: each
    file's ``hash_slice``, in the order of the set)."""
    # Each hash is made an int once; the sets' passes run in C. The hashes in several
    # files are found first; a second pass finds the files that list each of them
    # (Python work only for those few).
    chunks = [piece[0].tolist() for piece in pieces]
    seen: set[int] = set()
    repeated: set[int] = set()
    for chunk in chunks:
        repeated |= seen.intersection(chunk)
        seen.update(chunk)
    del seen
    duplicates: list[Duplicate] = []
    if not repeated:
        return duplicates
    first: dict[int, int] = {}
    # Where each file first lists each of its repeated hashes.
    listed = [
        _first_listings(piece, repeated.intersection(chunk))
        for chunk, piece in zip(chunks, pieces, strict=True)
    ]
    for index, listings in enumerate(listed):
        for value in sorted(listings):
            first_index = first.setdefault(value, index)
            if first_index != index:
                packed, entry = listings[value]
                first_line = listed[first_index][value][0] >> 32
                duplicates.append(
                    (
                        index,
                        value,
                        first_index,
                        packed >> 32,
                        packed & 0xFFFFFFFF,
                        first_line,
                        entry,
                    )
                )
    return duplicates


# Up to this many hashes are looked up in a slice of a file one scan each; more, through
# a table of the whole slice.
_SCANS = 4


def _first_listings(piece: Slice, values: set[int]) -> dict[int, tuple[int, int]]:
    """The position of the first listing of each of ``values`` in a file's slice, with
    its entry's index."""
    hashes, positions, indexes = piece
    if len(values) <= _SCANS:
        offsets = {value: hashes.index(value) for value in values}
    else:
        table = first_offsets(hashes)
        offsets = {value: table[value] for value in values}
    return {value: (positions[at], indexes[at]) for value, at in offsets.items()}


def find_duplicates(
    files: Sequence[FileFacts], pool: ProcessPoolExecutor | None = None
) -> list[Duplicate]:
    """URLs listed by several of ``files``, one hash slice after the other; with a
    ``pool``, a few slices at a time in its worker processes."""
    found: list[Duplicate] = []
    if pool is None:
        for part in range(DUPLICATE_SLICES):
            found += duplicates_in_slice([hash_slice(facts, part) for facts in files])
        return found
    pending: deque[Future[list[Duplicate]]] = deque()
    for part in range(DUPLICATE_SLICES):
        pending.append(
            pool.submit(duplicates_in_slice, [hash_slice(facts, part) for facts in files])
        )
        if len(pending) > SLICES_IN_FLIGHT:
            found += pending.popleft().result()
    while pending:
        found += pending.popleft().result()
    return found


def run_task(
    task: FileTask,
    fetch: Callable[[str], Fetched],
    check: Callable[[Source, Options, bool], FileResult],
) -> Checked:
    """Read or fetch one file and check it (``check(source, options, big)``). A listed
    file that cannot be read is a finding of its own; an input raises InputError."""
    checked = Checked(FileResult(task.name, []))
    try:
        checked.result = _load_and_check(task, checked, fetch, check)
    except InputError as error:
        if not task.listed:
            raise
        found = FindingList()
        unreadable = Unfollowed(FollowKind.UNREADABLE, task.name, 1, 1, str(error))
        once(LISTED, unreadable, task.options, found, task.options.enabled)
        checked.result = FileResult(task.name, list(found))
    return checked


def _load_and_check(
    task: FileTask,
    checked: Checked,
    fetch: Callable[[str], Fetched],
    check: Callable[[Source, Options, bool], FileResult],
) -> FileResult:
    if not task.fetch:
        if task.path is not None:
            try:
                checked.size = task.path.stat().st_size
            except OSError:
                checked.size = 0
        source = Source(task.name, task.path, url=task.url, data=task.data)
        if task.robots and task.path is not None:
            checked.robots_text = _robots_text(_read_start(source))
        return check(source, task.options, checked.size >= POOL_MIN_SIZE)
    assert task.url is not None  # a fetched file has its URL
    fetched = fetch(task.url)
    enabled = task.options.enabled
    if fetched.body is None:
        return FileResult(task.name, fetch_findings(fetched.problems, enabled))
    checked.size = len(fetched.body)
    checked.final_url = fetched.final_url
    if task.robots:
        checked.robots_text = _robots_text(fetched.body)
    source = Source(task.name, None, url=task.url, data=fetched.body)
    options = task.options
    if options.quote and _redirected_elsewhere(task.url, fetched.final_url):
        options = replace(options, quote=False)  # a body from a URL the user did not give
    result = check(source, options, checked.size >= POOL_MIN_SIZE)
    sink = result.open_sink()
    for problem in fetched.problems:
        once(FETCH, problem, options, sink, enabled)
    return result


def _redirected_elsewhere(url: str, final_url: str) -> bool:
    """Whether a fetch of ``url`` ended on another host or port."""
    if final_url == url:
        return False
    from sitemap_lint.inputs.guard import url_origin

    return url_origin(final_url) != url_origin(url)


def _redirected_key(job: Job) -> str | None:
    """The key (``_listed_key``) of where the fetch of a listed sitemap ended through
    redirects, or None when it was no listed child's, or ended where it was asked."""
    if not job.fetch or job.parent is None or job.entry is None or not job.final_url:
        return None
    key = _listed_key(job.final_url)
    return None if key is None or key == job.key else key


def _redirected_to_lister(job: Job) -> str:
    """Whether the fetch of a listed sitemap ended, through redirects, on the file that
    lists it (``self``) or an index above that one (``above``); "" when not."""
    key = _redirected_key(job)
    parent = job.parent
    if key is None or parent is None:
        return ""
    if key == parent.key:
        return "self"
    return "above" if any(key == up.key for up in parent.ancestors()) else ""


def _checked_as(job: Job, key: str) -> bool:
    """Whether ``job`` is the file of the sitemap ``key`` names, listed or redirected to."""
    return job.key == key or (job.final_url is not None and _listed_key(job.final_url) == key)


def _listed_key(url: str) -> str | None:
    """The identity of a listed sitemap (as jobs have it), or None for an unusable URL."""
    return canonical_url(url) if is_url(url) and parse_url(url) is not None else None


def _prepare_worker() -> None:
    """Worker processes check big files: the garbage collector as the command line tunes it."""
    from sitemap_lint.engine import collector

    collector.tune()


def check_in_worker(source: Source, options: Options, engine_name: str) -> FileResult:
    """Check one file in a worker process; the schema is compiled once per process."""
    engine = _WORKER_ENGINES.get(engine_name)
    if engine is None:
        from sitemap_lint import xsd

        engine = _WORKER_ENGINES[engine_name] = xsd.load(engine_name)
    return check_for_set(source, options, engine)


def check_for_set(source: Source, options: Options, engine: Engine) -> FileResult:
    """One file of a set checked (here, in a worker process or on a cluster's worker),
    its facts compacted for the joins across files."""
    try:
        result = check_source(source, options, engine)
    except Exception as error:
        name_plugin(error)
        raise
    if result.facts is not None:
        result.facts.compact()
    return result


_WORKER_ENGINES: dict[str, Engine] = {}


def canonical_url(url: str) -> str:
    """A URL as compared for identity: scheme and host in lower case, no default port,
    ``.`` and ``..`` segments resolved (RFC 3986, 5.2.4: ``/a/../index.xml`` is
    ``/index.xml``), no fragment."""
    try:
        parts = urlsplit(url.strip())
        netloc = _folded_netloc(parts)
    except ValueError:
        return url.strip()
    path = remove_dot_segments(parts.path or "/")
    return urlunsplit((parts.scheme.lower(), netloc, path, parts.query, ""))


def _fetched_child(job: Job) -> bool:
    """Whether ``job`` is a listed child that is fetched: its size is known once read."""
    return job.fetch and job.parent is not None


def _origin_folded(url: str) -> str:
    """``url`` with its scheme and host in lower case, without a default port and with
    its path's ``.`` and ``..`` segments resolved (``%2e`` is ``.``), as a crawler
    requests it, the rest as written: ``https://EXAMPLE.com:443/a.xml`` is under the
    --map prefix ``https://example.com/``, and ``https://example.com/x/../a.xml`` is
    its ``a.xml`` whatever the directory holds at ``x``."""
    try:
        parts = urlsplit(url)
        if parts.hostname is None or "@" in parts.netloc:
            return url
        netloc = _folded_netloc(parts)
    except ValueError:
        return url
    path = parts.path
    if path:
        path = remove_dot_segments(DOT_ESCAPE.sub(".", path))
    return urlunsplit((parts.scheme.lower(), netloc, path, parts.query, parts.fragment))


def _folded_netloc(parts: SplitResult) -> str:
    """The host of ``parts`` in lower case (an IPv6 address in its brackets), with its
    port unless the scheme's default; a port that is no number raises ValueError."""
    host, port = parts.hostname or "", parts.port
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and (parts.scheme.lower(), port) not in (("http", 80), ("https", 443)):
        netloc = f"{netloc}:{port}"
    return netloc


def _shown_path(path: Path) -> str:
    """A mapped file as the user would write it: relative to the working directory
    when it lies below it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _governed(url: str, served_at: str | None) -> list[str]:
    """The URLs of a fetched robots.txt whose origins its rules govern: the one asked for
    (crawlers apply what a redirect leads to there, RFC 9309, 2.3.1.2) and, when a
    redirect led to another origin, the one that served it (that origin's robots.txt)."""
    if served_at is None or _origin(served_at) == _origin(url):
        return [url]
    return [url, served_at]


def _origin(url: str) -> str | None:
    parsed = parse_url(url)
    return parsed.origin if parsed is not None else None


def _named_robots(job: Job) -> bool:
    name = job.name
    if job.url and job.fetch:
        try:
            name = urlsplit(job.url).path
        except ValueError:  # e.g. an unclosed IPv6 bracket: its fetch reports the URL
            return False
    return names_robots(name)


def _read_start(source: Source, cap: int = ROBOTS_CAP) -> bytes:
    """The first ``cap`` bytes of a file (gzip inflated), as far as a robots.txt is read
    by default (the reader refuses directories, FIFOs and devices with a one-line
    InputError)."""
    data = bytearray()
    for chunk in ByteStream(source, InputChecks(FindingList())).chunks():
        data += chunk
        if len(data) >= cap:
            break
    return bytes(data[:cap])


_PROLOG = re.compile(rb"\s+|(?><\?.*?\?>)|(?><!--.*?-->)|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>", re.S)
_ROOT = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)")


def root_name(data: bytes) -> str:
    """The local name of the root element at the start of an XML file ("" when none is
    seen in ``data``): past a byte-order mark, the declaration, comments, processing
    instructions and a document type declaration. UTF-16 is read as such."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        data = data.decode("utf-16", "replace").encode("utf-8", "replace")
    data = data.removeprefix(b"\xef\xbb\xbf")
    at = 0
    while (match := _PROLOG.match(data, at)) is not None and match.end() > at:
        at = match.end()
    root = _ROOT.match(data, at)
    return root.group(1).decode("ascii") if root is not None else ""


_BYTE_ORDER_MARKS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def _local_robots(label: str, data: bytes) -> bytes:
    """``data``, the start of a local file given as a robots.txt (``label``: the option
    and the file), or a one-line InputError when it clearly is none: markup (a sitemap,
    an HTML page) or bytes no text holds (NUL). A fetched robots.txt is taken as it
    comes: a site's answer is checked as the site gives it."""
    start = data
    for mark in _BYTE_ORDER_MARKS:
        if start.startswith(mark):
            start = start[len(mark) :]
            break
    start = start.lstrip()
    if b"\x00" in data:
        what = "it holds NUL bytes (binary data, or text in UTF-16)"
    elif start.startswith(b"<"):
        name = root_name(data)
        what = f"it starts with markup (<{name}>)" if name else "it starts with markup ('<')"
    else:
        return data
    raise InputError(
        f"{label}: not a robots.txt: {what}; give the site's robots.txt, a UTF-8 text "
        "file of User-agent, Allow, Disallow and Sitemap lines (check a sitemap as an input)"
    )


def _robots_text(data: bytes) -> str:
    return data[:ROBOTS_CAP].decode("utf-8", "replace")


def _finished(job: Job, site: bool, options: Options) -> FileResult:
    """The file's result once the set is done: its sink closed, which passes the
    findings across files through the file's directives and the selection, once. With
    ``--live`` the sink stays open for the live audit (``live.audit.finish``)."""
    result = job.result
    if result is None:  # not reached: every job of a level is checked
        return FileResult(job.name, [])
    facts = result.facts
    if facts is not None:
        result.kind = facts.kind or None
        result.urls = facts.url_count if facts.kind in URL_KINDS else None
    result.site = site
    result.facts = None
    job.handle = None
    if options.live:
        return result
    selection = options.selection
    levels = selection.for_file(result.name) if selection is not None else None
    result.findings = result.open_sink().close(levels)
    result.sink = None
    return result


def _facts(job: Job) -> FileFacts:
    assert job.result is not None and job.result.facts is not None  # a checked file's
    return job.result.facts


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _day(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d")


def _is_robots(job: Job) -> bool:
    facts = job.result.facts if job.result is not None else None
    return facts is not None and facts.kind == "robots"


def _listed(job: Job, kind: str, child: Child, detail: str, value: int = 0) -> Unfollowed:
    """Why ``child``, an entry of the file of ``job``, is not followed."""
    xpath = _loc_path(job, child)
    return Unfollowed(kind, child.url, child.line, child.column, detail, value, xpath)


def _loc_path(job: Job, child: Child) -> str | None:
    """The pointer to the loc of ``child``'s entry in the file of ``job``."""
    facts = job.result.facts if job.result is not None else None
    return rules.loc_path(facts, child.index) if facts is not None else None
