"""Shared test helpers: run the checker on a fixture and compare findings."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from sitemap_lint import xsd
from sitemap_lint.checker import FileResult, check_source
from sitemap_lint.inputs.reader import Source
from sitemap_lint.options import Options
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


@dataclass(frozen=True)
class Case:
    """A failing fixture of rule ``code`` must give exactly the findings ``(code, line)``
    plus ``also`` (other unavoidable findings, as (code, line) pairs)."""

    code: str
    fixture: str
    line: int
    sitemap_url: str | None = None
    also: tuple[tuple[str, int], ...] = field(default_factory=tuple)

    def __str__(self) -> str:
        return f"{self.code}/{self.fixture}"

    @property
    def path(self) -> Path:
        return RULE_FIXTURES / self.code / self.fixture


def check_case(case: Case) -> None:
    result = lint(case.path, case.sitemap_url)
    expected = sorted([(case.code, case.line), *case.also])
    assert sorted(found(result)) == expected, [
        (f.code, f.line, f.column, f.message) for f in result.findings
    ]


def check_pass(code: str, sitemap_url: str | None = None) -> None:
    path = RULE_FIXTURES / code / "pass.xml"
    result = lint(path, sitemap_url)
    assert result.findings == [], [(f.code, f.line, f.message) for f in result.findings]


class NetworkUsed(AssertionError):
    """Raised by the ``no_network`` fixture (tests/conftest.py) on any connection attempt."""


def check_message(cases: list[Case], fixture: str, text: str) -> None:
    """The one finding of a listed failing fixture ("CODE/name") quotes ``text``, its fix."""
    code, name = fixture.split("/")
    case = next(c for c in cases if c.code == code and c.fixture == name)
    (finding,) = [f for f in lint(case.path, case.sitemap_url).findings if f.code == code]
    assert text in finding.message, finding.message
