"""The set on a local Dask cluster against the local run (``python bench/run.py --cluster``).

The cluster is what users deploy: ``dask scheduler`` and two ``dask worker`` processes
of one thread each, with Dask's default configuration, started here and stopped by
their process ids. The local run uses as many worker processes (``--jobs 2``). The two
runs alternate, twice; every report must be byte-identical.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import tracemalloc
from array import array
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

WORKERS = 2
PAIRS = 2  # local and cluster runs in turn


def measure_cluster(
    tmp: Path,
    ours: list[str],
    files: int,
    count: int,
    write_set: Callable[[Path, int, int], None],
    measure_tree: Callable[[list[str], Path], tuple[float, float]],
    trees_rss: Callable[[list[int]], list[float]],
) -> int:
    directory = tmp / "set"
    write_set(directory, files, count)
    size = sum(p.stat().st_size for p in directory.iterdir()) / 1e6
    urls = files * count
    print(f"set: {files} sitemaps x {count:,} URLs = {urls:,} URLs, {size:,.0f} MB")
    print(f"load before: {_load()}")
    command = [*ours, "--format", "json", "--now", "2025-06-01"]
    local_report, cluster_report = tmp / "local.json", tmp / "cluster.json"
    local_times: list[float] = []
    cluster_times: list[float] = []
    same = True
    with LocalCluster(tmp) as cluster:
        # Local and cluster in turn, PAIRS times, so that both see the same load on a
        # shared machine; the cluster stays up between its runs (its first is cold).
        for pair in range(PAIRS):
            local_time, local_peak = measure_tree(
                [*command, "--jobs", str(WORKERS), str(directory)], local_report
            )
            print(
                f"pair {pair}: local, --jobs {WORKERS}: {local_time:.2f} s, peak "
                f"{local_peak:.0f} MB (all processes); {_load()}"
            )
            done = threading.Event()

            def sample(done: threading.Event) -> None:
                while not done.wait(0.1):
                    cluster.sample(trees_rss)

            sampler = threading.Thread(target=sample, args=(done,))
            sampler.start()
            try:
                cluster_time, client_peak = measure_tree(
                    [*command, "--scheduler", cluster.address, str(directory)], cluster_report
                )
            finally:
                done.set()
                sampler.join()
            print(
                f"pair {pair}: cluster, {WORKERS} workers: {cluster_time:.2f} s, client peak "
                f"{client_peak:.0f} MB, peak per worker {cluster.worker_peak:.0f} MB; {_load()}"
            )
            print(
                f"pair {pair}: cluster / local: {cluster_time / local_time:.3f} "
                f"({(cluster_time / local_time - 1) * 100:+.1f}%)"
            )
            same = same and local_report.read_bytes() == cluster_report.read_bytes()
            local_times.append(local_time)
            cluster_times.append(cluster_time)
    found = local_report.read_text(encoding="utf-8").count('"code": "SE001"')
    print(f"reports byte-identical: {same}; SE001 findings: {found:,}")
    ratio = sum(cluster_times) / sum(local_times)
    print(f"cluster / local, all pairs: {ratio:.3f} ({(ratio - 1) * 100:+.1f}%)")
    cluster_time = min(cluster_times)
    print(
        f"per worker (fastest cluster run): {urls / cluster_time / WORKERS:,.0f} URLs/s, "
        f"{size / cluster_time / WORKERS:.1f} MB/s"
    )
    print(f"load after: {_load()}")
    partition_memory()
    hreflang_partition_memory()
    return 0 if same else 1


def partition_memory(files: int = 100, per_file: int = 10_000) -> None:
    """Peak memory of one hash partition's comparison per URL, under tracemalloc."""
    from sitemap_lint.sets.runner import duplicates_in_slice

    rng = Random(1)
    pieces = []
    for _ in range(files):
        hashes = array("Q", sorted(rng.getrandbits(60) for _ in range(per_file)))
        pieces.append((hashes, array("Q", [10 << 32 | 3] * per_file)))
    held = sum(h.itemsize * len(h) + p.itemsize * len(p) for h, p in pieces)
    tracemalloc.start()
    duplicates_in_slice(pieces)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    total = files * per_file
    print(
        f"one partition, {total:,} URLs: pieces {held / total:.0f} bytes/URL, "
        f"comparison peak {peak / total:.0f} bytes/URL, together {(held + peak) / total:.0f} bytes/URL"
    )


