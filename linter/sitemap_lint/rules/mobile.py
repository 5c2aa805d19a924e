"""Mobile extension rules: `mobile:mobile` inside url (Google's feature-phone sitemaps).

The element marked a page written for feature phones (WML, XHTML Mobile, cHTML). Google
retired the feature-phone crawler in 2016, and with it the mobile sitemap annotation: the
element is ignored. Its content and attributes are the schema's to report (the element
is empty); a `mobile:mobile` outside any url is the structure rules'
(`extension-outside-entry`).
"""

from __future__ import annotations

from sitemap_lint.model import Node
from sitemap_lint.rules.base import INFO, NO_PROOF, check, rule
from sitemap_lint.rules.entry import EntryContext, FileContext
from sitemap_lint.rules.structure import Reporter

NAMESPACE = "http://www.google.com/schemas/sitemap-mobile/1.0"

RETIRED = rule(
    "MB001",
    "mobile-annotation-retired",
    INFO,
    summary="A `mobile:mobile` annotation, which Google retired with its feature-phone crawler",
    what="""
        Reports each `mobile:mobile` element of a `url`: the annotation that marked a
        page served to feature phones (WML, XHTML Mobile Profile or cHTML pages).
    """,
    why="""
        Google retired its feature-phone Googlebot at the end of 2016 and said then that
        the special sitemap extension for feature phones was no longer needed: the
        element is ignored. It is harmless, but it keeps a namespace and an element in
        every entry for nothing, and it suggests that the page is for feature phones,
        which a smartphone or desktop page is not. Pages for smartphones need no
        annotation in the sitemap.
    """,
    bad="""
        <url>
          <loc>https://example.com/article100.html</loc>
          <mobile:mobile/>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/article100.html</loc>
        </url>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Mobile extension"
ORDER = 157

RULES = (RETIRED,)


@check("extension", namespace=NAMESPACE, emits=RULES, proof=NO_PROOF)
class Checker:
    """Checks the mobile elements of one file; it keeps no state between entries."""

    def __init__(self, file: FileContext | None = None) -> None:
        pass

    def check(self, element: Node, context: EntryContext, report: Reporter) -> None:
        if element.name != "mobile":
            return  # a name the extension does not define: the schema's message says it
        report.add(
            RETIRED.at(
                element.line,
                element.column,
                "<mobile:mobile> marks a page for feature phones, an annotation Google "
                "retired in 2016 and ignores; remove it (and the namespace's declaration "
                "once no entry uses it)",
            )
        )

    def end_entry(self, context: EntryContext, report: Reporter) -> None:
        return None

    def finish(self, report: Reporter) -> None:
        return None
