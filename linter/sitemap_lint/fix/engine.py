"""Fixing one file: read it whole, check it, apply the fixes, check again, repeat.

The file's bytes are read once and decoded; each pass checks the current text
(through the ordinary checker, from memory), applies the fixes of the findings that
offer one and goes again, up to ``MAX_PASSES`` or until nothing changes (a fix can
reveal a defect a stopped parse could not see). Nothing is written here: the result
says what the file would become, or why it is left as it is.
"""

from __future__ import annotations

import codecs
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, BinaryIO

from sitemap_lint.finding import Finding
from sitemap_lint.fix.apply import apply, fixable
from sitemap_lint.inputs.reader import (
    GZIP_MAGIC,
    READ_SIZE,
    ByteStream,
    GzipDamage,
    Source,
    gunzip,
    read_at_most,
    standard_input,
)
from sitemap_lint.rules.events import InputKind, Unfixed

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.inputs.decoding import Decoder
    from sitemap_lint.settings.options import Options
    from sitemap_lint.xsd import Engine

MAX_PASSES = 12
# Files larger than this (compressed or not) are not fixed: they are held in memory.
MAX_FIX_BYTES = 256 * 1024 * 1024
# What a refusal asks for once the file is mended (``split`` says its own words).
RUN_AGAIN = "run the fix again"
# Findings that show the text is not well-formed XML, or markup turned into text (text
# between elements, ST009): a fix must never add one.
_SYNTAX = frozenset({*(f"XM00{n}" for n in range(1, 10)), "ST009"})
# Findings after which part of the original was not read, not validated or not checked
# (a value read as written, an extension in a wrong namespace, the lines of a text
# sitemap past its findings cap): the fixed text may show that part's own findings,
# which no check of the original could see.
_HIDING = _SYNTAX | {"XM011", "NS004", "TX005"}
# An entry list left empty (a urlset's or an index's).
_NO_ENTRIES = "ST008"
# A suppression directive left with nothing to silence: the fix removed what it silenced.
_UNUSED_SUPPRESSION = "SU001"


@dataclass
class Decoded:
    """A file's content as the fixer holds it."""

    raw: bytes  # as read (compressed when gzip)
    text: str
    codec: str
    bom: bytes  # the byte order mark the decoder took off ("" for none)
    gzip: bool
    encoding: str = ""  # the codec as messages name it (the declaration's name for it)


@dataclass
class FileFix:
    """What fixing one file gives: the new bytes (None when nothing changes or the file
    is left as it is), the findings fixed, and the text before and after (for diffs)."""

    name: str
    original: bytes
    fixed: bytes | None = None
    fixed_findings: list[Finding] = field(default_factory=list)
    before: str = ""
    after: str = ""
    refused: tuple[Finding, ...] = ()  # why the file was left as it is (FX001)
    passes: int = 0
    # What changes in the bytes beyond the text (a diff of the text does not show it).
    in_bytes: tuple[str, ...] = ()
    codec: str = "utf-8"  # the file's encoding
    written_codec: str = "utf-8"  # the encoding the fixed file is written in

    @property
    def changed(self) -> bool:
        return self.fixed is not None and self.fixed != self.original


def read_source(source: Source) -> bytes:
    """The bytes of a file or of standard input, at most ``MAX_FIX_BYTES``."""
    from sitemap_lint.engine.dispatch import InputChecks
    from sitemap_lint.engine.sink import FindingList

    if source.data is not None:
        return source.data
    if source.path is None:
        return _read_bounded(standard_input())
    handle = ByteStream(
        source, InputChecks(FindingList())
    )._open()  # regular files only, as a check reads them
    with handle:
        return _read_bounded(handle)


def _read_bounded(handle: BinaryIO) -> bytes:
    """At most ``MAX_FIX_BYTES + 1`` bytes of ``handle``."""
    return read_at_most(handle, MAX_FIX_BYTES + 1)


def _inflate(raw: bytes) -> bytes | str:
    """The content of the gzip file ``raw``, every member in turn, as a check reads it
    (``inputs.reader.gunzip``; it is written back as one member); or the reason it
    cannot be fixed."""

    pieces: list[bytes] = []
    size = 0
    try:
        for piece in gunzip(raw[at : at + READ_SIZE] for at in range(0, len(raw), READ_SIZE)):
            size += len(piece)
            if size > MAX_FIX_BYTES:
                return (
                    f"larger than {MAX_FIX_BYTES // 1024 // 1024} MiB uncompressed; split it "
                    "into sitemaps of at most 50 MiB, then fix each"
                )
            pieces.append(piece)
    except GzipDamage as damage:
        if damage.complete:
            return (
                "the gzip stream has data after its end that is no gzip member; compress "
                f"the file again, then {RUN_AGAIN}"
            )
        if damage.kind == InputKind.GZIP_TRUNCATED:
            return f"the gzip stream is truncated; upload the complete file, then {RUN_AGAIN}"
        return f"the gzip stream is corrupt; compress the file again, then {RUN_AGAIN}"
    return b"".join(pieces)


