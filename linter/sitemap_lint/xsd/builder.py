"""Rebuilds a batch of entries as an lxml tree whose line numbers index the nodes."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, cast

from lxml import etree

from sitemap_lint.model import SITEMAP_NS, Node

# libxml2 stores line numbers in 16 bits.
MAX_INDEX = 65535
BUNDLES = {"urlset": "bundle-urlset.xsd", "sitemapindex": "bundle-siteindex.xsd"}
# The sitemaps.org schemas alone compile faster; for entries without extension
# elements they give the same verdict as the bundles.
CORE = {"urlset": "sitemap.xsd", "sitemapindex": "siteindex.xsd"}
# Declared on the stand-in root so that engines quoting a tag (xmlschema) write the
# usual prefixes ("image:caption") instead of generated ones ("ns1:caption").
NSMAP = {
    None: SITEMAP_NS,
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "mobile": "http://www.google.com/schemas/sitemap-mobile/1.0",
    "xhtml": "http://www.w3.org/1999/xhtml",
    "pagemap": "http://www.google.com/schemas/sitemap-pagemap/1.0",
}


# The text an element with children is rebuilt with when the reader met text that is
# not white space between its children (``Node.nested_text``): the node keeps where that
# text starts, not the text, and any character that is not white space makes the schema
# reject it where only elements may stand.
MIXED_TEXT = "\u2026"


class _Numbered(Protocol):
    """An lxml element's line number, which lxml lets us set (the stubs declare it
    read-only): the line index of ``build`` relies on it."""

    sourceline: int


_SCHEMAS = Path(__file__).parent.parent / "schemas"


def schema_path(name: str) -> Path:
    """Path of a bundled schema file; packages are installed as real directories, so
    the package's own directory holds them (``importlib.resources`` would import
    zipfile, tempfile and shutil to say the same, a tenth of the start-up)."""
    return _SCHEMAS / name


def build(
    root_name: str, entries: Sequence[Node], sitemap_ns: str
) -> tuple[etree._Element, list[Node | None]]:
    """The stand-in root holding copies of ``entries``, and the node for each line index.

    Index 0 is the stand-in root itself. Elements in ``sitemap_ns`` (a look-alike
    namespace the root declared) are rebuilt in the real sitemap namespace, so
    the rest of the file is validated as if the namespace were right.
    """
    nodes: list[Node | None] = [None]
    append = nodes.append
    root = etree.Element(f"{{{SITEMAP_NS}}}{root_name}", nsmap=NSMAP)
    make = etree.SubElement
    prefixes = {"": ""}
    prefixes[sitemap_ns] = f"{{{SITEMAP_NS}}}"
    # Entries and their children (nearly every element) are built in a flat loop;
    # deeper extension content goes through the general stack in _build_below.
    for entry in entries:
        prefix = prefixes.get(entry.ns) or prefixes.setdefault(entry.ns, _clark(entry.ns))
        element = make(root, prefix + entry.name)
        append(entry)
        index = len(nodes) - 1
        cast(_Numbered, element).sourceline = index if index < MAX_INDEX else MAX_INDEX
        if entry.attrs:
            _set_attributes(element, entry.attrs)
        if not entry.children:
            if entry.text:
                element.text = entry.text
            continue
        if entry.nested_text is not None:
            element.text = MIXED_TEXT
        for child in entry.children:
            prefix = prefixes.get(child.ns) or prefixes.setdefault(child.ns, _clark(child.ns))
            sub = make(element, prefix + child.name)
            append(child)
            index = len(nodes) - 1
            cast(_Numbered, sub).sourceline = index if index < MAX_INDEX else MAX_INDEX
            if child.attrs:
                _set_attributes(sub, child.attrs)
            if child.children:
                if child.nested_text is not None:
                    sub.text = MIXED_TEXT
                _build_below(sub, child, nodes, prefixes)
            elif child.text:
                sub.text = child.text
    return root, nodes


@functools.lru_cache(maxsize=256)
def _clark(namespace: str) -> str:
    """``{namespace}`` as a tag prefix. A name lxml refuses as a namespace (white
    space, control characters, characters outside ASCII or that no URI holds, such as
    a typographic quote) becomes a URN that holds it percent-encoded, so the element
    stays in a namespace of its own and the schema reports it like any other wrong one."""
    try:
        etree.Element(f"{{{namespace}}}x")
    except ValueError:
        from urllib.parse import quote

        namespace = "urn:invalid-namespace:" + quote(namespace, safe="")
    return f"{{{namespace}}}"


def _build_below(
    element: etree._Element, node: Node, nodes: list[Node | None], prefixes: dict[str, str]
) -> None:
    make = etree.SubElement
    stack = [(element, child) for child in reversed(node.children)]
    while stack:
        parent, current = stack.pop()
        prefix = prefixes.get(current.ns) or prefixes.setdefault(current.ns, _clark(current.ns))
        sub = make(parent, prefix + current.name)
        nodes.append(current)
        index = len(nodes) - 1
        cast(_Numbered, sub).sourceline = index if index < MAX_INDEX else MAX_INDEX
        if current.attrs:
            _set_attributes(sub, current.attrs)
        if current.children:
            if current.nested_text is not None:
                sub.text = MIXED_TEXT
            stack.extend((sub, child) for child in reversed(current.children))
        elif current.text:
            sub.text = current.text


# lxml adds attributes one by one in quadratic time; no sitemap element has more
# than a handful, and a rule reports the unexpected ones anyway.
MAX_ATTRIBUTES = 64


def _set_attributes(element: etree._Element, attrs: dict[str, str]) -> None:
    for index, (key, value) in enumerate(attrs.items()):
        if index == MAX_ATTRIBUTES:
            return
        try:
            element.set(f"{{{key}" if "}" in key else key, value)
        except ValueError:  # a name or namespace lxml refuses: ST010 and NS rules report it
            continue


def node_at(nodes: list[Node | None], index: int | None) -> Node | None:
    if index is None or index <= 0 or index >= MAX_INDEX or index >= len(nodes):
        return None
    return nodes[index]
