"""Which findings a run reports, and at which severity: the one place that decides.

Per rule code, in this order:

1. Rule selection, in layers: the configuration file's ``select`` / ``extend-select`` /
   ``ignore``, then the command line's. Entries are codes or code prefixes (``UR``,
   ``DT00``, or ``ALL``). Within a layer the longest matching entry wins and
   ``ignore`` wins a tie (flake8's semantics); a layer with ``select`` starts afresh,
   one without it changes only the codes it names. The default is every rule.
2. Severity: the rule's own, then the profile's change, then the ``severity`` table
   (longest matching prefix); ``off`` drops the rule.
3. Per file: ``per-file-ignores`` drops the codes listed for the globs a file matches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Severity
from sitemap_lint.settings.profiles import DEFAULT, PROFILES
from sitemap_lint.support.records import Frozen

ALL = "ALL"
LEVELS = ("error", "warning", "info")  # as the configuration and the flags spell them


def matches_a_rule(prefix: str) -> bool:
    """True when ``prefix`` (already upper case) is ``ALL`` or starts some rule's code."""
    from sitemap_lint.rules.registry import is_code_or_prefix

    return is_code_or_prefix(prefix)


def parse_codes(items: Iterable[str], where: str) -> tuple[str, ...]:
    """Rule codes or prefixes, upper-cased; one that matches no rule is a UsageError
    whose message starts with ``where`` (a flag, or a file and key)."""
    codes = []
    for item in items:
        code = item.strip().upper()
        if not matches_a_rule(code):
            raise UsageError(
                f"{where}: {item!r} is not a rule code or a prefix of one "
                "('sitemap-lint rules' lists them)"
            )
        codes.append(code)
    return tuple(codes)


def split_codes(text: str, flag: str) -> tuple[str, ...]:
    """A comma-separated command-line list of codes, checked."""
    return parse_codes([item for item in text.split(",") if item.strip()], flag)


def _match(code: str, prefixes: Iterable[str]) -> int:
    """The length of the longest prefix that matches ``code`` (``ALL`` counts 0), or -1."""
    best = -1
    for prefix in prefixes:
        if prefix == ALL:
            best = max(best, 0)
        elif code.startswith(prefix):
            best = max(best, len(prefix))
    return best


def _lookup(
    code: str, table: Mapping[str, Severity | None], default: Severity | None
) -> Severity | None:
    """The value of the longest key of ``table`` that matches ``code``, else ``default``."""
    best, value = -1, default
    for prefix, level in table.items():
        length = _match(code, (prefix,))
        if length > best:
            best, value = length, level
    return value


@dataclass(init=False, repr=False, eq=False)
class RuleSelection(Frozen):
    """One layer of ``select`` / ``extend-select`` / ``ignore``."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def __init__(
        self,
        select: tuple[str, ...] | None = None,
        extend_select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "select", select)
        setattr_(self, "extend_select", extend_select)
        setattr_(self, "ignore", ignore)

    def decide(self, code: str, enabled: bool) -> bool:
        """Whether ``code`` is on after this layer, given its state before it."""
        chosen = max(_match(code, self.select or ()), _match(code, self.extend_select))
        ignored = _match(code, self.ignore)
        if chosen < 0 and ignored < 0:
            return enabled if self.select is None else False
        return chosen > ignored


class PathPattern(Protocol):
    def matches(self, name: str) -> bool: ...


class Selection:
    """The decisions for a run: ``levels`` maps every rule code to its severity, or to
    None when the rule is not reported."""

    def __init__(
        self,
        layers: Iterable[RuleSelection] = (),
        profile: str = DEFAULT,
        severity: Mapping[str, Severity | None] | None = None,
        per_file_ignores: Iterable[tuple[PathPattern, tuple[str, ...]]] = (),
        external: tuple[str, ...] = (),
    ):
        from sitemap_lint.rules.registry import rules

        layers = tuple(layers)
        changes = PROFILES[profile].changes
        severity = severity or {}
        self.levels: dict[str, Severity | None] = {}
        for code, rule in rules().items():
            enabled = True
            for layer in layers:
                enabled = layer.decide(code, enabled)
            level = _lookup(code, severity, _lookup(code, changes, rule.severity))
            self.levels[code] = level if enabled else None
        self.per_file_ignores = tuple(per_file_ignores)
        # The codes of plugins that may be missing, which a directive may name.
        self.external = external

    def for_file(self, name: str) -> dict[str, Severity | None]:
        """The levels for one input, its per-file ignores applied."""
        ignored = [codes for pattern, codes in self.per_file_ignores if pattern.matches(name)]
        if not ignored:
            return self.levels
        prefixes = tuple(code for codes in ignored for code in codes)
        return {
            code: None if _match(code, prefixes) >= 0 else level
            for code, level in self.levels.items()
        }

    def enabled(self) -> frozenset[str]:
        """The codes the run reports in some file: only their checks need to run."""
        return frozenset(code for code, level in self.levels.items() if level is not None)
