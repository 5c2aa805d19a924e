"""hreflang rules: `xhtml:link` alternates inside `url`.

Each link is checked on its own as it arrives (attributes, language code,
URL). At the end of each entry its alternates are checked as a whole (lists
itself, one URL per code) and kept as one ``Alternates`` record (whose links
count when they are free of defects) in the file's ``AlternatesTable``: columns
of ints, each distinct list of links once, its URLs compressed, compared by
hash. At the end of the file the pure function ``check_alternates`` compares the
records: return links, clusters that disagree, `x-default`. It takes records
(a table, or any) and yields ``Problem``s, so a check across several files can
feed it the records of all of them.

Language codes are validated against ISO 639, ISO 15924 and ISO 3166-1 through
``domain.langtags`` (pycountry's codes, read on first use only), and each verdict is
cached per value: a sitemap has few distinct codes, so 200,000 links cost 200,000
dictionary look-ups.
"""

from __future__ import annotations

import zlib
from array import array
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from heapq import merge
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, overload
from weakref import WeakKeyDictionary

from sitemap_lint.domain import langtags
from sitemap_lint.domain.identity import normal_url
from sitemap_lint.finding import Finding, Rule
from sitemap_lint.fix.model import shown_attribute
from sitemap_lint.model import XHTML_NS, EntryPointer, Node, loc_index
from sitemap_lint.rules.base import ERROR, INFO, WARNING, check, rule
from sitemap_lint.rules.entry import EntryContext, FileContext
from sitemap_lint.rules.registry import stateful
from sitemap_lint.rules.structure import Covers, Reporter
from sitemap_lint.rules.urls import (
    LOCAL_HOST,
    LONG_FOR_YANDEX,
    NON_ASCII,
    NOT_CANONICAL,
    TOO_LONG,
    TOO_SHORT,
    check_url,
)
from sitemap_lint.rules.urls import RULES as URL_RULES
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.records import Frozen, NamedTuple, slot_setters
from sitemap_lint.support.words import joined

if TYPE_CHECKING:
    pass

NAMESPACE = XHTML_NS

LINK_INCOMPLETE = rule(
    "HL001",
    "hreflang-link-incomplete",
    ERROR,
    summary="An `xhtml:link` without `rel`, `hreflang` or `href`",
    what="""
        Checks that every `xhtml:link` in a `url` has the three attributes of an
        hreflang alternate, `rel`, `hreflang` and `href`, each with a value, and
        names the ones that are missing or empty, and the attribute written for
        one of them (`hrefLang`, `xhtml:href`, `url`) to be renamed, or the child
        element written for it (`<xhtml:hreflang>en</xhtml:hreflang>`), whose
        value the finding's fix writes as an attribute. A link to an
        app (`android-app://`, `ios-app://`) without `hreflang` is an App
        Indexing deep link, not an alternate: it is reported as one, to remove.
    """,
    why="""
        Without its language code or its URL the link says nothing, and without
        `rel="alternate"` it is not an alternate: search engines ignore it, and
        the other versions of the page lose their link to this one.
    """,
    bad="""
        <xhtml:link rel="alternate" href="https://example.com/de/"/>
    """,
    good="""
        <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
    """,
)

REL_NOT_ALTERNATE = rule(
    "HL002",
    "hreflang-rel-not-alternate",
    ERROR,
    summary="An `xhtml:link` whose `rel` is not `alternate`",
    what="""
        Checks that the `rel` of each `xhtml:link` in a `url` is `alternate`
        (in any case, possibly among other link types).
    """,
    why="""
        Sitemaps use `xhtml:link` only for language and regional alternates.
        Other link types (`canonical`, `next`, a typo such as `alternative`) are
        ignored, so the alternate the link was meant to declare is lost.
    """,
    bad="""
        <xhtml:link rel="alternative" hreflang="de" href="https://example.com/de/"/>
    """,
    good="""
        <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
    """,
)

CODE_INVALID = rule(
    "HL003",
    "hreflang-code-invalid",
    ERROR,
    summary="An `hreflang` that is not a valid language code",
    what="""
        Checks each `hreflang` against the form Google accepts: an ISO 639-1
        language, optionally followed by an ISO 15924 script and an ISO 3166-1
        alpha-2 region, separated by hyphens (`en`, `en-GB`, `zh-Hant-TW`), or
        `x-default`. Codes are compared without regard to case. The message
        names the fix for the usual mistakes: an underscore (`en_GB`), `UK` for
        the United Kingdom (`GB`), a three-letter language (`eng`), a country
        where the language belongs (`jp` for Japanese, `ja`), withdrawn codes
        (`iw`), grandfathered tags (`no-bok` for `nb`, `zh-min-nan`), numeric
        regions (`es-419`), a script after the region (`zh-TW-Hant` for
        `zh-Hant-TW`).
    """,
    why="""
        Search engines ignore alternates whose code they cannot read, so the
        page is not shown to the users it was written for. Codes with an
        underscore or other characters are also invalid against the schema.
    """,
    bad="""
        <xhtml:link rel="alternate" hreflang="en-UK" href="https://example.com/uk/"/>
    """,
    good="""
        <xhtml:link rel="alternate" hreflang="en-GB" href="https://example.com/uk/"/>
    """,
)

SELF_MISSING = rule(
    "HL004",
    "hreflang-self-missing",
    ERROR,
    summary="An entry's alternates do not include the page itself",
    what="""
        Checks that an entry with alternates lists its own `loc` among them
        (compared in normal form: the host's case, a default port and an empty
        path do not matter), and points out a link that differs from it only by
        the case of its path or a trailing slash. It is an error, as Google's
        documentation says each version "must" list itself; a warning under the
        `bing` profile.
    """,
    why="""
        Each version of a page must list all versions, itself included; without
        the link to itself the set of alternates is incomplete and search
        engines may not apply it to this page.
    """,
    bad="""
        <url>
          <loc>https://example.com/en/</loc>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/en/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
          <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/"/>
        </url>
    """,
)

CODE_DUPLICATE = rule(
    "HL005",
    "hreflang-code-duplicate",
    ERROR,
    summary="The same `hreflang` twice with different URLs in one entry",
    what="""
        Detects an entry that gives two different URLs for one language code
        (compared without regard to case): the finding stands at each later link
        that gives the code another URL, and names the first one's URL and line.
    """,
    why="""
        One code can stand for one version of the page only. Search engines
        cannot tell which URL is meant and may ignore both.
    """,
    bad="""
        <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
        <xhtml:link rel="alternate" hreflang="de" href="https://example.com/at/"/>
    """,
    good="""
        <xhtml:link rel="alternate" hreflang="de-DE" href="https://example.com/de/"/>
        <xhtml:link rel="alternate" hreflang="de-AT" href="https://example.com/at/"/>
    """,
)

RETURN_LINK_MISSING = rule(
    "HL006",
    "hreflang-return-link-missing",
    ERROR,
    summary="A page listed as an alternate by another entry does not list it back",
    what="""
        For each entry B of the file (or of the set) that another entry A lists
        as an alternate, checks that B's alternates include A, also when B has
        no alternates at all. One finding per entry names the entries it fails
        to list back (the first three by URL, whatever the order of the entries
        and files) and the link to add. An entry whose alternates have a
        defect of their own (a link without a valid code or a usable href, a
        code given twice, the page not listing itself: HL001-HL005 and the URL
        rules on href) is left out of this comparison until that defect is
        fixed, so that one defect does not come back as findings on every page
        of its cluster; a URL finding that leaves no doubt which page the href
        names (UR003, UR011, UR012, UR018) does not leave it out.
    """,
    why="""
        Alternates must be confirmed from both sides; search engines ignore a
        link that the other page does not return, so neither page is shown as
        the other's language version.
    """,
    bad="""
        <url>
          <loc>https://example.com/en/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
        </url>
        <url>
          <loc>https://example.com/de/</loc>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/en/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
          <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/"/>
        </url>
        <url>
          <loc>https://example.com/de/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
          <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/"/>
        </url>
    """,
)

CLUSTER_MISMATCH = rule(
    "HL007",
    "hreflang-cluster-mismatch",
    WARNING,
    summary="Pages that list each other as alternates list different sets",
    what="""
        Groups the entries that list each other as alternates into clusters and
        checks that every member lists the same alternates with the same codes.
        A member that differs from the set most members list gets one finding
        naming the links it lacks, the links it has in addition, and the URLs
        it gives another code. Where two sets are listed by as many members, the
        larger is the reference, and of equal ones the first by its codes and
        URLs, so the order of the entries and files does not choose; the
        finding names the reference's member of the first URL. (A missing link back to a page that lists this
        entry is reported as `hreflang-return-link-missing` instead.)
    """,
    why="""
        The versions of a page form one set. When its pages disagree about which
        versions exist or which code a version has, search engines get
        conflicting signals and may drop the disputed alternates.
    """,
    bad="""
        <url>
          <loc>https://example.com/en/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
        </url>
        <url>
          <loc>https://example.com/de/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de-DE" href="https://example.com/de/"/>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/en/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
          <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/"/>
        </url>
        <url>
          <loc>https://example.com/de/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
          <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/"/>
        </url>
    """,
)

NO_X_DEFAULT = rule(
    "HL008",
    "hreflang-no-x-default",
    INFO,
    summary="A cluster of alternates in several languages without `x-default`",
    what="""
        Reports a cluster of alternates whose codes cover two or more languages
        but that has no `x-default` alternate, at its first entry. (Regional
        versions of one language, such as `en-GB` and `en-US`, do not count as
        several languages.) When no cluster of the file has `x-default`, one
        finding at the first cluster gives their number instead of one per
        cluster. A cluster with a page that does not list back a page listing it
        is left out until that link is added (`hreflang-return-link-missing`):
        the `x-default` may be on the page it lacks.
    """,
    why="""
        `x-default` names the version for users whose language matches none of
        the listed ones, often a language chooser or the international version.
        Without it search engines pick one themselves. It is optional, so this
        is advice only.
    """,
    bad="""
        <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
        <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
    """,
    good="""
        <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
        <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
        <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/"/>
    """,
)

