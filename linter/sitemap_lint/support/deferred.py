"""Modules a library imports at its top but uses only for what the command never does,
imported when first used instead.

typer imports ``subprocess`` (for ``typer.launch`` and installing shell completion) and
``shellingham`` (to tell the shell for completion) as it is imported; the command uses
neither, and they cost about 2 ms of every start-up (``subprocess`` brings ``signal``,
``selectors``, ``select``...). ``deferring(names)`` imports a library with those modules
standing as placeholders: a module imported meanwhile keeps its placeholder, whose
first attribute read imports the real module; once the library is imported the
placeholders leave ``sys.modules``, so a later ``import`` gets the real module.
A module already imported is left as it is.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

__all__ = ["Placeholder", "deferring"]


class Placeholder(ModuleType):
    """Stands for a module not imported yet: reading an attribute imports it."""

    def __getattr__(self, attribute: str) -> Any:
        name = self.__name__
        if sys.modules.get(name) is self:  # read while the library is still being imported
            del sys.modules[name]
        value = getattr(importlib.import_module(name), attribute)
        setattr(self, attribute, value)
        return value


@contextmanager
def deferring(*names: str) -> Iterator[None]:
    """Within the block, ``import NAME`` of each of ``names`` not imported yet gives its
    placeholder."""
    placed = {name: Placeholder(name) for name in names if name not in sys.modules}
    sys.modules.update(placed)
    try:
        yield
    finally:
        for name, placeholder in placed.items():
            if sys.modules.get(name) is placeholder:
                del sys.modules[name]
