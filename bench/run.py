"""Benchmark: time and peak memory of sitemap-lint on generated sitemaps, beside xmllint.

    python bench/run.py            # full run: 3 timed runs per input
    python bench/run.py --quick    # one run each, small inputs (proves the script works)
    python bench/run.py --set      # also a set of 200 sitemaps x 50,000 URLs (10 million)
    python bench/run.py --cluster  # only that set: local run against a local Dask cluster
                                   # (a scheduler and 2 workers; needs the dask extra), and
                                   # the memory of one hash partition per URL

Inputs are generated into a temporary directory. xmllint (Debian: libxml2-utils)
is run on the same bundled schema when it is installed, and skipped otherwise.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.resources import files
from pathlib import Path

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'


EXTENSIONS_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n'
    '        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"\n'
    '        xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
)
LANGUAGES = ("en", "de", "fr", "x-default")


def write_extension_sitemap(path: Path, count: int) -> None:
    """URLs in clusters of three languages, each with 3 images and 4 hreflang links."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(EXTENSIONS_HEAD)
        for i in range(count):
            page = i // 3
            language = LANGUAGES[i % 3]
            links = "".join(
                f'    <xhtml:link rel="alternate" hreflang="{code}" '
                f'href="https://www.example.com/{"en" if code == "x-default" else code}/page-{page}"/>\n'
                for code in LANGUAGES
            )
            images = "".join(
                f"    <image:image><image:loc>https://cdn.example.com/img/{page}-{n}.jpg"
                "</image:loc></image:image>\n"
                for n in range(3)
            )
            out.write(
                f"  <url>\n    <loc>https://www.example.com/{language}/page-{page}</loc>\n"
                f"    <lastmod>2024-05-{i % 28 + 1:02d}</lastmod>\n{links}{images}  </url>\n"
            )
        out.write("</urlset>\n")


