"""The default report for a person: findings grouped by file, then a summary.

Under each file's heading a finding reads ``line:col  severity  CODE  message
[name]``. On a terminal, messages wrap to its width with a hanging indent under the
start of the message; anywhere else (a pipe, a file) a finding stays on one line, so
``grep`` and log viewers see it whole and the output does not depend on a width.
The summary counts findings by severity; ``--statistics`` adds a table of findings
per rule.

With ``source`` (on unless ``--no-show-source``), each finding is followed by its
source line and a caret under the column (and, when the line holds more than one
entry, as in a minified sitemap, the element's pointer after the message)::

  3:12  error    UR001  URL '/about' is relative; ...  [url-not-absolute]
      3 |   <url><loc>/about</loc></url>
        |            ^

A line longer than the room (``WHOLE_LINE`` characters, less on a narrow terminal)
is cut to an excerpt around the column, marked with ``…`` where it was cut. The
file's text never reaches the terminal as it is: a tab is shown as one space (it is
one column), and other control characters, format characters (bidirectional
controls, zero-width ones) and line separators as escapes such as ``\x1b`` or
``\u202e``; the caret is placed by the width the line takes on screen, so it stays
under its character, and is as wide as that character's escape. File names and
messages are shown the same way (``support.printable``), a tab in them as ``\x09``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from sitemap_lint.finding import Finding, Severity
from sitemap_lint.inputs.lines import AROUND, WHOLE_LINE, SourceLine
from sitemap_lint.report.base import (
    FileReport,
    Reporter,
    Summary,
    applicable,
    by_frequency,
    plural,
)
from sitemap_lint.support.pipes import pipe_console
from sitemap_lint.support.printable import printable, printable_lines

SourceLines = Callable[[FileReport], Mapping[int, SourceLine]]
"""The source lines of a file's findings, by line number (missing: none to show)."""

STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
SEVERITY_WIDTH = max(len(str(level)) for level in Severity)
MIN_MESSAGE_WIDTH = 30  # narrower than this after the hanging indent: start on a line of its own
NARROW_INDENT = 6
SOURCE_INDENT = 4  # before the line number of a source line
MIN_EXCERPT = 20  # the fewest characters of a source line shown on a narrow terminal
ELLIPSIS = "…"
BATCH = 3_000  # lines written at once where nothing is styled or wrapped


class TextReporter(Reporter):
    def __init__(
        self,
        out: TextIO,
        color: bool | None = None,
        summary: bool = True,
        statistics: bool = False,
        width: int | None = None,
        source: SourceLines | None = None,
    ):
        super().__init__(out, color, summary, statistics)
        # Wrap messages to this many columns; None: the terminal's width on a
        # terminal, no wrapping anywhere else.
        self.width = width
        # The source lines to show under the findings; None: show none.
        self.source = source

    def report(self, results: Sequence[FileReport]) -> None:
        terminal = _is_terminal(self.out)
        console = pipe_console(
            file=self.out,
            highlight=False,
            soft_wrap=True,
            force_terminal=self.color,
            no_color=None if self.color is None else not self.color,
            width=self.width,
        )
        wrap = self.width or (console.width if terminal else None)
        for result in results:
            in_set = getattr(result, "site", False)  # results.FileResult.site
            if not result.findings:
                if in_set and self.summary:  # a set report has a section for every file
                    line = Text(printable(result.name), style="bold underline")
                    line.append(f"  no problems found{_urls(result)}", style="green")
                    console.print(line)
                    console.print()
                continue
            header = Text(printable(result.name), style="bold underline")
            if in_set:
                header.append(_urls(result), style="dim")
            console.print(header)
            lines = self.source(result) if self.source is not None else None
            _print_findings(console, result.findings, wrap, lines, self._unsafe)
            console.print()
        if self.summary:
            if self.statistics:
                _statistics(console, results)
            console.print(_totals(Summary.of(results)))
            if self.run is not None and self.run.baseline is not None:
                console.print(_baseline(*self.run.baseline))
            fixes = _fixes(results, self._unsafe)
            if fixes is not None:
                console.print(fixes)

    @property
    def _unsafe(self) -> bool:
        return self.run is not None and self.run.unsafe_fixes


