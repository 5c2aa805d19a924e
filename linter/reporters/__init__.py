"""Reporters: turn the results of a run into text for a person or a machine.

Every reporter has the same small interface; ``REPORTERS`` maps a format name
(the value of ``--format``) to its class.
"""

from __future__ import annotations

from sitemap_lint.reporters.base import Reporter
from sitemap_lint.reporters.concise import ConciseReporter
from sitemap_lint.reporters.github import GithubReporter
from sitemap_lint.reporters.gitlab import GitlabReporter
from sitemap_lint.reporters.json import JsonReporter
from sitemap_lint.reporters.junit import JunitReporter
from sitemap_lint.reporters.sarif import SarifReporter
from sitemap_lint.reporters.text import TextReporter

REPORTERS: dict[str, type[Reporter]] = {
    "text": TextReporter,
    "concise": ConciseReporter,
    "json": JsonReporter,
    "sarif": SarifReporter,
    "github": GithubReporter,
    "junit": JunitReporter,
    "gitlab": GitlabReporter,
}

__all__ = ["REPORTERS", "Reporter"]
