"""Video extension rules: video:video inside url.

The schema fixes the children's order, occurrences and types; Google adds its
own requirements (a media or player URL, durations of at least a second, one
restriction and one platform, ...) and ignores the children it deprecated in
2022. Thumbnail sizes would need a fetch and are not checked.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from datetime import datetime
from itertools import pairwise
from typing import TYPE_CHECKING, cast
from urllib.parse import urlsplit

from sitemap_lint.domain import langtags
from sitemap_lint.domain.hosts import to_ascii
from sitemap_lint.domain.identity import normal_url
from sitemap_lint.domain.sequence import (
    Step,
    is_order_problem,
    misplacement,
    order_of,
    sequence_break,
)
from sitemap_lint.model import SITEMAP_NS, XML_SPACE, Node
from sitemap_lint.rules import dates, urls
from sitemap_lint.rules.base import ERROR, INFO, WARNING, check, rule
from sitemap_lint.rules.entry import EntryContext, FileContext
from sitemap_lint.rules.events import Replacements
from sitemap_lint.rules.extension import (
    UNEXPECTED_TEXT,
    check_text,
    misplaced_message,
    removal_note,
    stray_child_message,
)
from sitemap_lint.rules.registry import stateful
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.words import joined

if TYPE_CHECKING:
    from decimal import Decimal

NAMESPACE = "http://www.google.com/schemas/sitemap-video/1.1"

REQUIRED = ("thumbnail_loc", "title", "description")
MAX_TAGS = 32
MAX_DURATION = 28_800
# (name, maximum length, whether the schema enforces it)
TEXT_LIMITS = {
    "title": (100, True),
    "description": (2048, True),
    "category": (256, True),
    "uploader": (255, False),
}

MISSING_REQUIRED = rule(
    "VD001",
    "video-missing-required",
    ERROR,
    summary="A `video:video` without `thumbnail_loc`, `title` or `description`, or with one empty",
    what="""
        Checks that every `video:video` has a non-empty `video:thumbnail_loc`,
        `video:title` and `video:description`, and names all that are missing or
        empty in one finding.
    """,
    why="""
        The three are required by the schema and by Google; a video without them
        is invalid and is not indexed.
    """,
    bad="""
        <video:video>
          <video:thumbnail_loc>https://example.com/thumbs/42.jpg</video:thumbnail_loc>
          <video:content_loc>https://example.com/videos/42.mp4</video:content_loc>
        </video:video>
    """,
    good="""
        <video:video>
          <video:thumbnail_loc>https://example.com/thumbs/42.jpg</video:thumbnail_loc>
          <video:title>Grilling steaks for summer</video:title>
          <video:description>Get perfectly done steaks every time.</video:description>
          <video:content_loc>https://example.com/videos/42.mp4</video:content_loc>
        </video:video>
    """,
)

NO_MEDIA_URL = rule(
    "VD002",
    "video-no-media-url",
    ERROR,
    summary="A video with neither `content_loc` nor `player_loc`",
    what="Checks that every `video:video` has a `video:content_loc` or a `video:player_loc` with a URL.",
    why="""
        The schema makes both optional, but Google requires at least one: without
        the media file or a player it cannot fetch the video, and it skips it.
    """,
    bad="""
        <video:video>
          <video:thumbnail_loc>https://example.com/thumbs/42.jpg</video:thumbnail_loc>
          <video:title>Grilling steaks for summer</video:title>
          <video:description>Get perfectly done steaks every time.</video:description>
        </video:video>
    """,
    good="""
        <video:video>
          <video:thumbnail_loc>https://example.com/thumbs/42.jpg</video:thumbnail_loc>
          <video:title>Grilling steaks for summer</video:title>
          <video:description>Get perfectly done steaks every time.</video:description>
          <video:content_loc>https://example.com/videos/42.mp4</video:content_loc>
        </video:video>
    """,
)

URL_IS_PAGE = rule(
    "VD003",
    "video-url-is-page",
    ERROR,
    summary="`content_loc` or `player_loc` is the page's own URL",
    what="""
        Detects a `video:content_loc` or `video:player_loc` equal to the `loc` of
        its `url`, compared as pages are (the scheme and host in lower case, without
        the default port) and without a fragment, which crawlers drop.
    """,
    why="""
        Google requires both to differ from the page: `content_loc` is the media
        file, `player_loc` the player's URL. The page itself is neither, and the
        video is not indexed.
    """,
    bad="""
        <loc>https://example.com/videos/steaks</loc>
        <video:video>
          ...
          <video:player_loc>https://example.com/videos/steaks</video:player_loc>
        </video:video>
    """,
    good="""
        <loc>https://example.com/videos/steaks</loc>
        <video:video>
          ...
          <video:player_loc>https://example.com/player?video=42</video:player_loc>
        </video:video>
    """,
)

CONTENT_NOT_MEDIA = rule(
    "VD004",
    "video-content-not-media",
    ERROR,
    summary="`content_loc` points at an HTML page or a Flash file",
    what="""
        Detects a `video:content_loc` whose path ends like a web page (`.html`,
        `.htm`, `.php`, `.asp`, `.aspx`, `.jsp`, ...) or a Flash file (`.swf`),
        and one on a video host's pages (YouTube, Vimeo, Dailymotion: a watch
        or player page, such as `https://www.youtube.com/watch?v=...`).
    """,
    why="""
        `content_loc` must be the video file itself (`.mp4`, `.webm`, `.m3u8`,
        ...). Google does not accept HTML pages or Flash there; the URL of a
        page that plays the video belongs in `player_loc`.
    """,
    bad="<video:content_loc>https://example.com/videos/steaks.html</video:content_loc>",
    good="<video:content_loc>https://example.com/media/steaks.mp4</video:content_loc>",
)

URL_PROTOCOL = rule(
    "VD005",
    "video-url-protocol",
    ERROR,
    summary="A video URL with a streaming or other non-HTTP/FTP protocol",
    what="""
        Detects a `video:content_loc` or `video:player_loc` whose scheme is not
        `http`, `https` or `ftp`: streaming protocols (`rtmp:`, `rtsp:`,
        `mms:`, ...) and others (`file:`, `data:`, ...).
    """,
    why="Google fetches videos over HTTP or FTP only; it cannot read streaming protocols.",
    bad="<video:content_loc>rtmp://media.example.com/live/steaks</video:content_loc>",
    good="<video:content_loc>https://media.example.com/videos/steaks.mp4</video:content_loc>",
)

TEXT_TOO_LONG = rule(
    "VD006",
    "video-text-too-long",
    ERROR,
    summary="A video title, description, category or uploader that is too long",
    what="""
        Checks the length of `video:title` (at most 100 characters),
        `video:description` (2,048), `video:category` (256) and
        `video:uploader` (255).
    """,
    why="""
        The schema rejects longer titles, descriptions and categories, and Google
        rejects longer uploader names; the video is then not indexed.
    """,
    bad="<video:title>Grilling steaks for summer: the complete guide to ... (150 characters)</video:title>",
    good="<video:title>Grilling steaks for summer</video:title>",
)

DURATION = rule(
    "VD007",
    "video-duration-invalid",
    ERROR,
    summary="A video duration that is not a whole number of seconds from 1 to 28,800",
    what="""
        Checks `video:duration` (and the legacy `duration` attribute of
        `video:content_segment_loc`): a whole number of seconds from 1 to 28,800
        (eight hours). Shows the number of seconds for `PT1M30S` or `1:30`.
    """,
    why="""
        The schema rejects other values except 0, which Google rejects too: a
        video of no length is not indexed.
    """,
    bad="<video:duration>PT2M30S</video:duration>",
    good="<video:duration>150</video:duration>",
)

RATING = rule(
    "VD008",
    "video-rating-invalid",
    ERROR,
    summary="A video rating that is not a number from 0.0 to 5.0",
    what="""
        Checks that `video:rating` is a decimal number from 0.0 to 5.0, and names
        the fix for a decimal comma, `4.2/5`, or a 0-10 or percentage scale.
    """,
    why="The schema and Google accept only 0.0 to 5.0; other values are rejected.",
    bad="<video:rating>8.4</video:rating>",
    good="<video:rating>4.2</video:rating>",
)

VIEW_COUNT = rule(
    "VD009",
    "video-view-count-invalid",
    ERROR,
    summary="A view count that is not a whole number of 0 or more",
    what="Checks that `video:view_count` is a whole number of 0 or more, written with digits only.",
    why="""
        The schema rejects anything else (thousands separators, `1.2K`, negative
        numbers) and the value is dropped.
    """,
    bad="<video:view_count>12,345</video:view_count>",
    good="<video:view_count>12345</video:view_count>",
)

EXPIRED = rule(
    "VD010",
    "video-expired",
    WARNING,
    summary="A video whose `expiration_date` has passed",
    what="""
        Compares `video:expiration_date` with the current time (or `--now`).
        A date without a time has passed once its whole day has (a month or a
        year written alone, once its last day has). (Both video dates are also checked by the date rules: W3C form, real
        dates, and a `publication_date` not in the future.)
    """,
    why="""
        Google does not show a video after its expiration date; listing it
        wastes crawling. Either the video is gone and its entry should go, or
        the date is wrong.
    """,
    bad="<video:expiration_date>2021-11-05T19:20:30+08:00</video:expiration_date>",
    good="<video:expiration_date>2030-11-05T19:20:30+08:00</video:expiration_date>",
)

YES_NO = rule(
    "VD011",
    "video-yes-no-invalid",
    ERROR,
    summary="A yes/no field with another value",
    what="""
        Checks `video:family_friendly`, `video:requires_subscription`,
        `video:live` and the `allow_embed` attribute of `video:player_loc`:
        `yes` or `no` (the schema also accepts `Yes`, `YES`, `No`, `NO`).
    """,
    why="""
        `true`, `1`, `y` or a value with spaces are invalid against the schema,
        and Google ignores the field.
    """,
    bad="<video:family_friendly>true</video:family_friendly>",
    good="<video:family_friendly>yes</video:family_friendly>",
)

RESTRICTION = rule(
    "VD012",
    "video-restriction-invalid",
    ERROR,
    summary="`video:restriction` with a bad country list or `relationship`",
    what="""
        Checks `video:restriction`: upper-case ISO 3166 two-letter country codes
        separated by spaces (`US CA GB`, not `us,ca` nor `UK`), and the required
        `relationship` attribute, `allow` or `deny`. Also reports an empty list
        with `relationship="allow"`, which the schema accepts but which allows
        the video in no country.
    """,
    why="""
        The schema rejects other forms and a missing `relationship`; Google
        ignores codes that are not countries. The video is then shown in the
        wrong places, or not at all.
    """,
    bad="<video:restriction>us, uk</video:restriction>",
    good='<video:restriction relationship="allow">US GB</video:restriction>',
)

PLATFORM = rule(
    "VD013",
    "video-platform-invalid",
    ERROR,
    summary="`video:platform` with bad values or `relationship`",
    what="""
        Checks `video:platform`: `web`, `mobile` and `tv` separated by single
        spaces, and the required `relationship` attribute, `allow` or `deny`.
        Also reports an empty list with `relationship="allow"`, which the
        schema accepts but which allows the video on no platform.
    """,
    why="""
        The schema rejects other forms and a missing `relationship`, and Google
        then ignores the restriction. An empty `allow` list hides the video
        everywhere.
    """,
    bad="<video:platform>Web,TV</video:platform>",
    good='<video:platform relationship="allow">web tv</video:platform>',
)

REPEATED = rule(
    "VD014",
    "video-child-repeated",
    ERROR,
    summary="A child that may appear once repeated in one `video:video`",
    what="""
        Detects a second `video:restriction`, `video:platform`, or any other child
        that may appear only once (title, description, duration, ...) in one
        `video:video`.
    """,
    why="""
        The schema allows one, and Google reads only one restriction and one
        platform per video; which one wins is undefined.
    """,
    bad="""
        <video:restriction relationship="allow">US</video:restriction>
        <video:restriction relationship="allow">CA</video:restriction>
    """,
    good='<video:restriction relationship="allow">US CA</video:restriction>',
)

TOO_MANY_TAGS = rule(
    "VD015",
    "video-too-many-tags",
    ERROR,
    summary="More than 32 `video:tag` elements in one video",
    what="Counts the `video:tag` elements of each `video:video`; at most 32 are allowed.",
    why="The schema allows at most 32 tags, and Google reads no more.",
    bad="<video:tag>steak</video:tag> ... (40 tags)",
    good="<video:tag>steak</video:tag> ... (the 32 most relevant tags)",
)

UPLOADER_INFO = rule(
    "VD016",
    "video-uploader-info-domain",
    WARNING,
    summary="`video:uploader`'s `info` URL is not on the page's domain",
    what="""
        Checks that the `info` attribute of `video:uploader` is an absolute URL
        on the same domain as the page's `loc` (subdomains count as the same
        domain).

        The domain is found without the public suffix list: it is the host's last
        two labels, or its last three when the host ends in a two-letter country
        code whose second label is `co`, `com`, `net`, `org`, `gov`, `edu`, `ac`,
        `ne`, `or`, `go` or `gob` (`example.co.uk`, `example.com.au`,
        `example.ne.jp`); an IP address is compared whole. So under another
        public suffix of two labels or more (`me.uk`, `ltd.uk`, `id.au`,
        `k12.ca.us`, or a hosting one such as `github.io` or `blogspot.com`) every
        host has the same domain, the suffix: info on another site there
        (`other.me.uk` for a page on `example.me.uk`) gives no finding. And a
        site whose registered name is one of those labels under a country code
        (`go.xx`) is taken one label deeper: info on another of its hosts is
        reported.
    """,
    why="Google requires the uploader's page to be on the `loc`'s domain and ignores it otherwise.",
    bad="""
        <loc>https://example.com/videos/steaks</loc>
        ...
        <video:uploader info="https://social.example.org/grillymcgrillerson">GrillyMcGrillerson</video:uploader>
    """,
    good="""
        <loc>https://example.com/videos/steaks</loc>
        ...
        <video:uploader info="https://example.com/users/grillymcgrillerson">GrillyMcGrillerson</video:uploader>
    """,
)

DEPRECATED = rule(
    "VD017",
    "video-deprecated",
    INFO,
    summary="Video children or attributes that Google deprecated or no longer documents",
    what="""
        Reports, once per `video:video`, the parts Google deprecated in 2022
        (`category`, `gallery_loc`, `price`, `tvshow`, and the `allow_embed` and
        `autoplay` attributes of `player_loc`) and the legacy `id` and
        `content_segment_loc`.
    """,
    why="""
        They remain valid against the schema and are harmless, but Google ignores
        them: they only make the file bigger.
    """,
    bad="""
        <video:player_loc allow_embed="yes">https://example.com/player?video=42</video:player_loc>
        ...
        <video:category>Grilling</video:category>
    """,
    good="<video:player_loc>https://example.com/player?video=42</video:player_loc>",
)

CHILD_ORDER = rule(
    "VD018",
    "video-child-order",
    WARNING,
    summary="The children of `video:video` out of the schema's order",
    what="""
        Reports where the children of `video:video` leave the schema's fixed
        order (`thumbnail_loc`, `title`, `description`, `content_loc`,
        `player_loc`, `duration`, ...), with the fix and the order to write
        them in. (The `strict` profile makes it an error.)
    """,
    why="""
        Google reads the children in any order, but the schema defines a
        sequence: strict XSD validators, and tools built on them, reject the
        file.
    """,
    bad="""
        <video:video>
          <video:title>Grilling steaks for summer</video:title>
          <video:thumbnail_loc>https://example.com/thumbs/42.jpg</video:thumbnail_loc>
          ...
    """,
    good="""
        <video:video>
          <video:thumbnail_loc>https://example.com/thumbs/42.jpg</video:thumbnail_loc>
          <video:title>Grilling steaks for summer</video:title>
          ...
    """,
)

UNKNOWN_CHILD = rule(
    "VD021",
    "video-unknown-element",
    ERROR,
    summary="A child of `video:video` that the video extension does not define",
    what="""
        Reports elements inside `video:video` that the video extension does not
        define (a misspelt name gets a "did you mean"), and elements of other
        namespaces, which the schema does not allow there.
    """,
    why="The schema rejects the video, and the data in the element is not read.",
    bad="<video:language>en</video:language>",
    good="(remove it; the page's language is not part of a video sitemap)",
)

MISPLACED = rule(
    "VD019",
    "video-misplaced-element",
    ERROR,
    summary="A video element directly in `url` that is not `video:video`",
    what="""
        Detects elements of the video namespace standing directly in a `url`
        other than `video:video`, such as `video:title` without its
        `video:video` wrapper.
    """,
    why="Only `video:video` may stand in a `url`; the schema rejects anything else and Google ignores it.",
    bad="""
        <url>
          <loc>https://example.com/videos/steaks</loc>
          <video:content_loc>https://example.com/media/steaks.mp4</video:content_loc>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/videos/steaks</loc>
          <video:video>
            ...
            <video:content_loc>https://example.com/media/steaks.mp4</video:content_loc>
          </video:video>
        </url>
    """,
)

LEGACY_VALUE = rule(
    "VD020",
    "video-legacy-value-invalid",
    ERROR,
    summary="A value of `video:tvshow`, `video:price` or `video:id` that the schema rejects",
    what="""
        Checks the children and attributes Google deprecated but the schema still
        defines, one finding per defect: in `video:tvshow`, the required
        `show_title` and `video_type`, `video_type` one of `full`, `preview`,
        `clip`, `interview`, `news`, `other`, `season_number` and
        `episode_number` whole numbers of at least 1 (and `premier_date` through
        the date rules); on `video:price`, `currency` as three upper-case letters
        (ISO 4217), `type` purchase or rent, `resolution` sd or hd; on
        `video:id`, the required `type` (`tms:series`, `tms:program`,
        `rovi:series`, `rovi:program`, `freebase` or `url`).
    """,
    why="""
        Google ignores these parts since 2022, but the file is invalid against
        the schema while they hold such values, and a schema validator shows only
        the first defect of an element: each one is listed here. Removing the
        deprecated element fixes them all.
    """,
    bad="""
        <video:tvshow>
          <video:video_type>trailer</video:video_type>
          <video:season_number>0</video:season_number>
        </video:tvshow>
    """,
    good="""
        <video:tvshow>
          <video:show_title>Grilling with friends</video:show_title>
          <video:video_type>preview</video:video_type>
          <video:season_number>1</video:season_number>
        </video:tvshow>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Video extension"
