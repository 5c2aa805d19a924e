"""A set run on a Dask cluster (``--scheduler``): each file is fetched and checked as a
task on the cluster's workers, and the checks across files run there too.

The discovery (robots.txt -> indexes -> sitemaps, cycles, repeats, limits) stays in the
run's own process (``sets.SetRunner``), which sees only each file's findings and what
the discovery needs: its kind, URL count, children and newest lastmod. A file's URL
hashes and hreflang records stay on the worker that checked it. Duplicates across files
are joined by hash partition: one task per worker cuts the files it holds into the
partitions, and one task per partition compares every worker's pieces of it, so no
process holds the set's hashes. The hreflang records are joined the same way, by the
hash of the page's URL (see *hreflang across files* below): return links, target pages
without alternates, clusters (connected components, found by labels sent along the
joining links in rounds) and their comparison, each task holding one partition.

``distributed`` is imported only here, and only when a run names a scheduler; the
functions the workers run import nothing of Dask.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import operator
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

from sitemap_lint.engine import collector
from sitemap_lint.engine.results import FileResult
from sitemap_lint.errors import SitemapLintError
from sitemap_lint.inputs.reader import InputError
from sitemap_lint.model import EntryPointer
from sitemap_lint.rules.sets import Duplicate
from sitemap_lint.sets.facts import FileFacts, Slice
from sitemap_lint.sets.runner import (
    DUPLICATE_SLICES,
    Checked,
    FileTask,
    check_for_set,
    duplicates_in_slice,
    hash_slice,
    run_task,
)

if TYPE_CHECKING:
    from array import array

    from sitemap_lint.finding import Finding
    from sitemap_lint.inputs.fetch import Fetched, Fetcher
    from sitemap_lint.inputs.guard import HostPolicy, Pins
    from sitemap_lint.rules.hreflang import Alternates
    from sitemap_lint.settings.options import Options
    from sitemap_lint.xsd import Engine

P = ParamSpec("P")
R = TypeVar("R")

INSTALL = "pip install 'sitemap-lint[dask]'"
# The key prefix of the tasks that take a part of another task's result.
PICK = "sitemap-lint-pick"
# URLs of one hash partition on average (about 100 bytes each while it is compared).
PARTITION_URLS = 4_000_000
WATCH = 1.0  # seconds between looks at the cluster while a run waits for its tasks
LOST = "lost the connection to the scheduler; the run stopped without a report"
# For tests that take workers away at a chosen moment: with SITEMAP_LINT_PAUSE=POINT:PATH
# in the environment, the run creates the file PATH the first time it reaches POINT (one
# of PAUSE_POINTS) and goes on once that file is removed. Without it, nothing happens.
PAUSE = "SITEMAP_LINT_PAUSE"
PAUSE_POINTS = (
    "checked",  # the first file of a level is back, the others are being checked
    "join",  # every file checked; the duplicates' tasks not placed yet
    "collect",  # the duplicates' tasks submitted; their results not collected yet
    "hreflang",  # the hreflang join's first tasks submitted; nothing collected yet
)


class ClusterError(SitemapLintError):
    """The cluster cannot run the set (no Dask, no scheduler, workers lost); one line."""


class NotOnWorker(ClusterError):
    """A worker cannot open a local file that the run's own process opens: the workers
    do not see the run's files (raised on the worker; the run adds its address)."""


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
    line naming the address) when Dask is not installed, the address is malformed (at
    once) or nothing answers in time."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(f"--scheduler needs Dask's distributed scheduler: {INSTALL}") from None
    address = checked_address(resolve_address(scheduler))
    _quiet_logs()
    tls = _tls_problem() if address.startswith("tls://") else None
    if tls is not None:
        raise ClusterError(f"--scheduler {address}: {tls}")
    unreachable = f"--scheduler {address}: cannot reach the scheduler in {timeout:g} s"
    try:
        probe(address, timeout)
    except (OSError, TimeoutError):
        raise ClusterError(unreachable) from None
    except Exception:  # bytes that are not Dask's messages (MemoryError, ValueError ...)
        raise ClusterError(
            f"--scheduler {address}: the server there does not answer as a Dask scheduler"
        ) from None
    try:
        client = _open_client(address, timeout)
    except (OSError, TimeoutError):
        raise ClusterError(unreachable) from None
    except Exception as error:  # e.g. ImportError: the scheduler refuses this Dask version
        raise ClusterError(f"{unreachable} ({_reason(error)})") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception:
        _close(client, timeout)
        raise ClusterError(
            f"--scheduler {address}: no worker joined the scheduler in {timeout:g} s"
        ) from None
    unlike = _unlike_scheduler(client, address) or _unlike_worker(client, address)
    if unlike is not None:
        _close(client, timeout)
        raise ClusterError(unlike)
    return DaskExecutor(client, address, engine, fetch_timeout, timeout)


def rule_catalogue() -> tuple[str, tuple[str, ...]]:
    """This process's sitemap-lint version and rule codes, plugins' included."""
    from sitemap_lint._version import __version__
    from sitemap_lint.rules.registry import rules

    return __version__, tuple(sorted(rules()))


def _unlike_scheduler(client: Any, address: str) -> str | None:
    """Why the scheduler cannot take this run's tasks (Dask's scheduler reads each task,
    so it needs the run's sitemap-lint too: without it, every task is refused), or None."""
    version, _codes = rule_catalogue()
    try:
        theirs, _their_codes = client.run_on_scheduler(rule_catalogue)
    except Exception as error:
        return (
            f"--scheduler {address}: the scheduler cannot import sitemap-lint "
            f"({_reason(error)}); Dask's scheduler reads the run's tasks: install the same "
            "sitemap-lint on the scheduler as on the workers"
        )
    if theirs != version:
        return (
            f"--scheduler {address}: the scheduler has sitemap-lint {theirs} (this run: "
            f"{version}); install the same sitemap-lint on the scheduler and every worker"
        )
    return None