def write_sitemap(path: Path, count: int, path_length: int) -> None:
    padding = "section/" * max(path_length // 8, 1)
    with open(path, "w", encoding="utf-8") as out:
        out.write(HEAD)
        for i in range(count):
            out.write(
                f"  <url>\n    <loc>https://www.example.com/{padding}page-{i}.html</loc>\n"
                f"    <lastmod>2024-05-{i % 28 + 1:02d}T10:{i % 60:02d}:00+00:00</lastmod>\n"
                f"    <changefreq>daily</changefreq>\n    <priority>0.{i % 10}</priority>\n  </url>\n"
            )
        out.write("</urlset>\n")


def write_set(directory: Path, files: int, count: int) -> None:
    """``files`` sitemaps of ``count`` URLs; each repeats 10 URLs of the one before, so
    the set has cross-file duplicates to find."""
    directory.mkdir()
    for n in range(files):
        with open(directory / f"sitemap-{n:03d}.xml", "w", encoding="utf-8") as out:
            out.write(HEAD)
            for i in range(count):
                page = (n - 1) * count + 10 + i if i < 10 and n else n * count + i
                out.write(f"  <url><loc>https://www.example.com/page-{page}</loc></url>\n")
            out.write("</urlset>\n")


def measure_tree(command: list[str], output: Path) -> tuple[float, float]:
    """Wall time in seconds and the peak of the resident memory summed over the process
    and its children (sampled from /proc every 50 ms), in MB; stdout goes to ``output``."""
    start = time.perf_counter()
    with open(output, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        peak = 0.0
        while process.poll() is None:
            peak = max(peak, _tree_rss(process.pid))
            time.sleep(0.05)
    return time.perf_counter() - start, peak


def _tree_rss(pid: int) -> float:
    """Resident memory of a process and all its descendants, in MB (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        total += rss.get(current, 0)
        stack.extend(children.get(current, ()))
    return total / 1e6


def measure(command: list[str], runs: int) -> tuple[float, float]:
    """Median wall time in seconds and peak RSS in MB of a command (that process alone)."""
    times, peaks = [], []
    for _ in range(runs):
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _pid, _status, usage = os.wait4(process.pid, 0)
        times.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)
        process.returncode = 0
    return statistics.median(times), max(peaks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run each on small inputs")
    parser.add_argument(
        "--set", action="store_true", help="also the set of 200 sitemaps x 50,000 URLs"
    )
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="only the set: the local run against a local Dask cluster of 2 workers",
    )
    parser.add_argument(
        "--files", type=int, default=200, help="with --cluster: sitemaps in the set (200)"
    )
    args = parser.parse_args()
    runs = 1 if args.quick else 3
    tool = shutil.which("sitemap-lint") or ""
    ours = [tool] if tool else [sys.executable, "-m", "sitemap_lint"]
    if args.cluster:
        from bench_cluster import measure_cluster

        scale = 20 if args.quick else 1
        with tempfile.TemporaryDirectory() as tmp:
            return measure_cluster(
                Path(tmp),
                ours,
                4 if args.quick else args.files,
                50_000 // scale,
                write_set,
                measure_tree,
                _tree_rss,
            )
    xmllint = shutil.which("xmllint")
    schema = str(files("sitemap_lint.schemas").joinpath("bundle-urlset.xsd"))
    scale = 20 if args.quick else 1
    with tempfile.TemporaryDirectory() as tmp:
        inputs = {
            f"{50_000 // scale:,} URLs, short paths": (Path(tmp, "plain.xml"), 50_000 // scale, 40),
            f"{50_000 // scale:,} URLs, long paths": (Path(tmp, "long.xml"), 50_000 // scale, 850),
            f"{50_000 // scale:,} URLs, extensions": (Path(tmp, "ext.xml"), 50_000 // scale, None),
            "10 URLs": (Path(tmp, "small.xml"), 10, 40),
        }
        print(f"machine: {os.cpu_count()} cores; runs per input: {runs}")
        print(
            f"{'input':<28} {'size':>8} {'sitemap-lint':>13} {'peak':>8} {'xmllint':>9} {'peak':>8} {'ratio':>6}"
        )
        for label, (path, count, length) in inputs.items():
            if length is None:
                write_extension_sitemap(path, count)
            else:
                write_sitemap(path, count, length)
            size = path.stat().st_size / 1e6
            ours_time, ours_peak = measure(
                [*ours, "--format", "json", "--now", "2025-06-01", str(path)], runs
            )
            if xmllint:
                ref_time, ref_peak = measure(
                    [xmllint, "--noout", "--schema", schema, str(path)], runs
                )
                ref = f"{ref_time:>8.2f}s {ref_peak:>6.0f}MB {ours_time / ref_time:>5.1f}x"
            else:
                ref = f"{'(xmllint not installed: apt-get install libxml2-utils)':>25}"
            print(f"{label:<28} {size:>6.1f}MB {ours_time:>12.2f}s {ours_peak:>6.0f}MB {ref}")
        bare, _ = measure([sys.executable, "-c", "import lxml.etree, rich.console, typer"], runs)
        print(f"{'bare import (lxml, rich, typer)':<28} {'':>8} {bare:>12.2f}s")
        if args.set or args.quick:
            measure_set(Path(tmp, "set"), ours, 4 if args.quick else 200, 50_000 // scale)
    return 0


def measure_set(directory: Path, ours: list[str], files: int, count: int) -> None:
    """The set, checked with one worker process and with one per core."""
    write_set(directory, files, count)
    size = sum(p.stat().st_size for p in directory.iterdir()) / 1e6
    print(f"\nset: {files} sitemaps x {count:,} URLs = {files * count:,} URLs, {size:,.0f} MB")
    print(f"{'workers':<28} {'time':>13} {'peak (all processes)':>22} {'duplicates found':>17}")
    timings = {}
    for jobs in (1, os.cpu_count() or 1):
        command = [*ours, "--format", "json", "--now", "2025-06-01", "--jobs", str(jobs)]
        report = directory.parent / "set-report.json"
        elapsed, total = measure_tree([*command, str(directory)], report)
        found = report.read_text(encoding="utf-8").count('"code": "SE001"')
        timings[jobs] = elapsed
        print(f"{jobs:<28} {elapsed:>12.2f}s {total:>20.0f}MB {found:>17,}")
    if len(timings) == 2:
        one, many = timings.values()
        print(f"speed-up with {os.cpu_count()} workers: {one / many:.2f}x")


if __name__ == "__main__":
    raise SystemExit(main())
