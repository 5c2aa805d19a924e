"""The diff at scale: two sets of sitemaps (the old and the new deploy) compared by
``sitemap-lint diff``, timed, with the peak memory of the command and its worker
processes.

    python bench/diff_scale.py --files 200 --urls 50000   # 10,000,000 URLs a side

The new side drops 1 URL in 100 (another takes its place), moves every 50th file's
URLs to another host and stamps a third of the lastmods with the build time; the
report must say so, which the script checks before it prints the time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import measure_tree

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)


def write_side(directory: Path, files: int, count: int, new: bool) -> None:
    directory.mkdir(parents=True)
    for n in range(files):
        host = "www2.example.com" if new and n % 50 == 49 else "www.example.com"
        lines = [HEAD]
        for i in range(count):
            page = n * count + i
            if new and page % 100 == 0:
                page += 1 << 40  # replaced
            stamp = "2026-12-04T09:00:00Z" if new and page % 3 == 0 else "2025-01-01"
            lines.append(
                f"  <url>\n    <loc>https://{host}/section-{page % 97}/item-{page}/page</loc>\n"
                f"    <lastmod>{stamp}</lastmod>\n  </url>\n"
            )
        lines.append("</urlset>\n")
        (directory / f"sitemap-{n:03d}.xml").write_text("".join(lines), encoding="utf-8")


def expected_changes(files: int, count: int) -> int:
    """URLs removed (and as many added): the pages replaced in the files that keep their
    host, and every URL of the files moved to another host."""
    moved = [n for n in range(files) if n % 50 == 49]
    replaced = sum(
        len(range(-(-n * count // 100) * 100, (n + 1) * count, 100))
        for n in range(files)
        if n not in moved
    )
    return replaced + count * len(moved)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--urls", type=int, default=50_000)
    parser.add_argument("--keep", help="a directory to write the sides to (and keep)")
    args = parser.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="diff-scale-"))
    old, new = base / "old", base / "new"
    if not old.exists():
        started = time.perf_counter()
        write_side(old, args.files, args.urls, new=False)
        write_side(new, args.files, args.urls, new=True)
        print(
            f"wrote two sides of {args.files * args.urls:,} URLs in "
            f"{time.perf_counter() - started:.0f} s"
        )
    report = base / "report.json"
    command = [
        sys.executable,
        "-m",
        "sitemap_lint",
        "diff",
        "--format",
        "json",
        "--output-file",
        str(report),
        "--now",
        "2026-12-04T10:00:00Z",
        str(old),
        str(new),
    ]
    load = os.getloadavg()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds, peak = measure_tree(command, base / "stdout.txt")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    document = json.loads(report.read_text(encoding="utf-8"))
    urls = document["urls"]
    total = args.files * args.urls
    expected = expected_changes(args.files, args.urls)
    assert document["old"]["urls"] == total and document["new"]["urls"] == total, document
    assert urls["removed"] == expected and urls["added"] == expected, (urls, expected)
    print(
        f"machine: {os.cpu_count()} cores; load before {load[0]:.2f}, "
        f"after {os.getloadavg()[0]:.2f}\n"
        f"diff of two sides of {total:,} URLs ({args.files} files each): {seconds:.1f} s, "
        f"{cpu:.1f} CPU seconds (user and system), "
        f"peak memory {peak:.0f} MB (the command and its workers)\n"
        f"removed {urls['removed']:,}, added {urls['added']:,}, "
        f"lastmod changed {document['lastmod']['changed']:,}, origins {document['origins']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
