"""Benchmark: time and peak memory of sitemap-lint on generated sitemaps, beside xmllint.

    python bench/run.py            # full run: 5 timed runs per input
    python bench/run.py --runs 9   # more runs per input
    python bench/run.py --quick    # one run each, small inputs (proves the script works)
    python bench/run.py --set      # also a set of 200 sitemaps x 50,000 URLs (10 million)
    python bench/run.py --cluster  # only that set: local run against a local Dask cluster
                                   # (a scheduler and 2 workers; needs the dask extra), and
                                   # the memory of one hash partition per URL
    python bench/run.py --shapes   # only the shapes of bench/shapes.py, each beside xmllint
    python bench/run.py --shapes one-line,cdata  # some of them (and the reference)
    python bench/run.py --formats  # only every output format on a finding in each URL,
                                   # beside JSON (bench/formats.py)
    python bench/run.py --formats text,html  # some of them (and JSON)

Inputs are generated into a temporary directory. xmllint (Debian: libxml2-utils)
is run on the same file when it is installed (skipped otherwise), with the core
sitemaps.org schema for the plain files and with the bundle of the extension
schemas for the file with images and hreflang links. The runs of the two tools
alternate, so that both see the same load on a shared machine; the load average
is printed before and after each input. The ratios the targets are about come last.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import shapes

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
    parser.add_argument(
        "--shapes",
        nargs="?",
        const="all",
        help="only the shapes of bench/shapes.py (all, or names separated by commas)",
    )
    parser.add_argument(
        "--formats",
        nargs="?",
        const="all",
        help="only the output formats on a finding in each URL, beside json (all, or names "
        "separated by commas)",
    )
    args = parser.parse_args()
    chosen = choose_shapes(parser, args.shapes) if args.shapes else []
    formats = choose_formats(parser, args.formats) if args.formats else []
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
    package = Path(str(files("sitemap_lint").joinpath("__init__.py"))).parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=False)
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # no configuration file of the current directory is read
        if chosen:
            return measure_shapes(Path(tmp), ours, xmllint, chosen, n, runs)
        if formats:
            from formats import measure_formats

            return measure_formats(Path(tmp), ours, formats, n, runs, alternate, load)
        # label: (path, writer, schema for xmllint)
        inputs: dict[str, tuple[Path, Callable[[Path], None], str]] = {
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


@dataclass(frozen=True)
class ShapeRow:
    """One shape measured: its file's size in MB, medians of wall and CPU time in seconds
    and the peak memory in MB of each tool (xmllint's None when it is not installed or
    the shape is not valid), and what the check before the timed runs said."""

    shape: shapes.Shape
    long: bool
    size: float
    ours: tuple[float, float, float]
    xmllint: tuple[float, float, float] | None
    check: str

    @property
    def time(self) -> float:
        return self.ours[0]

    @property
    def ratio(self) -> float | None:
        return self.ours[0] / self.xmllint[0] if self.xmllint else None


def choose_shapes(parser: argparse.ArgumentParser, names: str) -> list[shapes.Shape]:
    """The shapes ``--shapes`` names ("all", or names separated by commas), the reference
    first."""
    wanted = [name.strip() for name in names.split(",") if name.strip()]
    if names == "all":
        wanted = list(shapes.SHAPES)
    unknown = [name for name in wanted if name not in shapes.SHAPES]
    if unknown:
        parser.error(f"unknown shape {', '.join(unknown)}; known: {', '.join(shapes.SHAPES)}")
    return list(dict.fromkeys([shapes.REFERENCE, *(shapes.SHAPES[name] for name in wanted)]))


def choose_formats(parser: argparse.ArgumentParser, names: str) -> list[str]:
    """The output formats ``--formats`` names ("all", or names separated by commas)."""
    from sitemap_lint.report import REPORTERS

    wanted = [name.strip() for name in names.split(",") if name.strip()]
    if names == "all":
        wanted = list(REPORTERS)
    unknown = [name for name in wanted if name not in REPORTERS]
    if unknown:
        parser.error(f"unknown format {', '.join(unknown)}; known: {', '.join(REPORTERS)}")
    return wanted


_COUNT_CODES = """
import collections, json, sys
report = json.load(sys.stdin)
print(json.dumps(collections.Counter(f["code"] for file in report["files"] for f in file["findings"])))
"""


def shape_check(shape: shapes.Shape, ours: list[str], xmllint: list[str] | None, count: int) -> str:
    """One run of each tool before the timed ones: "ok" when the tool reports what the
    shape expects (nothing, or its finding in every URL) and xmllint finds the file
    valid, else what differs."""
    # The report (tens of MB with a finding in every URL) is read in a child process:
    # a process's peak memory (ru_maxrss) starts from its parent's at fork, so this one
    # must stay small for the timed runs of every later shape.
    with tempfile.TemporaryFile() as report:
        completed = subprocess.run(ours, stdout=report, stderr=subprocess.DEVNULL, check=False)
        if completed.returncode not in (0, 1):
            raise SystemExit(f"exit code {completed.returncode}: {' '.join(ours)}")
        report.seek(0)
        counted = subprocess.run(
            [sys.executable, "-c", _COUNT_CODES], stdin=report, capture_output=True, check=True
        )
    found = Counter(json.loads(counted.stdout))
    expected = Counter({shape.finding: count} if shape.finding else {})
    problems = [f"{code} x{n}" for code, n in sorted((found - expected).items())]
    problems += [f"{code} missing x{n}" for code, n in sorted((expected - found).items())]
    if xmllint and subprocess.run(xmllint, capture_output=True, check=False).returncode:
        problems.append("xmllint: invalid")
    return "; ".join(problems) or "ok"


def measure_shape(
    shape: shapes.Shape,
    long: bool,
    tmp: Path,
    ours: list[str],
    xmllint: str | None,
    n: int,
    runs: int,
) -> ShapeRow:
    """The shape written with ``n`` URLs, checked once, then timed alternately with
    xmllint (the core schema, or the extension schemas' bundle). xmllint is not run on
    a shape that is not valid: its time grows faster than the count of its errors (0.5 s
    of CPU for 5,000 invalid lastmods, 5 s for 10,000)."""
    path = tmp / f"{shape.name}{'-long' if long else ''}.xml"
    shapes.write(shape, path, n, long)
    command = [*ours, "--format", "json", "--now", shapes.NOW, str(path)]
    schema = files("sitemap_lint.schemas").joinpath(
        "bundle-urlset.xsd" if shape.extension else "sitemap.xsd"
    )
    reference = (
        [xmllint, "--noout", "--schema", str(schema), str(path)]
        if xmllint and shape.schema_valid
        else None
    )
    check = shape_check(shape, command, reference, n)
    results = alternate([command, *([reference] if reference else [])], runs)
    medians = [
        (statistics.median(times), statistics.median(cpus), peak) for times, cpus, peak in results
    ]
    size = path.stat().st_size / 1e6
    path.unlink()
    return ShapeRow(shape, long, size, medians[0], medians[1] if reference else None, check)


def measure_shapes(
    tmp: Path, ours: list[str], xmllint: str | None, chosen: list[shapes.Shape], n: int, runs: int
) -> int:
    """Each shape of ``chosen`` with short paths (about 10 MB at 50,000 URLs) and, for
    the core shapes, long paths (about 50 MB): a row each as it is measured, then the
    targets."""
    print(f"machine: {os.cpu_count()} cores; runs per shape: {runs}; load average: {load()}")
    print(f"{n:,} URLs a file, checked at {shapes.NOW}; long paths: about 850 characters")
    for shape in chosen:
        print(f"  {shape.name:<18} {shape.about}")
    print(
        f"\n{'shape':<18} {'paths':<5} {'size':>7} {'sitemap-lint':>12} {'peak':>6} "
        f"{'xmllint':>8} {'peak':>6} {'ratio':>6} {'cpu ratio':>9} {'/pretty':>7}  load  check"
    )
    rows: list[ShapeRow] = []
    pretty: dict[bool, float] = {}  # the reference's time, by long paths or not
    for long in (False, True):
        for shape in chosen:
            if long and not shape.long:
                continue
            row = measure_shape(shape, long, tmp, ours, xmllint, n, runs)
            if shape is shapes.REFERENCE:
                pretty[long] = row.time
            rows.append(row)
            print(shape_line(row, pretty[long]))
    print("\ntargets:")
    for line in shape_targets(rows, pretty):
        print(line)
    print(f"load average at the end: {load()}")
    return 0


def shape_line(row: ShapeRow, pretty: float) -> str:
    time, cpu, peak = row.ours
    if row.xmllint:
        their_time, their_cpu, their_peak = row.xmllint
        theirs = (
            f"{their_time:>7.3f}s {their_peak:>4.0f}MB {time / their_time:>5.2f}x "
            f"{cpu / their_cpu:>8.2f}x"
        )
    else:
        why = "xmllint not installed" if row.shape.schema_valid else "invalid: no xmllint"
        theirs = f"{f'({why})':>32}"
    return (
        f"{row.shape.name:<18} {'long' if row.long else 'short':<5} {row.size:>5.1f}MB "
        f"{time:>11.3f}s {peak:>4.0f}MB {theirs} {time / pretty:>6.2f}x  "
        f"{load().split()[0]}  {row.check}"
    )


def shape_targets(rows: list[ShapeRow], pretty: dict[bool, float]) -> list[str]:
    """The issue's targets over the rows, a line each: met, or by which shapes not. The
    shapes reported in every URL (a deliberate finding, and non-ASCII URLs, which UR011
    reports by design) count for the last target only."""
    clean = [row for row in rows if not row.shape.finding]
    core = [row for row in clean if not row.shape.extension]

    def to_xmllint(chosen: list[ShapeRow]) -> list[tuple[ShapeRow, float]]:
        return [(row, row.ratio) for row in chosen if row.ratio is not None]

    def to_pretty(chosen: list[ShapeRow]) -> list[tuple[ShapeRow, float]]:
        return [(row, row.time / pretty[row.long]) for row in chosen]

    times = {(row.shape.name, row.long): row.time for row in rows}

    def to_clean(chosen: list[ShapeRow]) -> list[tuple[ShapeRow, float]]:
        """Each row against the same file without its finding (``Shape.clean``)."""
        return [
            (row, row.time / times[row.shape.clean, row.long])
            for row in chosen
            if (row.shape.clean, row.long) in times
        ]

    extensions = [row for row in clean if row.shape.extension]
    others = [row for row in core if row.shape is not shapes.REFERENCE]
    findings = [row for row in rows if row.shape.finding]
    return [
        target_line(
            "short paths (~10 MB): <= 1.5x xmllint",
            to_xmllint([r for r in core if not r.long]),
            1.5,
        ),
        target_line(
            "long paths (~50 MB): <= 1.0x xmllint", to_xmllint([r for r in core if r.long]), 1.0
        ),
        target_line("extensions: <= 2.0x xmllint (their schemas)", to_xmllint(extensions), 2.0),
        target_line("each core shape: <= 1.5x pretty (same paths)", to_pretty(others), 1.5),
        target_line("peak memory: <= 64 MB", [(r, r.ours[2]) for r in clean], 64, "MB"),
        target_line("a finding in every URL: <= 3x the clean file", to_clean(findings), 3.0),
        target_line("  the same against pretty", to_pretty(findings), 3.0),
    ]


def target_line(
    label: str, values: list[tuple[ShapeRow, float]], limit: float, unit: str = "x"
) -> str:
    if not values:
        return f"  {label:<46} (not measured)"

    def named(row: ShapeRow, value: float) -> str:
        return f"{row.shape.name}{' (long)' if row.long else ''} {value:.2f}{unit}"

    failed = [named(row, value) for row, value in values if value > limit]
    if not failed:
        worst = named(*max(values, key=lambda item: item[1]))
        return f"  {label:<46} met by all {len(values)} (worst: {worst})"
    return f"  {label:<46} NOT met by {len(failed)} of {len(values)}: {', '.join(failed)}"


def measure_set(directory: Path, ours: list[str], files: int, count: int, runs: int = 3) -> None:
    """The set, checked with one worker process (once) and with one per core (``runs``
    times)."""
    write_set(directory, files, count)
    size = sum(p.stat().st_size for p in directory.iterdir()) / 1e6
    print(f"\nset: {files} sitemaps x {count:,} URLs = {files * count:,} URLs, {size:,.0f} MB")
    print(f"{'workers':<28} {'time':>13} {'peak (all processes)':>22} {'duplicates found':>17}")
    timings: dict[int, list[float]] = {}
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
