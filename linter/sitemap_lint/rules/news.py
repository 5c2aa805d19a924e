"""News extension rules: `news:news` inside `url` (Google News sitemaps).

Each ``news:news`` is checked on its own (required fields, language code,
legacy fields, publication date and its age); across the file the checker
keeps a count, the position of the first element past the limit and the first
publication name, so its state does not grow with the number of URLs.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta

from sitemap_lint.domain import langtags
from sitemap_lint.domain.sequence import Step
from sitemap_lint.model import SITEMAP_NS, Node
from sitemap_lint.rules import dates
from sitemap_lint.rules.base import ERROR, INFO, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.entry import EntryContext, FileContext
from sitemap_lint.rules.events import FileEnd
from sitemap_lint.rules.extension import (
    UNEXPECTED_TEXT,
    check_child_order,
    check_text,
    misplaced_message,
    stray_child_message,
)
from sitemap_lint.rules.registry import END, stateful
from sitemap_lint.rules.structure import Reporter, is_empty_news_sitemap
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.words import joined

NAMESPACE = "http://www.google.com/schemas/sitemap-news/0.9"

MAX_NEWS = 1_000
MAX_AGE = timedelta(days=2)
MAX_TICKERS = 5
GENRES = ("PressRelease", "Satire", "Blog", "OpEd", "Opinion", "UserGenerated")
ACCESS = ("Subscription", "Registration")
LEGACY = ("access", "genres", "keywords", "stock_tickers")
_LEGACY_SAID = dict.fromkeys(LEGACY, "{} is legacy, no longer documented by Google")
# The children of news:news and of news:publication, in the schema's order.
NEWS_ORDER = (
    "publication",
    "access",
    "genres",
    "publication_date",
    "title",
    "keywords",
    "stock_tickers",
)
PUBLICATION_ORDER = ("name", "language")
_REQUIRED = frozenset(("publication", "publication_date", "title", "name", "language"))
_REQUIRED_NEWS = tuple(name for name in NEWS_ORDER if name in _REQUIRED)
NEWS_SEQUENCE = tuple(Step(name, int(name in _REQUIRED), 1) for name in NEWS_ORDER)
PUBLICATION_SEQUENCE = tuple(Step(name, 1, 1) for name in PUBLICATION_ORDER)
MAX_TITLE = 110

_EXAMPLE = """
    <url>
      <loc>https://example.com/business/merger-talks</loc>
      <news:news>
        <news:publication>
          <news:name>The Example Times</news:name>
          <news:language>{language}</news:language>
        </news:publication>{middle}
        <news:publication_date>{date}</news:publication_date>
        <news:title>Companies A and B in merger talks</news:title>
      </news:news>
    </url>
"""


def _example(
    language: str = "en", date: str = "2025-05-31T08:00:00+00:00", middle: str = ""
) -> str:
    return _EXAMPLE.format(language=language, date=date, middle=middle)


MISSING = rule(
    "NW001",
    "news-field-missing",
    ERROR,
    summary="A required news field is missing or empty",
    what="""
        Checks that each `news:news` has a `news:publication` with a
        `news:name` and a `news:language`, a `news:publication_date` and a
        `news:title`, and that the name and title are not empty. An element
        missing several of its required children gets one finding naming them
        all. A child that stands for a missing one (`news:tilte`, or `title`
        without the news prefix) is named, to be renamed.
    """,
    why="""
        Google News needs all five to use the entry; without them the schema
        rejects the element and Search Console reports the article as invalid.
        An empty name or title passes the schema but identifies nothing.
    """,
    bad="""
        <news:news>
          <news:publication>
            <news:name>The Example Times</news:name>
            <news:language>en</news:language>
          </news:publication>
          <news:publication_date>2025-05-31T08:00:00+00:00</news:publication_date>
        </news:news>
    """,
    good="""
        <news:news>
          <news:publication>
            <news:name>The Example Times</news:name>
            <news:language>en</news:language>
          </news:publication>
          <news:publication_date>2025-05-31T08:00:00+00:00</news:publication_date>
          <news:title>Companies A and B in merger talks</news:title>
        </news:news>
    """,
)

LANGUAGE_FORM = rule(
    "NW002",
    "news-language-invalid",
    ERROR,
    summary="`news:language` is not a lower-case ISO 639 code (or `zh-cn`/`zh-tw`)",
    what="""
        Checks `news:language` against the extension's form: a two- or
        three-letter ISO 639 code in lower case, or `zh-cn` / `zh-tw` for
        Chinese. Names the code to write for a language name (`English`), a
        code with a region (`en-US`, `pt_BR`), capitals (`EN`) or spaces.
    """,
    why="""
        The schema rejects any other form, and Google News cannot tell the
        article's language. Regions belong to hreflang, not to news sitemaps.
    """,
    bad="<news:language>en-US</news:language>",
    good="<news:language>en</news:language>",
)

LANGUAGE_UNKNOWN = rule(
    "NW003",
    "news-language-unknown",
    WARNING,
    summary="`news:language` is not a known ISO 639 language, or `zh` without its script",
    what="""
        Looks the code of `news:language` up in ISO 639 (two- and three-letter
        codes, from the `pycountry` data). Also flags withdrawn codes (`iw`,
        `in`, `ji`) and Chinese without its script (`zh`, or the three-letter
        `zho` and `chi`), which Google wants as `zh-cn` (Simplified) or `zh-tw`
        (Traditional).
    """,
    why="""
        The schema only checks the form, so a typo such as `ne` for `en` or a
        made-up `xx` passes it, and the article is filed under the wrong
        language or none.
    """,
    bad="<news:language>zh</news:language>",
    good="<news:language>zh-cn</news:language>",
)

REPEATED = rule(
    "NW004",
    "news-repeated",
    ERROR,
    summary="More than one `news:news` in one `url`",
    what="Detects a second (or further) `news:news` element inside the same `url` entry.",
    why="""
        A URL is one article: Google allows exactly one `news:news` per `url`.
        The schema's open extension slot does not catch the repetition.
    """,
    bad="""
        <url>
          <loc>https://example.com/business/merger-talks</loc>
          <news:news>...</news:news>
          <news:news>...</news:news>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/business/merger-talks</loc>
          <news:news>...</news:news>
        </url>
    """,
)

TOO_MANY = rule(
    "NW005",
    "news-too-many",
    ERROR,
    summary="A sitemap with more than 1,000 `news:news` elements",
    what="""
        Counts the `news:news` elements of a file; Google allows at most 1,000
        per sitemap. The finding stands at the first one past the limit and
        gives the total.
    """,
    why="""
        Google News does not read the news metadata past the limit. Split the
        articles over several news sitemaps listed in an index, or drop those
        older than two days.
    """,
    bad="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
                xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
          <!-- 1,001 url entries with news:news -->
        </urlset>
    """,
    good="""
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <sitemap><loc>https://example.com/news-sitemap-1.xml</loc></sitemap>
          <sitemap><loc>https://example.com/news-sitemap-2.xml</loc></sitemap>
        </sitemapindex>
    """,
)

