"""Command-line options of a CI-grade run: exit levels, output file, quiet, statistics, colour."""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_lint.cli import main
from sitemap_lint.report import REPORTERS
from sitemap_lint.run import resolve_color
from sitemap_lint.settings.declared import BY_NAME
from tests.helpers import FIXTURES, ROOT, RULE_FIXTURES, run_cli

VALID = FIXTURES / "valid" / "sitemap.xml"
ERROR = RULE_FIXTURES / "XM001" / "fail.xml"  # one error
WARNING = RULE_FIXTURES / "UR008" / "fail.xml"  # one warning
INFO = RULE_FIXTURES / "EN004" / "fail.xml"  # one info
NOW = ["--now", "2025-06-01", "--isolated"]


def run(args: list[str], capsys) -> tuple[int, str, str]:
    return run_cli([*NOW, *args], capsys)


# -- exit status ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "fail_on", "status"),
    [
        (VALID, "info", 0),
        (ERROR, None, 1),
        (WARNING, None, 0),
        (INFO, None, 0),
        (ERROR, "warning", 1),
        (WARNING, "warning", 1),
        (INFO, "warning", 0),
        (WARNING, "info", 1),
        (INFO, "info", 1),
        (INFO, "error", 0),
    ],
)
def test_fail_on(path: Path, fail_on: str | None, status: int, capsys) -> None:
    flags = [] if fail_on is None else ["--fail-on", fail_on]
    assert run([*flags, "-f", "json", str(path)], capsys)[0] == status


@pytest.mark.parametrize("path", [ERROR, WARNING, VALID])
def test_exit_zero(path: Path, capsys) -> None:
    status, out, _ = run(["--exit-zero", "--fail-on", "info", str(path)], capsys)
    assert status == 0 and out


def test_exit_zero_still_reports_trouble(capsys) -> None:
    status, _, err = run(["--exit-zero", "missing.xml"], capsys)
    assert status == 2 and "no such file" in err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--fail-on", "fatal"], "--fail-on 'fatal': choose one of error, warning, info"),
        (["--color", "sometimes"], "--color 'sometimes': choose one of auto, always, never"),
        (["--profile", "baidu"], "--profile: unknown profile 'baidu'"),
        (["--select", "UR999"], "--select: 'UR999' is not a rule code"),
        (["--ignore", "UR008,XX"], "--ignore: 'XX' is not a rule code"),
        (["--extend-select", "Q"], "--extend-select: 'Q' is not a rule code"),
        (["--live", "--live-sample", "0"], "--live-sample 0: give a number of URLs, 1 or more"),
        (["--live", "--live-sample", "0%"], "--live-sample 0%: give a number of URLs, 1 or more"),
    ],
)
def test_bad_option_values_exit_two(args: list[str], needle: str, capsys) -> None:
    status, out, err = run([*args, str(VALID)], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and needle in err


# -- ranges: a number out of range is exit 2 with one line that gives the range, in a
# run of one file as in a set run (a single file once took them silently).

RANGE_CASES = [
    (["--timeout", "9999"], "--timeout 9999: give more than 0 and at most 600 seconds"),
    (["--timeout", "0"], "--timeout 0: give more than 0 and at most 600 seconds"),
    (["--timeout", "nan"], "--timeout nan: give more than 0 and at most 600 seconds"),
    (["--jobs", "-3"], "--jobs -3: give 0 (one per core) or more"),
    (["-j", "-1"], "--jobs -1: give 0 (one per core) or more"),
    (["--max-files", "0"], "--max-files 0: give 1 or more"),
    (["--max-depth", "-1"], "--max-depth -1: give 0 (no following) or more"),
    (["--max-bytes", "0"], "--max-bytes 0: give 1 or more bytes"),
]


@pytest.mark.parametrize(("args", "message"), RANGE_CASES, ids=lambda v: " ".join(v))
@pytest.mark.parametrize("paths", [[VALID], [VALID, WARNING]], ids=["one file", "a set"])
def test_out_of_range_numbers_exit_two_with_the_range(
    args: list[str], message: str, paths: list[Path], capsys
) -> None:
    status, out, err = run([*args, *map(str, paths)], capsys)
    assert (status, out, err) == (2, "", f"sitemap-lint: error: {message}\n")


# -- the --live options: a wrong value is exit 2 whether or not --live is given (a run
# without it once took --live-sample 200% and --live-connect-to a:b silently).

LIVE_CASES = [
    (
        ["--live-sample", "200%"],
        "--live-sample 200%: give a number of URLs, 1 or more (e.g. 500), or a percentage, more than 0 and at most 100 (e.g. 10%)",
    ),
    (
        ["--live-sample", "lots"],
        "--live-sample lots: give a number of URLs, 1 or more (e.g. 500), or a percentage, more than 0 and at most 100 (e.g. 10%)",
    ),
    (
        ["--live-connect-to", "a:b"],
        "--live-connect-to a:b: give HOST:PORT:HOST2:PORT2, e.g. example.com:443:127.0.0.1:8443",
    ),
    *(
        (
            ["--live-connect-to", value],
            f"--live-connect-to {value}: give HOST:PORT:HOST2:PORT2, e.g. example.com:443:127.0.0.1:8443",
        )
        # a port of other digits was an internal error (²) or read as a number (٣), and
        # one past 65535 or 0 taken
        for value in ("a:\u00b2:b:80", "a:80:b:\u0663", "a:80:b:65536", "a:0:b:80")
    ),
    (["--live-max", "-1"], "--live-max -1: give 0 or more"),
    *(
        (["--live-crawl-budget", value], f"--live-crawl-budget {value}: give more than 0 seconds")
        for value in ("0", "-5", "nan")
    ),
]


@pytest.mark.parametrize(
    ("args", "message"), [pytest.param(*case, id=" ".join(case[0])) for case in LIVE_CASES]
)
@pytest.mark.parametrize("live", [[], ["--live"]], ids=["without --live", "with --live"])
@pytest.mark.parametrize("paths", [[VALID], [VALID, WARNING]], ids=["one file", "a set"])
def test_a_wrong_live_value_exits_two_with_or_without_live(
    args: list[str], message: str, live: list[str], paths: list[Path], capsys
) -> None:
    status, out, err = run([*live, *args, *map(str, paths)], capsys)
    assert (status, out, err) == (2, "", f"sitemap-lint: error: {message}\n")


def test_right_live_values_without_live_request_nothing(capsys) -> None:
    args = ["--live-sample", "10%", "--live-connect-to", "example.com:443:127.0.0.1:1"]
    assert run([*args, str(VALID)], capsys) == (
        0,
        "1 file checked (4 URLs): no problems found\n",
        "",
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--jobs", "0"],  # 0 is one worker per core, the default
        ["--timeout", "600"],
        ["--timeout", "0.5"],
        ["--max-depth", "0"],
        ["--max-files", "1"],
        ["--max-bytes", "1"],
    ],
    ids=" ".join,
)
def test_the_ends_of_each_range_are_allowed(args: list[str], capsys) -> None:
    assert run([*args, str(VALID)], capsys) == (
        0,
        "1 file checked (4 URLs): no problems found\n",
        "",
    )


