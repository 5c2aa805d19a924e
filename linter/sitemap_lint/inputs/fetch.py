"""Fetch a sitemap (or robots.txt) over HTTP with bounded time and memory.

Redirects are followed here, one hop at a time, so that loops, long chains and
redirects to other schemes are reported rather than raised. The body is read
raw and its Content-Encoding undone in small steps, so a compression bomb
costs no more than ``max_bytes`` of memory. What goes wrong becomes FE findings
(sitemap_lint.rules.fetch), never an exception. Connections go only where
``FetchSettings.hosts`` allows (sitemap_lint.inputs.guard): an internal address that
no input names is refused before anything is sent.
"""

from __future__ import annotations

import io
import os
import re
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from http import HTTPStatus
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from sitemap_lint._version import __version__
from sitemap_lint.finding import Finding
from sitemap_lint.inputs import reader as inputs
from sitemap_lint.inputs.guard import (
    HostPolicy,
    RefusedAddress,
    address_text,
    guarded_transport,
    host_address,
)
from sitemap_lint.rules import fetch as rules

if TYPE_CHECKING:
    import ssl

    import httpx

REDIRECTS = frozenset({301, 302, 303, 307, 308})
PERMANENT_REDIRECTS = frozenset({301, 308})
FETCHED_SCHEMES = ("http", "https")
# Media types crawlers accept for a sitemap, a gzipped sitemap, a text sitemap or robots.txt.
ACCEPTED_TYPES = frozenset(
    {
        "application/xml",
        "text/xml",
        "application/gzip",
        "application/x-gzip",
        "application/octet-stream",
        "text/plain",
    }
)
DECODED_ENCODINGS = frozenset({"gzip", "x-gzip", "deflate"})
STEP = 1 << 16
INVALID_LOCATION = "sitemap_lint.invalid_location"  # a response extension
# The whole body may take this many timeouts to arrive (a server trickling bytes).
BODY_TIMEOUTS = 30
_SCHEME = re.compile(r"\s*([A-Za-z][A-Za-z0-9+.-]*):")
_QUOTED_BYTES = re.compile(r":?\s*(?:bytearray\()?\bb['\"].*", re.DOTALL)
_BAD_HOST_CHARACTER = re.compile(r"[\x00-\x20%<>\"{}|\\^`/?#@\x7f]")
_HTML_START = re.compile(
    r"\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class FetchSettings:
    timeout: float = 10.0  # connect and read timeout, seconds
    max_redirects: int = 5
    max_bytes: int = inputs.READ_CAP  # cap on the body after Content-Encoding is undone
    hosts: HostPolicy = field(default_factory=HostPolicy)  # by default: public hosts only


@dataclass(frozen=True)
class Fetched:
    """The outcome of one fetch; ``body`` is None when there is nothing to check."""

    url: str
    final_url: str
    status: int | None
    content_type: str | None
    body: bytes | None = field(repr=False)
    findings: tuple[Finding, ...]


DEFAULT_SETTINGS = FetchSettings()


class _Problem(Exception):
    """Ends a fetch with one finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


@dataclass
class _Progress:
    """What is known so far about one fetch, for the result when it stops early."""

    url: str
    chain: list[str]
    status: int | None = None
    content_type: str | None = None
    permanent: bool = False

    @property
    def current(self) -> str:
        return self.chain[-1]

    def result(self, body: bytes | None, *findings: Finding | None) -> Fetched:
        kept = tuple(f for f in findings if f is not None)
        return Fetched(self.url, self.current, self.status, self.content_type, body, kept)


def tls_context() -> ssl.SSLContext:
    """httpx's TLS context, the certificate authorities it trusts included (certifi's,
    or those ``SSL_CERT_FILE`` or ``SSL_CERT_DIR`` name): made once a process for each
    of those settings, since loading the authorities takes tens of milliseconds."""
    return _tls_context(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@cache
def _tls_context(cert_file: str | None, cert_dir: str | None) -> ssl.SSLContext:
    import httpx

    return httpx.create_ssl_context()  # reads the same two variables


class Fetcher:
    """Fetches URLs through one shared HTTP client; safe to use from several threads."""

    def __init__(self, settings: FetchSettings = DEFAULT_SETTINGS) -> None:
        from http.cookiejar import CookieJar, DefaultCookiePolicy

        import httpx  # imported here: most runs never fetch, and start-up time matters

        self.settings = settings
        self._httpx = httpx
        # The guarded transport checks every connection (and uses no proxy: a proxy would
        # connect where the guard cannot see); allowing every host keeps httpx's own.
        hosts = settings.hosts
        context = tls_context()
        transport = None if hosts.allow_private else guarded_transport(hosts, context)
        self._client = httpx.Client(
            verify=context,
            headers={
                "User-Agent": f"sitemap-lint/{__version__}",
                "Accept-Encoding": "gzip, deflate",
            },
            timeout=httpx.Timeout(settings.timeout),
            follow_redirects=False,
            # Crawlers keep no cookies between requests: every fetch starts afresh.
            cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),
            event_hooks={"response": [self._set_aside_invalid_location]},
            transport=transport,
        )

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    def _set_aside_invalid_location(self, response: httpx.Response) -> None:
        """httpx raises on a Location it cannot parse, even when not following it: keep
        the value aside so that the redirect is reported like any broken one."""
        location = response.headers.get("location")
        if location is None:
            return
        try:
            self._httpx.URL(location)
        except self._httpx.InvalidURL:
            del response.headers["location"]
            response.extensions[INVALID_LOCATION] = location

    def get(self, url: str) -> Fetched:
        progress = _Progress(url, [url])
        problem = _scheme_problem(url)
        if problem is None and not _is_valid_url(url):
            problem = rules.FETCH_FAILED.at(
                1, 1, f"cannot fetch {_short(url)}: it is not a valid URL; fix its host and port"
            )
        if problem is not None:
            return progress.result(None, problem)
        httpx = self._httpx
        try:
            return self._follow(progress)
        except _Problem as stop:
            return progress.result(None, stop.finding)
        except RefusedAddress as refused:
            return progress.result(None, _refused(refused, progress))
        except httpx.TimeoutException as error:
            return progress.result(None, _timeout(error, progress.current, self.settings.timeout))
        except (httpx.HTTPError, httpx.InvalidURL, ValueError, OSError) as error:
            return progress.result(None, _failure(error, progress.current))

    def _follow(self, progress: _Progress) -> Fetched:
        while True:
            with self._client.stream("GET", progress.current) as response:
                progress.status = response.status_code
                progress.content_type = _media_type(response.headers.get("content-type"))
                if response.status_code in REDIRECTS:
                    self._redirect(progress, response)
                    continue
                return self._final(progress, response)

    def _redirect(self, progress: _Progress, response: httpx.Response) -> None:
        status = response.status_code
        location = response.headers.get("location", "")
        location = response.extensions.get(INVALID_LOCATION, location).strip()
        if not location:
            raise _Problem(
                rules.BROKEN_REDIRECT.at(
                    1,
                    1,
                    f"{_short(progress.current)} answers {_status_text(response)} without a "
                    "Location header; give the redirect its target URL",
                )
            )
        try:
            target = urljoin(progress.current, location)
        except ValueError:  # e.g. an unclosed IPv6 bracket
            target = location
        problem = _scheme_problem(target, redirected_from=progress.current)
        if problem is None and not _is_valid_url(target):
            problem = rules.BROKEN_REDIRECT.at(
                1,
                1,
                f"{_short(progress.current)} redirects ({status}) to {_short(location)!r}, "
                "which is not a valid URL; fix the Location header",
            )
        if problem is not None:
            raise _Problem(problem)
        if _same_url_in(target, progress.chain):
            raise _Problem(
                rules.REDIRECT_LOOP.at(
                    1,
                    1,
                    f"redirect loop: {_chain_text([*progress.chain, target])}; make the "
                    "sitemap URL answer 200 without redirecting back",
                )
            )
        if len(progress.chain) > self.settings.max_redirects:
            raise _Problem(
                rules.TOO_MANY_REDIRECTS.at(
                    1,
                    1,
                    f"more than {self.settings.max_redirects} redirects: "
                    f"{_chain_text([*progress.chain, target])}; redirect the first URL "
                    "straight to the sitemap",
                )
            )
        progress.permanent |= status in PERMANENT_REDIRECTS
        progress.chain.append(target)

    def _final(self, progress: _Progress, response: httpx.Response) -> Fetched:
        status = response.status_code
        if status >= 500 or status == 429:
            return progress.result(None, _temporary_error(progress.current, response))
        if not 200 <= status < 300:
            return progress.result(None, _error_status(progress.current, response))
        encodings = _encodings(response.headers.get("content-encoding", ""))
        unknown = [e for e in encodings if e not in DECODED_ENCODINGS]
        if unknown:
            return progress.result(None, _unsupported_encoding(unknown[0]))
        body = self._read(response, encodings)
        moved = None
        if progress.permanent:
            moved = rules.PERMANENT_REDIRECT.at(
                1,
                1,
                f"{_short(progress.url)} redirects permanently to {_short(progress.current)}; "
                "submit the final URL (in robots.txt, sitemap indexes and search consoles)",
            )
        return progress.result(body, _content_type_problem(progress.content_type, body), moved)

    def _read(self, response: httpx.Response, encodings: list[str]) -> bytes:
        """The decoded body, or its first max_bytes + 1 bytes when it is longer."""
        limit = self.settings.max_bytes
        raw_limit = limit + limit // 64 + STEP if encodings else None
        deadline = time.monotonic() + BODY_TIMEOUTS * self.settings.timeout
        chunks = _watched(response.iter_raw(), deadline, BODY_TIMEOUTS * self.settings.timeout)
        if raw_limit is not None:
            chunks = _raw_capped(chunks, raw_limit)
        for encoding in reversed(encodings):
            chunks = _inflated(chunks, encoding)
        body = io.BytesIO()
        for chunk in chunks:
            room = limit + 1 - body.tell()
            body.write(chunk[:room])
            if len(chunk) >= room:
                break
        return body.getvalue()


def _scheme_problem(url: str, redirected_from: str | None = None) -> Finding | None:
    match = _SCHEME.match(url)
    scheme = match.group(1).lower() if match else ""
    if scheme in FETCHED_SCHEMES:
        return None
    shown = f"{scheme}:" if scheme else "no scheme"
    if redirected_from is not None:
        message = (
            f"{_short(redirected_from)} redirects to {_short(url)} ({shown}), which is not "
            "fetched; redirect to an http:// or https:// URL"
        )
    else:
        message = (
            f"cannot fetch {_short(url)}: {shown} is not http or https; "
            "give the sitemap's http:// or https:// URL"
        )
    return rules.UNSUPPORTED_URL_SCHEME.at(1, 1, message)


def _is_valid_url(url: str) -> bool:
    """An absolute URL with a plausible host and port (httpx would quietly escape a bad host)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError for a bad port or IPv6 literal)
    except ValueError:
        return False
    host = parts.hostname or ""
    return bool(host) and not _BAD_HOST_CHARACTER.search(host)


