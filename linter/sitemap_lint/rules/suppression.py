"""Inline suppression: directives in XML comments that silence findings.

``<!-- sitemap-lint: disable-next-line CODE[,CODE] -->`` silences those codes on
the line after the comment's last line; ``<!-- sitemap-lint: disable-file
CODE[,CODE] -->`` silences them in the whole file. Codes may be prefixes (``UR``).
Free text after the codes, set apart by white space, is the directive's reason
(``disable-next-line UR008 legacy anchors``); its first word may not be a rule code.
The directives are collected while the file is parsed and applied once at its
end; a directive that silences nothing, or that cannot be read, is a finding.
The directives do not apply to this family's own findings (turn those off in
the configuration instead).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sitemap_lint.finding import Finding
from sitemap_lint.rules.base import ERROR, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.events import Directives, InvalidDirective, UnusedDirective
from sitemap_lint.rules.registry import DIRECTIVES
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.records import Mutable

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from sitemap_lint.finding import Severity
    from sitemap_lint.settings.options import Options

    # The file's rule settings, as the sink keeps them (``engine.sink.Levels``): the
    # severity each code is reported at, None when it is not.
    Levels = Mapping[str, Severity | None]

TAG = "sitemap-lint"
ACTIONS = ("disable-next-line", "disable-file")

UNUSED = rule(
    "SU001",
    "unused-suppression",
    WARNING,
    summary="A suppression comment that suppresses nothing",
    what="""
        Detects a `sitemap-lint: disable-next-line` or `disable-file` comment
        naming a code that no finding on that line (or in the file) has.

        Only codes whose rules ran on the file are judged, so that the same
        file gets the same verdict whichever options a run was given. A code
        is not judged when its rule is not selected (or a per-file ignore
        turns it off), when the check cannot run with this run's options
        (`SC001` and `SC002` without `--sitemap-url`, `SC003` with it,
        `RB007` when no robots.txt is known to the run, the `LV` rules
        without `--live` or for a URL the audit did not request: left out of
        `--live-sample` or `--live-max`, or past the crawl budget; the `FE`
        rules for a file that was not fetched),
        or when its rule compares files (`SE001`, `SE002`, `HL006`, ...),
        whose findings depend on the other files a run checks. A prefix is
        judged only when every rule it names is. A code a directive lists
        again, or within a prefix it lists too (`UR006, UR`), adds nothing and
        is reported as such, whatever the findings.
    """,
    why="""
        A stale suppression hides the next real defect of that kind: the
        problem it was written for is gone, or it sits on the wrong line.
        Remove the code, or move the comment directly above the line it is for.
    """,
    bad="""
        <url>
          <!-- sitemap-lint: disable-next-line UR008 -->
          <loc>https://example.com/guide</loc>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/guide</loc>
        </url>
    """,
)

INVALID = rule(
    "SU002",
    "invalid-suppression",
    ERROR,
    summary="A suppression comment that is malformed or names an unknown rule",
    what="""
        Detects a comment starting `sitemap-lint:` that is not
        `disable-next-line` or `disable-file` followed by comma-separated rule
        codes or code prefixes (and, after a space, a reason if you like: free
        text whose first word is no rule code, `UR008 legacy anchors`; XML allows
        no `--` in a comment, so a reason cannot be set apart with `--`), or that
        names a code no rule has, or only rules no
        directive can suppress (this family's own, and `FX001`, reported by `--fix`
        after the directives are applied). A code no installed rule has is not
        reported when the configuration's `external` lists it or a prefix of it:
        the code of a plugin that is not installed where the check runs.
    """,
    why="""
        A directive that cannot be read suppresses nothing, so the findings it
        was meant to silence still fail the build, and a typo in a code would
        otherwise go unnoticed.
    """,
    bad="""
        <!-- sitemap-lint: disable-line UR08 -->
        <loc>https://example.com/guide#install</loc>
    """,
    good="""
        <!-- sitemap-lint: disable-next-line UR008 legacy anchors the app reads -->
        <loc>https://example.com/guide#install</loc>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Inline suppression"
ORDER = 170

RULES = (UNUSED, INVALID)


# A comment is a directive when it starts with the tag and a colon; the tag
# followed by disable/enable without the colon is a malformed directive.
_DIRECTIVE = lazy(rf"\s*{TAG}\s*:(?P<rest>.*)\Z", re.DOTALL)
_MISSING_COLON = lazy(rf"\s*{TAG}\s+(?:disable|enable)", re.IGNORECASE)
_OTHER_CASE = lazy(rf"\s*{TAG}\s*:\s*(?:disable|enable)", re.IGNORECASE)
_SPACE = lazy(r"\s")


