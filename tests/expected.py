"""Expected findings beside the fixtures: ``fail.xml`` -> ``fail.expected``.

Each rule fixture (``fixtures/rules/CODE/fail*`` and ``pass*``) and each file of
``fixtures/valid/`` has a ``.expected`` file next to it, holding every finding the checker
gives for it, one a line, in the concise form without the path::

    LINE:COLUMN: CODE [SEVERITY] MESSAGE

A set fixture (``# driver: set``) gives findings in several files; its lines start with the
file's name relative to the fixture's folder: ``pages.xml:4:5: SE001 [warning] ...``.

Lines starting with ``#`` at the top are the header: how the fixture is checked. Lines
starting with ``##`` are notes for the reader (what the fixture shows); they are kept.

- ``# sitemap-url: URL``  the sitemap's own URL (scope rules);
- ``# url: URL``          the URL the file is read as (a robots.txt served there);
- ``# robots: NAME``      a robots.txt beside the fixture, known as served at
  https://example.com/robots.txt (the robots.txt policy rules); for the live driver,
  a ``.http`` response beside it, replayed at /robots.txt;
- ``# driver: fetch``     the ``.http`` file is a raw response replayed by a local server and
  fetched; its lines are the fetch findings (the server's host:port shows as SERVER);
- ``# timeout: SECONDS``  the fetch timeout (default 2);
- ``# driver: set``       the fixture is the root of a site served as https://example.com/
  from its folder, checked with --follow; its lines are the findings of every file;
- ``# max-files: N``      the set's --max-files;
- ``# crawl-budget: SECONDS``  the live driver's ``--live-crawl-budget`` (default 300);
- ``# driver: live``      the fixture is checked with ``--live``, its folder served by a local
  server as http://example.com/ (``--live-connect-to``): the URLs it lists are its
  ``.http`` files, replayed; ``# timeout:`` is ``--live-timeout`` (default 5);
- ``# only: CODE,...``    only the findings of these codes (or prefixes: ``LV``) are listed
  (for a fixture that gives hundreds of thousands of findings, or static findings that
  are noise beside the live ones).

An input's ``.expected`` name is the input's name up to the first dot, or the whole name
when two inputs of one folder share that stem (``pass.txt.expected``).

After an intended change, rewrite them (the header lines stay) and review the diff::

    python -m tests.expected --update

It refuses to run where ``CI`` is set, so that CI never rewrites its own expectations.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from sitemap_lint.engine.checker import check_source
from sitemap_lint.engine.results import FileResult
from sitemap_lint.finding import Finding
from sitemap_lint.inputs.fetch import Fetcher, FetchSettings
from sitemap_lint.inputs.guard import HostPolicy
from sitemap_lint.inputs.reader import Source
from sitemap_lint.run import parse_sitemap_url
from sitemap_lint.settings.options import Options
from tests.helpers import FIXTURES, NOW, RULE_FIXTURES, engine, run_json

SUFFIX = ".expected"
ROBOTS_URL = "https://example.com/robots.txt"
SET_ORIGIN = "https://example.com/"
SERVER = "SERVER"
# The driver a new fixture of a family gets when its .expected is first written.
FAMILY_DRIVERS = {"FE": "fetch", "SE": "set", "FX": "fix", "LV": "live"}
LIVE_ORIGIN = "example.com:80"
HEADER_KEYS = (
    "driver",
    "sitemap-url",
    "url",
    "robots",
    "timeout",
    "max-files",
    "crawl-budget",
    "only",
)


def inputs() -> list[Path]:
    """Every fixture with an expectation: fail* and pass* of each rule, and fixtures/valid/."""
    found = [
        path
        for directory in sorted(RULE_FIXTURES.iterdir())
        for path in sorted(directory.iterdir())
        if path.name.startswith(("fail", "pass")) and not path.name.endswith(SUFFIX)
    ]
    found += sorted(p for p in (FIXTURES / "valid").iterdir() if not p.name.endswith(SUFFIX))
    return found


def expected_path(path: Path) -> Path:
    stem = path.name.split(".", 1)[0]
    same_stem = [
        p
        for p in path.parent.iterdir()
        if p != path and p.name.split(".", 1)[0] == stem and not p.name.endswith(SUFFIX)
    ]
    return path.with_name((path.name if same_stem else stem) + SUFFIX)


def name(path: Path) -> str:
    """The fixture as a test id: CODE/fail.xml or valid/sitemap.xml."""
    return path.relative_to(RULE_FIXTURES if RULE_FIXTURES in path.parents else FIXTURES).as_posix()


@dataclass
class Expected:
    header: dict[str, str] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> Expected:
        expected = cls()
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("##") and not expected.lines:
                expected.notes.append(line[2:].strip())
            elif line.startswith("#") and not expected.lines:
                key, _, value = line[1:].partition(":")
                key = key.strip()
                if key not in HEADER_KEYS:
                    raise ValueError(f"{path}: unknown header line {line!r}")
                expected.header[key] = value.strip()
            elif line.strip():
                expected.lines.append(line)
        return expected

    def text(self) -> str:
        head = [f"# {key}: {value}" for key, value in self.header.items()]
        head += [f"## {note}" for note in self.notes]
        return "".join(f"{line}\n" for line in [*head, *self.lines])


def _line(finding: Finding, prefix: str = "") -> str:
    message = finding.message.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    return f"{prefix}{finding.line}:{finding.column}: {finding.code} [{finding.severity}] {message}"


def _only(header: dict[str, str]) -> tuple[str, ...] | None:
    return tuple(header["only"].split(",")) if "only" in header else None


def _listed(code: str, only: tuple[str, ...] | None) -> bool:
    return only is None or code.startswith(only)


def read_header(path: Path) -> dict[str, str]:
    return Expected.read(path).header


def check_file(path: Path, header: dict[str, str], engine_name: str = "libxml2") -> FileResult:
    """Check one file as ``header`` says (sitemap-url, url, robots)."""
    robots: tuple[tuple[str, str], ...] = ()
    if "robots" in header:
        robots = ((ROBOTS_URL, (path.parent / header["robots"]).read_text(encoding="utf-8")),)
    options = Options(
        now=NOW, sitemap_url=parse_sitemap_url(header.get("sitemap-url")), robots=robots
    )
    source = Source(str(path), path, url=header.get("url"))
    return check_source(source, options, engine(engine_name))


@contextmanager
def _server(directory: Path) -> Iterator[str]:
    from tests.site_server import SiteServer

    with SiteServer() as server:
        server.mount("/rules/", RULE_FIXTURES)
        yield server.url(f"/rules/{directory.name}/")


def _fetch(path: Path, header: dict[str, str], base: str) -> list[str]:
    # The server's URL is given to the run, as on the command line (FE014: other hosts).
    hosts = HostPolicy.naming([base])
    settings = FetchSettings(timeout=float(header.get("timeout", "2.0")), hosts=hosts)
    with Fetcher(settings) as fetcher:
        fetched = fetcher.get(base + path.name)
    netloc = base.split("/")[2]  # 127.0.0.1:PORT, a new port each time
    return [_line(f).replace(netloc, SERVER) for f in fetched.findings]


def _check_set(path: Path, header: dict[str, str]) -> list[str]:
    _status, report = run_json(
        [str(path)],
        follow=True,
        maps=(f"{SET_ORIGIN}={path.parent}",),
        max_files=int(header.get("max-files", "10000")),
    )
    lines = []
    # Messages name other files of the set by path: shown relative to the fixture's folder.
    folders = {f"{path.parent}/", f"{os.path.relpath(path.parent)}/"}
    for entry in report["files"]:
        file = entry["path"].rsplit("/", 1)[-1]
        for f in entry["findings"]:
            message = f["message"].replace("\\", "\\\\").replace("\n", "\\n")
            for folder in sorted(folders, key=len, reverse=True):
                message = message.replace(folder, "")
            lines.append(
                f"{file}:{f['line']}:{f['column']}: {f['code']} [{f['severity']}] {message}"
            )
    return lines


def _live(path: Path, header: dict[str, str]) -> list[str]:
    """The findings of ``check --live`` over the fixture, its folder served as
    http://example.com/ (no cache: every run requests every URL)."""
    from tests.site_server import SiteServer, replayed

    with SiteServer() as server:
        server.mount("/", path.parent)
        if "robots" in header:
            server.routes["/robots.txt"] = replayed((path.parent / header["robots"]).read_bytes())
        _status, report = run_json(
            [str(path)],
            live=True,
            no_live_cache=True,
            live_timeout=float(header.get("timeout", "5")),
            live_crawl_budget=float(header.get("crawl-budget", "300")),
            live_connect_to=(f"{LIVE_ORIGIN}:127.0.0.1:{server.port}",),
        )
    only = _only(header)
    return [
        f"{f['line']}:{f['column']}: {f['code']} [{f['severity']}] "
        + f["message"].replace("\\", "\\\\").replace("\n", "\\n")
        for entry in report["files"]
        for f in entry["findings"]
        if _listed(f["code"], only)
    ]


