"""Input: find the files to check and read each one as a stream of raw bytes.

Gzip is recognised by its magic bytes and undone here, with a cap on the
decompressed size so that a small bomb cannot exhaust memory or time.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, cast

from sitemap_lint.errors import empty_path
from sitemap_lint.rules.events import InputKind, InputProblem, ProblemReport
from sitemap_lint.support.locations import is_url as is_url
from sitemap_lint.support.locations import names_robots
from sitemap_lint.support.records import Frozen

READ_SIZE = 1 << 16
SIZE_LIMIT = 52_428_800
# How far past the protocol's limit we keep checking before we stop reading.
READ_CAP = SIZE_LIMIT + 4 * 1024 * 1024
# Raw bytes of standard input a check reads at most: gzip data this long holds more than
# READ_CAP of content (deflate adds far less than 1/64 to data it cannot compress).
STDIN_CHECK_BYTES = READ_CAP + READ_CAP // 64 + READ_SIZE

GZIP_MAGIC = b"\x1f\x8b"
OTHER_COMPRESSIONS = {
    b"PK\x03\x04": "zip",
    b"BZh": "bzip2",
    b"\xfd7zXZ\x00": "xz",
    b"\x28\xb5\x2f\xfd": "zstd",
}
SITEMAP_SUFFIXES = (".xml", ".xml.gz", ".txt")


STDIN = "-"  # the argument that stands for standard input
BYTES_NAME = "<bytes>"  # the name of content given to the Python API without one
_URL_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]+)://")  # two letters at least: not C://


class InputError(Exception):
    """The input cannot be checked at all; the message is one line for stderr."""


def standard_input() -> BinaryIO:
    """Standard input as bytes; InputError when the process was started without it."""
    if sys.stdin is None:
        raise InputError("-: cannot read: standard input is closed")
    handle = getattr(sys.stdin, "buffer", None)
    if handle is None:  # a program put a text stream in its place
        raise InputError(
            "-: cannot read: standard input is a text stream, not bytes (sys.stdin was "
            "replaced); give the content as bytes, e.g. lint(text.encode())"
        )
    return cast("BinaryIO", handle)


def read_standard_input() -> bytes:
    """Standard input's bytes as far as a check reads them (past ``READ_CAP`` of
    content, gzipped or not)."""
    return read_at_most(standard_input(), STDIN_CHECK_BYTES)


def read_at_most(handle: BinaryIO, limit: int, piece_size: int = 1 << 20) -> bytes:
    """At most ``limit`` bytes of ``handle``, read in pieces: one ``read(limit)`` would
    set aside that much memory whatever the input's size."""
    pieces: list[bytes] = []
    left = limit
    while left > 0:
        piece = handle.read(min(left, piece_size))
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)


@dataclass(init=False, repr=False, eq=False)
class Source(Frozen):
    """One input: a file path, standard input (no ``path``; named ``-``, or as
    ``--stdin-filename`` says), or the body fetched from ``url`` (``data``; its transfer
    encoding already undone)."""

    name: str
    path: Path | None
    url: str | None = None
    data: bytes | None = field(default=None, repr=False, compare=False)
    # ``data`` already uncompressed: a ``.gz`` in ``name`` says nothing of them.
    uncompressed: bool = field(default=False, repr=False, compare=False)

    def __init__(
        self,
        name: str,
        path: Path | None,
        url: str | None = None,
        data: bytes | None = None,
        uncompressed: bool = False,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "name", name)
        setattr_(self, "path", path)
        setattr_(self, "url", url)
        setattr_(self, "data", data)
        setattr_(self, "uncompressed", uncompressed)

    @property
    def is_stdin(self) -> bool:
        return self.path is None and self.data is None

    @property
    def is_fetched(self) -> bool:
        return self.url is not None and self.path is None

    @property
    def names_its_bytes(self) -> bool:
        """Whether ``name`` is a file name that should say whether the bytes are gzip:
        a path's, or the one standard input or content was given (``--stdin-filename``,
        ``name=``), which stands for the file they came from; not a URL's."""
        if self.path is not None:
            return True
        return self.url is None and not self.uncompressed and self.name not in (STDIN, BYTES_NAME)


def real_path(path: Path) -> Path:
    """``path`` absolute, with its symbolic links followed; a loop of links is left as it
    is, for reading it to say so (``Path.resolve`` raises RuntimeError on one)."""
    return Path(os.path.realpath(path))


def expand(arguments: list[str], stdin_name: str = STDIN) -> list[Source]:
    """Turn command-line arguments into sources; directories yield their sitemap files.
    A file named twice (``a.xml ./a.xml``, or a file and its directory) is one source,
    named as first given; so is standard input, named ``stdin_name`` (``-``, or the
    name ``--stdin-filename`` gives it)."""
    sources: list[Source] = []
    seen: set[Path | None] = set()  # None: standard input
    for source in _sources(arguments, stdin_name):
        identity = None if source.path is None else real_path(source.path)
        if identity not in seen:
            seen.add(identity)
            sources.append(source)
    return sources


