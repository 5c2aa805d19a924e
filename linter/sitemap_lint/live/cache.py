"""The live audit's answers kept between runs, so that a second run over unchanged pages
asks only conditionally (If-None-Match, If-Modified-Since), or not at all while an
answer is fresh (``Answer.fresh_until``), and reports the same.

One SQLite table keyed by URL (the standard library's sqlite3): each row holds what the
findings are made from (status, final URL, redirect chain, content type, the page's
signals, the error) and the validators to ask again with (ETag, Last-Modified). Write-
ahead logging and a busy timeout let two runs share the file: readers never wait for a
writer, and writers wait their turn; each ``put_many`` is one transaction. A file that is
not this cache (not SQLite, damaged, unreadable) raises ``CacheError`` with a one-line
reason, never a database traceback.
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
from pathlib import Path
from typing import Any

from sitemap_lint.live.model import Answer, Hop, PageSignals

__all__ = ["Cache", "CacheError", "default_path"]

# Rows written by another layout are dropped (it is a cache): bump with the layout.
_VERSION = 2
# How long a writer waits for another process's transaction, in seconds.
BUSY_TIMEOUT = 30.0
# How long opening a file waits for another process switching it to write-ahead logging.
WAL_PATIENCE = 2.0
_COLUMNS = (
    "url",
    "stored_at",
    "status",
    "final_url",
    "chain",
    "content_type",
    "signals",
    "error",
    "detail",
    "elapsed",
    "loop",
    "too_many_hops",
    "etag",
    "last_modified",
    "fresh_until",
)
_CREATE = """CREATE TABLE IF NOT EXISTS answers (
    url TEXT PRIMARY KEY,
    stored_at REAL NOT NULL,
    status INTEGER,
    final_url TEXT,
    chain TEXT,
    content_type TEXT,
    signals TEXT,
    error TEXT,
    detail TEXT,
    elapsed REAL NOT NULL DEFAULT 0,
    loop INTEGER NOT NULL DEFAULT 0,
    too_many_hops INTEGER NOT NULL DEFAULT 0,
    etag TEXT,
    last_modified TEXT,
    fresh_until REAL
) WITHOUT ROWID"""
_PUT = (
    f"INSERT OR REPLACE INTO answers ({', '.join(_COLUMNS)}) "
    f"VALUES ({', '.join('?' * len(_COLUMNS))})"
)
_GET_ALL = f"SELECT url, {', '.join(_COLUMNS[2:])} FROM answers"
_GET = f"{_GET_ALL} WHERE url = ?"
_MANY = 500  # URLs asked in one query (SQLite allows at least 999 parameters)


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
        with self._errors("cannot open"):
            path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(
                path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
        self._connection: sqlite3.Connection | None = connection
        try:
            with self._errors("cannot use"):
                self._prepare(connection)
        except CacheError:
            self.close()
            raise

    def _prepare(self, connection: sqlite3.Connection) -> None:
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
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version != _VERSION:
                connection.execute("DROP TABLE IF EXISTS answers")
                connection.execute(f"PRAGMA user_version={_VERSION}")
            connection.execute(_CREATE)

    def get(self, url: str) -> Answer | None:
        """The answer stored for ``url``, or None (also when its row cannot be read)."""
        with self._errors("cannot read"), self._lock:
            row = self._open().execute(_GET, (url,)).fetchone()
        return None if row is None else _readable_answer(row)

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
                    answer = _readable_answer(row)
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
            connection = self._open()
            with _transaction(connection):
                connection.executemany(_PUT, rows)

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
    chain = (
        json.dumps([[hop.url, hop.status, hop.location] for hop in answer.chain])
        if answer.chain
        else None
    )
    return (
        answer.url,
        now,
        answer.status,
        answer.final_url,
        chain,
        answer.content_type,
        None if answer.signals is None else json.dumps(_signals_record(answer.signals)),
        answer.error,
        answer.detail,
        answer.elapsed,
        int(answer.loop),
        int(answer.too_many_hops),
        answer.etag,
        answer.last_modified,
        answer.fresh_until,
    )


def _readable_answer(row: tuple[Any, ...]) -> Answer | None:
    try:
        return _answer(row)
    except (ValueError, TypeError, KeyError):
        return None


def _answer(row: tuple[Any, ...]) -> Answer:
    (
        url,
        status,
        final_url,
        chain,
        content_type,
        signals,
        error,
        detail,
        elapsed,
        loop,
        too_many_hops,
        etag,
        last_modified,
        fresh_until,
    ) = row
    return Answer(
        url=url,
        status=status,
        final_url=final_url,
        chain=[] if chain is None else [Hop(*hop) for hop in json.loads(chain)],
        content_type=content_type,
        signals=None if signals is None else _signals_from(json.loads(signals)),
        error=error,
        detail=detail,
        elapsed=elapsed,
        loop=bool(loop),
        too_many_hops=bool(too_many_hops),
        etag=etag,
        last_modified=last_modified,
        fresh_until=fresh_until,
    )


def _signals_record(signals: PageSignals) -> dict[str, Any]:
    return {
        "noindex": signals.noindex,
        "canonical": signals.canonical,
        "canonical_source": signals.canonical_source,
        "alternates": [list(pair) for pair in signals.alternates],
        "modified": None if signals.modified is None else signals.modified.isoformat(),
        "modified_source": signals.modified_source,
    }


def _signals_from(record: dict[str, Any]) -> PageSignals:
    modified = record.get("modified")
    return PageSignals(
        noindex=record.get("noindex"),
        canonical=record.get("canonical"),
        canonical_source=record.get("canonical_source"),
        alternates=tuple((str(lang), str(href)) for lang, href in record.get("alternates", [])),
        modified=None if modified is None else datetime.fromisoformat(modified),
        modified_source=record.get("modified_source"),
    )
