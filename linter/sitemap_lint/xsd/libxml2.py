"""The default engine: libxml2's XSD validator through lxml."""

from __future__ import annotations

import copy
import functools
import re
import threading
from collections.abc import Iterable, Sequence

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
        if skipped is not None and not schema.validate(skipped.root):
            results.extend(_mapped(filter(skipped.new, schema.error_log), nodes))
        return results


def _mapped(log: Iterable[etree._LogEntry], nodes: list[Node | None]) -> list[tuple[Node, str]]:
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
_XSD = "{http://www.w3.org/2001/XMLSchema}"


class _Skipped:
    """What libxml2 did not validate in a batch: once a child is not expected where it
    stands, libxml2 validates none of its parent's later children (xmlschema does). A
    stand-in root whose entries hold, after a placeholder ``loc``, copies of the
    extension elements holding such children (they keep their line indexes), each
    parent's children put in its schema's order, for their own content to be validated."""

    def __init__(self, root_name: str, root: etree._Element) -> None:
        self.entry = f"{{{SITEMAP_NS}}}{_ENTRY[root_name]}"
        self.root = etree.Element(root.tag, nsmap=builder.NSMAP)
        self.lines: set[int] = set()  # the lines libxml2 skipped: their errors are new
        self.placed: set[int] = set()  # of those, the children put in order

    def add(self, elements: list[etree._Element]) -> list[etree._Element]:
        """Copies of ``elements`` in an entry of their own; their lines are new."""
        holder = etree.SubElement(self.root, self.entry)
        etree.SubElement(holder, f"{{{SITEMAP_NS}}}loc").text = _PLACEHOLDER
        copies = [copy.deepcopy(element) for element in elements]
        holder.extend(copies)
        self.lines.update(e.sourceline or 0 for element in elements for e in element.iter())
        return copies

    def add_below(self, top: etree._Element, parent: etree._Element, start: int) -> None:
        """A copy of the extension element ``top`` whose descendant ``parent`` has its
        children from ``start`` on skipped."""
        ranks = _ranks(etree.QName(parent).namespace or "")
        if not ranks:
            return
        skipped = list(parent)[start:]
        (copied,) = self.add([top])
        self.lines.difference_update(e.sourceline or 0 for e in top.iter())
        self.lines.update(e.sourceline or 0 for child in skipped for e in child.iter())
        self.placed.update(child.sourceline or 0 for child in skipped)
        twin = next(e for e in copied.iter() if e.sourceline == parent.sourceline)
        children = list(twin)
        for child in children:
            twin.remove(child)
        known = [child for child in children if etree.QName(child).localname in ranks]
        twin.extend(sorted(known, key=lambda child: ranks[etree.QName(child).localname]))

    def new(self, error: etree._LogEntry) -> bool:
        """Whether ``error`` of the stand-in is about what libxml2 skipped, and is not the
        order of the children put in order (a rule reports that)."""
        return error.line in self.lines and not (
            error.line in self.placed and _NOT_EXPECTED in error.message
        )


@functools.cache
def _ranks(namespace: str) -> dict[str, int]:
    """Each element name of the bundled schema of ``namespace`` by its place in the
    schema's sequences (the first where it stands); empty for the sitemap namespace and
    a namespace without a bundled schema."""
    ranks: dict[str, int] = {}
    if namespace == SITEMAP_NS:
        return ranks
    parser = etree.XMLParser(no_network=True, resolve_entities=False)
    for path in sorted(builder.schema_path("").glob("*.xsd")):
        document = etree.parse(str(path), parser)
        if document.getroot().get("targetNamespace") != namespace:
            continue
        for sequence in document.iter(f"{_XSD}sequence"):
            for element in sequence.iterchildren(f"{_XSD}element"):
                local = element.get("name")
                if local is not None:
                    ranks.setdefault(local, len(ranks))
    return ranks


def _extension(element: etree._Element) -> bool:
    tag = element.tag
    return isinstance(tag, str) and tag.startswith("{") and not tag.startswith(f"{{{SITEMAP_NS}}}")


def _skipped(root_name: str, root: etree._Element, log: etree._ListErrorLog) -> _Skipped | None:
    """What libxml2 skipped in the batch ``root`` after the errors of ``log``, to be
    validated again; None when it skipped nothing of an extension element."""
    lines = {error.line for error in log if _NOT_EXPECTED in error.message}
    if not lines:
        return None
    skipped = _Skipped(root_name, root)
    for entry in root:
        children = list(entry)
        start = next((n for n, child in enumerate(children) if child.sourceline in lines), None)
        if start is not None:
            extensions = [child for child in children[start:] if _extension(child)]
            if extensions:
                skipped.add(extensions)
            continue
        for child in children:
            if not _extension(child):
                continue
            for element in child.iter():
                parent = element.getparent()
                if element is not child and element.sourceline in lines and parent is not None:
                    skipped.add_below(child, parent, parent.index(element))
                    break
    return skipped if skipped.lines else None


_ELEMENT_PREFIX = lazy(r"^Element '[^']*'(?:, attribute '[^']*')?: ")


def _strip_element(message: str) -> str:
    attribute = re.match(r"^Element '[^']*', attribute '([^']*)': ", message)
    text = _ELEMENT_PREFIX.sub("", message)
    return f"attribute {attribute.group(1)}: {text}" if attribute else text
