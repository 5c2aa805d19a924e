"""The Python API: check sitemaps from a program and get typed findings back.

A call does what ``sitemap-lint check`` does with the same inputs and options: the
configuration file is found the same way (unless ``config`` or ``isolated`` says
otherwise), the same rules run, and the findings come back in the order the command
reports them. What makes the command exit 2 (an unknown option value, an unreadable
configuration, a missing file, ...) raises :class:`SitemapLintError` with the
one-line message the command prints; a wrong argument's error is a TypeError (the wrong
type, an unknown keyword) or a ValueError (a value the option refuses) too. Nothing is
written to stdout or stderr.

See docs/api.md for the reference and examples.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

from sitemap_lint.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    SitemapLintError,
    internal_error,
    plugin_at_fault,
)
from sitemap_lint.finding import Edit, FindingFix, Fix, Rule, Severity

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.inputs.reader import Source
    from sitemap_lint.run import RunSettings

StrPath: TypeAlias = "str | os.PathLike[str]"


@dataclass(frozen=True, slots=True)
class Finding:
    """One defect at one place: the rule that describes it, the input, the position.

    ``path`` is the input's name as the command reports it (the path as given or
    found in a directory, the URL of a fetched file, ``<bytes>`` for content given as
    bytes); ``line`` and ``column`` are 1-based. ``severity`` is the one the run
    reports (after the profile and the configuration's ``severity`` table).
    ``fix`` is the automatic fix ``sitemap-lint --fix`` would apply (its edits exact
    over the file's text), or None; it takes no part in comparisons. ``xpath`` names the
    element the finding is about, XPath-like, 1-based, with the document's own prefixes
    (``/urlset/url[6]/priority``; JSON's ``xpath``), or None when the finding is about no
    one element (the file, a line, a set of files); it takes no part in comparisons either.
    """

    code: str
    name: str
    severity: Severity
    path: str
    line: int
    column: int
    message: str
    fix: FindingFix | None = field(default=None, compare=False, repr=False)
    xpath: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.code} {self.message}"


@dataclass(frozen=True, slots=True)
class FileReport:
    """The findings for one checked file, in the order the command reports them.

    ``kind`` says what the file is (urlset, sitemapindex, text, rss, atom or robots;
    None for none of them) and ``urls`` how many URLs it lists (None for an index or a
    robots.txt), in every run, as in the JSON report.
    """

    path: str
    findings: tuple[Finding, ...]
    kind: str | None = None
    urls: int | None = None


@dataclass(frozen=True, slots=True)
class LintResult:
    """The outcome of a run: every checked file, all findings, and the exit status.

    ``findings`` are those of ``files`` one after the other. ``exit_code`` is the
    command's: 0 when no finding reaches ``fail_on`` (or with ``exit_zero``), 1 otherwise
    (what would exit 2 raises :class:`SitemapLintError` instead).
    """

    files: tuple[FileReport, ...]
    findings: tuple[Finding, ...]
    exit_code: int


# A rule of the catalogue: its code, name, severity, one-line summary, ``doc`` (the
# Markdown sections What it does, Why is this bad?, Example and Use instead) and ``page``
# (the whole text ``sitemap-lint rule CODE`` prints: title, summary, doc, Fix safety).
RuleInfo = Rule


class Options(TypedDict, total=False):
    """The keyword options of :func:`lint` and :func:`lint_paths`: those of
    ``sitemap-lint check``, each converted from its Python type and then checked by the
    command's own setting of the same name (``settings.py``), which also gives its
    default. Left out: as the flag left out (the configuration file's value applies
    where it gives one). docs/api.md describes each."""

    now: str | date | None
    sitemap_url: str | None
    stdin_filename: StrPath | None
    select: Sequence[str] | None
    extend_select: Sequence[str] | None
    ignore: Sequence[str] | None
    profile: str | None
    fail_on: str | Severity | None
    exit_zero: bool
    xsd_engine: str | None
    config: StrPath | None
    isolated: bool
    follow: bool
    maps: Mapping[str, StrPath] | None
    robots: Sequence[StrPath] | None
    max_depth: int
    max_files: int
    max_bytes: int
    jobs: int
    timeout: float
    allow_private_hosts: bool
    scheduler: str | None
    baseline: StrPath | None
    live: bool
    live_concurrency: int
    live_per_host: int
    live_timeout: float
    live_max: int | None
    live_sample: str | None
    live_seed: int
    live_crawl_budget: float | None
    live_cache: StrPath | None
    no_live_cache: bool
    live_connect_to: Sequence[str] | None


def lint(
    source: bytes | bytearray | memoryview | StrPath,
    *,
    name: str | None = None,
    **options: Unpack[Options],
) -> list[Finding]:
    """Check one input and return its findings in the order the command reports them.

    ``source`` is the content when it is bytes (plain or gzipped, read as the command
    reads standard input; ``name``, ``<bytes>`` by default, is the name its findings
    carry and the one the configuration's per-file settings and the robots.txt and
    text-sitemap detection look at; ``stdin_filename`` may say it instead). A str or PathLike is what the command takes as an
    argument: a file, a directory (its sitemap files), or an http(s) URL; a str that
    is no such path and looks like content (it starts with ``<`` or holds a line break)
    raises :class:`SitemapLintError` saying to give the content as bytes.

    The keyword arguments are the options of ``sitemap-lint check`` (see
    :func:`lint_paths`). Raises :class:`SitemapLintError` where the command exits 2.
    """
    from sitemap_lint.inputs.reader import BYTES_NAME, STDIN, Source

    if isinstance(source, bytes | bytearray | memoryview):
        label = BYTES_NAME if name is None else _name(name)
        if name is not None and options.get("stdin_filename") is not None:
            raise ArgumentValueError("name= and stdin_filename= both name the content; give one")
        settings = _settings([STDIN], options)
        content = Source(settings.stdin_filename or label, None, data=bytes(source))
        return list(_run(settings, content).findings)
    if name is not None:
        raise ArgumentTypeError("name=: give it only with bytes; a path names itself")
    settings = _settings([_input(source, "source")], options)
    return list(_run(settings, None).findings)


def lint_paths(paths: Iterable[StrPath], **options: Unpack[Options]) -> LintResult:
    """Check files, directories, URLs and robots.txt files as ``sitemap-lint check``
    does with the same arguments, the rules across a set of files included.

    Options (None or the default: as the command without the flag; the configuration
    file's value applies where it gives one):

    - ``now``: the current time for the date rules (ISO 8601 text, a datetime or a
      date; without a zone, UTC). ``sitemap_url``: the URL the input is served at.
    - ``stdin_filename``: the file name standard input (the path ``-``) stands for: its
      findings carry it and the per-file settings match it; the file is not read.
    - ``select``, ``extend_select``, ``ignore``: lists of rule codes or prefixes.
    - ``profile``: google, bing, yandex or strict. ``fail_on``: error, warning or info
      (what makes ``exit_code`` 1); ``exit_zero``: ``exit_code`` 0 even with findings.
    - ``xsd_engine``: libxml2 or xmlschema. ``config``: a configuration file;
      ``isolated``: no configuration file at all.
    - ``follow``: also fetch the sitemaps a local index or robots.txt lists.
      ``maps``: ``{URL_PREFIX: DIR}``, URLs under the prefix read from the directory.
      ``robots``: robots.txt files or URLs that inform the checks.
    - ``max_depth``, ``max_files``, ``max_bytes``, ``jobs`` (worker processes, 0: one
      per core), ``timeout`` (seconds): the set run's limits.
    - ``allow_private_hosts``: also fetch URLs on loopback, private and other internal
      addresses that no input names (refused with FE014 otherwise).
    - ``scheduler``: a Dask scheduler's address (``tcp://HOST:8786``) or ``auto``: the
      set is fetched and checked on that cluster (the ``dask`` extra).
    - ``baseline``: a file ``sitemap-lint --write-baseline`` wrote; the findings it
      records are not reported.
    - ``live``: after the checks, request the URLs the sitemaps list (the ``LV``
      rules); ``live_concurrency``, ``live_per_host``, ``live_timeout``, ``live_max``,
      ``live_sample`` (``"500"`` or ``"10%"``), ``live_seed``, ``live_crawl_budget``
      (seconds, ``math.inf``: no bound), ``live_cache`` (a path),
      ``no_live_cache`` and ``live_connect_to`` (``["HOST:PORT:HOST2:PORT2"]``) as the
      command's ``--live-*`` options (docs/live.md).

    Raises :class:`SitemapLintError` where the command exits 2.
    """
    arguments = [_input(path, "paths") for path in _items(paths, "paths", "paths", "['public/']")]
    if not arguments:
        raise ArgumentValueError("paths: give at least one file, directory or URL")
    settings = _settings(arguments, options)
    return _run(settings, None)


def rules(profile: str | None = None) -> tuple[RuleInfo, ...]:
    """The catalogue of every rule, in the order ``sitemap-lint rules`` lists them.

    ``severity`` is the rule's own, or with ``profile`` (google, bing, yandex or
    strict) the one that profile gives it. ``doc`` is the rule's sections (What it does,
    Why is this bad?, Example, Use instead); ``page`` the whole text ``sitemap-lint rule
    CODE`` prints. Raises :class:`SitemapLintError` for an unknown profile.
    """
    from sitemap_lint.rules import catalogue

    if profile is not None:
        _checked({"profile": _optional_text(profile, "profile")})
    return catalogue(profile)


# -- from keyword arguments to the command's settings ---------------------------------


def _settings(paths: list[str], options: Mapping[str, Any]) -> RunSettings:
    """The settings of the run, every value checked as the command checks it; a wrong
    one raises before anything is read, its message naming the keyword."""
    unknown = [key for key in options if key not in _KEYWORDS]
    if unknown:
        import difflib

        close = difflib.get_close_matches(unknown[0], sorted(_KEYWORDS), n=1)
        hint = f"; did you mean {close[0]}=?" if close else ""
        raise ArgumentTypeError(f"{unknown[0]}=: not an option of lint and lint_paths{hint}")
    if options.get("isolated") is True and options.get("config") is not None:
        raise ArgumentValueError(
            "config= and isolated=True cannot be used together: one names a configuration"
            " file, the other ignores every one; give one of them"
        )
    keywords: dict[str, object] = {"paths": paths}
    for key, value in options.items():
        convert = _CONVERSIONS.get(key)
        keywords[key] = value if convert is None else convert(value, key)
    return _checked(keywords)


def _checked(keywords: dict[str, object]) -> RunSettings:
    from sitemap_lint.settings.declared import from_keywords

    if "paths" not in keywords:
        keywords = {"paths": ["-"], **keywords}
    try:
        return from_keywords(**keywords)
    except SitemapLintError as error:
        single = _one_line(error)
        if single is error:
            raise
        raise single from None


def _run(settings: RunSettings, stdin: Source | None) -> LintResult:
    from sitemap_lint.inputs.reader import InputError
    from sitemap_lint.run import compute
    from sitemap_lint.settings import config as configuration
    from sitemap_lint.settings.declared import keyword_message

    try:
        outcome = compute(
            settings, configuration.resolve(settings.config, settings.isolated), stdin=stdin
        )
        results = outcome.results
        if any(f.fix is not None for r in results for f in r.findings):
            from sitemap_lint.fix.runner import emptying_dropped, resolved

            results = resolved(emptying_dropped(results, None), outcome.sources)
    except (InputError, SitemapLintError) as error:
        message = keyword_message(str(error), _KEYWORDS)  # a flag named as the keyword
        if isinstance(error, SitemapLintError) and message == str(error):
            single = _one_line(error)
            if single is error:
                raise
            raise single from error
        raise _one_line(SitemapLintError(message)) from error
    except Exception as error:
        # A plugin's check that raised stops the command with one line naming it (exit 2):
        # here it is that line's error, the plugin's own as its cause.
        plugin = plugin_at_fault(error)
        if plugin is None:
            raise
        raise _one_line(SitemapLintError(internal_error(error, plugin))) from error
    files = tuple(_file_report(result) for result in results)
    findings = tuple(finding for report in files for finding in report.findings)
    return LintResult(files, findings, outcome.exit_code)


def _file_report(result: FileResult) -> FileReport:
    path = result.name
    findings = tuple(
        Finding(f.code, f.name, f.severity, path, f.line, f.column, f.message, f.fix, f.xpath)
        for f in result.findings
    )
    return FileReport(path, findings, result.kind, result.urls)


def _path(value: object, option: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
    kinds = "bytes, a str or an os.PathLike" if option == "source" else "a str or an os.PathLike"
    raise ArgumentTypeError(f"{_named(option)}: {_repr(value)} is not a path (give {kinds})")


# The line breaks ``str.splitlines`` knows, each written as its escape.
_LINE_BREAKS = {ord(c): repr(c)[1:-1] for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}


def _one_line(error: SitemapLintError) -> SitemapLintError:
    """``error``, or one of its type whose message has its line breaks escaped: the message
    is one line, whatever text a value it quotes holds."""
    message = str(error)
    single = message.translate(_LINE_BREAKS)
    return error if single == message else type(error)(single)


def _shown(text: str, width: int = 40) -> str:
    """``text`` quoted on one line, its first ``width`` characters only."""
    return repr(text[:width]) + ("..." if len(text) > width else "")


def _repr(value: object, width: int = 60) -> str:
    """``repr(value)``, cut to its first ``width`` characters: a wrong value may be a whole
    document given in the wrong place."""
    text = repr(value)
    return text if len(text) <= width else text[:width] + "..."


def _input(value: object, option: str) -> str:
    """An input as the command takes it: a path or URL. A str that names no file and looks
    like a document's content (a ``<`` first, or a line break) is content given as a str,
    which goes as bytes (``lint(text.encode())``); a line break at either end may be a
    path read from a list, and is said to name no file."""
    path = _path(value, option)
    text = path.strip() if isinstance(value, str) else ""
    if (text.startswith("<") or "\n" in text or "\r" in text) and not os.path.lexists(path):
        advice = (
            "give the content as bytes"
            if option == "source"
            else "lint() checks content given as bytes"
        )
        raise ArgumentValueError(
            f"{option}: {_shown(path)} looks like content, not a path (no such file);"
            f" {advice}, e.g. lint(text.encode())"
        )
    return path


def _named(option: str) -> str:
    """How a message names an argument: ``config=`` for a keyword, ``paths`` as it is."""
    return option if option in ("paths", "source") else f"{option}="


def _items(
    values: object, option: str, what: str, example: str, separator: str | None = None
) -> list[Any]:
    """The items of an argument that takes a list of ``what``. Text, a path, bytes or
    a mapping is no such list: the message shows a text in one (split at ``separator``,
    as the command line's text is), else ``example``."""
    if isinstance(values, str | os.PathLike):
        shown = f"[{values!r}]" if os.fspath(values) else example  # [''] is refused too
        if separator and isinstance(values, str) and separator in values:
            parts = [part.strip() for part in values.split(separator) if part.strip()]
            shown = repr(parts) if parts else example
        raise ArgumentTypeError(f"{_named(option)}: give a list of {what}, e.g. {shown}")
    if isinstance(values, bytes | bytearray | memoryview | Mapping) or not isinstance(
        values, Iterable
    ):
        raise ArgumentTypeError(
            f"{_named(option)}: give a list of {what}, e.g. {example}; got {_repr(values)}"
        )
    return list(values)


def _paths(values: Sequence[StrPath] | None, option: str) -> tuple[str, ...]:
    if values is None:
        return ()
    return tuple(_path(value, option) for value in _items(values, option, "paths", "['a.xml']"))


def _name(value: object) -> str:
    if not isinstance(value, str) or not value:
        error = ArgumentValueError if isinstance(value, str) else ArgumentTypeError
        raise error(f"name=: {_repr(value)} is not a name (give a non-empty str)")
    return value


def _optional_text(value: object, option: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise ArgumentTypeError(f"{option}=: expected a string, got {_repr(value)}")


def _codes(values: Sequence[str] | None, option: str) -> str | None:
    """A list of codes as the command line's comma-separated text (the core checks each)."""
    if values is None:
        return None
    items = _items(values, option, "rule codes", "['UR', 'DT004']", separator=",")
    for item in items:
        if not isinstance(item, str) or "," in item or not item.strip():
            error = ArgumentValueError if isinstance(item, str) else ArgumentTypeError
            raise error(f"{option}=: {_repr(item)} is not a rule code or a prefix of one")
    if option == "select" and not items:
        from sitemap_lint.settings.declared import NOTHING_SELECTED

        raise ArgumentValueError(
            f'select=: an empty list {NOTHING_SELECTED}; give codes, e.g. ["UR"], or None'
        )
    return ",".join(items)


def _now(value: str | date | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, date):  # a datetime is a date too
        return value.isoformat()
    raise ArgumentTypeError(f"now=: {_repr(value)} is not a timestamp (give a str or a datetime)")


def _maps(maps: Mapping[str, StrPath] | None) -> tuple[str, ...]:
    if maps is None:
        return ()
    if not isinstance(maps, Mapping):
        raise ArgumentTypeError(
            'maps=: give a mapping of URL prefix to directory, e.g. {"https://example.com/": "public"}'
        )
    entries = []
    for prefix, directory in maps.items():
        if not isinstance(prefix, str) or "=" in prefix:
            error = ArgumentValueError if isinstance(prefix, str) else ArgumentTypeError
            raise error(f"maps=: {_repr(prefix)} is not a URL prefix")
        entries.append(f"{prefix}={_path(directory, 'maps')}")
    return tuple(entries)


def _texts(values: Sequence[str] | None, option: str) -> tuple[str, ...]:
    """A list of strings (``live_connect_to``); None is none."""
    if values is None:
        return ()
    items = tuple(_items(values, option, "strings", "['HOST:PORT:HOST2:PORT2']"))
    for item in items:
        if not isinstance(item, str):
            raise ArgumentTypeError(f"{option}=: {_repr(item)} is not a str")
    return items


def _integer(value: object, option: str) -> int:
    """An int as documented (``max_bytes``: the command's sizes such as ``20GiB`` are
    text for the command line; here the number, e.g. ``500 * 1024**2``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{option}=: expected an integer, got {_repr(value)}")
    return value


def _fail_on(value: object, _option: str) -> object:
    return str(value) if isinstance(value, Severity) else value


def _optional_path(value: object, option: str) -> str | None:
    return None if value is None else _path(value, option)


# From a keyword's Python type to the text or tuple its setting takes (the others pass
# as they are).
_CONVERSIONS: dict[str, Callable[[Any, str], object]] = {
    "now": lambda value, _option: _now(value),
    "select": _codes,
    "extend_select": _codes,
    "ignore": _codes,
    "fail_on": _fail_on,
    "config": _optional_path,
    "baseline": _optional_path,
    "stdin_filename": _optional_path,
    "live_cache": _optional_path,
    "maps": lambda value, _option: _maps(value),
    "robots": _paths,
    "live_connect_to": _texts,
    "max_bytes": _integer,
}

# The keywords of the calls, which messages name where the command names a flag.
_KEYWORDS = frozenset(Options.__annotations__)

__all__ = [
    "Edit",
    "FileReport",
    "Finding",
    "FindingFix",
    "Fix",
    "LintResult",
    "Options",
    "RuleInfo",
    "Severity",
    "SitemapLintError",
    "lint",
    "lint_paths",
    "rules",
]
