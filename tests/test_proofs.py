"""Every check declares how the fast path proves it (``check(..., proof=...)``).

A built-in check that says nothing is an error when it registers, and every built-in
check of the entry fields has a proof the fast path knows, so no rule turns the fast
path off. A plugin's check with a pattern proof keeps it (the values that do not match
go to the full checker, with the check); one without a proof still runs, the fast path
is off, and the command says so once on stderr.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint import fastpath
from sitemap_lint.model import Node
from sitemap_lint.rules.base import NO_PROOF, WARNING, check, pattern, rule
from sitemap_lint.rules.entry import EntryContext
from sitemap_lint.rules.registry import (
    CHECKS,
    UNDECLARED,
    CheckSpec,
    families,
    is_builtin,
    proved_value,
    rules,
    stateful,
)
from sitemap_lint.rules.structure import Reporter
from tests.helpers import run_cli
from tests.test_engine import installed
from tests.test_fastpath import HEAD, check_both, url_entry, write

FLAGGED = rule(
    "ZY001",
    "flagged-value",
    WARNING,
    summary="A value a plugin flags",
    what="Detects a value the test's plugin check does not like.",
    why="It shows that a plugin's check sees every value it must see.",
    bad="<loc>https://example.com/draft/</loc>",
    good="<loc>https://example.com/</loc>",
)


def builtin_checks() -> list[CheckSpec]:
    families()
    return [spec for spec in CHECKS if is_builtin(spec.name)]


def test_every_builtin_check_declares_a_proof_the_fast_path_knows() -> None:
    checks = builtin_checks()
    assert len(checks) >= 14
    for spec in checks:
        assert spec.proof is not UNDECLARED, f"{spec.name} declares no proof"
        if spec.on_fields:
            assert fastpath.proves(spec.proof), f"{spec.name}: the fast path cannot prove it"
    assert fastpath.unproved(None) == []
    assert fastpath.notes(lambda: None) == []
    # The extension checks whose elements the fast path proves take them by hand-over.
    taken = {spec.namespace: spec.proof for spec in checks if spec.namespace}
    for namespace, name in fastpath.EXTENSION_HANDOVERS.items():
        assert taken[namespace] == stateful(name)


def loose(node: Node, entry: EntryContext, report: Reporter) -> None:
    """A check with nothing to report (for registrations that must fail)."""


def test_a_builtin_check_without_a_proof_is_an_error_at_registration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(loose, "__module__", "sitemap_lint.rules.loose")
    before = len(CHECKS)
    with pytest.raises(ValueError, match=r"sitemap_lint\.rules\.loose\.loose declares no proof"):
        check("loc", emits=("UR001",))(loose)
    with pytest.raises(ValueError, match="declares no proof"):
        check("extension", namespace="urn:x", emits=("UR001",))(loose)
    assert len(CHECKS) == before


def test_a_plugin_proves_by_a_pattern_or_not_at_all() -> None:
    before = len(CHECKS)
    for builtin_proof in (proved_value("url"), stateful("duplicates")):
        with pytest.raises(ValueError, match="a plugin's check is proved by a pattern"):
            check("loc", emits=("UR001",), proof=builtin_proof)(loose)
    with pytest.raises(ValueError, match="proof pattern"):
        pattern("(unclosed")
    with pytest.raises(ValueError, match="entry fields only"):
        check("extension", namespace="urn:x", emits=("UR001",), proof=pattern("x"))
    assert len(CHECKS) == before


@contextmanager
def plugin_check(field: str, flagged: Callable[[str], bool], **proof: Any) -> Iterator[CheckSpec]:
    """A plugin's check of ``field`` that reports FLAGGED where ``flagged(value)``,
    registered while the block runs."""
    rules()  # the catalogue, made before the check that reports a code outside it

    def flag(node: Node, entry: EntryContext, report: Reporter) -> None:
        if flagged(node.text):
            report.add(FLAGGED.at(node.line, node.column, f"{field} {node.text} is flagged"))

    before = len(CHECKS)
    check(field, emits=(FLAGGED,), **proof)(flag)
    try:
        yield CHECKS[-1]
    finally:
        del CHECKS[before:]


def plugin_sitemap(count: int) -> str:
    """``count`` entries; every seventh one holds a value each check below flags."""
    rng = random.Random(3)
    entries = []
    for i in range(count):
        if i % 7 == 3:
            entries.append(
                f"  <url><loc>https://www.example.com/draft/page-{i}.html</loc>"
                "<lastmod>2019-01-01</lastmod><changefreq>yearly</changefreq>"
                "<priority>0.95</priority></url>\n"
            )
        else:
            entries.append(url_entry(i, rng))
    return HEAD + "".join(entries) + "</urlset>\n"


FLAGS: dict[str, tuple[Callable[[str], bool], str]] = {
    "loc": (lambda value: "/draft/" in value, r"(?:(?!/draft/).)*"),
    "lastmod": (lambda value: value < "2020", r"20[2-9][0-9]-.*"),
    "changefreq": (lambda value: value == "yearly", r"(?!yearly\Z).*"),
    "priority": (lambda value: value == "0.95", r"(?!0\.95\Z).*"),
}


@pytest.mark.parametrize("field", list(FLAGS))
def test_a_plugin_check_with_a_pattern_proof_keeps_the_fast_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, field: str
) -> None:
    flagged, regex = FLAGS[field]
    with plugin_check(field, flagged, proof=pattern(regex)) as spec:
        assert fastpath.unproved(None) == []
        outcome = check_both(monkeypatch, write(tmp_path, plugin_sitemap(280)))
    codes = [finding.code for finding in outcome.findings]
    # Each flagged value is reported (the full checker took its entry), the rest proved.
    assert codes.count("ZY001") == 40, spec.name
    assert outcome.proved >= 200


def test_a_plugin_check_without_a_proof_turns_the_fast_path_off(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    flagged = FLAGS["loc"][0]
    for proof in ({}, {"proof": NO_PROOF}, {"proof": None}):
        with plugin_check("loc", flagged, **proof) as spec:
            assert fastpath.unproved(None) == [spec]
            (note,) = fastpath.notes(lambda: None)
            assert spec.name in note and "slower pace" in note
            # Only when its rules are enabled.
            assert fastpath.notes(lambda: frozenset({"UR001"})) == []
            outcome = check_both(monkeypatch, write(tmp_path, plugin_sitemap(280)))
        assert outcome.proved == 0
        assert [finding.code for finding in outcome.findings].count("ZY001") == 40


@pytest.mark.parametrize("mode", ["--diff", "--fix-only", "--fix"])
def test_the_fixing_modes_say_too_that_a_check_slows_them(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, plugin_sitemap(280).replace("<loc>", "<loc> ", 1))
    with plugin_check("loc", FLAGS["loc"][0]) as spec:
        # The fixer's passes read every rule: its rules need not be selected.
        status, _out, err = run_cli(["--isolated", "--select", "UR", mode, str(path)], capsys)
    assert status in (0, 1), err
    notes = [line for line in err.splitlines() if "declares no proof" in line]
    assert len(notes) == 1 and spec.name in notes[0]


PROVED_PLUGIN = (
    (Path(__file__).resolve().parent / "plugin_pkg" / "sitemap_lint_demo_plugin" / "__init__.py")
    .read_text(encoding="utf-8")
    .replace("import WARNING, check, rule", "import WARNING, check, pattern, rule")
    .replace(
        '@check("loc", emits=RULES)', '@check("loc", emits=RULES, proof=pattern(r"https://.*"))'
    )
)


@pytest.mark.slow
@pytest.mark.parametrize("proved", [False, True])
def test_the_command_says_once_that_a_plugin_slows_it_down(tmp_path: Path, proved: bool) -> None:
    site = installed(
        tmp_path, {"demo": "sitemap_lint_demo_plugin"}, PROVED_PLUGIN if proved else None
    )
    text = HEAD + "".join(
        f"  <url><loc>{'http' if i % 50 == 0 else 'https'}://www.example.com/p/{i}</loc></url>\n"
        for i in range(400)
    )
    paths = [write(tmp_path, text + "</urlset>\n", name) for name in ("a.xml", "b.xml")]
    env = {**os.environ, "PYTHONPATH": str(site)}
    command = [sys.executable, "-m", "sitemap_lint", "--isolated", "--format", "json"]
    result = subprocess.run([*command, *map(str, paths)], capture_output=True, text=True, env=env)
    assert '"ZZ001": 16' in result.stdout, result.stderr  # the report's count by rule
    notes = [line for line in result.stderr.splitlines() if "declares no proof" in line]
    if proved:
        assert notes == []
    else:
        assert notes == [
            "sitemap-lint: note: the check sitemap_lint_demo_plugin.plain_http (ZZ001) "
            "declares no proof for loc: files are read at the slower pace"
        ]


@contextmanager
def event_check(target: str, flag: Callable[[Node, Reporter], None]) -> Iterator[CheckSpec]:
    """A plugin's check of ``target`` (``root`` or ``entry``), registered while the
    block runs."""
    rules()

    def look(node: Node, context: object, report: Reporter) -> None:
        flag(node, report)

    before = len(CHECKS)
    check(target, emits=(FLAGGED,))(look)
    try:
        yield CHECKS[-1]
    finally:
        del CHECKS[before:]


def _flag_unschemed_root(root: Node, report: Reporter) -> None:
    if "{http://www.w3.org/2001/XMLSchema-instance}schemaLocation" not in root.attrs:
        report.add(FLAGGED.at(root.line, root.column, "the root names no schema location"))


def _flag_bare_entry(entry: Node, report: Reporter) -> None:
    if len(entry.children) == 1:  # a loc alone
        report.add(FLAGGED.at(entry.line, entry.column, "an entry with a loc only"))


def test_a_plugin_checks_the_root_and_the_fast_path_stays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with event_check("root", _flag_unschemed_root):
        assert fastpath.unproved(None) == []
        outcome = check_both(monkeypatch, write(tmp_path, plugin_sitemap(280)))
    assert [(f.code, f.line, f.column) for f in outcome.findings] == [("ZY001", 2, 1)]
    assert outcome.proved >= 200


def test_a_plugin_checks_whole_entries_and_says_it_slows_the_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    text = plugin_sitemap(70).replace(
        "<url><loc>https://www.example.com/draft/page-3.html</loc>",
        "<url><loc>https://www.example.com/bare</loc></url>\n  "
        "<url><loc>https://www.example.com/draft/page-3.html</loc>",
    )
    with event_check("entry", _flag_bare_entry) as spec:
        assert fastpath.unproved(None) == [spec]
        (note,) = fastpath.notes(lambda: None)
        # No proof could keep the fast path: the note does not say one is missing.
        assert note == (
            f"the check {spec.name} (ZY001) reads whole entries (entry), which the fast "
            "path does not build: files are read at the slower pace"
        )
        outcome = check_both(monkeypatch, write(tmp_path, text))
    assert outcome.proved == 0
    assert [f.code for f in outcome.findings] == ["ZY001"]
    assert outcome.findings[0].xpath == "/urlset/url[4]"


def test_an_entry_or_root_check_has_no_pattern_proof() -> None:
    for target in ("root", "entry"):
        with pytest.raises(ValueError, match="entry fields only"):
            check(target, emits=("UR001",), proof=pattern("x"))


def test_the_note_names_a_children_check_s_target() -> None:
    with event_check("children", _flag_bare_entry) as spec:
        (note,) = fastpath.notes(lambda: None)
    assert spec.name in note and "reads whole entries (children)" in note
    assert "declares no proof" not in note
