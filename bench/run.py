"""Benchmark: time and peak memory of sitemap-lint on generated sitemaps, beside xmllint.

    python bench/run.py            # full run: 5 timed runs per input
    python bench/run.py --runs 9   # more runs per input
    python bench/run.py --quick    # one run each, small inputs (proves the script works)
    python bench/run.py --set      # also a set of 200 sitemaps x 50,000 URLs (10 million)
    python bench/run.py --cluster  # only that set: local run against a local Dask cluster
                                   # (a scheduler and 2 workers; needs the dask extra), and
                                   # the memory of one hash partition per URL

Inputs are generated into a temporary directory. xmllint (Debian: libxml2-utils)
is run on the same file when it is installed (skipped otherwise), with the core
sitemaps.org schema for the plain files and with the bundle of the extension
schemas for the file with images and hreflang links. The runs of the two tools
alternate, so that both see the same load on a shared machine; the load average
is printed before and after each input. The ratios the targets are about come last.
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


def write_sitemap(
    path: Path, count: int, path_length: int, findings_every: int = 0, raw_ampersand: bool = False
) -> None:
    """``count`` URLs with all four fields; with ``findings_every``, every such entry has
    a lastmod that is not a W3C date (one DT001 finding each); with ``raw_ampersand``,
    every URL has a query with a raw '&' (one syntax error each)."""
    padding = "section/" * max(path_length // 8, 1)
    query = "?a=1&b=2" if raw_ampersand else ""
    with open(path, "w", encoding="utf-8") as out:
        out.write(HEAD)
        for i in range(count):
            if findings_every and i % findings_every == findings_every // 2:
                lastmod = f"2024-05-{i % 28 + 1:02d} 10:{i % 60:02d}:00"
            else:
                lastmod = f"2024-05-{i % 28 + 1:02d}T10:{i % 60:02d}:00+00:00"
            out.write(
                f"  <url>\n    <loc>https://www.example.com/{padding}page-{i}.html{query}</loc>\n"
                f"    <lastmod>{lastmod}</lastmod>\n"
                f"    <changefreq>daily</changefreq>\n    <priority>0.{i % 10}</priority>\n  </url>\n"
            )
        out.write("</urlset>\n")


def write_image_hreflang_sitemap(path: Path, count: int) -> None:
    """URLs in clusters of three languages, each with 2 images and 3 hreflang links."""
    languages = LANGUAGES[:3]
    with open(path, "w", encoding="utf-8") as out:
        out.write(EXTENSIONS_HEAD)
        for i in range(count):
            page = i // 3
            language = languages[i % 3]
            links = "".join(
                f'    <xhtml:link rel="alternate" hreflang="{code}" '
                f'href="https://www.example.com/{code}/page-{page}"/>\n'
                for code in languages
            )
            images = "".join(
                f"    <image:image><image:loc>https://cdn.example.com/img/{page}-{n}.jpg"
                "</image:loc></image:image>\n"
                for n in range(2)
            )
            out.write(
                f"  <url>\n    <loc>https://www.example.com/{language}/page-{page}</loc>\n"
                f"    <lastmod>2024-05-{i % 28 + 1:02d}</lastmod>\n{links}{images}  </url>\n"
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
    if process.returncode not in (0, 1):  # 1: findings; anything else is a failed run
        raise SystemExit(f"exit code {process.returncode}: {' '.join(command)}")
    return time.perf_counter() - start, peak


def _tree_rss(pid: int) -> float:
    """Resident memory of a process and all its descendants, in MB (Linux /proc)."""
    return trees_rss([pid])[0]


def trees_rss(pids: list[int]) -> list[float]:
    """Resident memory of each process of ``pids`` with all its descendants, in MB, from
    one reading of Linux's /proc (each reading costs about 2 ms of CPU)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * page
    totals = []
    for pid in pids:
        total, stack = 0, [pid]
        while stack:
            current = stack.pop()
            total += rss.get(current, 0)
            stack.extend(children.get(current, ()))
        totals.append(total / 1e6)
    return totals


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


def load() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:
        return "?"


