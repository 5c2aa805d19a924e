"""AlternatesTable: a file's hreflang records in columns. It gives back the records it was
given (in order, by index, after a pickle), check_alternates finds in it what it finds
in the records themselves (equal lists of links shared, as the checker shares them), and
it stays small: its records and the check's own tables cost a few ints a record."""

from __future__ import annotations

import pickle
import random
import tracemalloc
from typing import Any

import pytest

from sitemap_lint.rules.hreflang import Alternates, AlternatesTable, Problem, check_alternates
from tests.rules.test_hreflang_clusters import _random_records

Shown = list[tuple[str, int, int, str, Alternates]]


def _shown(problems: Any) -> Shown:
    found: list[Problem] = list(problems)
    return [(p.rule.code, p.record.line, p.record.column, p.message, p.record) for p in found]


def _interned(records: list[Alternates]) -> list[Alternates]:
    """The records with equal links sharing one tuple, as the hreflang checker keeps them."""
    shared: dict[Any, Any] = {}
    return [
        Alternates(
            r.page, r.line, r.column, shared.setdefault(r.links, r.links), r.file, r.kind, r.index
        )
        for r in records
    ]


def _cluster(number: int, host: str = "https://www.example.com") -> tuple[tuple[str, str], ...]:
    pages = {code: f"{host}/{code}/section/section/page-{number}.html" for code in ("de", "en")}
    pages["fr"] = f"{host}/fr/section/section/page-{number}.html"
    pairs = [*pages.items(), ("x-default", pages["en"])]
    return tuple(sorted(pairs))


def test_a_table_gives_back_the_records_it_was_given() -> None:
    # More lists than one compressed block holds, URLs outside ASCII, files, every kind,
    # a page that its links do not name, and entries with several locs (a high index).
    records = []
    for number in range(700):
        links = _cluster(number, "https://www.exämple.com" if number % 7 == 0 else "https://a.b")
        for code, page in links[:3]:
            file = f"site/{number % 3}.xml" if number > 500 else ""
            kind = "bare" if number % 11 == 0 and code == "de" else ""
            records.append(
                Alternates(
                    page,
                    number * 5 + 2,
                    3 + number,
                    () if kind else links,
                    file,
                    kind,
                    number | (code == "fr") << 40,
                )
            )
        records.append(Alternates(f"https://a.b/gone/{number}", 9, 9, (), kind="defective"))
    records.append(Alternates("https://a.b/elsewhere", 1, 1, _cluster(3)))  # page not listed
    table = AlternatesTable(records)

    assert len(table) == len(records)
    assert list(table) == records
    assert [table[i] for i in range(len(records))] == records
    assert table[-1] == records[-1]
    assert table[5:9] == records[5:9]
    with pytest.raises(IndexError):
        table[len(records)]


def test_equal_lists_share_one_number_wherever_they_stand() -> None:
    """Consecutive records with the same links share a list as they are added; equal lists
    far apart are told equal when the check reads the numbers."""
    table = AlternatesTable()
    for number in range(10):
        links = _cluster(number)
        table.add(links[0][1], number << 32 | 3, links, number)
        table.add(links[1][1], number << 32 | 3, tuple(list(links)), number)  # an equal tuple
    for number in range(10):
        links = _cluster(number)  # the same lists again, as new tuples
        table.add(links[2][1], (20 + number) << 32 | 3, links, 20 + number)
    assert table.list_count() == 21  # the empty list, 10 lists, 10 lists again
    numbers = list(table.numbers())
    assert numbers[:20] == [n for n in range(1, 11) for _ in range(2)]
    assert numbers[20:] == list(range(1, 11))


def test_the_check_finds_in_a_table_what_it_finds_in_the_records() -> None:
    rng = random.Random(7)
    found = set()
    for _case in range(1500):
        records, without = _random_records(rng)
        records = _interned(records)

        def bare(urls: list[str], without: list[str] = without) -> list[Alternates]:
            chosen = [url for url in urls if url in without]
            return [Alternates(url, 900 + i, 5, (), kind="bare") for i, url in enumerate(chosen)]

        for given in (None, bare):
            ours = _shown(check_alternates(AlternatesTable(records), given))
            assert ours == _shown(check_alternates(records, given)), records
            found |= {code for code, *_rest in ours}
    assert found == {"HL006", "HL007", "HL008", "HL009"}


