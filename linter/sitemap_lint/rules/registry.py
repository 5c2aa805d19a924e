"""The rule catalogue, found rather than listed.

A rule family is a module of this package with a module-level ``FAMILY``
(its title in the rule lists), ``ORDER`` (its place among the families) and
``RULES`` (its rules, declared with ``rules.base.rule``). ``discover`` imports
every module of the package and keeps the families, so adding a family means
adding its module and nothing else.

Plugins add families through the entry-point group ``sitemap_lint.rules``: an
entry point names a module (or an object) with ``RULES`` (and optionally
``FAMILY`` and ``ORDER``) that declares its rules with ``rule`` and its checks
with ``check``, as the built-in families do. Their codes must not start with
the letters of a built-in code, nor clash with each other.

A check of the entry fields declares how the fast path (``sitemap_lint.fastpath``)
proves, without running it, that it reports nothing on an entry: its ``proof``
(``Proof``). A built-in check that declares none is an error when it registers; a
plugin's runs, and the command says once that files are then read at the slower pace.
"""

from __future__ import annotations

import functools
import importlib
import os
import pkgutil
import re
import sys
import threading
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

from sitemap_lint.errors import SitemapLintError, blame
from sitemap_lint.finding import Finding, Fix, Rule, Severity
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.records import Frozen, FrozenIdentity

PACKAGE = "sitemap_lint.rules"
ALL = "ALL"  # in a selection: every rule
_PREFIX = lazy(r"[A-Z]{1,2}[0-9]{0,3}")

_T = TypeVar("_T")


def is_family(module: ModuleType) -> bool:
    return isinstance(getattr(module, "FAMILY", None), str) and hasattr(module, "RULES")


def discover(package: str = PACKAGE) -> tuple[tuple[str, ModuleType], ...]:
    """(title, module) of every family module of ``package``, in their ``ORDER``."""
    root = importlib.import_module(package)
    modules = [
        importlib.import_module(f"{package}.{info.name}")
        for info in pkgutil.iter_modules(root.__path__)
    ]
    return ordered(module for module in modules if is_family(module))


def ordered(modules: Iterable[ModuleType]) -> tuple[tuple[str, ModuleType], ...]:
    chosen = sorted(modules, key=lambda module: (getattr(module, "ORDER", 1000), module.__name__))
    return tuple((str(module.FAMILY), module) for module in chosen)


_families: tuple[tuple[str, ModuleType], ...] | None = None
_rules: dict[str, Rule] | None = None
# Why the plugins could not be taken (their modules stay imported, their checks
# registered): every later call in the process is refused the same way.
_refusal: SitemapLintError | None = None


# Held while the catalogue is made: calls from several threads find the plugins once.
_finding = threading.RLock()


def families() -> tuple[tuple[str, ModuleType], ...]:
    """Every rule family, the built-in ones and the plugins', found once."""
    global _families, _refusal
    found = _families
    if found is not None:
        return found
    with _finding:
        if _refusal is not None:
            raise type(_refusal)(str(_refusal)) from _refusal.__cause__
        if _families is None:
            builtin = discover()
            try:
                plugins = plugin_families(catalogue(builtin))
            except SitemapLintError as error:
                _refusal = error
                raise
            _families = (*builtin, *plugins)
        return _families


def rules() -> dict[str, Rule]:
    """Every rule by code (the catalogue that ``sitemap_lint.rules.RULES`` is)."""
    global _rules
    found = _rules
    if found is not None:
        return found
    with _finding:
        if _rules is None:
            made = catalogue(families())
            unknown = unknown_codes(CHECKS, made)
            if unknown:
                raise ValueError(f"checks report codes no rule declares: {', '.join(unknown)}")
            _rules = made
        return _rules


def is_code_or_prefix(prefix: str) -> bool:
    """True when ``prefix`` (already upper case) is ``ALL`` or starts some rule's code."""
    if prefix == ALL:
        return True
    return _PREFIX.fullmatch(prefix) is not None and any(
        code.startswith(prefix) for code in rules()
    )