def _unlike_worker(client: Any, address: str) -> str | None:
    """Why a worker cannot check as this process does (another version of sitemap-lint,
    or other plugins: a rule of the run it does not have would be dropped without a
    word), or None when every worker has the same rules."""
    version, codes = rule_catalogue()
    try:
        answers = client.run(rule_catalogue)
    except Exception as error:
        reason = _reason(error)
        if "No module named 'sitemap_lint" in reason:  # unpickling our function failed
            return (
                f"--scheduler {address}: a worker cannot import sitemap-lint ({reason}); "
                "install the same sitemap-lint and plugins on every worker"
            )
        return f"--scheduler {address}: cannot ask the workers for their rules ({reason})"
    for worker, (their_version, their_codes) in sorted(answers.items()):
        if (their_version, tuple(their_codes)) == (version, codes):
            continue
        missing = sorted(set(codes) - set(their_codes))
        extra = sorted(set(their_codes) - set(codes))
        what = [f"sitemap-lint {their_version}"]
        what += [f"without {', '.join(missing[:5])}" if missing else ""]
        what += [f"with {', '.join(extra[:5])}" if extra else ""]
        return (
            f"--scheduler {address}: worker {worker} has {' '.join(w for w in what if w)} "
            f"(this run: sitemap-lint {version}, {len(codes)} rules); install the same "
            "sitemap-lint and plugins on every worker"
        )
    return None


def checked_address(address: str) -> str:
    """``address`` when Dask can connect to it (scheme, host and port); ClusterError otherwise."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            _host, port = parse_host_port(location)
            if not 0 < int(port) < 65536:
                raise ValueError(f"port {port} is not from 1 to 65535")
    except (ValueError, ImportError) as error:
        raise ClusterError(
            f"--scheduler {address!r}: give a scheduler address such as tcp://HOST:8786, "
            f"or auto ({error})"
        ) from None
    return address


def _client_connection() -> dict[str, Any]:
    """The arguments Dask's client connects with (TLS: the certificates its
    configuration names)."""
    from distributed.security import Security

    security: Any = Security  # untyped
    arguments: dict[str, Any] = security().get_connection_args("client")
    return arguments


def _tls_problem() -> str | None:
    """Why Dask's configuration gives its client no TLS context; None when it gives one."""
    try:
        if _client_connection()["ssl_context"] is not None:
            return None
    except Exception as error:  # a file it names cannot be read, or is no certificate
        return f"Dask's TLS configuration cannot be used ({_reason(error)})"
    return (
        "a tls:// scheduler needs Dask's TLS configuration: set "
        "DASK_DISTRIBUTED__COMM__TLS__CA_FILE, DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT "
        "and DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY (or distributed.comm.tls in a Dask "
        "configuration file)"
    )


def probe(address: str, timeout: float) -> None:
    """Return once a Dask scheduler at ``address`` answers, or raise (TimeoutError after
    ``timeout`` s). Dask's own client waits for the scheduler's handshake without a
    deadline, so a listener that never answers would hold the run forever."""
    import asyncio

    from distributed.comm import core

    open_comm: Any = core.connect  # untyped
    arguments = _client_connection()  # as Dask's client connects

    async def ask() -> None:
        comm = await open_comm(address, timeout=timeout, **arguments)
        try:
            await comm.write({"op": "identity", "reply": True})
            await comm.read()
        finally:
            comm.abort()

    async def in_time() -> None:
        await asyncio.wait_for(ask(), timeout)

    failures: list[BaseException] = []

    def run() -> None:  # in a thread of its own: the caller may be in an event loop
        try:
            asyncio.run(in_time())
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=run, name="sitemap-lint-probe", daemon=True)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


def _quiet_logs() -> None:
    """Dask logs lost connections and retried tasks on stderr; the run says it in one
    line. Dask's configuration gives some of its loggers levels of their own."""
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name.split(".")[0] == "distributed":
            logging.getLogger(name).setLevel(logging.CRITICAL)


def _open_client(address: str, timeout: float) -> Any:
    import distributed

    close_when_collected: Any = distributed.Client.__del__  # untyped

    class Client(distributed.Client):
        """Dask's client, which closes itself when it is collected. One that never
        connected, or that lost its scheduler, would wait there twice the timeout and
        print a traceback; the run closes its client itself (``_close``)."""

        def __del__(self) -> None:
            if self.status == "running":
                close_when_collected(self)

    client: Any = Client  # untyped
    return client(address, timeout=timeout, set_as_default=False)


def _close(client: Any, timeout: float) -> None:
    """Close the client, waiting at most ``timeout`` s (the scheduler may be gone)."""
    with contextlib.suppress(Exception):
        client.close(timeout=timeout)


