"""Writes ``langtags.txt``, the table of codes ``langtags`` looks up, from pycountry's data.

    python -m sitemap_lint.domain.langdata   # after pycountry's data files changed

pycountry's ISO 639-3 file is 0.9 MB of JSON: reading it into indexes cost about
24 ms of every run that looked up a language. The table keeps what the look-ups return
and nothing else, one line a code in a section per looked-up field, each code with the
entry pycountry's ``Database.get`` finds for it (a later entry with the same code wins
there too); ``langtags`` finds a code's line with one search of its section, so reading
the table builds nothing. ``tests/domain/test_langtags.py`` holds the table to the
installed pycountry's files and to its API.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

# pycountry's databases: the file of each, the key its entries stand under, the fields
# looked up (a section of the table each).
DATABASES = {
    "languages": ("iso639-3.json", "639-3", ("alpha_2", "alpha_3", "bibliographic")),
    "scripts": ("iso15924.json", "15924", ("alpha_4",)),
    "countries": ("iso3166-1.json", "3166-1", ("alpha_2", "alpha_3")),
    "historic_countries": ("iso3166-3.json", "3166-3", ("alpha_2",)),
}
# What the look-ups read of an entry, in the order of a line's columns after the code.
KEPT = ("name", "alpha_2", "alpha_4", "type")
TABLE = Path(__file__).with_name("langtags.txt")
HEADER = (
    "# ISO 639 (languages), ISO 15924 (scripts) and ISO 3166-1 and -3 (countries): each\n"
    "# code of a looked-up field, lower case, with its entry's name, alpha_2, alpha_4 and\n"
    "# type, tab-separated (empty where the entry has none). Written from pycountry's data\n"
    "# files by `python -m sitemap_lint.domain.langdata`; not to be edited by hand.\n"
)


def pycountry_databases() -> Path:
    """The directory of pycountry's data files (found without importing the package)."""
    spec = importlib.util.find_spec("pycountry")
    if spec is None or not spec.submodule_search_locations:
        raise LookupError("pycountry is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "databases"


def section_name(database: str, field: str) -> str:
    return f"{database} {field}"


def table(databases: Path) -> str:
    """The text of the table, read from pycountry's data files in ``databases``."""
    parts = [HEADER]
    for database, (name, root, fields) in DATABASES.items():
        entries = json.loads((databases / name).read_text(encoding="utf-8"))[root]
        for field in fields:
            rows: dict[str, str] = {}
            for entry in entries:
                code = entry.get(field)
                if code is not None:
                    rows[code.lower()] = _line(code.lower(), entry)
            parts.append(f"[{section_name(database, field)}]\n")
            parts.extend(rows.values())
    return "".join(parts)


def _line(code: str, entry: dict[str, str]) -> str:
    values = [entry.get(key, "") for key in KEPT]
    if not (code.isascii() and code.isalnum()) or any(
        "\t" in value or "\n" in value or value == "" for key, value in entry.items() if key in KEPT
    ):
        raise ValueError(f"a code or value the table cannot hold: {code!r} {values!r}")
    return "\t".join([code, *values]) + "\n"


def main() -> int:
    TABLE.write_text(table(pycountry_databases()), encoding="utf-8")
    sys.stdout.write(f"wrote {TABLE}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