def decode(raw: bytes) -> Decoded | str:
    """The content of ``raw`` as text, or the reason it cannot be fixed safely."""
    from sitemap_lint.engine.dispatch import InputChecks
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.inputs.decoding import Decoder

    if len(raw) > MAX_FIX_BYTES:
        return (
            f"larger than {MAX_FIX_BYTES // 1024 // 1024} MiB; split it into sitemaps of "
            "at most 50 MiB, then fix each"
        )
    is_gzip = raw.startswith(GZIP_MAGIC)
    data = raw
    if is_gzip:
        inflated = _inflate(raw)
        if isinstance(inflated, str):
            return inflated
        data = inflated
    findings = FindingList()
    decoder = Decoder(InputChecks(findings), keep_leading=True, positions=False)
    text = "".join(decoder.decode([data]))
    if any(f.code == "EN001" for f in findings):
        return (
            "it holds bytes that are not valid in its encoding, which a rewrite would "
            "lose: `sitemap-lint check` says where (EN001), or that the file is no XML at "
            f"all (IN006); re-encode it as UTF-8, then {RUN_AGAIN}"
        )
    bom = _byte_order_mark(data)
    try:
        encoded = text.encode(decoder.codec)
    except UnicodeError:
        encoded = None
    # Compared in place: a copy of a large file joined to its BOM costs its size again.
    same = (
        encoded is not None
        and len(data) == len(bom) + len(encoded)
        and data.startswith(bom)
        and data.endswith(encoded)
    )
    if not same:
        return (
            f"its text does not encode back to the same bytes in "
            f"{decoder.encoding_name()}; re-encode it as UTF-8, then {RUN_AGAIN}"
        )
    return Decoded(raw, text, decoder.codec, bom, is_gzip, decoder.encoding_name())


def decodes(source: Source) -> bool:
    """Whether ``decode(read_source(source))`` gives a text (the file can be fixed), found
    a piece at a time: neither the file's bytes nor its text is held whole, whatever its
    size (a report asks this of every file with fixes)."""
    from sitemap_lint.inputs.reader import InputError

    pending = bytearray()  # bytes decoded whose encoding is not compared yet
    try:
        with _Reading(source, pending) as reading:
            same = _encodes_back(reading.texts, reading.decoder, pending)
    except (_Refused, GzipDamage, InputError, OSError):
        return False
    return same and not reading.invalid()


def leading_text(source: Source, lines: int) -> str | None:
    """The start of the text ``decode`` gives of ``source``: its first ``lines`` lines at
    least (the whole text when it is shorter), read a piece at a time and no further;
    None when it cannot be read again. Ask ``decodes`` first whether it decodes."""
    from sitemap_lint.inputs.reader import InputError

    parts: list[str] = []
    breaks = 0
    try:
        with _Reading(source) as reading:
            for text in reading.texts:
                parts.append(text)
                # A CR LF split between two pieces counts once too few: more text, no less.
                breaks += text.count("\n") + text.count("\r") - text.count("\r\n")
                if breaks >= lines:
                    break
    except (_Refused, GzipDamage, InputError, OSError):
        return None
    return "".join(parts)


class ReadAgainError(Exception):
    """A file ``decodes`` said can be fixed reads otherwise now (it changed meanwhile)."""


def decoded_texts(source: Source) -> Iterator[str]:
    """The text ``decode(read_source(source))`` gives, a piece at a time: neither the
    file's bytes nor its text is held whole. Ask ``decodes`` first whether it gives one:
    a file that no longer does raises ``ReadAgainError``."""
    from sitemap_lint.inputs.reader import InputError

    try:
        with _Reading(source) as reading:
            yield from reading.texts
            invalid = reading.invalid()
    except (_Refused, GzipDamage, InputError, OSError) as error:
        raise ReadAgainError(str(error)) from None
    if invalid:
        raise ReadAgainError("it holds bytes that are not valid in its encoding")