TOO_OLD = rule(
    "NW006",
    "news-article-old",
    WARNING,
    summary="A news article published more than two days ago",
    what="""
        Compares `news:publication_date` with the current time (or `--now`).
        A date without a time counts as the end of that day.
    """,
    why="""
        Google News only uses articles from the last two days; older entries
        are ignored and make the sitemap larger than it needs to be. Remove the
        URL from the news sitemap, or remove its `news:news` metadata; the page
        can stay in the ordinary sitemap.
    """,
    bad=_example(date="2025-03-02T08:00:00+00:00"),
    good=_example(date="2025-05-31T08:00:00+00:00"),
)

NAME_DIFFERS = rule(
    "NW007",
    "news-publication-name-differs",
    WARNING,
    summary="Entries of one sitemap give different publication names",
    what="""
        Compares each `news:name` with the first one in the file and reports
        the first entry that differs (once per file), with the line of the
        first name.
    """,
    why="""
        Google News matches the publication name exactly against the name it
        knows for the site. Different spellings (`Example Times` and `The
        Example Times`) usually mean that some entries carry a wrong name.
    """,
    bad="""
        <news:name>The Example Times</news:name>
        ...
        <news:name>Example Times</news:name>
    """,
    good="""
        <news:name>The Example Times</news:name>
        ...
        <news:name>The Example Times</news:name>
    """,
)

ACCESS_INVALID = rule(
    "NW008",
    "news-access-invalid",
    ERROR,
    summary="`news:access` is neither `Subscription` nor `Registration`",
    what="""
        Checks the legacy `news:access` field against its two values, written
        exactly, and names the fix for other spellings (`subscription`) and
        for values such as `Free`.
    """,
    why="""
        The schema accepts only `Subscription` and `Registration`; any other
        value makes the entry invalid. Articles that are free to read need no
        `news:access` at all.
    """,
    bad="<news:access>subscription</news:access>",
    good="<news:access>Subscription</news:access>",
)

GENRES_INVALID = rule(
    "NW009",
    "news-genres-invalid",
    ERROR,
    summary="`news:genres` is not a comma-separated list of the six genres",
    what="""
        Checks the legacy `news:genres` field: one or more of `PressRelease`,
        `Satire`, `Blog`, `OpEd`, `Opinion` and `UserGenerated`, written
        exactly and separated by commas. Shows the corrected list for other
        spellings (`pressrelease`, `Op-Ed`) and separators (`;`, spaces).
    """,
    why="""
        The schema rejects any other value or separator, which makes the entry
        invalid. Ordinary news articles need no `news:genres`.
    """,
    bad="<news:genres>pressrelease; blog</news:genres>",
    good="<news:genres>PressRelease, Blog</news:genres>",
)

TICKERS_INVALID = rule(
    "NW010",
    "news-stock-tickers-invalid",
    ERROR,
    summary="`news:stock_tickers` is not up to five comma-separated `EXCHANGE:SYMBOL` pairs",
    what="""
        Checks the legacy `news:stock_tickers` field: one to five tickers such
        as `NASDAQ:AMAT`, separated by commas, each with an exchange and a
        symbol without spaces.
    """,
    why="""
        The schema rejects other forms (a symbol without its exchange, other
        separators, a sixth ticker), which makes the entry invalid.
    """,
    bad="<news:stock_tickers>AMAT; BOM:500325</news:stock_tickers>",
    good="<news:stock_tickers>NASDAQ:AMAT, BOM:500325</news:stock_tickers>",
)

LEGACY_FIELDS = rule(
    "NW011",
    "news-legacy-field",
    INFO,
    summary="`news:news` uses fields Google no longer documents",
    what="""
        Lists, once per `news:news`, the legacy fields it contains:
        `news:access`, `news:genres`, `news:keywords` and `news:stock_tickers`.
    """,
    why="""
        They are still part of the schema, so the file stays valid, but Google
        no longer documents them; they add size and maintenance without a
        documented use. Remove them.
    """,
    bad=_example(middle="\n        <news:genres>Blog</news:genres>"),
    good=_example(),
)

