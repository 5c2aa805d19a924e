"""The unified diff of a fix, as ``--diff`` prints it."""

from __future__ import annotations

import difflib
import os

from sitemap_lint.support.printable import printable


def unified(name: str, before: str, after: str) -> str:
    """A unified diff between the decoded texts, both sides named ``name`` (as ruff does;
    a name a terminal could not show as it is in quotes, as git writes it)."""
    shown = quoted_name(name)
    lines = difflib.unified_diff(_lines(before), _lines(after), fromfile=shown, tofile=shown)
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _lines(text: str) -> list[str]:
    """The lines of ``text`` as ``patch`` reads them: each up to and with its LF (a CR
    LF ends with its CR; a CR alone, a NEL or U+2028 ends no line)."""
    lines = text.split("\n")
    last = lines.pop()
    return [f"{line}\n" for line in lines] + ([last] if last else [])


def quoted_name(name: str) -> str:
    """``name`` as a diff's header writes it: as it is, or in double quotes with C escapes
    (octal for the bytes of a control or format character, or a byte that is no UTF-8)
    when it holds such a character, a quote or a backslash, as git and patch read it."""
    if printable(name) == name and '"' not in name and "\\" not in name:
        return name
    out = []
    for char in name:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif char in _C_ESCAPES:
            out.append(_C_ESCAPES[char])
        elif printable(char) != char:
            out.append("".join(f"\\{byte:03o}" for byte in os.fsencode(char)))
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


_C_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
