"""What the proofs hand a check to learn whether a value would be reported: a reporter
that only remembers whether anything was, and the node it reports at."""

from __future__ import annotations

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node

VALUE_NODE = Node("", "value", {}, 1, 1)


class Collect:
    """A reporter that only remembers whether anything was reported."""

    def __init__(self) -> None:
        self.found = False

    def add(self, finding: Finding, covers: object = None) -> None:
        self.found = True

    def covered(self, node: object) -> bool:
        return False