CHILD_ORDER = rule(
    "NW012",
    "news-child-order",
    WARNING,
    summary="The children of `news:news` or `news:publication` out of the schema's order",
    what="""
        Checks that the children of `news:news` follow the order the news schema
        fixes (`publication`, `access`, `genres`, `publication_date`, `title`,
        `keywords`, `stock_tickers`), and those of `news:publication` theirs
        (`name`, `language`), and names that order. (The `strict` profile makes
        it an error.)
    """,
    why="""
        Google reads the fields in any order, but the schema defines a sequence:
        strict XSD validators, and tools built on them, reject the file.
    """,
    bad="""
        <news:news>
          <news:title>Companies A and B in merger talks</news:title>
          <news:publication>...</news:publication>
          <news:publication_date>2025-05-31T08:00:00+00:00</news:publication_date>
        </news:news>
    """,
    good="""
        <news:news>
          <news:publication>...</news:publication>
          <news:publication_date>2025-05-31T08:00:00+00:00</news:publication_date>
          <news:title>Companies A and B in merger talks</news:title>
        </news:news>
    """,
)

TITLE_TOO_LONG = rule(
    "NW013",
    "news-title-too-long",
    WARNING,
    summary="A `news:title` longer than 110 characters",
    what="""
        Reports a `news:title` of more than 110 characters (whitespace around it
        not counted), with its length.
    """,
    why="""
        Google notes that news titles may be truncated when shown, and its
        guidance for article headlines has long been at most 110 characters: a
        longer title is cut where readers decide whether to click. A title that
        long is often the article's first sentence or a title with a teaser
        appended.
    """,
    bad="<news:title>Companies A and B in merger talks, says a source close to the board, who added that a deal could come before the end of the quarter</news:title>",
    good="<news:title>Companies A and B in merger talks</news:title>",
)

TITLE_EXTRAS = rule(
    "NW014",
    "news-title-extras",
    INFO,
    summary="A `news:title` that repeats the publication's name or the publication date",
    what="""
        Detects a `news:title` that carries the publication's name (as given in
        `news:name`) before or after the headline, set apart by a separator
        (`Headline | Name`, `Name: Headline`, `Headline - Name`, `Headline (Name)`),
        or as the whole title, or the article's publication date. A headline that
        merely uses the name's words (`Time to act`, for a publication named Time) is
        not reported.
    """,
    why="""
        Google asks for the title of the article as it appears on the site,
        without the author, the publication's name or the publication date:
        those have their own fields, and repeated in the title they take the
        room of the headline.
    """,
    bad="<news:title>Companies A and B in merger talks - The Example Times</news:title>",
    good="<news:title>Companies A and B in merger talks</news:title>",
)

NAME_PARENTHETICAL = rule(
    "NW015",
    "news-name-parenthetical",
    WARNING,
    summary="A `news:name` with a trailing parenthetical such as `(subscription)`",
    what="""
        Detects a publication name that ends with a part in parentheses, such as
        `The Example Times (subscription)`.
    """,
    why="""
        The name must match the name under which Google News shows the
        publication, without any trailing parenthetical that Google News adds:
        otherwise the articles are not matched to the publication.
    """,
    bad="<news:name>The Example Times (subscription)</news:name>",
    good="<news:name>The Example Times</news:name>",
)

DATE_WITHOUT_SECONDS = rule(
    "NW016",
    "news-date-without-seconds",
    WARNING,
    summary="A `news:publication_date` with hours and minutes but no seconds",
    what="""
        Detects a publication date in the W3C form with hours and minutes and a
        timezone but no seconds (`2025-05-31T08:00+02:00`). Google News accepts
        it; the news schema does not, so the `strict` profile makes it an error.
        (Other dates go through the date rules.)
    """,
    why="""
        W3C Datetime and Google's news sitemap documentation allow the form, but
        the schema's `dateTime` type requires seconds: strict XSD validators
        reject the file. Adding `:00` satisfies both.
    """,
    bad="<news:publication_date>2025-05-31T08:00+02:00</news:publication_date>",
    good="<news:publication_date>2025-05-31T08:00:00+02:00</news:publication_date>",
)

MISPLACED = rule(
    "NW017",
    "news-misplaced-element",
    ERROR,
    summary="A news element directly in `url` that is not `news:news`",
    what="""
        Detects elements of the news namespace standing directly in a `url`
        other than `news:news`: a field such as `news:title` or
        `news:publication` without its `news:news` wrapper, or an unknown name
        such as `news:article`.
    """,
    why="""
        Only `news:news` may stand in a `url`; the schema rejects anything else
        and Google News does not read the article.
    """,
    bad="""
        <url>
          <loc>https://example.com/business/merger-talks</loc>
          <news:title>Companies A and B in merger talks</news:title>
        </url>
    """,
    good=_example(),
)

UNKNOWN_CHILD = rule(
    "NW018",
    "news-unknown-element",
    ERROR,
    summary="A child of `news:news` or `news:publication` that the news extension does not define",
    what="""
        Reports elements inside a `news:news` or its `news:publication` that
        the news extension does not define there: an unknown name (a misspelt
        one gets a "did you mean"), a publication field written directly in
        `news:news`, a field written without the `news:` prefix, or an element
        of another namespace. (A stand-in for a missing required field, such
        as `title` without its prefix where `news:title` is missing, is
        NW001's.)
    """,
    why="""
        The schema rejects the whole `news:news`, and Google News does not
        read what the element says.
    """,
    bad="""
        <news:news>
          <news:publication>...</news:publication>
          <news:publication_date>2025-05-31T08:00:00+00:00</news:publication_date>
          <news:author>Jane Doe</news:author>
          <news:title>Companies A and B in merger talks</news:title>
        </news:news>
    """,
    good="""
        <news:news>
          <news:publication>...</news:publication>
          <news:publication_date>2025-05-31T08:00:00+00:00</news:publication_date>
          <news:title>Companies A and B in merger talks</news:title>
        </news:news>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "News extension"
ORDER = 150

EMPTY = rule(
    "NW019",
    "empty-news-sitemap",
    WARNING,
    summary="A news sitemap without entries",
    what="""
        Detects a `urlset` that declares the news namespace and has no `url`: a
        news sitemap with nothing in it. Every other sitemap without entries is
        ST008's. The news schema's `urlset` still needs one `url`, so the
        `strict` profile makes it an error.
    """,
    why="""
        A news sitemap lists only the articles of the last two days, so it is
        empty after days without news. Google says so itself: Search Console
        warns of an "Empty sitemap" to make sure it was meant, and it causes no
        problem in Search. Check that the generator meant it: an empty news
        sitemap on a day with articles means they are missing.
    """,
    bad="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
                xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
        </urlset>
    """,
    good=_example(),
)

