"""HTTP fetch rules: what went wrong fetching a sitemap URL.

sitemap_lint.inputs.fetch hands what went wrong to the ``fetch`` check below
(``rules.events.FetchProblem``); its findings always sit at line 1, column 1 of the
fetched file.
"""

from __future__ import annotations

from sitemap_lint.finding import Rule
from sitemap_lint.rules.base import ERROR, INFO, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.events import FetchKind, FetchProblem
from sitemap_lint.rules.registry import FETCH, runs_when
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.printable import printable

HTTP_ERROR_STATUS = rule(
    "FE001",
    "http-error-status",
    ERROR,
    summary="The sitemap URL answers with an error status such as 404 or 403",
    what="""
        Fetches the sitemap URL and reports a final response that is neither a
        success (2xx) nor a redirect: 404 Not Found, 410 Gone, 401 and 403
        (access denied) and the other client errors. Server errors and 429 are
        reported by FE002.
    """,
    why="""
        Search engines read a sitemap only from a successful response. Google
        reports "Couldn't fetch" or "Sitemap could not be read", and a sitemap
        behind a login or an IP block is never read at all.
    """,
    bad="""
        GET /sitemap.xml HTTP/1.1

        HTTP/1.1 404 Not Found
    """,
    good="""
        GET /sitemap.xml HTTP/1.1

        HTTP/1.1 200 OK
        Content-Type: application/xml
    """,
    lang="http",
)

HTTP_TEMPORARY_ERROR = rule(
    "FE002",
    "http-temporary-error",
    ERROR,
    summary="The sitemap URL answers with a server error (5xx) or 429",
    what="""
        Reports a final response with a server error status (500, 502, 503,
        ...) or 429 Too Many Requests. These are usually temporary: check again
        later before changing anything.
    """,
    why="""
        While the server fails, crawlers cannot read the sitemap; they retry
        for a while, but a sitemap that keeps failing is dropped. Rate limits
        that hit crawlers (429) slow down the crawl of the whole site.
    """,
    bad="""
        HTTP/1.1 503 Service Unavailable
    """,
    good="""
        HTTP/1.1 200 OK
        Content-Type: application/xml
    """,
    lang="http",
)

FETCH_FAILED = rule(
    "FE003",
    "fetch-failed",
    ERROR,
    summary="The sitemap could not be fetched: no connection or a broken response",
    what="""
        Reports a fetch that got no usable response: the host name does not
        resolve, the connection is refused or reset, the TLS handshake or
        certificate check fails, or the server sends something that is not
        valid HTTP (for example a body cut short of its Content-Length). A URL to
        fetch (an index's sitemap, a redirect's target) on one of the ports browsers
        send no request to, those of other protocols (the Fetch standard's bad ports:
        25, 110, 6000...), is not fetched, unless the command line names its host
        and port.
    """,
    why="""
        A crawler that cannot connect, or does not trust the certificate, reads
        nothing; a response cut short is discarded.
    """,
    bad="""
        GET https://expired.example.com/sitemap.xml
        # certificate has expired
    """,
    good="""
        GET https://www.example.com/sitemap.xml
        # valid certificate, complete response
    """,
    lang="http",
)

FETCH_TIMEOUT = rule(
    "FE004",
    "fetch-timeout",
    ERROR,
    summary="The server was too slow to connect or to send the sitemap",
    what="""
        Reports a fetch that timed out: the connection was not made, or the
        server sent nothing for longer than the timeout (10 seconds by
        default), or the response, its headers or its body, took far too long
        to arrive (a server sending a byte at a time).
    """,
    why="""
        Crawlers give up on slow responses just the same. A sitemap generated
        on every request is often the cause: generate it ahead of time and
        serve it as a static file.
    """,
    bad="""
        GET /sitemap.xml
        # no answer after 10 seconds
    """,
    good="""
        GET /sitemap.xml
        # a static file, answered at once
    """,
    lang="http",
)

REDIRECT_LOOP = rule(
    "FE005",
    "redirect-loop",
    ERROR,
    summary="Redirects lead back to a URL already visited",
    what="Follows the redirects of the sitemap URL and reports one that leads back to a URL of the chain.",
    why="A redirect loop never reaches the sitemap; crawlers stop and report an error.",
    bad="""
        GET /sitemap.xml      -> 301 Location: /sitemap.xml?v=2
        GET /sitemap.xml?v=2  -> 301 Location: /sitemap.xml
    """,
    good="""
        GET /sitemap.xml      -> 200 OK
    """,
    lang="http",
)

