"""The core of a run, apart from command-line parsing: check inputs, report, exit status."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TextIO

from sitemap_lint.finding import Severity
from sitemap_lint.inputs import InputError, expand

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_TROUBLE = 2


class UsageError(Exception):
    """A bad option value; the message is one line for stderr."""


@dataclass(frozen=True)
class RunSettings:
    paths: list[str]
    format: str = "text"
    sitemap_url: str | None = None
    now: str | None = None
    xsd_engine: str = "libxml2"
    color: bool | None = None


def execute(settings: RunSettings, out: TextIO | None = None) -> int:
    """Check every input and write the report; return the exit status."""
    from sitemap_lint import xsd
    from sitemap_lint.checker import Options, check_source
    from sitemap_lint.reporters import REPORTERS

    out = out or sys.stdout
    reporter_class = REPORTERS.get(settings.format)
    if reporter_class is None:
        raise UsageError(
            f"unknown format {settings.format!r}; choose one of {', '.join(REPORTERS)}"
        )
    if settings.xsd_engine not in xsd.ENGINES:
        raise UsageError(
            f"unknown XSD engine {settings.xsd_engine!r}; choose {' or '.join(xsd.ENGINES)}"
        )
    options = Options(
        now=parse_now(settings.now), sitemap_url=parse_sitemap_url(settings.sitemap_url)
    )
    sources = expand(settings.paths)
    engine = xsd.load(settings.xsd_engine)
    results = [check_source(source, options, engine) for source in sources]
    reporter_class(out, settings.color).report(results)
    worst = max((f.severity for result in results for f in result.findings), default=Severity.INFO)
    has_errors = any(f.severity is Severity.ERROR for r in results for f in r.findings)
    del worst
    return EXIT_FINDINGS if has_errors else EXIT_CLEAN


def parse_now(text: str | None) -> datetime:
    if text is None:
        return datetime.now(UTC)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"--now {text!r} is not a timestamp; write e.g. 2024-05-08 or 2024-05-08T10:00:00Z"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def parse_sitemap_url(text: str | None):
    if text is None:
        return None
    from sitemap_lint.model import Node
    from sitemap_lint.rules.urls import check_url

    problems: list = []

    class Collect:
        def add(self, finding, covers=None):
            problems.append(finding)

    parsed = check_url(text, Node("", "sitemap-url", {}, 1, 1), Collect())
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if parsed is None or errors:
        reason = errors[0].message if errors else "not an absolute http(s) URL"
        raise UsageError(f"--sitemap-url {text!r} is not usable: {reason}")
    return parsed


__all__ = ["EXIT_CLEAN", "EXIT_FINDINGS", "EXIT_TROUBLE", "InputError", "RunSettings", "execute"]
