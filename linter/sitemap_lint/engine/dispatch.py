"""Which checks run on a file's entries, and handing each entry's fields to them.

The checks register themselves with ``rules.base.check`` (see
``rules.registry``). ``selected`` keeps the ones a run needs: a check runs when
one of the rules it reports is enabled, or when its findings cover their nodes
and something reads that coverage (the schema rule, whose errors on a covered
node are dropped, or an enabled check that asks for it). Every check runs while
a rule that reads all findings is enabled (unused suppressions). So turning
rules off skips their work and never changes what the other rules report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node, prefixes_at
from sitemap_lint.rules.entry import EntryContext, FileContext, Providers
from sitemap_lint.rules.events import FetchProblem, FileEnd, InputProblem, SchemaError, TopLevel
from sitemap_lint.rules.extension import as_written
from sitemap_lint.rules.registry import (
    CHECKS,
    CHILDREN,
    COVERAGE_READERS,
    END,
    ENTRY,
    EXTENSION,
    FETCH,
    FIELDS,
    INPUT,
    NAMESPACE,
    ROOT,
    SCHEMA,
    STATEFUL,
    TOP_LEVEL,
    CheckSpec,
    families,
)
from sitemap_lint.rules.structure import CoverageReporter, Reporter
from sitemap_lint.sets.facts import FileFacts

FieldCall = Callable[[Node, EntryContext, CoverageReporter], None]


def selected(
    enabled: frozenset[str] | None, checks: Sequence[CheckSpec] | None = None
) -> tuple[CheckSpec, ...]:
    """The checks a run with the ``enabled`` rule codes (None: all) needs."""
    return _selected(enabled, tuple(CHECKS if checks is None else checks))


@lru_cache(maxsize=16)
def _selected(
    enabled: frozenset[str] | None, checks: tuple[CheckSpec, ...]
) -> tuple[CheckSpec, ...]:
    if enabled is None:
        return checks
    coverage_read = not enabled.isdisjoint(COVERAGE_READERS) or any(
        spec.uses_coverage and not spec.emits.isdisjoint(enabled) for spec in checks
    )
    return tuple(
        spec
        for spec in checks
        if not spec.emits.isdisjoint(enabled) or (spec.covers and coverage_read)
    )


def _order(spec: CheckSpec) -> tuple[int, int]:
    """On one target: the check that fills an entry value first, the ones that read
    coverage last, the others in the order they were registered."""
    rank = 0 if spec.provides is not None else 2 if spec.uses_coverage else 1
    return rank, spec.sequence


class Dispatch:
    """The checks of one sitemap file, made once when its root is known."""

    def __init__(
        self, file: FileContext, enabled: frozenset[str] | None, checks: Iterable[CheckSpec] = ()
    ) -> None:
        self.file = file
        self.now = file.options.now
        families()  # the plugins' checks register when their modules are loaded
        every = tuple(checks) or tuple(CHECKS)
        specs = selected(enabled, every)
        # The values some checks fill, read by their fallbacks when those checks are off.
        self.providers: Providers = {
            spec.provides: (spec.targets[0], spec.fallback)
            for spec in every
            if spec.provides is not None and spec.fallback is not None
        }
        self._per_file: list[Any] = []  # instances of the field checks that keep state
        # Those that take the fast path's proved entries, by their hand-over's name.
        self.handovers: dict[str, Any] = {}
        made: dict[int, Any] = {}
        table: list[tuple[str, list[FieldCall]]] = []
        for target in FIELDS:
            calls: list[FieldCall] = []
            for spec in sorted((s for s in specs if target in s.targets), key=_order):
                call = self._call(spec, made)
                if call is not None:
                    calls.append(call)
            if calls:
                table.append((target, calls))
        self._fields = tuple((target, tuple(calls)) for target, calls in table)
        # The checks of the root and of whole entries (the same calls' shape: the node,
        # then the file's or the entry's context).
        self._root = self._calls(specs, ROOT, made)
        # The checks of an entry's children; the one that finds its fields says so.
        self._children = tuple(
            (spec.implementation, spec.provides == "fields")
            for spec in sorted((s for s in specs if CHILDREN in s.targets), key=_order)
        )
        read_fields = next(
            (spec.fallback for spec in every if CHILDREN in spec.targets and spec.provides),
            None,
        )
        assert read_fields is not None  # rules.structure registers it
        self._read_fields: Callable[[Node], dict[str, Node]] = read_fields
        self._entries = self._calls(specs, ENTRY, made)
        self._top_level = self._calls(specs, TOP_LEVEL, made)
        self._namespace = self._calls(specs, NAMESPACE, made)
        self._schema = self._calls(specs, SCHEMA, made)
        self._end = self._calls(specs, END, made)
        self._extension_specs = {
            spec.namespace: spec for spec in specs if EXTENSION in spec.targets and spec.namespace
        }
        self._extensions: dict[str, Any] = {}  # namespace -> checker, made at first use

    def _calls(
        self, specs: Iterable[CheckSpec], target: str, made: dict[int, Any]
    ) -> tuple[Any, ...]:
        ordered = sorted((spec for spec in specs if target in spec.targets), key=_order)
        return tuple(call for spec in ordered if (call := self._call(spec, made)) is not None)

    def _call(self, spec: CheckSpec, made: dict[int, Any]) -> FieldCall | None:
        if not spec.per_file:
            return spec.implementation  # type: ignore[no-any-return]
        instance = made.get(id(spec))
        if instance is None:
            instance = made[id(spec)] = spec.implementation(self.file)
            self._per_file.append(instance)
            if spec.proof.kind == STATEFUL:
                self.handovers[spec.proof.name] = instance
        if getattr(instance, "idle", False):
            return None  # nothing to look at in this file (robots rules without robots.txt)
        return instance.check  # type: ignore[no-any-return]

    def entry(self, entry: Node, fields: Mapping[str, Node], kind: str) -> EntryContext:
        """The context of one entry for the checks."""
        file = self.file
        return EntryContext(
            entry, fields, kind, self.now, self.providers, file.replacements, file.prefixes
        )

    @property
    def targets(self) -> tuple[str, ...]:
        """The fields some selected check looks at."""
        return tuple(target for target, _calls in self._fields)

    def fields(self, entry: EntryContext, report: CoverageReporter) -> None:
        """Hand each field of ``entry`` to the checks that look at it."""
        fields = entry.fields
        for target, calls in self._fields:
            node = fields.get(target)
            if node is None:
                continue
            for call in calls:
                call(node, entry, report)

    def root(self, root: Node, report: CoverageReporter) -> None:
        """Hand the root element to the checks of the root."""
        for call in self._root:
            call(root, self.file, report)

    def children(self, entry: Node, report: CoverageReporter) -> dict[str, Node]:
        """Hand an entry, its children read, to the checks of its children; its fields (the
        first of each with a value), as the structure check finds them."""
        fields: dict[str, Node] | None = None
        for call, finds_fields in self._children:
            found = call(entry, self.file, report)
            if finds_fields:
                fields = found
        return self._read_fields(entry) if fields is None else fields

    def top_level(self, element: TopLevel, report: CoverageReporter) -> None:
        """Hand an element of the root that is not an entry to the checks of those."""
        for call in self._top_level:
            call(element, self.file, report)

    def namespace(self, node: Node, report: CoverageReporter) -> None:
        """Hand the first element of a namespace without a bundled schema to its checks."""
        for call in self._namespace:
            call(node, self.file, report)

    def schema_error(self, error: SchemaError, report: CoverageReporter) -> None:
        """Hand what the schema engine rejects to the checks of those errors."""
        for call in self._schema:
            call(error, self.file, report)

    def entries(self, entry: EntryContext, report: CoverageReporter) -> None:
        """Hand a whole entry, its fields and extensions checked, to the entry checks."""
        for call in self._entries:
            call(entry.entry, entry, report)

    def extensions(self, entry: EntryContext, report: CoverageReporter) -> None:
        """Hand each extension element of ``entry`` to its namespace's checker."""
        used: dict[str, tuple[Any, Node]] = {}
        prefixes = self.file.prefixes
        for child in entry.entry.children:
            checker = self._extension(child.ns)
            if checker is None:
                continue
            # The namespace's elements named as written there (a prefix the entry declares).
            checker.check(child, entry, as_written(report, child.ns, prefixes_at(prefixes, child)))
            used.setdefault(child.ns, (checker, child))
        for ns, (checker, first) in used.items():
            checker.end_entry(entry, as_written(report, ns, prefixes_at(prefixes, first)))

    def _extension(self, ns: str) -> Any:
        checker = self._extensions.get(ns)
        if checker is None:
            spec = self._extension_specs.get(ns)
            if spec is not None:
                checker = self._extensions[ns] = spec.implementation(self.file)
        return checker

    def end(self, end: FileEnd, report: CoverageReporter) -> None:
        """Hand the end of the file, every entry read, to the end checks."""
        for call in self._end:
            call(end, self.file, report)

    def finish(self, report: CoverageReporter, facts: FileFacts | None) -> None:
        """The end of the file: the checks that count or compare across entries report."""
        for ns, checker in self._extensions.items():
            if facts is not None and hasattr(checker, "take_records"):
                # hreflang across the files of the set: the set compares them all.
                facts.alternates = checker.take_records()
            else:
                checker.finish(as_written(report, ns, self.file.prefixes))
        for instance in self._per_file:
            finish = getattr(instance, "finish", None)
            if finish is not None:
                finish(report)


