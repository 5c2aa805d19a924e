"""Baselines: the findings a project accepts today, recorded by fingerprint, so that a
gate reports only what is new (``check --write-baseline FILE``, ``check --baseline FILE``).

The file is JSON, small and diff-friendly: one finding identity a line, sorted by path,
rule and fingerprint, with how many findings share it and, for the reader, the message
of the first (never compared)::

    {
      "sitemap-lint-baseline": 1,
      "findings": [
        {"path": "public/sitemap.xml", "code": "UR008", "fingerprint": "9c1f...", "count": 1, ...}
      ]
    }

A path is relative to the directory holding the baseline file (``..`` parts for a file
outside it), so any working directory reads it the same; standard input and URLs keep
their names (as ``fingerprints.ci_path`` gives them). A recorded path matches the checked
file it resolves to, and the fingerprint hashes the path as recorded.

A fingerprint holds no line number (``fingerprints.identity``): moving entries keeps
it. A finding fixed since the baseline was written matches nothing, which is no failure;
the run says how many recorded findings it no longer saw.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Finding
from sitemap_lint.report.fingerprints import STDIN, ci_path, identity
from sitemap_lint.support.printable import json_escaped_surrogates
from sitemap_lint.support.records import Frozen

FORMAT_KEY = "sitemap-lint-baseline"
FORMAT_VERSION = 1

# (path as recorded, rule code, fingerprint)
Identity = tuple[str, str, str]

# A URL as older baselines recorded it, its "//" made one "/".
_ONE_SLASH = re.compile(r"\A(https?):/(?!/)")


class Checked(Protocol):
    """What a baseline reads and filters of a checked file (``results.FileResult``)."""

    name: str
    findings: list[Finding]


@dataclass(init=False, repr=False, eq=False)
class Matched(Frozen):
    """What a baseline did to a run: findings it matched (not reported) and recorded
    findings the run did not see again (fixed since, or moved to another file), of the
    files it checked or of files deleted since: a run of some files (a pre-commit hook's)
    says nothing of the findings recorded for the others."""

    matched: int
    unseen: int

    def __init__(self, matched: int, unseen: int) -> None:
        object.__setattr__(self, "matched", matched)
        object.__setattr__(self, "unseen", unseen)


def _is_local(path: str) -> bool:
    """Whether a checked input's name, or a recorded path, stands for a local file:
    neither standard input nor a URL (as given, or as ``ci_path`` writes it)."""
    return path != STDIN and not path.lower().startswith(("http:/", "https:/"))


def _resolved(path: str, directory: Path) -> str:
    """What ``path`` names, for comparing: a local file's real path (a relative one
    taken from ``directory``), other inputs' name as ``ci_path`` gives it (a URL that an
    older baseline recorded with one slash, ``https:/host/...``, as the URL it was)."""
    if not _is_local(path):
        return ci_path(_ONE_SLASH.sub(r"\1://", path))
    return os.path.realpath(os.path.join(directory, path))


def _path_in(directory: Path, name: str) -> str:
    """How a baseline in ``directory`` records the checked input ``name``: a local file
    relative to the directory, with forward slashes; other inputs as ``ci_path`` names
    them."""
    if not _is_local(name):
        return ci_path(name)
    target = os.path.realpath(name)
    try:
        relative = os.path.relpath(target, os.path.realpath(directory))
    except ValueError:  # another drive on Windows
        return Path(target).as_posix()
    return Path(relative).as_posix()


def _identities(results: Iterable[Checked], directory: Path) -> Iterable[tuple[Identity, Finding]]:
    for result in results:
        path = _path_in(directory, result.name)
        for finding in result.findings:
            yield (path, finding.code, identity(path, finding)), finding


def render(results: Iterable[Checked], directory: Path) -> str:
    """The baseline file in ``directory`` that records every finding of ``results``."""
    counts: Counter[Identity] = Counter()
    messages: dict[Identity, str] = {}
    for key, finding in _identities(results, directory):
        counts[key] += 1
        messages.setdefault(key, finding.message)
    lines = [
        "    "
        + json.dumps(
            {
                "path": path,
                "code": code,
                "fingerprint": fingerprint,
                "count": counts[(path, code, fingerprint)],
                "message": messages[(path, code, fingerprint)],
            },
            ensure_ascii=False,
        )
        for path, code, fingerprint in sorted(counts)
    ]
    # A name's byte that is no UTF-8 as its JSON escape (\udcff), which reads back as the
    # same name: the file stays UTF-8 and still matches that file.
    body = json_escaped_surrogates(",\n".join(lines))
    return (
        f'{{\n  "{FORMAT_KEY}": {FORMAT_VERSION},\n  "findings": [\n'
        + (f"{body}\n" if body else "")
        + "  ]\n}\n"
    )


def write(path: Path, results: Sequence[Checked]) -> int:
    """Record every finding of ``results`` in the baseline file at ``path`` (a file is
    written atomically, a FIFO or ``/dev/stdout`` as it is); the number of findings
    recorded."""
    from sitemap_lint.fix.write import WriteError, write_output

    try:
        write_output(path, render(results, path.parent).encode("utf-8"))
    except WriteError as error:
        raise UsageError(f"--write-baseline {error}") from None
    return sum(len(result.findings) for result in results)


def check_writable(path: Path) -> None:
    """Fail at once (a UsageError) when the baseline cannot be written where asked."""
    directory = path.parent
    if not directory.is_dir():
        raise UsageError(f"--write-baseline {path}: no directory {directory}")
    if path.is_dir():
        raise UsageError(f"--write-baseline {path}: is a directory")


class Baseline:
    """A baseline file, read: how many findings of each identity it accepts, and the
    paths it records each checked input by (keyed by what they resolve to)."""

    def __init__(self, counts: Counter[Identity], directory: Path) -> None:
        self.counts = counts
        self.paths: dict[str, list[str]] = {}
        # Recorded local files that no longer exist: their findings cannot be seen again.
        self.gone: set[str] = set()
        for path in sorted({path for path, _code, _fingerprint in counts}):
            resolved = _resolved(path, directory)
            self.paths.setdefault(resolved, []).append(path)
            if _is_local(path) and not os.path.lexists(resolved):
                self.gone.add(path)

    def recorded(self, name: str) -> Sequence[str]:
        """The paths the baseline records the checked input ``name`` by (none when it
        records no finding of it)."""
        return self.paths.get(_resolved(name, Path()), ())

    def apply(self, results: Iterable[Checked], across: Collection[str] = ()) -> Matched:
        """Drop from ``results`` the findings the baseline accepts (as many of each
        identity as it recorded, the first ones in each file's order). The recorded
        findings of a checked file not matched are counted as not seen again, but for
        those of the rules that compare files (``across``) when the run did not check
        every file the baseline records: whether they come depends on the others."""
        left = Counter(self.counts)
        matched = 0
        checked = set(self.gone)
        for result in results:
            kept = []
            paths = self.recorded(result.name)
            checked.update(paths)
            for finding in result.findings:
                key = _accepted(left, paths, finding)
                if key is not None:
                    left[key] -= 1
                    matched += 1
                else:
                    kept.append(finding)
            if len(kept) != len(result.findings):
                result.findings[:] = kept
        every_file = checked.issuperset(path for path, _code, _fp in self.counts)
        unseen = sum(
            count
            for (path, code, _fp), count in left.items()
            if path in checked and (every_file or code not in across)
        )
        return Matched(matched, unseen)


def _accepted(left: Counter[Identity], paths: Sequence[str], finding: Finding) -> Identity | None:
    """The identity of ``finding`` with accepted findings ``left``, under one of the
    ``paths`` its file is recorded by."""
    for path in paths:
        key = (path, finding.code, identity(path, finding))
        if left[key] > 0:
            return key
    return None


def read(path: Path, where: str | None = None) -> Baseline:
    """The baseline file at ``path``; a UsageError (one line), starting with ``where``
    (what named the file: ``--baseline PATH`` by default), when it cannot be read or is
    not a baseline."""
    where = where or f"--baseline {path}"
    try:
        mode = path.stat().st_mode
    except OSError:
        mode = None  # said as the file is read
    if mode is not None and not stat.S_ISREG(mode):
        from sitemap_lint.inputs.reader import file_kind

        # a FIFO would wait for a writer, a device such as /dev/zero be read without end
        raise UsageError(f"{where}: not a regular file ({file_kind(mode)}); name the baseline file")
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte order mark: an editor's
    except FileNotFoundError:
        raise UsageError(f"{where}: no such file; write one with --write-baseline {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise UsageError(f"{where}: cannot read: {reason}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"{where}: not JSON ({error.msg} at line {error.lineno})") from None
    except RecursionError:  # arrays or objects nested past the interpreter's stack
        raise UsageError(f"{where}: not a sitemap-lint baseline (nested too deeply)") from None
    return Baseline(_counts(data, where), path.parent)


def _counts(data: Any, where: str) -> Counter[Identity]:
    version = data.get(FORMAT_KEY) if isinstance(data, dict) else None
    if type(version) is not int or version != FORMAT_VERSION:  # neither true nor 1.0
        raise UsageError(
            f'{where}: not a sitemap-lint baseline (no "{FORMAT_KEY}": {FORMAT_VERSION}); '
            "write one with --write-baseline"
        )
    entries = data.get("findings")
    if not isinstance(entries, list):
        raise UsageError(f'{where}: "findings" must be a list')
    counts: Counter[Identity] = Counter()
    for number, entry in enumerate(entries, 1):
        if not (
            isinstance(entry, dict)
            and all(isinstance(entry.get(name), str) for name in ("path", "code", "fingerprint"))
            and isinstance(entry.get("count", 1), int)
            and not isinstance(entry.get("count", 1), bool)
            and entry.get("count", 1) > 0
            and _names_a_file(entry["path"])
        ):
            raise UsageError(
                f"{where}: finding {number} needs a path (a file name or URL), a code, a "
                "fingerprint (strings) and a positive count"
            )
        counts[(entry["path"], entry["code"], entry["fingerprint"])] += entry.get("count", 1)
    return counts


def _names_a_file(path: str) -> bool:
    """Whether a recorded path can name a file: no NUL character, and no lone surrogate
    but the escapes of a name's bytes that are no UTF-8 (``\\udcff``, as ``render``
    writes them)."""
    try:
        os.fsencode(path)
    except UnicodeError:
        return False
    return "\0" not in path