NOT_LISTED = rule(
    "HL009",
    "hreflang-alternate-not-listed",
    WARNING,
    summary="An alternate's URL is the `<loc>` of no entry of the sitemap (or of its set)",
    what="""
        Checks that the `href` of each `xhtml:link rel="alternate"` is the `loc`
        of an entry: of the same file, or, where the file is checked with the
        other files of its set (an index and its sitemaps, a robots.txt's, files
        named together), of any file of the set, as
        `hreflang-return-link-missing` decides it. URLs are compared in their
        normal form (the host's case, a default port, an empty path, dot
        segments, how a character is escaped). One finding per URL not listed,
        at the first entry (in the order of the files and their entries) whose
        alternates name it, however many entries name it: the entry, not the
        link, as the checks across entries keep each entry's place, not each
        link's. An alternate on another site (scheme, host or port) than the
        entry's page is left to that site's sitemap, and so is an alternate in
        a language none of the file's pages (of the set's, in a set) is in, by
        the codes the pages give themselves: the site then has a sitemap per
        language, and that language's sitemap, not checked with this one, lists
        it. The alternates of an entry
        left out of the comparisons for a defect of their own (HL001-HL005) are
        looked at once it is fixed.
    """,
    why="""
        Google asks that each language version of a page be listed in the
        sitemap with its own `url` entry, and its own alternates. A version
        named only as another page's alternate confirms nothing from its side,
        so search engines may ignore the links to it; often it is a page the
        generator left out, or a URL written otherwise than its `loc`.
    """,
    bad="""
        <url>
          <loc>https://example.com/en/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
        </url>
        <url>
          <loc>https://example.com/de/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
        </url>
        <url>
          <loc>https://example.com/en/contact</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/contact"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/kontakt"/>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/en/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
          <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/"/>
        </url>
        <url>
          <loc>https://example.com/de/</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
          <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/"/>
        </url>
        <url>
          <loc>https://example.com/en/contact</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/contact"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/kontakt"/>
          <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/contact"/>
        </url>
        <url>
          <loc>https://example.com/de/kontakt</loc>
          <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/contact"/>
          <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/kontakt"/>
          <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/contact"/>
        </url>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "hreflang alternates"
ORDER = 160

RULES = (
    LINK_INCOMPLETE,
    REL_NOT_ALTERNATE,
    CODE_INVALID,
    SELF_MISSING,
    CODE_DUPLICATE,
    RETURN_LINK_MISSING,
    CLUSTER_MISMATCH,
    NO_X_DEFAULT,
    NOT_LISTED,
)

X_DEFAULT = "x-default"
# UN M.49 regions that hreflang values name (es-419), and a country in each: the example
# a message gives of a code to write instead.
_M49_MEMBER = {
    "001": "US",  # World
    "002": "NG",  # Africa
    "005": "AR",  # South America
    "009": "AU",  # Oceania
    "013": "MX",  # Central America
    "019": "US",  # Americas
    "021": "US",  # Northern America
    "029": "CU",  # Caribbean
    "030": "CN",  # Eastern Asia
    "034": "IN",  # Southern Asia
    "035": "ID",  # South-eastern Asia
    "039": "IT",  # Southern Europe
    "142": "JP",  # Asia
    "145": "SA",  # Western Asia
    "150": "FR",  # Europe
    "151": "PL",  # Eastern Europe
    "154": "SE",  # Northern Europe
    "155": "DE",  # Western Europe
    "419": "MX",  # Latin America and the Caribbean
}
HREF_FIELD = "xhtml:link href"
# The schema's pattern for hreflang (xhtml-link.xsd, tLanguageCode): a value it
# rejects is covered by the rule's finding, so the schema error is not repeated.
_XSD_CODE = lazy(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*\Z")
# The href of an app deep link (Android's and iOS's App Indexing URLs).
_APP_LINK = lazy(r"(?i)\s*(?:android|ios)-app://")
_CACHE_LIMIT = 4096
# Longer than any language-script-region code (zh-Hant-TW has 10 characters; the
# schema allows subtags of up to 8): not parsed further.
_LONGEST_CODE = 35
# How many checked URLs a file's checker remembers, to skip checking them again and
# to store each once (records share the strings); beyond it, URLs are checked again.
_CLEAN_LIMIT = 1 << 17
SHOWN = 3  # how many pages or links a message names before "and N more"

# Suggestions for codes that are often written where another is meant. Validity
# itself comes from domain.langtags; these tables only name the intended code.
_COUNTRY_LANGUAGES = {
    "jp": "ja",
    "cn": "zh",
    "tw": "zh",
    "kr": "ko",
    "gr": "el",
    "dk": "da",
    "cz": "cs",
    "ua": "uk",
    "us": "en",
    "gb": "en",
    "at": "de",
    "il": "he",
    "ir": "fa",
    "vn": "vi",
    "se": "sv",
    "rs": "sr",
    "my": "ms",
    "ee": "et",
    "si": "sl",
    "br": "pt",
    "mx": "es",
}
_EXAMPLE_REGION = {"de": "AT", "en": "GB", "es": "MX", "fr": "CA", "pt": "BR", "zh": "TW"}
_REGION_ALIASES = {"UK": "GB", "EL": "GR"}
_X_DEFAULT_TYPOS = {"x_default", "xdefault", "default", "x-defaults", "x-defualt", "x-deafult"}


# -- per-link checks --------------------------------------------------------------------------


class CodeCheck(NamedTuple):
    """The verdict on one hreflang value."""

    canonical: str | None  # the code in its conventional case, when valid
    message: str | None  # what is wrong and how to fix it, when invalid
    schema_rejects: bool  # whether the XSD's pattern rejects the value too


_code_cache: dict[str, CodeCheck] = {}


def check_code(value: str) -> CodeCheck:
    """Validate an hreflang value; the verdict is cached per value."""
    verdict = _code_cache.get(value)
    if verdict is None:
        canonical, message = _validate_code(value)
        verdict = CodeCheck(canonical, message, _XSD_CODE.match(value) is None)
        if len(_code_cache) < _CACHE_LIMIT:
            _code_cache[value] = verdict
    return verdict


def _validate_code(value: str) -> tuple[str | None, str | None]:
    text = value.strip()
    problems: list[str] = []
    if text != value:
        problems.append("it has whitespace around it")
    lower = text.lower()
    if lower == X_DEFAULT:
        return (None, _code_message(value, problems, X_DEFAULT)) if problems else (X_DEFAULT, None)
    if lower in _X_DEFAULT_TYPOS:
        return None, _code_message(value, [f"{text!r} is not a code"], X_DEFAULT)
    if len(text) > _LONGEST_CODE:
        return None, _code_message(value, [f"it is {len(text):,} characters long"], None)
    if "_" in text:
        problems.append("subtags are separated by '-', not '_'")
    if langtags.grandfathered(text) is not None:
        return None, _grandfathered(value, text, problems)
    parts = langtags.split_subtags(text)
    if not all(parts):
        return None, _code_message(value, [*problems, "it has an empty subtag"], None)
    if parts[0].lower() == "x":
        problems.append(f"{text!r} is a private-use code, which hreflang does not take")
        return None, _code_message(value, problems, None)
    alone = len(parts) == 1
    split = langtags.split_tag(parts)
    if len(split.core) == 1 and not (split.variants and not split.variants[0][0].isdigit()):
        # A variant, extension or private use right after the language, where a region
        # would stand, is named for what it is; a word such as 'brazil' there was meant
        # as the region, and after a region they simply cannot follow (below).
        parts, variants, tail = split
    else:
        variants, tail = [], []
    language = _check_language(parts[0], alone, problems)
    fixed: list[str] | None = None if language is None else [language]
    rest = parts[1:]
    late_script = _late_script(rest)
    if late_script is not None:
        # zh-TW-Hant: the script written after the region; the fix puts it first.
        problems.append(f"the script {rest[1]!r} comes before the region, not after it")
        rest = [rest[1], rest[0]]
    if rest and len(rest[0]) == 4 and rest[0].isascii() and rest[0].isalpha():
        script = langtags.script(rest[0])
        if script is None:
            problems.append(f"{rest[0]!r} is not an ISO 15924 script")
            fixed = None
        elif fixed is not None:
            fixed.append(script)
        rest = rest[1:]
    if rest:
        region = _check_region(rest[0], parts[0], problems)
        if region is None:
            fixed = None
        elif fixed is not None:
            fixed.append(region)
        rest = rest[1:]
    if rest:
        problems.append(
            f"{'-'.join(rest)!r} cannot follow; a code is a language, "
            "optionally a script and a region"
        )
        fixed = None
    if variants:
        shown = "-".join(variants)
        what = "a variant subtag" if len(variants) == 1 else "variant subtags"
        problems.append(
            f"{shown!r} is {what} (a spelling or dialect), which hreflang does not take"
        )
    if tail:
        what = "private use" if tail[0].lower() == "x" else "an extension"
        problems.append(f"{'-'.join(tail)!r} is {what}, which hreflang does not take")
    if not problems and fixed is not None:
        return "-".join(fixed), None
    return None, _code_message(value, problems, "-".join(fixed) if fixed else None)


def _grandfathered(value: str, text: str, problems: list[str]) -> str:
    """The message on a grandfathered tag (``zh-min-nan``, ``no-bok``, ``i-klingon``):
    what replaced it, and its ISO 639-1 code when it has one."""
    preferred = langtags.grandfathered(text) or ""
    if not preferred:
        problems.append(f"{text!r} is a grandfathered tag that no language code replaced")
        return _code_message(value, problems, None)
    parts = preferred.split("-")
    language = langtags.language(parts[0])
    name = f" ({language.name})" if language is not None else ""
    if language is None or language.alpha_2 is None:
        problems.append(
            f"{text!r} is a grandfathered tag, now {preferred!r}{name}, which has no "
            "two-letter ISO 639-1 code, and hreflang takes only those"
        )
        return _code_message(value, problems, None)
    problems.append(f"{text!r} is a grandfathered tag, now {preferred!r}{name}")
    regions = [part for part in parts[1:] if len(part) == 2]
    return _code_message(value, problems, "-".join([language.alpha_2, *regions]))


def _late_script(rest: list[str]) -> str | None:
    """The script of a region followed by a script alone (TW-Hant), else None."""
    if len(rest) != 2 or len(rest[0]) != 2 or len(rest[1]) != 4:
        return None
    if not (rest[1].isascii() and rest[1].isalpha()):
        return None
    return langtags.script(rest[1])


def _check_language(tag: str, alone: bool, problems: list[str]) -> str | None:
    """The language subtag in lower case, or a suggested one; None when there is none."""
    if not (tag.isascii() and tag.isalpha()):
        problems.append(f"{tag!r} is not a language code")
        return None
    lower = tag.lower()
    if len(tag) == 2:
        if langtags.language(lower) is not None:
            return lower
        new = langtags.withdrawn_language(lower)
        if new is not None:
            replacement = langtags.language(new)
            name = replacement.name if replacement is not None else new
            problems.append(f"{tag!r} is the withdrawn code for {name}, now {new!r}")
            return new
        country = langtags.country(lower)
        if country is not None:
            guess = _COUNTRY_LANGUAGES.get(lower)
            example = f"{guess or 'xx'}-{country.alpha_2}"
            problems.append(
                f"{tag!r} is a country ({country.name}), not a language; a code starts "
                f"with the language, e.g. {example}"
            )
            if guess and alone:
                return f"{guess}-{country.alpha_2}"
            return None
        problems.append(f"{tag!r} is not an ISO 639-1 language")
        return None
    if len(tag) == 3:
        language = langtags.language(lower)
        if language is not None and language.alpha_2 is not None:
            problems.append(
                f"{tag!r} is a three-letter code; hreflang takes the two-letter ISO 639-1 "
                f"code of {language.name}, {language.alpha_2!r}"
            )
            return language.alpha_2
        if language is not None:
            problems.append(
                f"{language.name} ({tag!r}) has no two-letter ISO 639-1 code, "
                "and hreflang takes only those"
            )
            return None
    problems.append(f"{tag!r} is not an ISO 639-1 language")
    return None


def _check_region(tag: str, language: str, problems: list[str]) -> str | None:
    """The region subtag in upper case, or a suggested one; None when there is none."""
    upper = tag.upper()
    if len(tag) == 2 and tag.isascii() and tag.isalpha():
        if langtags.country(upper) is not None:
            return upper
        if upper in _REGION_ALIASES:
            new = _REGION_ALIASES[upper]
            aliased = langtags.country(new)
            name = aliased.name if aliased is not None else new
            problems.append(f"{tag!r} is not an ISO 3166-1 region; the code of {name} is {new!r}")
            return new
        old = langtags.withdrawn_country(upper)
        if old is not None:
            problems.append(f"region {tag!r} ({old.name}) was withdrawn from ISO 3166-1")
            return None
        problems.append(f"{tag!r} is not an ISO 3166-1 region")
        return None
    if len(tag) == 3 and tag.isascii() and tag.isdigit():
        member = _M49_MEMBER.get(tag)
        example = f" (e.g. {language.lower()}-{member})" if member is not None else ""
        problems.append(
            f"numeric regions such as {tag!r} are not supported; list a two-letter country "
            f"code{example} for each country, or the language alone"
        )
        return None
    if len(tag) == 3 and tag.isascii() and tag.isalpha():
        country = langtags.country(upper)
        if country is not None:
            problems.append(
                f"{tag!r} is a three-letter region; write the two-letter code {country.alpha_2!r}"
            )
            return country.alpha_2
    problems.append(f"{tag!r} is not an ISO 3166-1 alpha-2 region")
    return None


def _code_message(value: str, problems: list[str], fixed: str | None) -> str:
    head = f"hreflang {_shown(value)!r} is not a valid code: {'; '.join(problems)}"
    if fixed:
        return f'{head}; write hreflang="{fixed}"'
    if any("e.g." in problem for problem in problems):
        return head
    return (
        f"{head}; write an ISO 639-1 language, optionally with an ISO 15924 script and an "
        "ISO 3166-1 region (en, en-GB, zh-Hant-TW), or x-default"
    )


# URL findings that leave no doubt which page an href names (characters outside ASCII, a
# length over a limit, a form that is not canonical, a host only a local network
# reaches): the link still counts among the entry's alternates.
_NAMES_ITS_PAGE = frozenset(
    {NON_ASCII.code, TOO_LONG.code, LONG_FOR_YANDEX.code, NOT_CANONICAL.code, LOCAL_HOST.code}
)


class _HrefReport:
    """Passes check_url's findings on, except the minimum length of `loc`, which the
    XHTML schema does not impose on `href`; counts those that make the href unusable
    for the comparison of alternates."""

    __slots__ = ("count", "passed", "report")

    def __init__(self) -> None:
        self.report: Reporter | None = None
        self.count = 0
        self.passed = 0  # every finding passed on

    def add(self, finding: Finding, covers: Covers | None = None) -> None:
        if finding.code == TOO_SHORT.code:
            return
        self.passed += 1
        if finding.code not in _NAMES_ITS_PAGE:
            self.count += 1
        assert self.report is not None  # set before each check_url
        self.report.add(finding, covers)


# -- records and the checks across entries ----------------------------------------------------


Links: TypeAlias = tuple[tuple[str, str], ...]  # (code, href) pairs, sorted


@dataclass(init=False, repr=False, eq=False, slots=True)
class Alternates(Frozen):
    """One entry's alternates, free of defects: the page lists itself, every code is
    valid and in its conventional case, one URL per code. ``links`` is sorted and
    shared between entries that list the same set."""

    page: str
    line: int
    column: int
    links: tuple[tuple[str, str], ...]  # (code, href)
    file: str = ""  # set when records of several files are compared
    # "" for usable alternates; "bare" for an entry without any alternate (``links`` is
    # empty), "defective" for one whose alternates have a defect reported on their own.
    kind: str = ""
    # The entry's index in its file (``EntryPointer``; 0: none). The position is the
    # entry's, or its loc's for a bare one.
    index: int = 0

    def __init__(
        self,
        page: str,
        line: int,
        column: int,
        links: tuple[tuple[str, str], ...],
        file: str = "",
        kind: str = "",
        index: int = 0,
    ) -> None:
        # A file's checker makes one record per entry with alternates.
        set_page, set_line, set_column, set_links, set_file, set_kind, set_index = (
            _ALTERNATES_SETTERS
        )
        set_page(self, page)
        set_line(self, line)
        set_column(self, column)
        set_links(self, links)
        set_file(self, file)
        set_kind(self, kind)
        set_index(self, index)

    def path(self, pointer: EntryPointer | None) -> str | None:
        """The pointer to the element at the record's position: the entry, or its loc."""
        if pointer is None:
            return None
        return pointer.at_loc(self.index) if self.kind == "bare" else pointer.entry(self.index)


_ALTERNATES_SETTERS = slot_setters(Alternates)


# A record's kind in the table: "" (usable alternates), "bare", "defective".
_KINDS = ("", "bare", "defective")
_KIND_CODES = {kind: code for code, kind in enumerate(_KINDS)}
_DEFECTIVE = _KIND_CODES["defective"]
# The lists of links whose URLs one block of compressed text holds.
_LISTS_PER_BLOCK = 256


def _packed(hrefs: list[str]) -> bytes:
    """URLs joined and compressed (zlib's fastest level: a block of URLs that differ by a
    language or a page number shrinks twenty to thirty times)."""
    return zlib.compress("".join(hrefs).encode("utf-8", "surrogatepass"), 1)


class AlternatesTable(Sequence[Alternates]):
    """The ``Alternates`` records of a file (or of any sequence), in columns: for each
    record its position, its entry's index, its kind, the number of its list of links
    and where its page is among them; each distinct list of links once, as its tuple of
    codes (shared between lists with the same codes) and its URLs, whose text is kept
    compressed by blocks of lists with their lengths and hashes beside it. A record
    whose page is not among its links (a defective or bare one) keeps its page apart.

    Records read from it (by index or in order) are ``Alternates`` made on demand;
    ``check_alternates`` reads the columns. A record with the same links as the one
    before shares its list; equal lists that come apart are told equal when the check
    reads the records' numbers (``numbers``), as the hreflang checker shares equal
    tuples. The URLs' hashes and the lists' (``hash``, which differs between
    processes) are left out of a pickle and made again when needed.

    One class, longer than most: a set of 50,000 files' links is held as these columns
    (a record an object would take several times the memory), and every reading of a
    record, its pickling and the check's reading of the columns must agree on their
    layout; split, the layout would be shared between classes."""

    __slots__ = (
        "_block",
        "_blocks",
        "_code_tuples",
        "_codes",
        "_file_names",
        "_files",
        "_hashes",
        "_indexes",
        "_keys",
        "_kinds",
        "_last",
        "_last_number",
        "_lengths",
        "_lists",
        "_odd_pages",
        "_page_links",
        "_pending",
        "_positions",
        "_starts",
        "_tail",
    )

    def __init__(self, records: Iterable[Alternates] = ()) -> None:
        # Per record.
        self._positions: array[int] = array("Q")  # line << 32 | column
        self._indexes: array[int] = array("Q")
        self._kinds = bytearray()  # the index of its kind in _KINDS
        self._lists: array[int] = array("I")  # its list of links (0: none)
        self._page_links: array[int] = array("I")  # its page's link (absolute), or 0
        self._odd_pages: dict[int, str] = {}  # record -> its page, when not among its links
        self._files: array[int] | None = None  # its file's number, once one has a name
        self._file_names = [""]
        # Per list of links: its codes, its first link and its hash; list 0 is the
        # empty one.
        self._codes: list[tuple[str, ...]] = [()]
        self._starts: array[int] = array("I", [0])
        self._keys: array[int] | None = array("q", [hash(())])
        # Per link: its URL's length and hash; the URLs of each block of
        # _LISTS_PER_BLOCK lists compressed, those of the last block not yet.
        self._lengths: array[int] = array("I")
        self._hashes: array[int] | None = array("q")
        self._blocks: list[bytes] = []
        self._pending: list[str] = []
        self._tail: bytes | None = None  # the last block's, once packed (``pack``)
        self._block: tuple[int, list[str]] | None = None  # the last block read
        self._code_tuples: dict[tuple[str, ...], tuple[str, ...]] | None = {(): ()}
        self._last: Links = ()  # the last list of links added, and its number
        self._last_number = 0
        for record in records:
            self.append(record)

    def add(
        self,
        page: str,
        position: int,
        links: Links,
        index: int,
        kind: str = "",
        file: str = "",
    ) -> None:
        """A record: the entry's page, where it is (``line << 32 | column``), its links,
        its index; its kind and file as ``Alternates`` has them."""
        last = self._last
        if links is last or links == last:  # the pages of a cluster follow each other
            number = self._last_number
        else:
            number = self._last_number = self._new_list(links) if links else 0
            self._last = links
        at = self._starts[number]
        for offset, (_code, href) in enumerate(links):
            if href == page:
                self._page_links.append(at + offset)
                break
        else:
            self._odd_pages[len(self._lists)] = page
            self._page_links.append(0)
        self._lists.append(number)
        self._positions.append(position)
        self._indexes.append(index)
        self._kinds.append(_KIND_CODES[kind])
        if file or self._files is not None:
            self._add_file(file)

    def append(self, record: Alternates) -> None:
        self.add(
            record.page,
            record.line << 32 | record.column,
            record.links,
            record.index,
            record.kind,
            record.file,
        )

    def _add_file(self, file: str) -> None:
        if self._files is None:
            self._files = array("I", bytes(4 * (len(self._lists) - 1)))
        names = self._file_names
        if file not in names:
            names.append(file)
        self._files.append(names.index(file))

    def _new_list(self, links: Links) -> int:
        if self._tail is not None:  # the last block, packed, grows again
            self._pending = self._block_hrefs(len(self._blocks))
            self._tail = self._block = None
        number = len(self._codes)
        code_tuples = self._code_tuples
        if code_tuples is None:
            code_tuples = self._code_tuples = {codes: codes for codes in self._codes}
        codes, hrefs = zip(*links, strict=True)
        self._codes.append(code_tuples.setdefault(codes, codes))
        self._starts.append(len(self._lengths))
        self._lengths.extend(map(len, hrefs))
        self._pending += hrefs
        if self._hashes is not None:
            self._hashes.extend(map(hash, hrefs))
        if self._keys is not None:
            self._keys.append(hash(links))
        if (number + 1) % _LISTS_PER_BLOCK == 0:  # the block is full
            self._blocks.append(_packed(self._pending))
            self._pending = []
        return number

    def pack(self) -> None:
        """Compress the URLs of the last block too: the file is read (records added
        later are taken as before)."""
        if self._pending:
            self._tail = _packed(self._pending)
            self._pending = []

    def _first_equal(self) -> array[int] | None:
        """For each list, the number of the first list equal to it (codes, and URLs by
        hash); None when no two lists are equal."""
        keys = self._keys
        if keys is None:  # after a pickle: the hashes of this process
            keys = array("q", [hash(self.links(number)) for number in range(len(self._codes))])
            self._keys = keys
        if len(set(keys)) == len(keys):
            return None
        first = array("I", range(len(keys)))
        seen: dict[int, int] = {}
        codes, starts, hashes = self._codes, self._starts, self._hrefs_hashed()
        for number, key in enumerate(keys):
            earlier = seen.setdefault(key, number)
            while earlier != number:
                size = len(codes[number])
                at, other = starts[number], starts[earlier]
                if codes[earlier] == codes[number] and (
                    hashes[at : at + size] == hashes[other : other + size]
                ):
                    first[number] = earlier
                    break
                key += 1  # another list of the same hash: the next key
                earlier = seen.setdefault(key, number)
        return first

    # -- what check_alternates reads --------------------------------------------------------

    def __len__(self) -> int:
        return len(self._lists)

    def kinds(self) -> bytes | bytearray:
        """Each record's kind, as its index in ``_KINDS``."""
        return self._kinds

    def numbers(self) -> Sequence[int]:
        """Each record's list of links, by number (0: none); records with equal lists,
        by the number of the first."""
        first = self._first_equal()
        return self._lists if first is None else array("I", map(first.__getitem__, self._lists))

    def list_count(self) -> int:
        """How many lists of links there are, the empty one (0) included."""
        return len(self._codes)

    def page_hashes(self) -> array[int]:
        """The hash of each record's page."""
        hashes = self._hrefs_hashed()
        if hashes:
            pages = array("q", map(hashes.__getitem__, self._page_links))
        else:
            pages = array("q", bytes(8 * len(self._lists)))
        for record, page in self._odd_pages.items():
            pages[record] = hash(page)
        return pages

    def codes(self, number: int) -> tuple[str, ...]:
        """The codes of list ``number``, in its order."""
        return self._codes[number]

    def page(self, index: int) -> str:
        """The page of record ``index``."""
        odd = self._odd_pages.get(index)
        if odd is not None:
            return odd
        number = self._lists[index]
        return self.hrefs(number)[self._page_links[index] - self._starts[number]]

    def href_hashes(self, number: int) -> array[int]:
        """The hashes of the URLs of list ``number``, in its order."""
        start = self._starts[number]
        return self._hrefs_hashed()[start : start + len(self._codes[number])]

    def hrefs(self, number: int) -> list[str]:
        """The URLs of list ``number``, in its order."""
        block = number // _LISTS_PER_BLOCK
        first = self._starts[block * _LISTS_PER_BLOCK]
        start = self._starts[number] - first
        return self._block_hrefs(block)[start : start + len(self._codes[number])]

    def links(self, number: int) -> Links:
        """List ``number`` as ``Alternates.links`` has it."""
        return tuple(zip(self._codes[number], self.hrefs(number), strict=True))

    def record(self, index: int, links: Links) -> Alternates:
        """Record ``index``, given its links (``links(number)``, which a caller may share
        between the records of one list)."""
        odd = self._odd_pages.get(index)
        if odd is None:
            page = links[self._page_links[index] - self._starts[self._lists[index]]][1]
        else:
            page = odd
        position = self._positions[index]
        file = ""
        if self._files is not None:
            file = self._file_names[self._files[index]]
        return Alternates(
            page,
            position >> 32,
            position & 0xFFFFFFFF,
            links,
            file,
            _KINDS[self._kinds[index]],
            self._indexes[index],
        )

    def _hrefs_hashed(self) -> array[int]:
        hashes = self._hashes
        if hashes is None:  # after a pickle: the hashes of this process
            hashes = array("q")
            for block in range(len(self._blocks) + 1):
                hashes.extend(map(hash, self._block_hrefs(block)))
            self._hashes = hashes
        return hashes

    def _block_hrefs(self, block: int) -> list[str]:
        """The URLs of the links of the lists of ``block``."""
        last = block == len(self._blocks)
        if last and self._tail is None:
            return self._pending
        if self._block is not None and self._block[0] == block:
            return self._block[1]
        packed = self._tail if last else self._blocks[block]
        assert packed is not None
        text = zlib.decompress(packed).decode("utf-8", "surrogatepass")
        first = self._starts[block * _LISTS_PER_BLOCK]
        after = (block + 1) * _LISTS_PER_BLOCK
        end = self._starts[after] if after < len(self._starts) else len(self._lengths)
        hrefs = []
        at = 0
        for length in self._lengths[first:end]:
            hrefs.append(text[at : at + length])
            at += length
        self._block = (block, hrefs)
        return hrefs

    # -- a sequence of Alternates ----------------------------------------------------------

    @overload
    def __getitem__(self, index: int) -> Alternates: ...

    @overload
    def __getitem__(self, index: slice) -> list[Alternates]: ...

    def __getitem__(self, index: int | slice) -> Alternates | list[Alternates]:
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("record index out of range")
        return self.record(index, self.links(self._lists[index]))

    def __iter__(self) -> Iterator[Alternates]:
        last = 0
        links: Links = ()
        for index, number in enumerate(self._lists):
            if number != last:
                last, links = number, self.links(number)
            yield self.record(index, links)

    def __getstate__(self) -> dict[str, Any]:
        local = {"_hashes", "_keys", "_code_tuples", "_last", "_last_number", "_block"}
        state = {name: getattr(self, name) for name in self.__slots__ if name not in local}
        if self._pending:  # sent packed
            state["_pending"], state["_tail"] = [], _packed(self._pending)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._hashes = self._keys = self._code_tuples = self._block = None
        self._last, self._last_number = (), 0


class Problem(NamedTuple):
    """A defect found across entries, to be reported at ``record``'s position."""

    record: Alternates
    rule: Rule
    message: str

    def finding(self, pointer: EntryPointer | None) -> Finding:
        """The finding at the record, naming its element in a file of ``pointer``."""
        record = self.record
        finding = self.rule.at(record.line, record.column, self.message)
        return finding.with_xpath(record.path(pointer))


Bare: TypeAlias = Callable[[list[str]], list[Alternates]]


class _Records(Protocol):
    """What ``check_alternates`` reads of its records (``AlternatesTable``,
    ``_RecordList``): per record its kind, list of links (by number) and page (by hash);
    per list its codes and URLs; and a record made whole for a message."""

    def __len__(self) -> int: ...

    def kinds(self) -> Sequence[int]: ...

    def numbers(self) -> Sequence[int]: ...

    def list_count(self) -> int: ...

    def page_hashes(self) -> Sequence[int]: ...

    def codes(self, number: int) -> tuple[str, ...]: ...

    def page(self, index: int) -> str: ...

    def href_hashes(self, number: int) -> Sequence[int]: ...

    def hrefs(self, number: int) -> list[str]: ...

    def links(self, number: int) -> Links: ...

    def record(self, index: int, links: Links) -> Alternates: ...


class _RecordList:
    """Records given one by one, read as a table is: the records that share one links
    tuple share its number (equal tuples that are other objects do not, as the checker
    shares the equal ones), and a record is the one given."""

    def __init__(self, records: Iterable[Alternates]) -> None:
        self._records = list(records)
        self._lists: list[Links] = [()]
        by_id: dict[int, int] = {}
        self._numbers: array[int] = array("I")
        for record in self._records:
            links = record.links
            number = by_id.get(id(links), 0) if links else 0
            if links and not number:
                number = by_id[id(links)] = len(self._lists)
                self._lists.append(links)
            self._numbers.append(number)
        self._hashes: dict[int, list[int]] = {}

    def __len__(self) -> int:
        return len(self._records)

    def kinds(self) -> bytes:
        return bytes([_KIND_CODES[record.kind] for record in self._records])

    def numbers(self) -> array[int]:
        return self._numbers

    def list_count(self) -> int:
        return len(self._lists)

    def page_hashes(self) -> list[int]:
        return [hash(record.page) for record in self._records]

    def codes(self, number: int) -> tuple[str, ...]:
        return tuple([code for code, _href in self._lists[number]])

    def page(self, index: int) -> str:
        return self._records[index].page

    def href_hashes(self, number: int) -> list[int]:
        hashes = self._hashes.get(number)
        if hashes is None:
            hashes = self._hashes[number] = [hash(href) for href in self.hrefs(number)]
        return hashes

    def hrefs(self, number: int) -> list[str]:
        return [href for _code, href in self._lists[number]]

    def links(self, number: int) -> Links:
        return self._lists[number]

    def record(self, index: int, links: Links) -> Alternates:
        return self._records[index]


def check_alternates(
    records: Iterable[Alternates], bare: Bare | None = None, scope: str = "file"
) -> Iterator[Problem]:
    """Compare the alternates of entries: return links, disagreeing clusters, clusters
    without x-default, and alternates listed by no entry. Records come in document order
    (an ``AlternatesTable``, read by its columns, or any others); problems follow it.
    ``bare`` gives, for URLs that alternates point at but no record is for, the records
    of the entries that list them with no alternate at all (kind "bare"); the URLs it
    does not give are listed by no entry (HL009; not looked for without ``bare``).
    ``scope``: where the records come from, for HL009's words ("file" or "set").

    The records that share one ``links`` tuple (the checker shares equal lists; a table
    numbers them) are looked at together first: when every page the tuple points at is
    one of them (or has no record, or a defective one), each of them lists each of those
    pages and is listed back, so they form one cluster (when they point at any) and
    leave no link unanswered. The links of the other records are followed one by one.
    URLs are compared by their hash, as the duplicates are; the strings are read only
    for the messages and for ``bare``."""
    source: _Records = records if isinstance(records, AlternatesTable) else _RecordList(records)
    count = len(source)
    kinds: Sequence[int] = source.kinds()
    numbers: Sequence[int] = source.numbers()
    page_hashes = source.page_hashes()
    # The first record of each page, by its URL's hash.
    pages = _PageIndex(page_hashes)
    get = pages.get
    extra: list[Alternates] = []  # the records bare gives, after the others
    # The records with usable alternates by list of links: the first of each list (in
    # the records' order) and, for each record, the next one with its list.
    heads: array[int] = array("q")
    following = array("q", [-1]) * count
    last = array("q", [-1]) * source.list_count()
    for index, (number, kind) in enumerate(zip(numbers, kinds, strict=True)):
        if number and not kind:
            tail = last[number]
            if tail < 0:
                heads.append(index)
            else:
                following[tail] = index
            last[number] = index
    del last

    def members(head: int) -> list[int]:
        found = []
        while head >= 0:
            found.append(head)
            head = following[head]
        return found

    # Who lists whom without being listed back, and who lists each other.
    parent = array("q", range(count))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    whole = bytearray(count)  # the first records of the groups joined whole
    apart: list[int] = []  # the records whose links are followed one by one
    # The URLs that alternates point at but no record is for: hash -> (list, link).
    absent: dict[int, tuple[int, int]] = {}
    pending: list[int] = []  # the groups joined whole that point at some of them
    slots, mask, several = pages.parts()
    for head in heads:
        number = numbers[head]
        hashes = source.href_hashes(number)
        joined = points_away = False
        for link, value in enumerate(hashes):
            held = slots[value & mask]  # get(value), written out in the loop of every link
            if held >= 0:
                other = held if page_hashes[held] == value else None
            else:
                other = None if held == -1 else several.get(value)
            if other is None:
                absent.setdefault(value, (number, link))
                points_away = True
                continue
            kind = kinds[other]
            if kind == _DEFECTIVE:
                continue
            if kind or numbers[other] != number:
                apart += members(head)
                for later in range(link + 1, len(hashes)):
                    if get(hashes[later]) is None:
                        absent.setdefault(hashes[later], (number, later))
                break
            joined = True
        else:
            if joined:  # members stand apart still: the first is the root of them all
                index = head
                while index >= 0:
                    parent[index] = head
                    index = following[index]
                whole[head] = 1
                if points_away:
                    pending.append(head)
            else:
                apart += members(head)  # each alone, unless others join it below
    unlisted: list[tuple[int, Problem]] = []  # HL009, at the first record naming each
    if bare is not None and absent:
        urls = {source.hrefs(number)[link] for number, link in absent.values()}
        extra = bare(sorted(urls))
        unlisted = _unlisted(source, numbers, heads, absent, extra, scope)
        for at, listed in enumerate(extra, count):
            pages.add(hash(listed.page), at)
        if extra:
            kinds = bytes(kinds) + bytes([_KIND_CODES[listed.kind] for listed in extra])
            numbers = array("I", numbers)
            numbers.extend(bytes(len(extra)))
            parent.extend(range(count, count + len(extra)))
            for head in pending:  # a group pointing at such an entry is not listed back by it
                apart += members(head)
                whole[head] = 0
    apart.sort()

    url_sets: dict[int, frozenset[int]] = {}

    def urls_of(number: int) -> frozenset[int]:
        found = url_sets.get(number)
        if found is None:
            found = url_sets[number] = frozenset(source.href_hashes(number))
        return found

    # index of B -> [pages A, the last A, [A's page, A, [codes]] examples, the last A's
    # example or None]; the links of one page A come together, so a page listing B under
    # two codes (en, x-default) counts once.
    unanswered: dict[int, list[Any]] = {}
    sources: set[int] = set()  # the pages A of those links, by hash
    joins: set[int] = set()  # the roots that the links below joined to others
    for index in apart:
        number = numbers[index]
        page = page_hashes[index]
        for code, value in zip(source.codes(number), source.href_hashes(number), strict=True):
            other = get(value)
            if other is None or other == index:
                continue
            if kinds[other] == _DEFECTIVE:
                continue  # its own alternates were reported; they may be meant to list this
            if numbers[other] == number or page in urls_of(numbers[other]):
                a, b = root(index), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
                    joins.add(a)
                    joins.add(b)
                continue
            sources.add(page)
            entry = unanswered.get(other)
            if entry is None:
                entry = unanswered[other] = [0, -1, [], None]
            if entry[1] == index:
                if entry[3] is not None:
                    entry[3][2].append(code)
                continue
            entry[0] += 1
            entry[1] = index
            entry[3] = kept_example(entry[2], source.page(index), index, code)

    def page_hash(index: int) -> int:
        return page_hashes[index] if index < count else hash(extra[index - count].page)

    not_answered = {page_hash(index) for index in unanswered}

    # The records named in messages, made whole; those of one list share its links.
    shared: dict[int, Links] = {}

    def record(index: int) -> Alternates:
        if index >= count:
            return extra[index - count]
        number = numbers[index]
        links = shared.get(number)
        if links is None:
            links = shared[number] = source.links(number)
        return source.record(index, links)

    # The clusters, by their first record: the groups joined whole that nothing joined
    # since, and the clusters of the other records with alternates (the records without
    # any, and those of kind "bare" or "defective", each stand alone and are skipped).
    for head in joins:
        if whole[head]:
            apart += members(head)
            whole[head] = 0
    clusters: dict[int, list[int]] = {}
    for index in sorted(apart):
        clusters.setdefault(root(index), []).append(index)

    found: list[tuple[int, Problem]] = []
    with_default = 0
    without_default: list[tuple[int, list[str]]] = []
    for index, (times, _last, examples, _current) in unanswered.items():
        named = [(record(at), codes) for _page, at, codes in sorted(examples)]
        found.append((index, _return_link_problem(record(index), times, named)))
    hrefs_of: dict[int, frozenset[str]] = {}

    def hrefs(record: Alternates) -> frozenset[str]:
        found = hrefs_of.get(id(record.links))
        if found is None:
            found = hrefs_of[id(record.links)] = frozenset(href for _code, href in record.links)
        return found

    languages_of: dict[tuple[str, ...], tuple[list[str], bool]] = {}
    whole_heads = (head for head in heads if whole[head])
    for head in merge(whole_heads, sorted(clusters)):
        if head < count and whole[head]:  # one list of alternates, shared by every member
            opening = head
            indexes = members(head)
            codes = source.codes(numbers[head])
            known = languages_of.get(codes)
            if known is None:
                known = languages_of[codes] = _languages(set(codes))
            languages, has_default = known
        else:
            indexes = clusters[head]
            opening = indexes[0]
            distinct = {numbers[index] for index in indexes}
            if len(distinct) > 1:
                cluster = [record(index) for index in indexes]
                for index, problem in _mismatches(
                    indexes,
                    cluster,
                    pages,
                    hrefs,
                    _HashedURLs(not_answered),
                    _HashedURLs(sources),
                    _Made(record),
                ):
                    found.append((index, problem))
            languages, has_default = _languages(
                {code for number in distinct for code in source.codes(number)}
            )
        # A cluster with a page that does not list back a page listing it: which codes it
        # has is told once those links are added (HL006 says so).
        if len(languages) >= 2 and all(page_hashes[at] not in not_answered for at in indexes):
            if has_default:
                with_default += 1
            else:
                without_default.append((opening, languages))
    if without_default:
        if with_default == 0 and len(without_default) > 1:
            # No cluster has one: a matter of the generator, said once for the file.
            index, languages = without_default[0]
            clusters_without = len(without_default)
            found.append((index, _no_x_default_problem(record(index), languages, clusters_without)))
        else:
            for index, languages in without_default:
                found.append((index, _no_x_default_problem(record(index), languages, 1)))
    found += unlisted
    found.sort(key=lambda item: item[0])
    for _index, problem in found:
        yield problem


def _unlisted(
    source: _Records,
    numbers: Sequence[int],
    heads: Sequence[int],
    absent: dict[int, tuple[int, int]],
    listed: list[Alternates],
    scope: str,
) -> list[tuple[int, Problem]]:
    """HL009: the URLs alternates point at (``absent``: by hash, the list and the link
    that first names each, in the records' order) that no record is for and ``listed``
    (the entries without alternates that list some of them) does not hold, each at the
    first record whose links name it (the first of its list: ``heads``), when it is on
    that record's site (scheme, host and port: an alternate on another site is listed by
    that site's sitemap) and in a language some record gives its own page (the file, or
    the set, lists pages in it: no page in a language, and a sitemap of that language
    outside them lists it)."""
    pages = {hash(record.page) for record in listed}
    head_of: dict[int, int] = {}
    languages: OwnLanguages | None = None
    found = []
    for value, (number, link) in absent.items():
        if value in pages:
            continue
        if not head_of:
            head_of = {numbers[head]: head for head in heads}
        index = head_of[number]
        href = source.hrefs(number)[link]
        if not same_origin(href, source.page(index)):
            continue  # another site's page: its own sitemap lists it
        code = source.codes(number)[link]
        if languages is None:
            languages = OwnLanguages(source, numbers)
        if not languages.holds(language(code)):
            continue  # a language no page is in here: another sitemap's
        record = source.record(index, source.links(number))
        found.append((index, not_listed_problem(record, code, href, scope)))
    return found


def language(code: str) -> str:
    """The language of an hreflang code in its conventional case (``x`` for x-default)."""
    return code.split("-", 1)[0]


class OwnLanguages:
    """The languages of the codes the records with usable alternates give their own page
    (the languages the records' pages are in), read from the records only as far as a
    question needs: a language asked for is usually a page's among the first records."""

    def __init__(self, source: _Records, numbers: Sequence[int]) -> None:
        self.found: set[str] = set()
        self._unread = self._read(source, numbers)

    def holds(self, wanted: str) -> bool:
        """Whether a record's page is in the language ``wanted``."""
        found = self.found
        if wanted in found:
            return True
        for each in self._unread:
            found.add(each)
            if each == wanted:
                return True
        return False

    @staticmethod
    def _read(source: _Records, numbers: Sequence[int]) -> Iterator[str]:
        kinds = source.kinds()
        page_hashes = source.page_hashes()
        for index, number in enumerate(numbers[: len(kinds)]):
            if not number or kinds[index]:
                continue
            page = page_hashes[index]
            codes = source.codes(number)
            for code, value in zip(codes, source.href_hashes(number), strict=True):
                if value == page:
                    yield language(code)


def same_origin(url: str, other: str) -> bool:
    """Whether ``other`` is on the scheme, host and port of ``url``, both in normal form
    (``normal_url``: a "/" after the host)."""
    start = url.find("//") + 2
    end = url.find("/", start)
    return other.startswith(url if end < 0 else url[: end + 1])


def not_listed_problem(record: Alternates, code: str, href: str, scope: str) -> Problem:
    """HL009 on ``record``, whose alternates give ``href`` the code ``code``, and which no
    entry of the ``scope`` ("file" or "set") lists as its loc."""
    where = "this file" if scope == "file" else "the files of the set"
    return Problem(
        record,
        NOT_LISTED,
        f'this page\'s alternate {href} (hreflang="{code}") is the <loc> of no entry in '
        f"{where}, so nothing confirms it from its side: add an entry for it with the same "
        "alternates, or write the href as that page's <loc> writes its URL",
    )


class _HashedURLs:
    """URLs kept by their hash, asked about by URL (``_mismatches``)."""

    __slots__ = ("_hashes",)

    def __init__(self, hashes: set[int]) -> None:
        self._hashes = hashes

    def __contains__(self, url: object) -> bool:
        return hash(url) in self._hashes


class _PageIndex:
    """The first record of each page, by the hash of its URL, without an object per page:
    a slot for each value of the hash's low bits (four to eight a record) holds the
    record whose page's hash has them (-1: none), or -2 when the pages of several do,
    whose first records a dict holds. Records added later (``bare``'s) follow the
    given ones. Asked by URL too (``_mismatches``)."""

    __slots__ = ("_count", "_hashes", "_later", "_mask", "_several", "_slots")

    def __init__(self, hashes: Sequence[int]) -> None:
        self._hashes = hashes
        self._count = len(hashes)
        self._later: list[int] = []
        mask = self._mask = (1 << max(10, (4 * len(hashes)).bit_length())) - 1
        slots = self._slots = array("i", [-1]) * (mask + 1)
        several: dict[int, int] = {}
        self._several = several
        for index, value in enumerate(hashes):  # add(), at a third of the cost
            slot = value & mask
            held = slots[slot]
            if held == -1:
                slots[slot] = index
            elif held >= 0:
                known = hashes[held]
                if known != value:
                    several[known] = held
                    several[value] = index
                    slots[slot] = -2
            else:
                several.setdefault(value, index)

    def add(self, value: int, index: int) -> None:
        """Record ``index`` (the given ones first, in order) for the page of hash
        ``value``, unless one came first."""
        if index >= self._count:
            self._later.append(value)
        slot = value & self._mask
        held = self._slots[slot]
        if held == -1:
            self._slots[slot] = index
        elif held >= 0:
            known = self._hash(held)
            if known != value:  # another page in the slot: both go to the dict
                self._several[known] = held
                self._several.setdefault(value, index)
                self._slots[slot] = -2
        else:
            self._several.setdefault(value, index)

    def _hash(self, index: int) -> int:
        count = self._count
        return self._hashes[index] if index < count else self._later[index - count]

    def parts(self) -> tuple[array[int], int, dict[int, int]]:
        """The slots, the mask of the low bits and the dict, to look up records of the
        given hashes (before any ``add``) as ``get`` does."""
        assert not self._later
        return self._slots, self._mask, self._several

    def get(self, value: int) -> int | None:
        held = self._slots[value & self._mask]
        if held >= 0:
            return held if self._hash(held) == value else None
        return None if held == -1 else self._several.get(value)

    def __contains__(self, url: object) -> bool:
        return self.get(hash(url)) is not None

    def __getitem__(self, url: str) -> int:
        found = self.get(hash(url))
        if found is None:
            raise KeyError(url)
        return found


class _Made:
    """Records by index, made on demand."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[int], Alternates]) -> None:
        self._make = make

    def __getitem__(self, index: int) -> Alternates:
        return self._make(index)


def _languages(codes: set[str]) -> tuple[list[str], bool]:
    """The languages of a cluster's codes, sorted, and whether x-default is among them."""
    languages = {code.split("-", 1)[0] for code in codes if code != X_DEFAULT}
    return sorted(languages), X_DEFAULT in codes


def kept_example(examples: list[list[Any]], page: str, source: Any, code: str) -> list[Any] | None:
    """Keep ``[page, source, [code]]`` among the ``examples`` of a page's missing return
    links when its URL is among the SHOWN least (whatever the order of the entries and
    files): the example kept, or None."""
    if len(examples) >= SHOWN:
        # The last of the largest: of two records of one page, the first one stays.
        largest = max(reversed(examples), key=lambda example: example[0])
        if page >= largest[0]:
            return None
        examples.remove(largest)
    example = [page, source, [code]]
    examples.append(example)
    return example


def _return_link_problem(
    record: Alternates, count: int, examples: list[tuple[Alternates, list[str]]]
) -> Problem:
    """HL006 on ``record``, which ``count`` pages list (``examples``: those of the least
    URLs, in their order, each with the codes it gives this page) without being listed
    back."""
    source, codes = examples[0]
    code = next((code for code in codes if code != X_DEFAULT), codes[0])
    link = (
        f'<xhtml:link rel="alternate" hreflang="{_own_code(source)}" '
        f'href="{shown_attribute(source.page)}"/>'
    )
    if record.kind == "bare":
        shown = ", ".join(
            f"{page.page} ({_where(page)}) as {_as_codes(codes)}" for page, codes in examples
        )
        more = f", and {count - len(examples):,} more" if count > len(examples) else ""
        pages = "a page lists" if count == 1 else f"{count:,} pages list"
        return Problem(
            record,
            RETURN_LINK_MISSING,
            f"{pages} this page as an alternate ({shown}{more}), but this entry has no "
            "alternates at all, so search engines ignore those links: add the same "
            f'alternates to it, with one for the page itself (hreflang="{code}") and {link}',
        )
    if count == 1:
        message = (
            f"{source.page} ({_where(source)}) lists this page as {_as_codes(codes)}, "
            f"but this page's alternates do not include {source.page}; add {link}"
        )
    else:
        shown = ", ".join(
            f"{page.page} ({_where(page)}) as {_as_codes(codes)}" for page, codes in examples
        )
        more = f", and {count - len(examples):,} more" if count > len(examples) else ""
        message = (
            f"{count:,} pages list this page as an alternate ({shown}{more}), but its "
            f"alternates include none of them; add a link to each, e.g. {link}"
        )
    return Problem(record, RETURN_LINK_MISSING, message)


def _as_codes(codes: list[str]) -> str:
    """``hreflang="en"``, ``hreflang="en" and "x-default"``."""
    return "hreflang=" + joined([f'"{code}"' for code in codes])


def _where(record: Alternates) -> str:
    """Where another entry is, in a message; across files, with the file."""
    return f"{record.file}, line {record.line}" if record.file else f"line {record.line}"


def _own_code(record: Alternates) -> str:
    codes = [code for code, href in record.links if href == record.page]
    specific = [code for code in codes if code != X_DEFAULT]
    return (specific or codes)[0]


class _PageLookup(Protocol):
    def __contains__(self, url: object, /) -> bool: ...

    def __getitem__(self, url: str, /) -> int: ...


class _RecordLookup(Protocol):
    def __getitem__(self, index: int, /) -> Alternates: ...


def _mismatches(
    members: list[int],
    cluster: list[Alternates],
    pages: _PageLookup,
    urls: Callable[[Alternates], frozenset[str]],
    not_answered: Container[str],
    sources: Container[str],
    records: _RecordLookup,
) -> Iterator[tuple[int, Problem]]:
    """Members whose alternates differ from the set most members list (``pages``: the
    first record of each page, by URL; ``records``: each record, by index)."""
    reference = cluster_reference(cluster, lambda record: id(record.links))
    wanted = set(reference.links)
    wanted_urls = urls(reference)
    for index, record in zip(members, cluster, strict=True):
        if record.links is reference.links or record.page in not_answered:
            continue
        have = set(record.links)
        missing = wanted - have
        extra = set()
        for code, href in have - wanted:
            if href not in wanted_urls and href in pages:
                listed = records[pages[href]]
                if href == record.page:
                    if record.page in sources:
                        continue  # reported as return links missing on the others
                elif record.page not in urls(listed):
                    continue  # reported as a return link missing on that page
            extra.add((code, href))
        if missing or extra:
            yield index, _mismatch_problem(record, reference, missing, extra)


def cluster_reference(
    cluster: list[Alternates], same: Callable[[Alternates], object]
) -> Alternates:
    """The member of ``cluster`` whose alternates the others are compared with: of the
    sets of alternates most members list (``same``: equal for members listing the same
    set), the largest, as a link missing is likelier than one too many; of those, the
    least set (its links compared as sorted pairs of code and URL) and its member of the
    least page, so that the order of the entries and files does not choose."""
    counts = Counter(same(record) for record in cluster)
    top = max(counts.values())
    tied = (record for record in cluster if counts[same(record)] == top)
    return min(
        tied,
        key=lambda record: (-len(record.links), record.links, record.page, record.file),
    )


def _mismatch_problem(
    record: Alternates,
    reference: Alternates,
    missing: set[tuple[str, str]],
    extra: set[tuple[str, str]],
) -> Problem:
    extra_codes = {href: code for code, href in sorted(extra)}
    recoded = []
    for code, href in sorted(missing):
        if href in extra_codes:
            recoded.append(f'{href} hreflang="{extra_codes[href]}" (there: "{code}")')
    recoded_urls = {href for code, href in missing if href in extra_codes}
    lacks = [_pair(code, href) for code, href in sorted(missing) if href not in recoded_urls]
    adds = [_pair(code, href) for code, href in sorted(extra) if href not in recoded_urls]
    parts = []
    if lacks:
        parts.append(f"lacks {_listing(lacks)}")
    if adds:
        parts.append(f"adds {_listing(adds)}")
    if recoded:
        parts.append(f"gives {_listing(recoded)}")
    return Problem(
        record,
        CLUSTER_MISMATCH,
        f"alternates differ from those of {reference.page} ({_where(reference)}) in the "
        f"same cluster: this entry {', '.join(parts)}; list the same alternates, with the "
        "same codes, on every page of the cluster",
    )


def _pair(code: str, href: str) -> str:
    return f'hreflang="{code}" href="{shown_attribute(href)}"'


def _listing(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    if len(items) > SHOWN:
        shown += f" and {len(items) - SHOWN} more"
    return shown


def _no_x_default_problem(first: Alternates, languages: list[str], clusters: int) -> Problem:
    if clusters == 1:
        head = (
            f"the alternates of {first.page} cover {len(languages)} languages "
            f"({_listing(languages)}) but none is x-default"
        )
        where = "every page of the cluster"
    else:
        head = (
            f"none of the {clusters:,} clusters of alternates in several languages has "
            f"x-default (the first: {first.page}, with {_listing(languages)})"
        )
        where = "the pages of each cluster"
    return Problem(
        first,
        NO_X_DEFAULT,
        f"{head}; consider adding "
        f'<xhtml:link rel="alternate" hreflang="x-default" href="..."/> to {where}, '
        "pointing at the version for all other users",
    )


# -- the extension checker --------------------------------------------------------------------


# Its elements' URLs and dates are checked with the URL and date rules, which it reports too.
@check(
    "extension",
    namespace=NAMESPACE,
    emits=(*RULES, *URL_RULES),
    covers=True,
    proof=stateful("hreflang"),
)
class Checker:
    """Checks the xhtml:link alternates of one file.

    Per entry it keeps the links until ``end_entry``; per file, one record for each
    entry with alternates in an ``AlternatesTable`` (equal lists of links kept once),
    compared in ``finish``.
    """

    def __init__(self, file: FileContext | None = None) -> None:
        self._links: list[tuple[str, str, Node]] = []  # (code, href, link) of this entry
        self._hrefs: list[str] = []  # every usable href of this entry's alternates
        self._other_hrefs: list[str] = []  # those of its links of another type (HL002)
        self._defective = False  # a link of this entry has a defect
        self._href_unknown = False  # a link's href is missing or unusable
        self._records = AlternatesTable()
        # Every href check_url found nothing in, which also serves to store each URL once.
        self._clean: dict[str, str] = {}
        self._href_report = _HrefReport()
        self._file = file

    def check(self, element: Node, context: EntryContext, report: Reporter) -> None:
        if element.name != "link":
            return  # other XHTML elements are the schema's to report
        attrs = element.attrs
        rel = attrs.get("rel")
        hreflang = attrs.get("hreflang")
        href = attrs.get("href")
        if hreflang is None and "media" in attrs:
            return  # a separate-mobile-URL annotation (rel="alternate" media=...), not hreflang
        if rel == "alternate" and hreflang and href:
            # The usual link: a code seen before and a URL seen before cost two look-ups.
            verdict = _code_cache.get(hreflang) or check_code(hreflang)
            if verdict.canonical is not None:
                clean = self._clean.get(href) or self._check_href(href, element, report)
                if clean is not None:
                    self._hrefs.append(clean)
                    self._links.append((verdict.canonical, clean, element))
                return
        self._check_slowly(element, rel, hreflang, href, report)

    def _check_href(self, href: str, element: Node, report: Reporter) -> str | None:
        """The URL, when check_url finds nothing wrong with it; None otherwise."""
        checked = self._href_report
        checked.report = report
        checked.count = checked.passed = 0
        replacements = self._file.replacements if self._file is not None else None
        parsed = check_url(href, element, checked, field=HREF_FIELD, replacements=replacements)
        if parsed is None or checked.count:
            self._defective = True
            self._href_unknown = True
            return None
        normal = normal_url(href)
        if not checked.passed and len(self._clean) < _CLEAN_LIMIT:
            self._clean[href] = normal  # (an href with findings is checked at each link)
        return normal

    def _check_slowly(
        self,
        element: Node,
        rel: str | None,
        hreflang: str | None,
        href: str | None,
        report: Reporter,
    ) -> None:
        missing = [
            name
            for name, value in (("rel", rel), ("hreflang", hreflang), ("href", href))
            if value is None or not value.strip()
        ]
        code = None
        usable = not missing
        alternate = True
        if rel is not None and rel.strip() and "alternate" not in rel.lower().split():
            # Not an alternate at all: what an alternate would need is beside the point.
            self._defective = True
            usable = alternate = False
            report.add(
                REL_NOT_ALTERNATE.at(
                    element.line,
                    element.column,
                    f'xhtml:link has rel="{_shown(rel)}"; hreflang alternates need rel="alternate", '
                    'other link types are ignored in sitemaps: write rel="alternate" or '
                    "remove the link",
                )
            )
        elif (
            missing == ["hreflang"]
            and hreflang is None
            and href is not None
            and _APP_LINK.match(href)
        ):
            # An app deep link, not a language alternate: its missing code is beside the point.
            report.add(
                LINK_INCOMPLETE.at(
                    element.line,
                    element.column,
                    f"xhtml:link points at an app ({shown_attribute(href.strip())}), not at a "
                    "language version of the page: app deep links in sitemaps were Google's "
                    "App Indexing, which it no longer reads; remove the link",
                )
            )
            return
        elif missing:
            self._defective = True
            self._incomplete(element, missing, hreflang, report)
        if hreflang is not None and hreflang.strip():
            verdict = check_code(hreflang)
            if verdict.message is not None:
                self._defective = True
                usable = False
                report.add(
                    CODE_INVALID.at(element.line, element.column, verdict.message),
                    element if verdict.schema_rejects else None,
                )
            code = verdict.canonical
        if href is None or not href.strip():
            self._href_unknown = True
            return
        clean = self._clean.get(href) or self._check_href(href, element, report)
        if clean is None:
            return
        if not alternate:
            self._other_hrefs.append(clean)
            return
        self._hrefs.append(clean)
        if usable and code is not None:
            self._links.append((code, clean, element))

    def _incomplete(
        self, element: Node, missing: list[str], hreflang: str | None, report: Reporter
    ) -> None:
        empty = [name for name in missing if element.attrs.get(name) is not None]
        absent = [name for name in missing if name not in empty]
        what = []
        if absent:
            what.append(f"no {_and(absent)}")
        if empty:
            what.append(f"an empty {_and(empty)}")
        # An empty hreflang is also invalid against the schema's pattern.
        covers = element if hreflang is not None and not hreflang.strip() else None
        renames, prefixed, children = [], [], []
        values = dict(element.attrs)
        for name in absent:
            key = _stand_in(element, name)
            if key is None:
                child = _child_for(element, name)
                if child is not None:
                    values[name] = child.text
                    children.append(f"<{'xhtml:' if child.ns == XHTML_NS else ''}{child.name}>")
                continue
            values[name] = element.attrs[key]
            ns, _, local = key.rpartition("}")
            if ns:
                prefixed.append(name)
            elif local.lower() == name:
                renames.append(f"rename {local} to {name} (attribute names are case-sensitive)")
            else:
                renames.append(f"rename {local} to {name}")
            if key not in _ALLOWED_STAND_INS:
                covers = element  # the schema rejects the stand-in: this finding says why
        if prefixed:
            renames.append(f"write {joined(prefixed)} without a prefix")
        if children:
            renames.append(f"write {joined(children)} as attributes, not as child elements")
            if len(children) == len(element.children) and element.nested_text is None:
                covers = element  # the schema rejects the link's content: this says why
        hreflang = values.get("hreflang")
        code = hreflang.strip() if hreflang is not None and hreflang.strip() else "CODE"
        href = values.get("href")
        url = href.strip() if href is not None and href.strip() else "ABSOLUTE-URL"
        report.add(
            LINK_INCOMPLETE.at(
                element.line,
                element.column,
                f"xhtml:link has {' and '.join(what)}; "
                + "".join(f"{rename}; " for rename in renames)
                + "an alternate needs all three: "
                f'<xhtml:link rel="alternate" hreflang="{code}" href="{shown_attribute(url)}"/>',
            ),
            covers,
        )

    def end_entry(self, context: EntryContext, report: Reporter) -> None:
        links, hrefs, others = self._links, self._hrefs, self._other_hrefs
        defective, href_unknown = self._defective, self._href_unknown
        self._links, self._hrefs, self._other_hrefs = [], [], []
        self._defective = self._href_unknown = False
        if not hrefs and not href_unknown:
            return  # no xhtml:link in this entry
        if len({code for code, _href, _link in links}) < len(links) and self._duplicates(
            links, report
        ):
            defective = True
        loc = context.loc
        if loc is None or context.url is None:
            return
        page = self._clean.get(loc) or normal_url(loc)
        entry = context.entry
        if page not in hrefs:
            # Unless the link meant for the page itself may be the broken one, or the one
            # of another type (rel="canonical" for rel="alternate").
            if not href_unknown and page not in others:
                self._self_missing(context, links, report)
            defective = True
        position = entry.line << 32 | entry.column
        if defective or not links:
            self._records.add(page, position, (), entry.index, kind="defective")
            return
        pairs = tuple(sorted({(code, href) for code, href, _link in links}))
        self._records.add(page, position, pairs, entry.index)

    def _duplicates(self, links: list[tuple[str, str, Node]], report: Reporter) -> bool:
        first: dict[str, tuple[str, Node]] = {}
        found = False
        for code, href, link in links:
            earlier = first.setdefault(code.lower(), (href, link))
            if earlier[0] != href:
                found = True
                hint = (
                    f" (with a region, e.g. {code}-{_EXAMPLE_REGION.get(code, 'XX')})"
                    if "-" not in code
                    else ""
                )
                report.add(
                    CODE_DUPLICATE.at(
                        link.line,
                        link.column,
                        f"hreflang {code} is already given to {earlier[0]} at line "
                        f"{earlier[1].line}; this link gives it {href}: one URL per code, "
                        f"remove one of the links or give each version its own code{hint}",
                    )
                )
        return found

    def _self_missing(
        self, context: EntryContext, links: list[tuple[str, str, Node]], report: Reporter
    ) -> None:
        page = context.loc
        assert page is not None  # end_entry returns first when there is none
        near = _near(page)
        similar = [(code, href) for code, href, _link in links if _near(href) == near]
        if similar:
            code, href = similar[0]
            message = (
                f"the alternates do not include the page itself exactly: {href} ({code}) "
                f'differs from <loc> {page}; write href="{shown_attribute(page)}"'
            )
        else:
            message = (
                f"the alternates do not include the page itself, {page}; add "
                f'<xhtml:link rel="alternate" hreflang="CODE" href="{shown_attribute(page)}"/> '
                "with the page's own language code"
            )
        entry = context.entry
        report.add(SELF_MISSING.at(entry.line, entry.column, message))

    def take_records(self) -> AlternatesTable:
        """The entries' records, for a check across the files of a set instead of ``finish``."""
        records, self._records = self._records, AlternatesTable()
        self._clean.clear()
        records.pack()
        return records

    def finish(self, report: Reporter) -> None:
        pages = _PAGES.get(self._file) if self._file is not None else None
        bare = pages.bare if pages is not None else None
        pointer = self._file.pointer if self._file is not None else None
        for problem in check_alternates(self.take_records(), bare):
            report.add(problem.finding(pointer))


# -- entries without alternates ----------------------------------------------------------------


class _Pages:
    """The entries of a file that have no xhtml:link at all: the hash of their URL's
    normal form, their position and their index. Lists of the ints the checks made: at
    most 50,000 entries a file, and an array would convert each int (a large int is slow
    to convert); the indexes (``model.element_number``'s layout: an entry with several
    locs has the loc's place in the high bits) in an unsigned 64-bit array."""

    def __init__(self) -> None:
        self.hashes: list[int] = []
        self.positions: list[int] = []
        self.indexes: array[int] = array("Q")

    def bare(self, urls: list[str]) -> list[Alternates]:
        first: dict[int, int] = {}
        for index, value in enumerate(self.hashes):
            first.setdefault(value, index)
        found = []
        for url in urls:
            index = first.get(hash(url), -1)
            if index >= 0:
                packed = self.positions[index]
                line, column = packed >> 32, packed & 0xFFFFFFFF
                entry = self.indexes[index]
                found.append(Alternates(url, line, column, (), kind="bare", index=entry))
        return found


_PAGES: WeakKeyDictionary[FileContext, _Pages] = WeakKeyDictionary()


@check("loc", emits=(RETURN_LINK_MISSING, NOT_LISTED), proof=stateful("pages"))
class PagesWithoutAlternates:
    """Remembers the entries without alternates, which other entries' alternates may point
    at; the hreflang checker reads them at the end of the file."""

    def __init__(self, file: FileContext) -> None:
        self.pages = _PAGES[file] = _Pages()
        self.urlset = not file.is_index
        self.idle = file.is_index  # an index lists no pages: the dispatch leaves it out

    def check(self, node: Node, entry: EntryContext, report: Reporter) -> None:
        if not self.urlset:
            return
        for child in entry.entry.children:
            if child.ns == NAMESPACE:
                return  # the hreflang checker keeps its record
        self.pages.hashes.append(hash(normal_url(node.text.strip())))
        # At the loc, as the set's URL positions are.
        self.pages.positions.append(node.line << 32 | node.column)
        self.pages.indexes.append(loc_index(entry.entry, node))


def _shown(value: str, limit: int = 40) -> str:
    return value if len(value) <= limit else value[: limit - 3] + "..."


# Attributes written for a missing one: other names, and the XHTML attributes that
# the schema allows (so a finding on them covers no schema error).
_STAND_IN_NAMES = {"hreflang": ("lang",), "href": ("url", "link", "src", "loc")}
_ALLOWED_STAND_INS = frozenset(("lang", "http://www.w3.org/XML/1998/namespace}lang"))


def _stand_in(element: Node, name: str) -> str | None:
    """The attribute of ``element`` written for its missing ``name``: another letter
    case, a namespace prefix, or another name for it."""
    for key in element.attrs:
        local = key.rpartition("}")[2].lower()
        if key != name and (local == name or local in _STAND_IN_NAMES.get(name, ())):
            return key
    return None


def _child_for(element: Node, name: str) -> Node | None:
    """The child element of ``element`` written for its missing attribute ``name``."""
    for child in element.children:
        if child.name.lower() == name and not child.children:
            return child
    return None


def _near(url: str) -> str:
    """A URL without case, scheme, a leading www. and trailing slash, to spot near misses."""
    lowered = url.lower().rstrip("/")
    return (lowered.partition("://")[2] or lowered).removeprefix("www.")


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
