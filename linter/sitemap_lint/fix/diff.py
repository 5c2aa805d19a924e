"""The unified diff of a fix, as ``--diff`` prints it.

A file in UTF-8 gets a diff of its text; a file in another encoding that writes a line
end as the byte LF (ISO-8859-1, windows-1252, Shift_JIS...) a diff of its bytes, in
that encoding, so that ``patch`` and ``git apply`` give the bytes ``--fix`` writes; a
file in UTF-16 or UTF-32, whose lines are no lines of bytes, gets none (``unshown``).
"""

from __future__ import annotations

import codecs
import difflib
import os
from typing import TYPE_CHECKING

from sitemap_lint.support.printable import printable

if TYPE_CHECKING:
    from sitemap_lint.fix.engine import FileFix


def of_fix(done: FileFix) -> str | bytes | None:
    """What ``--diff`` prints for ``done``, a file whose fix changes it: a diff of its
    text (UTF-8), of its bytes (another encoding whose line end is the byte LF), or
    None when no diff would apply (UTF-16, UTF-32: ``unshown`` says so). What the diff
    does not show of the bytes follows its hunks in parentheses."""
    if _wide(done.codec) or _wide(done.written_codec):
        return None
    in_bytes = "; ".join(done.in_bytes) or "the bytes changed"
    name = header_name(done.name)
    if _utf8(done.codec) and _utf8(done.written_codec):
        text = unified(done.name, done.before, done.after)
        if not text:  # only the bytes changed: the byte order mark, gzip's
            return f"--- {name}\n+++ {name}\n(the same text; {in_bytes})\n"
        return text + (f"(and {in_bytes})\n" if done.in_bytes else "")
    data = unified_bytes(
        done.name, done.before.encode(done.codec), done.after.encode(done.written_codec)
    )
    if not data:
        return f"--- {name}\n+++ {name}\n(the same bytes; {in_bytes})\n"
    return data + (f"(and {in_bytes})\n".encode() if done.in_bytes else b"")


def unshown(done: FileFix) -> str:
    """The line that says why ``of_fix`` shows no diff of ``done``."""
    codec = done.codec if _wide(done.codec) else done.written_codec
    family = "UTF-32" if codecs.lookup(codec).name.startswith("utf-32") else "UTF-16"
    return (
        f"{done.name}: no diff shown: the file is in {family}, and a diff of its bytes "
        "would not apply with patch or git apply; --fix would change it (fix a copy to see how)"
    )


def _utf8(codec: str) -> bool:
    return codecs.lookup(codec).name == "utf-8"


def _wide(codec: str) -> bool:
    return codecs.lookup(codec).name.startswith(("utf-16", "utf-32"))


def unified(name: str, before: str, after: str) -> str:
    """A unified diff between the decoded texts, both sides named ``name`` (as ruff does;
    a name a terminal could not show as it is in quotes, as git writes it)."""
    shown = header_name(name)
    lines = difflib.unified_diff(_lines(before), _lines(after), fromfile=shown, tofile=shown)
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def unified_bytes(name: str, before: bytes, after: bytes) -> bytes:
    """A unified diff between the bytes of a file before and after, both sides named
    ``name`` (as ``unified``); the lines end at the byte LF, as ``patch`` reads them."""
    shown = header_name(name).encode("utf-8", "surrogateescape")
    lines = difflib.diff_bytes(
        difflib.unified_diff, _byte_lines(before), _byte_lines(after), shown, shown
    )
    out = []
    for line in lines:
        out.append(line if line.endswith(b"\n") else line + b"\n\\ No newline at end of file\n")
    return b"".join(out)


def _byte_lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    last = lines.pop()
    return [line + b"\n" for line in lines] + ([last] if last else [])


def _lines(text: str) -> list[str]:
    """The lines of ``text`` as ``patch`` reads them: each up to and with its LF (a CR
    LF ends with its CR; a CR alone, a NEL or U+2028 ends no line)."""
    lines = text.split("\n")
    last = lines.pop()
    return [f"{line}\n" for line in lines] + ([last] if last else [])


def header_name(name: str) -> str:
    """``name`` as the ``---`` and ``+++`` lines write it: ``quoted_name``, followed by a
    tab when it holds a space, as git writes it (``patch`` reads a name up to its first
    blank unless a tab ends it)."""
    return quoted_name(name) + ("\t" if " " in name else "")


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
