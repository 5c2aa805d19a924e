"""Where a fixed sequence of children breaks."""

from __future__ import annotations

from sitemap_lint.domain.sequence import Step, is_order_problem, misplacement, sequence_break
from sitemap_lint.model import Node

NS = "urn:x"
STEPS = (Step("loc", 1, 1), Step("caption", 0, 1), Step("title", 0, 1))


def children(*names: str) -> list[Node]:
    return [Node(NS, name, {}, line, 1) for line, name in enumerate(names, 1)]


def test_in_order() -> None:
    assert sequence_break(children("loc", "caption", "title"), NS, STEPS) is None
    assert sequence_break(children("loc", "title"), NS, STEPS) is None


def test_required_child_later_is_an_order_problem() -> None:
    nodes = children("title", "loc")
    found = sequence_break(nodes, NS, STEPS)
    assert found is not None and (found.node.line, found.kind, found.name) == (1, "missing", "loc")
    assert is_order_problem(found, nodes, NS)
    assert (
        misplacement(found, "image")
        == "<image:title> stands before <image:loc>: move <image:loc> up"
    )


def test_required_child_absent_is_not_an_order_problem() -> None:
    nodes = children("title")
    found = sequence_break(nodes, NS, STEPS)
    assert found is not None and found.kind == "missing"
    assert not is_order_problem(found, nodes, NS)


def test_optional_children_swapped() -> None:
    nodes = children("loc", "title", "caption")
    found = sequence_break(nodes, NS, STEPS)
    assert found is not None and (found.node.line, found.kind, found.name) == (3, "order", "title")
    assert is_order_problem(found, nodes, NS)
    assert (
        misplacement(found, "image")
        == "<image:caption> stands after <image:title>: move it before <image:title>"
    )


def test_repeats_and_unknown_children_are_not_order_problems() -> None:
    for names, kind in ((("loc", "caption", "loc"), "repeat"), (("loc", "colour"), "unknown")):
        nodes = children(*names)
        found = sequence_break(nodes, NS, STEPS)
        assert found is not None and found.kind == kind
        assert not is_order_problem(found, nodes, NS)
    other = [Node("urn:other", "loc", {}, 1, 1)]
    found = sequence_break(other, NS, STEPS)
    assert found is not None and found.kind == "unknown"
