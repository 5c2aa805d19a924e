"""The records of ``sitemap_lint.support.records`` behave as the dataclasses they replace.

Each record writes out its ``__init__`` and takes its other methods from a base class
(start-up cost: see records.py). For each, the test builds the dataclass it stands for
(``make_dataclass`` with the record's fields and the flags the class used to be declared
with) and compares the two: construction with and without the optional fields, repr,
equality field by field, hash, order, immutability, ``replace`` and pickling. The
records' ``NamedTuple`` is held to ``typing.NamedTuple`` the same way.
"""

from __future__ import annotations

import dataclasses
import inspect
import pickle
import typing
from typing import Any

import pytest

from sitemap_lint.domain.sequence import Break
from sitemap_lint.engine.results import FileResult
from sitemap_lint.finding import Edit, Finding, FindingFix, Rule
from sitemap_lint.formats.feed import FeedFormat
from sitemap_lint.inputs.reader import Source
from sitemap_lint.report.base import RunInfo, Summary
from sitemap_lint.rules.hreflang import Alternates
from sitemap_lint.rules.registry import CheckSpec
from sitemap_lint.rules.scope import ScopeChecker
from sitemap_lint.rules.suppression import Directive
from sitemap_lint.run import CheckPlan, Outcome
from sitemap_lint.sets.facts import Child, FileFacts, FileStats
from sitemap_lint.settings.declared import Setting
from sitemap_lint.settings.options import Options
from sitemap_lint.settings.profiles import Profile
from sitemap_lint.settings.selection import RuleSelection
from sitemap_lint.support import records

# Each record and the dataclass flags it was declared with before.
FROZEN = {"frozen": True}
FROZEN_SLOTS = {"frozen": True, "slots": True}
RECORDS: list[tuple[type, dict[str, bool]]] = [
    (Edit, FROZEN_SLOTS),
    (FindingFix, FROZEN_SLOTS),
    (Rule, FROZEN_SLOTS),
    (Finding, {"frozen": True, "slots": True, "order": True}),
    (Child, FROZEN_SLOTS),
    (Setting, FROZEN),
    (Options, FROZEN),
    (CheckPlan, FROZEN),
    (Summary, FROZEN),
    (RunInfo, FROZEN),
    (Profile, FROZEN),
    (RuleSelection, FROZEN),
    (Source, FROZEN),
    (FeedFormat, FROZEN),
    (Break, FROZEN),
    (Alternates, FROZEN_SLOTS),
    (CheckSpec, {"frozen": True, "eq": False}),
    (Outcome, {}),
    (FileFacts, {}),
    (FileStats, {}),
    (FileResult, {}),
    (Directive, {}),
    (ScopeChecker, {}),
]
IDS = [record.__name__ for record, _flags in RECORDS]


def _reference(record: type, flags: dict[str, bool]) -> type:
    """The dataclass ``record`` stands for, with its fields."""
    specs = []
    for f in dataclasses.fields(record):
        kept = {"compare": f.compare, "repr": f.repr, "hash": f.hash, "init": f.init}
        if f.default is not dataclasses.MISSING:
            kept["default"] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            kept["default_factory"] = f.default_factory
        specs.append((f.name, f.type, dataclasses.field(**kept)))  # type: ignore[call-overload]
    post_init = getattr(record, "__post_init__", None)
    namespace = {} if post_init is None else {"__post_init__": post_init}
    made: type = dataclasses.make_dataclass(record.__name__, specs, namespace=namespace, **flags)
    made.__qualname__ = record.__qualname__
    return made


def _values(record: type) -> list[Any]:
    """A value for each parameter of the record's ``__init__``."""
    return [_value(record, f.name) for f in dataclasses.fields(record) if f.init]


def _value(record: type, name: str) -> Any:
    if record is ScopeChecker and name == "location":
        from sitemap_lint.domain.urls import ParsedURL

        return ParsedURL("https", "example.com", 443, "/a/./b/sitemap.xml")
    return f"{name}-value"


def _other(record: type, name: str) -> Any:
    if record is ScopeChecker and name == "location":
        from sitemap_lint.domain.urls import ParsedURL

        return ParsedURL("https", "example.com", 443, "/c/sitemap.xml")
    return "other"


def _required(record: type) -> list[Any]:
    return [
        _value(record, f.name)
        for f in dataclasses.fields(record)
        if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]


@pytest.mark.parametrize(("record", "flags"), RECORDS, ids=IDS)
def test_a_record_is_made_and_shown_as_its_dataclass(record: type, flags: dict[str, bool]) -> None:
    reference = _reference(record, flags)
    assert dataclasses.is_dataclass(record)
    ours, theirs = record(*_values(record)), reference(*_values(record))
    assert repr(ours) == repr(theirs)
    assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
    # The optional fields take the same defaults (a fresh list or dict each time).
    plain, expected = record(*_required(record)), reference(*_required(record))
    assert repr(plain) == repr(expected)
    assert dataclasses.asdict(plain) == dataclasses.asdict(expected)
    again = record(*_required(record))
    for f in dataclasses.fields(record):
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(plain, f.name) is not getattr(again, f.name)
    # The same parameters, in the same order, as the dataclass's __init__.
    names = list(inspect.signature(record).parameters)
    assert names == list(inspect.signature(reference).parameters)


