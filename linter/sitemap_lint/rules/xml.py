"""XML rules: well-formedness, the prolog, DOCTYPE and escaping."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pyexpat import errors as expat_errors

from sitemap_lint.finding import Finding, Fix, shortened
from sitemap_lint.fix.model import Edit, FindingFix, whole_file
from sitemap_lint.model import (
    ATTRIBUTE_NAME,
    BEFORE_VALUE,
    EQUALS,
    OTHER_QUOTES,
    QUOTED_VALUE,
    RAW_LT,
    SPACED_TAG,
    UNGLUED,
    USUAL_PREFIXES,
    XML_DECLARATION,
    unended_at,
)
from sitemap_lint.rules.base import ERROR, NO_PROOF, check, rule
from sitemap_lint.rules.events import Markup, MarkupKind, Position, Prolog
from sitemap_lint.rules.registry import MARKUP, PROLOG
from sitemap_lint.rules.structure import ROOTS, Reporter
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.words import joined

SYNTAX_ERROR = rule(
    "XM001",
    "xml-syntax-error",
    ERROR,
    fix="safe",
    summary="The document is not well-formed XML",
    what="""
        Parses the file as XML and reports each place where it is not
        well-formed, with the parser's reason. More specific rules cover the
        common causes (unescaped `&` or `<`, undefined entities, truncation,
        content after the root). A closing tag before any start tag (the start
        of the file is missing) and text before the root element are named as
        such.

        In a sitemap or a feed the check goes on after an error inside the root
        element: the damaged entry is skipped and reading resumes at the next
        `<url>`, `<sitemap>`, RSS `<item>` or Atom `<entry>` start tag (or the
        root's end tag), so every later entry gets all of its checks. An element whose end tag is missing is reported at
        its start tag; an entry that is complete but for its own end tag is
        still checked. A character XML does not allow (a control character,
        U+FFFE, U+FFFF) is reported and left out, and the rest of its entry is
        still checked. An end tag of the open element whose `>` is missing
        (`</url`, then white space and the next tag) is reported and read as
        closed. A stray `<` between an entry's elements (`<url><<b><loc>`) is
        reported and read as if removed (with a start tag glued to it that the
        entry never closes), and the entry is checked. An entry longer than 64 KiB
        is read on where such a defect stands in its text. When whole lines had to be skipped to find the next entry, one
        more finding says which (lines of comments and white space only are not
        counted; the comments there are still read for their directives). After
        100,000 syntax errors the rest of the file is not read. A malformed XML
        declaration at the start (its `?>` missing, a value not in quotes, no
        `version`, a `standalone` other than `yes` or `no`) is reported once,
        saying what is wrong in it, and the check reads on after it. So is a
        defect of the root's start tag that has one reading (its `>` missing, a
        value's closing quote missing, two attributes without a space between
        them, a value without XML's quotes: XM011): each is reported where it
        stands and the file is read on from the tag written right (what follows
        the tag on its line stands where the file has it); the fix adds what is
        missing (the `>`, the quote, the space), in any start tag. A comment or
        processing instruction inside a start tag (`<url <!-- x -->>`) is reported
        at its start and read as white space, so the tag and its entry are read;
        the unsafe fix moves it after the tag's `>`. A comment, CDATA section or
        processing instruction never closed is reported at its start, and the
        check resumes at the next entry. Any other error before the root
        element, in its start tag or after its end stops the check there.
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
    fix="safe",
    summary="Whitespace or text stands before the XML declaration",
    what="""
        Checks that `<?xml` is the very first thing in the file (after an
        optional byte order mark). The rest of the file is still checked, and a
        suppression directive in a comment before the declaration still applies;
        `--fix` removes what precedes the declaration but for such directives,
        which it moves after it.
    """,
    why="""
        XML forbids anything before the declaration; Google reports "Leading
        whitespace". It is usually an empty line printed by a template or a PHP
        file before the sitemap, or a warning message the server printed.
    """,
    bad="""
        Notice: Undefined index: page in /var/www/sitemap.php on line 12
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
        Reports any `<!DOCTYPE ...>`. Entity references in text are not
        expanded and no external DTD or entity is ever fetched. An entity used
        in an attribute value stops the check where it stands when it is
        external or expands past the parser's safety limit (billion laughs).
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
    fix="safe",
    summary="A raw `&` in a value: write `&amp;`",
    what="""
        Detects an `&` that does not start an entity or character reference.
        Every one is reported: the check reads the `&` as written and goes on,
        so the entry's other fields are still checked.
    """,
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
    fix="safe",
    summary="A raw `<` in a value: write `&lt;` (or `%3C` in a URL)",
    what="""
        Detects a `<` inside text that does not start a tag: no name follows it
        (`1 < 2`), or it is glued to the text before it (`q=a<b`). In a field's
        value it is read as its fix writes it (`%3C` in a URL, `<` elsewhere), so
        the entry's other fields are still checked; elsewhere the entry that holds
        it cannot be read, and the check resumes at the next entry.
    """,
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
        `&gt;` `&quot;` `&apos;`), typically HTML entities. Every one is
        reported: the check reads the reference as written and goes on, so the
        entry's other fields are still checked.
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
    what="""
        Detects elements or text after the end of the root element. The check
        stops there: the entries before the root's end tag have all been
        checked, nothing after it is read, and only the first such place is
        reported. An entry after the root's end tag means that end tag came too
        early: the message says to move it after the last entry, not to remove
        the entries. After a root that is itself an entry (`<url>`, the root's
        start tag lost), what follows is `unknown-root`'s.
    """,
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
        still checked and reported, also after earlier syntax errors.
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
    fix="safe",
    summary="A namespace prefix is used without being declared",
    what="""
        Detects elements and attributes such as `image:image` or
        `xsi:schemaLocation` whose prefix has no `xmlns:` declaration, and names
        the declaration to add. A prefix that sitemaps use for one namespace
        (`image`, `video`, `news`, `xhtml`, `mobile`, `pagemap`, `xsi`) is
        reported once, at its first use, and the rest of the document is read as
        if the root declared it: every entry, the one that uses it too, is
        checked. So is a prefix that an element before it declares for its own
        scope only (`xmlns:i` on one `url`, `i:image` in the next): the finding
        names that element, and the rest is read in the namespace it declares.
        With another prefix the entry that uses it cannot be read and
        is skipped; reading resumes at the next entry, and each entry that uses
        an undeclared prefix is reported, at the first such element.

        The fix (safe) adds the usual prefix's declaration to the root's start
        tag, or that of a prefix the document declares elsewhere for one
        namespace only; another prefix's namespace is not known, so it has none.
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

XML_VERSION = rule(
    "XM010",
    "xml-version-unsupported",
    ERROR,
    summary="The XML declaration names a version other than 1.0",
    what="""
        Checks the `version` of the XML declaration: sitemaps are XML 1.0.
        XML 1.1 (`version="1.1"`) and any other number are reported with the
        declaration to write. The file is still read as XML 1.0 and every
        other check runs.
    """,
    why="""
        The sitemap protocol and its schemas are XML 1.0. Most XML parsers
        (expat, the Go and Java defaults in many crawlers' stacks) support 1.0
        only and refuse or misread a 1.1 document, and 1.1 changes which
        characters and line ends are allowed.
    """,
    bad='<?xml version="1.1" encoding="UTF-8"?>',
    good='<?xml version="1.0" encoding="UTF-8"?>',
)

ATTRIBUTE_NOT_QUOTED = rule(
    "XM011",
    "attribute-value-not-quoted",
    ERROR,
    fix="safe",
    summary="An attribute value without quotes, or in typographic quotes",
    what="""
        Detects an attribute whose value is not in XML's quotes (`"` or `'`):
        written bare (`hreflang=en`) or in other quotes (`xmlns=“http://…”`, as word
        processors and editors that "smarten" quotes write them, or in `«»`, primes
        or backticks). The fix puts the value in `"`. Every such value of the tag
        is reported. Values in other quotes or none are read as if in XML's, so
        their entry is still checked, and what follows the tag on its line stands
        where the file has it; in the root's start tag, the file is read on from
        the tag written right.
    """,
    why="""
        XML requires every attribute value in straight double or single quotes;
        anything else makes the file not well-formed, and search engines reject
        it. Typographic quotes usually come from copying the sitemap's header out
        of a document, a chat or a web page.
    """,
    bad="<urlset xmlns=“http://www.sitemaps.org/schemas/sitemap/0.9”>",
    good='<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "XML"
ORDER = 20

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
    XML_VERSION,
    ATTRIBUTE_NOT_QUOTED,
)

_XSI = USUAL_PREFIXES["xsi"]

_CODES = expat_errors.codes


def _code(name: str) -> int:
    """An expat error code by its message constant; -1 when this expat lacks it."""
    message = getattr(expat_errors, name, None)
    return _CODES.get(message, -1) if message is not None else -1


_INVALID_TOKEN = _code("XML_ERROR_INVALID_TOKEN")
_TAG_MISMATCH = _code("XML_ERROR_TAG_MISMATCH")
_JUNK_AFTER_ROOT = _code("XML_ERROR_JUNK_AFTER_DOC_ELEMENT")
_UNDEFINED = _code("XML_ERROR_UNDEFINED_ENTITY")
_UNBOUND_PREFIX = _code("XML_ERROR_UNBOUND_PREFIX")
_SYNTAX = _code("XML_ERROR_SYNTAX")
_XML_DECL = _code("XML_ERROR_XML_DECL")
_UNCLOSED_TOKEN = _code("XML_ERROR_UNCLOSED_TOKEN")
_CLOSING_TAG = lazy(r"</([A-Za-z_][\w.:-]*)\s*>")
_SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
_AMPLIFICATION = _code("XML_ERROR_AMPLIFICATION_LIMIT_BREACH")
# Errors that only a DOCTYPE's entity declarations can cause.
_ENTITY_ERRORS = {
    _code("XML_ERROR_RECURSIVE_ENTITY_REF"): "a recursive entity reference",
    _code("XML_ERROR_BINARY_ENTITY_REF"): "a reference to an unparsed (binary) entity",
    _code("XML_ERROR_ATTRIBUTE_EXTERNAL_ENTITY_REF"): (
        "a reference to an external entity in an attribute (it was not read)"
    ),
    _AMPLIFICATION: "an entity expansion past the parser's safety limit (billion laughs)",
}
_ENTITY_ERRORS.pop(-1, None)


def is_entity_error(code: int) -> bool:
    """Whether an expat error can only come from a DOCTYPE's entity declarations."""
    return code in _ENTITY_ERRORS


# How to fix the common syntax errors that have no rule of their own.
_HINTS = {
    _TAG_MISMATCH: "a closing tag does not match the element it closes; check the tag names",
    _code("XML_ERROR_DUPLICATE_ATTRIBUTE"): "an attribute is repeated; keep only one",
    _code("XML_ERROR_BAD_CHAR_REF"): (
        "a character reference names a character XML does not allow; remove it"
    ),
    _code("XML_ERROR_MISPLACED_XML_PI"): (
        "an XML declaration may only stand at the very start of the file; remove this one"
    ),
    _code("XML_ERROR_UNCLOSED_CDATA_SECTION"): "a CDATA section is not closed; end it with ]]>",
}

_PREDEFINED = {"amp", "lt", "gt", "quot", "apos"}
# What expat reads as part of a reference after '&' before it finds the error.
_REFERENCE_RUN = lazy(r"#?[\w.:-]*")
_RAW_AMPERSAND = lazy(r"&(?![A-Za-z_][\w.-]*;|#[0-9]+;|#x[0-9A-Fa-f]+;)")
_ENTITY_REF = lazy(r"&([A-Za-z_][\w.-]*);")
_UPPER_HEX_REFERENCE = lazy(r"&#X([0-9A-Fa-f]+;)")
_NAME_START = lazy(r"[A-Za-z_]")
_OPEN_TAG = lazy(r"<[A-Za-z_][\w.:-]*(?:\s[^<>]*)?>[^<]*")
_ELEMENT_PREFIX = lazy(r"</?([A-Za-z_][\w.-]*):")
_ATTRIBUTE_PREFIX = lazy(r"\s([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*\s*=")
_DECLARED_PREFIX = lazy(r"\sxmlns:([A-Za-z_][\w.-]*)\s*=")
_URL_START = lazy(r"[A-Za-z][A-Za-z0-9+.-]*://")
# An end tag at the end of the text before an error, and what follows it there: white
# space to the end of the line or before a "<" (its '>' is missing).
_OPEN_END_TAG = lazy(r"</[^\s<>/&\"'=]+$")
_AFTER_OPEN_END_TAG = lazy(r"\s*$|\s+<")
# What follows a "<" that may start a tag: a name's first character, "/", "!" or "?".
_RAW_LT = lazy(RAW_LT)
_EXCERPT = 50
# Where a tag or a word begins: a "<", or a character after white space.
_TOKEN_START = lazy(r"<|(?<=\s)\S")
# An XML declaration as the reader reads one; its pseudo-attributes, a value in quotes or
# not, and what they allow.
_DECLARATION = lazy(XML_DECLARATION)
_PSEUDO_ATTRIBUTE = lazy(r"""(\s*)([^\s=?>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s?>"']*))""")
_PSEUDO_ATTRIBUTES = ("version", "encoding", "standalone")
_VERSION_NUMBER = lazy(r"1\.[0-9]+")
_ENCODING_NAME = lazy(r"[A-Za-z][A-Za-z0-9._-]*")
_DECLARATION_FIX = 'write <?xml version="1.0" encoding="UTF-8"?>'
_VALUE_SHOWN = 100
# Quotes that are not XML's: typographic ones, guillemets, primes, backticks, accents.
_OTHER_QUOTE = f"[{OTHER_QUOTES}]"
# An attribute's name and "=" right before the place the reader stops at, and the value
# written there without XML's quotes: in other quotes (group 1, then the value, then the
# closing quote, which may be XML's), or bare (group 4, up to white space or the tag's
# end).
_BEFORE_VALUE = lazy(BEFORE_VALUE)
# A start tag's "<" and name (group 1); the attributes after it up to a place, in XML's
# quotes (the last one's closing quote may be missing); a value in XML's quotes; an
# attribute's name and "="; a value whose closing quote is missing before the place
# (group 1 the name, 2 the quote, 3 the value so far: without a "<", or with the raw
# ones of it before the place, where a raw "<" in it is reported after another).
# A value in XML's quotes may hold raw "<" before the place where the reader reports
# the next one of the tag (formats/starttag.py reads each, as _VALUE_AFTER_LESS_THAN
# below does: no quote or ">" before the first).
_TAG_HEAD = lazy(r"<([^\s<>/!?\"'=]+)")
_WITH_LESS_THAN = r"\"[^\"'<>\r\n]*<[^\"\r\n]*\"|'[^\"'<>\r\n]*<[^'\r\n]*'"
_SO_FAR = r"[^\"'<>]*(?:<[^\"'\r\n]*)?"
_ATTRIBUTES_SO_FAR = lazy(
    rf"(?:[ \t\r\n]+{ATTRIBUTE_NAME}{EQUALS}(?:{QUOTED_VALUE}|{_WITH_LESS_THAN}))*"
    rf"(?:[ \t\r\n]*|[ \t\r\n]+{ATTRIBUTE_NAME}{EQUALS}[\"']{_SO_FAR})"
)
_QUOTED_VALUE = lazy(QUOTED_VALUE)
_ATTRIBUTE_NAME = lazy(rf"({ATTRIBUTE_NAME})[ \t]*=")
_OPEN_VALUE = lazy(rf"(?:^|[ \t])({ATTRIBUTE_NAME}){EQUALS}([\"'])({_SO_FAR})\Z")
# The most raw "<" in the values of one start tag looked past to find its start.
_MOST_IN_TAG = 16
# After a raw "<" in an attribute value in XML's quotes (one pattern for each quote): the
# rest of the value on the line, its closing quote, then the tag's end or another
# attribute. Without them the quote is rather missing, and the "<" opens the next tag.
_VALUE_AFTER_LESS_THAN = {
    quote: lazy(rf"[^{quote}\r\n]*{quote}(?=[ \t]*/?>|[ \t\r\n]+{ATTRIBUTE_NAME}{EQUALS}[\"'])")
    for quote in "\"'"
}
_UNQUOTED_VALUE = lazy(
    rf"({_OTHER_QUOTE})([^<>\"'\r\n{OTHER_QUOTES}]*)({_OTHER_QUOTE}|[\"'])"
    r"|([^ \t\r\n<>\"']+?)(?=/?>|[ \t\r\n]|\Z)"
)


@check(PROLOG, emits=(CONTENT_BEFORE_DECLARATION, XML_VERSION), proof=NO_PROOF)
def check_prolog(prolog: Prolog, options: object, report: Reporter) -> None:
    """Text before the XML declaration, and the XML version it declares."""
    if prolog.leading is not None:
        report.add(content_before_declaration(prolog.leading))
    declaration = prolog.declaration
    if declaration is not None and declaration.version not in (None, "1.0"):
        line, column = declaration.version_at
        report.add(xml_version(str(declaration.version), line, column))


def content_before_declaration(prefix: str) -> Finding:
    """The finding for ``prefix``, the text before a late ``<?xml``, placed where the
    declaration stands and naming what precedes it."""
    breaks = prefix.count("\n") + prefix.count("\r") - prefix.count("\r\n")
    last = max(prefix.rfind("\n"), prefix.rfind("\r"))
    line, column = breaks + 1, len(prefix) - last
    if prefix.strip():
        shown = prefix.strip().splitlines()[0][:60]
        what = f"text before the XML declaration ({shown!r})"
    else:
        what = f"{_whitespace(prefix, breaks)} before the XML declaration"
    where = f"line {line}, column {column}" if line > 1 else f"column {column}"
    return CONTENT_BEFORE_DECLARATION.at(
        line,
        column,
        f"{what}, which starts at {where}; <?xml must be the very first thing in the file "
        "(after an optional byte order mark): remove what precedes it",
        fix=whole_file("prefix", "Remove what stands before the XML declaration"),
    )


def _whitespace(prefix: str, breaks: int) -> str:
    """Whitespace named by its parts: blank lines, spaces, tabs."""
    parts = []
    if breaks:
        parts.append(_plural(breaks, "blank line"))
    spaces, tabs = prefix.count(" "), prefix.count("\t")
    if spaces:
        parts.append(_plural(spaces, "space"))
    if tabs:
        parts.append(_plural(tabs, "tab"))
    other = len(prefix) - spaces - tabs - prefix.count("\n") - prefix.count("\r")
    if other:
        parts.append(_plural(other, "other whitespace character"))
    return joined(parts)


def xml_version(version: str, line: int, column: int) -> Finding:
    return XML_VERSION.at(
        line,
        column,
        f'XML declaration says version="{version}"; sitemaps are XML 1.0, which many parsers '
        'require: write <?xml version="1.0" encoding="UTF-8"?>',
    )


def doctype(
    name: str,
    line: int,
    column: int,
    stopped_at: int | None = None,
    error_code: int = -1,
    resumed: bool = False,
) -> Finding:
    """The DOCTYPE finding.

    ``stopped_at`` is the line where one of its entities stopped the parse, with
    expat's ``error_code`` (see ``is_entity_error``); the checker may report that
    here instead of as a second finding; ``resumed``: reading went on after it.
    """
    label = f"DOCTYPE {name}" if name else "DOCTYPE"
    if stopped_at is None:
        effect = "its entities were not expanded in text and nothing was fetched"
    else:
        cause = _ENTITY_ERRORS.get(error_code, "an entity reference")
        effect = (
            f"{cause} at line {stopped_at} was left unread"
            if resumed
            else f"{cause} at line {stopped_at} stopped the parse, so the rest was not checked"
        )
    return DOCTYPE.at(line, column, f"{label} is not allowed in a sitemap; {effect}: remove it")


def syntax_error(
    code: int,
    line: int,
    column: int,
    context: str,
    offset: int,
    before_root: bool | None = None,
    opened: tuple[str, Position] | None = None,
    declared: frozenset[str] = frozenset(),
    below: tuple[tuple[str, str, str, int, int, int], ...] = (),
) -> Finding:
    """Turn an expat error into the most specific finding we can name.

    ``context`` is the text of the error's line and ``offset`` the 0-based
    position of the error in it; ``line`` and ``column`` are the file position.
    ``before_root`` says whether the root element had not started yet (None: not known);
    ``opened``: the innermost element open there and where its start tag stands;
    ``declared``: the prefixes the root declares; ``below``: the prefixes declared on
    elements below it (``Markup.below``).
    """
    reason = expat_errors.messages.get(code, "syntax error")
    start = _broken_start(code, line, column, context, offset, before_root)
    if start is not None:
        return start
    if code == _UNCLOSED_TOKEN:
        section = unended_at(context, offset)
        if section is not None:
            _opener, what, closer = section
            return unended(what, closer, line, column, resumed=False)
    if code == _JUNK_AFTER_ROOT:
        return CONTENT_AFTER_ROOT.at(
            line,
            column,
            f"content after the end of the root element: {_excerpt_from(context, offset)}; "
            "remove everything after the closing root tag",
        )
    if code == _UNDEFINED:
        return _undefined_entity(context, offset, line, column)
    if code == _XML_DECL:
        return _malformed_declaration(context, offset, line, column)
    if code == _UNBOUND_PREFIX:
        return _undeclared_prefix(context, offset, line, column, declared, below)
    if code in _ENTITY_ERRORS:
        return DOCTYPE.at(
            line,
            column,
            f"{_ENTITY_ERRORS[code]} stopped the parse here, so the rest of the file was "
            "not checked; remove the DOCTYPE and write the values out",
        )
    if code == _INVALID_TOKEN:
        hyphens = _double_hyphen(context, offset, line, column)
        if hyphens is not None:
            return hyphens
        unquoted = _unquoted_attribute(context, offset, line, column)
        if unquoted is not None:
            return unquoted
        # Expat stops at such a character wherever it stands, also right after a "<" or
        # in the name of a reference: the character is the defect.
        char = context[offset : offset + 1]
        if char and ((ord(char) < 0x20 and char not in "\t\n\r") or char in "\ufffe\uffff"):
            return SYNTAX_ERROR.at(
                line,
                column,
                f"character U+{ord(char):04X} is not allowed in XML; remove it",
            )
        if char and (char in _INVISIBLE_IN_MARKUP or (char.isspace() and char not in " \t\n\r")):
            return _not_xml_space(char, line, column)
        open_end = _OPEN_END_TAG.search(context, 0, offset)
        if open_end is not None and _AFTER_OPEN_END_TAG.match(context, offset):
            # The reader stops where the '>' is missing (formats/xml.py), and reads on.
            tag = open_end.group(0)
            return SYNTAX_ERROR.at(
                line,
                max(column - len(tag), 1),
                f"end tag {tag!r} is not closed: its '>' is missing; add '>' after the "
                f"name: '{tag}>'",
            )
        spaced = _spaced_tag(context, offset, line, column)
        if spaced is not None:
            return spaced
        # No value stands before the root but an entity's: escaping a '<' or an '&'
        # elsewhere there would make text of markup (IN006), so neither is read as a raw
        # one in a value.
        in_entity = "<!ENTITY" in context[:offset]
        in_value = (
            None if before_root and not in_entity else _raw_in_value(context, offset, line, column)
        )
        if in_value is not None:
            return in_value
        in_section = _section_in_tag(context, offset, line, column)
        if in_section is not None:
            return in_section
        in_tag = _start_tag_defect(context, offset, line, column)
        if in_tag is not None:
            return in_tag
    if code == _TAG_MISMATCH:
        lt = _glued_tag(context, offset, closed=True)
        if lt is not None:
            return _raw_less_than(context, lt, line, column - (offset - lt))
        closing = _CLOSING_TAG.match(context, offset - 2) if offset >= 2 else None
        if closing is not None:
            return _mismatched(closing.group(), line, max(column - 2, 1), opened)
    hint = _HINTS.get(code, "fix the markup here")
    reason = reason.removeprefix("not well-formed ").strip("()")
    return SYNTAX_ERROR.at(
        line, column, f"not well-formed XML: {reason} at {_excerpt(context, offset)}: {hint}"
    )


def _double_hyphen(context: str, offset: int, line: int, column: int) -> Finding | None:
    """XM001 for ``--`` inside a comment opened on the same line, which expat stops right
    after (``offset``); None for any other invalid token. XML allows no ``--`` in a
    comment but its ``-->``; a suppression directive's reason is written after a space."""
    at = offset - 2
    if at < 0 or context[at:offset] != "--" or context[offset : offset + 1] == ">":
        return None
    opener = context.rfind("<!--", 0, at)
    if opener < 0 or opener + 4 > at or "-->" in context[opener + 4 : at]:
        return None
    where = max(column - 2, 1)
    text = context[opener + 4 :]
    end = text.find("-->")
    if end >= 0:
        text = text[:end]
    if text.lstrip().startswith("sitemap-lint"):
        written = " ".join(text.replace("--", " ").split())
        fix = f"write the directive's reason after a space: '<!-- {written} -->'"
    else:
        fix = "write a single '-' or another word"
    return SYNTAX_ERROR.at(
        line, where, f"'--' inside a comment, which XML allows only in its closing '-->'; {fix}"
    )


def _mismatched(
    closing: str, line: int, column: int, opened: tuple[str, Position] | None
) -> Finding:
    """XM001 for an end tag (``closing``, at ``line``:``column``) that does not close the
    element open there (``opened``: its name and start tag's place, when known)."""
    if opened is None:
        return SYNTAX_ERROR.at(
            line,
            column,
            f"mismatched tag: end tag {closing!r} does not match the element it closes;"
            " check the tag names",
        )
    name, (open_line, open_column) = opened
    return SYNTAX_ERROR.at(
        line,
        column,
        f"mismatched tag: end tag {closing!r} does not close <{name}>, the element open since line "
        f"{open_line}, column {open_column}; write '</{name}>' or correct the start tag",
    )


# Characters that show as nothing; like the white space XML does not count as such
# (no-break space, NEL, U+2028), expat stops at them between markup.
_INVISIBLE_IN_MARKUP = "\u200b\u200c\u200d\u2060\ufeff"
# Names unicodedata does not give (control characters have none).
_SPACE_NAMES = {"\x85": "NEXT LINE"}


def _not_xml_space(char: str, line: int, column: int) -> Finding:
    """XM001 for a character that looks like white space (or like nothing) where expat
    stopped between markup: in the prolog, after the root, inside a tag."""
    if char == "\ufeff":
        return SYNTAX_ERROR.at(
            line,
            column,
            "character U+FEFF, a byte order mark, in the middle of the file where only "
            "markup and white space may stand (joining files saved with one leaves it); "
            "remove it",
        )
    return SYNTAX_ERROR.at(
        line,
        column,
        f"character {_named(char)} is not white space in XML 1.0, which allows only spaces, tabs "
        "and line breaks (CR, LF) between markup; remove it or write a space or a line feed",
    )


def _named(char: str) -> str:
    """``U+0085 (NEXT LINE)``: a character's code point and its name, where it has one."""
    import unicodedata  # only for a file that has such a character

    name = _SPACE_NAMES.get(char) or unicodedata.name(char, "")
    return f"U+{ord(char):04X} ({name})" if name else f"U+{ord(char):04X}"


# White space after a tag's "<" (``< urlset``, ``< /url>``): markup where no text stands.
_SPACED_TAG = lazy("<" + SPACED_TAG)


def _spaced_tag(context: str, offset: int, line: int, column: int) -> Finding | None:
    """XM001 naming white space after a tag's '<', where expat stopped (``offset``, at
    the space): only where nothing but white space stands since the markup before it
    (in a value, ``1 < 2`` is a raw '<')."""
    lt = context.rfind("<", 0, offset)
    spaced = _SPACED_TAG.match(context, lt) if lt >= 0 else None
    if spaced is None or offset > spaced.start(1) or context[lt + 1 : offset].strip():
        return None
    if context[context.rfind(">", 0, lt) + 1 : lt].strip():
        return None
    name = spaced.group(1)
    return SYNTAX_ERROR.at(
        line,
        max(column - (offset - lt), 1),
        f"white space after '<' in {spaced.group()!r}: a tag's name follows '<' directly;"
        f" write '<{name}'",
    )


def _raw_in_value(context: str, offset: int, line: int, column: int) -> Finding | None:
    """XM004 or XM005 for the raw '&' or '<' in a value where the reader stopped at
    ``offset`` of ``context`` (an invalid token), or None."""
    if context[:offset].endswith("<"):
        # The reader stops right after a raw '<' (also one glued to the text before
        # it, ``q=a<b``: formats/xml.py), before an '&' after it too (``a<&b``).
        return _raw_less_than(context, offset - 1, line, column - 1)
    if context[offset : offset + 1] == "&":
        lt = _glued_tag(context, offset, closed=False)
        if lt is not None:  # ``q=a<b&c``, where the reader could not read on: the '<'
            return _raw_less_than(context, lt, line, column - (offset - lt))
    amp = context.rfind("&", 0, offset + 1)
    before = context.rfind("&", 0, offset)
    if amp == offset and before >= 0 and _REFERENCE_RUN.fullmatch(context, before + 1, offset):
        amp = before  # "&a&lt;": the parser stops at the second "&", the first is raw
    if (
        amp >= 0
        and _RAW_AMPERSAND.match(context, amp)
        and (amp == offset or _REFERENCE_RUN.fullmatch(context, amp + 1, offset))
    ):
        return _raw_ampersand(context, amp, line, column - (offset - amp))
    lt = _glued_tag(context, offset, closed=False)
    if lt is not None and not _in_tag_value(context, offset):
        return _raw_less_than(context, lt, line, column - (offset - lt))
    return None


def _tag_before(context: str, offset: int) -> int:
    """Where the start tag that place ``offset`` of ``context`` stands in starts: the
    last "<" before it, or an earlier one where that "<" is a raw one in a value in
    XML's quotes of the tag (``href="a<b" hreflang="c<d"``: the earliest whose name and
    attributes reach the place); -1: none in the context."""
    last = context.rfind("<", 0, offset)
    found = last
    tag = last
    for _ in range(_MOST_IN_TAG):
        if tag < 0:
            break
        head = _TAG_HEAD.match(context, tag)
        if head is not None and _ATTRIBUTES_SO_FAR.fullmatch(context, head.end(), offset):
            found = tag
        tag = context.rfind("<", 0, tag)
    return found


def _in_tag_value(context: str, offset: int) -> bool:
    """Whether place ``offset`` of ``context`` stands in a value in XML's quotes of a
    start tag (the tag's start on the line)."""
    tag = _tag_before(context, offset)
    head = _TAG_HEAD.match(context, tag) if tag >= 0 else None
    return (
        head is not None
        and _ATTRIBUTES_SO_FAR.fullmatch(context, head.end(), offset) is not None
        and _OPEN_VALUE.search(context, head.end(), offset) is not None
    )


def _broken_start(
    code: int, line: int, column: int, context: str, offset: int, before_root: bool | None
) -> Finding | None:
    """A closing tag where no element is open, or text before the root element: the
    finding that says so, or None for any other error."""
    if code == _INVALID_TOKEN and context[offset - 1 : offset + 1] == "</":
        closing = _CLOSING_TAG.match(context, offset - 1)
        if closing is None:
            return None
        # Inside an element `</name>` is always an end tag: expat rejects one as a token
        # only where no element is open, before the root element or after it.
        tag = closing.group(0).rstrip()
        name = closing.group(1)
        if before_root is False:
            return CONTENT_AFTER_ROOT.at(
                line,
                max(column - 1, 1),
                f"closing tag {tag!r} after the end of the root element, where no element "
                "is open; remove it",
            )
        root = name if name in ("urlset", "sitemapindex") else "urlset"
        start_tag = f'<{root} xmlns="{_SITEMAP_NS}">'
        where = "before any start tag" if before_root else "where no element is open"
        return SYNTAX_ERROR.at(
            line,
            max(column - 1, 1),
            f"closing tag {tag!r} {where}: the start of the document is missing; "
            f"a sitemap begins with its root element's start tag, {start_tag}",
        )
    if code == _SYNTAX and before_root and context[offset : offset + 1] not in ("", "<"):
        text = context[offset:].split("<", 1)[0].strip()
        shown = text if len(text) <= 40 else text[:37] + "..."
        return SYNTAX_ERROR.at(
            line,
            column,
            f"text {shown!r} before the root element; only the XML declaration and comments "
            "may come before <urlset> or <sitemapindex>: remove the text (often a message a "
            "server or template printed)",
        )
    return None


def _malformed_declaration(context: str, offset: int, line: int, column: int) -> Finding:
    """A malformed XML declaration (the reader goes on after it), saying what is wrong
    when its line shows it from its start."""
    start = context.rfind("<?xml", 0, offset + 1)
    found = _DECLARATION.match(context, start) if start >= 0 else None
    if found is None:
        shown, problem = _excerpt(context, offset), "the XML declaration is malformed"
    else:
        written = found.group(0).rstrip()
        shown = repr(written if len(written) <= _EXCERPT else written[: _EXCERPT - 3] + "...")
        problem = _declaration_problem(written)
    return SYNTAX_ERROR.at(
        line,
        column,
        f"not well-formed XML: XML declaration not well-formed at {shown}: {problem}; "
        + _DECLARATION_FIX,
    )


def _declaration_problem(declaration: str) -> str:
    """What is wrong in the malformed XML declaration ``declaration``, as expat reads it
    (the first defect from its start; its missing end first, where expat stops)."""
    if not declaration.endswith("?>"):
        return "'?>' expected at its end"
    body = declaration[5:-2]
    odd_space = next((c for c in body if c.isspace() and c not in " \t\n\r"), None)
    if odd_space is not None:
        return f"character {_named(odd_space)} is not white space in XML 1.0"
    given: dict[str, str] = {}
    at = 0
    while (found := _PSEUDO_ATTRIBUTE.match(body, at)) is not None:
        space, name, unquoted = found.group(1), found.group(2), found.group(5)
        if not space:
            return f"a space is missing before {name!r}"
        if unquoted is not None:
            return f'the value of {name} is not in quotes: {name}="{unquoted}"'
        if name not in _PSEUDO_ATTRIBUTES:
            return f"{name!r} is not one of its attributes (version, encoding, standalone)"
        if name in given:
            return f"{name} is given twice"
        given[name] = found.group(3) if found.group(3) is not None else found.group(4)
        at = found.end()
    rest = body[at:].strip()
    if rest:
        return f"{rest if len(rest) <= 20 else rest[:17] + '...'!r} does not belong there"
    if "version" not in given:
        return 'version="1.0" is missing; it comes first'
    if list(given) != [name for name in _PSEUDO_ATTRIBUTES if name in given]:
        return "its attributes are out of order: version, then encoding, then standalone"
    version, encoding = given["version"], given.get("encoding")
    standalone = given.get("standalone")
    if not _VERSION_NUMBER.fullmatch(version):
        return f"version {version!r} is not an XML version number such as 1.0"
    if encoding is not None and not _ENCODING_NAME.fullmatch(encoding):
        return f"encoding {encoding!r} is not an encoding name"
    if standalone is not None and standalone not in ("yes", "no"):
        return f"standalone is 'yes' or 'no', not {standalone!r}"
    return "the XML declaration is malformed"


def truncated(root_name: str, line: int, column: int) -> Finding:
    return TRUNCATED.at(
        line,
        column,
        f"document ends before </{root_name}>: the file is truncated (entries before "
        "this point were checked); upload the complete file, or regenerate it if its "
        "generator stopped",
    )


def unclosed(qname: str, line: int, column: int, at_line: int, at_column: int) -> Finding:
    """An element whose end tag is missing, reported at its start tag; the parser
    noticed at ``at_line``:``at_column``."""
    return SYNTAX_ERROR.at(
        line,
        column,
        f"<{qname}> is never closed: its end tag </{qname}> is missing "
        f"(noticed at line {at_line}, column {at_column}); add </{qname}>",
    )


def unended(what: str, closer: str, line: int, column: int, resumed: bool = True) -> Finding:
    """A comment, CDATA section or processing instruction whose end is missing: the
    text ends inside it (``resumed``: entries follow its start, and were read)."""
    read = " (the entries after it were read and checked)" if resumed else ""
    return SYNTAX_ERROR.at(
        line,
        column,
        f"this {what} is never closed: no {closer!r} follows it, so all the rest of the "
        f"file is part of it; end it with {closer!r}{read}",
    )


def skipped(first: int, last: int, resumed: int | None, entry: str) -> Finding:
    """Lines that could not be read after a syntax error (``resumed``: where reading
    went on, None when the file ended first)."""
    lines = f"line {first} was" if first == last else f"lines {first}-{last} were"
    where = (
        f"reading resumed at the next <{entry}> or the root's end tag on line {resumed}"
        if resumed is not None
        else "the file ended before the next entry"
    )
    return SYNTAX_ERROR.at(
        first,
        1,
        f"{lines} skipped after the syntax error above: not read and not checked; {where}",
    )


def too_many_errors(line: int, column: int) -> Finding:
    return SYNTAX_ERROR.at(
        line,
        column,
        "more than 100,000 syntax errors: the rest of the file was not read; "
        "fix the errors above (they usually share one cause) and check again",
    )


@check(
    MARKUP,
    emits=(
        SYNTAX_ERROR,
        UNESCAPED_AMPERSAND,
        UNESCAPED_LESS_THAN,
        UNDEFINED_ENTITY,
        CONTENT_AFTER_ROOT,
        UNDECLARED_PREFIX,
        ATTRIBUTE_NOT_QUOTED,
        TRUNCATED,
        DOCTYPE,
    ),
    proof=NO_PROOF,
)
def check_markup(markup: Markup, options: object, report: Reporter) -> None:
    """What the XML reader met: a syntax error, the end of the text inside the root, an
    element never closed, lines skipped after an error, too many errors, a DOCTYPE."""
    finding = _markup_finding(markup)
    if finding is not None:
        report.add(finding)


def _markup_finding(markup: Markup) -> Finding | None:
    kind, line, column = markup.kind, markup.line, markup.column
    if kind == MarkupKind.SYNTAX and _after_entry_root(markup):
        return None  # the root's start tag is missing: unknown-root says so, once
    if kind == MarkupKind.SYNTAX and markup.code == _JUNK_AFTER_ROOT:
        entry = ROOTS.get(markup.name)
        after = markup.context[markup.offset :]
        if entry is not None and re.match(rf"<{entry}[\s/>]", after):
            return CONTENT_AFTER_ROOT.at(
                line,
                column,
                f"a <{entry}> entry after </{markup.name}>: the root's end tag stands before "
                f"the last entries; move </{markup.name}> after the last <{entry}>",
            )
    if kind == MarkupKind.SYNTAX:
        opened = (markup.name, markup.at) if markup.at is not None else None
        return syntax_error(
            markup.code,
            line,
            column,
            markup.context,
            markup.offset,
            markup.before_root,
            opened,
            markup.declared,
            markup.below,
        )
    if kind == MarkupKind.TRUNCATED:
        return truncated(markup.name, line, column)
    if kind == MarkupKind.UNCLOSED and markup.at is not None:
        return unclosed(markup.name, line, column, *markup.at)
    if kind == MarkupKind.UNENDED:
        return unended(markup.name, markup.context, line, column)
    if kind == MarkupKind.SKIPPED:
        return skipped(line, markup.last, markup.resumed, markup.name)
    if kind == MarkupKind.TOO_MANY:
        return too_many_errors(line, column)
    if kind == MarkupKind.DOCTYPE:
        stopped_at = markup.at[0] if markup.at is not None else None
        resumed = markup.resumed is not None
        return doctype(markup.name, line, column, stopped_at, markup.code, resumed)
    return None


def _after_entry_root(markup: Markup) -> bool:
    """Whether a syntax error stands after the end of a root that is an entry (``url``,
    ``sitemap``): the file lost its root's start tag, and what follows the first entry
    (more entries, the root's end tag) is no content to remove."""
    code, context, offset = markup.code, markup.context, markup.offset
    after_root = code == _JUNK_AFTER_ROOT or (
        code == _INVALID_TOKEN
        and markup.before_root is False
        and context[offset - 1 : offset + 1] == "</"
    )
    return after_root and markup.name in _ENTRY_NAMES


# The entries' names: a root of one of these names lost its own start tag.
_ENTRY_NAMES = frozenset(ROOTS.values())


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _glued_tag(context: str, offset: int, closed: bool) -> int | None:
    """Where a raw '<' stands that expat took for the start of a tag, or None.

    A '<' glued to the text before it (``q=a<b``) starts no real tag in a
    sitemap. For an invalid token expat stops inside that would-be tag; for a
    mismatched tag it stops at the closing tag after it (``a<b>c</loc>``).
    """
    before = context[:offset]
    if closed:
        end = before.rfind("</")
        if end < 0:
            return None
        before = before[:end]
    lt = before.rfind("<")
    if lt <= 0 or not _NAME_START.match(context, lt + 1):
        return None
    glued = context[lt - 1]
    if glued in UNGLUED:
        return None
    tail = before[lt:]
    if closed:
        return lt if _OPEN_TAG.fullmatch(tail) and not tail.split(">", 1)[0].endswith("/") else None
    return lt if ">" not in tail else None


def _value_around(context: str, at: int) -> tuple[int, int]:
    """The bounds of the text or attribute value that holds position ``at``; a raw '<'
    (one that starts no tag, ``_raw_lt``) is part of a text."""
    tag_start = context.rfind("<", 0, at)
    while tag_start >= 0 and _raw_lt(context, tag_start):
        tag_start = context.rfind("<", 0, tag_start)
    if tag_start > context.rfind(">", 0, at):  # inside a tag: an attribute value
        quote_at = max(context.rfind('"', tag_start, at), context.rfind("'", tag_start, at))
        if quote_at >= 0:
            end = context.find(context[quote_at], at)
            return quote_at + 1, len(context) if end < 0 else end
        return tag_start, len(context)
    start = context.rfind(">", 0, at) + 1
    end = context.find("<", at)
    while end >= 0 and _raw_lt(context, end):
        end = context.find("<", end + 1)
    return start, len(context) if end < 0 else end


def _raw_lt(context: str, at: int) -> bool:
    """Whether the '<' at ``at`` of ``context`` starts no tag (``model.RAW_LT``)."""
    return _RAW_LT.match(context, at) is not None


def _shown(value: str, at: int) -> str:
    """``value`` cut down around position ``at`` when it is long."""
    if len(value) <= _VALUE_SHOWN:
        return value
    half = _VALUE_SHOWN // 2
    start = max(at - half, 0)
    end = min(start + _VALUE_SHOWN, len(value))
    return ("…" if start else "") + value[start:end] + ("…" if end < len(value) else "")


def _raw_ampersand(context: str, at: int, line: int, column: int) -> Finding:
    start, end = _value_around(context, at)
    return raw_ampersands(context[start:end], (at - start,), line, column - (at - start), None)[0]


def raw_ampersands(
    raw: str,
    offsets: tuple[int, ...],
    line: int,
    column: int,
    xpath: str | None,
    exact: bool = False,
) -> list[Finding]:
    """The XM004 finding of each raw "&" at ``offsets`` in ``raw``, a whole text or
    attribute value (with the white space around it) that starts at ``line``:``column``,
    naming the element ``xpath``; ``exact``: that position is the value's in the decoded
    text (``FindingFix.exact``). The message quotes the value without its white space
    (cut around the "&" when it is long). The fix of a short value escapes every raw "&"
    of the value, and its findings share it and their message; that of a long value
    escapes its own "&", so that a long text with thousands of them does not hold a copy
    of it for each. None when the value would start before column 1."""
    value = raw.strip()
    rule = UNESCAPED_AMPERSAND
    code, name, severity = rule.code, rule.name, rule.severity
    if len(value) <= _VALUE_SHOWN:  # the whole value, in one message for all
        message, fix = _value_fix(raw, len(offsets), line, column, exact)
        return [
            Finding(code, name, severity, message, line, max(column + offset, 1), None, fix, xpath)
            for offset in offsets
        ]
    escape = _escape_every if raw.count("&") == len(offsets) else _escape_raw
    upper_hex = _UPPER_HEX_REFERENCE.search(raw) is not None
    if upper_hex:
        escape = _lower_hex
    shown = _with_lt(escape, _less_than(value)) if "<" in raw else escape
    lead = len(raw) - len(raw.lstrip())
    findings = []
    for offset in offsets:
        snippet = _shown(value, offset - lead)
        message = _message(snippet, shown(snippet), upper_hex)
        at = max(column + offset, 1)
        fix = _one_escape(raw, offset, line, column + offset, exact) if column >= 1 else None
        findings.append(Finding(code, name, severity, message, line, at, None, fix, xpath))
    return findings


@lru_cache(maxsize=1)
def _value_fix(
    raw: str, raw_count: int, line: int, column: int, exact: bool
) -> tuple[str, FindingFix | None]:
    """The message and the fix of each XM004 finding of ``raw``, a short value
    (``raw_ampersands``) with ``raw_count`` raw "&". The last is kept: a value read
    again at each of its raw "&" (formats/xml.py) gives one fix to all its findings."""
    # Every "&" raw: each is escaped; else only those that start no reference.
    escape = _escape_every if raw.count("&") == raw_count else _escape_raw
    upper_hex = _UPPER_HEX_REFERENCE.search(raw) is not None
    if upper_hex:
        escape = _lower_hex
    escaped = escape(raw)
    # Escaping the '&' of a character reference the parser refused makes its '#' a
    # URL fragment: the meaning changes.
    refused = upper_hex or escaped.count("&amp;#") > raw.count("&amp;#")
    value = raw.strip()
    fix: FindingFix | None
    if "<" in raw:
        # A raw '<' too (XM005's, whose fix is its own): each text around it is escaped
        # apart, and the message shows the value written right.
        fix = _escape_fix_between(raw, escape, line, column, exact, refused)
        written = _with_lt(escape, _less_than(value))(value)
    else:
        fix = _escape_fix(raw, escaped, line, column, exact, refused)
        written = escaped if value is raw else escape(value)
    return _message(value, written, upper_hex), fix if column >= 1 else None


def _one_escape(raw: str, offset: int, line: int, column: int, exact: bool) -> FindingFix:
    """XM004's fix of the raw "&" at ``offset`` of ``raw``, at ``line``:``column``:
    escaped, or a character reference with an upper-case x written with a lower-case
    one; unsafe where the "&" starts a character reference (``_escape_fix``)."""
    reference = _UPPER_HEX_REFERENCE.match(raw, offset)
    if reference is not None:
        written = _lower_hex(reference.group())
        return _escape_fix(reference.group(), written, line, column, exact, True)
    refused = raw.startswith("&#", offset)
    return _escape_fix("&", "&amp;", line, column, exact, refused)


def url_ampersands(
    url: str, offsets: tuple[int, ...], line: int, column: int, xpath: str
) -> list[Finding]:
    """``raw_ampersands`` of a loc's URL whose every "&" is raw, with no white space
    around it, at an exact ``line``:``column`` (1 or more) of the decoded text: the
    fast path's locs, made in fewer steps."""
    if len(url) > _VALUE_SHOWN:  # a message for each "&", cut around it
        return raw_ampersands(url, offsets, line, column, xpath, True)
    escaped = url.replace("&", "&amp;")
    fix = _escape_fix(url, escaped, line, column, True)
    message = _message(url, escaped)
    rule = UNESCAPED_AMPERSAND
    code, name, severity = rule.code, rule.name, rule.severity
    return [
        Finding(code, name, severity, message, line, column + offset, None, fix, xpath)
        for offset in offsets
    ]


def _escape_fix(
    raw: str, escaped: str, line: int, column: int, exact: bool, refused: bool = False
) -> FindingFix:
    """XM004's fix: ``raw`` at ``line``:``column`` replaced by ``escaped``; unsafe where
    an '&' starts a character reference the parser refused (``refused``)."""
    edit = Edit(line, column, escaped, "span", line, column + len(raw), raw)
    if not refused:
        return FindingFix(Fix.SAFE, "Escape the raw `&` as `&amp;`", (edit,), exact)
    how = "Write the character reference as XML reads it, or escape its `&` as `&amp;`"
    return FindingFix(Fix.UNSAFE, how, (edit,), exact)


def _escape_fix_between(
    raw: str,
    escape: Callable[[str], str],
    line: int,
    column: int,
    exact: bool,
    refused: bool,
) -> FindingFix:
    """XM004's fix of ``raw``, a value that holds a raw '<' too: each text between
    those '<' escaped by ``escape`` where that changes it, so that the edits leave every
    '<' to XM005's fix."""
    edits = []
    at = 0
    for piece in raw.split("<"):
        written = escape(piece)
        if written != piece:
            start = column + at
            edits.append(Edit(line, start, written, "span", line, start + len(piece), piece))
        at += len(piece) + 1
    if not refused:
        return FindingFix(Fix.SAFE, "Escape the raw `&` as `&amp;`", tuple(edits), exact)
    how = "Write the character reference as XML reads it, or escape its `&` as `&amp;`"
    return FindingFix(Fix.UNSAFE, how, tuple(edits), exact)


def _less_than(value: str) -> str:
    """What a raw '<' of ``value`` is written: '%3C' in a URL, '&lt;' elsewhere (the
    reader reads it so, formats/xml.py)."""
    return "%3C" if _URL_START.match(value) is not None else "&lt;"


def _with_lt(escape: Callable[[str], str], written: str) -> Callable[[str], str]:
    """``escape`` that also writes each '<' as ``written``."""
    return lambda text: escape(text).replace("<", written)


def _message(value: str, escaped: str, upper_hex: bool = False) -> str:
    if upper_hex:
        return shortened(
            f"raw '&' in {value!r}; a character reference takes a lower-case x: write {escaped!r}"
        )
    return shortened(f"raw '&' in {value!r}; escape it as {escaped!r}")


def _lower_hex(text: str) -> str:
    """``text`` with its '&#X' references written '&#x', its other raw '&' escaped."""
    return _escape_raw(_UPPER_HEX_REFERENCE.sub(r"&#x\1", text))


def _escape_every(text: str) -> str:
    return text.replace("&", "&amp;")


def _escape_raw(text: str) -> str:
    return _RAW_AMPERSAND.sub("&amp;", text)


# A start tag written whole (``<url>``, ``<loc a="b">``): after a raw '<', it shows that
# the '<' was not in a value.
_WHOLE_START_TAG = lazy(r"<[A-Za-z_][\w.:-]*(?:\s[^<>]*)?/?>")


def _raw_less_than(context: str, at: int, line: int, column: int) -> Finding:
    """XM005 for the raw '<' at ``at`` of ``context`` in an element's text: the message
    quotes its value and shows it written right (each raw '<' and '&' of it escaped);
    the fix writes this '<' as the message says ('%3C' in a URL, '&lt;' elsewhere), as
    ``--fix`` does."""
    start = context.rfind(">", 0, at) + 1
    end = context.find("</", at + 1)
    end = len(context) if end < 0 else end
    if not context[start:at].strip() and _WHOLE_START_TAG.search(context, at + 1, end):
        # Nothing before it since the last tag, and an element starts after it before
        # any end tag: the '<' stands between elements, where no value is (escaping it
        # would make text there).
        return SYNTAX_ERROR.at(
            line,
            max(column, 1),
            f"a stray '<' between elements at {_excerpt(context, at)}: no value stands "
            "here; remove it",
        )
    return _less_than_in_value(context, start, end, at, line, column)


def _less_than_in_value(
    context: str, start: int, end: int, at: int, line: int, column: int
) -> Finding:
    """XM005 for the raw '<' at ``at`` of ``context``, in the value written from
    ``start`` to ``end`` (an element's text, or an attribute's value in its quotes)."""
    raw = context[start:end]
    value = raw.strip()
    at_in_value = at - start - (len(raw) - len(raw.lstrip()))
    escaped = _less_than(value)
    in_url = escaped == "%3C"
    written = _escape_raw(value[:at_in_value]) + escaped + _escape_raw(value[at_in_value + 1 :])
    fixed = written.replace("<", escaped)
    fixed_at = len(_escape_raw(value[:at_in_value]).replace("<", escaped))
    how = "percent-encode it in a URL" if in_url else "escape it"
    if in_url and ">" in value:
        # The URL shown is the one to write: its '>' percent-encoded too (UR006 reports
        # each, whose fix writes it so).
        fixed = fixed.replace(">", "%3E")
        fixed_at += 2 * value[:at_in_value].count(">")
        how = "percent-encode it in a URL, and each '>' too"
    column = max(column, 1)
    edit = Edit(line, column, escaped, "span", line, column + 1, "<")
    return UNESCAPED_LESS_THAN.at(
        line,
        column,
        f"raw '<' in {_shown(value, at_in_value)!r}; {how}: {_shown(fixed, fixed_at)!r}",
        fix=FindingFix(
            Fix.SAFE,
            "Percent-encode the `<` as `%3C`" if in_url else "Escape the `<` as `&lt;`",
            (edit,),
        ),
    )


def _unquoted_attribute(context: str, offset: int, line: int, column: int) -> Finding | None:
    """XM011 when the reader stopped at ``offset`` of ``context`` (the file's ``line`` and
    ``column``) at an attribute's value written without XML's quotes; else None."""
    tag = context.rfind("<", 0, offset)  # -1: the tag starts on an earlier line
    if context.rfind(">", max(tag, 0), offset) >= 0:
        return None
    before = min(offset, len(context))
    while before and context[before - 1] in " \t":
        before -= 1
    if not context.endswith("=", 0, before):  # no "=" before the place: no value starts there
        return None
    name = _BEFORE_VALUE.search(context, tag + 1, offset)
    value = _UNQUOTED_VALUE.match(context, offset)
    if name is None or value is None:
        return None
    bare = value.group(4)
    stray = _QUOTED_VALUE.match(context, value.end(1)) if bare is None else None
    if stray is not None:  # ``xmlns=”"http://…"``: a quote too many, before the value
        mark = value.group(1)
        edit = Edit(line, column, "", "span", line, column + len(mark), mark)
        return ATTRIBUTE_NOT_QUOTED.at(
            line,
            column,
            f"a stray {mark} stands before the value of {name.group(1)}; remove it",
            fix=FindingFix(Fix.SAFE, "Remove the stray quote", (edit,)),
        )
    written = bare if bare is not None else value.group(2)
    quote = "'" if '"' in written else '"'
    fixed = f"{quote}{written}{quote}"
    attribute = name.group(1)
    how = "has no quotes" if bare is not None else f"is in {value.group(1)}{value.group(3)}"
    edit = Edit(line, column, fixed, "span", line, column + len(value.group(0)), value.group(0))
    # ``href=https://example.com/de/>``: the "/" ends the empty element, or the value.
    slash = bare is not None and context.startswith("/>", value.end())
    other = f" (or {_shown_attribute(attribute, quote + written + '/' + quote)}/> if the '/' is part of it)"
    return ATTRIBUTE_NOT_QUOTED.at(
        line,
        column,
        f"the value of {attribute} {how}: XML needs straight quotes; write "
        f"{_shown_attribute(attribute, fixed)}{other if slash else ''}",
        fix=FindingFix(
            Fix.UNSAFE if slash else Fix.SAFE, "Put the value in straight quotes", (edit,)
        ),
    )


def _start_tag_defect(context: str, offset: int, line: int, column: int) -> Finding | None:
    """XM001 naming what is wrong in a start tag when the reader stopped at ``offset``
    of ``context`` inside one (its line; a tag may start on an earlier one): two
    attributes without white space between them, an attribute value whose closing
    quote is missing, or the tag's '>' missing; else None."""
    tag = _tag_before(context, offset)
    head = _TAG_HEAD.match(context, tag) if tag >= 0 else None
    if tag >= 0 and head is None:
        return None
    name = f"<{head.group(1)}>" if head is not None else "the start tag"
    if not _ATTRIBUTES_SO_FAR.fullmatch(context, head.end() if head is not None else 0, offset):
        return None
    glued = _ATTRIBUTE_NAME.match(context, offset)
    if glued is not None and context[offset - 1 : offset] in ('"', "'"):
        return SYNTAX_ERROR.at(
            line,
            column,
            f"no white space between two attributes of {name}: write a space before "
            f"{glued.group(1)!r}",
            fix=_inserted(" ", "Add a space between the attributes", line, column),
        )
    open_value = _OPEN_VALUE.search(context, 0, offset)
    if open_value is not None and (context.startswith((">", "/>"), offset)):
        value, quote = open_value.group(3), open_value.group(2)
        return SYNTAX_ERROR.at(
            line,
            column,
            f"the value of {open_value.group(1)} in {name} has no closing quote: add "
            f"{quote} after {_excerpt_value(value)!r}",
            fix=_inserted(quote, "Close the value's quote", line, column),
        )
    if open_value is not None and context.startswith("<", offset):
        quote = open_value.group(2)
        rest = _VALUE_AFTER_LESS_THAN[quote].match(context, offset)
        if rest is not None:  # ``href="https://h/?q=a<b"``: the '<' is in the value
            value_start = offset - len(open_value.group(3))
            return _less_than_in_value(context, value_start, rest.end() - 1, offset, line, column)
    if context[offset:].lstrip()[:1] in ("", "<"):
        at = column - (offset - len(context[:offset].rstrip()))
        return SYNTAX_ERROR.at(
            line,
            at,
            f"{name} is not closed: its '>' is missing; add '>' here, after its last attribute",
            fix=_inserted(">", "Close the start tag with '>'", line, at),
        )
    return None


# A comment or a processing instruction, whole or to the end of the context (the
# reader hands over a tag on several lines whole: formats/xml.py); what may follow one
# inside a start tag (formats/starttag.py reads it as white space): an attribute, the
# tag's end, another such section.
_TAG_SECTION = lazy(r"<!--(?:.*?-->|.*\Z)|<\?(?:.*?\?>|.*\Z)", re.DOTALL)
_IN_TAG_AFTER = lazy(rf"[ \t\r\n]*(?:/?>|{ATTRIBUTE_NAME}|<!--|<\?|\Z)")
# What may stand in a start tag before such a section: attributes (a value in quotes or
# not), other sections.
_BEFORE_SECTION = lazy(
    rf"(?:[ \t\r\n]++(?>{ATTRIBUTE_NAME}){EQUALS}(?:{QUOTED_VALUE}|[^ \t\r\n<>\"']++)"
    r"|[ \t\r\n]*+(?><!--.*?-->)|[ \t\r\n]*+(?><\?.*?\?>))*+[ \t\r\n]*+",
    re.DOTALL,
)
# The last start tag's "<" and name before a place (the tag may hold sections).
_LAST_TAG_HEAD = lazy(r".*(<[^\s<>/!?\"'=]+)", re.DOTALL)
# The rest of a start tag after a section in it, up to its '>': attributes in quotes,
# white space, more sections.
_TAG_REST = lazy(
    rf"(?:[ \t\r\n]++|(?>{ATTRIBUTE_NAME}){EQUALS}(?:{QUOTED_VALUE})|(?><!--.*?-->)|(?><\?.*?\?>))*+"
    r"/?>",
    re.DOTALL,
)
# White space up to a line break, and the line break.
_TO_LINE_END = lazy(r"[ \t]*(?:\r\n?|\n)")
_LINE_BREAKS = lazy(r"\r\n?|\n")


def _section_in_tag(context: str, offset: int, line: int, column: int) -> Finding | None:
    """XM001 for a comment or processing instruction inside a start tag, where the
    reader stopped (``offset`` of ``context``, at its '<'), before an attribute or the
    tag's end; else None. The fix (unsafe: removing it is the other choice) moves it
    right after the tag's '>' when both stand on the line."""
    section = _TAG_SECTION.match(context, offset)
    if section is None or not _IN_TAG_AFTER.match(context, section.end()):
        return None
    last = _LAST_TAG_HEAD.match(context, 0, offset)
    after = last.end() if last is not None else 0
    if not _BEFORE_SECTION.fullmatch(context, after, offset):
        return None
    name = f"the start tag {last.group(1)}>" if last is not None else "a start tag"
    text = section.group()
    comment = text.startswith("<!--")
    what = "a comment" if comment else "a processing instruction"
    closed = text.endswith("-->" if comment else "?>")
    rest = _TAG_REST.match(context, section.end()) if closed else None
    fix = None
    if rest is not None:
        before = context[:offset].rstrip(" \t")
        spaced = offset - len(before)
        start, end = offset - spaced, rest.end()
        moved = context[section.end() : end]
        alone = _TO_LINE_END.match(moved)
        if alone is not None and before.endswith(("\n", "\r")):
            moved = moved[alone.end() :]  # alone on its lines: they go with it
        moved += text
        title = f"Move the {'comment' if comment else 'instruction'} after the tag's '>'"
        end_line, end_column = _moved_to(context, offset, end, line, column)
        edit = Edit(line, column - spaced, moved, "span", end_line, end_column, context[start:end])
        fix = FindingFix(Fix.UNSAFE, title, (edit,))
    shown = text if len(text) <= _EXCERPT else text[: _EXCERPT - 3] + "..."
    return SYNTAX_ERROR.at(
        line,
        column,
        f"{what} ({shown!r}) cannot stand inside {name}, where only attributes may: "
        "remove it, or move it after the tag's '>'",
        fix=fix,
    )


def _moved_to(context: str, offset: int, end: int, line: int, column: int) -> tuple[int, int]:
    """The file position of place ``end`` of ``context``, given that of place ``offset``
    before it (``line``, ``column``)."""
    breaks = list(_LINE_BREAKS.finditer(context, offset, end))
    if not breaks:
        return line, column + end - offset
    return line + len(breaks), end - breaks[-1].end() + 1


def _inserted(text: str, title: str, line: int, column: int) -> FindingFix:
    """A safe fix that writes ``text`` at ``line``:``column``, before what stands there."""
    return FindingFix(Fix.SAFE, title, (Edit(line, column, text, "span", line, column, ""),))


def _excerpt_value(text: str) -> str:
    return text if len(text) <= _EXCERPT else "..." + text[-(_EXCERPT - 3) :]


def _shown_attribute(name: str, value: str) -> str:
    shown = f"{name}={value}"
    return shown if len(shown) <= _VALUE_SHOWN else shown[: _VALUE_SHOWN - 3] + "..."


def _undefined_entity(context: str, offset: int, line: int, column: int) -> Finding:
    match = None
    start = context.rfind("&", 0, offset + 1)
    if start >= 0:
        match = _ENTITY_REF.match(context, start)
    if match is None or match.group(1) in _PREDEFINED:
        # In an attribute value expat points at the start of the tag: look ahead.
        match = next(
            (m for m in _ENTITY_REF.finditer(context, offset) if m.group(1) not in _PREDEFINED),
            None,
        )
    if match is None:
        return UNDEFINED_ENTITY.at(
            line,
            column,
            "reference to an entity XML does not define; "
            "XML defines only &amp; &lt; &gt; &quot; &apos;",
        )
    name = match.group(1)
    column += match.start() - offset
    from html.entities import name2codepoint  # only for a file that has such a reference

    codepoint = name2codepoint.get(name)
    if codepoint is None:
        fix = (
            "XML knows only &amp; &lt; &gt; &quot; &apos;: write the character it stands for, "
            f"or &amp;{name}; if the text is meant literally"
        )
    else:
        fix = f"write &#{codepoint}; or the character itself"
        value_start, _end = _value_around(context, match.start())
        if _URL_START.match(context[value_start : match.start()].lstrip()):
            encoded = "".join(f"%{byte:02X}" for byte in chr(codepoint).encode("utf-8"))
            fix = f"in a URL percent-encode it as {encoded} (elsewhere write &#{codepoint};)"
    return UNDEFINED_ENTITY.at(
        line, max(column, 1), f"entity &{name}; is not defined in XML; {fix}"
    )


def _undeclared_prefix(
    context: str,
    offset: int,
    line: int,
    column: int,
    on_root: frozenset[str],
    below: tuple[tuple[str, str, str, int, int, int], ...] = (),
) -> Finding:
    # Expat points at the start tag that uses the prefix; the prefix may be the
    # element's own or an attribute's.
    tag_end = context.find(">", offset)
    tag = context[offset : len(context) if tag_end < 0 else tag_end]
    declared = set(_DECLARED_PREFIX.findall(tag)) | on_root | {"xml", "xmlns"}
    prefix = None
    named = "elements"
    element = _ELEMENT_PREFIX.match(tag)
    if element and element.group(1) not in declared:
        prefix = element.group(1)
    else:
        named = "attributes"
        prefix = next((p for p in _ATTRIBUTE_PREFIX.findall(tag) if p not in declared), None)
    if prefix is None:
        # The name is on a later line of the tag, which we do not see.
        usual = ""
        if re.match(r"<(?:urlset|sitemapindex)\b", tag):
            usual = f' (on the root this is usually xsi:, declared as xmlns:xsi="{_XSI}")'
        return UNDECLARED_PREFIX.at(
            line,
            column,
            "a namespace prefix in this start tag (element or attribute name) is not "
            f"declared; add an xmlns:PREFIX declaration for it to the root element{usual}",
        )
    known = USUAL_PREFIXES.get(prefix)
    elsewhere = [
        (uri, name, at, column_at, count)
        for p, uri, name, at, column_at, count in below
        if p == prefix
    ]
    uris = [uri for uri, *_place in elsewhere]
    if known is None and len(uris) == 1:
        known = uris[0]  # the one namespace the document declares it for
    if elsewhere:
        them = "it" if len(elsewhere) == 1 and elsewhere[0][-1] == 1 else "them"
        used = f"prefix '{prefix}' is declared only on {_declared_on(elsewhere, len(uris) > 1)}"
        used += f", and is used here outside {them}"
    else:
        used = f"prefix '{prefix}' is used but not declared"
    if known is None:
        if uris:
            advice = f"declare xmlns:{prefix} on the root element with the namespace meant"
        else:
            advice = f"declare xmlns:{prefix} on the root element, or remove the {prefix}: {named}"
        return UNDECLARED_PREFIX.at(line, column, f"{used}; {advice}")
    declaration = f'xmlns:{prefix}="{known}"'
    return UNDECLARED_PREFIX.at(
        line,
        column,
        f"{used}; add {declaration} to the root element",
        fix=whole_file(
            "declare", f"Declare {declaration} on the root", old=prefix, content=declaration
        ),
    )


def _declared_on(elsewhere: list[tuple[str, str, int, int, int]], namespaces: bool) -> str:
    """The elements that declare a prefix for their own scope (``elsewhere``: namespace,
    the last one's qualified name, line, column, how many), with each namespace when
    they differ."""
    shown = []
    for uri, name, line, column, count in elsewhere[-3:]:
        place = f"<{name}> at line {line}, column {column}"
        if count > 1:
            place = f"{_plural(count, 'element')} (the last, {place})"
        shown.append(place + (f" for {uri}" if namespaces else ""))
    more = len(elsewhere) - len(shown)
    if more:
        shown.insert(0, _plural(more, "other namespace"))
    return joined(shown)


def _excerpt(context: str, offset: int) -> str:
    """The text around ``offset``, begun where a tag or a word begins (not inside one)
    when one begins in the half before it."""
    start = max(offset - _EXCERPT // 2, 0)
    if start:
        boundary = _TOKEN_START.search(context, start, offset)
        if boundary is not None:
            start = boundary.start()
    return _excerpt_from(context, start)


def _excerpt_from(context: str, start: int) -> str:
    text = context[start : start + _EXCERPT].strip()
    return repr(text) if text else "(end of line)"