def test_equal_lists_apart_count_as_one_list_in_a_cluster() -> None:
    """Which list most pages of a cluster list decides the page HL007 compares the others
    with: three pages list the usual one, in tuples of their own, and two give fr
    another code (in one tuple)."""
    en, de, fr, it, es = (f"https://e.com/{code}/" for code in ("en", "de", "fr", "it", "es"))
    usual = (("de", de), ("en", en), ("es", es), ("fr", fr), ("it", it), ("x-default", en))
    odd = (("de", de), ("en", en), ("es", es), ("fr-CA", fr), ("it", it), ("x-default", en))
    records = [
        Alternates(en, 3, 3, odd),
        Alternates(it, 8, 3, odd),
        Alternates(de, 13, 3, tuple(list(usual))),
        Alternates(fr, 18, 3, tuple(list(usual))),
        Alternates(es, 23, 3, tuple(list(usual))),
    ]
    problems = _shown(check_alternates(AlternatesTable(records)))
    assert [(code, line) for code, line, *_rest in problems] == [("HL007", 3), ("HL007", 8)]
    assert problems == _shown(check_alternates(_interned(records)))


def test_a_pickled_table_reads_and_checks_as_the_original() -> None:
    records = []
    for number in range(600):
        links = _cluster(number)
        records += [Alternates(page, number, 3, links) for _code, page in links[:3]]
    records[4] = Alternates(records[4].page, 4, 3, _cluster(9999))  # a link not returned
    table = AlternatesTable(records)
    again = pickle.loads(pickle.dumps(table))

    assert list(again) == records
    assert _shown(check_alternates(again)) == _shown(check_alternates(table))
    assert _shown(check_alternates(again))  # (it finds something)
    again.add(records[0].page, 7 << 32 | 3, _cluster(0), 7)  # a list it holds, added again
    assert again.numbers()[-1] == again.numbers()[0]


def test_a_packed_table_reads_and_grows_as_before() -> None:
    """pack() compresses the URLs of the last block too (a file's table handed to the
    set); the table reads the same, and takes more records as before."""
    records = []
    for number in range(300):  # one block and a part
        links = _cluster(number)
        records += [Alternates(page, number, 3, links) for _code, page in links[:3]]
    table = AlternatesTable(records[:600])
    table.pack()
    assert list(table) == records[:600]
    for record in records[600:]:
        table.append(record)
    table.pack()
    assert list(table) == records
    assert list(pickle.loads(pickle.dumps(table))) == records
    assert _shown(check_alternates(table)) == _shown(check_alternates(_interned(records)))


CLUSTERS = 10_000  # of three pages with four links (x-default the English page)


def _table_of_clusters() -> tuple[AlternatesTable, list[tuple[tuple[str, str], ...]]]:
    lists = [_cluster(number) for number in range(CLUSTERS)]
    table = AlternatesTable()
    for number, links in enumerate(lists):
        for offset in range(3):
            table.add(links[offset][1], (5 * number + offset) << 32 | 3, links, number)
    return table, lists


def test_a_table_costs_a_few_ints_a_record() -> None:
    """About 60 bytes a record (an Alternates and its ints alone took 150, and each list
    of links its tuples and strings 750 more)."""
    lists = [_cluster(number) for number in range(CLUSTERS)]
    tracemalloc.start()
    try:
        table = AlternatesTable()
        for number, links in enumerate(lists):
            for offset in range(3):
                table.add(links[offset][1], (5 * number + offset) << 32 | 3, links, number)
        size = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(table) == 3 * CLUSTERS
    assert size < 80 * len(table), f"{size / len(table):.0f} bytes a record"


def test_the_check_of_a_table_allocates_a_few_ints_a_record() -> None:
    """A table of clean clusters is checked without an object per page (a dict of the
    pages by URL took about 120 bytes a record)."""
    table, _lists = _table_of_clusters()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        problems = list(check_alternates(table))
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert problems == []
    assert peak < 100 * len(table), f"{peak / len(table):.0f} bytes a record"
