"""Language tags: the ISO 639, ISO 15924 and ISO 3166-1 look-ups behind hreflang values
and ``news:language``, in one place.

The code look-ups read ``langtags.txt``, the codes of pycountry's data files with what
the look-ups return of their entries (written by ``domain.langdata``), once, on the first
look-up; each look-up finds its code's line with one search of its section (no index is
built) and is cached, since a sitemap repeats a few codes many times. Reading
pycountry's own files cost about 24 ms a run (the ISO 639-3 file is 0.9 MB of JSON),
importing pycountry about 45 ms and its first look-up 25 ms more; pycountry's API is
still the way from a language's name to its code (``language_for_name``).

Why not the ``langcodes`` package: it is measured and compared in the README
(Dependencies). In short, its alias data map ``tl`` to ``fil``, which is wrong where
only ISO 639-1 codes are allowed, its names need a second package, and it adds nothing
our rules need beyond the five withdrawn codes below.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache

from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.records import NamedTuple

# ISO 639-1 codes that were withdrawn, still written by old generators: the code that
# replaced each (the IANA language subtag registry's Preferred-Value).
WITHDRAWN_LANGUAGES = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"}

# The grandfathered tags of RFC 5646 (2.2.8) that people still write, in lower case: the
# tag that replaced each (the IANA registry's Preferred-Value), or "" where none did.
GRANDFATHERED = {
    "art-lojban": "jbo",
    "cel-gaulish": "",
    "en-gb-oed": "en-GB-oxendict",
    "i-ami": "ami",
    "i-bnn": "bnn",
    "i-default": "",
    "i-enochian": "",
    "i-hak": "hak",
    "i-klingon": "tlh",
    "i-lux": "lb",
    "i-mingo": "",
    "i-navajo": "nv",
    "i-pwn": "pwn",
    "i-tao": "tao",
    "i-tay": "tay",
    "i-tsu": "tsu",
    "no-bok": "nb",
    "no-nyn": "nn",
    "sgn-be-fr": "sfb",
    "sgn-be-nl": "vgt",
    "sgn-ch-de": "sgg",
    "zh-guoyu": "cmn",
    "zh-hakka": "hak",
    "zh-min": "",
    "zh-min-nan": "nan",
    "zh-xiang": "hsn",
}

_SUBTAG_SEPARATOR = lazy(r"[-_]")
_VARIANT = lazy(r"[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}")
_QUALIFIERS = lazy(r"^modern\s+|\s*\(.*\)$")


class Language(NamedTuple):
    """An ISO 639 language."""

    name: str
    alpha_2: str | None  # its ISO 639-1 code, when it has one
    special: bool  # one of ISO 639-2's special codes (und, mul, zxx, mis), not a language


class Country(NamedTuple):
    """An ISO 3166-1 country (or a withdrawn one)."""

    name: str
    alpha_2: str


def split_subtags(tag: str) -> list[str]:
    """A tag's subtags, split at '-' or at the '_' people write instead."""
    return _SUBTAG_SEPARATOR.split(tag)


class TagParts(NamedTuple):
    """A BCP 47 tag's subtags, split as RFC 5646 orders them."""

    core: list[str]  # the language, then the script and region when there are
    variants: list[str]  # variants after them (``1996``, ``valencia``, ``oxendict``)
    tail: list[str]  # from the first singleton on: extensions (``a-bbb``), private use (``x-foo``)


def split_tag(subtags: list[str]) -> TagParts:
    """Where a tag's variants, extensions and private use start (RFC 5646, 2.1): a
    singleton starts the tail; variants are 5 to 8 letters or digits, or a digit and
    three more, at the end of what comes before it. The first subtag is always core."""
    end = next((i for i, part in enumerate(subtags) if i and len(part) == 1), len(subtags))
    head, tail = subtags[:end], subtags[end:]
    start = len(head)
    while start > 1 and _VARIANT.fullmatch(head[start - 1]):
        start -= 1
    return TagParts(head[:start], head[start:], tail)


def withdrawn_language(code: str) -> str | None:
    """The code that replaced a withdrawn ISO 639-1 code (``iw`` -> ``he``), or None."""
    return WITHDRAWN_LANGUAGES.get(code.lower())


