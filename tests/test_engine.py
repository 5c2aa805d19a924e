"""The engine's seams: light result types, rule discovery, dispatch by the enabled rules,
and the one finding sink."""

from __future__ import annotations

import subprocess
import sys


def test_a_reporter_does_not_load_the_parser_or_the_rules() -> None:
    code = (
        "import sys, sitemap_lint.report.json, sitemap_lint.results\n"
        "loaded = [m for m in ('lxml', 'sitemap_lint.checker', 'sitemap_lint.rules') "
        "if m in sys.modules]\n"
        "print(','.join(loaded))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_rules_have_no_fix_unless_they_declare_one() -> None:
    from sitemap_lint.finding import Fix
    from sitemap_lint.rules import RULES
    from sitemap_lint.rules.base import WARNING, rule

    assert {r.fix for r in RULES.values()} == {Fix.NONE}
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