def _watched(chunks: Iterable[bytes], deadline: float, seconds: float) -> Iterator[bytes]:
    for chunk in chunks:
        if time.monotonic() > deadline:
            raise _Problem(
                rules.FETCH_TIMEOUT.at(
                    1,
                    1,
                    f"the body was still arriving after {seconds:g} s; serve the sitemap "
                    "as a static file, or split it into smaller sitemaps",
                )
            )
        yield chunk


def _raw_capped(chunks: Iterable[bytes], limit: int) -> Iterator[bytes]:
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total > limit:
            raise _Problem(_corrupt_encoding(f"the compressed body passed {limit:,} bytes"))
        yield chunk


def _inflated(chunks: Iterable[bytes], encoding: str) -> Iterator[bytes]:
    """Undo one gzip or deflate Content-Encoding, STEP bytes of output at a time."""
    decompressor = None
    for data in chunks:
        while data:
            if decompressor is not None and decompressor.eof:
                if encoding == "deflate" or not data.startswith(inputs.GZIP_MAGIC):
                    return  # bytes after the end of the stream are ignored, as browsers do
                decompressor = None
            if decompressor is None:
                decompressor = zlib.decompressobj(_window_bits(encoding, data))
            yield from _drained(decompressor, data, encoding)
            data = decompressor.unused_data if decompressor.eof else b""
    if decompressor is not None and not decompressor.eof:
        raise _Problem(_corrupt_encoding(f"the {encoding} stream ends early"))