GROUP = "sitemap_lint.rules"
_SITE_DIRECTORIES = ("site-packages", "dist-packages")
_PLUGIN_CODE = lazy(r"[A-Z]{1,2}[0-9]{3}")


def builtin_prefixes(builtin: Mapping[str, Rule]) -> list[str]:
    """The letters the built-in codes start with (``DT``, ``UR``, ...)."""
    return sorted({code.rstrip("0123456789") for code in builtin})


def external_fault(code: str) -> str | None:
    """Why ``code`` (upper case) cannot name the rules of a plugin that may not be
    installed (the configuration's ``external``), or None: it must look like a code or
    prefix, in letters other than the built-in rules'."""
    if not _PREFIX.fullmatch(code):
        return "is not a rule code or a prefix of one (one or two letters, up to 3 digits)"
    letters = code.rstrip("0123456789")
    taken = [
        prefix
        for prefix in builtin_prefixes(catalogue(discover()))
        if prefix.startswith(letters) or letters.startswith(prefix)
    ]
    if taken:
        return f"shares its letters with the built-in {taken[0]} rules, which no plugin may use"
    return None


def _plugins_installed() -> bool:
    """Whether a distribution installed in a site directory (``site-packages``,
    ``dist-packages``) of the import path declares an entry point of the group.

    Only site directories are looked at: the tool reads no other directory than its
    inputs' and the ones it imports from. Reading the few ``entry_points.txt`` files
    directly costs about a millisecond; ``importlib.metadata`` costs a hundred, which
    a run without plugins need not pay.
    """
    header = f"[{GROUP}]"
    for entry in sys.path:
        if os.path.basename(os.path.normpath(entry or ".")) not in _SITE_DIRECTORIES:
            continue
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(entry or ".", name, "entry_points.txt"), "rb") as handle:
                    if header.encode() in handle.read():
                        return True
            except OSError:
                continue
    return False


