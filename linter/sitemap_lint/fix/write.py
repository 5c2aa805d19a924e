"""Writing a fixed file without ever losing the original.

The new bytes go to a temporary file in the same directory, are flushed to disk
(fsync), get the original's permission bits, its extended attributes (ACLs are
``system.posix_acl_access`` on Linux) and its owner and group, each where this process
may give them, and then replace the original in one rename
(``os.replace``). Whatever happens before the rename, the original is whole; after
it, the new file is. Several files are replaced together by staging each
(``stage``) before renaming any. A fixed file is replaced only when it still holds
what was read and has no other hard links (``replace_fixed``). A symbolic link is followed: the file it points
at is replaced and the link stays a link. Only a regular file is replaced so: a
FIFO, a device or a socket is refused and left as it is.

A report (``--output-file``, ``--write-baseline``) may go to a stream instead:
``write_output`` writes into an existing FIFO or terminal in place, and to
``/dev/stdout``, ``/dev/stderr`` or ``/dev/fd/N`` through that descriptor, at its
offset and with its flags (a shell's ``>>`` appends), as a shell's redirection would.
"""

from __future__ import annotations

import contextlib
import os
import select
import stat
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from sitemap_lint.inputs.reader import file_kind


class WriteError(Exception):
    """The fixed file could not be written; the message is one line, the original is intact."""


# What a report writes: its bytes, or what writes them into a binary file as they are
# made (not held whole in memory).
Content = bytes | Callable[[BinaryIO], object]


def write_atomic(path: Path, data: Content, create: bool = False) -> None:
    """Replace the file at ``path`` (after following links) by ``data``, atomically;
    with ``create``, a file that does not exist yet is made (mode 0666 less the umask)."""
    stage(path, data, create).commit()


def replace_fixed(path: Path, data: bytes, original: bytes) -> None:
    """Replace the file at ``path`` by its fixed bytes ``data``, atomically, unless that
    would lose something: a file with other hard links (they would keep the old text)
    or one that no longer holds ``original``, the bytes the fixes were made from (it
    was changed meanwhile) is left as it is."""
    try:
        links = os.stat(path).st_nlink
    except OSError:
        links = 1  # said by ``stage``
    if links > 1:
        raise WriteError(
            f"{path}: cannot write: it has {links} hard links, and replacing it would leave "
            "the others with the old text; it was left unchanged (fix a copy of it)"
        )
    staged = stage(path, data)
    try:
        if not _holds(staged.target, original):
            raise WriteError(
                f"{path}: cannot write: it changed while it was being fixed; it was left "
                "as it is now (run the fix again)"
            )
        staged.commit()
    except BaseException:
        staged.discard()
        raise


def _holds(target: Path, data: bytes) -> bool:
    """Whether the file at ``target`` holds exactly ``data``."""
    try:
        with open(target, "rb") as handle:
            if os.fstat(handle.fileno()).st_size != len(data):
                return False
            return handle.read(len(data) + 1) == data
    except OSError:
        return False


@dataclass
class Staged:
    """New bytes written in full beside the file they will replace (``stage``), until
    ``commit`` renames them over it or ``discard`` removes them."""

    path: Path  # as given, for messages
    target: Path  # the file replaced (links followed)
    temporary: str
    existed: bool

    def commit(self) -> None:
        try:
            os.replace(self.temporary, self.target)
        except BaseException as error:
            self.discard()
            if isinstance(error, OSError):
                kept = "; it was left unchanged" if self.existed else ""
                raise WriteError(
                    f"{self.path}: cannot write: {error.strerror or error}{kept}"
                ) from None
            raise
        _sync_directory(self.target.parent)

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.temporary)


def stage(path: Path, data: Content, create: bool = False) -> Staged:
    """Write ``data`` (or what writes it) to a temporary file beside the file at ``path``
    (after following links), flushed to disk, with the file's permission bits and, where
    allowed, its owner and group and its extended attributes (its ACL on Linux); with
    ``create``, for a file that does not exist yet (mode 0666 less the umask). Nothing
    is replaced yet."""
    target = Path(os.path.realpath(path))
    found: os.stat_result | None = None
    try:
        found = os.stat(target)
    except FileNotFoundError:
        if not create:
            raise WriteError(f"{path}: cannot write: it no longer exists") from None
        mode = 0o666 & ~_umask()
    except OSError as error:
        raise WriteError(f"{path}: cannot write: {error.strerror or error}") from None
    else:
        mode = stat.S_IMODE(found.st_mode)
        if not (stat.S_ISREG(found.st_mode) or stat.S_ISDIR(found.st_mode)):
            # a directory fails at the rename
            raise WriteError(
                f"{path}: cannot write: it is not a regular file ({file_kind(found.st_mode)}); "
                "it was left unchanged"
            )
        # A file nobody may write (mode 0444) is left alone even for root, who could.
        if not os.access(target, os.W_OK) or not mode & 0o222:
            raise WriteError(f"{path}: cannot write: the file is read-only; it was left unchanged")
    directory = target.parent
    try:
        descriptor, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".fix", dir=directory
        )
    except OSError as error:
        if not directory.is_dir():
            raise WriteError(f"{path}: cannot write: its directory does not exist") from None
        kept = "; it was left unchanged" if found is not None else ""
        raise WriteError(
            f"{path}: cannot write a temporary file beside it: {error.strerror or error}{kept}"
        ) from None
    staged = Staged(path, target, temporary, found is not None)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                data(handle)
            handle.flush()
            os.fsync(handle.fileno())
        if found is not None:
            _own_as(temporary, found)
        os.chmod(temporary, mode)
        if found is not None:
            _copy_attributes(target, temporary)
    except BaseException as error:
        staged.discard()
        if isinstance(error, OSError):
            kept = "; it was left unchanged" if found is not None else ""
            raise WriteError(f"{path}: cannot write: {error.strerror or error}{kept}") from None
        raise
    return staged


