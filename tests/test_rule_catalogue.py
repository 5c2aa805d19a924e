"""Every rule is complete: unique code and name, four-section docs, a README entry. (Its\nfailing and passing fixtures, with their .expected files: tests/test_expected.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitemap_lint.report.docs import replace_rule_list
from sitemap_lint.rules import FAMILIES, RULES
from tests.helpers import ROOT, RULE_FIXTURES


def test_codes_and_names_are_unique_and_well_formed() -> None:
    names = [rule.name for rule in RULES.values()]
    assert len(set(names)) == len(names)
    codes = [rule.code for _title, family in FAMILIES for rule in family.RULES]
    assert len(set(codes)) == len(codes) == len(RULES)
    for rule in RULES.values():
        assert re.fullmatch(r"[A-Z]{2}\d{3}", rule.code), rule.code
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule.name


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_has_docs(code: str) -> None:
    doc = RULES[code].doc
    for section in ("## What it does\n", "## Why is this bad?\n", "## Example\n", "Use instead:\n"):
        assert section in doc, (code, section)


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_example_differs_from_its_fix(code: str) -> None:
    """The example and its "Use instead" show different text (a leading blank line,
    say, does not survive the dedent)."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", RULES[code].doc, re.DOTALL)
    assert len(blocks) >= 2 and blocks[0] != blocks[1], code


def test_readme_rule_list_is_generated_from_the_registry() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme == replace_rule_list(readme), (
        "README.md's rule list is stale: run python -m sitemap_lint.report.docs README.md"
    )


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    match = re.search(r"```sh\n(python -m pip install -e '\.\[test\]'.*)\n```", readme)
    assert match, "README quick start lacks the test command"
    assert match.group(1) in ci


def test_fixture_directories_belong_to_rules() -> None:
    stray = sorted(
        p.name for p in Path(RULE_FIXTURES).iterdir() if p.is_dir() and p.name not in RULES
    )
    assert stray == []