def plugin_families(builtin: Mapping[str, Rule]) -> list[tuple[str, ModuleType]]:
    """The families that installed plugins declare; a bad one stops the run (UsageError)."""
    if not _plugins_installed():
        return []
    from importlib.metadata import entry_points

    from sitemap_lint.errors import UsageError

    prefixes = builtin_prefixes(builtin)
    owner: dict[str, str] = {}
    names = {rule.name: f"the built-in rule {rule.code}" for rule in builtin.values()}
    letters_of: dict[str, str] = {}  # a plugin's letters -> the plugin
    found: list[ModuleType] = []
    registered: list[tuple[str, list[CheckSpec]]] = []  # the checks each plugin registered
    for point in sorted(entry_points(group=GROUP), key=lambda point: point.name):
        where = f"plugin {point.name} ({point.value})"
        before = len(CHECKS)
        try:
            loaded = point.load()
        except (Exception, SystemExit) as error:  # sys.exit() in a plugin is its fault too
            raise UsageError(
                f"{where}: cannot be loaded: {type(error).__name__}: {error}"
            ) from error
        # Its checks: those its import registered, and those of its modules imported
        # before (by a program or a test that imports the plugin itself).
        module = getattr(loaded, "__name__", None) if isinstance(loaded, ModuleType) else None
        registered.append(
            (
                where,
                [
                    spec
                    for index, spec in enumerate(CHECKS)
                    if index >= before or (module is not None and _in_module(spec, module))
                ],
            )
        )
        declared = getattr(loaded, "RULES", None)
        if isinstance(declared, Rule):
            raise UsageError(
                f"{where}: RULES is one rule ({declared.code}), not a tuple of rules; "
                "write RULES = (THE_RULE,)"
            )
        if (
            not isinstance(declared, (tuple, list))
            or not declared
            or not all(isinstance(item, Rule) for item in declared)
        ):
            raise UsageError(f"{where}: declares no RULES (a tuple of rules made with rule())")
        for item in declared:
            code = item.code
            if not isinstance(code, str) or not _PLUGIN_CODE.fullmatch(code):
                raise UsageError(
                    f"{where}: rule code {code!r} is not one or two letters and 3 digits"
                )
            fault = _rule_fault(item)
            if fault:
                raise UsageError(f"{where}: rule {code} {fault}")
            letters = code.rstrip("0123456789")
            taken = [p for p in prefixes if p.startswith(letters) or letters.startswith(p)]
            if taken:
                raise UsageError(
                    f"{where}: rule code {code} uses the prefix {taken[0]} of the built-in rules; "
                    f"choose letters other than {', '.join(prefixes)}"
                )
            if code in owner:
                raise UsageError(
                    f"{where}: rule code {code} is also declared by plugin {owner[code]}"
                )
            owner[code] = point.name
            for other, plugin in letters_of.items():
                if plugin != point.name and (
                    other.startswith(letters) or letters.startswith(other)
                ):
                    raise UsageError(
                        f"{where}: rule code {code} shares the prefix {min(other, letters)} "
                        f"with plugin {plugin}'s codes; give the two plugins letters neither "
                        "of which starts the other"
                    )
            letters_of.setdefault(letters, point.name)
            if item.name in names:
                raise UsageError(
                    f"{where}: rule name {item.name!r} ({code}) is also {names[item.name]}'s; "
                    "give each rule its own name"
                )
            names[item.name] = f"plugin {point.name}'s {code}"
        if not isinstance(getattr(loaded, "FAMILY", None), str):
            loaded.FAMILY = point.name
        found.append(loaded)
    known = {*builtin, *owner}
    for where, specs in registered:
        for spec in specs:
            unknown = unknown_codes([spec], known)
            if unknown:
                raise UsageError(
                    f"{where}: check {spec.name} reports {', '.join(unknown)}, which no rule "
                    "declares; add the rule to RULES or remove it from emits"
                )
    return sorted(
        ((str(plugin.FAMILY), plugin) for plugin in found),
        key=lambda pair: getattr(pair[1], "ORDER", 10_000),
    )


_RULE_NAME = lazy(r"[a-z0-9]+(-[a-z0-9]+)*")
_SECTIONS = ("what", "why", "bad", "good")


def _rule_fault(item: Rule) -> str:
    """What is wrong with a plugin's rule besides its code ("" when nothing is): its name,
    its severity, its documentation, each as the built-in rules have them."""
    if not isinstance(item.name, str) or not _RULE_NAME.fullmatch(item.name):
        return (
            f"has the name {item.name!r}; write it in lower case, words joined by '-' "
            "(e.g. 'plain-http-page')"
        )
    if not isinstance(item.severity, Severity):
        return (
            f"has the severity {item.severity!r}; give INFO, WARNING or ERROR "
            "(from sitemap_lint.rules.base)"
        )
    source = item.source
    texts = {"summary": item.summary}
    if isinstance(source, str):
        texts["doc"] = source
    else:
        texts.update(zip(_SECTIONS, source[:4], strict=True))
    empty = [
        field for field, text in texts.items() if not isinstance(text, str) or not text.strip()
    ]
    if empty:
        return f"has no {', '.join(empty)}: document it (rule() takes summary, what, why, bad and good)"
    return ""


def _in_module(spec: CheckSpec, module: str) -> bool:
    """Whether ``spec`` is a check of ``module`` or of one of its submodules."""
    own = getattr(spec.implementation, "__module__", "") or ""
    return own == module or own.startswith(module + ".")


def catalogue(families: Iterable[tuple[str, ModuleType]]) -> dict[str, Rule]:
    """Every rule by code; two rules with one code are a programming error."""
    rules: dict[str, Rule] = {}
    for _title, module in families:
        for rule in module.RULES:
            if rule.code in rules:
                raise ValueError(f"rule code {rule.code} is declared twice")
            rules[rule.code] = rule
    return rules


