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
        """The errors of the shadow elements of ``entries`` (paired in order, as
        ``ShadowTree.take`` gives them), each on the node of the element it names: what
        the parse keeps of the text and the rebuild cannot show, such as text between
        elements that the reader took for white space (a no-break space)."""
        root = etree.Element(f"{{{SITEMAP_NS}}}{root_name}")
        root.extend(elements)
        for element in elements:
            element.tail = None  # text between entries is the root's: the rules judge it
        schema = self._schema(root_name, extensions)
        if schema.validate(root):
            return []
        pairs = [
            pair
            for element, entry in zip(elements, entries, strict=True)
            for pair in _pairs(element, entry)
        ]
        results = []
        for error in schema.error_log:
            node = _named_node(pairs, error.line, error.message) or entries[0]
            results.append((node, messages.clean(_strip_element(error.message))))
        return results

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


def _named_node(pairs: list[tuple[etree._Element, Node]], line: int, message: str) -> Node | None:
    """The node of the element an error names, on its line; None when none is."""
    named = re.match(r"^Element '([^']*)'", message)
    tag = named.group(1) if named else None
    on_line = [(element, node) for element, node in pairs if element.sourceline == line]
    for element, node in on_line:
        if element.tag == tag:
            return node
    return on_line[0][1] if on_line else None
