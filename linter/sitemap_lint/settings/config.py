"""Configuration files: discovery, reading and validation.

A configuration is the ``[tool.sitemap-lint]`` table of a ``pyproject.toml`` or a
whole ``.sitemap-lint.toml`` (the same keys, no table header). The closest one
upwards from the working directory applies, alone (no merging); the search stops at
the root of the repository the directory is in (a directory holding ``.git``, a
directory or a file), after looking in it, or at the file system's root; in one
directory ``.sitemap-lint.toml`` comes before ``pyproject.toml``, and a
``pyproject.toml`` without the table does not count (``[tool.sitemap_lint]`` is
refused, as is the table's header in any other file). ``--config FILE`` names the
file, ``--isolated`` ignores every file. Every value is checked when the file is
read: a wrong one is a UsageError that names the file and the key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from sitemap_lint.errors import UsageError
from sitemap_lint.settings.declared import BY_KEY, Values
from sitemap_lint.settings.parsing import parse_sitemap_url
from sitemap_lint.settings.selection import parse_codes
from sitemap_lint.support.patterns import lazy

FILE_NAME = ".sitemap-lint.toml"
PYPROJECT = "pyproject.toml"
# What a repository's root holds (a directory; a file in a worktree or a submodule):
# the search for a configuration file goes no higher.
REPOSITORY_MARK = ".git"
TABLE = "sitemap-lint"
MISSPELT_TABLE = "sitemap_lint"  # the package's name: refused, never passed over


def _key(name: str) -> str:
    """A TOML key that may read ``name`` (a pattern): bare, quoted, or a basic string
    with a Unicode escape (``"sitemap\\u002dlint"``), which is taken to be it."""
    escaped = r'"[^"\n]*\\[uU][^"\n]*"'
    # The bare key's look behind follows it: the search then starts at its letters only.
    return rf"""(?:{name}(?<![\w-]{name})(?![\w-])|"{name}"|'{name}'|{escaped})"""


_TOOL, _NAME = _key("tool"), _key("sitemap[-_]lint")
# A cheap look before parsing a pyproject.toml: can it hold a [tool.sitemap-lint] table
# (or a misspelt one)? The key ``tool.sitemap-lint`` in a table header or a dotted key
# (a header cut short at the line's end too: parsing it says what is wrong), the key in
# an inline table ``tool = {...}``, or a key of a ``[tool]`` table. Text elsewhere
# (``packages = ["sitemap_lint"]``, a key of another table) is no table of ours.
_TOOL_DOT_NAME = lazy(rf"{_TOOL}[ \t]*\.[ \t]*{_NAME}[ \t]*(?:[.=\]]|\r?$)", re.MULTILINE)
_IN_INLINE_TOOL = lazy(rf"{_TOOL}[ \t]*=[ \t]*\{{(?:.*?[{{,])?\s*{_NAME}\s*[.=]", re.DOTALL)
_TOOL_HEADER = lazy(rf"^[ \t]*\[[ \t]*{_TOOL}[ \t]*\][ \t]*(?:#.*)?\r?$", re.MULTILINE)
_KEY_AT_LINE_START = lazy(rf"^[ \t]*{_NAME}[ \t]*(?:[.=]|\r?$)", re.MULTILINE)
_NAME_OR_ESCAPE = lazy(r"sitemap[-_]lint|\\[uU]")  # what each form holds: a quick first look


def _may_hold_table(text: str) -> bool:
    """Whether the pyproject.toml ``text`` may hold the table: rarely so when it does not."""
    if not _NAME_OR_ESCAPE.search(text):
        return False
    return bool(
        _TOOL_DOT_NAME.search(text)
        or _IN_INLINE_TOOL.search(text)
        or (_TOOL_HEADER.search(text) and _KEY_AT_LINE_START.search(text))
    )


class FileGlob:
    """A path pattern from a configuration file.

    Without a ``/`` it matches a file name in any directory; with one it matches
    the path relative to the configuration file's directory. ``*`` and ``?`` stay
    within one path segment, ``**`` spans directories, ``[...]`` is a character class,
    ``{a,b}`` matches either choice.
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


def _translate(pattern: str) -> str:
    return "(?s:" + _translate_part(pattern) + r")\Z"


def _translate_part(pattern: str) -> str:
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
        elif pattern[i] == "{" and (alternatives := _alternatives(pattern, i)) is not None:
            choices, i = alternatives
            out.append("(?:" + "|".join(_translate_part(choice) for choice in choices) + ")")
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def _alternatives(pattern: str, start: int) -> tuple[list[str], int] | None:
    """The comma-separated choices of the ``{a,b}`` at ``start`` (nested braces stay
    whole in their choice) and where the pattern goes on; None for a ``{`` that no
    ``}`` closes, which is then the character itself."""
    depth = 0
    choices: list[str] = []
    begin = start + 1
    for i in range(start, len(pattern)):
        char = pattern[i]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return [*choices, pattern[begin:i]], i + 1
        elif char == "," and depth == 1:
            choices.append(pattern[begin:i])
            begin = i + 1
    return None


class Config(Values):
    """The settings a configuration file gives; None or empty where it gives none. Its
    fields are those the declared settings store (``Setting.stored``), and ``path``."""

    __slots__ = ()
    fields: ClassVar[Mapping[str, Any]] = {
        "path": None,
        **{name: default for setting in BY_KEY.values() for name, default in setting.stored},
    }

    def sitemap_url_for(self, name: str) -> Any:
        """The parsed URL the input ``name`` is served at, if the configuration says."""
        for pattern, url in self.sitemap_urls:
            if pattern.matches(name):
                return url
        return self.sitemap_url