def once(
    target: str, event: object, context: object, report: Reporter, enabled: frozenset[str] | None
) -> None:
    """Hand ``event`` to the checks of ``target``, a target seen once a file, that a run
    with the ``enabled`` rules needs: the prolog (``context``: the run's options), or the
    end of a file no ``Dispatch`` reads (a feed, a text sitemap; ``context``: its
    ``FileContext``)."""
    families()  # the plugins' checks register when their modules are loaded
    for spec in _once(enabled, target, tuple(CHECKS)):
        spec.implementation(event, context, report)


class InputChecks:
    """Hands what the reader and the decoder meet in the raw bytes to the ``input`` checks
    that a run with the ``enabled`` rules (None: all) needs; their findings go to
    ``report``, with ``options`` (None: a read outside a check, as ``--fix`` reads)."""

    __slots__ = ("enabled", "options", "report")

    def __init__(
        self, report: Reporter, enabled: frozenset[str] | None = None, options: object = None
    ) -> None:
        self.report = report
        self.enabled = enabled
        self.options = options

    def problem(self, problem: InputProblem) -> None:
        once(INPUT, problem, self.options, self.report, self.enabled)


def fetch_findings(
    problems: Iterable[FetchProblem], enabled: frozenset[str] | None = None
) -> list[Finding]:
    """The findings the ``fetch`` checks that a run with the ``enabled`` rules (None:
    all) needs make of what went wrong fetching a file."""
    from sitemap_lint.engine.sink import FindingList

    found = FindingList()
    for problem in problems:
        once(FETCH, problem, None, found, enabled)
    return list(found)


def calls(target: str, enabled: frozenset[str] | None) -> tuple[Callable[..., None], ...]:
    """The checks of ``target`` (a function target: a text sitemap's ``line``) that a
    run with the ``enabled`` rules needs, in their order, for a front end to call."""
    families()  # the plugins' checks register when their modules are loaded
    return tuple(spec.implementation for spec in _once(enabled, target, tuple(CHECKS)))


@lru_cache(maxsize=16)
def _once(
    enabled: frozenset[str] | None, target: str, checks: tuple[CheckSpec, ...]
) -> tuple[CheckSpec, ...]:
    """The checks of ``target`` among ``checks`` that the run needs, in their order."""
    return tuple(
        sorted((spec for spec in selected(enabled, checks) if target in spec.targets), key=_order)
    )
