"""From the positions in edits to offsets in the decoded text.

Lines are counted as XML counts them (CR LF, CR and LF each end a line) and columns
are 1-based characters, as the checks report them. ``resolve`` turns an ``Edit`` into
the replacements it means, or None when the text does not hold what the edit
expects (then the edit is not applied: the file is never changed on a guess).
"""

from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass
from itertools import accumulate, islice, repeat
from operator import add

from sitemap_lint.fix.model import Edit, escape_attribute, escape_text, holds_reference
from sitemap_lint.model import RAW_LT

_BREAK = re.compile(r"\r\n|\r|\n")
# Comments, CDATA sections, processing instructions and the DOCTYPE: text that is
# not markup or character data of elements, where nothing is changed.
_OPAQUE = re.compile(
    r"<!--.*?(?:-->|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)|<\?.*?(?:\?>|\Z)|<!DOCTYPE[^>]*>", re.S
)
# The rest of a start tag, up to its ">"; a "<" outside its values ends it unclosed.
_TAG_END = re.compile(r"""(?:[^<>"']|"[^"]*"|'[^']*')*>""")
_NAME = re.compile(r"<([A-Za-z_][\w.:-]*)")
_TRAILING_BLANKS = re.compile(r"[ \t]*")
# An entry holding its loc alone (comments and white space aside).
_LOC_ALONE = re.compile(
    r"\s*(?:(?><!--.*?-->)\s*)*<([A-Za-z_][\w.-]*:)?loc>[^<]*</\1?loc>\s*(?:(?><!--.*?-->)\s*)*",
    re.DOTALL,
)
_BETWEEN_TAGS = re.compile(r">\s+<")
_DECLARATION = re.compile(r"""<\?xml[^>]*?\?>""")
_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
_ENCODING = re.compile(r"""(\sencoding\s*=\s*)(["'])([^"']*)\2""")
# One attribute of a start tag, from the blank before it: its name and quoted value.
_ATTRIBUTE = re.compile(r"""\s+([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


@dataclass(frozen=True, slots=True)
class Replacement:
    """``text[start:end]`` becomes ``content``."""

    start: int
    end: int
    content: str


# Lines are found through the count of line breaks before each block of this many
# characters (then a search within the block, of a hundred lines or so); past
# _SPARSE_LOOKUPS look-ups, as costly as listing every line's start, that is done.
_BLOCK = 1 << 12
_SPARSE_LOOKUPS = 4096
# The characters of the text split into lines at a time, for their starts.
_SPLIT = 1 << 20


class Text:
    """The decoded text of one file with its line starts.

    One class, longer than most: each kind of edit (a value, an attribute, an element,
    a declaration, the byte order mark) is placed in the same text through the same
    line starts and comments and CDATA sections it keeps; split, each part would need
    them again."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: array[int] | None = None
        # Line breaks before each block (the last: all of them), for a text without CR.
        self._counts: list[int] | None = None
        self._lookups = 0
        self._opaque: list[tuple[int, int]] | None = None

    @property
    def starts(self) -> array[int]:
        """Where each line starts (machine integers: a text of a million lines holds
        8 MB for them, not 40)."""
        if self._starts is None:
            text = self.text
            if "\r" in text:
                self._starts = array("q", [0])
                self._starts.extend(m.end() for m in _BREAK.finditer(text))
            else:  # the same, several times faster, a piece of the text at a time
                starts = self._starts = array("q", [0])
                for piece in range(0, len(text), _SPLIT):
                    lines = text[piece : piece + _SPLIT].split("\n")
                    lines.pop()  # after the piece's last line break
                    ends = accumulate(map(add, map(len, lines), repeat(1)), initial=piece)
                    starts.extend(islice(ends, 1, None))
        return self._starts

    def _sparse(self) -> list[int] | None:
        """The counts of line breaks before each block, while look-ups are few in a text
        without CR; None once every line's start is listed (``starts``)."""
        if self._starts is not None:
            return None
        self._lookups += 1
        if self._lookups > _SPARSE_LOOKUPS:
            return None
        counts = self._counts
        if counts is None:
            text = self.text
            if "\r" in text:
                self._lookups = _SPARSE_LOOKUPS  # every line's start is listed from now on
                return None
            starts = range(0, len(text), _BLOCK)
            counts = self._counts = list(
                accumulate(
                    map(text.count, repeat("\n"), starts, map(add, starts, repeat(_BLOCK))),
                    initial=0,
                )
            )
        return counts

    def _line_start(self, index: int, counts: list[int]) -> int:
        """Where the line ``index`` (0-based, at most the count of line breaks) starts."""
        if index == 0:
            return 0
        # The line starts after the index-th line break, which is in block ``block``.
        block = bisect.bisect_left(counts, index) - 1
        find = self.text.find
        at = block * _BLOCK - 1
        for _ in range(index - counts[block]):
            at = find("\n", at + 1)
        return at + 1

    def offset(self, line: int, column: int, exact: bool = False) -> int | None:
        """The offset of a 1-based line and column; None when outside the text. The
        column may name the start of the next line, unless ``exact`` (then ``position``
        gives the same line and column back)."""
        counts = self._sparse()
        if counts is not None:
            lines = counts[-1] + 1
            if line < 1 or line > lines or column < 1:
                return None
            end = self._line_start(line, counts) - exact if line < lines else len(self.text)
            at = self._line_start(line - 1, counts) + column - 1
            return at if at <= end else None
        starts = self.starts
        if line < 1 or line > len(starts) or column < 1:
            return None
        end = starts[line] - exact if line < len(starts) else len(self.text)
        at = starts[line - 1] + column - 1
        return at if at <= end else None

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of an offset."""
        counts = self._sparse()
        if counts is not None:
            text = self.text
            block = offset // _BLOCK
            if block >= len(counts) - 1:  # at the end of the text
                block = len(counts) - 1
            index = counts[block] + text.count("\n", block * _BLOCK, offset)
            return index + 1, offset - self._line_start(index, counts) + 1
        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index] + 1

    def opaque(self) -> list[tuple[int, int]]:
        """The spans of comments, CDATA sections, processing instructions, DOCTYPE."""
        if self._opaque is None:
            self._opaque = [m.span() for m in _OPAQUE.finditer(self.text)]
        return self._opaque

    def in_opaque(self, offset: int) -> bool:
        spans = self.opaque()
        index = bisect.bisect_right(spans, (offset, len(self.text) + 1)) - 1
        return index >= 0 and spans[index][0] <= offset < spans[index][1]

    def fits(self, edit: Edit) -> bool:
        """Whether ``edit`` is already exact here: a span of text it names (``old``),
        whose positions are those the text gives its offsets."""
        if edit.target != "span" or not edit.old:
            return False
        start = self.offset(edit.line, edit.column, exact=True)
        end = self.offset(edit.end_line, edit.end_column, exact=True)
        return start is not None and end is not None and self.text[start:end] == edit.old

    def resolve(self, edit: Edit) -> list[Replacement] | None:
        """The replacements ``edit`` means here, or None when it does not fit the text."""
        method = getattr(self, f"_{edit.target}", None)
        return None if method is None else method(edit)

    # -- the targets --------------------------------------------------------------------

    def _span(self, edit: Edit) -> list[Replacement] | None:
        start = self.offset(edit.line, edit.column)
        end = self.offset(edit.end_line, edit.end_column)
        if start is None or end is None or end < start:
            return None
        if edit.old and self.text[start:end] != edit.old:
            return None
        return [Replacement(start, end, edit.content)]

    def _start_tag(self, edit: Edit) -> tuple[int, int, str] | None:
        """Start, end (after ``>``) and name of the start tag at the edit's position."""
        at = self.offset(edit.line, edit.column)
        if at is None or not self.text.startswith("<", at):
            return None
        name = _NAME.match(self.text, at)
        tag = _TAG_END.match(self.text, at + 1)
        if name is None or tag is None:
            return None
        return at, tag.end(), name.group(1)

    def _text(self, edit: Edit) -> list[Replacement] | None:
        tag = self._start_tag(edit)
        if tag is None or self.text[tag[1] - 2] == "/":
            return None
        start = tag[1]
        end = self.text.find("<", start)
        while end >= 0 and _RAW_LT.match(self.text, end):
            end = self.text.find("<", end + 1)  # a raw "<", read as the reader reads it
        if end < 0 or not self.text.startswith(f"</{tag[2]}", end):
            return None  # a comment, CDATA or child inside: not a plain value
        raw = self.text[start:end]
        if _decoded(raw) != edit.old or holds_reference(raw):
            return None  # not the value the check saw, or one it could not read
        return [Replacement(start, end, escape_text(edit.content))]

    def _href(self, edit: Edit) -> list[Replacement] | None:
        tag = self._start_tag(edit)
        if tag is None:
            return None
        start, end, name = tag
        value = _attribute(self.text, start + 1 + len(name), end, "href")
        if value is None:
            return None
        value_start, value_end = value
        raw = self.text[value_start:value_end]
        if _attribute_decoded(raw).strip() != edit.old or holds_reference(raw):
            return None  # not the value the check saw, or one it could not read
        quote = self.text[value_start - 1]
        return [Replacement(value_start, value_end, escape_attribute(edit.content, quote))]

    def _element(self, edit: Edit) -> list[Replacement] | None:
        tag = self._start_tag(edit)
        if tag is None:
            return None
        start, end, name = tag
        inside = ""
        if self.text[end - 2] != "/":  # not <url/>: up to the end tag
            close = re.compile(rf"</{re.escape(name)}\s*>")
            found = next(
                (m for m in close.finditer(self.text, end) if not self.in_opaque(m.start())),
                None,
            )
            nested = self.text.find(f"<{name}", end)
            if found is None or 0 <= nested < found.start():
                return None
            inside = self.text[end : found.start()]
            end = found.end()
        kept = (edit.end_line, edit.end_column)
        if edit.end_line and not self._holds_no_more(inside, kept, name):
            return None  # removing it would lose what only it says
        # The indentation before it and the line break after it go too, when the
        # element stands alone on its lines. Only the blanks before it are looked at: on
        # a long line (a minified file) a search for its start would read the whole line
        # before each element.
        line_start = start
        while line_start and self.text[line_start - 1] in " \t":
            line_start -= 1
        if line_start == 0 or self.text[line_start - 1] in "\r\n":
            after = _BREAK.match(self.text, _TRAILING_BLANKS.match(self.text, end).end())  # type: ignore[union-attr]
            if after is not None:
                start, end = line_start, after.end()
        return [Replacement(start, end, "")]

    def _holds_no_more(self, inside: str, first: tuple[int, int], name: str) -> bool:
        """Whether an entry whose content is ``inside`` says nothing that the entry
        holding the element at ``first`` (line, column: its ``loc``) does not: it holds
        its ``loc`` alone, or the same content as that entry (white space between
        elements aside)."""
        if _LOC_ALONE.fullmatch(inside):
            return True
        at = self.offset(*first)
        if at is None:
            return False
        begin = self._last_start_tag(name, max(at - 4096, 0), at)
        if begin < 0:
            return False
        tag_end = self.text.find(">", begin) + 1
        close = self.text.find(f"</{name}", tag_end)
        if close < at:
            return False
        return _BETWEEN_TAGS.sub("><", inside).strip() == (
            _BETWEEN_TAGS.sub("><", self.text[tag_end:close]).strip()
        )

    def _last_start_tag(self, name: str, low: int, high: int) -> int:
        """Where the last ``<name`` followed by white space or ">" stands in
        ``text[low:high]`` (the whole of it), or -1."""
        text, opener = self.text, f"<{name}"
        end = high - 1  # the character after the name stands before ``high`` too
        while True:
            found = text.rfind(opener, low, end)
            if found < 0:
                return -1
            following = text[found + len(opener)]
            if following == ">" or following.isspace():
                return found
            end = found + len(opener) - 1

    def _xmlns(self, edit: Edit) -> list[Replacement] | None:
        pattern = re.compile(
            r"""(\sxmlns(?::[A-Za-z_][\w.-]*)?\s*=\s*)(["'])""" + re.escape(edit.old) + r"\2"
        )
        found = [
            Replacement(m.start(2) + 1, m.end() - 1, edit.content)
            for m in pattern.finditer(self.text)
            if not self.in_opaque(m.start())
        ]
        return found or None

    def _declare(self, edit: Edit) -> list[Replacement] | None:
        at = self.text.find("<")
        while at >= 0 and (self.in_opaque(at) or not _NAME.match(self.text, at)):
            at = self.text.find("<", at + 1)
        name = _NAME.match(self.text, at) if at >= 0 else None
        tag = _TAG_END.match(self.text, at + 1) if name is not None else None
        if name is None or tag is None:
            return None
        declared = re.search(rf"\sxmlns:{re.escape(edit.old)}\s*=", self.text[at : tag.end()])
        if declared is not None:
            return None
        close = tag.end() - (2 if self.text[tag.end() - 2] == "/" else 1)
        after = len(self.text[:close].rstrip())
        # Written one attribute a line: the declaration on a line of its own, indented
        # as the last attribute.
        text = self.text
        line_start = max(text.rfind("\n", at, after), text.rfind("\r", at, after)) + 1
        if not line_start:
            return [Replacement(after, after, " " + edit.content)]
        line_break = "\r\n" if text.startswith("\r\n", line_start - 2) else text[line_start - 1]
        indent = _TRAILING_BLANKS.match(text, line_start)
        assert indent is not None  # it matches the empty text too
        return [Replacement(after, after, line_break + indent.group() + edit.content)]

    def _prefix(self, edit: Edit) -> list[Replacement] | None:
        """What stands before the declaration removed, but for the suppression
        directives there, which apply: they go after it, each on a line."""
        from sitemap_lint.rules.suppression import directive_parts

        text = self.text
        at = text.find("<?xml")
        if at <= 0:
            return None
        removed = Replacement(0, at, "")
        declaration = _DECLARATION.match(text, at)
        directives = [
            match.group()
            for match in _COMMENT.finditer(text, 0, at)
            if directive_parts(match.group(1)) is not None
        ]
        if declaration is None or not directives:
            return [removed]
        line_break = _BREAK.search(text, at)
        moved = "".join(f"{line_break.group() if line_break else chr(10)}{d}" for d in directives)
        return [removed, Replacement(declaration.end(), declaration.end(), moved)]

    def _bom(self, edit: Edit) -> list[Replacement] | None:
        return []  # the writer leaves the byte order mark out (the text never holds it)

    def _encoding(self, edit: Edit) -> list[Replacement] | None:
        declaration = _DECLARATION.match(self.text, self.text.find("<?xml"))
        if self.text.find("<?xml") < 0 or declaration is None:
            return []  # no declaration: UTF-8 is the default
        encoding = _ENCODING.search(declaration.group(0))
        if encoding is None:
            return []
        start = declaration.start() + encoding.start(3)
        return [Replacement(start, start + len(encoding.group(3)), "UTF-8")]


_REFERENCE = re.compile(r"&(#x[0-9A-Fa-f]+|#[0-9]+|amp|lt|gt|quot|apos);")
_PREDEFINED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


# What a reference to a number no character has (which the parser refuses) reads as: a
# character no parsed value holds, so that the value matches none a check saw (no fix).
_UNREADABLE = "\0"


def _reference(match: re.Match[str]) -> str:
    name = match.group(1)
    if name.startswith("#"):
        number = int(name[2:], 16) if name.startswith("#x") else int(name[1:])
        return chr(number) if number <= 0x10FFFF else _UNREADABLE
    return _PREDEFINED[name]


def _attribute(text: str, at: int, end: int, name: str) -> tuple[int, int] | None:
    """Where the value of the attribute ``name`` stands (inside its quotes) in the start
    tag whose attributes begin at ``at`` and which ends at ``end`` (after ``>``); None
    when the tag has no such attribute or is not read to its end."""
    found = None
    while (match := _ATTRIBUTE.match(text, at, end)) is not None:
        group = 2 if match.group(2) is not None else 3
        if match.group(1) == name:
            found = match.span(group)
        at = match.end()
    if text[at : end - 1].strip(" \t\r\n") not in ("", "/"):
        return None
    return found


def _attribute_decoded(raw: str) -> str:
    """An attribute's value as the parser reports it: each line break and tab a space,
    then the references replaced (in one pass, as XML does), a raw "<" read as the
    recovering reader reads it (``_raw_lt_read``)."""
    text = raw.replace("\r\n", " ").translate(_BLANKS)
    return _raw_lt_read(text)


_BLANKS = str.maketrans("\t\n\r", "   ")


def _decoded(raw: str) -> str:
    """Character data as the parser reports it: line breaks normalised, the predefined
    and numeric references replaced (in one pass, as XML does), a raw "<" read as the
    recovering reader reads it (formats/xml.py): "%3C" in a URL, "<" elsewhere."""
    return _raw_lt_read(raw.replace("\r\n", "\n").replace("\r", "\n"))


def _raw_lt_read(text: str) -> str:
    """``text`` with its references replaced and each raw "<" read as the recovering
    reader reads it (formats/xml.py): "%3C" in a URL, "<" elsewhere."""
    if "<" in text:
        text = text.replace("<", _RAW_LT_READ)
    text = _REFERENCE.sub(_reference, text) if "&" in text else text
    if _RAW_LT_READ in text:
        url = _URL_START.match(text.strip().replace(_RAW_LT_READ, "<")) is not None
        text = text.replace(_RAW_LT_READ, "%3C" if url else "<")
    return text


# A "<" in character data that starts no markup (no name, "/", "!" or "?" after it, or
# glued to the text before it: ``q=a<b``), which the recovering reader reads on past
# (formats/xml.py); in the decoded text, a character standing for it until a URL is told.
_RAW_LT = re.compile(RAW_LT)
_RAW_LT_READ = "\ufdd2"
_URL_START = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