ORDER = 140

RULES = (
    MISSING_REQUIRED,
    NO_MEDIA_URL,
    URL_IS_PAGE,
    CONTENT_NOT_MEDIA,
    URL_PROTOCOL,
    TEXT_TOO_LONG,
    DURATION,
    RATING,
    VIEW_COUNT,
    EXPIRED,
    YES_NO,
    RESTRICTION,
    PLATFORM,
    REPEATED,
    TOO_MANY_TAGS,
    UPLOADER_INFO,
    DEPRECATED,
    CHILD_ORDER,
    MISPLACED,
    LEGACY_VALUE,
    UNKNOWN_CHILD,
)

# The schema's sequence: (name, minimum, maximum; None for unbounded).
SEQUENCE: tuple[tuple[str, int, int | None], ...] = (
    ("thumbnail_loc", 1, 1),
    ("title", 1, 1),
    ("description", 1, 1),
    ("content_loc", 0, 1),
    ("player_loc", 0, 1),
    ("duration", 0, 1),
    ("expiration_date", 0, 1),
    ("rating", 0, 1),
    ("content_segment_loc", 0, None),
    ("view_count", 0, 1),
    ("publication_date", 0, 1),
    ("tag", 0, MAX_TAGS),
    ("category", 0, 1),
    ("family_friendly", 0, 1),
    ("restriction", 0, 1),
    ("gallery_loc", 0, 1),
    ("price", 0, None),
    ("requires_subscription", 0, 1),
    ("uploader", 0, 1),
    ("tvshow", 0, 1),
    ("platform", 0, 1),
    ("live", 0, 1),
    ("id", 0, None),
)
_RANK = {name: index for index, (name, _min, _max) in enumerate(SEQUENCE)}
_MAX = {name: maximum for name, _min, maximum in SEQUENCE}
# For each index of SEQUENCE, the first required child at or after it (None: none left).
_NEXT_REQUIRED = [
    next((i for i in range(start, len(SEQUENCE)) if SEQUENCE[i][1] > 0), None)
    for start in range(len(SEQUENCE) + 1)
]
DEPRECATED_CHILDREN = ("category", "gallery_loc", "price", "tvshow")
LEGACY_CHILDREN = ("id", "content_segment_loc")
YES_NO_CHILDREN = ("family_friendly", "requires_subscription", "live")
_IGNORED = {
    **dict.fromkeys(DEPRECATED_CHILDREN, "Google ignores {} since 2022"),
    **dict.fromkeys(LEGACY_CHILDREN, "{} is legacy, no longer documented by Google"),
}
# Children whose value is a URL, checked here with the URL rules (content_loc and
# player_loc go through _check_media_urls, which also checks their protocol).
URL_CHILDREN = ("thumbnail_loc", "content_segment_loc", "gallery_loc")

