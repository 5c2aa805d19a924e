"""The rule registry: every rule the linter can report, by code.

The families are found by ``registry.families`` (every module of this package
with a ``FAMILY`` title, then the plugins'); nothing here names them. ``FAMILIES``
and ``RULES`` are made at first use, so that a bad plugin is reported as a usage
error of the run rather than when the package is imported.
"""

from __future__ import annotations

import sys
import types
from dataclasses import replace
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


def catalogue(profile: str | None = None) -> tuple[Rule, ...]:
    """Every rule in registry order; with ``profile``, at the severity that profile gives it
    (an unknown profile is a UsageError)."""
    if profile is None:
        return tuple(rules().values())
    from sitemap_lint.settings.profiles import checked, severity_under

    name = checked(profile)
    return tuple(
        replace(rule, severity=severity_under(name, rule.code, rule.severity))
        for rule in rules().values()
    )


class _Catalogue(types.ModuleType):
    """This package, callable: ``sitemap_lint.rules()`` is the API's rule catalogue
    (``sitemap_lint.api.rules``), while ``sitemap_lint.rules.RULES`` stays the registry."""

    def __call__(self, profile: str | None = None) -> tuple[Rule, ...]:
        from sitemap_lint.errors import ArgumentTypeError, ArgumentValueError, UsageError

        if profile is not None and not isinstance(profile, str):
            raise ArgumentTypeError(f"profile=: expected a string, got {profile!r}")
        if profile is not None:
            from sitemap_lint.settings.profiles import checked

            try:
                checked(profile)
            except UsageError as error:  # as the API names it: the keyword, not the flag
                raise ArgumentValueError(f"profile=: {error}") from None
        return catalogue(profile)


sys.modules[__name__].__class__ = _Catalogue
