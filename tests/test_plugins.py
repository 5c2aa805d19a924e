"""What a plugin's checks can and cannot do to a run: the rules it declares select its
checks, and what it gets wrong is refused in one line naming it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import sitemap_lint
from sitemap_lint.model import Node
from sitemap_lint.rules.entry import EntryContext
from tests.helpers import noting_rule, plugin_checks, run_cli

SITEMAP = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/a</loc></url>
</urlset>
"""


def _exploding(node: Node, entry: EntryContext, report: Any) -> None:
    raise RuntimeError("check exploded")


# -- a check runs only while one of its rules is enabled --------------------------------


@pytest.mark.parametrize("ignored", ["ZX101", "ZX"])
def test_an_ignored_plugin_rule_s_check_does_not_run(ignored: str) -> None:
    """Ignoring the rule switches off a check that crashes (the unused-suppression rule,
    on by default, does not make every check run)."""
    noted = noting_rule("ZX101", "noted-exploding")
    with plugin_checks(("loc", noted, _exploding)):
        assert sitemap_lint.lint(SITEMAP, ignore=[ignored], isolated=True) == []
        assert sitemap_lint.lint(SITEMAP, select=["UR", "SU"], isolated=True) == []


def test_an_ignored_plugin_check_without_proof_keeps_the_fast_path() -> None:
    from sitemap_lint.fastpath import unproved  # the checks that turn the fast path off
    from sitemap_lint.settings.selection import RuleSelection, Selection

    noted = noting_rule("ZX102", "noted-unproved")
    with plugin_checks(("loc", noted, _exploding)):
        assert [spec.emits for spec in unproved(Selection().enabled())] == [frozenset({"ZX102"})]
        ignoring = Selection([RuleSelection(ignore=("ZX",))])
        assert unproved(ignoring.enabled()) == []


def test_a_directive_naming_an_ignored_rule_is_not_judged() -> None:
    """Its rule's check does not run, so nothing says the directive suppresses nothing;
    a directive naming an enabled rule that found nothing still is."""
    data = (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        b"<!-- sitemap-lint: disable-next-line UR008 -->\n"
        b"<url><loc>https://example.com/a</loc></url>\n"
        b"</urlset>\n"
    )
    assert [f.code for f in sitemap_lint.lint(data, isolated=True)] == ["SU001"]
    assert sitemap_lint.lint(data, ignore=["UR008"], isolated=True) == []
    assert sitemap_lint.lint(data, ignore=["UR"], isolated=True) == []
    # A prefix judged only when every rule it names is enabled.
    prefix = data.replace(b"UR008 -->", b"UR -->")
    assert [f.code for f in sitemap_lint.lint(prefix, isolated=True)] == ["SU001"]
    assert sitemap_lint.lint(prefix, ignore=["UR008"], isolated=True) == []


# -- the set checks -----------------------------------------------------------------------


def test_the_set_checks_do_not_run_on_a_set_of_no_file() -> None:
    """A URL whose fetch fails leaves no file checked: no set to hand to a plugin whose
    ``report.add(0, ...)`` is what the docs show."""
    from sitemap_lint.rules.registry import SET
    from sitemap_lint.rules.sets import CheckedSet, SetReporter

    noted = noting_rule("ZX103", "noted-set-size")
    seen: list[int] = []

    def note_set(checked: CheckedSet, options: object, report: SetReporter) -> None:
        seen.append(len(checked.files))
        report.add(0, noted.at(1, 1, f"{len(checked.files)} files"))

    with plugin_checks((SET, noted, note_set)):
        # Port 9 of a private address: refused without a connection (FE finding).
        result = sitemap_lint.lint_paths(["http://127.0.0.1:9/sitemap.xml"], isolated=True)
    assert seen == []
    assert [f.code for f in result.findings if f.code.startswith("ZX")] == []
    assert [f.code[:2] for f in result.findings] == ["FE"]


def test_a_set_reporter_refuses_a_file_it_does_not_have() -> None:
    from sitemap_lint.engine.sink import FindingSink
    from sitemap_lint.sets.runner import SetReport

    finding = noting_rule("ZX104", "noted-index").at(1, 1, "here")
    report = SetReport([FindingSink(), FindingSink()])
    report.add(1, finding)
    for bad in (2, -1):
        with pytest.raises(IndexError, match=rf"no file {bad} in a set of 2 files"):
            report.add(bad, finding)
    with pytest.raises(IndexError, match="no file 5 in a set of 2 files"):
        report.silencer(5, finding.code)
    assert [sink.findings for sink in report.sinks] == [[], [finding]]