def _drained(decompressor: zlib._Decompress, data: bytes, encoding: str) -> Iterator[bytes]:
    while True:
        try:
            out = decompressor.decompress(data, STEP)
        except zlib.error as error:
            raise _Problem(_corrupt_encoding(f"{encoding}: {error}")) from None
        if out:
            yield out
        data = decompressor.unconsumed_tail
        if decompressor.eof or (not data and len(out) < STEP):
            return


def _window_bits(encoding: str, first: bytes) -> int:
    if encoding != "deflate":
        return 32 + zlib.MAX_WBITS  # gzip (or a zlib stream mislabelled as gzip)
    # HTTP's deflate is a zlib stream, but some servers send raw deflate data.
    is_zlib = len(first) >= 2 and first[0] & 0x0F == 8 and (first[0] << 8 | first[1]) % 31 == 0
    return zlib.MAX_WBITS if is_zlib else -zlib.MAX_WBITS


def _encodings(header: str) -> list[str]:
    names = (name.strip().lower() for name in header.split(","))
    return [name for name in names if name and name != "identity"]


def _media_type(header: str | None) -> str | None:
    if header is None:
        return None
    media = header.split(";", 1)[0].strip().lower()
    return media or None


def _content_type_problem(content_type: str | None, body: bytes) -> Finding | None:
    if not body:
        return None  # an empty body is the problem, whatever its type
    expected = _expected_type(body)
    if content_type is None:
        return rules.MISSING_CONTENT_TYPE.at(
            1,
            1,
            f"the response has no Content-Type header; serve the file as {expected}",
        )
    if content_type in ACCEPTED_TYPES or _is_xml_type(content_type):
        return None
    if content_type == "text/html" and _looks_like_html(body):
        return None  # the checker reports the HTML page itself
    return rules.WRONG_CONTENT_TYPE.at(
        1,
        1,
        f"served as {_short(content_type, 60)!r}; serve the file as {expected} "
        "(crawlers may refuse other types)",
    )


