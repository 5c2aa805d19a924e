"""The one place a file's findings go, and where it is decided which are reported.

Every producer (the byte reader, the decoder, the front ends, the checks, the set's
checks across files, the live audit) hands its (immutable) findings to the file's
``FindingSink`` through ``add``. While the file is checked the sink remembers the
nodes each finding covers, so that a schema error on a node a rule already reported
is not reported again (the rule's message is the clearer one).

Each finding passes once through, in this order, the file's inline suppression
comments, the run's selection for that file (rule selection, per-file ignores,
profile and severity table), and is then put in order by position. A file checked
alone is done at ``close``. A file of a set (or of a live audit) is ``settle``d when
its own check ends: the findings so far pass, and the sink stays open (its
directives too) for the findings across files, which pass at ``close`` when the set
is done; only then do the directives say what they suppressed nothing of.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from sitemap_lint.finding import Finding, Severity, sort_key
from sitemap_lint.support.patterns import lazy

if TYPE_CHECKING:
    from sitemap_lint.rules.events import Directives
    from sitemap_lint.rules.suppression import Suppressions

# Per rule code: the severity it is reported at, or None when it is not reported.
Levels = Mapping[str, Severity | None]

# A comment that may be a directive: the tag in any case (one in another case than the
# tag's is a malformed directive when it goes on to disable).
_TAGGED = lazy("sitemap-lint", re.IGNORECASE)


class Covers(Protocol):
    """What a finding covers: the nodes whose schema errors it explains."""

    def iter(self) -> Iterator[object]: ...


class Reporter(Protocol):
    """Where a producer hands its findings: a ``FindingSink``, or a ``FindingList``."""

    def add(self, finding: Finding, covers: Covers | None = None) -> None: ...


class FindingList(list[Finding]):
    """Findings kept as they are, for a reading that reports none of them (a file read
    again to be fixed, listed for a diff, or quoted in a report)."""

    def add(self, finding: Finding, covers: Covers | None = None) -> None:
        self.append(finding)


class FindingSink:
    """Collects one file's findings; ``close`` returns the reported ones, sorted."""

    def __init__(self, levels: Levels | None = None) -> None:
        self.findings: list[Finding] = []
        self.levels = levels  # None: every finding at its own severity
        # The rules that cannot report in this file's check (``suppression.idle_rules``):
        # a directive naming them is not judged.
        self.idle: frozenset[str] = frozenset()
        # The rules that could not report on a line, by line (a live audit that left a
        # URL there unrequested): a directive for that line, or for the file, naming
        # them is not judged.
        self.idle_lines: dict[int, frozenset[str]] = {}
        # The codes of plugins that may not be installed (the configuration's
        # ``external``): a directive may name them.
        self.external: tuple[str, ...] = ()
        # Nodes a finding covered, by id; holding the nodes keeps their ids unique.
        self._covered: dict[int, object] = {}
        self._suppressions: Suppressions | None = None  # made at the first directive
        self._passed = 0  # the findings at the start of ``findings`` already passed
        self._added = 0  # every finding ever added that the levels report

    @classmethod
    def of(cls, findings: Iterable[Finding]) -> FindingSink:
        """A sink holding ``findings`` (made outside a check: a fetch that failed, a
        file that cannot be read), none of them passed yet."""
        sink = cls()
        for finding in findings:
            sink.add(finding)
        return sink

    # -- while the file is checked ----------------------------------------------

    def add(self, finding: Finding, covers: Covers | None = None) -> None:
        levels = self.levels
        if levels is None or levels.get(finding.code, finding.severity) is not None:
            self.findings.append(finding)
            self._added += 1
        # (A finding the levels do not report is not kept: no directive is judged on
        # its rule, and it still covers its nodes, as it would reported.)
        if covers is not None:
            self._covered.update((id(node), node) for node in covers.iter())

    @property
    def added(self) -> int:
        """How many findings were added that the levels report, whatever suppression
        makes of them: the same whichever checks a selection skips."""
        return self._added

    @property
    def suppressions(self) -> Suppressions | None:
        """The file's inline suppression directives, None when it has none."""
        return self._suppressions

    def covered(self, node: object) -> bool:
        """Whether a finding covered ``node`` (since the last ``clear_coverage``)."""
        return id(node) in self._covered

    def clear_coverage(self) -> None:
        """The nodes checked so far are validated: their coverage is no longer needed."""
        self._covered.clear()

    def replace(self, index: int, finding: Finding) -> None:
        """Put ``finding`` (the one at ``index``, amended) in its place."""
        self.findings[index] = finding

    def drop(self, prefix: str) -> None:
        """Forget the findings not passed yet whose code starts with ``prefix``."""
        passed, pending = self.findings[: self._passed], self.findings[self._passed :]
        self.findings[:] = passed + [f for f in pending if not f.code.startswith(prefix)]

    def holds(self, code: str, line: int, column: int) -> bool:
        """Whether the sink holds a finding of ``code`` at ``line`` and ``column``."""
        return any(f.code == code and f.line == line and f.column == column for f in self.findings)

    def withdraw(self, code: str, line: int, column: int) -> None:
        """Forget the findings not passed yet of ``code`` at ``line`` and ``column`` (a
        finding across files that another one replaces)."""
        passed, pending = self.findings[: self._passed], self.findings[self._passed :]
        self.findings[:] = passed + [
            f for f in pending if not (f.code == code and f.line == line and f.column == column)
        ]

    def comment(self, text: str, line: int, column: int) -> None:
        """An XML comment of the file: it may be an inline suppression directive."""
        if _TAGGED.search(text) is None:
            return
        from sitemap_lint.rules import suppression

        if self._suppressions is None:
            self._suppressions = suppression.Suppressions(self.external)
        self._suppressions.comment(text, line, column)

    # -- when the file is done ----------------------------------------------------

    def settle(self) -> list[Finding]:
        """The file's own check is done (in a set, or before a live audit): the findings
        so far pass and are sorted; the sink stays open for the findings that come later,
        which pass at ``close``. The directives stay open too, so that they silence those
        findings and say what they suppressed only at ``close``. The levels are left
        behind: a settled sink may travel to another process, and the run gives them
        again at ``close``."""
        self._pass(final=False)
        self.levels = None
        return self.findings

    def close(self, levels: Levels | None = None) -> list[Finding]:
        """The reported findings: suppressed ones dropped, the selection applied, sorted.
        ``levels``: those of a settled sink (which left its own behind)."""
        if levels is not None:
            self.levels = levels
        self._pass(final=True)
        return self.findings

    def _pass(self, final: bool) -> None:
        """The findings not passed yet through the directives and the levels."""
        pending = self.findings[self._passed :]
        suppressions = self._suppressions
        if suppressions is not None:
            pending = suppressions.filter(pending)
            if final:  # every finding of the file is known
                pending.extend(
                    _directive_findings(
                        suppressions.remaining(self.levels, self.idle, self.idle_lines)
                    )
                )
        if self.levels is not None:
            pending = reported(pending, self.levels)
        findings = self.findings
        del findings[self._passed :]
        findings.extend(pending)
        findings.sort(key=sort_key)
        self._passed = len(findings)
        self._covered.clear()
        if final:
            self._suppressions = None


def reported(findings: Iterable[Finding], levels: Levels) -> list[Finding]:
    """The findings that ``levels`` reports, each at its level there."""
    kept = []
    for finding in findings:
        level = levels.get(finding.code, finding.severity)
        if level is None:
            continue
        kept.append(finding if level is finding.severity else replace(finding, severity=level))
    return kept


def _directive_findings(directives: Directives) -> list[Finding]:
    """The findings the ``directives`` checks make of a file's directives (every such
    check runs: the levels select among their findings as among the others). They are
    called here, in their order of registration, not through ``engine.dispatch``, which
    imports this module."""
    if not directives.invalid and not directives.unused:
        return []
    from sitemap_lint.rules.registry import CHECKS, DIRECTIVES, families

    families()  # the plugins' checks register when their modules are loaded
    found = FindingList()
    for spec in CHECKS:
        if DIRECTIVES in spec.targets:
            spec.implementation(directives, None, found)
    return list(found)