# -- what a plugin's check reports ------------------------------------------------------


def _command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "sitemap.xml"
    path.write_bytes(SITEMAP)
    return run_cli(["check", "--isolated", str(path)], capsys)


def test_a_plugin_check_cannot_report_a_code_it_does_not_declare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A code outside its ``emits`` could be neither selected, ignored nor explained."""
    noted = noting_rule("ZX105", "noted-declared")
    other = noting_rule("ZX106", "noted-undeclared")

    def undeclared(node: Node, entry: EntryContext, report: Any) -> None:
        report.add(other.at(node.line, node.column, "not in emits"))

    with plugin_checks(("loc", noted, undeclared)):
        status, out, err = _command(tmp_path, capsys)
    assert (status, out) == (2, "")
    assert err == (
        "sitemap-lint: error: internal error in plugin module tests.test_plugins: ValueError: "
        "check tests.test_plugins.test_a_plugin_check_cannot_report_a_code_it_does_not_declare"
        ".<locals>.undeclared reported ZX106, which it does not declare: name the rule in "
        "emits= (it declares ZX105)\n"
    )


@pytest.mark.parametrize(("line", "column"), [(0, 0), (3, 0), (0, 5)])
def test_a_plugin_check_cannot_report_at_line_or_column_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: int, column: int
) -> None:
    """Lines and columns count from 1 in every report (SARIF would say 1, the others 0)."""
    noted = noting_rule("ZX107", "noted-position")

    def at_zero(node: Node, entry: EntryContext, report: Any) -> None:
        report.add(noted.at(line, column, "nowhere"))

    with plugin_checks(("loc", noted, at_zero)):
        status, out, err = _command(tmp_path, capsys)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert "internal error in plugin module tests.test_plugins: ValueError: " in err
    assert f"reported ZX107 at line {line}, column {column}: lines and columns count from 1" in err


class _CountingLocs:
    """A plugin's check made once a file, that reports at its end."""

    def __init__(self, file: object) -> None:
        self.count = 0

    def check(self, node: Node, entry: EntryContext, report: Any) -> None:
        self.count += 1

    def finish(self, report: Any) -> None:
        report.add(_COUNTED.at(1, 0 if self.count else 1, f"{self.count} locs"))


_COUNTED = noting_rule("ZX108", "noted-count")


def test_a_plugin_check_made_once_a_file_is_held_to_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with plugin_checks(("loc", _COUNTED, _CountingLocs)):
        status, _out, err = _command(tmp_path, capsys)
    assert status == 2
    assert "reported ZX108 at line 1, column 0: lines and columns count from 1" in err


def test_a_plugin_check_s_good_findings_pass(tmp_path: Path) -> None:
    noted = noting_rule("ZX109", "noted-good")

    def good(node: Node, entry: EntryContext, report: Any) -> None:
        report.add(noted.at(node.line, node.column, "here"))

    with plugin_checks(("loc", noted, good)):
        findings = sitemap_lint.lint(SITEMAP, isolated=True)
    assert [(f.code, f.line, f.column) for f in findings] == [("ZX109", 3, 8)]


# -- the API -----------------------------------------------------------------------------


@pytest.mark.parametrize("paths", [False, True])
def test_a_plugin_check_that_raises_raises_sitemap_lint_error_from_the_api(
    tmp_path: Path, paths: bool
) -> None:
    """What makes the command exit 2 raises SitemapLintError, with the command's line; the
    plugin's own exception is its cause."""
    noted = noting_rule("ZX110", "noted-raising")
    path = tmp_path / "boom.xml"
    path.write_bytes(SITEMAP)
    with (
        plugin_checks(("loc", noted, _exploding)),
        pytest.raises(sitemap_lint.SitemapLintError) as raised,
    ):
        if paths:
            sitemap_lint.lint_paths([path], isolated=True)
        else:
            sitemap_lint.lint(path, isolated=True)
    assert str(raised.value) == (
        "internal error in plugin module tests.test_plugins: RuntimeError: check exploded"
    )
    assert isinstance(raised.value.__cause__, RuntimeError)


