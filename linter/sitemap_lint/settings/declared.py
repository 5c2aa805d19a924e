"""Every setting of a run, declared once.

A ``Setting`` names a value of a run and says everything the tool needs to know about
it: its Python name (the ``RunSettings`` field and the keyword of the Python API), its
kind and default, its help, its command-line flags and metavar, its configuration key
and how that key is read, and how a given value is checked. From the one tuple
``SETTINGS`` come the options of ``sitemap-lint check`` (cli.py), the fields of
``RunSettings`` and of the configuration's ``Config``, the keys a configuration file
may hold (config.py), the keyword arguments of the API (``from_keywords``) and the
README's table of options (``python -m sitemap_lint.settings.declared README.md``).

Checks run where the run has always run them (``run.execute``, after the
configuration is read), so a value is checked the same way whichever way it came.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol

from sitemap_lint.errors import ArgumentTypeError, ArgumentValueError, UsageError, empty_path
from sitemap_lint.settings.parsing import (
    COLOR_MODES,
    check_color,
    parse_level,
    parse_map,
    parse_now,
    parse_sitemap_url,
    parse_size,
    refuse_nul,
)
from sitemap_lint.support.records import Frozen

Kind = Literal["paths", "text", "flag", "int", "float", "size", "repeat", "table"]
"""How a value is given: ``paths`` (the positional PATH...), ``text`` (a string or
None), ``flag`` (on or off), ``int``, ``float``, ``size`` (bytes, ``20GiB``),
``repeat`` (a repeatable option: a tuple of strings), ``table`` (configuration only: a
table or a list)."""


class KeyReader(Protocol):
    """What a setting's configuration reader may ask of the file being read
    (config.py implements it); every message names the file and the key."""

    base: Path  # the configuration file's directory

    def where(self, key: str) -> str: ...
    def fail(self, key: str, problem: str) -> UsageError: ...
    def codes(self, key: str, value: Any) -> tuple[str, ...]: ...
    def choice(self, key: str, value: Any, choices: Iterable[str]) -> str: ...
    def table(self, key: str, value: Any) -> dict[str, Any]: ...
    def glob(self, key: str, pattern: str) -> Any: ...
    def url(self, key: str, value: Any) -> Any: ...


Check = Callable[[Any, str], Any]
"""``check(value, where)``: the value the run uses, or a UsageError naming ``where``."""
Read = Callable[["Setting", KeyReader, str, Any], dict[str, Any]]
"""``read(setting, reader, key, value)``: the ``Config`` fields a configuration key gives."""


class Range:
    """The numbers a setting allows: from ``least`` (or above it, with ``above``) up to
    ``most`` (None: no limit). ``zero`` says what 0 means where it is allowed."""

    __slots__ = ("above", "least", "most", "unit", "zero")

    def __init__(
        self,
        least: float,
        most: float | None = None,
        *,
        above: bool = False,
        zero: str = "",
        unit: str = "",
    ) -> None:
        self.least = least
        self.most = most
        self.above = above
        self.zero = zero
        self.unit = unit

    @property
    def text(self) -> str:
        """``0 (one per core) or more``, ``more than 0 and at most 600 seconds``."""
        least = f"{self.least:g}" + (f" ({self.zero})" if self.zero else "")
        if self.most is None:
            text = f"more than {least}" if self.above else f"{least} or more"
        else:
            text = f"{'more than' if self.above else 'from'} {least} and at most {self.most:g}"
        return f"{text} {self.unit}" if self.unit else text

    def allows(self, value: float) -> bool:
        if not (value > self.least if self.above else value >= self.least):
            return False  # NaN too
        return self.most is None or value <= self.most

    def check(self, value: float, where: str) -> float:
        if not self.allows(value):
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            raise UsageError(f"{where} {shown}: give {self.text}")
        return value


@dataclass(init=False, repr=False, eq=False)
class Setting(Frozen):
    """One setting. ``flags`` is empty for a configuration-only setting, ``key`` is None
    for a command-line-only one; ``stored`` lists the ``Config`` fields its key fills
    (with their defaults)."""

    name: str
    kind: Kind
    help: str
    default: Any = None
    flags: tuple[str, ...] = ()
    key: str | None = None
    metavar: str | None = None
    choices: Callable[[], tuple[str, ...]] | None = None
    check: Check | None = None
    read: Read | None = None
    stored: tuple[tuple[str, Any], ...] = ()
    doc: str = ""  # the README's wording; the help when empty
    show_default: bool = False  # the help shows the default (sizes as 20GiB)
    range: Range | None = None  # the numbers allowed; checks them unless ``check`` does

    def __init__(
        self,
        name: str,
        kind: Kind,
        help: str,
        default: Any = None,
        flags: tuple[str, ...] = (),
        key: str | None = None,
        metavar: str | None = None,
        choices: Callable[[], tuple[str, ...]] | None = None,
        check: Check | None = None,
        read: Read | None = None,
        stored: tuple[tuple[str, Any], ...] = (),
        doc: str = "",
        show_default: bool = False,
        range: Range | None = None,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "name", name)
        setattr_(self, "kind", kind)
        setattr_(self, "help", help)
        setattr_(self, "default", default)
        setattr_(self, "flags", flags)
        setattr_(self, "key", key)
        setattr_(self, "metavar", metavar)
        setattr_(self, "choices", choices)
        setattr_(self, "check", check if check is not None or range is None else range.check)
        setattr_(self, "read", read)
        setattr_(self, "stored", stored)
        setattr_(self, "doc", doc)
        setattr_(self, "show_default", show_default)
        setattr_(self, "range", range)

    @property
    def flag(self) -> str:
        """The long flag, which messages name (the Python name without a flag)."""
        return self.flags[0] if self.flags else self.name

    @property
    def on_command_line(self) -> bool:
        return bool(self.flags) or self.kind == "paths"

    def parse(self, value: Any, where: str | None = None) -> Any:
        """``value`` checked and turned into what the run uses."""
        return value if self.check is None else self.check(value, where or self.flag)

    def meaning(self) -> str:
        """The README's wording, with the range of the numbers allowed."""
        meaning = self.doc or self.help.rstrip(".")
        return meaning if self.range is None else f"{meaning}; allowed: {self.range.text}"

    def metavar_text(self) -> str | None:
        """The metavar: the choices as ``[a|b|c]`` when there are some."""
        if self.choices is not None:
            return f"[{'|'.join(self.choices())}]"
        return self.metavar


