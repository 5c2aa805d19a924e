"""Text sitemap rules: one absolute URL per line, UTF-8, nothing else.

The URLs themselves are checked by the URL, scope, duplicate and limit rules,
exactly as in an XML sitemap; these rules say what only a text file can get
wrong: lines that are not URLs, lines that hold more than a URL, whitespace
and blank lines. What is known only at the end of the file (its blank lines, the
lines left unchecked, its name) is reported by ``end`` checks, from the
``rules.events.TextRecord`` the front end (``formats.text``) keeps.
"""

from __future__ import annotations

from sitemap_lint.finding import Edit, Finding, FindingFix, Fix
from sitemap_lint.rules.base import ERROR, INFO, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.events import FileEnd, LineKind, LineVerdict, TextLine, TextRecord
from sitemap_lint.rules.registry import END, LINE
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.patterns import lazy

# Per-line findings kept for one text file; past this, lines are only counted.
MAX_FINDINGS = 200_000
SHOWN = 60  # characters of a line quoted in a message
_DATE = lazy(r"\d{4}-\d\d")

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
        such as a list bullet, a number, quotes or a `<` (and `>` after it,
        on the first line too). The URL itself is still checked by the URL
        rules.
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
    fix=Fix.SAFE,
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
        longer checked, only counted: each line that holds a URL (not a
        comment, a heading, markup or a robots.txt line) counts for the
        50,000-URL limit. This finding marks the first line that was not
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


@check(LINE, emits=(NOT_A_URL, EXTRA_CONTENT, WHITESPACE), proof=NO_PROOF)
def check_line(line: TextLine, file: object, report: Reporter) -> None:
    """TX001 for a line that is no URL, TX002 for one that holds more than a URL, TX003
    for white space around the URL."""
    verdict = line.verdict
    if verdict is None:
        if len(line.stripped) != len(line.text):
            _check_whitespace(line, report)
    elif verdict.kind == LineKind.EXTRA:
        column = line.column
        if not verdict.before.strip():  # only after the URL: where that starts
            after = verdict.after
            column += verdict.offset + len(verdict.url) + len(after) - len(after.lstrip())
        report.add(_extra_content_finding(verdict, line.number, column))
    else:
        report.add(_not_a_url_finding(verdict, line.stripped, line.number, line.column))


def _check_whitespace(line: TextLine, report: Reporter) -> None:
    text, column = line.text, line.column
    leading = text[: column - 1]
    # The end of a line cut at MAX_TEXT is unknown.
    end = column - 1 + len(line.stripped)
    trailing = text[end:] if line.length == len(text) else ""
    if leading or trailing:
        finding = _whitespace_finding(leading, trailing, line.stripped, line.number)
        report.add(finding.with_fix(_whitespace_fix(leading, trailing, line.number, end)))


def _text_record(end: FileEnd) -> TextRecord | None:
    record = end.record
    return record if isinstance(record, TextRecord) else None


@check(END, emits=(BLANK_LINES,), proof=NO_PROOF)
def check_blank_lines(end: FileEnd, file: object, report: Reporter) -> None:
    """TX004 at the first blank line of a text sitemap, with their count."""
    record = _text_record(end)
    if record is None or not record.blank_lines:
        return
    count = record.blank_lines
    amount = "a blank line" if count == 1 else f"{count:,} blank lines, the first here"
    report.add(
        BLANK_LINES.at(
            record.first_blank,
            1,
            f"{amount}; a text sitemap lists one URL per line: remove blank lines",
        )
    )


@check(END, emits=(TOO_MANY_FINDINGS,), proof=NO_PROOF)
def check_unchecked_lines(end: FileEnd, file: object, report: Reporter) -> None:
    """TX005 at the first line of a text sitemap that was only counted."""
    record = _text_record(end)
    if record is None or record.unchecked is None:
        return
    line, column = record.unchecked
    report.add(
        TOO_MANY_FINDINGS.at(
            line,
            column,
            f"more than {MAX_FINDINGS:,} findings in this file: the lines from "
            "here on were only counted (those that hold a URL, for the 50,000 limit), not "
            "checked; fix the problems reported above and check the file again",
        )
    )


@check(END, emits=(NOT_TXT,), proof=NO_PROOF)
def check_name(end: FileEnd, file: object, report: Reporter) -> None:
    """TX006 for a text sitemap whose name does not end in .txt."""
    record = _text_record(end)
    if record is None:
        return
    misnamed = not_txt(record.name)
    if misnamed is not None:
        report.add(misnamed)


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


