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
from sitemap_lint.inputs.reader import Source, is_url, real_path
from sitemap_lint.support.pipes import write_bytes, writing_to

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.sets.runner import Maps
    from sitemap_lint.settings.config import Config
    from sitemap_lint.settings.options import Options


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
    refused: dict[str, tuple[Finding, ...]] = field(default_factory=dict)  # by file name
    stdin: bytes | None = None  # the fixed standard input
    trouble: list[str] = field(default_factory=list)  # one line per file not read or written
    unread: int = 0  # the files of ``trouble`` that could not be read (nor checked)
    unshown: list[str] = field(default_factory=list)  # --diff: one line per diff not shown


def fix_files(
    sources: list[Source],
    plan: CheckPlan,
    config: Config,
    *,
    unsafe: bool,
    write: bool,
    out: TextIO,
    answered: Mapping[str, Sequence[Finding]] | None = None,
) -> FixRun:
    """Fix each of ``sources``; write them (``write``) or print the diff to ``out``.
    ``answered``: by file name, the findings of a live audit whose fixes rest on its
    answers (``answered_fixes``), applied with the first pass."""
    from sitemap_lint import xsd
    from sitemap_lint.fix.diff import of_fix, unshown
    from sitemap_lint.fix.engine import fix_source
    from sitemap_lint.fix.write import WriteError, replace_fixed
    from sitemap_lint.inputs.reader import InputError

    engine = xsd.load(plan.engine_name)
    run = FixRun()
    for source in sources:
        try:
            given = answered.get(source.name, ()) if answered else ()
            done = fix_source(source, _options(plan, config, source), engine, unsafe, given)
        except InputError as error:
            run.trouble.append(str(error))
            run.unread += 1
            continue
        if done.refused:
            run.refused[source.name] = done.refused
        if source.path is None and write:  # standard input
            run.stdin = done.fixed if done.fixed is not None else done.original
        if not done.changed:
            continue
        assert done.fixed is not None
        if not write:
            shown = of_fix(done)
            if shown is None:
                run.unshown.append(unshown(done))
            else:
                with writing_to(out):  # a reader gone: the other files are still fixed
                    if isinstance(shown, str):
                        out.write(shown)
                    else:
                        write_bytes(out, shown)
        elif source.path is not None:
            try:
                replace_fixed(Path(source.path), done.fixed, done.original)
            except WriteError as error:
                run.trouble.append(str(error))
                continue
        run.fixed += len(done.fixed_findings)
        run.files += 1
    return run


def _options(plan: CheckPlan, config: Config, source: Source) -> Options:
    """The options ``source`` is checked with: under the URL it is served at, when
    ``--map`` says it (as the set's check of it knows it)."""
    from sitemap_lint.rules.urls import parse_url

    options = replace(plan.options(config, source.name), live=False)  # passes are static
    location = parse_url(source.url) if source.url is not None else None
    return options if location is None else replace(options, sitemap_url=location)


def answered_fixes(results: list[FileResult]) -> dict[str, list[Finding]]:
    """By file name, the findings of ``results`` (a run with ``--live``) whose fixes
    rest on the audit's answers (``fix.model.answered``)."""
    from sitemap_lint.fix.model import needs_answer

    found: dict[str, list[Finding]] = {}
    for result in results:
        given = [f for f in result.findings if f.fix is not None and needs_answer(f)]
        if given:
            found[result.name] = given
    return found


def answered_after_static(
    results: list[FileResult], sources: Mapping[str, Source]
) -> list[FileResult]:
    """``results`` without the answered fixes that ``--fix`` would not apply: those
    whose edits do not fit the file, or overlap a static fix (which wins, as in the
    first pass)."""
    from sitemap_lint.fix.apply import apply
    from sitemap_lint.fix.engine import decode, read_source
    from sitemap_lint.fix.model import needs_answer
    from sitemap_lint.inputs.reader import InputError

    out = []
    for result in results:
        given = [f for f in result.findings if f.fix is not None and needs_answer(f)]
        source = sources.get(result.name)
        if not given or source is None:
            out.append(result)
            continue
        try:
            decoded = decode(read_source(source)) if source.data or source.path else None
        except InputError:
            decoded = None
        static = [f for f in result.findings if f.fix is not None and not needs_answer(f)]
        kept = set()
        if decoded is not None and not isinstance(decoded, str):
            kept = {id(f) for f in apply(decoded.text, [*static, *given]).fixed}
        findings = [
            f.with_fix(None) if f.fix is not None and needs_answer(f) and id(f) not in kept else f
            for f in result.findings
        ]
        out.append(replace(result, findings=findings))
    return out