RULES = (
    MISSING,
    LANGUAGE_FORM,
    LANGUAGE_UNKNOWN,
    REPEATED,
    TOO_MANY,
    TOO_OLD,
    NAME_DIFFERS,
    ACCESS_INVALID,
    GENRES_INVALID,
    TICKERS_INVALID,
    LEGACY_FIELDS,
    CHILD_ORDER,
    TITLE_TOO_LONG,
    TITLE_EXTRAS,
    NAME_PARENTHETICAL,
    DATE_WITHOUT_SECONDS,
    MISPLACED,
    UNKNOWN_CHILD,
    EMPTY,
)

_LANGUAGE = lazy(r"(?:zh-cn|zh-tw|[a-z]{2,3})\Z")
_LANGUAGE_TAG = lazy(r"([a-z]{2,3})(?:-([a-z0-9]{1,8}))*\Z")
_CHINESE = {
    "zh-hans": "zh-cn",
    "zh-sg": "zh-cn",
    "zh-my": "zh-cn",
    "zh-hant": "zh-tw",
    "zh-hk": "zh-tw",
    "zh-mo": "zh-tw",
}
_CHINESE_CHOICE = "zh-cn (Simplified Chinese) or zh-tw (Traditional Chinese)"
_CHINESE_WITHOUT_SCRIPT = frozenset(("zh", "zho", "chi"))  # ISO 639-1, 639-2/T, 639-2/B
_GENRES = lazy(r"(?:{g})(?:, *(?:{g}))*\Z".format(g="|".join(GENRES)))
_GENRE_KEYS = {genre.lower(): genre for genre in GENRES}
_FULL_DATE = lazy(r"\d{4}-\d{2}-\d{2}")  # a year or month alone has no age to judge
_TICKER = lazy(r"[^\s,:]+:[^\s,:]+\Z")
_TICKERS = lazy(r"[^\s,:]+:[^\s,:]+(?:, *[^\s,:]+:[^\s,:]+){0,4}\Z")
_FREE_ACCESS = frozenset(("free", "open", "public", "none", "no", "all", "everyone", "freeaccess"))
_SUBSCRIPTION = frozenset(("paid", "premium", "paywall", "subscriber", "subscribers", "subscribe"))
_REGISTRATION = frozenset(("register", "registered", "login", "signin", "signup", "members"))


class _Nodes:
    """Nodes a finding covers, each without its descendants (see ``Reporter.add``)."""

    __slots__ = ("nodes",)

    def __init__(self, *nodes: Node):
        self.nodes = nodes

    def iter(self) -> Iterator[Node]:
        return iter(self.nodes)


# Its elements' URLs and dates are checked with the URL and date rules, which it reports too.
@check(
    "extension",
    namespace=NAMESPACE,
    emits=(*RULES, *dates.RULES, UNEXPECTED_TEXT),
    covers=True,
    proof=stateful("news"),
)
class Checker:
    """Checks the news:news elements of one file."""

    __slots__ = ("count", "entry_first", "file", "first_name", "name_reported", "over_limit")

    def __init__(self, file: FileContext | None = None) -> None:
        self.file = file
        self.count = 0
        # The first news:news past the limit: where, and the pointer to it.
        self.over_limit: tuple[int, int, str | None] | None = None
        self.entry_first: Node | None = None  # the current entry's first news:news
        self.first_name: tuple[str, int] | None = None  # the file's first name and its line
        self.name_reported = False

    def check(self, element: Node, context: EntryContext, report: Reporter) -> None:
        if element.name != "news":
            _misplaced(element, report)
            return
        self._count(element, context.entry)
        if self.entry_first is None:
            self.entry_first = element
        else:
            first = self.entry_first
            report.add(
                REPEATED.at(
                    element.line,
                    element.column,
                    f"more than one <news:news> in one <url> (the first is at line {first.line}); "
                    "a URL is one article: keep one news:news and give other articles their own url",
                )
            )
        check_text(element, "news", report, context.prefixes)
        fields = _fields(element)
        _check_unknown(element, fields, NEWS_ORDER, report)
        _check_order(element, NEWS_SEQUENCE, report)
        missing = [name for name in _REQUIRED_NEWS if name not in fields]
        if missing:
            _missing(element, missing, NEWS_ORDER, report)
        publication = fields.get("publication")
        if publication is not None:
            _check_order(publication, PUBLICATION_SEQUENCE, report)
            self._check_publication(publication, element, report, context.prefixes)
        date = fields.get("publication_date")
        parsed = None
        if date is not None and not date.children and not date.text.strip():
            report.add(
                MISSING.at(
                    date.line,
                    date.column,
                    "<news:publication_date> is empty; give the article's publication date "
                    "in W3C format, e.g. 2025-05-31T08:00:00+00:00",
                ),
                date,  # the schema's complaint about the empty date is this one
            )
        elif date is not None and not date.children:
            parsed = _check_publication_date(date, context, report)
        title = fields.get("title")
        if title is not None and not title.children and not title.text.strip():
            report.add(
                MISSING.at(
                    title.line, title.column, "<news:title> is empty; give the article's title"
                )
            )
        elif title is not None and not title.children:
            _check_title(title, publication, date if parsed is not None else None, report)
        legacy = [fields[name] for name in LEGACY if name in fields]
        if legacy:
            _check_legacy(legacy, report)

    def enter_proved(self, entry: Node, news: Node, name: str, report: Reporter) -> None:
        """A news:news that the fast path proved (fastpath/news.py: ``check`` on it alone
        reports nothing), the only one of ``entry``: what ``check`` keeps across entries.
        ``news`` holds its news:publication and news:name nodes at their places, ``name``
        the publication's name as ``check`` compares it."""
        self._count(news, entry)
        self._compare_name(name, news.children[0].children[0], report)

    def _count(self, element: Node, entry: Node) -> None:
        self.count += 1
        if self.count == MAX_NEWS + 1:
            file = self.file
            path = file.element_path if file is not None else None
            xpath = path(entry, element) if path is not None else None
            self.over_limit = (element.line, element.column, xpath)

    def _check_publication(
        self, publication: Node, news: Node, report: Reporter, prefixes: Mapping[str, str]
    ) -> None:
        check_text(publication, "news", report, prefixes)
        fields = _fields(publication)
        _check_unknown(publication, fields, PUBLICATION_ORDER, report)
        missing = [field for field in PUBLICATION_ORDER if field not in fields]
        if missing:
            _missing(publication, missing, PUBLICATION_ORDER, report, news)
        name = fields.get("name")
        if name is not None and not name.children:
            text = name.text.strip()
            if not text:
                report.add(
                    MISSING.at(
                        name.line,
                        name.column,
                        "<news:name> is empty; give the publication's name exactly as it "
                        "appears on Google News",
                    )
                )
            else:
                self._compare_name(text, name, report)
                _check_parenthetical(text, name, report)
        language = fields.get("language")
        if language is not None and not language.children:
            check_language(language.text, language, report)

    def _compare_name(self, text: str, node: Node, report: Reporter) -> None:
        if self.first_name is None:
            self.first_name = (text, node.line)
            return
        first, line = self.first_name
        if text == first or self.name_reported:
            return
        self.name_reported = True
        how = " (only in letter case)" if text.lower() == first.lower() else ""
        report.add(
            NAME_DIFFERS.at(
                node.line,
                node.column,
                f"publication name {_shown(text)!r} differs{how} from {_shown(first)!r} at line "
                f"{line}; Google News matches the name exactly: give every entry the "
                "publication's name as Google News shows it",
            )
        )

    def end_entry(self, context: EntryContext, report: Reporter) -> None:
        self.entry_first = None

    def finish(self, report: Reporter) -> None:
        if self.over_limit is not None:
            line, column, xpath = self.over_limit
            report.add(
                TOO_MANY.at(
                    line,
                    column,
                    f"sitemap has {self.count:,} news:news elements, more than the {MAX_NEWS:,} "
                    "Google allows; this is the first one past the limit; split the articles "
                    "over several news sitemaps or drop those older than two days",
                ).with_xpath(xpath)
            )


