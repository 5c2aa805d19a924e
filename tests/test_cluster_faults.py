"""Workers that come and go during a cluster run (``--scheduler``): the report stays the
local one; no worker left, or no scheduler, ends in one line and exit 2.

The cluster is a ``dask scheduler`` and ``dask worker`` processes, as in
``test_cluster.py``. A run is held at a point of its own progress (``cluster.PAUSE``: the
run creates a file there and waits until it is removed); the test takes workers away or
adds some, waits until the scheduler has seen it, and lets the run go on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint.sets.cluster import PAUSE, PAUSE_POINTS
from tests.test_cluster import NOW, Cluster, lint, write_site

pytestmark = pytest.mark.slow


def until(what: str, condition: Callable[[], bool], timeout: float = 180) -> None:
    """Wait for ``condition``, which the cluster or the run makes true; fail after timeout."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.05)


class Watched:
    """A cluster and a client of its scheduler that sees which workers are there."""

    def __init__(self, cluster: Cluster) -> None:
        from distributed import Client

        self.cluster = cluster
        self.client: Any = Client(cluster.address, timeout=60, set_as_default=False)

    def workers(self) -> dict[str, int]:
        """The workers the scheduler lists: address -> number of our process."""
        info = self.client.scheduler_info(n_workers=-1)["workers"]
        return {address: int(str(worker["name"])[1:]) for address, worker in info.items()}

    def top_up(self, count: int) -> None:
        """Start workers until ``count`` are there."""
        for _n in range(count - len(self.workers())):
            self.cluster.spawn_worker()
        until(f"{count} workers", lambda: len(self.workers()) == count)

    def fullest(self) -> int:
        """The worker holding the most of the run's results (it holds some)."""
        held = self.client.has_what()
        numbers = self.workers()
        fullest = max(sorted(numbers), key=lambda address: len(held.get(address, ())))
        assert held.get(fullest), "no worker holds a result of the run"
        return numbers[fullest]

    def kill(self, number: int) -> None:
        """SIGKILL the worker; return once the scheduler no longer lists it."""
        process = self.cluster.workers[number]
        process.kill()
        process.wait()
        until(f"the scheduler to lose w{number}", lambda: number not in self.workers().values())

    def close(self) -> None:
        self.client.close()


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Watched]:
    running = Cluster(tmp_path_factory.mktemp("faults-cwd")).start()
    try:
        watching = Watched(running)
        try:
            yield watching
        finally:
            watching.close()
    finally:
        running.stop()


@pytest.fixture
def two_workers(watched: Watched) -> Watched:
    watched.top_up(2)
    return watched


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], bytes]:
    """The set of test_cluster.py read through --map, and its local report."""
    root = tmp_path_factory.mktemp("faults-site")
    write_site(root / "site", "https://example.com/")
    args = ["--map", "https://example.com/=site", "site/index.xml"]
    status, out, err = lint(args, root)
    assert status == 1, err
    return root, args, out


class HeldRun:
    """The command on the cluster in its own process, held at ``point`` until released."""

    def __init__(self, address: str, args: list[str], cwd: Path, point: str) -> None:
        assert point in PAUSE_POINTS
        self.marker = cwd / f"held-at-{point}-{os.getpid()}-{time.monotonic_ns()}"
        command = [sys.executable, "-m", "sitemap_lint", "--format", "json", "--now", NOW]
        self.process = subprocess.Popen(
            [*command, "--scheduler", address, *args],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, PAUSE: f"{point}:{self.marker}"},
        )

    def __enter__(self) -> HeldRun:
        until(
            "the run to reach its point",
            lambda: self.marker.exists() or self.process.poll() is not None,
            timeout=300,
        )
        assert self.marker.exists(), self.process.communicate()
        return self

    def release(self) -> None:
        self.marker.unlink()

    def finish(self) -> tuple[int, bytes, str]:
        out, err = self.process.communicate(timeout=600)
        return self.process.returncode, out, err.decode("utf-8", "replace")

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()


@pytest.mark.parametrize("point", PAUSE_POINTS)
def test_a_worker_lost_at_any_point_leaves_the_report_as_the_local_one(
    point: str, two_workers: Watched, site: tuple[Path, list[str], bytes]
) -> None:
    root, args, local = site
    with HeldRun(two_workers.cluster.address, args, root, point) as run:
        two_workers.kill(two_workers.fullest())
        run.release()
        status, out, err = run.finish()
    assert (status, err) == (1, "")
    assert out == local


def test_a_worker_lost_while_another_joins_leaves_the_report_as_the_local_one(
    two_workers: Watched, site: tuple[Path, list[str], bytes]
) -> None:
    root, args, local = site
    with HeldRun(two_workers.cluster.address, args, root, "checked") as run:
        joining = two_workers.cluster.spawn_worker()
        two_workers.kill(two_workers.fullest())
        until(f"w{joining} to join", lambda: joining in two_workers.workers().values())
        run.release()
        status, out, err = run.finish()
    assert (status, err) == (1, "")
    assert out == local


def test_no_worker_left_ends_the_run_in_one_line_after_the_timeout(
    two_workers: Watched, site: tuple[Path, list[str], bytes]
) -> None:
    root, args, _local = site
    with HeldRun(two_workers.cluster.address, ["--timeout", "3", *args], root, "join") as run:
        for number in sorted(two_workers.workers().values()):
            two_workers.kill(number)
        run.release()
        status, out, err = run.finish()
    assert (status, out) == (2, b"")
    assert err.count("\n") == 1 and "no worker" in err, err
    assert two_workers.cluster.address in err


def test_a_lost_scheduler_ends_the_run_in_one_line(
    tmp_path: Path, site: tuple[Path, list[str], bytes]
) -> None:
    root, args, _local = site
    running = Cluster(tmp_path / "cwd", workers=1).start()
    try:
        with HeldRun(running.address, ["--timeout", "3", *args], root, "collect") as run:
            assert running.scheduler is not None
            running.scheduler.kill()
            running.scheduler.wait()
            run.release()
            status, out, err = run.finish()
    finally:
        running.stop()
    assert (status, out) == (2, b"")
    assert err.count("\n") == 1 and "lost the connection to the scheduler" in err, err
