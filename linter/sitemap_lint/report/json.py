"""The JSON report: one document on stdout, a stable interface (``version`` 1)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sitemap_lint._version import __version__
from sitemap_lint.finding import Finding
from sitemap_lint.report.base import FileReport, Reporter, Summary

FORMAT_VERSION = 1


class JsonReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        summary = Summary.of(results)
        document = {
            "version": FORMAT_VERSION,
            "tool": {"name": "sitemap-lint", "version": __version__},
            "files": [
                {
                    "path": result.name,
                    **_set_fields(result),
                    "findings": [
                        {
                            "code": f.code,
                            "name": f.name,
                            "severity": str(f.severity),
                            "message": f.message,
                            "line": f.line,
                            "column": f.column,
                            **_fix(f),
                        }
                        for f in result.findings
                    ],
                }
                for result in results
            ],
            "summary": {
                "files": summary.files,
                "errors": summary.errors,
                "warnings": summary.warnings,
                "infos": summary.infos,
                **({"urls": summary.urls} if summary.urls is not None else {}),
                "rules": {rule.split(" ", 1)[0]: count for rule, count in summary.by_rule.items()},
            },
        }
        json.dump(document, self.out, ensure_ascii=False, indent=2)
        self.out.write("\n")


def _fix(finding: Finding) -> dict[str, object]:
    """``"fix"`` when the finding has one: how safe, what it does, and its edits
    (positions 1-based, the end exclusive); present only on fixable findings."""
    if finding.fix is None:
        return {}
    edits = []
    for edit in finding.fix.edits:
        shown: dict[str, object] = {
            "content": edit.content,
            "location": {"line": edit.line, "column": edit.column},
            "end_location": {"line": edit.end_line, "column": edit.end_column},
        }
        if edit.target != "span":  # a change of the bytes only: "bom" or "encoding"
            shown["target"] = edit.target
        edits.append(shown)
    return {
        "fix": {
            "applicability": str(finding.fix.applicability),
            "message": finding.fix.message,
            "edits": edits,
        }
    }


def _set_fields(result: FileReport) -> dict[str, object]:
    """In a set run: what the file is and how many URLs it lists."""
    fields: dict[str, object] = {}
    if result.kind is not None:
        fields["kind"] = result.kind
    if result.urls is not None:
        fields["urls"] = result.urls
    return fields
