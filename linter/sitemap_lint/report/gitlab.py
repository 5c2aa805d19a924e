"""GitLab Code Quality: a JSON array of issues for the merge request widget.

Each issue has ``description``, ``check_name`` (the rule code), a ``fingerprint``
that is stable from run to run and unique in the report (GitLab keeps only the
first issue of a fingerprint), ``severity`` (error -> ``major``, warning ->
``minor``, info -> ``info``) and ``location`` with the path relative to the working
directory (the checkout, in a CI job) and ``lines.begin``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from json.encoder import encode_basestring

from sitemap_lint.finding import Finding, Severity
from sitemap_lint.report.base import FileReport, Reporter
from sitemap_lint.report.common import ci_path, fingerprints, write_items
from sitemap_lint.report.json import encode
from sitemap_lint.support.printable import encodable_json

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


class GitlabReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        paths = {id(result): encode_basestring(ci_path(result.name)) for result in results}
        issues = (
            issue_text(paths[id(result)], finding, fingerprint, "  ")
            for result, finding, fingerprint in fingerprints(results)
        )
        write_items(issues, "", lambda piece: self.out.write(encodable_json(piece)))
        self.out.write("\n")


def issue_text(path: str, finding: Finding, fingerprint: str, indent: str) -> str:
    """One issue at the indentation ``indent``, from pieces fixed by the indentation
    (``_pieces``): the object of its description, check name, fingerprint, severity and
    location, in that order. ``path`` is encoded already (a JSON string)."""
    p = _pieces(indent)
    line: object = finding.line
    if type(line) is not int:
        line = encode(line, p.line_indent)
    return (
        f"{p.description}{encode_basestring(f'{finding.code}: {finding.message}')}"
        f"{p.check_name}{encode_basestring(finding.code)}"
        f"{p.fingerprint}{encode_basestring(fingerprint)}"
        f"{p.severity}{encode_basestring(SEVERITIES[finding.severity])}"
        f"{p.path}{path}{p.begin}{line}{p.end}"
    )


@dataclass(frozen=True)
class _Pieces:
    """The fixed text of an issue at one indentation, before each of its values."""

    description: str
    check_name: str
    fingerprint: str
    severity: str
    path: str
    begin: str
    line_indent: str
    end: str


@cache
def _pieces(indent: str) -> _Pieces:
    i1, i2, i3 = (indent + "  " * depth for depth in (1, 2, 3))
    return _Pieces(
        description=f'{{\n{i1}"description": ',
        check_name=f',\n{i1}"check_name": ',
        fingerprint=f',\n{i1}"fingerprint": ',
        severity=f',\n{i1}"severity": ',
        path=f',\n{i1}"location": {{\n{i2}"path": ',
        begin=f',\n{i2}"lines": {{\n{i3}"begin": ',
        line_indent=i3,
        end=f"\n{i2}}}\n{i1}}}\n{indent}}}",
    )
