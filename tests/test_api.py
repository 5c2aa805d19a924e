"""The Python API gives what the command reports, typed, and raises SitemapLintError
where the command exits 2."""

from __future__ import annotations

import dataclasses
import gzip
import inspect
import json
import operator
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, date, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import sitemap_lint
from sitemap_lint import cli
from sitemap_lint.rules import RULES
from sitemap_lint.run import RunSettings
from sitemap_lint.settings.declared import RUN_SETTINGS
from tests.helpers import FIXTURES, ROOT, RULE_FIXTURES

NOW = "2025-06-01"
VALID = FIXTURES / "valid" / "sitemap.xml"
COMMAND = [sys.executable, "-m", "sitemap_lint", "--format", "json", "--isolated", "--now", NOW]
EMPTY_URLSET = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>'


def first_of_each_family() -> list[Path]:
    """The failing fixtures of the first rule of every family (files, not HTTP exchanges)."""
    firsts: dict[str, Path] = {}
    for directory in sorted(RULE_FIXTURES.iterdir()):
        firsts.setdefault(directory.name[:2], directory)
    return [
        path
        for directory in firsts.values()
        for path in sorted(directory.glob("fail*"))
        if not path.name.endswith(".http")
    ]


FAMILY_FIXTURES = first_of_each_family()


def cli_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    """The command run in this process with --format json: its exit status and report."""
    capsys.readouterr()
    status = cli.main(["--format", "json", *args])
    out = capsys.readouterr().out
    return status, json.loads(out)


