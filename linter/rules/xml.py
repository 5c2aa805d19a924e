"""XML rules: well-formedness, the prolog, DOCTYPE and escaping."""

from __future__ import annotations

import re
from html.entities import name2codepoint
from pyexpat import errors as expat_errors

from sitemap_lint.finding import Finding
from sitemap_lint.rules.base import ERROR, rule

SYNTAX_ERROR = rule(
    "XM001",
    "xml-syntax-error",
    ERROR,
    summary="The document is not well-formed XML",
    what="""
        Parses the file as XML and reports where the parser stopped, with the
        parser's reason. Entries before that point are still checked. More
        specific rules cover the common causes (unescaped `&` or `<`, undefined
        entities, truncation, content after the root).
    """,
    why="""
        A sitemap that is not well-formed is rejected as a whole: Google reports
        a "Parsing error" and reads no URL from it.
    """,
    bad="""
        <url>
          <loc>https://example.com/</loc>
        </ulr>
    """,
    good="""
        <url>
          <loc>https://example.com/</loc>
        </url>
    """,
)

CONTENT_BEFORE_DECLARATION = rule(
    "XM002",
    "content-before-declaration",
    ERROR,
    summary="Whitespace or text stands before the XML declaration",
    what="""
        Checks that `<?xml` is the very first thing in the file (after an
        optional byte order mark). The rest of the file is still checked.
    """,
    why="""
        XML forbids anything before the declaration; Google reports "Leading
        whitespace". It is usually an empty line printed by a template or a PHP
        file before the sitemap, or a warning message the server printed.
    """,
    bad="""

        <?xml version="1.0" encoding="UTF-8"?>
    """,
    good='<?xml version="1.0" encoding="UTF-8"?>',
)

DOCTYPE = rule(
    "XM003",
    "doctype-not-allowed",
    ERROR,
    summary="The document has a DOCTYPE (DTD or entity declarations)",
    what="""
        Reports any `<!DOCTYPE ...>`. Its declarations are ignored: no entity is
        expanded and no external DTD or entity is fetched.
    """,
    why="""
        Sitemaps have no DTD. A DOCTYPE is the vehicle of XML attacks (billion
        laughs, external entities that read local files); hardened parsers used
        by crawlers refuse such documents outright.
    """,
    bad="""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE urlset [ <!ENTITY site "https://example.com"> ]>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>&site;/</loc></url>
        </urlset>
    """,
    good="""
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc></url>
        </urlset>
    """,
)

UNESCAPED_AMPERSAND = rule(
    "XM004",
    "unescaped-ampersand",
    ERROR,
    summary="A raw `&` in a value: write `&amp;`",
    what="Detects an `&` that does not start an entity or character reference.",
    why="""
        In XML `&` starts a reference, so a raw `&` (common in query strings)
        makes the whole file unreadable: Google reports a "Parsing error".
        Every `&` in a URL must be written `&amp;`.
    """,
    bad="<loc>https://example.com/list?page=2&sort=price</loc>",
    good="<loc>https://example.com/list?page=2&amp;sort=price</loc>",
)

UNESCAPED_LESS_THAN = rule(
    "XM005",
    "unescaped-less-than",
    ERROR,
    summary="A raw `<` in a value: write `&lt;` (or `%3C` in a URL)",
    what="Detects a `<` inside text that does not start a tag.",
    why="""
        In XML `<` always starts markup, so a raw one makes the file not
        well-formed. In URLs, percent-encode it as `%3C`; elsewhere write `&lt;`.
    """,
    bad="<loc>https://example.com/search?q=a<b</loc>",
    good="<loc>https://example.com/search?q=a%3Cb</loc>",
)

UNDEFINED_ENTITY = rule(
    "XM006",
    "undefined-entity",
    ERROR,
    summary="An entity such as `&nbsp;` that XML does not define",
    what="""
        Detects references to entities other than XML's five (`&amp;` `&lt;`
        `&gt;` `&quot;` `&apos;`), typically HTML entities.
    """,
    why="""
        XML knows no HTML entities; a parser stops at the first one and the
        sitemap is rejected. Use a numeric character reference or the character.
    """,
    bad="<loc>https://example.com/caf&eacute;</loc>",
    good="<loc>https://example.com/caf%C3%A9</loc>",
)

