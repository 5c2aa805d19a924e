"""Where a schema's fixed sequence of child elements breaks, as XSD engines see it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Generic, Protocol, TypeVar

from sitemap_lint.support.records import Frozen, NamedTuple


class Element(Protocol):
    """What the analysis reads of an element: its namespace and local name."""

    @property
    def ns(self) -> str: ...

    @property
    def name(self) -> str: ...


E = TypeVar("E", bound=Element)


class Step(NamedTuple):
    """One element of a sequence: its name and how often it may occur (None: unbounded)."""

    name: str
    minimum: int
    maximum: int | None


@dataclass(init=False, repr=False, eq=False)
class Break(Frozen, Generic[E]):
    """The child at which the sequence fails, and how.

    ``kind`` is ``"unknown"`` (a child the sequence does not name), ``"repeat"`` (one
    more than allowed), ``"order"`` (a child after one that must follow it; ``name``
    is the earlier sibling it must precede) or ``"missing"`` (a required child was
    skipped; ``name`` is that child, which may still come later: then it is an order
    problem too).
    """

    node: E
    kind: str
    name: str

    def __init__(self, node: E, kind: str, name: str) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "node", node)
        setattr_(self, "kind", kind)
        setattr_(self, "name", name)


def sequence_break(children: Sequence[E], ns: str, steps: tuple[Step, ...]) -> Break[E] | None:
    """The first child of ``children`` (in namespace ``ns``) that breaks ``steps``."""
    rank = _ranks(steps)
    position = -1
    seen: dict[str, int] = {}
    for child in children:
        index = rank.get(child.name) if child.ns == ns else None
        if index is None:
            return Break(child, "unknown", child.name)
        count = seen.get(child.name, 0)
        maximum = steps[index].maximum
        if maximum is not None and count >= maximum:
            return Break(child, "repeat", child.name)
        if index < position:
            earlier = next(c for c in children if c.ns == ns and rank.get(c.name, -1) > index)
            return Break(child, "order", earlier.name)
        for skipped in range(position + 1, index):
            if steps[skipped].minimum > 0:
                return Break(child, "missing", steps[skipped].name)
        position = index
        seen[child.name] = count + 1
    return None


@cache  # (a schema's few sequences, checked for each element)
def _ranks(steps: tuple[Step, ...]) -> dict[str, int]:
    """Each step's place in ``steps``, by its name."""
    return {step.name: index for index, step in enumerate(steps)}


def is_order_problem(found: Break[E] | None, children: Sequence[E], ns: str) -> bool:
    """True when the break is only a matter of order: a child written too early or late."""
    if found is None:
        return False
    if found.kind == "order":
        return True
    if found.kind == "missing":
        index = next(i for i, child in enumerate(children) if child is found.node)
        after = children[index + 1 :]
        return any(c.ns == ns and c.name == found.name for c in after)
    return False


def order_of(steps: Sequence[Step]) -> str:
    return ", ".join(step.name for step in steps)


def misplacement(found: Break[E], prefix: str) -> str:
    """What is out of place, for a message: "<p:title> stands before <p:loc>: move <p:loc> up"."""
    node, other = f"<{prefix}:{found.node.name}>", f"<{prefix}:{found.name}>"
    if found.kind == "missing":
        return f"{node} stands before {other}: move {other} up"
    return f"{node} stands after {other}: move it before {other}"
