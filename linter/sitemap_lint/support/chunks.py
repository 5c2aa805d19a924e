"""Text made of many small pieces, handed on in blocks of about a given size."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def joined_blocks(pieces: Iterable[str], size: int) -> Iterator[str]:
    """``pieces`` joined into blocks of at least ``size`` characters (the last may be
    shorter; none is empty), in order."""
    pending: list[str] = []
    length = 0
    for piece in pieces:
        pending.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(pending)
            pending.clear()
            length = 0
    if pending:
        yield "".join(pending)
