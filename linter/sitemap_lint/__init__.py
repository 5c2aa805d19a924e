"""sitemap-lint: validate and lint XML sitemaps and sitemap indexes.

The Python API (docs/api.md)::

    import sitemap_lint

    findings = sitemap_lint.lint(pathlib.Path("public/sitemap.xml"))
    result = sitemap_lint.lint_paths(["public/"], follow=True)
    catalogue = sitemap_lint.rules()

Importing the package is cheap: the API's functions and types load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sitemap_lint._version import __version__
from sitemap_lint.errors import SitemapLintError

if TYPE_CHECKING:
    from sitemap_lint.api import (
        Edit,
        FileReport,
        Finding,
        FindingFix,
        Fix,
        LintResult,
        RuleInfo,
        Severity,
        lint,
        lint_paths,
        rules,
    )

_LAZY = frozenset(
    (
        "Edit",
        "FileReport",
        "Finding",
        "FindingFix",
        "Fix",
        "LintResult",
        "RuleInfo",
        "Severity",
        "lint",
        "lint_paths",
    )
)


def __getattr__(name: str) -> Any:
    """Load the API's functions and types on first use."""
    if name in _LAZY:
        from sitemap_lint import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    if name == "rules":
        # The sub-package sitemap_lint.rules (the registry); calling it is api.rules().
        import importlib

        return importlib.import_module("sitemap_lint.rules")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "rules"})


__all__ = [
    "Edit",
    "FileReport",
    "Finding",
    "FindingFix",
    "Fix",
    "LintResult",
    "RuleInfo",
    "Severity",
    "SitemapLintError",
    "__version__",
    "lint",
    "lint_paths",
    "rules",
]
