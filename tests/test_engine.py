"""The engine's seams: light result types, rule discovery, dispatch by the enabled rules,
and the one finding sink."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint.engine import dispatch
from sitemap_lint.rules import dates, news, urls, values
from sitemap_lint.rules.registry import CHECKS, CheckSpec, families
from sitemap_lint.run import RunSettings, execute
from sitemap_lint.settings.options import Options
from sitemap_lint.settings.selection import Selection
from tests.helpers import FIXTURES, RULE_FIXTURES, heavy


@pytest.mark.slow
def test_a_reporter_does_not_load_the_parser_or_the_rules() -> None:
    code = (
        "import sys, sitemap_lint.report.json, sitemap_lint.engine.results\n"
        "loaded = [m for m in ('lxml', 'sitemap_lint.engine.checker', 'sitemap_lint.rules') "
        "if m in sys.modules]\n"
        "print(','.join(loaded))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_rules_have_no_fix_unless_they_declare_one() -> None:
    from sitemap_lint.finding import Fix
    from sitemap_lint.rules import RULES
    from sitemap_lint.rules.base import WARNING, rule

    fixable = {r.code: str(r.fix) for r in RULES.values() if r.fix is not Fix.NONE}
    safe = (
        "XM001 XM002 XM004 XM005 XM009 XM011 EN002 EN003 EN004 EN005 NS002 NS004 UR005 UR006 UR011 UR018 VA002 VA003"
        " DT003 TX003"
    )
    unsafe = "DT001 DT004 DU001 SC001 SC002 UR017 LV005"
    assert fixable == {
        **dict.fromkeys(safe.split(), "safe"),
        **dict.fromkeys(unsafe.split(), "unsafe"),
    }
    assert all(("## Fix safety" in r.fix_safety) == (r.code in fixable) for r in RULES.values())
    declared = rule(
        "ZZ001", "demo", WARNING, summary="s", what="w", why="y", bad="b", good="g", fix="safe"
    )
    assert declared.fix is Fix.SAFE
    assert str(declared.fix) == "safe"


def test_a_family_module_is_found_without_being_listed(tmp_path, monkeypatch) -> None:
    from sitemap_lint.rules.registry import catalogue, discover

    package = tmp_path / "demo_rules"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("VALUE = 1\n")  # no FAMILY: not a family
    family = (
        "from sitemap_lint.rules.base import ERROR, rule\n"
        "FAMILY = '{title}'\nORDER = {order}\n"
        "RULES = (rule('{code}', 'n', ERROR, summary='s', what='w', why='y', bad='b', good='g'),)\n"
    )
    (package / "zeta.py").write_text(family.format(title="Zeta", order=1, code="ZZ001"))
    (package / "alpha.py").write_text(family.format(title="Alpha", order=2, code="ZZ002"))
    monkeypatch.syspath_prepend(str(tmp_path))
    families = discover("demo_rules")
    assert [title for title, _module in families] == ["Zeta", "Alpha"]
    assert list(catalogue(families)) == ["ZZ001", "ZZ002"]


# -- dispatch: only the checks of enabled rules run, and nothing else moves --------


# Every input under fixtures/; the .expected files beside them are not inputs.
ALL_FIXTURES = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix != ".expected")
LIGHT_FIXTURES = [path for path in ALL_FIXTURES if not heavy(path)]
SELECTIONS = (
    (),
    ("--select", "UR"),
    ("--ignore", "VA003"),
    ("--select", "DT,XS"),
    ("--ignore", "XS001,UR"),
    ("--select", "VA004"),
    ("--profile", "google"),
    ("--select", "SU,UR008"),
)


# The heavy fixtures (seconds each) are a case of their own in the whole run, so that
# the workers share them out.
HEAVY = [path for path in ALL_FIXTURES if heavy(path)]


def share(turn: int, turns: int, part: str) -> list[Path]:
    """The fixtures of one of ``turns`` runs that together check every fixture each way:
    for the fast loop (``everyday``) half of the light fixtures, each under one of the
    runs in turn; in the whole run the other light fixtures (``rest``) and the heavy
    ones (``heavy``)."""
    taken = LIGHT_FIXTURES[turn :: 2 * turns]
    if part == "everyday":
        return taken
    if part == "heavy":
        return HEAVY
    return sorted(set(LIGHT_FIXTURES).difference(taken))


# Each test that goes through the fixtures: its light share in the fast loop, the rest slow.
PARTS = [
    pytest.param("everyday", id="everyday"),
    pytest.param("rest", id="rest", marks=pytest.mark.slow),
    pytest.param("heavy", id="heavy", marks=pytest.mark.slow),
]


def run_json(path: Path, *flags: str) -> tuple[int, str]:
    """A run's exit status and JSON report, in-process (``run.execute``, as ``check``
    with these flags runs it, without building the command line each time)."""
    values = {flag.removeprefix("--").replace("-", "_"): value for flag, value in pairs(flags)}
    settings = RunSettings(
        paths=[str(path)], format="json", now="2026-12-01T00:00:00Z", isolated=True, **values
    )
    out = io.StringIO()
    status = execute(settings, out=out, err=io.StringIO())
    return status, out.getvalue()


def pairs(flags: tuple[str, ...]) -> list[tuple[str, str]]:
    return list(zip(flags[::2], flags[1::2], strict=True))


def calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    """Record each call of ``module.name``; the original still runs."""
    seen: list[str] = []
    original = getattr(module, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return seen


def test_with_select_ur_the_date_value_and_news_checks_do_not_run(monkeypatch) -> None:
    seen = [
        calls(monkeypatch, dates, "check_date"),
        calls(monkeypatch, values, "check_changefreq"),
        calls(monkeypatch, values, "check_priority"),
        calls(monkeypatch, values, "check_length"),
        calls(monkeypatch, news.Checker, "check"),
    ]
    files = [RULE_FIXTURES / code / "fail.xml" for code in ("DT001", "VA003", "VA004")]
    files += sorted((RULE_FIXTURES / "NW001").glob("*.xml"))
    for path in files:
        status, _report = run_json(path, "--select", "UR")
        assert status in (0, 1)
    assert all(not record for record in seen)
    # The same files with every rule: each of them runs (the spies can see a call).
    for path in files:
        run_json(path)
    assert all(record for record in seen)


def test_with_select_dt_the_url_checks_do_not_run(monkeypatch) -> None:
    seen = calls(monkeypatch, urls, "check_url")
    path = RULE_FIXTURES / "DT001" / "fail.xml"
    assert '"DT001"' in run_json(path, "--select", "DT")[1]
    assert seen == []
    run_json(path, "--select", "UR")
    assert seen


def without_dispatch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every check runs whatever the selection (the behaviour before dispatch)."""
    monkeypatch.setattr(Selection, "enabled", lambda self: None)


