"""domain.langtags: the ISO look-ups behind hreflang and news:language, in one place."""

from __future__ import annotations

import pytest

from sitemap_lint.domain import langdata, langtags
from sitemap_lint.domain.langtags import Country, Language
from sitemap_lint.rules import hreflang, news


@pytest.mark.parametrize(
    ("old", "new"),
    [("iw", "he"), ("in", "id"), ("ji", "yi"), ("jw", "jv"), ("mo", "ro"), ("IW", "he")],
)
def test_withdrawn_language_names_its_replacement(old: str, new: str) -> None:
    assert langtags.withdrawn_language(old) == new
    assert langtags.language(old) is None  # no longer an ISO 639-1 code
    assert langtags.language(new) is not None


@pytest.mark.parametrize("code", ["he", "tl", "sh", "no", "en", "EN"])
def test_current_codes_are_not_withdrawn(code: str) -> None:
    """tl (Tagalog) and sh (Serbo-Croatian) are current ISO 639-1 codes, whatever CLDR's
    aliases say (tl -> fil, sh -> sr-Latn); hreflang takes them as they are."""
    assert langtags.withdrawn_language(code) is None
    assert langtags.language(code) is not None


def test_language_lookups() -> None:
    assert langtags.language("de") == Language("German", "de", False)
    assert langtags.language("deu") == Language("German", "de", False)
    assert langtags.language("ger") == Language("German", "de", False)  # ISO 639-2/B
    assert langtags.language("fil") == Language("Filipino", None, False)  # no 639-1 code
    assert langtags.language("und") is not None and langtags.language("und").special
    assert langtags.language("xx") is None
    assert langtags.language("english") is None


def test_scripts_and_countries() -> None:
    assert langtags.script("hant") == "Hant"
    assert langtags.script("Zzzz") == "Zzzz"
    assert langtags.script("Abcd") is None
    assert langtags.country("gb") == Country("United Kingdom", "GB")
    assert langtags.country("DEU") == Country("Germany", "DE")
    assert langtags.country("UK") is None
    assert langtags.withdrawn_country("yu") is not None
    assert langtags.withdrawn_country("DE") is None


def test_language_for_name() -> None:
    assert langtags.language_for_name("English") == "en"
    assert langtags.language_for_name("Greek") == "el"  # "Modern Greek (1453-)"
    assert langtags.language_for_name("Klingonese") is None


def test_split_subtags() -> None:
    assert langtags.split_subtags("zh_Hant-TW") == ["zh", "Hant", "TW"]


@pytest.mark.parametrize(
    ("tag", "core", "variants", "tail"),
    [
        ("en", ["en"], [], []),
        ("zh-Hant-TW", ["zh", "Hant", "TW"], [], []),
        ("de-DE-1996", ["de", "DE"], ["1996"], []),
        ("sl-rozaj-biske", ["sl"], ["rozaj", "biske"], []),
        ("en-GB-oxendict-x-foo", ["en", "GB"], ["oxendict"], ["x", "foo"]),
        ("en-a-bbb-x-c", ["en"], [], ["a", "bbb", "x", "c"]),
        ("x-foo", ["x", "foo"], [], []),  # a first-subtag singleton is the caller's to judge
        ("en-Latn", ["en", "Latn"], [], []),  # four letters: a script, not a variant
    ],
)
def test_split_tag(tag: str, core: list[str], variants: list[str], tail: list[str]) -> None:
    assert langtags.split_tag(langtags.split_subtags(tag)) == (core, variants, tail)


