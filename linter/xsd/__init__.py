"""XSD validation of entries, with two interchangeable engines over the same schema files.

Entries are validated in batches as the file streams: each batch is rebuilt as a
small tree under a stand-in root, whose elements carry their index in the
batch as their line number. An engine's error then names the exact node,
whatever the engine, and maps back to the real line and column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sitemap_lint.model import Node

ENGINES = ("libxml2", "xmlschema")


class Engine(Protocol):
    def validate(self, root_name: str, entries: Sequence[Node]) -> list[tuple[Node, str]]:
        """Validate entries of a ``urlset`` or ``sitemapindex``; return (node, message) pairs."""
        ...


def load(name: str) -> Engine:
    """The engine by name; heavy modules are imported only here, on first use."""
    if name == "libxml2":
        from sitemap_lint.xsd.libxml2 import Libxml2Engine

        return Libxml2Engine()
    if name == "xmlschema":
        from sitemap_lint.xsd.xmlschema_engine import XmlschemaEngine

        return XmlschemaEngine()
    raise ValueError(f"unknown XSD engine {name!r}; choose {' or '.join(ENGINES)}")
