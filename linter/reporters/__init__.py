"""Reporters: turn the results of a run into text for a person or a machine.

Every reporter has the same small interface; ``REPORTERS`` maps a format name
(the value of ``--format``) to its class.
"""

from __future__ import annotations

from sitemap_lint.reporters.base import Reporter
from sitemap_lint.reporters.json import JsonReporter
from sitemap_lint.reporters.text import TextReporter

REPORTERS: dict[str, type[Reporter]] = {
    "text": TextReporter,
    "json": JsonReporter,
}

__all__ = ["REPORTERS", "Reporter"]
