"""The unified diff of a fix, as ``--diff`` prints it."""

from __future__ import annotations

import difflib


def unified(name: str, before: str, after: str) -> str:
    """A unified diff between the decoded texts, both sides named ``name`` (as ruff does)."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=name,
        tofile=name,
    )
    out = []
    for line in lines:
        out.append(
            line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
        )
    return "".join(out)
