"""The default engine: libxml2's XSD validator through lxml."""

from __future__ import annotations

import copy
import re
import threading
from collections.abc import Sequence

from lxml import etree

from sitemap_lint.model import SITEMAP_NS, Node
from sitemap_lint.support.patterns import lazy
from sitemap_lint.xsd import builder, messages

# libxml2 sets up its built-in schema types on the first schema it compiles, unguarded:
# two threads compiling at once can leave them broken for the rest of the process.
_COMPILING = threading.Lock()


class Libxml2Engine:
    def __init__(self) -> None:
        self._schemas: dict[str, etree.XMLSchema] = {}

    def _schema(self, root_name: str, extensions: bool = True) -> etree.XMLSchema:
        name = (builder.BUNDLES if extensions else builder.CORE)[root_name]
        schema = self._schemas.get(name)
        if schema is None:
            parser = etree.XMLParser(no_network=True, resolve_entities=False)
            document = etree.parse(str(builder.schema_path(name)), parser)
            with _COMPILING:
                schema = self._schemas[name] = etree.XMLSchema(document)
        return schema

    def all_valid(
        self, root_name: str, elements: list[etree._Element], extensions: bool = True
    ) -> bool:
        """Validate parsed entry elements (moved under a stand-in root) in one go."""
        root = etree.Element(f"{{{SITEMAP_NS}}}{root_name}")
        root.extend(elements)
        return self._schema(root_name, extensions).validate(root)

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
        results = _mapped(schema.error_log, nodes)
        skipped = _skipped(root_name, root, schema.error_log)
        if skipped is not None and not schema.validate(skipped):
            results.extend(_mapped(schema.error_log, nodes))
        return results


def _mapped(log: etree._ListErrorLog, nodes: list[Node | None]) -> list[tuple[Node, str]]:
    """The errors of ``log`` on the nodes of a rebuilt batch, with their messages."""
    results = []
    for error in log:
        node = builder.node_at(nodes, error.line)
        if node is not None:
            results.append((node, messages.clean(_strip_element(error.message))))
    return results


_NOT_EXPECTED = "This element is not expected"
_ENTRY = {"urlset": "url", "sitemapindex": "sitemap"}
_PLACEHOLDER = "https://example.com/"  # a loc the schema accepts; its errors map nowhere


def _skipped(
    root_name: str, root: etree._Element, log: etree._ListErrorLog
) -> etree._Element | None:
    """Once a child of an entry is not expected where it stands, libxml2 validates none
    of the entry's later children (xmlschema does). A stand-in root whose entries hold,
    after a placeholder ``loc``, copies of the extension elements so skipped (they keep
    their line indexes), for their own content to be validated; None without any."""
    lines = {error.line for error in log if _NOT_EXPECTED in error.message}
    if not lines:
        return None
    sitemap = f"{{{SITEMAP_NS}}}"
    stand_in: etree._Element | None = None
    for entry in root:
        children = list(entry)
        start = next((n for n, child in enumerate(children) if child.sourceline in lines), None)
        if start is None:
            continue
        extensions = [
            child
            for child in children[start:]
            if isinstance(child.tag, str)
            and child.tag.startswith("{")
            and not child.tag.startswith(sitemap)
        ]
        if not extensions:
            continue
        if stand_in is None:
            stand_in = etree.Element(root.tag, nsmap=builder.NSMAP)
        holder = etree.SubElement(stand_in, sitemap + _ENTRY[root_name])
        etree.SubElement(holder, sitemap + "loc").text = _PLACEHOLDER
        holder.extend(copy.deepcopy(child) for child in extensions)
    return stand_in


_ELEMENT_PREFIX = lazy(r"^Element '[^']*'(?:, attribute '[^']*')?: ")


def _strip_element(message: str) -> str:
    attribute = re.match(r"^Element '[^']*', attribute '([^']*)': ", message)
    text = _ELEMENT_PREFIX.sub("", message)
    return f"attribute {attribute.group(1)}: {text}" if attribute else text
