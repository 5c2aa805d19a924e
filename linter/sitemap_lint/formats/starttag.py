"""A start tag read leniently where the XML reader stopped in it: where each defect
stands, and the tag written right with the same line breaks, so that the reader can
start again on it and every position after it stays the file's.

The defects read: an attribute value without XML's quotes (bare, or in typographic
quotes, guillemets, primes or backticks), a value whose closing quote is missing, two
attributes without white space between them, the tag's '>' missing, a comment or a
processing instruction inside the tag (before an attribute or the tag's '>': one after
the last attribute and before other markup is rather after a tag whose '>' is missing),
read as white space with its line breaks, and a raw '<' in a value in XML's quotes (each
one a defect, written as its fix writes it: '%3C' in a URL, '&lt;' elsewhere).
"""

from __future__ import annotations

import re

from sitemap_lint.model import ATTRIBUTE_NAME, EQUALS, OTHER_QUOTES, QUOTED_VALUE
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.records import NamedTuple

_SPACE = lazy(rb"[ \t\r\n]*")
_NAME = lazy(ATTRIBUTE_NAME.encode())
_EQUALS = lazy(EQUALS.encode())
_QUOTED = lazy(QUOTED_VALUE.encode())
# A value whose closing quote is missing: it ends where the tag does.
_OPEN = lazy(rb"[\"'][^\"'<>\r\n]*(?=/?>)")
# A value in XML's quotes that holds a raw '<' (as rules/xml.py reads one: no quote or
# '>' before the first; the rest of the value on its line, its closing quote, then the
# tag's end or another attribute in quotes; else the quote is rather missing and the '<'
# opens the next tag).
_WITH_LESS_THAN = {
    quote: lazy(
        rf"{quote}[^\"'<>\r\n]*<[^{quote}\r\n]*{quote}"
        rf"(?=[ \t]*/?>|[ \t\r\n]+{ATTRIBUTE_NAME}{EQUALS}[\"'])".encode()
    )
    for quote in "\"'"
}
_URL_START = lazy(rb"[ \t\r\n]*[A-Za-z][A-Za-z0-9+.-]*://")
_BARE = lazy(rb"[^ \t\r\n<>\"']+?(?=/?>|[ \t\r\n]|<|\Z)")
_OTHER_QUOTES = tuple(quote.encode() for quote in OTHER_QUOTES)
_STRAIGHT = (b'"', b"'")
# A comment or a processing instruction, whole.
_SECTION = lazy(rb"<!--.*?-->|<\?.*?\?>", re.DOTALL)
# What follows a section that stands inside the tag: an attribute or the tag's end.
_INSIDE_AFTER = lazy(rb"[ \t\r\n]*(?:/?>|" + ATTRIBUTE_NAME.encode() + rb")")


class StartTag(NamedTuple):
    """``end``: where the tag as written ends (after its '>', or after its last
    attribute when the '>' is missing); ``written``: the tag as it should be; ``defects``:
    where each finding stands (the place the reader would stop at), in order."""

    end: int
    written: bytes
    defects: list[int]


def read_start_tag(text: bytes, start: int) -> StartTag | None:
    """The start tag at ``start`` of ``text`` read leniently, or None when it holds a
    defect other than those this module reads, or none."""
    name = _NAME.match(text, start + 1)
    if not text.startswith(b"<", start) or name is None:
        return None
    at = name.end()
    out = [text[start:at]]
    defects: list[int] = []
    while True:
        spaced = _SPACE.match(text, at)
        assert spaced is not None  # it matches nothing at worst
        gap = spaced.end()
        if text.startswith(b">", gap) or text.startswith(b"/>", gap):
            end = gap + (1 if text.startswith(b">", gap) else 2)
            out.append(text[at:end])
            return StartTag(end, b"".join(out), defects) if defects else None
        section = _section_inside(text, gap)
        if section is not None:
            defects.append(gap)  # a comment or an instruction inside the tag
            out.append(text[at:gap] + blanked(text[gap:section]))
            at = section
            continue
        if gap >= len(text) or text.startswith(b"<", gap):
            defects.append(at)  # the '>' is missing
            out.append(b">")
            return StartTag(at, b"".join(out), defects)
        attribute = _NAME.match(text, gap)
        if attribute is None:
            return None
        if gap == at:
            defects.append(gap)  # no white space before this attribute
            out.append(b" ")
        else:
            out.append(text[at:gap])
        equals = _EQUALS.match(text, attribute.end())
        if equals is None:
            return None
        value = equals.end()
        out.append(text[gap:value])
        at = _value(text, value, out, defects)
        if at < 0:
            return None


