"""An example plugin: its rules are declared as the built-in families declare theirs."""

from __future__ import annotations

from sitemap_lint.fix.model import replace_text
from sitemap_lint.model import Node
from sitemap_lint.rules.base import WARNING, check, rule
from sitemap_lint.rules.entry import EntryContext
from sitemap_lint.rules.structure import Reporter

FAMILY = "Demo plugin"

PLAIN_HTTP = rule(
    "ZZ001",
    "plain-http-page",
    WARNING,
    summary="A page URL served over plain http",
    what="""
        Detects a `loc` whose URL starts with `http://`.
    """,
    why="""
        The site serves its pages over https; an http URL costs a redirect.
    """,
    bad="""
        <loc>http://example.com/</loc>
    """,
    good="""
        <loc>https://example.com/</loc>
    """,
    fix="unsafe",
)

RULES = (PLAIN_HTTP,)


@check("loc", emits=RULES)
def plain_http(node: Node, entry: EntryContext, report: Reporter) -> None:
    url = node.text.strip()
    if url.lower().startswith("http://"):
        secure = f"https://{url[7:]}"
        # Unsafe: the https URL is another URL, which the site may not serve.
        fix = replace_text(node, secure, "List the https URL", safe=False)
        report.add(
            PLAIN_HTTP.at(node.line, node.column, f"{url} is plain http; list {secure}", fix=fix)
        )