@dataclass(init=False, repr=False, eq=False)
class Directive(Mutable):
    action: str
    codes: tuple[str, ...]
    line: int
    column: int
    target: int  # the line a disable-next-line applies to; 0 for disable-file
    used: set[str] = field(default_factory=set)
    # Codes listed again, or within a prefix the directive lists too: they add nothing.
    repeated: tuple[str, ...] = ()

    def __init__(
        self,
        action: str,
        codes: tuple[str, ...],
        line: int,
        column: int,
        target: int,
        used: set[str] | None = None,
        repeated: tuple[str, ...] = (),
    ) -> None:
        self.action = action
        self.codes = codes
        self.line = line
        self.column = column
        self.target = target
        self.used = set() if used is None else used
        self.repeated = repeated


def directive_parts(text: str) -> tuple[str, str] | None:
    """The action and the text after it (the codes listed) of the directive a comment's
    ``text`` (between ``<!--`` and ``-->``) writes; None when it writes none."""
    match = _DIRECTIVE.match(text)
    if match is None:
        return None
    action, listed = ([*match["rest"].split(None, 1), "", ""])[:2]
    return action, listed


class Suppressions:
    """The directives of one file, applied to its findings at the end."""

    def __init__(self, external: tuple[str, ...] = ()) -> None:
        self.directives: list[Directive] = []
        self.invalid: list[InvalidDirective] = []
        self.external = external  # codes of plugins that may not be installed

    def comment(self, text: str, line: int, column: int) -> None:
        """Read a comment (its text between ``<!--`` and ``-->``) that may be a directive."""
        parts = directive_parts(text)
        if parts is None:
            if _MISSING_COLON.match(text):
                self._invalid(line, column, f"write '{TAG}:' with a colon before the directive")
            elif _OTHER_CASE.match(text):
                self._invalid(line, column, f"write the tag '{TAG}:' in lower case")
            return
        action, listed = parts
        if action not in ACTIONS:
            self._invalid(
                line,
                column,
                f"unknown directive {action!r}; write {' or '.join(ACTIONS)} and rule codes",
            )
            return
        if not listed.strip():
            self._invalid(
                line, column, f"{action} names no rule codes; write e.g. '{action} UR008'"
            )
            return
        named = self._without_reason(listed, line, column)
        if named is None:
            return
        codes = self._codes(named, line, column)
        if codes:
            target = 0 if action == "disable-file" else line + text.count("\n") + 1
            kept, repeated = _without_repeats(codes)
            self.directives.append(Directive(action, kept, line, column, target, repeated=repeated))

    def _without_reason(self, listed: str, line: int, column: int) -> str | None:
        """The codes ``listed`` names, without the reason written after them (free text
        after white space: ``UR008, UR011 legacy anchors``); ``listed`` as it is when it
        is no list of codes that a reason follows (``_codes`` then says why); None, the
        directive reported, when the reason's first word is a rule code: codes are
        separated by commas, and one written after a space would silence nothing."""
        match = _REASON.match(listed)
        if match is None or match["reason"] is None:
            return listed
        first = match["reason"].split(None, 1)[0].rstrip(",")
        if not _looks_like_code(first):
            return match["codes"]
        codes: list[str] = []
        rest = ""
        for word in _WORD.finditer(listed):
            if not _looks_like_code(word[0]):
                rest = listed[word.start() :].strip()
                break
            codes.append(word[0])
        written = ", ".join(codes) + (f" {rest}" if rest else "")
        self._invalid(
            line,
            column,
            f"{listed.strip()!r} is not a comma-separated list of rule codes; "
            f"write {written!r} (a reason may follow the codes after a space)",
        )
        return None

    def _codes(self, listed: str, line: int, column: int) -> tuple[str, ...]:
        from sitemap_lint.rules.registry import ALL, is_code_or_prefix

        codes = []
        for item in listed.split(","):
            code = item.strip().upper()
            if not code or _SPACE.search(code):
                written = ", ".join(_LIST_SEPARATOR.split(listed.strip())).strip(", ")
                fix = f"; write {written!r}" if written else ""
                self._invalid(
                    line,
                    column,
                    f"{listed.strip()!r} is not a comma-separated list of rule codes{fix}",
                )
                return ()
            if code == ALL:
                self._invalid(line, column, "name the rule codes; a directive cannot disable ALL")
            elif code.startswith("SU"):
                self._invalid(
                    line,
                    column,
                    f"{code} cannot be suppressed by a directive: remove the directive it "
                    "reports, or ignore the rule in the configuration",
                )
            elif _beyond_directives(code):
                self._invalid(
                    line,
                    column,
                    f"{code} cannot be suppressed by a directive: it is reported after "
                    "the file's directives are applied; turn it off for the file in the "
                    "configuration (per-file-ignores)",
                )
            elif not is_code_or_prefix(code):
                if not code.startswith(self.external):  # else: a missing plugin's code
                    self._invalid(
                        line,
                        column,
                        f"{item.strip()!r} is not a rule code or a prefix of one; "
                        f"{_code_hint(code)}",
                    )
            else:
                codes.append(code)
        return tuple(codes)

    def _invalid(self, line: int, column: int, reason: str) -> None:
        self.invalid.append(InvalidDirective(line, column, reason))

    def filter(self, findings: list[Finding]) -> list[Finding]:
        """``findings`` without the suppressed ones; the directives remember what they
        matched, so that findings that come later (a set's, across files) can be
        filtered too before ``remaining`` is asked."""
        whole_file = [d for d in self.directives if not d.target]
        by_line: dict[int, list[Directive]] = {}
        for directive in self.directives:
            if directive.target:
                by_line.setdefault(directive.target, []).append(directive)
        kept = []
        for finding in findings:
            suppressed = False
            for directive in (*whole_file, *by_line.get(finding.line, ())):
                for code in directive.codes:
                    if finding.code.startswith(code):
                        directive.used.add(code)
                        suppressed = True
            if not suppressed:
                kept.append(finding)
        return kept

    def silencer(self, code: str) -> Callable[[int], bool] | None:
        """Whether a directive suppresses a finding of ``code`` at a line (one found in
        another file that names this line: a URL listed in both), the directive then
        used; None when no directive names ``code``."""
        naming = [
            (directive, prefix)
            for directive in self.directives
            for prefix in directive.codes
            if code.startswith(prefix)
        ]
        if not naming:
            return None

        def silences(line: int) -> bool:
            found = False
            for directive, prefix in naming:
                if directive.target in (0, line):
                    directive.used.add(prefix)
                    found = True
            return found

        return silences

    def remaining(
        self,
        levels: Levels | None = None,
        idle: frozenset[str] = frozenset(),
        idle_lines: Mapping[int, frozenset[str]] | None = None,
    ) -> Directives:
        """The directives that cannot be read, and those that suppressed nothing (asked
        once every finding of the file is known), for the ``directives`` checks. Codes
        that checks across files report are never unused: whether such a finding comes
        depends on the other files a run checks (a pre-commit run checks only those that
        changed). Nor is a code that names a rule ``levels`` (the file's)
        does not report, or one of the ``idle`` rules (``idle_rules``), or of the rules
        ``idle_lines`` names for the directive's line (for a file directive: for any
        line): that rule's check did not run there, so nothing says whether the
        directive would suppress one of its findings."""
        by_line = idle_lines or {}
        anywhere = idle.union(*by_line.values())
        unused = []
        for directive in self.directives:
            target = directive.target
            here = idle | by_line.get(target, frozenset()) if target else anywhere
            codes = tuple(
                code
                for code in directive.codes
                if code not in directive.used and not _across(code) and _all_ran(code, levels, here)
            )
            if codes or directive.repeated:
                unused.append(
                    UnusedDirective(
                        directive.action,
                        codes,
                        directive.line,
                        directive.column,
                        directive.target,
                        directive.repeated,
                    )
                )
        return Directives(tuple(self.invalid), tuple(unused))