# -- checks --------------------------------------------------------------------

# The fields of a sitemap entry a check can look at, in the order they are checked,
# and the target of the checks of an extension namespace's elements.
FIELDS = ("loc", "lastmod", "changefreq", "priority")
EXTENSION = "extension"
# The root element, once a file, as soon as it starts: a sitemap's, an index's or any
# other root of an XML file that is not a feed (``FileContext.entry_name`` is empty then).
ROOT = "root"
# Each url or sitemap entry once its children are read, before its fields are checked.
CHILDREN = "children"
ENTRY = "entry"  # each url or sitemap entry, after its fields and extension elements
# Each element directly in the root that is not an entry (``rules.events.TopLevel``).
TOP_LEVEL = "top-level"
# The first element of each namespace of a file that has no bundled schema.
NAMESPACE = "namespace"
# Each element of an entry the schema engine rejects, unless a finding covers it.
SCHEMA = "schema"
# What went wrong fetching a sitemap URL (``rules.events.FetchProblem``).
FETCH = "fetch"
# What the reader and the decoder meet in the raw bytes (``rules.events.InputProblem``).
INPUT = "input"
# Once a file, at its start: the first text and the XML declaration (``rules.events.Prolog``).
PROLOG = "prolog"
# Once a file, when every entry was read: its counts (``rules.events.FileEnd``).
END = "end"
ONCE = (PROLOG, END)  # the targets seen once a file
# Each problem the XML reader meets in the markup (``rules.events.Markup``).
MARKUP = "markup"
# With --live: each URL a file lists and its answer (``rules.events.Answered``), and once
# a file when its URLs were answered (``rules.events.Audited``).
ANSWER = "answer"
AUDITED = "audited"
# Each sitemap a set's index or robots.txt lists that is not followed (``rules.events.Unfollowed``).
LISTED = "listed"
# Once a file that --fix leaves as it is, though it has fixable findings (``rules.events.Unfixed``).
UNFIXED = "unfixed"
# Once a file with inline directives, when its findings are all known (``rules.events.Directives``).
DIRECTIVES = "directives"
# Once a run of several files, when each was checked: the set (``rules.sets.CheckedSet``).
SET = "set"
# Each line of a text sitemap with something on it (``rules.events.TextLine``).
LINE = "line"
# Each Sitemap line of a robots.txt (``rules.events.SitemapLine``).
SITEMAP_LINE = "sitemap-line"
# The root of an RSS or Atom feed, once a feed (``rules.events.FeedStart``).
FEED = "feed"
# Each item or entry of an RSS or Atom feed (``rules.events.FeedItem``).
ITEM = "item"
# The targets whose checks are functions.
FUNCTIONS = (
    *(*ONCE, FETCH, INPUT, CHILDREN, TOP_LEVEL, NAMESPACE, SCHEMA, MARKUP, LINE),
    SITEMAP_LINE,
    *(FEED, ITEM),
    *(SET, LISTED, ANSWER, AUDITED, DIRECTIVES, UNFIXED),
)
TARGETS = (
    *FIELDS,
    *(EXTENSION, ROOT, CHILDREN, ENTRY, TOP_LEVEL, NAMESPACE, MARKUP, FETCH, INPUT),
    *(SCHEMA, PROLOG, END),
    LINE,
    *(SITEMAP_LINE, FEED, ITEM),
    *(SET, LISTED, ANSWER, AUDITED, DIRECTIVES, UNFIXED),
)
# The targets the fast path must prove a check of (it proves entries without them).
PROVED_TARGETS = (*FIELDS, CHILDREN, ENTRY)


# The kinds of proof (``Proof.kind``).
PATTERN = "pattern"  # a clean value of each target field fully matches ``Proof.regex``
VALUE = "value"  # the fast path proves the value itself (built-in checks only)
STATEFUL = "stateful"  # the fast path hands it the proved entries (built-in checks only)
NONE = "none"  # the fast path cannot prove it: a file it runs on is read entry by entry