class EnabledReads:
    """``Options.enabled`` that counts how often a check reads it."""

    def __init__(self) -> None:
        self.count = 0

    def __get__(self, options: Options | None, owner: type | None = None) -> Any:
        if options is None:
            return None  # the field's default, read from the class
        self.count += 1
        return vars(options)["enabled"]

    def __set__(self, options: Options, value: frozenset[str] | None) -> None:
        vars(options)["enabled"] = value


def enabled_reads(monkeypatch: pytest.MonkeyPatch) -> EnabledReads:
    reads = EnabledReads()
    monkeypatch.setattr(Options, "enabled", reads)
    return reads


def test_the_reads_of_the_enabled_rules_are_seen(monkeypatch) -> None:
    reads = enabled_reads(monkeypatch)
    run_json(RULE_FIXTURES / "TX001" / "fail.txt")  # a text sitemap: its prolog and end
    read = reads.count
    assert read > 0
    run_json(RULE_FIXTURES / "DT001" / "fail.xml")
    assert reads.count > read


# The inputs whose run read no enabled rules (in this process): the same run without
# dispatch, under every selection.
NEVER_READ: set[Path] = set()


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("flags", SELECTIONS, ids=lambda flags: " ".join(flags) or "default")
def test_dispatch_changes_no_report(flags: tuple[str, ...], part: str, monkeypatch) -> None:
    """Without dispatch every check runs, audited (``Audit``): with the default
    selection this is also the audit of every check over every fixture. The enabled
    rules reach the checks only through their options: a run that never read them
    (a text sitemap, a robots.txt, an unreadable input) is the same run without
    dispatch, and is not made again."""
    paths = share(SELECTIONS.index(flags), len(SELECTIONS), part)
    reads = enabled_reads(monkeypatch)
    with_dispatch, dispatched = {}, []
    for path in paths:
        if path in NEVER_READ:  # under another selection (the reading is not the rules')
            continue
        before = reads.count
        with_dispatch[path] = run_json(path, *flags)
        if reads.count > before:
            dispatched.append(path)
        else:
            NEVER_READ.add(path)
    without_dispatch(monkeypatch)
    monkeypatch.setattr(dispatch, "CHECKS", [audited(spec) for spec in CHECKS])
    differ = [path for path in dispatched if run_json(path, *flags) != with_dispatch[path]]
    assert differ == []