_YES_NO = frozenset({"yes", "Yes", "YES", "no", "No", "NO"})
_TRUE_WORDS = frozenset({"true", "1", "y", "on", "oui", "ja", "si", "sí"})
_FALSE_WORDS = frozenset({"false", "0", "n", "off", "non", "nein"})
_RELATIONSHIPS = ("allow", "deny")
_COUNTRY_LIST = lazy(r"(?:[A-Z]{2}(?: +[A-Z]{2})*)?\Z")
_PLATFORM_LIST = lazy(r"(?:(?:web|mobile|tv)(?: (?:web|mobile|tv))*)?\Z")
_PLATFORM_ALIASES = {
    "web": "web",
    "desktop": "web",
    "browser": "web",
    "pc": "web",
    "mobile": "mobile",
    "phone": "mobile",
    "smartphone": "mobile",
    "tablet": "mobile",
    "tv": "tv",
    "television": "tv",
    "smarttv": "tv",
    "smart-tv": "tv",
}
# Codes people write for countries whose ISO 3166 code differs.
_COUNTRY_FIXES = {"UK": "GB", "EL": "GR", "EN": "GB", "KO": "KR", "JA": "JP", "DA": "DK"}
# Names written for the required children in broken sitemaps.
_ALIASES = {
    "thumb": "thumbnail_loc",
    "thumbnail": "thumbnail_loc",
    "thumbnail_url": "thumbnail_loc",
    "image": "thumbnail_loc",
    "name": "title",
    "desc": "description",
    "summary": "description",
}
_LIST_SEPARATORS = lazy(r"[\s,;|/]+")
_SCHEME = lazy(r"([A-Za-z][A-Za-z0-9+.-]*):")
_FETCHABLE_SCHEMES = frozenset({"http", "https", "ftp"})
_PAGE_EXTENSIONS = frozenset(
    {"html", "htm", "xhtml", "shtml", "php", "php3", "php5", "asp", "aspx", "jsp", "jspx", "cfm"}
)
# The hosts of video sites' pages, which serve their video files from other hosts.
_VIDEO_SITES = {
    "youtube.com": "YouTube",
    "youtu.be": "YouTube",
    "youtube-nocookie.com": "YouTube",
    "vimeo.com": "Vimeo",
    "dailymotion.com": "Dailymotion",
    "dai.ly": "Dailymotion",
}
_INTEGER = lazy(r"[+-]?[0-9]+\Z")
_DECIMAL = lazy(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")
_ISO_DURATION = lazy(
    r"P(?:(\d+)D)?T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?\Z", re.IGNORECASE
)
_CLOCK = lazy(r"(?:(\d{1,2}):)?(\d{1,2}):(\d{2})\Z")
# Second-level labels under which a country's domains are registered (co.uk, com.au, ...).
_SECOND_LEVEL = frozenset({"co", "com", "net", "org", "gov", "edu", "ac", "ne", "or", "go", "gob"})


class _Nodes:
    """Covers exactly the given nodes, without their descendants."""

    __slots__ = ("nodes",)

    def __init__(self, *nodes: Node):
        self.nodes = nodes

    def iter(self) -> Iterator[Node]:
        return iter(self.nodes)


# Its elements' URLs and dates are checked with the URL and date rules, which it reports too.
@check(
    "extension",
    namespace=NAMESPACE,
    emits=(*RULES, *urls.RULES, *dates.RULES, UNEXPECTED_TEXT),
    covers=True,
    proof=stateful("video"),
)
class Checker:
    """Checks the video:video elements of one file; it keeps no state between entries."""

    def __init__(self, file: FileContext | None = None) -> None:
        pass

    def check(self, element: Node, context: EntryContext, report: Reporter) -> None:
        if element.name != "video":
            _misplaced(element, report)
            return
        _check_video(element, context, report)

    def end_entry(self, context: EntryContext, report: Reporter) -> None:
        return None

    def finish(self, report: Reporter) -> None:
        return None


def _check_video(video: Node, context: EntryContext, report: Reporter) -> None:
    check_text(video, "video", report, context.prefixes)
    by_name: dict[str, list[Node]] = {}
    for child in video.children:
        if child.ns == NAMESPACE and child.name in _RANK:
            by_name.setdefault(child.name, []).append(child)
    broken = _sequence_break(video)
    explained = _check_required(video, by_name, broken, report)
    _check_counts(by_name, report)
    if broken is not None and broken[1] in ("unknown", "order", "missing"):
        node = broken[0]
        if all(node is not other for other in explained):
            rule_ = UNKNOWN_CHILD if broken[1] == "unknown" else CHILD_ORDER
            report.add(rule_.at(node.line, node.column, _order_message(video, broken)), node)
    # The schema engines stop at the first break; every other unknown child is one too.
    first = broken[0] if broken is not None else None
    for child in video.children:
        known = child.ns == NAMESPACE and child.name in _RANK
        if known or child is first or any(child is other for other in explained):
            continue
        message = _order_message(video, (child, "unknown", None))
        report.add(UNKNOWN_CHILD.at(child.line, child.column, message), child)
    _check_media_urls(video, by_name, context, report)
    for name, nodes in by_name.items():
        for node in nodes:
            if node.children and name != "tvshow":
                continue  # markup inside a value: the schema's message says it
            check_value(name, node, context, report)
    _check_deprecated(by_name, report)


# -- structure ---------------------------------------------------------------------------------


def _sequence_break(video: Node) -> tuple[Node, str, str | None] | None:
    """Where the schema's sequence fails, as the engines report it: the node, the kind
    ('unknown', 'repeat', 'order', 'missing' before a child, 'end' for a missing last
    required child) and the child name it concerns (the one expected or missing)."""
    position = -1
    seen: dict[str, int] = {}
    for child in video.children:
        rank = _RANK.get(child.name) if child.ns == NAMESPACE else None
        if rank is None:
            return child, "unknown", None
        name = child.name
        count = seen.get(name, 0)
        maximum = _MAX[name]
        if maximum is not None and count >= maximum:
            return child, "repeat", name
        if rank < position:
            return child, "order", SEQUENCE[position][0]
        required = _NEXT_REQUIRED[position + 1]
        if required is not None and required < rank:
            return child, "missing", SEQUENCE[required][0]
        position = rank
        seen[name] = count + 1
    required = _NEXT_REQUIRED[position + 1]
    if required is not None:
        return video, "end", SEQUENCE[required][0]
    return None


def _check_required(
    video: Node,
    by_name: dict[str, list[Node]],
    broken: tuple[Node, str, str | None] | None,
    report: Reporter,
) -> list[Node]:
    """VD001 for missing or empty required children; return the nodes whose schema
    errors it explains."""
    missing = [name for name in REQUIRED if name not in by_name]
    empty = [
        by_name[name][0]
        for name in REQUIRED
        if name in by_name
        and not by_name[name][0].children
        and not by_name[name][0].text.strip(XML_SPACE)
    ]
    if not missing and not empty:
        return []
    parts = []
    renamed: Node | None = None
    covers: list[Node] = []
    if missing:
        parts.append("<video:video> has no " + joined([f"<video:{name}>" for name in missing]))
        renames = []
        for name in missing:
            alias = _misspelling_of(video, name)
            if alias is not None and renamed is None:
                renamed = alias
                covers.append(alias)
                if alias.name == name:
                    renames.append(f"write <video:{name}> instead of <{name}> (add the prefix)")
                else:
                    renames.append(f"rename <{_shown(alias)}> to <video:{name}>")
        covers.append(video)
        if broken is not None and broken[1] in ("missing", "end") and broken[2] in missing:
            covers.append(broken[0])
        fix = renames[0] if renames else "add " + ("it" if len(missing) == 1 else "them")
        parts[-1] += f"; Google requires thumbnail_loc, title and description: {fix}"
    if empty:
        names = joined([f"<video:{node.name}>" for node in empty])
        verb = "is" if len(empty) == 1 else "are"
        parts.append(
            f"{names} {verb} empty; give {'it a value' if len(empty) == 1 else 'them values'}"
        )
    at = video if missing else empty[0]
    finding = MISSING_REQUIRED.at(at.line, at.column, "; ".join(parts))
    report.add(finding, _Nodes(*covers) if covers else None)
    return covers


def _misspelling_of(video: Node, name: str) -> Node | None:
    """An unknown child that stands for the missing ``name`` (misspelt, or unprefixed)."""
    for child in video.children:
        if child.ns == NAMESPACE and child.name in _RANK:
            continue
        if child.name == name and child.ns in (SITEMAP_NS, ""):
            return child  # the right name without the video: prefix
        if child.ns != NAMESPACE:
            continue
        if _ALIASES.get(child.name.lower()) == name or difflib.get_close_matches(
            child.name, [name], n=1, cutoff=0.7
        ):
            return child
    return None


def _check_counts(by_name: dict[str, list[Node]], report: Reporter) -> None:
    for name, nodes in by_name.items():
        maximum = _MAX[name]
        if maximum is None or len(nodes) <= maximum:
            continue
        extra = nodes[maximum]
        if name == "tag":
            message = (
                f"<video:video> has {len(nodes)} <video:tag> elements; at most {MAX_TAGS} are "
                f"allowed: keep the {MAX_TAGS} most relevant (this is the first one over)"
            )
            report.add(TOO_MANY_TAGS.at(extra.line, extra.column, message), extra)
            continue
        first = nodes[0]
        if name in ("restriction", "platform"):
            what = "countries" if name == "restriction" else "platforms"
            fix = (
                f"Google reads one per video: merge the {what} into the first one "
                "(one relationship applies to the whole list) and remove this one"
            )
        else:
            fix = "keep one"
        times = "" if len(nodes) == 2 else f" ({len(nodes)} times)"
        message = (
            f"<video:{name}> repeated in one <video:video>{times} (first at line {first.line}); "
            + fix
        )
        report.add(REPEATED.at(extra.line, extra.column, message), extra)


def _order_message(video: Node, broken: tuple[Node, str, str | None]) -> str:
    node, kind, _name = broken
    if kind == "unknown":
        return stray_child_message("video", NAMESPACE, node, _RANK, "remove it")
    known = [c for c in video.children if c.ns == NAMESPACE and c.name in _RANK]
    if kind == "missing":
        index = next(i for i, c in enumerate(known) if c is node)
        later = [
            c for c in known[index + 1 :] if c.name in REQUIRED and _RANK[c.name] < _RANK[node.name]
        ]
        names = joined([f"<video:{c.name}>" for c in later])
        message = (
            f"<video:{node.name}> must come after {names} (line {later[0].line}); write "
            "thumbnail_loc, title and description first, in this order"
        )
    else:
        rank = _RANK[node.name]
        before = next(c for c in known if _RANK[c.name] > rank)
        message = (
            f"<video:{node.name}> is out of order: move it before <video:{before.name}> "
            f"(line {before.line}); the children of <video:video> have a fixed order"
        )
    ranks = [_RANK[c.name] for c in known]
    order = ", ".join(dict.fromkeys(SEQUENCE[r][0] for r in sorted(ranks)))
    if sum(later < earlier for earlier, later in pairwise(ranks)) > 1:
        message += f"; other children are out of order too: write them as {order}"
    else:
        message += f" ({order}; Google reads any order, strict schema validators do not)"
        message += removal_note("video", node.name, _IGNORED)
    return message


def _misplaced(element: Node, report: Reporter) -> None:
    advice = "put it inside the <video:video> it describes" if element.name in _RANK else None
    message = misplaced_message("video", element.name, advice)
    report.add(MISPLACED.at(element.line, element.column, message), element)


# -- media URLs --------------------------------------------------------------------------------


def _check_media_urls(
    video: Node, by_name: dict[str, list[Node]], context: EntryContext, report: Reporter
) -> None:
    present = [
        node
        for name in ("content_loc", "player_loc")
        for node in by_name.get(name, ())[:1]
        if not node.children and node.text.strip(XML_SPACE)
    ]
    if not present:
        empty = [name for name in ("content_loc", "player_loc") if name in by_name]
        note = f" (<video:{empty[0]}> is empty)" if empty else ""
        report.add(
            NO_MEDIA_URL.at(
                video.line,
                video.column,
                f"<video:video> has neither <video:content_loc> nor <video:player_loc>{note}; "
                "add the URL of the video file (content_loc) or of its player (player_loc)",
            )
        )
        return
    # Compared without their fragments, which crawlers drop (UR008).
    page = normal_url(context.loc.partition("#")[0]) if context.loc is not None else None
    same = [node for node in present if normal_url(node.text.strip().partition("#")[0]) == page]
    if same:
        names = joined([f"<video:{node.name}>" for node in same])
        whole = normal_url(same[0].text.strip()) == normal_url(context.loc or "")
        dropped = "" if whole else " once its fragment is dropped"
        report.add(
            URL_IS_PAGE.at(
                same[0].line,
                same[0].column,
                f"{names} {'is' if len(same) == 1 else 'are'} the page's own URL{dropped} "
                f"({context.loc}); give the URL of the video "
                "file (content_loc) or of the player (player_loc), not of the page",
            )
        )
    for node in present:
        fetchable = _check_protocol(node, report, context.replacements)
        if fetchable and node.name == "content_loc" and node not in same:
            _check_media_file(node, report)


def _check_protocol(node: Node, report: Reporter, replacements: Replacements | None) -> bool:
    """Check a content_loc or player_loc URL; True when it is fetchable over HTTP(S)/FTP
    (``replacements``: the file's, for the URL rules)."""
    text = node.text.strip()
    match = _SCHEME.match(text)
    scheme = match.group(1).lower() if match else ""
    if scheme == "ftp":
        return True
    if (
        match
        and scheme not in _FETCHABLE_SCHEMES
        and not scheme.startswith("ht")
        and "." not in scheme
    ):
        report.add(
            URL_PROTOCOL.at(
                node.line,
                node.column,
                f"<video:{node.name}> uses {scheme}:, which Google cannot fetch (only HTTP and FTP, "
                "no streaming protocols); give an https:// URL of the "
                + ("video file" if node.name == "content_loc" else "player"),
            )
        )
        return False
    field = f"video:{node.name}"
    urls.check_escaped_twice(node, report)
    return urls.check_url(node.text, node, report, field, replacements=replacements) is not None


def _is_ftp(text: str) -> bool:
    return text.strip().lower().startswith("ftp:")


def video_site(url: str) -> str | None:
    """The video site (YouTube, Vimeo, Dailymotion) whose watch or player page ``url``
    is, or None: those sites serve no video file from their pages' hosts."""
    lowered = url.lower()  # most URLs name none of the sites: not split
    if not ("youtu" in lowered or "vimeo" in lowered or "dai" in lowered):
        return None
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").rstrip(".")
    if host == "player.vimeo.com":  # also the files of /external/ and /progressive_redirect/
        return "Vimeo" if parts.path.startswith("/video/") else None
    for prefix in ("www.", "m."):
        if host.startswith(prefix):
            host = host[len(prefix) :]
            break
    return _VIDEO_SITES.get(host)


def _check_media_file(node: Node, report: Reporter) -> None:
    site = video_site(node.text)
    if site is not None:
        report.add(
            CONTENT_NOT_MEDIA.at(
                node.line,
                node.column,
                f"<video:content_loc> is a {site} page, not a video file; give the URL of the "
                "video file itself, or, for a video you do not host, remove <video:content_loc> "
                "and give the player's URL in <video:player_loc>",
            )
        )
        return
    path = urlsplit(node.text.strip()).path
    last = path.rsplit("/", 1)[-1]
    extension = last.rsplit(".", 1)[-1].lower() if "." in last else ""
    if extension == "swf":
        what = "a Flash file, which Google no longer reads"
    elif extension in _PAGE_EXTENSIONS:
        what = "a web page"
    else:
        return
    report.add(
        CONTENT_NOT_MEDIA.at(
            node.line,
            node.column,
            f"<video:content_loc> looks like {what} (.{extension}); give the URL of the video "
            "file itself (.mp4, .webm, .m3u8, ...), and the page or player URL in "
            "<video:player_loc>",
        )
    )


# -- values ------------------------------------------------------------------------------------


def check_value(name: str, node: Node, context: EntryContext, report: Reporter) -> None:
    """The rules on the value of one child ``name`` of a video (its text and attributes;
    the URL rules on a URL child): what the fast path asks of a value it proves
    (``fastpath.video``)."""
    text = node.text
    if name in URL_CHILDREN:
        # Google fetches media over HTTP or FTP, and the schema types them anyURI:
        # an ftp: URL is not a defect there (content_loc and player_loc are checked
        # with their protocol in _check_media_urls).
        if text.strip(XML_SPACE) and not _is_ftp(text):
            field = f"video:{name}"
            urls.check_url(text, node, report, field, replacements=context.replacements)
            urls.check_escaped_twice(node, report)
        if name == "content_segment_loc" and "duration" in node.attrs:
            _check_duration(
                node.attrs["duration"],
                node,
                report,
                "the duration attribute of <video:content_segment_loc>",
            )
    elif name in TEXT_LIMITS:
        _check_length(name, node, report)
        if name == "uploader":
            _check_uploader_info(node, context, report)
    elif name == "player_loc":
        if "allow_embed" in node.attrs:
            _check_yes_no(node, node.attrs["allow_embed"], report, attribute="allow_embed")
    elif name == "duration":
        _check_duration(text, node, report, f"<video:{name}>")
    elif name == "rating":
        _check_rating(text, node, report)
    elif name == "view_count":
        _check_view_count(text, node, report)
    elif name == "publication_date":
        dates.check_date(text, node, report, context.now, field="video:publication_date")
    elif name == "expiration_date":
        parsed = dates.check_date(
            text, node, report, context.now, field="video:expiration_date", future_ok=True
        )
        if parsed is not None:
            _check_expired(parsed, text.strip(), node, context.now, report)
    elif name in YES_NO_CHILDREN:
        _check_yes_no(node, text, report)
    elif name == "restriction":
        _check_restriction(node, report)
    elif name == "platform":
        _check_platform(node, report)
    elif name == "tvshow":
        _check_tvshow(node, context, report)
    elif name == "price":
        _check_price(node, report)
    elif name == "id":
        _check_id(node, report)


# -- deprecated and legacy values --------------------------------------------------------------

TVSHOW_SEQUENCE = (
    Step("show_title", 1, 1),
    Step("video_type", 1, 1),
    Step("episode_title", 0, 1),
    Step("season_number", 0, 1),
    Step("episode_number", 0, 1),
    Step("premier_date", 0, 1),
)
VIDEO_TYPES = ("full", "preview", "clip", "interview", "news", "other")
PRICE_TYPES = frozenset(("purchase", "PURCHASE", "rent", "RENT"))
RESOLUTIONS = frozenset(("sd", "SD", "hd", "HD"))
ID_TYPES = ("tms:series", "tms:program", "rovi:series", "rovi:program", "freebase", "url")
_CURRENCY = lazy(r"[A-Z]{3}\Z")


def _legacy(node: Node, message: str, report: Reporter, *covers: Node) -> None:
    report.add(LEGACY_VALUE.at(node.line, node.column, message), _Nodes(*(covers or (node,))))


def _check_tvshow(tvshow: Node, context: EntryContext, report: Reporter) -> None:
    check_text(tvshow, "video", report, context.prefixes)
    children = [c for c in tvshow.children if c.ns == NAMESPACE]
    present = {c.name for c in children}
    found = sequence_break(tvshow.children, NAMESPACE, TVSHOW_SEQUENCE)
    for required in ("show_title", "video_type"):
        if required in present:
            continue
        covers = [tvshow]
        if found is not None and found.kind == "missing" and found.name == required:
            covers.append(found.node)
        _legacy(
            tvshow,
            f"<video:tvshow> has no <video:{required}>, which the schema requires; add it "
            "(or remove the deprecated <video:tvshow>)",
            report,
            *covers,
        )
    if is_order_problem(found, tvshow.children, NAMESPACE):
        assert found is not None  # an order problem is a break
        _legacy(
            found.node,
            f"{misplacement(found, 'video')}; the schema fixes the order of <video:tvshow>'s "
            f"children: {order_of(TVSHOW_SEQUENCE)}",
            report,
        )
    for child in children:
        if child.children:
            continue  # markup inside a value: the schema's message says it
        text = child.text.strip(XML_SPACE)
        if child.name == "video_type" and text not in VIDEO_TYPES:
            lowered = text.lower()
            fix = (
                f"write {lowered}"
                if lowered in VIDEO_TYPES
                else "write one of " + ", ".join(VIDEO_TYPES)
            )
            _legacy(child, f"<video:video_type> {text!r} is not a video type; {fix}", report)
        elif child.name in ("season_number", "episode_number"):
            value = _integer(child.text)
            if value is None or value < 1:
                _legacy(
                    child,
                    f"<video:{child.name}> {text!r} is not a whole number of at least 1; "
                    "give the number, counting from 1",
                    report,
                )
        elif child.name == "premier_date":
            dates.check_date(child.text, child, report, context.now, field="video:premier_date")


def _check_price(price: Node, report: Reporter) -> None:
    attrs = price.attrs
    currency = attrs.get("currency")
    if currency is not None and not _CURRENCY.match(currency):
        fixed = currency.strip().upper()
        fix = f"write {fixed}" if _CURRENCY.match(fixed) else "give the ISO 4217 code, such as EUR"
        _legacy(
            price,
            f'currency="{currency}" of <video:price> is not three upper-case letters; {fix}',
            report,
        )
    kind = attrs.get("type")
    if kind is not None and kind not in PRICE_TYPES:
        _legacy(
            price,
            f'type="{kind}" of <video:price> is neither purchase nor rent; write '
            f"{_choice('type', kind, ('purchase', 'rent'))}",
            report,
        )
    resolution = attrs.get("resolution")
    if resolution is not None and resolution not in RESOLUTIONS:
        _legacy(
            price,
            f'resolution="{resolution}" of <video:price> is neither sd nor hd; write '
            f"{_choice('resolution', resolution, ('hd', 'sd'))}",
            report,
        )


def _choice(attribute: str, value: str, allowed: tuple[str, ...]) -> str:
    """The fix of an attribute's value: the allowed value it is in another case or with
    spaces, else the allowed values."""
    fixed = value.strip().lower()
    if fixed in allowed:
        return f'{attribute}="{fixed}"'
    return " or ".join(f'{attribute}="{choice}"' for choice in allowed)


def _check_id(node: Node, report: Reporter) -> None:
    kind = node.attrs.get("type")
    if kind in ID_TYPES:
        return
    choices = ", ".join(ID_TYPES)
    if kind is None:
        message = (
            f"<video:id> has no type attribute, which the schema requires; add one of {choices}"
        )
    else:
        fixed = kind.strip().lower()
        fix = f'write type="{fixed}"' if fixed in ID_TYPES else "write one of them"
        message = f'type="{kind}" of <video:id> is not one of {choices}; {fix}'
    _legacy(node, message, report)


def _check_length(name: str, node: Node, report: Reporter) -> None:
    limit, in_schema = TEXT_LIMITS[name]
    text = node.text
    length = len(text) if in_schema else len(text.strip())
    if length <= limit:
        return
    stripped = len(text.strip(XML_SPACE))
    if stripped <= limit:
        message = (
            f"<video:{name}> is {length:,} characters long with the whitespace around it, "
            f"over the schema's {limit:,}; remove the whitespace around the text"
        )
    else:
        who = "the schema and Google allow" if in_schema else "Google allows"
        message = (
            f"<video:{name}> is {stripped:,} characters long; {who} at most {limit:,}: shorten it"
        )
    report.add(TEXT_TOO_LONG.at(node.line, node.column, message), node if in_schema else None)


def _integer(text: str) -> int | None:
    """The value of an XSD integer literal (whitespace collapsed), or None."""
    value = text.strip(XML_SPACE)
    return int(value) if _INTEGER.match(value) else None


def _check_duration(text: str, node: Node, report: Reporter, what: str) -> None:
    value = _integer(text)
    if value is not None and 1 <= value <= MAX_DURATION:
        return
    shown = text.strip()
    if value == 0:
        whose = "segment's" if node.name == "content_segment_loc" else "video's"
        message = (
            f"{what} is 0; Google requires at least 1 second: give the {whose} length in seconds"
        )
        report.add(DURATION.at(node.line, node.column, message))
        return
    if not shown:
        message = f"{what} is empty; give the length in seconds, from 1 to 28,800, or remove it"
    elif value is None:
        seconds = _seconds(shown)
        if seconds is not None:
            fix = (
                f"write {seconds}"
                if 1 <= seconds <= MAX_DURATION
                else "give the length in seconds, 1 to 28,800"
            )
            message = f"{what} {shown!r} must be a whole number of seconds; {fix}"
        else:
            message = (
                f"{what} {shown!r} is not a whole number of seconds; give the length in "
                "seconds, from 1 to 28,800"
            )
    elif value < 0:
        message = f"{what} {shown} is negative; give the length in seconds, from 1 to 28,800"
    else:
        message = (
            f"{what} {value:,} seconds is over 8 hours (28,800 seconds), the longest Google accepts"
        )
        if value % 1000 == 0 and value // 1000 <= MAX_DURATION:
            message += f"; if this is milliseconds, write {value // 1000}"
        else:
            message += "; give the real length in seconds"
    report.add(DURATION.at(node.line, node.column, message), _Nodes(node))


def _seconds(text: str) -> int | None:
    """Seconds for PT1M30S, 1:30, 01:02:03 or 90.0; None when the form is unknown."""
    match = _ISO_DURATION.match(text)
    if match:
        days, hours, minutes, seconds = (float(part) if part else 0 for part in match.groups())
        return round(((days * 24 + hours) * 60 + minutes) * 60 + seconds)
    match = _CLOCK.match(text)
    if match:
        hours, minutes, seconds = (int(part) if part else 0 for part in match.groups())
        return (hours * 60 + minutes) * 60 + seconds
    if _DECIMAL.match(text) and not text.startswith("-"):
        from decimal import Decimal

        return round(Decimal(text))
    return None


def _check_rating(text: str, node: Node, report: Reporter) -> None:
    from decimal import Decimal  # imported by the runs that need it only

    value = text.strip(XML_SPACE)
    if _DECIMAL.match(value) and Decimal(0) <= Decimal(value) <= Decimal(5):
        return
    shown = text.strip()
    message = f"<video:rating> {shown!r} is not a number from 0.0 to 5.0"
    number = None
    if not shown:
        message = "<video:rating> is empty; give the average rating from 0.0 to 5.0, or remove it"
    elif _DECIMAL.match(shown):
        number = Decimal(shown)
    elif re.fullmatch(r"[0-9]*,[0-9]+", shown):
        number = Decimal(shown.replace(",", "."))
        if number <= 5:
            message = f"<video:rating> {shown!r} uses a decimal comma; write {_decimal(number)}"
            number = None
    elif re.fullmatch(r"[0-9.]+ */ *5(?:\.0*)?", shown) and _DECIMAL.match(
        shown.split("/")[0].strip()
    ):
        first = Decimal(shown.split("/")[0].strip())
        if first <= 5:
            message = f"<video:rating> {shown!r}: write the number alone, {_decimal(first)}"
    if number is not None:
        if number < 0:
            message += "; ratings run from 0.0 (lowest) to 5.0 (highest)"
        elif number <= 10 and number * 10 == (number * 10).to_integral():
            # 8 or 8.4 reads as a rating out of 10; 5.01 as one a little past 5.0
            message += f"; on a 0-10 scale write {_decimal(number / 2)}"
        elif number == number.to_integral() and 10 < number <= 100:
            message += f"; as a percentage write {_decimal(number / 20)}"
        else:
            message += "; give the average rating from 0.0 to 5.0"
    elif message.endswith("5.0"):
        message += "; give the average rating as a decimal number such as 4.2"
    report.add(RATING.at(node.line, node.column, message), node)


def _decimal(number: Decimal) -> str:
    from decimal import Decimal

    text = format(number.quantize(Decimal("0.01")).normalize(), "f")
    return text if "." in text else text + ".0"


def _check_view_count(text: str, node: Node, report: Reporter) -> None:
    value = _integer(text)
    if value is not None and value >= 0:
        return
    shown = text.strip()
    if not shown:
        message = "<video:view_count> is empty; give the number of views, or remove it"
    elif value is not None:
        message = f"<video:view_count> {shown} is negative; give the number of views, 0 or more"
    elif re.fullmatch(r"[0-9]{1,3}(?:[,. '\u00a0\u202f][0-9]{3})+", shown):
        digits = re.sub(r"[^0-9]", "", shown)
        message = f"<video:view_count> {shown!r} has thousands separators; write {digits}"
    else:
        message = (
            f"<video:view_count> {shown!r} is not a whole number; give the exact number of "
            "views in digits, such as 12345"
        )
    report.add(VIEW_COUNT.at(node.line, node.column, message), node)


def _check_expired(
    parsed: dates.Parsed, text: str, node: Node, now: datetime, report: Reporter
) -> None:
    moment = parsed.end()  # the video is available through that whole day, month or year
    current = now.replace(tzinfo=None) if moment.tzinfo is None else now
    if moment >= current:
        return
    report.add(
        EXPIRED.at(
            node.line,
            node.column,
            f"<video:expiration_date> {text} has passed (now is "
            f"{dates.utc_text(now)}); Google no longer shows the video: "
            "remove its <video:video>, or correct the date if it is still available",
        )
    )


def _check_yes_no(node: Node, value: str, report: Reporter, attribute: str | None = None) -> None:
    if value in _YES_NO:
        return
    text = value.strip()
    lowered = text.lower()
    what = (
        f"the {attribute} attribute of <video:{node.name}>" if attribute else f"<video:{node.name}>"
    )
    if lowered in ("yes", "no"):
        if text != value:
            fix = f"remove the whitespace: write {text}"
        else:
            fix = f"write {lowered} (the schema accepts only yes, Yes, YES, no, No or NO)"
    elif lowered in _TRUE_WORDS:
        fix = "write yes"
    elif lowered in _FALSE_WORDS:
        fix = "write no"
    else:
        fix = "write yes or no"
    message = f"{what} is {value!r}, not yes or no; {fix}"
    if attribute:
        message += f" (Google ignores {attribute} since 2022: removing it also fixes this)"
    report.add(YES_NO.at(node.line, node.column, message), _Nodes(node))


def _relationship_problem(node: Node) -> str | None:
    value = node.attrs.get("relationship")
    if value in _RELATIONSHIPS:
        return None
    if value is None:
        what = "countries" if node.name == "restriction" else "platforms"
        return (
            f'the relationship attribute is required: add relationship="allow" (only these {what}) '
            f'or relationship="deny" (all but these)'
        )
    fixed = value.strip().lower()
    if fixed in _RELATIONSHIPS:
        return f'relationship="{value}" must be written relationship="{fixed}"'
    what = "countries" if node.name == "restriction" else "platforms"
    return (
        f'relationship="{value}" is neither allow nor deny; write relationship="allow" '
        f'(only these {what}) or relationship="deny" (all but these)'
    )


def _empty_allow_problem(node: Node) -> str | None:
    """An empty list with relationship="allow" (the schema accepts it; it allows nothing)."""
    if node.text or node.attrs.get("relationship") != "allow":
        return None
    one, many = (
        ("country", "countries") if node.name == "restriction" else ("platform", "platforms")
    )
    return (
        f'an empty list with relationship="allow" allows no {one}; list the {many} '
        "or remove the element"
    )


def _only_spaced(value: str, pattern: re.Pattern[str]) -> bool:
    """Whether a list the schema's ``pattern`` rejects is a list it takes but for the
    white space around it (which a list of ``xsd:string`` keeps)."""
    return pattern.match(value.strip(XML_SPACE)) is not None


def _spaced_problem(what: str, value: str) -> str:
    inner = value.strip(XML_SPACE)
    if not inner:
        return (
            f"the schema takes no white space in an empty list: list the {what} or remove "
            "the element"
        )
    return f"the schema takes no white space around the {what}: write {inner}"


def _check_restriction(node: Node, report: Reporter) -> None:
    value = node.text
    problems: list[str] = []
    schema_rejects = False
    codes = [code for code in _LIST_SEPARATORS.split(value.strip()) if code]
    spaced = _only_spaced(value, _COUNTRY_LIST)
    if not _COUNTRY_LIST.match(value):
        schema_rejects = True
        if spaced:
            problems.append(_spaced_problem("countries", value))
        elif codes and all(re.fullmatch(r"[A-Za-z]{2}", code) for code in codes):
            fixed = " ".join(_COUNTRY_FIXES.get(code.upper(), code.upper()) for code in codes)
            problems.append(
                f"write the countries as upper-case two-letter codes separated by spaces: {fixed}"
            )
        else:
            problems.append(
                f"{value.strip()!r} is not a list of two-letter country codes; write ISO 3166 "
                "codes separated by spaces, such as US CA GB"
            )
    if spaced or not schema_rejects:
        unknown = [code for code in dict.fromkeys(codes) if not _is_country(code)]
        for code in unknown:
            if code in _COUNTRY_FIXES:
                problems.append(
                    f"{code} is not an ISO 3166 country code; write {_COUNTRY_FIXES[code]}"
                )
        unfixable = [code for code in unknown if code not in _COUNTRY_FIXES]
        if len(unfixable) == 1:
            problems.append(
                f"{unfixable[0]} is not an ISO 3166 country code; use the country's "
                "two-letter ISO 3166 code"
            )
        elif unfixable:
            problems.append(
                f"{joined(unfixable)} are not ISO 3166 country codes; use each country's "
                "two-letter ISO 3166 code"
            )
        empty = _empty_allow_problem(node)
        if empty:
            problems.append(empty)
    relationship = _relationship_problem(node)
    if relationship:
        schema_rejects = True
        problems.append(relationship)
    if problems:
        message = "<video:restriction>: " + "; ".join(problems)
        report.add(
            RESTRICTION.at(node.line, node.column, message),
            _Nodes(node) if schema_rejects else None,
        )


def _check_platform(node: Node, report: Reporter) -> None:
    value = node.text
    problems: list[str] = []
    schema_rejects = True
    if not _PLATFORM_LIST.match(value):
        words = [word.lower() for word in _LIST_SEPARATORS.split(value.strip()) if word]
        mapped = [_PLATFORM_ALIASES.get(word) for word in words]
        if _only_spaced(value, _PLATFORM_LIST):
            problems.append(_spaced_problem("platforms", value))
        elif words and all(mapped):
            fixed = " ".join(dict.fromkeys(cast("list[str]", mapped)))  # all(mapped): no None
            other_names = [word for word in dict.fromkeys(words) if _PLATFORM_ALIASES[word] != word]
            if other_names:
                shown = joined([repr(word) for word in other_names])
                verb = "is not a platform" if len(other_names) == 1 else "are not platforms"
                problems.append(f"{shown} {verb} of the schema (web, mobile, tv); write {fixed}")
            else:
                problems.append(
                    f"write the platforms in lower case, separated by single spaces: {fixed}"
                )
        else:
            problems.append(
                f"{value.strip()!r} is not a list of platforms; write web, mobile and/or tv "
                "separated by single spaces"
            )
    elif empty := _empty_allow_problem(node):
        schema_rejects = False
        problems.append(empty)
    relationship = _relationship_problem(node)
    if relationship:
        schema_rejects = True
        problems.append(relationship)
    if problems:
        message = "<video:platform>: " + "; ".join(problems)
        report.add(
            PLATFORM.at(node.line, node.column, message),
            _Nodes(node) if schema_rejects else None,
        )


def _check_uploader_info(node: Node, context: EntryContext, report: Reporter) -> None:
    info = node.attrs.get("info")
    if info is None:
        return
    page = context.url
    # A URL in the schema: the URL rules first, as for loc; the domain only for a usable one.
    parsed = urls.check_url(
        info, node, report, field="video:uploader info", replacements=context.replacements
    )
    if parsed is None:
        return
    host = parsed.host
    if page is None or _site(host) == _site(page.host):
        return
    message = (
        f"the info URL of <video:uploader> is on {host}, not on the page's domain "
        f"({page.host}); Google ignores it: link to the uploader's page on {page.host} "
        "or another host of its domain"
    )
    report.add(UPLOADER_INFO.at(node.line, node.column, message))


def _site(host: str) -> str:
    """The registrable part of a host name, approximately (example.com, example.co.uk)."""
    if not host.isascii():  # as browsers encode it, as the page's own host is
        host = to_ascii(host).ascii or host
    host = host.lower().rstrip(".")
    labels = host.split(".")
    if not labels[-1].isalpha():
        return host  # an IP address
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


# -- deprecated --------------------------------------------------------------------------------


def _check_deprecated(by_name: dict[str, list[Node]], report: Reporter) -> None:
    deprecated: list[str] = []
    legacy: list[str] = []
    positions: list[Node] = []
    count = 0
    # The attributes last: "<video:category> and the autoplay attribute of <video:player_loc>"
    for name in (*DEPRECATED_CHILDREN, "player_loc", *LEGACY_CHILDREN):
        nodes = by_name.get(name)
        if not nodes:
            continue
        if name == "player_loc":
            attributes = [a for a in ("allow_embed", "autoplay") if a in nodes[0].attrs]
            if attributes:
                plural = "s" if len(attributes) > 1 else ""
                deprecated.append(
                    f"the {joined(attributes)} attribute{plural} of <video:player_loc>"
                )
                positions.append(nodes[0])
                count += len(attributes)
            continue
        (legacy if name in LEGACY_CHILDREN else deprecated).append(f"<video:{name}>")
        positions.append(nodes[0])
        count += 1
    if not positions:
        return
    parts = []
    if deprecated:
        parts.append(f"Google ignores {joined(deprecated)} since 2022 (deprecated, harmless)")
    if legacy:
        verb = "is" if len(legacy) == 1 else "are"
        parts.append(f"{joined(legacy)} {verb} legacy, no longer documented by Google")
    first = min(positions, key=lambda node: (node.line, node.column))
    message = "; ".join(parts) + f": remove {'it' if count == 1 else 'them'}"
    report.add(DEPRECATED.at(first.line, first.column, message))


def _shown(node: Node) -> str:
    return f"video:{node.name}" if node.ns == NAMESPACE else node.name


def _is_country(code: str) -> bool:
    """ISO 3166-1 alpha-2 (the data load on first use, not at start-up)."""
    return len(code) == 2 and langtags.country(code) is not None