def run_once(command: list[str]) -> tuple[float, float, float]:
    """Wall time and CPU time (user + system) in seconds, peak RSS in MB, of one run."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = 0
    code = os.waitstatus_to_exitcode(status)
    # sitemap-lint exits 1 for findings; anything else is a failed run, not a time
    # (xmllint exits 1 to 4 for what it finds).
    if code not in (0, 1) and not Path(command[0]).name.startswith("xmllint"):
        raise SystemExit(f"exit code {code}: {' '.join(command)}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def alternate(commands: list[list[str]], runs: int) -> list[tuple[list[float], list[float], float]]:
    """Each command ``runs`` times, in turn: (wall times, CPU times, peak RSS in MB) of each.
    CPU time depends less than wall time on what else the machine is running."""
    results: list[tuple[list[float], list[float], float]] = [([], [], 0.0) for _ in commands]
    for _ in range(runs):
        for index, command in enumerate(commands):
            elapsed, cpu, peak = run_once(command)
            times, cpus, before = results[index]
            times.append(elapsed)
            cpus.append(cpu)
            results[index] = (times, cpus, max(before, peak))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run each on small inputs")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per input (default 5)")
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
    runs = 1 if args.quick else args.runs
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
                trees_rss,
            )
    xmllint = shutil.which("xmllint")
    schemas = files("sitemap_lint.schemas")
    core = str(schemas.joinpath("sitemap.xsd"))
    bundle = str(schemas.joinpath("bundle-urlset.xsd"))
    scale = 20 if args.quick else 1
    n = 50_000 // scale
    # As after an installation (pip compiles the package's bytecode): without this, a
    # source checkout under PYTHONDONTWRITEBYTECODE=1 compiles every module on every run.
    package = Path(files("sitemap_lint").joinpath("__init__.py")).parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=False)
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # no configuration file of the current directory is read
        # label: (path, writer, schema for xmllint)
        inputs = {
            f"{n:,} URLs, short paths": (
                Path(tmp, "plain.xml"),
                lambda p: write_sitemap(p, n, 40),
                core,
            ),
            f"{n:,} URLs, 1 in 100 finding": (
                Path(tmp, "findings.xml"),
                lambda p: write_sitemap(p, n, 40, findings_every=100),
                core,
            ),
            f"{n:,} URLs, raw & in each": (
                Path(tmp, "amp.xml"),
                lambda p: write_sitemap(p, n, 40, raw_ampersand=True),
                core,
            ),
            f"{n:,} URLs, long paths": (
                Path(tmp, "long.xml"),
                lambda p: write_sitemap(p, n, 850),
                core,
            ),
            f"{n:,} URLs, 2 img + 3 hreflang": (
                Path(tmp, "img-hreflang.xml"),
                lambda p: write_image_hreflang_sitemap(p, n),
                bundle,
            ),
            f"{n:,} URLs, extensions": (
                Path(tmp, "ext.xml"),
                lambda p: write_extension_sitemap(p, n),
                bundle,
            ),
            "10 URLs": (Path(tmp, "small.xml"), lambda p: write_sitemap(p, 10, 40), core),
        }
        print(f"machine: {os.cpu_count()} cores; runs per input: {runs}; load average: {load()}")
        print(
            f"{'input':<32} {'size':>8} {'sitemap-lint':>13} {'peak':>7} {'xmllint':>9} "
            f"{'peak':>7} {'ratio':>6}  {'range (ours)':>15}  {'cpu ratio':>9}  load"
        )
        medians: dict[str, float] = {}
        ratios: dict[str, float] = {}
        cpu_medians: dict[str, float] = {}
        cpu_ratios: dict[str, float] = {}
        for label, (path, writer, schema) in inputs.items():
            writer(path)
            size = path.stat().st_size / 1e6
            commands = [[*ours, "--format", "json", "--now", "2025-06-01", str(path)]]
            if xmllint:
                commands.append([xmllint, "--noout", "--schema", schema, str(path)])
            results = alternate(commands, runs)
            times, cpus, peak = results[0]
            ours_time = statistics.median(times)
            medians[label] = ours_time
            cpu_medians[label] = statistics.median(cpus)
            spread = f"{min(times):.2f}-{max(times):.2f}s"
            cpu_ratio = ""
            if xmllint:
                ref_times, ref_cpus, ref_peak = results[1]
                ref_time = statistics.median(ref_times)
                ratios[label] = ours_time / ref_time
                cpu_ratios[label] = cpu_medians[label] / statistics.median(ref_cpus)
                cpu_ratio = f"{cpu_ratios[label]:.2f}x"
                ref = f"{ref_time:>8.3f}s {ref_peak:>5.0f}MB {ours_time / ref_time:>5.2f}x"
            else:
                ref = f"{'(xmllint not installed: apt-get install libxml2-utils)':>25}"
            print(
                f"{label:<32} {size:>6.1f}MB {ours_time:>12.3f}s {peak:>5.0f}MB {ref}  "
                f"{spread:>15}  {cpu_ratio:>9}  {load()}"
            )
        bare_command = [sys.executable, "-c", "import typer, rich.console, lxml.etree"]
        small_command = [
            *ours,
            "--format",
            "json",
            "--now",
            "2025-06-01",
            str(inputs["10 URLs"][0]),
        ]
        (bare_times, bare_cpus, _), (small_times, small_cpus, _) = alternate(
            [bare_command, small_command], runs * 2
        )
        bare, small = statistics.median(bare_times), statistics.median(small_times)
        bare_cpu, small_cpu = statistics.median(bare_cpus), statistics.median(small_cpus)
        print(
            f"{'bare import (typer, rich.console, lxml)':<32} {'':>8} {bare:>12.3f}s  cpu {bare_cpu:.3f}s"
        )
        print(f"{'10 URLs (again, alternating)':<32} {'':>8} {small:>12.3f}s  cpu {small_cpu:.3f}s")
        print("\ntargets:")
        plain, with_findings = f"{n:,} URLs, short paths", f"{n:,} URLs, 1 in 100 finding"
        for label, limit in (
            (plain, 1.5),
            (f"{n:,} URLs, long paths", 1.0),
            (f"{n:,} URLs, 2 img + 3 hreflang", 2.0),
        ):
            if label in ratios:
                print(
                    f"  {label:<32} {ratios[label]:.2f}x xmllint (target <= {limit}x); "
                    f"CPU time {cpu_ratios[label]:.2f}x"
                )
        print(
            f"  {'1 in 100 finding / clean':<32} "
            f"{medians[with_findings] / medians[plain]:.2f}x (target <= 2x); "
            f"CPU time {cpu_medians[with_findings] / cpu_medians[plain]:.2f}x"
        )
        print(
            f"  {'10 URLs / bare import':<32} {small / bare:.2f}x (target <= 1.2x); "
            f"CPU time {small_cpu / bare_cpu:.2f}x"
        )
        every = f"{n:,} URLs, raw & in each"
        print(
            f"  {'raw & in each / clean':<32} "
            f"{medians[every] / medians[plain]:.2f}x (target <= 3x); "
            f"CPU time {cpu_medians[every] / cpu_medians[plain]:.2f}x"
        )
        print(f"load average at the end: {load()}")
        if args.set or args.quick:
            measure_set(Path(tmp, "set"), ours, 4 if args.quick else 200, n, 1 if args.quick else 3)
    return 0


def measure_set(directory: Path, ours: list[str], files: int, count: int, runs: int = 3) -> None:
    """The set, checked with one worker process (once) and with one per core (``runs``
    times)."""
    write_set(directory, files, count)
    size = sum(p.stat().st_size for p in directory.iterdir()) / 1e6
    print(f"\nset: {files} sitemaps x {count:,} URLs = {files * count:,} URLs, {size:,.0f} MB")
    print(f"{'workers':<28} {'time':>13} {'peak (all processes)':>22} {'duplicates found':>17}")
    timings = {}
    for jobs in (1, os.cpu_count() or 1):
        command = [*ours, "--format", "json", "--now", "2025-06-01", "--jobs", str(jobs)]
        report = directory.parent / "set-report.json"
        # One run with one worker; three with one per core (the target's), in a row.
        for _ in range(1 if jobs == 1 else runs):
            elapsed, total = measure_tree([*command, str(directory)], report)
            found = report.read_text(encoding="utf-8").count('"code": "SE001"')
            timings.setdefault(jobs, []).append(elapsed)
            print(f"{jobs:<28} {elapsed:>12.2f}s {total:>20.0f}MB {found:>17,}")
    if len(timings) == 2:
        one, many = (statistics.median(times) for times in timings.values())
        print(f"speed-up with {os.cpu_count()} workers: {one / many:.2f}x (medians)")


if __name__ == "__main__":
    raise SystemExit(main())
