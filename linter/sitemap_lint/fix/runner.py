"""``--fix``, ``--diff`` and ``--fix-only`` for a run, and the fixes a report shows.

``fix_files`` fixes every local input (URLs are not fixed: there is no file to
write) and either writes the files (``--fix``) or prints a unified diff
(``--diff``). ``resolved`` turns the fixes of reported findings into exact edits
over the file's text, dropping those that do not fit it, so that a report marks
as fixable exactly what ``--fix`` would fix.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TextIO

from sitemap_lint.finding import Finding
from sitemap_lint.fix.model import Edit, FindingFix

if TYPE_CHECKING:
    from collections.abc import Mapping

    from sitemap_lint.config import Config
    from sitemap_lint.inputs.reader import Source
    from sitemap_lint.options import Options
    from sitemap_lint.results import FileResult


class CheckPlan(Protocol):
    """What the run checks each file with (``run.CheckPlan``)."""

    @property
    def engine_name(self) -> str: ...

    def options(self, config: Config, name: str) -> Options: ...


@dataclass
class FixRun:
    """What the fixes of a run did."""

    fixed: int = 0  # findings fixed (or, with --diff, that would be)
    files: int = 0  # files changed (or that would be)
    refused: dict[str, Finding] = field(default_factory=dict)  # by file name
    stdin: bytes | None = None  # the fixed standard input
    trouble: list[str] = field(default_factory=list)  # one line per file not written


def fix_files(
    sources: list[Source],
    plan: CheckPlan,
    config: Config,
    *,
    unsafe: bool,
    write: bool,
    out: TextIO,
) -> FixRun:
    """Fix each of ``sources``; write them (``write``) or print the diff to ``out``."""
    from sitemap_lint import xsd
    from sitemap_lint.fix.diff import unified
    from sitemap_lint.fix.engine import fix_source
    from sitemap_lint.fix.write import WriteError, write_atomic
    from sitemap_lint.inputs.reader import InputError

    engine = xsd.load(plan.engine_name)
    run = FixRun()
    for source in sources:
        try:
            done = fix_source(source, plan.options(config, source.name), engine, unsafe)
        except InputError as error:
            run.trouble.append(str(error))
            continue
        if done.refused is not None:
            run.refused[source.name] = done.refused
        if source.path is None and write:  # standard input
            run.stdin = done.fixed if done.fixed is not None else done.original
        if not done.changed:
            continue
        assert done.fixed is not None
        if not write:
            text = unified(source.name, done.before, done.after)
            if not text:  # only the bytes changed: the byte order mark, the encoding
                text = f"--- {source.name}\n+++ {source.name}\n"
                text += "(the same text; the byte order mark removed or the encoding changed)\n"
            out.write(text)
        elif source.path is not None:
            try:
                write_atomic(Path(source.path), done.fixed)
            except WriteError as error:
                run.trouble.append(str(error))
                continue
        run.fixed += len(done.fixed_findings)
        run.files += 1
    return run


# Files up to this size (as stored) are read again to make their fixes exact; the fixes
# of a larger file keep their edits as the checks gave them (by target and position),
# so that a report never holds a huge file's text.
RESOLVE_LIMIT = 16 * 1024 * 1024


def resolved(results: list[FileResult], sources: Mapping[str, Source]) -> list[FileResult]:
    """``results`` with every fix made exact against its file's text: a fix whose
    edits do not fit (or of a file that cannot be read again) is dropped. A file
    larger than ``RESOLVE_LIMIT`` keeps its fixes as they are."""
    from sitemap_lint.fix.engine import decode, read_source
    from sitemap_lint.fix.locate import Text
    from sitemap_lint.inputs.reader import InputError

    out = []
    for result in results:
        if not any(f.fix is not None for f in result.findings):
            out.append(result)
            continue
        source = sources.get(result.name)
        if source is not None and _size(source) > RESOLVE_LIMIT:
            out.append(result)
            continue
        decoded = None
        if source is not None and not (source.is_stdin and source.data is None):
            try:
                decoded = decode(read_source(source))
            except InputError:
                decoded = None
        if decoded is None or isinstance(decoded, str):  # the fixes cannot be applied
            findings = [_exact(f, None) for f in result.findings]
        elif all(f.fix is None or f.fix.exact for f in result.findings):
            findings = result.findings
        else:
            text = Text(decoded.text)
            findings = [
                f if f.fix is None or f.fix.exact else _exact(f, text) for f in result.findings
            ]
        out.append(replace(result, findings=findings))
    return out


def _size(source: Source) -> int:
    if source.data is not None:
        return len(source.data)
    try:
        return os.stat(source.path).st_size if source.path is not None else 0
    except OSError:
        return 0


def _exact(finding: Finding, text: object) -> Finding:
    from sitemap_lint.fix.locate import Text

    if finding.fix is None:
        return finding
    if not isinstance(text, Text):
        return finding.with_fix(None)
    if finding.fix.exact or all(text.fits(edit) for edit in finding.fix.edits):
        return finding  # exact already: spans of the text as it is
    edits: list[Edit] = []
    for edit in finding.fix.edits:
        found = text.resolve(edit)
        if found is None:
            return finding.with_fix(None)
        if edit.target in ("bom", "encoding") and not found:
            edits.append(Edit(1, 1, "", edit.target, 1, 1))
        for r in found:
            line, column = text.position(r.start)
            end_line, end_column = text.position(r.end)
            edits.append(Edit(line, column, r.content, "span", end_line, end_column))
    fix = FindingFix(finding.fix.applicability, finding.fix.message, tuple(edits))
    return finding.with_fix(fix)
