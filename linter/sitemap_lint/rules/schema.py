"""Schema rule: what the XSD engine finds that no clearer rule already reported."""

from __future__ import annotations

from collections.abc import Mapping

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node, prefixes_at
from sitemap_lint.rules.base import ERROR, NO_PROOF, check, rule
from sitemap_lint.rules.events import SchemaError
from sitemap_lint.rules.extension import as_written
from sitemap_lint.rules.registry import SCHEMA, reads_coverage
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.patterns import lazy
from sitemap_lint.xsd.messages import advice, clean

SCHEMA_VIOLATION = rule(
    "XS001",
    "schema-violation",
    ERROR,
    summary="The entry is invalid against the bundled XSD",
    what="""
        Validates every entry against the bundled schemas (sitemaps.org 0.9 and
        Google's image, video, news, mobile, PageMap and XHTML link extensions) and
        reports the violations that no more specific rule explains, with the
        schema engine's message.
    """,
    why="""
        The schemas are the protocol's formal definition. Invalid entries are
        dropped or misread by strict consumers, and search engines report them as
        invalid tags or values.
    """,
    bad="""
        <url>
          <loc>https://example.com/</loc>
          <image:image>
            <image:loc>https://example.com/front.jpg</image:loc>
            <image:loc>https://example.com/back.jpg</image:loc>
          </image:image>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/</loc>
          <image:image><image:loc>https://example.com/front.jpg</image:loc></image:image>
          <image:image><image:loc>https://example.com/back.jpg</image:loc></image:image>
        </url>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Schema"
ORDER = 120

RULES = (SCHEMA_VIOLATION,)

reads_coverage(SCHEMA_VIOLATION)  # an error on a node another finding covered is dropped


@check(SCHEMA, emits=(SCHEMA_VIOLATION,), proof=NO_PROOF)
def check_schema_error(error: SchemaError, file: object, report: Reporter) -> None:
    """XS001 for what the schema engine rejects (the fast path proves entries the schemas
    accept, and hands no error over: no proof needed). The extension elements it names
    are named as the file writes them (``extension.as_written``)."""
    prefixes: Mapping[str, str] = prefixes_at(getattr(file, "prefixes", None) or {}, error.node)
    for namespace in prefixes:
        report = as_written(report, namespace, prefixes)
    report.add(violation(error.node, error.message))


def violation(node: Node, message: str) -> Finding:
    """The engine's message, led by the element it is about (engines' texts often omit it)."""
    name = clean(f"{{{node.ns}}}{node.name}") if node.ns else node.name
    if name.startswith("{"):
        name = node.name  # a look-alike sitemap namespace (reported as NS002)
    typed = node.attrs.get(_XSI_TYPE) if _XSI_TYPE_ERROR.search(message) else None
    if typed is not None:
        # The engines read the batch rebuilt without the file's own declarations, so
        # their word on the type's prefix ("no corresponding namespace declaration in
        # scope", "defines no type") need not hold for the file: said in one way here.
        return SCHEMA_VIOLATION.at(
            node.line,
            node.column,
            f'<{name}>: xsi:type="{typed}" is not allowed: the schema gives <{name}> its '
            "type, and no other replaces it (schema); remove the xsi:type attribute",
        )
    hint = advice(message)
    told = f"{message} (schema); {hint}" if hint else f"{message} (schema)"
    return SCHEMA_VIOLATION.at(node.line, node.column, f"<{name}>: {told}")


# An element's xsi:type attribute (as the reader names attributes), and what the engines
# say of one (libxml2: a type unknown or not derived from the element's; xmlschema: one
# that cannot substitute the element's, and xsd.xmlschema_engine: one it does not know).
_XSI_TYPE = "http://www.w3.org/2001/XMLSchema-instance}type"
_XSI_TYPE_ERROR = lazy(r"^attribute xsi:type: |cannot substitute")