class Audit:
    """A reporter that fails on a finding its check did not declare."""

    def __init__(self, report: Any, spec: CheckSpec) -> None:
        self.report = report
        self.spec = spec

    def add(self, finding: Any, covers: Any = None) -> None:
        if isinstance(finding, int):  # a set's reporter: the file's index, the finding
            assert covers.code in self.spec.emits, (self.spec.name, covers.code)
        else:
            assert finding.code in self.spec.emits, (self.spec.name, finding.code)
        self.report.add(finding, covers)

    def covered(self, node: Any) -> bool:
        return bool(self.report.covered(node))

    def __getattr__(self, name: str) -> Any:  # what a set's reporter also answers
        return getattr(self.report, name)


def audited(spec: CheckSpec) -> CheckSpec:
    implementation = spec.implementation
    if not spec.per_file:

        def function(node: Any, entry: Any, report: Any) -> None:
            implementation(node, entry, Audit(report, spec))

        return replace(spec, implementation=function)

    class Wrapped:
        def __init__(self, file: Any) -> None:
            self.inner = implementation(file)

        def check(self, node: Any, entry: Any, report: Any) -> None:
            self.inner.check(node, entry, Audit(report, spec))

        def end_entry(self, entry: Any, report: Any) -> None:
            self.inner.end_entry(entry, Audit(report, spec))

        def finish(self, report: Any) -> None:
            if hasattr(self.inner, "finish"):
                self.inner.finish(Audit(report, spec))

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    return replace(spec, implementation=Wrapped)


AUDITED_RUNS = ((), ("--sitemap-url", "https://example.com/sitemap.xml"))


@pytest.mark.parametrize("part", PARTS)
def test_every_check_reports_only_the_rules_it_declares(part: str, monkeypatch) -> None:
    """In the whole run every fixture is checked each way; the first way (no flags) is
    taken by test_dispatch_changes_no_report, whose runs without dispatch are audited."""
    monkeypatch.setattr(dispatch, "CHECKS", [audited(spec) for spec in CHECKS])
    for turn, flags in enumerate(AUDITED_RUNS):
        if part != "everyday" and not flags:
            continue
        for path in share(turn, len(AUDITED_RUNS), part):
            run_json(path, *flags)


def test_selected_checks_follow_the_enabled_rules() -> None:
    families()  # every family's checks registered, whichever tests ran before in this process

    def names(enabled: set[str] | None) -> set[str]:
        chosen = dispatch.selected(None if enabled is None else frozenset(enabled))
        return {
            spec.name.rsplit(".", 2)[-2] + "." + spec.name.rsplit(".", 1)[-1] for spec in chosen
        }

    everything = names(None)
    assert len(everything) == len(CHECKS)
    assert names({"UR001"}) == {
        "urls.LocCheck",
        "image.Checker",
        "video.Checker",
        "hreflang.Checker",
        "pagemap.Checker",  # a Template's src is a URL
    }
    assert names({"SC001"}) == {"scope.ScopeCheck"}
    # The schema rule reads coverage: every check whose findings cover nodes runs for it,
    # beside its own check of what the schema engine rejects.
    assert names({"XS001"}) == {"schema.check_schema_error"} | {
        spec.name.rsplit(".", 2)[-2] + "." + spec.name.rsplit(".", 1)[-1]
        for spec in CHECKS
        if spec.covers
    }
    # So does the length rule, which reports only values no other rule reported.
    assert "dates.check_lastmod" in names({"VA004"})
    assert names(set()) == set()
    # An unused suppression judges the codes of enabled rules only: no other check runs
    # for it (a directive naming a rule that is off is not said to suppress nothing).
    assert names({"SU001"}) == {"suppression.check_directives"}
    assert names({"SU001", "SC001"}) == {"suppression.check_directives", "scope.ScopeCheck"}


# -- the import graph ---------------------------------------------------------------