# -- the lines' messages ------------------------------------------------------------------------------


def _shown(value: str) -> str:
    return repr(value if len(value) <= SHOWN else value[: SHOWN - 3] + "...")


def _not_a_url_finding(verdict: LineVerdict, line: str, number: int, column: int) -> Finding:
    shown = _shown(line)
    only_urls = "a text sitemap holds only URLs, one per line"
    kind = verdict.kind
    if kind == LineKind.MARKUP and verdict.url:
        message = (
            f"XML or HTML markup {shown}; a text sitemap holds bare URLs: write "
            f"{_shown(verdict.url)} alone on the line (or make the whole file an XML sitemap)"
        )
    elif kind == LineKind.MARKUP:
        message = f"XML or HTML markup {shown}; {only_urls}: remove it"
    elif kind == LineKind.COMMENT:
        message = f"comment {shown}; {only_urls}: remove it"
    elif kind == LineKind.FIELD and line[:8].lower() == "sitemap:":
        message = (
            f"robots.txt line {shown}; a text sitemap cannot list other sitemaps: "
            "move the line to robots.txt, or list the sitemap in a sitemap index"
        )
    elif kind == LineKind.FIELD:
        message = f"'name: value' line {shown}, not a URL; {only_urls}: remove it"
    elif kind == LineKind.HEADING:
        message = f"heading {shown}; a text sitemap has no header line, only URLs: remove it"
    elif kind == LineKind.SEPARATOR:
        message = f"line {shown} holds no URL; {only_urls}: remove it"
    else:
        message = f"line {shown} is text, not a URL (a header or footer?); {only_urls}: remove it"
    return NOT_A_URL.at(number, column, message)


def _extra_content_finding(verdict: LineVerdict, number: int, column: int) -> Finding:
    url = _shown(verdict.url)
    before, after = verdict.before.strip(), verdict.after.strip()
    if verdict.count > 1:
        message = (
            f"line holds {verdict.count} URLs; a text sitemap lists one URL per line: "
            "put each URL on its own line"
        )
    elif before and after:
        message = (
            f"{_shown(before)} before and {_shown(after)} after the URL; a line of a text "
            f"sitemap is the URL alone: write {url}"
        )
    elif before:
        message = (
            f"{_shown(before)} before the URL; a line of a text sitemap is the URL alone: "
            f"write {url}"
        )
    else:
        message = (
            f"{_shown(after)} after the URL (another column?); a line of a text sitemap is "
            f"the URL alone: write {url}"
        )
        if _DATE.search(after):
            message += " (dates need an XML sitemap with <lastmod>)"
    return EXTRA_CONTENT.at(number, column, message)


def _whitespace_finding(leading: str, trailing: str, url: str, number: int) -> Finding:
    if leading and trailing:
        where = f"{_describe(leading)} before the URL and {_describe(trailing)} after it"
    elif leading:
        where = f"{_describe(leading)} before the URL"
    else:
        where = f"{_describe(trailing)} after the URL"
    return WHITESPACE.at(
        number,
        1 if leading else len(url) + 1,
        f"{where}; remove the whitespace: the line must be the URL alone, {_shown(url)}",
    )


def _whitespace_fix(leading: str, trailing: str, number: int, end: int) -> FindingFix:
    """The safe fix of TX003: the white space before and after the URL of line
    ``number`` removed; ``end``: the 0-based column where the URL ends."""
    edits = []
    if leading:
        edits.append(Edit(number, 1, "", "span", number, len(leading) + 1, leading))
    if trailing:
        edits.append(Edit(number, end + 1, "", "span", number, end + len(trailing) + 1, trailing))
    return FindingFix(Fix.SAFE, "Remove the white space around the URL", tuple(edits))


_WHITESPACE_NAMES = {" ": "space", "\t": "tab", "\u00a0": "no-break space"}


def _describe(whitespace: str) -> str:
    """'a tab', '3 spaces', or 'whitespace' for a mixture."""
    kinds = set(whitespace)
    name = _WHITESPACE_NAMES.get(whitespace[0]) if len(kinds) == 1 else None
    if name is None:
        return "whitespace"
    count = len(whitespace)
    return f"a {name}" if count == 1 else f"{count} {name}s"
