"""SARIF 2.1.0, as GitHub code scanning reads it.

One run. ``tool.driver.rules`` describes every rule that has a result, sorted by
code, with its summary, documentation (text and Markdown) and default level. Each
result names its rule (``ruleId``, ``ruleIndex``), its level, the message, and one
location: the file relative to the working directory (``uriBaseId`` ``%SRCROOT%``,
forward slashes, symlinks resolved, percent-encoded), or an absolute ``file:`` URI
for a file outside it. The region is the one character at the finding's line and
column (columns count Unicode code points). ``partialFingerprints`` carries a hash
that stays the same from run to run. No timestamps or absolute paths of the
working directory are written, so the same inputs give the same bytes.

GitHub's requirements: ``sarif-support.md`` in github/docs ("Supported properties").
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sitemap_lint._version import __version__
from sitemap_lint.domain.urls import encoded
from sitemap_lint.finding import Finding, Rule, Severity
from sitemap_lint.report.base import FileReport, Reporter
from sitemap_lint.report.common import (
    STDIN,
    ci_path,
    doc_sections,
    fingerprints,
    is_fetched,
    markdown_to_text,
    one_paragraph,
    truncate,
)
from sitemap_lint.report.json import write
from sitemap_lint.support.printable import encodable_json

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "sitemapLint/v1"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
PROBLEM_SEVERITIES = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "recommendation",
}
DESCRIPTION_LIMIT = 1024  # GitHub's limit for shortDescription.text and fullDescription.text
NAME_LIMIT = 255  # GitHub's limit for reportingDescriptor.name


class SarifReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        examples: dict[str, Finding] = {}  # the first finding of each rule
        for result in results:
            for finding in result.findings:
                examples.setdefault(finding.code, finding)
        codes = sorted(examples)
        index = {code: i for i, code in enumerate(codes)}
        locations = {id(result): artifact_location(result.name) for result in results}
        run = {
            "tool": {
                "driver": {
                    "name": "sitemap-lint",
                    "version": __version__,
                    "semanticVersion": __version__,
                    "rules": [rule_descriptor(code, examples[code]) for code in codes],
                }
            },
            "originalUriBaseIds": {
                SRCROOT: {
                    "description": {
                        "text": "The working directory sitemap-lint ran in; "
                        "file URIs are relative to it."
                    }
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": (
                sarif_result(locations[id(result)], finding, index[finding.code], fingerprint)
                for result, finding, fingerprint in fingerprints(results)
            ),
        }
        log = {"$schema": SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}
        write(log, "", lambda piece: self.out.write(encodable_json(piece)))
        self.out.write("\n")


def rule_descriptor(code: str, example: Finding) -> dict[str, Any]:
    """The ``reportingDescriptor`` for ``code``, from the registry's documentation."""
    from sitemap_lint.rules import FAMILIES, RULES

    rule = RULES.get(code)
    if rule is None:  # a code the registry does not know: describe it from the finding
        rule = Rule(example.code, example.name, example.severity, example.name, "")
    family = next(
        (title for title, module in FAMILIES if any(r.code == code for r in module.RULES)), None
    )
    sections = doc_sections(rule.doc)
    about = "\n\n".join(
        sections[title] for title in ("What it does", "Why is this bad?") if sections.get(title)
    )
    summary = rule.summary.rstrip(".") + "."
    full_text = truncate(one_paragraph(about), DESCRIPTION_LIMIT) if about else summary
    doc = rule.doc.strip()
    help_markdown = f"**{rule.code} {rule.name}**: {summary}\n\n{doc}".strip() + "\n"
    help_text = f"{rule.code} {rule.name}: {summary}\n\n{markdown_to_text(doc)}".strip() + "\n"
    tags = ["sitemap"] + ([family.lower()] if family else [])
    return {
        "id": rule.code,
        "name": truncate(rule.name, NAME_LIMIT),
        "shortDescription": {"text": truncate(summary, DESCRIPTION_LIMIT)},
        "fullDescription": {"text": full_text, "markdown": about or summary},
        "help": {"text": help_text, "markdown": help_markdown},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"tags": tags, "problem.severity": PROBLEM_SEVERITIES[rule.severity]},
    }


def sarif_result(
    location: dict[str, Any], finding: Finding, rule_index: int, fingerprint: str
) -> dict[str, Any]:
    line, column = max(finding.line, 1), max(finding.column, 1)  # SARIF counts from 1
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": LEVELS[finding.severity],
        "message": {"text": finding.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": location,
                    "region": {
                        "startLine": line,
                        "startColumn": column,
                        "endLine": line,
                        "endColumn": column + 1,
                    },
                },
                **(
                    {"logicalLocations": [{"fullyQualifiedName": finding.xpath, "kind": "element"}]}
                    if finding.xpath is not None
                    else {}
                ),
            }
        ],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
    }
    fixes = sarif_fixes(location, finding)
    if fixes:
        result["fixes"] = fixes
    return result


def sarif_fixes(location: dict[str, Any], finding: Finding) -> list[dict[str, Any]]:
    """The finding's fix as SARIF ``fixes``: one ``artifactChange`` whose replacements
    delete a region (end exclusive) and insert text. A fix that changes only bytes
    (the byte order mark, the encoding) has no text region and is left out."""
    if finding.fix is None:
        return []
    replacements = [
        {
            "deletedRegion": {
                "startLine": edit.line,
                "startColumn": edit.column,
                "endLine": edit.end_line,
                "endColumn": edit.end_column,
            },
            "insertedContent": {"text": edit.content},
        }
        for edit in finding.fix.edits
        if edit.target == "span"
    ]
    if not replacements:
        return []
    return [
        {
            "description": {"text": finding.fix.message},
            "artifactChanges": [{"artifactLocation": location, "replacements": replacements}],
            "properties": {"applicability": str(finding.fix.applicability)},
        }
    ]


def artifact_location(name: str) -> dict[str, Any]:
    """Where a file is: relative to ``%SRCROOT%`` (the working directory) when it is
    inside it, an absolute ``file:`` URI otherwise; a fetched sitemap's own URL."""
    if name == STDIN:
        return {"uri": STDIN, "description": {"text": "standard input"}}
    if is_fetched(name):
        return {"uri": encoded(name)}  # a URI: percent-encoded as the URL rules write one
    path = ci_path(name)
    if Path(path).is_absolute():
        return {"uri": Path(os.path.realpath(name)).as_uri()}
    # The name's own bytes, percent-encoded: a byte that is no UTF-8 too (os.fsencode).
    return {"uri": quote(os.fsencode(path), safe="/"), "uriBaseId": SRCROOT}
