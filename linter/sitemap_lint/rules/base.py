"""Helpers shared by the rule families: building a Rule with its documentation."""

from __future__ import annotations

from textwrap import dedent

from sitemap_lint.finding import Fix, Rule, Severity
from sitemap_lint.rules.registry import check

__all__ = ["ERROR", "INFO", "WARNING", "check", "rule"]

ERROR = Severity.ERROR
WARNING = Severity.WARNING
INFO = Severity.INFO


def _block(text: str) -> str:
    """``textwrap.dedent(text).strip("\\n")`` without its regular expressions: every rule
    is declared at start-up, and dedent's regexes took a fifth of that time."""
    lines = text.split("\n")
    margin: int | None = None
    for line in lines:
        stripped = line.lstrip(" \t")
        if not stripped:
            continue
        width = len(line) - len(stripped)
        if "\t" in line[:width]:
            return dedent(text).strip("\n")  # tabs: dedent compares margins exactly
        margin = width if margin is None else min(margin, width)
    width = margin or 0
    return "\n".join(line[width:] if line.strip(" \t") else "" for line in lines).strip("\n")


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
    """Define a rule; its documentation follows the same four sections everywhere."""
    doc = (
        f"## What it does\n{_block(what)}\n\n"
        f"## Why is this bad?\n{_block(why)}\n\n"
        f"## Example\n```{lang}\n{_block(bad)}\n```\n\n"
        f"Use instead:\n```{lang}\n{_block(good)}\n```\n"
    )
    return Rule(code, name, severity, summary, doc, Fix(fix))