def grandfathered(tag: str) -> str | None:
    """The tag that replaced a grandfathered one (``zh-min-nan`` -> ``nan``), "" when
    none did, or None when ``tag`` is not grandfathered."""
    return GRANDFATHERED.get(tag.lower())


@lru_cache(maxsize=512)
def language(code: str) -> Language | None:
    """The ISO 639 language of a two-letter (639-1) or three-letter (639-2/T, 639-2/B,
    639-3) code, in any case; None when there is none."""
    lower = code.lower()
    if len(lower) == 2:
        found = _lookup("languages", "alpha_2", lower)
    elif len(lower) == 3:
        found = _lookup("languages", "alpha_3", lower) or _lookup(
            "languages", "bibliographic", lower
        )
    else:
        return None
    if found is None:
        return None
    return Language(found["name"], found.get("alpha_2"), found.get("type", "") == "S")


@lru_cache(maxsize=256)
def language_for_name(name: str) -> str | None:
    """The shortest ISO 639 code for a language name such as ``English`` or ``Greek``."""
    if not name.isalpha() or len(name) < 4:
        return None
    import pycountry

    try:
        found = pycountry.languages.lookup(name)
    except LookupError:
        # ISO names carry qualifiers: "Modern Greek (1453-)", "Malay (macrolanguage)".
        wanted = name.lower()
        found = next(
            (
                entry
                for entry in pycountry.languages
                if hasattr(entry, "alpha_2") and _QUALIFIERS.sub("", entry.name.lower()) == wanted
            ),
            None,
        )
        if found is None:
            return None
    code: str = getattr(found, "alpha_2", None) or found.alpha_3
    return code


@lru_cache(maxsize=512)
def script(code: str) -> str | None:
    """An ISO 15924 script code in its conventional case (``hant`` -> ``Hant``), or None."""
    found = _lookup("scripts", "alpha_4", code)
    return None if found is None else found["alpha_4"]


@lru_cache(maxsize=512)
def country(code: str) -> Country | None:
    """The ISO 3166-1 country of a two- or three-letter code, in any case; or None."""
    key = "alpha_2" if len(code) == 2 else "alpha_3" if len(code) == 3 else ""
    if not key:
        return None
    found = _lookup("countries", key, code)
    return None if found is None else Country(found["name"], found["alpha_2"])


@lru_cache(maxsize=256)
def withdrawn_country(code: str) -> Country | None:
    """A two-letter region ISO 3166-1 withdrew (``YU``), or None."""
    found = _lookup("historic_countries", "alpha_2", code)
    return None if found is None else Country(found["name"], found["alpha_2"])


_TABLE = os.path.join(os.path.dirname(__file__), "langtags.txt")
# What a line holds after its code (domain.langdata.KEPT).
_KEPT = ("name", "alpha_2", "alpha_4", "type")
_table: list[bytes] = []  # the table's bytes, once read
_sections: dict[str, tuple[int, int]] = {}  # where each section's lines are in them


def _lookup(database: str, field: str, value: str) -> Mapping[str, str] | None:
    """The entry of one of pycountry's databases whose ``field`` is ``value`` in any
    case, as ``pycountry.<database>.get(field=value)`` finds it; None when there is none.
    The table stays bytes (searched without decoding it); a found line is decoded."""
    code = value.lower()
    if not (code.isascii() and code.isalnum()):  # as every code of the table is
        return None
    table = _read()
    start, end = _section(table, f"[{database} {field}]")
    found = table.find(b"\n%s\t" % code.encode(), start, end)
    if found < 0:
        return None
    line = table[found + len(code) + 2 : table.index(b"\n", found + 1)]
    values = line.decode("utf-8").split("\t")
    return {key: kept for key, kept in zip(_KEPT, values, strict=True) if kept}


def _read() -> bytes:
    if not _table:
        with open(_TABLE, "rb") as file:
            _table.append(file.read())
    return _table[0]


def _section(table: bytes, title: str) -> tuple[int, int]:
    """Where a section's lines are: from the line break that ends its title to the one
    before the next title (or the end)."""
    if title not in _sections:
        start = table.index(b"\n%s\n" % title.encode()) + len(title) + 1
        end = table.find(b"\n[", start)
        _sections[title] = (start, len(table) if end < 0 else end + 1)
    return _sections[title]