@pytest.mark.parametrize(("record", "flags"), RECORDS, ids=IDS)
def test_a_record_compares_and_hashes_as_its_dataclass(
    record: type, flags: dict[str, bool]
) -> None:
    reference = _reference(record, flags)
    values = _values(record)
    ours, theirs = record(*values), reference(*values)
    assert (ours == record(*values)) is (theirs == reference(*values))
    assert (ours == theirs) is False  # another class: not equal
    names = [f.name for f in dataclasses.fields(record) if f.init]
    for index, name in enumerate(names):
        changed = [*values]
        changed[index] = _other(record, name)
        assert (ours == record(*changed)) is (theirs == reference(*changed))
        if flags.get("order"):
            assert (ours < record(*changed)) is (theirs < reference(*changed))
            assert (ours >= record(*changed)) is (theirs >= reference(*changed))
    assert (type(ours).__hash__ is None) is (type(theirs).__hash__ is None)
    if type(theirs).__hash__ is not None and flags.get("eq", True):
        assert hash(ours) == hash(theirs)
        assert hash(ours) == hash(record(*values))


@pytest.mark.parametrize(("record", "flags"), RECORDS, ids=IDS)
def test_a_record_is_frozen_replaced_and_pickled_as_its_dataclass(
    record: type, flags: dict[str, bool]
) -> None:
    values = _values(record)
    ours = record(*values)
    first = dataclasses.fields(record)[0].name  # an __init__ parameter
    if flags.get("frozen"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(ours, first, "changed")
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(ours, first)
    else:
        setattr(ours, first, "changed")
        assert getattr(ours, first) == "changed"
        ours = record(*values)
    changed = dataclasses.replace(ours, **{first: _other(record, first)})
    assert type(changed) is record
    assert getattr(changed, first) == _other(record, first)
    theirs = dataclasses.replace(
        _reference(record, flags)(*values), **{first: _other(record, first)}
    )
    assert dataclasses.asdict(changed) == dataclasses.asdict(theirs)
    copied = pickle.loads(pickle.dumps(ours))
    assert type(copied) is record
    assert dataclasses.asdict(copied) == dataclasses.asdict(ours)


# The same class body declared on typing's NamedTuple and on the records' one (module
# level, so that pickle finds them by name).
class TypingPoint(typing.NamedTuple):
    """A point."""

    x: int
    y: int = 0
    label: str | None = None

    def moved(self, by: int) -> TypingPoint:
        return self._replace(x=self.x + by)

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)


class RecordPoint(records.NamedTuple):
    """A point."""

    x: int
    y: int = 0
    label: str | None = None

    def moved(self, by: int) -> RecordPoint:
        return self._replace(x=self.x + by)

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)


class TypingBare(typing.NamedTuple):
    a: str
    b: list[int]


class RecordBare(records.NamedTuple):
    a: str
    b: list[int]


@pytest.mark.parametrize(
    ("declared", "made"),
    [(TypingPoint, RecordPoint), (TypingBare, RecordBare)],
)
def test_a_record_named_tuple_is_typings(declared: Any, made: Any) -> None:
    assert made.__bases__ == declared.__bases__ == (tuple,)
    assert made._fields == declared._fields
    assert made._field_defaults == declared._field_defaults
    assert made.__doc__.replace("Record", "Typing") == declared.__doc__
    assert made.__module__ == declared.__module__
    assert made.__qualname__.replace("Record", "Typing") == declared.__qualname__
    assert list(made.__annotations__) == list(declared.__annotations__)
    assert typing.get_type_hints(made) == typing.get_type_hints(declared)
    own = {name for name in vars(declared) if not name.startswith("__")}
    assert own == {name for name in vars(made) if not name.startswith("__")}
    values = ("p", (1,)) if declared is TypingBare else (3, -4, "q")
    one, other = made(*values), declared(*values)
    assert one == other and hash(one) == hash(other)
    assert repr(one).replace("Record", "Typing") == repr(other)
    assert one._asdict() == other._asdict()
    assert pickle.loads(pickle.dumps(one)) == one
    assert type(pickle.loads(pickle.dumps(one))) is made
    if declared is TypingPoint:
        assert made(1) == declared(1) == (1, 0, None)
        assert made(1, 2).moved(3) == (4, 2, None) and made(1, -2).norm == 3
        assert type(made(1).moved(1)) is made


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ("a: int = 1\n    b: int", TypeError),  # a field without a default after one with
        ("a: int = 1\n    b: int = 2\n    c: str", TypeError),
        ("a: int\n    def _replace(self): pass", AttributeError),  # typing's own name
        ("a: int\n    __slots__ = ()", AttributeError),
    ],
)
def test_a_record_named_tuple_refuses_what_typing_refuses(
    body: str, error: type[Exception]
) -> None:
    messages = []
    for base in ("typing.NamedTuple", "records.NamedTuple"):
        source = f"class Bad({base}):\n    {body}\n"
        with pytest.raises(error) as raised:
            exec(source, {"typing": typing, "records": records, "__name__": __name__})
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
