"""GitLab Code Quality: a JSON array of issues for the merge request widget.

Each issue has ``description``, ``check_name`` (the rule code), a ``fingerprint``
that is stable from run to run and unique in the report (GitLab keeps only the
first issue of a fingerprint), ``severity`` (error -> ``major``, warning ->
``minor``, info -> ``info``) and ``location`` with the path relative to the working
directory (the checkout, in a CI job) and ``lines.begin``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitemap_lint.finding import Severity
from sitemap_lint.report.base import FileReport, Reporter
from sitemap_lint.report.common import ci_path, fingerprints
from sitemap_lint.report.json import write
from sitemap_lint.support.printable import encodable_json

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


class GitlabReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        paths = {id(result): ci_path(result.name) for result in results}
        issues = (
            {
                "description": f"{finding.code}: {finding.message}",
                "check_name": finding.code,
                "fingerprint": fingerprint,
                "severity": SEVERITIES[finding.severity],
                "location": {
                    "path": paths[id(result)],
                    "lines": {"begin": finding.line},
                },
            }
            for result, finding, fingerprint in fingerprints(results)
        )
        write(issues, "", lambda piece: self.out.write(encodable_json(piece)))
        self.out.write("\n")