def _fields(parent: Node) -> dict[str, Node]:
    """The first child of each name in the news namespace."""
    found: dict[str, Node] = {}
    for child in parent.children:
        if child.ns == NAMESPACE and child.name not in found:
            found[child.name] = child
    return found


_MISSING_FIX = {
    "publication": "add <news:publication> as its first child, with <news:name> (the publication's "
    "name as Google News shows it) and <news:language> (an ISO 639 code such as en)",
    "name": "add <news:name> with the publication's name as Google News shows it, before "
    "<news:language>",
    "language": "add <news:language> with the ISO 639 code of the article's language "
    "(e.g. en; zh-cn or zh-tw for Chinese) after <news:name>",
    "publication_date": "add <news:publication_date> with the date the article was first "
    "published, e.g. 2025-05-31T08:00:00+00:00",
    "title": "add <news:title> with the article's title after <news:publication_date>",
}


# What to add for a missing field named with others (the fix is then one sentence).
_MISSING_ALONG = {
    "publication": "<news:publication> (with <news:name> and <news:language>)",
    "name": "<news:name> (the publication's name as Google News shows it)",
    "language": "<news:language> (an ISO 639 code such as en)",
    "publication_date": "<news:publication_date> (the date the article was first published, "
    "e.g. 2025-05-31T08:00:00+00:00)",
    "title": "<news:title> (the article's title)",
}


def _missing(
    parent: Node,
    names: Sequence[str],
    order: tuple[str, ...],
    report: Reporter,
    outer: Node | None = None,
) -> None:
    """Report the missing required children ``names`` of ``parent`` (in ``order``) as
    one finding; cover where the schema notices them: the parent (content incomplete),
    the first child that stands where the first missing one belongs, and each child
    that stands for one (misspelt, or without the prefix), renamed instead, or (a
    publication field) one written directly in ``outer``, the news:news, moved."""
    covers = [parent]
    rank = order.index(names[0])
    for child in parent.children:
        if child.ns == NAMESPACE and child.name in order and order.index(child.name) > rank:
            covers.append(child)
            break
    fixes: list[str] = []
    added: list[str] = []
    for name in names:
        stand_in = _misspelling_of(parent, name, order)
        if stand_in is not None:
            covers.append(stand_in)
            if stand_in.ns == NAMESPACE:
                fixes.append(f"rename <news:{stand_in.name}> to <news:{name}>")
            else:
                fixes.append(f"write <news:{name}> instead of <{name}> (add the prefix)")
        elif outer is not None and (stray := _outer_stand_in(outer, name)) is not None:
            covers.append(stray)
            fixes.append(
                f"move the <news:{name}> that stands directly in <news:news> "
                f"(line {stray.line}) into it"
            )
        else:
            added.append(name)
    if len(added) == 1 and not fixes:
        fixes.append(_MISSING_FIX[added[0]])
    elif added:
        fixes.append(
            "add "
            + joined([_MISSING_ALONG[name] for name in added])
            + (", in this order" if len(added) > 1 else "")
        )
    what = [f"<news:{name}>" for name in names]
    lacking = what[0] if len(what) == 1 else ", ".join(what[:-1]) + " or " + what[-1]
    report.add(
        MISSING.at(
            parent.line,
            parent.column,
            f"<news:{parent.name}> has no {lacking}; " + "; ".join(fixes),
        ),
        _Nodes(*covers),
    )


