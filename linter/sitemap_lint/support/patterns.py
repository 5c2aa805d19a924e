"""Regular expressions compiled when first used, not when their module is imported.

Every rule family is imported at start-up (the catalogue is found, not listed), and
compiling their patterns was the larger part of that import; most patterns are never
used by a run (a clean entry proved by the fast path needs none of the value checks'
patterns). ``lazy(source, flags)`` stands for ``re.compile(source, flags)``: the first
method call compiles the pattern and keeps the compiled pattern's bound methods on the
object, so every later ``match``/``search``/... is an attribute lookup followed by the
compiled pattern's own method, as with a pattern compiled at import.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

__all__ = ["lazy"]

_DELEGATED = (
    "match",
    "fullmatch",
    "search",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "flags",
    "groups",
    "groupindex",
)


class _LazyPattern:
    """A pattern's source and flags until the first use; then the compiled pattern's
    methods and attributes (``pattern`` is the source from the start)."""

    def __init__(self, source: str | bytes, flags: int) -> None:
        self.pattern = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name not in _DELEGATED:
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        for attribute in _DELEGATED:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (re.compile, (self.pattern, self._flags))

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {self._flags})"


def lazy(source: AnyStr, flags: int | re.RegexFlag = 0) -> re.Pattern[AnyStr]:
    """``re.compile(source, flags)``, compiled on first use."""
    return cast("re.Pattern[AnyStr]", _LazyPattern(source, int(flags)))
