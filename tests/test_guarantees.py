"""What the tool promises about its surroundings, tested.

(a) No network: every file under fixtures/ is checked with Python's sockets
    blocked (connect, connect_ex, create_connection, getaddrinfo), with engines
    loaded inside the block. libxml2 would connect from C, past these patches:
    the entity and DTD cases of test_hostile.py cover that path with a real
    listening socket that must see no connection.
(b) No file is opened except the inputs named and the tool's own files: a
    subprocess installs an audit hook (``sys.addaudithook``) that records every
    ``open`` (and every directory listing) before the CLI runs; each path must
    be an input, inside the installed sitemap_lint package (code, schemas),
    inside the standard library or site-packages (imports), or under /dev. A
    self-test injects a read of /etc/passwd and shows that the check catches it.
    Audit hooks see Python's opens only, not libxml2's (the XSDs are read from
    C), so where strace is installed the same runs are also traced at the
    system-call level: every open*(), and no socket(), connect() or sendto() at
    all, for the fixtures and for the entity attacks of test_hostile.py.
(c) The tool never writes to the user's files: a copy of the fixtures is
    checked, and bytes, sizes, mtimes and the directory listing are compared
    before and after; the audit hook also records every open in a write mode,
    and there must be none.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
from importlib.resources import files
from pathlib import Path

import pytest

import sitemap_lint
from sitemap_lint import xsd
from sitemap_lint.cli import main
from sitemap_lint.engine.checker import check_source
from sitemap_lint.inputs.reader import Source
from sitemap_lint.settings.options import Options
from tests.helpers import FIXTURES, NOW, NetworkUsed

pytestmark = pytest.mark.slow

# Every input fixture (the .expected files beside them are the tests' own, not inputs).
ALL_FIXTURES = sorted(
    path for path in FIXTURES.rglob("*") if path.is_file() and path.suffix != ".expected"
)
# The limit fixtures expand to 50,000 entries each: the slow engine skips them. The
# runs over the small fixtures also leave out TX005's 200,005 findings (seconds in every
# run): the file is read as RB005's compressed text is; the runs over every fixture keep it.
SMALL_FIXTURES = [
    p
    for p in ALL_FIXTURES
    if p.stat().st_size < 100_000
    and "LM" not in p.parts[-2]
    and p.parts[-2:] != ("TX005", "fail.txt.gz")
]


# -- (a) no network ---------------------------------------------------------------------


def test_the_block_is_real(no_network) -> None:
    with pytest.raises(NetworkUsed):
        socket.create_connection(("127.0.0.1", 9))
    with pytest.raises(NetworkUsed):
        socket.getaddrinfo("example.com", 80)
    with socket.socket() as client, pytest.raises(NetworkUsed):
        client.connect(("127.0.0.1", 9))


@pytest.mark.parametrize(
    ("engine_name", "paths"),
    [("libxml2", ALL_FIXTURES), ("xmlschema", SMALL_FIXTURES)],
    ids=["libxml2-all-fixtures", "xmlschema-small-fixtures"],
)
def test_every_fixture_is_checked_offline(no_network, engine_name: str, paths: list) -> None:
    assert len(paths) > 100
    engine = xsd.load(engine_name)  # a fresh engine: its schemas are compiled under the block
    options = Options(now=NOW)
    for path in paths:
        check_source(Source(str(path), path), options, engine)


def test_the_cli_is_offline_even_with_a_sitemap_url(no_network, capsys) -> None:
    """--sitemap-url only sets the scope; nothing is fetched from it."""
    paths = [str(p) for p in SMALL_FIXTURES]
    status = main(["--format", "json", "--sitemap-url", "https://example.com/sitemap.xml", *paths])
    assert status == 1
    assert json.loads(capsys.readouterr().out)["summary"]["files"] == len(paths)


# -- (b), (c): an audit hook in a subprocess ---------------------------------------------

HARNESS = r"""
import json, os, sys

events = []

def hook(event, args):
    if event == "open":
        path, mode, flags = args
        if isinstance(path, int):
            return  # an already open descriptor
        events.append([event, os.path.abspath(os.fsdecode(path)), mode, flags])
    elif event in ("os.listdir", "os.scandir"):
        path = args[0] if args and args[0] is not None else "."
        if not isinstance(path, int):
            events.append([event, os.path.abspath(os.fsdecode(path)), None, 0])

sys.addaudithook(hook)
config = json.loads(sys.argv[1])
from sitemap_lint.cli import main

