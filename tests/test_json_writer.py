"""The JSON report writes exactly what json.dump(..., ensure_ascii=False, indent=2) writes."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_lint.finding import Edit, Finding, FindingFix, Fix, Severity
from sitemap_lint.report import json as json_report
from sitemap_lint.report.common import BATCH, write_items
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
# Codes repeat among the findings of a report (and the parts encoded once for each).
CODES = st.sampled_from(["DT001", 'X"1']) | TEXT
FINDINGS = st.builds(
    Finding,
    CODES,
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


COUNT = BATCH * 4


class MadeAsRead:
    """A file's findings, made as they are read: ``made`` counts those of the last pass
    over them (a report may read them more than once)."""

    def __init__(self) -> None:
        self.made = 0

    def __len__(self) -> int:
        return COUNT

    def __iter__(self) -> Iterator[Finding]:
        self.made = 0
        for n in range(COUNT):
            self.made += 1
            edit = Edit(n + 1, 5, "2024-05-01T10:00:00+00:00", "span", n + 1, 24)
            fix = FindingFix(Fix.SAFE, "write the W3C form", (edit,))
            message = f"<lastmod> '2024-05-01 {n}' is not a W3C Datetime"
            yield Finding("DT001", "lastmod-format", Severity.ERROR, message, n + 1, 5, None, fix)


@pytest.mark.parametrize(
    ("reporter", "member"), [("sarif", '"ruleId"'), ("gitlab", '"check_name"')]
)
def test_a_ci_report_writes_its_results_one_batch_at_a_time(reporter: str, member: str) -> None:
    """A write of results comes before the next batch of findings is read: a report
    holds one batch of results (objects or text), not all of them."""
    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.report import REPORTERS

    findings = MadeAsRead()
    results_written = 0
    ahead: list[int] = []  # at each write of results: the findings read and not yet written

    class Recording(io.StringIO):
        def write(self, text: str) -> int:
            nonlocal results_written
            if member in text:
                ahead.append(findings.made - results_written)
                results_written += text.count(member)
            return super().write(text)

    out = Recording()
    REPORTERS[reporter](out).report([FileResult("s.xml", findings)])
    written = json.loads(out.getvalue())
    assert len(written["runs"][0]["results"] if reporter == "sarif" else written) == COUNT
    assert results_written == COUNT
    assert max(ahead) <= BATCH  # every result made first: COUNT


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


def listed(texts: list[str], indent: str) -> str:
    """``texts`` (items encoded at ``indent`` and two spaces) as the list that
    ``common.write_items`` writes at ``indent``."""
    out = io.StringIO()
    write_items(iter(texts), indent, out.write)
    return out.getvalue()


def dumped(value: object, indent: str) -> str:
    """``value`` as json.dump(..., indent=2) writes it, at the indentation ``indent``."""
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)


@pytest.mark.parametrize("count", [0, 1, BATCH, BATCH * 2 + 1])
def test_encoded_items_are_written_as_a_list_in_batches(count: int) -> None:
    items = [{"n": n, "s": "x\n"} for n in range(count)]
    writes: list[str] = []
    write_items((json_report.encode(item, "    ") for item in items), "  ", writes.append)
    assert "".join(writes) == dumped(items, "  ")
    assert len(writes) <= count // BATCH + 2  # batches, not one write an item


@pytest.mark.parametrize("draws", draws(50, 250, settings(deadline=None)))
def test_sarif_results_are_written_as_the_objects_of_their_fields(draws: Draws) -> None:
    from sitemap_lint.report.sarif import ResultTexts

    locations = [{"uri": "a.xml", "uriBaseId": "%SRCROOT%"}, {"uri": "-", "description": {}}]

    @draws
    @given(
        st.lists(st.tuples(FINDINGS, st.sampled_from(locations), TEXT), max_size=4),
        st.sampled_from(["", "      "]),
    )
    def check(items: list[tuple[Finding, dict[str, object], str]], indent: str) -> None:
        codes = sorted({f.code for f, _, _ in items})
        index = {code: n for n, code in enumerate(codes)}
        made = ResultTexts(index, indent + "  ")  # its results share their encoded parts
        texts = [made.text(where, f, key) for f, where, key in items]
        expected = [sarif_object(where, f, index[f.code], key) for f, where, key in items]
        assert listed(texts, indent) == dumped(expected, indent)

    check()


def gitlab_object(path: str, finding: Finding, fingerprint: str) -> dict[str, object]:
    """A GitLab Code Quality issue as the format's documentation gives it."""
    return {
        "description": f"{finding.code}: {finding.message}",
        "check_name": finding.code,
        "fingerprint": fingerprint,
        "severity": {"error": "major", "warning": "minor", "info": "info"}[str(finding.severity)],
        "location": {"path": path, "lines": {"begin": finding.line}},
    }


@pytest.mark.parametrize("draws", draws(50, 250, settings(deadline=None)))
def test_gitlab_issues_are_written_as_the_objects_of_their_fields(draws: Draws) -> None:
    from json.encoder import encode_basestring

    from sitemap_lint.report.gitlab import issue_text

    @draws
    @given(st.lists(st.tuples(FINDINGS, TEXT, TEXT), max_size=4), st.sampled_from(["", "    "]))
    def check(items: list[tuple[Finding, str, str]], indent: str) -> None:
        texts = [
            issue_text(encode_basestring(path), f, key, indent + "  ") for f, path, key in items
        ]
        expected = [gitlab_object(path, f, key) for f, path, key in items]
        assert listed(texts, indent) == dumped(expected, indent)

    check()
