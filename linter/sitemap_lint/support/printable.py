"""Text from the input (file names, URLs, source lines) made safe to show or to encode.

A file name may hold any byte but ``/`` and NUL: an escape sequence that recolours a
terminal, a bidirectional control that reverses what follows, a byte that is no UTF-8
(which Python reads as a lone surrogate, and no UTF-8 writer can write). ``printable``
is what a person sees: such characters as ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``, and a
byte that is no UTF-8 as ``\\xNN`` (the byte). ``encodable`` (``encodable_json`` for JSON
text) changes only the lone surrogates, for the formats that carry every other character
faithfully.
"""

from __future__ import annotations

from sitemap_lint.support.patterns import lazy

# Control and format characters (bidirectional controls, zero-width ones), lone
# surrogates, and the line and paragraph separators.
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_LINE_BREAK = lazy("(\r\n|\r|\n)")
_SURROGATE = lazy("[\ud800-\udfff]")
# A byte 0x80-0xff that was no UTF-8, as os.fsdecode (surrogateescape) reads it.
_BYTE_FIRST, _BYTE_LAST = 0xDC80, 0xDCFF


def printable(text: str) -> str:
    """``text`` with control, format and separator characters, noncharacters (U+FFFE...)
    and lone surrogates as escapes; a tab is ``\\x09``."""
    if text.isprintable():  # the usual case: nothing to look at character by character
        return text
    return "".join(escaped(char) if _hidden(char) else char for char in text)


def _hidden(char: str) -> bool:
    """Whether ``char`` is one a terminal or an XML document cannot show as it is."""
    import unicodedata  # a text that is not all printable only

    code = ord(char)
    return (
        unicodedata.category(char) in _ESCAPED_CATEGORIES
        or 0xFDD0 <= code <= 0xFDEF
        or code & 0xFFFE == 0xFFFE
    )


def printable_lines(text: str) -> str:
    """``printable``, keeping the line breaks (``\\r\\n``, ``\\r``, ``\\n``) as they are."""
    if text.isprintable():
        return text
    parts = _LINE_BREAK.split(text)
    return "".join(part if index % 2 else printable(part) for index, part in enumerate(parts))


def _has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate; at the speed of an encoding, several times
    a regular expression's on a long report."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def encodable(text: str) -> str:
    """``text`` as UTF-8 can carry it: each lone surrogate as an escape."""
    if not _has_surrogate(text):
        return text
    return _SURROGATE.sub(lambda match: escaped(match.group()), text)


def encodable_json(encoded: str) -> str:
    """JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) as UTF-8 can carry
    it: each lone surrogate, which stands in a string, as its escape in that string
    (``\\\\xff`` for the value ``\\xff``)."""
    if not _has_surrogate(encoded):
        return encoded
    return _SURROGATE.sub(lambda match: escaped(match.group()).replace("\\", "\\\\"), encoded)


def json_escaped_surrogates(encoded: str) -> str:
    """JSON text with each lone surrogate as its JSON escape (``\\udcff``), which a JSON
    reader reads back as the same character: a file name's byte that is no UTF-8 round
    trips."""
    if not _has_surrogate(encoded):
        return encoded
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", encoded)


def escaped(char: str) -> str:
    """One character as ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``; a byte a file name held
    that was no UTF-8 (a surrogate U+DC80-U+DCFF) as that byte, ``\\xNN``."""
    code = ord(char)
    if _BYTE_FIRST <= code <= _BYTE_LAST:
        code -= 0xDC00
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
