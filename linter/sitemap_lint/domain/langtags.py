"""Language tags: the ISO 639, ISO 15924 and ISO 3166-1 look-ups behind hreflang values
and ``news:language``, in one place.

The data come from pycountry, loaded on first use only (loading it costs start-up
time that runs without such values should not pay); every look-up is cached, since a
sitemap repeats a few codes many times. The code look-ups read pycountry's own data
files (ISO 639-3, ISO 15924, ISO 3166-1 and -3, found without importing the package)
into one index each, as its ``Database.get`` does: importing pycountry costs about
45 ms, most of it the package's version read through ``importlib.metadata``, and its
first look-up 25 ms more, against about 10 ms for the files. Where the files are not
where they are expected, the look-ups go through pycountry's API.

Why not the ``langcodes`` package: it is measured and compared in the README
(Dependencies). In short, its alias data map ``tl`` to ``fil``, which is wrong where
only ISO 639-1 codes are allowed, its names need a second package, and it adds nothing
our rules need beyond the five withdrawn codes below.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

# ISO 639-1 codes that were withdrawn, still written by old generators: the code that
# replaced each (the IANA language subtag registry's Preferred-Value).
WITHDRAWN_LANGUAGES = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"}

_SUBTAG_SEPARATOR = re.compile(r"[-_]")
_VARIANT = re.compile(r"[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}")
_QUALIFIERS = re.compile(r"^modern\s+|\s*\(.*\)$")


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


# pycountry's databases: the file of each, the key its entries stand under, the fields
# looked up here.
_DATABASES = {
    "languages": ("iso639-3.json", "639-3", ("alpha_2", "alpha_3", "bibliographic")),
    "scripts": ("iso15924.json", "15924", ("alpha_4",)),
    "countries": ("iso3166-1.json", "3166-1", ("alpha_2", "alpha_3")),
    "historic_countries": ("iso3166-3.json", "3166-3", ("alpha_2",)),
}
# What the look-ups above read of an entry (the rest is not kept).
_KEPT = ("name", "alpha_2", "alpha_4", "type")
_indexes: dict[str, dict[str, dict[str, Mapping[str, str]]] | None] = {}


def _lookup(database: str, field: str, value: str) -> Mapping[str, str] | None:
    """The entry of one of pycountry's databases whose ``field`` is ``value`` in any
    case, as ``pycountry.<database>.get(field=value)`` finds it (a later entry with the
    same value wins there too); None when there is none."""
    if database not in _indexes:
        _indexes[database] = _read(database)
    indexes = _indexes[database]
    if indexes is None:
        return _lookup_through_api(database, field, value)
    return indexes[field].get(value.lower())


def _read(database: str) -> dict[str, dict[str, Mapping[str, str]]] | None:
    """One index per looked-up field of a pycountry database, read from its file; None
    when the file is not where pycountry keeps it, or not in the form it had."""
    import importlib.util

    name, root, fields = _DATABASES[database]
    try:
        spec = importlib.util.find_spec("pycountry")
        places = [] if spec is None else list(spec.submodule_search_locations or [])
        with (Path(places[0]) / "databases" / name).open(encoding="utf-8") as file:
            entries = json.load(file)[root]
        indexes: dict[str, dict[str, Mapping[str, str]]] = {field: {} for field in fields}
        for entry in entries:
            kept = {key: entry[key] for key in _KEPT if key in entry}
            for field, index in indexes.items():
                found = entry.get(field)
                if found is not None:
                    index[found.lower()] = kept
        return indexes
    except (OSError, IndexError, KeyError, TypeError, AttributeError, ValueError):
        return None


def _lookup_through_api(database: str, field: str, value: str) -> Mapping[str, str] | None:
    import pycountry

    try:
        found = getattr(pycountry, database).get(**{field: value})
    except (KeyError, LookupError):
        return None
    return None if found is None else dict(found)
