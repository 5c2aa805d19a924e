"""Every fixture gives exactly the findings written in the .expected file beside it (see
tests/expected.py for the format; rewrite them with ``python -m tests.expected --update``),
and every rule has a fixture that shows it and one that passes."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_lint.rules import RULES
from tests.expected import (
    Expected,
    actual,
    expected_path,
    inputs,
    main,
    name,
    stale,
    update,
)
from tests.helpers import ROOT, RULE_FIXTURES, heavy
from tests.site_server import loopback_only  # noqa: F401

INPUTS = inputs()


def _header(path: Path) -> dict[str, str]:
    return Expected.read(expected_path(path)).header


def _param(path: Path) -> object:
    # The heavy fixtures and those replayed by a local server are marked slow, so that
    # `-m "not slow"` leaves them out.
    slow = heavy(path) or (
        expected_path(path).exists() and _header(path).get("driver") in ("fetch", "live")
    )
    return pytest.param(path, id=name(path), marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("path", [_param(path) for path in INPUTS])
def test_fixture_gives_the_expected_findings(path: Path, request: pytest.FixtureRequest) -> None:
    target = expected_path(path)
    assert target.exists(), (
        f"no {target.name} beside {name(path)}: python -m tests.expected --update"
    )
    expected = Expected.read(target)
    if expected.header.get("driver") in ("fetch", "live"):
        request.getfixturevalue("loopback_only")
    got = actual(path, expected.header)
    assert got == expected.lines, (
        f"{name(path)} differs from {target.name}; after an intended change run "
        f"python -m tests.expected --update {path.relative_to(ROOT)}\n"
        + "\n".join(["got:", *got, "expected:", *expected.lines])
    )


def test_no_stale_expected_file() -> None:
    assert stale() == []


def _shown(path: Path) -> set[str]:
    """The codes an .expected file lists."""
    return {line.split(": ", 1)[1].split(" ", 1)[0] for line in Expected.read(path).lines}


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_has_a_failing_fixture_showing_it_and_a_passing_one(code: str) -> None:
    directory = RULE_FIXTURES / code
    failing = [p for p in INPUTS if p.parent == directory and p.name.startswith("fail")]
    passing = [p for p in INPUTS if p.parent == directory and p.name.startswith("pass")]
    assert any(code in _shown(expected_path(p)) for p in failing), (
        f"{code}: no fixtures/rules/{code}/fail* whose .expected shows {code}"
    )
    assert any(Expected.read(expected_path(p)).lines == [] for p in passing), (
        f"{code}: no fixtures/rules/{code}/pass* whose .expected is free of findings"
    )


def test_expected_file_round_trips(tmp_path: Path) -> None:
    text = "# sitemap-url: https://example.com/a/sitemap.xml\n## a note\n3:5: UR003 [error] a\\nb\n"
    (tmp_path / "fail.expected").write_text(text, encoding="utf-8")
    expected = Expected.read(tmp_path / "fail.expected")
    assert expected.header == {"sitemap-url": "https://example.com/a/sitemap.xml"}
    assert expected.lines == ["3:5: UR003 [error] a\\nb"]
    assert expected.notes == ["a note"]
    assert expected.text() == text


def test_unknown_header_line_is_refused(tmp_path: Path) -> None:
    (tmp_path / "fail.expected").write_text("# sitemap-ulr: x\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown header line"):
        Expected.read(tmp_path / "fail.expected")


def test_shared_stem_keeps_the_whole_name(tmp_path: Path) -> None:
    for file in ("pass.txt", "pass.xml", "fail.xml.gz"):
        (tmp_path / file).write_bytes(b"")
    assert expected_path(tmp_path / "pass.txt").name == "pass.txt.expected"
    assert expected_path(tmp_path / "fail.xml.gz").name == "fail.expected"


def test_update_writes_what_the_checker_gives_and_keeps_the_header(tmp_path: Path) -> None:
    source = RULE_FIXTURES / "SC001" / "fail.xml"
    copy = tmp_path / "fail.xml"
    shutil.copy(source, copy)
    (tmp_path / "fail.expected").write_text(
        "# sitemap-url: https://example.com/catalog/sitemap.xml\n1:1: XX000 [error] stale\n",
        encoding="utf-8",
    )
    assert update([copy], out=io.StringIO()) == 1
    written = Expected.read(tmp_path / "fail.expected")
    assert written.header == {"sitemap-url": "https://example.com/catalog/sitemap.xml"}
    assert written.lines == Expected.read(expected_path(source)).lines
    assert written.lines and "XX000" not in "".join(written.lines)
    assert update([copy], out=io.StringIO()) == 0


def test_update_refuses_to_run_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    assert main(["--update", str(RULE_FIXTURES / "SC001" / "fail.xml")]) == 2


@pytest.mark.slow
def test_update_command_refuses_in_ci_without_writing() -> None:
    before = {p: p.stat().st_mtime_ns for p in RULE_FIXTURES.glob("*/*.expected")}
    done = subprocess.run(
        [sys.executable, "-m", "tests.expected", "--update"],
        cwd=ROOT,
        env={"CI": "true", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "refusing" in done.stderr
    assert {p: p.stat().st_mtime_ns for p in RULE_FIXTURES.glob("*/*.expected")} == before
