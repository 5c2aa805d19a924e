"""The rule catalogue, found rather than listed.

A rule family is a module of this package with a module-level ``FAMILY``
(its title in the rule lists), ``ORDER`` (its place among the families) and
``RULES`` (its rules, declared with ``rules.base.rule``). ``discover`` imports
every module of the package and keeps the families, so adding a family means
adding its module and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from types import ModuleType

from sitemap_lint.finding import Rule

PACKAGE = "sitemap_lint.rules"


def is_family(module: ModuleType) -> bool:
    return isinstance(getattr(module, "FAMILY", None), str) and hasattr(module, "RULES")


def discover(package: str = PACKAGE) -> tuple[tuple[str, ModuleType], ...]:
    """(title, module) of every family module of ``package``, in their ``ORDER``."""
    root = importlib.import_module(package)
    modules = [
        importlib.import_module(f"{package}.{info.name}")
        for info in pkgutil.iter_modules(root.__path__)
    ]
    return ordered(module for module in modules if is_family(module))


def ordered(modules: Iterable[ModuleType]) -> tuple[tuple[str, ModuleType], ...]:
    chosen = sorted(modules, key=lambda module: (getattr(module, "ORDER", 1000), module.__name__))
    return tuple((str(module.FAMILY), module) for module in chosen)


def catalogue(families: Iterable[tuple[str, ModuleType]]) -> dict[str, Rule]:
    """Every rule by code; two rules with one code are a programming error."""
    rules: dict[str, Rule] = {}
    for _title, module in families:
        for rule in module.RULES:
            if rule.code in rules:
                raise ValueError(f"rule code {rule.code} is declared twice")
            rules[rule.code] = rule
    return rules
