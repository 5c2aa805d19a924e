"""The concise report: ``path:line:col: CODE message``, one line per finding, nothing else.

The form editors and ``grep`` understand; a clean run prints nothing.
"""

from __future__ import annotations

from sitemap_lint.report.base import Reporter
from sitemap_lint.report.common import one_line
from sitemap_lint.results import FileResult


class ConciseReporter(Reporter):
    def report(self, results: list[FileResult]) -> None:
        for result in results:
            path = one_line(result.name)
            for f in result.findings:
                self.out.write(f"{path}:{f.line}:{f.column}: {f.code} {one_line(f.message)}\n")
