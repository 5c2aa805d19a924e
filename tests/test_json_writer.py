"""The JSON report writes exactly what json.dump(..., ensure_ascii=False, indent=2) writes."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_lint.finding import Edit, Finding, FindingFix, Fix, Severity
from sitemap_lint.report import json as json_report
from tests.helpers import Draws, draws

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)))
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=5), inner, max_size=5)
        | st.dictionaries(st.integers(), inner, max_size=3)
    ),
    max_leaves=40,
)


def written(value: object) -> str:
    out = io.StringIO()
    json_report.write(value, "", out.write)
    return out.getvalue()


@pytest.mark.parametrize("draws", draws(50, 250, settings(deadline=None)))
def test_the_same_text_as_json_dump(draws: Draws) -> None:
    @draws
    @given(VALUES)
    def check(value: object) -> None:
        assert written(value) == json.dumps(value, ensure_ascii=False, indent=2)

    check()


def test_a_long_list_is_written_in_batches_with_the_same_text() -> None:
    finding = {"code": "XM004", "line": 4, "fix": {"edits": [{"content": "a&amp;b\n\x1b"}]}}
    value = {"files": [{"path": "a", "findings": [finding] * (json_report._BATCH * 2 + 3)}]}
    out = io.StringIO()
    writes: list[str] = []

    def record(text: str) -> None:
        writes.append(text)
        out.write(text)

    json_report.write(value, "", record)
    assert out.getvalue() == json.dumps(value, ensure_ascii=False, indent=2)
    assert len(writes) < 30  # batches, not one write per piece


TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
EDITS = st.builds(
    Edit,
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    TEXT,
    st.sampled_from(["span", "span", "bom", "encoding"]),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
)
FIXES = st.none() | st.builds(
    FindingFix, st.sampled_from([Fix.SAFE, Fix.UNSAFE]), TEXT, st.tuples() | st.tuples(EDITS)
)
FINDINGS = st.builds(
    Finding,
    TEXT,
    TEXT,
    st.sampled_from(list(Severity)),
    TEXT,
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.none(),
    FIXES,
    st.none() | TEXT,
)


def as_object(finding: Finding) -> dict[str, object]:
    """A finding as the JSON report's documentation gives it."""
    shown: dict[str, object] = {
        "code": finding.code,
        "name": finding.name,
        "severity": str(finding.severity),
        "message": finding.message,
        "line": finding.line,
        "column": finding.column,
    }
    if finding.fix is not None:
        edits = []
        for edit in finding.fix.edits:
            item: dict[str, object] = {
                "content": edit.content,
                "location": {"line": edit.line, "column": edit.column},
                "end_location": {"line": edit.end_line, "column": edit.end_column},
            }
            if edit.target != "span":
                item["target"] = edit.target
            edits.append(item)
        shown["fix"] = {
            "applicability": str(finding.fix.applicability),
            "message": finding.fix.message,
            "edits": edits,
        }
    if finding.xpath is not None:
        shown["xpath"] = finding.xpath
    return shown


@pytest.mark.parametrize("draws", draws(50, 250, settings(deadline=None)))
def test_findings_are_written_as_the_objects_of_their_fields(draws: Draws) -> None:
    @draws
    @given(st.lists(FINDINGS, max_size=4))
    def check(findings: list[Finding]) -> None:
        document = {"files": [{"path": "a", "findings": findings}]}
        expected = {"files": [{"path": "a", "findings": [as_object(f) for f in findings]}]}
        assert written(document) == json.dumps(expected, ensure_ascii=False, indent=2)

    check()


@pytest.mark.parametrize("count", [0, 1, json_report._BATCH, json_report._BATCH * 2 + 1])
def test_an_iterator_is_written_as_the_list_of_its_items(count: int) -> None:
    items = [{"n": n, "s": "x\n", "l": [n, {}], "d": {1: None}} for n in range(count)]
    made: list[int] = []

    def lazily() -> object:
        for item in items:
            made.append(1)
            yield item

    out = io.StringIO()
    held: list[int] = []

    def record(text: str) -> None:
        held.append(len(made) - sum(held))  # items made since the last write
        out.write(text)

    json_report.write({"results": lazily()}, "", record)
    assert out.getvalue() == json.dumps({"results": items}, ensure_ascii=False, indent=2)
    assert max(held) <= json_report._BATCH  # never more than one batch made ahead


def test_a_sarif_report_of_many_findings_holds_one_batch_of_results() -> None:
    import tracemalloc

    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.report.sarif import SarifReporter

    findings = [
        Finding("DT001", "lastmod-format", Severity.ERROR, f"bad date {n}", n, 5)
        for n in range(1, 20_001)
    ]

    class Tail(io.StringIO):
        def write(self, text: str) -> int:
            self.last = text
            return len(text)

    out = Tail()
    tracemalloc.start()
    try:
        SarifReporter(out).report([FileResult("s.xml", findings)])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8_000_000  # every result made at once: over 60 MB


def sarif_object(
    location: dict[str, object], finding: Finding, index: int, fingerprint: str
) -> dict[str, object]:
    """A SARIF result as the format's documentation (and GitHub's) gives it."""
    line, column = max(finding.line, 1), max(finding.column, 1)
    where: dict[str, object] = {
        "physicalLocation": {
            "artifactLocation": location,
            "region": {
                "startLine": line,
                "startColumn": column,
                "endLine": line,
                "endColumn": column + 1,
            },
        }
    }
    if finding.xpath is not None:
        where["logicalLocations"] = [{"fullyQualifiedName": finding.xpath, "kind": "element"}]
    result: dict[str, object] = {
        "ruleId": finding.code,
        "ruleIndex": index,
        "level": {"error": "error", "warning": "warning", "info": "note"}[str(finding.severity)],
        "message": {"text": finding.message},
        "locations": [where],
        "partialFingerprints": {"sitemapLint/v1": fingerprint},
    }
    spans = [e for e in (finding.fix.edits if finding.fix else ()) if e.target == "span"]
    if finding.fix is not None and spans:
        result["fixes"] = [
            {
                "description": {"text": finding.fix.message},
                "artifactChanges": [
                    {
                        "artifactLocation": location,
                        "replacements": [
                            {
                                "deletedRegion": {
                                    "startLine": e.line,
                                    "startColumn": e.column,
                                    "endLine": e.end_line,
                                    "endColumn": e.end_column,
                                },
                                "insertedContent": {"text": e.content},
                            }
                            for e in spans
                        ],
                    }
                ],
                "properties": {"applicability": str(finding.fix.applicability)},
            }
        ]
    return result


@pytest.mark.parametrize("draws", draws(50, 250, settings(deadline=None)))
def test_sarif_results_are_written_as_the_objects_of_their_fields(draws: Draws) -> None:
    from sitemap_lint.report.sarif import SarifResult

    locations = [{"uri": "a.xml", "uriBaseId": "%SRCROOT%"}, {"uri": "-", "description": {}}]

    @draws
    @given(st.lists(st.tuples(FINDINGS, st.sampled_from(locations), TEXT), max_size=4))
    def check(items: list[tuple[Finding, dict[str, object], str]]) -> None:
        document = {
            "results": [SarifResult(where, f, n, key) for n, (f, where, key) in enumerate(items)]
        }
        expected = {
            "results": [sarif_object(where, f, n, key) for n, (f, where, key) in enumerate(items)]
        }
        assert written(document) == json.dumps(expected, ensure_ascii=False, indent=2)

    check()
