"""The rule registry: every rule the linter can report, by code."""

from __future__ import annotations

import sys
import types
from dataclasses import replace

from sitemap_lint.finding import Rule
from sitemap_lint.rules import (
    dates,
    duplicates,
    encoding,
    feed,
    fetch,
    hreflang,
    image,
    input,
    limits,
    namespace,
    news,
    robots,
    schema,
    scope,
    sets,
    structure,
    suppression,
    text,
    urls,
    values,
    video,
    xml,
)

FAMILIES = (
    ("Input", input),
    ("XML", xml),
    ("Encoding", encoding),
    ("Namespaces", namespace),
    ("Structure", structure),
    ("URLs", urls),
    ("Scope", scope),
    ("Dates", dates),
    ("Values", values),
    ("Limits", limits),
    ("Duplicates", duplicates),
    ("Schema", schema),
    ("Image extension", image),
    ("Video extension", video),
    ("News extension", news),
    ("hreflang alternates", hreflang),
    ("Inline suppression", suppression),
    ("HTTP", fetch),
    ("robots.txt", robots),
    ("Text sitemaps", text),
    ("Feeds", feed),
    ("Sitemap sets", sets),
)

# Extension namespace -> the class that checks its elements (see rules/extension.py).
EXTENSIONS: dict[str, type] = {
    family.NAMESPACE: family.Checker for family in (image, video, news, hreflang)
}

RULES: dict[str, Rule] = {rule.code: rule for _title, family in FAMILIES for rule in family.RULES}


def get(code: str) -> Rule:
    try:
        return RULES[code.upper()]
    except KeyError:
        raise KeyError(f"no such rule: {code}") from None


def catalogue(profile: str | None = None) -> tuple[Rule, ...]:
    """Every rule in registry order; with ``profile``, at the severity that profile gives it
    (an unknown profile is a UsageError)."""
    if profile is None:
        return tuple(RULES.values())
    from sitemap_lint.profiles import checked, severity_under

    name = checked(profile)
    return tuple(
        replace(rule, severity=severity_under(name, rule.code, rule.severity))
        for rule in RULES.values()
    )


class _Catalogue(types.ModuleType):
    """This package, callable: ``sitemap_lint.rules()`` is the API's rule catalogue
    (``sitemap_lint.api.rules``), while ``sitemap_lint.rules.RULES`` stays the registry."""

    def __call__(self, profile: str | None = None) -> tuple[Rule, ...]:
        return catalogue(profile)


sys.modules[__name__].__class__ = _Catalogue