@dataclass(init=False, repr=False, eq=False)
class Proof(Frozen):
    """How the fast path proves that a check reports nothing on an entry it does not
    hand to the check. ``name`` names a proof of the fast path's own (``VALUE``,
    ``STATEFUL``: see the tables of ``sitemap_lint.fastpath``)."""

    kind: str
    name: str = ""
    regex: str = ""

    def __init__(self, kind: str, name: str = "", regex: str = "") -> None:
        setattr_ = object.__setattr__
        setattr_(self, "kind", kind)
        setattr_(self, "name", name)
        setattr_(self, "regex", regex)

    @property
    def proves(self) -> bool:
        return self.kind != NONE


NO_PROOF = Proof(NONE)
# What a check gets that says nothing: an error for a built-in one.
UNDECLARED = Proof(NONE, "undeclared")


def pattern(regex: str) -> Proof:
    """The proof of a check that reports nothing on a value that fully matches ``regex``
    (whatever the entries before it): the fast path proves an entry only when each of
    its values of the check's fields matches, and leaves the others, with the check, to
    the full checker."""
    try:
        re.compile(regex)
    except re.error as error:
        raise ValueError(f"proof pattern {regex!r}: {error}") from None
    return Proof(PATTERN, regex=regex)


def proved_value(name: str) -> Proof:
    """A built-in check whose values the fast path proves itself (the proof ``name``)."""
    return Proof(VALUE, name)


def stateful(name: str) -> Proof:
    """A built-in check that keeps state across entries and takes the proved entries
    from the fast path (the hand-over ``name``)."""
    return Proof(STATEFUL, name)


def is_builtin(module: str) -> bool:
    return module == "sitemap_lint" or module.startswith("sitemap_lint.")


@dataclass(init=False, repr=False, eq=False)
class CheckSpec(FrozenIdentity):
    """A registered check: what it looks at and which rules it can report.

    ``implementation`` is a function ``(node, entry, report)``, or a class made
    once per file with the file's context; a field check's class has
    ``check(node, entry, report)``, may have ``finish(report)``, and may set
    ``idle = True`` when the file gives it nothing to do (it is then left out); an extension
    check's class follows ``rules.extension.ExtensionChecker``.
    """

    name: str
    targets: tuple[str, ...]
    emits: frozenset[str]
    # Its findings cover their nodes: a schema error there is explained by them.
    covers: bool = False
    # It asks whether other checks covered a node, so those must run before it.
    uses_coverage: bool = False
    # The entry value it fills (``url``, ``moment``); such a check runs first on its target.
    provides: str | None = None
    # How to get that value from the field's node without reporting, when the check is off.
    fallback: Callable[[Any], Any] | None = None
    namespace: str | None = None  # for the extension target: the namespace it checks
    implementation: Any = None
    sequence: int = 0
    # How the fast path proves it reports nothing on an entry (see ``Proof``).
    proof: Proof = NO_PROOF

    def __init__(
        self,
        name: str,
        targets: tuple[str, ...],
        emits: frozenset[str],
        covers: bool = False,
        uses_coverage: bool = False,
        provides: str | None = None,
        fallback: Callable[[Any], Any] | None = None,
        namespace: str | None = None,
        implementation: Any = None,
        sequence: int = 0,
        proof: Proof = NO_PROOF,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "name", name)
        setattr_(self, "targets", targets)
        setattr_(self, "emits", emits)
        setattr_(self, "covers", covers)
        setattr_(self, "uses_coverage", uses_coverage)
        setattr_(self, "provides", provides)
        setattr_(self, "fallback", fallback)
        setattr_(self, "namespace", namespace)
        setattr_(self, "implementation", implementation)
        setattr_(self, "sequence", sequence)
        setattr_(self, "proof", proof)

    @property
    def per_file(self) -> bool:
        return isinstance(self.implementation, type)

    @property
    def on_fields(self) -> bool:
        """Whether it checks entry fields or whole entries (and so must be proved for the
        fast path)."""
        return not set(self.targets).isdisjoint(PROVED_TARGETS)


