"""check_alternates takes the records that share one links tuple together when that
tuple points only at them: held here to the plain union-find over every link, on
chosen and on random sets of records (shared tuples with a page missing, duplicate
pages, defective and bare targets, links across clusters)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from sitemap_lint.rules import hreflang
from sitemap_lint.rules.hreflang import Alternates, Problem, check_alternates


def _reference(
    records: Iterable[Alternates], bare: Callable[[list[str]], list[Alternates]] | None = None
) -> Iterator[Problem]:
    """The comparison followed link by link: every link of every record."""
    records = list(records)
    pages: dict[str, int] = {}
    for index, record in enumerate(records):
        pages.setdefault(record.page, index)
    if bare is not None:
        targets = {href for r in records if not r.kind for _code, href in r.links} - pages.keys()
        if targets:
            for record in bare(sorted(targets)):
                pages.setdefault(record.page, len(records))
                records.append(record)

    def urls(record: Alternates) -> frozenset[str]:
        return frozenset(href for _code, href in record.links)

    parent = list(range(len(records)))

    def root(index: int) -> int:
        while parent[index] != index:
            index = parent[index]
        return index

    unanswered: dict[int, list[Any]] = {}
    sources: set[str] = set()
    for index, record in enumerate(records):
        own = record.links
        for code, href in own:
            other = pages.get(href)
            if other is None or other == index or record.kind:
                continue
            target = records[other]
            if target.kind == "defective":
                continue
            if target.links is own or record.page in urls(target):
                a, b = root(index), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
                continue
            sources.add(record.page)
            entry = unanswered.setdefault(other, [0, {}])
            by_page = entry[1]
            if index not in by_page:  # a page listing it under two codes counts once
                entry[0] += 1
                by_page[index] = [code]
                entry.append((record, by_page[index]))
            else:
                by_page[index].append(code)
    not_answered = {records[index].page for index in unanswered}
    clusters: dict[int, list[int]] = {}
    for index in range(len(records)):
        clusters.setdefault(root(index), []).append(index)
    found: list[tuple[int, Problem]] = []
    with_default = 0
    without_default: list[tuple[int, Alternates, list[str]]] = []
    for index, (count, _by_page, *listing) in unanswered.items():
        # The pages of the least URLs are named, whatever the order of the records.
        examples = sorted(listing, key=lambda example: example[0].page)[:3]
        found.append((index, hreflang._return_link_problem(records[index], count, examples)))
    for members in clusters.values():
        members = [i for i in members if not records[i].kind]
        if not members:
            continue
        cluster = [records[i] for i in members]
        if len({id(r.links) for r in cluster}) > 1:
            found.extend(
                hreflang._mismatches(members, cluster, pages, urls, not_answered, sources, records)
            )
        codes = {code for record in cluster for code, _href in record.links}
        languages = {code.split("-", 1)[0] for code in codes if code != "x-default"}
        # A cluster with a page that does not list back a page listing it is incomplete.
        if len(languages) >= 2 and not any(records[i].page in not_answered for i in members):
            if "x-default" in codes:
                with_default += 1
            else:
                without_default.append((members[0], cluster[0], sorted(languages)))
    if without_default:
        if with_default == 0 and len(without_default) > 1:
            index, first, languages = without_default[0]
            found.append(
                (index, hreflang._no_x_default_problem(first, languages, len(without_default)))
            )
        else:
            for index, first, languages in without_default:
                found.append((index, hreflang._no_x_default_problem(first, languages, 1)))
    if bare is not None:
        # HL009: each URL no record is for, at the first record naming it, when on its
        # site and in a language some record gives its own page.
        spoken = {
            code.split("-", 1)[0]
            for record in records
            if not record.kind
            for code, href in record.links
            if href == record.page
        }
        named: set[str] = set()
        for index, record in enumerate(records):
            for code, href in [] if record.kind else record.links:
                if href in pages or href in named:
                    continue
                named.add(href)
                site = record.page.split("/", 3)[:3] == href.split("/", 3)[:3]
                if site and code.split("-", 1)[0] in spoken:
                    problem = hreflang.not_listed_problem(record, code, href, "file")
                    found.append((index, problem))
    found.sort(key=lambda item: item[0])
    for _index, problem in found:
        yield problem


Shown = list[tuple[str, int, str]]


def _both(
    records: list[Alternates], bare: Callable[[list[str]], list[Alternates]] | None = None
) -> tuple[Shown, Shown]:
    def shown(problems: Iterable[Problem]) -> Shown:
        return [(p.rule.code, p.record.line, p.message) for p in problems]

    return shown(check_alternates(records, bare)), shown(_reference(records, bare))


def _shared(pages: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((code, url) for url, code in pages.items()))


EN, DE, FR, IT = (f"https://example.com/{code}/" for code in ("en", "de", "fr", "it"))


def _checked(
    records: list[Alternates], bare: Callable[[list[str]], list[Alternates]] | None = None
) -> list[tuple[str, int]]:
    """The code and line of each problem check_alternates finds, once they equal the
    reference's."""
    ours, reference = _both(records, bare)
    assert ours == reference
    return [(code, line) for code, line, _message in ours]