TOO_MANY_REDIRECTS = rule(
    "FE006",
    "too-many-redirects",
    ERROR,
    summary="Too many redirects in a row before the sitemap",
    what="""
        Reports a sitemap URL whose redirects go on past the limit (five by
        default) without reaching a final response.
    """,
    why="""
        Googlebot follows at most a handful of redirects in a row and then
        gives up; each hop also costs a request. Point the first URL straight
        at the final one.
    """,
    bad="""
        /sitemap.xml -> /sitemap -> /sitemaps/ -> /sitemaps/index -> /s/1 -> /s/2 -> ...
    """,
    good="""
        /sitemap.xml -> 200 OK
    """,
    lang="http",
)

UNSUPPORTED_URL_SCHEME = rule(
    "FE007",
    "unsupported-url-scheme",
    ERROR,
    summary="A sitemap's URL redirects to a URL that is not http:// or https://",
    what="""
        Reports a redirect, met while a sitemap is fetched, to a URL whose
        scheme is not `http` or `https` (`ftp:`, `file:`...). Nothing
        is fetched from it. Such a URL given to the command is refused (exit
        2), and one that an index or a robots.txt lists is `UR002` or `RB001`.
    """,
    why="Search engines fetch sitemaps over HTTP and HTTPS only.",
    bad="""
        GET /sitemap.xml

        HTTP/1.1 301 Moved Permanently
        Location: ftp://example.com/sitemap.xml
    """,
    good="""
        GET /sitemap.xml

        HTTP/1.1 200 OK
        Content-Type: application/xml
    """,
    lang="http",
)

BROKEN_REDIRECT = rule(
    "FE008",
    "broken-redirect",
    ERROR,
    summary="A redirect without a usable Location header",
    what="""
        Reports a redirect status (301, 302, 303, 307, 308) whose `Location`
        header is missing, empty or not a valid URL, or that sends several
        `Location` headers with different targets.
    """,
    why="A redirect that does not say where to go cannot be followed: the sitemap is not read.",
    bad="""
        HTTP/1.1 301 Moved Permanently
        # no Location header
    """,
    good="""
        HTTP/1.1 301 Moved Permanently
        Location: https://www.example.com/sitemap.xml
    """,
    lang="http",
)

WRONG_CONTENT_TYPE = rule(
    "FE009",
    "wrong-content-type",
    WARNING,
    summary="The sitemap is served with a Content-Type that is not XML, gzip or text",
    what="""
        Checks the media type of the response: XML (`application/xml`,
        `text/xml`, `application/rss+xml`, `application/atom+xml`), gzip
        (`application/gzip`, `application/x-gzip`,
        `application/octet-stream`) and `text/plain` (text sitemaps,
        robots.txt) are fine. An HTML page served as `text/html` is left to
        IN002; anything else, or XML served as `text/html`, is reported.
    """,
    why="""
        Some crawlers refuse a sitemap whose type says it is something else,
        and a wrong type often means the server answers with a generic page
        rather than the sitemap file.
    """,
    bad="""
        HTTP/1.1 200 OK
        Content-Type: text/html

        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">...
    """,
    good="""
        HTTP/1.1 200 OK
        Content-Type: application/xml; charset=utf-8

        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">...
    """,
    lang="http",
)

MISSING_CONTENT_TYPE = rule(
    "FE010",
    "missing-content-type",
    WARNING,
    summary="The sitemap is served without a Content-Type header",
    what="Reports a successful response with a body but no `Content-Type` header.",
    why="""
        Without a type, crawlers have to guess what the file is, and some
        refuse it. Configure the server to send `application/xml` for `.xml`
        files (and `application/gzip` for `.xml.gz`).
    """,
    bad="""
        HTTP/1.1 200 OK
        Content-Length: 1234
    """,
    good="""
        HTTP/1.1 200 OK
        Content-Type: application/xml
        Content-Length: 1234
    """,
    lang="http",
)

UNSUPPORTED_CONTENT_ENCODING = rule(
    "FE011",
    "unsupported-content-encoding",
    ERROR,
    summary="The response is compressed with an encoding crawlers did not ask for",
    what="""
        Reports a `Content-Encoding` other than `gzip`, `deflate` or
        `identity` (for example `br` or `zstd`), which the request's
        `Accept-Encoding: gzip, deflate` did not allow. The body is not checked.
    """,
    why="""
        A server must not use an encoding the client did not accept; a crawler
        that cannot decode the body cannot read the sitemap.
    """,
    bad="""
        Accept-Encoding: gzip, deflate

        HTTP/1.1 200 OK
        Content-Encoding: br
    """,
    good="""
        Accept-Encoding: gzip, deflate

        HTTP/1.1 200 OK
        Content-Encoding: gzip
    """,
    lang="http",
)

