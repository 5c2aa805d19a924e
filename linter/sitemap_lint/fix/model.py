"""What a fix is (``finding.Edit`` and ``finding.FindingFix``): edits of the decoded text, how safe they are, and a message.

An ``Edit`` names what it changes by position, since the checks see positions (line
and column of a start tag, or of a character), not offsets: ``fix.locate`` turns it
into offsets over the decoded text when a fix is applied or shown. ``target`` says
what the position points at:

- ``span``: the text from (line, column) up to (end_line, end_column), exclusive;
  ``old`` when given is what must stand there;
- ``text``: the character data of the element whose start tag begins at (line,
  column); ``content`` is the new value (escaped when written), ``old`` the value the
  check saw (the edit is skipped when the file holds another);
- ``href``: the value of the ``href`` attribute of the element whose start tag begins
  at (line, column); ``content`` is the new value (escaped for an attribute, within the
  quotes the file used), ``old`` the value the check saw, surrounding blanks aside (the
  edit is skipped when the file holds another);
- ``element``: the whole element whose start tag begins at (line, column), with the
  indentation and line break around it; with (end_line, end_column), the ``loc`` of
  the entry that stays (a duplicate's first), only when it says nothing that entry
  does not;
- ``xmlns``: every namespace declaration whose value is ``old``, set to ``content``;
- ``declare``: ``content``, a declaration of the prefix ``old``, added to the root's
  start tag after its name (skipped when the tag declares that prefix);
- ``prefix``: whatever stands before the XML declaration, removed;
- ``bom``: the UTF-8 byte order mark, removed;
- ``encoding``: the file written as UTF-8, its declaration saying so.

A rule whose fix rests on a network answer (the live audit's: a redirect's final URL)
is declared ``answered``: its fixes cannot be found again by checking the fixed text,
so ``--fix`` takes them from the audit of the original file and applies them with the
first pass, after the static fixes (a static fix wins where their edits overlap); the
later passes check the text statically.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sitemap_lint.finding import Edit, FindingFix, Fix
from sitemap_lint.model import Node, WrittenNode
from sitemap_lint.support.patterns import lazy

if TYPE_CHECKING:
    from sitemap_lint.finding import Finding, Rule

__all__ = [
    "TARGETS",
    "Edit",
    "FindingFix",
    "answered",
    "escape_attribute",
    "escape_text",
    "holds_reference",
    "needs_answer",
    "remove_element",
    "replace_text",
    "whole_file",
]

TARGETS = ("span", "text", "href", "element", "xmlns", "declare", "prefix", "bom", "encoding")

# The codes of the rules declared ``answered``.
_ANSWERED: set[str] = set()


def answered(rule: Rule) -> Rule:
    """Declare that ``rule``'s fixes rest on a network answer (see the module's doc)."""
    _ANSWERED.add(rule.code)
    return rule


def needs_answer(finding: Finding) -> bool:
    """Whether ``finding``'s fix rests on a network answer (its rule is ``answered``)."""
    return finding.code in _ANSWERED


# Values longer than this were cut short by the parser (model.MAX_TEXT): no fix.
_MAX_VALUE = 1 << 18
# An entity reference other than XML's five: one the parser kept as written (an entity
# of a DOCTYPE, which is never expanded, or an undefined one).
_REFERENCE = lazy(r"&(?!(?:amp|lt|gt|quot|apos);)[A-Za-z_:][\w.:-]*;")


def holds_reference(text: str) -> bool:
    """Whether ``text`` holds an entity reference left unexpanded: what the file means
    there is not known, so no fix rewrites the value or removes its entry."""
    return "&" in text and _REFERENCE.search(text) is not None


def escape_text(value: str) -> str:
    """Character data written out: ``&``, ``<`` and ``>`` escaped."""
    if "&" not in value and "<" not in value and ">" not in value:  # (the usual value)
        return value
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def shown_text(value: str) -> str:
    """``value`` as a message shows it in an element: escaped as ``escape_text`` does,
    but for the entity references it holds as written (unexpanded: ``holds_reference``),
    which stay as they are."""
    return _keeping_references(value, escape_text)


def shown_attribute(value: str) -> str:
    """``value`` as a message shows it in a double-quoted attribute (``shown_text``)."""
    return _keeping_references(value, escape_attribute)


def _keeping_references(value: str, escape: Callable[[str], str]) -> str:
    if not holds_reference(value):
        return escape(value)
    pieces = []
    at = 0
    for found in _REFERENCE.finditer(value):
        pieces += [escape(value[at : found.start()]), found.group(0)]
        at = found.end()
    return "".join([*pieces, escape(value[at:])])


# What an attribute value cannot hold as written, whatever its quotes: the blanks a
# parser would read as spaces are written as references, so the value reads back as it is.
_ATTRIBUTE_ESCAPES = {
    "&": "&amp;",
    "<": "&lt;",
    '"': "&quot;",
    "\t": "&#9;",
    "\n": "&#10;",
    "\r": "&#13;",
}


def escape_attribute(value: str, quote: str = '"') -> str:
    """An attribute's value written out within ``quote``: ``&``, ``<``, ``"``, tabs and
    line breaks escaped, and ``'`` too within single quotes."""
    escaped = "".join(_ATTRIBUTE_ESCAPES.get(char, char) for char in value)
    return escaped.replace("'", "&apos;") if quote == "'" else escaped


# (A module's global is found faster than an enum's member.)
_SAFE, _UNSAFE = Fix.SAFE, Fix.UNSAFE


def replace_text(node: Node, value: str, message: str, safe: bool = True) -> FindingFix | None:
    """A fix that sets the text of ``node`` to ``value`` (None when it cannot be exact):
    its span in the file, exact already, when the node says where the text stands
    (``model.WrittenNode``)."""
    old = node.text
    if len(old) >= _MAX_VALUE or node.children or value == old:
        return None
    if "&" in old and holds_reference(old):
        return None
    applicability = _SAFE if safe else _UNSAFE
    if isinstance(node, WrittenNode):
        start, line = node.text_at, node.line
        edit = Edit(line, start, escape_text(value), "span", line, start + len(old), old)
        return FindingFix(applicability, message, (edit,), True)
    return FindingFix(
        applicability, message, (Edit(node.line, node.column, value, "text", old=old),)
    )


def remove_element(
    node: Node, message: str, kept: tuple[int, int] | None = None
) -> FindingFix | None:
    """An unsafe fix that removes the element ``node`` (an entry) from the file (None
    when one of its values holds an entity reference left unexpanded). ``kept``: the
    position of the ``loc`` of the entry that stays (a duplicate's first): the entry is
    then removed only when it says nothing that one does not (its ``loc`` alone, or the
    same content), which the fix finds in the file's text."""
    if any(holds_reference(child.text) for child in node.iter()):
        return None
    end_line, end_column = kept or (0, 0)
    edit = Edit(node.line, node.column, "", "element", end_line, end_column)
    return FindingFix(Fix.UNSAFE, message, (edit,))


def whole_file(target: str, message: str, old: str = "", content: str = "") -> FindingFix:
    """A safe fix of one of the file-wide targets (``xmlns``, ``prefix``, ...)."""
    return FindingFix(Fix.SAFE, message, (Edit(1, 1, content, target, old=old),))
