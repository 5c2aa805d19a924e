"""Frozen records that cost little to declare.

Python 3.11 writes each method of a dataclass out as source text and compiles it
(``exec``) when the class is declared: about 4 M instructions for a frozen class of
four fields, and a plain check declares a score of them at start-up. A record here is
still a dataclass (``dataclasses.fields``, ``replace`` and ``asdict`` work), declared
with ``@dataclass(init=False, repr=False, eq=False)``: it writes its own ``__init__``
(``object.__setattr__`` for a frozen one, as a dataclass's does) and takes the other
methods from a base class of this module, which reads the fields once per class:

- ``Frozen``: assignment and deletion raise ``FrozenInstanceError``; ``__repr__``,
  ``__eq__`` and ``__hash__`` over the fields (only those with ``compare`` in
  equality and hash; only those with ``repr`` in the repr), as a frozen dataclass has
  them; pickled by its fields (its ``__init__`` takes them in declaration order).
- ``Ordered``: ``Frozen`` with ``<``, ``<=``, ``>``, ``>=`` over the compared fields
  (``order=True``).
- ``FrozenIdentity``: ``Frozen`` compared and hashed by identity (``eq=False``).
- ``Mutable``: the ``__repr__`` and ``__eq__`` of a dataclass that is not frozen
  (and so not hashable).

``tests/test_records.py`` holds each record to the dataclass it replaces.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields
from typing import Any

__all__ = ["Frozen", "FrozenIdentity", "Mutable", "Ordered"]

# Per class: (the names of its fields, those compared, those shown in the repr).
_shapes: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}


def _shape(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    shape = _shapes.get(cls)
    if shape is None:
        declared = fields(cls)
        shape = _shapes[cls] = (
            tuple(f.name for f in declared),
            tuple(f.name for f in declared if f.compare),
            tuple(f.name for f in declared if f.repr),
        )
    return shape


class Frozen:
    """The methods of a frozen dataclass (``eq=True``), written once."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _shape(type(self))[2])
        return f"{type(self).__qualname__}({shown})"

    def _compared(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _shape(type(self))[1])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple(getattr(self, name) for name in _shape(type(self))[0]))


class Ordered(Frozen):
    """``Frozen`` with the order of a dataclass declared with ``order=True``."""

    __slots__ = ()

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() < other._compared()

    def __le__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() <= other._compared()

    def __gt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() > other._compared()

    def __ge__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() >= other._compared()


class FrozenIdentity(Frozen):
    """``Frozen`` compared and hashed by identity, as a dataclass with ``eq=False``."""

    __slots__ = ()
    __eq__ = object.__eq__
    __hash__ = object.__hash__


class Mutable:
    """The methods of a dataclass that is not frozen (``eq=True``: unhashable)."""

    __slots__ = ()

    __repr__ = Frozen.__repr__
    _compared = Frozen._compared
    __eq__ = Frozen.__eq__
    __hash__ = None  # type: ignore[assignment]
