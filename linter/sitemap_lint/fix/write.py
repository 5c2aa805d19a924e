"""Writing a fixed file without ever losing the original.

The new bytes go to a temporary file in the same directory, are flushed to disk
(fsync), get the original's permission bits, and then replace the original in one
rename (``os.replace``). Whatever happens before the rename, the original is
whole; after it, the new file is. A symbolic link is followed: the file it points
at is replaced and the link stays a link.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


class WriteError(Exception):
    """The fixed file could not be written; the message is one line, the original is intact."""


def write_atomic(path: Path, data: bytes, create: bool = False) -> None:
    """Replace the file at ``path`` (after following links) by ``data``, atomically;
    with ``create``, a file that does not exist yet is made (mode 0666 less the umask)."""
    target = Path(os.path.realpath(path))
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        if not create:
            raise WriteError(f"{path}: cannot write: it no longer exists") from None
        mode = 0o666 & ~_umask()
    except OSError as error:
        raise WriteError(f"{path}: cannot write: {error.strerror or error}") from None
    else:
        # A file nobody may write (mode 0444) is left alone even for root, who could.
        if not os.access(target, os.W_OK) or not mode & 0o222:
            raise WriteError(f"{path}: cannot write: the file is read-only; it was left unchanged")
    directory = target.parent
    try:
        descriptor, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".fix", dir=directory
        )
    except OSError as error:
        raise WriteError(
            f"{path}: cannot write a temporary file beside it: {error.strerror or error}; "
            "it was left unchanged"
        ) from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise WriteError(
                f"{path}: cannot write: {error.strerror or error}; it was left unchanged"
            ) from None
        raise
    _sync_directory(directory)


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