# -- choices, looked up only when needed (the registries are slow to import) ------------


def _formats() -> tuple[str, ...]:
    from sitemap_lint.report import REPORTERS

    return tuple(REPORTERS)


def _engines() -> tuple[str, ...]:
    from sitemap_lint.xsd import ENGINES

    return tuple(ENGINES)


def _profiles() -> tuple[str, ...]:
    from sitemap_lint.settings.profiles import PROFILES

    return tuple(PROFILES)


def _levels() -> tuple[str, ...]:
    from sitemap_lint.settings.selection import LEVELS

    return LEVELS


def _colors() -> tuple[str, ...]:
    return COLOR_MODES


# -- checks ----------------------------------------------------------------------------


def _check_format(value: str, where: str) -> str:
    if value not in _formats():
        raise UsageError(
            f"{where}: unknown format {value!r}; choose one of {', '.join(_formats())}"
        )
    return value


def _check_engine(value: str, where: str) -> str:
    if value not in _engines():
        raise UsageError(f"{where}: unknown XSD engine {value!r}; choose {' or '.join(_engines())}")
    return value


def _check_profile(value: str, where: str) -> str:
    from sitemap_lint.settings.profiles import checked

    try:
        return checked(value)
    except UsageError as error:
        raise UsageError(f"{where}: {error}") from None


def _check_codes(value: str | None, where: str) -> tuple[str, ...] | None:
    from sitemap_lint.settings.selection import split_codes

    return None if value is None else split_codes(value, where)


NOTHING_SELECTED = "names no rule code, so nothing would be reported"
CODE_LISTS = frozenset({"select", "extend_select", "ignore"})
"""The settings that take comma-separated codes: their flags add up when repeated."""


def _check_selection(value: str | None, where: str) -> tuple[str, ...] | None:
    """Codes that select at least one rule: an empty ``--select`` (an unset CI variable)
    would pass every file unchecked."""
    codes = _check_codes(value, where)
    if codes == ():
        raise UsageError(f"{where}: {NOTHING_SELECTED}; give codes or prefixes, e.g. UR,DT004")
    return codes


def _check_maps(value: tuple[str, ...], where: str) -> tuple[tuple[str, Path], ...]:
    return tuple(parse_map(text, where=where) for text in value)


def _check_scheduler(value: str | None, where: str) -> str | None:
    """``auto`` or a scheduler address: ``tcp://HOST:PORT`` (or Dask's tls, ws, wss, ucx)
    or ``HOST:PORT``."""
    import re

    if value is None or value == "auto":
        return value
    if not re.fullmatch(
        r"((tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]]+)(:\d+)?/?", value
    ):
        raise UsageError(
            f"{where} {value!r}: give a scheduler address such as tcp://HOST:8786, or auto"
        )
    return value


def given_empty(value: object) -> bool:
    """Whether ``value`` is ``""`` (an unset variable), or holds it (a repeatable
    option's values): given, not left out (None)."""
    return value == "" or (isinstance(value, tuple) and "" in value)


def refuse_empty_path(value: object, where: str, names: str = "file", give: str = "a file") -> None:
    """An empty path (an unset variable) is neither the working directory, which
    ``Path("")`` is, nor the option left out: a usage error."""
    if given_empty(value):
        raise UsageError(empty_path(where, names, give))


def _check_path(value: str | tuple[str, ...] | None, where: str) -> Any:
    """A file name, or several (a repeatable option), none of them empty or holding a
    NUL character."""
    refuse_empty_path(value, where)
    for text in (value,) if isinstance(value, str) else value or ():
        refuse_nul(text, where)
    return value


def _check_name(value: str | None, where: str) -> str | None:
    """A file name that stands for another input: an empty one names nothing."""
    if value == "":
        raise UsageError(f"{where}: an empty name names no file; give one, e.g. public/sitemap.xml")
    return value


STDOUT = "-"
"""The name of standard output, for a report: as if no file were named."""


def _check_output(value: str | None, where: str) -> str | None:
    """The file a report is written to; None for standard output (``-``, or none)."""
    return None if _check_path(value, where) == STDOUT else value


# -- configuration readers ---------------------------------------------------------------


def _check_live_max(value: int | None, where: str) -> int | None:
    return None if value is None else int(Range(0).check(value, where))


LIVE_CRAWL_BUDGET = 300.0
"""Seconds of one host's Crawl-delays a live audit waits at most (``live_crawl_budget``)."""
_CRAWL_BUDGET_RANGE = Range(0, above=True, unit="seconds")


def _check_live_crawl_budget(value: float | None, where: str) -> float | None:
    """More than 0 seconds (``inf``: no bound); None when not given (the configuration
    file's value, or the default, applies)."""
    return None if value is None else _CRAWL_BUDGET_RANGE.check(float(value), where)