PLUGIN = Path(__file__).resolve().parent / "plugin_pkg" / "sitemap_lint_demo_plugin"
SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://example.com/a</loc></url>
</urlset>
"""


def installed(tmp_path: Path, points: dict[str, str], module: str | None = None) -> Path:
    """A directory to put on sys.path: the demo plugin (or ``module`` as its source)
    and a dist-info that declares ``points`` in the group sitemap_lint.rules."""
    site = tmp_path / "site-packages"  # plugins are found in site directories
    target = site / "sitemap_lint_demo_plugin"
    shutil.copytree(PLUGIN, target)
    if module is not None:
        (target / "__init__.py").write_text(module, encoding="utf-8")
    info = site / "sitemap_lint_demo_plugin-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: sitemap-lint-demo-plugin\nVersion: 0.1.0\n"
    )
    lines = "".join(f"{name} = {value}\n" for name, value in points.items())
    (info / "entry_points.txt").write_text(f"[sitemap_lint.rules]\n{lines}")
    return site


def cli(site: Path, tmp_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "sitemap.xml"
    path.write_text(SITEMAP, encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
    }
    command = [sys.executable, "-m", "sitemap_lint", "--isolated", "--format", "json", *flags]
    return subprocess.run([*command, str(path)], capture_output=True, text=True, env=env)


@pytest.mark.slow
def test_a_plugin_rule_is_reported_selected_and_documented(tmp_path: Path) -> None:
    site = installed(tmp_path, {"demo": "sitemap_lint_demo_plugin"})
    result = cli(site, tmp_path, "--fail-on", "warning")
    assert result.returncode == 1, result.stderr
    assert '"ZZ001"' in result.stdout and "https://example.com/a" in result.stdout
    assert '"ZZ001"' in cli(site, tmp_path, "--select", "ZZ").stdout
    assert '"ZZ001"' not in cli(site, tmp_path, "--ignore", "ZZ001").stdout
    assert cli(site, tmp_path, "--ignore", "ZZ001", "--fail-on", "warning").returncode == 0
    env = {**os.environ, "PYTHONPATH": str(site)}
    shown = subprocess.run(
        [sys.executable, "-m", "sitemap_lint", "rule", "ZZ001"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert "plain-http-page" in shown.stdout
    # Without the plugin on the path the code is unknown.
    assert cli(tmp_path, tmp_path, "--select", "ZZ").returncode == 2


@pytest.mark.slow
def test_a_plugin_rule_s_unsafe_fix_is_applied_only_when_asked(tmp_path: Path) -> None:
    """The demo rule's fix (another URL: unsafe) goes through the fix model: the JSON
    report carries it, ``--fix`` leaves it, ``--fix --unsafe-fixes`` applies it."""
    site = installed(tmp_path, {"demo": "sitemap_lint_demo_plugin"})
    report = json.loads(cli(site, tmp_path).stdout)
    (finding,) = [f for f in report["files"][0]["findings"] if f["code"] == "ZZ001"]
    assert finding["fix"]["applicability"] == "unsafe"
    assert finding["fix"]["edits"][0]["content"] == "https://example.com/a"
    path = tmp_path / "sitemap.xml"
    cli(site, tmp_path, "--fix")
    assert path.read_text(encoding="utf-8") == SITEMAP
    cli(site, tmp_path, "--fix", "--unsafe-fixes")
    assert "<loc>https://example.com/a</loc>" in path.read_text(encoding="utf-8")


BAD_PREFIX = (PLUGIN / "__init__.py").read_text(encoding="utf-8").replace('"ZZ001"', '"UR901"')
ONE_RULE = (
    (PLUGIN / "__init__.py")
    .read_text(encoding="utf-8")
    .replace("RULES = (PLAIN_HTTP,)", "RULES = PLAIN_HTTP")
    .replace("emits=RULES", "emits=(PLAIN_HTTP,)")
)
UNDECLARED_EMIT = (
    (PLUGIN / "__init__.py").read_text(encoding="utf-8").replace("emits=RULES", 'emits=("ZZ999",)')
)
DEMO = (PLUGIN / "__init__.py").read_text(encoding="utf-8")
NAMED_IN_WORDS = DEMO.replace('"plain-http-page"', '"Plain HTTP page"')
LEVELLED_BY_TEXT = DEMO.replace("    WARNING,\n", '    "warning",\n')
UNDOCUMENTED = DEMO.replace("Detects a `loc` whose URL starts with `http://`.", "")
EXITING = DEMO.replace("FAMILY = ", "raise SystemExit(3)\n\nFAMILY = ")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("points", "module", "message"),
    [
        ({"demo": "sitemap_lint_demo_plugin"}, BAD_PREFIX, "uses the prefix UR of the built-in"),
        (
            {"one": "sitemap_lint_demo_plugin", "two": "sitemap_lint_demo_plugin:PLAIN_HTTP"},
            None,
            "declares no RULES",
        ),
        ({"demo": "no_such_plugin_module"}, None, "cannot be loaded"),
        (
            {"demo": "sitemap_lint_demo_plugin"},
            ONE_RULE,
            "RULES is one rule (ZZ001), not a tuple of rules",
        ),
        (
            {"demo": "sitemap_lint_demo_plugin"},
            UNDECLARED_EMIT,
            "check sitemap_lint_demo_plugin.plain_http reports ZZ999, which no rule declares",
        ),
        (
            {"demo": "sitemap_lint_demo_plugin"},
            NAMED_IN_WORDS,
            "rule ZZ001 has the name 'Plain HTTP page'; write it in lower case",
        ),
        (
            {"demo": "sitemap_lint_demo_plugin"},
            LEVELLED_BY_TEXT,
            "rule ZZ001 has the severity 'warning'; give INFO, WARNING or ERROR",
        ),
        ({"demo": "sitemap_lint_demo_plugin"}, UNDOCUMENTED, "rule ZZ001 has no what: document"),
        # sys.exit() at its import is the plugin's fault too, not a silent exit status.
        ({"demo": "sitemap_lint_demo_plugin"}, EXITING, "cannot be loaded: SystemExit: 3"),
    ],
)
def test_a_bad_plugin_stops_the_run_in_one_line(tmp_path, points, module, message) -> None:
    assert module is None or module != DEMO
    result = cli(installed(tmp_path, points, module), tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr
    assert result.stderr.startswith("sitemap-lint: error: plugin "), result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        # A name is one rule's: `rule NAME` would show either.
        (('"ZZ001"', '"ZZ001"'), ('"plain-http-page"', '"missing-loc"'), "is also the built-in"),
        (('"ZZ001"', '"ZY001"'), ('"plain-http-page"', '"plain-http-page"'), "is also plugin"),
        # Z and ZZ: --select Z would mean both plugins.
        (('"ZZ001"', '"Z002"'), ('"plain-http-page"', '"plain-http-other"'), "shares the prefix"),
    ],
)
def test_two_plugins_with_one_name_or_nested_letters_clash(
    tmp_path: Path, first: tuple[str, str], second: tuple[str, str], message: str
) -> None:
    site = installed(tmp_path, {"one": "sitemap_lint_demo_plugin", "two": "demo_copy"})
    shutil.copytree(site / "sitemap_lint_demo_plugin", site / "demo_copy")
    copy = site / "demo_copy" / "__init__.py"
    copy.write_text(
        copy.read_text(encoding="utf-8").replace(*first).replace(*second), encoding="utf-8"
    )
    if "built-in" in message:  # the clash is the copy's alone
        shutil.rmtree(site / "sitemap_lint_demo_plugin")
        shutil.copytree(site / "demo_copy", site / "sitemap_lint_demo_plugin")
    result = cli(site, tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr


RAISING = (
    (PLUGIN / "__init__.py")
    .read_text(encoding="utf-8")
    .replace("    url = node.text.strip()\n", "    raise ValueError('check exploded')\n")
)


@pytest.mark.slow
def test_an_error_in_a_plugin_check_names_the_plugin(tmp_path: Path) -> None:
    result = cli(installed(tmp_path, {"demo": "sitemap_lint_demo_plugin"}, RAISING), tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "sitemap-lint: error: internal error in plugin module sitemap_lint_demo_plugin: "
        "ValueError: check exploded\n"
    )


@pytest.mark.slow
def test_two_plugins_with_one_code_clash(tmp_path: Path) -> None:
    site = installed(tmp_path, {"one": "sitemap_lint_demo_plugin", "two": "demo_copy"})
    shutil.copytree(site / "sitemap_lint_demo_plugin", site / "demo_copy")
    result = cli(site, tmp_path)
    assert result.returncode == 2
    assert "rule code ZZ001 is also declared by plugin one" in result.stderr


# Three calls in one process, as a program using the API makes them: each says what
# is wrong with the plugin, and what its own exception was.
API_CALLS = """
import json, sitemap_lint
for call in ("lint", "lint", "rules", "select"):
    try:
        if call == "lint":
            sitemap_lint.lint(b"<urlset/>", isolated=True)
        elif call == "rules":
            sitemap_lint.rules()
        else:
            sitemap_lint.lint_paths(["-"], select=["UR"], isolated=True)
        print(json.dumps([call, None, None, None]))
    except Exception as error:
        cause = type(error.__cause__).__name__ if error.__cause__ else None
        print(json.dumps([call, type(error).__name__, str(error), cause]))
