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

``NamedTuple`` is ``typing.NamedTuple`` for a class declared under ``from __future__
import annotations``, without typing's check of each field's annotation: that check
compiles each annotation's text (a ``ForwardRef``), about 25 us a field, which made the
named tuples a plain check declares cost some 3.5 ms. The class is the one
``collections.namedtuple`` makes, with the body's methods, docstring and defaults, and
its annotations as written (text). Type checkers see ``typing.NamedTuple``.

``tests/test_records.py`` holds each record to the dataclass it replaces, and
``NamedTuple`` to typing's.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from dataclasses import FrozenInstanceError, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

__all__ = ["Frozen", "FrozenIdentity", "Mutable", "NamedTuple", "Ordered", "slot_setters"]

# Per class: its fields' names, the readers of the compared ones and of all, as tuples,
# and the names shown in the repr.
_shapes: dict[type, _Shape] = {}


class _Shape:
    __slots__ = ("compared", "every", "shown")

    def __init__(self, cls: type) -> None:
        declared = fields(cls)
        self.compared = _reader(tuple(f.name for f in declared if f.compare))
        self.every = _reader(tuple(f.name for f in declared))
        self.shown = tuple(f.name for f in declared if f.repr)


def _reader(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an object's attributes ``names`` as a tuple (at C speed)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        single = attrgetter(names[0])
        return lambda item: (single(item),)
    return lambda item: ()


def _shape(cls: type) -> _Shape:
    shape = _shapes.get(cls)
    if shape is None:
        shape = _shapes[cls] = _Shape(cls)
    return shape


class Frozen:
    """The methods of a frozen dataclass (``eq=True``), written once."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _shape(type(self)).shown)
        return f"{type(self).__qualname__}({shown})"

    def _compared(self) -> tuple[Any, ...]:
        return _shape(type(self)).compared(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), _shape(type(self)).every(self))


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


def slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each field's slot of ``cls`` (declared with ``slots=True``), in
    declaration order. The ``__init__`` of a record made in large numbers sets its
    fields through them: about 105 ns a field, where ``object.__setattr__`` (which looks
    the name up and parses its arguments) takes 158 ns."""
    return tuple(cls.__dict__[f.name].__set__ for f in fields(cls))


# What typing.NamedTuple keeps for itself (typing._prohibited) and does not copy from a
# class body (typing._special).
_PROHIBITED = frozenset(
    {
        "__new__",
        "__init__",
        "__slots__",
        "__getnewargs__",
        "_fields",
        "_field_defaults",
        "_make",
        "_replace",
        "_asdict",
        "_source",
    }
)
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})
_namedtuple: Callable[..., Any] = namedtuple  # its defaults are no literal here


class _NamedTupleMeta(type):
    """Makes a class declared on ``NamedTuple`` the named tuple typing would make."""

    def __new__(cls, typename: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> Any:
        if len(bases) != 1:
            raise TypeError("can only inherit from a NamedTuple type")
        annotations = namespace.get("__annotations__", {})
        defaulted: list[str] = []
        for name in annotations:  # as typing checks them
            if name in namespace:
                defaulted.append(name)
            elif defaulted:
                plural = "s" if len(defaulted) > 1 else ""
                raise TypeError(
                    f"Non-default namedtuple field {name} cannot follow default "
                    f"field{plural} {', '.join(defaulted)}"
                )
        made = _namedtuple(
            typename,
            annotations,
            defaults=[namespace[name] for name in defaulted],
            module=namespace["__module__"],
        )
        made.__annotations__ = made.__new__.__annotations__ = dict(annotations)
        for key, value in namespace.items():
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _SPECIAL and key not in made._fields:
                setattr(made, key, value)
        return made


if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {"__module__": __name__})
