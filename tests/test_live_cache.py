"""live.cache: answers kept between runs in SQLite, shared safely by two runs."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from sitemap_lint.live.cache import Cache, CacheError, default_path
from sitemap_lint.live.model import Answer, Hop, PageSignals

REPOSITORY = Path(__file__).resolve().parent.parent


def full_answer(url: str = "https://example.com/a") -> Answer:
    return Answer(
        url=url,
        status=200,
        final_url="https://example.com/b/",
        chain=[Hop(url, 301, "/b"), Hop("https://example.com/b", 308, "https://example.com/b/")],
        content_type="text/html",
        signals=PageSignals(
            noindex="meta robots",
            canonical="https://example.com/c",
            canonical_source="link element",
            alternates=(("de", "https://example.com/de"), ("x-default", "https://example.com/")),
            modified=datetime(2024, 5, 1, 10, 20, 30, 123, tzinfo=timezone(timedelta(hours=2))),
            modified_source="JSON-LD dateModified",
            refresh="https://example.com/moved",
        ),
        elapsed=0.25,
        etag='W/"abc"',
        last_modified="Wed, 01 May 2024 08:20:30 GMT",
    )


def test_an_answer_comes_back_as_it_went_in(tmp_path: Path) -> None:
    answer = full_answer()
    with Cache(tmp_path / "live.sqlite3") as cache:
        cache.put_many([answer])
        assert cache.get(answer.url) == answer
        assert cache.get("https://example.com/other") is None


@pytest.mark.parametrize(
    "answer",
    [
        Answer(url="https://example.com/gone", status=410, final_url="https://example.com/gone"),
        Answer(url="https://example.com/down", error="timeout", detail="no answer in 15 s"),
        Answer(url="https://example.com/loop", status=301, loop=True, too_many_hops=False),
        Answer(url="https://example.com/x", status=200, signals=PageSignals()),
        Answer(url="https://example.com/\u00e9?q=\u65e5", status=200),
    ],
)
def test_other_answers_come_back(answer: Answer, tmp_path: Path) -> None:
    with Cache(tmp_path / "live.sqlite3") as cache:
        cache.put_many([answer])
        assert cache.get(answer.url) == answer


def test_answers_last_between_runs_and_are_replaced(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "live.sqlite3"  # the folders are created
    with Cache(path) as cache:
        cache.put_many([full_answer(), Answer(url="https://example.com/z", status=404)])
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") == full_answer()
        cache.put_many([Answer(url="https://example.com/a", status=500)])
        stored = cache.get("https://example.com/a")
        assert stored is not None
        assert (stored.status, stored.signals, stored.etag) == (500, None, None)
        assert cache.get("https://example.com/z") == Answer(url="https://example.com/z", status=404)


def test_the_database_uses_write_ahead_logging(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    Cache(path).close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        stored = connection.execute("SELECT stored_at FROM answers").fetchall()
    assert stored == []


def test_a_row_that_cannot_be_read_is_a_miss(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many([full_answer()])
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE answers SET chain = '{not json'")
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") is None


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("status", "two hundred"),
        ("status", 200.5),
        ("noindex", b"meta robots"),
        ("canonical", b"https://example.com/c"),
        ("modified", b"2024-05-01"),
        ("fresh_until", "soon"),
        ("etag", b'"x"'),
        ("signals", "yes"),
        ("loop", "no"),
        ("elapsed", b"\x00"),
    ],
)
def test_a_row_holding_a_value_of_the_wrong_type_is_a_miss(
    column: str, value: object, tmp_path: Path
) -> None:
    # a damaged row whose value SQLite still reads (a column's affinity left it of
    # another type): never an answer made of it
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many([full_answer(), full_answer("https://example.com/b")])
    with sqlite3.connect(path) as connection:
        connection.execute(f"UPDATE answers SET {column} = ? WHERE url LIKE '%/a'", (value,))
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") is None
        assert cache.get_many(["https://example.com/a", "https://example.com/b"]) == {
            "https://example.com/b": full_answer("https://example.com/b")
        }


def test_a_cache_of_another_layout_is_emptied_and_marked(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with sqlite3.connect(path) as connection:  # a layout written before the mark
        connection.execute("CREATE TABLE answers (url TEXT PRIMARY KEY, body BLOB)")
        connection.execute("INSERT INTO answers VALUES ('https://example.com/a', x'00')")
        connection.execute("PRAGMA user_version=1")
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") is None
        cache.put_many([full_answer()])
        assert cache.get("https://example.com/a") == full_answer()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA application_id").fetchone()[0] == 0x534D4C43
    with Cache(path) as cache:  # taken again, its answers kept
        assert cache.get("https://example.com/a") == full_answer()


@pytest.mark.parametrize(
    "content",
    [
        b"this is not a database, just some text\n" * 200,
        b"SQLite format 3\x00" + b"\xff" * 4096,  # the magic, then garbage
        b"\x00" * 100,
    ],
)
def test_a_file_that_is_not_the_cache_is_a_cache_error(content: bytes, tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    path.write_bytes(content)
    with pytest.raises(CacheError) as raised:
        Cache(path)
    message = str(raised.value)
    assert "\n" not in message
    assert str(path) in message


@pytest.mark.parametrize(
    "tables",
    [
        ["CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)"],
        ["CREATE TABLE answers (id INTEGER PRIMARY KEY, question TEXT, answer TEXT)"],
        ["CREATE TABLE answers (url TEXT PRIMARY KEY, x)", "CREATE TABLE notes (text TEXT)"],
        ["CREATE TABLE answers (url TEXT PRIMARY KEY, x)"],
        ["CREATE TABLE answers (url TEXT PRIMARY KEY, x)", "PRAGMA user_version=99"],
        ["CREATE TABLE answers (url TEXT PRIMARY KEY, x)", "PRAGMA application_id=7"],
    ],
)
def test_another_programs_database_is_a_cache_error_and_left_as_it_is(
    tables: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as connection:
        for table in tables:
            connection.execute(table)
            if table.startswith("CREATE"):
                name = table.split()[2]
                connection.execute(f"INSERT INTO {name} DEFAULT VALUES")
    before = path.read_bytes()
    with pytest.raises(CacheError) as raised:
        Cache(path)
    message = str(raised.value)
    assert message.startswith(f"live cache {path}: cannot use: a database of another program")
    assert "\n" not in message
    assert path.read_bytes() == before  # no table added or dropped, its journal as it was
    assert not Path(f"{path}-wal").exists()


def test_a_folder_at_the_path_is_a_cache_error(tmp_path: Path) -> None:
    with pytest.raises(CacheError, match="cannot open"):
        Cache(tmp_path)


def test_a_path_under_a_file_is_a_cache_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(CacheError, match="cannot open"):
        Cache(tmp_path / "file" / "live.sqlite3")


def test_a_closed_cache_raises_a_cache_error(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "live.sqlite3")
    cache.close()
    cache.close()  # twice is fine
    with pytest.raises(CacheError, match="closed"):
        cache.get("https://example.com/a")


def test_default_path_honours_xdg_cache_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "sitemap-lint" / "live.sqlite3"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for unusable in ("", "relative/cache"):
        monkeypatch.setenv("XDG_CACHE_HOME", unusable)
        assert default_path() == tmp_path / "home" / ".cache" / "sitemap-lint" / "live.sqlite3"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_path() == tmp_path / "home" / ".cache" / "sitemap-lint" / "live.sqlite3"


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from sitemap_lint.live.cache import Cache
    from sitemap_lint.live.model import Answer

    path, name, batches = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    sys.stdin.readline()  # both processes start together
    with Cache(path) as cache:
        for batch in range(batches):
            own = [Answer(url=f"https://example.com/{name}/{batch}/{i}", status=200) for i in range(50)]
            shared = [Answer(url=f"https://example.com/shared/{i}", status=200, detail=name) for i in range(50)]
            cache.put_many(own + shared)
            for answer in own:
                assert cache.get(answer.url) == answer, answer.url
            assert cache.get("https://example.com/shared/0") is not None
    print("done")
    """
)


