"""Shared test helpers: run the checker on a fixture and compare findings."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from hypothesis import settings

from sitemap_lint import xsd
from sitemap_lint.engine.checker import check_source
from sitemap_lint.engine.results import FileResult
from sitemap_lint.inputs.reader import Source
from sitemap_lint.run import parse_sitemap_url
from sitemap_lint.settings.options import Options

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
RULE_FIXTURES = FIXTURES / "rules"
# Every fixture is checked at this moment, so time-dependent rules are reproducible.
NOW = datetime(2025, 6, 1, tzinfo=UTC)
# Rule fixtures that take a second or more to check (50,000 entries, 200,000 findings, a
# 0.5 s timeout), with those of the size limits (LM...): the tests that go through every
# fixture leave them to the slow run.
HEAVY_FIXTURES = frozenset(("TX005/fail.txt.gz", "FE004/fail.http", "RB005/fail.txt.gz"))


def sliced(
    values: Sequence[Any], every: int, ids: Callable[[Any], str] = str, first: int = 0
) -> list[Any]:
    """``values`` as the parameters of a test: every ``every``-th from the ``first`` for
    the fast loop, the others marked slow; the fast loop checks a fixed slice of the
    cases and the whole run every case, each once."""
    return [
        pytest.param(value, id=ids(value), marks=[] if n % every == first else [pytest.mark.slow])
        for n, value in enumerate(values)
    ]


def without_and_with_fast_path(
    monkeypatch: pytest.MonkeyPatch, report: Callable[[], Any]
) -> tuple[Any, Any]:
    """``report()`` with the fast path off, then on."""
    from sitemap_lint import fastpath

    reports = []
    for switch in ("0", "1"):
        monkeypatch.setenv(fastpath.ENV, switch)
        reports.append(report())
    return reports[0], reports[1]


def in_turn(
    cases: Sequence[tuple[Any, ...]],
    ways: Sequence[tuple[Any, ...]],
    ids: Callable[[tuple[Any, ...], tuple[Any, ...]], str],
) -> list[Any]:
    """Each case checked each way, as the parameters of a test (the case's, then the
    way's): the fast loop checks each case one way, the ways taken in turn, and the whole
    run every case every way."""
    return [
        pytest.param(
            *case,
            *way,
            id=ids(case, way),
            marks=[] if turn == n % len(ways) else [pytest.mark.slow],
        )
        for n, case in enumerate(cases)
        for turn, way in enumerate(ways)
    ]


@dataclass(frozen=True)
class Draws:
    """How a property is tried: ``examples`` cases drawn from a fixed ``seed``, with the
    ``base`` settings. Applied to a ``@given`` function, as a decorator."""

    seed: int
    examples: int
    base: settings | None = None

    def __call__(self, test: Any) -> Any:
        tried = settings(self.base, max_examples=self.examples)(test)
        return hypothesis.seed(self.seed)(tried)


def draws(everyday: int, more: int, base: settings | None = None) -> list[Any]:
    """The parameters of a property test: ``everyday`` cases for the fast loop, and in the
    whole run ``more`` others, drawn from another seed."""
    return [
        pytest.param(Draws(0, everyday, base), id="everyday"),
        pytest.param(Draws(1, more, base), id="more", marks=pytest.mark.slow),
    ]


def heavy(path: Path) -> bool:
    """Whether ``path`` is one of the heavy rule fixtures (``HEAVY_FIXTURES``, LM...)."""
    if RULE_FIXTURES not in path.parents:
        return False
    name = path.relative_to(RULE_FIXTURES).as_posix()
    return name in HEAVY_FIXTURES or name.startswith("LM")


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


def noting_rule(code: str, name: str) -> Any:
    """A plugin's rule whose findings note what a test's check saw."""
    from sitemap_lint.rules.base import WARNING, rule

    return rule(
        code,
        name,
        WARNING,
        summary="What a test's plugin check saw",
        what="Notes what a test's plugin check is handed.",
        why="It shows that the check sees what it must see.",
        bad="<urlset/>",
        good="<urlset/>",
    )


@contextmanager
def plugin_checks(*checks: tuple[str, Any, Callable[..., None]]) -> Iterator[None]:
    """Register each (target, rule, function) as a plugin's check, and its rule in the
    catalogue (a check runs only while one of its rules is enabled), while the block runs."""
    from sitemap_lint.rules.registry import CHECKS, check, rules

    catalogue = rules()
    before = len(CHECKS)
    added = [noted.code for _target, noted, _function in checks if noted.code not in catalogue]
    for target, noted, function in checks:
        catalogue.setdefault(noted.code, noted)
        check(target, emits=(noted,))(function)
    try:
        yield
    finally:
        del CHECKS[before:]
        for code in added:
            catalogue.pop(code, None)
