"""A set run on a Dask cluster (``--scheduler``): each file is fetched and checked as a
task on the cluster's workers, and the checks across files run there too.

The discovery (robots.txt -> indexes -> sitemaps, cycles, repeats, limits) stays in the
run's own process (``sets.SetRunner``), which sees only each file's findings and what
the discovery needs: its kind, URL count, children and newest lastmod. A file's URL
hashes and hreflang records stay on the worker that checked it. Duplicates across files
are joined by hash partition: one task per worker cuts the files it holds into the
partitions, and one task per partition compares every worker's pieces of it, so no
process holds the set's hashes. The hreflang records of the set are compared in one
task on the cluster, which gathers every file's records and URL hashes (a target page
that lists no alternates is looked up by hash in every file).

``distributed`` is imported only here, and only when a run names a scheduler; the
functions the workers run import nothing of Dask.
"""

from __future__ import annotations

import gc
import logging
import operator
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from sitemap_lint.errors import SitemapLintError
from sitemap_lint.facts import FileFacts
from sitemap_lint.inputs.reader import InputError
from sitemap_lint.results import FileResult
from sitemap_lint.sets import (
    DUPLICATE_SLICES,
    Checked,
    Duplicate,
    FileTask,
    duplicates_in_slice,
    hash_slice,
    run_task,
)

if TYPE_CHECKING:
    from array import array

    from sitemap_lint.finding import Finding
    from sitemap_lint.inputs.fetch import Fetched, Fetcher
    from sitemap_lint.options import Options
    from sitemap_lint.xsd import Engine

INSTALL = "pip install 'sitemap-lint[dask]'"
# URLs of one hash partition on average (about 100 bytes each while it is compared).
PARTITION_URLS = 4_000_000


class ClusterError(SitemapLintError):
    """The cluster cannot run the set (no Dask, no scheduler, workers lost); one line."""


def resolve_address(scheduler: str) -> str:
    """The scheduler's address: as given, or with ``auto`` from Dask's configuration
    (``DASK_SCHEDULER_ADDRESS`` or the ``scheduler-address`` key)."""
    if scheduler != "auto":
        return scheduler
    import dask.config

    address = dask.config.get("scheduler-address", None)
    if not address:
        raise ClusterError(
            "--scheduler auto: Dask's configuration names no scheduler; set "
            "DASK_SCHEDULER_ADDRESS=tcp://HOST:8786 or give the address"
        )
    return str(address)