if config.get("also_read"):
    # The self-test: a tool that reads one more file than it was given.
    import sitemap_lint.engine.checker as checker

    check_source = checker.check_source

    def reading_more(*args, **kwargs):
        with open(config["also_read"], "rb") as handle:
            handle.read(1)
        return check_source(*args, **kwargs)

    checker.check_source = reading_more
status = main(config["argv"])  # stdout is /dev/null
report = json.dumps({"status": status, "events": events}).encode()
with os.fdopen(config["fd"], "wb") as out:  # a descriptor: not a file name the hook records
    out.write(report)
"""


def audited_run(argv: list[str], cwd: Path, also_read: str | None = None) -> dict:
    """Run the CLI under the audit hook; ``{"status": ..., "events": [...]}``."""
    read_end, write_end = os.pipe()
    config = {"argv": argv, "fd": write_end, "also_read": also_read}
    # -I: no current directory or user site on sys.path, no PYTHON* variables;
    # -B: no bytecode written (that would be an open for writing).
    process = subprocess.Popen(
        [sys.executable, "-I", "-B", "-c", HARNESS, json.dumps(config)],
        cwd=cwd,
        pass_fds=[write_end],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        data = reader.read()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr.decode(errors="replace")[-2000:]
    return json.loads(data)


def allowed_roots() -> list[Path]:
    """Where the tool may open files without being told: its own package and
    schemas, the standard library and site-packages (imports), and /dev."""
    paths = sysconfig.get_paths()
    roots = {
        Path(sitemap_lint.__file__).parent,
        Path(str(files("sitemap_lint.schemas"))),
        *(Path(paths[key]) for key in ("stdlib", "platstdlib", "purelib", "platlib")),
        # The interpreter's own import path (python3XX.zip, lib-dynload), which
        # importlib lists even where it does not exist.
        *(Path(p) for p in sys.path if p and p.startswith((sys.base_prefix, sys.prefix))),
        Path("/dev"),
    }
    return sorted({Path(os.path.realpath(root)) for root in roots})


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def unexpected_reads(events: list, inputs: list[Path]) -> list[str]:
    roots = allowed_roots()
    named = {Path(os.path.realpath(p)) for p in inputs}
    problems = []
    for event, raw, _mode, _flags in events:
        path = Path(os.path.realpath(raw))
        if path in named or any(_inside(path, root) for root in roots):
            continue
        if event != "open" and any(_inside(p, path) for p in named):
            continue  # listing a directory that holds an input (a directory argument)
        problems.append(f"{event} {raw}")
    return problems


def writes(events: list) -> list[str]:
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
    found = []
    for event, path, mode, flags in events:
        if event != "open":
            continue
        if (mode and any(c in mode for c in "wax+")) or (flags or 0) & write_flags:
            found.append(f"{path} mode={mode!r} flags={flags:#o}")
    return found


def snapshot(root: Path) -> dict[str, tuple]:
    state = {}
    for path in sorted(root.rglob("*")):
        info = path.stat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
        state[str(path.relative_to(root))] = (digest, info.st_size, info.st_mtime_ns, info.st_mode)
    return state


@pytest.fixture(scope="module")
def fixture_copy(tmp_path_factory) -> Path:
    copy = tmp_path_factory.mktemp("user-files") / "fixtures"
    shutil.copytree(FIXTURES, copy)
    return copy


def test_only_the_inputs_and_the_tools_own_files_are_opened_and_nothing_is_written(
    fixture_copy: Path, tmp_path: Path
) -> None:
    inputs = sorted(p for p in fixture_copy.rglob("*") if p.is_file() and p.suffix != ".expected")
    before = snapshot(fixture_copy)
    result = audited_run(["--format", "json", "--now", "2025-06-01", *map(str, inputs)], tmp_path)
    after = snapshot(fixture_copy)

    assert result["status"] == 1
    opened = {Path(os.path.realpath(e[1])) for e in result["events"] if e[0] == "open"}
    assert {Path(os.path.realpath(p)) for p in inputs} <= opened  # the hook saw the inputs
    assert unexpected_reads(result["events"], inputs) == []
    assert writes(result["events"]) == []
    assert after == before


def test_a_directory_argument_reads_only_below_it(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "nested").mkdir(parents=True)
    valid = FIXTURES / "valid" / "sitemap.xml"
    shutil.copy(valid, site / "sitemap.xml")
    shutil.copy(valid, site / "nested" / "sitemap-2.xml")
    (site / "notes.txt").write_text("not a sitemap, never opened")
    before = snapshot(site)
    result = audited_run(["--now", "2025-06-01", str(site)], tmp_path)
    assert result["status"] == 0
    inputs = [site / "sitemap.xml", site / "nested" / "sitemap-2.xml"]
    assert unexpected_reads(result["events"], inputs) == []
    assert not any(e[1].endswith("notes.txt") for e in result["events"])
    assert writes(result["events"]) == []
    assert snapshot(site) == before


def test_the_audit_check_catches_a_read_of_another_file(tmp_path: Path) -> None:
    """The self-test: the same check fails when the tool also opens /etc/passwd
    (or, where there is none, a file beside the input)."""
    sample = tmp_path / "sitemap.xml"
    shutil.copy(FIXTURES / "valid" / "sitemap.xml", sample)
    secret = Path("/etc/passwd")
    if not secret.is_file():
        secret = tmp_path / "secret.txt"
        secret.write_text("secret")
    result = audited_run(["--now", "2025-06-01", str(sample)], tmp_path, also_read=str(secret))
    assert result["status"] == 0
    assert unexpected_reads(result["events"], [sample]) == [f"open {secret}"]


def test_the_write_check_catches_a_write() -> None:
    events = [
        ["open", "/tmp/x", "r", os.O_RDONLY],
        ["open", "/tmp/y", "w", os.O_WRONLY | os.O_CREAT | os.O_TRUNC],
        ["open", "/tmp/z", None, os.O_RDWR],
    ]
    assert len(writes(events)) == 2


# -- (a), (b), (c) at the system-call level, where strace is available -----------------

STRACE = shutil.which("strace")
TRACED = "open,openat,openat2,creat,socket,connect,sendto,sendmsg"
_CALL = re.compile(r"^\d+\s+(\w+)\((.*)\)\s+=\s+(-?\d+)")
_SHARED_LIBRARY = re.compile(r"\.so(\.\d+)*$")


def system_runtime(path: Path) -> bool:
    """Files the C runtime reads on its own: the dynamic loader and its libraries,
    locale and iconv data, the local time zone, OpenSSL's configuration (hashlib),
    malloc's overcommit setting (read for the arenas of threads), and the virtual
    environment's pyvenv.cfg."""
    text = str(path)
    return (
        text == "/etc/ld.so.cache"
        or bool(_SHARED_LIBRARY.search(path.name))
        or text.startswith(("/usr/share/locale/", "/usr/lib/locale/", "/usr/share/zoneinfo/"))
        or "/gconv/" in text
        or text == "/etc/localtime"
        or text == "/proc/sys/vm/overcommit_memory"
        or text.endswith("/ssl/openssl.cnf")
        or path == Path(sys.prefix) / "pyvenv.cfg"
    )