def with_mapped_files(
    sources: list[Source], results: list[FileResult], maps: tuple[tuple[str, Path], ...]
) -> list[Source]:
    """``sources`` (the local inputs) and the local files the set's indexes and
    robots.txt files list through ``--map``, in the order of ``results`` (the set's
    check of them), each with the URL it is served at: every local file of the set,
    which is what ``--fix`` fixes."""
    from sitemap_lint.sets.runner import Maps

    served = Maps(maps)
    inputs = {source.name: source for source in sources}
    ordered: list[Source] = []
    for result in results:
        if result.parent is None:
            source = inputs.pop(result.name, None)
            if source is None:
                continue  # a URL
        elif is_url(result.name):
            continue  # fetched: no file to write
        else:
            source = Source(result.name, Path(result.name))
        ordered.append(source)
    ordered.extend(inputs.values())
    seen: set[Path] = set()
    unique = []
    for source in ordered:
        where = real_path(source.path) if source.path is not None else None
        if where is None or where not in seen:
            unique.append(_served(source, served))
        if where is not None:
            seen.add(where)
    return unique


def _served(source: Source, maps: Maps) -> Source:
    """``source`` with the URL ``--map`` serves it at (the set's check knows it so)."""
    if source.path is None:
        return source
    url = maps.url(real_path(source.path))
    return source if url is None else Source(source.name, source.path, url, source.data)


def fixable_files(results: list[FileResult], sources: Mapping[str, Source]) -> dict[str, Source]:
    """The files ``--fix`` writes among ``results``: ``sources`` (the local inputs and
    standard input) and the local files a set read through ``--map``."""
    found = dict(sources)
    for result in results:
        if result.parent is not None and not is_url(result.name) and result.name not in found:
            found[result.name] = Source(result.name, Path(result.name))
    return found


def unfixable_dropped(results: list[FileResult], fixable: Mapping[str, Source]) -> list[FileResult]:
    """``results`` without the fixes of files ``--fix`` does not write (fetched ones):
    a report counts as fixable only what ``--fix`` fixes."""
    return [
        result
        if result.name in fixable or all(f.fix is None for f in result.findings)
        else replace(result, findings=[f.with_fix(None) for f in result.findings])
        for result in results
    ]


def emptying_dropped(results: list[FileResult], unsafe: bool | None) -> list[FileResult]:
    """``results`` without the fixes ``--fix`` refuses because they would remove every
    entry of a urlset or of a sitemap index (``fix.engine``'s gate, FX001: out of scope,
    most likely for a wrong ``--sitemap-url``): the removals, never applied (unsafe ones,
    which a run without ``unsafe`` leaves out and one with it refuses), and the file's
    other unsafe fixes, which a run without ``unsafe`` hides and one with it would not
    apply either (no hidden fixes: enabling them fixes nothing); and with ``unsafe``
    (``--fix --unsafe-fixes``, which leaves such a file as it is) every other fix of the
    file. A report counts as fixable what ``--fix`` fixes. ``unsafe`` None (the API):
    the removals only."""
    kept = []
    for result in results:
        if not _empties(result):
            kept.append(result)
            continue
        findings = [
            f.with_fix(None) if f.fix is not None and _refused(f.fix, unsafe) else f
            for f in result.findings
        ]
        kept.append(replace(result, findings=findings))
    return kept


def _refused(fix: FindingFix, unsafe: bool | None) -> bool:
    """Whether ``--fix`` (with ``unsafe``: ``--unsafe-fixes``; None: the API, which
    applies none) leaves ``fix`` unapplied in a file whose fixes would empty it."""
    if unsafe is None:
        return _removing(fix)
    return unsafe or not fix.is_safe


def _removing(fix: FindingFix) -> bool:
    """Whether ``fix`` removes a whole entry (``fix.model.remove_element`` without an
    entry that stays)."""
    return any(e.target == "element" and not e.end_line for e in fix.edits)


def _empties(result: FileResult) -> bool:
    """Whether the fixes of ``result`` remove every entry of a urlset that lists a URL
    (``result.urls``), or every entry of a sitemap index (``result.sitemaps``, which the
    gate sees as a new ST008)."""
    if result.kind == "urlset":
        entries = result.urls
    elif result.kind == "sitemapindex":
        entries = result.sitemaps
    else:
        return False
    if not entries:
        return False
    removed = {
        (e.line, e.column)
        for f in result.findings
        if f.fix is not None and _removing(f.fix)
        for e in f.fix.edits
        if e.target == "element"
    }
    return len(removed) >= entries