"""


def api_calls(site: Path, before: str = "") -> list[list[str | None]]:
    import json

    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run(
        [sys.executable, "-c", before + API_CALLS], capture_output=True, text=True, env=env
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("points", "module", "message", "cause"),
    [
        (
            {"demo": "sitemap_lint_demo_plugin"},
            UNDECLARED_EMIT,
            "check sitemap_lint_demo_plugin.plain_http reports ZZ999, which no rule declares",
            None,
        ),
        ({"demo": "no_such_plugin_module"}, None, "cannot be loaded", "ModuleNotFoundError"),
    ],
)
def test_a_bad_plugin_is_refused_by_every_api_call_alike(
    tmp_path: Path, points: dict[str, str], module: str | None, message: str, cause: str | None
) -> None:
    """Not only the first call of the process: the later ones neither let the plugin in
    nor fail otherwise; and the message is not said to be about an option."""
    calls = api_calls(installed(tmp_path, points, module))
    assert [call[0] for call in calls] == ["lint", "lint", "rules", "select"]
    for _call, kind, text, because in calls:
        assert kind == "UsageError"
        assert text is not None and text.startswith("plugin demo (") and message in text, text
        assert because == cause


AT_LINE_0 = (
    (PLUGIN / "__init__.py")
    .read_text(encoding="utf-8")
    .replace(
        "report.add(\n            PLAIN_HTTP.at(node.line,",
        "report.add(\n            PLAIN_HTTP.at(0,",
    )
)
WORKER_CALL = """
import sys, sitemap_lint
if __name__ == "__main__":
    try:
        sitemap_lint.lint_paths(sys.argv[1:], jobs=2, isolated=True)
    except sitemap_lint.SitemapLintError as error:
        print(error)
