"""The domain package is pure analysis: it reports nothing and knows no rules."""

from __future__ import annotations

import ast
from pathlib import Path

import sitemap_lint.domain

DOMAIN = Path(sitemap_lint.domain.__file__).parent


def test_domain_modules_import_no_findings_rules_or_reports() -> None:
    modules = sorted(DOMAIN.glob("*.py"))
    assert len(modules) >= 3
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                # The helpers that make start-up cheaper: regular expressions compiled
                # on first use, named tuples declared without typing's checks.
                assert (
                    not name.startswith("sitemap_lint.")
                    or name.startswith("sitemap_lint.domain")
                    or name in ("sitemap_lint.support.patterns", "sitemap_lint.support.records")
                ), f"{path.name} imports {name}"