def test_first_calls_in_threads_take_the_plugins_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Calls that start together in several threads do not each load the plugins (a
    plugin's checks register once, when its module is imported): each gets the one
    refusal of a bad plugin, none a half-made catalogue."""
    import threading
    import time

    from sitemap_lint.errors import UsageError
    from sitemap_lint.rules import registry

    loads = []

    def refused(builtin: object) -> list[Any]:
        loads.append(1)
        time.sleep(0.05)
        raise UsageError("plugin bad (bad_plugin): declares no RULES")

    monkeypatch.setattr(registry, "_families", None)
    monkeypatch.setattr(registry, "_rules", None)
    monkeypatch.setattr(registry, "_refusal", None)
    monkeypatch.setattr(registry, "plugin_families", refused)
    start = threading.Barrier(4)
    raised: list[str] = []

    def first_call() -> None:
        start.wait()
        try:
            registry.rules()
        except Exception as error:
            raised.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=first_call) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(loads) == 1
    assert raised == ["UsageError: plugin bad (bad_plugin): declares no RULES"] * 4


# -- what a plugin's finding carries ------------------------------------------------------


def _fixing_rule(code: str, name: str, fix: str) -> Any:
    from sitemap_lint.rules.base import WARNING, rule

    return rule(
        code,
        name,
        WARNING,
        summary="A test's plugin rule with a fix",
        what="Offers a fix.",
        why="It shows what a fix may be.",
        bad="<urlset/>",
        good="<urlset/>",
        fix=fix,
    )


@pytest.mark.parametrize(
    ("declared", "safe", "refusal"),
    [
        ("none", True, "with a fix, but rule ZX111 declares none"),
        ("none", False, "with a fix, but rule ZX111 declares none"),
        ("unsafe", True, "with a safe fix, but rule ZX111 declares its fix unsafe"),
        ("unsafe", False, None),
        ("safe", True, None),
        # A safe rule's finding may offer an unsafe fix, as the built-in rules' do.
        ("safe", False, None),
    ],
)
def test_a_plugin_finding_carries_only_a_fix_its_rule_declares(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    declared: str,
    safe: bool,
    refusal: str | None,
) -> None:
    """``rule CODE`` documents the rule's fix safety and ``--fix`` keeps to it: a fix the
    rule does not declare would be applied by a plain ``--fix`` while its page says there
    is none, or that it is unsafe."""
    from sitemap_lint.fix.model import replace_text

    noted = _fixing_rule("ZX111", "noted-fix", declared)

    def fixing(node: Node, entry: EntryContext, report: Any) -> None:
        if node.text.endswith("/a"):
            fix = replace_text(node, "https://example.com/b", "List b", safe=safe)
            report.add(noted.at(node.line, node.column, "list b", fix=fix))

    path = tmp_path / "sitemap.xml"
    path.write_bytes(SITEMAP)
    with plugin_checks(("loc", noted, fixing)):
        status, out, err = run_cli(["check", "--isolated", "--fix", str(path)], capsys)
    if refusal is None:
        assert status in (0, 1), err
        fixed = b"https://example.com/b" in path.read_bytes()
        assert fixed == safe
        return
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1, err
    assert "internal error in plugin module tests.test_plugins: ValueError: " in err
    assert refusal in err
    assert path.read_bytes() == SITEMAP


@pytest.mark.parametrize(
    ("line", "message", "refusal"),
    [
        ("3", "here", "reported ZX112 at line '3', column 8: give the line and column as int"),
        (3.0, "here", "reported ZX112 at line 3.0, column 8: give the line and column as int"),
        (3, ["here"], "reported ZX112 with the message ['here']: give a str"),
        (3, "  ", "reported ZX112 with the message '  ': give a str"),
    ],
)
def test_a_plugin_finding_of_the_wrong_types_is_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: Any, message: Any, refusal: str
) -> None:
    noted = noting_rule("ZX112", "noted-types")

    def typed(node: Node, entry: EntryContext, report: Any) -> None:
        report.add(noted.at(line, node.column, message))

    with plugin_checks(("loc", noted, typed)):
        status, out, err = _command(tmp_path, capsys)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1, err
    assert err.startswith(
        "sitemap-lint: error: internal error in plugin module tests.test_plugins: TypeError: check "
    )
    assert refusal in err


def _no_report(node: Node) -> None:
    """A check whose signature takes too few arguments: its call fails in the caller."""


class _NoFile:
    """A check made once a file whose ``__init__`` takes no file context."""

    def __init__(self) -> None:
        self.count = 0

    def check(self, node: Node, entry: EntryContext, report: Any) -> None:
        self.count += 1


@pytest.mark.parametrize("implementation", [_no_report, _NoFile])
def test_a_plugin_check_called_against_its_signature_names_the_plugin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], implementation: Any
) -> None:
    """The TypeError is raised before any of the plugin's code runs: no frame of it is in
    the traceback, but the plugin is still the one at fault."""
    noted = noting_rule("ZX113", "noted-signature")
    with plugin_checks(("loc", noted, implementation)):
        status, out, err = _command(tmp_path, capsys)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1, err
    assert err.startswith(
        "sitemap-lint: error: internal error in plugin module tests.test_plugins: TypeError: "
    ), err
    with (
        plugin_checks(("loc", noted, implementation)),
        pytest.raises(sitemap_lint.SitemapLintError) as raised,
    ):
        sitemap_lint.lint(SITEMAP, isolated=True)
    assert str(raised.value).startswith("internal error in plugin module tests.test_plugins: ")
    assert isinstance(raised.value.__cause__, TypeError)


# -- docs/plugins.md ---------------------------------------------------------------------


def _emitted_and_reported(block: str) -> list[tuple[str, set[str], set[str]]]:
    """Each check a block of Python declares: its name, the rules its ``emits`` names (a
    module's ``RULES`` read as the rules the block declares or uses) and those its body
    reports (``RULE.at(...)``)."""
    import ast

    tree = ast.parse(block)
    declared = {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    used = {
        call.func.value.id
        for call in ast.walk(tree)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "at"
        and isinstance(call.func.value, ast.Name)
    }

    def names(value: ast.expr) -> set[str]:
        if isinstance(value, ast.Name) and value.id == "RULES":
            return names(declared["RULES"]) if "RULES" in declared else set(used)
        if isinstance(value, ast.Name):
            return {value.id}
        assert isinstance(value, ast.Tuple), ast.dump(value)
        return {name for item in value.elts for name in names(item)}

    found = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.ClassDef):
            continue
        for decorator in node.decorator_list:
            assert isinstance(decorator, ast.Call)
            (emits,) = [k.value for k in decorator.keywords if k.arg == "emits"]
            reported = {
                call.func.value.id
                for call in ast.walk(node)
                if isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == "at"
                and isinstance(call.func.value, ast.Name)
            }
            found.append((node.name, names(emits), reported))
    return found


def test_each_check_of_docs_plugins_md_registers_and_emits_the_rules_it_reports() -> None:
    """Run as written (with stand-in rules where a block uses rules it does not declare),
    each example registers; and each names in ``emits`` the rules it reports, no more:
    a check of whole entries emitting the module's every rule would turn the fast path
    off while only another check's rule is enabled."""
    import re

    from sitemap_lint.rules.base import WARNING, rule
    from sitemap_lint.rules.registry import CHECKS, rules
    from tests.helpers import ROOT

    page = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.DOTALL)
    assert len(blocks) == 13
    rules()
    checked = 0
    for number, block in enumerate(blocks):
        namespace: dict[str, Any] = {"__name__": f"docs_plugin_example_{number}"}
        for index, name in enumerate(sorted(set(re.findall(r"\b([A-Z][A-Z_]+)\.at\(", block)))):
            namespace[name] = rule(
                f"Q{'ABCDEFGHJKLMNP'[number]}{index + 1:03d}",
                f"example-{number}-{name.lower().replace('_', '-')}",
                WARNING,
                summary="s",
                what="w",
                why="y",
                bad="b",
                good="g",
            )
        namespace.setdefault("RULES", tuple(v for v in namespace.values() if hasattr(v, "at")))
        preamble = "from sitemap_lint.rules.base import WARNING, check, pattern, rule\n"
        before = len(CHECKS)
        try:
            exec(compile(preamble + block, "docs/plugins.md", "exec"), namespace)
            registered = CHECKS[before:]
        finally:
            del CHECKS[before:]
        found = _emitted_and_reported(block)
        assert len(registered) == len(found), block
        for name, emitted, reported in found:
            assert emitted == reported, (name, emitted, reported)
            checked += 1
    assert checked == 23