def _sources(arguments: list[str], stdin_name: str) -> Iterator[Source]:
    for argument in arguments:
        if argument == STDIN:
            yield Source(stdin_name, None)
            continue
        if not argument:  # an unset variable: not the working directory, as Path("") is
            raise InputError(empty_path("''", give="a file, directory or URL"))
        path = Path(argument)
        try:
            is_dir = path.is_dir()
            exists = is_dir or path.exists() or path.is_symlink()
        except (OSError, ValueError) as error:  # e.g. a name too long, a NUL byte
            reason = _reason(error) if isinstance(error, OSError) else str(error)
            raise InputError(f"{argument}: cannot read: {reason}") from None
        if is_dir:
            found = sorted(_sitemaps_in(path))
            if not found:
                raise InputError(
                    f"{argument}: directory holds no sitemap files "
                    "(names containing 'sitemap' ending in .xml, .xml.gz or .txt)"
                )
            yield from (Source(str(p), p) for p in found)
        elif exists:
            yield Source(argument, path)
        else:
            raise InputError(f"{argument}: {missing_reason(argument)}")


def missing_reason(argument: str) -> str:
    """Why ``argument``, which names no file, cannot be read."""
    return unfetched_url(argument) or "no such file or directory"


def unfetched_url(argument: str) -> str | None:
    """Why ``argument`` is not read when it is a URL of a scheme other than http(s), such
    as ftp:// or file:// (rather than a missing file); None for any other argument."""
    scheme = _URL_SCHEME.match(argument)
    if scheme is None or is_url(argument):
        return None
    return (
        f"no such file, and {scheme.group(1).lower()} URLs are not fetched: "
        "give a file's path or an http(s) URL"
    )


def _sitemaps_in(directory: Path) -> Iterator[Path]:
    """The sitemap files below ``directory``; InputError when it or a directory below it
    (not a hidden one) cannot be listed: its sitemaps would be left out unsaid; or when
    one is a symbolic link to a file outside it: a directory of untrusted changes must
    not make the run read (and quote) a file elsewhere on the machine."""
    inside = real_path(directory)
    for root, dirs, files in os.walk(directory, onerror=_unlisted):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            lowered = name.lower()
            if "sitemap" in lowered and lowered.endswith(SITEMAP_SUFFIXES):
                found = Path(root) / name
                if found.is_symlink():
                    _refuse_link_out_of(found, inside)
                yield found


def _refuse_link_out_of(link: Path, inside: Path) -> None:
    target = real_path(link)
    if target != inside and inside not in target.parents:
        raise InputError(
            f"{link}: a symbolic link to {target}, outside the directory given; it is not "
            "read: give that file itself to check it"
        )


def _unlisted(error: OSError) -> None:
    raise InputError(f"{error.filename}: cannot read: {_reason(error)}")


