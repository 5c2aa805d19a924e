"""URL rules: every `loc` must be an absolute, well-formed, properly escaped http(s) URL."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import quote, urljoin

from sitemap_lint.domain.hosts import (
    MAX_LABEL,
    MAX_NAME,
    HostFault,
    alabel_fault,
    ipv4_fault,
    ipv6_fault,
    joiner_name,
    plain_host,
    to_ascii,
)
from sitemap_lint.domain.urls import (
    ParsedURL,
    escaped_outside_ascii,
    percent_faults,
    remove_dot_segments,
)
from sitemap_lint.domain.urls import encoded as percent_encoded
from sitemap_lint.finding import Fix
from sitemap_lint.fix.model import (
    Edit,
    FindingFix,
    holds_reference,
    replace_text,
    shown_attribute,
    shown_text,
)
from sitemap_lint.model import MAX_TEXT, XML_SPACE, Node, RefusedReferences
from sitemap_lint.rules.base import ERROR, INFO, WARNING, check, rule
from sitemap_lint.rules.registry import proved_value
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.words import joined

if TYPE_CHECKING:
    from sitemap_lint.rules.entry import EntryContext, FileContext
    from sitemap_lint.rules.events import Replacements

MAX_LENGTH = 2048
MIN_LENGTH = 12
YANDEX_LENGTH = 1024

NOT_ABSOLUTE = rule(
    "UR001",
    "url-not-absolute",
    ERROR,
    summary="A URL is relative or lacks its scheme or host",
    what="""
        Checks that each `loc` is a complete absolute URL: scheme, `//`, host,
        then path. The message writes a relative URL resolved against where
        the file is served, when that is known (`--sitemap-url`, or the URL it
        was fetched from).
    """,
    why="""
        Sitemaps are read without a base URL, so relative URLs cannot be
        resolved; Google reports "Invalid URL" and skips them.
    """,
    bad="<loc>/products/shoes</loc>",
    good="<loc>https://example.com/products/shoes</loc>",
)

BAD_SCHEME = rule(
    "UR002",
    "url-scheme-not-http",
    ERROR,
    summary="A URL's scheme is not http or https",
    what="Checks that each `loc` uses `http` or `https`.",
    why="Search engines crawl web pages only; `ftp:`, `mailto:`, `javascript:` or a typo such as `htp:` are rejected.",
    bad="<loc>htps://example.com/</loc>",
    good="<loc>https://example.com/</loc>",
)

TOO_LONG = rule(
    "UR003",
    "url-too-long",
    ERROR,
    summary="A URL is longer than 2,048 characters",
    what="Checks the length of each `loc`; the schema allows at most 2,048 characters.",
    why="Longer URLs are invalid against the schema and search engines drop them.",
    bad="<loc>https://example.com/search?q=...(3,000 characters)</loc>",
    good="<loc>https://example.com/search/red-shoes</loc>",
)

TOO_SHORT = rule(
    "UR004",
    "url-too-short",
    ERROR,
    summary="A URL is shorter than the schema's 12 characters",
    what="Checks that each `loc` has at least 12 characters, the schema's minimum.",
    why="""
        The official schema rejects shorter values, so strict validators fail the
        file. Real pages rarely have such short URLs; writing the full form
        (with `https://` and a trailing `/`) usually fixes it.
    """,
    bad="<loc>http://a.io</loc>",
    good="<loc>https://a.io/</loc>",
)

WHITESPACE = rule(
    "UR005",
    "url-whitespace",
    WARNING,
    fix="safe",
    summary="Whitespace or line breaks around a URL",
    what="Detects spaces, tabs or line breaks before or after the URL inside `loc`.",
    why="""
        Some consumers keep the whitespace as part of the URL and then fail to
        fetch it; Google may report "Invalid URL". Templates that break lines
        inside `<loc>` are the usual cause.
    """,
    bad="""
        <loc>
          https://example.com/
        </loc>
    """,
    good="<loc>https://example.com/</loc>",
)

UNSAFE_CHARACTER = rule(
    "UR006",
    "url-unsafe-character",
    ERROR,
    fix="safe",
    summary="A URL contains characters that must be percent-encoded",
    what="""
        Detects spaces, quotes, angle brackets, braces, `|`, `\\`, `^`, backticks,
        control characters, and square brackets outside an IPv6 host, in the
        path, query or fragment of a URL (and a second `#`, inside the fragment,
        which the schema's `anyURI` rejects), and shows the encoded URL; a tab or
        a line break is removed from it instead, as browsers drop them, and so is
        any other control character, which no page address holds (encoded, each
        would be a control character: `url-percent-encoded-control`). (Such
        characters in the host are reported by `url-invalid-host`.) A URL
        followed by white space and a second URL is two URLs run together: the
        finding says so instead of encoding the space, and a robots.txt
        `Sitemap:` line written so is followed by neither URL (nor by the two
        as one) when the set follows the robots.txt's sitemaps: the line names
        no one sitemap, and taking the first would guess at what it meant.
    """,
    why="""
        These characters are not allowed in URLs (RFC 3986). Crawlers either
        reject the URL or encode it differently from your server, so the wrong
        page is fetched.
    """,
    bad="<loc>https://example.com/red shoes</loc>",
    good="<loc>https://example.com/red%20shoes</loc>",
)

BAD_PERCENT = rule(
    "UR007",
    "url-bad-percent-encoding",
    ERROR,
    summary="A `%` that does not start a valid percent-escape",
    what="Detects `%` not followed by two hexadecimal digits.",
    why="""
        The URL is malformed; consumers reject it or decode it in different ways.
        A literal percent sign is written `%25`.
    """,
    bad="<loc>https://example.com/sale-50%-off</loc>",
    good="<loc>https://example.com/sale-50%25-off</loc>",
)

FRAGMENT = rule(
    "UR008",
    "url-fragment",
    WARNING,
    summary="A URL with a `#fragment`",
    what="Detects a fragment (`#...`) in a URL.",
    why="""
        Fragments are not sent to the server: crawlers drop them, so the entry
        duplicates the page without the fragment.
    """,
    bad="<loc>https://example.com/guide#install</loc>",
    good="<loc>https://example.com/guide</loc>",
)

CREDENTIALS = rule(
    "UR009",
    "url-credentials",
    WARNING,
    summary="A URL with a user name or password",
    what="Detects `user:password@` before the host.",
    why="""
        Credentials in a public file leak them, and crawlers do not log in: the
        page is not crawled as intended.
    """,
    bad="<loc>https://admin:secret@example.com/</loc>",
    good="<loc>https://example.com/</loc>",
)

INVALID_HOST = rule(
    "UR010",
    "url-invalid-host",
    ERROR,
    summary="A URL's host or port is not valid",
    what="""
        Checks the host (labels of 1 to 63 letters, digits and hyphens, at most
        253 characters, or an IP address) and the port (1 to 65535; an empty one,
        `example.com:/`, which RFC 3986 allows, is `url-empty-port`'s), and names the
        character, label or number at fault. A host whose last label is a number
        is read as browsers read it, as an IPv4 address (`256.1.1.1` is not one),
        a host in brackets must be an IPv6 address, and an `xn--` label must
        decode (Punycode) to a valid internationalized label. A host with characters outside ASCII
        is read as browsers read it (UTS #46, then IDNA 2008): a character that
        IDNA 2008 does not allow (`☃`, an emoji), a joiner out of place, or a
        label over 63 characters in its `xn--` form is reported here.
    """,
    why="Such a URL cannot be fetched; search engines report it as invalid.",
    bad="<loc>https://example..com:99999/</loc>",
    good="<loc>https://example.com/</loc>",
)

NON_ASCII = rule(
    "UR011",
    "url-not-encoded",
    WARNING,
    fix="safe",
    summary="A URL with characters outside ASCII that are not percent-encoded",
    what="""
        Detects non-ASCII characters in a URL (an IRI) and shows the encoded
        URL, once per URL: punycode in the host, percent-encoded UTF-8 in the
        path and query. The host is encoded as browsers encode it (UTS #46
        non-transitional): `faß.de` is `xn--fa-hia.de`, not `fass.de`. A U+FFFD
        (the replacement character) written in the file is reported without a
        fix: it usually means the URL's text was damaged by a wrong decoding
        upstream, and `%EF%BF%BD` would only hide that. An invisible character
        in the path or query (a zero-width space, a soft hyphen, a direction
        mark, U+FEFF) is reported alone, to remove, without a fix: encoded, it
        would stay in the address. (Bytes that are not
        UTF-8, which are read as U+FFFD, are `invalid-utf8`'s.) A URL that,
        encoded, would be longer than 2,048 characters gets no fix either: the
        message gives its encoded length, to shorten it first.
    """,
    why="""
        The protocol asks for URLs encoded as RFC 3986 requires. Most crawlers
        encode IRIs themselves, but not all in the same way, and the encoded form
        is what your server's links and canonical tags should match.
    """,
    bad="<loc>https://example.com/café</loc>",
    good="<loc>https://example.com/caf%C3%A9</loc>",
)

LONG_FOR_YANDEX = rule(
    "UR012",
    "url-over-1024",
    INFO,
    summary="A page URL longer than 1,024 characters (Yandex's limit)",
    what="""
        Reports a `loc` of 1,025 to 2,048 characters: valid for the protocol and
        Google, but over the limit Yandex reads. (Longer ones are `UR003`.) The
        `yandex` profile makes it an error.
    """,
    why="""
        Yandex ignores such URLs ("URL too long"); very long URLs are usually
        search or filter pages that should not be in a sitemap anyway.
    """,
    bad="<loc>https://example.com/search?filters=...(1,500 characters)</loc>",
    good="<loc>https://example.com/shoes/red/</loc>",
)

PERCENT_CONTROL = rule(
    "UR013",
    "url-percent-encoded-control",
    ERROR,
    summary="A percent-escape that decodes to NUL or another control character",
    what="""
        Detects escapes such as `%00` (NUL), `%0A` (line feed) or `%7F` (DEL) in
        the path, query or fragment of a URL: they are well formed, but stand for
        control characters.
    """,
    why="""
        No page address holds a control character. Servers and proxies reject an
        encoded NUL outright (it is a classic attack pattern), and a line break in
        a URL is usually a template that printed a value with its newline.
    """,
    bad="<loc>https://example.com/products/boots%00</loc>",
    good="<loc>https://example.com/products/boots</loc>",
)

PERCENT_NOT_UTF8 = rule(
    "UR014",
    "url-percent-not-utf8",
    WARNING,
    summary="Percent-escapes that do not decode to UTF-8 (Latin-1 `%E9`)",
    what="""
        Decodes the percent-escapes of a URL and reports bytes that are not
        UTF-8, such as `%E9` (`é` in Latin-1) or a cut-off sequence (`%C3`
        alone), with the UTF-8 form to write.
    """,
    why="""
        URLs in sitemaps are expected in UTF-8 (RFC 3987, and what browsers send):
        `caf%E9` and `caf%C3%A9` are two different addresses, and the Latin-1 one
        is usually not the page your links point to. The schema accepts either,
        so only a crawler finds out.
    """,
    bad="<loc>https://example.com/caf%E9</loc>",
    good="<loc>https://example.com/caf%C3%A9</loc>",
)

PERCENT_DOUBLE = rule(
    "UR015",
    "url-double-encoded",
    WARNING,
    summary="A percent-escape that was escaped twice (`%2520`)",
    what="""
        Detects `%25` followed by two hexadecimal digits, as in `%2520`: an
        escape (`%20`) whose `%` was escaped again.
    """,
    why="""
        The URL then names a path with a literal `%20` in it, not a space: the
        server answers 404 or a different page. It is the usual trace of a
        generator that encodes URLs that were already encoded. (A literal
        percent sign followed by two hex digits is rare; if the page really has
        one, ignore this finding for it.)
    """,
    bad="<loc>https://example.com/red%2520shoes</loc>",
    good="<loc>https://example.com/red%20shoes</loc>",
)

EMPTY_PORT = rule(
    "UR016",
    "url-empty-port",
    WARNING,
    summary="A URL with an empty port (`:` with no number after the host)",
    what="""
        Detects a `:` after the host with no port number, as in
        `https://example.com:/page`.
    """,
    why="""
        RFC 3986 allows an empty port and reads it as the scheme's default one, so
        crawlers fetch the page; but strict schema validators (libxml2, `xmllint`)
        reject the value as an `anyURI`, and the `:` serves no purpose.
    """,
    bad="<loc>https://example.com:/products/shoes</loc>",
    good="<loc>https://example.com/products/shoes</loc>",
)

ESCAPED_TWICE = rule(
    "UR017",
    "url-escaped-twice",
    WARNING,
    fix="unsafe",
    summary="A URL that holds `&amp;` or another XML escape as text (`&amp;amp;`)",
    what="""
        Detects one of XML's five escapes (`&amp;`, `&lt;`, `&gt;`, `&quot;`,
        `&apos;`) in the value of a `loc`, an `image:loc`, a video's URL
        (`content_loc`, `player_loc`, `thumbnail_loc`, ...) or a feed's link as
        the parser reads it: the file
        writes `&amp;amp;`, or writes `&amp;` inside a CDATA section, where
        references are not read. A text sitemap's line and a robots.txt's
        `Sitemap:` line are no XML: any escape in their URLs is text. The
        message shows the URL with each escape
        replaced by its character (percent-encoded where a URL needs it).
    """,
    why="""
        The escape then is part of the URL: `?color=red&amp;amp;size=42` is
        requested as `?color=red&amp;size=42`, whose second parameter is named
        `amp;size`, so the page is not the one meant, or a duplicate of it. It
        is the usual trace of a generator that escapes URLs that were already
        escaped. (The fix is unsafe: a URL may hold such text on purpose.)
    """,
    bad="<loc>https://example.com/shoes?color=red&amp;amp;size=42</loc>",
    good="<loc>https://example.com/shoes?color=red&amp;size=42</loc>",
)

NOT_CANONICAL = rule(
    "UR018",
    "url-not-canonical",
    INFO,
    fix="safe",
    summary="A URL written in a form other than its canonical one (`HTTPS://Example.COM:443/a/./b`)",
    what="""
        Detects a URL that names the same page as a shorter, canonical form
        (RFC 3986, section 6.2): a scheme or host with upper-case letters, the
        scheme's default port (`:443` on https, `:80` on http), `.` or `..`
        segments in the path (`/a/./b`, `/a/../b`), or an empty path
        (`https://example.com` with no `/`, or `?` right after the host).
        One finding per URL names each of these and the canonical URL to write;
        its fix writes that URL. It checks every URL the URL rules check (a
        `loc`, an `image:loc`, a video's URLs, an `xhtml:link`'s `href`, a text
        sitemap's line, a feed's link, a robots.txt's `Sitemap:` line). An
        empty port (`example.com:/`) is `url-empty-port`'s, a host outside ASCII
        `url-not-encoded`'s, an empty path in a URL shorter than 12 characters
        `url-too-short`'s; the case of percent-escapes (`%2f`) is not read.
    """,
    why="""
        Crawlers, and the duplicate and hreflang checks, read both forms as one
        page, but other tools compare URLs as written: a canonical tag, an
        analytics report or another sitemap that writes the canonical form
        does not match this one. Writing every URL in its canonical form keeps
        them equal everywhere.
    """,
    bad="<loc>HTTPS://Example.COM:443/shop/./shoes</loc>",
    good="<loc>https://example.com/shop/shoes</loc>",
)

LOCAL_HOST = rule(
    "UR019",
    "url-local-host",
    ERROR,
    summary="A URL on a host only a local machine or network reaches (`localhost`, `127.0.0.1`, `192.168.1.5`, `printer.local`)",
    what="""
        Detects a URL whose host search engines cannot reach: the name
        `localhost` (or one under `.localhost`), a name under `.local` (multicast
        DNS), `.internal` or `.home.arpa`, or an IP address that is not public
        (loopback `127.0.0.1` and `[::1]`, the unspecified `0.0.0.0`, private
        `10.x`, `172.16-31.x` and `192.168.x`, link-local, unique-local, carrier-grade
        NAT and the other reserved ranges, in any of the forms a URL may write an
        IPv4 address). It checks every URL the URL rules check. It is not
        reported where such hosts are expected: with `--allow-private-hosts` (a
        staging server on the private network), or when the sitemap is checked
        at such a host, `--sitemap-url` says it is served there or `--robots`
        reads its robots.txt there (a development server).
    """,
    why="""
        Such a URL is a page of the machine or network that wrote the sitemap: a
        development server (`jekyll serve` on `localhost:4000`, `hugo server` on
        `localhost:1313`), a build run with the wrong base URL, a staging host. A
        crawler on the internet cannot fetch it, so every such URL is lost to
        search, and the sitemap tells the world the addresses of internal hosts.
    """,
    bad="<loc>http://localhost:4000/blog/first-post/</loc>",
    good="<loc>https://example.com/blog/first-post/</loc>",
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "URLs"
ORDER = 60

RULES = (
    NOT_ABSOLUTE,
    BAD_SCHEME,
    TOO_LONG,
    TOO_SHORT,
    WHITESPACE,
    UNSAFE_CHARACTER,
    BAD_PERCENT,
    FRAGMENT,
    CREDENTIALS,
    INVALID_HOST,
    NON_ASCII,
    LONG_FOR_YANDEX,
    PERCENT_CONTROL,
    PERCENT_NOT_UTF8,
    PERCENT_DOUBLE,
    EMPTY_PORT,
    ESCAPED_TWICE,
    NOT_CANONICAL,
    LOCAL_HOST,
)


# A host name: labels of 1 to 63 lower-case letters, digits and hyphens, no hyphen at
# either end. (Possessive: a label takes all such characters that follow at once, since
# nothing that may follow a host is one; backtracking into labels cost a third of a match.)
_LABEL_NAME = r"(?!-)[a-z0-9-]{1,63}+(?<!-)"
_HOST_NAME = rf"{_LABEL_NAME}(?:\.{_LABEL_NAME})*+"
# The fast path: an ordinary lower-case http(s) URL whose characters are all allowed
# (percent-escapes included). Anything else takes the slow path, which names the defect.
_SIMPLE = lazy(
    rf"(https?)://({_HOST_NAME})"
    r"(?::([0-9]{1,5}))?"
    r"(/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*(?:%[0-9A-Fa-f]{2}[A-Za-z0-9\-._~!$&'()*+,;=:@/]*)*)?"
    r"(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*(?:%[0-9A-Fa-f]{2}[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)*)?\Z"
)
# A URL _SIMPLE takes but for characters outside ASCII in its path or query (not U+FFFD,
# which may stand for bytes that were not UTF-8: ``_check_slowly`` tells), without a port
# or "%": its one finding is UR011, found at a fraction of ``_check_slowly``'s cost. Its
# path and query classes are those of _SIMPLE with every character outside ASCII but
# U+FFFD, written negated (what they leave out): Python's compiler walks every character
# of a range a class holds (``\u0080-\ufffc``: 3.6 ms), not of those a negated class
# names (tests/rules/test_urls.py holds them equal to the classes written out).
_IRI_PCHAR = r'[^\x00-\x20"#%<>?\[-\^`{-}\x7f\ufffd]'
_IRI_QCHAR = r'[^\x00-\x20"#%<>\[-\^`{-}\x7f\ufffd]'
_SIMPLE_IRI = lazy(rf"(https?)://({_HOST_NAME})(/{_IRI_PCHAR}*)?(?:\?{_IRI_QCHAR}*)?\Z")
_SCHEME = lazy(r"([A-Za-z][A-Za-z0-9+.-]*):")
_SCHEME_SLASHES = lazy(r"(https?)(?:/+|:/{3,}|//:)", re.IGNORECASE)
# Characters never allowed in a URL (RFC 3986); `[` and `]` only in an IPv6 host.
_UNSAFE = lazy(r"[\x00-\x20\x7f\"<>`{}|\\^\[\]]")
_BAD_PERCENT = lazy(r"%(?![0-9A-Fa-f]{2})")
_LABEL = lazy(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\Z")
# A relative reference: `page.html`, `./a`, `../a/b`, `shoes/red` (no scheme, no host).
_RELATIVE = lazy(r"(?:\.\.?/|[^:/?#\s]+(?:[/?#]|\Z))")
_FILE_LIKE = lazy(
    r"[^/?#]*\.(?:xml|gz|txt|html?|php|aspx?|jsp|cfm|json|pdf)(?:[?#]|\Z)", re.IGNORECASE
)
_HOST_LIKE = lazy(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?::\d+)?(?:[/?#]|\Z)")
# What a URL may be written inside of: its first character -> (its last, how to say it).
_WRAPPERS = {
    "<": (">", "inside '<' and '>'"),
    '"': ('"', "in double quotes"),
    "'": ("'", "in single quotes"),
}
_HTTP_START = lazy(r"https?://", re.IGNORECASE)
_SECOND_URL = lazy(r"\s+(https?://\S*)", re.IGNORECASE)
_SCHEME_TYPOS = {
    "htp",
    "htps",
    "htttp",
    "htttps",
    "hhtp",
    "hhtps",
    "ttp",
    "ttps",
    "httpss",
    "hppt",
    "hppts",
    "htpp",
    "htpps",
}


def _encoding_fix(
    url: str, node: Node, fixed: str, remainder: str, host_problem: str | None
) -> FindingFix | None:
    """The fix that writes ``url`` percent-encoded (RFC 3987, section 3.1), or None.

    Only for a URL that is the whole text of its element (or an ``xhtml:link``'s
    ``href``), with a usable host and no stray ``%`` (whose meaning a person must
    decide). Dropping a tab or a line break (as a browser does) or another control
    character (which no page address holds) and encoding a backslash (which a browser
    reads as ``/``) may change the page a crawler asks for: that fix is unsafe.
    """
    if host_problem or len(remainder) > MAX_LENGTH or fixed == url or "\ufffd" in remainder:
        return None
    if "%" in remainder and _BAD_PERCENT.search(remainder):
        return None
    if _CHANGED_BY_BROWSERS.search(remainder) is None:  # (the usual URL)
        return _written_encoded(url, node, fixed)
    dropped = "\t" in remainder or "\n" in remainder or "\r" in remainder
    says = "Write the URL as browsers read it" if dropped else _ENCODE
    if _CONTROL.search(remainder):
        says = "Remove the control characters from the URL"
    return _written_encoded(url, node, fixed, says, safe=False)


_ENCODE = "Percent-encode the URL"


def _written_encoded(
    url: str, node: Node, fixed: str, says: str = _ENCODE, safe: bool = True
) -> FindingFix | None:
    """The fix that writes ``fixed`` instead of ``url``, the whole text of ``node`` or
    of its ``href`` (an ``xhtml:link``'s), or None when it is neither."""
    if node.text.strip() == url:
        return replace_text(node, fixed, says, safe=safe)
    if node.attrs.get("href", "").strip() == url:
        edit = Edit(node.line, node.column, fixed, "href", old=url)
        return FindingFix(Fix.SAFE if safe else Fix.UNSAFE, says, (edit,))
    return None


def _url_of(node: Node) -> ParsedURL | None:
    return parse_url(node.text)


@check(
    "loc",
    emits=RULES,
    covers=True,
    provides="url",
    fallback=_url_of,
    proof=proved_value("url"),
)
class LocCheck:
    """The URL rules on an entry's ``loc``; its parts feed the checks that follow. A
    relative URL is resolved, for its message, against where the file is served."""

    def __init__(self, file: FileContext) -> None:
        self.base = file.options.sitemap_url

    def check(self, node: Node, entry: EntryContext, report: Reporter) -> None:
        entry.url = check_url(
            node.text, node, report, replacements=entry.replacements, base=self.base
        )
        check_escaped_twice(node, report)


# XML's five escapes, and what each stands for in a URL (percent-encoded where a URL needs it).
ESCAPES = {"amp": "&", "apos": "'", "quot": "%22", "lt": "%3C", "gt": "%3E"}
# One of XML's five escapes as text in a value as read (UR017; the fast path leaves a loc
# holding one to the full checker).
ESCAPE_TEXT = lazy(r"&(amp|apos|quot|lt|gt);")


def check_escaped_twice(
    node: Node, report: Reporter, plain: str = "", value: str | None = None
) -> None:
    """UR017 for a URL element (a loc, an image's or a video's, an RSS link; an Atom
    link's href) whose value holds XML escapes as text. ``plain``: what the file is when
    it is no XML ("text sitemap", "robots.txt"), whose escapes are never read: ``value``
    (else ``node``'s text) is then the URL as its line has it, from ``node``'s position."""
    if value is None:
        value = node.text if node.text or plain else node.attrs.get("href", "")
    if "&" not in value:
        return
    names = list(dict.fromkeys(ESCAPE_TEXT.findall(value)))
    if not names:
        return
    fixed = _unescaped(value)
    shown = joined([f"'&{name};'" for name in names])
    says = "Unescape the escapes in the URL"
    if plain:
        message = (
            f"URL holds {shown} as text: a {plain} is no XML, so escapes are not read "
            f"there and crawlers request a URL with {shown} in it; write {fixed} (unescaped)"
        )
        edit = Edit(
            node.line, node.column, fixed, "span", node.line, node.column + len(value), value
        )
        fix: FindingFix | None = FindingFix(Fix.UNSAFE, says, (edit,))
    else:
        twice = joined([f"'&amp;{name};'" for name in names])
        what = "it was" if len(names) == 1 else "they were"
        message = (
            f"URL holds {shown} as text: {what} escaped twice (as in {twice}), or written "
            f"in a CDATA section, where escapes are not read, so crawlers request a URL with "
            f"{shown} in it; write {fixed.strip()} (escaped once)"
        )
        if node.text:
            fix = replace_text(node, fixed, says, safe=False)
        else:  # an Atom link's href
            fix = _written_encoded(value.strip(), node, fixed.strip(), says, safe=False)
    report.add(ESCAPED_TWICE.at(node.line, node.column, message, fix=fix))


def _unescaped(value: str) -> str:
    """``value`` with its escapes as text replaced, level after level, until it holds
    none (``&amp;amp;lt;`` is ``%3C``): every level is the same mistake, and one fix
    takes them all, however many passes the fixer makes."""
    while True:
        fixed = ESCAPE_TEXT.sub(lambda found: ESCAPES[found.group(1)], value)
        if fixed == value:
            return fixed
        value = fixed


# Fields whose value is a page URL (a sitemap's loc, a text sitemap's line, a feed's link).
PAGE_FIELDS = ("loc", "URL", "link")


def check_url(
    value: str,
    node: Node,
    report: Reporter,
    field: str = "loc",
    *,
    replacements: Replacements | None = None,
    base: ParsedURL | None = None,
) -> ParsedURL | None:
    """Check one URL value; return its parts when it is usable for scope checks.

    Reports go to ``report``; every finding about a defect the schema also
    rejects covers ``node``, so that the schema error is not reported twice.
    ``replacements``: where the file's decoder replaced bytes with U+FFFD (a check has
    them from its context); when not given, those of ``report`` if it has them (the
    file's sink, which a front end hands over: a text sitemap, a feed, a robots.txt).
    ``base``: where the file is served, when known: UR001 writes a relative URL
    resolved against it.
    """
    url = value
    # A value cut at MAX_TEXT characters: how it ends, and its length, are unknown.
    cut = len(value) >= MAX_TEXT
    stripped = url.lstrip() if cut else url.strip()
    if url != stripped:
        report.add(
            WHITESPACE.at(
                node.line,
                node.column,
                _whitespace_message(stripped, field),
                fix=None if cut or not stripped else _trimmed(url, stripped, node, field),
            ),
            # White space the schema does not collapse (a no-break space) makes its
            # error on the value: this finding is that error's.
            node if (url.lstrip(XML_SPACE) if cut else url.strip(XML_SPACE)) != stripped else None,
        )
        url = stripped
    length = len(url)
    if length > MAX_LENGTH:
        report.add(
            TOO_LONG.at(
                node.line,
                node.column,
                f"URL is {'more than ' if cut else ''}{length:,} characters long, "
                "over the limit of 2,048; shorten it",
            ),
            node,
        )
    elif length > YANDEX_LENGTH and field in PAGE_FIELDS:
        report.add(
            LONG_FOR_YANDEX.at(
                node.line,
                node.column,
                f"URL is {length:,} characters long; Yandex reads URLs of at most 1,024: "
                "shorten it if Yandex matters",
            )
        )
    match = _SIMPLE.match(url) if url.isascii() else None
    if match and len(match.group(2)) <= 253 and _reads_as_public_name(match.group(2)):
        if "%" in url:
            _check_escapes(url[match.end(2) :], node, report)
        if length < MIN_LENGTH:
            _too_short(url, node, report)
        scheme, host, port, path = match.group(1, 2, 3, 4)
        default = 443 if scheme == "https" else 80
        if port is not None:
            if not 0 < int(port) <= 65535:
                report.add(INVALID_HOST.at(node.line, node.column, _port_message(port)), node)
                return None
            if not cut:  # (a port, then maybe no path or dot segments: UR018 tells)
                check_canonical(url, node, report)
            return ParsedURL(scheme, host, int(port), path or "/")
        if (not path or "/." in path) and not cut:  # (a lower-case scheme and host)
            check_canonical(url, node, report)
        return ParsedURL(scheme, host, default, path or "/")
    match = _SIMPLE_IRI.match(url)
    if match and len(match.group(2)) <= 253 and _reads_as_public_name(match.group(2)):
        return check_iri(url, match, node, report)
    return _check_slowly(url, node, report, field, replacements, base)


def iri_parts(url: str) -> re.Match[str] | None:
    """When ``check_url`` reports nothing on ``url`` (12 to 1,024 characters) but UR011
    (a clean URL but for characters outside ASCII in its path or query): its parts, for
    ``check_iri``."""
    match = _SIMPLE_IRI.match(url)
    if (
        match is not None
        and len(match.group(2)) <= 253
        and not url.isascii()
        and not url[-1].isspace()  # (white space outside ASCII: UR005 strips it first)
        and _reads_as_public_name(match.group(2))
    ):
        return match
    return None


@lru_cache(maxsize=1024)  # a file's URLs share a few hosts
def reads_as_name(host: str) -> bool:
    """Whether an ASCII host of labels of letters, digits and hyphens has nothing wrong
    with it that its characters do not tell: it is not read as an IPv4 address that is
    not one (its last label a number), and its ``xn--`` labels decode."""
    return plain_host(host) or _named_host_problem(host) is None


@lru_cache(maxsize=1024)  # one lookup a URL, not one of each verdict
def _reads_as_public_name(host: str) -> bool:
    """``reads_as_name``, and no host only a local machine or network reaches (UR019)."""
    return reads_as_name(host) and local_host(host) is None


# Names only a machine or its own network resolves: RFC 6761 (localhost), RFC 6762
# (.local, multicast DNS), RFC 8375 (.home.arpa) and ICANN's .internal (2024).
_LOCAL_NAMES = (".localhost", ".local", ".internal", ".home.arpa")


@lru_cache(maxsize=1024)
def local_host(host: str) -> str | None:
    """What makes ``host`` (ASCII, as a URL writes it) one that only a local machine or
    network reaches, in words ("a loopback address", "a .local name"), or None."""
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return "the local machine's name"
    for suffix in _LOCAL_NAMES:
        if name.endswith(suffix):
            return f"a name under {suffix}"
    if name[:1] != "[" and ":" not in name and plain_host(name):
        return None
    from sitemap_lint.inputs.guard import address_kind, address_text, host_address, kind_words

    address = host_address(name)
    kind = None if address is None else address_kind(address)
    if address is None or kind is None:
        return None
    written = address_text(address)
    shown = "" if written == name.strip("[]") else f" ({written})"
    return f"{kind_words(kind, address)}{shown}"


def check_iri(url: str, match: re.Match[str], node: Node, report: Reporter) -> ParsedURL:
    """``_check_slowly`` on a URL ``_SIMPLE_IRI`` takes (``match``): the same findings,
    found with what the pattern proves: an ASCII host, and nothing in the path or query
    that ``_encoding_fix`` refuses or makes unsafe (no "%", U+FFFD, tab, line break or
    backslash)."""
    scheme, host, path = match.group(1, 2, 3)
    remainder = url[match.end(2) :]
    if not remainder.isascii():
        if len(remainder) > MAX_LENGTH:
            fixed, encode = f"{scheme}://{host}{_encoded(remainder)}", None
        else:
            # Its ASCII characters are all kept as they are: only the others are encoded.
            fixed = f"{scheme}://{host}{escaped_outside_ascii(remainder)}"
            # (No fix writes a URL longer than UR003 allows: ``_report_non_ascii`` says so.)
            encode = None if len(fixed) > MAX_LENGTH else _written_encoded(url, node, fixed)
        _report_non_ascii(host, remainder, fixed, encode, node, report)
    if len(url) < MIN_LENGTH:
        _too_short(url, node, report)
    if not path or "/." in path:  # (a lower-case scheme and host, no port)
        check_canonical(url, node, report)
    return ParsedURL(scheme, host, 443 if scheme == "https" else 80, path or "/")


# What makes the encoding fix unsafe: what it drops, and a backslash.
_CHANGED_BY_BROWSERS = lazy(r"[\x00-\x1f\x7f\\]")
# A control character other than a tab or a line break.
_CONTROL = lazy(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# Tabs and line breaks: browsers drop them from a URL (WHATWG URL Standard, basic URL
# parser); encoded, they would be control characters no page address holds (UR013).
# The other control characters are dropped too: UR013 says to remove them once encoded.
_DROPPED = dict.fromkeys([*range(0x20), 0x7F])


def _encoded(remainder: str) -> str:
    """A URL's path, query and fragment percent-encoded, without tabs, line breaks and
    other control characters (only the start of an absurdly long one: messages are
    short anyway)."""
    remainder = remainder.translate(_DROPPED)
    return percent_encoded(remainder[:MAX_LENGTH]) + ("..." if len(remainder) > MAX_LENGTH else "")


def _report_non_ascii(
    host: str,
    remainder: str,
    fixed: str,
    encode: FindingFix | None,
    node: Node,
    report: Reporter,
    replaced: bool = False,
) -> None:
    """UR011 on a URL whose host or path and query hold characters outside ASCII;
    ``replaced``: it also holds U+FFFD where the decoder replaced bytes (EN001's), so
    its encoded form is not quoted: %EF%BF%BD would stand for those bytes."""
    invisible = _INVISIBLE.search(remainder)
    if invisible is not None:
        _report_invisible(invisible.group(), node, report)
        return
    if host.isascii():  # (the usual URL)
        where, how = "in the path or query", "percent-encoded UTF-8"
    else:
        where = "in the host" if remainder.isascii() else "in the host and the path or query"
        how = "punycode for the host, percent-encoded UTF-8 for the rest"
    if len(fixed) > MAX_LENGTH:
        # Written encoded, it would be over the length UR003 reports: no fix writes it.
        if len(remainder) > MAX_LENGTH:  # (over it as written: UR003 reports it already)
            message = (
                f"URL has characters outside ASCII {where}; it is over the limit of "
                f"{MAX_LENGTH:,} characters already: shorten it, then write it encoded ({how})"
            )
        else:
            message = (
                f"URL has characters outside ASCII {where}; written encoded ({how}), as it "
                f"must be, it is {len(fixed):,} characters long, over the limit of "
                f"{MAX_LENGTH:,}: shorten it, then encode it"
            )
        report.add(NON_ASCII.at(node.line, node.column, message))
        return
    if replaced:
        message = (
            f"URL has characters outside ASCII {where}; write it encoded ({how}) once its "
            "bytes that are not in the file's encoding (reported as invalid-utf8) are "
            "corrected"
        )
        report.add(NON_ASCII.at(node.line, node.column, message))
        return
    report.add(
        NON_ASCII.at(
            node.line,
            node.column,
            f"URL has characters outside ASCII {where}; write it encoded ({how}): {fixed}",
            fix=encode,
        )
    )


# Format characters that show as nothing: zero-width spaces and joiners, direction
# marks and embeddings, the soft hyphen, a byte order mark in the text.
_INVISIBLE = lazy(r"[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")


def _report_invisible(char: str, node: Node, report: Reporter) -> None:
    """UR011 on a URL whose path or query holds an invisible character (no fix: encoded,
    it would make another address, not the one meant)."""
    import unicodedata

    name = unicodedata.name(char, "a format character")
    report.add(
        NON_ASCII.at(
            node.line,
            node.column,
            f"URL holds U+{ord(char):04X} ({name}), an invisible character that copy and "
            f"paste or an editor leaves behind; remove it: crawlers request it encoded "
            f"({percent_encoded(char)}), an address that is not the page's",
        )
    )


def _decoder_replaced(
    url: str, node: Node, report: Reporter, replacements: Replacements | None
) -> bool:
    """Whether the U+FFFD in ``url`` may stand for bytes the file's decoder could not
    decode and replaced (EN001 reports them): it replaced bytes on a line ``url`` may
    stand on. An element's text stands from its start tag's line to as many lines below
    as the text has line breaks; a value from an attribute (``node.text`` does not hold
    it) in the start tag, which is taken to have at most one line break an attribute. A
    value read outside a file (no decoder) holds U+FFFD as it is written."""
    if replacements is None:
        return False
    text = node.text
    last = node.line + len(node.attrs)
    if url in text:
        last += text.count("\n")
    return replacements.between(node.line, last)


def _report_replacement_character(node: Node, report: Reporter) -> None:
    """UR011 on a URL that holds U+FFFD as written in the file: its text was damaged
    before it was written, and encoding it would only hide that (no fix)."""
    report.add(
        NON_ASCII.at(
            node.line,
            node.column,
            "URL holds U+FFFD, the replacement character, which usually means its text was "
            "damaged by a wrong decoding upstream; write the URL's real characters, "
            "percent-encoded (encoding U+FFFD as %EF%BF%BD would only hide the damage)",
        )
    )


def _check_slowly(
    url: str,
    node: Node,
    report: Reporter,
    field: str,
    replacements: Replacements | None = None,
    base: ParsedURL | None = None,
) -> ParsedURL | None:
    line, column = node.line, node.column
    scheme_match = _SCHEME.match(url)
    if not scheme_match or "." in scheme_match.group(1) or _SCHEME_SLASHES.match(url):
        message = _not_absolute_message(url, field, base)
        report.add(NOT_ABSOLUTE.at(line, column, message), node)
        return None
    scheme = scheme_match.group(1).lower()
    if scheme not in ("http", "https"):
        if scheme in _SCHEME_TYPOS or scheme.startswith("ht"):
            guess = "https" if scheme.endswith("s") else "http"
            hint = f"; did you mean {guess}?"
        else:
            hint = "; list only http or https URLs"
        report.add(
            BAD_SCHEME.at(
                line, column, f"URL scheme {scheme_match.group(1)!r} is not http(s){hint}"
            ),
            node,
        )
        return None
    rest = url[scheme_match.end() :]
    if not rest.startswith("//"):
        report.add(NOT_ABSOLUTE.at(line, column, _no_slashes_message(url, scheme, rest)), node)
        return None
    authority_end = len(rest)
    for stop in "/?#":
        found = rest.find(stop, 2)
        if 0 <= found < authority_end:
            authority_end = found
    authority = rest[2:authority_end]
    remainder = rest[authority_end:]
    usable = True

    userinfo = ""
    if "@" in authority:
        userinfo, _, authority = authority.rpartition("@")
    host, port = _split_port(authority)
    host_problem = _host_problem(host)
    ascii_host = host
    if host_problem is None and not host.isascii():
        ascii_host, host_problem = _punycode(host)
    if host_problem is None and port is not None:
        host_problem = _port_problem(port)
    if host_problem:
        report.add(INVALID_HOST.at(line, column, host_problem), node)
        usable = False
    elif (local := local_host(ascii_host)) is not None:
        report.add(LOCAL_HOST.at(line, column, _local_message(ascii_host, local)))

    # One repaired form of the URL, shown by every rule below that suggests a fix;
    # only the start of an absurdly long one is repaired (messages are short anyway).
    fixed_remainder = _encoded(remainder)
    fixed_authority = ascii_host + (f":{port}" if port else "")
    fixed = f"{scheme}://{userinfo + '@' if userinfo else ''}{fixed_authority}{fixed_remainder}"
    # The URL each finding below says to write once its own defect is gone: none where
    # the host is at fault (UR010 says what to do first).
    if "@" in rest[2:authority_end]:
        written = f"{scheme}://{fixed_authority}{fixed_remainder}"
        report.add(
            CREDENTIALS.at(
                line,
                column,
                (
                    "URL contains a user name or password before the host; remove it"
                    if userinfo
                    else "URL has an '@' before the host with no user name before it; "
                    "remove the '@'"
                )
                + ("" if host_problem else f": write {written}")
                + (
                    " (an '@' inside it also makes the URL invalid against the schema)"
                    if "@" in userinfo
                    else ""
                ),
            ),
            node,
        )
    if port == "" and not host_problem:
        # The default port (RFC 3986, section 6.2.3), which libxml2's anyURI refuses: the
        # finding covers the node, so that the schema's error does not repeat it.
        report.add(
            EMPTY_PORT.at(
                line,
                column,
                "URL has an empty port after ':' (RFC 3986 reads it as the default port, "
                "but strict schema validators reject it); remove the ':': write "
                f"{scheme}://{fixed_authority}{fixed_remainder}",
            ),
            node,
        )

    unsafe = sorted(set(_UNSAFE.findall(remainder)))
    second = _SECOND_URL.search(remainder) if unsafe else None
    if second is not None:
        # Two URLs run together: encoding the space would make one URL of both.
        report.add(
            UNSAFE_CHARACTER.at(
                line,
                column,
                f"URL holds a second URL after white space, {_quoted(second.group(1))}; "
                "list each URL on its own, once",
            ),
            node,
        )
        unsafe = []
    encode = None if second else _encoding_fix(url, node, fixed, remainder, host_problem)
    if unsafe:
        report.add(
            UNSAFE_CHARACTER.at(line, column, _unsafe_message(unsafe, fixed), fix=encode), node
        )
    if "%" in remainder:
        _check_escapes(remainder, node, report)
    if _BAD_PERCENT.search(remainder):
        report.add(
            BAD_PERCENT.at(
                line,
                column,
                f"'%' not followed by two hex digits (a literal '%' is written %25); write {fixed}",
            ),
            node,
        )
    if not host_problem and not (host.isascii() and remainder.isascii()):
        if "\ufffd" not in remainder:
            _report_non_ascii(host, remainder, fixed, encode, node, report)
        elif not _decoder_replaced(url, node, report, replacements):
            _report_replacement_character(node, report)
        # A U+FFFD that stands for bytes that were not UTF-8 is EN001's (one defect, one
        # finding): only the other characters outside ASCII are this rule's.
        elif not (host.isascii() and remainder.replace("\ufffd", "").isascii()):
            _report_non_ascii(host, remainder, fixed, encode, node, report, replaced=True)
    fragment_at = _fragment_start(url, remainder, node)
    if fragment_at >= 0:
        fragment = remainder[fragment_at:]
        shown = fragment if len(fragment) <= 40 else fragment[:37] + "..."
        report.add(
            FRAGMENT.at(
                line,
                column,
                f"URL has a fragment ({shown!r}); crawlers drop it: list the URL without it"
                + (
                    ""
                    if host_problem
                    else f", {scheme}://{fixed_authority}{fixed_remainder.split('#', 1)[0]}"
                )
                + (
                    " (its second '#' also makes the URL invalid against the schema)"
                    if "#" in fragment[1:]
                    else ""
                ),
            )
            # No cover: the schema accepts a fragment, so this warning explains none
            # of its errors on the element (text inside an empty xhtml:link, say).
        )
        if "#" in fragment[1:]:
            _second_hash(fragment, f"{scheme}://{fixed_authority}{fixed_remainder}", node, report)
    if len(url) < MIN_LENGTH and usable:
        _too_short(url, node, report)
    if not usable:
        return None
    if len(url) < MAX_TEXT:  # (not a value cut short: its end is not known)
        check_canonical(url, node, report)
    default = 443 if scheme == "https" else 80
    path = remainder.split("#", 1)[0].split("?", 1)[0] or "/"
    return ParsedURL(scheme, ascii_host.lower().rstrip("."), int(port) if port else default, path)


def _local_message(host: str, what: str) -> str:
    return (
        f"URL is on {host}, {what}, which search engines cannot reach; write the page's "
        "public URL (build the sitemap with the site's public base URL)"
    )


# The scheme's default port, as a URL writes it after the host's ":".
_DEFAULT_PORTS = {"http": "80", "https": "443"}


def canonical_form(url: str) -> tuple[list[str], str] | None:
    """What is not canonical in ``url``, an absolute http(s) URL (scheme, "//", a usable
    host), and its canonical form (RFC 3986, 6.2.2 and 6.2.3: the scheme and an ASCII
    host in lower case, no default port, no "." or ".." segment, "/" for an empty path;
    the rest as written); None when it is canonical in these respects. An empty port is
    dropped from the canonical form but is not named (UR016 reports it); a host outside
    ASCII is kept as written (UR011 writes its ASCII form); the empty path of a URL
    shorter than the schema's 12 characters is not named either (UR004 says to add the
    "/")."""
    colon = url.find(":")
    scheme = url[:colon]
    lower = scheme.lower()
    start = colon + 3
    end = len(url)
    for stop in "/?#":
        found = url.find(stop, start)
        if 0 <= found < end:
            end = found
    userinfo, at, hostport = url[start:end].rpartition("@")
    host, port = _split_port(hostport)
    path_end = len(url)
    for stop in "?#":
        found = url.find(stop, end)
        if 0 <= found < path_end:
            path_end = found
    path = url[end:path_end]
    faults = []
    if scheme != lower:
        faults.append(f"the scheme {scheme} in upper case")
    canonical_host = host.lower() if host.isascii() else host
    if canonical_host != host:
        faults.append(f"the host {host} in upper case")
    written_port = ""
    if port is not None and port:
        if port == _DEFAULT_PORTS.get(lower):
            faults.append(f"the default port :{port} of {lower}")
        else:
            written_port = f":{port}"
    if not path:
        path = "/"
        if len(url) >= MIN_LENGTH:
            faults.append("an empty path (no '/' after the host)")
    elif "/." in path and path[0] == "/":
        resolved = remove_dot_segments(path)
        if resolved != path:
            faults.append("'.' or '..' segments in the path")
            path = resolved
    if not faults:
        return None
    canonical = f"{lower}://{userinfo}{at}{canonical_host}{written_port}{path}{url[path_end:]}"
    return faults, canonical


def check_canonical(url: str, node: Node, report: Reporter) -> None:
    """UR018 on ``url``, an absolute http(s) URL whose host the URL rules read as usable
    (the whole value, without the white space around it), when it is not canonical
    (``canonical_form``): one finding, with the fix that writes the canonical form."""
    found = canonical_form(url)
    if found is None:
        return
    faults, canonical = found
    fix = _written_encoded(url, node, canonical, "Write the URL in its canonical form")
    report.add(
        NOT_CANONICAL.at(
            node.line,
            node.column,
            f"URL is not in its canonical form: {joined(faults)}; write {canonical}, the same page",
            fix=fix,
        )
    )


def _second_hash(fragment: str, fixed: str, node: Node, report: Reporter) -> None:
    """UR006 for a '#' inside a fragment: RFC 3986 allows none there and the schema's
    anyURI rejects it, so the warning about the fragment (UR008) is not all: an error,
    whatever the schema engine."""
    head, _, tail = fixed.partition("#")
    shown = fragment if len(fragment) <= 40 else fragment[:37] + "..."
    report.add(
        UNSAFE_CHARACTER.at(
            node.line,
            node.column,
            f"URL has a second '#' in its fragment ({shown!r}), which must be "
            f"percent-encoded (%23) or removed; write {head}#{tail.replace('#', '%23')}",
        ),
        node,
    )


def _fragment_start(url: str, remainder: str, node: Node) -> int:
    """Where the fragment starts in ``remainder``, the end of ``url`` (-1: none): at
    its first '#' that is not that of a character reference the parser refused."""
    at = remainder.find("#")
    text = node.text
    if at < 0 or not isinstance(text, RefusedReferences):
        return at
    url_at = text.find(url)
    if url_at < 0:
        return at
    remainder_at = url_at + len(url) - len(remainder)
    while at >= 0 and remainder_at + at in text.hashes:
        at = remainder.find("#", at + 1)
    return at


def _check_escapes(rest: str, node: Node, report: Reporter) -> None:
    """The escapes of a URL's path, query and fragment that decode to something wrong.
    The schema accepts them all, so these findings cover nothing."""
    for fault in percent_faults(rest[:MAX_LENGTH]):
        escape = fault.escape
        if fault.kind == "control":
            name = "NUL" if fault.decoded == "U+0000" else f"control character {fault.decoded}"
            report.add(
                PERCENT_CONTROL.at(
                    node.line,
                    node.column,
                    f"URL contains {escape}, an encoded {name}; no page address holds one: "
                    f"remove {escape} (a template printed a value it should have trimmed)",
                )
            )
        elif fault.kind == "utf8":
            utf8 = quote(fault.decoded.encode("utf-8"), safe="")
            report.add(
                PERCENT_NOT_UTF8.at(
                    node.line,
                    node.column,
                    f"URL escape {escape} does not decode to UTF-8 (as Latin-1 it is "
                    f"{fault.decoded!r}); encode the URL as UTF-8: write {utf8} for "
                    f"{fault.decoded!r}",
                )
            )
        else:
            report.add(
                PERCENT_DOUBLE.at(
                    node.line,
                    node.column,
                    f"URL contains {escape}, an escape escaped twice ({fault.decoded} with its "
                    f"'%' written %25); write {fault.decoded} unless the address really "
                    f"holds the text {fault.decoded!r}",
                )
            )


def _too_short(url: str, node: Node, report: Reporter) -> None:
    if url.count("/") == 2 and len(url) == MIN_LENGTH - 1:
        hint = f"; write {url}/"
    else:
        hint = "; write the page's full URL"
    report.add(
        TOO_SHORT.at(
            node.line,
            node.column,
            f"URL {url!r} has {len(url)} characters; the schema requires at least 12{hint}",
        ),
        node,
    )


def _split_port(authority: str) -> tuple[str, str | None]:
    if authority.startswith("["):
        end = authority.find("]")
        if end >= 0 and authority[end + 1 : end + 2] == ":":
            return authority[: end + 1], authority[end + 2 :]
        return authority, None
    host, sep, port = authority.rpartition(":")
    if not sep:
        return authority, None
    return host, port


def _port_message(port: str) -> str:
    return f"port {port} is out of range; a port is a number from 1 to 65535: fix it or remove it"


def _port_problem(port: str) -> str | None:
    if not port:
        return None  # RFC 3986 allows an empty port (``port = *DIGIT``): the default one
    if not port.isascii() or not port.isdigit():
        return f"port {port!r} is not a number; a port is a number from 1 to 65535"
    if not 0 < int(port) <= 65535:
        return _port_message(port)
    return None


def _punycode(host: str) -> tuple[str, str | None]:
    """The ASCII form of an internationalized host name as browsers encode it (UTS #46,
    IDNA 2008), or the host itself and what is wrong with it."""
    verdict = to_ascii(host)
    if verdict.ascii is None:
        return host, _idn_message(host, verdict.fault)
    return verdict.ascii, _host_problem(verdict.ascii)


def _idn_message(host: str, fault: HostFault | None) -> str:
    head = f"host {host!r} is not a valid internationalized domain name"
    if fault is None:
        return head
    label, char = fault.label, fault.char
    shown = repr(label) if len(label) <= 20 else repr(label[:20]) + "..."
    code = f"U+{ord(char):04X}" if char else ""
    if fault.kind == "codepoint":
        return (
            f"{head}: {char!r} ({code}) is not allowed in a domain name (IDNA 2008); "
            "use a host name without it"
        )
    if fault.kind == "joiner":
        where = (
            "after a virama" if char == "\u200d" else "after a virama or between joining letters"
        )
        return (
            f"{head}: {code} ({joiner_name(char)}) in label {shown} is allowed only {where} "
            "(IDNA 2008 contextual rule); remove it"
        )
    if fault.kind == "context":
        return (
            f"{head}: {char!r} ({code}) in label {shown} is allowed only in certain contexts "
            "(IDNA 2008 contextual rule), not where it stands"
        )
    if fault.kind == "bidi":
        return (
            f"{head}: label {shown} mixes right-to-left and left-to-right characters as "
            "IDNA 2008 forbids (bidi rule)"
        )
    if fault.kind == "label-length":
        return (
            f"{head}: label {shown} is {fault.length} characters long in its ASCII (punycode) "
            f"form; at most {MAX_LABEL} are allowed: shorten it"
        )
    if fault.kind == "name-length":
        return (
            f"{head}: it is {fault.length} characters long in its ASCII (punycode) form; "
            f"at most {MAX_NAME} are allowed: shorten it"
        )
    if fault.kind == "hyphen-edge":
        return f"{head}: label {shown} starts or ends with '-'; remove the '-'"
    if fault.kind == "hyphen-34":
        return (
            f"{head}: label {shown} has '--' as its third and fourth characters, which only "
            "the ASCII form of an internationalized label (xn--) may have"
        )
    if fault.kind == "combining":
        return f"{head}: label {shown} starts with a combining mark ({code})"
    if fault.kind == "empty-label":
        return f"{head}: it has an empty label (two dots in a row, or a leading dot); remove the extra dot"
    return f"{head} ({fault.detail})"


def _host_problem(host: str) -> str | None:
    if not host:
        return "URL has no host; write the site's host name after '//'"
    if host.startswith("["):
        return _ip_literal_problem(host)
    unsafe = _UNSAFE.findall(host)
    if unsafe:
        shown = joined([_describe(c) for c in sorted(set(unsafe))])
        return f"host {host!r} contains {shown}; write a host name of letters, digits, '-' and '.'"
    name = host.removesuffix(".")
    if not host.isascii():
        if not all(name.split(".")):
            return (
                f"host {host!r} has an empty label (two dots in a row, or a leading dot); "
                "remove the extra dot"
            )
        return None
    if len(name) > 253:
        return f"host is {len(name)} characters long; at most 253 are allowed: shorten it"
    for label in name.split("."):
        if not label:
            return (
                f"host {host!r} has an empty label (two dots in a row, or a leading dot); "
                "remove the extra dot"
            )
        if len(label) > 63:
            return (
                f"host label {label[:20]!r}... is {len(label)} characters; at most 63 are allowed: "
                "shorten it"
            )
        if not _LABEL.match(label):
            return _label_problem(host, label)
    return _named_host_problem(host)


def _label_problem(host: str, label: str) -> str:
    """What is wrong with an ASCII ``label`` of ``host`` that is no host name's: the
    character it may not hold (a percent-escape: browsers decode it, other clients do
    not), else a '-' at its start or end."""
    bad = next((char for char in label if not (char.isalnum() or char in "-_")), None)
    if bad == "%":
        return (
            f"host {host!r} contains '%', which a host name may not hold (browsers decode "
            "a percent-escape there, other clients do not); write its characters as they are"
        )
    if bad is not None:
        return (
            f"host {host!r} contains {_describe(bad)}, which a host name may not hold; use "
            "letters, digits and '-' (not at the start or end of a label)"
        )
    return f"host {host!r} has the label {label!r}, which starts or ends with '-'; remove the '-'"


_REAL_ADDRESS = "write the server's real address, or its host name"


def _ip_literal_problem(host: str) -> str | None:
    """What is wrong with a host written in brackets (an IPv6 address, RFC 3986
    ``IP-literal``), with the literal to write when it is plain, or None."""
    head = f"host {host!r} is not a valid IPv6 literal"
    end = host.find("]")
    if 0 <= end < len(host) - 1:
        return f"{head}: {host[end + 1 :]!r} follows its ']'; write the address in brackets alone"
    inner = host[1:end] if end > 0 else host[1:]
    fault = ipv6_fault(inner)
    if end < 0:
        if fault is None:
            return f"{head}: its closing ']' is missing; write [{inner}]"
        return f"{head}: its closing ']' is missing, and {fault}; {_REAL_ADDRESS}"
    if fault is None:
        return None
    address, percent, _zone = inner.partition("%")
    if percent and address and ipv6_fault(address) is None:
        return (
            f"{head}: a zone ({inner[len(address) :]}) is not allowed in a URL's host; "
            f"write [{address}]"
        )
    return f"{head}: {fault}; {_REAL_ADDRESS}"


def _named_host_problem(host: str) -> str | None:
    """What is wrong with an ASCII host whose characters are all allowed: one whose last
    label is a number but that is not an IPv4 address (WHATWG URL reads it as one and
    fails), or an ``xn--`` label that is not a valid A-label; or None."""
    if plain_host(host):
        return None
    ipv4 = ipv4_fault(host)
    if ipv4 is not None:
        name = host.removesuffix(".")
        numbers = name.split(".")
        if len(numbers) == 4 and all(number.isdigit() for number in numbers):
            hint = " (each of its four numbers is 0 to 255)" if ipv4.endswith("255") else ""
            return f"host {host!r} is not a valid IPv4 address: {ipv4}{hint}; {_REAL_ADDRESS}"
        return (
            f"host {host!r} ends in a number, so browsers read it as an IPv4 address, "
            f"and it is not one: {ipv4}; {_REAL_ADDRESS}"
        )
    alabel = alabel_fault(host)
    if alabel is None:
        return None
    label, decoded = alabel.label, alabel.decoded
    head = f"host {host!r} has the label {label!r}, "
    if not decoded:
        return (
            head + "whose Punycode does not decode: an 'xn--' label must be the ASCII "
            "form of an internationalized label; write the host's real name"
        )
    if alabel.fault is None:
        return (
            head + f"which decodes to {decoded!r}, ASCII alone: an 'xn--' label is the "
            "ASCII form of an internationalized label only; write the host's real name"
        )
    idn = _idn_message(decoded, alabel.fault)
    return head + f"which decodes to {decoded!r}, " + idn[len(f"host {decoded!r} is ") :]


def _quoted(url: str) -> str:
    """``url`` in quotes as the file has it (its start, when long); ``repr`` only for
    one with characters that do not print (a backslash is shown as one)."""
    shown = url if len(url) <= 80 else url[:77] + "..."
    return f"'{shown}'" if shown.isprintable() else repr(shown)


_UNEXPANDED = (
    "it holds an entity reference that is not expanded, so its value is not known; "
    "write the full URL, starting with https:// and the host, without entity references"
)


def wrapped(value: str) -> tuple[str, str] | None:
    """An http(s) URL written inside quotes or angle brackets: (the URL, how it is
    written, e.g. "in double quotes"); else None."""
    wrapper = _WRAPPERS.get(value[:1])
    if wrapper is None or len(value) < 2 or not value.endswith(wrapper[0]):
        return None
    inner = value[1:-1].strip()
    return (inner, wrapper[1]) if _HTTP_START.match(inner) else None


def _not_absolute_message(url: str, field: str, base: ParsedURL | None = None) -> str:
    shown = _quoted(url)
    hidden = _invisible_start(url)
    if hidden is not None:
        return hidden
    if holds_reference(url):
        return f"{_named(field)} {shown} is not an absolute URL as written: {_UNEXPANDED}"
    inside = wrapped(url)
    if inside is not None:
        return f"URL {shown} is written {inside[1]}; write the URL alone: {_quoted(inside[0])}"
    slashes = _SCHEME_SLASHES.match(url)
    if slashes:
        scheme = slashes.group(1).lower()
        return f"URL {shown} has a malformed scheme{_rewritten(scheme, url[slashes.end() :])}"
    if url.startswith("//"):
        return f"URL {shown} has no scheme; write {base.scheme if base else 'https'}:{url}"
    if url.startswith("/"):
        if base is not None:
            return _resolved_message(shown, url, base)
        return f"URL {shown} is relative; write the full URL, e.g. https://example.com{url}"
    if url.lower().startswith("www.") or (_HOST_LIKE.match(url) and not _FILE_LIKE.match(url)):
        return f"URL {shown} has no scheme; write https://{url}"
    if _RELATIVE.match(url):
        if base is not None:
            return _resolved_message(shown, url, base)
        path = re.sub(r"^(?:\.\.?/)+", "", url)
        return f"URL {shown} is relative; write the full URL, e.g. https://example.com/{path}"
    return (
        f"{_named(field)} {shown} is not an absolute URL; write the full URL, "
        "starting with https:// and the host"
    )


def _invisible_start(url: str) -> str | None:
    """UR001's words for an http(s) URL after characters that show as nothing (a byte
    order mark, a zero-width space), where an editor shows the URL alone; else None."""
    index = 0
    while index < len(url) and _INVISIBLE.match(url[index]):
        index += 1
    if index == 0 or not _HTTP_START.match(url, index):
        return None
    import unicodedata

    char = url[0]
    name = "a byte order mark" if char == "\ufeff" else unicodedata.name(char, "a format character")
    return (
        f"URL {_quoted(url)} starts with U+{ord(char):04X} ({name}), an invisible "
        "character that joining files, copy and paste or an editor leaves behind, so it is "
        f"not an absolute URL; remove it: {_quoted(url[index:])}"
    )


def _named(field: str) -> str:
    """How a message names the value of ``field``: an element (``<loc>``), or the URL
    of a text sitemap's line or a robots.txt's Sitemap line, which are no elements."""
    return "URL" if field in ("URL", "Sitemap") else f"<{field}>"


def _resolved_message(shown: str, url: str, base: ParsedURL) -> str:
    """UR001's words for a relative ``url`` in a file served at ``base``: the URL it
    stands for there."""
    resolved = urljoin(base.origin + base.path, url)
    if len(resolved) > 100:
        resolved = resolved[:97] + "..."
    return f"URL {shown} is relative; write the full URL, {resolved}"


def _no_slashes_message(url: str, scheme: str, rest: str) -> str:
    """UR001's words for ``scheme:`` followed by ``rest``, which does not start ``//``."""
    shown = _quoted(url)
    if holds_reference(url):
        return f"URL {shown} lacks '//' after the scheme; {_UNEXPANDED}"
    return f"URL {shown} lacks '//' after the scheme{_rewritten(scheme, rest)}"


def _rewritten(scheme: str, rest: str) -> str:
    """The end of UR001's message on a URL whose ``scheme`` is followed by ``rest``, past
    slashes that are wrong: the URL to write when what follows them starts with a host
    name (backslashes and white space among the slashes dropped, backslashes in the path
    made slashes, as browsers read them), else that the host is missing."""
    tail = rest.lstrip(" \t\r\n/\\")
    path_end = min((at for at in (tail.find("?"), tail.find("#")) if at >= 0), default=len(tail))
    tail = tail[:path_end].replace("\\", "/") + tail[path_end:]
    if tail.lower().startswith("www.") or (_HOST_LIKE.match(tail) and not _FILE_LIKE.match(tail)):
        return f"; write {scheme}://{tail}"
    return f", and no host; write the full URL, e.g. {scheme}://example.com/{tail}"


def _unsafe_message(unsafe: list[str], fixed: str) -> str:
    """UR006's words for the ``unsafe`` characters of a URL, repaired as ``fixed``: the
    tabs, line breaks and other control characters among them are removed, the others
    encoded."""
    shown = joined([_describe(c) for c in unsafe])
    dropped = [c for c in unsafe if c < " " or c == "\x7f"]
    if not dropped:
        return f"URL contains {shown}, which must be percent-encoded; write {fixed}"
    them = "it" if len(dropped) == 1 else "them"
    # Browsers drop tabs and line breaks; they encode the other controls, which no page
    # address holds (UR013 reports them encoded).
    browsers = all(c in "\t\n\r" for c in dropped)
    if len(dropped) == len(unsafe):
        which = "which browsers drop" if browsers else "which no page address holds"
        return f"URL contains {shown}, {which}; remove {them}: write {fixed}"
    removed = joined([_describe(c) for c in dropped])
    why = f"browsers drop {them}" if browsers else "no page address holds one"
    return (
        f"URL contains {shown}, which must be percent-encoded ({removed} removed, as "
        f"{why}); write {fixed}"
    )


def _describe(char: str) -> str:
    names = {
        " ": "a space",
        '"': "'\"'",
        "'": '"\'"',
        "\t": "a tab",
        "\n": "a line break",
        "\r": "a carriage return",
    }
    if char in names:
        return names[char]
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return f"control character U+{ord(char):04X}"
    return f"'{char}'"  # as written: a backslash is one


_TRIM = "Remove the whitespace around the URL"


def _trimmed(url: str, stripped: str, node: Node, field: str) -> FindingFix | None:
    """The fix that writes ``stripped`` instead of ``url``, the whole text of ``node`` or
    the value of its ``href`` (``field`` names the attribute: an ``xhtml:link``'s, an
    Atom link's), or None when it is neither."""
    if url == node.text:
        return replace_text(node, stripped, _TRIM)
    if field.endswith(" href") and node.attrs.get("href") == url:
        return FindingFix(
            Fix.SAFE, _TRIM, (Edit(node.line, node.column, stripped, "href", old=stripped),)
        )
    return None


def _whitespace_message(stripped: str, field: str) -> str:
    """``stripped``: the URL without the whitespace around it; ``field`` is an element
    (``loc``), an element and attribute (``xhtml:link href``) or a robots.txt field
    (``Sitemap``: white space outside ASCII, which its line's pattern leaves)."""
    if field == "Sitemap":  # a robots.txt line, not an element
        return (
            "white space around the URL of the Sitemap line that crawlers may read as "
            f"part of it; write 'Sitemap: {stripped}'"
        )
    element, _, attribute = field.partition(" ")
    if attribute:
        written = shown_attribute(stripped)
        return f'whitespace around the URL in {attribute} of <{element}>; write {attribute}="{written}"'
    return (
        f"whitespace around the URL in <{field}>; write <{field}>{shown_text(stripped)}</{field}>"
    )


def parse_url(value: str) -> ParsedURL | None:
    """``value`` split as the URL rules split a ``loc`` (host in lower case and ASCII),
    or None when it is not a usable absolute http(s) URL; nothing is reported."""
    if not value:
        return None
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.model import Node

    return check_url(value, Node("", "url", {}, 1, 1), FindingList())


def with_query(parsed: ParsedURL, value: str) -> ParsedURL:
    """``parsed`` (the URL ``value`` a sitemap is served at) with its query."""
    from urllib.parse import urlsplit

    try:
        query = urlsplit(value.strip()).query
    except ValueError:
        return parsed
    return parsed._replace(query=query) if query else parsed
