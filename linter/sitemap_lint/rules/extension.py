"""The contract between the checker and the extension families (image, video, news, hreflang).

An extension family registers its checker class for its namespace with
``rules.base.check("extension", namespace=..., emits=...)``. For each file the
checker makes one instance per extension namespace that occurs in it (and whose
rules are enabled). Each extension element standing directly in a ``url`` goes
to ``check`` with the entry's context; ``end_entry`` follows once per entry
that had such elements, and ``finish`` once at the end of the file, for rules
that count or compare across entries.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Mapping
from typing import Protocol

from sitemap_lint.domain.sequence import (
    Step,
    is_order_problem,
    misplacement,
    order_of,
    sequence_break,
)
from sitemap_lint.finding import Rule
from sitemap_lint.model import SITEMAP_NS, Node, written_name
from sitemap_lint.rules.entry import EntryContext
from sitemap_lint.rules.structure import UNEXPECTED_TEXT, Covers, Only, Reporter

__all__ = [
    "UNEXPECTED_TEXT",
    "EntryContext",
    "ExtensionChecker",
    "check_child_order",
    "check_text",
    "misplaced_message",
    "stray_child_message",
]


class ExtensionChecker(Protocol):
    def check(self, element: Node, context: EntryContext, report: Reporter) -> None: ...

    def end_entry(self, context: EntryContext, report: Reporter) -> None: ...

    def finish(self, report: Reporter) -> None: ...


def check_child_order(
    parent: Node,
    namespace: str,
    sequence: tuple[Step, ...],
    rule: Rule,
    family: str,
    whose: str,
    cover: Callable[[Node], Covers],
    report: Reporter,
) -> None:
    """``rule`` (a child-order warning) where the schema's sequence of ``parent``'s
    children breaks only by order; it covers the child the schema engines report, so
    that the strict schema's verdict is this warning. ``whose`` names the children in
    the message (" " or " of <news:news>'s children: ")."""
    children = parent.children
    found = sequence_break(children, namespace, sequence)
    if found is None or not is_order_problem(found, children, namespace):
        return
    node = found.node
    report.add(
        rule.at(
            node.line,
            node.column,
            f"{misplacement(found, family)}; the {family} schema fixes the order{whose}"
            f"{order_of(sequence)} (Google reads any order; strict schema validators do not)",
        ),
        cover(node),
    )


def check_text(
    parent: Node, prefix: str, report: Reporter, prefixes: Mapping[str, str] | None = None
) -> None:
    """``ST009`` where text stands between the children of an extension element that holds
    only elements (``image:image``, ``video:video``, ``video:tvshow``, ``news:news``,
    ``news:publication``), at the line and column where the text starts. A CDATA section
    is text too. An element with text and no children is left to its family, which says
    what is missing. The message names it as the document writes it (``prefixes``, the
    document's; else with the usual ``prefix``)."""
    if parent.nested_text is None or not parent.children:
        return
    line, column = parent.nested_text
    report.add(
        UNEXPECTED_TEXT.at(
            line,
            column,
            f"text directly inside <{written_name(parent, prefixes or {}, prefix)}>; only its "
            "child elements stand "
            f"there, and the {prefix} schema rejects text there (in a CDATA section too): "
            "remove it or move it into the element it belongs to",
        ),
        Only(parent),  # the schema's error on the text: this finding explains it
    )


def misplaced_message(prefix: str, name: str, advice: str | None) -> str:
    """The message on an element of the extension ``prefix`` (whose own element is
    ``prefix:prefix``) standing directly in a ``url``: one of its fields, with the
    ``advice`` on where it goes, or (None) a name the extension does not define."""
    if advice is not None:
        return f"<{prefix}:{name}> stands directly in <url>; {advice}"
    close = difflib.get_close_matches(name, [prefix], n=1, cutoff=0.6)
    hint = (
        f"rename it to <{prefix}:{prefix}>"
        if close
        else (
            f"only <{prefix}:{prefix}> may stand there: remove it (or, if it holds the "
            f"fields of <{prefix}:{prefix}>, rename it to that)"
        )
    )
    return f"<{prefix}:{name}> is not an element of the {prefix} extension; {hint}"


def stray_child_message(
    prefix: str,
    namespace: str,
    child: Node,
    names: Collection[str],
    otherwise: str,
    parent: str | None = None,
) -> str:
    """The message on a ``child`` of ``prefix:parent`` (``prefix:prefix`` by default)
    that the extension (its ``namespace``, its children's ``names`` there) does not
    define there: a misspelt name, a field without its prefix, or an element of another
    namespace (``otherwise``: what to do with it)."""
    where = f"<{prefix}:{parent or prefix}>"
    if child.ns == namespace:
        close = difflib.get_close_matches(child.name, list(names), n=1, cutoff=0.6)
        hint = f"did you mean <{prefix}:{close[0]}>?" if close else "remove it"
        return f"unknown element <{prefix}:{child.name}> in {where}; {hint}"
    if child.name in names and child.ns in (SITEMAP_NS, ""):
        return (
            f"<{child.name}> inside {where} lacks the {prefix}: prefix; "
            f"write <{prefix}:{child.name}>"
        )
    namespace_shown = f" (namespace {child.ns})" if child.ns else ""
    return (
        f"<{child.name}>{namespace_shown} does not belong in {where}; only the {prefix} "
        f"extension's elements stand there: {otherwise}"
    )