def _misspelling_of(parent: Node, name: str, order: tuple[str, ...]) -> Node | None:
    """An unknown child of ``parent`` that stands for its missing ``name``: misspelt, or
    the right name outside the news namespace."""
    for child in parent.children:
        if child.ns == NAMESPACE and child.name in order:
            continue
        if child.name == name and child.ns in (SITEMAP_NS, ""):
            return child
        if child.ns == NAMESPACE and difflib.get_close_matches(child.name, [name], cutoff=0.7):
            return child
    return None


def _outer_stand_in(news: Node, name: str) -> Node | None:
    """The first publication field ``name`` written directly in ``news``."""
    for child in news.children:
        if child.ns == NAMESPACE and child.name == name:
            return child
    return None


def _check_unknown(
    parent: Node, fields: dict[str, Node], order: tuple[str, ...], report: Reporter
) -> None:
    """NW018 for each child of ``parent`` that its schema does not define there, but for
    a stand-in for a missing required field (NW001 names it: ``_missing``)."""
    stand_ins = set()
    for name in order:
        if name in _REQUIRED and name not in fields:
            stand_in = _misspelling_of(parent, name, order)
            if stand_in is not None:
                stand_ins.add(id(stand_in))
    for child in parent.children:
        if (child.ns == NAMESPACE and child.name in order) or id(child) in stand_ins:
            continue
        present = fields
        if child.ns == NAMESPACE and child.name in PUBLICATION_ORDER and "publication" in fields:
            present = _fields(fields["publication"])  # a publication field in news:news
            if child.name not in present and _outer_stand_in(parent, child.name) is child:
                continue  # NW001 moves it into the publication that lacks it
        message = _unknown_message(parent, child, order, child.name in present)
        report.add(UNKNOWN_CHILD.at(child.line, child.column, message), child)


def _unknown_message(parent: Node, child: Node, order: tuple[str, ...], present: bool) -> str:
    """What is wrong with ``child`` of ``parent``; ``present``: the news field of the
    child's name is already where it belongs."""
    if child.ns == NAMESPACE and parent.name == "news" and child.name in PUBLICATION_ORDER:
        fix = "remove it (<news:publication> has one)" if present else "move it there"
        return (
            f"<news:{child.name}> stands directly in <news:news>; it belongs inside "
            f"<news:publication>: {fix}"
        )
    if present and child.name in order and child.ns in (SITEMAP_NS, ""):
        return (
            f"<{child.name}> inside <news:{parent.name}> repeats <news:{child.name}> without "
            "the news: prefix; remove it"
        )
    otherwise = (
        "remove it"
        if child.ns in (SITEMAP_NS, "")
        else "move it into the <url> if it describes the page, or remove it"
    )
    return stray_child_message("news", NAMESPACE, child, order, otherwise, parent.name)