def test_the_options_table_gives_each_range() -> None:
    from sitemap_lint.settings.declared import RANGED, options_markdown

    lines = options_markdown().splitlines()[2:]
    rows = {row.split("`")[1]: row for row in lines if row.startswith("| `")}
    assert set(RANGED) == {
        *("max_depth", "max_files", "max_bytes", "jobs", "timeout"),
        *("live_concurrency", "live_per_host", "live_timeout", "live_max", "live_seed"),
        "live_crawl_budget",
    }
    for name in RANGED:
        setting = BY_NAME[name]
        assert setting.range is not None
        assert f"; allowed: {setting.range.text} |" in rows[setting.flag], name


# -- an empty list of codes: --select "" (an unset CI variable) would report nothing


@pytest.mark.parametrize("codes", ["", " , ", ","])
def test_an_empty_select_exits_two(codes: str, capsys) -> None:
    status, out, err = run(["--select", codes, str(WARNING)], capsys)
    assert (status, out) == (2, "")
    assert err == (
        "sitemap-lint: error: --select: names no rule code, so nothing would be reported;"
        " give codes or prefixes, e.g. UR,DT004\n"
    )


@pytest.mark.parametrize("flag", ["--ignore", "--extend-select"])
@pytest.mark.parametrize("codes", ["", " , "])
def test_an_empty_ignore_or_extend_select_changes_nothing(flag: str, codes: str, capsys) -> None:
    plain = run(["-f", "concise", str(WARNING)], capsys)
    assert run(["-f", "concise", flag, codes, str(WARNING)], capsys) == plain
    assert "UR008" in plain[1]


def test_select_and_ignore_flags(capsys) -> None:
    path = RULE_FIXTURES / "SU002" / "fail-separator.xml"
    both = RULE_FIXTURES / "UR008" / "fail.xml"
    status, out, _ = run(["-f", "json", "--ignore", "SU", str(path)], capsys)
    assert status == 0 and json.loads(out)["files"][0]["findings"] == []
    status, out, _ = run(["-f", "json", "--select", "DT,SU002", str(path), str(both)], capsys)
    codes = [f["code"] for file in json.loads(out)["files"] for f in file["findings"]]
    assert status == 1 and codes == ["SU002"]


@pytest.mark.parametrize(
    ("args", "codes"),
    [
        (["--select", "UR001", "--select", "DT"], ["DT004", "UR001", "UR001"]),
        (["--select", "UR", "--ignore", "UR007", "--ignore", "UR008"], ["UR001", "UR001"]),
        (
            ["--select", "VA", "--extend-select", "UR001", "--extend-select", "DT"],
            ["DT004", "UR001", "UR001", "VA003"],
        ),
        (["--select", "", "--select", "UR001"], ["UR001", "UR001"]),
    ],
)
def test_code_flags_add_up_when_repeated(args: list[str], codes: list[str], capsys) -> None:
    """As ruff's: a repeated --select, --extend-select or --ignore adds its codes to
    the earlier ones' instead of replacing them."""
    status, out, _ = run(["-f", "json", *args, str(FIXTURES / "report" / "mixed.xml")], capsys)
    assert status == 1
    assert sorted(f["code"] for f in json.loads(out)["files"][0]["findings"]) == codes