def cli_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one-line message the command prints when it exits 2."""
    capsys.readouterr()
    assert cli.main(["--format", "json", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sitemap-lint: error: ") and err.count("\n") == 1, err
    return err.removeprefix("sitemap-lint: error: ").rstrip("\n")


def reported(document: Any) -> list[tuple[Any, ...]]:
    return [
        (
            file["path"],
            f["code"],
            f["name"],
            f["severity"],
            f["line"],
            f["column"],
            f["message"],
            f.get("xpath"),
        )
        for file in document["files"]
        for f in file["findings"]
    ]


def as_tuples(
    findings: tuple[sitemap_lint.Finding, ...] | list[sitemap_lint.Finding],
) -> list[tuple[Any, ...]]:
    return [
        (f.path, f.code, f.name, str(f.severity), f.line, f.column, f.message, f.xpath)
        for f in findings
    ]


# -- the same findings, in the same order, with the same exit status as the command ----


def test_the_fixtures_cover_many_families() -> None:
    assert len({path.parent.name[:2] for path in FAMILY_FIXTURES}) >= 18
    assert len(FAMILY_FIXTURES) >= 40


@pytest.mark.parametrize("path", FAMILY_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_fixture_as_the_command_reports_it(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, document = cli_json(["--isolated", "--now", NOW, str(path)], capsys)
    result = sitemap_lint.lint_paths([path], isolated=True, now=NOW)
    assert as_tuples(result.findings) == reported(document)
    assert result.exit_code == status
    assert [report.path for report in result.files] == [f["path"] for f in document["files"]]
    assert as_tuples(sitemap_lint.lint(path, isolated=True, now=NOW)) == reported(document)


OPTION_CASES = [
    (["--select", "UR,DT"], {"select": ["UR", "DT"]}),
    (["--ignore", "ST008,EN"], {"ignore": ["ST008", "EN"]}),
    (["--select", "ALL", "--extend-select", "UR"], {"select": ["ALL"], "extend_select": ["UR"]}),
    (["--profile", "strict"], {"profile": "strict"}),
    (["--profile", "bing", "--fail-on", "info"], {"profile": "bing", "fail_on": "info"}),
    (["--fail-on", "warning"], {"fail_on": sitemap_lint.Severity.WARNING}),
    (["--exit-zero"], {"exit_zero": True}),
    (["--xsd-engine", "xmlschema"], {"xsd_engine": "xmlschema"}),
    (
        ["--sitemap-url", "https://example.com/blog/sitemap.xml"],
        {"sitemap_url": "https://example.com/blog/sitemap.xml"},
    ),
]


@pytest.mark.parametrize(("flags", "options"), OPTION_CASES, ids=lambda v: str(v))
def test_options_as_the_command_applies_them(
    flags: list[str], options: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(p) for p in FAMILY_FIXTURES[:12]]  # several files: a set run
    status, document = cli_json(["--isolated", "--now", NOW, *flags, *paths], capsys)
    result = sitemap_lint.lint_paths(paths, isolated=True, now=NOW, **options)
    assert as_tuples(result.findings) == reported(document)
    assert result.exit_code == status
    assert [(r.path, r.kind, r.urls) for r in result.files] == [
        (f["path"], f.get("kind"), f.get("urls")) for f in document["files"]
    ]


SET_FIXTURES = sorted(RULE_FIXTURES.glob("SE*/fail*"))


@pytest.mark.parametrize("path", SET_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_followed_set_as_the_command_reports_it(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = f"https://example.com/={path.parent}"
    flags = ["--isolated", "--now", NOW, "--follow", "--map", site, "--max-files", "3"]
    status, document = cli_json([*flags, str(path)], capsys)
    result = sitemap_lint.lint_paths(
        [path],
        isolated=True,
        now=NOW,
        follow=True,
        maps={"https://example.com/": path.parent},
        max_files=3,
    )
    assert reported(document)  # the set rules find something here
    assert as_tuples(result.findings) == reported(document)
    assert result.exit_code == status
    assert [(r.path, r.kind, r.urls) for r in result.files] == [
        (f["path"], f.get("kind"), f.get("urls")) for f in document["files"]
    ]


def test_several_set_fixtures_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    # Named together, files are a set: SE001's sitemaps share a URL (a cross-file rule).
    paths = [str(p) for p in (*SET_FIXTURES, *sorted((RULE_FIXTURES / "SE001").glob("p*")))]
    status, document = cli_json(["--isolated", "--now", NOW, *paths], capsys)
    result = sitemap_lint.lint_paths(paths, isolated=True, now=NOW)
    assert as_tuples(result.findings) == reported(document)
    assert any(f.code.startswith("SE") for f in result.findings)
    assert result.exit_code == status


def test_a_directory_as_the_command_expands_it(capsys: pytest.CaptureFixture[str]) -> None:
    directory = RULE_FIXTURES / "SE001"
    target = directory.parent.parent / "valid"
    status, document = cli_json(["--isolated", "--now", NOW, str(target)], capsys)
    result = sitemap_lint.lint_paths([target], isolated=True, now=NOW)
    assert len(result.files) == len(document["files"]) >= 1
    assert as_tuples(result.findings) == reported(document)
    assert result.exit_code == status


def test_the_discovered_configuration_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = RULE_FIXTURES / "ST008" / "fail.xml"
    (tmp_path / ".sitemap-lint.toml").write_text('ignore = ["ST008"]\nfail-on = "info"\n')
    monkeypatch.chdir(tmp_path)
    status, document = cli_json(["--now", NOW, str(sample)], capsys)
    findings = sitemap_lint.lint(sample, now=NOW)
    assert "ST008" not in {f.code for f in findings}
    assert as_tuples(findings) == reported(document)
    assert sitemap_lint.lint_paths([sample], now=NOW).exit_code == status
    # isolated: the file is not read
    assert "ST008" in {f.code for f in sitemap_lint.lint(sample, now=NOW, isolated=True)}


def test_a_named_configuration_applies(tmp_path: Path) -> None:
    sample = RULE_FIXTURES / "ST008" / "fail.xml"
    config = tmp_path / "lint.toml"
    config.write_text('[tool.sitemap-lint]\nselect = ["UR"]\n')
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(config.read_text())
    assert sitemap_lint.lint(sample, now=NOW, config=pyproject) == []
    assert sitemap_lint.lint(sample, now=NOW, config=str(pyproject)) == []


def test_python_m_sitemap_lint_is_the_command() -> None:
    sample = RULE_FIXTURES / "DT001" / "fail.xml"
    run = subprocess.run(
        [*COMMAND, str(sample)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    result = sitemap_lint.lint_paths([sample], isolated=True, now=NOW)
    assert run.returncode == result.exit_code == 1
    assert as_tuples(result.findings) == reported(json.loads(run.stdout))


# -- bytes ----------------------------------------------------------------------------


def test_bytes_are_content_checked_like_standard_input() -> None:
    for sample in (RULE_FIXTURES / "DT001" / "fail.xml", RULE_FIXTURES / "IN001" / "fail.xml"):
        data = sample.read_bytes()
        run = subprocess.run(
            [*COMMAND, "-"],
            input=data,
            capture_output=True,
            cwd=ROOT,
        )
        expected = [("<bytes>", *finding[1:]) for finding in reported(json.loads(run.stdout))]
        findings = sitemap_lint.lint(data, isolated=True, now=NOW)
        assert expected and as_tuples(findings) == expected
        assert {f.path for f in findings} == {"<bytes>"}


def test_bytes_gzipped_and_named() -> None:
    data = gzip.compress(EMPTY_URLSET)
    findings = sitemap_lint.lint(data, isolated=True, now=NOW, name="sitemap.xml.gz")
    assert [(f.code, f.path) for f in findings] == [("ST008", "sitemap.xml.gz")]
    assert sitemap_lint.lint(bytearray(EMPTY_URLSET), isolated=True)[0].code == "ST008"


def test_bytes_in_a_set_run_with_a_robots_file(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_text("User-agent: *\nDisallow: /private/\n")
    data = (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        b"<url><loc>https://example.com/private/a</loc></url>\n</urlset>\n"
    )
    plain = sitemap_lint.lint(data, isolated=True, now=NOW)
    informed = sitemap_lint.lint(data, isolated=True, now=NOW, robots=[robots])
    assert {f.path for f in informed} == {"<bytes>"}
    assert {f.code for f in informed} - {f.code for f in plain}, informed  # robots rule


def test_the_sitemap_url_and_now_options_reach_the_rules() -> None:
    data = (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        b"<url><loc>https://other.example/a</loc><lastmod>2025-07-01</lastmod></url>\n"
        b"</urlset>\n"
    )
    findings = sitemap_lint.lint(
        data,
        sitemap_url="https://example.com/sitemap.xml",
        now="2025-06-01T00:00:00Z",
        select=["SC", "DT"],
        isolated=True,
    )
    codes = {f.code for f in findings}
    assert any(code.startswith("SC") for code in codes)
    assert any(code.startswith("DT") for code in codes)
    later = sitemap_lint.lint(data, now=datetime(2025, 8, 1, tzinfo=UTC), select=["DT"])
    assert later == sitemap_lint.lint(data, now="2025-08-01T00:00:00+00:00", select=["DT"])
    assert later == sitemap_lint.lint(data, now=date(2025, 8, 1), select=["DT"])
    assert later == sitemap_lint.lint(data, now=datetime(2025, 8, 1), select=["DT"])  # UTC
    assert {f.code for f in later} < {f.code for f in findings} | {"DT005"}
    with pytest.raises(sitemap_lint.SitemapLintError, match=r"^select=: an empty list"):
        sitemap_lint.lint(data, select=[], isolated=True)  # would report nothing


# -- the types -------------------------------------------------------------------------


def test_a_finding_is_typed_immutable_and_hashable() -> None:
    (finding,) = sitemap_lint.lint(EMPTY_URLSET, isolated=True)
    assert finding.code == "ST008"
    assert finding.name == RULES["ST008"].name
    assert finding.severity is sitemap_lint.Severity.ERROR
    assert str(finding.severity) == "error"
    assert finding.severity == "error"
    assert (finding.path, finding.line, finding.column) == ("<bytes>", 1, 1)
    assert finding.message.startswith("<urlset> has no <url> entries")
    assert str(finding) == f"<bytes>:1:1: ST008 {finding.message}"
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.line = 2  # type: ignore[misc]
    again = sitemap_lint.lint(EMPTY_URLSET, isolated=True)[0]
    assert again == finding and hash(again) == hash(finding)
    assert len({finding, again}) == 1


def test_a_finding_names_its_element() -> None:
    content = (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        b"  <url><loc>https://example.com/a?x=1&y=2</loc></url>\n"
        b"  <url><loc>https://example.com/b</loc><priority>1.5</priority></url>\n"
        b"</urlset>\n"
    )
    findings = sitemap_lint.lint(content, isolated=True, now=NOW)
    assert [(f.code, f.line, f.xpath) for f in findings] == [
        ("XM004", 2, "/urlset/url[1]/loc"),
        ("VA003", 3, "/urlset/url[2]/priority"),
    ]
    (report,) = sitemap_lint.lint_paths([VALID, RULE_FIXTURES / "ST008" / "fail.xml"]).files[1:]
    assert [(f.code, f.xpath) for f in report.findings] == [("ST008", None)]
    # Not part of comparisons, like fix.
    first = findings[0]
    assert dataclasses.replace(first, xpath=None) == first


def test_the_result_of_a_run() -> None:
    result = sitemap_lint.lint_paths([VALID, RULE_FIXTURES / "ST008" / "fail.xml"], isolated=True)
    assert isinstance(result, sitemap_lint.LintResult)
    assert result.exit_code == 1
    assert [r.path for r in result.files] == [str(VALID), str(RULE_FIXTURES / "ST008" / "fail.xml")]
    assert result.files[0].findings == ()
    assert result.findings == result.files[1].findings
    assert isinstance(result.files[1], sitemap_lint.FileReport)
    hash(result)
    clean = sitemap_lint.lint_paths([VALID], isolated=True, now=NOW)
    assert (clean.findings, clean.exit_code) == ((), 0)


def test_rules_is_the_catalogue() -> None:
    catalogue = sitemap_lint.rules()
    assert [r.code for r in catalogue] == list(RULES)
    first = catalogue[0]
    assert isinstance(first, sitemap_lint.RuleInfo)
    rule = RULES[first.code]
    assert (first.name, first.severity, first.summary, first.doc) == (
        rule.name,
        rule.severity,
        rule.summary,
        rule.doc,
    )
    by_code = {r.code: r for r in sitemap_lint.rules(profile="bing")}
    assert RULES["DT005"].severity is not sitemap_lint.Severity.ERROR
    assert by_code["DT005"].severity is sitemap_lint.Severity.ERROR
    # the sub-package stays importable as a package
    from sitemap_lint import rules as registry

    assert registry.RULES is RULES  # type: ignore[attr-defined]
    assert registry() == catalogue


def test_rules_lists_what_the_rules_command_lists(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert cli.main(["rules", "--profile", "yandex"]) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = [(line.split()[0], line.split()[2]) for line in lines]
    assert listed == [(r.code, str(r.severity)) for r in sitemap_lint.rules("yandex")]


# The command's options that a call has no use for: the report's, the fixes' and what
# writes files.
NOT_OPTIONS = {
    "paths", "format", "output_file", "write_baseline", "fix", "unsafe_fixes", "diff",
    "fix_only", "statistics", "show_source", "quiet", "color",
}  # fmt: skip


def test_the_options_are_the_commands_settings() -> None:
    # One declaration: every option is a setting of the command (which checks it and
    # gives its default), and every setting of the command is an option or has no use here.
    assert sitemap_lint.lint_paths.__kwdefaults__ is None  # nothing written out twice
    options = set(sitemap_lint.api.Options.__annotations__)
    settings = {setting.name for setting in RUN_SETTINGS if setting.on_command_line}
    assert options <= settings
    assert settings - options == NOT_OPTIONS
    lint = inspect.signature(sitemap_lint.lint).parameters
    assert list(lint) == ["source", "name", "options"]
    assert lint["options"].kind is inspect.Parameter.VAR_KEYWORD


def test_docs_api_md_names_each_command_option_a_call_has_no_use_for() -> None:
    import re

    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    sentence = page[page.index("which also gives its default (") :]
    sentence = sentence[: sentence.index(").")]
    named = {flag.replace("-", "_") for flag in re.findall(r"`--([a-z-]+)`", sentence)}
    assert named == NOT_OPTIONS - {"paths"}


def test_an_option_left_out_is_the_commands_default(tmp_path: Path) -> None:
    given = sitemap_lint.api._settings(["x"], {})
    assert given == RunSettings(paths=["x"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"fix": True}, "fix=: not an option of lint and lint_paths"),
        (
            {"max_dept": 2},
            "max_dept=: not an option of lint and lint_paths; did you mean max_depth=?",
        ),
    ],
)
def test_an_unknown_option_raises_naming_it(options: dict[str, object], message: str) -> None:
    with pytest.raises(sitemap_lint.SitemapLintError) as raised:
        sitemap_lint.lint_paths(["x.xml"], **options)  # type: ignore[arg-type]
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("paths", "options", "message"),
    [
        (["x.xml"], {"select": 5}, "select=: give a list of rule codes"),
        (["x.xml"], {"ignore": True}, "ignore=: give a list of rule codes"),
        (["x.xml"], {"extend_select": 3.2}, "extend_select=: give a list of rule codes"),
        (["x.xml"], {"robots": 5}, "robots=: give a list of paths, e.g. ['a.xml']; got 5"),
        (5, {}, "paths: give a list of paths"),
        (None, {}, "paths: give a list of paths"),
    ],
)
def test_a_value_that_is_no_list_raises_naming_it(
    paths: object, options: dict[str, object], message: str
) -> None:
    with pytest.raises(sitemap_lint.SitemapLintError) as raised:
        sitemap_lint.lint_paths(paths, **options)  # type: ignore[arg-type]
    assert str(raised.value).startswith(message)


# -- errors: what the command exits 2 on --------------------------------------------------

# The command's message, and how the call's starts where the command's names a flag
# (the rest is the same): the caller wrote a keyword.
ERROR_CASES = [
    (["--profile", "nosuch"], {"profile": "nosuch"}, "--profile: unknown profile", "profile=:"),
    (["--select", "UR,XX9"], {"select": ["UR", "XX9"]}, "--select: 'XX9' is not a", "select=:"),
    (["--select", "ZZ"], {"select": ["ZZ"]}, "--select: 'ZZ' is not a rule code", "select=:"),
    (["--ignore", "ZZ"], {"ignore": ["ZZ"]}, "--ignore: 'ZZ' is not a rule code", "ignore=:"),
    (["--fail-on", "fatal"], {"fail_on": "fatal"}, "--fail-on 'fatal': choose", "fail_on="),
    (["--xsd-engine", "saxon"], {"xsd_engine": "saxon"}, "--xsd-engine: unknown", "xsd_engine=:"),
    (["--now", "yesterday"], {"now": "yesterday"}, "--now 'yesterday' is not a", "now="),
    (
        ["--sitemap-url", "ftp://x/"],
        {"sitemap_url": "ftp://x/"},
        "--sitemap-url 'ftp:",
        "sitemap_url=",
    ),
    (["--config", "missing.toml"], {"config": "missing.toml"}, "--config missing.toml:", "config="),
    (
        ["--isolated", "--config", "x.toml"],
        {"config": "x.toml", "isolated": True},
        "--config and --isolated cannot be used together: one names a configuration file",
        "config= and isolated=True",
    ),
    (
        ["--max-depth", "-1", "--follow"],
        {"max_depth": -1, "follow": True},
        "--max-depth -1",
        "max_depth=",
    ),
    (["--max-depth", "-1"], {"max_depth": -1}, "--max-depth -1: give 0", "max_depth="),
    (["--max-files", "0"], {"max_files": 0}, "--max-files 0: give 1 or more", "max_files="),
    (["--max-bytes", "0"], {"max_bytes": 0}, "--max-bytes 0: give 1 or more", "max_bytes="),
    (["--jobs", "-3"], {"jobs": -3}, "--jobs -3: give 0 (one per core) or more", "jobs="),
    (["--timeout", "9999"], {"timeout": 9999}, "--timeout 9999: give more than 0", "timeout="),
    (
        ["--map", "ftp://a/=."],
        {"maps": {"ftp://a/": "."}},
        "--map 'ftp://a/=.': the prefix",
        "maps=",
    ),
    (["--scheduler", "a b"], {"scheduler": "a b"}, "--scheduler 'a b': give a", "scheduler="),
]


@pytest.mark.parametrize(("flags", "options", "start", "keyword"), ERROR_CASES, ids=str)
def test_what_the_command_exits_2_on_raises_naming_the_keyword(
    flags: list[str],
    options: dict[str, Any],
    start: str,
    keyword: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    message = cli_error([*flags, str(VALID)], capsys)
    assert message.startswith(start) and "\n" not in message
    with pytest.raises(sitemap_lint.SitemapLintError) as raised:
        sitemap_lint.lint_paths([VALID], **options)
    called = str(raised.value)
    assert called.startswith(keyword) and "--" not in called and "\n" not in called
    flag = "--config and --isolated" if "--isolated" in flags else start.split()[0].rstrip(":")
    assert _rest(called, keyword.rstrip(":")) == _rest(message, flag)


def _rest(message: str, start: str) -> str:
    """What a message says after the flag or keyword it starts with."""
    return message.removeprefix(start).removeprefix(":").lstrip(" ")


def test_an_unknown_profile_for_rules_names_the_keyword() -> None:
    with pytest.raises(sitemap_lint.SitemapLintError, match=r"^profile=: unknown profile 'x'"):
        sitemap_lint.rules(profile="x")


def test_inputs_that_cannot_be_read_raise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.xml"
    message = cli_error(["--isolated", str(missing)], capsys)
    with pytest.raises(sitemap_lint.SitemapLintError) as raised:
        sitemap_lint.lint(missing, isolated=True)
    assert str(raised.value) == message == f"{missing}: no such file or directory"
    for call in (lambda: sitemap_lint.lint(""), lambda: sitemap_lint.lint_paths([VALID, ""])):
        with pytest.raises(sitemap_lint.SitemapLintError, match=r"^'': an empty path names no"):
            call()
    with pytest.raises(sitemap_lint.SitemapLintError, match=r"^baseline=: an empty path names"):
        sitemap_lint.lint(VALID, baseline="")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(sitemap_lint.SitemapLintError, match="holds no sitemap files"):
        sitemap_lint.lint_paths([empty], isolated=True)
    with pytest.raises(sitemap_lint.SitemapLintError, match="is a directory"):
        sitemap_lint.lint_paths([VALID], isolated=True, robots=[tmp_path])


def test_an_unreadable_configuration_raises(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".sitemap-lint.toml").write_text("select = [\n")
    monkeypatch.chdir(tmp_path)
    message = cli_error([str(VALID)], capsys)
    with pytest.raises(sitemap_lint.SitemapLintError) as raised:
        sitemap_lint.lint(VALID)
    assert str(raised.value) == message and "not valid TOML" in message
    (tmp_path / ".sitemap-lint.toml").write_text('selct = ["UR"]\n')
    with pytest.raises(sitemap_lint.SitemapLintError, match="did you mean 'select'"):
        sitemap_lint.lint(VALID)


def test_python_mistakes_raise_with_one_line() -> None:
    mistakes: list[Callable[[], object]] = [
        lambda: sitemap_lint.lint(VALID, select="UR,DT"),  # a str is a Sequence[str] too
        lambda: sitemap_lint.lint(VALID, ignore=["UR,DT"]),
        lambda: sitemap_lint.lint_paths(str(VALID)),
        lambda: sitemap_lint.lint_paths([]),
        lambda: sitemap_lint.lint_paths([VALID], robots="robots.txt"),
        lambda: sitemap_lint.lint_paths([VALID], maps=["https://a/=dist"]),  # type: ignore[arg-type]
        lambda: sitemap_lint.lint(VALID, now=20250601),  # type: ignore[arg-type]
        lambda: sitemap_lint.lint(VALID, name="other.xml"),
        lambda: sitemap_lint.lint(123),  # type: ignore[arg-type]
        lambda: sitemap_lint.rules(profile="nosuch"),
    ]
    for mistake in mistakes:
        with pytest.raises(sitemap_lint.SitemapLintError) as raised:
            mistake()
        assert str(raised.value) and "\n" not in str(raised.value)


def test_a_severity_equals_its_name_and_orders_by_rank() -> None:
    from sitemap_lint.api import Severity

    error, warning, info = Severity.ERROR, Severity.WARNING, Severity.INFO
    assert error == "error" and operator.eq("error", error)  # either side
    assert operator.ne(error, "error") is False and operator.ne("error", error) is False
    assert error != "warning" and error != "ERROR" and warning == "warning"
    assert error != 3 and operator.ne(3, error) and int(error) == 3  # equal to no number
    assert info < warning < error and max([warning, error, info]) is error
    assert sorted([error, info, warning]) == [info, warning, error]
    assert {"error", "info"} == {error, info} and "warning" in {warning}
    assert {error: 1}["error"] == 1 and {"info": 2}[info] == 2
    assert all(hash(level) == hash(str(level)) for level in Severity)
    assert f"{warning}|{warning:>8}|{error!s}" == "warning| warning|error"
    assert Severity.parse(" Info ") is info and Severity(2) is warning


def test_the_usage_error_is_a_sitemap_lint_error() -> None:
    from sitemap_lint.errors import UsageError

    assert issubclass(UsageError, sitemap_lint.SitemapLintError)


# -- the package ------------------------------------------------------------------------


def test_importing_the_package_stays_light() -> None:
    code = (
        "import sys, sitemap_lint\n"
        "heavy = ('lxml', 'typer', 'rich', 'click', 'httpx', 'xmlschema', 'pycountry',\n"
        "         'sitemap_lint.api', 'sitemap_lint.rules', 'sitemap_lint.run')\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "sitemap_lint.lint\n"
        "print('sitemap_lint.api' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert run.stdout.splitlines() == ["[]", "True"]


def test_the_public_names() -> None:
    for name in sitemap_lint.__all__:
        assert getattr(sitemap_lint, name) is not None
        assert name in dir(sitemap_lint)
    with pytest.raises(AttributeError):
        sitemap_lint.nothing_here  # noqa: B018
    for function in (sitemap_lint.lint, sitemap_lint.lint_paths, sitemap_lint.api.rules):
        assert function.__doc__


def test_a_findings_fix_is_of_the_public_types() -> None:
    """A caller can name the types of ``finding.fix`` and its edits, and test the
    fix's safety against the public ``Fix``."""
    findings = sitemap_lint.lint(RULE_FIXTURES / "UR018" / "fail.xml", isolated=True)
    fix = findings[0].fix
    assert isinstance(fix, sitemap_lint.FindingFix)
    assert fix.applicability is sitemap_lint.Fix.SAFE and fix.is_safe
    assert fix.edits and all(isinstance(edit, sitemap_lint.Edit) for edit in fix.edits)