def resolve(config_file: str | None, isolated: bool, cwd: Path | None = None) -> Config:
    """The configuration for a run: the named file, the discovered one, or none."""
    if isolated:
        if config_file is not None:
            raise UsageError(
                "--config and --isolated cannot be used together: one names a configuration"
                " file, the other ignores every one; give one of them"
            )
        return Config()
    if config_file is not None:
        path = Path(config_file)
        if path.is_dir():
            raise UsageError(
                f"--config {config_file}: is a directory; name the file in it "
                f"({FILE_NAME} or {PYPROJECT})"
            )
        if not path.is_file():
            try:
                mode = path.stat().st_mode
            except OSError:
                raise UsageError(f"--config {config_file}: no such file") from None
            from sitemap_lint.inputs.reader import file_kind

            raise UsageError(
                f"--config {config_file}: not a regular file ({file_kind(mode)}); name the"
                f" configuration file ({FILE_NAME} or {PYPROJECT})"
            )
        return load(path, required=True)
    if cwd is None:
        try:
            cwd = Path.cwd()
        except FileNotFoundError:
            raise UsageError(
                "the working directory no longer exists, so no configuration file can be"
                " found above it: change to a directory, or give --config FILE or --isolated"
            ) from None
    found = _discover(cwd)
    return _config(*found) if found is not None else Config()


def discover(start: Path) -> Path | None:
    """The closest configuration file in ``start`` or above it, up to the repository's
    root (the first directory holding ``.git``) or the file system's."""
    found = _discover(start)
    return found[0] if found is not None else None


def _discover(start: Path) -> tuple[Path, dict[str, Any]] | None:
    """The closest configuration file in ``start`` or above it, and what it holds."""
    directory = start.absolute()
    while True:
        candidate = directory / FILE_NAME
        if candidate.is_file():
            return candidate, _parse(candidate, _read(candidate))
        candidate = directory / PYPROJECT
        if candidate.is_file():
            text = _read(candidate)
            if _may_hold_table(text):  # else no need to parse it
                data = _parse(candidate, text)
                if _tool_table(candidate, data) is not None:
                    return candidate, data
        if directory.parent == directory or (directory / REPOSITORY_MARK).exists():
            return None
        directory = directory.parent


def _tool_table(pyproject: Path, data: dict[str, Any]) -> object | None:
    """The ``[tool.sitemap-lint]`` value of a parsed pyproject.toml, None when it has
    none; the table named as the package is refused."""
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return None
    if TABLE not in tool and MISSPELT_TABLE in tool:
        raise UsageError(
            f"{pyproject}: [tool.{MISSPELT_TABLE}] is not read; name the table [tool.{TABLE}]"
        )
    return tool.get(TABLE)


def load(path: Path, required: bool = False) -> Config:
    """Read and check one configuration file."""
    return _config(path, _parse(path, _read(path)), required)


def _config(path: Path, data: dict[str, Any], required: bool = False) -> Config:
    """Check what the configuration file ``path`` holds."""
    prefix = ""
    if path.name == PYPROJECT:
        table = _tool_table(path, data)
        if table is None:
            if required:
                raise UsageError(f"{path}: no [tool.{TABLE}] table")
            return Config()
        if not isinstance(table, dict):
            raise UsageError(f"{path}: tool.{TABLE} must be a table")
        data, prefix = table, f"tool.{TABLE}."
    elif isinstance(data.get("tool"), dict) and TABLE in data["tool"]:
        raise UsageError(
            f"{path}: the [tool.{TABLE}] table is read from a {PYPROJECT} only; in this"
            " file, write its keys without the table header"
        )
    return _Reader(path, prefix).config(data)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # with the byte order mark some editors write
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise UsageError(f"{path}: cannot read: {reason}") from None


def _parse(path: Path, text: str) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:  # arrays or inline tables nested past the interpreter's stack
        raise UsageError(f"{path}: not valid TOML: values nested too deeply") from None


class _Reader:
    """Checks the keys of one file; every message names the file and the key."""

    def __init__(self, path: Path, prefix: str):
        self.path = path
        self.prefix = prefix
        self.base = path.parent.absolute()

    def where(self, key: str) -> str:
        return f"{self.path}: {self.prefix}{key}"

    def fail(self, key: str, problem: str) -> UsageError:
        return UsageError(f"{self.where(key)}: {problem}")

    def config(self, data: dict[str, Any]) -> Config:
        values: dict[str, Any] = {"path": self.path}
        for key, value in data.items():
            setting = BY_KEY.get(key)
            if setting is None or setting.read is None:
                raise self.unknown_key(key)
            values.update(setting.read(setting, self, key, value))
        return Config(**values)

    def unknown_key(self, key: str) -> UsageError:
        import difflib

        close = difflib.get_close_matches(key, BY_KEY, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(BY_KEY)}"
        return UsageError(f"{self.path}: unknown key '{self.prefix}{key}'{hint}")

    # -- value checks the settings' readers use ------------------------------------------

    def codes(self, key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.fail(key, 'expected a list of rule codes or prefixes, e.g. ["UR", "DT004"]')
        return parse_codes(value, self.where(key))

    def choice(self, key: str, value: Any, choices: Iterable[str]) -> str:
        choices = tuple(choices)
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

    def url(self, key: str, value: Any) -> Any:
        if not isinstance(value, str):
            raise self.fail(key, f"expected a URL string, got {value!r}")
        return parse_sitemap_url(value, f"{self.where(key)}:")
