"""Configuration files: discovery, reading and validation.

A configuration is the ``[tool.sitemap-lint]`` table of a ``pyproject.toml`` or a
whole ``.sitemap-lint.toml`` (the same keys, no table header). The closest one
upwards from the working directory applies, alone (no merging); in one
directory ``.sitemap-lint.toml`` comes before ``pyproject.toml``, and a
``pyproject.toml`` without the table does not count. ``--config FILE`` names the
file, ``--isolated`` ignores every file. Every value is checked when the file is
read: a wrong one is a UsageError that names the file and the key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Severity
from sitemap_lint.selection import LEVELS, parse_codes

if TYPE_CHECKING:
    from sitemap_lint.rules.urls import ParsedURL

FILE_NAME = ".sitemap-lint.toml"
PYPROJECT = "pyproject.toml"
TABLE = "sitemap-lint"
# A cheap look before parsing a pyproject.toml: can it hold a [tool.sitemap-lint] table?
_MAY_HOLD_TABLE = re.compile(r"""sitemap-lint["']?\s*[\].={]""")


class FileGlob:
    """A path pattern from a configuration file.

    Without a ``/`` it matches a file name in any directory; with one it matches
    the path relative to the configuration file's directory. ``*`` and ``?`` stay
    within one path segment, ``**`` spans directories, ``[...]`` is a character class.
    """

    def __init__(self, pattern: str, base: Path):
        self.pattern = pattern
        self.base = base
        anchored = pattern.removeprefix("./").lstrip("/")
        self._by_name = "/" not in anchored
        self._regex = re.compile(_translate(anchored))

    def matches(self, name: str) -> bool:
        if name == "-":
            return False
        if self._by_name:
            return self._regex.match(os.path.basename(name)) is not None
        try:
            relative = os.path.relpath(os.path.abspath(name), self.base)
        except ValueError:  # another drive on Windows
            return False
        return self._regex.match(Path(relative).as_posix()) is not None

    def __repr__(self) -> str:
        return f"FileGlob({self.pattern!r}, {str(self.base)!r})"


def _subkey(key: str, name: str) -> str:
    """``key.name`` as TOML spells it: quoted unless ``name`` is a bare key."""
    return f"{key}.{name}" if re.fullmatch(r"[A-Za-z0-9_-]+", name) else f'{key}."{name}"'


def _translate(pattern: str) -> str:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and (end := pattern.find("]", i + 2)) != -1:
            inner = pattern[i + 1 : end]
            negate = inner.startswith("!")
            inner = re.escape(inner[1:] if negate else inner).replace(r"\-", "-")
            out.append(f"[{'^/' if negate else ''}{inner}]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "(?s:" + "".join(out) + r")\Z"


@dataclass(frozen=True)
class Config:
    """The settings a configuration file gives; None or empty where it gives none."""

    path: Path | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: dict[str, Severity | None] = field(default_factory=dict)
    per_file_ignores: tuple[tuple[FileGlob, tuple[str, ...]], ...] = ()
    sitemap_url: ParsedURL | None = None  # for every file
    sitemap_urls: tuple[tuple[FileGlob, ParsedURL | None], ...] = ()  # the first match
    fail_on: Severity | None = None
    profile: str | None = None
    format: str | None = None
    xsd_engine: str | None = None
    follow: bool = False
    maps: tuple[tuple[str, Path], ...] = ()  # (URL prefix, directory)
    robots: tuple[str, ...] = ()  # robots.txt files (absolute paths) or URLs

    def sitemap_url_for(self, name: str) -> ParsedURL | None:
        """The parsed URL the input ``name`` is served at, if the configuration says."""
        for pattern, url in self.sitemap_urls:
            if pattern.matches(name):
                return url
        return self.sitemap_url


def resolve(config_file: str | None, isolated: bool, cwd: Path | None = None) -> Config:
    """The configuration for a run: the named file, the discovered one, or none."""
    if isolated:
        if config_file is not None:
            raise UsageError("--config and --isolated exclude each other")
        return Config()
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise UsageError(f"--config {config_file}: no such file")
        return load(path, required=True)
    found = discover(cwd or Path.cwd())
    return load(found) if found is not None else Config()


def discover(start: Path) -> Path | None:
    """The closest configuration file in ``start`` or above it."""
    directory = start.absolute()
    while True:
        candidate = directory / FILE_NAME
        if candidate.is_file():
            return candidate
        candidate = directory / PYPROJECT
        if candidate.is_file() and _has_table(candidate):
            return candidate
        if directory.parent == directory:
            return None
        directory = directory.parent


def _has_table(pyproject: Path) -> bool:
    text = _read(pyproject)
    if not _MAY_HOLD_TABLE.search(text):
        return False  # no need to parse it
    return TABLE in _parse(pyproject, text).get("tool", {})


def load(path: Path, required: bool = False) -> Config:
    """Read and check one configuration file."""
    data = _parse(path, _read(path))
    prefix = ""
    if path.name == PYPROJECT:
        tool = data.get("tool", {})
        if TABLE not in tool:
            if required:
                raise UsageError(f"{path}: no [tool.{TABLE}] table")
            return Config()
        data = tool[TABLE]
        prefix = f"tool.{TABLE}."
        if not isinstance(data, dict):
            raise UsageError(f"{path}: tool.{TABLE} must be a table")
    return _Reader(path, prefix).config(data)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise UsageError(f"{path}: cannot read: {reason}") from None


def _parse(path: Path, text: str) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"{path}: not valid TOML: {error}") from None