"""


@pytest.mark.slow
def test_a_plugin_finding_refused_in_a_worker_process_names_the_plugin(tmp_path: Path) -> None:
    """Big files are checked in worker processes, where the traceback naming the plugin
    stays: the command and the API still name it, and the API raises its own error."""
    assert "PLAIN_HTTP.at(0," in AT_LINE_0
    site = installed(tmp_path, {"demo": "sitemap_lint_demo_plugin"}, AT_LINE_0)
    entries = "".join(
        f"<url><loc>https://example.com/a-page-with-a-long-name/{i}</loc></url>\n"
        for i in range(25_000)
    )
    paths = []
    for name in ("one.xml", "two.xml"):
        path = tmp_path / name
        path.write_text(SITEMAP.replace("</urlset>", f"{entries}</urlset>"), encoding="utf-8")
        assert path.stat().st_size > 1024 * 1024
        paths.append(str(path))
    env = {**os.environ, "PYTHONPATH": str(site)}
    expected = (
        "internal error in plugin module sitemap_lint_demo_plugin: ValueError: check "
        "sitemap_lint_demo_plugin.plain_http reported ZZ001 at line 0, column 8"
    )
    command = [sys.executable, "-m", "sitemap_lint", "--isolated", "--jobs", "2", *paths]
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    assert result.returncode == 2
    assert result.stderr.startswith(f"sitemap-lint: error: {expected}"), result.stderr
    script = tmp_path / "caller.py"
    script.write_text(WORKER_CALL, encoding="utf-8")
    called = subprocess.run(
        [sys.executable, str(script), *paths], capture_output=True, text=True, env=env
    )
    assert called.returncode == 0, called.stderr
    assert called.stdout.startswith(expected), called.stdout


@pytest.mark.slow
def test_a_bad_plugin_the_program_imported_itself_is_refused_as_well(tmp_path: Path) -> None:
    """Its checks registered before the run looked for the plugins: they are its still."""
    site = installed(tmp_path, {"demo": "sitemap_lint_demo_plugin"}, UNDECLARED_EMIT)
    calls = api_calls(site, before="import sitemap_lint_demo_plugin\n")
    message = "check sitemap_lint_demo_plugin.plain_http reports ZZ999, which no rule declares"
    for _call, kind, text, _cause in calls:
        assert kind == "UsageError"
        assert text is not None and text.startswith("plugin demo (") and message in text, text
