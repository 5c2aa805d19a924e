"""A report's reader that goes away (``sitemap-lint ... | head``): not a failure; a
full device under the report: one line.

A command writing its report to a pipe whose reader has what it wanted ends with the
status its run has, quietly: what is still buffered goes to the null device, and rich
consoles let the BrokenPipeError through instead of exiting 1 on it. Standard output on
a full device or quota (``> /dev/full``) is exit 2 with "cannot write the output".
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

from sitemap_lint.errors import UsageError

if TYPE_CHECKING:
    from rich.console import Console


# A device or quota that is full, or a file over its size limit.
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


@contextmanager
def writing_to(stream: TextIO) -> Iterator[None]:
    """Write a report to ``stream`` (then flushed): a reader gone is not a failure
    (``discard_the_rest``), a full device is a UsageError."""
    try:
        yield
        stream.flush()
    except BrokenPipeError:
        discard_the_rest(stream)
    except OSError as error:
        if error.errno not in _FULL:
            raise
        discard_the_rest(stream)  # nor is what is still buffered written at exit
        raise UsageError(f"cannot write the output: {error.strerror or error}") from None


def discard_the_rest(stream: TextIO) -> None:
    """``stream``'s reader is gone: what is still buffered goes to the null device, so
    that flushing it at exit fails neither the run nor its status."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError):  # not a file (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def pipe_console(**options: Any) -> Console:
    """A rich console (``options`` as ``Console`` takes them) that raises BrokenPipeError
    when its reader is gone, where rich's own would exit 1."""
    from rich.console import Console

    class _PipeConsole(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError(errno.EPIPE, "the report's reader closed the pipe")

    return _PipeConsole(**options)


def write_bytes(out: TextIO, data: bytes) -> None:
    """``data`` (a diff of a file's bytes in its encoding, a fixed standard input) to
    ``out`` as it is, after what was written there as text."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        out.write(data.decode("utf-8", "replace"))
        return
    out.flush()
    buffer.write(data)
    buffer.flush()
