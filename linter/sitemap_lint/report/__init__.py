"""Reporters: turn the results of a run into text for a person or a machine.

Every reporter has the same small interface; ``REPORTERS`` maps a format name
(the value of ``--format``) to its class. A format's module is imported when it is
first asked for, so a JSON run does not load the terminal library, for instance.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from sitemap_lint.report.base import FileReport, Reporter

# format name -> (module in this package, class)
_CLASSES = {
    "text": ("text", "TextReporter"),
    "concise": ("concise", "ConciseReporter"),
    "json": ("json", "JsonReporter"),
    "sarif": ("sarif", "SarifReporter"),
    "github": ("github", "GithubReporter"),
    "junit": ("junit", "JunitReporter"),
    "gitlab": ("gitlab", "GitlabReporter"),
    "html": ("html", "HtmlReporter"),
}


class _Reporters(Mapping[str, type[Reporter]]):
    """The format names in a fixed order; each class is imported on first use."""

    def __getitem__(self, name: str) -> type[Reporter]:
        module, cls = _CLASSES[name]
        reporter: type[Reporter] = getattr(import_module(f"{__name__}.{module}"), cls)
        return reporter

    def __iter__(self) -> Iterator[str]:
        return iter(_CLASSES)

    def __len__(self) -> int:
        return len(_CLASSES)


REPORTERS: Mapping[str, type[Reporter]] = _Reporters()

__all__ = ["REPORTERS", "FileReport", "Reporter"]
