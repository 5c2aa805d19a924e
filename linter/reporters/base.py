"""The reporter interface and the summary counts every format shares."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass
from typing import TextIO

from sitemap_lint.checker import FileResult
from sitemap_lint.finding import Severity


@dataclass(frozen=True)
class Summary:
    files: int
    errors: int
    warnings: int
    infos: int
    by_rule: dict[str, int]

    @classmethod
    def of(cls, results: list[FileResult]) -> Summary:
        levels: Counter[Severity] = Counter()
        rules: Counter[str] = Counter()
        for result in results:
            for finding in result.findings:
                levels[finding.severity] += 1
                rules[f"{finding.code} {finding.name}"] += 1
        return cls(
            files=len(results),
            errors=levels[Severity.ERROR],
            warnings=levels[Severity.WARNING],
            infos=levels[Severity.INFO],
            by_rule=dict(sorted(rules.items())),
        )


class Reporter(ABC):
    """Writes the whole report for a run to ``out``."""

    def __init__(self, out: TextIO, color: bool | None = None, summary: bool = True):
        self.out = out
        self.color = color
        # Formats for people end with totals; the run turns them off with --quiet,
        # or writes them to stderr itself when the report goes to a file.
        self.summary = summary

    @abstractmethod
    def report(self, results: list[FileResult]) -> None: ...
