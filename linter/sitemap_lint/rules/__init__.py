"""The rule registry: every rule the linter can report, by code.

The families are found by ``registry.discover`` (every module of this package
with a ``FAMILY`` title); nothing here names them.
"""

from __future__ import annotations

from sitemap_lint.finding import Rule
from sitemap_lint.rules.registry import families, rules

FAMILIES = families()

RULES: dict[str, Rule] = rules()

# Extension namespace -> the class that checks its elements (see rules/extension.py).
EXTENSIONS: dict[str, type] = {
    module.NAMESPACE: module.Checker
    for _title, module in FAMILIES
    if hasattr(module, "NAMESPACE") and hasattr(module, "Checker")
}


def get(code: str) -> Rule:
    try:
        return RULES[code.upper()]
    except KeyError:
        raise KeyError(f"no such rule: {code}") from None