def connect(scheduler: str, timeout: float, fetch_timeout: float, engine: str) -> DaskExecutor:
    """A client of the scheduler, once at least one worker is there; ClusterError (one
    line naming the address) when Dask is not installed or nothing answers in time."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--scheduler needs Dask's distributed scheduler: {INSTALL}") from None
    address = resolve_address(scheduler)
    # Dask logs lost connections and retried tasks on stderr; the run says it in one line.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        client_class: Any = distributed.Client  # untyped
        client = client_class(address, timeout=timeout, set_as_default=False)
    except Exception as error:  # OSError, TimeoutError, ValueError (a bad address) ...
        why = "" if isinstance(error, OSError | TimeoutError) else f" ({_reason(error)})"
        raise ClusterError(
            f"--scheduler {address}: cannot reach the scheduler in {timeout:g} s{why}"
        ) from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception:
        client.close()
        raise ClusterError(
            f"--scheduler {address}: no worker joined the scheduler in {timeout:g} s"
        ) from None
    return DaskExecutor(client, address, engine, fetch_timeout)


class DaskExecutor:
    """``sets.Executor`` on a ``distributed.Client``: files checked as tasks, their full
    facts kept on the workers as futures until the run ends."""

    def __init__(self, client: Any, address: str, engine: str, fetch_timeout: float) -> None:
        self.client = client
        self.address = address
        self.engine = engine
        self.fetch_timeout = fetch_timeout

    def check(self, tasks: Sequence[FileTask]) -> Iterator[Checked]:
        submit = self.client.submit
        full = [
            submit(check_on_worker, task, self.engine, self.fetch_timeout, pure=False)
            for task in tasks
        ]
        light = [submit(discovery_view, future, pure=False) for future in full]
        for future, handle in zip(light, full, strict=True):
            checked: Checked = self._result(future)
            checked.handle = handle
            yield checked

    def duplicates(self, handles: Sequence[object], urls: int) -> list[Duplicate]:
        submit = self.client.submit
        parts = partitions(urls)
        # Each worker cuts the files it holds into the hash partitions, in one task; then
        # one task per partition joins the pieces of every worker. Tasks: one per worker
        # and partition, not one per file and partition.
        cuts = [
            submit(
                cut_files,
                [handles[index] for index in indices],
                indices,
                parts,
                workers=[address] if address else None,
                allow_other_workers=True,
                pure=False,
            )
            for address, indices in self._holders(handles).items()
        ]
        joins = [
            submit(
                join_partition,
                [submit(operator.getitem, cut, part, pure=False) for cut in cuts],
                len(handles),
                pure=False,
            )
            for part in range(parts)
        ]
        found: list[Duplicate] = []
        for join in joins:
            found += self._result(join)
        return found

    def hreflang(self, files: Sequence[tuple[str, object]]) -> list[tuple[int, Finding]]:
        submit = self.client.submit
        # Each file's records, URL hashes and positions (for the target pages that list
        # no alternates), gathered in one task that runs the local run's comparison.
        views = [submit(hreflang_view, handle, pure=False) for _name, handle in files]
        names = [name for name, _handle in files]
        found: list[tuple[int, Finding]] = self._result(
            submit(compare_hreflang, names, views, pure=False)
        )
        return found

    def close(self) -> None:
        self.client.close()

    def _holders(self, handles: Sequence[object]) -> dict[str, list[int]]:
        """The file indices whose facts each worker holds ('': none known, e.g. lost)."""
        try:
            who = self.client.who_has(list(handles))
        except Exception as error:
            raise ClusterError(f"--scheduler {self.address}: {_failure(error)}") from None
        holders: dict[str, list[int]] = {}
        for index, handle in enumerate(handles):
            addresses = sorted(who.get(getattr(handle, "key", None), ()) or ())
            holders.setdefault(addresses[0] if addresses else "", []).append(index)
        return holders

    def _result(self, future: Any) -> Any:
        """A task's result; a task's own InputError as it is, any failure of the
        cluster as one line."""
        try:
            return future.result()
        except (InputError, SitemapLintError):
            raise
        except Exception as error:
            raise ClusterError(f"--scheduler {self.address}: {_failure(error)}") from None


def _failure(error: BaseException) -> str:
    name = type(error).__name__
    if name == "KilledWorker":
        return (
            "workers died while checking a file, more often than Dask retries a task; "
            "the run stopped without a report"
        )
    if name in ("CancelledError", "FutureCancelledError", "CommClosedError"):
        return "lost the connection to the scheduler; the run stopped without a report"
    return f"the cluster failed: {_reason(error)}"


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


# -- what the workers run ---------------------------------------------------------------

_local = threading.local()  # each worker thread: its schema engine
_fetchers: dict[float, Fetcher] = {}
_fetchers_lock = threading.Lock()


def check_on_worker(task: FileTask, engine_name: str, fetch_timeout: float) -> Checked:
    """Fetch or read one file and check it, on a worker; the facts are compacted."""

    def check(source: Any, options: Options, big: bool) -> FileResult:
        from sitemap_lint.checker import check_source

        result = check_source(source, options, _engine(engine_name))
        if result.facts is not None:
            result.facts.compact()
        return result

    def fetch(url: str) -> Fetched:
        return _fetcher(fetch_timeout).get(url)

    # The collector as the command and its worker processes tune it (entries are freed
    # as soon as they are checked); Dask's default thresholds made a check 60% slower.
    # Restored afterwards: the worker process is the cluster's, not ours.
    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        return run_task(task, fetch, check)
    finally:
        gc.set_threshold(*thresholds)


def discovery_view(checked: Checked) -> Checked:
    """What the run's own process needs of a checked file: findings, and the facts of
    the discovery without the URL hashes and hreflang records."""
    result = checked.result
    facts = result.facts
    light = None
    alternates = 0
    if facts is not None:
        alternates = len(facts.alternates)
        light = FileFacts(
            kind=facts.kind,
            url_count=facts.url_count,
            newest_lastmod=facts.newest_lastmod,
            children=facts.children,
            normal_forms=facts.normal_forms,  # at most NORMAL_FORMS_KEPT, for SE001
        )
    # The HTML report's counters (a few kilobytes) go with the findings.
    view = FileResult(result.name, list(result.findings), facts=light, stats=result.stats)
    return Checked(view, checked.size, checked.robots_text, alternates)


def partitions(urls: int) -> int:
    """Hash partitions for a set of ``urls``: the local run's 16, doubled until each holds
    at most PARTITION_URLS on average."""
    parts = DUPLICATE_SLICES
    while urls > parts * PARTITION_URLS:
        parts *= 2
    return parts


Piece = tuple[int, "array[int]", "array[int]"]  # (file index, hashes, positions)


def cut_files(files: list[Checked], indices: list[int], parts: int) -> list[list[Piece]]:
    """The URL hashes of checked files cut into ``parts`` hash partitions, on the worker
    that holds them: for each partition, (file index, hashes, positions) of each file."""
    cut: list[list[Piece]] = [[] for _ in range(parts)]
    for index, checked in zip(indices, files, strict=True):
        facts = checked.result.facts
        assert facts is not None  # only files with URLs are compared
        for part in range(parts):
            hashes, positions = hash_slice(facts, part, parts)
            if hashes:
                cut[part].append((index, hashes, positions))
    return cut


def join_partition(groups: list[list[Piece]], files: int) -> list[Duplicate]:
    """The duplicates of one hash partition, from every worker's pieces of it."""
    from array import array

    empty = (array("Q"), array("Q"))
    pieces: list[tuple[array[int], array[int]]] = [empty] * files
    for group in groups:
        for index, hashes, positions in group:
            pieces[index] = (hashes, positions)
    return duplicates_in_slice(pieces)