CORRUPT_CONTENT_ENCODING = rule(
    "FE012",
    "corrupt-content-encoding",
    ERROR,
    summary="The gzip or deflate Content-Encoding of the response cannot be decoded",
    what="""
        Reports a body whose `Content-Encoding: gzip` or `deflate` is damaged or
        cut short, so that the sitemap cannot be decoded. The body is not
        checked. (A `.xml.gz` file that is itself damaged is reported by the
        gzip rules instead.)
    """,
    why="""
        Crawlers cannot read a body they cannot decode. The usual cause is a
        server or proxy that compresses an already compressed file, or that
        announces a compression it did not apply.
    """,
    bad="""
        HTTP/1.1 200 OK
        Content-Encoding: gzip

        <?xml version="1.0" encoding="UTF-8"?>...
    """,
    good="""
        HTTP/1.1 200 OK

        <?xml version="1.0" encoding="UTF-8"?>...
    """,
    lang="http",
)

PERMANENT_REDIRECT = rule(
    "FE013",
    "permanent-redirect",
    INFO,
    summary="The sitemap URL redirects permanently: submit the final URL",
    what="""
        Reports a sitemap URL that reaches the sitemap through a permanent
        redirect (301 or 308), and names the final URL. A robots.txt that
        redirects (`http://example.com/robots.txt` to the `https://www.`
        one, say) is not reported: its address is fixed, and crawlers follow
        the redirect.
    """,
    why="""
        Crawlers follow the redirect, but submitting (and listing in
        robots.txt and sitemap indexes) the final URL saves a request each
        time and keeps the sitemap's location, which sets its scope, clear.
    """,
    bad="""
        Sitemap: http://example.com/sitemap.xml
        # 301 -> https://www.example.com/sitemap.xml
    """,
    good="""
        Sitemap: https://www.example.com/sitemap.xml
    """,
    lang="text",
)

