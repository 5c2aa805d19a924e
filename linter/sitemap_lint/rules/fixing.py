"""Fixing rules: what ``--fix`` and ``--diff`` say about a file they leave as it is."""

from __future__ import annotations

from sitemap_lint.finding import Finding
from sitemap_lint.rules.base import NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.events import Unfixed
from sitemap_lint.rules.registry import UNFIXED, beyond_directives
from sitemap_lint.rules.structure import Reporter

FILE_NOT_FIXED = rule(
    "FX001",
    "file-not-fixed",
    WARNING,
    summary="A file with fixable findings that the fixer left unchanged",
    what="""
        Reported by `--fix`, `--diff` and `--fix-only` (never by a plain check) on a
        file that has fixable findings but that the fixer does not rewrite: its bytes
        cannot be decoded and written back exactly (bytes invalid in its encoding, a
        damaged gzip stream, more than 256 MiB), or the fixed text would be worse: a
        well-formedness error the original did not have, no entry left (every one
        removed as out of scope: a wrong `--sitemap-url`, most likely), or, in a file
        the original check read whole as XML, a finding the run reports that the
        original did not have (a duplicate made by a URL percent-encoded, a lastmod
        taken as UTC that falls in the future). The message says which. A check
        counts no fix as fixable that would remove every entry of a URL set, nor,
        with `--unsafe-fixes`, any other fix of such a file, since `--fix` applies
        none of them. It is
        reported once the file's inline directives are applied, so a directive
        cannot suppress it: turn it off for the file with `per-file-ignores` instead.
    """,
    why="""
        A fix must never lose data: rewriting a file that cannot be read back exactly
        would change bytes the fixes did not mean to touch. The file stays as it was,
        and its other findings are reported as usual.
    """,
    bad="""
        <!-- a raw & (fixable) in a file that also holds a byte invalid in UTF-8 -->
        <loc>https://example.com/?a=1&b=2</loc>
        <loc>https://example.com/caf\\xe9</loc>
    """,
    good="""
        <loc>https://example.com/?a=1&amp;b=2</loc>
        <loc>https://example.com/caf%C3%A9</loc>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Fixing"
ORDER = 230

RULES = (FILE_NOT_FIXED,)
beyond_directives(FILE_NOT_FIXED)


@check(UNFIXED, emits=(FILE_NOT_FIXED,), proof=NO_PROOF)
def check_unfixed(unfixed: Unfixed, options: object, report: Reporter) -> None:
    """FX001 for a file the fixer leaves as it is, with why."""
    report.add(not_fixed(unfixed.reason))


def not_fixed(reason: str) -> Finding:
    """The finding that says why a file was left untouched."""
    return FILE_NOT_FIXED.at(1, 1, f"file left unchanged: {reason}")
