"""The default report for a person: findings grouped by file, then a summary."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from sitemap_lint.finding import Severity
from sitemap_lint.report.base import Reporter, Summary
from sitemap_lint.results import FileResult

STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


class TextReporter(Reporter):
    def report(self, results: list[FileResult]) -> None:
        console = Console(
            file=self.out,
            highlight=False,
            soft_wrap=True,
            force_terminal=self.color,
            no_color=None if self.color is None else not self.color,
        )
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
            for finding in result.findings:
                line = Text("  ")
                line.append(f"{result.name}:{finding.line}:{finding.column}", style="bold")
                line.append("  ")
                line.append(f"{finding.severity!s:<7}", style=STYLES[finding.severity])
                line.append("  ")
                line.append(finding.code, style="bold")
                line.append(f"  {finding.message}")
                line.append(f"  [{finding.name}]", style="dim")
                console.print(line)
            console.print()
        if self.summary:
            self._summary(console, Summary.of(results))

    def _summary(self, console: Console, summary: Summary) -> None:
        files = summary.files_checked
        if not (summary.errors or summary.warnings or summary.infos):
            console.print(Text(f"{files}: no problems found", style="green"))
            return
        counts = Text(f"{files}: ")
        counts.append(
            f"{summary.errors} error(s)", style=STYLES[Severity.ERROR] if summary.errors else ""
        )
        counts.append(f", {summary.warnings} warning(s), {summary.infos} info")
        console.print(counts)
        for rule, count in summary.by_rule.items():
            console.print(Text(f"  {count:>6}  {rule}"))


def _urls(result: FileResult) -> str:
    if result.urls is not None:
        return f" ({result.urls:,} URL{'s' if result.urls != 1 else ''})"
    return f" ({result.kind})" if result.kind else ""
