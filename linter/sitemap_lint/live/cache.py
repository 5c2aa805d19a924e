"""The live audit's answers kept between runs, so that a second run over unchanged pages
asks only conditionally (If-None-Match, If-Modified-Since), or not at all while an
answer is fresh (``Answer.fresh_until``), and reports the same.

One SQLite table keyed by URL (the standard library's sqlite3; the client's
``cache_key``: the URL, or for a URL that ``--live-connect-to`` sends elsewhere, the URL
behind that place): each row holds what the
findings are made from (status, final URL, redirect chain, content type, the page's
signals, the error) and the validators to ask again with (ETag, Last-Modified). Its
``signals`` column says whether the answer holds a page's facts (it was a GET, its head
read): the client gives a page none of the answers without them (a HEAD's). Write-
ahead logging and a busy timeout let two runs share the file: readers never wait for a
writer, and writers wait their turn; each ``put_many`` is one transaction. A file that is
not this cache (not SQLite, damaged, unreadable, another program's database: that one is
left unchanged) raises ``CacheError`` with a one-line reason, never a database traceback.

Each write of a whole row gives it a new random ``stamp``. An answer stored again with
the content of the row read (a 304's revalidation) is written as one UPDATE of its
time columns, made only while the row still has the stamp it was read with; else (the
row replaced meanwhile, by this run or another) the whole answer is written. So a row
never holds the fields of two different answers. A revalidation that leaves its
``fresh_until`` as it was is not written at all: its other times (``stored_at``, and
``elapsed``, which a run measures again) are read by no run.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any

from sitemap_lint.live.model import Answer, Hop, PageSignals

__all__ = ["Cache", "CacheError", "default_path"]

# Rows written by another layout are dropped (it is a cache): bump with the layout.
# 4: rows keyed by the client's cache_key (layout 3 keyed them by URL whatever the
# connect-to mapping, so a staging server's answer could stand for production's).
# 5: a page's time written without a zone kept without one (layout 4 stored it as UTC).
# 6: a page's signals read as Google reads them (the head ends at an element it may not
# hold, canonicals that disagree name none, a past unavailable_after is noindex, a time
# at or after the answer is none): a 304 would keep layout 5's for good.
# 7: a page's signals read past ``</head>`` to the body, none from a ``<template>``, and
# a JSON-LD mainEntity's dateModified the page's.
# 8: a page's Last-Modified its modification time only where the page states none, its
# og:updated_time read, its head read to 1 MiB; the URL its meta refresh sends to
# (column ``refresh``).
_VERSION = 8
# The file's mark as this cache (``PRAGMA application_id``, "SMLC"): a database without
# it and with tables is another program's, unless a layout written before the mark.
_APPLICATION_ID = 0x534D4C43
# How long a writer waits for another process's transaction, in seconds.
BUSY_TIMEOUT = 30.0
# How long opening a file waits for another process switching it to write-ahead logging.
WAL_PATIENCE = 2.0
_TEXT = (str, type(None))
_INTEGER = (int, type(None))
# The table's columns in its order: name, declaration, and the types a value is read as
# (a value of another type, as a damaged row gives, makes the row unreadable). The
# answer's content lies between the key columns (url, stored_at, stamp) and its times.
_COLUMNS: tuple[tuple[str, str, type | tuple[type, ...]], ...] = (
    ("url", "TEXT PRIMARY KEY", str),
    ("stored_at", "REAL NOT NULL", float),
    ("stamp", "INTEGER NOT NULL", int),
    ("status", "INTEGER", _INTEGER),
    ("final_url", "TEXT", _TEXT),
    ("chain", "TEXT", _TEXT),
    ("content_type", "TEXT", _TEXT),
    ("signals", "INTEGER", _INTEGER),
    ("noindex", "TEXT", _TEXT),
    ("canonical", "TEXT", _TEXT),
    ("canonical_source", "TEXT", _TEXT),
    ("alternates", "TEXT", _TEXT),
    ("modified", "TEXT", _TEXT),
    ("modified_source", "TEXT", _TEXT),
    ("refresh", "TEXT", _TEXT),
    ("error", "TEXT", _TEXT),
    ("detail", "TEXT", _TEXT),
    ("loop", "INTEGER NOT NULL DEFAULT 0", int),
    ("too_many_hops", "INTEGER NOT NULL DEFAULT 0", int),
    ("etag", "TEXT", _TEXT),
    ("last_modified", "TEXT", _TEXT),
    ("elapsed", "REAL NOT NULL DEFAULT 0", float),
    ("fresh_until", "REAL", (float, type(None))),
)
_NAMES = tuple(name for name, _declaration, _types in _COLUMNS)
_CONTENT = _NAMES[3:-2]  # what an answer is
_TIMES = _NAMES[-2:]
_CREATE = "CREATE TABLE IF NOT EXISTS answers (\n{}\n) WITHOUT ROWID".format(
    ",\n".join(f"    {name} {declaration}" for name, declaration, _types in _COLUMNS)
)
# A row is (url, stored_at, *content, *times) to write, (url, stamp, *content, *times) read.
_WRITTEN = ("url", "stored_at", *_CONTENT, *_TIMES)
_READ = ("url", "stamp", *_CONTENT, *_TIMES)
_TYPES = {name: types for name, _declaration, types in _COLUMNS}
_ROW_TYPES = tuple(_TYPES[name] for name in _READ)
# Where a row, written or read, holds the content and the times.
_IN_ROW = slice(2, 2 + len(_CONTENT))
_ELAPSED, _FRESH_UNTIL = _READ.index("elapsed"), _READ.index("fresh_until")
_PUT = (
    f"INSERT OR REPLACE INTO answers ({', '.join(_WRITTEN)}, stamp) "
    f"VALUES ({', '.join('?' * len(_WRITTEN))}, random())"
)
_REVALIDATE = (
    "UPDATE answers SET stored_at = ?, elapsed = ?, fresh_until = ? WHERE url = ? AND stamp = ?"
)
_GET_ALL = f"SELECT {', '.join(_READ)} FROM answers"
_GET = f"{_GET_ALL} WHERE url = ?"
_MANY = 500  # URLs asked in one query (SQLite allows at least 999 parameters)
# Rows read and not yet stored again, kept to tell a revalidation (bounded: past it the
# older half is forgotten, and their answers are written whole).
_READ_KEPT = 20_000


class CacheError(Exception):
    """The cache file cannot be used; the message is one line naming the file and why."""


def default_path() -> Path:
    """``$XDG_CACHE_HOME/sitemap-lint/live.sqlite3``, or under ``~/.cache`` when the
    variable is unset, empty or not an absolute path (as the XDG specification says)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "sitemap-lint" / "live.sqlite3"