class _Reading:
    """The decoded text of a source a piece at a time, as ``decode`` reads it (gzip
    undone, the same decoder); ``kept`` takes the bytes the decoder reads."""

    def __init__(self, source: Source, kept: bytearray | None = None) -> None:
        from sitemap_lint.engine.dispatch import InputChecks
        from sitemap_lint.engine.sink import FindingList
        from sitemap_lint.inputs.decoding import Decoder

        self._handle = ByteStream(source, InputChecks(FindingList()))._open()
        self._findings = FindingList()
        self.decoder = Decoder(InputChecks(self._findings), keep_leading=True, positions=False)
        first = self._handle.read(READ_SIZE)
        raw = _pieces(first, self._handle)
        data = _inflated(raw) if first.startswith(GZIP_MAGIC) else raw
        self.texts = self.decoder.decode(data if kept is None else _kept(data, kept))

    def invalid(self) -> bool:
        """Whether bytes invalid in the encoding were met (EN001)."""
        return any(f.code == "EN001" for f in self._findings)

    def __enter__(self) -> _Reading:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()


def _kept(pieces: Iterator[bytes], kept: bytearray) -> Iterator[bytes]:
    for piece in pieces:
        kept.extend(piece)
        yield piece


class _Refused(Exception):
    """More bytes than ``MAX_FIX_BYTES``: the file is not fixed."""


def _pieces(first: bytes, handle: BinaryIO) -> Iterator[bytes]:
    """The bytes of ``handle`` from ``first`` on, refused past ``MAX_FIX_BYTES`` (as
    ``read_source`` and ``decode`` refuse them)."""
    size = 0
    piece = first
    while piece:
        size += len(piece)
        if size > MAX_FIX_BYTES:
            raise _Refused
        yield piece
        piece = handle.read(READ_SIZE)


def _inflated(raw: Iterator[bytes]) -> Iterator[bytes]:
    """``_inflate`` a piece at a time."""
    size = 0
    for piece in gunzip(raw):
        size += len(piece)
        if size > MAX_FIX_BYTES:
            raise _Refused
        yield piece


def _encodes_back(texts: Iterator[str], decoder: Decoder, pending: bytearray) -> bool:
    """Whether ``texts`` encode back to the bytes they were decoded from (``pending``,
    kept as the decoder reads them), after the byte order mark: ``decode``'s test."""
    encoder: codecs.IncrementalEncoder | None = None
    bom: bytes | None = None
    codec = decoder.codec
    for text in texts:
        if encoder is None:  # the decoder has read the declaration now
            codec = decoder.codec
            encoder = codecs.getincrementalencoder(codec)(errors="strict")
            bom = _byte_order_mark(pending)
            del pending[: len(bom)]
        elif decoder.codec != codec:
            # A declared single-byte encoding found to be UTF-8 (the text before was
            # ASCII, the same bytes in both): encoded as the decoder now reads it.
            codec = decoder.codec
            encoder = codecs.getincrementalencoder(codec)(errors="strict")
        try:
            encoded = encoder.encode(text)
        except UnicodeError:
            return False
        if not pending.startswith(encoded):
            return False
        del pending[: len(encoded)]
    if encoder is None:  # no text: the bytes are a byte order mark at most
        return bytes(pending) in (b"", _byte_order_mark(pending))
    try:
        encoded = encoder.encode("", final=True)
    except UnicodeError:
        return False
    return bytes(pending) == encoded


def _byte_order_mark(data: bytes | bytearray) -> bytes:
    """The byte order mark ``data`` starts with, as ``decode`` finds it ("" for none)."""
    for mark in (codecs.BOM_UTF8, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE):
        if data.startswith(mark):
            return mark
    for mark in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        if data.startswith(mark):
            return mark
    return b""


def plain(decoded: Decoded, text: str, drop_bom: bool, to_utf8: bool) -> bytes:
    """The uncompressed bytes of ``text``: in the file's encoding (or UTF-8), with its
    byte order mark unless dropped."""
    codec = "utf-8" if to_utf8 else decoded.codec
    bom = decoded.bom
    if drop_bom or (to_utf8 and bom != codecs.BOM_UTF8):
        bom = b""
    return bom + text.encode(codec)


