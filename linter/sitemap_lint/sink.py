"""The one place a file's findings go, and where it is decided which are reported.

Checks hand their (immutable) findings to a ``FindingSink``. While the file is
checked it remembers the nodes each finding covers, so that a schema error on
a node a rule already reported is not reported again (the rule's message is the
clearer one). When the file is done, ``close`` applies, in this order, the
file's inline suppression comments, the run's selection for that file (rule
selection, per-file ignores, profile and severity table) and the order by
position. In a set the directives stay open until the set is done: the findings
across files (``sets``) pass through them and the same selection, once.

Producers that never cover nodes (the byte reader, the decoder, the robots.txt
and text formats) append to ``findings`` directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from sitemap_lint.finding import Finding, Severity, sort_key

if TYPE_CHECKING:
    from sitemap_lint.rules.suppression import Suppressions

# Per rule code: the severity it is reported at, or None when it is not reported.
Levels = Mapping[str, Severity | None]


class Covers(Protocol):
    """What a finding covers: the nodes whose schema errors it explains."""

    def iter(self) -> Iterator[object]: ...


class FindingSink:
    """Collects one file's findings; ``close`` returns the reported ones, sorted."""

    def __init__(self, levels: Levels | None = None) -> None:
        self.findings: list[Finding] = []
        self.levels = levels  # None: every finding at its own severity
        # Nodes a finding covered, by id; holding the nodes keeps their ids unique.
        self._covered: dict[int, object] = {}
        self._suppressions: Suppressions | None = None  # made at the first directive

    # -- while the file is checked ----------------------------------------------

    def add(self, finding: Finding, covers: Covers | None = None) -> None:
        self.findings.append(finding)
        if covers is not None:
            self._covered.update((id(node), node) for node in covers.iter())

    @property
    def suppressions(self) -> Suppressions | None:
        """The file's inline suppression directives, None when it has none."""
        return self._suppressions

    def covered(self, node: object) -> bool:
        """Whether a finding covered ``node`` (since the last ``clear_coverage``)."""
        return id(node) in self._covered

    def add_unless_covered(self, finding: Finding, node: object) -> bool:
        """Add a schema error about ``node`` unless a finding covered the node."""
        if id(node) in self._covered:
            return False
        self.findings.append(finding)
        return True

    def clear_coverage(self) -> None:
        """The nodes checked so far are validated: their coverage is no longer needed."""
        self._covered.clear()

    def replace(self, index: int, finding: Finding) -> None:
        self.findings[index] = finding

    def drop(self, prefix: str) -> None:
        """Forget the findings whose code starts with ``prefix``."""
        self.findings[:] = [f for f in self.findings if not f.code.startswith(prefix)]

    def comment(self, text: str, line: int, column: int) -> None:
        """An XML comment of the file: it may be an inline suppression directive."""
        from sitemap_lint.rules import suppression

        if suppression.TAG not in text:
            return
        if self._suppressions is None:
            self._suppressions = suppression.Suppressions()
        self._suppressions.comment(text, line, column)

    # -- when the file is done ----------------------------------------------------

    def close(self, final: bool = True) -> list[Finding]:
        """The reported findings: suppressed ones dropped, the selection applied, sorted.

        Not ``final`` (a file of a set, whose findings across files come later): the
        suppression directives stay open (``suppressions``), so that they silence those
        findings too and say what they suppressed only when the set is done."""
        findings = self.findings
        if self._suppressions is not None and final:  # every finding of the file is known
            findings = self._suppressions.apply(findings)
        elif self._suppressions is not None:
            findings = self._suppressions.filter(findings)
        if self.levels is not None:
            findings = reported(findings, self.levels)
        findings.sort(key=sort_key)
        self.findings = findings
        return findings


def reported(findings: Iterable[Finding], levels: Levels) -> list[Finding]:
    """The findings that ``levels`` reports, each at its level there."""
    kept = []
    for finding in findings:
        level = levels.get(finding.code, finding.severity)
        if level is None:
            continue
        kept.append(finding if level is finding.severity else replace(finding, severity=level))
    return kept