def hreflang_partition_memory(files: int = 10, clusters: int = 25_000) -> None:
    """Peak memory of one partition's hreflang join per record, under tracemalloc: the
    pieces it receives (unpickled, as a worker has them), then each step's peak while
    the step's input is held. Clusters of 4 languages and x-default, spread over files."""
    import pickle

    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.rules.hreflang import Alternates
    from sitemap_lint.sets.cluster import (
        Checked,
        cut_hreflang,
        hreflang_clusters,
        hreflang_join,
        hreflang_prepare,
        hreflang_route,
        hreflang_step,
    )
    from sitemap_lint.sets.facts import FileFacts

    languages = ("de", "en", "fr", "it")
    facts = [FileFacts(kind="urlset") for _ in range(files)]
    shared: dict[object, object] = {}
    for k in range(clusters):
        pages = {code: f"https://www.example.com/{code}/products/item-{k}" for code in languages}
        links = tuple(sorted([*pages.items(), ("x-default", pages["en"])]))
        links = shared.setdefault(links, links)  # type: ignore[assignment]
        for n, page in enumerate(pages.values()):
            owner = facts[(k + n) % files]
            owner.add_url(page, owner.url_count + 3, 3)
            owner.alternates.append(Alternates(page, owner.url_count + 2, 3, links))
    for each in facts:
        each.compact()
    names = [f"sitemap-{n}.xml" for n in range(files)]
    checked = [Checked(FileResult(name, [], facts=f)) for name, f in zip(names, facts, strict=True)]
    records = clusters * len(languages)
    wire = pickle.dumps(cut_hreflang(checked, list(range(files)), names, 1)[0])
    del checked, facts

    def peak(step: Callable[..., Any], *args: Any) -> tuple[Any, int]:
        tracemalloc.start()
        done = step(*args)
        _current, high = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return done, high

    piece, held = peak(pickle.loads, wire)
    joined, join_peak = peak(hreflang_join, [piece], 0, 1, names)
    _problems, state, boxes, _sizes = joined
    del piece, joined
    prepared, prepare_peak = peak(hreflang_prepare, state, [boxes[0]], 1)
    step_peak = 0
    while sum(prepared[2]):
        prepared, high = peak(hreflang_step, prepared[0], [prepared[1][0]], 1)
        step_peak = max(step_peak, high)
    routed, route_peak = peak(hreflang_route, prepared[0], 1)
    _compared, compare_peak = peak(hreflang_clusters, [routed[0][0]])
    print(
        f"one hreflang partition, {records:,} records (clusters of 4 + x-default, "
        f"{len(wire) / records:.0f} bytes/record pickled): pieces {held / records:.0f} "
        f"bytes/record; peaks: join {join_peak / records:.0f}, prepare "
        f"{prepare_peak / records:.0f}, label rounds {step_peak / records:.0f}, route "
        f"{route_peak / records:.0f}, clusters {compare_peak / records:.0f} bytes/record"
    )


def _load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LocalCluster:
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.processes: list[subprocess.Popen[bytes]] = []
        self._peak = 0.0

    def __enter__(self) -> LocalCluster:
        dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
        self._start([*dask, "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard"])
        worker = [sys.executable, "-m", "distributed.cli.dask_worker", self.address]
        for n in range(WORKERS):
            self._start([*worker, "--nthreads", "1", "--no-dashboard", "--name", f"w{n}"])
        from distributed import Client

        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(WORKERS, timeout=120)
        return self

    def _start(self, command: list[str]) -> None:
        self.processes.append(
            subprocess.Popen(
                command, cwd=self.tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        )

    def sample(self, trees_rss: Callable[[list[int]], list[float]]) -> None:
        """Keep the peak resident memory of the busiest worker (with its nanny's child),
        from one reading of /proc for all workers (each reading costs about 2 ms of CPU,
        taken from the cluster's cores)."""
        self._peak = max(self._peak, *trees_rss([p.pid for p in self.processes[1:]]))

    @property
    def worker_peak(self) -> float:
        return self._peak

    def __exit__(self, *exc: object) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
