"""The finding: one defect at one place, with the rule that describes it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from operator import attrgetter

from sitemap_lint.support.records import Frozen, Ordered, slot_setters


class Severity(enum.IntEnum):
    """How serious a finding is; higher is worse, so levels compare naturally.

    A level equals itself and its name as text (``Severity.ERROR == "error"``, as
    ``str()``, ``format()`` and the reports write it), and hashes as that text, so
    that it finds the same entries of a set or a dict as the text; it equals no
    number (``int()`` gives its rank)."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    _text: str  # the name in lower case, set below

    def __str__(self) -> str:
        return self._text

    def __format__(self, spec: str) -> str:
        return format(self._text, spec)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Severity):
            return self is other
        if isinstance(other, str):
            return other == self._text
        if isinstance(other, int | float):
            return False  # a number equal to the rank would need the rank's hash
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self._text)

    @classmethod
    def parse(cls, text: str) -> Severity:
        return cls[text.strip().upper()]


for _level in Severity:
    _level._text = _level.name.lower()
del _level


class Fix(enum.Enum):
    """Whether a rule's findings can be fixed automatically: not at all, safely
    (the meaning of the sitemap stays), or only with a change a person should review."""

    NONE = "none"
    SAFE = "safe"
    UNSAFE = "unsafe"

    def __str__(self) -> str:
        return self.value


# The classes of this module are frozen dataclasses whose methods are written out
# (records.py): they are declared on every start-up.


@dataclass(init=False, repr=False, eq=False, slots=True)
class Edit(Frozen):
    """One change of the decoded text; ``fix.model`` describes the ``target``s."""

    line: int
    column: int
    content: str = ""
    target: str = "span"
    end_line: int = 0
    end_column: int = 0
    old: str = ""

    def __init__(
        self,
        line: int,
        column: int,
        content: str = "",
        target: str = "span",
        end_line: int = 0,
        end_column: int = 0,
        old: str = "",
    ) -> None:
        set_line, set_column, set_content, set_target, set_end_line, set_end_column, set_old = (
            _EDIT_SETTERS
        )
        set_line(self, line)
        set_column(self, column)
        set_content(self, content)
        set_target(self, target)
        set_end_line(self, end_line)
        set_end_column(self, end_column)
        set_old(self, old)


@dataclass(init=False, repr=False, eq=False, slots=True)
class FindingFix(Frozen):
    """The fix a finding offers: its edits, applied together, and how safe they are.

    ``exact`` says its check made the edits exact: spans of the decoded text, ``old``
    the text each replaces, at the lines and columns ``fix.locate.Text`` gives those
    offsets (the reports that carry edits need not read the file again for them)."""

    applicability: Fix  # Fix.SAFE or Fix.UNSAFE
    message: str
    edits: tuple[Edit, ...]
    exact: bool = field(default=False, compare=False, repr=False)

    def __init__(
        self, applicability: Fix, message: str, edits: tuple[Edit, ...], exact: bool = False
    ) -> None:
        set_applicability, set_message, set_edits, set_exact = _FIX_SETTERS
        set_applicability(self, applicability)
        set_message(self, message)
        set_edits(self, edits)
        set_exact(self, exact)

    @property
    def is_safe(self) -> bool:
        return self.applicability is Fix.SAFE


