"""The concise report: ``path:line:col: CODE message``, one line per finding, nothing else.

The form editors and ``grep`` understand; a clean run prints nothing. A message's line
breaks become spaces; control and format characters in a file name or a message are
written as escapes (``support.printable``), so none reaches the terminal as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitemap_lint.report.base import FileReport, Reporter
from sitemap_lint.report.common import one_line
from sitemap_lint.support.printable import printable


class ConciseReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        for result in results:
            path = printable(result.name)
            for f in result.findings:
                message = printable(one_line(f.message))
                self.out.write(f"{path}:{f.line}:{f.column}: {f.code} {message}\n")