def encode(decoded: Decoded, text: str, drop_bom: bool, to_utf8: bool) -> bytes:
    """The bytes to write for ``text``: ``plain``, gzip-compressed when the file was, as
    one member that keeps the original name, comment and extra field of the file's
    first member's header (RFC 1952; its time is left out: the text is another)."""
    data = plain(decoded, text, drop_bom, to_utf8)
    if decoded.gzip:
        import gzip

        fields = _gzip_fields(decoded.raw)
        if not fields:
            return gzip.compress(data, compresslevel=9, mtime=0)
        import zlib

        flags = 0
        for flag, _value in fields:
            flags |= flag
        header = b"\x1f\x8b\x08" + bytes([flags]) + b"\0\0\0\0\x02\x03"
        header += b"".join(value for _flag, value in fields)
        trailer = zlib.crc32(data).to_bytes(4, "little") + (len(data) & 0xFFFFFFFF).to_bytes(
            4, "little"
        )
        return header + zlib.compress(data, 9, wbits=-15) + trailer
    return data


_FEXTRA, _FNAME, _FCOMMENT = 4, 8, 16


def _gzip_fields(raw: bytes) -> list[tuple[int, bytes]]:
    """The optional fields of the header of the gzip file ``raw``'s first member that a
    rewrite keeps (the extra field, the original name and the comment, each with its
    flag, as written there, in their order); none when the header cannot be read."""
    fields: list[tuple[int, bytes]] = []
    flags = raw[3] if len(raw) > 3 else 0
    at = 10
    try:
        if flags & _FEXTRA:
            stop = at + 2 + int.from_bytes(raw[at : at + 2], "little")
            if stop > len(raw):
                return []
            fields.append((_FEXTRA, raw[at:stop]))
            at = stop
        for flag in (_FNAME, _FCOMMENT):
            if flags & flag:
                stop = raw.index(b"\0", at) + 1
                fields.append((flag, raw[at:stop]))
                at = stop
    except ValueError:
        return []
    return fields


def check_text(name: str, data: bytes, options: Options, engine: Engine) -> FileResult:
    """The ordinary check of ``data`` (uncompressed bytes) under the file's name."""
    from sitemap_lint.engine.checker import check_source

    return check_source(Source(name, None, data=data, uncompressed=True), options, engine)


def fix_source(
    source: Source,
    options: Options,
    engine: Engine,
    unsafe: bool,
    answered: Sequence[Finding] = (),
) -> FileFix:
    """Fix ``source`` in memory: the new bytes and the findings fixed, or the reason not.

    ``answered``: the findings of the live audit of the original file whose fixes rest
    on its answers (``fix.model.answered``); they go with the first pass, after the
    static ones, and are never found again by the later passes."""
    raw = read_source(source)
    result = FileFix(source.name, raw)
    decoded = decode(raw)
    if isinstance(decoded, str):
        # Said only when there was something to fix.
        found = check_text(source.name, raw, options, engine).findings
        if fixable([*found, *answered], unsafe):
            result.refused = _refusal(decoded, options, source.name)
        return result
    # The diff shows a UTF-8 byte order mark as the character it is, so that it applies
    # to the file's bytes (in another encoding, or compressed, it applies to no bytes).
    mark = "\ufeff" if decoded.bom == codecs.BOM_UTF8 and not decoded.gzip else ""
    text = decoded.text
    result.before = result.after = mark + text
    drop_bom = to_utf8 = False
    # Each pass reads every rule, as the gate against a worse file does; the fixes
    # applied are those of the findings the run reports.
    every = replace(options, enabled=None, selection=None)
    first: FileResult | None = None
    checked: FileResult | None = None
    fixed_first: Sequence[Finding] = ()
    for _ in range(MAX_PASSES):
        data = plain(decoded, text, drop_bom, to_utf8)
        checked = check_text(source.name, data, every, engine)
        todo = fixable(_selected(checked.findings, options, source.name), unsafe)
        if first is None:
            first = checked
            todo += fixable(answered, unsafe)
        if not todo:
            break
        step = apply(text, todo)
        if step.text == text and step.drop_bom <= drop_bom and step.to_utf8 <= to_utf8:
            break
        text = step.text
        drop_bom |= step.drop_bom
        to_utf8 |= step.to_utf8
        result.fixed_findings.extend(step.fixed)
        if result.passes == 0:
            fixed_first = step.fixed
        result.passes += 1
    else:
        data = plain(decoded, text, drop_bom, to_utf8)
        checked = check_text(source.name, data, every, engine)
    if result.passes == 0 or first is None or checked is None:
        return result
    problem = _worse(first, checked, fixed_first, options, source.name)
    if problem is not None:
        result.refused = _refusal(problem, options, source.name)
        result.fixed_findings = []
        return result
    try:
        result.fixed = encode(decoded, text, drop_bom, to_utf8)
    except UnicodeError:
        why = (
            f"the fixed text cannot be written in {decoded.codec}; re-encode the file as "
            f"UTF-8, then {RUN_AGAIN}"
        )
        result.refused = _refusal(why, options, source.name)
        result.fixed_findings = []
        return result
    result.after = ("" if drop_bom else mark) + text
    result.in_bytes = _in_bytes(decoded, drop_bom, to_utf8)
    result.codec = decoded.codec
    result.written_codec = "utf-8" if to_utf8 else decoded.codec
    return result


