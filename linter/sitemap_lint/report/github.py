"""GitHub Actions workflow commands: one annotation per finding.

``::error file=PATH,line=L,col=C,title=CODE name::message``; warnings become
``::warning`` and infos ``::notice``. Values are escaped as the Actions toolkit
(``@actions/core``) escapes them, so a ``%``, a line break, or a ``:`` or ``,`` in a
file name cannot end a value early; other control and format characters in a file
name or a message (an escape sequence, a bidirectional control) are written as
escapes (``support.printable``), as the toolkit's escaping cannot carry them. Paths
are relative to the working directory, which in a workflow is the checkout; a fetched
sitemap has no file there, and its annotations start their message with its URL, line
and column (``https://example.com/sitemap-2.xml:3:8: ...``); standard input read
without ``--stdin-filename`` has none either, and its messages start with
``<stdin>:3:8:`` as a compiler's do. GitHub shows at most 10
annotations of each kind per step: past that, a notice comes first that says how many
there are and where all of them are listed (the step's log).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from sitemap_lint.finding import Severity
from sitemap_lint.report.base import FileReport, Reporter
from sitemap_lint.report.common import STDIN, ci_path, is_fetched
from sitemap_lint.support.printable import printable_lines

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """The toolkit's ``escapeData``: the message after ``::``."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """The toolkit's ``escapeProperty``: a ``key=value`` before ``::``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


# Where a message says it is from when no file of the checkout can carry it.
STDIN_LABEL = "<stdin>"

# Annotations of one kind that GitHub shows for a step; the rest are in its log only.
SHOWN_PER_KIND = 10


class GithubReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        counts = Counter(f.severity for result in results for f in result.findings)
        if any(count > SHOWN_PER_KIND for count in counts.values()):
            kinds = ", ".join(
                f"{counts[severity]:,} {COMMANDS[severity]}"
                for severity in COMMANDS
                if counts[severity]
            )
            self.out.write(
                f"::notice title=sitemap-lint::{escape_data(kinds)} annotations; GitHub "
                f"shows at most {SHOWN_PER_KIND} of each kind for a step: the step's log "
                "lists them all\n"
            )
        for result in results:
            path = printable_lines(ci_path(result.name))
            # A file of the repository only: not standard input, nor a fetched URL, whose
            # findings say in the message which sitemap they are about (many may be
            # fetched: the children of an index).
            in_file = path != STDIN and not is_fetched(path)
            where = "" if in_file else f"{STDIN_LABEL if path == STDIN else path}:"
            for f in result.findings:
                properties = [("file", path)] if in_file else []
                properties += [
                    ("line", str(f.line)),
                    ("col", str(f.column)),
                    ("title", f"{f.code} {f.name}"),
                ]
                joined = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
                message = printable_lines(f.message)
                if where:
                    message = f"{where}{f.line}:{f.column}: {message}"
                self.out.write(f"::{COMMANDS[f.severity]} {joined}::{escape_data(message)}\n")
