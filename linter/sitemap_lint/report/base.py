"""The reporter interface and the summary counts every format shares."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass
from typing import TextIO

from sitemap_lint.finding import Severity
from sitemap_lint.results import FileResult


@dataclass(frozen=True)
class Summary:
    files: int
    errors: int
    warnings: int
    infos: int
    by_rule: dict[str, int]
    urls: int | None = None  # in a set run: the URLs of all files

    @property
    def files_checked(self) -> str:
        text = f"{self.files} file{'s' if self.files != 1 else ''} checked"
        if self.urls is not None:
            text += f" ({self.urls:,} URL{'s' if self.urls != 1 else ''})"
        return text

    @classmethod
    def of(cls, results: list[FileResult]) -> Summary:
        levels: Counter[Severity] = Counter()
        rules: Counter[str] = Counter()
        counted = [result.urls for result in results if result.urls is not None]
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
            urls=sum(counted) if counted else None,
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