class Cache:
    """Answers by URL in one SQLite file, created (with its folders) when missing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        # url -> (stamp, content, fresh_until) of the rows read
        self._read: dict[str, tuple[int, tuple[Any, ...], float | None]] = {}
        with self._errors("cannot open"):
            path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(
                path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
            connection.row_factory = sqlite3.Row  # a row's columns read by name
        self._connection: sqlite3.Connection | None = connection
        try:
            with self._errors("cannot use"):
                self._prepare(connection)
        except CacheError:
            self.close()
            raise

    def _prepare(self, connection: sqlite3.Connection) -> None:
        foreign = _foreign(connection)
        if foreign:
            raise sqlite3.DatabaseError(
                f"a database of another program (it holds {foreign}), left as it is;"
                " choose another file for the cache"
            )
        # Two runs opening a new file at once: one may find it locked while the other
        # switches it to write-ahead logging (no busy handler there), so that is tried
        # again for a while before the file counts as unusable.
        deadline = time.monotonic() + WAL_PATIENCE
        while True:
            try:
                mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                mode = None
            if mode is not None and str(mode[0]).lower() == "wal":
                break
            if time.monotonic() > deadline:
                raise sqlite3.OperationalError(f"write-ahead logging refused ({mode})")
            time.sleep(0.02)
        connection.execute("PRAGMA synchronous=NORMAL")
        with _transaction(connection):
            if _foreign(connection):  # a program that wrote it meanwhile
                raise sqlite3.DatabaseError("a database of another program, left as it is")
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version != _VERSION:
                connection.execute("DROP TABLE IF EXISTS answers")
                connection.execute(f"PRAGMA user_version={_VERSION}")
            connection.execute(f"PRAGMA application_id={_APPLICATION_ID}")
            connection.execute(_CREATE)

    def get(self, url: str) -> Answer | None:
        """The answer stored for ``url``, or None (also when its row cannot be read)."""
        with self._errors("cannot read"), self._lock:
            row = self._open().execute(_GET, (url,)).fetchone()
            return None if row is None else self._read_answer(row)

    def get_many(self, urls: Iterable[str]) -> dict[str, Answer]:
        """The answers stored for ``urls`` (those it has), by URL: one query for many."""
        found: dict[str, Answer] = {}
        wanted = list(dict.fromkeys(urls))
        with self._errors("cannot read"), self._lock:
            connection = self._open()
            for start in range(0, len(wanted), _MANY):
                part = wanted[start : start + _MANY]
                query = f"{_GET_ALL} WHERE url IN ({', '.join('?' * len(part))})"
                for row in connection.execute(query, part):
                    answer = self._read_answer(row)
                    if answer is not None:
                        found[answer.url] = answer
        return found

    def put_many(self, answers: Iterable[Answer]) -> None:
        """Store ``answers`` (replacing those of the same URLs) in one transaction."""
        now = time.time()
        rows = [_row(answer, now) for answer in answers]
        if not rows:
            return
        with self._errors("cannot write"), self._lock:
            whole: list[tuple[Any, ...]] = []
            again: list[tuple[Any, ...]] = []  # rows of the content read, as read
            stamps: list[tuple[Any, ...]] = []
            read = self._read
            for row in rows:
                seen = read.pop(row[0], None)
                if seen is not None and seen[1] == row[_IN_ROW]:
                    if seen[2] == row[_FRESH_UNTIL]:
                        continue  # confirmed as it stands: nothing a run reads would change
                    again.append(row)
                    stamps.append((now, row[_ELAPSED], row[_FRESH_UNTIL], row[0], seen[0]))
                else:
                    whole.append(row)
            if not whole and not stamps:
                return
            connection = self._open()
            with _transaction(connection):
                if stamps and connection.executemany(_REVALIDATE, stamps).rowcount < len(stamps):
                    whole[:0] = again  # some row was replaced since it was read
                connection.executemany(_PUT, whole)

    def _read_answer(self, row: sqlite3.Row) -> Answer | None:
        """The answer of ``row``, its stamp and content kept (None: a row unreadable)."""
        answer = _readable_answer(row)
        if answer is not None:
            read = self._read
            if len(read) >= _READ_KEPT:
                for url in list(islice(read, _READ_KEPT // 2)):
                    del read[url]
            read[row[0]] = (row[1], row[_IN_ROW], row[_FRESH_UNTIL])
        return answer

    def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with self._errors("cannot close"):
                connection.close()

    def __enter__(self) -> Cache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> sqlite3.Connection:
        if self._connection is None:
            raise sqlite3.ProgrammingError("the cache is closed")
        return self._connection

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except (sqlite3.Error, OSError) as error:
            reason = " ".join(str(error).split()) or type(error).__name__
            raise CacheError(f"live cache {self.path}: {doing}: {reason}") from None


def _foreign(connection: sqlite3.Connection) -> str:
    """What of the database no layout of this cache wrote, in words; "" when it is
    empty or a cache's (read before anything is written, so that another program's
    database is never changed). A cache's is marked with ``_APPLICATION_ID``; a file
    without the mark is a cache's only when an earlier layout wrote it (a ``user_version``
    of 1 to ``_VERSION``, and no table but ``answers`` keyed by ``url``)."""
    schema = connection.execute(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        " ORDER BY name"
    ).fetchall()
    others = [f"{kind} {name}" for kind, name in schema if (kind, name) != ("table", "answers")]
    if len(others) < len(schema):
        columns = {row[1] for row in connection.execute("PRAGMA table_info(answers)")}
        if "url" not in columns:
            others.insert(0, "table answers")
    marked = connection.execute("PRAGMA application_id").fetchone()[0]
    if marked not in (0, _APPLICATION_ID):
        others.insert(0, f"the application id {marked:#x}")
    elif not others and schema and marked == 0:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if not 1 <= version <= _VERSION:
            others.append("table answers")
    return ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")


@contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """One write transaction, its lock taken at the start (so two writers never
    deadlock upgrading a read lock)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def _row(answer: Answer, now: float) -> tuple[Any, ...]:
    """The row written for ``answer`` (``_WRITTEN``, in the order of ``_COLUMNS``), ``now``
    its time of storing."""
    chain = (
        json.dumps([[hop.url, hop.status, hop.location] for hop in answer.chain])
        if answer.chain
        else None
    )
    signals = answer.signals
    if signals is None:
        page: tuple[Any, ...] = (None,) * 8
    else:
        alternates, modified = signals.alternates, signals.modified
        page = (
            1,
            signals.noindex,
            signals.canonical,
            signals.canonical_source,
            json.dumps([list(pair) for pair in alternates]) if alternates else None,
            None if modified is None else modified.isoformat(),
            signals.modified_source,
            signals.refresh,
        )
    return (
        answer.url,
        now,
        answer.status,
        answer.final_url,
        chain,
        answer.content_type,
        *page,
        answer.error,
        answer.detail,
        int(answer.loop),
        int(answer.too_many_hops),
        answer.etag,
        answer.last_modified,
        answer.elapsed,
        answer.fresh_until,
    )