@pytest.mark.parametrize(
    ("value", "canonical"),
    [
        ("en", "en"),
        ("EN-gb", "en-GB"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("sr-Latn", "sr-Latn"),
        ("x-default", "x-default"),
        ("X-Default", "x-default"),
        ("tl", "tl"),
    ],
)
def test_hreflang_codes_accepted(value: str, canonical: str) -> None:
    assert hreflang.check_code(value).canonical == canonical


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("iw", "withdrawn code for Hebrew, now 'he'; write hreflang=\"he\""),
        ("in-ID", 'write hreflang="id-ID"'),
        ("ji", 'write hreflang="yi"'),
        ("mo", 'write hreflang="ro"'),
        ("en-UK", 'write hreflang="en-GB"'),
        (
            "en-x-private",
            "'x-private' is private use, which hreflang does not take; write hreflang=\"en\"",
        ),
        ("x-private", "'x-private' is a private-use code, which hreflang does not take"),
        ("en-GB-oxendict", "'oxendict' cannot follow"),  # after a region: as before
        ("de-1996", 'which hreflang does not take; write hreflang="de"'),
        ("en-a-bbb", "'a-bbb' is an extension"),
        ("pt-brazil", "'brazil' is not an ISO 3166-1 alpha-2 region"),  # meant as the region
        ("es-419", "numeric regions such as '419' are not supported"),
    ],
)
def test_hreflang_codes_rejected(value: str, text: str) -> None:
    verdict = hreflang.check_code(value)
    assert verdict.canonical is None
    assert verdict.message is not None and text in verdict.message


def test_news_uses_the_same_withdrawn_table() -> None:
    assert news._unknown_language("iw") == (
        "<news:language> 'iw' is a withdrawn ISO 639 code (Hebrew); write he"
    )
    assert news._language_fix("in-ID") == "id"


def test_the_table_is_written_from_the_installed_pycountry() -> None:
    """langtags.txt is what domain.langdata writes from pycountry's data files now: after
    pycountry's data change, `python -m sitemap_lint.domain.langdata` writes it again."""
    written = langdata.table(langdata.pycountry_databases())
    assert langdata.TABLE.read_text(encoding="utf-8") == written


def test_the_table_finds_what_pycountry_finds() -> None:
    """Every two- and three-letter code (and every script code, with some that are
    none) finds in the table what pycountry's own look-up finds."""
    from itertools import product
    from string import ascii_lowercase

    import pycountry

    pairs = ["".join(letters) for letters in product(ascii_lowercase, repeat=2)]
    triples = ["".join(letters) for letters in product(ascii_lowercase, repeat=3)]
    scripts = [script.alpha_4 for script in pycountry.scripts] + ["Abcd", "zzzy", "latn"]
    cases = [
        *(("languages", "alpha_2", code) for code in pairs),
        *(("languages", "alpha_3", code) for code in triples),
        *(("languages", "bibliographic", code) for code in triples),
        *(("scripts", "alpha_4", code) for code in scripts),
        *(("countries", "alpha_2", code.upper()) for code in pairs),
        *(("countries", "alpha_3", code) for code in triples),
        *(("historic_countries", "alpha_2", code) for code in pairs),
    ]
    found = 0
    for database, field, value in cases:
        direct = langtags._lookup(database, field, value)
        entry = getattr(pycountry, database).get(**{field: value})
        expected = None if entry is None else dict(entry)
        if expected is not None:
            expected = {key: expected[key] for key in langdata.KEPT if key in expected}
        assert direct == expected, (database, field, value)
        found += direct is not None
    assert found > 7000  # the languages' three-letter codes, at least


@pytest.mark.parametrize(
    "code",
    ["e\tn", "en\nde", "e-n", "", "\u0130t", "d\u00e9"],
)
def test_what_no_code_can_be_is_found_in_no_line(code: str) -> None:
    """A value with a tab, a line break or a letter outside ASCII matches no line."""
    assert langtags._lookup("languages", "alpha_2", code) is None
    assert langtags._lookup("languages", "alpha_3", code) is None


def test_a_look_up_is_in_any_case() -> None:
    assert langtags._lookup("countries", "alpha_2", "gB") == {
        "name": "United Kingdom",
        "alpha_2": "GB",
    }
    assert langtags.language("\u212ao") == langtags.language("ko")  # the Kelvin sign: k


@pytest.mark.parametrize(
    ("tag", "preferred"),
    [("zh-min-nan", "nan"), ("NO-BOK", "nb"), ("en-GB-oed", "en-GB-oxendict"), ("i-default", "")],
)
def test_grandfathered_tag_names_its_replacement(tag: str, preferred: str) -> None:
    assert langtags.grandfathered(tag) == preferred


@pytest.mark.parametrize("tag", ["zh-Hant", "en-GB", "no", "nan"])
def test_other_tags_are_not_grandfathered(tag: str) -> None:
    assert langtags.grandfathered(tag) is None