def _check_live_sample(value: str | None, where: str) -> tuple[int | None, float | None] | None:
    """``N`` or ``P%``: (count, None) or (None, percent); None when not given."""
    if value is None:
        return None
    text = value.strip()
    try:
        if text.endswith("%"):
            percent = float(text[:-1])
            if not 0 < percent <= 100:
                raise ValueError(text)
            return None, percent
        count = int(text)
        if count < 1:
            raise ValueError(text)
        return count, None
    except ValueError:
        raise UsageError(
            f"{where} {value}: give a number of URLs, 1 or more (e.g. 500), or a percentage,"
            " more than 0 and at most 100 (e.g. 10%)"
        ) from None


def _check_connect_to(value: tuple[str, ...], where: str) -> tuple[tuple[str, str], ...]:
    """``HOST:PORT:HOST2:PORT2`` each: (``host:port``, ``host2:port2``) pairs."""
    pairs = []
    for item in value:
        parts = item.rsplit(":", 3)
        if len(parts) != 4 or not all(parts) or not (_port(parts[1]) and _port(parts[3])):
            raise UsageError(
                f"{where} {item}: give HOST:PORT:HOST2:PORT2, e.g. example.com:443:127.0.0.1:8443"
            )
        pairs.append((f"{parts[0].lower()}:{parts[1]}", f"{parts[2]}:{parts[3]}"))
    return tuple(pairs)


def _port(text: str) -> bool:
    """Whether ``text`` is a TCP port one connects to: 1 to 65535, in ASCII digits."""
    return text.isascii() and text.isdigit() and 0 < int(text) < 65536


def subkey(key: str, name: str) -> str:
    """``key.name`` as TOML spells it: quoted unless ``name`` is a bare key."""
    import re

    return f"{key}.{name}" if re.fullmatch(r"[A-Za-z0-9_-]+", name) else f'{key}."{name}"'


