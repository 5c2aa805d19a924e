"""Applying the fixes of one pass: every edit resolved, none overlapping, in order."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise

from sitemap_lint.finding import Finding
from sitemap_lint.fix.locate import Replacement, Text


@dataclass
class Pass:
    """What one pass changed: the new text, the findings whose fix was applied, and
    the file-wide changes the writer makes (no byte order mark, UTF-8)."""

    text: str
    fixed: list[Finding] = field(default_factory=list)
    drop_bom: bool = False
    to_utf8: bool = False


def fixable(findings: Iterable[Finding], unsafe: bool) -> list[Finding]:
    """The findings whose fix this run applies (safe ones; unsafe ones too with ``unsafe``)."""
    return [f for f in findings if f.fix is not None and (unsafe or f.fix.is_safe)]


def apply(text: str, findings: Iterable[Finding]) -> Pass:
    """Apply the fixes of ``findings`` to ``text``; a fix whose edits do not fit the
    text, or overlap a fix taken before it, waits for the next pass (or is dropped). A
    fix whose every edit a fix taken before it makes is applied with it, and counted
    (as ruff counts it)."""
    located = Text(text)
    chosen: list[Replacement] = []
    taken: list[tuple[int, int]] = []
    result = Pass(text)
    seen: set[tuple[int, int, str]] = set()
    for finding in findings:
        assert finding.fix is not None
        replacements: list[Replacement] = []
        ok = True
        for edit in finding.fix.edits:
            found = located.resolve(edit)
            if found is None:
                ok = False
                break
            replacements.extend(found)
        if not ok:
            continue
        targets = {edit.target for edit in finding.fix.edits}
        if replacements and all((r.start, r.end, r.content) in seen for r in replacements):
            result.drop_bom |= "bom" in targets
            result.to_utf8 |= "encoding" in targets
            result.fixed.append(finding)
            continue
        spans = sorted({(r.start, r.end) for r in replacements})
        if any(_overlaps(span, taken) for span in spans) or _overlap_each_other(spans):
            continue
        for r in replacements:
            key = (r.start, r.end, r.content)
            if key not in seen:
                seen.add(key)
                chosen.append(r)
        for span in spans:
            bisect.insort(taken, span)
        result.drop_bom |= "bom" in targets
        result.to_utf8 |= "encoding" in targets
        result.fixed.append(finding)
    result.text = _replaced(text, chosen)
    return result


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    """Whether ``span`` overlaps one of ``taken`` (sorted, pairwise not overlapping),
    or is an insertion at the place of another insertion (order unclear)."""
    start, end = span
    at = bisect.bisect_left(taken, span)
    for other_start, other_end in taken[max(at - 1, 0) : at + 2]:
        if start < other_end and other_start < end:
            return True
        if start == end == other_start == other_end:
            return True
    return False


def _overlap_each_other(spans: list[tuple[int, int]]) -> bool:
    """Whether two of the sorted, distinct ``spans`` of one fix overlap."""
    return any(
        later[0] < earlier[1] or later[0] == later[1] == earlier[0] == earlier[1]
        for earlier, later in pairwise(spans)
    )


def _replaced(text: str, replacements: list[Replacement]) -> str:
    parts: list[str] = []
    at = 0
    for r in sorted(replacements, key=lambda r: (r.start, r.end)):
        parts.append(text[at : r.start])
        parts.append(r.content)
        at = r.end
    parts.append(text[at:])
    return "".join(parts)
