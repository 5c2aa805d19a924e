"""Command-line options of a CI-grade run: exit levels, output file, quiet, statistics, colour."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_lint.cli import FORMATS_HELP
from sitemap_lint.report import REPORTERS
from sitemap_lint.run import resolve_color
from tests.helpers import FIXTURES, RULE_FIXTURES, run_cli

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
        (["--profile", "baidu"], "unknown profile 'baidu'"),
        (["--select", "UR999"], "--select: 'UR999' is not a rule code"),
        (["--ignore", "UR008,XX"], "--ignore: 'XX' is not a rule code"),
        (["--extend-select", "Q"], "--extend-select: 'Q' is not a rule code"),
    ],
)
def test_bad_option_values_exit_two(args: list[str], needle: str, capsys) -> None:
    status, out, err = run([*args, str(VALID)], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and needle in err


def test_select_and_ignore_flags(capsys) -> None:
    path = RULE_FIXTURES / "SU002" / "fail-separator.xml"
    both = RULE_FIXTURES / "UR008" / "fail.xml"
    status, out, _ = run(["-f", "json", "--ignore", "SU", str(path)], capsys)
    assert status == 0 and json.loads(out)["files"][0]["findings"] == []
    status, out, _ = run(["-f", "json", "--select", "DT,SU002", str(path), str(both)], capsys)
    codes = [f["code"] for file in json.loads(out)["files"] for f in file["findings"]]
    assert status == 1 and codes == ["SU002"]


# -- formats --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(REPORTERS))
def test_every_reporter_is_a_format(name: str, capsys) -> None:
    status, out, err = run(["--format", name, str(ERROR)], capsys)
    assert status == 1 and out and err == ""
    assert name in FORMATS_HELP


# -- output file ----------------------------------------------------------------------------


def test_output_file_gets_the_report_and_stderr_the_summary(tmp_path: Path, capsys) -> None:
    report = tmp_path / "report.json"
    status, out, err = run(["-f", "json", "-o", str(report), str(ERROR), str(VALID)], capsys)
    assert status == 1 and out == ""
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["errors"] == 1
    assert err == f"2 files checked: 1 error(s), 0 warning(s), 0 info; report written to {report}\n"


def test_text_report_to_a_file_keeps_findings_and_moves_the_summary(tmp_path: Path, capsys) -> None:
    report = tmp_path / "report.txt"
    status, out, err = run(["--output-file", str(report), str(ERROR)], capsys)
    text = report.read_text(encoding="utf-8")
    assert status == 1 and out == ""
    assert "XM001" in text and "checked" not in text and "\x1b[" not in text
    assert err.startswith("1 file checked: 1 error(s)")


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


def test_statistics_are_part_of_the_text_report(capsys) -> None:
    status, out, err = run(["--statistics", str(ERROR), str(WARNING)], capsys)
    assert status == 1 and err == ""
    assert "XM001 xml-syntax-error" in out and "UR008 url-fragment" in out


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