def hreflang_view(checked: Checked) -> FileFacts:
    """What the hreflang checks across files read of a checked file: its records, and its
    URL hashes with their positions (compacted: sorted)."""
    facts = checked.result.facts
    assert facts is not None  # only files with facts are compared
    return FileFacts(
        kind=facts.kind,
        alternates=facts.alternates,
        _hashes=facts.hashes,
        _positions=facts.positions,
        _sorted=True,
    )


def compare_hreflang(names: list[str], views: list[FileFacts]) -> list[tuple[int, Finding]]:
    """The hreflang findings across the set, as the local run finds them."""
    from sitemap_lint.rules.sets import hreflang_findings

    return hreflang_findings(list(zip(names, views, strict=True)))


def _engine(name: str) -> Engine:
    engines: dict[str, Engine] | None = getattr(_local, "engines", None)
    if engines is None:
        engines = _local.engines = {}
    engine = engines.get(name)
    if engine is None:
        from sitemap_lint import xsd

        engine = engines[name] = xsd.load(name)
    return engine


def _fetcher(timeout: float) -> Fetcher:
    with _fetchers_lock:
        fetcher = _fetchers.get(timeout)
        if fetcher is None:
            from sitemap_lint.inputs.fetch import Fetcher, FetchSettings

            fetcher = _fetchers[timeout] = Fetcher(FetchSettings(timeout=timeout))
        return fetcher