def _printer(console: Console, wrap: int | None) -> Callable[[Text | None], None]:
    """``console.print``, or where nothing is styled or wrapped (not a terminal, no
    colour forced) a writer of the line's plain text: the same characters without
    rich's rendering of each line, most of the time of a report of 50,000 findings
    with their source. A line with a tab (which rich expands) still goes to rich."""
    styled = wrap is not None or console.color_system is not None
    write = console.file.write

    def emit(text: Text | None) -> None:
        if text is None and styled:
            console.print()
        elif text is None:
            write("\n")
        elif styled or "\t" in text.plain:
            console.print(text)
        else:
            write(text.plain + "\n")

    return emit


def _print_findings(
    console: Console,
    findings: Sequence[Finding],
    wrap: int | None,
    lines_of: Mapping[int, SourceLine] | None = None,
    unsafe: bool = False,
) -> None:
    """One finding per line, ``line:col`` first; with ``wrap``, longer messages
    continue on further lines indented to where the message starts. With ``lines_of``,
    a finding whose line is known is followed by it, a caret and a blank line."""
    positions = [f"{f.line}:{f.column}" for f in findings]
    position_width = max(map(len, positions))
    code_width = max(len(f.code) for f in findings)
    number_width = max(
        (len(str(f.line)) for f in findings if lines_of and f.line in lines_of), default=0
    )
    pointed = _pointed(findings, lines_of)
    emit = _printer(console, wrap)
    plain = wrap is None and console.color_system is None  # what _printer writes as text
    # Where nothing is styled or wrapped, the lines are gathered and written a batch at
    # a time; a line that goes through rich writes the batch before it.
    batch: list[str] = []
    write = batch.append

    def flush() -> None:
        if batch:
            console.file.write("".join(batch))
            batch.clear()

    levels = [""] * (max(Severity) + 1)  # by rank: a dict would hash each level in Python
    for level in Severity:
        levels[level] = str(level).ljust(SEVERITY_WIDTH)
    codes: dict[str, str] = {}
    for index, (finding, position) in enumerate(zip(findings, positions, strict=True)):
        if index and lines_of and findings[index - 1].line in lines_of:
            # a finding with its source is a block of its own
            if plain:
                write("\n")
            else:
                emit(None)
        if plain and _written_plainly(finding.message):
            # The characters the Text below would give, without building it: a report of
            # 50,000 findings with their source spent most of its time there.
            fixable = "[*] " if applicable(finding, unsafe) else ""
            at = f"  at {finding.xpath}" if index in pointed else ""
            code = codes.get(finding.code)
            if code is None:
                code = codes[finding.code] = finding.code.ljust(code_width)
            write(
                f"  {position.ljust(position_width)}  {levels[finding.severity]}  {code}  "
                f"{fixable}{f'{finding.message}{at}  [{finding.name}]'.rstrip()}\n"
            )
            if lines_of is not None and finding.line in lines_of:
                _write_source(write, finding, lines_of[finding.line], number_width)
            if len(batch) >= BATCH:
                flush()
            continue
        flush()
        prefix = Text("  ")
        prefix.append(position.ljust(position_width), style="bold")
        prefix.append("  ")
        prefix.append(str(finding.severity).ljust(SEVERITY_WIDTH), style=STYLES[finding.severity])
        prefix.append("  ")
        prefix.append(finding.code.ljust(code_width), style="bold")
        prefix.append("  ")
        if applicable(finding, unsafe):
            prefix.append("[*] ", style="bold cyan")
        shown = printable_lines(finding.message)
        message = Text(shown.replace("\r\n", "\n").replace("\r", "\n"))
        if index in pointed:
            message.append(f"  at {finding.xpath}")
        message.append(f"  [{finding.name}]", style="dim")
        indent = prefix.cell_len
        if wrap is None:
            lines = list(message.split("\n", allow_blank=True))
        elif wrap - indent >= MIN_MESSAGE_WIDTH:
            lines = list(message.wrap(console, wrap - indent, overflow="fold"))
        else:  # too narrow to hang under the prefix: the message goes below it
            prefix.rstrip()
            console.print(prefix)
            prefix = Text(" " * NARROW_INDENT)
            indent = NARROW_INDENT
            lines = list(message.wrap(console, max(wrap - indent, 1), overflow="fold"))
        for i, line in enumerate(lines):
            line.rstrip()
            emit((prefix if i == 0 else Text(" " * indent)) + line)
        if lines_of is not None and finding.line in lines_of:
            _print_source(emit, finding, lines_of[finding.line], number_width, wrap)
    flush()


