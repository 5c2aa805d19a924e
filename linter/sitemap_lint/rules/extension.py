"""The contract between the checker and the extension families (image, video, news, hreflang).

An extension family registers its checker class for its namespace with
``rules.base.check("extension", namespace=..., emits=...)``. For each file the
checker makes one instance per extension namespace that occurs in it (and whose
rules are enabled). Each extension element standing directly in a ``url`` goes
to ``check`` with the entry's context; ``end_entry`` follows once per entry
that had such elements, and ``finish`` once at the end of the file, for rules
that count or compare across entries.

Messages name a namespace's elements with its usual prefix (``image:loc``,
``xhtml:link``); for a file that declares another prefix for it, the checker hands
the family a reporter that names them as the file writes them (``as_written``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Mapping
from functools import lru_cache
from typing import Protocol, TypeVar

from sitemap_lint.domain.sequence import (
    Step,
    is_order_problem,
    misplacement,
    order_of,
    sequence_break,
)
from sitemap_lint.finding import Finding, Rule
from sitemap_lint.model import SITEMAP_NS, Node, written_name
from sitemap_lint.rules.entry import EntryContext
from sitemap_lint.rules.structure import (
    EXTENSION_PREFIXES,
    UNEXPECTED_TEXT,
    CoverageReporter,
    Covers,
    Only,
    Reporter,
)

__all__ = [
    "UNEXPECTED_TEXT",
    "EntryContext",
    "ExtensionChecker",
    "as_written",
    "check_child_order",
    "check_text",
    "misplaced_message",
    "removal_note",
    "stray_child_message",
]


class ExtensionChecker(Protocol):
    def check(self, element: Node, context: EntryContext, report: Reporter) -> None: ...

    def end_entry(self, context: EntryContext, report: Reporter) -> None: ...

    def finish(self, report: Reporter) -> None: ...


AnyReporter = TypeVar("AnyReporter", Reporter, CoverageReporter)


def as_written(report: AnyReporter, namespace: str, prefixes: Mapping[str, str]) -> AnyReporter:
    """``report``, or, where the document declares for ``namespace`` a prefix other than
    its usual one (``prefixes``: namespace -> prefix, '' for the default namespace), a
    reporter that renames the namespace's elements in the messages it is handed as the
    document writes them: ``<img:loc>`` for ``<image:loc>``, ``<loc>`` where the
    namespace is the default one."""
    usual = EXTENSION_PREFIXES.get(namespace)
    written = prefixes.get(namespace)
    if usual is None or written is None or written == usual:
        return report
    return _Renamed(report, _renaming(usual, written))


@lru_cache(maxsize=16)
def _renaming(usual: str, written: str) -> Callable[[str], str]:
    # A name with the usual prefix: not part of a word, a URL or a quoted value.
    name = re.compile(rf"(?<![\w.:/'\"-]){re.escape(usual)}:(?=[A-Za-z_])")
    spelled = re.compile(rf"\bthe {re.escape(usual)}: prefix\b")
    if not written:
        return lambda message: name.sub("", message)

    def renamed(message: str) -> str:
        return spelled.sub(f"the {written}: prefix", name.sub(f"{written}:", message))

    return renamed


class _Renamed:
    """A reporter that renames the elements its findings' messages name (``as_written``)."""

    __slots__ = ("_rename", "_report")

    def __init__(self, report: Reporter, rename: Callable[[str], str]) -> None:
        self._report = report
        self._rename = rename

    def add(self, finding: Finding, covers: Covers | None = None) -> None:
        message = self._rename(finding.message)
        if message != finding.message:
            finding = Finding(
                finding.code,
                finding.name,
                finding.severity,
                message,
                finding.line,
                finding.column,
                finding.key,
                finding.fix,
                finding.xpath,
            )
        self._report.add(finding, covers)

    def covered(self, node: Node) -> bool:
        covered: Callable[[Node], bool] = getattr(self._report, "covered")  # noqa: B009
        return covered(node)


def check_child_order(
    parent: Node,
    namespace: str,
    sequence: tuple[Step, ...],
    rule: Rule,
    family: str,
    whose: str,
    cover: Callable[[Node], Covers],
    report: Reporter,
    removable: Mapping[str, str] | None = None,
) -> None:
    """``rule`` (a child-order warning) where the schema's sequence of ``parent``'s
    children breaks only by order; it covers the child the schema engines report, so
    that the strict schema's verdict is this warning. ``whose`` names the children in
    the message (" " or " of <news:news>'s children: "). ``removable``: the children
    Google ignores, by name, with what the message says of one (where the child out of
    place is one, removing it, as their own rule asks, also fixes the order)."""
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
            f"{order_of(sequence)} (Google reads any order; strict schema validators do not)"
            + removal_note(family, node.name, removable),
        ),
        cover(node),
    )


def removal_note(prefix: str, name: str, removable: Mapping[str, str] | None) -> str:
    """The end of an order message on the child ``name`` of the extension ``prefix``
    when Google ignores it (``removable``: such children's names, with what is said of
    one, such as "Google ignores {} since 2022", where {} stands for the child's tag)."""
    said = (removable or {}).get(name)
    if said is None:
        return ""
    return "; " + said.format(f"<{prefix}:{name}>") + ": removing it also fixes this"


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