def _section_inside(text: bytes, at: int) -> int | None:
    """Where the comment or instruction at ``at`` of ``text`` ends, when it stands inside
    a start tag (an attribute, the tag's end or another such section follows it); else
    None."""
    first: int | None = None  # where the section at ``at`` ends
    while (section := _SECTION.match(text, at)) is not None:
        end = section.end()
        first = end if first is None else first
        if _INSIDE_AFTER.match(text, end):
            return first
        # Another section may follow (thousands in a row: a loop, not a call each).
        spaced = _SPACE.match(text, end)
        assert spaced is not None  # it matches nothing at worst
        at = spaced.end()
    return None


def blanked(text: bytes) -> bytes:
    """``text`` (UTF-8) as white space: a space for each character, its line breaks kept,
    so that no position after it moves."""
    return "".join(
        char if char in "\r\n" else " " for char in text.decode("utf-8", errors="replace")
    ).encode()


def _value(text: bytes, start: int, out: list[bytes], defects: list[int]) -> int:
    """Read the value at ``start`` into ``out`` as it should be written (noting its
    defect); where it ends, or -1."""
    quoted = _QUOTED.match(text, start)
    if quoted is not None:
        out.append(quoted.group(0))
        return quoted.end()
    opening = text[start : start + 1].decode("latin-1")
    with_lt = _WITH_LESS_THAN[opening].match(text, start) if opening in _WITH_LESS_THAN else None
    if with_lt is not None:
        value = with_lt.group(0)
        at = start
        while (at := text.find(b"<", at + 1, with_lt.end())) >= 0:
            defects.append(at)  # each raw '<'
        escaped = b"%3C" if _URL_START.match(value, 1) else b"&lt;"
        out.append(value.replace(b"<", escaped))
        return with_lt.end()
    opened = _OPEN.match(text, start)
    if opened is not None:
        defects.append(opened.end())  # the closing quote is missing
        out.append(opened.group(0) + text[start : start + 1])
        return opened.end()
    quote = next((q for q in _OTHER_QUOTES if text.startswith(q, start)), None)
    if quote is not None:
        inner = start + len(quote)
        stray = _QUOTED.match(text, inner)
        if stray is not None:  # a stray quote before a value in XML's quotes: left out
            defects.append(start)
            out.append(stray.group(0))
            return stray.end()
        for end in range(inner, min(len(text), inner + 4096)):
            if text[end] in b"<>\r\n":
                return -1
            closing = next(
                (q for q in (*_OTHER_QUOTES, *_STRAIGHT) if text.startswith(q, end)), None
            )
            if closing is not None:
                defects.append(start)
                out.append(b'"' + text[inner:end] + b'"')
                return end + len(closing)
        return -1
    bare = _BARE.match(text, start)
    if bare is None:
        return -1
    defects.append(start)
    out.append(b'"' + bare.group(0) + b'"')
    return bare.end()


_PROLOG_ITEM = lazy(rb"[ \t\r\n]*(?:(?><\?.*?\?>)|(?><!--.*?-->))", re.DOTALL)


def first_start_tag(text: bytes) -> int:
    """Where the first start tag of ``text`` stands, after the XML declaration, comments
    and instructions; -1 when something else comes first (a DOCTYPE, text) or none."""
    at = 0
    while (item := _PROLOG_ITEM.match(text, at)) is not None:
        at = item.end()
    spaced = _SPACE.match(text, at)
    assert spaced is not None  # it matches nothing at worst
    at = spaced.end()
    return at if _NAME.match(text, at + 1) and text.startswith(b"<", at) else -1