def _fix(path: Path, header: dict[str, str]) -> list[str]:
    """What ``--fix`` says of the fixture (it is read, never written): why it is left
    unchanged, when it is."""
    from sitemap_lint.fix.engine import fix_source

    options = Options(now=NOW, sitemap_url=parse_sitemap_url(header.get("sitemap-url")))
    fixed = fix_source(Source(str(path), path), options, engine("libxml2"), unsafe=False)
    return [_line(finding) for finding in fixed.refused]


def actual(path: Path, header: dict[str, str], server: str | None = None) -> list[str]:
    """What the checker gives for the fixture, as .expected lines.

    ``server`` is the base URL of a running server (``_server``) for ``driver: fetch``;
    without it one is started for this fixture alone.
    """
    driver = header.get("driver", "file")
    if driver == "fetch":
        if server is None:
            with _server(path.parent) as base:
                return _fetch(path, header, base)
        return _fetch(path, header, server)
    if driver == "set":
        return _check_set(path, header)
    if driver == "fix":
        return _fix(path, header)
    if driver == "live":
        return _live(path, header)
    if driver != "file":
        raise ValueError(f"{path}: unknown driver {driver!r}")
    only = _only(header)
    return [_line(f) for f in check_file(path, header).findings if _listed(f.code, only)]