def _without_repeats(codes: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The codes of a directive that each add something, in their order, and the others:
    one listed again (``UR008, UR008``), or within a prefix it lists too (``UR, UR008``)."""
    kept: list[str] = []
    repeated: list[str] = []
    for code in codes:
        if any(code.startswith(prefix) for prefix in kept):
            repeated.append(code)
            continue
        covered = [earlier for earlier in kept if earlier.startswith(code)]
        repeated.extend(covered)
        kept = [earlier for earlier in kept if earlier not in covered] + [code]
    return tuple(kept), tuple(repeated)


def _all_ran(code: str, levels: Levels | None, idle: frozenset[str]) -> bool:
    """Whether every rule ``code`` (a code or a prefix) names ran where the directives
    reach: ``levels`` (None: every rule) reports it, it is not ``idle`` and its findings
    are not made after the directives are applied."""
    from sitemap_lint.rules.registry import BEYOND_DIRECTIVES, rules

    return all(
        rule not in idle
        and rule not in BEYOND_DIRECTIVES
        and (levels is None or levels.get(rule, True) is not None)
        for rule in rules()
        if rule.startswith(code)
    )


def idle_rules(options: Options, fetched: bool) -> frozenset[str]:
    """The rules that a check of a file with ``options`` cannot report (``fetched``:
    whether the file's body was fetched), as their families declare
    (``registry.runs_when``)."""
    from sitemap_lint.rules.registry import RUNS_WHEN, families

    families()  # the plugins' declarations are made when their modules are loaded
    return frozenset(code for code, runs in RUNS_WHEN.items() if not runs(options, fetched))


def _beyond_directives(code: str) -> bool:
    """Whether every rule ``code`` (a code or a prefix) names is reported where no
    directive reaches (``registry.beyond_directives``)."""
    from sitemap_lint.rules.registry import BEYOND_DIRECTIVES, families, rules

    families()  # the declarations are made when the families' modules are loaded
    named = [rule for rule in rules() if rule.startswith(code)]
    return bool(named) and all(rule in BEYOND_DIRECTIVES for rule in named)


def _across(code: str) -> bool:
    """Whether every rule ``code`` (a code or a prefix) names can be reported across
    files."""
    from sitemap_lint.rules.registry import CHECKS, across_files, rules

    across = across_files(CHECKS)
    named = [rule for rule in rules() if rule.startswith(code)]
    return bool(named) and all(rule in across for rule in named)


@check(DIRECTIVES, emits=(UNUSED, INVALID), proof=NO_PROOF)
def check_directives(directives: Directives, options: object, report: Reporter) -> None:
    """SU002 for a directive that cannot be read, SU001 for the codes of one that
    suppressed nothing."""
    for invalid in directives.invalid:
        report.add(
            INVALID.at(invalid.line, invalid.column, f"invalid suppression: {invalid.reason}")
        )
    for unused in directives.unused:
        if unused.repeated:
            repeated = ", ".join(unused.repeated)
            report.add(
                UNUSED.at(
                    unused.line,
                    unused.column,
                    f"{unused.action} lists {repeated} again (or within a prefix it lists "
                    "too): remove the repeat from the comment",
                )
            )
        codes = unused.codes
        if not codes:
            continue
        where = "in this file" if not unused.target else f"on line {unused.target}"
        report.add(
            UNUSED.at(
                unused.line,
                unused.column,
                f"{unused.action} {', '.join(codes)} suppresses nothing: "
                f"no {' or '.join(codes)} finding {where}; remove "
                f"{'it' if len(codes) == 1 else 'them'} from the comment",
            )
        )


_LIST_SEPARATOR = lazy(r"[\s,]+")
# The codes a directive lists (each without white space or commas, separated by commas
# that white space may surround), then, after white space, a reason: free text.
_REASON = lazy(r"\s*(?P<codes>[^\s,]+(?:\s*,\s*[^\s,]+)*)(?:\s+(?P<reason>\S.*?))?\s*\Z", re.DOTALL)
_CODE_SHAPE = lazy(r"[A-Z]{1,3}[0-9]{1,4}\Z")
_WORD = lazy(r"[^\s,]+")


def _looks_like_code(word: str) -> bool:
    """Whether a word written after a directive's codes is a rule code (or a prefix of
    one) rather than the first word of a reason: written as codes are, letters in upper
    case then digits (``UR011``, ``XY12``), or a code or prefix of an installed rule as it
    is written (``UR``)."""
    from sitemap_lint.rules.registry import is_code_or_prefix

    return bool(_CODE_SHAPE.match(word)) or (word.isupper() and is_code_or_prefix(word))


def _code_hint(code: str) -> str:
    """The code nearest an unknown ``code``, or where the codes are listed."""
    import difflib

    from sitemap_lint.rules.registry import rules

    close = difflib.get_close_matches(code, sorted(rules()), n=1, cutoff=0.8)
    if close:
        return f"did you mean {close[0]}?"
    return "write the code of a rule ('sitemap-lint rules' lists them)"
