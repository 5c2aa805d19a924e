"""Inputs and outputs of a run: an input named twice is checked once, a report or a baseline
never replaces an input, and `--diff` honours `--exit-zero`."""

from __future__ import annotations

import io
import json
import stat
import sys
from pathlib import Path

import pytest

from tests.helpers import run_cli

SITEMAP = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "  <url><loc>https://example.com/a?x=1&y=2</loc></url>\n"
    "</urlset>\n"
)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / "sitemap.xml").write_text(SITEMAP, encoding="utf-8")
    return tmp_path


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    status, out, _err = run_cli(["check", "--isolated", "--format", "json", *args], capsys)
    return status, json.loads(out)


@pytest.mark.parametrize(
    "inputs",
    [
        ("public/sitemap.xml", "./public/sitemap.xml"),
        ("public/sitemap.xml", "public/sitemap.xml"),
        ("public", "public/sitemap.xml"),
        ("public/sitemap.xml", "public/../public/sitemap.xml", "public"),
    ],
)
def test_a_file_named_twice_is_checked_once(
    site: Path, capsys: pytest.CaptureFixture[str], inputs: tuple[str, ...]
) -> None:
    _status, report = _report(capsys, *inputs)
    assert [file["path"] for file in report["files"]] == ["public/sitemap.xml"]
    codes = [finding["code"] for file in report["files"] for finding in file["findings"]]
    assert "SE001" not in codes  # a URL listed once is in no other sitemap
    assert codes == ["XM004"]


def test_standard_input_named_twice_is_read_once(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SITEMAP.encode())))
    _status, report = _report(capsys, "-", "-")
    assert len(report["files"]) == 1
    codes = [finding["code"] for finding in report["files"][0]["findings"]]
    assert codes == ["XM004"]


@pytest.mark.parametrize(("flag", "says"), [("--fix-only", "Fixed"), ("--diff", "Would fix")])
def test_fix_fixes_a_file_named_twice_once(
    site: Path, capsys: pytest.CaptureFixture[str], flag: str, says: str
) -> None:
    status, _out, err = run_cli(
        ["check", "--isolated", flag, "public/sitemap.xml", "./public/sitemap.xml"], capsys
    )
    assert status in (0, 1), err
    assert f"{says} 1 finding in 1 file." in err


@pytest.mark.parametrize(
    ("flag", "target"),
    [
        ("--output-file", "public/sitemap.xml"),
        ("--output-file", "./public/../public/sitemap.xml"),
        ("--write-baseline", "public/sitemap.xml"),
    ],
)
@pytest.mark.parametrize("given", ["public/sitemap.xml", "public"])
def test_a_report_or_baseline_never_replaces_an_input(
    site: Path, capsys: pytest.CaptureFixture[str], flag: str, target: str, given: str
) -> None:
    status, out, err = run_cli(["check", "--isolated", flag, target, given], capsys)
    assert status == 2
    assert err.count("\n") == 1
    assert f"sitemap-lint: error: {flag} {target}: it is the input" in err
    assert (site / "public" / "sitemap.xml").read_text(encoding="utf-8") == SITEMAP
    assert out == ""


def test_a_symlink_to_an_input_is_the_input(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (site / "report.json").symlink_to(site / "public" / "sitemap.xml")
    status, _out, err = run_cli(
        ["check", "--isolated", "-f", "json", "-o", "report.json", "public/sitemap.xml"], capsys
    )
    assert status == 2, err
    assert (site / "public" / "sitemap.xml").read_text(encoding="utf-8") == SITEMAP


def test_the_report_file_is_replaced_whole_or_left_as_it_was(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = site / "report.json"
    status, _out, err = run_cli(
        ["check", "--isolated", "-f", "json", "-o", "report.json", "public/sitemap.xml"], capsys
    )
    assert status == 1, err
    assert json.loads(report.read_text(encoding="utf-8"))["files"][0]["findings"]
    report.write_text("old report", encoding="utf-8")
    report.chmod(stat.S_IRUSR)
    status, _out, err = run_cli(
        ["check", "--isolated", "-f", "json", "-o", "report.json", "public/sitemap.xml"], capsys
    )
    assert status == 2
    assert "cannot write" in err
    assert report.read_text(encoding="utf-8") == "old report"


@pytest.mark.parametrize(("flags", "expected"), [([], 1), (["--exit-zero"], 0)])
def test_diff_takes_exit_zero(
    site: Path, capsys: pytest.CaptureFixture[str], flags: list[str], expected: int
) -> None:
    status, out, _err = run_cli(["check", "--isolated", "--diff", *flags, "public"], capsys)
    assert status == expected
    assert "&amp;" in out