def test_a_shared_tuple_pointing_at_a_page_without_a_record() -> None:
    # en and de share the tuple; fr has no entry (or one without alternates, bare).
    links = _shared({EN: "en", DE: "de", FR: "fr"})
    records = [Alternates(EN, 3, 3, links), Alternates(DE, 8, 3, links)]
    ours, reference = _both(records)
    assert ours == reference
    assert [code for code, _line, _message in ours] == ["HL008"]

    def bare(urls: list[str]) -> list[Alternates]:
        assert urls == [FR]
        return [Alternates(FR, 20, 5, (), kind="bare")]

    ours, reference = _both(records, bare)
    assert ours == reference
    assert [(code, line) for code, line, _message in ours] == [("HL008", 3), ("HL006", 20)]
    assert "2 pages list this page" in ours[1][2]


def test_a_shared_tuple_with_a_duplicate_page() -> None:
    # The second entry for en lists more; en's first entry is the one others point at.
    links = _shared({EN: "en", DE: "de"})
    more = _shared({EN: "en", DE: "de", FR: "fr", EN + "x": "x-default"})
    records = [
        Alternates(EN, 3, 3, links),
        Alternates(DE, 8, 3, links),
        Alternates(EN, 13, 3, more),
        Alternates(FR, 18, 3, more),
    ]
    ours, reference = _both(records)
    assert ours == reference
    assert ours  # fr is not listed back by the first en entry nor by de
    assert {code for code, _line, _message in ours} >= {"HL006"}


def test_a_shared_tuple_with_a_duplicate_page_listed_first() -> None:
    # The first en entry lists only itself and fr; the en/de pair points at it.
    links = _shared({EN: "en", DE: "de"})
    records = [
        Alternates(EN, 3, 3, _shared({EN: "en", FR: "fr"})),
        Alternates(EN, 8, 3, links),
        Alternates(DE, 13, 3, links),
    ]
    assert ("HL006", 3) in _checked(records)


def test_a_shared_tuple_with_a_defective_target() -> None:
    links = _shared({EN: "en", DE: "de", FR: "fr"})
    records = [
        Alternates(EN, 3, 3, links),
        Alternates(FR, 8, 3, (), kind="defective"),
        Alternates(DE, 13, 3, links),
    ]
    ours, reference = _both(records)
    assert ours == reference
    # fr is left to its own findings; en and de are one cluster of three languages.
    assert [(code, line) for code, line, _message in ours] == [("HL008", 3)]


def test_a_shared_tuple_pointing_at_a_page_that_lists_others() -> None:
    links = _shared({EN: "en", DE: "de", FR: "fr"})
    records = [
        Alternates(EN, 3, 3, links),
        Alternates(DE, 8, 3, links),
        Alternates(FR, 13, 3, _shared({FR: "fr", IT: "it"})),
        Alternates(IT, 18, 3, _shared({FR: "fr", IT: "it"})),
    ]
    assert ("HL006", 13) in _checked(records)


