"""XSD validation of entries, with two interchangeable engines over the same schema files.

Entries are validated in batches as the file streams: each batch is rebuilt as a
small tree under a stand-in root, whose elements carry their index in the
batch as their line number. An engine's error then names the exact node,
whatever the engine, and maps back to the real line and column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from sitemap_lint.model import Node

if TYPE_CHECKING:
    from lxml import etree

ENGINES = ("libxml2", "xmlschema")

# The bundled schema files: (file, target namespace, what it defines).
SCHEMAS = (
    ("sitemap.xsd", "http://www.sitemaps.org/schemas/sitemap/0.9", "sitemaps.org 0.9 URL set"),
    ("siteindex.xsd", "http://www.sitemaps.org/schemas/sitemap/0.9", "sitemaps.org 0.9 index"),
    ("sitemap-image.xsd", "http://www.google.com/schemas/sitemap-image/1.1", "Google image 1.1"),
    ("sitemap-video.xsd", "http://www.google.com/schemas/sitemap-video/1.1", "Google video 1.1"),
    ("sitemap-news.xsd", "http://www.google.com/schemas/sitemap-news/0.9", "Google news 0.9"),
    (
        "sitemap-mobile.xsd",
        "http://www.google.com/schemas/sitemap-mobile/1.0",
        "Google mobile 1.0 (retired)",
    ),
    ("xhtml-link.xsd", "http://www.w3.org/1999/xhtml", "XHTML link (hreflang alternates)"),
    (
        "sitemap-pagemap.xsd",
        "http://www.google.com/schemas/sitemap-pagemap/1.0",
        "Google PageMap 1.0",
    ),
)


class Engine(Protocol):
    def validate(
        self, root_name: str, entries: Sequence[Node], sitemap_ns: str, extensions: bool = True
    ) -> list[tuple[Node, str]]:
        """Validate entries of a ``urlset`` or ``sitemapindex``; return (node, message) pairs.

        ``extensions`` False tells that no entry holds an extension element, so the
        engine may use the sitemaps.org schema alone.
        """
        ...


class ShadowEngine(Engine, Protocol):
    """An engine that also validates the elements of the shadow parse (libxml2)."""

    def all_valid(
        self, root_name: str, elements: list[etree._Element], extensions: bool = True
    ) -> bool: ...


def load(name: str) -> Engine:
    """The engine by name; heavy modules are imported only here, on first use."""
    if name == "libxml2":
        from sitemap_lint.xsd.libxml2 import Libxml2Engine

        return Libxml2Engine()
    if name == "xmlschema":
        from sitemap_lint.xsd.xmlschema_engine import XmlschemaEngine

        return XmlschemaEngine()
    raise ValueError(f"unknown XSD engine {name!r}; choose {' or '.join(ENGINES)}")