def resolved(results: list[FileResult], sources: Mapping[str, Source]) -> list[FileResult]:
    """``results`` with every fix made exact against its file's text: a fix whose
    edits do not fit (or of a file that cannot be read again, or that ``--fix`` leaves
    as it is) is dropped. A file is read again whatever its size: only its text tells
    whether a fix fits (a duplicate entry says no more than the first one, a value holds
    no CDATA section or comment), and a report counts as fixable what ``--fix`` fixes.
    Each finding is replaced in its list, so that a report of a million findings does
    not hold them twice."""
    for result in results:
        findings = result.findings
        if not any(f.fix is not None for f in findings):
            continue
        source = sources.get(result.name)
        # Whether --fix fixes the file is found a piece at a time, its text not held:
        # a file it leaves (a gzip bomb inflating past its limit) is never held whole.
        if source is None or not _fixed(source):  # the fixes cannot be applied
            _place(findings, range(len(findings)), None)
        elif not all(f.fix is None or f.fix.exact for f in findings):
            # The places of the fixes that are not exact yet are found in the text.
            _placed(findings, source)
    return results


# Lines read past the last line a fix not exact yet names: the elements it removes end
# there (a fix that does not fit the text read so far is tried again on the whole text).
_LINES_PAST = 1000


def _placed(findings: list[Finding], source: Source) -> None:
    """Make the fixes of ``findings`` not exact yet exact against the file's text
    (``source``, which ``--fix`` fixes), or drop those that do not fit it. The text is
    read up to a little past the last line they name: a large file whose fixes are
    mostly exact already (the fast path's) is not held whole."""
    from sitemap_lint.fix.engine import leading_text
    from sitemap_lint.fix.locate import Text

    waiting = [i for i, f in enumerate(findings) if f.fix is not None and not f.fix.exact]
    last = max(max(edit.line, edit.end_line) for i in waiting for edit in _edits(findings[i]))
    content = leading_text(source, last + _LINES_PAST)
    if content is not None:
        text = Text(content)
        unplaced = []
        for i in waiting:
            placed = _exact(findings[i], text)
            if placed.fix is None:  # it does not fit the text read so far
                unplaced.append(i)
            else:
                findings[i] = placed
        if not unplaced:
            return
        waiting = unplaced  # the whole text decides
    content = _fixed_text(source)
    if content is None:
        _place(findings, range(len(findings)), None)
    else:
        _place(findings, waiting, Text(content))


def _place(findings: list[Finding], indexes: Iterable[int], text: object) -> None:
    """``_exact`` of ``findings`` at ``indexes``, in place."""
    for i in indexes:
        findings[i] = _exact(findings[i], text)


def _edits(finding: Finding) -> tuple[Edit, ...]:
    return () if finding.fix is None else finding.fix.edits


def _fixed(source: Source) -> bool:
    """Whether ``--fix`` fixes ``source`` (``_fixed_text`` gives a text), without its
    text held whole."""
    from sitemap_lint.fix.engine import MAX_FIX_BYTES, decodes

    if (source.is_stdin and source.data is None) or _stored_size(source) > MAX_FIX_BYTES:
        return False
    return decodes(source)


def _fixed_text(source: Source) -> str | None:
    """The text ``--fix`` would fix in ``source`` (not its bytes, which a large file
    would hold twice over), or None when it is not fixed or cannot be read again."""
    from sitemap_lint.fix.engine import MAX_FIX_BYTES, decode, read_source
    from sitemap_lint.inputs.reader import InputError

    if (source.is_stdin and source.data is None) or _stored_size(source) > MAX_FIX_BYTES:
        return None
    try:
        decoded = decode(read_source(source))
    except InputError:
        return None
    return None if isinstance(decoded, str) else decoded.text


def _stored_size(source: Source) -> int:
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
        for r in found:
            line, column = text.position(r.start)
            end_line, end_column = text.position(r.end)
            edits.append(Edit(line, column, r.content, "span", end_line, end_column))
        if edit.target in ("bom", "encoding"):
            # What no span says: the bytes change too (the mark dropped, UTF-8 written).
            edits.append(Edit(1, 1, "", edit.target, 1, 1))
    fix = FindingFix(finding.fix.applicability, finding.fix.message, tuple(edits))
    return finding.with_fix(fix)
