"""Helpers shared by the rule families: building a Rule with its documentation."""

from __future__ import annotations

from sitemap_lint.finding import Fix, Rule, Severity, dedent_block
from sitemap_lint.rules.registry import NO_PROOF, check, pattern

__all__ = ["ERROR", "INFO", "NO_PROOF", "WARNING", "check", "pattern", "rule"]

ERROR = Severity.ERROR
WARNING = Severity.WARNING
INFO = Severity.INFO

# How each documentation section is dedented (now written out in ``finding.render_doc``).
_block = dedent_block


def rule(
    code: str,
    name: str,
    severity: Severity,
    *,
    summary: str,
    what: str,
    why: str,
    bad: str,
    good: str,
    lang: str = "xml",
    fix: Fix | str = Fix.NONE,
) -> Rule:
    """Define a rule; its documentation follows the same four sections everywhere
    (written out when first read: ``Rule.doc``)."""
    return Rule(code, name, severity, summary, (what, why, bad, good, lang), Fix(fix))
