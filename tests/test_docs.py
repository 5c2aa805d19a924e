"""docs/rules.md is generated from the registry and kept current."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from sitemap_lint.report.docs import main, render, rules_document
from sitemap_lint.rules import RULES
from sitemap_lint.settings.profiles import PROFILES
from tests.helpers import ROOT

RULES_MD = ROOT / "docs" / "rules.md"


def test_docs_rules_md_is_generated_from_the_registry() -> None:
    assert RULES_MD.read_text(encoding="utf-8") == rules_document(), (
        "docs/rules.md is stale: run python -m sitemap_lint.report.docs README.md docs/rules.md"
    )


def test_every_rule_is_documented_with_its_profile_severities() -> None:
    document = rules_document()
    for code, rule in RULES.items():
        assert f"### `{code}` {rule.name}\n" in document
        assert rule.summary in document
    assert "Severity: warning (bing: error)." in document  # DT005
    assert "#### What it does" in document and "\n## What it does" not in document


def test_main_writes_both_files(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text((ROOT / "README.md").read_text(encoding="utf-8").replace("`UR001`", "x"))
    target = tmp_path / "docs" / "rules.md"
    assert main([str(readme), str(target)]) == 0
    assert readme.read_text(encoding="utf-8") == (ROOT / "README.md").read_text(encoding="utf-8")
    assert target.read_text(encoding="utf-8") == rules_document()


def test_refuses_other_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="neither"):
        render(tmp_path / "notes.md", "text")


def test_readme_names_every_change_of_each_profile() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for profile in PROFILES.values():
        row = next(line for line in readme.splitlines() if line.startswith(f"| `{profile.name}` |"))
        missing = [code for code in profile.changes if f"`{code}`" not in row]
        assert not missing, f"README's profile table leaves out {profile.name}'s {missing}"


SUBPACKAGES = "settings|inputs|fastpath|formats|engine|rules|domain|xsd|sets|live|diff|fix|report"
QUALIFIED = re.compile(rf"`((?:{SUBPACKAGES}|support)\.[A-Za-z_][\w.]*)`")


def _resolves(dotted: str) -> bool:
    """Whether ``sitemap_lint.<dotted>`` names a module, or a module's attribute."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(["sitemap_lint", *parts[:cut]]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                found = getattr(found, name)
        except AttributeError:
            return False
        return True
    return False


@pytest.mark.parametrize("doc", ["architecture.md", "scale.md", "live.md", "plugins.md"])
def test_the_docs_name_the_package_s_modules_classes_and_functions_where_they_are(
    doc: str,
) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    named = sorted(set(QUALIFIED.findall(text)))
    assert named
    assert [dotted for dotted in named if not _resolves(dotted)] == []


@pytest.mark.parametrize(
    "kinds", ["FetchKind", "InputKind", "MarkupKind", "FollowKind", "LineKind"]
)
def test_plugins_md_names_every_kind_a_check_may_be_handed(kinds: str) -> None:
    from sitemap_lint.rules import events

    declared = getattr(events, kinds)
    values = [value for name, value in vars(declared).items() if name.isupper()]
    text = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    assert values
    assert [value for value in values if f"`{value}`" not in text] == []


def _keys(value: object) -> set[str]:
    """Every key of every object in a JSON document."""
    if isinstance(value, dict):
        return set(value).union(*(_keys(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(item) for item in value))
    return set()


def test_readme_names_every_key_of_the_json_report(tmp_path: Path) -> None:
    """The JSON report is a stable interface: each key it writes (a finding's fix and its
    edits too, a byte order mark's target, a baseline's counts) is named in the README."""
    import json
    from io import StringIO

    from sitemap_lint.run import RunSettings, execute

    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"sitemap-lint-baseline": 1, "findings": []}\n', encoding="utf-8")
    out = StringIO()
    paths = [str(ROOT / "fixtures" / "fix" / name) for name in ("mixed.xml", "bom.xml")]
    settings = RunSettings(
        paths=paths, format="json", isolated=True, now="2025-06-01", baseline=str(baseline)
    )
    execute(settings, out=out)
    document = json.loads(out.getvalue())
    keys = _keys(document)
    assert {"fix", "edits", "end_location", "target", "baseline"} <= keys
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(\w+)`", readme)) | set(re.findall(r'"(\w+)":', readme))
    assert sorted(keys - named) == []


def _named_in(text: str, module: Path) -> bool:
    """Whether ``text`` names ``module`` (a path relative to the package): as a path,
    dotted, or by its name alone (as a subpackage's row names its modules)."""
    parts = module.with_suffix("").parts
    if parts[-1] == "__init__":
        return len(parts) == 1 or f"`{'/'.join(parts[:-1])}/`" in text
    forms = [f"`{module.as_posix()}`", f"`{module.name}`", f"`{'.'.join(parts)}`"]
    forms += [f"`{'.'.join(parts)}.", f"`{parts[-1]}`", f"`{parts[-1]}."]
    return any(form in text for form in forms)


def test_architecture_md_names_every_module_of_the_package() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    package = ROOT / "linter" / "sitemap_lint"
    modules = sorted(path.relative_to(package) for path in package.rglob("*.py"))
    assert len(modules) > 100
    assert [str(module) for module in modules if not _named_in(text, module)] == []


def test_live_md_names_every_key_of_the_json_report_s_live_summary() -> None:
    from sitemap_lint.live.audit import LiveStats
    from sitemap_lint.report.json import _untimed

    keys = set(_untimed(LiveStats().as_dict()))
    assert {"statuses", "chains"} <= keys
    text = (ROOT / "docs" / "live.md").read_text(encoding="utf-8")
    assert sorted(key for key in keys if f"`{key}`" not in text) == []