def _readable_answer(row: sqlite3.Row) -> Answer | None:
    if not all(map(isinstance, row, _ROW_TYPES)):
        return None
    try:
        return _answer(row)
    except (ValueError, TypeError, KeyError):
        return None


def _answer(row: sqlite3.Row) -> Answer:
    """The answer a row read (``_READ``) holds."""
    chain, alternates, modified = row["chain"], row["alternates"], row["modified"]
    return Answer(
        url=row["url"],
        status=row["status"],
        final_url=row["final_url"],
        chain=[] if chain is None else [Hop(*hop) for hop in json.loads(chain)],
        content_type=row["content_type"],
        signals=None
        if row["signals"] is None
        else PageSignals(
            noindex=row["noindex"],
            canonical=row["canonical"],
            canonical_source=row["canonical_source"],
            alternates=()
            if alternates is None
            else tuple((str(lang), str(href)) for lang, href in json.loads(alternates)),
            modified=None if modified is None else datetime.fromisoformat(modified),
            modified_source=row["modified_source"],
            refresh=row["refresh"],
        ),
        error=row["error"],
        detail=row["detail"],
        elapsed=row["elapsed"],
        loop=bool(row["loop"]),
        too_many_hops=bool(row["too_many_hops"]),
        etag=row["etag"],
        last_modified=row["last_modified"],
        fresh_until=row["fresh_until"],
    )