def _pointed(findings: Sequence[Finding], lines_of: Mapping[int, SourceLine] | None) -> set[int]:
    """The findings whose element pointer is printed: those on a line that holds more
    than one entry (findings of two entries there, or a line too long to show whole,
    as in a minified sitemap)."""
    first: dict[int, str] = {}  # the pointer of a line's first finding
    shared: set[int] = set()  # the lines with findings of more than one entry
    for finding in findings:
        if finding.xpath:
            seen = first.setdefault(finding.line, finding.xpath)
            if seen != finding.xpath and _entry_of(seen) != _entry_of(finding.xpath):
                shared.add(finding.line)
    pointed = set()
    for index, finding in enumerate(findings):
        if not finding.xpath:
            continue
        source = lines_of.get(finding.line) if lines_of else None
        if finding.line in shared or (source is not None and source.length > WHOLE_LINE):
            pointed.add(index)
    return pointed


def _entry_of(xpath: str) -> str:
    """The entry part of a pointer: ``/urlset/url[6]`` of ``/urlset/url[6]/priority``."""
    parts = xpath.split("/", 3)
    return "/".join(parts[:3])


def _print_source(
    emit: Callable[[Text | None], None],
    finding: Finding,
    line: SourceLine,
    number_width: int,
    wrap: int | None,
) -> None:
    """The finding's source line (or an excerpt of it) and a caret under its column."""
    gutter = SOURCE_INDENT + number_width + 3
    room = WHOLE_LINE if wrap is None else max(min(WHOLE_LINE, wrap - gutter - 2), MIN_EXCERPT)
    shown, offset, width = excerpt(line, finding.column, room)
    text = Text(" " * SOURCE_INDENT)
    text.append(str(finding.line).rjust(number_width), style="dim")
    text.append(" | ", style="dim")
    text.append(shown)
    emit(text)
    caret = Text(" " * (SOURCE_INDENT + number_width))
    caret.append(" | ", style="dim")
    caret.append(" " * offset)
    caret.append("^" * width, style=STYLES[finding.severity])
    emit(caret)


def _written_plainly(message: str) -> bool:
    """Whether a message's line is written without rich where nothing is styled or
    wrapped: it holds no line break, tab or control code to split, expand or strip."""
    return message.isprintable()


def _write_source(
    write: Callable[[str], object], finding: Finding, line: SourceLine, number_width: int
) -> None:
    """``_print_source`` where nothing is styled or wrapped: its lines' characters."""
    shown, offset, width = excerpt(line, finding.column, WHOLE_LINE)
    number = str(finding.line).rjust(number_width)
    write(
        f"{' ' * SOURCE_INDENT}{number} | {shown}\n"
        f"{' ' * (SOURCE_INDENT + number_width)} | {' ' * offset}{'^' * width}\n"
    )


def excerpt(line: SourceLine, column: int, room: int = WHOLE_LINE) -> tuple[str, int, int]:
    """What to show of ``line`` for a finding at ``column``: the text (escaped, cut
    around the column with ``…`` when the line is longer than ``room`` characters),
    where the caret goes (in cells from the start of the text) and its width."""
    column = min(max(column, 1), line.length + 1)  # just past the end: after the line
    if line.length <= room:
        first, last = 1, line.length
    else:
        half = min(room, 2 * AROUND) // 2
        first = max(1, column - half)
        last = min(line.length, first + 2 * half - 1 if first == 1 else column + half - 1)
    text = line.text(first, last)
    lead = ELLIPSIS if first > 1 else ""
    trail = ELLIPSIS if last < line.length else ""
    if text.isprintable():  # the usual line: nothing to escape (no tab either)
        cut = column - first
        if text.isascii():  # a cell a character, the ellipsis too
            return lead + text + trail, len(lead) + min(cut, len(text)), 1
        return lead + text + trail, _cells(lead + text[:cut]), max(_cells(text[cut : cut + 1]), 1)
    before = lead + escape(text[: column - first])
    at = escape(text[column - first : column - first + 1])
    after = escape(text[column - first + 1 :]) + trail
    return before + at + after, _cells(before), max(_cells(at), 1)


