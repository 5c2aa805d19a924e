"""The default report for a person: findings grouped by file, then a summary.

Under each file's heading a finding reads ``line:col  severity  CODE  message
[name]``. On a terminal, messages wrap to its width with a hanging indent under the
start of the message; anywhere else (a pipe, a file) a finding stays on one line, so
``grep`` and log viewers see it whole and the output does not depend on a width.
The summary counts findings by severity; ``--statistics`` adds a table of findings
per rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.text import Text

from sitemap_lint.finding import Finding, Severity
from sitemap_lint.report.base import FileReport, Reporter, Summary

STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
SEVERITY_WIDTH = max(len(str(level)) for level in Severity)
MIN_MESSAGE_WIDTH = 30  # narrower than this after the hanging indent: start on a line of its own
NARROW_INDENT = 6


class TextReporter(Reporter):
    def __init__(
        self,
        out: TextIO,
        color: bool | None = None,
        summary: bool = True,
        statistics: bool = False,
        width: int | None = None,
    ):
        super().__init__(out, color, summary, statistics)
        # Wrap messages to this many columns; None: the terminal's width on a
        # terminal, no wrapping anywhere else.
        self.width = width

    def report(self, results: Sequence[FileReport]) -> None:
        terminal = _is_terminal(self.out)
        console = Console(
            file=self.out,
            highlight=False,
            soft_wrap=True,
            force_terminal=self.color,
            no_color=None if self.color is None else not self.color,
            width=self.width,
        )
        wrap = self.width or (console.width if terminal else None)
        for result in results:
            in_set = result.kind is not None or result.urls is not None
            if not result.findings:
                if in_set and self.summary:  # a set report has a section for every file
                    line = Text(result.name, style="bold underline")
                    line.append(f"  no problems found{_urls(result)}", style="green")
                    console.print(line)
                    console.print()
                continue
            header = Text(result.name, style="bold underline")
            if in_set:
                header.append(_urls(result), style="dim")
            console.print(header)
            _print_findings(console, result.findings, wrap)
            console.print()
        if self.summary:
            if self.statistics:
                _statistics(console, results)
            console.print(_totals(Summary.of(results)))


def _print_findings(console: Console, findings: Sequence[Finding], wrap: int | None) -> None:
    """One finding per line, ``line:col`` first; with ``wrap``, longer messages
    continue on further lines indented to where the message starts."""
    positions = [f"{f.line}:{f.column}" for f in findings]
    position_width = max(map(len, positions))
    code_width = max(len(f.code) for f in findings)
    for finding, position in zip(findings, positions, strict=True):
        prefix = Text("  ")
        prefix.append(position.ljust(position_width), style="bold")
        prefix.append("  ")
        prefix.append(str(finding.severity).ljust(SEVERITY_WIDTH), style=STYLES[finding.severity])
        prefix.append("  ")
        prefix.append(finding.code.ljust(code_width), style="bold")
        prefix.append("  ")
        message = Text(finding.message.replace("\r\n", "\n").replace("\r", "\n"))
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
            console.print((prefix if i == 0 else Text(" " * indent)) + line)


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
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
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
        return f" ({result.urls:,} URL{'s' if result.urls != 1 else ''})"
    return f" ({result.kind})" if result.kind else ""