CHECKS: list[CheckSpec] = []

# Rules whose findings depend on other rules' findings: the schema rule drops errors on
# nodes another finding covered, so turning the covering rules off must not skip their
# checks while it is enabled. (The unused-suppression rule judges only the codes of
# enabled rules: the checks of the others do not run.)
COVERAGE_READERS: set[str] = set()


def reads_coverage(*rules: Rule) -> None:
    COVERAGE_READERS.update(rule.code for rule in rules)


# Whether a file's check can report a rule, for the rules whose checks need what a run
# may not give them (or that what it gives makes moot): called with the check's options
# and whether the file's body was fetched.
RunsWhen = Callable[[Any, bool], bool]
RUNS_WHEN: dict[str, RunsWhen] = {}


def runs_when(condition: RunsWhen, *rules: Rule) -> None:
    """Declare that a check of a file can report ``rules`` only when ``condition``
    holds (``rules.suppression.idle_rules``: a directive naming them is then not
    judged)."""
    RUNS_WHEN.update((rule.code, condition) for rule in rules)


# Rules whose findings are made after a file's directives are applied: a directive
# cannot suppress them (``rules.suppression``: naming them is SU002).
BEYOND_DIRECTIVES: set[str] = set()


def beyond_directives(*rules: Rule) -> None:
    BEYOND_DIRECTIVES.update(rule.code for rule in rules)