PRIVATE_ADDRESS_REFUSED = rule(
    "FE014",
    "private-address-refused",
    ERROR,
    summary="A URL to fetch is on a private or internal address that no input names",
    what="""
        Before connecting, resolves the host of every URL to fetch (an index's
        sitemaps, a robots.txt's `Sitemap:` lines, each redirect) and refuses,
        without sending anything, an address that is loopback, private (RFC 1918),
        link-local, carrier-grade NAT, unique-local, multicast, unspecified or
        otherwise reserved, IPv4 or IPv6, in whatever form the URL writes it
        (`2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`). Hosts the run was given
        (the URLs on the command line or in the configuration, `--robots` URLs,
        `--map` prefixes) are fetched, and so is any host that resolves to an
        address given as such (`http://127.0.0.1:8000/`), at its port. A host name
        given is trusted by its name, at the addresses of its first lookup in the run
        (with `--live`, the audit's too): a later lookup that answers an internal address it did not (DNS rebinding), or
        another host on the address it resolves to, is refused.
        `--allow-private-hosts` fetches them all.
    """,
    why="""
        Search engines fetch from the public internet: a sitemap on an internal
        address is one they cannot read. And a file that lists such URLs, read
        on a CI runner or a laptop, would make the linter request that
        machine's own services, its private network or its cloud's metadata
        address, and print what they answer.
    """,
    bad="""
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <sitemap><loc>http://10.0.0.5/sitemap-products.xml</loc></sitemap>
        </sitemapindex>
    """,
    good="""
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <sitemap><loc>https://www.example.com/sitemap-products.xml</loc></sitemap>
        </sitemapindex>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "HTTP"
ORDER = 180

RULES = (
    HTTP_ERROR_STATUS,
    HTTP_TEMPORARY_ERROR,
    FETCH_FAILED,
    FETCH_TIMEOUT,
    REDIRECT_LOOP,
    TOO_MANY_REDIRECTS,
    UNSUPPORTED_URL_SCHEME,
    BROKEN_REDIRECT,
    WRONG_CONTENT_TYPE,
    MISSING_CONTENT_TYPE,
    UNSUPPORTED_CONTENT_ENCODING,
    CORRUPT_CONTENT_ENCODING,
    PERMANENT_REDIRECT,
    PRIVATE_ADDRESS_REFUSED,
)
runs_when(lambda _options, fetched: fetched, *RULES)


@check(FETCH, emits=RULES, proof=NO_PROOF)
def check_fetch(problem: FetchProblem, options: object, report: Reporter) -> None:
    """The finding for what went wrong fetching a sitemap URL."""
    if problem.kind == FetchKind.PERMANENT and _is_robots_url(problem.origin):
        return  # a robots.txt's address is fixed: there is no other URL to give
    rule, message = _finding(problem)
    report.add(rule.at(1, 1, message))


def _finding(problem: FetchProblem) -> tuple[Rule, str]:
    kind, url = problem.kind, _short(problem.url)
    if kind == FetchKind.SCHEME:
        shown = f"{problem.detail}:" if problem.detail else "no scheme"
        if problem.origin:
            return UNSUPPORTED_URL_SCHEME, (
                f"{_short(problem.origin)} redirects to {url} ({shown}), which is not "
                "fetched; redirect to an http:// or https:// URL"
            )
        return UNSUPPORTED_URL_SCHEME, (
            f"cannot fetch {url}: {shown} is not http or https; "
            "give the sitemap's http:// or https:// URL"
        )
    if kind == FetchKind.INVALID_URL:
        return FETCH_FAILED, f"cannot fetch {url}: it is not a valid URL; fix its host and port"
    if kind == FetchKind.NO_LOCATION:
        return BROKEN_REDIRECT, (
            f"{url} answers {_status_text(problem.status)} without a "
            "Location header; give the redirect its target URL"
        )
    if kind == FetchKind.BAD_LOCATION and problem.detail == "several":
        return BROKEN_REDIRECT, (
            f"{url} redirects ({problem.status}) with several different Location headers "
            f"({_short(problem.target)}); send one Location header"
        )
    if kind == FetchKind.BAD_LOCATION:
        return BROKEN_REDIRECT, (
            f"{url} redirects ({problem.status}) to {_short(problem.target)!r}, "
            "which is not a valid URL; fix the Location header"
        )
    if kind == FetchKind.LOOP:
        return REDIRECT_LOOP, (
            f"redirect loop: {_chain_text(problem.chain)}; make the "
            "sitemap URL answer 200 without redirecting back"
        )
    if kind == FetchKind.TOO_MANY_REDIRECTS:
        return TOO_MANY_REDIRECTS, (
            f"more than {problem.limit} redirects: "
            f"{_chain_text(problem.chain)}; redirect the first URL "
            "straight to the sitemap"
        )
    if kind == FetchKind.TEMPORARY_ERROR:
        if problem.status == 429:
            detail = "the server limits the request rate; this is temporary: retry later, and do not rate-limit crawlers"
        else:
            detail = (
                "a server error, often temporary: retry later, and fix the server if it persists"
            )
        return HTTP_TEMPORARY_ERROR, f"{url} answers {_status_text(problem.status)}; {detail}"
    if kind == FetchKind.ERROR_STATUS:
        return (
            HTTP_ERROR_STATUS,
            f"{url} answers {_status_text(problem.status)}; "
            f"{_status_fix(problem.status, problem.url)}",
        )
    if kind == FetchKind.UNKNOWN_ENCODING:
        return UNSUPPORTED_CONTENT_ENCODING, (
            f"the response is sent with Content-Encoding {_short(problem.detail, 40)!r}, which "
            "was not asked for (Accept-Encoding: gzip, deflate); send gzip, deflate or no "
            "encoding"
        )
    if kind == FetchKind.CORRUPT_ENCODING:
        return CORRUPT_CONTENT_ENCODING, (
            f"the body's Content-Encoding cannot be undone ({_short(problem.detail, 100)}); send the "
            "sitemap compressed once and correctly, or uncompressed"
        )
    if kind == FetchKind.PERMANENT:
        return PERMANENT_REDIRECT, (
            f"{_short(problem.origin)} redirects permanently to {url}; "
            "submit the final URL (in robots.txt, sitemap indexes and search consoles)"
        )
    if kind == FetchKind.NO_CONTENT_TYPE:
        return MISSING_CONTENT_TYPE, (
            f"the response has no Content-Type header; serve the file as {problem.target}"
        )
    if kind == FetchKind.WRONG_CONTENT_TYPE:
        return WRONG_CONTENT_TYPE, (
            f"served as {_short(problem.detail, 60)!r}; serve the file as {problem.target} "
            "(crawlers may refuse other types)"
        )
    if kind == FetchKind.TIMEOUT:
        return FETCH_TIMEOUT, _timeout_message(problem)
    if kind == FetchKind.REFUSED:
        return PRIVATE_ADDRESS_REFUSED, _refused_message(problem)
    if kind == FetchKind.BAD_PORT:
        if problem.origin:
            return FETCH_FAILED, (
                f"{_short(problem.origin)} redirects to {url}, which was not fetched:"
                f" {problem.detail}; redirect to a web port (80, 443)"
            )
        return FETCH_FAILED, (
            f"{url} was not fetched: {problem.detail}; serve the sitemap on a web port"
            " (80, 443) and list it there"
        )
    return FETCH_FAILED, f"cannot fetch {url}: {_reason(problem)}"


def _is_robots_url(url: str) -> bool:
    """Whether ``url`` is a robots.txt's (its path ends in robots.txt)."""
    return url.split("?", 1)[0].split("#", 1)[0].lower().endswith("/robots.txt")


def _status_text(status: int) -> str:
    """The status code and its standard phrase (the server's own words are not repeated)."""
    from http import HTTPStatus  # for a fetched file only

    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = ""
    return f"{status} {reason}".strip()


def _status_fix(status: int, url: str) -> str:
    if _is_robots_url(url):
        if status in (404, 410):
            return (
                "publish the site's robots.txt at this URL: crawlers find no Sitemap line "
                "and no rule where there is none"
            )
        if status in (401, 403, 407):
            return "let crawlers fetch robots.txt without a login or an IP block"
        return "make robots.txt answer 200 with its rules and Sitemap lines"
    if status in (404, 410):
        return "publish the sitemap at this URL, or submit the URL where it is"
    if status in (401, 403, 407):
        return "let crawlers fetch the sitemap without a login or an IP block"
    return "make the sitemap URL answer 200 with the sitemap"


def _timeout_message(problem: FetchProblem) -> str:
    seconds, which = problem.seconds, problem.detail
    if which == "body":
        return (
            f"the response was still arriving {seconds:g} s after the request, its body"
            " unfinished; serve the sitemap as a static file, or split it into smaller"
            " sitemaps"
        )
    if which == "head":
        return (
            f"the response was still arriving {seconds:g} s after the request, its headers"
            " unfinished; make the server answer at once (serve the sitemap as a static file)"
        )
    if which == "connect":
        return f"no connection to {problem.host} within {seconds:g} s; check that the server is reachable"
    if which == "read":
        return (
            f"{problem.host} sent nothing for {seconds:g} s; make the sitemap answer faster "
            "(serve a file generated ahead of time)"
        )
    return f"fetching {_short(problem.url)} timed out after {seconds:g} s; make the server answer faster"


def _refused_message(problem: FetchProblem) -> str:
    from sitemap_lint.inputs.guard import kind_words  # not loaded by a run that fetches nothing

    url = _short(problem.url)
    if problem.origin:
        start = f"{_short(problem.origin)} redirects to {url}, which was not fetched"
    else:
        start = f"{url} was not fetched"
    host, address = _short(problem.host, 60), problem.address
    kind = kind_words(problem.address_kind, address)
    if address == problem.host:
        where = f"its host is {address}, {kind}"
    elif problem.literal:
        where = f"its host {host} is the address {address}, {kind}"
    else:
        where = f"its host {host} resolves to {address}, {kind}"
    return (
        f"{start}: {where}, and no input names this host; list only sitemaps on public "
        "hosts (crawlers cannot reach this one), or give --allow-private-hosts to fetch it"
    )


def _reason(problem: FetchProblem) -> str:
    cause, text = problem.detail, problem.text
    if cause == "untrusted":
        return (
            f"the TLS certificate is not trusted ({_short(text, 80)}); install a valid "
            "certificate for this host, with its intermediate certificates"
        )
    if cause == "tls":
        return f"the TLS handshake failed ({_short(text, 80)}); check the server's TLS setup"
    if cause == "dns":
        return f"the host name {problem.host} does not resolve; check the host name and its DNS records"
    if cause == "refused":
        return (
            f"the connection to {problem.host} was refused; check that the server is up "
            "and that the URL's host and port are right"
        )
    if cause == "invalid-url":
        return f"the URL is not valid ({_short(text, 80)}); fix the URL"
    if cause == "broken":
        return f"the response is broken ({_short(text, 100)}); check the server"
    return f"{problem.target}: {_short(text, 100)}"  # the error's name and its words


def _chain_text(chain: tuple[str, ...]) -> str:
    shown = [_short(url, 60) for url in chain]
    if len(shown) > 4:
        shown = [shown[0], "...", *shown[-3:]]
    return " -> ".join(shown)


def _short(text: str, limit: int = 100) -> str:
    """``text`` (a URL) as a message shows it: its control characters as escapes, cut
    at ``limit`` characters."""
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."