class DaskExecutor:
    """``sets.Executor`` on a ``distributed.Client``: files checked as tasks, their full
    facts kept on the workers as futures until the run ends.

    A worker that is lost loses the results it held; the scheduler computes them again
    from their tasks (all held here, with what they were computed from) on the workers
    left, or on workers that join. When no worker has been there for ``timeout`` s, or
    the scheduler is lost, the run ends with a ClusterError."""

    elsewhere = True  # the workers have working directories of their own

    def __init__(
        self, client: Any, address: str, engine: str, fetch_timeout: float, timeout: float
    ) -> None:
        self.client = client
        self.address = address
        self.engine = engine
        self.fetch_timeout = fetch_timeout
        self.timeout = timeout

    def check(self, tasks: Sequence[FileTask]) -> Iterator[Checked]:
        submit = self.client.submit
        full = [
            submit(
                check_on_worker,
                task,
                self.engine,
                self.fetch_timeout,
                seen=_opens_here(task),
                pure=False,
            )
            for task in tasks
        ]
        light = [self.pick(discovery_view, future) for future in full]
        for future, handle in zip(light, full, strict=True):
            try:
                checked: Checked = self._result(future)
            except NotOnWorker as error:
                raise ClusterError(f"--scheduler {self.address}: {error}") from None
            checked.handle = handle
            if len(tasks) > 1:
                pause_at("checked")
            yield checked

    def duplicates(self, handles: Sequence[object], urls: int) -> list[Duplicate]:
        submit = self.client.submit
        parts = partitions(urls)
        # Each worker cuts the files it holds into the hash partitions, in one task; then
        # one task per partition joins the pieces of every worker. Tasks: one per worker
        # and partition, not one per file and partition.
        pause_at("join")
        holders = self._holders(handles)
        cuts = [
            submit(
                Opaque(cut_files),
                [handles[index] for index in indices],
                indices,
                parts,
                pure=False,
                **placed(address),
            )
            for address, indices in holders.items()
        ]
        joins = [
            submit(
                Opaque(join_partition),
                [
                    self.pick(operator.getitem, cut, part, where=address)
                    for address, cut in zip(holders, cuts, strict=True)
                ],
                len(handles),
                pure=False,
            )
            for part in range(parts)
        ]
        pause_at("collect")
        found: list[Duplicate] = []
        for join in joins:
            found += self._result(join)
        return found

    def hreflang(
        self, files: Sequence[tuple[str, object, EntryPointer | None]], records: int
    ) -> list[tuple[int, Finding]]:
        handles = [handle for _name, handle, _pointer in files]
        names = [name for name, _handle, _pointer in files]
        pointers = [pointer for _name, _handle, pointer in files]
        parts = hreflang_partitions(records)
        found: list[tuple[int, Finding]] = hreflang_by_partition(
            OnCluster(self), self._holders(handles), handles, names, parts, pointers
        )
        return found

    def workers_for_live(self) -> int:
        """How many groups the live audit's URLs are cut into: two a worker thread."""
        try:
            threads: dict[str, int] = self.client.nthreads()
            return max(1, 2 * sum(threads.values()))
        except Exception:  # the scheduler is lost: the tasks will say so
            return 1

    def live(
        self,
        function: Callable[..., Any],
        groups: Sequence[object],
        settings: object,
        cached: Sequence[object],
    ) -> list[Any]:
        """The live audit's groups of URLs (one host in one group: ``live.distributed``)
        requested as tasks, one a group; their results in the groups' order."""
        submit = self.client.submit
        futures = [
            submit(on_worker(function), group, settings, answers, pure=False)
            for group, answers in zip(groups, cached, strict=True)
        ]
        return self._gather(futures)

    def pick(self, function: Callable[..., Any], *args: Any, where: str = "") -> Any:
        """A task that takes a small part of another task's result (``function``: a
        sub-millisecond selection), where that result is (``where``, when known).

        All such tasks share one key prefix, so the scheduler soon learns that they take
        no time: it then neither places one away from its input nor moves one to an idle
        worker (work stealing), either of which would copy the whole input (a worker's
        cut of the URL hashes, 16 bytes per URL it holds) to take a slice of it. With
        each kind under a prefix of its own, the first of each kind in a scheduler's life
        counts as 0.5 s (Dask's ``unknown-task-duration``) and was moved."""
        from uuid import uuid4

        key = f"{PICK}-{uuid4().hex}"
        return self.client.submit(Opaque(function), *args, key=key, **placed(where))

    def close(self) -> None:
        _close(self.client, self.timeout)

    def _holders(self, handles: Sequence[object]) -> dict[str, list[int]]:
        """The file indices whose facts each worker holds ('': none known, e.g. lost)."""
        try:
            who = self.client.who_has(list(handles))
        except Exception as error:  # an OSError: no answer from the scheduler
            why = LOST if isinstance(error, OSError) else _failure(error)
            raise ClusterError(f"--scheduler {self.address}: {why}") from None
        holders: dict[str, list[int]] = {}
        for index, handle in enumerate(handles):
            addresses = sorted(who.get(getattr(handle, "key", None), ()) or ())
            holders.setdefault(addresses[0] if addresses else "", []).append(index)
        return holders

    def _gather(self, futures: list[Any]) -> list[Any]:
        """Results of several tasks in one round trip, failures as ``_result`` says them."""
        try:
            self._wait(futures)
            return [_bare(result) for result in self.client.gather(futures)]
        except (InputError, SitemapLintError):
            raise
        except Exception as error:
            raise ClusterError(f"--scheduler {self.address}: {_failure(error)}") from None

    def _result(self, future: Any) -> Any:
        """A task's result; a task's own InputError as it is, any failure of the
        cluster as one line."""
        try:
            self._wait([future])
            return _bare(future.result())
        except (InputError, SitemapLintError):
            raise
        except Exception as error:
            raise ClusterError(f"--scheduler {self.address}: {_failure(error)}") from None

    def _wait(self, futures: list[Any]) -> None:
        """Until the tasks are done (or failed); ClusterError once no worker has been
        there for the timeout, or the scheduler is lost. Meanwhile lost results are
        computed again on the workers left."""
        seen = time.monotonic()  # when workers were last there
        for future in futures:
            while not future.done():
                wait = min(WATCH, seen + self.timeout - time.monotonic())
                with contextlib.suppress(TimeoutError):  # not done in that time
                    future.exception(timeout=max(wait, 0.01))  # a task's error is returned
                    break
                if self._workers():
                    seen = time.monotonic()
                elif time.monotonic() - seen >= self.timeout:
                    raise ClusterError(
                        f"--scheduler {self.address}: no worker left for {self.timeout:g} s; "
                        "the run stopped without a report"
                    )

    def _workers(self) -> int:
        """Workers there now; ClusterError when the scheduler is lost."""
        try:
            if self.client.status == "running":
                return len(self.client.nthreads())
        except Exception:  # OSError, CommClosedError, TimeoutError ...
            pass
        raise ClusterError(f"--scheduler {self.address}: {LOST}")


class Held:
    """A task's result that is a plain list, tuple, dict or set, as one opaque object.

    Dask sends such a collection from process to process element by element: 100,000
    small tuples took 4 s where their pickle takes 0.1 s, and the hreflang join's
    messages spent most of a run there."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __reduce__(self) -> tuple[type[Held], tuple[object]]:
        return (Held, (self.value,))


def _held(value: object) -> object:
    return Held(value) if type(value) in (list, tuple, dict, set) else value


def _bare(value: Any) -> Any:
    """``value`` without its ``Held``, and a list's items without theirs (a task's
    argument may be a list of other tasks' results)."""
    if isinstance(value, Held):
        return value.value
    if type(value) is list and any(isinstance(item, Held) for item in value):
        return [item.value if isinstance(item, Held) else item for item in value]
    return value