def _is_xml_type(media: str) -> bool:
    return media.startswith("application/") and media.endswith("+xml")


def _expected_type(body: bytes) -> str:
    if body.startswith(inputs.GZIP_MAGIC):
        return "application/gzip"
    start = body[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"<"):
        return "application/xml"
    return "text/plain"


def _looks_like_html(body: bytes) -> bool:
    start = body[:4096].removeprefix(b"\xef\xbb\xbf").decode("latin-1")
    return _HTML_START.match(start) is not None


def _status_text(response: httpx.Response) -> str:
    """The status code and its standard phrase (the server's own words are not repeated)."""
    try:
        reason = HTTPStatus(response.status_code).phrase
    except ValueError:
        reason = ""
    return f"{response.status_code} {reason}".strip()


def _error_status(url: str, response: httpx.Response) -> Finding:
    status = response.status_code
    if status in (404, 410):
        fix = "publish the sitemap at this URL, or submit the URL where it is"
    elif status in (401, 403, 407):
        fix = "let crawlers fetch the sitemap without a login or an IP block"
    else:
        fix = "make the sitemap URL answer 200 with the sitemap"
    return rules.HTTP_ERROR_STATUS.at(
        1, 1, f"{_short(url)} answers {_status_text(response)}; {fix}"
    )


def _temporary_error(url: str, response: httpx.Response) -> Finding:
    if response.status_code == 429:
        detail = "the server limits the request rate; this is temporary: retry later, and do not rate-limit crawlers"
    else:
        detail = "a server error, often temporary: retry later, and fix the server if it persists"
    return rules.HTTP_TEMPORARY_ERROR.at(
        1, 1, f"{_short(url)} answers {_status_text(response)}; {detail}"
    )


def _unsupported_encoding(encoding: str) -> Finding:
    return rules.UNSUPPORTED_CONTENT_ENCODING.at(
        1,
        1,
        f"the response is sent with Content-Encoding {_short(encoding, 40)!r}, which was not "
        "asked for (Accept-Encoding: gzip, deflate); send gzip, deflate or no encoding",
    )


