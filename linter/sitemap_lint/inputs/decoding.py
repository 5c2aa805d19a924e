"""Decoding: raw bytes in, text out, with findings about the encoding.

The protocol wants UTF-8. Other encodings are reported and, where they can be
recognised, decoded anyway so that the rest of the file is still checked.
Invalid UTF-8 bytes are reported with their line and replaced, so parsing goes on.
"""

from __future__ import annotations

import codecs
import functools
from collections.abc import Callable, Iterable, Iterator

from sitemap_lint.rules import encoding as encoding_rules
from sitemap_lint.rules.events import (
    Declaration,
    InputKind,
    InputProblem,
    ProblemReport,
    Replacements,
)
from sitemap_lint.support.patterns import lazy

SNIFF_SIZE = 1024
MAX_INVALID_REPORTS = 20

# The name may run past the sniffed head (a name of megabytes): then it ends there.
_DECLARED_ENCODING = lazy(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)(?:["']|\Z)""")
_DECLARED_VERSION = lazy(rb"""^<\?xml\s+version\s*=\s*["']([^"'<>?]{0,20})["']""")
# Bytes that never occur in UTF-8; FF FE and FE FF are the UTF-16 byte order marks.
_NEVER_UTF8 = {b"\xfd", b"\xfe", b"\xff"}
# A CR that starts no CR LF (one search, where counting CR and CR LF are two scans).
LONE_CR = lazy(r"\r(?!\n)")
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
# Without a byte order mark, UTF-16/32 is told by its first two characters (XML 1.0
# appendix F): '<' or whitespace, then an ASCII character, in the encoding's width; or,
# as a text sitemap or a robots.txt starts, by its first characters all being printable
# ASCII (a URL, a field name) with the NUL bytes of the encoding's width beside them.
_WIDE_CODECS = (
    ("utf-32-le", "UTF-32"),
    ("utf-32-be", "UTF-32"),
    ("utf-16-le", "UTF-16"),
    ("utf-16-be", "UTF-16"),
)
_WIDE_FIRST = "< \t\r\n"
_WIDE_TEXT_CHARS = 4  # the first characters of a text that tell its encoding
_PRINTABLE = lazy(r"[\t\n\r\x20-\x7e]+")
_NON_ASCII = lazy(rb"[\x80-\xff]")
# A declared single-byte encoding is taken to be UTF-8 when this many bytes from the
# first non-ASCII byte on (or all there are) decode as UTF-8.
UTF8_WINDOW = 1024


class Decoder:
    """Decodes one byte stream; ``line_offset``/``column_offset`` account for dropped leading text.

    When text stands before the XML declaration it is removed (``leading``), so the
    parser sees a well-placed declaration; positions it reports are shifted back by
    these offsets. What the start of the bytes says (``declaration``, ``byte_order_mark``,
    ``wide``) is kept for the checks of the prolog; invalid bytes are reported to
    ``report`` where they are decoded.
    """

    def __init__(self, report: ProblemReport, keep_leading: bool = False, positions: bool = True):
        self.report = report  # where its findings go: the file's sink
        # Keep text before a late XML declaration (to show the file's lines as they are).
        self.keep_leading = keep_leading
        # False: only whether there are findings matters, not where (no line is counted).
        self.positions = positions
        self.line_offset = 0
        self.column_offset = 0
        self.codec = "utf-8"
        # The XML declaration at the start, as read from the bytes (None: none read).
        self.declaration: Declaration | None = None
        self.leading: str | None = None  # the text dropped before a late declaration
        self.byte_order_mark = False  # the bytes start with UTF-8's byte order mark
        # UTF-16 or UTF-32 text: the family, the codec, the encoding the declaration names.
        self.wide: tuple[str, str, str | None] | None = None
        self._lines_before = 0  # line breaks in the text decoded so far
        self._line_chars = 0  # characters after the last of them
        self._ends_with_cr = False
        self._invalid_lines: set[int] = set()
        self._invalid_reported = 0
        # The declared encoding is a single-byte one: whether the bytes are in it or in
        # UTF-8 is settled at their first non-ASCII byte.
        self._unsettled = False
        # The lines where bytes were replaced with U+FFFD (the URL rules read it).
        self.replacements = Replacements()

    def decode(self, chunks: Iterable[bytes]) -> Iterator[str]:
        iterator = iter(chunks)
        head = b""
        for chunk in iterator:
            head += chunk
            if len(head) >= SNIFF_SIZE:
                break
        if not head:
            return
        head = self._sniff(head)
        codec = self.codec
        decoder = codecs.getincrementaldecoder(codec)(errors="strict")
        first = True
        pieces = _chain(head, iterator)
        if self._unsettled:
            pieces = _settled(pieces, self._read_as_utf8)
        for chunk in pieces:
            if self.codec != codec:  # UTF-8 after all; the bytes before were ASCII
                codec = self.codec
                decoder = codecs.getincrementaldecoder(codec)(errors="strict")
            text = self._decode_chunk(decoder, chunk, final=False)
            if first and not self.keep_leading:
                text = self._strip_leading(text)
                first = False
            if text:
                yield text
        tail = self._decode_chunk(decoder, b"", final=True)
        if tail:
            yield tail

    def _read_as_utf8(self) -> None:
        """The declared single-byte encoding is UTF-8 after all (``_settled``)."""
        self.codec = "utf-8"
        if self.declaration is not None:
            self.declaration.utf8_bytes = True

    def _sniff(self, head: bytes) -> bytes:
        if head.startswith(codecs.BOM_UTF8):
            self.byte_order_mark = True
            head = head[len(codecs.BOM_UTF8) :]
            self._check_declaration(head)
            self.codec = "utf-8"  # the byte order mark says UTF-8, whatever the declaration says
            return head
        for bom, codec, family in _WIDE_BOMS:
            if head.startswith(bom):
                if not _looks_wide(head[len(bom) :], codec):
                    return self._stray_mark(head, family)
                self.codec = codec
                self.wide = (family, codec, _wide_declared(head, bom, codec))
                return head[len(bom) :]
        for codec, family in _WIDE_CODECS:
            if _starts_wide(head, codec):
                self.codec = codec
                self.wide = (family, codec, _wide_declared(head, b"", codec))
                return head
        if head[:1] in _NEVER_UTF8:
            return self._stray_mark(head, "")
        self._check_declaration(head)
        return head

    def _stray_mark(self, head: bytes, family: str) -> bytes:
        """Bytes that are never valid UTF-8 (FF, FE, FD) before the text of a file that
        is not UTF-16/32: reported once and removed, so the rest reads as UTF-8."""
        end = 0
        while end < len(head) and head[end : end + 1] in _NEVER_UTF8:
            end += 1
        self.report.problem(InputProblem(InputKind.STRAY_MARK, family, data=head[:end]))
        self._invalid_lines.add(1)
        self._invalid_reported += 1
        head = head[end:]
        self._check_declaration(head)
        return head

    def _check_declaration(self, head: bytes) -> None:
        """Read the encoding and version of the XML declaration at the start of ``head``,
        and decode with the encoding it names where that can be done."""
        stripped = head.lstrip()
        offset = len(head) - len(stripped)
        match = _DECLARED_ENCODING.match(stripped)
        version = _DECLARED_VERSION.match(stripped)
        if match is None and version is None:
            return
        declaration = self.declaration = Declaration()
        if match:
            declared = match.group(1).decode("ascii")
            declaration.encoding = declared
            at = offset + stripped.rfind(b"encoding", 0, match.start(1))
            declaration.encoding_at = _position(head, at)
            lower = declared.lower()
            if lower not in encoding_rules.UTF8_NAMES and lower not in encoding_rules.UTF8_LABELS:
                utf8 = encoding_rules.is_utf8_alias(lower)
                self.codec = "utf-8" if utf8 else _usable_codec(lower)
                self._unsettled = self.codec != "utf-8" and _single_byte(self.codec)
        if version:
            declaration.version = version.group(1).decode("ascii", "backslashreplace")
            at = offset + stripped.rfind(b"version", 0, version.start(1))
            declaration.version_at = _position(head, at)

    def _decode_chunk(self, decoder: codecs.IncrementalDecoder, chunk: bytes, final: bool) -> str:
        # Saved first: a failed decode may leave some decoders (CJK codecs) in a
        # state that has lost an incomplete sequence carried over from the last chunk.
        state = decoder.getstate()
        try:
            text = decoder.decode(chunk, final)
        except UnicodeDecodeError:
            text = self._decode_with_replacement(decoder, state, chunk, final)
        self._advance(text)
        return text

    def _advance(self, text: str) -> None:
        """Move the line count past ``text``; line breaks are counted as XML (and expat)
        count them: CR LF, CR and LF are one break each, also across chunks."""
        if not text or not self.positions:
            return
        breaks = _breaks(text)
        if self._ends_with_cr and text[0] == "\n":
            breaks -= 1  # the LF of a CR LF split between two chunks
        self._lines_before += breaks
        last = max(text.rfind("\n"), text.rfind("\r"))
        self._line_chars = len(text) - last - 1 if last >= 0 else self._line_chars + len(text)
        self._ends_with_cr = text[-1] == "\r"

    def _decode_with_replacement(
        self,
        decoder: codecs.IncrementalDecoder,
        state: tuple[bytes, int],
        chunk: bytes,
        final: bool,
    ) -> str:
        """Slow path: decode again from the decoder's state, reporting each bad line.

        A fresh incremental decoder with ``errors="replace"`` gives the text and
        keeps back an incomplete sequence at the end for the next chunk, for
        every codec (not only UTF-8).
        """
        pending, _flag = state
        data = pending + chunk
        fresh = codecs.getincrementaldecoder(self.codec)(errors="replace")
        text = fresh.decode(data, final)
        after = fresh.getstate()
        rest = b"" if final else after[0]
        if not self.positions:  # no line is counted: any line may hold a replacement
            self.replacements.beyond = 1
        self._report_invalid(data[: len(data) - len(rest)] if rest else data)
        decoder.reset()
        if not final:
            decoder.setstate(after)
        return text

    def _report_invalid(self, body: bytes) -> None:
        """Report the first invalid sequence of each line in ``body`` (up to the cap).

        Linear in the size of ``body``: each strict decode starts where the last
        error ended (a memoryview, no copy), and after a line's first error the
        rest of that line is skipped.
        """
        if self._invalid_reported >= MAX_INVALID_REPORTS:
            return
        view = memoryview(body)
        line = self._lines_before + 1
        counted = 0  # body[:counted] is included in ``line``
        skip_lf = self._ends_with_cr
        position = 0
        while position < len(body):
            try:
                codecs.decode(view[position:], self.codec)
                return
            except UnicodeDecodeError as error:
                start, end = position + error.start, position + error.end
                cut = end == len(body) and error.reason == "unexpected end of data"
            segment = body[counted:start].decode(self.codec, errors="replace")
            line += _breaks(segment) - (1 if skip_lf and segment.startswith("\n") else 0)
            skip_lf = segment.endswith("\r") if segment else skip_lf
            counted = start
            self.replacements.lines.add(line)
            if line not in self._invalid_lines:
                self._invalid_lines.add(line)
                column = self._column(body, start)
                invalid = InputProblem(
                    InputKind.INVALID_BYTES,
                    self.declared_name(),
                    codec=self.codec,
                    data=body[start:end],
                    line=line,
                    column=column,
                    cut=cut,
                )
                self.report.problem(invalid)
                self._invalid_reported += 1
                if self._invalid_reported >= MAX_INVALID_REPORTS:
                    # The lines after this one are not looked at any more.
                    self.replacements.beyond = line
                    return
            position = self._next_break(body, end)

    def declared_name(self) -> str:
        """The name the XML declaration gives the encoding the file is decoded with, as
        written (``windows-1252``, where the codec is ``cp1252``); empty when that
        encoding was not taken from the declaration."""
        declaration = self.declaration
        if self.codec == "utf-8" or self.wide is not None or declaration is None:
            return ""
        return declaration.encoding or ""

    def encoding_name(self) -> str:
        """The encoding the file is decoded with, as a message names it: as the XML
        declaration writes it, else the codec's name."""
        return self.declared_name() or self.codec

    def _column(self, body: bytes, start: int) -> int:
        """1-based column (in characters) of ``body[start]``, also when its line
        began in an earlier chunk."""
        prefix = body[:start].decode(self.codec, errors="replace")
        last = max(prefix.rfind("\n"), prefix.rfind("\r"))
        if last >= 0:
            return len(prefix) - last
        return self._line_chars + len(prefix) + 1

    def _next_break(self, body: bytes, start: int) -> int:
        """Index of the next line break at or after ``start`` (``len(body)`` when none)."""
        unit = 4 if self.codec.startswith("utf-32") else 2 if self.codec.startswith("utf-16") else 1
        found = len(body)
        for char in ("\n", "\r"):
            encoded = char.encode(self.codec)
            at = body.find(encoded, start, found)
            while at >= 0 and at % unit:
                at = body.find(encoded, at + 1, found)
            if at >= 0:
                found = at
        return found

    def _strip_leading(self, text: str) -> str:
        """Report and drop anything before a late XML declaration."""
        if text.startswith("<?xml"):
            return text
        at = text.find("<?xml", 0, SNIFF_SIZE)
        if at <= 0:
            return text
        prefix = text[:at]
        following = text[at + 5 : at + 6]
        if following and not following.isspace() and following != "?":
            return text  # a processing instruction such as <?xml-stylesheet?>
        self.leading = prefix
        self.line_offset = _breaks(prefix)
        self.column_offset = len(prefix) - (max(prefix.rfind("\n"), prefix.rfind("\r")) + 1)
        return text[at:]


def _settled(chunks: Iterator[bytes], utf8: Callable[[], None]) -> Iterator[bytes]:
    """``chunks`` as they come, once it is settled whether a declared single-byte
    encoding is the bytes' own or UTF-8 (then ``utf8`` is called, before the chunk that
    told is yielded): by the ``UTF8_WINDOW`` bytes from the first non-ASCII byte on, held
    back until there are that many or the bytes end, so that the answer does not depend
    on how the bytes are cut. Those bytes decode as UTF-8: text in a single-byte
    encoding hardly ever does (its accented letters would have to come in the pairs UTF-8
    writes them in), a file saved as UTF-8 under a wrong declaration always does."""
    held = b""
    at = 0
    for chunk in chunks:
        if not held and chunk.isascii():
            yield chunk
            continue
        held += chunk
        match = _NON_ASCII.search(held)
        at = match.start() if match is not None else 0
        if len(held) - at >= UTF8_WINDOW:
            if _decodes_as_utf8(held[at : at + UTF8_WINDOW], final=False):
                utf8()
            yield held
            yield from chunks
            return
    if held:
        if _decodes_as_utf8(held[at:], final=True):
            utf8()
        yield held


def _decodes_as_utf8(window: bytes, final: bool) -> bool:
    """Whether ``window``, which starts with a non-ASCII byte, decodes as UTF-8 (a
    sequence cut at its end still may, unless ``final``)."""
    try:
        return bool(codecs.getincrementaldecoder("utf-8")(errors="strict").decode(window, final))
    except UnicodeDecodeError:
        return False


def _looks_wide(rest: bytes, codec: str) -> bool:
    """Whether the bytes after a UTF-16/32 byte order mark are text in that encoding: a
    sitemap starts with an ASCII character ('<', a letter, whitespace), which UTF-16 and
    UTF-32 write with NUL bytes beside it. Too few bytes to tell count as the encoding."""
    unit = 4 if codec.startswith("utf-32") else 2
    if len(rest) < unit:
        return len(rest) == 0
    first = rest[:unit]
    if codec.endswith("-le"):
        return first[0] != 0 and not any(first[1:])
    return first[-1] != 0 and not any(first[:-1])


def _starts_wide(head: bytes, codec: str) -> bool:
    """Whether ``head`` (no byte order mark) starts as an XML file, a text sitemap or a
    robots.txt in ``codec`` does."""
    if b"\x00" not in head[:4]:
        # Both tests need the first characters below 0x80, which UTF-16 and UTF-32 write
        # with NUL bytes: without one, no codec need be loaded to tell.
        return False
    unit = 4 if codec.startswith("utf-32") else 2
    try:
        first_two = head[: 2 * unit].decode(codec)
        first = head[: _WIDE_TEXT_CHARS * unit].decode(codec)
    except UnicodeDecodeError:
        return False
    if len(first_two) == 2 and first_two[0] in _WIDE_FIRST and "\x00" < first_two[1] < "\x80":
        return True
    return len(first) == _WIDE_TEXT_CHARS and _PRINTABLE.fullmatch(first) is not None


def _wide_declared(head: bytes, bom: bytes, codec: str) -> str | None:
    """The encoding a UTF-16/32 file's XML declaration names, if any."""
    text = head[len(bom) : len(bom) + 400].decode(codec, errors="replace")
    match = _DECLARED_ENCODING.match(text.lstrip().encode("ascii", errors="replace"))
    return match.group(1).decode("ascii") if match else None


def _position(head: bytes, index: int) -> tuple[int, int]:
    """1-based line and column of ``head[index]`` (ASCII text: bytes are characters)."""
    before = head[:index]
    breaks = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n")
    last = max(before.rfind(b"\n"), before.rfind(b"\r"))
    return breaks + 1, index - last


def _breaks(text: str) -> int:
    """Line breaks in ``text`` as XML counts them: CR LF, CR and LF are one each."""
    breaks = text.count("\n")
    if "\r" in text:  # most files have none; in the others, a CR alone is rare
        breaks += len(LONE_CR.findall(text))
    return breaks


def _chain(head: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield head
    yield from rest


@functools.cache
def _single_byte(codec: str) -> bool:
    """Whether ``codec`` (an ASCII-compatible one) writes each character in one byte
    (ISO-8859-1, Windows-1252, KOI8-R...): each of the bytes 80 to FF is one character,
    none starts a sequence. The 7-bit ISO-2022 codecs shift with ASCII bytes: not so."""
    if codec.startswith("iso2022"):
        return False
    return len(bytes(range(0x80, 0x100)).decode(codec, errors="replace")) == 0x80


# Python's codecs that are no character set a document is written in: they rewrite
# escapes (\n, \u00e9, xn--) into other characters, which would move every
# position after them and check text the file does not hold.
_NOT_CHARSETS = {"unicode-escape", "raw-unicode-escape", "idna", "punycode"}


def _usable_codec(declared: str) -> str:
    """The declared codec when Python knows an ASCII-compatible character set by that
    name, else UTF-8."""
    try:
        info = codecs.lookup(declared)
    except LookupError:
        return "utf-8"
    if info.name.startswith(("utf-16", "utf-32")) or info.name in _NOT_CHARSETS:
        return "utf-8"
    try:
        if "<?xml".encode(info.name) != b"<?xml":
            return "utf-8"
    except (UnicodeError, LookupError):
        return "utf-8"
    return info.name
