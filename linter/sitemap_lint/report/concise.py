"""The concise report: ``path:line:col: CODE message``, one line per finding, nothing else.

The form editors and ``grep`` understand; a clean run prints nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitemap_lint.report.base import FileReport, Reporter
from sitemap_lint.report.common import one_line


class ConciseReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        for result in results:
            path = one_line(result.name)
            for f in result.findings:
                self.out.write(f"{path}:{f.line}:{f.column}: {f.code} {one_line(f.message)}\n")
