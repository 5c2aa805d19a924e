"""Where a character of a text stands, from where an earlier one stands: the places the
fast path gives the elements it proves (``fastpath``, one entry at a time, and
``fastpath.bulk``, a window at a time)."""

from __future__ import annotations


def text_place(text: str, start: int, line: int, column: int, at: int) -> tuple[int, int]:
    """The line and column of ``text[at]``, ``text[start]`` (at or before it) standing
    at ``line`` and ``column``."""
    breaks = text.count("\n", start, at)
    if breaks:
        return line + breaks, at - text.rfind("\n", start, at)
    return line, column + at - start
