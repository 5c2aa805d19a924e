"""Words for messages."""

from __future__ import annotations

from collections.abc import Sequence


def joined(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (nothing for none)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
