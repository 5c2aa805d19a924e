"""The alternative engine: the pure-Python xmlschema package (slower, imported only on request)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import xmlschema

from sitemap_lint.model import SITEMAP_NS, Node
from sitemap_lint.xsd import builder, messages

if TYPE_CHECKING:
    from elementpath.protocols import ElementProtocol
    from lxml import etree


class XmlschemaEngine:
    def __init__(self) -> None:
        self._schemas: dict[str, xmlschema.XMLSchema] = {}

    def _schema(self, root_name: str) -> xmlschema.XMLSchema:
        schema = self._schemas.get(root_name)
        if schema is None:
            path = builder.schema_path(builder.BUNDLES[root_name])
            schema = self._schemas[root_name] = xmlschema.XMLSchema(
                str(path), defuse="always", use_fallback=False
            )
        return schema

    def validate(
        self,
        root_name: str,
        entries: Sequence[Node],
        sitemap_ns: str = SITEMAP_NS,
        extensions: bool = True,
    ) -> list[tuple[Node, str]]:
        """Always the bundled schemas: ``extensions`` only lets libxml2 compile less."""
        schema = self._schema(root_name)
        root, nodes = builder.build(root_name, entries, sitemap_ns)
        results = _unknown_types(schema, root, nodes)
        try:
            # xmlschema reads lxml elements; the two packages' stubs do not agree on ``tag``.
            errors = list(schema.iter_errors(cast("ElementProtocol", root)))
        except (KeyError, ValueError, TypeError, RecursionError) as failure:
            # xmlschema raises instead of reporting for a few inputs; report it on the
            # first entry.
            return [(entries[0], messages.clean(f"cannot be validated: {failure}"))]
        for error in errors:
            child = getattr(error, "invalid_child", None)
            element = child if child is not None else error.elem
            reason = error.reason or error.message
            if child is not None and _takes_no_children(error.validator):
                # Each child of an element whose content is empty is an error of its
                # own here; libxml2 reports the element once, and so do we.
                element, reason = error.elem, _NO_CHILDREN
            node = builder.node_at(nodes, getattr(element, "sourceline", None))
            if node is not None:
                results.append((node, messages.clean(reason)))
        return results


_XSI_TYPE = "{http://www.w3.org/2001/XMLSchema-instance}type"


def _unknown_types(
    schema: xmlschema.XMLSchema, root: etree._Element, nodes: list[Node | None]
) -> list[tuple[Node, str]]:
    """xmlschema raises, instead of reporting, on an xsi:type naming a type the schemas do
    not define: each such element is reported here, and its xsi:type removed from the
    rebuilt batch, so that the rest of the batch is validated as usual."""
    results = []
    for element in root.iter():
        value = element.get(_XSI_TYPE)
        if value is None:
            continue
        prefix, _, local = value.strip().rpartition(":")
        namespace = element.nsmap.get(prefix or None)
        if namespace is not None and f"{{{namespace}}}{local}" in schema.maps.types:
            continue
        del element.attrib[_XSI_TYPE]
        node = builder.node_at(nodes, element.sourceline)
        if node is not None:
            results.append((node, f"attribute xsi:type: the schemas define no type '{value}' here"))
    return results


# What the engine is told of the children of an element whose content is empty.
_NO_CHILDREN = "child elements are not allowed because content is empty"


def _takes_no_children(validator: object) -> bool:
    """Whether ``validator`` is a content model that holds no element at all."""
    return isinstance(validator, xmlschema.validators.XsdGroup) and validator.is_empty()
