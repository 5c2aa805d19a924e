"""The finding: one defect at one place, with the rule that describes it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(enum.IntEnum):
    """How serious a finding is; higher is worse, so levels compare naturally."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        return cls[text.strip().upper()]


class Fix(enum.Enum):
    """Whether a rule's findings can be fixed automatically: not at all, safely
    (the meaning of the sitemap stays), or only with a change a person should review."""

    NONE = "none"
    SAFE = "safe"
    UNSAFE = "unsafe"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Rule:
    """A check's identity and documentation.

    ``doc`` is Markdown with the sections "What it does", "Why is this bad?",
    "Example" and "Use instead"; it feeds ``sitemap-lint rule CODE`` and the
    README's rule list. ``fix`` says whether an automatic fix exists.
    """

    code: str
    name: str
    severity: Severity
    summary: str
    doc: str
    fix: Fix = Fix.NONE

    def at(self, line: int, column: int, message: str, key: str | None = None) -> Finding:
        return Finding(self.code, self.name, self.severity, _shortened(message), line, column, key)


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    """An immutable report of one defect; ``line`` and ``column`` are 1-based.

    ``key`` optionally names the defect in a way that survives edits elsewhere in the
    file and a change of ``--now`` (e.g. the offending value); the CI reports' stable
    fingerprints use it when set. It takes no part in comparison or order.

    ``xpath`` optionally names the element the finding is about, XPath-like, 1-based,
    with the document's own prefixes (``/urlset/url[6]/priority``); no part in
    comparison or order either.
    """

    code: str
    name: str
    severity: Severity
    message: str
    line: int
    column: int
    key: str | None = field(default=None, compare=False, repr=False)
    xpath: str | None = field(default=None, compare=False, repr=False)

    def sort_key(self) -> tuple[int, int, str]:
        return (self.line, self.column, self.code)


MAX_MESSAGE = 500


def _shortened(message: str) -> str:
    """Messages quote values; a huge value must not make a huge report.

    The middle goes, so the start (what is wrong) and the end (the fix) stay.
    """
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:340]} [...] {message[-150:]}"