def check(
    *targets: str,
    emits: Iterable[Rule | str],
    covers: bool = False,
    uses_coverage: bool = False,
    provides: str | None = None,
    fallback: Callable[[Any], Any] | None = None,
    namespace: str | None = None,
    proof: Proof | None = UNDECLARED,
) -> Callable[[_T], _T]:
    """Register a check of the entry fields ``targets`` (or of an extension namespace's
    elements, with target ``"extension"`` and ``namespace``; of the root element,
    ``"root"``; of each entry's children before its fields, ``"children"``; of each whole
    entry, ``"entry"``; of each element in the root that is not an entry,
    ``"top-level"``; of the first element of each namespace without a bundled schema,
    ``"namespace"``; of each element the schema engine rejects, ``"schema"``; of each
    problem of the markup, ``"markup"``; of each problem of
    a fetch, ``"fetch"``; of each problem of the raw bytes, ``"input"``; of the file's start,
    ``"prolog"``; of its end, ``"end"``; of each
    line of a text sitemap, ``"line"``; of each Sitemap line of a robots.txt,
    ``"sitemap-line"``; of a feed's root, ``"feed"``; of each item of a
    feed, ``"item"``; of a set of
    files once each was checked, ``"set"``; of each listed sitemap a set does not
    follow, ``"listed"``; of a file's inline directives once its findings are known,
    ``"directives"``; of a file ``--fix`` leaves as it is, ``"unfixed"``; with
    ``--live``, of each listed URL's answer, ``"answer"``, and of a file's URLs once
    answered, ``"audited"``) that reports
    the rules ``emits``. The checker runs it only when one of those rules is enabled (or,
    for a check whose findings ``covers`` their nodes, when the schema rule is).

    ``proof`` says how the fast path proves that it reports nothing on an entry:
    ``pattern(regex)`` (entry fields only), the built-in checks' ``proved_value(name)``
    and ``stateful(name)``, or ``NO_PROOF`` (or None) when it cannot. A built-in check
    must say it; a plugin's that does not is taken as ``NO_PROOF``. A field check without
    a proof turns the fast path off, and so does a check of an entry or its children (a
    check of the root, the prolog or the end needs none: each is seen once a file,
    whatever the fast path proved; nor does a check of the elements in the root that
    are no entries, the namespaces, the problems of the markup or the bytes, the lines of a text sitemap, the items
    of a feed, the set or the live audit's answers, which the fast path never proves); an extension check without one leaves the entries holding its
    namespace's elements to the full checker."""
    for target in targets:
        if target not in TARGETS:
            raise ValueError(f"unknown check target {target!r}; choose from {', '.join(TARGETS)}")
    if not targets:
        raise ValueError("a check names at least one target")
    if (EXTENSION in targets) != (namespace is not None):
        raise ValueError("an extension check names its namespace, and only it does")
    codes = frozenset(item if isinstance(item, str) else item.code for item in emits)
    if not codes:
        raise ValueError("a check reports at least one rule")
    if (provides is None) != (fallback is None) or (provides is not None and len(targets) != 1):
        raise ValueError("a check that provides a value has one target and a fallback")
    declared = NO_PROOF if proof is None else proof
    if declared.kind == PATTERN and not set(targets).issubset(FIELDS):
        raise ValueError("a pattern proof is for the entry fields only")

    def register(implementation: _T) -> _T:
        name = getattr(implementation, "__qualname__", repr(implementation))
        module = getattr(implementation, "__module__", "")
        builtin = is_builtin(module)
        if isinstance(implementation, type) and not set(targets).isdisjoint(FUNCTIONS):
            raise ValueError(
                f"check {module}.{name}: a check of the {' or '.join(FUNCTIONS)} is a function"
            )
        if builtin and declared is UNDECLARED:
            raise ValueError(
                f"check {module}.{name} declares no proof: give proof=pattern(...), "
                "proved_value(...), stateful(...) or NO_PROOF"
            )
        if not builtin and declared.kind in (VALUE, STATEFUL):
            raise ValueError(
                f"check {module}.{name}: a plugin's check is proved by a pattern "
                "(proof=pattern(...)) or not at all (NO_PROOF)"
            )
        spec = CheckSpec(
            name=f"{module}.{name}",
            targets=tuple(targets),
            emits=codes,
            covers=covers,
            uses_coverage=uses_coverage,
            provides=provides,
            fallback=fallback,
            namespace=namespace,
            implementation=(
                implementation if builtin else _guarded(implementation, f"{module}.{name}", codes)
            ),
            sequence=len(CHECKS),
            proof=declared,
        )
        CHECKS.append(spec)
        return implementation

    return register


def _guarded(implementation: Any, name: str, emits: frozenset[str]) -> Any:
    """A plugin's check whose reporter (its last argument, in each of its calls) refuses a
    finding the check may not report: a code it does not declare in ``emits`` (it could be
    neither selected nor explained), one at line or column 0 (they count from 1), one
    whose line, column or message is of the wrong type, or one with a fix its rule does
    not declare. The error is raised where the plugin's code calls ``add``, so the plugin
    is named; so is it for an error its check raises before its own code runs (a call
    its signature does not take)."""
    module = getattr(implementation, "__module__", "") or ""
    if isinstance(implementation, type):
        methods = {
            method: _guard_last(original, name, emits, module)
            for method in ("check", "end_entry", "finish")
            if callable(original := getattr(implementation, method, None))
        }
        # The class is made with the file context: a wrong __init__ fails in the caller.
        methods["__init__"] = _blaming(implementation.__init__, module)  # type: ignore[misc]
        guarded = type(implementation.__name__, (implementation,), methods)
        guarded.__module__ = implementation.__module__
        guarded.__qualname__ = implementation.__qualname__
        guarded.__doc__ = implementation.__doc__
        return guarded
    return _guard_last(implementation, name, emits, module)


