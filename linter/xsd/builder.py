"""Rebuilds a batch of entries as an lxml tree whose line numbers index the nodes."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import as_file, files
from pathlib import Path

from lxml import etree

from sitemap_lint.model import SITEMAP_NS, Node

# libxml2 stores line numbers in 16 bits.
MAX_INDEX = 65535
BUNDLES = {"urlset": "bundle-urlset.xsd", "sitemapindex": "bundle-siteindex.xsd"}
# Declared on the stand-in root so that engines quoting a tag (xmlschema) write the
# usual prefixes ("image:caption") instead of generated ones ("ns1:caption").
NSMAP = {
    None: SITEMAP_NS,
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "mobile": "http://www.google.com/schemas/sitemap-mobile/1.0",
    "xhtml": "http://www.w3.org/1999/xhtml",
}


def schema_path(name: str) -> Path:
    """Path of a bundled schema file; packages are installed as real directories."""
    with as_file(files("sitemap_lint.schemas").joinpath(name)) as path:
        return Path(path)


def build(
    root_name: str, entries: Sequence[Node], sitemap_ns: str
) -> tuple[etree._Element, list[Node]]:
    """The stand-in root holding copies of ``entries``, and the node for each line index.

    Index 0 is the stand-in root itself. Elements in ``sitemap_ns`` (a look-alike
    namespace the root declared) are rebuilt in the real sitemap namespace, so
    the rest of the file is validated as if the namespace were right.
    """
    nodes: list[Node] = [entries[0]] if entries else []
    root = etree.Element(f"{{{SITEMAP_NS}}}{root_name}", nsmap=NSMAP)
    make = etree.SubElement
    stack: list[tuple[etree._Element, Node]] = [(root, entry) for entry in reversed(entries)]
    while stack:
        parent, node = stack.pop()
        ns = SITEMAP_NS if node.ns == sitemap_ns else node.ns
        element = make(parent, f"{{{ns}}}{node.name}" if ns else node.name)
        if node.attrs:
            for key, value in node.attrs.items():
                element.set(f"{{{key}" if "}" in key else key, value)
        nodes.append(node)
        element.sourceline = min(len(nodes) - 1, MAX_INDEX)
        if node.children:
            stack.extend((element, child) for child in reversed(node.children))
        elif node.text:
            element.text = node.text
    return root, nodes


def node_at(nodes: list[Node], index: int | None) -> Node | None:
    if index is None or index <= 0 or index >= MAX_INDEX or index >= len(nodes):
        return None
    return nodes[index]
