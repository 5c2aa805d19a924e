"""Reporters: turn the results of a run into text for a person or a machine.

Every reporter has the same small interface; ``REPORTERS`` maps a format name
(the value of ``--format``) to its class.
"""

from __future__ import annotations

from sitemap_lint.report.base import Reporter
from sitemap_lint.report.concise import ConciseReporter
from sitemap_lint.report.github import GithubReporter
from sitemap_lint.report.gitlab import GitlabReporter
from sitemap_lint.report.json import JsonReporter
from sitemap_lint.report.junit import JunitReporter
from sitemap_lint.report.sarif import SarifReporter
from sitemap_lint.report.text import TextReporter

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
