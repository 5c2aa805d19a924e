"""Input rules: what the file is before it is XML (empty, HTML, compressed)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sitemap_lint.finding import Finding
from sitemap_lint.model import XML_SPACE
from sitemap_lint.rules import events
from sitemap_lint.rules.base import ERROR, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.events import InputKind, InputProblem, Markup, MarkupKind
from sitemap_lint.rules.registry import INPUT, MARKUP, PROLOG
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.patterns import lazy

if TYPE_CHECKING:
    from sitemap_lint.settings.options import Options

EMPTY_FILE = rule(
    "IN001",
    "empty-file",
    ERROR,
    summary="The file is empty or holds only whitespace",
    what="Checks that the file has content at all.",
    why="""
        Search engines report an empty sitemap as an error ("Empty sitemap",
        "Response contains no data"); it usually means the generator failed.
    """,
    bad="(a file of zero bytes)",
    good="""
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc></url>
        </urlset>
    """,
)

HTML_PAGE = rule(
    "IN002",
    "html-not-sitemap",
    ERROR,
    summary="The file is an HTML page, not a sitemap",
    what="Detects an HTML document (a `<!DOCTYPE html>` or an `html` root) where a sitemap should be.",
    why="""
        Google reports "Your sitemap appears to be an HTML page". It happens when
        a server answers the sitemap URL with an error or login page, or when a
        CMS serves its human-readable sitemap page instead of the XML file.
    """,
    bad="""
        <!DOCTYPE html>
        <html><head><title>Sitemap</title></head><body>...</body></html>
    """,
    good="""
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc></url>
        </urlset>
    """,
)

GZIP_NAME_MISMATCH = rule(
    "IN003",
    "gzip-name-mismatch",
    WARNING,
    summary="The file name and the content disagree about gzip",
    what="""
        Compares the content (gzip is recognised by its magic bytes) with the
        file name: a name ending in `.gz` should hold gzip data, and gzip data
        should have a name ending in `.gz` (but a robots.txt, whose name is
        fixed, should be stored uncompressed). Of a sitemap fetched from a URL
        the name is not compared; a fetched robots.txt whose body is still gzip
        data once any `Content-Encoding` is undone is reported.
    """,
    why="""
        Servers pick the `Content-Type` and `Content-Encoding` from the name. A
        mismatch leads to double-decompression errors or to crawlers treating
        compressed bytes as XML ("Compression error").
    """,
    bad="sitemap.xml.gz   (holding plain XML)",
    good="sitemap.xml      (holding plain XML)",
    lang="text",
)

GZIP_CORRUPT = rule(
    "IN004",
    "gzip-corrupt",
    ERROR,
    summary="The gzip stream is corrupt or truncated",
    what="""
        Checks that a gzip-compressed sitemap decompresses completely. What
        could be read before the damage is still checked.
    """,
    why="""
        A search engine that cannot decompress the file reports a "Compression
        error" and reads none of it. Truncation usually comes from an
        interrupted upload or a proxy that cut the response.
    """,
    bad="gzip -c sitemap.xml | head -c 2000 > sitemap.xml.gz",
    good="gzip -c sitemap.xml > sitemap.xml.gz",
    lang="sh",
)

UNSUPPORTED_COMPRESSION = rule(
    "IN005",
    "unsupported-compression",
    ERROR,
    summary="The file is compressed with something other than gzip",
    what="Detects zip, bzip2, xz and zstd content by its magic bytes.",
    why="The protocol allows gzip as the only compression; other formats are not read.",
    bad="zip sitemap.zip sitemap.xml",
    good="gzip -k sitemap.xml",
    lang="sh",
)

NOT_XML = rule(
    "IN006",
    "not-xml",
    ERROR,
    summary="The file is not XML at all (text, JSON, binary)",
    what="""
        Checks that the file's first non-blank character is `<` (or that the file
        is a text sitemap or a robots.txt, which have their own rules), and says
        what the file seems to be instead: JSON, binary data or other text,
        gzip data again once decompressed (a file compressed twice), or XML in
        EBCDIC (an XML declaration in EBCDIC's bytes).
        Nothing else is checked in such a file.
    """,
    why="""
        A sitemap is expected here; search engines report "Unsupported format"
        or a parsing error. A `.xml` name on a JSON export or on notes is a
        common deployment mistake.
    """,
    bad="""
        {"urls": ["https://example.com/", "https://example.com/about"]}
    """,
    good="""
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc></url>
          <url><loc>https://example.com/about</loc></url>
        </urlset>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Input"
ORDER = 10

RULES = (
    EMPTY_FILE,
    HTML_PAGE,
    GZIP_NAME_MISMATCH,
    GZIP_CORRUPT,
    UNSUPPORTED_COMPRESSION,
    NOT_XML,
)


_ZLIB_REASONS = {
    "incorrect data check": "CRC-32 checksum mismatch",
    "incorrect length check": "length field mismatch",
}


@check(PROLOG, emits=(EMPTY_FILE, NOT_XML, HTML_PAGE), proof=NO_PROOF)
def check_form(prolog: events.Prolog, options: Options, report: Reporter) -> None:
    """An input that is no sitemap: empty, not XML, or an HTML page."""
    form = prolog.form
    if form == events.EMPTY:
        if not prolog.cut_short:  # the reader already said why nothing was read
            report.add(empty_file(prolog.read > 0, text=prolog.text_named))
    elif form == events.NOT_XML:
        size = None if options.quote else prolog.size
        report.add(not_xml(prolog.text or "", size, robots=prolog.robots_named))
    elif form == events.HTML:
        report.add(
            HTML_PAGE.at(
                1, 1, "file is an HTML page, not a sitemap; serve the XML sitemap at this location"
            )
        )


def empty_file(only_whitespace: bool, text: bool = False) -> Finding:
    """IN001 for a file without content; ``only_whitespace`` when it has some bytes;
    ``text``: a text sitemap's, by its name."""
    what = "file holds only whitespace" if only_whitespace else "file is empty (0 bytes)"
    needs = (
        "a text sitemap lists at least one URL, one on each line"
        if text
        else "a sitemap needs a root element such as <urlset>"
    )
    return EMPTY_FILE.at(1, 1, f"{what}; {needs}")


@check(MARKUP, emits=(EMPTY_FILE,), proof=NO_PROOF)
def check_no_root(markup: Markup, options: object, report: Reporter) -> None:
    """A text that ends before any root element (comments or a declaration only)."""
    if markup.kind == MarkupKind.NO_ROOT:
        report.add(
            EMPTY_FILE.at(
                1, 1, "file has no root element; a sitemap needs <urlset> or <sitemapindex>"
            )
        )


@check(INPUT, emits=(GZIP_NAME_MISMATCH, GZIP_CORRUPT, UNSUPPORTED_COMPRESSION), proof=NO_PROOF)
def check_compression(problem: InputProblem, options: object, report: Reporter) -> None:
    """IN003 for a name that says gzip where the bytes are not (or the reverse), IN004
    for a damaged or truncated gzip stream, IN005 for another compression."""
    kind = problem.kind
    if kind == InputKind.GZIP_NAME:
        report.add(gzip_name_mismatch(problem.gzip, robots=problem.detail == "robots.txt"))
    elif kind == InputKind.GZIP_CORRUPT:
        report.add(gzip_corrupt(problem.detail, problem.size))
    elif kind == InputKind.GZIP_TRUNCATED:
        report.add(gzip_truncated(problem.size))
    elif kind == InputKind.COMPRESSION:
        report.add(unsupported_compression(problem.detail))


def gzip_name_mismatch(is_gzip: bool, robots: bool = False) -> Finding:
    """IN003; ``robots``: the file is a robots.txt, whose name is fixed."""
    if is_gzip and robots:
        message = (
            "robots.txt holds gzip data, but crawlers read robots.txt as plain text under "
            "that name; store it uncompressed (the server may still compress it in transit, "
            "with Content-Encoding: gzip)"
        )
    elif is_gzip:
        message = "file holds gzip data but its name does not end in .gz; add the .gz suffix"
    else:
        message = (
            "file name ends in .gz but the content is not gzip; "
            "compress it with gzip or drop the .gz suffix"
        )
    return GZIP_NAME_MISMATCH.at(1, 1, message)


def gzip_corrupt(reason: str, readable: int) -> Finding:
    # zlib says "Error -3 while decompressing data: invalid block type"; keep the cause.
    reason = re.sub(r"^Error -?\d+ while \w+ing data: ", "", reason)
    reason = _ZLIB_REASONS.get(reason, reason)
    return GZIP_CORRUPT.at(
        1,
        1,
        f"gzip stream is corrupt ({reason}) after {readable:,} bytes of content; "
        "only those bytes were checked; compress the file again",
    )


def gzip_truncated(readable: int) -> Finding:
    return GZIP_CORRUPT.at(
        1,
        1,
        f"gzip stream ends early (truncated) after {readable:,} bytes of content; "
        "only those bytes were checked; upload the complete file",
    )


def unsupported_compression(kind: str) -> Finding:
    return UNSUPPORTED_COMPRESSION.at(
        1,
        1,
        f"file is {kind}-compressed; sitemaps may only be plain or gzip-compressed: "
        "decompress it, and serve it plain or compressed with gzip (gzip -k sitemap.xml)",
    )


_SITEMAP_START = lazy(r"<\?xml|<(?:[A-Za-z_][\w.-]*:)?(?:urlset|sitemapindex)\b")
# The characters no text holds: the C0 controls but tab, line feed, vertical tab, form
# feed and carriage return, and DEL.
_LINE_BREAK = lazy(r"\r\n?|\n")  # a line's end (not a form feed, U+2028...)
_CONTROL = lazy(r"[\x00-\x08\x0e-\x1f\x7f]")
BINARY_SAMPLE = 1024  # characters, from the first that is not white space
# gzip's magic bytes and its deflate method as the decoder reads them: a file whose
# content, once decompressed, is gzip data again.
_GZIP_TEXT = "\x1f\ufffd\x08"
# "<?xml" in EBCDIC (4C 6F A7 94 93) as the decoder reads it: "Lo", then bytes no UTF-8.
_EBCDIC_TEXT = "Lo\ufffd\ufffd\ufffd"


def looks_binary(start: str) -> bool:
    """Whether the file whose decoded text starts with ``start`` is binary data, not
    text: among its first 1,024 characters (past leading white space), a NUL, more than
    4 control characters that are also more than 1 in 20, or more bytes the decoder
    replaced (U+FFFD) than other characters. Text in another encoding (Latin-1,
    Windows-1252) or with a few bad bytes is text: its findings are the encoding's."""
    head = start.lstrip()[:BINARY_SAMPLE]
    if "\x00" in head:
        return True
    controls = len(_CONTROL.findall(head))
    if controls > 4 and controls * 20 > len(head):
        return True
    return head.count("\ufffd") * 2 > len(head)


def not_xml(start: str, unquoted_size: int | None = None, robots: bool = False) -> Finding:
    """IN006, naming what the content looks like; ``start`` is the file's first text.
    With ``unquoted_size`` (the body's size in bytes) no text of the file is quoted:
    its kind and size are named instead. ``robots``: the input is named robots.txt (it
    reaches here as binary data only)."""
    head = start.lstrip(XML_SPACE)[:200]
    first_line = _LINE_BREAK.split(head, maxsplit=1)[0]
    unquoted = "not quoted: fetched from a URL not given to the run"
    size = "" if unquoted_size is None else f" ({unquoted_size:,} bytes, {unquoted})"
    if start.startswith(_GZIP_TEXT) and not robots:
        return NOT_XML.at(
            1,
            1,
            f"file is compressed twice: once decompressed, it is gzip data again{size}; "
            "compress the sitemap once (gzip -c sitemap.xml > sitemap.xml.gz)",
        )
    if start.startswith(_EBCDIC_TEXT) and not robots:
        return NOT_XML.at(
            1,
            1,
            f"file is XML in EBCDIC (it starts with bytes 4C 6F A7 94, '<?xm' in EBCDIC)"
            f"{size}, which is not read; sitemaps must be UTF-8: convert it, e.g. with "
            'iconv -f IBM037 -t UTF-8, and write encoding="UTF-8"',
        )
    if looks_binary(start):
        what = "binary data"
    elif head.startswith(("{", "[")):
        what = "JSON"
    else:
        shown = first_line[:40] + ("..." if len(first_line) > 40 else "")
        markup = _SITEMAP_START.search(head)
        if markup is not None:
            before = repr(shown) if unquoted_size is None else unquoted
            return NOT_XML.at(
                1,
                1,
                f"file starts with text before its XML ({before}); remove everything before "
                f"{markup.group(0)!r}: a sitemap's first character is '<'",
            )
        what = f"text starting {shown!r}" if unquoted_size is None else "text"
    if robots:
        return NOT_XML.at(
            1,
            1,
            f"file is not a robots.txt, it looks like {what}{size}; a robots.txt is plain "
            "text (User-agent, Allow, Disallow and Sitemap lines): serve the site's robots.txt at this location",
        )
    return NOT_XML.at(
        1, 1, f"file is not XML, it looks like {what}{size}; serve an XML sitemap here"
    )