def test_a_shared_tuple_pointing_at_other_links_and_at_a_page_without_alternates() -> None:
    # The tuple's first page lists other alternates, and its last has none at all.
    links = _shared({DE: "de", EN: "en", FR: "fr"})
    records = [
        Alternates(EN, 3, 3, links),
        Alternates(DE, 8, 3, _shared({DE: "de", EN: "en", IT: "it"})),
        Alternates(IT, 13, 3, _shared({DE: "de", EN: "en", IT: "it"})),
    ]

    def bare(urls: list[str]) -> list[Alternates]:
        assert urls == [FR]
        return [Alternates(FR, 20, 5, (), kind="bare")]

    assert ("HL006", 20) in _checked(records, bare)


def test_two_shared_tuples_joined_by_a_third_record() -> None:
    # Two clusters, each closed on itself, then an entry whose links join them both.
    first = _shared({EN: "en", DE: "de"})
    second = _shared({FR: "fr", IT: "it"})
    records = [
        Alternates(EN, 3, 3, first),
        Alternates(DE, 8, 3, first),
        Alternates(FR, 13, 3, second),
        Alternates(IT, 18, 3, second),
    ]
    ours, reference = _both(records)
    assert ours == reference
    joined = [*records, Alternates(EN + "all", 23, 3, _shared({EN + "all": "en", FR: "fr"}))]
    ours, reference = _both(joined)
    assert ours == reference
    assert any(code == "HL006" for code, _line, _message in ours)


def _random_records(rng: random.Random) -> tuple[list[Alternates], list[str]]:
    pool = [f"https://example.com/{i}" for i in range(rng.randint(2, 12))]
    codes = ["en", "de", "fr", "it", "en-GB", "de-AT", "x-default"]
    interned: dict[Any, Any] = {}
    records: list[Alternates] = []
    for _cluster in range(rng.randint(1, 5)):
        members = rng.sample(pool, rng.randint(1, min(4, len(pool))))
        given = rng.sample(codes, len(members))
        base = dict(zip(members, given, strict=True))
        if rng.random() < 0.3:
            base.setdefault(rng.choice(pool), "x-default")
        for page in members:
            links = dict(base)
            roll = rng.random()
            if roll < 0.15 and len(links) > 1:  # a link dropped (never the page's own)
                del links[rng.choice([url for url in links if url != page])]
            elif roll < 0.3:  # a link added, maybe to a page without a record
                links.setdefault(rng.choice([*pool, "https://example.com/none"]), "it")
            elif roll < 0.4:  # a page given another code
                links[rng.choice(list(links))] = rng.choice(codes)
            links[page] = base[page]
            pairs = tuple(sorted((code, url) for url, code in links.items()))
            pairs = interned.setdefault(pairs, pairs)
            records.append(Alternates(page, 0, 3, pairs))
            if rng.random() < 0.1:  # the page again, with the same or other alternates
                records.append(Alternates(page, 0, 3, rng.choice([pairs, ((base[page], page),)])))
    for page in rng.sample(pool, rng.randint(0, 2)):
        records.append(Alternates(page, 0, 3, (), kind="defective"))
    rng.shuffle(records)
    numbered = [
        Alternates(r.page, 3 + 5 * i, r.column, r.links, r.file, r.kind)
        for i, r in enumerate(records)
    ]
    return numbered, rng.sample(pool, rng.randint(0, len(pool)))


@pytest.mark.parametrize("seed", range(10))
def test_random_records_give_what_every_link_gives(seed: int) -> None:
    rng = random.Random(seed)
    for _case in range(300):
        records, without = _random_records(rng)

        def bare(urls: list[str], without: list[str] = without) -> list[Alternates]:
            chosen = [url for url in urls if url in without]
            return [Alternates(url, 900 + i, 5, (), kind="bare") for i, url in enumerate(chosen)]

        for given in (None, bare) if without else (None,):
            ours, reference = _both(records, given)
            assert ours == reference, records


def test_a_cluster_that_does_not_list_back_a_page_gets_no_x_default_advice() -> None:
    # en (with x-default) lists de; de and fr list each other but not en: de's missing
    # link is the defect, and the x-default en gives is not yet de's to lack.
    with_default = (("de", DE), ("en", EN), ("x-default", EN))
    links = _shared({DE: "de", FR: "fr"})
    records = [
        Alternates(EN, 3, 3, with_default),
        Alternates(DE, 8, 3, links),
        Alternates(FR, 13, 3, links),
    ]
    assert _checked(records) == [("HL006", 8)]