def _selected(findings: Iterable[Finding], options: Options, name: str) -> list[Finding]:
    """The findings of a check of every rule that the run reports for the file ``name``
    (its rules, per-file ignores, profile and severity table), as its sink would pass."""
    from sitemap_lint.engine.sink import reported

    enabled, selection = options.enabled, options.selection
    if enabled is not None:
        findings = [f for f in findings if f.code in enabled]
    return reported(findings, selection.for_file(name)) if selection is not None else [*findings]


def _in_bytes(decoded: Decoded, drop_bom: bool, to_utf8: bool) -> tuple[str, ...]:
    """What a fix changes in the bytes that the text does not show."""
    changes = []
    if drop_bom and decoded.bom:
        changes.append("the byte order mark removed")
    if to_utf8 and decoded.codec.replace("-", "").replace("_", "").lower() != "utf8":
        changes.append(f"the file written in UTF-8 instead of {decoded.encoding or decoded.codec}")
    return tuple(changes)


def _refusal(reason: str, options: Options, name: str) -> tuple[Finding, ...]:
    """The findings the ``unfixed`` checks make of the file ``name`` left as it is, as
    the run reports them there (its rules, per-file ignores, profile, severity table)."""
    from sitemap_lint.engine.dispatch import once
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.rules.registry import UNFIXED

    found = FindingList()
    once(UNFIXED, Unfixed(reason), options, found, options.enabled)
    return tuple(_selected(found, options, name))


def _worse(
    before: FileResult,
    after: FileResult,
    fixed: Sequence[Finding],
    options: Options,
    name: str,
) -> str | None:
    """Why the fixed text is worse than the original: a new well-formedness error; no
    entry left (every one removed: out of scope, most likely for a wrong
    ``--sitemap-url``); or, in a file read and validated whole (``_HIDING``), a finding
    the run reports of a rule more often than the original less the findings fixed in
    the first pass (a fixed text that parses further than the original shows defects
    no check could see there)."""
    had = {f.code for f in before.findings}
    for finding in after.findings:
        if finding.code in _SYNTAX and finding.code not in had:
            return (
                f"the fixes would leave a new {finding.code} {finding.name} at line "
                f"{finding.line}; fix the file by hand"
            )
    if before.urls and not after.urls:
        return (
            f"the fixes would remove every entry (all {before.urls:,}); if they are out of "
            "scope, check --sitemap-url, else fix the file by hand"
        )
    # An index counts no URLs: emptied, it has a new no-entries finding.
    emptied = any(finding.code == _NO_ENTRIES for finding in after.findings)
    if before.kind == after.kind == "sitemapindex" and emptied and _NO_ENTRIES not in had:
        return (
            "the fixes would remove every <sitemap> of the index; if they are out of "
            "scope, check --sitemap-url, else fix the file by hand"
        )
    if not had & _HIDING:
        added = _added(
            _selected(before.findings, options, name),
            _selected(after.findings, options, name),
            fixed,
        )
        if added is not None:
            return (
                f"the fixes would leave a new {added.code} {added.name} at line {added.line} "
                f"({added.message.partition('; ')[0]}); fix the file by hand"
            )
    return None


def _added(
    before: Sequence[Finding], after: Sequence[Finding], fixed: Sequence[Finding]
) -> Finding | None:
    """A finding of ``after`` whose rule it has more often than ``before`` less
    ``fixed``: one whose message the original has not, else the first of its rule."""
    allowed = Counter(f.code for f in before)
    allowed.subtract(Counter(f.code for f in fixed))
    left = Counter(f.code for f in after if f.code != _UNUSED_SUPPRESSION)
    grown = {code for code, count in left.items() if count > allowed[code]}
    if not grown:
        return None
    known = {f.message for f in before}
    candidates = [f for f in after if f.code in grown]
    return next((f for f in candidates if f.message not in known), candidates[0])