CONTENT_AFTER_ROOT = rule(
    "XM007",
    "content-after-root",
    ERROR,
    summary="Content after the closing root tag",
    what="Detects elements or text after the end of the root element.",
    why="""
        A document has exactly one root. Text after `</urlset>` (a PHP warning,
        a debug line, a second document appended) makes the file not
        well-formed, and search engines reject it.
    """,
    bad="""
        </urlset>
        <b>Warning</b>: Undefined variable
    """,
    good="</urlset>",
)

TRUNCATED = rule(
    "XM008",
    "truncated-document",
    ERROR,
    summary="The document ends before its root element is closed",
    what="""
        Detects a file that stops in the middle, for example an interrupted
        upload or a generator that crashed. The entries before the cut are
        still checked and reported.
    """,
    why="The file is not well-formed, so search engines reject all of it.",
    bad="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc></url>
          <url><loc>https://exa
    """,
    good="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc></url>
        </urlset>
    """,
)

UNDECLARED_PREFIX = rule(
    "XM009",
    "undeclared-prefix",
    ERROR,
    summary="A namespace prefix is used without being declared",
    what="""
        Detects elements such as `image:image` whose prefix has no `xmlns:image`
        declaration, and names the declaration to add.
    """,
    why="""
        Without the declaration the document is not namespace-well-formed;
        parsers reject it or drop the extension data.
    """,
    bad="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc>
            <image:image><image:loc>https://example.com/a.jpg</image:loc></image:image>
          </url>
        </urlset>
    """,
    good="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
                xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
          <url><loc>https://example.com/</loc>
            <image:image><image:loc>https://example.com/a.jpg</image:loc></image:image>
          </url>
        </urlset>
    """,
)

RULES = (
    SYNTAX_ERROR,
    CONTENT_BEFORE_DECLARATION,
    DOCTYPE,
    UNESCAPED_AMPERSAND,
    UNESCAPED_LESS_THAN,
    UNDEFINED_ENTITY,
    CONTENT_AFTER_ROOT,
    TRUNCATED,
    UNDECLARED_PREFIX,
)

KNOWN_PREFIXES = {
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
    "mobile": "http://www.google.com/schemas/sitemap-mobile/1.0",
}

_CODES = expat_errors.codes
_ENTITY_BEFORE = re.compile(r"&([A-Za-z_][\w.-]*);?$")
_RAW_AMPERSAND = re.compile(r"&(?![A-Za-z_][\w.-]*;|#[0-9]+;|#x[0-9A-Fa-f]+;)")
_PREFIX = re.compile(r"</?([A-Za-z_][\w.-]*):")
_EXCERPT = 50


def content_before_declaration(prefix: str) -> Finding:
    if prefix.strip():
        shown = prefix.strip().splitlines()[0][:60]
        what = f"text before the XML declaration ({shown!r})"
    else:
        lines = prefix.count("\n")
        what = f"{len(prefix)} whitespace character(s)" + (f" ({lines} line(s))" if lines else "")
        what += " before the XML declaration"
    return CONTENT_BEFORE_DECLARATION.at(
        1, 1, f"{what}; <?xml must be the first thing in the file: remove it"
    )


def doctype(name: str, line: int, column: int) -> Finding:
    return DOCTYPE.at(
        line,
        column,
        f"DOCTYPE {name or ''} is not allowed in a sitemap; its declarations were ignored "
        "(no entity expanded, nothing fetched): remove it",
    )