@pytest.mark.slow
def test_two_processes_share_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    batches = 40
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), name, str(batches)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPOSITORY,
        )
        for name in ("one", "two")
    ]
    for writer in writers:  # both go at once
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    outputs = [writer.communicate(timeout=300) for writer in writers]
    for writer, (out, err) in zip(writers, outputs, strict=True):
        assert (writer.returncode, out.strip(), err) == (0, "done", "")
    with Cache(path) as cache:
        for name in ("one", "two"):
            for batch in range(batches):
                for index in range(50):
                    url = f"https://example.com/{name}/{batch}/{index}"
                    assert cache.get(url) == Answer(url=url, status=200)
        shared = cache.get("https://example.com/shared/49")
        assert shared is not None and shared.detail in ("one", "two")
    with sqlite3.connect(path) as connection:
        (rows,) = connection.execute("SELECT count(*) FROM answers").fetchone()
    assert rows == 2 * batches * 50 + 50


def test_a_naive_modified_moment_comes_back_naive(tmp_path: Path) -> None:
    # read_signals gives aware moments; whatever is stored is given back unchanged.
    answer = Answer(url="https://example.com/a", signals=PageSignals(modified=datetime(2024, 1, 1)))
    aware = Answer(
        url="https://example.com/b", signals=PageSignals(modified=datetime(2024, 1, 1, tzinfo=UTC))
    )
    with Cache(tmp_path / "live.sqlite3") as cache:
        cache.put_many([answer, aware])
        assert cache.get(answer.url) == answer
        assert cache.get(aware.url) == aware


