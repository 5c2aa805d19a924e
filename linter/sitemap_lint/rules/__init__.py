"""The rule registry: every rule the linter can report, by code.

The families are found by ``registry.families`` (every module of this package
with a ``FAMILY`` title, then the plugins'); nothing here names them. ``FAMILIES``
and ``RULES`` are made at first use, so that a bad plugin is reported as a usage
error of the run rather than when the package is imported.
"""

from __future__ import annotations

from typing import Any

from sitemap_lint.finding import Rule
from sitemap_lint.rules.registry import families, rules


def __getattr__(name: str) -> Any:
    if name == "FAMILIES":
        return families()
    if name == "RULES":
        return rules()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get(code: str) -> Rule:
    try:
        return rules()[code.upper()]
    except KeyError:
        raise KeyError(f"no such rule: {code}") from None