def syntax_error(code: int, line: int, column: int, context: str, offset: int) -> Finding:
    """Turn an expat error into the most specific finding we can name."""
    reason = expat_errors.messages.get(code, "syntax error")
    before = context[:offset]
    if code == _CODES[expat_errors.XML_ERROR_JUNK_AFTER_DOC_ELEMENT]:
        return CONTENT_AFTER_ROOT.at(
            line,
            column,
            f"content after the end of the root element: {_excerpt(context, offset)}; "
            "remove everything after the closing root tag",
        )
    if code == _CODES[expat_errors.XML_ERROR_UNDEFINED_ENTITY]:
        return _undefined_entity(context, offset, line, column)
    if code == _CODES[expat_errors.XML_ERROR_UNBOUND_PREFIX]:
        return _undeclared_prefix(context, offset, line, column)
    if code == _CODES[expat_errors.XML_ERROR_INVALID_TOKEN]:
        amp = before.rfind("&")
        if amp >= 0 and offset - amp <= 40 and _RAW_AMPERSAND.match(context, amp):
            return _raw_ampersand(context, amp, line, column - (offset - amp))
        if before.endswith("<"):
            return UNESCAPED_LESS_THAN.at(
                line,
                column - 1,
                f"raw '<' in text: {_excerpt(context, offset - 1)}; "
                "write %3C inside a URL or &lt; elsewhere",
            )
        char = context[offset : offset + 1]
        if char and (ord(char) < 0x20 or char == "\ufffe"):
            return SYNTAX_ERROR.at(
                line,
                column,
                f"character U+{ord(char):04X} is not allowed in XML; remove it",
            )
    return SYNTAX_ERROR.at(
        line, column, f"not well-formed XML: {reason}: {_excerpt(context, offset)}"
    )


def truncated(root_name: str, line: int, column: int) -> Finding:
    return TRUNCATED.at(
        line,
        column,
        f"document ends before </{root_name}>: the file is truncated; "
        "entries before this point were checked",
    )


def _raw_ampersand(context: str, at: int, line: int, column: int) -> Finding:
    start = max(context.rfind(">", 0, at) + 1, at - 30)
    end = context.find("<", at)
    end = len(context) if end < 0 else min(end, at + 30)
    snippet = context[start:end].strip()
    fixed = _RAW_AMPERSAND.sub("&amp;", snippet)
    return UNESCAPED_AMPERSAND.at(
        line, max(column, 1), f"raw '&' in {snippet!r}; escape it as {fixed!r}"
    )


def _undefined_entity(context: str, offset: int, line: int, column: int) -> Finding:
    start = context.rfind("&", 0, offset + 1)
    match = (
        _ENTITY_BEFORE.search(context[start : context.find(";", start) + 1]) if start >= 0 else None
    )
    if not match:
        return UNDEFINED_ENTITY.at(line, column, "reference to an undefined entity")
    name = match.group(1)
    codepoint = name2codepoint.get(name)
    if codepoint is not None:
        fix = f"write the character itself or &#{codepoint};"
    else:
        fix = "XML defines only &amp; &lt; &gt; &quot; &apos;"
    return UNDEFINED_ENTITY.at(line, column, f"entity &{name}; is not defined in XML; {fix}")


def _undeclared_prefix(context: str, offset: int, line: int, column: int) -> Finding:
    match = _PREFIX.search(context, max(offset - 1, 0))
    if not match or match.start() > offset + 1:
        match = None
        for candidate in _PREFIX.finditer(context):
            if candidate.start() <= offset:
                match = candidate
    if not match:
        return UNDECLARED_PREFIX.at(line, column, "namespace prefix is not declared")
    prefix = match.group(1)
    known = KNOWN_PREFIXES.get(prefix)
    fix = (
        f'add xmlns:{prefix}="{known}" to the root element'
        if known
        else (f"declare xmlns:{prefix} on the root element")
    )
    return UNDECLARED_PREFIX.at(line, column, f"prefix '{prefix}' is used but not declared; {fix}")


def _excerpt(context: str, offset: int) -> str:
    start = max(offset - _EXCERPT // 2, 0)
    text = context[start : start + _EXCERPT].strip()
    return repr(text) if text else "(end of line)"
