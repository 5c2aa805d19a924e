"""Every output format on a sitemap with a finding in each URL, beside JSON.

    python bench/run.py --formats               # every format, 5 runs each
    python bench/run.py --formats text,html --runs 3

The ``finding-each`` shape of ``bench/shapes.py`` (a DT001 lastmod in every entry) is
checked once per format and the runs alternate, so that every format sees the same
load; the clean ``pretty`` shape, checked with ``--format json``, is the time of a run
that reports nothing. A row gives the medians of wall and CPU time, the peak memory,
and the ratios to the JSON report of the same file (time, CPU time, peak memory over
JSON's) and to the clean file. The targets of the reports come last.
"""

from __future__ import annotations

import statistics
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import shapes

REFERENCE = "json"
CLEAN = "clean json"  # the row of the clean file
# format: (at most this many times JSON's wall time, at most this many MB over JSON's peak)
TARGETS = {"text": (1.3, None), "html": (1.5, 40.0)}
EVERY_FORMAT_TO_CLEAN = 3.0  # any format on the findings file, against the clean file


@dataclass(frozen=True)
class FormatRow:
    """One format measured: medians of wall and CPU time in seconds, peak memory in MB."""

    name: str
    time: float
    cpu: float
    peak: float


def measure_formats(
    tmp: Path,
    ours: list[str],
    formats: list[str],
    n: int,
    runs: int,
    alternate: Callable[[list[list[str]], int], list[tuple[list[float], list[float], float]]],
    load: Callable[[], str],
) -> int:
    """The formats timed alternately on the findings file, then the targets."""
    findings = tmp / "finding-each.xml"
    clean = tmp / "pretty.xml"
    shapes.write(shapes.FINDING, findings, n)
    shapes.write(shapes.REFERENCE, clean, n)
    names = [REFERENCE, *(name for name in formats if name != REFERENCE)]
    commands = {name: command(ours, name, findings) for name in names}
    usable = {name: run for name, run in commands.items() if _works(name, run)}
    usable[CLEAN] = command(ours, REFERENCE, clean)
    print(f"load average: {load()}; runs per format: {runs}")
    print(
        f"{n:,} URLs, a finding in each ({findings.stat().st_size / 1e6:.1f} MB); "
        f"the clean file: {clean.stat().st_size / 1e6:.1f} MB"
    )
    results = alternate(list(usable.values()), runs)
    rows = [
        FormatRow(name, statistics.median(times), statistics.median(cpus), peak)
        for name, (times, cpus, peak) in zip(usable, results, strict=True)
    ]
    by_name = {row.name: row for row in rows}
    print(
        f"\n{'format':<11} {'time':>7} {'cpu':>7} {'peak':>7} "
        f"{'/json':>6} {'cpu/json':>8} {'peak-json':>9} {'/clean':>7}"
    )
    for row in rows:
        print(format_line(row, by_name[REFERENCE], by_name[CLEAN]))
    for name in names:
        if name not in usable:
            print(f"{name:<11} (not measured: the run failed; --format html needs the html extra)")
    print("\ntargets:")
    for line in targets(by_name):
        print(line)
    print(f"load average at the end: {load()}")
    return 0


def command(ours: list[str], name: str, path: Path) -> list[str]:
    return [*ours, "--format", name, "--now", shapes.NOW, "--color", "never", str(path)]


def _works(name: str, run: list[str]) -> bool:
    """One run before the timed ones: the format reports the findings (exit status 1).
    The report goes to a file, not into this process: a process's peak memory
    (ru_maxrss) starts from its parent's at fork."""
    with tempfile.TemporaryFile() as report:
        completed = subprocess.run(run, stdout=report, stderr=subprocess.DEVNULL, check=False)
        return completed.returncode == 1 and report.tell() > 0


def format_line(row: FormatRow, json: FormatRow, clean: FormatRow) -> str:
    return (
        f"{row.name:<11} {row.time:>6.2f}s {row.cpu:>6.2f}s {row.peak:>5.0f}MB "
        f"{row.time / json.time:>5.2f}x {row.cpu / json.cpu:>7.2f}x "
        f"{row.peak - json.peak:>+7.0f}MB {row.time / clean.time:>6.2f}x"
    )


def targets(rows: dict[str, FormatRow]) -> list[str]:
    """A line per target: the reports' against JSON's, every format's against the clean
    file's."""
    json, clean = rows[REFERENCE], rows[CLEAN]
    lines = []
    for name, (times, extra) in TARGETS.items():
        row = rows.get(name)
        if row is None:
            lines.append(f"  {name}: (not measured)")
            continue
        ratio = row.time / json.time
        said = f"{ratio:.2f}x json ({'met' if ratio <= times else 'NOT met'}: <= {times}x)"
        if extra is not None:
            over = row.peak - json.peak
            verdict = "met" if over <= extra else "NOT met"
            said += f"; peak {over:+.0f} MB over json ({verdict}: <= +{extra:.0f} MB)"
        lines.append(f"  {name}: {said}")
    slow = [
        f"{row.name} {row.time / clean.time:.2f}x"
        for row in rows.values()
        if row.name != CLEAN and row.time / clean.time > EVERY_FORMAT_TO_CLEAN
    ]
    label = f"every format: <= {EVERY_FORMAT_TO_CLEAN}x the clean file"
    lines.append(f"  {label}: {'NOT met by ' + ', '.join(slow) if slow else 'met'}")
    return lines
