"""Words for messages."""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, word: str) -> str:
    """``1 finding``, ``1,234 findings``."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def joined(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (nothing for none)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def elided(text: str, limit: int) -> str:
    """``text``, or its start and its end around "..." when it is longer than ``limit``
    characters: the start says where a URL points, the end tells apart the URLs that
    share it (``.../photo-2.jpg``, ``.../photo-3.jpg``)."""
    if len(text) <= limit:
        return text
    tail = (limit - 3) // 3
    return f"{text[: limit - 3 - tail]}...{text[-tail:]}"