class ByteStream:
    """The uncompressed bytes of one source, read in chunks.

    Findings about the container (gzip, size) go to ``report`` (the file's sink).
    ``total`` counts uncompressed bytes; ``stopped_early`` is set when reading
    stopped at the safety cap or at a corrupt gzip stream.
    """

    def __init__(self, source: Source, report: ProblemReport):
        self.source = source
        self.report = report
        self.total = 0
        self.stopped_early = False
        self.is_gzip = False

    def _open(self) -> BinaryIO:
        """Open the source for reading, refusing anything but a regular file.

        The file is opened without blocking and checked after opening (no race
        between a check and the open): opening a FIFO with no writer would
        otherwise wait forever, and a device such as /dev/zero never ends. A
        pipe is read through standard input, '-'.
        """
        if self.source.data is not None:
            return io.BytesIO(self.source.data)
        if self.source.path is None:
            return standard_input()
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        try:
            descriptor = os.open(self.source.path, flags)
        except OSError as error:
            raise InputError(f"{self.source.name}: cannot read: {_reason(error)}") from None
        try:
            mode = os.fstat(descriptor).st_mode
            if stat.S_ISDIR(mode):
                raise InputError(f"{self.source.name}: is a directory")
            if not stat.S_ISREG(mode):
                raise InputError(
                    f"{self.source.name}: not a regular file ({file_kind(mode)}); "
                    "to check a stream, pipe it to standard input and give '-'"
                )
            if flags & getattr(os, "O_NONBLOCK", 0):
                os.set_blocking(descriptor, True)
            return open(descriptor, "rb", closefd=True)
        except InputError:
            os.close(descriptor)
            raise
        except OSError as error:
            os.close(descriptor)
            raise InputError(f"{self.source.name}: cannot read: {_reason(error)}") from None

    def chunks(self) -> Iterator[bytes]:
        handle = self._open()
        # Standard input stays open; it is asked of the source, not of sys.stdin, which
        # is None when the process was started without it (a file is read all the same).
        stdin = self.source.data is None and self.source.path is None
        try:
            yield from self._chunks(handle)
        except OSError as error:
            raise InputError(f"{self.source.name}: cannot read: {_reason(error)}") from None
        finally:
            if not stdin:
                handle.close()

    def _chunks(self, handle: BinaryIO) -> Iterator[bytes]:
        first = handle.read(READ_SIZE)
        named_gz = self.source.name.lower().endswith(".gz")
        self.is_gzip = first.startswith(GZIP_MAGIC)
        robots = names_robots(self.source.name)
        # A URL's name says nothing of gzip, but a robots.txt's body is read as text.
        fetched_robots = self.source.path is None and self.source.url is not None and robots
        if (self.source.names_its_bytes and named_gz != self.is_gzip) or (
            fetched_robots and self.is_gzip
        ):
            detail = "robots.txt" if robots else ""
            self.report.problem(InputProblem(InputKind.GZIP_NAME, detail, gzip=self.is_gzip))
        for magic, kind in OTHER_COMPRESSIONS.items():
            if first.startswith(magic):
                self.report.problem(InputProblem(InputKind.COMPRESSION, kind))
                self.stopped_early = True
                return
        raw = _read_all(handle, first)
        chunks = _gunzip(raw, self) if self.is_gzip else raw
        yield from self._capped(chunks)

    def _capped(self, chunks: Iterator[bytes]) -> Iterator[bytes]:
        capped = False
        for chunk in chunks:
            before = self.total
            self.total += len(chunk)
            if self.total > READ_CAP:
                yield chunk[: READ_CAP - before]
                self.total = READ_CAP
                capped = self.stopped_early = True
                break
            yield chunk
        if self.total > SIZE_LIMIT:
            too_large = InputProblem(
                InputKind.TOO_LARGE, size=self.total, gzip=self.is_gzip, capped=capped
            )
            self.report.problem(too_large)


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, for a message (``st_mode``)."""
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO or pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a file")


def _read_all(handle: BinaryIO, first: bytes) -> Iterator[bytes]:
    chunk = first
    while chunk:
        yield chunk
        chunk = handle.read(READ_SIZE)


def _gunzip(raw: Iterator[bytes], stream: ByteStream) -> Iterator[bytes]:
    """The content of a gzip file for a check: what is readable, and its damage said."""
    try:
        yield from gunzip(raw)
    except GzipDamage as damage:
        stream.report.problem(InputProblem(damage.kind, damage.detail, stream.total))
        stream.stopped_early = not damage.complete


class GzipDamage(Exception):
    """Where a gzip stream stops being readable: ``kind`` (``GZIP_CORRUPT``,
    ``GZIP_TRUNCATED``) and ``detail`` (why, for a corrupt one); ``complete`` when every
    member was read and only data after the last one is wrong."""

    def __init__(self, kind: str, detail: str = "", complete: bool = False) -> None:
        super().__init__(detail or kind)
        self.kind = kind
        self.detail = detail
        self.complete = complete


_AFTER_END = "data after the end of the gzip stream"


def gunzip(raw: Iterable[bytes]) -> Iterator[bytes]:
    """The content of the gzip file whose bytes ``raw`` gives: its members one after
    another (RFC 1952, 2.2), never more than ``READ_SIZE`` bytes at a time, so that a
    reader that stops at its cap stops a bomb there too. NUL bytes after the last member
    are padding. What is readable is given before ``GzipDamage`` is raised; where one
    chunk of ``raw`` ends changes nothing."""
    decompressor = zlib.decompressobj(wbits=31)
    in_member = True
    padding = False  # past the last member, in NUL bytes only
    held = b""  # the start of what follows a member, too short to tell what it is
    for compressed in raw:
        data = held + compressed if held else compressed
        held = b""
        while data:
            if not in_member:
                if not padding and data.startswith(GZIP_MAGIC):
                    decompressor = zlib.decompressobj(wbits=31)
                    in_member = True
                elif not padding and GZIP_MAGIC.startswith(data):
                    held = data
                    break
                elif data.strip(b"\x00"):
                    raise GzipDamage(InputKind.GZIP_CORRUPT, _AFTER_END, complete=True)
                else:
                    padding = True
                    break
            before = decompressor.copy()
            try:
                out = decompressor.decompress(data, READ_SIZE)
            except zlib.error as error:
                # zlib drops the whole call's output on an error: redo it in small
                # steps from the saved state to keep what was readable.
                yield from _salvage(before, data)
                raise GzipDamage(InputKind.GZIP_CORRUPT, str(error)) from None
            if out:
                yield out
            if decompressor.eof:
                in_member = False
                data = decompressor.unused_data
            else:
                data = decompressor.unconsumed_tail
    if held:
        raise GzipDamage(InputKind.GZIP_CORRUPT, _AFTER_END, complete=True)
    if in_member:
        raise GzipDamage(InputKind.GZIP_TRUNCATED)


def _salvage(decompressor: zlib._Decompress, data: bytes) -> Iterator[bytes]:
    """The output a damaged gzip stream gives before the damage, byte by byte."""
    for index in range(len(data)):
        try:
            out = decompressor.decompress(data[index : index + 1])
        except zlib.error:
            return
        if out:
            yield out
