"""A report's reader that goes away (``sitemap-lint ... | head``): not a failure.

A command writing its report to a pipe whose reader has what it wanted ends with the
status its run has, quietly: what is still buffered goes to the null device, and rich
consoles let the BrokenPipeError through instead of exiting 1 on it.
"""

from __future__ import annotations

import errno
import os
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rich.console import Console


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