def trace_violations(trace: str, inputs: list[Path]) -> list[str]:
    roots = allowed_roots()
    named = {Path(os.path.realpath(p)) for p in inputs}
    problems = []
    for line in trace.splitlines():
        match = _CALL.match(line)
        if match is None:
            continue  # a resumed or signal line
        call, arguments, result = match.group(1), match.group(2), int(match.group(3))
        if call in ("socket", "connect", "sendto", "sendmsg"):
            problems.append(f"{call}({arguments})")
            continue
        if result < 0:
            continue  # a failed open reads nothing (e.g. the loader probing paths)
        quoted = re.search(r'"((?:[^"\\]|\\.)*)"', arguments)
        if quoted is None:
            continue
        raw = Path(quoted.group(1))
        path = Path(os.path.realpath(raw))
        if re.search(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND", arguments) or call == "creat":
            problems.append(f"write {call}({arguments})")
        elif "O_DIRECTORY" in arguments and any(_inside(p, path) for p in named | set(roots)):
            continue  # listing a directory on the way to an input or an allowed root
        elif not (
            path in named
            or any(_inside(path, root) for root in roots)
            or system_runtime(raw)
            or system_runtime(path)
        ):
            problems.append(f"{call} {path}")
    return problems


def traced(command: list[str], cwd: Path) -> str:
    trace = cwd / "trace.txt"
    result = subprocess.run(
        [STRACE, "-f", "-qq", "-e", f"trace={TRACED}", "-o", str(trace), *command],
        cwd=cwd,
        capture_output=True,
        timeout=300,
        check=False,
    )
    if not trace.exists() or "ptrace" in result.stderr.decode(errors="replace"):
        pytest.skip(f"strace cannot trace here: {result.stderr[-300:]!r}")
    return trace.read_text(errors="replace")


needs_strace = pytest.mark.skipif(
    STRACE is None or sys.platform != "linux", reason="needs strace on Linux"
)


@needs_strace
def test_system_calls_show_no_network_and_no_other_file(tmp_path: Path) -> None:
    from tests.hostile_inputs import CASES, network_trap

    hostile = tmp_path / "hostile"
    hostile.mkdir()
    with network_trap() as (trap, connections):
        inputs = [
            case.make(hostile, trap) for case in CASES if case.status == 1 and "XM003" in case.codes
        ]
        inputs += SMALL_FIXTURES
        command = [sys.executable, "-I", "-B", "-m", "sitemap_lint", "--format", "json"]
        trace = traced([*command, "--now", "2025-06-01", *map(str, inputs)], tmp_path)
        assert connections() == 0
    assert trace_violations(trace, inputs) == []
    opened = {Path(m.group(1)).name for m in re.finditer(r'"([^"]+\.xsd)", O_RDONLY', trace)}
    assert "sitemap.xsd" in opened  # libxml2's reads of the schemas are seen here


@needs_strace
def test_the_system_call_check_catches_a_read_and_a_connection(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    code = (
        f"open({str(secret)!r}).read(); import socket; socket.socket().connect_ex(('127.0.0.1', 9))"
    )
    trace = traced([sys.executable, "-I", "-B", "-c", code], tmp_path)
    problems = trace_violations(trace, [])
    assert any(p.endswith("secret.txt") for p in problems), problems
    assert any(p.startswith("socket(") for p in problems), problems
    assert any(p.startswith("connect(") for p in problems), problems


@pytest.mark.parametrize(
    ("data", "codes"),
    [
        (  # a byte that is not UTF-8 inside the declared version
            b'<?xml version="1.\xff0" encoding="UTF-8"?>\n'
            b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            b"  <url><loc>https://example.com/</loc></url>\n</urlset>\n",
            {"XM010", "EN001"},
        ),
        (  # a namespace name that starts with a line break (lxml refuses it)
            b'<?xml version="1.0" encoding="UTF-8"?>\n'
            b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            b'xmlns:image="\rhttp://www.google.com/schemas/sitemap-image/1.1" xmlns:x="\turn:x">\n'
            b'  <url><loc x:a="1">https://example.com/</loc><image:image><image:loc>'
            b"https://example.com/a.png</image:loc></image:image></url>\n</urlset>\n",
            {"NS004", "ST010"},
        ),
    ],
)
def test_broken_declarations_are_findings_not_crashes(data: bytes, codes: set[str]) -> None:
    findings = sitemap_lint.lint(data)
    assert codes <= {f.code for f in findings}


def test_a_report_file_is_written_as_it_is_made_not_held_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``-o`` writes the report into the file that replaces the old one as it is made:
    writing it takes the memory that writing to standard output takes, not that plus two
    copies of the report (its text and its bytes)."""
    import io
    import tracemalloc

    from sitemap_lint import run as run_module
    from sitemap_lint.run import RunSettings, execute

    entries = "".join(
        f"<url><loc>https://example.com/{n}</loc><lastmod>2024-01-01 10:00</lastmod></url>\n"
        for n in range(4000)
    )
    path = tmp_path / "sitemap.xml"
    path.write_text(
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{entries}</urlset>\n'
    )
    writing: list[int] = []
    write_report = run_module._write_report

    def measured(*args: object, **kwargs: object) -> None:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        write_report(*args, **kwargs)
        writing.append(tracemalloc.get_traced_memory()[1] - before)

    monkeypatch.setattr(run_module, "_write_report", measured)

    class Discard(io.StringIO):
        def write(self, text: str) -> int:
            return len(text)

    for output in (None, str(tmp_path / "report.json")):
        settings = RunSettings(
            paths=[str(path)], format="json", now="2025-01-01", isolated=True, output_file=output
        )
        tracemalloc.start()
        try:
            execute(settings, out=Discard(), err=io.StringIO())
        finally:
            tracemalloc.stop()
    size = (tmp_path / "report.json").stat().st_size
    assert size > 1_000_000
    assert writing[1] - writing[0] < size / 2