class Opaque:
    """``function`` as a task whose collections travel ``Held``: its arguments unwrapped,
    its result wrapped."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.__name__ = getattr(function, "__name__", "task")  # the tasks' key prefix

    def __call__(self, *args: Any) -> object:
        return _held(self.function(*[_bare(arg) for arg in args]))


def placed(where: str) -> dict[str, Any]:
    """``submit``'s arguments that run a task on the worker ``where`` if it is there
    (and elsewhere if not): none when the holder is not known (its worker was lost)."""
    return {"workers": [where], "allow_other_workers": True} if where else {}


_paused: set[str] = set()


def pause_at(point: str) -> None:
    """Wait at ``point`` while the file SITEMAP_LINT_PAUSE names there exists (see PAUSE)."""
    name, _colon, path = os.environ.get(PAUSE, "").partition(":")
    if name != point or not path or point in _paused:
        return
    _paused.add(point)
    from pathlib import Path

    marker = Path(path)
    marker.touch()
    while marker.exists():
        time.sleep(0.05)


def _failure(error: BaseException) -> str:
    name = type(error).__name__
    if name == "KilledWorker":
        return (
            "workers died while checking a file, more often than Dask retries a task; "
            "the run stopped without a report"
        )
    lost = ("CancelledError", "FutureCancelledError", "FuturesCancelledError", "CommClosedError")
    if name in lost:
        return LOST
    return f"the cluster failed: {_reason(error)}"


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


# -- what the workers run ---------------------------------------------------------------

_local = threading.local()  # each worker thread: its schema engine
# By (timeout, host policy, run): a run's pin table is never another run's.
_fetchers: dict[tuple[float, HostPolicy | None, str], Fetcher] = {}
_RUNS_KEPT = 8  # fetchers of runs before these are let go
_fetchers_lock = threading.Lock()


class _AsLocally:
    """Our tasks run in the worker process as they would in the command's own worker
    processes, and the process is given back as it was when none of ours runs (it is
    the cluster's, not ours; a worker with several threads may run several of ours).

    - The garbage collector as the command tunes it (entries are freed as soon as they
      are checked); Dask's default thresholds made a check 60% slower.
    - glibc's allocator as in a process started with its defaults. Dask's nanny starts
      its workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which also turns off glibc's
      adaptive mmap threshold: every block over 128 KB (a file's bytes and text, the
      tables of the dictionaries of a partition) is then mapped afresh and each page
      faulted in again, and freed memory over 64 KB is handed back at once and faulted in
      again by the next file. Only with such fixed thresholds (from the environment),
      the task raises them to the ceiling the adaptive threshold reaches (32 MB mapped,
      64 MB kept) and puts back the environment's values after.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.thresholds = gc.get_threshold()
        self.allocator = _fixed_allocator()

    def __enter__(self) -> None:
        with self.lock:
            self.running += 1
            if self.running == 1:
                self.thresholds = gc.get_threshold()
                collector.tune()
                if self.allocator is not None:
                    mallopt, _given = self.allocator
                    mallopt(_M_MMAP_THRESHOLD, _MMAP_CEILING)
                    mallopt(_M_TRIM_THRESHOLD, 2 * _MMAP_CEILING)

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.running -= 1
            if self.running == 0:
                gc.set_threshold(*self.thresholds)
                if self.allocator is not None:
                    mallopt, (mmap_threshold, trim_threshold) = self.allocator
                    mallopt(_M_MMAP_THRESHOLD, mmap_threshold)
                    mallopt(_M_TRIM_THRESHOLD, trim_threshold)


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h
_MMAP_DEFAULT = 128 * 1024  # glibc's default mmap and trim thresholds
_MMAP_CEILING = 32 * 1024 * 1024  # the adaptive mmap threshold's maximum on 64 bits


def _fixed_allocator() -> tuple[Callable[[int, int], int], tuple[int, int]] | None:
    """glibc's ``mallopt`` and the (mmap, trim) thresholds the process was started with,
    when the environment fixed them; None otherwise (adaptive thresholds, or not glibc)."""
    import os
    import platform

    given = {
        "mmap": os.environ.get("MALLOC_MMAP_THRESHOLD_"),
        "trim": os.environ.get("MALLOC_TRIM_THRESHOLD_"),
    }
    for setting in os.environ.get("GLIBC_TUNABLES", "").split(":"):
        name, _equals, value = setting.partition("=")
        if name in ("glibc.malloc.mmap_threshold", "glibc.malloc.trim_threshold"):
            given[name.rsplit(".", 1)[1].split("_")[0]] = value
    if not any(given.values()) or sys.platform != "linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        values = tuple(int(given[name] or _MMAP_DEFAULT) for name in ("mmap", "trim"))
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (ValueError, OSError, AttributeError):
        return None
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    mmap_threshold, trim_threshold = values
    return mallopt, (mmap_threshold, trim_threshold)


_as_locally: _AsLocally | None = None
_as_locally_lock = threading.Lock()


def as_locally() -> _AsLocally:
    """The process-wide ``_AsLocally`` of this worker."""
    global _as_locally
    with _as_locally_lock:
        if _as_locally is None:
            _as_locally = _AsLocally()
        return _as_locally


def on_worker(function: Callable[P, R]) -> Callable[P, R]:
    """A function the workers run, run ``as_locally``."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with as_locally():
            return function(*args, **kwargs)

    return run


@on_worker
def _opens_here(task: FileTask) -> bool:
    """Whether ``task`` reads a local file that this process can open."""
    return _unopened(task) is None


def _unopened(task: FileTask) -> str | None:
    """Why this process cannot open ``task``'s local file, None when it can ("no local
    file" for a URL to fetch or standard input's bytes)."""
    if task.fetch or task.path is None or task.data is not None:
        return "no local file"
    try:  # (not blocking on a FIFO, which the check then refuses as locally)
        os.close(os.open(task.path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError as error:
        return error.strerror or str(error)
    return None


def check_on_worker(
    task: FileTask, engine_name: str, fetch_timeout: float, seen: bool = False
) -> Checked:
    """Fetch or read one file and check it, on a worker; the facts are compacted.
    ``seen``: the run's own process opens the task's local file, so a worker that
    cannot does not see the run's files (NotOnWorker), which no finding may hide."""
    reason = _unopened(task) if seen else None
    if reason is not None:
        import socket

        raise NotOnWorker(
            f"a worker on {socket.gethostname()} cannot read {task.path} ({reason}), "
            "which this machine reads; the workers must see the run's local files at "
            "the same absolute paths (a shared file system)"
        )

    def check(source: Any, options: Options, big: bool) -> FileResult:
        return check_for_set(source, options, _engine(engine_name))

    def fetch(url: str) -> Fetched:
        return _fetcher(fetch_timeout, task.hosts, task.pins).get(url)

    return run_task(task, fetch, check)


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
            pointer=facts.pointer,  # the findings across files name the entries with it
        )
    # The HTML report's counters (a few kilobytes) go with the findings.
    view = FileResult(
        result.name,
        result.findings,  # the list of the open sink's (``run_task`` opened it)
        facts=light,
        sitemaps=result.sitemaps,  # an index's entries: whether --fix would empty it
        stats=result.stats,
        sink=result.sink,
        targets=result.targets,  # --live: the URLs the audit requests (on the cluster too)
        target_pointer=result.target_pointer,
    )
    return Checked(view, checked.size, checked.robots_text, alternates, checked.final_url)


def partitions(urls: int) -> int:
    """Hash partitions for a set of ``urls``: the local run's 16, doubled until each holds
    at most PARTITION_URLS on average."""
    parts = DUPLICATE_SLICES
    while urls > parts * PARTITION_URLS:
        parts *= 2
    return parts


# (file index, hashes, positions, entries' indexes)
Piece = tuple[int, "array[int]", "array[int]", "array[int]"]


def _hash_pieces(index: int, facts: FileFacts, parts: int) -> Iterator[tuple[int, Piece]]:
    """(partition, (file index, hashes, positions, entries' indexes)) of one file's URL
    hashes, for each partition that gets some."""
    for part in range(parts):
        hashes, positions, indexes = hash_slice(facts, part, parts)
        if hashes:
            yield part, (index, hashes, positions, indexes)


@on_worker
def cut_files(files: list[Checked], indices: list[int], parts: int) -> list[list[Piece]]:
    """The URL hashes of checked files cut into ``parts`` hash partitions, on the worker
    that holds them: for each partition, a ``Piece`` of each file."""
    cut: list[list[Piece]] = [[] for _ in range(parts)]
    for index, checked in zip(indices, files, strict=True):
        facts = checked.result.facts
        assert facts is not None  # only files with URLs are compared
        for part, piece in _hash_pieces(index, facts, parts):
            cut[part].append(piece)
    return cut


@on_worker
def join_partition(groups: list[list[Piece]], files: int) -> list[Duplicate]:
    """The duplicates of one hash partition, from every worker's pieces of it."""
    from array import array

    empty = (array("Q"), array("Q"), array("Q"))
    pieces: list[Slice] = [empty] * files
    for group in groups:
        for index, hashes, positions, indexes in group:
            pieces[index] = (hashes, positions, indexes)
    return duplicates_in_slice(pieces)


def _engine(name: str) -> Engine:
    engines: dict[str, Engine] | None = getattr(_local, "engines", None)
    if engines is None:
        engines = _local.engines = {}
    engine = engines.get(name)
    if engine is None:
        from sitemap_lint import xsd

        engine = engines[name] = xsd.load(name)
    return engine


def _fetcher(timeout: float, hosts: HostPolicy | None, pins: Pins | None) -> Fetcher:
    """One fetcher per timeout, host policy and run, shared by the run's tasks on this
    worker: the first copy of the run's pin table its tasks carry is theirs (a task
    without one: a table of the worker's, for no run)."""
    run = pins.run if pins is not None else ""
    with _fetchers_lock:
        fetcher = _fetchers.get((timeout, hosts, run))
        if fetcher is None:
            from sitemap_lint.inputs.fetch import Fetcher, FetchSettings
            from sitemap_lint.inputs.guard import HostPolicy

            settings = FetchSettings(
                timeout, hosts=hosts if hosts is not None else HostPolicy(), pins=pins
            )
            fetcher = _fetchers[timeout, hosts, run] = Fetcher(settings)
            runs = list(dict.fromkeys(key[2] for key in _fetchers))
            for key in [key for key in _fetchers if key[2] in runs[:-_RUNS_KEPT]]:
                del _fetchers[key]  # an earlier run's (its tasks hold it while they run)
        return fetcher


# -- hreflang across files, by partition ------------------------------------------------
#
# A record's global number is ``file index << 32 | its index in the file``: the order of
# the records in a local run. Partitions are slices of the 64-bit hash of a page's URL
# (``sets.hash_slice``'s): a record goes to its page's partition, each of its links to
# the partition of the linked page, with the URL hashes of that slice of every file.
#
# 1. ``hreflang_join``, per partition: the return links (each link meets the first record
#    of the page it names, or that page's entry without alternates, looked up by hash),
#    and the facts the clusters need: which links join two records, which linked pages do
#    not list the page back, which pages list one that does not answer.
# 2. ``hreflang_prepare`` and ``hreflang_step``, per partition: the clusters (connected
#    components) by the smallest record number, sent along the joining links until no
#    label changes (as many rounds as a cluster is wide, plus one).
# 3. ``hreflang_route`` and ``hreflang_clusters``: each record sent to its cluster's
#    partition, where mismatches and x-default are compared cluster by cluster.
#
# Every problem carries the key of its place in the local run's order; the run's process
# sorts the few problems by it.
#
# This is the second form of ``rules.hreflang.check_alternates`` (which a local run and
# the check of one file use: one process holds every record), written for the case where
# no process may hold them; its problems are made by that module's own functions, and
# ``tests/test_cluster.py`` holds the two to the same findings on a set whose clusters
# span files and partitions.

HREFLANG_PARTITIONS = 4  # at least, so clusters span partitions in any set
PARTITION_RECORDS = 150_000  # hreflang records of a partition on average (about 2.7 KB each)

# (href, source number, index of the link, code, source page, source line, the source's
# own code, digest of the source's links, source column, the source entry's index)
Edge = tuple[str, int, int, str, str, int, str, bytes, int, int]
# (records (number, record), links, URL hash slices (``Piece``), the languages of the
# worker's pages: each partition unites every worker's, HL009 looks only for those)
HPiece = tuple[list[tuple[int, "Alternates"]], list[Edge], list[Piece], set[str]]
# (union links (record, other record, its partition), numbers and pages linking to a page
# that does not list them back, pages with a link not returned)
Box = tuple[list[tuple[int, int, int]], list[tuple[int, str]], list[str]]
# (key in the local order, file index, finding, the record it stands at)
Keyed = tuple[tuple[int, int, str, int], int, "Finding", "Alternates"]


def hreflang_partitions(records: int) -> int:
    parts = HREFLANG_PARTITIONS
    while records > parts * PARTITION_RECORDS:
        parts *= 2
    return parts


def _part(url: str, parts: int) -> int:
    from sitemap_lint.sets.facts import url_hash

    return url_hash(url) // ((1 << 64) // parts)


def _digest(links: tuple[tuple[str, str], ...]) -> bytes:
    from hashlib import blake2b

    digest = blake2b(digest_size=16)
    for code, href in links:
        digest.update(code.encode("utf-8", "surrogatepass") + b"\0")
        digest.update(href.encode("utf-8", "surrogatepass") + b"\1")
    return digest.digest()


def _empty_box() -> Box:
    return ([], [], [])


@on_worker
def cut_hreflang(
    files: list[Checked], indices: list[int], names: list[str], parts: int
) -> list[HPiece]:
    """One worker's records, links and URL hashes, cut by the partition of the page."""
    from dataclasses import replace

    from sitemap_lint.rules.hreflang import language

    several = len(names) > 1
    languages: set[str] = set()  # shared by the pieces: each partition gets them all
    cut: list[HPiece] = [([], [], [], languages) for _ in range(parts)]
    for index, checked in zip(indices, files, strict=True):
        facts = checked.result.facts
        assert facts is not None  # only files with facts are compared
        for part, piece in _hash_pieces(index, facts, parts):
            cut[part][2].append(piece)
        name = names[index] if several else ""
        for number, record in enumerate(facts.alternates):
            number |= index << 32
            cut[_part(record.page, parts)][0].append((number, replace(record, file=name)))
            if record.kind:
                continue
            own = [code for code, href in record.links if href == record.page]
            languages.update(map(language, own))
            specific = [code for code in own if code != "x-default"]
            code_of_page = (specific or own or [""])[0]
            digest = _digest(record.links)
            for position, (code, href) in enumerate(record.links):
                cut[_part(href, parts)][1].append(
                    (
                        href,
                        number,
                        position,
                        code,
                        record.page,
                        record.line,
                        code_of_page,
                        digest,
                        record.column,
                        record.index,
                    )
                )
    return cut


def _by_page(example: list[Any]) -> str:
    page: str = example[0]
    return page


@on_worker
def hreflang_join(
    pieces: list[HPiece], part: int, parts: int, names: list[str]
) -> tuple[list[Keyed], dict[str, Any], list[Box], list[int]]:
    """Return links of one partition's pages; its records and what their clusters need,
    sent to other partitions (with how much goes to each)."""
    from bisect import bisect_left

    from sitemap_lint.rules.hreflang import (
        Alternates,
        _return_link_problem,
        kept_example,
        language,
        not_listed_problem,
        same_origin,
    )
    from sitemap_lint.sets.facts import sorted_first_listings, url_hash

    several = len(names) > 1
    records = sorted((item for piece in pieces for item in piece[0]), key=operator.itemgetter(0))
    edges = sorted((edge for piece in pieces for edge in piece[1]), key=operator.itemgetter(1, 2))
    # Each file's hashes of the partition sorted, each with its first listing's position
    # and entry's index.
    hashes = [
        (item[0], *sorted_first_listings(item[1:]))
        for item in sorted(
            (item for piece in pieces for item in piece[2]), key=operator.itemgetter(0)
        )
    ]
    # page -> (its key: the first record's number, or the URL for an entry without
    # alternates; file index; record)
    pages: dict[str, tuple[int | str, int, Alternates]] = {}
    for number, record in records:
        pages.setdefault(record.page, (number, number >> 32, record))
    for url in sorted({edge[0] for edge in edges} - pages.keys()):
        value = url_hash(url)
        for index, values, positions, indexes in hashes:
            at = bisect_left(values, value)
            if at < len(values) and values[at] == value:
                packed = positions[at]
                name = names[index] if several else ""
                line, column = packed >> 32, packed & 0xFFFFFFFF
                bare = Alternates(url, line, column, (), name, "bare", indexes[at])
                pages[url] = (url, index, bare)
                break
    url_sets: dict[int, frozenset[str]] = {}
    digests: dict[int, bytes] = {}
    box = [_empty_box() for _ in range(parts)]
    sources: list[set[str]] = [set() for _ in range(parts)]
    joined: dict[int, list[tuple[int, int]]] = {}
    unanswered: dict[int | str, list[Any]] = {}
    targets: dict[int | str, tuple[int, Alternates]] = {}
    # The hrefs no entry lists (HL009), each at the first link naming it (edges in the
    # order of their pages and links).
    unlisted: dict[str, Edge] = {}
    for edge in edges:
        href, number, _position, code, page, line, own, digest = edge[:8]
        found = pages.get(href)
        if found is None:
            if href not in unlisted:  # (the first link naming it decides, as locally)
                unlisted[href] = edge
            continue
        key, _index, target = found
        if key == number:
            continue
        links = target.links
        urls = url_sets.get(id(links))
        if urls is None:
            urls = url_sets[id(links)] = frozenset(h for _c, h in links)
        home = _part(page, parts)
        if page not in urls:
            box[home][1].append((number, href))
        if target.kind == "defective":
            continue
        target_digest = digests.get(id(links))
        if target_digest is None:
            target_digest = digests[id(links)] = _digest(links)
        if target_digest == digest or page in urls:
            assert isinstance(key, int)  # an entry without alternates lists nobody
            joined.setdefault(key, []).append((number, home))
            box[home][0].append((number, key, part))
            continue
        sources[home].add(page)
        targets.setdefault(key, (_index, target))
        # [pages, the last page's number, [page, source, [codes]] examples, the last
        # page's example or None], as a local run counts and chooses them: a page's links
        # come together (edges in the order of their pages).
        entry = unanswered.get(key)
        if entry is None:
            entry = unanswered[key] = [0, -1, [], None]
        if entry[1] == number:
            if entry[3] is not None:
                entry[3][2].append(code)
            continue
        entry[0] += 1
        entry[1] = number
        source = Alternates(page, line, 0, ((own, page),), names[number >> 32] if several else "")
        entry[3] = kept_example(entry[2], page, source, code)
    for home, pages_of in enumerate(sources):
        box[home][2].extend(sorted(pages_of))
    problems: list[Keyed] = []
    not_answered = set()
    for key, (count, _last, kept, _current) in unanswered.items():
        index, target = targets[key]
        not_answered.add(target.page)
        examples = [(source, codes) for _page, source, codes in sorted(kept, key=_by_page)]
        problem = _return_link_problem(target, count, examples)
        order = (1, 0, key, 0) if isinstance(key, str) else (0, key, "", 0)
        problems.append((order, index, problem.finding(None), target))
    languages = set().union(*(piece[3] for piece in pieces))
    for href, number, position, code, page, line, _own, _links, column, at in unlisted.values():
        if language(code) not in languages or not same_origin(href, page):
            continue  # a language no page is in, or another site's page
        file = names[number >> 32] if several else ""
        source = Alternates(page, line, column, (), file, "", at)
        problem = not_listed_problem(source, code, href, "set")
        problems.append(
            ((0, number, "", 3 + position), number >> 32, problem.finding(None), source)
        )
    state = {
        "records": {
            number: (record, record.page in not_answered)
            for number, record in records
            if not record.kind
        },
        "joined": joined,
    }
    return (
        problems,
        state,
        box,
        [len(links) + len(not_back) + len(pages) for links, not_back, pages in box],
    )


@on_worker
def hreflang_prepare(
    joined: dict[str, Any], boxes: list[Box], parts: int
) -> tuple[dict[str, Any], list[list[tuple[int, int]]], list[int]]:
    """A partition's records with every joining link, their links not listed back and
    their pages with a link not returned; the first labels sent (each record's number)."""
    neighbours: dict[int, list[tuple[int, int]]] = {
        number: list(others) for number, others in joined["joined"].items()
    }
    skips: dict[int, set[str]] = {}
    sources: set[str] = set()
    for links, not_back, pages in boxes:
        for number, other, home in links:
            neighbours.setdefault(number, []).append((other, home))
        for number, href in not_back:
            skips.setdefault(number, set()).add(href)
        sources.update(pages)
    state = {
        "records": joined["records"],
        "neighbours": neighbours,
        "skips": skips,
        "sources": sources,
        "labels": {number: number for number in joined["records"]},
    }
    out, sizes = _send(state, neighbours.keys(), parts)
    return state, out, sizes


def _send(
    state: dict[str, Any], changed: Iterable[int], parts: int
) -> tuple[list[list[tuple[int, int]]], list[int]]:
    out: list[list[tuple[int, int]]] = [[] for _ in range(parts)]
    labels, neighbours = state["labels"], state["neighbours"]
    for number in changed:
        label = labels[number]
        for other, home in neighbours.get(number, ()):
            out[home].append((other, label))
    return out, [len(box) for box in out]


@on_worker
def hreflang_step(
    state: dict[str, Any], boxes: list[list[tuple[int, int]]], parts: int
) -> tuple[dict[str, Any], list[list[tuple[int, int]]], list[int]]:
    """One round: each record takes the smallest label its joined records sent and, if
    that lowered its own, sends it on."""
    labels = dict(state["labels"])  # the input stays as it was: Dask may run a task again
    changed = set()
    for box in boxes:
        for number, label in box:
            if label < labels[number]:
                labels[number] = label
                changed.add(number)
    state = {**state, "labels": labels}
    out, sizes = _send(state, sorted(changed), parts)
    return state, out, sizes


@on_worker
def hreflang_route(state: dict[str, Any], parts: int) -> tuple[list[list[Any]], list[int]]:
    """Each record to its cluster's partition, with what the comparison asks of it."""
    out: list[list[Any]] = [[] for _ in range(parts)]
    labels, skips, sources = state["labels"], state["skips"], state["sources"]
    for number, (record, not_answered) in state["records"].items():
        label = labels[number]
        out[(label ^ label >> 32) % parts].append(
            (label, number, record, not_answered, record.page in sources, skips.get(number, ()))
        )
    return out, [len(box) for box in out]


@on_worker
def hreflang_clusters(
    boxes: list[list[Any]],
) -> tuple[list[Keyed], int, list[tuple[int, Alternates, list[str]]]]:
    """Mismatches within each cluster of a partition; its clusters with x-default, and
    the first record and languages of those without."""
    from sitemap_lint.rules.hreflang import X_DEFAULT, _mismatch_problem, cluster_reference

    clusters: dict[int, list[Any]] = {}
    for box in boxes:
        for item in box:
            clusters.setdefault(item[0], []).append(item)
    problems: list[Keyed] = []
    with_default = 0
    without: list[tuple[int, Alternates, list[str]]] = []
    for label in sorted(clusters):
        members = sorted(clusters[label], key=operator.itemgetter(1))
        cluster: list[Alternates] = [item[2] for item in members]
        if len(set(record.links for record in cluster)) > 1:
            reference = cluster_reference(cluster, operator.attrgetter("links"))
            wanted = set(reference.links)
            wanted_urls = {href for _code, href in reference.links}
            for _label, number, record, not_answered, source, skips in members:
                if record.links == reference.links or not_answered:
                    continue
                have = set(record.links)
                missing = wanted - have
                extra = set()
                for code, href in have - wanted:
                    if href not in wanted_urls:
                        if href == record.page:
                            if source:
                                continue  # reported as return links missing on the others
                        elif href in skips:
                            continue  # reported as a return link missing on that page
                    extra.add((code, href))
                if missing or extra:
                    problem = _mismatch_problem(record, reference, missing, extra)
                    finding = problem.finding(None)
                    problems.append(((0, number, "", 1), number >> 32, finding, record))
        codes = {code for record in cluster for code, _href in record.links}
        languages = {code.split("-", 1)[0] for code in codes if code != X_DEFAULT}
        # A cluster with a page that does not list back a page listing it is incomplete.
        if len(languages) >= 2 and not any(item[3] for item in members):
            if X_DEFAULT in codes:
                with_default += 1
            else:
                without.append((members[0][1], cluster[0], sorted(languages)))
    return problems, with_default, without


def no_x_default(
    with_default: int, without: list[tuple[int, Alternates, list[str]]]
) -> list[Keyed]:
    """The x-default findings of the set, from every partition's clusters."""
    from sitemap_lint.rules.hreflang import _no_x_default_problem

    without = sorted(without, key=operator.itemgetter(0))
    clusters = 1
    if with_default == 0 and len(without) > 1:
        # No cluster has one: said once, at the first cluster, as a local run does.
        without, clusters = without[:1], len(without)
    found: list[Keyed] = []
    for number, first, languages in without:
        problem = _no_x_default_problem(first, languages, clusters)
        found.append(((0, number, "", 2), number >> 32, problem.finding(None), first))
    return found


class Tasks(Protocol):
    """Where the partitioned hreflang join runs: Dask's futures, or (for tests and as the
    reference) plain calls in this process."""

    def submit(self, function: Callable[..., Any], *args: Any, where: str = "") -> Any: ...

    def item(self, result: Any, index: int) -> Any: ...

    def gather(self, results: list[Any]) -> list[Any]: ...


class OnCluster:
    """``Tasks`` on a Dask client: each task where its inputs are, results kept there."""

    def __init__(self, executor: DaskExecutor) -> None:
        self.executor = executor

    def submit(self, function: Callable[..., Any], *args: Any, where: str = "") -> Any:
        submit = self.executor.client.submit
        return submit(Opaque(function), *args, pure=False, **placed(where))

    def item(self, result: Any, index: int) -> Any:
        return self.executor.pick(operator.getitem, result, index)

    def gather(self, results: list[Any]) -> list[Any]:
        pause_at("hreflang")
        return self.executor._gather(results)


class InProcess:
    """``Tasks`` as plain calls."""

    def submit(self, function: Callable[..., Any], *args: Any, where: str = "") -> Any:
        return function(*args)

    def item(self, result: Any, index: int) -> Any:
        return result[index]

    def gather(self, results: list[Any]) -> list[Any]:
        return list(results)


def hreflang_by_partition(
    tasks: Tasks,
    holders: dict[str, list[int]],
    handles: Sequence[object],
    names: list[str],
    parts: int,
    pointers: Sequence[EntryPointer | None],
) -> list[tuple[int, Finding]]:
    """The hreflang findings across files, as ``rules.sets.hreflang_findings`` finds
    them, with no task holding more than its partition (``holders``: the file indices
    whose checked files each worker holds; ``pointers``: how each file names its
    entries)."""
    cuts = [
        tasks.submit(
            cut_hreflang, [handles[index] for index in indices], indices, names, parts, where=where
        )
        for where, indices in holders.items()
    ]
    joins = [
        tasks.submit(hreflang_join, [tasks.item(cut, part) for cut in cuts], part, parts, names)
        for part in range(parts)
    ]

    def deliver(results: list[Any], boxes: int, sizes: int) -> tuple[int, list[list[Any]]]:
        """What each partition receives: the non-empty boxes the others sent it."""
        counts = tasks.gather([tasks.item(result, sizes) for result in results])
        inboxes: list[list[Any]] = [[] for _ in range(parts)]
        for result, count in zip(results, counts, strict=True):
            if any(count):
                out = tasks.item(result, boxes)
                for part in range(parts):
                    if count[part]:
                        inboxes[part].append(tasks.item(out, part))
        return sum(sum(count) for count in counts), inboxes

    _sent, inboxes = deliver(joins, 2, 3)
    rounds = [
        tasks.submit(hreflang_prepare, tasks.item(join, 1), inboxes[part], parts)
        for part, join in enumerate(joins)
    ]
    sent, inboxes = deliver(rounds, 1, 2)
    while sent:
        rounds = [
            tasks.submit(hreflang_step, tasks.item(step, 0), inboxes[part], parts)
            for part, step in enumerate(rounds)
        ]
        sent, inboxes = deliver(rounds, 1, 2)
    routes = [tasks.submit(hreflang_route, tasks.item(step, 0), parts) for step in rounds]
    _sent, inboxes = deliver(routes, 0, 1)
    compared = [tasks.submit(hreflang_clusters, inboxes[part]) for part in range(parts)]
    found: list[Keyed] = []
    for problems in tasks.gather([tasks.item(join, 0) for join in joins]):
        found += problems
    with_default = 0
    without: list[tuple[int, Alternates, list[str]]] = []
    for problems, defaults, lacking in tasks.gather(compared):
        found += problems
        with_default += defaults
        without += lacking
    found += no_x_default(with_default, without)
    found.sort(key=operator.itemgetter(0))
    return [
        (index, finding.with_xpath(record.path(pointers[index])))
        for _key, index, finding, record in found
    ]
