"""The default engine: libxml2's XSD validator through lxml."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from sitemap_lint.model import SITEMAP_NS, Node
from sitemap_lint.support.patterns import lazy
from sitemap_lint.xsd import builder, messages


class Libxml2Engine:
    def __init__(self) -> None:
        self._schemas: dict[str, etree.XMLSchema] = {}

    def _schema(self, root_name: str, extensions: bool = True) -> etree.XMLSchema:
        name = (builder.BUNDLES if extensions else builder.CORE)[root_name]
        schema = self._schemas.get(name)
        if schema is None:
            parser = etree.XMLParser(no_network=True, resolve_entities=False)
            document = etree.parse(str(builder.schema_path(name)), parser)
            schema = self._schemas[name] = etree.XMLSchema(document)
        return schema

    def all_valid(
        self, root_name: str, elements: list[etree._Element], extensions: bool = True
    ) -> bool:
        """Validate parsed entry elements (moved under a stand-in root) in one go."""
        root = etree.Element(f"{{{SITEMAP_NS}}}{root_name}")
        root.extend(elements)
        return self._schema(root_name, extensions).validate(root)

    def shadow_errors(
        self,
        root_name: str,
        elements: list[etree._Element],
        entries: Sequence[Node],
        extensions: bool = True,
    ) -> list[tuple[Node, str]]:
        """The schema's errors on text between the child elements of the shadow elements
        of ``entries`` (paired in order, as ``ShadowTree.take`` gives them): what the
        parse keeps and the rebuild cannot show, text that the reader took for white
        space (a no-break space). Each on the node of the element that holds the text."""
        root = etree.Element(f"{{{SITEMAP_NS}}}{root_name}")
        root.extend(elements)
        for element in elements:
            element.tail = None  # text between entries is the root's: the rules judge it
        schema = self._schema(root_name, extensions)
        if schema.validate(root):
            return []
        rejected = {
            (error.line, _named(error.message))
            for error in schema.error_log
            if error.message.startswith("Element '") and _CHARACTER_CONTENT in error.message
        }
        if not rejected:
            return []
        return [
            (node, _MIXED_MESSAGE)
            for element, entry in zip(elements, entries, strict=True)
            for element, node in _pairs(element, entry)
            if (element.sourceline, element.tag) in rejected and _holds_text(element)
        ]

    def validate(
        self,
        root_name: str,
        entries: Sequence[Node],
        sitemap_ns: str = SITEMAP_NS,
        extensions: bool = True,
    ) -> list[tuple[Node, str]]:
        """``extensions`` False promises that no entry holds an extension element."""
        schema = self._schema(root_name, extensions)
        root, nodes = builder.build(root_name, entries, sitemap_ns)
        if schema.validate(root):
            return []
        results = []
        for error in schema.error_log:
            node = builder.node_at(nodes, error.line)
            if node is not None:
                results.append((node, messages.clean(_strip_element(error.message))))
        return results


_ELEMENT_PREFIX = lazy(r"^Element '[^']*'(?:, attribute '[^']*')?: ")


def _strip_element(message: str) -> str:
    attribute = re.match(r"^Element '[^']*', attribute '([^']*)': ", message)
    text = _ELEMENT_PREFIX.sub("", message)
    return f"attribute {attribute.group(1)}: {text}" if attribute else text


def _pairs(element: etree._Element, node: Node) -> list[tuple[etree._Element, Node]]:
    """Each element of a shadow entry with its node: the two trees have the same elements
    in the same order (the shadow parse drops comments and instructions)."""
    pairs = []
    stack = [(element, node)]
    while stack:
        shadow, current = stack.pop()
        pairs.append((shadow, current))
        children = [child for child in shadow if isinstance(child.tag, str)]
        # A node may hold fewer children: the reader keeps none past its depth limit.
        stack.extend(reversed(list(zip(children, current.children, strict=False))))
    return pairs


_CHARACTER_CONTENT = "Character content other than whitespace is not allowed"
_MIXED_MESSAGE = (
    "Character content other than whitespace is not allowed because the content type is "
    "'element-only'"
)


def _named(message: str) -> str:
    """The element an engine's message is about (``{namespace}name``)."""
    named = re.match(r"^Element '([^']*)'", message)
    return named.group(1) if named else ""


def _holds_text(element: etree._Element) -> bool:
    """Whether text other than XML's white space stands between the children of
    ``element`` (an element that holds elements)."""
    children = [child for child in element if isinstance(child.tag, str)]
    if not children:
        return False
    pieces = [element.text or "", *(child.tail or "" for child in element)]
    return any(piece.strip(" \t\r\n") for piece in pieces)