def _own_as(temporary: str, found: os.stat_result) -> None:
    """Give ``temporary`` the owner and group of the file it replaces, as far as this
    process may (root may; others may keep the group when they belong to it)."""
    here = os.stat(temporary)
    if (here.st_uid, here.st_gid) == (found.st_uid, found.st_gid):
        return
    for uid in (found.st_uid, -1):
        try:
            os.chown(temporary, uid, found.st_gid)
        except OSError:
            continue
        return


def _copy_attributes(original: Path, temporary: str) -> None:
    """Give ``temporary`` the extended attributes of ``original`` (and none it lacks,
    such as an ACL inherited from the directory), as far as the platform has them and
    this process may set them (a ``security.`` or ``trusted.`` one may need privileges;
    a file system without them has none to keep). After the mode: an ACL sets the
    group bits of the mode as its mask, which the original's mode already agrees with."""
    if not hasattr(os, "listxattr"):
        return
    try:
        wanted = {name: os.getxattr(original, name) for name in os.listxattr(original)}
        present = os.listxattr(temporary)
    except OSError:
        return
    for name in present:
        if name not in wanted:
            with contextlib.suppress(OSError):
                os.removexattr(temporary, name)
    for name, value in wanted.items():
        with contextlib.suppress(OSError):
            os.setxattr(temporary, name, value)


# The names of an open descriptor of this process: a report written there goes through it.
_STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_DESCRIPTOR_DIRECTORIES = ("/dev/fd", "/proc/self/fd")


def write_output(path: Path, data: Content) -> None:
    """Write a report to ``path``: through the descriptor a name such as ``/dev/stdout``
    or ``/dev/fd/N`` stands for; into an existing FIFO or character device (a
    terminal) in place, waiting for a FIFO's reader as a shell would; to a regular
    file or a new one atomically (``write_atomic``). A block device or a socket is
    refused."""
    descriptor = _descriptor(path)
    if descriptor is not None:
        _write_to_descriptor(path, descriptor, _whole(data))
        return
    try:
        found = os.stat(path).st_mode
    except FileNotFoundError:
        found = None
    except OSError as error:
        raise WriteError(f"{path}: cannot write: {error.strerror or error}") from None
    if found is None or stat.S_ISREG(found) or stat.S_ISDIR(found):
        write_atomic(path, data, create=True)
    elif stat.S_ISFIFO(found) or stat.S_ISCHR(found):
        _write_in_place(path, _whole(data))
    else:
        raise WriteError(
            f"{path}: cannot write: it is {file_kind(found)}; name a file, a FIFO or a terminal"
        )


def _whole(data: Content) -> bytes:
    """``data``'s bytes, made whole (for a FIFO, a terminal or a descriptor)."""
    if isinstance(data, bytes):
        return data
    import io

    buffer = io.BytesIO()
    data(buffer)
    return buffer.getvalue()


def _descriptor(path: Path) -> int | None:
    """The descriptor ``path`` names (``/dev/stdout``, ``/dev/fd/3``, ``/proc/self/fd/3``),
    or None."""
    name = os.path.normpath(os.path.abspath(path))
    if name in _STANDARD:
        return _STANDARD[name]
    directory, _, number = name.rpartition("/")
    own = f"/proc/{os.getpid()}/fd"
    if directory in (*_DESCRIPTOR_DIRECTORIES, own) and number.isascii() and number.isdigit():
        return int(number)
    return None


def _write_to_descriptor(path: Path, descriptor: int, data: bytes) -> None:
    """Write ``data`` through a copy of ``descriptor``, after what this process has
    written to standard output and standard error."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    try:
        copy = os.dup(descriptor)
    except OSError as error:
        raise WriteError(f"{path}: cannot write: {error.strerror or error}") from None
    try:
        _write_all(path, copy, data)
    finally:
        os.close(copy)


def _write_in_place(path: Path, data: bytes) -> None:
    """Write ``data`` into the FIFO or device at ``path``: opened as it is (never
    created, never truncated) and checked after opening, so that a regular file put
    there meanwhile is still replaced atomically."""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise WriteError(f"{path}: cannot write: {error.strerror or error}") from None
    try:
        regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
        if not regular:
            _write_all(path, descriptor, data)
    finally:
        os.close(descriptor)
    if regular:
        write_atomic(path, data, create=True)


def _write_all(path: Path, descriptor: int, data: bytes) -> None:
    """Every byte of ``data`` to ``descriptor``; a reader that has gone (``| head``)
    had what it wanted: the rest is dropped, as for a report on standard output."""
    view = memoryview(data)
    try:
        while view:
            try:
                view = view[os.write(descriptor, view) :]
            except BlockingIOError:  # a descriptor left non-blocking: wait until it takes more
                select.select([], [descriptor], [])
    except BrokenPipeError:
        return
    except OSError as error:
        raise WriteError(f"{path}: cannot write: {error.strerror or error}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable where the system allows it."""
    with contextlib.suppress(OSError, AttributeError):
        descriptor = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