def _blaming(call: Callable[..., Any], module: str) -> Callable[..., Any]:
    """``call``, whose errors name the plugin ``module`` when no frame of the plugin's
    own is in their traceback (a call its signature does not take fails in the caller)."""

    @functools.wraps(call)
    def blamed(*args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except Exception as error:
            blame(error, module)
            raise

    return blamed


def _guard_last(
    call: Callable[..., Any], name: str, emits: frozenset[str], module: str
) -> Callable[..., Any]:
    @functools.wraps(call)
    def guarded(*args: Any) -> Any:
        *rest, report = args
        try:
            return call(*rest, _GuardedReporter(report, name, emits))
        except Exception as error:
            blame(error, module)
            raise

    return guarded


class _GuardedReporter:
    """A plugin check's reporter: ``add`` checks the finding, then hands it on; anything
    else is the reporter's own."""

    def __init__(self, report: Any, name: str, emits: frozenset[str]) -> None:
        self._report = report
        self._name = name
        self._emits = emits

    def add(self, *args: Any, **kwargs: Any) -> None:
        finding = next((arg for arg in args if isinstance(arg, Finding)), None)
        if finding is None:
            raise TypeError(
                f"check {self._name}: report.add takes a finding made with RULE.at(line, "
                "column, message)"
            )
        if finding.code not in self._emits:
            raise ValueError(
                f"check {self._name} reported {finding.code}, which it does not declare: "
                f"name the rule in emits= (it declares {', '.join(sorted(self._emits))})"
            )
        line, column = finding.line, finding.column
        if any(isinstance(n, bool) or not isinstance(n, int) for n in (line, column)):
            raise TypeError(
                f"check {self._name} reported {finding.code} at line {line!r}, column "
                f"{column!r}: give the line and column as int (node.line, node.column)"
            )
        if line < 1 or column < 1:
            raise ValueError(
                f"check {self._name} reported {finding.code} at line {line}, column "
                f"{column}: lines and columns count from 1 (a finding about the whole "
                "file stands at 1, 1)"
            )
        if not isinstance(finding.message, str) or not finding.message.strip():
            raise TypeError(
                f"check {self._name} reported {finding.code} with the message "
                f"{finding.message!r}: give a str that says what is wrong and what to write"
            )
        if finding.fix is not None:
            self._check_fix(finding)
        self._report.add(*args, **kwargs)

    def _check_fix(self, finding: Finding) -> None:
        """Refuse a fix the finding's rule does not declare: ``sitemap-lint rule CODE``
        documents the rule's fix safety, which ``--fix`` must keep to."""
        declared = rules()[finding.code].fix
        offered = getattr(finding.fix, "applicability", None)
        if offered not in (Fix.SAFE, Fix.UNSAFE):
            raise TypeError(
                f"check {self._name} reported {finding.code} with the fix "
                f"{finding.fix!r}: make it with sitemap_lint.fix.model (replace_text, "
                "remove_element)"
            )
        if declared is Fix.NONE:
            raise ValueError(
                f"check {self._name} reported {finding.code} with a fix, but rule "
                f'{finding.code} declares none: declare it with rule(..., fix="safe") or '
                'fix="unsafe", or report the finding without one'
            )
        if declared is Fix.UNSAFE and offered is Fix.SAFE:
            raise ValueError(
                f"check {self._name} reported {finding.code} with a safe fix, but rule "
                f"{finding.code} declares its fix unsafe: make the fix with safe=False, or "
                'declare the rule fix="safe"'
            )

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._report, attribute)


def unknown_codes(checks: Iterable[CheckSpec], rules: Container[str]) -> list[str]:
    """Codes that checks say they report but that no rule declares (``rules``: the
    declared codes)."""
    return sorted({code for spec in checks for code in spec.emits if code not in rules})


def across_files(checks: Iterable[CheckSpec]) -> frozenset[str]:
    """The codes that checks across the files of a set report (``set`` and ``listed``
    targets), only or besides a file's own checks: whether such a finding comes may
    depend on which other files the run checks, not on the file alone."""
    across: set[str] = set()
    for spec in checks:
        if set(spec.targets) <= {SET, LISTED}:
            across.update(spec.emits)
    return frozenset(across)
