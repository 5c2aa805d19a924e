"""Live audit rules (``check --live``): what the listed URLs answer when requested.

Findings of this family are made by ``sitemap_lint.live.audit`` after the static checks,
from each target's ``Answer`` (``judge``) and from each file's lastmods
(``untrusted_lastmods``); they sit at the element that lists the URL.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING

from sitemap_lint.domain.identity import normal_url
from sitemap_lint.finding import Edit, FindingFix, Fix
from sitemap_lint.fix.model import answered
from sitemap_lint.rules.base import ERROR, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.dates import Parsed, parse_date, utc_text
from sitemap_lint.rules.events import Answered, Audited
from sitemap_lint.rules.registry import ANSWER, AUDITED, runs_when

if TYPE_CHECKING:
    from sitemap_lint.finding import Finding
    from sitemap_lint.live.model import Answer, BudgetCut, Target
    from sitemap_lint.rules.structure import Reporter

NOT_FOUND = rule(
    "LV001",
    "live-not-found",
    ERROR,
    summary="A listed URL answers 404 Not Found or 410 Gone",
    what="""
        Requests each URL the sitemap lists and reports those whose final answer is
        404 Not Found or 410 Gone, with the redirects that led there. Images and
        videos are reported by LV013.
    """,
    why="""
        Search Console reports a submitted URL that is not found as an indexing error;
        a sitemap full of dead URLs teaches crawlers to trust it less. List only pages
        that exist.
    """,
    bad="""
        <url><loc>https://www.example.com/old-page</loc></url>
        <!-- GET /old-page -> 404 Not Found -->
    """,
    good="""
        <url><loc>https://www.example.com/page</loc></url>
        <!-- GET /page -> 200 OK -->
    """,
)

CLIENT_ERROR = rule(
    "LV002",
    "live-client-error",
    ERROR,
    summary="A listed URL answers 401, 403 or another error status that is not 404 or 410",
    what="""
        Reports a listed URL whose final answer is a client error other than 404 and
        410 (401 Unauthorized, 403 Forbidden, 405, 451, ...) or another status that
        is neither a success nor a redirect.
    """,
    why="""
        Crawlers see the same answer: a page behind a login or blocked for bots is not
        indexed, and Search Console reports it as blocked. List only public pages, or
        let crawlers in.
    """,
    bad="""
        <url><loc>https://www.example.com/account</loc></url>
        <!-- GET /account -> 403 Forbidden -->
    """,
    good="""
        <url><loc>https://www.example.com/about</loc></url>
        <!-- GET /about -> 200 OK -->
    """,
)

SERVER_ERROR = rule(
    "LV003",
    "live-server-error",
    ERROR,
    summary="A listed URL answers a server error (5xx), or 429 after the retries",
    what="""
        Reports a listed URL whose final answer is a server error (500, 502, 503, ...)
        or 429 Too Many Requests, after the retries `Retry-After` allows.
    """,
    why="""
        Crawlers slow down on a site that fails and drop URLs that keep failing. The
        error may be temporary: run the audit again before changing the sitemap.
    """,
    bad="""
        <url><loc>https://www.example.com/search</loc></url>
        <!-- GET /search -> 500 Internal Server Error -->
    """,
    good="""
        <url><loc>https://www.example.com/search</loc></url>
        <!-- GET /search -> 200 OK -->
    """,
)

UNREACHABLE = rule(
    "LV004",
    "live-unreachable",
    ERROR,
    summary="A listed URL gets no usable answer: DNS, connection, TLS, timeout, broken HTTP",
    what="""
        Reports a listed URL that got no usable answer after the bounded retries: the
        host name does not resolve, the connection is refused, reset or closed
        before the end of what the audit reads (a page's head), the TLS
        handshake or certificate fails, the server is too slow (`--live-timeout`) or
        stalls once its status and headers came, the answer is not valid HTTP, a
        redirect leaves http and https, the page's head decodes to more than the audit reads (a compression bomb), or a redirect
        leads to a URL no request can be made for (nothing is sent). A URL, listed or
        a redirect's target, on one of the ports browsers send no request to, those of
        other protocols (the Fetch standard's bad ports: 25, 110, 6000...), is not
        requested either and is reported here, unless the command line names its host
        and port. A listed URL the URL rules find invalid (`UR001`, `UR002`, `UR010`)
        is theirs: it is not requested, and gets no finding here.
    """,
    why="""
        What the audit cannot reach, a crawler cannot reach either; the URL is not
        indexed.
    """,
    bad="""
        <url><loc>https://old-shop.example.com/</loc></url>
        <!-- the host name does not resolve -->
    """,
    good="""
        <url><loc>https://shop.example.com/</loc></url>
        <!-- GET / -> 200 OK -->
    """,
)

REDIRECTED = answered(
    rule(
        "LV005",
        "live-redirect",
        WARNING,
        summary="A listed URL redirects; the sitemap should list the final URL",
        what="""
        Reports a listed page, child sitemap or alternate that answers with a redirect
        (301, 302, 307, 308) and reaches a success, naming the chain and the final URL.
        The unsafe fix writes the final URL in place of the listed one when the chain
        ends in 200 on the same site (the host, `www.` aside; http to https included):
        `--fix --unsafe-fixes --live` applies it with its first pass. A page whose
        redirects end at a URL the sitemap lists already is told to go, without a fix
        (writing the final URL would list it twice), and so is one whose final page
        says noindex (writing it would list a page that refuses to be indexed, LV008).
        A page whose head holds a `<meta http-equiv="refresh">` that sends it to
        another URL within 10 seconds redirects too: Google follows it as a redirect
        (the first refresh a browser can read counts; one that reloads the page
        itself, or waits longer, as at the end of a session, is none).
    """,
        why="""
        A sitemap lists canonical URLs. Search Console reports redirected URLs as "Page
        with redirect" and does not index them; each hop also costs a request.
    """,
        bad="""
        <url><loc>http://www.example.com/shoes</loc></url>
        <!-- GET /shoes -> 301 Location: https://www.example.com/shoes/ -->
    """,
        good="""
        <url><loc>https://www.example.com/shoes/</loc></url>
    """,
        fix=Fix.UNSAFE,
    )
)

REDIRECT_LOOP = rule(
    "LV006",
    "live-redirect-loop",
    ERROR,
    summary="A listed URL's redirects loop, or go on for more than 5 hops",
    what="""
        Reports a listed URL whose redirects come back to a URL already visited (the
        chain shown ends where the loop closes), or do not reach a final answer within
        5 hops.
    """,
    why="""
        Googlebot follows a few redirects and then gives up: the page is never
        reached. A loop ends nowhere: fix the redirects and list the URL where the page
        answers. A long chain: list the URL it ends at.
    """,
    bad="""
        <url><loc>https://www.example.com/a</loc></url>
        <!-- /a -> 301 /b -> 301 /a -->
    """,
    good="""
        <url><loc>https://www.example.com/b</loc></url>
        <!-- /b -> 200 OK -->
    """,
)

ROBOTS_DISALLOWED = rule(
    "LV007",
    "live-robots-disallowed",
    ERROR,
    summary="A listed URL is disallowed for Googlebot by the site's own robots.txt",
    what="""
        Fetches each host's robots.txt once and reports a listed URL its rules
        disallow for Googlebot, or one that redirects to a URL its own host's robots.txt
        disallows (that target is not requested). Images (`image:loc`,
        `video:thumbnail_loc`) are judged as Googlebot-Image fetches them and video
        files (`video:content_loc`) as Googlebot-Video: by the group naming that crawler,
        else by Googlebot's.
    """,
    why="""
        The sitemap asks for the page to be crawled and robots.txt forbids it; Search
        Console reports "Submitted URL blocked by robots.txt". Remove the URL from the
        sitemap or allow it.
    """,
    bad="""
        <!-- robots.txt: Disallow: /private/ -->
        <url><loc>https://www.example.com/private/page</loc></url>
    """,
    good="""
        <!-- robots.txt: Disallow: /private/ -->
        <url><loc>https://www.example.com/public/page</loc></url>
    """,
)

NOINDEX = rule(
    "LV008",
    "live-noindex",
    ERROR,
    summary="A listed page says noindex (X-Robots-Tag or a robots meta tag)",
    what="""
        Reports a listed page that asks not to be indexed: `noindex` (or `none`) in
        an `X-Robots-Tag` header, or in `<meta name="robots">` or
        `<meta name="googlebot">` in its head. An `unavailable_after` date there
        that had passed when the page answered (its `Date` header) counts as
        noindex: Google shows the page no more after it.
    """,
    why="""
        The sitemap asks for the page to be indexed and the page refuses; Search
        Console reports "Submitted URL marked noindex". List only pages meant to be
        indexed.
    """,
    bad="""
        <url><loc>https://www.example.com/cart</loc></url>
        <!-- <meta name="robots" content="noindex"> -->
    """,
    good="""
        <url><loc>https://www.example.com/product</loc></url>
        <!-- no noindex -->
    """,
)

CANONICAL_ELSEWHERE = rule(
    "LV009",
    "live-canonical-elsewhere",
    WARNING,
    summary="A listed page names another URL as its canonical",
    what="""
        Reports a listed page whose canonical (a `Link: <...>; rel="canonical"`
        header or `<link rel="canonical">` in its head) names another URL, compared
        after normalisation (scheme and host case, default port, percent-escapes,
        an empty path, dot segments, the fragment). A page that names several
        canonicals that differ names none: Google ignores them all.
    """,
    why="""
        The page says another URL is the one to index; Search Console reports
        "Alternate page with proper canonical tag" and indexes the other. List the
        canonical URL instead.
    """,
    bad="""
        <url><loc>https://www.example.com/shoes?color=red</loc></url>
        <!-- <link rel="canonical" href="https://www.example.com/shoes"> -->
    """,
    good="""
        <url><loc>https://www.example.com/shoes</loc></url>
    """,
)

LASTMOD_BEHIND = rule(
    "LV010",
    "live-lastmod-behind-page",
    WARNING,
    summary="A lastmod older than the modification the page itself states",
    what="""
        Reports an entry whose `lastmod` is older than what the page states: its
        `Last-Modified` header, or the `dateModified` of its JSON-LD (of an object at
        its top, in its `@graph`, or the `mainEntity` of one; not of other nested
        objects, such as the site a page `isPartOf`), its `article:modified_time` or
        its `og:updated_time` (Open Graph; Rank Math writes it on every page). A
        date the page states outweighs `Last-Modified`, which tells when its bytes
        changed (a static site's build, a deploy, a new comment), not its content:
        `Last-Modified` is compared only on a page that states none, and not where
        three or more of the file's pages have `Last-Modified` values at most a minute
        apart one after another: the time a build wrote them or a deploy uploaded
        them, whatever changed in each.

        A date without a time is compared by day, a
        month or a year written alone by its last day; that day may be the site's in
        any zone, so a page time counts as later only once the day has ended
        everywhere (a lastmod of `2025-01-01` is not behind a `Last-Modified` of
        `Thu, 02 Jan 2025 01:00:00 GMT`, still January 1 west of Greenwich).

        A time written without a zone (a `dateModified` of `2025-06-01T10:00:00`, a
        date alone) may be in any zone from -12:00 to +14:00: the lastmod is reported
        only when it is older whichever zone that is (a page time of
        `2025-06-01T10:00:00` counts from `2025-05-31T20:00:00Z` on; a lastmod time
        without a zone counts as late as it can be). A lastmod of a date alone and a
        page time without a zone compare their dates as written.

        A page time at or after the moment of the answer (its `Date` header) is no
        time of a change: a server that stamps every answer with the time it is
        made, or a clock ahead. It is not compared (writing it as the lastmod would
        make every lastmod the time of the check, LV011).
    """,
    why="""
        Google uses lastmod only where it is consistently and verifiably accurate; a
        lastmod the page contradicts makes the whole sitemap's lastmods ignored.
        Generate lastmod from the same date the page shows.
    """,
    bad="""
        <url><loc>https://www.example.com/news</loc><lastmod>2024-01-01</lastmod></url>
        <!-- Last-Modified: Tue, 05 Mar 2024 10:00:00 GMT -->
    """,
    good="""
        <url><loc>https://www.example.com/news</loc><lastmod>2024-03-05</lastmod></url>
    """,
)

LASTMOD_UNTRUSTED = rule(
    "LV011",
    "live-lastmod-untrusted",
    WARNING,
    summary="Every lastmod of the file is the same moment, or the time of the check",
    what="""
        With `--live`, looks at the lastmods of a file's pages together: reported
        once per file when every lastmod (three or more) is the same moment, or when
        every one is within an hour of the time of the check (`--now`): the
        generator writes its own time, not the pages'.
    """,
    why="""
        Search engines compare lastmod with what they see; lastmods that all say
        "now" or all say the same moment are not, and are then ignored for the
        whole site. Write each page's own modification date, or no lastmod.
    """,
    bad="""
        <url><loc>https://www.example.com/a</loc><lastmod>2024-05-01T12:00:00Z</lastmod></url>
        <url><loc>https://www.example.com/b</loc><lastmod>2024-05-01T12:00:00Z</lastmod></url>
        <url><loc>https://www.example.com/c</loc><lastmod>2024-05-01T12:00:00Z</lastmod></url>
    """,
    good="""
        <url><loc>https://www.example.com/a</loc><lastmod>2024-04-12</lastmod></url>
        <url><loc>https://www.example.com/b</loc><lastmod>2023-11-30</lastmod></url>
        <url><loc>https://www.example.com/c</loc><lastmod>2024-02-21</lastmod></url>
    """,
)

ALTERNATE_UNCONFIRMED = rule(
    "LV012",
    "live-alternate-unconfirmed",
    WARNING,
    summary="Alternates the sitemap lists that the page's own hreflang links do not list",
    what="""
        Compares a page's `xhtml:link` alternates in the sitemap with the
        `<link rel="alternate" hreflang>` links of the page's head and its `Link`
        headers, and reports the sitemap's (language, URL) pairs the page does not
        list. A page that gives no hreflang links of its own is not reported: the
        sitemap is one of the three equivalent ways to tell them, and enough alone.
    """,
    why="""
        Sitemap and page annotations are read together; when they disagree search
        engines may ignore both. Generate both from the same data.
    """,
    bad="""
        <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
        <!-- the page lists only <link rel="alternate" hreflang="fr" ...> -->
    """,
    good="""
        <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
        <!-- the page lists <link rel="alternate" hreflang="de" href="https://www.example.com/de/"> -->
    """,
)

MEDIA_NOT_SERVED = rule(
    "LV013",
    "live-media-not-served",
    WARNING,
    summary="An image or video URL that does not answer 200 with an image or video type",
    what="""
        Reports an `image:loc`, `video:content_loc` or `video:thumbnail_loc` whose
        final answer is not a success, or whose `Content-Type` is not `image/*`
        (images and thumbnails) or `video/*` (video content; a stream's manifest
        too: HLS's `application/vnd.apple.mpegurl` or `application/x-mpegurl`, DASH's
        `application/dash+xml`).
    """,
    why="""
        Google indexes media it can fetch and recognise; an HTML error page or a
        missing file in the media's place means the image or video is dropped.
    """,
    bad="""
        <image:image><image:loc>https://www.example.com/photo.jpg</image:loc></image:image>
        <!-- GET /photo.jpg -> 200 OK, Content-Type: text/html -->
    """,
    good="""
        <image:image><image:loc>https://www.example.com/photo.jpg</image:loc></image:image>
        <!-- GET /photo.jpg -> 200 OK, Content-Type: image/jpeg -->
    """,
)

PRIVATE_ADDRESS_REFUSED = rule(
    "LV014",
    "live-private-address-refused",
    ERROR,
    summary="A listed URL, or one of its redirects, resolves to a private address",
    what="""
        Reports a listed URL that was not requested because its host, or the host of
        a redirect, resolves to a loopback, private, link-local or unique-local
        address. `--allow-private-hosts` lets the audit request them.
    """,
    why="""
        Public sitemaps list public pages. A URL that leads to an internal address is
        a mistake at best, and at worst an attempt to make the audit reach a network
        it should not (a cloud metadata endpoint, an internal service).
    """,
    bad="""
        <url><loc>https://intranet.example.com/</loc></url>
        <!-- intranet.example.com -> 10.0.0.5 -->
    """,
    good="""
        <url><loc>https://www.example.com/</loc></url>
    """,
)

ROBOTS_UNREACHABLE = rule(
    "LV015",
    "live-robots-unreachable",
    ERROR,
    summary="A listed site's robots.txt answers a server error or cannot be fetched",
    what="""
        Reports, once a host, a site whose listed URLs answer but whose robots.txt
        answers a server error (5xx, or 429, which Google reads as one) or cannot be
        fetched at all (timeout, connection reset), at the first URL of that host the
        file lists. The audit still requests the URLs; a crawler does not.
    """,
    why="""
        RFC 9309 makes a crawler assume complete disallow while a site's robots.txt is
        unreachable, and Google does: it stops crawling the whole site until
        robots.txt answers again (Search Console: "robots.txt unreachable"). Every URL
        the sitemap lists there goes unvisited. A robots.txt that does not exist
        should answer 404, which allows everything.
    """,
    bad="""
        <url><loc>https://www.example.com/page</loc></url>
        <!-- GET /robots.txt -> 503 Service Unavailable; GET /page -> 200 OK -->
    """,
    good="""
        <url><loc>https://www.example.com/page</loc></url>
        <!-- GET /robots.txt -> 200 OK (or 404 Not Found); GET /page -> 200 OK -->
    """,
)

CRAWL_BUDGET = rule(
    "LV016",
    "live-crawl-delay-budget",
    WARNING,
    summary="A site's Crawl-delay leaves the audit time for only some of its URLs",
    what="""
        Reports, once a run, a host whose robots.txt `Crawl-delay` times its listed URLs
        (less one) is more than the audit's crawl budget (`--live-crawl-budget`, 300 s
        by default): the audit requests the host's URLs the delay apart, the first ones
        in the files' order, only as many as the budget holds, and the others get no
        `LV` finding. It stands at the first URL that was not requested and names the
        host, its Crawl-delay, how many of its URLs were requested of how many, and how
        long requesting them all would have taken.
    """,
    why="""
        The audit must neither ignore the delay the site asks for nor wait for days:
        10,000 URLs at `Crawl-delay: 60` take a week. The URLs past the budget were not
        audited, and a crawler that honours the delay (Bing, Yandex; Google ignores it)
        needs as long to visit them. Raise `--live-crawl-budget` (or give `inf`) to
        audit them all, audit a sample with `--live-sample`, or ask for a shorter
        delay in robots.txt.
    """,
    bad="""
        <!-- robots.txt: Crawl-delay: 60 -->
        <url><loc>https://www.example.com/a</loc></url>
        <url><loc>https://www.example.com/b</loc></url>
        <!-- ... 10,000 URLs: 6.9 days of Crawl-delay -->
    """,
    good="""
        <!-- robots.txt: Crawl-delay: 1 -->
        <url><loc>https://www.example.com/a</loc></url>
        <url><loc>https://www.example.com/b</loc></url>
        <!-- ... 300 URLs: 5 minutes -->
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Live audit"
ORDER = 185

RULES = (
    NOT_FOUND,
    CLIENT_ERROR,
    SERVER_ERROR,
    UNREACHABLE,
    REDIRECTED,
    REDIRECT_LOOP,
    ROBOTS_DISALLOWED,
    NOINDEX,
    CANONICAL_ELSEWHERE,
    LASTMOD_BEHIND,
    LASTMOD_UNTRUSTED,
    ALTERNATE_UNCONFIRMED,
    MEDIA_NOT_SERVED,
    PRIVATE_ADDRESS_REFUSED,
    ROBOTS_UNREACHABLE,
    CRAWL_BUDGET,
)
runs_when(lambda options, _fetched: bool(options.live), *RULES)

CODES = frozenset(r.code for r in RULES)

_WHAT = {
    "page": "page",
    "child": "child sitemap",
    "image": "image",
    "video-content": "video",
    "video-player": "video player",
    "video-thumbnail": "video thumbnail",
    "alternate": "alternate",
}
_MEDIA_TYPES = {"image": "image/", "video-content": "video/", "video-thumbnail": "image/"}
# The types that say only "bytes": a file stored without its type (S3's, a server's
# default).
_UNTYPED = frozenset({"application/octet-stream", "binary/octet-stream", "application/binary"})
_EXAMPLES = {"image/": "image/jpeg, image/png, image/webp...", "video/": "video/mp4, video/webm..."}
# A video's content may also be a stream's manifest: HLS (.m3u8) or DASH (.mpd), served
# with their own types, which name no video/ type.
_STREAM_TYPES = frozenset(
    {
        "application/vnd.apple.mpegurl",
        "application/x-mpegurl",
        "audio/mpegurl",
        "audio/x-mpegurl",
        "application/dash+xml",
    }
)
_REASONS = {
    "dns": "its host name does not resolve",
    "connect": "the connection failed",
    "tls": "the TLS handshake failed",
    "timeout": "no answer within the timeout",
    "stalled": "its answer stalled",
    "protocol": "the answer is not valid HTTP",
    "scheme": "a redirect leads out of http and https",
    "too-large": "its head decodes to more than the audit reads",
    "invalid-url": "it is not a URL a request can be made for",
}
_MAX_HOPS = 5
_CLOSE_TO_NOW = timedelta(hours=1)
_SAME_MOMENT = timedelta(seconds=60)
_MIN_UNTRUSTED = 3
_DETAIL = 120  # characters of the client's reason quoted  # lastmods: two pages changed together are no pattern yet


@check(
    ANSWER,
    emits=tuple(
        rule for rule in RULES if rule not in (LASTMOD_UNTRUSTED, ROBOTS_UNREACHABLE, CRAWL_BUDGET)
    ),
    proof=NO_PROOF,
)
def check_answer(answered: Answered, file: str, report: Reporter) -> None:
    """What the answer to one listed URL says (the live audit runs after the fast path:
    no proof needed)."""
    xpath = answered.xpath
    found = judge(answered.target, answered.answer, answered.now, answered.listed, answered.stamped)
    for finding in found:
        report.add(finding.with_xpath(xpath))


@check(AUDITED, emits=(LASTMOD_UNTRUSTED,), proof=NO_PROOF)
def check_lastmods(audited: Audited, file: str, report: Reporter) -> None:
    """LV011 for a file whose lastmods search engines would not trust."""
    untrusted = untrusted_lastmods(audited)
    if untrusted is not None:
        report.add(untrusted)


@check(AUDITED, emits=(ROBOTS_UNREACHABLE,), proof=NO_PROOF)
def check_robots_reachable(audited: Audited, file: str, report: Reporter) -> None:
    """LV015 once a host whose robots.txt keeps crawlers off, at the first of its URLs
    the file lists that got an answer (a host that does not answer at all is LV004)."""
    from sitemap_lint.live.robots import origin  # (protego: imported by live runs only)

    answers = audited.answers or {}
    reported: set[str] = set()
    for target in audited.targets:
        answer = answers.get(target.url)
        if answer is None or not answer.robots_unreachable or answer.status is None:
            continue
        robots = f"{origin(target.url)}/robots.txt"
        if robots in reported:
            continue
        reported.add(robots)
        report.add(
            ROBOTS_UNREACHABLE.at(
                target.line,
                target.column,
                f"{robots} {answer.robots_unreachable}, so Googlebot crawls nothing on the"
                f" site, {target.url} included; make it answer 200 (or 404 when there is"
                " none)",
                key=robots,
            ).with_xpath(audited.xpath(target))
        )


@check(AUDITED, emits=(CRAWL_BUDGET,), proof=NO_PROOF)
def check_crawl_budget(audited: Audited, file: str, report: Reporter) -> None:
    """LV016 once a host the crawl budget cut short, at the file's first listing of its
    first URL not requested (the audit hands each cut to one file: ``Audited.cuts``),
    however written (its answer names the URL requested)."""
    cuts = {cut.url: cut for cut in audited.cuts}
    answers = audited.answers or {}
    for target in audited.targets:
        answer = answers.get(target.url)
        cut = cuts.pop(target.url if answer is None else answer.url, None)
        if cut is not None:
            report.add(budget_finding(cut, target).with_xpath(audited.xpath(target)))
        if not cuts:
            return


def budget_finding(cut: BudgetCut, target: Target) -> Finding:
    """LV016 for ``cut`` at ``target``, its first URL not requested."""
    verb = "was" if cut.requested == 1 else "were"
    later = cut.total - cut.requested - 1
    after = f" and the {later:,} after it" if later else ""
    return CRAWL_BUDGET.at(
        target.line,
        target.column,
        f"{cut.host} asks for {cut.delay:g} s between requests (robots.txt"
        f" Crawl-delay), so within the {_seconds(cut.budget)} s crawl budget only"
        f" {cut.requested:,} of its {cut.total:,} URLs {verb} requested, the first in the"
        f" files' order: not {cut.url}{after} (all {cut.total:,} would take"
        f" {_duration(cut.seconds)}); raise --live-crawl-budget to {_seconds(_up(cut.seconds))}"
        " to audit them all, or audit a sample with --live-sample",
        key=cut.host,
    )


def _seconds(value: float) -> str:
    """Seconds as a command line takes them: no exponent, at most three decimals."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _up(seconds: float) -> float:
    """``seconds`` rounded up to the millisecond (a budget written so holds them)."""
    import math

    return math.ceil(seconds * 1000 - 1e-6) / 1000


def _duration(seconds: float) -> str:
    """A length of time for people: seconds, minutes, hours or days."""
    if seconds < 120:
        return f"{_seconds(round(seconds, 1))} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def judge(
    target: Target,
    answer: Answer,
    now: datetime,
    listed: frozenset[str] = frozenset(),
    stamped: frozenset[str] = frozenset(),
) -> list[Finding]:
    """The findings one answer gives for one listed URL (at most one about its
    reachability, then what a page says about itself); ``listed``: the page URLs its
    file lists (``Answered.listed``); ``stamped``: those whose Last-Modified is a
    deploy's (``Answered.stamped``). A URL the crawl budget left unrequested has none
    (LV016 tells, once a host)."""
    del now  # the dates a page states are compared with its lastmod, not the clock
    if answer.over_budget:
        return []
    first = _reachability(target, answer, listed)
    if first is not None:
        return [first]
    if target.kind != "page" or answer.signals is None:
        return []
    return list(_page_findings(target, answer, target.url in stamped))


def _reachability(target: Target, answer: Answer, listed: frozenset[str]) -> Finding | None:
    """Whether the URL was reached: refused, unreachable, looping, disallowed, an
    error status, a wrong media type, or redirected."""
    what = _WHAT.get(target.kind, "URL")
    at = (target.line, target.column)
    url = target.url
    if answer.error == "refused":
        return PRIVATE_ADDRESS_REFUSED.at(
            *at,
            f"{what} {url} was refused: {_detail(answer) or 'its address is private'}"
            f"{_via(answer)}; list public URLs only (--allow-private-hosts requests them)",
            key=url,
        )
    if answer.robots_disallowed:
        if answer.chain:
            return ROBOTS_DISALLOWED.at(
                *at,
                f"{what} {url} redirects to {answer.final_url} ({_chain(answer)}), which its"
                f" site's robots.txt disallows for {answer.robots_agent}; list an allowed URL"
                " or allow it in robots.txt",
                key=url,
            )
        return ROBOTS_DISALLOWED.at(
            *at,
            f"{what} {url} is disallowed for {answer.robots_agent} by the site's robots.txt;"
            " remove it from the sitemap or allow it in robots.txt",
            key=url,
        )
    if answer.loop or answer.too_many_hops:
        chain = _chain(answer)  # a loop's ends with the URL it comes back to
        if answer.loop:
            problem = f"loop ({chain})"
            advice = "fix the redirects and list the page's real URL, or remove the URL"
        else:
            problem = f"go on past {_MAX_HOPS} hops ({chain})"
            advice = "list the URL they end at"
        return REDIRECT_LOOP.at(*at, f"{what} {url}: its redirects {problem}; {advice}", key=url)
    if answer.error == "bad-port":
        reason = answer.detail or "its port is one browsers send no request to"
        if answer.chain:
            return UNREACHABLE.at(
                *at,
                f"{what} {url} redirects to {answer.final_url} ({_chain(answer)}), which was"
                f" not requested: {reason}; redirect to a web port (80, 443) or list another"
                " URL",
                key=url,
            )
        return UNREACHABLE.at(
            *at,
            f"{what} {url} was not requested: {reason}; serve it on a web port (80, 443) or"
            " remove the URL",
            key=url,
        )
    if answer.error is not None or answer.status is None:
        reason = _REASONS.get(answer.error or "", "no answer")
        if answer.error == "invalid-url" and (answer.chain or answer.status is not None):
            reason = "a redirect leads to a URL no request can be made for"
        detail = f" ({_detail(answer)})" if answer.detail else ""
        tries = f" after {answer.attempts} attempts" if answer.attempts > 1 else ""
        return UNREACHABLE.at(
            *at,
            f"{what} {url} is unreachable{tries}: {reason}{detail}{_via(answer)};"
            " fix the server or remove the URL",
            key=url,
        )
    status = answer.status
    if target.kind in _MEDIA_TYPES:
        return _media(target, answer, what)
    if 200 <= status < 300:
        return _redirected(target, answer, what, listed) if answer.chain else None
    if status in (404, 410):
        gone = "not found" if status == 404 else "gone"
        return NOT_FOUND.at(
            *at,
            f"{what} {url} is {gone} ({status}{_via(answer)}); remove it or restore the page",
            key=url,
        )
    if status == 429 or status >= 500:
        tries = " after retries" if answer.attempts > 1 else ""
        later = f" ({_detail(answer)})" if answer.detail else ""
        if status == 429:
            problem = (
                "429 Too Many Requests{}: the site limits the request rate; check again"
                " later or more slowly (--live-per-host 1), and do not rate-limit crawlers"
            )
        elif status == 503:
            problem = (
                "503 Service Unavailable{}: the site is down or in maintenance; check again"
                " once it is back"
            )
        else:
            problem = f"{status}{{}}; fix the server and check again"
        return SERVER_ERROR.at(
            *at,
            f"{what} {url} answers {problem.format(f'{_via(answer)}{later}{tries}')}",
            key=url,
        )
    return CLIENT_ERROR.at(
        *at,
        f"{what} {url} answers {status}{_via(answer)}; crawlers get the same answer: list"
        " public pages only",
        key=url,
    )


def _media(target: Target, answer: Answer, what: str) -> Finding | None:
    status = answer.status
    expected = _MEDIA_TYPES[target.kind]
    if status is not None and 200 <= status < 300:
        content_type = answer.content_type
        if content_type is not None and content_type.startswith(expected):
            return None
        streams = target.kind == "video-content"
        if streams and content_type in _STREAM_TYPES:
            return None
        served = f"as {content_type}" if content_type else "without a Content-Type"
        also = " or a stream's manifest (HLS, DASH)" if streams else ""
        problem = f"is served {served}, not {expected}*{also}"
        if content_type is None or content_type in _UNTYPED:
            # The file, most likely, with no type of its own (a storage bucket's default).
            advice = f"send it with its own {expected} Content-Type ({_EXAMPLES[expected]})"
            return MEDIA_NOT_SERVED.at(
                target.line,
                target.column,
                f"{what} {target.url} {problem}; {advice}",
                key=target.url,
            )
    else:
        problem = f"answers {status}{_via(answer)}"
    return MEDIA_NOT_SERVED.at(
        target.line,
        target.column,
        f"{what} {target.url} {problem}; serve the file or remove it from the sitemap",
        key=target.url,
    )


def _redirected(
    target: Target, answer: Answer, what: str, listed: frozenset[str]
) -> Finding | None:
    if target.kind not in ("page", "child", "alternate"):
        return None
    final = answer.final_url or target.url
    if target.kind == "page" and normal_url(final) in listed:
        # Writing the final URL here would list it twice: this entry goes.
        return REDIRECTED.at(
            target.line,
            target.column,
            f"{what} {target.url} redirects ({_chain(answer)}) to {final}, which the "
            "sitemap lists already; remove this entry",
            key=target.url,
        )
    noindex = answer.signals.noindex if answer.signals is not None else None
    if target.kind == "page" and noindex:
        # Writing the final URL here would list a page that refuses to be indexed.
        return REDIRECTED.at(
            target.line,
            target.column,
            f"{what} {target.url} redirects ({_chain(answer)}) to {final}, which says"
            f" noindex ({noindex}); remove this entry or let {final} be indexed",
            key=target.url,
        )
    fix = None
    if target.kind != "alternate" and answer.status == 200 and _same_site(target.url, final):
        edit = _url_edit(target, final)
        fix = (
            None if edit is None else FindingFix(Fix.UNSAFE, f"list the final URL {final}", (edit,))
        )
    return REDIRECTED.at(
        target.line,
        target.column,
        f"{what} {target.url} redirects ({_chain(answer)}); list the final URL {final}",
        key=target.url,
        fix=fix,
    )


def _url_edit(target: Target, url: str) -> Edit | None:
    """The edit that writes ``url`` in place of the target's."""
    if target.written == "text":
        return Edit(target.line, target.column, url, "text", old=target.url)
    if target.written == "attribute":  # an Atom link's href
        return Edit(target.line, target.column, url, "href", old=target.url)
    if target.written == "span":
        end = target.column + len(target.url)
        return Edit(target.line, target.column, url, "span", target.line, end, target.url)
    return None


def _page_findings(target: Target, answer: Answer, stamped: bool = False) -> Iterator[Finding]:
    """What a page says of itself; ``stamped``: its Last-Modified is a deploy's time,
    no time of a change of its own."""
    from sitemap_lint.live.page import LAST_MODIFIED, normal_for_compare

    signals = answer.signals
    assert signals is not None
    at = (target.line, target.column)
    url = target.url
    if signals.refresh:
        # Google follows a meta refresh as a redirect: the page is not the one indexed.
        yield REDIRECTED.at(
            *at,
            f"page {url} redirects to {signals.refresh} with a meta refresh; list the page"
            " it leads to",
            key=url,
        )
        return
    if signals.noindex:
        yield NOINDEX.at(
            *at,
            f"page {url} says noindex ({signals.noindex}); remove it from the sitemap or"
            " let it be indexed",
            key=url,
        )
        return  # a page that refuses to be indexed: its canonical and dates do not matter
    final = answer.final_url or url
    canonical = signals.canonical
    if canonical and normal_for_compare(canonical) != normal_for_compare(final):
        source = f" ({signals.canonical_source})" if signals.canonical_source else ""
        yield CANONICAL_ELSEWHERE.at(
            *at,
            f"page {url} names {canonical} as its canonical{source}; list the canonical URL",
            key=url,
        )
    modified = signals.modified
    if stamped and signals.modified_source == LAST_MODIFIED:
        modified = None
    lastmod = _lastmod(target)
    if modified is not None and lastmod is not None and _behind(lastmod, modified):
        source = signals.modified_source or "the page"
        yield LASTMOD_BEHIND.at(
            *at,
            f"page {url}: lastmod {target.lastmod} is older than {source}"
            f" {_page_time_text(modified)}; write the page's own modification date",
            key=url,
        )
    missing = _unconfirmed(target.alternates, signals.alternates) if signals.alternates else []
    if missing:
        listed = ", ".join(f"{lang} {href}" for lang, href in missing[:3])
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        yield ALTERNATE_UNCONFIRMED.at(
            *at,
            f"page {url} does not list the sitemap's alternates {listed}{more} in its own"
            " hreflang links; make both list the same",
            key=url,
        )


def _lastmod(target: Target) -> Parsed | None:
    """The entry's lastmod read as the date rules read it (None: none, or not a valid
    W3C date, which those rules report), its moment in UTC when it names no zone."""
    if not target.lastmod:
        return None
    parsed = parse_date(target.lastmod)
    if parsed is None or parsed.moment.tzinfo is not None:
        return parsed
    return parsed._replace(moment=parsed.moment.replace(tzinfo=UTC))


def _behind(lastmod: Parsed, modified: datetime) -> bool:
    """Whether ``lastmod`` is older than the page's ``modified`` whatever zone a time
    written without one is in (a naive ``modified``; a lastmod without ``has_zone``)."""
    from sitemap_lint.live.page import earliest_moment, latest_moment

    moment = lastmod.moment
    if not lastmod.has_time:  # a date without a time: by day, a month or year by its last
        last = lastmod.last_day().date()
        if modified.tzinfo is None:
            return last < modified.date()
        # The site's day, in whatever zone it is: it ends last in the westmost.
        return modified >= latest_moment(datetime.combine(last + timedelta(days=1), time()))
    if not lastmod.has_zone:
        moment = latest_moment(moment.replace(tzinfo=None))
    return moment + _SAME_MOMENT < earliest_moment(modified)


def _page_time_text(modified: datetime) -> str:
    if modified.tzinfo is not None:
        return utc_text(modified)
    return f"{modified:%Y-%m-%dT%H:%M:%S} (no zone)"


def _unconfirmed(
    listed: Sequence[tuple[str, str]], stated: Sequence[tuple[str, str]]
) -> list[tuple[str, str]]:
    from sitemap_lint.live.page import normal_for_compare

    confirmed = {(lang.lower(), normal_for_compare(href)) for lang, href in stated}
    return [
        (lang, href)
        for lang, href in listed
        if (lang.lower(), normal_for_compare(href)) not in confirmed
    ]


def untrusted_lastmods(audited: Audited) -> Finding | None:
    """LV011 for one file's pages, at the first page with a lastmod."""
    now = audited.now
    dated = [
        (target, parsed.moment)
        for target in audited.targets
        if target.kind == "page"
        if (parsed := _lastmod(target)) is not None
    ]
    if len(dated) < _MIN_UNTRUSTED:
        return None
    first, moment = dated[0]
    aware_now = now if now.tzinfo is not None else now.replace(tzinfo=moment.tzinfo)
    if all(abs(when - aware_now) <= _CLOSE_TO_NOW for _target, when in dated):
        problem = "is within an hour of the time of the check"
    elif len({when for _target, when in dated}) == 1:
        problem = f"is the same moment, {first.lastmod}"
    else:
        return None
    return LASTMOD_UNTRUSTED.at(
        first.line,
        first.column,
        f"every lastmod of the file ({len(dated)}) {problem}: search engines ignore such"
        " lastmods; write each page's own modification date, or none",
    ).with_xpath(audited.xpath(first))


def _detail(answer: Answer) -> str:
    """The client's reason, on one line and short."""
    lines = (answer.detail or "").replace("\\n", "\n").splitlines()
    text = " ".join(lines[0].split()).rstrip(" :") if lines else ""
    return text if len(text) <= _DETAIL else text[: _DETAIL - 3].rstrip() + "..."


def _via(answer: Answer) -> str:
    return f", via {_chain(answer)}" if answer.chain else ""


def _chain(answer: Answer) -> str:
    return " -> ".join(answer.hops(error=False))


def _same_site(url: str, final: str) -> bool:
    """Whether both URLs are on one site: the same host, ``www.`` aside (http and https
    alike: the most common redirect is to https)."""
    from urllib.parse import urlsplit

    try:
        hosts = [urlsplit(u).hostname or "" for u in (url, final)]
    except ValueError:
        return False
    first, last = (host.removeprefix("www.") for host in hosts)
    return bool(first) and first == last
