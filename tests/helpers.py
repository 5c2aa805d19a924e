"""Shared test helpers: run the checker on a fixture and compare findings."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint import xsd
from sitemap_lint.checker import check_source
from sitemap_lint.inputs.reader import Source
from sitemap_lint.options import Options
from sitemap_lint.results import FileResult
from sitemap_lint.run import parse_sitemap_url

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
RULE_FIXTURES = FIXTURES / "rules"
# Every fixture is checked at this moment, so time-dependent rules are reproducible.
NOW = datetime(2025, 6, 1, tzinfo=UTC)


@cache
def engine(name: str = "libxml2") -> xsd.Engine:
    return xsd.load(name)


def lint(path: Path, sitemap_url: str | None = None, engine_name: str = "libxml2") -> FileResult:
    options = Options(now=NOW, sitemap_url=parse_sitemap_url(sitemap_url))
    return check_source(Source(str(path), path), options, engine(engine_name))


def found(result: FileResult) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in result.findings]


def fixture(name: str) -> Path:
    """A rule fixture by its name, "CODE/file"."""
    return RULE_FIXTURES / name


def lint_fixture(name: str, engine_name: str = "libxml2") -> FileResult:
    """Check a rule fixture ("CODE/file") as the header of its .expected file says
    (its sitemap URL, the URL it is read as, a robots.txt beside it)."""
    from tests.expected import check_file, expected_path, read_header  # built on this module

    path = fixture(name)
    return check_file(path, read_header(expected_path(path)), engine_name)


def message(name: str) -> str:
    """The message of the one finding of its own rule that a fixture ("CODE/file") gives."""
    code = name.split("/", 1)[0]
    (finding,) = [f for f in lint_fixture(name).findings if f.code == code]
    return finding.message


def check_message(name: str, text: str) -> None:
    """The one finding of a failing fixture ("CODE/file") of its own rule quotes ``text``."""
    assert text in message(name), message(name)


def codes(result: FileResult) -> list[str]:
    return [f.code for f in result.findings]


def write(directory: Path, name: str, content: str | bytes) -> Path:
    path = directory / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def lint_content(
    directory: Path, content: str | bytes, name: str = "sitemap.xml", **options: object
) -> FileResult:
    """Write ``content`` to ``directory/name`` and check it (``options`` for Options)."""
    path = write(directory, name, content)
    return check_source(Source(str(path), path), Options(now=NOW, **options), engine())  # type: ignore[arg-type]


class NetworkUsed(AssertionError):
    """Raised by the ``no_network`` fixture (tests/conftest.py) on any connection attempt."""


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command line in-process: its exit status, standard output and error."""
    from sitemap_lint.cli import main

    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def run_json(paths: list[str], **settings: Any) -> tuple[int, dict[str, Any]]:
    """A run (run.execute) with the JSON report, at NOW, without configuration files:
    its exit status and the parsed report. ``settings`` are RunSettings fields."""
    from sitemap_lint.run import RunSettings, execute

    out = io.StringIO()
    run = RunSettings(
        paths=paths, format="json", now=NOW.date().isoformat(), isolated=True, **settings
    )
    status = execute(run, out=out, err=io.StringIO())
    return status, json.loads(out.getvalue())
