"""Limit rules: the protocol's caps on entries and on uncompressed size."""

from __future__ import annotations

from sitemap_lint.finding import Finding
from sitemap_lint.rules.base import ERROR, NO_PROOF, check, rule
from sitemap_lint.rules.events import FileEnd, InputKind, InputProblem
from sitemap_lint.rules.registry import END, INPUT
from sitemap_lint.rules.structure import Reporter

MAX_ENTRIES = 50_000

TOO_MANY_URLS = rule(
    "LM001",
    "too-many-urls",
    ERROR,
    summary="The sitemap lists more than 50,000 URLs",
    what="Counts the `url` entries of a sitemap; the protocol allows at most 50,000.",
    why="""
        Search engines reject the file ("Too many URLs") or ignore the URLs past
        the limit. Split the URLs over several sitemaps and list them in an index.
    """,
    bad="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <!-- 50,001 url entries -->
        </urlset>
    """,
    good="""
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <sitemap><loc>https://example.com/sitemap-1.xml</loc></sitemap>
          <sitemap><loc>https://example.com/sitemap-2.xml</loc></sitemap>
        </sitemapindex>
    """,
)

FILE_TOO_LARGE = rule(
    "LM002",
    "file-too-large",
    ERROR,
    summary="The uncompressed file is larger than 52,428,800 bytes",
    what="""
        Counts the uncompressed bytes of the file (after gzip, if any); the
        protocol allows at most 50 MiB (52,428,800 bytes). Reading stops a few
        MiB past the limit, so a compressed bomb cannot exhaust memory or time.
    """,
    why="""
        Search engines report a "Sitemap file size error" and do not process the
        file. Gzip does not help: the limit applies to the uncompressed size.
    """,
    bad="sitemap.xml   (60 MB)",
    good="sitemap-1.xml, sitemap-2.xml   (30 MB each, listed in an index)",
    lang="text",
)

TOO_MANY_SITEMAPS = rule(
    "LM003",
    "too-many-sitemaps",
    ERROR,
    summary="The sitemap index lists more than 50,000 sitemaps",
    what="Counts the `sitemap` entries of an index; the protocol allows at most 50,000.",
    why="""
        Search engines report "Too many sitemaps" and ignore the rest. Use
        several index files instead.
    """,
    bad="""
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <!-- 50,001 sitemap entries -->
        </sitemapindex>
    """,
    good="""
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <!-- at most 50,000 sitemap entries -->
        </sitemapindex>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Limits"
ORDER = 100

RULES = (TOO_MANY_URLS, FILE_TOO_LARGE, TOO_MANY_SITEMAPS)


@check(INPUT, emits=(FILE_TOO_LARGE,), proof=NO_PROOF)
def check_size(problem: InputProblem, options: object, report: Reporter) -> None:
    """LM002 for a file past the protocol's 50 MiB (uncompressed)."""
    if problem.kind == InputKind.TOO_LARGE:
        report.add(file_too_large(problem.size, problem.gzip, problem.capped))


def file_too_large(size: int, is_gzip: bool, stopped: bool) -> Finding:
    what = "decompressed content" if is_gzip else "file"
    if stopped:
        amount = f"is larger than {size:,} bytes (checking stopped there)"
    else:
        amount = f"is {size:,} bytes"
    return FILE_TOO_LARGE.at(
        1,
        1,
        f"{what} {amount}, over the protocol's limit of 52,428,800 bytes (50 MiB); "
        "split it into several sitemaps listed in an index",
        key=_PAST_THE_LIMIT,  # (the same defect while the file grows)
    )


# The key of a limit's finding: its fingerprint does not change with the count or size.
_PAST_THE_LIMIT = "past the limit"


@check(END, emits=(TOO_MANY_URLS, TOO_MANY_SITEMAPS), proof=NO_PROOF)
def check_entry_limit(end: FileEnd, file: object, report: Reporter) -> None:
    """More entries than the protocol allows, at the first one past the limit (a
    sitemap's, a feed's or a text sitemap's URLs; an index's sitemaps)."""
    if end.past_limit is not None:
        line, column = end.past_limit
        is_index = end.kind == "sitemapindex"
        report.add(too_many_entries(is_index, end.entries, line, column, end.cut_short))


def too_many_entries(
    is_index: bool, count: int, line: int, column: int, cut_short: bool = False
) -> Finding:
    """LM001 or LM003; ``cut_short``: reading stopped early, so ``count`` is only those read."""
    counted = f"at least {count:,}" if cut_short else f"{count:,}"
    if is_index:
        return TOO_MANY_SITEMAPS.at(
            line,
            column,
            f"index lists {counted} sitemaps, more than the 50,000 allowed; "
            "this is the first one past the limit; split the index",
            key=_PAST_THE_LIMIT,
        )
    return TOO_MANY_URLS.at(
        line,
        column,
        f"sitemap lists {counted} URLs, more than the 50,000 allowed; this is the first "
        "one past the limit; split the URLs over several sitemaps listed in an index",
        key=_PAST_THE_LIMIT,
    )