def _corrupt_encoding(detail: str) -> Finding:
    return rules.CORRUPT_CONTENT_ENCODING.at(
        1,
        1,
        f"the body's Content-Encoding cannot be undone ({_short(detail, 100)}); send the "
        "sitemap compressed once and correctly, or uncompressed",
    )


def _timeout(error: Exception, url: str, seconds: float) -> Finding:
    import httpx

    host = _host(url)
    if isinstance(error, httpx.ConnectTimeout):
        message = (
            f"no connection to {host} within {seconds:g} s; check that the server is reachable"
        )
    elif isinstance(error, httpx.ReadTimeout):
        message = (
            f"{host} sent nothing for {seconds:g} s; make the sitemap answer faster "
            "(serve a file generated ahead of time)"
        )
    else:
        message = (
            f"fetching {_short(url)} timed out after {seconds:g} s; make the server answer faster"
        )
    return rules.FETCH_TIMEOUT.at(1, 1, message)


def _refused(refused: RefusedAddress, progress: _Progress) -> Finding:
    url = progress.current
    if len(progress.chain) > 1:
        start = f"{_short(progress.url)} redirects to {_short(url)}, which was not fetched"
    else:
        start = f"{_short(url)} was not fetched"
    host, address = _short(refused.host, 60), address_text(refused.address)
    if address == refused.host:
        where = f"its host is {address}, a {refused.kind} address"
    elif host_address(refused.host) is not None:
        where = f"its host {host} is the address {address}, a {refused.kind} address"
    else:
        where = f"its host {host} resolves to {address}, a {refused.kind} address"
    return rules.PRIVATE_ADDRESS_REFUSED.at(
        1,
        1,
        f"{start}: {where}, and no input names this host; list only sitemaps on public "
        "hosts (crawlers cannot reach this one), or give --allow-private-hosts to fetch it",
    )


def _failure(error: Exception, url: str) -> Finding:
    return rules.FETCH_FAILED.at(1, 1, f"cannot fetch {_short(url)}: {_reason(error, url)}")


def _reason(error: Exception, url: str) -> str:
    import socket
    import ssl

    for cause in _causes(error):
        if isinstance(cause, ssl.SSLCertVerificationError):
            detail = cause.verify_message or "verification failed"
            return (
                f"the TLS certificate is not trusted ({_short(detail, 80)}); install a valid "
                "certificate for this host, with its intermediate certificates"
            )
        if isinstance(cause, ssl.SSLError):
            return (
                f"the TLS handshake failed ({_short(str(cause), 80)}); check the server's TLS setup"
            )
        if isinstance(cause, socket.gaierror):
            return f"the host name {_host(url)} does not resolve; check the host name and its DNS records"
        if isinstance(cause, ConnectionRefusedError):
            return (
                f"the connection to {_host(url)} was refused; check that the server is up "
                "and that the URL's host and port are right"
            )
    name = type(error).__name__
    if name == "InvalidURL":
        return f"the URL is not valid ({_short(str(error), 80)}); fix the URL"
    if name in ("RemoteProtocolError", "ReadError", "LocalProtocolError"):
        detail = _QUOTED_BYTES.sub("", str(error))  # what the server sent is not repeated
        return f"the response is broken ({_short(detail, 100)}); check the server"
    return f"{name}: {_short(str(error), 100)}"


def _causes(error: BaseException) -> Iterator[BaseException]:
    seen = 0
    current: BaseException | None = error
    while current is not None and seen < 10:
        yield current
        current = current.__cause__ or current.__context__
        seen += 1


def _same_url_in(url: str, chain: list[str]) -> bool:
    key = _url_key(url)
    return any(_url_key(earlier) == key for earlier in chain)


def _url_key(url: str) -> str:
    """The URL as the client requests it (host lower-cased, default port dropped)."""
    import httpx

    try:
        return str(httpx.URL(url).copy_with(fragment=None))
    except (httpx.InvalidURL, ValueError):
        return url


def _chain_text(chain: list[str]) -> str:
    shown = [_short(url, 60) for url in chain]
    if len(shown) > 4:
        shown = [shown[0], "...", *shown[-3:]]
    return " -> ".join(shown)


def _host(url: str) -> str:
    try:
        return urlsplit(url).netloc or _short(url)
    except ValueError:
        return _short(url)


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
