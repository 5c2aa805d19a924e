"""robots.txt rules: its Sitemap lines, and URLs its rules disallow.

``sitemap_lint.formats.robots`` reads a robots.txt line by line and reports its Sitemap
lines; what is known at its start (an HTML page) is a ``prolog`` check, and what is
known only at its end (no Sitemap line, the size limit) are ``end`` checks, from the
``rules.events.RobotsRecord`` the front end keeps.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from sitemap_lint.finding import Finding
from sitemap_lint.rules import events
from sitemap_lint.rules.base import ERROR, INFO, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.events import FileEnd, Prolog, RobotsRecord, SitemapLine
from sitemap_lint.rules.registry import END, PROLOG, SITEMAP_LINE, runs_when, stateful
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.words import plural

if TYPE_CHECKING:
    from sitemap_lint.model import Node
    from sitemap_lint.rules.entry import EntryContext, FileContext
    from sitemap_lint.rules.structure import Reporter

# The start of an HTML page (after white space and comments).
HTML_START = lazy(
    r"\s*(?:(?><!--.*?-->)\s*)*<(?:!doctype\s+html|html|head|body)[\s>]", re.I | re.DOTALL
)

SITEMAP_NOT_ABSOLUTE = rule(
    "RB001",
    "robots-sitemap-not-absolute",
    ERROR,
    summary="A robots.txt Sitemap line without an absolute http(s) URL",
    what="""
        Checks that each `Sitemap:` line of a robots.txt gives a complete
        `http` or `https` URL: not a path such as `/sitemap.xml`, not a host
        without its scheme, not another scheme, not a URL in quotes or angle
        brackets or behind a no-break space or another invisible character
        (crawlers skip only ASCII white space), not nothing at all. Other
        defects of the URL are reported by the URL rules (`UR...`).
    """,
    why="""
        Crawlers do not resolve a Sitemap line against the robots.txt's own
        address: Google requires a fully qualified URL and ignores anything
        else, so the sitemap is never discovered through this line.
    """,
    bad="""
        Sitemap: /sitemap.xml
    """,
    good="""
        Sitemap: https://example.com/sitemap.xml
    """,
    lang="text",
)

SITEMAP_NO_COLON = rule(
    "RB002",
    "robots-sitemap-no-colon",
    WARNING,
    summary="A robots.txt Sitemap line without the colon after `Sitemap`",
    what="""
        Detects a Sitemap line whose field name is followed by a space or an
        `=` instead of a colon (`Sitemap https://...`, `Sitemap=https://...`).
    """,
    why="""
        robots.txt separates a field from its value with `:` (RFC 9309).
        Parsers disagree on lines without it: some skip them, others split at
        the colon inside the URL and read `//example.com/...`.
    """,
    bad="""
        Sitemap https://example.com/sitemap.xml
    """,
    good="""
        Sitemap: https://example.com/sitemap.xml
    """,
    lang="text",
)

SITEMAP_DUPLICATE = rule(
    "RB003",
    "robots-sitemap-duplicate",
    WARNING,
    summary="The same sitemap URL on two Sitemap lines of a robots.txt",
    what="""
        Detects a Sitemap URL equal to an earlier one of the same robots.txt
        (scheme and host compared in lower case, a default port ignored, the
        path and query with their percent-escapes in normal form: `%7e` is `~`,
        `a b` is `a%20b`, `café` is `caf%C3%A9`) and points to the first line.
    """,
    why="""
        Crawlers read the sitemap once either way, but the repetition usually
        means that two tools (a CMS plugin and a hand edit, say) write Sitemap
        lines: when one of them moves the sitemap, the other keeps announcing
        the old address.
    """,
    bad="""
        Sitemap: https://example.com/sitemap.xml
        Sitemap: https://EXAMPLE.com/sitemap.xml
    """,
    good="""
        Sitemap: https://example.com/sitemap.xml
    """,
    lang="text",
)

NO_SITEMAP = rule(
    "RB004",
    "robots-no-sitemap",
    INFO,
    summary="A robots.txt without any Sitemap line",
    what="Reports a robots.txt that has no `Sitemap:` line at all.",
    why="""
        Sitemap lines are how every crawler finds a site's sitemaps without a
        manual submission in each search engine's webmaster tools; the line
        may stand anywhere in the file, outside any user-agent group.
    """,
    bad="""
        User-agent: *
        Disallow: /cart/
    """,
    good="""
        User-agent: *
        Disallow: /cart/

        Sitemap: https://example.com/sitemap.xml
    """,
    lang="text",
)

TOO_LARGE = rule(
    "RB005",
    "robots-too-large",
    WARNING,
    summary="A robots.txt larger than 500 KiB",
    what="""
        Reports a robots.txt over 500 KiB (512,000 bytes) at the line where
        that limit falls, and counts the Sitemap lines after it.
    """,
    why="""
        Google reads only the first 500 KiB of a robots.txt and ignores the
        rest: rules and Sitemap lines after the limit have no effect. Huge
        files are usually generated rule lists that a few wildcard rules
        would replace.
    """,
    bad="""
        User-agent: *
        Disallow: /product/1/print
        Disallow: /product/2/print
        ... (40,000 more lines)
        Sitemap: https://example.com/sitemap.xml
    """,
    good="""
        Sitemap: https://example.com/sitemap.xml
        User-agent: *
        Disallow: /product/*/print
    """,
    lang="text",
)

HTML_PAGE = rule(
    "RB006",
    "robots-html-page",
    WARNING,
    summary="The robots.txt is an HTML page",
    what="Detects an HTML document served or saved as robots.txt.",
    why="""
        Servers that answer unknown paths with a page (a CMS error or home
        page with status 200) do so for robots.txt too. Crawlers then find no
        rules and no Sitemap lines in it.
    """,
    bad="""
        <!DOCTYPE html>
        <html><head><title>Page not found</title></head>...</html>
    """,
    good="""
        User-agent: *
        Disallow: /cart/
        Sitemap: https://example.com/sitemap.xml
    """,
    lang="text",
)

URL_DISALLOWED = rule(
    "RB007",
    "url-disallowed-by-robots",
    WARNING,
    summary="A sitemap URL that robots.txt does not let the crawler fetch",
    what="""
        When robots.txt files are known to the run (given with `--robots` or
        fetched), checks each page URL of a urlset, and each sitemap URL of an
        index, against the rules of the
        robots.txt of its origin (or of a local robots.txt, for every URL;
        one fetched through a redirect to another origin governs both, as
        crawlers apply it to the origin they asked) for the crawler of the
        profile, Googlebot by default. Rules are
        matched as Google matches them: the group of the most specific
        user-agent, the longest matching rule, `Allow` on a tie, `*` and `$`.
    """,
    why="""
        A sitemap asks crawlers to fetch its URLs while robots.txt forbids
        it; Google reports "Submitted URL blocked by robots.txt" and the page
        is not crawled. One of the two is wrong. A sitemap an index lists that
        robots.txt disallows is not read at all (Yandex: "URL forbidden in
        robots.txt"), and none of its pages is found through it.
    """,
    bad="""
        # robots.txt
        User-agent: *
        Disallow: /drafts/
        # sitemap.xml
        <url><loc>https://example.com/drafts/launch</loc></url>
    """,
    good="""
        # robots.txt
        User-agent: *
        Disallow: /drafts/
        # sitemap.xml
        <url><loc>https://example.com/launch</loc></url>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "robots.txt"
ORDER = 190

RULES = (
    SITEMAP_NOT_ABSOLUTE,
    SITEMAP_NO_COLON,
    SITEMAP_DUPLICATE,
    NO_SITEMAP,
    TOO_LARGE,
    HTML_PAGE,
    URL_DISALLOWED,
)
runs_when(lambda options, _fetched: bool(options.robots), URL_DISALLOWED)


@check("loc", emits=(URL_DISALLOWED,), proof=stateful("robots"))
class DisallowedCheck:
    """Each listed page, or sitemap of an index, against the robots.txt files the run
    knows."""

    def __init__(self, file: FileContext) -> None:
        self.policy = file.robots if file.entry_name in ("url", "sitemap") else None
        self.idle = self.policy is None  # the dispatch leaves an idle check out

    def check(self, node: Node, entry: EntryContext, report: Reporter) -> None:
        if self.policy is None:
            return
        url = entry.url
        if url is not None:
            self.policy.check(node.text.strip(), url, node, report)


@check(PROLOG, emits=(HTML_PAGE,), proof=NO_PROOF)
def check_html_page(prolog: Prolog, options: object, report: Reporter) -> None:
    """RB006 for a robots.txt that is an HTML page, where its markup starts."""
    text = prolog.text
    if prolog.form == events.ROBOTS and text is not None and HTML_START.match(text):
        report.add(html_page(text))


def html_page(text: str) -> Finding:
    start = len(text) - len(text.lstrip())
    before = text[:start]
    line = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    column = start - max(before.rfind("\n"), before.rfind("\r"))
    return HTML_PAGE.at(
        line,
        column,
        "robots.txt is an HTML page, so crawlers find no rules and no Sitemap line in it; "
        "serve a plain-text robots.txt at this address",
    )


def _robots_record(end: FileEnd) -> RobotsRecord | None:
    record = end.record
    return record if isinstance(record, RobotsRecord) else None


@check(END, emits=(NO_SITEMAP,), proof=NO_PROOF)
def check_sitemap_lines(end: FileEnd, file: object, report: Reporter) -> None:
    """RB004 for a robots.txt without a Sitemap line, before or after the size limit."""
    record = _robots_record(end)
    if record is None or record.sitemap_lines or record.sitemaps_after:
        return
    from sitemap_lint.rules.urls import parse_url

    location = parse_url(record.url) if record.url is not None else None
    site = location.origin if location is not None else "https://example.com"
    report.add(
        NO_SITEMAP.at(
            1,
            1,
            "robots.txt has no Sitemap line; add one so that crawlers find the sitemap, "
            f"such as 'Sitemap: {site}/sitemap.xml' (anywhere in the file)",
        )
    )


@check(END, emits=(TOO_LARGE,), proof=NO_PROOF)
def check_size(end: FileEnd, file: object, report: Reporter) -> None:
    """RB005 where the 500 KiB Google reads end, when text stands past them."""
    record = _robots_record(end)
    if record is None or record.cut is None or not record.text_after:
        return
    line, column = record.cut
    after = record.sitemaps_after
    lost = f", including {plural(after, 'Sitemap line')}" if after else ""
    report.add(
        TOO_LARGE.at(
            line,
            column,
            "robots.txt is larger than 500 KiB; Google ignores everything from here on"
            f"{lost}: shorten the rules (wildcards replace long lists) and put the "
            "Sitemap lines first",
        )
    )


_SCHEME = lazy(r"([A-Za-z][A-Za-z0-9+.-]*):")
_HTTP_LIKE = lazy(r"https?[:/]", re.I)
_HOST_LIKE = lazy(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?::\d+)?(?:[/?]|\Z)")
_SHOWN = 80


@check(
    SITEMAP_LINE, emits=(SITEMAP_NO_COLON, SITEMAP_NOT_ABSOLUTE, SITEMAP_DUPLICATE), proof=NO_PROOF
)
def check_sitemap_line(line: SitemapLine, file: object, report: Reporter) -> None:
    """RB002 for a Sitemap line without its colon, RB001 for one whose URL is not
    absolute, RB003 for one that lists a sitemap again."""
    if not line.colon:
        report.add(
            SITEMAP_NO_COLON.at(
                line.number,
                line.name_column,
                f"no ':' after {line.name!r}; write '{line.name}: {_shorten(line.value)}'",
            )
        )
    if not looks_absolute(line.value):
        report.add(SITEMAP_NOT_ABSOLUTE.at(line.number, line.column, _not_absolute(line)))
    elif line.listed_before is not None:
        report.add(
            SITEMAP_DUPLICATE.at(
                line.number,
                line.column,
                f"sitemap {_shorten(line.value)!r} is already listed at line "
                f"{line.listed_before}; remove this line",
            )
        )


def looks_absolute(value: str) -> bool:
    """Whether a Sitemap line's value starts as an http(s) URL (else RB001 says how to
    write it, and the URL rules do not read it)."""
    return _HTTP_LIKE.match(value) is not None


def _not_absolute(line: SitemapLine) -> str:
    from sitemap_lint.rules.urls import parse_url, wrapped

    value = line.value
    shown = _shorten(value)
    if not value:
        return (
            "Sitemap line without a URL; write the sitemap's absolute URL after "
            "'Sitemap:', or remove the line"
        )
    invisible = _invisible_start(value)
    if invisible is not None:
        return (
            f"Sitemap URL {shown!r} starts with {invisible}, which crawlers do not skip as "
            f"white space; write the URL alone: 'Sitemap: {_shorten(value.lstrip(_BLANK))}'"
        )
    inside = wrapped(value)
    if inside is not None:
        url, how = inside
        return f"Sitemap URL {shown!r} is written {how}; write the URL alone: 'Sitemap: {_shorten(url)}'"
    scheme = _SCHEME.match(value)
    if scheme and "." not in scheme.group(1):
        name = scheme.group(1)
        rest = value[scheme.end() :]
        if name.lower().startswith("ht"):
            guess = "https" if name.lower().endswith("s") else "http"
            return (
                f"Sitemap URL {shown!r} has scheme {name!r}; did you mean {guess}:{_shorten(rest)}?"
            )
        return (
            f"Sitemap URL {shown!r} has scheme {name!r}; crawlers read only http(s) "
            "sitemaps: serve it over https and write its https:// URL"
        )
    if value.startswith("//"):
        return f"Sitemap URL {shown!r} has no scheme; write https:{shown}"
    if value.lower().startswith("www.") or _HOST_LIKE.match(value):
        return f"Sitemap URL {shown!r} has no scheme; write https://{shown}"
    if line.base is not None and parse_url(line.base) is not None:
        absolute = urljoin(line.base, value)
        return (
            f"Sitemap URL {shown!r} is relative and crawlers do not resolve it; "
            f"write the absolute URL, {_shorten(absolute)}"
        )
    path = value if value.startswith("/") else "/" + value
    return (
        f"Sitemap URL {shown!r} is relative and crawlers do not resolve it; write the "
        f"absolute URL, such as https://example.com{_shorten(path)}"
    )


# White space outside ASCII and invisible format characters (a no-break space, a
# zero-width space, a byte order mark) that can stand before a URL unseen.
_BLANK = (
    "".join(map(chr, (0xA0, 0x1680, *range(0x2000, 0x2010), 0x2028, 0x2029, 0x202F)))
    + "\u205f\u2060\u3000\ufeff"
)


def _invisible_start(value: str) -> str | None:
    """The white space or invisible character that starts ``value`` when an http(s) URL
    follows it (as 'a no-break space (U+00A0)'); else None."""
    rest = value.lstrip(_BLANK)
    if rest == value or not looks_absolute(rest):
        return None
    import unicodedata

    first = value[0]
    name = unicodedata.name(first, "").lower() or "control character"
    article = "an" if name[0] in "aeiou" else "a"
    return f"{article} {name} (U+{ord(first):04X})"


def _shorten(value: str) -> str:
    return value if len(value) <= _SHOWN else value[: _SHOWN - 3] + "..."