def test_repeated_empty_selects_still_exit_two(capsys) -> None:
    status, _, err = run(["--select", "", "--select", " ", str(WARNING)], capsys)
    assert status == 2 and "--select: names no rule code" in err


# -- formats --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(REPORTERS))
def test_every_reporter_is_a_format(name: str, capsys) -> None:
    status, out, err = run(["--format", name, str(ERROR)], capsys)
    assert status == 1 and out and err == ""
    assert f"|{name}|" in f"|{BY_NAME['format'].metavar_text()[1:-1]}|"


# -- output file ----------------------------------------------------------------------------


def test_output_file_gets_the_report_and_stderr_the_summary(tmp_path: Path, capsys) -> None:
    report = tmp_path / "report.json"
    status, out, err = run(["-f", "json", "-o", str(report), str(ERROR), str(VALID)], capsys)
    assert status == 1 and out == ""
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["errors"] == 1
    assert err == f"2 files checked (4 URLs): 1 error; report written to {report}\n"


def test_text_report_to_a_file_keeps_findings_and_moves_the_summary(tmp_path: Path, capsys) -> None:
    report = tmp_path / "report.txt"
    status, out, err = run(["--output-file", str(report), str(ERROR)], capsys)
    text = report.read_text(encoding="utf-8")
    assert status == 1 and out == ""
    assert "XM001" in text and "checked" not in text and "\x1b[" not in text
    assert err.startswith("1 file checked (0 URLs): 1 error;")