def _cells(text: str) -> int:
    """The cells ``text`` (escaped: no control character) takes on a terminal."""
    return len(text) if text.isascii() else cell_len(text)


def escape(text: str) -> str:
    """``text`` safe to print: a tab as one space, other control and format characters
    and line separators as ``\\xNN`` or ``\\uNNNN``."""
    return printable(text.replace("\t", " "))


def _fixes(results: Sequence[FileReport], unsafe: bool) -> Text | None:
    """``[*] 3 fixable with --fix.`` and the unsafe fixes left out, as ruff says them."""
    fixable = hidden = 0
    for result in results:
        for finding in result.findings:
            if applicable(finding, unsafe):
                fixable += 1
            elif finding.fix is not None:
                hidden += 1
    if not fixable and not hidden:
        return None
    text = Text()
    if fixable:
        text.append("[*]", style="bold cyan")
        text.append(f" {fixable:,} fixable with --fix.")
    else:
        text.append("No fixes available.")
    if hidden:
        fixes = "fix" if hidden == 1 else "fixes"
        text.append(f" ({hidden:,} hidden {fixes} can be enabled with --unsafe-fixes.)")
    return text


def _baseline(matched: int, unseen: int) -> Text:
    """What ``--baseline`` left out, and what it recorded that the run no longer sees."""
    text = Text(f"{plural(matched, 'finding')} matched the baseline (not shown).")
    if unseen:
        were = "was" if unseen == 1 else "were"
        text.append(
            f" {plural(unseen, 'recorded finding')} {were} not seen "
            "again; --write-baseline refreshes the file."
        )
    return text


def _totals(summary: Summary) -> Text:
    """``2 files checked: 4 errors, 3 warnings, 1 info``, each count in its severity's colour."""
    text = Text(f"{summary.files_checked}: ")
    if not summary.counts:
        text.append("no problems found")
        text.stylize("green")
        return text
    for i, (level, words) in enumerate(summary.counts):
        if i:
            text.append(", ")
        text.append(words, style=STYLES[level])
    return text


def _statistics(console: Console, results: Sequence[FileReport]) -> None:
    """``--statistics``: findings per rule, most frequent first."""
    counts: Counter[str] = Counter()
    names: dict[str, str] = {}
    worst: dict[str, Severity] = {}
    for result in results:
        for finding in result.findings:
            counts[finding.code] += 1
            names.setdefault(finding.code, finding.name)
            worst[finding.code] = max(worst.get(finding.code, finding.severity), finding.severity)
    if not counts:
        return
    rows = by_frequency(counts)
    widths = (
        max(len("count"), *(len(str(count)) for _, count in rows)),
        max(len("code"), *(len(code) for code in counts)),
        max(len("name"), *(len(name) for name in names.values())),
    )
    console.print(Text("Findings by rule", style="bold"))
    header = Text("  ")
    for title, width in zip(("count", "code", "name"), widths, strict=True):
        padding = " " * (width - len(title))
        if title == "count":  # numbers are right-aligned, and so is their title
            header.append(padding)
        header.append(title, style="bold underline")
        header.append("  " if title == "count" else padding + "  ")
    header.append("severity", style="bold underline")
    console.print(header)
    for code, count in rows:
        level = worst[code]
        row = Text(f"  {count:>{widths[0]}}  ")
        row.append(code.ljust(widths[1]), style="bold")
        row.append(f"  {names[code].ljust(widths[2])}  ")
        row.append(str(level), style=STYLES[level])
        console.print(row)
    console.print()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _urls(result: FileReport) -> str:
    if result.urls is not None:
        return f" ({plural(result.urls, 'URL')})"
    return f" ({result.kind})" if result.kind else ""
