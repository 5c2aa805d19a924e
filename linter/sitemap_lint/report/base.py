"""The reporter interface and the summary counts every format shares.

Reporters see findings and what a run knows of each file, nothing more: they import
no parser, schema engine or rule, so loading one format stays cheap.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Protocol, TextIO

from sitemap_lint.finding import Finding, Severity
from sitemap_lint.support.records import Frozen
from sitemap_lint.support.words import plural as plural

# What Summary.of counts of a finding: its rule and its severity's rank (a Severity's
# hash is Python code; the rank's is not).
_KIND = attrgetter("code", "name", "severity._value_")


class FileReport(Protocol):
    """What a reporter reads of one checked file (``checker.FileResult`` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def findings(self) -> Sequence[Finding]: ...

    @property
    def kind(self) -> str | None: ...  # urlset, sitemapindex, text, rss, atom, robots

    @property
    def urls(self) -> int | None: ...  # the URLs the file lists (not an index's)


class EntryCounts(Protocol):
    """A file's entries counted (``facts.FileStats``, filled for ``--format html``): keys are
    a lastmod month (``2025-06``), a changefreq keyword, a priority to one decimal
    (``0.5``) or a hreflang code; ``none``, ``invalid`` and ``other`` stand for entries
    without the field, with an unusable value, and values past the counted ones."""

    @property
    def size(self) -> int | None: ...  # bytes read, uncompressed

    @property
    def months(self) -> Mapping[str, int]: ...

    @property
    def changefreqs(self) -> Mapping[str, int]: ...

    @property
    def priorities(self) -> Mapping[str, int]: ...

    @property
    def hreflangs(self) -> Mapping[str, int]: ...  # code -> entries that list it


def parent_of(result: FileReport) -> int | None:
    """In a set: the index, among the run's results, of the file that listed this one
    (``results.FileResult.parent``); None for an input or a report that does not say."""
    parent = getattr(result, "parent", None)
    return parent if isinstance(parent, int) else None


def counts_of(result: FileReport) -> EntryCounts | None:
    """The file's entry counts (``results.FileResult.stats``), when the run kept them."""
    stats: EntryCounts | None = getattr(result, "stats", None)
    return stats


@dataclass(init=False, repr=False, eq=False)
class Summary(Frozen):
    files: int
    errors: int
    warnings: int
    infos: int
    by_rule: dict[str, int]
    urls: int | None = None  # the URLs of all files (None: no file lists URLs)

    def __init__(
        self,
        files: int,
        errors: int,
        warnings: int,
        infos: int,
        by_rule: dict[str, int],
        urls: int | None = None,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "files", files)
        setattr_(self, "errors", errors)
        setattr_(self, "warnings", warnings)
        setattr_(self, "infos", infos)
        setattr_(self, "by_rule", by_rule)
        setattr_(self, "urls", urls)

    @property
    def files_checked(self) -> str:
        text = f"{plural(self.files, 'file')} checked"
        if self.urls is not None:
            text += f" ({plural(self.urls, 'URL')})"
        return text

    @property
    def counts(self) -> list[tuple[Severity, str]]:
        """The non-zero counts, worst first, in words: ``4 errors``, ``1 warning``, ``2 info``."""
        levels = ((Severity.ERROR, self.errors), (Severity.WARNING, self.warnings))
        words = [(level, plural(count, str(level))) for level, count in levels if count]
        if self.infos:  # "info" is a mass noun: 1 info, 2 info
            words.append((Severity.INFO, f"{self.infos:,} info"))
        return words

    @property
    def totals(self) -> str:
        """``2 files checked: 4 errors, 3 warnings, 1 info`` (or ``: no problems found``)."""
        counts = ", ".join(words for _, words in self.counts)
        return f"{self.files_checked}: {counts or 'no problems found'}"

    @classmethod
    def of(cls, results: Sequence[FileReport]) -> Summary:
        kinds: Counter[tuple[str, str, int]] = Counter()
        for result in results:  # counted at C speed: a file may have 100,000 findings
            kinds.update(map(_KIND, result.findings))
        levels: Counter[int] = Counter()
        rules: Counter[str] = Counter()
        for (code, name, rank), count in kinds.items():
            levels[rank] += count
            rules[f"{code} {name}"] += count
        counted = [result.urls for result in results if result.urls is not None]
        return cls(
            files=len(results),
            errors=levels[Severity.ERROR.value],
            warnings=levels[Severity.WARNING.value],
            infos=levels[Severity.INFO.value],
            by_rule=dict(sorted(rules.items())),
            urls=sum(counted) if counted else None,
        )


def by_frequency(counts: Mapping[str, int]) -> list[tuple[str, int]]:
    """``counts`` (of rule codes, say) most frequent first, equal counts by key."""
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def applicable(finding: Finding, unsafe: bool) -> bool:
    """Whether ``--fix`` (with ``unsafe``: ``--fix --unsafe-fixes``) fixes ``finding``."""
    return finding.fix is not None and (unsafe or finding.fix.is_safe)


@dataclass(init=False, repr=False, eq=False)
class RunInfo(Frozen):
    """What a report may say about the run itself (the HTML report's header and footer)."""

    inputs: tuple[str, ...]  # the paths and URLs as given
    now: str | None  # --now as given; None: the clock's time
    profile: str
    exit_code: int
    command: str  # a command line that repeats the run
    unsafe_fixes: bool = False  # --unsafe-fixes: unsafe fixes count as fixable
    # --baseline: the findings it matched (not reported) and the recorded ones not seen
    baseline: tuple[int, int] | None = None
    # --live: what the audit requested and got (live.audit.LiveStats.as_dict)
    live: dict[str, Any] | None = None

    def __init__(
        self,
        inputs: tuple[str, ...],
        now: str | None,
        profile: str,
        exit_code: int,
        command: str,
        unsafe_fixes: bool = False,
        baseline: tuple[int, int] | None = None,
        live: dict[str, Any] | None = None,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "inputs", inputs)
        setattr_(self, "now", now)
        setattr_(self, "profile", profile)
        setattr_(self, "exit_code", exit_code)
        setattr_(self, "command", command)
        setattr_(self, "unsafe_fixes", unsafe_fixes)
        setattr_(self, "baseline", baseline)
        setattr_(self, "live", live)


class Reporter(ABC):
    """Writes the whole report for a run to ``out``."""

    def __init__(
        self,
        out: TextIO,
        color: bool | None = None,
        summary: bool = True,
        statistics: bool = False,
        *,
        run: RunInfo | None = None,
    ):
        self.out = out
        self.color = color
        # Formats for people end with totals; the run turns them off with --quiet,
        # or writes them to stderr itself when the report goes to a file.
        self.summary = summary
        # --statistics: the text report adds a table of findings per rule to its summary.
        self.statistics = statistics
        # The run's inputs, settings and exit status, for formats that show them.
        self.run = run

    @abstractmethod
    def report(self, results: Sequence[FileReport]) -> None: ...
