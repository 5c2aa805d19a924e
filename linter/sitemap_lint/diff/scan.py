"""A urlset's fields read by a few searches, when the file is written as nearly every
generator writes one: the fast route of ``listing``.

The route reads a file only when it can prove that libxml2 reads it the same way: the
whole file is UTF-8 holding only XML characters, with no ``]]>``; an optional XML
declaration (version 1.0, UTF-8); a ``urlset`` root whose attributes declare the
sitemap namespace as the default one and nothing libxml2 could refuse; then entries of
``url`` holding ``loc`` and, in this order, an optional ``lastmod``, ``changefreq`` and
``priority``, with no attribute, comment, CDATA or reference but the five predefined
entities, only white space between the tags, and every entry laid out as the first.
Line ends are normalised first, as the XML parser does. Anything else (an extension,
hreflang, another order, a comment, entries that differ in their fields) returns
None, and the file is parsed with lxml.
"""

from __future__ import annotations

import re

SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"

_S = r"[ \t\n]"
_DECLARATION = (
    r"<\?xml" + _S + r"+version" + _S + r"*=" + _S + r"*([\"'])1\.0\1"
    r"(?:" + _S + r"+encoding" + _S + r"*=" + _S + r"*([\"'])(?i:utf-8)\2)?"
    r"(?:" + _S + r"+standalone" + _S + r"*=" + _S + r"*([\"'])(?:yes|no)\3)?" + _S + r"*\?>"
)
_NAME = r"[A-Za-z_][A-Za-z0-9._-]*(?::[A-Za-z_][A-Za-z0-9._-]*)?"
_ATTRIBUTE = _S + r"+(" + _NAME + r")" + _S + r"*=" + _S + r"*(?:\"([^\"<&]*)\"|'([^'<&]*)')"
_HEAD = re.compile(
    r"(?:" + _DECLARATION + r")?" + _S + r"*<urlset((?:" + _ATTRIBUTE + r")*)" + _S + r"*>"
)
_ATTRIBUTES = re.compile(_ATTRIBUTE)
_FIELDS = ("loc", "lastmod", "changefreq", "priority")
# The first entry, with the white space after it: the template of every other one.
_FIRST = re.compile(
    r"<url>" + _S + r"*<loc>[^<]*</loc>" + _S + r"*"
    r"(?:<lastmod>[^<]*</lastmod>" + _S + r"*)?"
    r"(?:<changefreq>[^<]*</changefreq>" + _S + r"*)?"
    r"(?:<priority>[^<]*</priority>" + _S + r"*)?</url>(" + _S + r"*)"
)
_VALUES = {name: re.compile(f"<{name}>([^<]*)</{name}>") for name in _FIELDS}
_VALUE = re.compile(r"<(\w+)>[^<]*</\1>")
# Characters XML 1.0 excludes, as UTF-8 bytes (carriage returns are gone by then).
_NOT_XML = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])
_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"), ("&amp;", "&"))

Fields = tuple[list[str], list[str | None], list[str | None], list[str | None]]


def scan_urlset(data: bytes) -> Fields | None:
    """Each entry's loc (stripped), lastmod, changefreq and priority (None when absent or
    empty, as libxml2 gives no text for an empty element), as lxml would read them; None
    when the file is not in the shape this route proves.

    Every entry must be written as the first one is, but for the values: the values of
    each field are found by one search, and the file rebuilt from the first entry's
    text between the values must be the file itself, which proves where every value
    stands."""
    text = _text(data)
    if text is None:
        return None
    head = _HEAD.match(text)
    if head is None or not _root_attributes_plain(head.group(4)):
        return None
    start, end = _body(text, head.end())
    first = _FIRST.match(text, start, end)
    if first is None or not _entities_predefined(text, start, end):
        return None
    template = first.group(0)
    fields = [match.group(1) for match in _VALUE.finditer(template)]
    columns = [_VALUES[name].findall(text, start, end) for name in fields]
    rebuilt = _rebuilt(template, len(first.group(1)), columns)
    if len(rebuilt) != end - start or not text.startswith(rebuilt, start, end):
        return None
    if "&" in rebuilt:
        columns = [list(map(_unescape, column)) for column in columns]
    found = dict(zip(fields, columns, strict=True))
    return (
        list(map(str.strip, found["loc"])),
        _optional(found.get("lastmod"), len(columns[0])),
        _optional(found.get("changefreq"), len(columns[0])),
        _optional(found.get("priority"), len(columns[0])),
    )


def _optional(values: list[str] | None, count: int) -> list[str | None]:
    """A field's values, None for an empty one; all None when the entries have none."""
    if values is None:
        return [None] * count
    return [value or None for value in values]


def _rebuilt(template: str, trailing: int, columns: list[list[str]]) -> str:
    """The entries written as ``template`` with each column's values in turn; the last
    without the template's ``trailing`` characters of white space."""
    between = _VALUE.sub(lambda match: f"<{match.group(1)}>\0</{match.group(1)}>", template)
    constants = between.split("\0")
    count = len(columns[0])
    if any(len(column) != count for column in columns):
        return ""
    parts: list[str] = [""] * (len(constants) + len(columns)) * count
    step = len(constants) + len(columns)
    for place, constant in enumerate(constants):
        parts[2 * place :: step] = [constant] * count
    for place, column in enumerate(columns):
        parts[2 * place + 1 :: step] = column
    parts[-1] = constants[-1][: len(constants[-1]) - trailing]
    return "".join(parts)


def _body(text: str, start: int) -> tuple[int, int]:
    """Where the entries stand: after the root's start tag and white space, up to the
    white space before the root's end tag, and that tag alone to the end of the file
    (else an empty span, which no entry fills)."""
    while start < len(text) and text[start] in " \t\n":
        start += 1
    end = _before_space(text, start, len(text)) - len("</urlset>")
    if end < start or not text.startswith("</urlset>", end):
        return start, start
    return start, _before_space(text, start, end)


def _before_space(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in " \t\n":
        end -= 1
    return end


def _entities_predefined(text: str, start: int, end: int) -> bool:
    """Every ``&`` between ``start`` and ``end`` begins one of the predefined entities."""
    ampersands = text.count("&", start, end)
    return not ampersands or ampersands == sum(
        text.count(entity, start, end) for entity, _character in _ENTITIES
    )


def _text(data: bytes) -> str | None:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if len(data.translate(None, _NOT_XML)) != len(data):
        return None
    if b"]]>" in data or b"\xef\xbf\xbe" in data or b"\xef\xbf\xbf" in data:
        return None  # U+FFFE and U+FFFF are not XML characters
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _root_attributes_plain(attributes: str) -> bool:
    """The root declares the sitemap namespace as its default, once; any other attribute
    is a namespace declaration or uses a prefix declared on the root, each name once."""
    found = [(name, double or single) for name, double, single in _ATTRIBUTES.findall(attributes)]
    names = [name for name, _value in found]
    if len(set(names)) != len(names):
        return False
    prefixes = {name[6:] for name in names if name.startswith("xmlns:")}
    locals_seen: set[str] = set()
    for name, value in found:
        prefix, _colon, local = name.rpartition(":")
        if name == "xmlns":
            if value != SITEMAP:
                return False
        elif prefix == "xmlns":
            if not value or local.lower().startswith("xml"):
                return False
        elif prefix:
            if prefix not in prefixes or local in locals_seen:
                return False
            locals_seen.add(local)
    return "xmlns" in names


def _unescape(value: str) -> str:
    if "&" not in value:
        return value
    for entity, character in _ENTITIES:
        value = value.replace(entity, character)
    return value
