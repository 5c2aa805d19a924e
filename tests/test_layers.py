"""The package's layers, read from its source: no import cycle among its modules, and the
rules (and the domain, once it exists) never reach the command line or the report.

The graph holds every import the code makes: at the top of a module, inside functions and
under ``if TYPE_CHECKING:`` (an annotation that needs another module is a dependency too).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGE = "sitemap_lint"
SOURCE = ROOT / "linter" / PACKAGE

# Lower layers and what they must never import (a module, a package or a third-party
# package, each with everything below it).
LOWER = ("sitemap_lint.domain", "sitemap_lint.rules")
UPPER = ("sitemap_lint.cli", "sitemap_lint.report", "typer", "rich")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(SOURCE.rglob("*.py"))}


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute name a ``from ... import`` reads from."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".")
    if modules()[module].name != "__init__.py":
        package.pop()
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


@cache
def imports_of(module: str) -> frozenset[str]:
    """Every module ``module`` imports (package names included, third-party ones too),
    read once."""
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            for alias in node.names:
                # `from package import submodule` imports the submodule; a name from a
                # module is a dependency on that module.
                full = f"{base}.{alias.name}"
                found.add(full if full in modules() else base)
    found.discard(module)
    return frozenset(found)


@cache
def graph() -> dict[str, frozenset[str]]:
    """The import graph among the package's own modules."""
    return {
        module: frozenset(name for name in imports_of(module) if name in modules())
        for module in modules()
    }


def _strongly_connected(edges: dict[str, frozenset[str]]) -> Iterator[list[str]]:
    """Tarjan's algorithm, iteratively: every group of modules that reach each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        yield sorted(group)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])


def _shortest_cycle(edges: dict[str, frozenset[str]], start: str, group: set[str]) -> list[str]:
    """The shortest path from ``start`` back to itself inside ``group`` (breadth first)."""
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(edges[node] & group):
            if child == start:
                return paths[node]
            if child not in paths:
                paths[child] = [*paths[node], child]
                queue.append(child)
    raise AssertionError(f"{start} is in no cycle")  # pragma: no cover


def find_cycles(edges: dict[str, frozenset[str]]) -> list[tuple[str, ...]]:
    """Each cycle, from its smallest module name on: within every group of modules that
    reach each other, the shortest cycle through each member (so a group with two loops
    shows both)."""
    cycles: set[tuple[str, ...]] = set()
    for group in _strongly_connected(edges):
        members = set(group)
        for start in group:
            cycle = _shortest_cycle(edges, start, members)
            first = cycle.index(min(cycle))
            cycles.add(tuple(cycle[first:] + cycle[:first]))
    return sorted(cycles)


def _show(cycle: tuple[str, ...]) -> str:
    return " -> ".join([*cycle, cycle[0]])


def test_the_graph_is_read_from_the_source() -> None:
    """A check that the reader sees what the cycle test relies on."""
    edges = graph()
    assert "sitemap_lint.engine.checker" in edges["sitemap_lint.run"]  # inside execute()
    assert (
        "sitemap_lint.settings.options" in edges["sitemap_lint.formats.feed"]
    )  # under TYPE_CHECKING
    assert "sitemap_lint.rules.feed" in edges["sitemap_lint.formats.feed"]  # from pkg import mod
    assert "typer" in imports_of("sitemap_lint.cli")


def test_cycle_finder_finds_and_names_cycles() -> None:
    edges = {
        "a": frozenset({"b"}),
        "b": frozenset({"c"}),
        "c": frozenset({"a", "d"}),
        "d": frozenset(),
        "e": frozenset({"f"}),
        "f": frozenset({"e"}),
    }
    assert find_cycles(edges) == [("a", "b", "c"), ("e", "f")]
    assert _show(("e", "f")) == "e -> f -> e"
    assert find_cycles({"a": frozenset({"b"}), "b": frozenset()}) == []


def test_no_import_cycle() -> None:
    cycles = find_cycles(graph())
    new = list(cycles)
    assert new == [], "import cycle(s):\n" + "\n".join(_show(cycle) for cycle in new)


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _chain_to_upper(start: str) -> list[str] | None:
    """The shortest import chain from ``start`` to a module that imports an UPPER name,
    that name last; None when there is none (breadth first over the package's graph)."""
    edges = graph()
    paths = {start: [start]}
    queue = [start]
    while queue:
        module = queue.pop(0)
        upper = sorted(name for name in imports_of(module) if _within(name, UPPER))
        if upper:
            return [*paths[module], upper[0]]
        for child in sorted(edges[module]):
            if child not in paths:
                paths[child] = [*paths[module], child]
                queue.append(child)
    return None


def test_rules_never_import_the_command_line_or_the_report() -> None:
    """Directly or through other modules of the package."""
    wrong = [
        " -> ".join(chain)
        for module in sorted(modules())
        if _within(module, LOWER)
        for chain in [_chain_to_upper(module)]
        if chain is not None
    ]
    assert wrong == [], "\n".join(wrong)


def test_the_layer_check_follows_imports_through_other_modules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = imports_of

    def with_a_report_import(module: str) -> frozenset[str]:
        found = real(module)
        return found | {"rich.console"} if module == "sitemap_lint.finding" else found

    monkeypatch.setattr(sys.modules[__name__], "imports_of", with_a_report_import)
    chain = _chain_to_upper("sitemap_lint.rules.urls")
    assert chain is not None and chain[0] == "sitemap_lint.rules.urls"
    assert chain[-2:] == ["sitemap_lint.finding", "rich.console"]


LONG_CLASS = 300  # lines; a class past it says why in its docstring


def test_a_class_longer_than_most_says_why() -> None:
    unexplained = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or node.end_lineno is None:
                continue
            lines = node.end_lineno - node.lineno + 1
            if lines > LONG_CLASS and "longer than most" not in (ast.get_docstring(node) or ""):
                unexplained.append(f"{name}.{node.name} ({lines} lines)")
    assert unexplained == []