def default_header(path: Path) -> dict[str, str]:
    family = path.parent.name[:2] if path.parent.parent == RULE_FIXTURES else ""
    driver = FAMILY_DRIVERS.get(family)
    return {"driver": driver} if driver else {}


def update(paths: list[Path], out: TextIO | None = None) -> int:
    """Rewrite the .expected files of ``paths``; return how many changed."""
    out = out or sys.stdout
    changed = 0
    for path in paths:
        target = expected_path(path)
        old = Expected.read(target) if target.exists() else Expected(default_header(path))
        new = Expected(old.header, actual(path, old.header), old.notes)
        if not target.exists() or target.read_text(encoding="utf-8") != new.text():
            target.write_text(new.text(), encoding="utf-8")
            out.write(f"wrote {os.path.relpath(target)}\n")
            changed += 1
    return changed


def stale() -> list[Path]:
    """.expected files whose input is gone."""
    wanted = {expected_path(path) for path in inputs()}
    present = {
        path
        for directory in [*RULE_FIXTURES.iterdir(), FIXTURES / "valid"]
        for path in directory.glob(f"*{SUFFIX}")
    }
    return sorted(present - wanted)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.expected", description=__doc__)
    parser.add_argument("--update", action="store_true", help="rewrite the .expected files")
    parser.add_argument("only", nargs="*", help="fixtures to update (default: all)")
    args = parser.parse_args(argv)
    if not args.update:
        parser.error("say --update to rewrite the .expected files")
    if os.environ.get("CI"):
        print("refusing to rewrite .expected files where CI is set", file=sys.stderr)
        return 2
    paths = [Path(p).resolve() for p in args.only] or inputs()
    changed = update(paths)
    for path in stale():
        print(f"stale, remove it: {os.path.relpath(path)}", file=sys.stderr)
    print(f"{changed} of {len(paths)} .expected file(s) rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