def test_the_version_is_declared_once() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = { attr = "sitemap_lint._version.__version__" }' in pyproject
    assert "\nversion =" not in pyproject.split("[tool.setuptools.dynamic]")[0]
    assert metadata.version("sitemap-lint") == sitemap_lint.__version__


def test_the_examples_in_docs_api_md_print_what_the_page_shows(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each ```python block of docs/api.md, run in turn in one namespace from the
    repository root, prints the plain ``` block that follows it."""
    import re

    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(python|)\n(.*?)```", page, re.DOTALL)
    monkeypatch.chdir(ROOT)
    namespace: dict[str, Any] = {}
    checked = 0
    for (kind, code), (next_kind, shown) in zip(blocks, [*blocks[1:], ("end", "")], strict=True):
        if kind != "python" or "sitemap_lint." not in code or next_kind != "":
            continue
        capsys.readouterr()
        exec(compile(code, "docs/api.md", "exec"), namespace)
        assert capsys.readouterr().out == shown, code
        checked += 1
    assert checked == 6


def test_a_baseline_keyword_hides_the_findings_it_records(tmp_path: Path) -> None:
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_bytes((RULE_FIXTURES / "DU001" / "fail.xml").read_bytes())
    baseline = tmp_path / "baseline.json"
    assert cli.main(["--isolated", "--write-baseline", str(baseline), str(sitemap)]) == 0
    assert sitemap_lint.lint_paths([sitemap], isolated=True).findings
    result = sitemap_lint.lint_paths([sitemap], isolated=True, baseline=baseline)
    assert result.findings == () and result.exit_code == 0


def test_calls_in_threads_compile_the_schemas_one_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """libxml2 sets up its built-in types on its first schema, unguarded: compiled in two
    threads at once they could break every later check of the process."""
    import threading
    import time

    from lxml import etree

    from sitemap_lint.xsd import libxml2

    compile_schema = etree.XMLSchema
    inside = 0
    most = 0
    count = threading.Lock()

    def watched(document: Any) -> Any:
        nonlocal inside, most
        with count:
            inside += 1
            most = max(most, inside)
        time.sleep(0.02)
        try:
            return compile_schema(document)
        finally:
            with count:
                inside -= 1

    monkeypatch.setattr(libxml2.etree, "XMLSchema", watched)
    start = threading.Barrier(4)

    def compile_one() -> None:
        start.wait()
        libxml2.Libxml2Engine()._schema("urlset")

    threads = [threading.Thread(target=compile_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == 1


def test_standard_input_replaced_by_a_text_stream_raises_sitemap_lint_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A program (a notebook, a test) may put a text stream in sys.stdin: ``-`` then has
    no bytes to read, which is said as the command would say it, not an AttributeError."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("<urlset/>"))
    with pytest.raises(sitemap_lint.SitemapLintError) as raised:
        sitemap_lint.lint_paths(["-"], isolated=True)
    assert str(raised.value) == (
        "-: cannot read: standard input is a text stream, not bytes (sys.stdin was "
        "replaced); give the content as bytes, e.g. lint(text.encode())"
    )


def test_the_catalogue_refuses_a_profile_of_the_wrong_type_as_lint_does() -> None:
    """One wrong value, one message, whichever function is given it."""
    messages = set()
    for call in (
        lambda: sitemap_lint.rules(3),  # type: ignore[arg-type]
        lambda: sitemap_lint.api.rules(3),  # type: ignore[arg-type]
        lambda: sitemap_lint.lint(b"<urlset/>", profile=3, isolated=True),  # type: ignore[typeddict-item]
    ):
        with pytest.raises(sitemap_lint.SitemapLintError) as raised:
            call()
        messages.add(str(raised.value))
    assert messages == {"profile=: expected a string, got 3"}


def test_the_signatures_docs_api_md_shows_are_the_functions_own() -> None:
    """The first block of docs/api.md and the section titles: each is Python a reader can
    read as a ``def`` line, with the parameters of the function it names."""
    import ast
    import re

    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    shown = re.search(r"```python\n(.*?)```", page, re.DOTALL)
    assert shown is not None
    lines = shown.group(1).splitlines()
    lines += re.findall(r"^## `(.*)`$", page, re.MULTILINE)
    assert len(lines) == 6
    for line in lines:
        tree = ast.parse(f"def {line.split(' -> ')[0]}: ...")
        function = tree.body[0]
        assert isinstance(function, ast.FunctionDef), line
        own = inspect.signature(getattr(sitemap_lint, function.name))
        arguments = function.args
        written = [
            *((a.arg, "POSITIONAL_OR_KEYWORD") for a in arguments.args),
            *((a.arg, "KEYWORD_ONLY") for a in arguments.kwonlyargs),
            *([(arguments.kwarg.arg, "VAR_KEYWORD")] if arguments.kwarg else []),
        ]
        assert written == [(p.name, p.kind.name) for p in own.parameters.values()], line