class _Reader:
    """Checks the keys of one file; every message names the file and the key."""

    def __init__(self, path: Path, prefix: str):
        self.path = path
        self.prefix = prefix
        self.base = path.parent.absolute()

    def fail(self, key: str, problem: str) -> UsageError:
        return UsageError(f"{self.path}: {self.prefix}{key}: {problem}")

    def config(self, data: dict[str, Any]) -> Config:
        values: dict[str, Any] = {"path": self.path}
        for key, value in data.items():
            read = self.KEYS.get(key)
            if read is None:
                raise self.unknown_key(key)
            values.update(read(self, key, value))
        return Config(**values)

    def unknown_key(self, key: str) -> UsageError:
        import difflib

        close = difflib.get_close_matches(key, self.KEYS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(self.KEYS)}"
        return UsageError(f"{self.path}: unknown key '{self.prefix}{key}'{hint}")

    # -- value checks ----------------------------------------------------------------

    def codes(self, key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.fail(key, 'expected a list of rule codes or prefixes, e.g. ["UR", "DT004"]')
        return parse_codes(value, f"{self.path}: {self.prefix}{key}")

    def choice(self, key: str, value: Any, choices: Sequence[str]) -> str:
        if not isinstance(value, str) or value not in choices:
            raise self.fail(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return value

    def table(self, key: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table, got {type(value).__name__} {value!r}")
        return value

    def glob(self, key: str, pattern: str) -> FileGlob:
        if not pattern.strip():
            raise self.fail(key, "an empty glob")
        return FileGlob(pattern, self.base)

    def url(self, key: str, value: Any) -> ParsedURL | None:
        from sitemap_lint.run import parse_sitemap_url

        if not isinstance(value, str):
            raise self.fail(key, f"expected a URL string, got {value!r}")
        return parse_sitemap_url(value, f"{self.path}: {self.prefix}{key}:")

    # -- the keys ----------------------------------------------------------------------

    def _select(self, key: str, value: Any) -> dict[str, Any]:
        return {"select": self.codes(key, value)}

    def _extend_select(self, key: str, value: Any) -> dict[str, Any]:
        return {"extend_select": self.codes(key, value)}

    def _ignore(self, key: str, value: Any) -> dict[str, Any]:
        return {"ignore": self.codes(key, value)}

    def _severity(self, key: str, value: Any) -> dict[str, Any]:
        levels: dict[str, Severity | None] = {}
        for code, level in self.table(key, value).items():
            (prefix,) = parse_codes([code], f"{self.path}: {self.prefix}{key}")
            name = self.choice(_subkey(key, code), level, (*LEVELS, "off"))
            levels[prefix] = None if name == "off" else Severity.parse(name)
        return {"severity": levels}

    def _per_file_ignores(self, key: str, value: Any) -> dict[str, Any]:
        entries = []
        for pattern, codes in self.table(key, value).items():
            entry = _subkey(key, pattern)
            entries.append((self.glob(entry, pattern), self.codes(entry, codes)))
        return {"per_file_ignores": tuple(entries)}

    def _sitemap_url(self, key: str, value: Any) -> dict[str, Any]:
        if isinstance(value, dict):
            entries = []
            for pattern, url in value.items():
                entry = _subkey(key, pattern)
                entries.append((self.glob(entry, pattern), self.url(entry, url)))
            return {"sitemap_urls": tuple(entries)}
        if not isinstance(value, str):
            raise self.fail(key, f"expected a URL or a table of glob = URL, got {value!r}")
        return {"sitemap_url": self.url(key, value)}

    def _fail_on(self, key: str, value: Any) -> dict[str, Any]:
        return {"fail_on": Severity.parse(self.choice(key, value, LEVELS))}

    def _profile(self, key: str, value: Any) -> dict[str, Any]:
        from sitemap_lint.profiles import PROFILES

        return {"profile": self.choice(key, value, tuple(PROFILES))}

    def _format(self, key: str, value: Any) -> dict[str, Any]:
        from sitemap_lint.report import REPORTERS

        return {"format": self.choice(key, value, tuple(REPORTERS))}

    def _xsd_engine(self, key: str, value: Any) -> dict[str, Any]:
        from sitemap_lint.xsd import ENGINES

        return {"xsd_engine": self.choice(key, value, tuple(ENGINES))}

    def _follow(self, key: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {value!r}")
        return {"follow": value}

    def _map(self, key: str, value: Any) -> dict[str, Any]:
        from sitemap_lint.run import parse_map

        entries = []
        for prefix, directory in self.table(key, value).items():
            entry = _subkey(key, prefix)
            if not isinstance(directory, str):
                raise self.fail(entry, f"expected a directory path, got {directory!r}")
            try:
                entries.append(parse_map(f"{prefix}={self.base / directory}", must_exist=False))
            except UsageError as error:
                reason = str(error).split(": ", 1)[-1]
                raise self.fail(entry, reason) from None
        return {"maps": tuple(entries)}

    def _robots(self, key: str, value: Any) -> dict[str, Any]:
        from sitemap_lint.inputs.reader import is_url

        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.fail(key, 'expected a list of robots.txt files or URLs, e.g. ["robots.txt"]')
        return {"robots": tuple(item if is_url(item) else str(self.base / item) for item in value)}

    KEYS: ClassVar[dict[str, Callable[[_Reader, str, Any], dict[str, Any]]]] = {
        "select": _select,
        "extend-select": _extend_select,
        "ignore": _ignore,
        "severity": _severity,
        "per-file-ignores": _per_file_ignores,
        "sitemap-url": _sitemap_url,
        "fail-on": _fail_on,
        "profile": _profile,
        "format": _format,
        "xsd-engine": _xsd_engine,
        "follow": _follow,
        "map": _map,
        "robots": _robots,
    }