@dataclass(init=False, repr=False, eq=False, slots=True)
class Rule(Frozen):
    """A check's identity and documentation.

    ``doc`` is Markdown with the sections "What it does", "Why is this bad?",
    "Example" and "Use instead"; it feeds ``sitemap-lint rule CODE`` and the
    README's rule list. ``fix`` says whether an automatic fix exists.
    """

    code: str
    name: str
    severity: Severity
    summary: str
    # The Markdown itself, or the sections ``rules.base.rule`` was given (what, why,
    # bad, good, language), written out only when ``doc`` is read: every rule is
    # declared at start-up, and few runs show a rule's documentation.
    source: str | tuple[str, str, str, str, str]
    fix: Fix = Fix.NONE

    def __init__(
        self,
        code: str,
        name: str,
        severity: Severity,
        summary: str,
        source: str | tuple[str, str, str, str, str],
        fix: Fix = Fix.NONE,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "code", code)
        setattr_(self, "name", name)
        setattr_(self, "severity", severity)
        setattr_(self, "summary", summary)
        setattr_(self, "source", source)
        setattr_(self, "fix", fix)

    @property
    def doc(self) -> str:
        source = self.source
        return source if isinstance(source, str) else render_doc(*source)

    @property
    def fix_safety(self) -> str:
        """The "Fix safety" section of the rule's documentation ("" when it has no fix),
        written from the declaration, as ruff's rule pages have one."""
        if self.fix is Fix.SAFE:
            return (
                "## Fix safety\n"
                "This rule's fix is safe: the sitemap keeps its meaning (the same URLs, in"
                " their encoded form, and the same values). `sitemap-lint --fix` applies it"
                " and `--diff` shows it first. Where a finding's fix could change the"
                " meaning, that fix is offered as unsafe and is applied only with"
                " `--unsafe-fixes`.\n"
            )
        if self.fix is Fix.UNSAFE:
            return (
                "## Fix safety\n"
                "This rule's fix is unsafe: it may change what the sitemap says (a value is"
                " replaced by a guess, or an entry is removed), so it is applied only with"
                " `sitemap-lint --fix --unsafe-fixes`; see it first with"
                " `--diff --unsafe-fixes`.\n"
            )
        return ""

    @property
    def page(self) -> str:
        """The rule's whole documentation as ``sitemap-lint rule CODE`` prints it: the
        title (code, name, severity), the summary, ``doc`` and the "Fix safety" section.
        The command and the API's ``RuleInfo.page`` both read it here."""
        title = f"# {self.code} {self.name} ({self.severity})"
        fix_safety = self.fix_safety
        text = f"{title}\n\n{self.summary}.\n\n{self.doc}"
        return f"{text}\n{fix_safety}" if fix_safety else text

    def at(
        self,
        line: int,
        column: int,
        message: str,
        key: str | None = None,
        fix: FindingFix | None = None,
        xpath: str | None = None,
    ) -> Finding:
        if len(message) > MAX_MESSAGE:
            message = shortened(message)
        return Finding(self.code, self.name, self.severity, message, line, column, key, fix, xpath)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Finding(Ordered):
    """An immutable report of one defect; ``line`` and ``column`` are 1-based.

    ``key`` optionally names the defect in a way that survives edits elsewhere in the
    file and a change of ``--now`` (e.g. the offending value); the CI reports' stable
    fingerprints use it when set. It takes no part in comparison or order.

    ``fix`` is the automatic fix of this defect, when there is one (``fix.model``);
    it takes no part in comparison or order either. ``xpath`` optionally names the
    element the finding is about, XPath-like, 1-based, with the document's own
    prefixes (``/urlset/url[6]/priority``); no part in comparison or order either.
    """

    code: str
    name: str
    severity: Severity
    message: str
    line: int
    column: int
    key: str | None = field(default=None, compare=False, repr=False)
    fix: FindingFix | None = field(default=None, compare=False, repr=False)
    xpath: str | None = field(default=None, compare=False, repr=False)

    def __init__(
        self,
        code: str,
        name: str,
        severity: Severity,
        message: str,
        line: int,
        column: int,
        key: str | None = None,
        fix: FindingFix | None = None,
        xpath: str | None = None,
    ) -> None:
        (
            set_code,
            set_name,
            set_severity,
            set_message,
            set_line,
            set_column,
            set_key,
            set_fix,
            set_xpath,
        ) = _FINDING_SETTERS
        set_code(self, code)
        set_name(self, name)
        set_severity(self, severity)
        set_message(self, message)
        set_line(self, line)
        set_column(self, column)
        set_key(self, key)
        set_fix(self, fix)
        set_xpath(self, xpath)

    def sort_key(self) -> tuple[int, int, str]:
        return sort_key(self)

    def with_xpath(self, xpath: str | None) -> Finding:
        """This finding naming the element ``xpath``."""
        return self.amended(self.fix, xpath)

    def with_fix(self, fix: FindingFix | None) -> Finding:
        """This finding with ``fix`` instead of its own."""
        return self.amended(fix, self.xpath)

    def amended(self, fix: FindingFix | None, xpath: str | None) -> Finding:
        """This finding with ``fix`` and naming ``xpath`` instead of its own."""
        # ``dataclasses.replace`` costs several times more, and a file with a defect in
        # each entry has tens of thousands of findings to name and fix.
        return Finding(
            self.code,
            self.name,
            self.severity,
            self.message,
            self.line,
            self.column,
            self.key,
            fix,
            xpath,
        )


# Edits, fixes and findings are made in large numbers (records.slot_setters).
_EDIT_SETTERS = slot_setters(Edit)
_FIX_SETTERS = slot_setters(FindingFix)
_FINDING_SETTERS = slot_setters(Finding)

_SET_FIX, _SET_XPATH = Finding.__dict__["fix"].__set__, Finding.__dict__["xpath"].__set__


def amended_in_place(finding: Finding, fix: FindingFix | None, xpath: str | None) -> Finding:
    """``finding.amended(fix, xpath)`` without the copy: only for a finding that nothing
    else holds yet (made for the call that amends it), as a file with a finding in
    every entry has tens of thousands to name and fix."""
    _SET_FIX(finding, fix)
    _SET_XPATH(finding, xpath)
    return finding


# The order of findings: line, column, code (``Finding.sort_key``, at C speed).
sort_key = attrgetter("line", "column", "code")


def render_doc(what: str, why: str, bad: str, good: str, lang: str) -> str:
    """A rule's documentation from its sections, each dedented."""
    return (
        f"## What it does\n{dedent_block(what)}\n\n"
        f"## Why is this bad?\n{dedent_block(why)}\n\n"
        f"## Example\n```{lang}\n{dedent_block(bad)}\n```\n\n"
        f"Use instead:\n```{lang}\n{dedent_block(good)}\n```\n"
    )


def dedent_block(text: str) -> str:
    """``textwrap.dedent(text).strip("\\n")`` without its regular expressions."""
    lines = text.split("\n")
    margin: int | None = None
    for line in lines:
        stripped = line.lstrip(" \t")
        if not stripped:
            continue
        width = len(line) - len(stripped)
        if "\t" in line[:width]:
            from textwrap import dedent

            return dedent(text).strip("\n")  # tabs: dedent compares margins exactly
        margin = width if margin is None else min(margin, width)
    width = margin or 0
    return "\n".join(line[width:] if line.strip(" \t") else "" for line in lines).strip("\n")


MAX_MESSAGE = 500


def shortened(message: str) -> str:
    """Messages quote values; a huge value must not make a huge report.

    The middle goes, so the start (what is wrong) and the end (the fix) stay.
    """
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:340]} [...] {message[-150:]}"