# A time with hours and minutes and a zone but no seconds: W3C and Google accept it.
_MINUTES = lazy(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(Z|[+-]\d{2}:\d{2})\Z")


def _check_publication_date(
    date: Node, context: EntryContext, report: Reporter
) -> dates.Parsed | None:
    text = date.text
    minutes = _MINUTES.match(text.strip())
    if minutes is not None:
        fixed = f"{minutes.group(1)}:00{minutes.group(2)}"
        report.add(
            DATE_WITHOUT_SECONDS.at(
                date.line,
                date.column,
                f"<news:publication_date> {text.strip()} has no seconds: Google News accepts it, "
                f"the news schema does not; write {fixed} to satisfy both",
            ),
            _Nodes(date),
        )
        text = fixed  # the other date rules judge the moment it stands for
    parsed = dates.check_date(text, date, report, context.now, field="news:publication_date")
    if parsed is not None and _FULL_DATE.match(text.strip()):
        _check_age(parsed, date, context.now, report)
    return parsed


def _check_title(
    title: Node, publication: Node | None, date: Node | None, report: Reporter
) -> None:
    text = title.text.strip()
    if len(text) > MAX_TITLE:
        report.add(
            TITLE_TOO_LONG.at(
                title.line,
                title.column,
                f"<news:title> is {len(text):,} characters long; Google may truncate titles, and "
                f"its headline guidance is at most {MAX_TITLE}: shorten it to the article's "
                "headline",
            )
        )
    extras = []
    name = _fields(publication).get("name") if publication is not None else None
    lowered = text.lower()
    if name is not None and not name.children:
        publication_name = name.text.strip()
        if len(publication_name) >= 3 and _names_publication(lowered, publication_name.lower()):
            extras.append(f"the publication's name ({_shown(publication_name)!r})")
    if date is not None:
        day = date.text.strip()[:10]
        if _FULL_DATE.match(day) and day in text:
            extras.append(f"the publication date ({day})")
    if extras:
        report.add(
            TITLE_EXTRAS.at(
                title.line,
                title.column,
                f"<news:title> contains {' and '.join(extras)}; give the article's title as it "
                f"appears on the page, without {'it' if len(extras) == 1 else 'them'} "
                "(each has its own field)",
            )
        )


# What sets a publication's name apart from the headline it is added to.
# (A hyphen only with spaces around it: "Post-war" is one word.)
_SEPARATOR = r"(?:\s*[|:\u2013\u2014\u00b7\u2022/]\s*|\s+-\s+)"


@functools.lru_cache(maxsize=64)
def _name_added(name: str) -> re.Pattern[str]:
    written = re.escape(name)
    return re.compile(
        rf"\A\s*{written}{_SEPARATOR}\S|\S{_SEPARATOR}{written}\s*\Z|\S\s*\(\s*{written}\s*\)\s*\Z"
    )


def _names_publication(title: str, name: str) -> bool:
    """Whether ``title`` (lower case) carries the publication's ``name`` (lower case) as an
    addition: before or after the headline, set apart by a separator ("Headline | Name",
    "Name: Headline", "Headline - Name", "Headline (Name)"). A headline that uses the
    name's words ("Time to act", for the magazine Time) does not; a title that is the
    name alone does (the headline is missing)."""
    if name not in title:
        return False
    return title.strip() == name or _name_added(name).search(title) is not None


_PARENTHETICAL = lazy(r"(.*?)\s*\([^()]*\)\Z", re.DOTALL)


def _check_parenthetical(text: str, node: Node, report: Reporter) -> None:
    match = _PARENTHETICAL.match(text)
    if match is None or not match.group(1):
        return
    report.add(
        NAME_PARENTHETICAL.at(
            node.line,
            node.column,
            f"publication name {_shown(text)!r} ends with a parenthetical; give the name as "
            f"Google News shows it, without it: {_shown(match.group(1))!r}",
        )
    )


def _check_age(parsed: dates.Parsed, node: Node, now: datetime, report: Reporter) -> None:
    latest = parsed.end()  # a day, month or year read at its end
    current = now.replace(tzinfo=None) if latest.tzinfo is None else now
    age = current - latest
    if age <= MAX_AGE:
        return
    if age < timedelta(days=3):
        hours, rest = divmod(age, timedelta(hours=1))
        how_old = f"{'more than ' if rest else ''}{hours} hours old"
    else:
        how_old = f"{age.days:,} days old"
    report.add(
        TOO_OLD.at(
            node.line,
            node.column,
            f"article published {node.text.strip()} is {how_old} (now is "
            f"{dates.utc_text(now)}); Google News only uses articles from the "
            "last two days: remove this URL or its <news:news> from the news sitemap",
        )
    )


def _shown(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _misplaced(element: Node, report: Reporter) -> None:
    advice = None
    if element.name in PUBLICATION_ORDER:
        advice = "put it inside the <news:publication> of the <news:news> it describes"
    elif element.name in NEWS_ORDER:
        advice = "put it inside the <news:news> it describes"
    message = misplaced_message("news", element.name, advice)
    report.add(MISPLACED.at(element.line, element.column, message), element)


# -- language ----------------------------------------------------------------------------------


def check_language(value: str, node: Node, report: Reporter) -> None:
    """Check a news:language value: its form (schema) and the code itself (ISO 639)."""
    if _LANGUAGE.match(value):
        problem = _unknown_language(value)
        if problem:
            report.add(LANGUAGE_UNKNOWN.at(node.line, node.column, problem))
        return
    report.add(LANGUAGE_FORM.at(node.line, node.column, _language_message(value)), node)


def _language_message(value: str) -> str:
    text = value.strip()
    if not text:
        return (
            "<news:language> is empty; give the ISO 639 code of the article's language, "
            "e.g. en (zh-cn or zh-tw for Chinese)"
        )
    shown = f"<news:language> {_shown(text)!r}"
    fix = _language_fix(text)
    if fix is None:
        return (
            f"{shown} is not an ISO 639 language code; write the two- or three-letter code "
            "of the article's language in lower case, e.g. en, de or fr (zh-cn or zh-tw for "
            "Chinese)"
        )
    tag = text.lower().replace("_", "-")
    if text != value and _LANGUAGE.match(text):
        return f"<news:language> {_shown(value)!r} has spaces around the code: write {fix}"
    if tag == fix:
        why = "must be written in lower case"
    elif not _LANGUAGE_TAG.match(tag):
        why = "is a language name, not its code"
    elif fix.startswith("zh-"):
        why = "is not one of the two Chinese codes the schema accepts"
    elif "-" in tag:
        why = "carries a region or script; news sitemaps take the language alone"
    else:
        why = "is not a code the schema accepts"
    return f"{shown} {why}: write {fix}"


def _unknown_language(code: str) -> str | None:
    if code in ("zh-cn", "zh-tw"):
        return None
    if code in _CHINESE_WITHOUT_SCRIPT:
        return f"<news:language> {code!r} does not say which script; write {_CHINESE_CHOICE}"
    new = langtags.withdrawn_language(code)
    if new is not None:
        return f"<news:language> {code!r} is a withdrawn ISO 639 code ({_language_name(new)}); write {new}"
    found = _language(code)
    if found is not None and found[1]:
        return (
            f"<news:language> {code!r} is a special ISO 639 code ({found[0]}), not a language; "
            "write the code of the article's language, e.g. en, de or fr"
        )
    if found is None:
        return (
            f"<news:language> {code!r} is not an ISO 639 language code; write the code of the "
            "article's language, e.g. en, de or fr"
        )
    return None


def _language_fix(text: str) -> str | None:
    """The code to write for a value the schema rejects, or None when there is no safe guess."""
    tag = text.lower().replace("_", "-")
    if tag in ("zh-cn", "zh-tw"):
        return tag
    code: str | None
    for prefix, code in _CHINESE.items():
        if tag == prefix or tag.startswith(prefix + "-"):
            return code
    match = _LANGUAGE_TAG.match(tag)
    if match:
        primary = match.group(1)
        if primary in _CHINESE_WITHOUT_SCRIPT:
            return _CHINESE_CHOICE
        new = langtags.withdrawn_language(primary)
        if new is not None:
            return new
        if _language_name(primary) is not None:
            return primary
    words = re.split(r"[\s(,;/-]+", text)
    for candidate in dict.fromkeys((text, words[0])):
        found = langtags.language_for_name(candidate)
        if found:
            return _CHINESE_CHOICE if found == "zh" else found
    return None


def _language(code: str) -> tuple[str, bool] | None:
    """The ISO 639 name of a two- or three-letter code and whether it is one of the
    special codes (`und`, `mul`, `zxx`, `mis`); None when it is not a code."""
    found = langtags.language(code)
    return None if found is None else (found.name, found.special)


def _language_name(code: str) -> str | None:
    found = _language(code)
    return found[0] if found is not None and not found[1] else None


# -- legacy fields --------------------------------------------------------------------------


def _check_legacy(legacy: list[Node], report: Reporter) -> None:
    written = sorted(legacy, key=lambda node: (node.line, node.column))  # as the file has them
    first = written[0]
    names = ", ".join(f"<news:{node.name}>" for node in written)
    if len(legacy) == 1:
        what = f"the legacy field {names}, which Google no longer documents; remove it"
    else:
        what = f"the legacy fields {names}, which Google no longer documents; remove them"
    report.add(LEGACY_FIELDS.at(first.line, first.column, f"<news:news> uses {what}"))
    for node in legacy:
        if node.children:
            continue  # markup inside a text field: the schema reports it
        if node.name == "access":
            _check_access(node.text, node, report)
        elif node.name == "genres":
            _check_genres(node.text, node, report)
        elif node.name == "stock_tickers":
            _check_tickers(node.text, node, report)


def _check_access(value: str, node: Node, report: Reporter) -> None:
    if value in ACCESS:
        return
    text = value.strip()
    key = re.sub(r"[\s_-]+", "", text.lower())
    if not text:
        fix = "give Subscription or Registration, or remove <news:access> for free articles"
    elif key in ("subscription", "registration"):
        fix = f"write {key.capitalize()}"
    elif key in _FREE_ACCESS:
        fix = "articles free to read need no <news:access>: remove it"
    elif key in _SUBSCRIPTION:
        fix = "for articles behind a paywall write Subscription"
    elif key in _REGISTRATION:
        fix = "for articles that need a free account write Registration"
    else:
        fix = "use Subscription or Registration, or remove <news:access> for free articles"
    report.add(
        ACCESS_INVALID.at(
            node.line,
            node.column,
            f"<news:access> {_shown(text)!r} is not a valid access value; {fix}",
        ),
        node,
    )


def _check_genres(value: str, node: Node, report: Reporter) -> None:
    if _GENRES.match(value):
        return
    text = value.strip()
    if not text:
        message = (
            "<news:genres> is empty; list genres such as PressRelease or Blog, or remove "
            "the element"
        )
    else:
        separator = r"[,;|/]" if re.search(r"[,;|/]", text) else r"\s+"
        parts = [part.strip() for part in re.split(separator, text) if part.strip()]
        fixed, unknown = [], []
        for part in parts:
            key = re.sub(r"[\s_-]+", "", part.lower())
            genre = _GENRE_KEYS.get(key) or _GENRE_KEYS.get(key.removesuffix("s"))
            if genre is None:
                unknown.append(part)
            elif genre not in fixed:
                fixed.append(genre)
        if unknown:
            which = ", ".join(repr(_shown(part, 30)) for part in unknown[:3])
            message = (
                f"<news:genres> {_shown(text)!r}: {which} "
                f"{'is not a genre' if len(unknown) == 1 else 'are not genres'}; use "
                f"{', '.join(GENRES)} (comma-separated), or remove <news:genres> for "
                "ordinary news articles"
            )
        else:
            message = (
                f"<news:genres> {_shown(text)!r} is not written as the schema requires "
                f"(exact names, separated by commas); write {', '.join(fixed)}"
            )
    report.add(GENRES_INVALID.at(node.line, node.column, message), node)


def _check_tickers(value: str, node: Node, report: Reporter) -> None:
    if _TICKERS.match(value):
        return
    text = value.strip()
    if not text:
        message = (
            "<news:stock_tickers> is empty; list up to five EXCHANGE:SYMBOL pairs, or remove "
            "the element"
        )
    else:
        joined = re.sub(r"\s*:\s*", ":", text)
        separator = r"[,;|]" if re.search(r"[,;|]", joined) else r"\s+"
        fixed = [part.strip() for part in re.split(separator, joined) if part.strip()]
        bare = [part for part in fixed if not _TICKER.match(part)]
        if bare:
            message = (
                f"<news:stock_tickers> {_shown(bare[0], 30)!r} is not an EXCHANGE:SYMBOL pair; "
                "write each ticker with its exchange, e.g. NASDAQ:AMAT, separated by commas"
            )
        elif len(fixed) > MAX_TICKERS:
            message = (
                f"<news:stock_tickers> lists {len(fixed)} tickers, more than the "
                f"{MAX_TICKERS} allowed; keep the five most relevant"
            )
        else:
            message = (
                f"<news:stock_tickers> {_shown(text)!r} is not a comma-separated list of "
                f"EXCHANGE:SYMBOL pairs; write {', '.join(fixed)}"
            )
    report.add(TICKERS_INVALID.at(node.line, node.column, message), node)


def _check_order(parent: Node, sequence: tuple[Step, ...], report: Reporter) -> None:
    """NW012 where the children of <news:news> or <news:publication> are out of order."""
    whose = f" of <news:{parent.name}>'s children: "
    check_child_order(
        parent, NAMESPACE, sequence, CHILD_ORDER, "news", whose, _Nodes, report, _LEGACY_SAID
    )


@check(END, emits=(EMPTY,), proof=NO_PROOF)
def check_empty_news_sitemap(end: FileEnd, file: object, report: Reporter) -> None:
    """NW019 at the root of a urlset without entries that declares the news namespace
    (``structure.check_entry_count`` leaves it to this check)."""
    root = end.root
    if root is None or not is_empty_news_sitemap(end):
        return
    report.add(
        EMPTY.at(
            root.line,
            root.column,
            "news sitemap has no <url> entries (no article of the last two days?); Google "
            "accepts an empty one, but check that no article is missing",
        )
    )
