"""Text sitemap rules: one absolute URL per line, UTF-8, nothing else.

The URLs themselves are checked by the URL, scope, duplicate and limit rules,
exactly as in an XML sitemap; these rules say what only a text file can get
wrong: lines that are not URLs, lines that hold more than a URL, whitespace
and blank lines.
"""

from __future__ import annotations

from sitemap_lint.finding import Finding
from sitemap_lint.rules.base import ERROR, INFO, WARNING, rule

# Per-line findings kept for one text file; past this, lines are only counted.
MAX_FINDINGS = 200_000

NOT_A_URL = rule(
    "TX001",
    "text-line-not-url",
    ERROR,
    summary="A line of a text sitemap is a comment, header, markup or other text",
    what="""
        Detects lines of a text sitemap that are not meant as URLs at all:
        comments (`#`, `//`, `/*`, `;`), `Name: value` lines, headers and
        footers written as words, column headings (`url,lastmod`), and XML or
        HTML markup. Each such line is reported once, instead of as a relative
        URL.
    """,
    why="""
        A text sitemap holds URLs and nothing else: no header, no footer, no
        comments. Search engines read every line as a URL, so these lines
        become invalid URLs in their reports; markup usually means an XML
        sitemap was pasted into a text file.
    """,
    bad="""
        # Sitemap for example.com
        https://example.com/
        https://example.com/about
    """,
    good="""
        https://example.com/
        https://example.com/about
    """,
    lang="text",
)

EXTRA_CONTENT = rule(
    "TX002",
    "text-line-extra-content",
    ERROR,
    summary="A line of a text sitemap holds more than a URL",
    what="""
        Detects lines that hold a URL and something else: several URLs on one
        line, extra columns after the URL (a date, a priority, a change
        frequency, separated by tabs, spaces, commas or `|`), or text before it
        such as a list bullet, a number or quotes. The URL itself is still
        checked by the URL rules.
    """,
    why="""
        Each line of a text sitemap must be exactly one URL. Search engines
        read the whole line as the URL, so the entry is invalid; a second URL
        on the same line is never seen. Text sitemaps have no lastmod or
        priority: use an XML sitemap for those.
    """,
    bad="""
        https://example.com/    2025-05-20    daily
        https://example.com/a, https://example.com/b
    """,
    good="""
        https://example.com/
        https://example.com/a
        https://example.com/b
    """,
    lang="text",
)

WHITESPACE = rule(
    "TX003",
    "text-line-whitespace",
    WARNING,
    summary="Spaces or tabs before or after the URL on a line",
    what="""
        Detects whitespace (spaces, tabs, no-break spaces and the like) before
        or after the URL on a line of a text sitemap.
    """,
    why="""
        The line should be exactly the URL. Some readers keep the whitespace as
        part of the URL and fail to fetch it, or treat the line as invalid;
        indented lines are often left over from copying out of another format.
    """,
    bad="""
        https://example.com/
            https://example.com/about
    """,
    good="""
        https://example.com/
        https://example.com/about
    """,
    lang="text",
)

BLANK_LINES = rule(
    "TX004",
    "text-blank-lines",
    INFO,
    summary="Blank lines in a text sitemap",
    what="""
        Reports the first empty or whitespace-only line of a text sitemap, with
        the number of such lines in the file. The line break that ends the last
        URL is not a blank line and is never reported.
    """,
    why="""
        The protocol asks for one URL per line and nothing else. Search engines
        skip blank lines, so they are harmless, but strict readers count them as
        invalid entries and they often mean that the generator wrote an empty
        value where a URL should be.
    """,
    bad="""
        https://example.com/

        https://example.com/about
    """,
    good="""
        https://example.com/
        https://example.com/about
    """,
    lang="text",
)

TOO_MANY_FINDINGS = rule(
    "TX005",
    "text-too-many-findings",
    WARNING,
    summary="Lines of a text file not checked after 200,000 findings",
    what="""
        After 200,000 findings in one text file, the remaining lines are no
        longer checked, only counted: each non-blank line counts as a URL for
        the 50,000-URL limit. This finding marks the first line that was not
        checked.
    """,
    why="""
        A file with so many problems is usually not a sitemap at all (a log, a
        word list, a data export), and reporting every line would only bury
        the first problems, which are the ones to fix. Memory stays bounded on
        any input.
    """,
    bad="notes.txt   (a million lines of text, none of them a URL)",
    good="sitemap.txt   (https://example.com/ and one more URL per line)",
    lang="text",
)

NOT_TXT = rule(
    "TX006",
    "text-sitemap-not-txt",
    ERROR,
    summary="A text sitemap whose name does not end in `.txt`",
    what="""
        Detects a text sitemap (one URL per line) read from a file or URL whose
        name does not end in `.txt` (or `.txt.gz`), such as `sitemap.xml`, and
        names the file to rename it to. It is a warning under the `bing`
        profile.
    """,
    why="""
        Google reads a text file as a sitemap "provided it has a .txt
        extension"; under another name, `sitemap.xml` above all, it expects
        XML and reports the file as unreadable, so none of its URLs are read.
        A text file named `.xml` is also usually a generator that lost its XML
        template.
    """,
    bad="sitemap.xml   (https://example.com/ and one more URL per line)",
    good="sitemap.txt   (https://example.com/ and one more URL per line)",
    lang="text",
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Text sitemaps"
ORDER = 200

RULES = (NOT_A_URL, EXTRA_CONTENT, WHITESPACE, BLANK_LINES, TOO_MANY_FINDINGS, NOT_TXT)


def not_txt(name: str) -> Finding | None:
    """TX006 for a text sitemap read from ``name`` (a path or URL), or None when the name
    ends in .txt or is not a file's (standard input)."""
    if name in ("", "-"):
        return None
    path = name.split("?", 1)[0].split("#", 1)[0]
    if "://" in path:
        path = path.split("://", 1)[1].partition("/")[2]
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    gz = base.lower().endswith(".gz")
    stem = base[:-3] if gz else base
    if stem.lower().endswith(".txt"):
        return None
    if not stem:
        stem, shown = "sitemap", "the file at this URL"
    else:
        shown = base
    root = stem.rsplit(".", 1)[0] if "." in stem.strip(".") else stem
    renamed = f"{root}.txt{'.gz' if gz else ''}"
    return NOT_TXT.at(
        1,
        1,
        f"this is a text sitemap (one URL per line), but {shown} does not end in .txt; "
        f"Google reads text sitemaps only under a .txt name: rename it to {renamed} "
        "(or write it as an XML sitemap)",
    )
