"""Fetch a sitemap (or robots.txt) over HTTP with bounded time and memory.

Redirects are followed here, one hop at a time, so that loops, long chains and
redirects to other schemes are reported rather than raised. The body is read
raw and its Content-Encoding undone in small steps, so a compression bomb
costs no more than ``max_bytes`` of memory. What goes wrong becomes a
``rules.events.FetchProblem`` for the ``fetch`` checks (sitemap_lint.rules.fetch, FE
findings), never an exception. Connections go only where
``FetchSettings.hosts`` allows (sitemap_lint.inputs.guard): an internal address that
no input names is refused before anything is sent.
"""

from __future__ import annotations

import io
import os
import re
import threading
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from sitemap_lint._version import __version__
from sitemap_lint.inputs import reader as inputs
from sitemap_lint.inputs.guard import (
    HostPolicy,
    Pins,
    RefusedAddress,
    address_text,
    guarded_transport,
    host_address,
    url_origin,
)
from sitemap_lint.rules.events import FetchKind, FetchProblem

if TYPE_CHECKING:
    import ssl

    import httpcore
    import httpx

    from sitemap_lint.finding import Finding

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
# The most content codings undone, one inside another (as urllib3 stops): each is a
# decoder of its own, and a header may name thousands.
MAX_CODINGS = 5
STEP = 1 << 16
LOCATION = "sitemap_lint.location"  # a response extension
SEVERAL_LOCATIONS = "sitemap_lint.several_locations"  # a response extension
# Each response, its head and its body, may take this many timeouts to arrive (a server
# trickling bytes, each within the read timeout).
BODY_TIMEOUTS = 30
_SCHEME = re.compile(r"\s*([A-Za-z][A-Za-z0-9+.-]*):")
_QUOTED_BYTES = re.compile(r":?\s*(?:bytearray\()?\bb['\"].*", re.DOTALL)
_BAD_HOST_CHARACTER = re.compile(r"[\x00-\x20%<>\"{}|\\^`/?#@\x7f]")
_HTML_START = re.compile(
    r"\s*(?:<\?xml[^>]*\?>\s*)?(?:(?><!--.*?-->)\s*)*<(?:!doctype\s+html|html[\s>])",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class FetchSettings:
    timeout: float = 10.0  # connect and read timeout, seconds
    max_redirects: int = 5
    max_bytes: int = inputs.READ_CAP  # cap on the body after Content-Encoding is undone
    hosts: HostPolicy = field(default_factory=HostPolicy)  # by default: public hosts only
    # The run's pin table, shared with its live client (None: the fetcher's own).
    pins: Pins | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Fetched:
    """The outcome of one fetch; ``body`` is None when there is nothing to check."""

    url: str
    final_url: str
    status: int | None
    content_type: str | None
    body: bytes | None = field(repr=False)
    problems: tuple[FetchProblem, ...]

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The problems as the ``fetch`` checks report them, every rule enabled."""
        from sitemap_lint.engine.dispatch import fetch_findings

        return tuple(fetch_findings(self.problems))


DEFAULT_SETTINGS = FetchSettings()


class _Problem(Exception):
    """Ends a fetch with one problem."""

    def __init__(self, problem: FetchProblem) -> None:
        super().__init__(problem.kind)
        self.problem = problem


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

    def result(self, body: bytes | None, *problems: FetchProblem | None) -> Fetched:
        kept = tuple(p for p in problems if p is not None)
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
        self._deadline = _Deadline()
        # The guarded transport checks every connection (and uses no proxy: a proxy would
        # connect where the guard cannot see); allowing every host keeps httpx's own.
        hosts = settings.hosts
        context = tls_context()
        transport = (
            None if hosts.allow_private else guarded_transport(hosts, context, settings.pins)
        )
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
            event_hooks={"response": [self._set_aside_location]},
            transport=transport,
        )
        # Every connection's reads and writes end at the response's deadline, the head's
        # included: a read timeout alone restarts with each byte a trickling server sends.
        for mounted in (self._client._transport, *self._client._mounts.values()):
            pool = getattr(mounted, "_pool", None)
            if pool is not None:
                pool._network_backend = _DeadlineBackend(pool._network_backend, self._deadline)

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    def _set_aside_location(self, response: httpx.Response) -> None:
        """Take the Location out of the headers and keep it aside: httpx builds the next
        request from it even when not following, and raises on one it cannot (an invalid
        URL, or one with a scheme and no host, as ``data:`` and ``jar:`` URLs are), so that
        the redirect would be reported as a failure of its own URL. Several different
        Location headers are set aside too: which one is meant is unknown (browsers
        refuse such a redirect), and httpx would join them into one URL."""
        locations = list(dict.fromkeys(v.strip() for v in response.headers.get_list("location")))
        if not locations:
            return
        del response.headers["location"]
        if len(locations) > 1:
            response.extensions[SEVERAL_LOCATIONS] = tuple(locations)
            return
        response.extensions[LOCATION] = locations[0]

    def get(self, url: str) -> Fetched:
        progress = _Progress(url, [url])
        problem = _scheme_problem(url)
        if problem is None and not _is_valid_url(url):
            problem = FetchProblem(FetchKind.INVALID_URL, url)
        if problem is None:
            problem = self._port_problem(url)
        if problem is not None:
            return progress.result(None, problem)
        httpx = self._httpx
        try:
            return self._follow(progress)
        except _Problem as stop:
            return progress.result(None, stop.problem)
        except RefusedAddress as refused:
            return progress.result(None, _refused(refused, progress))
        except httpx.TimeoutException as error:
            if self._deadline.passed():
                return progress.result(None, self._too_slow(progress))
            return progress.result(None, _timeout(error, progress.current, self.settings.timeout))
        except (httpx.HTTPError, httpx.InvalidURL, ValueError, OSError) as error:
            return progress.result(None, _failure(error, progress.current))
        finally:
            self._deadline.at = None

    def _too_slow(self, progress: _Progress) -> FetchProblem:
        """TIMEOUT for a response still arriving at its deadline: its head, or its body."""
        seconds = BODY_TIMEOUTS * self.settings.timeout
        which = "head" if self._deadline.in_head else "body"
        return FetchProblem(FetchKind.TIMEOUT, progress.current, detail=which, seconds=seconds)

    def _follow(self, progress: _Progress) -> Fetched:
        while True:
            self._deadline.start(BODY_TIMEOUTS * self.settings.timeout)
            with self._client.stream("GET", progress.current) as response:
                self._deadline.in_head = False
                progress.status = response.status_code
                progress.content_type = _media_type(response.headers.get("content-type"))
                if response.status_code in REDIRECTS:
                    self._redirect(progress, response)
                    continue
                return self._final(progress, response)

    def _redirect(self, progress: _Progress, response: httpx.Response) -> None:
        status = response.status_code
        several = response.extensions.get(SEVERAL_LOCATIONS)
        if several is not None:
            raise _Problem(
                FetchProblem(
                    FetchKind.BAD_LOCATION,
                    progress.current,
                    target=" and ".join(several),
                    status=status,
                    detail="several",
                )
            )
        location = response.extensions.get(LOCATION, "").strip()
        if not location:
            raise _Problem(FetchProblem(FetchKind.NO_LOCATION, progress.current, status=status))
        try:
            target = urljoin(progress.current, location)
        except ValueError:  # e.g. an unclosed IPv6 bracket
            target = location
        problem = _scheme_problem(target, redirected_from=progress.current)
        if problem is None and not _is_valid_url(target):
            problem = FetchProblem(
                FetchKind.BAD_LOCATION, progress.current, target=location, status=status
            )
        if problem is None:
            problem = self._port_problem(target, redirected_from=progress.current)
        if problem is not None:
            raise _Problem(problem)
        chain = (*progress.chain, target)
        if _same_url_in(target, progress.chain):
            raise _Problem(FetchProblem(FetchKind.LOOP, progress.current, chain=chain))
        if len(progress.chain) > self.settings.max_redirects:
            limit = self.settings.max_redirects
            raise _Problem(
                FetchProblem(
                    FetchKind.TOO_MANY_REDIRECTS, progress.current, chain=chain, limit=limit
                )
            )
        progress.permanent |= status in PERMANENT_REDIRECTS
        progress.chain.append(target)

    def _port_problem(self, url: str, redirected_from: str = "") -> FetchProblem | None:
        """BAD_PORT when ``url``'s port is one of the bad ports no input names."""
        reason = self.settings.hosts.port_refusal(url_origin(url))
        if reason is None:
            return None
        return FetchProblem(FetchKind.BAD_PORT, url, origin=redirected_from, detail=reason)

    def _final(self, progress: _Progress, response: httpx.Response) -> Fetched:
        status = response.status_code
        if status >= 500 or status == 429:
            error = FetchProblem(FetchKind.TEMPORARY_ERROR, progress.current, status=status)
            return progress.result(None, error)
        if not 200 <= status < 300:
            error = FetchProblem(FetchKind.ERROR_STATUS, progress.current, status=status)
            return progress.result(None, error)
        encodings = _encodings(response.headers.get("content-encoding", ""))
        unknown = [e for e in encodings if e not in DECODED_ENCODINGS]
        if unknown:
            encoding = FetchProblem(FetchKind.UNKNOWN_ENCODING, progress.current, detail=unknown[0])
            return progress.result(None, encoding)
        if len(encodings) > MAX_CODINGS:
            count = f"{len(encodings):,} content codings"
            detail = f"{count}, more than the {MAX_CODINGS} a fetch undoes"
            return progress.result(None, _corrupt_encoding(detail))
        body = self._read(response, encodings)
        moved = None
        if progress.permanent:
            moved = FetchProblem(FetchKind.PERMANENT, progress.current, origin=progress.url)
        served = _content_type_problem(progress.current, progress.content_type, body)
        return progress.result(body, served, moved)

    def _read(self, response: httpx.Response, encodings: list[str]) -> bytes:
        """The decoded body, or its first max_bytes + 1 bytes when it is longer."""
        limit = self.settings.max_bytes
        raw_limit = limit + limit // 64 + STEP if encodings else None
        deadline = self._deadline.at or time.monotonic() + BODY_TIMEOUTS * self.settings.timeout
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


class _Deadline(threading.local):
    """When the response a thread is fetching must have arrived (None: no fetch under
    way), and whether its head is still awaited."""

    at: float | None = None
    in_head: bool = True

    def start(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self.in_head = True

    def passed(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def left(self, timeout: float | None) -> float | None:
        """``timeout`` cut to what is left before the deadline; ReadTimeout once past it."""
        if self.at is None:
            return timeout
        left = self.at - time.monotonic()
        if left <= 0:
            import httpcore

            raise httpcore.ReadTimeout("the response did not arrive in time")
        return left if timeout is None else min(timeout, left)


class _DeadlineBackend:
    """An httpcore network backend whose streams read, write and start TLS only until
    the fetching thread's ``_Deadline``."""

    def __init__(self, inner: httpcore.NetworkBackend, deadline: _Deadline) -> None:
        self._inner = inner
        self._deadline = deadline

    def connect_tcp(
        self, host: str, port: int, timeout: float | None = None, **options: Any
    ) -> _DeadlineStream:
        stream = self._inner.connect_tcp(host, port, self._deadline.left(timeout), **options)
        return _DeadlineStream(stream, self._deadline)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, **options: Any
    ) -> _DeadlineStream:
        stream = self._inner.connect_unix_socket(path, self._deadline.left(timeout), **options)
        return _DeadlineStream(stream, self._deadline)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _DeadlineStream:
    def __init__(self, inner: httpcore.NetworkStream, deadline: _Deadline) -> None:
        self._inner = inner
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._deadline.left(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._deadline.left(timeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> _DeadlineStream:
        stream = self._inner.start_tls(ssl_context, server_hostname, self._deadline.left(timeout))
        return _DeadlineStream(stream, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


def _scheme_problem(url: str, redirected_from: str | None = None) -> FetchProblem | None:
    match = _SCHEME.match(url)
    scheme = match.group(1).lower() if match else ""
    if scheme in FETCHED_SCHEMES:
        return None
    return FetchProblem(FetchKind.SCHEME, url, origin=redirected_from or "", detail=scheme)


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
            raise _Problem(FetchProblem(FetchKind.TIMEOUT, "", detail="body", seconds=seconds))
        yield chunk


def _raw_capped(chunks: Iterable[bytes], limit: int) -> Iterator[bytes]:
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total > limit:
            raise _Problem(_corrupt_encoding(f"the compressed body passed {limit:,} bytes"))
        yield chunk


def _inflated(chunks: Iterable[bytes], encoding: str) -> Iterator[bytes]:
    """Undo one gzip or deflate Content-Encoding, STEP bytes of output at a time (not
    ``reader.gunzip``, a file's walk: here bytes after the stream are ignored, as
    browsers do, and a zlib stream labelled gzip is read)."""
    decompressor = None
    held = b""  # what follows a gzip member, too short to tell whether another starts
    for chunk in chunks:
        data = held + chunk if held else chunk
        held = b""
        while data:
            if decompressor is not None and decompressor.eof:
                magic = inputs.GZIP_MAGIC
                if encoding != "deflate" and len(data) < len(magic) and magic.startswith(data):
                    held = data
                    break
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


def _content_type_problem(url: str, content_type: str | None, body: bytes) -> FetchProblem | None:
    if not body:
        return None  # an empty body is the problem, whatever its type
    expected = _expected_type(body)
    if content_type is None:
        return FetchProblem(FetchKind.NO_CONTENT_TYPE, url, target=expected)
    if content_type in ACCEPTED_TYPES or _is_xml_type(content_type):
        return None
    if content_type == "text/html" and _looks_like_html(body):
        return None  # the checker reports the HTML page itself
    return FetchProblem(FetchKind.WRONG_CONTENT_TYPE, url, target=expected, detail=content_type)


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


def _corrupt_encoding(detail: str) -> FetchProblem:
    return FetchProblem(FetchKind.CORRUPT_ENCODING, "", detail=detail)


def _timeout(error: Exception, url: str, seconds: float) -> FetchProblem:
    import httpx

    if isinstance(error, httpx.ConnectTimeout):
        which = "connect"
    elif isinstance(error, httpx.ReadTimeout):
        which = "read"
    else:
        which = "other"
    return FetchProblem(FetchKind.TIMEOUT, url, detail=which, seconds=seconds, host=_host(url))


def _refused(refused: RefusedAddress, progress: _Progress) -> FetchProblem:
    return FetchProblem(
        FetchKind.REFUSED,
        progress.current,
        origin=progress.url if len(progress.chain) > 1 else "",
        host=refused.host,
        address=address_text(refused.address),
        address_kind=refused.kind,
        literal=host_address(refused.host) is not None,
    )


def _failure(error: Exception, url: str) -> FetchProblem:
    """What failed, as the fetch checks word it: the first cause that says it."""
    import socket
    import ssl

    host = _host(url)
    for cause in _causes(error):
        if isinstance(cause, ssl.SSLCertVerificationError):
            detail = cause.verify_message or "verification failed"
            return FetchProblem(FetchKind.FAILED, url, detail="untrusted", text=detail)
        if isinstance(cause, ssl.SSLError):
            return FetchProblem(FetchKind.FAILED, url, detail="tls", text=str(cause))
        if isinstance(cause, socket.gaierror):
            return FetchProblem(FetchKind.FAILED, url, detail="dns", host=_host_name(url))
        if isinstance(cause, ConnectionRefusedError):
            return FetchProblem(FetchKind.FAILED, url, detail="refused", host=host)
    name = type(error).__name__
    if name == "InvalidURL":
        return FetchProblem(FetchKind.FAILED, url, detail="invalid-url", text=str(error))
    if name in ("RemoteProtocolError", "ReadError", "LocalProtocolError"):
        words = _QUOTED_BYTES.sub("", str(error))  # what the server sent is not repeated
        return FetchProblem(FetchKind.FAILED, url, detail="broken", text=words)
    return FetchProblem(FetchKind.FAILED, url, detail="other", target=name, text=str(error))


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


def _host(url: str) -> str:
    """The host and port ``url`` connects to (without a user name or password)."""
    try:
        return urlsplit(url).netloc.rpartition("@")[2] or _short(url)
    except ValueError:
        return _short(url)


def _host_name(url: str) -> str:
    try:
        return urlsplit(url).hostname or _host(url)
    except ValueError:
        return _host(url)


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
