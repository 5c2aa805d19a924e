"""Decoding: raw bytes in, text out, with findings about the encoding.

The protocol wants UTF-8. Other encodings are reported and, where they can be
recognised, decoded anyway so that the rest of the file is still checked.
Invalid UTF-8 bytes are reported with their line and replaced, so parsing goes on.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator

from sitemap_lint.finding import Finding
from sitemap_lint.rules import encoding as encoding_rules
from sitemap_lint.rules import xml as xml_rules

SNIFF_SIZE = 1024
MAX_INVALID_REPORTS = 20

_DECLARED_ENCODING = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")
_UTF8_NAMES = {"utf-8", "utf8"}
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
_WIDE_PATTERNS = (
    (b"<\x00\x00\x00", "utf-32-le", "UTF-32"),
    (b"\x00\x00\x00<", "utf-32-be", "UTF-32"),
    (b"<\x00?\x00", "utf-16-le", "UTF-16"),
    (b"\x00<\x00?", "utf-16-be", "UTF-16"),
)


class Decoder:
    """Decodes one byte stream; ``line_offset``/``column_offset`` account for dropped leading text.

    When bytes stand before the XML declaration they are reported and removed,
    so the parser sees a well-placed declaration; positions it reports are
    shifted back by these offsets.
    """

    def __init__(self, findings: list[Finding]):
        self.findings = findings
        self.line_offset = 0
        self.column_offset = 0
        self.codec = "utf-8"
        self._lines_before = 0
        self._invalid_lines: set[int] = set()
        self._invalid_reported = 0

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
        decoder = codecs.getincrementaldecoder(self.codec)(errors="strict")
        first = True
        for chunk in _chain(head, iterator):
            text = self._decode_chunk(decoder, chunk, final=False)
            if first:
                text = self._strip_leading(text)
                first = False
            if text:
                yield text
        tail = self._decode_chunk(decoder, b"", final=True)
        if tail:
            yield tail

    def _sniff(self, head: bytes) -> bytes:
        if head.startswith(codecs.BOM_UTF8):
            self.findings.append(encoding_rules.byte_order_mark())
            return head[len(codecs.BOM_UTF8) :]
        for bom, codec, family in _WIDE_BOMS:
            if head.startswith(bom):
                self.codec = codec
                self.findings.append(encoding_rules.wide_encoding(family, codec))
                return head[len(bom) :]
        for pattern, codec, family in _WIDE_PATTERNS:
            if head.startswith(pattern):
                self.codec = codec
                self.findings.append(encoding_rules.wide_encoding(family, codec))
                return head
        match = _DECLARED_ENCODING.match(head.lstrip())
        if match:
            declared = match.group(1).decode("ascii").lower()
            if declared not in _UTF8_NAMES:
                column = head.find(b"encoding") + 1
                self.findings.append(encoding_rules.declared_encoding(declared, column))
                self.codec = _usable_codec(declared)
        return head

    def _decode_chunk(self, decoder, chunk: bytes, final: bool) -> str:
        try:
            text = decoder.decode(chunk, final)
        except UnicodeDecodeError:
            text = self._decode_with_replacement(decoder, chunk, final)
        self._lines_before += text.count("\n")
        return text

    def _decode_with_replacement(self, decoder, chunk: bytes, final: bool) -> str:
        """Slow path: decode again from the decoder's state, reporting each bad line."""
        pending, _flag = decoder.getstate()
        data = pending + chunk
        decoder.reset()
        if not final:
            # Keep an incomplete sequence at the end for the next chunk.
            cut = _incomplete_tail(data) if self.codec == "utf-8" else 0
            body, rest = (data[:-cut], data[-cut:]) if cut else (data, b"")
        else:
            body, rest = data, b""
        text = body.decode(self.codec, errors="replace")
        self._report_invalid(body)
        if rest:
            decoder.setstate((rest, 0))
        return text

    def _report_invalid(self, body: bytes) -> None:
        position = 0
        while position < len(body):
            try:
                body[position:].decode(self.codec)
                return
            except UnicodeDecodeError as error:
                start = position + error.start
                line = self._lines_before + body.count(b"\n", 0, start) + 1
                line_start = body.rfind(b"\n", 0, start) + 1
                column = len(body[line_start:start].decode(self.codec, errors="replace")) + 1
                if line not in self._invalid_lines:
                    self._invalid_lines.add(line)
                    if self._invalid_reported < MAX_INVALID_REPORTS:
                        self.findings.append(
                            encoding_rules.invalid_bytes(
                                self.codec, body[start : position + error.end], line, column
                            )
                        )
                    self._invalid_reported += 1
                position += error.end

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
        self.findings.append(xml_rules.content_before_declaration(prefix))
        self.line_offset = prefix.count("\n")
        self.column_offset = len(prefix) - (prefix.rfind("\n") + 1)
        return text[at:]


def _chain(head: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield head
    yield from rest


def _usable_codec(declared: str) -> str:
    """The declared codec when Python knows an ASCII-compatible one, else UTF-8."""
    try:
        info = codecs.lookup(declared)
    except LookupError:
        return "utf-8"
    if info.name.startswith(("utf-16", "utf-32")):
        return "utf-8"
    try:
        if "<?xml".encode(info.name) != b"<?xml":
            return "utf-8"
    except (UnicodeError, LookupError):
        return "utf-8"
    return info.name


def _incomplete_tail(data: bytes) -> int:
    """Length of a possibly incomplete UTF-8 sequence at the end of ``data``."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 != 0x80:  # not a continuation byte
            if byte >= 0xC0:
                needed = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
                return back if needed > back else 0
            return 0
    return 0
