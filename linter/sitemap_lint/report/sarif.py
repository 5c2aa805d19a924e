"""SARIF 2.1.0, as GitHub code scanning reads it.

One run. ``tool.driver.rules`` describes every rule that has a result, sorted by
code, with its summary, documentation (text and Markdown) and default level. Each
result names its rule (``ruleId``, ``ruleIndex``), its level, the message, and one
location: the file relative to the working directory (``uriBaseId`` ``%SRCROOT%``,
forward slashes, symlinks resolved, percent-encoded), or an absolute ``file:`` URI
for a file outside it. The region is the one character at the finding's line and
column (columns count Unicode code points). ``partialFingerprints`` carries a hash
that stays the same from run to run; a result carries its finding's fix (``fixes``),
except in a gzip file (named ``.gz``), whose fixes edit the decompressed text and would
corrupt the file's bytes if applied to them. The run's one ``invocation`` says whether it
succeeded and the status it exits with. No timestamps or absolute paths of the
working directory are written, so the same inputs give the same bytes.

GitHub's requirements: ``sarif-support.md`` in github/docs ("Supported properties").
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sitemap_lint._version import __version__
from sitemap_lint.domain.urls import encoded
from sitemap_lint.finding import Edit, Finding, FindingFix, Fix, Rule, Severity
from sitemap_lint.report.base import FileReport, Reporter, RunInfo
from sitemap_lint.report.common import (
    STDIN,
    ci_path,
    doc_sections,
    fingerprints,
    is_fetched,
    markdown_to_text,
    one_paragraph,
    truncate,
    write_items,
)
from sitemap_lint.report.json import encode, write
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


# The log around its results, as report.json.write writes {"$schema", "version",
# "runs": [run]}: the results come last in the run, streamed (``write_items``).
RUN_INDENT = "      "  # the members of the run
LOG_START = (
    f'{{\n  "$schema": {encode_basestring(SCHEMA_URI)},\n'
    f'  "version": {encode_basestring(SARIF_VERSION)},\n'
    f'  "runs": [\n    {{\n{RUN_INDENT}"tool": '
)
LOG_END = "\n    }\n  ]\n}\n"
ORIGINAL_URI_BASE_IDS = {
    SRCROOT: {
        "description": {
            "text": "The working directory sitemap-lint ran in; file URIs are relative to it."
        }
    }
}


# GitHub code scanning's limits on one run of a SARIF upload: past the first it refuses
# the file; of the results it takes, it keeps the first by severity.
CODE_SCANNING_MOST_RESULTS = 25_000
CODE_SCANNING_STORED = 5_000

# The status of a run that failed (``run.EXIT_TROUBLE``: a reporter does not import the run).
EXIT_TROUBLE = 2


class SarifReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        examples: dict[str, Finding] = {}  # the first finding of each rule
        for result in results:
            for finding in result.findings:
                examples.setdefault(finding.code, finding)
        codes = sorted(examples)
        driver = {
            "name": "sitemap-lint",
            "version": __version__,
            "semanticVersion": __version__,
            "rules": [rule_descriptor(code, examples[code]) for code in codes],
        }
        locations = {id(result): artifact_location(result.name) for result in results}
        # A compressed file's fixes edit its text, not its bytes: a consumer applying them
        # to the file would corrupt it (``--fix`` decompresses, edits and compresses).
        compressed = {id(result) for result in results if result.name.lower().endswith(".gz")}
        made = ResultTexts({code: i for i, code in enumerate(codes)}, RUN_INDENT + "  ")
        texts = (
            made.text(locations[id(result)], finding, fingerprint, id(result) not in compressed)
            for result, finding, fingerprint in fingerprints(results)
        )

        def out(piece: str) -> None:
            self.out.write(encodable_json(piece))

        out(LOG_START)
        write({"driver": driver}, RUN_INDENT, out)
        out(f',\n{RUN_INDENT}"invocations": ')
        write([invocation(self.run)], RUN_INDENT, out)
        out(f',\n{RUN_INDENT}"originalUriBaseIds": ')
        write(ORIGINAL_URI_BASE_IDS, RUN_INDENT, out)
        out(f',\n{RUN_INDENT}"columnKind": "unicodeCodePoints",\n{RUN_INDENT}"results": ')
        write_items(texts, RUN_INDENT, out)
        out(LOG_END)


def invocation(run: RunInfo | None) -> dict[str, Any]:
    """The run's one ``invocation``: whether it succeeded and, when the reporter knows it,
    the status it exits with. A report is written only when the inputs were read and
    checked (a run that cannot check one exits 2 and writes none); such a run still
    fails, with status 2, when ``--fix`` could not write a file, and a consumer then
    learns from ``executionSuccessful`` that the run did not end well (SARIF's
    appendix I), whatever its results."""
    if run is None:
        return {"executionSuccessful": True}
    return {"executionSuccessful": run.exit_code != EXIT_TROUBLE, "exitCode": run.exit_code}


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


class ResultTexts:
    """The text of each ``result`` of one log at the indentation ``indent``: made from
    pieces fixed by the indentation (``_pieces``) and the parts its results repeat,
    encoded once (the text up to the message, by rule and level; the text around a
    file's location; the end of a fix, by applicability), not from a dictionary of some
    forty values a finding. ``rule_index`` gives each code's place among the rules."""

    def __init__(self, rule_index: Mapping[str, int], indent: str) -> None:
        self.rule_index = rule_index
        self.p = _pieces(indent)
        self.heads: dict[tuple[str, int], str] = {}
        # By the id of a location, of an applicability: each kept with its text, so
        # that no other object takes its id while the texts are made.
        self.places: dict[int, tuple[dict[str, Any], str, str]] = {}
        self.fix_ends: dict[int, tuple[Fix, str]] = {}

    def text(
        self, location: dict[str, Any], finding: Finding, fingerprint: str, fixes: bool = True
    ) -> str:
        """The result of ``finding``; with its fix as SARIF ``fixes`` unless ``fixes`` is
        False (a compressed file's)."""
        p = self.p
        head = self.heads.get((finding.code, int(finding.severity))) or self._head(finding)
        place = self.places.get(id(location)) or self._place(location)
        line = finding.line
        if line < 1:  # SARIF counts from 1
            line = 1
        column = finding.column
        if column < 1:
            column = 1
        xpath = finding.xpath
        logical = "" if xpath is None else f"{p.logical}{encode_basestring(xpath)}{p.logical_end}"
        fix = "" if finding.fix is None or not fixes else self._fixes(finding.fix, place[2])
        return (
            f"{head}{encode_basestring(finding.message)}{place[1]}{line}"
            f"{p.start_column}{column}{p.end_line}{line}{p.end_column}{column + 1}"
            f"{p.region_end}{logical}{p.locations_end}"
            f"{encode_basestring(fingerprint)}{p.fingerprint_end}{fix}{p.end}"
        )

    def _head(self, finding: Finding) -> str:
        """The result's text up to its message: rule, rule index, level."""
        p = self.p
        head = self.heads[finding.code, int(finding.severity)] = (
            f"{p.rule}{encode_basestring(finding.code)}{p.index}{self.rule_index[finding.code]}"
            f"{p.level}{encode_basestring(LEVELS[finding.severity])}{p.message}"
        )
        return head

    def _place(self, location: dict[str, Any]) -> tuple[dict[str, Any], str, str]:
        """The text around the file's location: in the result, from the message's end
        to the region's start line; in a fix, from the description's end to the list
        of replacements."""
        p = self.p
        in_result = encode(location, p.location_indent)
        in_fix = encode(location, p.change_indent)
        place = self.places[id(location)] = (
            location,
            f"{p.artifact}{in_result}{p.start_line}",
            f"{p.change}{in_fix}{p.replacements}",
        )
        return place

    def _fixes(self, fix: FindingFix, place: str) -> str:
        """The finding's fix as SARIF ``fixes`` (after a comma): one ``artifactChange``
        whose replacements delete a region (end exclusive) and insert text; "" for a
        fix that changes the bytes (the byte order mark, the encoding), which no text
        region says. ``place`` is the text around the file's location."""
        p = self.p
        edits = fix.edits
        if len(edits) == 1:  # most fixes: no list to join
            edit = edits[0]
            if edit.target != "span":
                return ""
            replacements = (
                f"{p.deleted}{edit.line}{p.r_start_column}{edit.column}{p.r_end_line}"
                f"{edit.end_line}{p.r_end_column}{edit.end_column}{p.inserted}"
                f"{encode_basestring(edit.content)}{p.replacement_end}"
            )
        else:
            if any(edit.target != "span" for edit in edits):
                return ""  # its text replacements alone would not give the fixed file
            replacements = p.replacement_separator.join([_replacement(edit, p) for edit in edits])
            if not replacements:
                return ""
        end = self.fix_ends.get(id(fix.applicability))  # an enum's hash is Python code
        if end is None:
            applicability = encode_basestring(str(fix.applicability))
            text = f"{p.applicability}{applicability}{p.fixes_end}"
            end = self.fix_ends[id(fix.applicability)] = (fix.applicability, text)
        return f"{p.fixes}{encode_basestring(fix.message)}{place}{replacements}{end[1]}"


def _replacement(edit: Edit, p: _Pieces) -> str:
    """One ``replacement``: the region an edit deletes, and the text it inserts."""
    return (
        f"{p.deleted}{edit.line}{p.r_start_column}{edit.column}{p.r_end_line}{edit.end_line}"
        f"{p.r_end_column}{edit.end_column}{p.inserted}{encode_basestring(edit.content)}"
        f"{p.replacement_end}"
    )


@dataclass(frozen=True)
class _Pieces:
    """The fixed text of a result at one indentation, between its values."""

    rule: str
    index: str
    level: str
    message: str
    artifact: str
    location_indent: str
    start_line: str
    start_column: str
    end_line: str
    end_column: str
    region_end: str
    logical: str
    logical_end: str
    locations_end: str
    fingerprint_end: str
    end: str
    fixes: str
    change: str
    change_indent: str
    replacements: str
    deleted: str
    r_start_column: str
    r_end_line: str
    r_end_column: str
    inserted: str
    replacement_end: str
    replacement_separator: str
    applicability: str
    fixes_end: str


@cache
def _pieces(indent: str) -> _Pieces:
    i = [indent + "  " * depth for depth in range(12)]
    key = encode_basestring(FINGERPRINT_KEY)
    start_column, end_line, end_column = _after(i[5], "startColumn", "endLine", "endColumn")
    r_start_column, r_end_line, r_end_column = _after(i[8], "startColumn", "endLine", "endColumn")
    return _Pieces(
        rule=f'{{\n{i[1]}"ruleId": ',
        index=f',\n{i[1]}"ruleIndex": ',
        level=f',\n{i[1]}"level": ',
        message=f',\n{i[1]}"message": {{\n{i[2]}"text": ',
        artifact=(
            f'\n{i[1]}}},\n{i[1]}"locations": [\n{i[2]}{{\n{i[3]}"physicalLocation": '
            f'{{\n{i[4]}"artifactLocation": '
        ),
        location_indent=i[4],
        start_line=f',\n{i[4]}"region": {{\n{i[5]}"startLine": ',
        start_column=start_column,
        end_line=end_line,
        end_column=end_column,
        region_end=f"\n{i[4]}}}\n{i[3]}}}",
        logical=(f',\n{i[3]}"logicalLocations": [\n{i[4]}{{\n{i[5]}"fullyQualifiedName": '),
        logical_end=f',\n{i[5]}"kind": "element"\n{i[4]}}}\n{i[3]}]',
        locations_end=f'\n{i[2]}}}\n{i[1]}],\n{i[1]}"partialFingerprints": {{\n{i[2]}{key}: ',
        fingerprint_end=f"\n{i[1]}}}",
        end=f"\n{indent}}}",
        fixes=(f',\n{i[1]}"fixes": [\n{i[2]}{{\n{i[3]}"description": {{\n{i[4]}"text": '),
        change=(f'\n{i[3]}}},\n{i[3]}"artifactChanges": [\n{i[4]}{{\n{i[5]}"artifactLocation": '),
        change_indent=i[5],
        replacements=f',\n{i[5]}"replacements": [\n{i[6]}',
        deleted=f'{{\n{i[7]}"deletedRegion": {{\n{i[8]}"startLine": ',
        r_start_column=r_start_column,
        r_end_line=r_end_line,
        r_end_column=r_end_column,
        inserted=f'\n{i[7]}}},\n{i[7]}"insertedContent": {{\n{i[8]}"text": ',
        replacement_end=f"\n{i[7]}}}\n{i[6]}}}",
        replacement_separator=f",\n{i[6]}",
        applicability=(
            f'\n{i[5]}]\n{i[4]}}}\n{i[3]}],\n{i[3]}"properties": {{\n{i[4]}"applicability": '
        ),
        fixes_end=f"\n{i[3]}}}\n{i[2]}}}\n{i[1]}]",
    )


def _after(indent: str, *names: str) -> tuple[str, ...]:
    """What stands before each of the next members ``names`` of an object at ``indent``."""
    return tuple(f',\n{indent}"{name}": ' for name in names)


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