def test_output_file_dash_is_standard_output(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(["-f", "json", "-o", "-", str(ERROR)], capsys)
    assert status == 1 and json.loads(out)["summary"]["errors"] == 1
    assert not (tmp_path / "-").exists() and "report written" not in err


def test_output_file_clean_run(tmp_path: Path, capsys) -> None:
    report = tmp_path / "report.txt"
    status, out, err = run(["-o", str(report), str(VALID)], capsys)
    assert status == 0 and out == "" and "no problems found" in err


def test_quiet_output_file_writes_nothing_on_stderr(tmp_path: Path, capsys) -> None:
    report = tmp_path / "report.json"
    status, out, err = run(["-q", "-f", "json", "-o", str(report), str(ERROR)], capsys)
    assert (status, out, err) == (1, "", "")
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["errors"] == 1


def test_unwritable_output_file_exits_two(tmp_path: Path, capsys) -> None:
    status, _, err = run(["-o", str(tmp_path / "no" / "such" / "dir.txt"), str(VALID)], capsys)
    assert status == 2 and "--output-file" in err and "cannot write" in err


def _read_all(descriptor: int) -> bytes:
    """What a non-blocking descriptor holds now."""
    data = b""
    while True:
        try:
            chunk = os.read(descriptor, 65536)
        except (BlockingIOError, OSError):
            return data
        if not chunk:
            return data
        data += chunk


def test_output_file_writes_into_a_fifo_and_leaves_it_a_fifo(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "report"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader waits: no block
    try:
        status, out, err = run(["-f", "concise", "-o", str(fifo), str(ERROR)], capsys)
        received = _read_all(reader)
    finally:
        os.close(reader)
    assert status == 1 and out == "" and err.endswith(f"report written to {fifo}\n")
    assert b"XM001" in received
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_output_file_writes_to_a_terminal_in_place(capsys) -> None:
    master, slave = os.openpty()
    try:
        terminal = os.ttyname(slave)
        os.set_blocking(master, False)
        status, _, err = run(["-f", "concise", "-o", terminal, str(ERROR)], capsys)
        shown = _read_all(master)
        assert stat.S_ISCHR(os.stat(terminal).st_mode)
    finally:
        os.close(slave)
        os.close(master)
    assert status == 1 and b"XM001" in shown and "cannot write" not in err


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
def test_output_file_dev_fd_writes_through_the_descriptor(capsys) -> None:
    reading, writing = os.pipe()  # as a shell's >(command) gives it
    os.set_blocking(reading, False)
    try:
        status, _, err = run(["-f", "concise", "-o", f"/dev/fd/{writing}", str(ERROR)], capsys)
        received = _read_all(reading)
    finally:
        os.close(reading)
        os.close(writing)
    assert status == 1 and b"XM001" in received and "cannot write" not in err


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
def test_output_file_dev_fd_appends_where_the_shell_appends(tmp_path: Path, capsys) -> None:
    log = tmp_path / "log.txt"
    log.write_text("earlier\n", encoding="utf-8")
    descriptor = os.open(log, os.O_WRONLY | os.O_APPEND)  # as ">> log.txt" opens it
    try:
        status, _, _ = run(["-f", "concise", "-o", f"/dev/fd/{descriptor}", str(ERROR)], capsys)
    finally:
        os.close(descriptor)
    text = log.read_text(encoding="utf-8")
    assert status == 1 and text.startswith("earlier\n") and "XM001" in text


def test_output_file_refuses_a_socket_in_one_line(tmp_path: Path, capsys) -> None:
    where = tmp_path / "socket"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(str(where))
        status, out, err = run(["-o", str(where), str(ERROR)], capsys)
        assert stat.S_ISSOCK(os.stat(where).st_mode)
    finally:
        listener.close()
    assert status == 2 and out == ""
    assert (
        err == f"sitemap-lint: error: --output-file {where}: cannot write: it is a socket; "
        "name a file, a FIFO or a terminal\n"
    )


def test_write_baseline_writes_into_a_fifo(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "baseline.json"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        status, _, _ = run(["--write-baseline", str(fifo), str(ERROR)], capsys)
        received = _read_all(reader)
    finally:
        os.close(reader)
    assert status == 0 and b'"XM001"' in received
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


# -- quiet and statistics -------------------------------------------------------------------


def test_quiet_clean_run_prints_nothing(capsys) -> None:
    assert run(["--quiet", str(VALID)], capsys) == (0, "", "")


def test_quiet_shows_findings_without_summary(capsys) -> None:
    status, out, err = run(["-q", str(ERROR), str(VALID)], capsys)
    assert status == 1 and err == ""
    assert "XM001" in out and "checked" not in out and str(VALID) not in out


def test_quiet_does_not_change_machine_formats(capsys) -> None:
    status, out, _ = run(["-q", "-f", "json", str(VALID)], capsys)
    assert status == 0 and json.loads(out)["summary"]["files"] == 1


def test_statistics_with_a_machine_format_go_to_stderr(capsys) -> None:
    status, out, err = run(["--statistics", "-f", "json", str(ERROR), str(WARNING)], capsys)
    assert status == 1
    json.loads(out)
    assert err.splitlines() == ["      1  UR008 url-fragment", "      1  XM001 xml-syntax-error"]


def test_statistics_on_stderr_are_most_frequent_first_as_in_the_text_report(
    tmp_path: Path, capsys
) -> None:
    sitemap = tmp_path / "s.xml"
    sitemap.write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.com/a#x</loc><lastmod>soon</lastmod></url>"
        "<url><loc>https://example.com/b#y</loc></url></urlset>",
        encoding="utf-8",
    )
    _status, _out, err = run(["--statistics", "-f", "json", str(sitemap)], capsys)
    _status, text, _err = run(["--statistics", str(sitemap)], capsys)
    table = text[text.index("Findings by rule") :].splitlines()[2:]
    codes = [row.split()[1] for row in table if row.startswith("  ")]
    assert [line.split()[1] for line in err.splitlines()] == codes
    assert codes[0] == "UR008"  # twice, then the others once each


def test_statistics_are_part_of_the_text_report(capsys) -> None:
    status, out, err = run(["--statistics", str(ERROR), str(WARNING)], capsys)
    assert status == 1 and err == ""
    table = out[out.index("Findings by rule") :].splitlines()
    assert table[1].split() == ["count", "code", "name", "severity"]
    assert [row.split() for row in table[2:4]] == [
        ["1", "UR008", "url-fragment", "warning"],
        ["1", "XM001", "xml-syntax-error", "error"],
    ]
    assert table[-1] == "2 files checked (4 URLs): 1 error, 1 warning"


def test_text_report_has_no_statistics_without_the_flag(capsys) -> None:
    status, out, err = run([str(ERROR), str(WARNING)], capsys)
    assert status == 1 and err == ""
    assert "Findings by rule" not in out and "xml-syntax-error" in out
    assert out.splitlines()[-1] == "2 files checked (4 URLs): 1 error, 1 warning"


def test_statistics_with_quiet(capsys) -> None:
    status, out, err = run(["-q", "--statistics", str(ERROR)], capsys)
    assert status == 1 and "checked" not in out and err == "      1  XM001 xml-syntax-error\n"


def test_without_statistics_machine_formats_write_nothing_on_stderr(capsys) -> None:
    assert run(["-f", "concise", str(ERROR)], capsys)[2] == ""


# -- colour ---------------------------------------------------------------------------------


class Tty:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("mode", "env", "tty", "expected"),
    [
        ("auto", {}, False, False),
        ("auto", {}, True, None),  # a terminal: the terminal library decides (TERM=dumb...)
        ("auto", {"FORCE_COLOR": "1"}, False, True),
        ("auto", {"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
        ("always", {}, False, True),
        ("always", {"NO_COLOR": "1"}, False, False),  # NO_COLOR beats the flag
        ("always", {"NO_COLOR": ""}, False, True),  # an empty NO_COLOR does not count
        ("never", {"FORCE_COLOR": "1"}, True, False),  # the flag beats FORCE_COLOR
    ],
)
def test_resolve_color(mode: str, env: dict, tty: bool, expected) -> None:
    assert resolve_color(mode, Tty(tty), env) is expected


@pytest.mark.slow
@pytest.mark.parametrize(
    ("flag", "env", "colored"),
    [
        ("always", {}, True),
        ("never", {"FORCE_COLOR": "1"}, False),
        ("always", {"NO_COLOR": "1"}, False),
        ("auto", {"FORCE_COLOR": "1"}, True),
    ],
)
def test_color_flag_end_to_end(flag: str, env: dict, colored: bool) -> None:
    run_ = subprocess.run(
        [sys.executable, "-m", "sitemap_lint", "--isolated", "--color", flag, str(ERROR)],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "TERM": "xterm", **env},
    )
    assert run_.returncode == 1 and "XM001" in run_.stdout
    assert ("\x1b[" in run_.stdout) is colored


# -- the settings: one declaration drives the options, the help and the README ------------

# Every flag and alias of `check` before the settings were declared in one place: each
# must keep working.
FLAGS = {
    "format": ("--format", "-f"),
    "output_file": ("--output-file", "-o"),
    "sitemap_url": ("--sitemap-url",),
    "now": ("--now",),
    "xsd_engine": ("--xsd-engine",),
    "config": ("--config",),
    "isolated": ("--isolated",),
    "select": ("--select",),
    "extend_select": ("--extend-select",),
    "ignore": ("--ignore",),
    "profile": ("--profile",),
    "fail_on": ("--fail-on",),
    "exit_zero": ("--exit-zero",),
    "statistics": ("--statistics",),
    "quiet": ("--quiet", "-q"),
    "color": ("--color",),
    "follow": ("--follow",),
    "maps": ("--map",),
    "robots": ("--robots",),
    "max_depth": ("--max-depth",),
    "max_files": ("--max-files",),
    "max_bytes": ("--max-bytes",),
    "jobs": ("--jobs", "-j"),
    "timeout": ("--timeout",),
}


def _check_command():
    import typer

    from sitemap_lint.cli import app

    return typer.main.get_command(app).commands["check"]


def test_every_flag_of_check_comes_from_a_setting() -> None:
    from sitemap_lint.settings.declared import RUN_SETTINGS

    params = {param.name: param for param in _check_command().params if param.name != "help"}
    assert set(params) == {setting.name for setting in RUN_SETTINGS}
    assert {name: tuple(params[name].opts) for name in FLAGS} == FLAGS
    assert {name: BY_NAME[name].flags for name in FLAGS} == FLAGS
    assert params["paths"].required and params["paths"].nargs == -1


@pytest.fixture
def captured(monkeypatch) -> list:
    """The RunSettings that `check` hands to the run, instead of running."""
    from sitemap_lint import run

    seen: list = []

    def execute(settings, out=None, err=None) -> int:
        seen.append(settings)
        return 0

    monkeypatch.setattr(run, "execute", execute)
    return seen


def test_command_line_values_reach_the_run(captured: list) -> None:
    from sitemap_lint.settings.declared import RunSettings

    args = [
        "-f", "json", "-o", "out.json", "--sitemap-url", "https://example.com/s.xml",
        "--now", "2025-06-01", "--xsd-engine", "xmlschema", "--config", "c.toml",
        "--select", "UR", "--extend-select", "DT004", "--ignore", "UR008", "--profile", "bing",
        "--fail-on", "info", "--exit-zero", "--statistics", "-q", "--color", "never",
        "--follow", "--map", "https://example.com/=dist", "--map", "https://b.example/=b",
        "--robots", "robots.txt", "--max-depth", "1", "--max-files", "5",
        "--max-bytes", "500MiB", "-j", "2", "--timeout", "2.5", "a.xml", "b.xml",
    ]  # fmt: skip
    assert main(args) == 0
    assert captured == [
        RunSettings(
            paths=["a.xml", "b.xml"],
            format="json",
            output_file="out.json",
            sitemap_url="https://example.com/s.xml",
            now="2025-06-01",
            xsd_engine="xmlschema",
            config="c.toml",
            isolated=False,
            select="UR",
            extend_select="DT004",
            ignore="UR008",
            profile="bing",
            fail_on="info",
            exit_zero=True,
            statistics=True,
            quiet=True,
            color="never",
            follow=True,
            maps=("https://example.com/=dist", "https://b.example/=b"),
            robots=("robots.txt",),
            max_depth=1,
            max_files=5,
            max_bytes=500 * 1024**2,
            jobs=2,
            timeout=2.5,
        )
    ]


def test_defaults_reach_the_run(captured: list) -> None:
    from sitemap_lint.settings.declared import RunSettings

    assert main(["a.xml"]) == 0
    assert captured == [RunSettings(paths=["a.xml"])]
    (settings,) = captured
    assert (settings.color, settings.maps, settings.max_depth, settings.max_files) == (
        "auto",
        (),
        3,
        10_000,
    )
    assert (settings.max_bytes, settings.jobs, settings.timeout) == (20 * 1024**3, 0, 10.0)
    assert settings.format is None and settings.isolated is False


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("1048576", 1048576),
        ("500MiB", 500 * 1024**2),
        ("20GiB", 20 * 1024**3),
        ("20gib", 20 * 1024**3),
        ("1.5 GiB", 3 * 1024**3 // 2),
        ("2KiB", 2048),
        ("3kB", 3000),
        ("7B", 7),
        ("-5", -5),  # the range check names it: --max-bytes -5: give a positive number
    ],
)
def test_sizes(text: str, size: int, captured: list) -> None:
    assert main(["--max-bytes", text, "a.xml"]) == 0
    assert captured[0].max_bytes == size


@pytest.mark.parametrize("text", ["12x", "GiB", "1e9", "", "5 G iB"])
def test_bad_sizes_exit_two(text: str, capsys) -> None:
    status, out, err = run(["--max-bytes", text, str(VALID), str(VALID)], capsys)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "--max-bytes" in err and "500MiB or 20GiB" in err


def test_format_size() -> None:
    from sitemap_lint.settings.parsing import format_size

    assert [format_size(n) for n in (20 * 1024**3, 500 * 1024**2, 1024, 1000, 0)] == [
        "20GiB",
        "500MiB",
        "1KiB",
        "1000",
        "0",
    ]


def _help(args: list[str], capsys, monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", "250")
    assert main(args) == 0
    return capsys.readouterr().out


def test_check_help_shows_real_metavars(capsys, monkeypatch) -> None:
    text = _help(["check", "--help"], capsys, monkeypatch)
    assert "Usage: sitemap-lint check [OPTIONS] PATH..." in text
    assert "<str>" not in text and "<int>" not in text and "{paths}" not in text
    assert f"[{'|'.join(REPORTERS)}]" in text
    assert "[text|concise|json|sarif|github|junit|gitlab|html]" in text
    assert "[libxml2|xmlschema]" in text and "[error|warning|info]" in text
    assert "[google|bing|yandex|strict]" in text and "[auto|always|never]" in text
    assert "[default: 20GiB]" in text and "URL_PREFIX=DIR" in text
    for flags in FLAGS.values():
        for flag in flags:
            assert re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text), flag


def test_main_help_lists_every_command(capsys, monkeypatch) -> None:
    from sitemap_lint.cli import COMMANDS

    text = _help(["--help"], capsys, monkeypatch)
    for command in COMMANDS:
        assert re.search(rf"^  {command} ", text, re.MULTILINE), command


def _help_at(columns: int, args: list[str], capsys, monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "command", ["", "check", "rules", "rule", "schemas", "split", "diff"], ids=repr
)
def test_help_at_80_columns_cuts_nothing(command: str, capsys, monkeypatch) -> None:
    text = _help_at(80, [*command.split(), "--help"], capsys, monkeypatch)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "…" not in text and "..." not in text.replace("PATH...", "").replace("ARGS]...", "")
    assert "<str>" not in text and "<int>" not in text and "{" not in text


def test_check_help_at_80_columns_gives_each_description_room(capsys, monkeypatch) -> None:
    """Each option's help is there whole, and starts where 30 columns or more are left."""
    from sitemap_lint.settings.declared import RUN_SETTINGS

    text = _help_at(80, ["check", "--help"], capsys, monkeypatch)
    flowing = " ".join(text.split())
    for setting in RUN_SETTINGS:
        assert " ".join(setting.help.split()) in flowing, setting.name
        first_words = " ".join(setting.help.split()[:3])
        line = next(line for line in text.splitlines() if first_words in line)
        assert 80 - line.index(first_words) >= 30, line


def test_rules_help_shows_the_profiles(capsys, monkeypatch) -> None:
    text = _help_at(80, ["rules", "--help"], capsys, monkeypatch)
    assert "--profile [google|bing|yandex|strict]" in text


def test_readme_usage_lists_every_command() -> None:
    from sitemap_lint.cli import COMMANDS, app

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    usage = readme.split("## Usage", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    registered = {command.name for command in app.registered_commands}
    assert registered == set(COMMANDS)
    for command in COMMANDS:
        assert re.search(rf"^sitemap-lint \[?{command}\b", usage, re.MULTILINE), command


def test_readme_options_table_is_current() -> None:
    """Regenerate with `python -m sitemap_lint.settings.declared README.md`."""
    from sitemap_lint.settings import declared as settings

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert settings.START in readme and settings.END in readme
    assert settings.replace_options_table(readme) == readme


def test_options_table_names_every_flag_and_key() -> None:
    from sitemap_lint.settings import declared as settings

    table = settings.options_markdown()
    rows = table.splitlines()[2:]
    assert len(rows) == len(settings.SETTINGS) - 1  # all but PATH
    for setting in settings.SETTINGS[1:]:
        for flag in setting.flags:
            assert f"`{flag}`" in table
        if setting.key:
            assert f"| `{setting.key}` |" in table


def test_options_table_regeneration(tmp_path: Path) -> None:
    from sitemap_lint.settings import declared as settings

    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n{settings.START}\nold\n{settings.END}\n\nafter\n", encoding="utf-8")
    assert settings.main([str(readme)]) == 0
    text = readme.read_text(encoding="utf-8")
    assert "old" not in text and text.endswith(f"{settings.END}\n\nafter\n")
    assert "| `--max-bytes` `SIZE` |" in text
    plain = tmp_path / "plain.md"
    plain.write_text("no markers\n", encoding="utf-8")
    assert settings.main([str(plain)]) == 2


# -- keyword arguments (the Python API) --------------------------------------------------


def test_keywords_give_the_settings_the_command_line_gives(captured: list) -> None:
    from sitemap_lint.settings.declared import from_keywords

    assert main(["-f", "json", "--map", "https://example.com/=.", "-j", "2", "a.xml"]) == 0
    assert captured[0] == from_keywords(
        paths="a.xml", format="json", maps=["https://example.com/=."], jobs=2
    )
    assert from_keywords(paths=[Path("a.xml")], max_bytes="20GiB").max_bytes == 20 * 1024**3
    assert from_keywords(paths=["a"], select=["UR", "DT004"]).select == "UR,DT004"
    assert from_keywords(paths=["a"], timeout=3).timeout == 3.0


@pytest.mark.parametrize(
    ("keywords", "needle"),
    [
        ({"paths": "a", "fromat": "json"}, "unknown setting 'fromat'; did you mean 'format'?"),
        ({"paths": "a", "severity": {}}, "unknown setting 'severity'"),  # configuration only
        ({}, "paths: give at least one"),
        ({"paths": []}, "paths: give at least one"),
        ({"paths": 3}, "paths=: expected a string or a list of strings"),
        ({"paths": "a", "quiet": "yes"}, "quiet=: expected True or False"),
        ({"paths": "a", "jobs": "2"}, "jobs=: expected an integer"),
        ({"paths": "a", "timeout": True}, "timeout=: expected a number"),
        ({"paths": "a", "format": 1}, "format=: expected a string"),
        ({"paths": "a", "format": "yaml"}, "format=: unknown format 'yaml'"),
        ({"paths": "a", "fail_on": "fatal"}, "fail_on='fatal': choose one of error"),
        ({"paths": "a", "color": "x"}, "color='x': choose one of auto, always, never"),
        ({"paths": "a", "select": "UR999"}, "select=: 'UR999' is not a rule code"),
        ({"paths": "a", "select": " , "}, "select=: names no rule code"),
        ({"paths": "a", "now": "yesterday"}, "now='yesterday' is not a timestamp"),
        ({"paths": "a", "sitemap_url": "/s.xml"}, "sitemap_url='/s.xml' is not usable"),
        ({"paths": "a", "sitemap_url": " "}, "sitemap_url=' ' is not usable: give the URL"),
        ({"paths": "a", "maps": "nonsense"}, "maps='nonsense': write URL_PREFIX=DIR"),
        ({"paths": "a", "max_bytes": "lots"}, "max_bytes='lots': write a number of bytes"),
        ({"paths": "a", "max_bytes": 0}, "max_bytes=0: give 1 or more bytes"),
        ({"paths": "a", "max_depth": -1}, "max_depth=-1: give 0 (no following) or more"),
        ({"paths": "a", "jobs": -1}, "jobs=-1: give 0 (one per core) or more"),
        ({"paths": "a", "timeout": 601}, "timeout=601: give more than 0 and at most 600 seconds"),
    ],
)
def test_bad_keywords(keywords: dict, needle: str) -> None:
    """A wrong keyword's message names the keyword (``jobs=``), never the flag."""
    from sitemap_lint.errors import UsageError
    from sitemap_lint.settings.declared import from_keywords

    with pytest.raises(UsageError) as raised:
        from_keywords(**keywords)
    message = str(raised.value)
    assert message.startswith(needle) and "\n" not in message and "--" not in message


def test_run_settings_are_frozen_values() -> None:
    import pickle

    from sitemap_lint.settings.declared import RunSettings

    settings = RunSettings(paths=["a"], quiet=True)
    assert settings == RunSettings(paths=["a"], quiet=True) != RunSettings(paths=["a"])
    assert pickle.loads(pickle.dumps(settings)) == settings
    assert settings.replace(quiet=False) == RunSettings(paths=["a"])
    assert "quiet=True" in repr(settings)
    with pytest.raises(AttributeError):
        settings.quiet = False
    with pytest.raises(AttributeError):
        _ = settings.colour
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        RunSettings(paths=["a"], colour="never")
    with pytest.raises(TypeError, match="missing required keyword argument: 'paths'"):
        RunSettings()


def test_setting_names_do_not_hide_methods() -> None:
    from sitemap_lint.settings.declared import SETTINGS, Values

    names = {s.name for s in SETTINGS} | {n for s in SETTINGS for n, _ in s.stored}
    assert all(name.isidentifier() and not name.startswith("_") for name in names)
    assert not names & set(dir(Values))


@pytest.mark.parametrize(
    ("name", "value"),
    [
        (name, value)
        for name in ("robots", "baseline", "write_baseline", "output_file")
        for value in ("", ("a.txt", ""), ("a.txt",), "a.txt", None)
        # a repeatable setting's values are tuples, the others' texts
        if value is None or isinstance(value, tuple) == (BY_NAME[name].kind == "repeat")
    ],
)
def test_a_path_setting_refuses_what_the_run_calls_given_empty(name: str, value) -> None:
    """One predicate: the run checks a value given empty, and the path's check refuses
    exactly those."""
    from sitemap_lint.errors import UsageError
    from sitemap_lint.settings.declared import given_empty

    setting = BY_NAME[name]
    if given_empty(value):
        with pytest.raises(UsageError, match="an empty path names no file; give a file"):
            setting.parse(value)
    else:
        setting.parse(value)


def test_the_command_line_a_report_names_writes_one_flag_of_a_pair() -> None:
    from sitemap_lint.settings.declared import RunSettings, command_line

    assert command_line(RunSettings(paths=["a.xml"], show_source=False)) == (
        "sitemap-lint --no-show-source a.xml"
    )
    assert command_line(RunSettings(paths=["a.xml"], show_source=True)) == (
        "sitemap-lint --show-source a.xml"
    )


# -- a value that is no number: one line that names the option and says what to give,
# as a number out of range does (click's "'x' is not a valid int" said neither in words
# a user reads, and "Invalid value for '--max-bytes': ..." read unlike every other line).

NOT_A_NUMBER = [
    (["--jobs", "x"], "--jobs 'x': give a whole number, 0 (one per core) or more"),
    (["-j", "1.5"], "--jobs '1.5': give a whole number, 0 (one per core) or more"),
    (["--max-depth", "two"], "--max-depth 'two': give a whole number, 0 (no following) or more"),
    (["--max-files", ""], "--max-files '': give a whole number, 1 or more"),
    (["--timeout", "abc"], "--timeout 'abc': give a number, more than 0 and at most 600 seconds"),
    (["--live-max", "all"], "--live-max 'all': give a whole number, 0 or more"),
    (["--live-seed", "x"], "--live-seed 'x': give a whole number, 0 or more"),
    (
        ["--live-concurrency", "x"],
        "--live-concurrency 'x': give a whole number, from 1 and at most 1024",
    ),
    (["--live-crawl-budget", "x"], "--live-crawl-budget 'x': give a number, more than 0 seconds"),
    (
        ["--max-bytes", "5XB"],
        "--max-bytes '5XB': write a number of bytes or a size such as 500MiB or 20GiB",
    ),
]


@pytest.mark.parametrize(("args", "message"), NOT_A_NUMBER, ids=lambda v: " ".join(v))
def test_a_value_that_is_no_number_exits_two_saying_what_to_give(
    args: list[str], message: str, capsys
) -> None:
    status, out, err = run([*args, str(VALID)], capsys)
    assert (status, out, err) == (2, "", f"sitemap-lint: error: {message}\n")


def test_numbers_still_read_as_numbers(captured: list) -> None:
    args = ["-j", "2", "--timeout", "2.5", "--max-depth", "1", "--live-crawl-budget", "inf"]
    assert main([*args, "a.xml"]) == 0
    run = captured[0]
    assert (run.jobs, run.timeout, run.max_depth) == (2, 2.5, 1)
    assert run.live_crawl_budget == float("inf")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--show", "x"], "--show 'x': give a whole number, 0 or more"),
        (["--jobs", "x"], "--jobs 'x': give a whole number, 0 (one per core) or more"),
        (["--timeout", "x"], "--timeout 'x': give a number, more than 0 and at most 600 seconds"),
        (
            ["--max-depth", "1.5"],
            "--max-depth '1.5': give a whole number, 0 (no following) or more",
        ),
    ],
    ids=lambda v: " ".join(v),
)
def test_diff_numbers_that_are_none_exit_two_saying_what_to_give(
    args: list[str], message: str, capsys
) -> None:
    status, out, err = run_cli(["diff", str(VALID), str(VALID), *args], capsys)
    assert (status, out, err) == (2, "", f"sitemap-lint: error: {message}\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-urls", "x"], "--max-urls 'x': give a whole number, from 1 and at most 50000"),
        # named as written, not as the bytes it makes (1073741824)
        (
            ["--max-bytes", "1GiB"],
            "--max-bytes 1GiB: give from 1 to 52,428,800 bytes (50MiB), the protocol's limit",
        ),
        (
            ["--max-bytes", "5XB"],
            "--max-bytes '5XB': write a number of bytes or a size such as 500MiB or 20GiB",
        ),
    ],
    ids=lambda v: " ".join(v),
)
def test_split_limits_are_refused_as_written(
    args: list[str], message: str, tmp_path: Path, capsys
) -> None:
    base = [
        "split",
        str(VALID),
        "--base-url",
        "https://example.com/",
        "--out-dir",
        str(tmp_path / "out"),
    ]
    status, out, err = run_cli([*base, *args], capsys)
    assert (status, out, err) == (2, "", f"sitemap-lint: error: {message}\n")
    assert not (tmp_path / "out").exists()


def test_every_option_of_every_command_says_what_it_does(capsys, monkeypatch) -> None:
    """diff's --max-depth, --max-files and --timeout once had no help at all."""
    import typer

    from sitemap_lint.cli import app

    for name, command in typer.main.get_command(app).commands.items():
        for param in command.params:
            assert param.help, f"{name} {param.opts[0]} has no help"
