"""What the proofs hand a check to learn whether a value would be reported: a reporter
that keeps what was, and the node it reports at."""

from __future__ import annotations

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node

VALUE_NODE = Node("", "value", {}, 1, 1)


class Collect:
    """A reporter that keeps what is reported (what it covers is dropped)."""

    __slots__ = ("findings",)

    def __init__(self) -> None:
        self.findings: list[Finding] = []

    @property
    def found(self) -> bool:
        """Whether anything was reported."""
        return bool(self.findings)

    def add(self, finding: Finding, covers: object = None) -> None:
        self.findings.append(finding)

    def covered(self, node: object) -> bool:
        return False