def _read_codes(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    return {setting.name: reader.codes(key, value)}


def _read_selection(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    codes = reader.codes(key, value)
    if not codes:
        raise reader.fail(key, f'an empty list {NOTHING_SELECTED}; give codes, e.g. ["UR"]')
    return {setting.name: codes}


def _read_choice(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    assert setting.choices is not None
    return {setting.name: reader.choice(key, value, setting.choices())}


def _read_level(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    from sitemap_lint.finding import Severity

    return {setting.name: Severity.parse(reader.choice(key, value, _levels()))}


def _read_flag(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, bool):
        raise reader.fail(key, f"expected true or false, got {value!r}")
    return {setting.name: value}


def _read_severity(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    from sitemap_lint.finding import Severity
    from sitemap_lint.settings.selection import parse_codes

    levels: dict[str, Severity | None] = {}
    for code, level in reader.table(key, value).items():
        (prefix,) = parse_codes([code], reader.where(key))
        name = reader.choice(subkey(key, code), level, (*_levels(), "off"))
        levels[prefix] = None if name == "off" else Severity.parse(name)
    return {setting.name: levels}


def _read_external(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    from sitemap_lint.rules.registry import external_fault

    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise reader.fail(key, 'expected a list of rule codes or prefixes, e.g. ["ZZ", "XY001"]')
    codes = []
    for item in value:
        code = item.strip().upper()
        fault = external_fault(code)
        if fault is not None:
            raise reader.fail(key, f"{item!r} {fault}")
        codes.append(code)
    return {setting.name: tuple(codes)}


def _read_per_file_ignores(
    setting: Setting, reader: KeyReader, key: str, value: Any
) -> dict[str, Any]:
    entries = []
    for pattern, codes in reader.table(key, value).items():
        entry = subkey(key, pattern)
        entries.append((reader.glob(entry, pattern), reader.codes(entry, codes)))
    return {setting.name: tuple(entries)}


def _read_seconds(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise reader.fail(key, f"expected a number of seconds, got {value!r}")
    assert setting.check is not None
    return {setting.name: setting.check(float(value), reader.where(key))}


def _read_sitemap_url(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        entries = []
        for pattern, url in value.items():
            entry = subkey(key, pattern)
            entries.append((reader.glob(entry, pattern), reader.url(entry, url)))
        return {"sitemap_urls": tuple(entries)}
    if not isinstance(value, str):
        raise reader.fail(key, f"expected a URL or a table of glob = URL, got {value!r}")
    return {"sitemap_url": reader.url(key, value)}


def _read_maps(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    entries = []
    for prefix, directory in reader.table(key, value).items():
        entry = subkey(key, prefix)
        if not isinstance(directory, str):
            raise reader.fail(entry, f"expected a directory path, got {directory!r}")
        try:
            entries.append(parse_map(f"{prefix}={reader.base / directory}", must_exist=False))
        except UsageError as error:
            reason = str(error).split(": ", 1)[-1]
            raise reader.fail(entry, reason) from None
    return {setting.name: tuple(entries)}


def _read_path(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, str) or not value:
        raise reader.fail(key, f"expected a file path, got {value!r}")
    refuse_nul(value, reader.where(key))
    return {setting.name: str(reader.base / value)}


def _read_robots(setting: Setting, reader: KeyReader, key: str, value: Any) -> dict[str, Any]:
    from sitemap_lint.inputs.reader import is_url

    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise reader.fail(key, 'expected a list of robots.txt files or URLs, e.g. ["robots.txt"]')
    for item in value:
        refuse_nul(item, reader.where(key))
    robots = tuple(item if is_url(item) else str(reader.base / item) for item in value)
    return {setting.name: robots}


# -- the declaration -----------------------------------------------------------------------

MAX_BYTES = 20 * 1024**3

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "paths",
        "paths",
        "Sitemap files, directories, http(s) URLs or robots.txt; '-' reads standard input.",
        metavar="PATH",
    ),
    Setting(
        "format",
        "text",
        "Report format (text by default).",
        flags=("--format", "-f"),
        key="format",
        choices=_formats,
        check=_check_format,
        read=_read_choice,
        stored=(("format", None),),
        doc="`text` (default, a report for people), `concise` (`path:line:col: CODE message`),"
        " `json`, `sarif`, `github`, `junit`, `gitlab` or `html` (one self-contained page; needs"
        " the `html` extra)",
    ),
    Setting(
        "output_file",
        "text",
        "Write the report to this file (the summary goes to stderr).",
        flags=("--output-file", "-o"),
        metavar="PATH",
        check=_check_output,
        doc="write the report to `PATH` (a file atomically; into a FIFO, a terminal,"
        " `/dev/stdout` or `/dev/fd/N` as a shell's redirection would; `-` is standard"
        " output; never an input, the baseline or another file the run reads: exit 2); a"
        " one-line summary still goes to stderr",
    ),
    Setting(
        "baseline",
        "text",
        "Report only the findings this baseline file does not record.",
        flags=("--baseline",),
        key="baseline",
        metavar="FILE",
        check=_check_path,
        read=_read_path,
        stored=(("baseline", None),),
        doc="report and count only the findings that the baseline `FILE` (written by"
        " `--write-baseline`) does not record, and say how many it matched; in the file, a"
        " path relative to it",
    ),
    Setting(
        "write_baseline",
        "text",
        "Record every finding in this baseline file; exit 0.",
        flags=("--write-baseline",),
        metavar="FILE",
        check=_check_path,
        doc="record every finding of the run in the baseline `FILE` (JSON, sorted, without"
        " line numbers), report as usual and exit 0 (it may be the `--baseline` read, which"
        " it refreshes; never an input or another file the run reads: exit 2)",
    ),
    Setting(
        "sitemap_url",
        "text",
        "URL the file is served at; enables the scope rules.",
        flags=("--sitemap-url",),
        key="sitemap-url",
        metavar="URL",
        check=parse_sitemap_url,
        read=_read_sitemap_url,
        stored=(("sitemap_url", None), ("sitemap_urls", ())),
        doc="where the file is served; turns on the scope rules (`SC001`, `SC002`); in the"
        " file, one URL or a table of glob = URL (the first matching glob applies)",
    ),
    Setting(
        "stdin_filename",
        "text",
        "The file name standard input ('-') stands for, in the report and for the"
        " configuration's globs; that file is not read.",
        flags=("--stdin-filename",),
        metavar="NAME",
        check=_check_name,
        doc="the file name standard input (`-`) stands for: its findings are reported under"
        " `NAME` (in every format), the configuration's per-file settings (`per-file-ignores`,"
        " a `sitemap-url` table) match it, and it tells a robots.txt, a text sitemap or gzip"
        " content (IN003) as a file's name would; the file `NAME` is never opened",
    ),
    Setting(
        "now",
        "text",
        "Timestamp to use as the current time (ISO 8601).",
        flags=("--now",),
        metavar="TIMESTAMP",
        check=parse_now,
        doc="the current time for time-dependent rules, e.g. `2025-06-01T00:00:00Z` (default:"
        " now); allowed: from the year 1000 to the year 9998 (in UTC)",
    ),
    Setting(
        "xsd_engine",
        "text",
        "XSD engine (libxml2 by default).",
        flags=("--xsd-engine",),
        key="xsd-engine",
        choices=_engines,
        check=_check_engine,
        read=_read_choice,
        stored=(("xsd_engine", None),),
        doc="`libxml2` (default) or `xmlschema`; see [Two XSD engines](#two-xsd-engines)",
    ),
    Setting(
        "config",
        "text",
        "Configuration file (a .sitemap-lint.toml or pyproject.toml).",
        flags=("--config",),
        metavar="FILE",
        check=_check_path,
        doc="use this configuration file (see [Configuration](#configuration))",
    ),
    Setting(
        "isolated",
        "flag",
        "Ignore every configuration file.",
        default=False,
        flags=("--isolated",),
        doc="ignore every configuration file",
    ),
    Setting(
        "select",
        "text",
        "Report only these rule codes or prefixes (comma-separated; repeatable).",
        flags=("--select",),
        key="select",
        metavar="CODES",
        check=_check_selection,
        read=_read_selection,
        stored=(("select", None),),
        doc="report only these rule codes or code prefixes, comma-separated (repeatable; the file: a"
        ' list, e.g. `["UR", "DT004"]`; see [Configuration](#configuration)); an empty'
        " value is exit 2, as it would report nothing",
    ),
    Setting(
        "extend_select",
        "text",
        "Report these codes or prefixes as well (comma-separated; repeatable).",
        flags=("--extend-select",),
        key="extend-select",
        metavar="CODES",
        check=_check_codes,
        read=_read_codes,
        stored=(("extend_select", ()),),
        doc="report these codes or prefixes as well, comma-separated (repeatable; an empty value"
        " adds none)",
    ),
    Setting(
        "ignore",
        "text",
        "Do not report these codes or prefixes (comma-separated; repeatable).",
        flags=("--ignore",),
        key="ignore",
        metavar="CODES",
        check=_check_codes,
        read=_read_codes,
        stored=(("ignore", ()),),
        doc="do not report these codes or prefixes, comma-separated (repeatable; an empty value"
        " ignores none)",
    ),
    Setting(
        "profile",
        "text",
        "Severities of the rules for a search engine (google by default).",
        flags=("--profile",),
        key="profile",
        choices=_profiles,
        check=_check_profile,
        read=_read_choice,
        stored=(("profile", None),),
        doc="`google` (default), `bing`, `yandex` or `strict`: the severities a search"
        " engine implies",
    ),
    Setting(
        "fail_on",
        "text",
        "Exit 1 on findings of this severity or worse (error by default).",
        flags=("--fail-on",),
        key="fail-on",
        choices=_levels,
        check=parse_level,
        read=_read_level,
        stored=(("fail_on", None),),
        doc="`error` (default), `warning` or `info`: the least severe finding that makes"
        " the exit status 1",
    ),
    Setting(
        "exit_zero",
        "flag",
        "Exit 0 even with findings (2 still means trouble).",
        default=False,
        flags=("--exit-zero",),
        doc="exit 0 even when there are findings (2 still means the run failed)",
    ),
    Setting(
        "fix",
        "flag",
        "Apply the safe fixes and rewrite the files; report what is left.",
        flags=("--fix/--no-fix",),
        key="fix",
        read=_read_flag,
        stored=(("fix", False),),
        doc="apply every safe fix and rewrite the file (atomically; gzip stays gzip; standard"
        " input: the fixed file on stdout, the report on stderr), then report what is left;"
        " `--no-fix` checks only, whatever the configuration says",
    ),
    Setting(
        "unsafe_fixes",
        "flag",
        "Also apply (with --fix) or show (--diff) the fixes that may change the meaning.",
        flags=("--unsafe-fixes/--no-unsafe-fixes",),
        key="unsafe-fixes",
        read=_read_flag,
        stored=(("unsafe_fixes", False),),
        doc="also apply the unsafe fixes (rescaled or clamped priorities, guessed time zones, dropped"
        " duplicate or out-of-scope entries); the text report marks them fixable;"
        " `--no-unsafe-fixes` leaves them out, whatever the configuration says",
    ),
    Setting(
        "diff",
        "flag",
        "Print the fixes as a unified diff and write nothing (exit 1 when there is one).",
        default=False,
        flags=("--diff",),
        doc="print what `--fix` would change as a unified diff and write nothing; exit 1 when"
        " there is something to fix (no report: `--output-file` and `--write-baseline` are"
        " exit 2)",
    ),
    Setting(
        "fix_only",
        "flag",
        "Apply the fixes without reporting the findings that are left.",
        default=False,
        flags=("--fix-only",),
        doc="like `--fix`, without the report of what is left; exit 0 unless the run fails"
        " (not with `--diff`, which writes nothing, `--output-file` or `--write-baseline`:"
        " exit 2)",
    ),
    Setting(
        "statistics",
        "flag",
        "Show how many findings each rule gave.",
        default=False,
        flags=("--statistics",),
        doc="how many findings each rule gave (in the text report, otherwise on stderr)",
    ),
    Setting(
        "show_source",
        "flag",
        "Show the source line of each finding in the text report (on by default).",
        flags=("--show-source/--no-show-source",),
        key="show-source",
        read=_read_flag,
        stored=(("show_source", True),),
        doc="the text report shows each finding's source line with a caret under the column"
        " (on by default; `concise` and the machine formats never do)",
    ),
    Setting(
        "quiet",
        "flag",
        "Only findings, no summary; nothing when clean.",
        default=False,
        flags=("--quiet", "-q"),
        doc="findings only, no summary; nothing at all when there are none",
    ),
    Setting(
        "color",
        "text",
        "When to colour the report.",
        default="auto",
        flags=("--color",),
        choices=_colors,
        check=check_color,
        show_default=True,
        doc="`auto` (default), `always` or `never`",
    ),
    Setting(
        "follow",
        "flag",
        "Also fetch the sitemaps a local index or robots.txt lists (mapped ones are read anyway).",
        default=False,
        flags=("--follow",),
        key="follow",
        read=_read_flag,
        stored=(("follow", False),),
        doc="also check the sitemaps a local index or robots.txt lists (children of a URL"
        " are always followed; mapped ones are read anyway)",
    ),
    Setting(
        "maps",
        "repeat",
        "Read URLs under URL_PREFIX from the local directory DIR (repeatable).",
        default=(),
        flags=("--map",),
        key="map",
        metavar="URL_PREFIX=DIR",
        check=_check_maps,
        read=_read_maps,
        stored=(("maps", ()),),
        doc="read URLs under `URL_PREFIX` from the local directory `DIR` instead of fetching"
        " them (repeatable; in the file, a table of prefix = directory relative to the file)",
    ),
    Setting(
        "robots",
        "repeat",
        "A robots.txt whose rules and Sitemap lines inform the checks (repeatable).",
        default=(),
        flags=("--robots",),
        key="robots",
        metavar="FILE|URL",
        check=_check_path,
        read=_read_robots,
        stored=(("robots", ()),),
        doc="a robots.txt whose rules and `Sitemap:` lines inform the checks (repeatable;"
        " in the file, a list, paths relative to the file); a local file that is clearly"
        " none (markup, NUL bytes) ends the run with status 2",
    ),
    Setting(
        "max_depth",
        "int",
        "Levels of indexes to follow below an input.",
        default=3,
        flags=("--max-depth",),
        metavar="N",
        range=Range(0, zero="no following"),
        show_default=True,
        doc="limit of a set run: levels of indexes to follow below an input (default 3)",
    ),
    Setting(
        "max_files",
        "int",
        "Files to check at most in one run.",
        default=10_000,
        flags=("--max-files",),
        metavar="N",
        range=Range(1),
        show_default=True,
        doc="limit of a set run: files to check (default 10,000)",
    ),
    Setting(
        "max_bytes",
        "size",
        "Bytes to read at most in one run (e.g. 500MiB, 20GiB or a number of bytes).",
        default=MAX_BYTES,
        flags=("--max-bytes",),
        metavar="SIZE",
        range=Range(1, unit="bytes"),
        show_default=True,
        doc="limit of a set run: bytes to read, e.g. `500MiB`, `20GiB` (the default) or a"
        " number of bytes",
    ),
    Setting(
        "jobs",
        "int",
        "Worker processes for big sets (0: one per core).",
        default=0,
        flags=("--jobs", "-j"),
        metavar="N",
        range=Range(0, zero="one per core"),
        show_default=True,
        doc="worker processes for big sets (default 0)",
    ),
    Setting(
        "timeout",
        "float",
        "Seconds to wait to connect or for data.",
        default=10.0,
        flags=("--timeout",),
        metavar="SECONDS",
        range=Range(0, 600, above=True, unit="seconds"),
        show_default=True,
        doc="connect and read timeout of each fetch (default 10)",
    ),
    Setting(
        "allow_private_hosts",
        "flag",
        "Also fetch URLs on loopback, private and other internal addresses no input names,"
        " and accept such hosts in the listed URLs (UR019).",
        default=False,
        flags=("--allow-private-hosts",),
        key="allow-private-hosts",
        read=_read_flag,
        stored=(("allow_private_hosts", False),),
        doc="also fetch URLs on a loopback, private, link-local or other internal"
        " address that no input names (refused with `FE014` otherwise; see"
        " [Sites and sets](#sites-and-sets)), and accept such hosts in the URLs the"
        " sitemaps list (`UR019` is not reported)",
    ),
    Setting(
        "live",
        "flag",
        "After the checks, request every URL the sitemaps list and report what they answer.",
        default=False,
        flags=("--live",),
        key="live",
        read=_read_flag,
        stored=(("live", False),),
        doc="after the checks, request each URL the sitemaps list (pages, children, images,"
        " videos, alternates) and report what the answers say (`LV` rules; see"
        " [docs/live.md](docs/live.md))",
    ),
    Setting(
        "live_concurrency",
        "int",
        "Requests in flight at once, all hosts together (--live).",
        default=16,
        flags=("--live-concurrency",),
        metavar="N",
        range=Range(1, 1024),
        show_default=True,
        doc="`--live`: requests in flight at once, all hosts together (default 16)",
    ),
    Setting(
        "live_per_host",
        "int",
        "Requests in flight at once to one host (--live).",
        default=4,
        flags=("--live-per-host",),
        metavar="N",
        range=Range(1, 256),
        show_default=True,
        doc="`--live`: requests in flight at once to one host (default 4)",
    ),
    Setting(
        "live_timeout",
        "float",
        "Seconds a live request may take to connect, for each read and in all (--live).",
        default=15.0,
        flags=("--live-timeout",),
        metavar="SECONDS",
        range=Range(0, 600, above=True, unit="seconds"),
        show_default=True,
        doc="`--live`: seconds a request may take to connect, for each read and in all"
        " (default 15)",
    ),
    Setting(
        "live_max",
        "int",
        "Request at most N URLs (--live).",
        flags=("--live-max",),
        metavar="N",
        check=_check_live_max,
        range=Range(0),
        doc="`--live`: request at most `N` URLs (after `--live-sample`), the first in the"
        " files' order",
    ),
    Setting(
        "live_sample",
        "text",
        "Request a deterministic sample: N URLs (1 or more) or P% of them (more than 0,"
        " at most 100) (--live).",
        flags=("--live-sample",),
        metavar="N|P%",
        check=_check_live_sample,
        doc="`--live`: request a deterministic sample of the URLs, `N` of them or `P%`; the"
        " same seed chooses the same URLs; allowed: `N` 1 or more, `P` more than 0 and at"
        " most 100 (`--live-max 0` requests none)",
    ),
    Setting(
        "live_seed",
        "int",
        "The seed of --live-sample.",
        default=0,
        flags=("--live-seed",),
        metavar="N",
        range=Range(0),
        show_default=True,
        doc="the seed of `--live-sample` (default 0)",
    ),
    Setting(
        "live_crawl_budget",
        "float",
        "Seconds the robots.txt delay between one host's requests may add up to; its"
        " URLs past them are not requested (--live; default 300).",
        flags=("--live-crawl-budget",),
        key="live-crawl-budget",
        metavar="SECONDS",
        check=_check_live_crawl_budget,
        read=_read_seconds,
        stored=(("live_crawl_budget", None),),
        range=_CRAWL_BUDGET_RANGE,
        doc="`--live`: the seconds a host's robots.txt `Crawl-delay` may make the audit wait"
        " in all (default 300, `inf`: no bound); a host's URLs are requested the delay"
        " apart, the first in the files' order, as many as fit, and `LV016` names the"
        " host whose other URLs were not requested",
    ),
    Setting(
        "live_cache",
        "text",
        "The live audit's cache file (default: under the user's cache directory).",
        flags=("--live-cache",),
        key="live-cache",
        metavar="PATH",
        check=_check_path,
        read=_read_path,
        stored=(("live_cache", None),),
        doc="`--live`: the SQLite file answers are kept in between runs (default"
        " `$XDG_CACHE_HOME/sitemap-lint/live.sqlite3`, or under `~/.cache`)",
    ),
    Setting(
        "no_live_cache",
        "flag",
        "Neither read nor write the live audit's cache.",
        default=False,
        flags=("--no-live-cache",),
        doc="`--live`: neither read nor write the cache: every URL is requested in full",
    ),
    Setting(
        "live_connect_to",
        "repeat",
        "Send the requests for HOST:PORT to HOST2:PORT2 instead (--live; repeatable).",
        default=(),
        flags=("--live-connect-to",),
        metavar="HOST:PORT:HOST2:PORT2",
        check=_check_connect_to,
        doc="`--live`: send the requests for `HOST:PORT` to `HOST2:PORT2` (as curl's"
        " `--connect-to`; repeatable), e.g. to audit a site's URLs on a staging server",
    ),
    Setting(
        "scheduler",
        "text",
        "Check the set on a Dask cluster: its scheduler (tcp://HOST:8786) or auto.",
        flags=("--scheduler",),
        metavar="ADDRESS",
        check=_check_scheduler,
        doc="fetch and check the files as tasks on a Dask cluster: the scheduler's address"
        " (`tcp://HOST:8786`), or `auto` for Dask's own configuration"
        " (`DASK_SCHEDULER_ADDRESS`); `--timeout` is the connect timeout; needs the `dask`"
        " extra (see [On a Dask cluster](#on-a-dask-cluster))",
    ),
    Setting(
        "severity",
        "table",
        "Severity of rule codes or prefixes: error, warning, info or off.",
        key="severity",
        read=_read_severity,
        stored=(("severity", {}),),
        doc="a table of rule code or prefix = `error`, `warning`, `info` or `off`",
    ),
    Setting(
        "per_file_ignores",
        "table",
        "Rule codes or prefixes not reported for the files a glob matches.",
        key="per-file-ignores",
        read=_read_per_file_ignores,
        stored=(("per_file_ignores", ()),),
        doc="a table of glob = list of codes not reported in the files the glob matches"
        " (relative to the file's directory; a glob without `/` matches a file name anywhere)",
    ),
    Setting(
        "external",
        "table",
        "Rule codes or prefixes of plugins that may not be installed.",
        key="external",
        read=_read_external,
        stored=(("external", ()),),
        doc="a list of the codes or prefixes of plugins that may not be installed, e.g."
        ' `["ZZ"]`: an inline directive naming such a code when no installed rule has it'
        " is not `SU002`; it suppresses nothing",
    ),
)

BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}
BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS if s.key is not None}
RUN_SETTINGS: tuple[Setting, ...] = tuple(s for s in SETTINGS if s.on_command_line)
RANGED: tuple[str, ...] = tuple(s.name for s in RUN_SETTINGS if s.range is not None)
"""The settings whose numbers a run checks before it reads anything, whatever it reads."""
BY_FLAG: dict[str, Setting] = {
    flag: s for s in SETTINGS for option in s.flags for flag in option.split("/")
}


def parse(name: str, value: Any) -> Any:
    """The value of setting ``name`` checked as the run checks it (messages name the flag)."""
    return BY_NAME[name].parse(value)


# -- values: RunSettings and Config ------------------------------------------------------

_REQUIRED: Any = object()


class Values:
    """Frozen keyword values with declared names and defaults: ``fields`` maps each name
    to its default (``_REQUIRED`` for none). Read them as attributes."""

    __slots__ = ("_values",)
    fields: ClassVar[Mapping[str, Any]] = {}
    _values: dict[str, Any]

    def __init__(self, **values: Any) -> None:
        name = type(self).__name__
        for key in values:
            if key not in self.fields:
                raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
        complete: dict[str, Any] = {}
        for key, default in self.fields.items():
            if key in values:
                complete[key] = values[key]
            elif default is _REQUIRED:
                raise TypeError(f"{name}() missing required keyword argument: {key!r}")
            else:
                complete[key] = default.copy() if isinstance(default, dict | list) else default
        object.__setattr__(self, "_values", complete)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__!r} has no setting {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: use replace()")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Values) or type(other) is not type(self):
            return NotImplemented
        return self._values == other._values

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={value!r}" for key, value in self._values.items())
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self._values))

    def replace(self, **changes: Any) -> Any:
        """A copy with ``changes``."""
        return type(self)(**{**self._values, **changes})

    def as_dict(self) -> dict[str, Any]:
        return dict(self._values)


def _rebuild(cls: type[Values], values: dict[str, Any]) -> Values:
    return cls(**values)


class RunSettings(Values):
    """The values of one run as the command line gives them (a text, a flag, a number,
    a tuple of texts); None where the configuration file or the built-in default
    decides. One field per setting on the command line (``RUN_SETTINGS``)."""

    __slots__ = ()
    fields: ClassVar[Mapping[str, Any]] = {
        s.name: _REQUIRED if s.kind == "paths" else s.default for s in RUN_SETTINGS
    }


def from_keywords(**keywords: Any) -> RunSettings:
    """RunSettings from keyword arguments named after the settings (the Python API).

    Types are checked and loosened a little: ``paths`` and the repeatable settings take
    one string or any iterable of strings (or paths), ``max_bytes`` takes ``"20GiB"``.
    Every given value is then checked as the run checks it, so a wrong one is the same
    UsageError, naming the keyword (``jobs=-1: ...``), before anything is read."""
    values: dict[str, Any] = {}
    if CODE_LISTS.intersection(keywords):
        # Codes are checked against the rules, the plugins' too: a plugin that cannot be
        # loaded stops the call as what it is, no error of the keyword's value.
        from sitemap_lint.rules.registry import families

        families()
    for name, value in keywords.items():
        setting = BY_NAME.get(name)
        if setting is None or not setting.on_command_line:
            import difflib

            close = difflib.get_close_matches(name, [s.name for s in RUN_SETTINGS], n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UsageError(f"unknown setting {name!r}{hint}")
        try:
            value = _coerce(setting, value)
            if setting.check is not None and value is not None:
                setting.check(value, setting.flag)
        except UsageError as error:
            # A value of the wrong type is a TypeError too, one the setting refuses a
            # ValueError, as Python's own calls raise them.
            kind = ArgumentTypeError if isinstance(error, TypeError) else ArgumentValueError
            raise kind(keyword_message(str(error), {name})) from error.__cause__
        values[name] = value
    if "paths" not in values:
        raise UsageError("paths: give at least one file, directory or URL")
    return RunSettings(**values)


def keyword_message(message: str, keywords: Container[str]) -> str:
    """``message`` as a Python caller reads it: the flag it starts with written as the
    keyword of one of ``keywords`` (``--select: 'ZZ' ...`` as ``select=: 'ZZ' ...``,
    ``--jobs -3: ...`` as ``jobs=-3: ...``, ``--now 'x' is not ...`` as ``now='x' is
    not ...``); otherwise as it is."""
    flag, _, rest = message.partition(" ")
    setting = BY_FLAG.get(flag.removesuffix(":"))
    if setting is None or setting.name not in keywords:
        return message
    value = rest.split(" ", 1)[0]
    if not flag.endswith(":") and (value.endswith(":") or value[:1] in ("'", '"')):
        return f"{setting.name}={rest}"  # the value the flag was given
    return f"{setting.name}=: {rest}"  # what is said of the flag


def command_line(settings: RunSettings) -> str:
    """A ``sitemap-lint`` command line that repeats the run: the paths and every option
    not left at its default, quoted for a POSIX shell."""
    words = ["sitemap-lint"]
    for setting in RUN_SETTINGS:
        value = getattr(settings, setting.name)
        if setting.kind == "paths" or value is None or value == setting.default:
            continue
        flag = setting.flags[0]
        if setting.kind == "flag":
            on, _, off = flag.partition("/")  # a pair: --show-source/--no-show-source
            words += [on] if value else [off] if off else []
        elif setting.kind == "repeat":
            for item in value:
                words += [flag, str(item)]
        elif setting.kind == "size":
            from sitemap_lint.settings.parsing import format_size

            words += [flag, format_size(value)]
        else:
            words += [flag, str(value)]
    words += (
        ["--", *settings.paths]
        if any(p.startswith("-") and p != "-" for p in settings.paths)
        else list(settings.paths)
    )
    return shell_words(words)


_SHELL_SAFE = frozenset("@%+=:,./-_")  # and ASCII letters and digits: shlex.quote's own


def shell_words(words: list[str]) -> str:
    """``shlex.join(words)``; without loading shlex when no word needs quotes."""
    if all(
        word and word.isascii() and all(c.isalnum() or c in _SHELL_SAFE for c in word)
        for word in words
    ):
        return " ".join(words)
    import shlex

    return shlex.join(words)


def _coerce(setting: Setting, value: Any) -> Any:
    """A keyword value in the type the command line would give."""
    name, kind = setting.name, setting.kind
    if kind in ("paths", "repeat"):
        items = [value] if isinstance(value, str | os.PathLike) else value
        try:
            texts = [os.fspath(item) for item in items]
        except TypeError:
            texts = None
        if (
            texts is None
            or isinstance(value, bytes | bytearray | memoryview | Mapping)
            or not all(isinstance(text, str) for text in texts)
        ):
            raise ArgumentTypeError(
                f"{name}=: expected a string or a list of strings, got {value!r}"
            )
        if kind == "paths" and not texts:
            raise UsageError("paths: give at least one file, directory or URL")
        return texts if kind == "paths" else tuple(texts)
    if kind == "flag":
        if not isinstance(value, bool):
            raise ArgumentTypeError(f"{name}=: expected True or False, got {value!r}")
        return value
    if value is None and setting.default is None:
        return None  # as the flag left out (``live_max``)
    if kind == "size":
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ArgumentTypeError(
                f"{name}=: expected a number of bytes or a size such as '500MiB', got {value!r}"
            )
        return parse_size(value, setting.flag)
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArgumentTypeError(f"{name}=: expected an integer, got {value!r}")
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ArgumentTypeError(f"{name}=: expected a number, got {value!r}")
        return float(value)
    if name in CODE_LISTS and not isinstance(value, str):
        try:
            return ",".join(value)
        except TypeError:
            pass
    if isinstance(value, os.PathLike) and setting.metavar in ("PATH", "FILE"):
        return os.fspath(value)
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name}=: expected a string, got {value!r}")
    return value


# -- the README's table of options ----------------------------------------------------------

START = "<!-- options:start (generated from sitemap_lint/settings/declared.py; see tests/test_cli_options.py) -->"
END = "<!-- options:end -->"


def options_markdown() -> str:
    """A Markdown table: each setting's flags, configuration key and meaning."""
    rows = ["| option | configuration key | meaning |", "|---|---|---|"]
    for setting in SETTINGS:
        if setting.kind == "paths":
            continue
        flags = ", ".join(f"`{flag}`" for flag in setting.flags)
        if flags and setting.metavar and setting.choices is None:
            flags += f" `{setting.metavar}`"
        key = f"`{setting.key}`" if setting.key else ""
        meaning = setting.meaning().replace("|", "\\|")
        rows.append(
            f"| {(flags or '(file only)').replace('|', chr(92) + '|')} | {key} | {meaning} |"
        )
    return "\n".join(rows) + "\n"


def replace_options_table(readme: str) -> str:
    """``readme`` with the block between the option-table markers regenerated."""
    head, start, rest = readme.partition(START)
    if not start:
        raise ValueError("no options table markers")
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{options_markdown()}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """``python -m sitemap_lint.settings.declared README.md`` regenerates the options table in place."""
    import sys

    for name in argv if argv is not None else sys.argv[1:]:
        path = Path(name)
        try:
            text = replace_options_table(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            sys.stderr.write(f"{name}: {error}\n")
            return 2
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
