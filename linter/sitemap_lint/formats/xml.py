"""Streaming parse: decoded text in, entries out.

Expat reads the text in one pass and reports every element with its line and
column. The root element is announced first; each child of the root (a ``url``
or ``sitemap`` entry, or anything else standing there) is handed over as a
finished tree of nodes, then forgotten, so memory does not grow with the file.
No entity is ever expanded and nothing is ever fetched: a DOCTYPE is reported
and its declarations are ignored.
"""

from __future__ import annotations

import pyexpat
from typing import Protocol

from sitemap_lint.model import MAX_TEXT, Node

# Deeper elements are not kept: no sitemap needs them, and they would only cost memory.
MAX_DEPTH = 32


class Handler(Protocol):
    def on_root(self, root: Node) -> None: ...
    def on_entry(self, entry: Node) -> None: ...
    def on_root_text(self, line: int, column: int) -> None: ...
    def on_doctype(self, name: str, line: int, column: int) -> None: ...
    def on_too_deep(self, outermost: Node, line: int, column: int) -> None: ...
    def on_comment(self, text: str, line: int, column: int) -> None: ...
    def on_syntax_error(
        self, code: int, line: int, column: int, context: str, offset: int
    ) -> None: ...


class StreamParser:
    """Feeds text to expat and turns its callbacks into nodes for a Handler."""

    def __init__(self, handler: Handler, line_offset: int = 0, column_offset: int = 0):
        self.handler: Handler | None = handler
        self.line_offset = line_offset
        self.column_offset = column_offset
        self.saw_root = False
        self.root_closed = False
        self.failed = False
        self._recent: list[tuple[int, str]] = []  # (first line number, text) of the last chunks
        self._line_count = 1
        self._too_deep_reported = False
        # Depth-1 elements whose children are handed over one by one as entries, like an
        # RSS <channel>'s items, so a big feed is never held whole: (namespace, name).
        self.containers: frozenset[tuple[str, str]] = frozenset()
        self._names: dict[str, tuple[str, str]] = {}
        parser = pyexpat.ParserCreate("utf-8", namespace_separator="}")
        parser.buffer_text = True
        parser.buffer_size = 1 << 16
        parser.SetParamEntityParsing(pyexpat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self._doctype
        self._parser = parser
        self._install_tree_handlers(parser)

    # -- feeding ---------------------------------------------------------------

    def feed(self, text: str) -> bool:
        self._remember(text)
        try:
            self._parser.Parse(text, False)
        except pyexpat.ExpatError as error:
            self._syntax_error(error)
            return False
        pieces = self._pieces
        if len(pieces) > 1 and sum(map(len, pieces)) > MAX_TEXT:
            # A text longer than any value: keep its start only, so that memory stays
            # bounded (it grows by at most one fed block in between).
            pieces[:] = ["".join(pieces)[:MAX_TEXT]]
        return True

    def close(self) -> None:
        if self.failed:
            return
        try:
            self._parser.Parse("", True)
        except pyexpat.ExpatError as error:
            self._syntax_error(error)

    def release(self) -> None:
        """Drop the expat handlers and the handler: they and this parser refer to each
        other, and the cycle would keep the file's text and nodes alive until the
        garbage collector's next full run."""
        parser = self._parser
        for name in (
            "StartElementHandler",
            "EndElementHandler",
            "CharacterDataHandler",
            "CommentHandler",
            "StartDoctypeDeclHandler",
            "DefaultHandler",
            "EntityDeclHandler",
        ):
            setattr(parser, name, None)
        self.handler = None
        self._recent.clear()

    def _remember(self, text: str) -> None:
        self._recent.append((self._line_count, text))
        if len(self._recent) > 2:
            del self._recent[0]
        self._line_count += text.count("\n")

    def line_text(self, line: int) -> str:
        """The text of a recent line (parser numbering), or '' when it is gone."""
        for first, text in reversed(self._recent):
            if first <= line:
                lines = text.split("\n")
                index = line - first
                if index < len(lines):
                    start = lines[index]
                    if index == len(lines) - 1 and first != self._recent[-1][0]:
                        # The line continues into the next chunk.
                        start += self._recent[-1][1].split("\n", 1)[0]
                    return start
                return ""
        return ""

    def _find_back(self, marker: str, line: int, column: int) -> tuple[int, int]:
        """Parser position (line, 0-based column) of the last ``marker`` before a position."""
        first, text = self._recent[-1]
        offset = 0
        for _ in range(line - first):
            offset = text.find("\n", offset) + 1
        found = text.rfind(marker, 0, offset + column + 1)
        if found < 0:
            return line, column
        found_line = first + text.count("\n", 0, found)
        return found_line, found - (text.rfind("\n", 0, found) + 1)

    def position(self, line: int, column: int) -> tuple[int, int]:
        """Parser position (1-based line, 0-based column) to file position (both 1-based)."""
        if line == 1:
            column += self.column_offset
        return line + self.line_offset, column + 1

    # -- expat callbacks ---------------------------------------------------------

    def _install_tree_handlers(self, parser: pyexpat.XMLParserType) -> None:
        handler = self.handler
        assert handler is not None  # installed before any release
        names = self._names
        stack: list[Node] = []
        pieces: list[str] = []
        self._pieces = pieces
        position = self.position
        line_offset = self.line_offset
        state = self

        def split(tag: str) -> tuple[str, str]:
            ns, _, name = tag.rpartition("}")
            names[tag] = result = (ns, name)
            return result

        def start(tag: str, attrs: dict[str, str]) -> None:
            depth = len(stack)
            line = parser.CurrentLineNumber
            if line == 1 or depth == 0:
                line, column = position(line, parser.CurrentColumnNumber)
            else:
                line, column = line + line_offset, parser.CurrentColumnNumber + 1
            ns, name = names.get(tag) or split(tag)
            node = Node(ns, name, attrs, line, column)
            if depth == 0:
                state.saw_root = True
                pieces.clear()
                stack.append(node)
                handler.on_root(node)
                return
            if pieces:
                text = pieces[0] if len(pieces) == 1 else "".join(pieces)
                pieces.clear()
                if text and not text.isspace():
                    if depth == 1:
                        handler.on_root_text(*_text_start(text, line, column))
                    elif stack[-1].nested_text is None:
                        stack[-1].nested_text = _text_start(text, line, column)
            if depth >= MAX_DEPTH:
                stack.append(node)  # kept on the stack only, never attached
                if not state._too_deep_reported:
                    state._too_deep_reported = True
                    handler.on_too_deep(stack[2] if depth > 2 else stack[1], line, column)
                return
            if depth > 1 and not (
                depth == 2 and state.containers and _is_container(state, stack[1])
            ):
                stack[-1].children.append(node)
            stack.append(node)

        def end(tag: str) -> None:
            node = stack.pop()
            depth = len(stack)
            if pieces:
                text = pieces[0] if len(pieces) == 1 else "".join(pieces)
                pieces.clear()
                if not node.children:
                    node.text = text if len(text) <= MAX_TEXT else text[:MAX_TEXT]
                elif text and not text.isspace() and node.nested_text is None:
                    node.nested_text = _text_start(
                        text, *position(parser.CurrentLineNumber, parser.CurrentColumnNumber)
                    )
            if depth == 1 or (depth == 2 and state.containers and _is_container(state, stack[1])):
                handler.on_entry(node)
            elif depth == 0:
                state.root_closed = True
                if node.text.strip():
                    end_line, end_column = position(
                        parser.CurrentLineNumber, parser.CurrentColumnNumber
                    )
                    handler.on_root_text(*_text_start(node.text, end_line, end_column))

        def comment(text: str) -> None:
            handler.on_comment(
                text, *position(parser.CurrentLineNumber, parser.CurrentColumnNumber)
            )

        parser.CommentHandler = comment
        parser.StartElementHandler = start
        parser.EndElementHandler = end
        # Expat reports character data inside the root element only; a bound method
        # of the list costs no Python frame per call.
        parser.CharacterDataHandler = pieces.append

    def _doctype(
        self, name: str, system_id: str | None, public_id: str | None, has_internal_subset: bool
    ) -> None:
        # With a default handler set, expat passes entity references through
        # unexpanded instead of replacing them: no billion laughs, no XXE.
        self._parser.DefaultHandler = _ignore
        self._parser.EntityDeclHandler = _ignore_entity
        line, column = self._find_back(
            "<!DOCTYPE", self._parser.CurrentLineNumber, self._parser.CurrentColumnNumber
        )
        assert self.handler is not None  # expat calls back only while it parses
        self.handler.on_doctype(name or "", *self.position(line, column))

    def _syntax_error(self, error: pyexpat.ExpatError) -> None:
        self.failed = True
        raw_line = error.lineno
        context = self.line_text(raw_line)
        line, column = self.position(raw_line, error.offset)
        assert self.handler is not None  # parsing ends before a release
        self.handler.on_syntax_error(error.code, line, column, context, error.offset)


def _is_container(state: StreamParser, node: Node) -> bool:
    return (node.ns, node.name) in state.containers


def _text_start(text: str, line: int, column: int) -> tuple[int, int]:
    """Where the first non-whitespace character of ``text`` stands, given the
    position of the tag that follows the text."""
    first = len(text) - len(text.lstrip())
    rest = text[first:]
    newlines = rest.count("\n")
    if not newlines:
        return line, max(column - len(rest), 1)
    line_start = text.rfind("\n", 0, first)
    return line - newlines, (first - line_start) if line_start >= 0 else 1


def _ignore(_data: str) -> None:
    return None


def _ignore_entity(*_args: object) -> None:
    return None