def test_get_many_answers_what_it_has(tmp_path: Path) -> None:
    stored = [Answer(url=f"https://example.com/{index}", status=200) for index in range(1200)]
    with Cache(tmp_path / "live.sqlite3") as cache:
        cache.put_many([*stored, full_answer()])
        asked = [f"https://example.com/{index}" for index in range(0, 2400, 2)]
        found = cache.get_many([*asked, "https://example.com/a", "https://example.com/0"])
        assert found == {
            **{answer.url: answer for answer in stored[::2]},
            "https://example.com/a": full_answer(),
        }
        assert cache.get_many([]) == {}


def stamps(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as connection:
        return dict(connection.execute("SELECT url, stamp FROM answers").fetchall())


def again(answer: Answer, elapsed: float, fresh_until: float | None) -> Answer:
    """``answer`` as a 304 gives it back: its content, new times."""
    return replace(answer, from_cache=True, elapsed=elapsed, fresh_until=fresh_until)


def test_a_revalidated_answer_is_stored_with_its_new_times(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many([full_answer(), Answer(url="https://example.com/z", status=404)])
        before = stamps(path)
        read = cache.get_many(["https://example.com/a", "https://example.com/z"])
        revalidated = again(read["https://example.com/a"], 0.5, 2e9)
        changed = replace(read["https://example.com/z"], status=410)
        cache.put_many([revalidated, changed])
        assert cache.get(revalidated.url) == replace(revalidated, from_cache=False)
        assert cache.get(changed.url) == changed
        after = stamps(path)
    # the revalidation updated its row in place; the new answer was written whole
    assert after[revalidated.url] == before[revalidated.url]
    assert after[changed.url] != before[changed.url]


def test_a_revalidation_that_keeps_the_freshness_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many(
            [full_answer(), replace(full_answer("https://example.com/f"), fresh_until=5.0)]
        )
        with sqlite3.connect(path) as connection:
            before = connection.execute("SELECT url, stored_at, stamp FROM answers").fetchall()
        read = cache.get_many(["https://example.com/a", "https://example.com/f"])
        cache.put_many(
            [
                again(read["https://example.com/a"], 0.5, None),  # stale as it was
                again(read["https://example.com/f"], 0.5, 5.0),  # fresh as long as it was
            ]
        )
        with sqlite3.connect(path) as connection:
            after = connection.execute("SELECT url, stored_at, stamp FROM answers").fetchall()
        assert after == before
        assert cache.get("https://example.com/a") == full_answer()  # as it was read


def test_a_row_replaced_since_it_was_read_is_written_whole(tmp_path: Path) -> None:
    # two runs share the file: one revalidates what the other has replaced meanwhile
    path = tmp_path / "live.sqlite3"
    with Cache(path) as one, Cache(path) as two:
        one.put_many([full_answer()])
        read = one.get("https://example.com/a")
        assert read is not None and two.get(read.url) == read
        newer = replace(full_answer(), etag='"new"', signals=PageSignals(noindex="meta robots"))
        two.put_many([newer])
        revalidated = again(read, 0.75, 3e9)
        one.put_many([revalidated])
        assert two.get(read.url) == replace(revalidated, from_cache=False)
        # and the other way: its revalidation of what it read before is written whole
        two.put_many([again(newer, 0.125, None)])
        assert one.get(read.url) == replace(newer, elapsed=0.125, fresh_until=None)


def test_two_caches_revalidating_one_url_never_mix_two_answers(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    url = "https://example.com/a"
    written: set[tuple[str | None, float | None]] = set()  # (detail, fresh_until) pairs
    lock = threading.Lock()
    seen: list[Answer] = []

    def run(name: str) -> None:
        with Cache(path) as cache:
            for turn in range(150):
                current = cache.get_many([url]).get(url)
                assert current is not None
                seen.append(current)
                if turn % 3:  # a 304: the content read, new times
                    answer = again(current, turn, float(hash((name, turn)) % 10**6))
                else:  # another answer
                    answer = replace(full_answer(), detail=f"{name}{turn}", fresh_until=-turn)
                with lock:
                    written.add((answer.detail, answer.fresh_until))
                cache.put_many([answer])

    with Cache(path) as cache:
        cache.put_many([replace(full_answer(), detail="first", fresh_until=None)])
    written.add(("first", None))
    threads = [threading.Thread(target=run, args=(name,)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with Cache(path) as cache:
        last = cache.get(url)
    assert last is not None and len(seen) == 300
    for answer in [*seen, last]:
        assert (answer.detail, answer.fresh_until) in written
        assert replace(answer, detail=None, elapsed=0.25, fresh_until=None) == full_answer()


def test_many_rows_read_before_they_are_stored_again(tmp_path: Path) -> None:
    # past what it keeps of the rows read, a cache writes revalidations whole
    answers = [Answer(url=f"https://example.com/{index}", status=200) for index in range(25_000)]
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many(answers)
        before = stamps(path)
        read = cache.get_many(answer.url for answer in answers)
        cache.put_many(again(answer, 1.0, 5.0) for answer in read.values())
        assert cache.get_many(answer.url for answer in answers) == {
            answer.url: replace(answer, elapsed=1.0, fresh_until=5.0) for answer in answers
        }
    after = stamps(path)
    kept = sum(after[url] == before[url] for url in before)
    assert 0 < kept < len(answers)


def test_a_cache_of_the_previous_layout_is_emptied(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with sqlite3.connect(path) as connection:  # as version 2 wrote it
        connection.execute(
            "CREATE TABLE answers (url TEXT PRIMARY KEY, stored_at REAL NOT NULL, status "
            "INTEGER, final_url TEXT, chain TEXT, content_type TEXT, signals TEXT, error TEXT, "
            "detail TEXT, elapsed REAL NOT NULL DEFAULT 0, loop INTEGER NOT NULL DEFAULT 0, "
            "too_many_hops INTEGER NOT NULL DEFAULT 0, etag TEXT, last_modified TEXT, "
            "fresh_until REAL) WITHOUT ROWID"
        )
        connection.execute(
            "INSERT INTO answers (url, stored_at, status, signals, etag) "
            "VALUES ('https://example.com/a', 1.0, 200, '{\"noindex\": null}', '\"x\"')"
        )
        connection.execute("PRAGMA user_version=2")
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") is None
        cache.put_many([full_answer()])
        assert cache.get("https://example.com/a") == full_answer()


def test_a_cache_of_layout_3_is_emptied(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many([full_answer()])
    with sqlite3.connect(path) as connection:  # its rows were keyed by URL alone
        connection.execute("PRAGMA user_version=3")
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") is None


def test_a_page_time_without_a_zone_comes_back_without_one(tmp_path: Path) -> None:
    from dataclasses import replace

    signals = PageSignals(modified=datetime(2025, 6, 1, 10), modified_source="JSON-LD dateModified")
    answer = replace(full_answer(), signals=signals)
    with Cache(tmp_path / "live.sqlite3") as cache:
        cache.put_many([answer])
        stored = cache.get(answer.url)
    assert stored is not None and stored.signals is not None
    assert stored.signals.modified == datetime(2025, 6, 1, 10)
    assert stored.signals.modified.tzinfo is None


def test_a_cache_of_layout_4_is_emptied(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many([full_answer()])
    with sqlite3.connect(path) as connection:  # its pages' times without a zone read as UTC
        connection.execute("PRAGMA user_version=4")
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") is None


def test_a_cache_of_layout_5_is_emptied(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many([full_answer()])
    with sqlite3.connect(path) as connection:  # its signals read before the head's end moved
        connection.execute("PRAGMA user_version=5")
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") is None


def test_a_cache_of_layout_6_is_emptied(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many([full_answer()])
    with sqlite3.connect(path) as connection:  # its signals read only up to </head>
        connection.execute("PRAGMA user_version=6")
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") is None


def test_a_cache_of_layout_7_is_emptied(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with Cache(path) as cache:
        cache.put_many([full_answer()])
    with sqlite3.connect(path) as connection:  # its Last-Modified over the page's own dates
        connection.execute("PRAGMA user_version=7")
    with Cache(path) as cache:
        assert cache.get("https://example.com/a") is None


# The table of layout 8 as its first writer declared it: the columns the cache declares
# once (``cache._COLUMNS``) must build it to the byte, so a file it wrote keeps working.
LAYOUT = """CREATE TABLE answers (
    url TEXT PRIMARY KEY,
    stored_at REAL NOT NULL,
    stamp INTEGER NOT NULL,
    status INTEGER,
    final_url TEXT,
    chain TEXT,
    content_type TEXT,
    signals INTEGER,
    noindex TEXT,
    canonical TEXT,
    canonical_source TEXT,
    alternates TEXT,
    modified TEXT,
    modified_source TEXT,
    refresh TEXT,
    error TEXT,
    detail TEXT,
    loop INTEGER NOT NULL DEFAULT 0,
    too_many_hops INTEGER NOT NULL DEFAULT 0,
    etag TEXT,
    last_modified TEXT,
    elapsed REAL NOT NULL DEFAULT 0,
    fresh_until REAL
) WITHOUT ROWID"""


def test_a_new_file_holds_the_table_of_layout_8(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with Cache(path):
        pass
    with sqlite3.connect(path) as connection:
        (sql,) = connection.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'answers'"
        ).fetchone()
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 8
    assert sql == LAYOUT


def test_a_file_of_layout_8_written_row_by_row_is_read(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    with sqlite3.connect(path) as connection:  # as the cache of layout 8 marked and filled it
        connection.execute(LAYOUT)
        connection.execute("PRAGMA user_version=8")
        connection.execute("PRAGMA application_id=1397574723")
        connection.execute(
            "INSERT INTO answers VALUES ('https://example.com/a', 1.0, 7, 200,"
            " 'https://example.com/b/', '[[\"https://example.com/a\", 301, \"/b/\"]]',"
            " 'text/html', 1, 'meta robots', 'https://example.com/c', 'link element',"
            " '[[\"de\", \"https://example.com/de\"]]', '2024-05-01T10:20:30+02:00',"
            " 'Last-Modified', 'https://example.com/d', NULL, NULL, 0, 0, '\"e\"',"
            " 'Wed, 01 May 2024 08:20:30 GMT',"
            " 0.25, NULL)"
        )
    with Cache(path) as cache:
        answer = cache.get("https://example.com/a")
    assert answer == Answer(
        url="https://example.com/a",
        status=200,
        final_url="https://example.com/b/",
        chain=[Hop("https://example.com/a", 301, "/b/")],
        content_type="text/html",
        signals=PageSignals(
            noindex="meta robots",
            canonical="https://example.com/c",
            canonical_source="link element",
            alternates=(("de", "https://example.com/de"),),
            modified=datetime(2024, 5, 1, 10, 20, 30, tzinfo=timezone(timedelta(hours=2))),
            modified_source="Last-Modified",
            refresh="https://example.com/d",
        ),
        elapsed=0.25,
        etag='"e"',
        last_modified="Wed, 01 May 2024 08:20:30 GMT",
    )


def test_a_row_holds_each_field_in_its_declared_column(tmp_path: Path) -> None:
    """The row written follows the columns' declaration, and every field comes back."""
    from dataclasses import replace

    from sitemap_lint.live import cache as live_cache

    answer = replace(
        full_answer(),
        error="timeout",
        detail="after 15 s",
        loop=True,
        too_many_hops=True,
        fresh_until=1234.5,
    )
    row = dict(zip(live_cache._WRITTEN, live_cache._row(answer, 99.0), strict=True))
    assert (row["url"], row["stored_at"], row["status"]) == (answer.url, 99.0, 200)
    assert (row["error"], row["detail"], row["loop"], row["too_many_hops"]) == (
        "timeout",
        "after 15 s",
        1,
        1,
    )
    assert (row["etag"], row["elapsed"], row["fresh_until"]) == ('W/"abc"', 0.25, 1234.5)
    assert (row["signals"], row["modified_source"]) == (1, "JSON-LD dateModified")
    with Cache(tmp_path / "live.sqlite3") as cache:
        cache.put_many([answer])
        assert cache.get(answer.url) == answer
