"""The alternative engine: the pure-Python xmlschema package (slower, imported only on request)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import xmlschema

from sitemap_lint.model import SITEMAP_NS, Node
from sitemap_lint.xsd import builder, messages

if TYPE_CHECKING:
    from elementpath.protocols import ElementProtocol


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
        results = []
        try:
            # xmlschema reads lxml elements; the two packages' stubs do not agree on ``tag``.
            errors = list(schema.iter_errors(cast("ElementProtocol", root)))
        except (KeyError, ValueError, TypeError, RecursionError) as failure:
            # xmlschema raises instead of reporting for a few inputs (an xsi:type
            # naming an unknown type); report it on the first entry.
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


# What the engine is told of the children of an element whose content is empty.
_NO_CHILDREN = "child elements are not allowed because content is empty"


def _takes_no_children(validator: object) -> bool:
    """Whether ``validator`` is a content model that holds no element at all."""
    return isinstance(validator, xmlschema.validators.XsdGroup) and validator.is_empty()
