"""The live audit's requests: aiohttp, every hop's address checked, everything bounded.

- Each connection goes through ``GuardedResolver``: the host is resolved once, every
  address checked by ``inputs.guard`` and only the addresses that passed are returned to
  aiohttp, which connects to them (the Host header and the TLS name stay the URL's);
  ``GuardedConnector`` asks it for an address written in a URL too, so ``connect_to``
  and the guard apply alike. A refusal is ``Answer.error`` REFUSED, naming the kind of
  address.
- No request goes to one of the Fetch standard's bad ports (``inputs.guard.BAD_PORTS``)
  unless the user named that host and port: a listed URL on one is ``Answer.error``
  BAD_PORT, and a redirect to one ends the chain there.
- Redirects are followed here, hop by hop (at most ``MAX_REDIRECTS``), each hop a new
  request through the same resolver; a URL seen before in the chain is a loop, and a
  target its host's robots.txt disallows ends the chain unrequested.
- Limits: ``concurrency`` requests in flight in all, ``per_host`` to one host (its
  slot, and its Crawl-delay, waited for before a slot of all);
  robots.txt ``Crawl-delay`` spaces a host's requests, and only as many of a host's
  URLs are requested as its delays fit in ``crawl_budget`` seconds (the first ones
  asked for: ``pacing.CrawlBudget``; the others are answers ``over_budget``, not
  requested); 429 and 503 wait their
  ``Retry-After`` (at most ``retry_after_cap`` seconds: past it the status is the
  answer), and every other request to the host waits as long (``held_cap`` seconds
  in all a run: past them a host's 429s and 503s are answers); connection errors and
  timeouts are retried with a doubling backoff.
- Bounds: a timeout for the connection, each read and the whole of one hop; headers of
  at most ``MAX_HEADER_FIELD`` bytes; bodies decoded here (gzip, deflate) and at most
  ``head_bytes`` of them, so a compression bomb stops at the bound (and is TOO_LARGE: a
  head past the bound decoded from fewer than ``1 / BOMB_RATIO`` as many bytes; a head
  that is only long is read to the bound).
- Pages and alternates are asked with GET (the body read up to the end of its head, as
  ``page.head_end`` finds it);
  the rest with HEAD, and GET when HEAD is answered an error (not 429 or 503).
- With a cache, a stored 200 answer still fresh (its response's ``Cache-Control:
  max-age`` or ``Expires``, less its age: RFC 9111, section 4.2; no heuristic
  freshness) is given back without a request (``fresh``); a stale one with an ETag or
  a Last-Modified is asked again conditionally, and a 304 gives the stored answer back
  with ``from_cache`` True (fresh again for as long as the 304 says). The stored
  answers are read a batch at a time, ahead of the requests, by ``cache_key``; one is
  used only when the guard lets the run connect to its host, and for a page only when
  it holds a page's facts (``Answer.signals``: a GET's, not a HEAD's). A response
  that says ``Cache-Control: no-store`` is not stored (``Answer.no_store``).
"""

from __future__ import annotations

import asyncio
import codecs
import re
import socket
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.helpers import is_ip_address
from yarl import URL

from sitemap_lint._version import __version__
from sitemap_lint.inputs.guard import (
    Guard,
    HostPolicy,
    Pins,
    RefusedAddress,
    address_text,
    canonical_host,
    host_address,
    http_scheme,
    kind_words,
)
from sitemap_lint.inputs.reader import GZIP_MAGIC
from sitemap_lint.live.model import (
    BAD_PORT,
    CONNECT,
    DNS,
    GET_KINDS,
    INVALID_URL,
    PROTOCOL,
    REFUSED,
    SCHEME,
    STALLED,
    TIMEOUT,
    TLS,
    TOO_LARGE,
    Answer,
    Hop,
)
from sitemap_lint.live.pacing import CrawlBudget, HostPacing
from sitemap_lint.live.page import head_end, head_metas, parse_http_date, read_signals
from sitemap_lint.live.robots import AGENT, HostRules, Robots, agent_of, origin
from sitemap_lint.live.robots import MAX_BYTES as ROBOTS_MAX_BYTES

if TYPE_CHECKING:
    from aiohttp.tracing import Trace

    from sitemap_lint.live.cache import Cache

MAX_REDIRECTS = 5  # followed; the next redirect cuts the chain (Answer.too_many_hops)
MAX_HEADER_FIELD = 65_536  # bytes of one header line
REDIRECTS = frozenset({301, 302, 303, 307, 308})
UNREAD = REDIRECTS | {304}  # bodies not read (a 304 has none)
RETRY_STATUSES = frozenset({429, 503})
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
DRAIN_AT_MOST = 65_536  # bytes of a body's rest read to keep its connection
DRAIN_PATIENCE = 1.0  # seconds that rest is waited for
# Seconds the rest of a page is waited for once its head's end tag has come (what may
# still follow it, before the body, is the head's): a page that flushes its head and
# then stalls is judged by its head.
AFTER_HEAD_PATIENCE = 0.5
# Decoded bytes per byte sent past which a head cut at the bound is a compression bomb
# (HTML compresses 3 to 10 times; a bomb of zeros about 1,000 times).
BOMB_RATIO = 100
CACHE_BATCH = 500  # answers stored in one transaction
# URLs taken at once for each request slot: those waiting for their host's slot or its
# Crawl-delay hold no request slot, so the other hosts' URLs go on meanwhile.
WORKERS_PER_SLOT = 4
USER_AGENT = f"sitemap-lint/{__version__} (+https://pypi.org/project/sitemap-lint/)"


class AnswerStore(Protocol):
    """What the client needs of a cache (``live.cache.Cache`` is one)."""

    def get(self, url: str) -> Answer | None: ...

    def get_many(self, urls: Iterable[str]) -> dict[str, Answer]: ...

    def put_many(self, answers: Iterable[Answer]) -> None: ...


@dataclass
class ClientSettings:
    concurrency: int = 16  # requests in flight, all hosts together (--live-concurrency)
    per_host: int = 4  # requests in flight per host (--live-per-host)
    timeout: float = 15.0  # seconds per request: connect, each read, and the whole answer
    retries: int = 2  # retries after a connection error, a timeout, a 429 or a 503
    head_bytes: int = 1_048_576  # at most this much of a page's body is read (decoded)
    user_agent: str = USER_AGENT
    allow_private: bool = False
    named_hosts: tuple[str, ...] = ()  # URLs whose host:port the user named
    connect_to: tuple[tuple[str, str], ...] = ()  # ("host:port", "host2:port2"), as curl's
    backoff: float = 0.5  # seconds before the first retry; doubled at each next one
    retry_after_cap: float = 60.0  # a longer Retry-After gives up with the status
    # seconds a host is held in all by its 429s and 503s; past them, they are answers
    held_cap: float = 300.0
    extra: dict[str, str] = field(default_factory=dict)  # more request headers
    # The run's pin table (inputs.guard.Pins), shared with its fetcher; None: the client's
    # own. A cluster's task carries a copy.
    pins: Pins | None = None
    # seconds of one host's Crawl-delays waited at most; its URLs past them are not
    # requested (--live-crawl-budget; inf: no bound)
    crawl_budget: float = 300.0


class HopError(Exception):
    """A hop that got no response: ``error`` is one of model's constants."""

    def __init__(self, error: str, detail: str, retryable: bool = False, sent: bool = True) -> None:
        super().__init__(detail)
        self.error = error
        self.detail = detail
        self.retryable = retryable
        self.sent = sent  # whether the request went out (not when no connection was made)
        self.attempts = 1  # the requests tried before giving up
        self.requests = 0  # the requests of those attempts that went out


@dataclass
class Response:
    """One hop's response: its status, headers (pairs, repeated ones kept) and the
    decoded start of its body (empty unless it was read)."""

    url: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes = b""
    bomb: bool = False  # a page's head decoded past the bound from far fewer bytes

    def header(self, name: str) -> str | None:
        return self._first.get(name.lower())

    @cached_property
    def _first(self) -> dict[str, str]:
        """The first value of each header, by its name in lower case."""
        first: dict[str, str] = {}
        for key, value in self.headers:
            first.setdefault(key.lower(), value)
        return first

    @cached_property
    def content_type(self) -> str | None:
        value = self.header("Content-Type")
        media = value.split(";", 1)[0].strip().lower() if value else ""
        return media or None

    def text(self) -> str:
        """The body as text: in the Content-Type's charset, else UTF-8."""
        return _decode(self.body, self._header_charset() or "utf-8")

    def page_text(self) -> str:
        """An HTML body as text, in the encoding a browser would read it in: its byte
        order mark's, the Content-Type's charset, a ``<meta>`` charset near its start
        (as HTML's prescan finds it), one further on in the head (which a browser's
        parser meets, and reads the page again in), else UTF-8."""
        body = self.body
        for mark, encoding in _BOMS:
            if body.startswith(mark):
                return _decode(body[len(mark) :], encoding)
        charset = self._header_charset() or _meta_charset(body) or _head_charset(body)
        return _decode(body, charset or "utf-8")

    def _header_charset(self) -> str | None:
        value = self.header("Content-Type") or ""
        for parameter in value.split(";")[1:]:
            name, _, given = parameter.partition("=")
            if name.strip().lower() == "charset" and given.strip():
                return given.strip().strip("\"'")
        return None


# Byte order marks, which decide a page's encoding before anything it declares.
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xfe\xff", "utf-16-be"), (b"\xff\xfe", "utf-16-le"))
# HTML's prescan reads a page's first 1024 bytes for a <meta charset> or a
# <meta http-equiv="Content-Type" content="...; charset=...">, comments skipped.
_PRESCAN_BYTES = 1024
_PRESCAN_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_META_TAG = re.compile(r"<meta[\s/]([^>]*)", re.IGNORECASE)
_META_ATTRIBUTE = re.compile(r"([^\s\"'>/=]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?")
_CONTENT_CHARSET = re.compile(r"charset\s*=\s*[\"']?\s*([^\s\"';]+)", re.IGNORECASE)


def _meta_charset(body: bytes) -> str | None:
    """The charset a ``<meta>`` in the page's first 1024 bytes declares (its
    ``charset``, or the ``content`` of its ``http-equiv="Content-Type"``), the first one
    known; a UTF-16 one is read as UTF-8, as HTML says (a UTF-16 page starts with its
    byte order mark)."""
    start = _PRESCAN_COMMENT.sub("", body[:_PRESCAN_BYTES].decode("latin-1"))
    for tag in _META_TAG.finditer(start):
        attributes: dict[str, str] = {}
        for name, double, single, bare in _META_ATTRIBUTE.findall(tag.group(1)):
            attributes.setdefault(name.lower(), double or single or bare)
        charset = _declared_charset(attributes)
        if charset and _known(charset):  # an unknown one: the prescan reads on
            return charset
    return None


def _head_charset(body: bytes) -> str | None:
    """The charset a ``<meta>`` of the page's head declares past what the prescan
    reads: HTML's parser, meeting it while the encoding is a guess, reads the page again
    in it. The bytes are read one character each: the markup is ASCII in the encodings
    such a meta can name (a UTF-16 page starts with its byte order mark)."""
    if len(body) <= _PRESCAN_BYTES:
        return None  # the prescan read it all
    for attributes in head_metas(body.decode("latin-1")):
        charset = _declared_charset(attributes)
        if charset and _known(charset):
            return charset
    return None


def _declared_charset(attributes: dict[str, str]) -> str:
    """The charset a ``<meta>``'s attributes declare ("" for none): its ``charset``, or
    the ``content`` of its ``http-equiv="Content-Type"``; a UTF-16 one read as UTF-8, as
    HTML says."""
    charset = attributes.get("charset", "").strip()
    if not charset and attributes.get("http-equiv", "").strip().lower() == "content-type":
        found = _CONTENT_CHARSET.search(attributes.get("content", ""))
        charset = found.group(1) if found is not None else ""
    return "utf-8" if charset.lower().startswith("utf-16") else charset


def _known(charset: str) -> bool:
    try:
        codecs.lookup(charset)
    except LookupError:
        return False
    return True


def _decode(body: bytes, charset: str) -> str:
    try:
        return body.decode(charset, errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def cache_key(url: str, connect_to: Mapping[tuple[str, int], tuple[str, int]]) -> str:
    """The key of ``url``'s answer in a cache: the URL itself, or, when ``connect_to``
    sends its host and port elsewhere, the URL behind that place (so that a staging
    server's answers never stand for production's, nor the reverse). A key that is not
    the URL does not start with http: it cannot be another URL's."""
    if connect_to:
        target = _target(url, connect_to)
        if target is not None and target != _host_and_port(url):
            return f"via {target[0]}:{target[1]} {url}"
    return url


# A URL whose authority writes a port (an IPv6 literal's colons are inside brackets).
_EXPLICIT_PORT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#\[]*(?:\[[^\]]*\])?[^/?#\[]*:")
# The rest of a URL's authority after ``_EXPLICIT_PORT``'s match: its port.
_AUTHORITY = re.compile(r"[^/?#]*")


def _host_and_port(url: str) -> tuple[str, int] | None:
    """The (canonical host, port) ``url``'s requests are addressed to, or None."""
    try:
        parsed = URL(url, encoded=True)
        host, port = parsed.raw_host, parsed.port
    except ValueError:
        return None
    return None if not host or port is None else (canonical_host(host), port)


def _target(
    url: str, connect_to: Mapping[tuple[str, int], tuple[str, int]]
) -> tuple[str, int] | None:
    """Where ``url``'s requests go: its host and port, or where ``connect_to`` sends them."""
    place = _host_and_port(url)
    return None if place is None else connect_to.get(place, place)


def parse_connect_to(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, int], tuple[str, int]]:
    """``("host:port", "host2:port2")`` pairs as a mapping of (canonical host, port)."""
    return {_host_port(source): _host_port(target) for source, target in pairs}


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"not host:port: {text!r}")
    return canonical_host(host), int(port)


class GuardedResolver(AbstractResolver):
    """Resolves a host once and returns only the addresses ``guard`` allows (a host
    ``connect_to`` maps is resolved as its target, and connected to at its port)."""

    def __init__(self, guard: Guard, connect_to: dict[tuple[str, int], tuple[str, int]]) -> None:
        self.guard = guard
        self.connect_to = connect_to
        # The guard's verdict on each address written in a URL (and port), kept for the
        # run: the addresses allowed, or the refusal.
        self._literals: dict[tuple[str, int], list[str] | RefusedAddress] = {}
        self._written: dict[str, bool] = {}  # host -> whether it is an address
        # Whether the run may connect to a (host, port), asked once a run before a stored
        # answer of that host is used; the verdicts known, by a URL's origin.
        self._verdicts: dict[tuple[str, int], asyncio.Future[bool]] = {}
        self._origins: dict[str, bool] = {}

    def is_address(self, host: str) -> bool:
        """Whether ``host`` is an address written as such (not a name to look up)."""
        written = self._written.get(host)
        if written is None:
            written = self._written[host] = host_address(host) is not None
        return written

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        target, target_port = self.connect_to.get((canonical_host(host), port), (host, port))
        addresses = await self.connectable(target, target_port)
        return [
            {
                "hostname": host,
                "host": address,
                "port": target_port,
                "family": socket.AF_INET6 if ":" in address else socket.AF_INET,
                "proto": 0,
                "flags": socket.AI_NUMERICHOST,
            }
            for address in addresses
        ]

    async def close(self) -> None:
        return None

    async def connectable(self, host: str, port: int) -> list[str]:
        """The addresses of ``host`` that may be connected to (RefusedAddress when none)."""
        verdict = self._literals.get((host, port))
        if verdict is None:
            if not self.is_address(host):  # a name: aiohttp keeps its lookups a while
                return await self._in_thread(host, port)
            try:
                verdict = self.guard.connectable(host, port)  # an address: no lookup
            except RefusedAddress as error:
                verdict = error
            self._literals[host, port] = verdict
        if isinstance(verdict, RefusedAddress):
            raise RefusedAddress(verdict.host, verdict.port, verdict.address, verdict.kind)
        return verdict

    def known_to_connect(self, key: str | None) -> bool:
        """Whether the run is known to be let connect where the URLs of origin ``key``
        (``robots.origin``) go."""
        return self._origins.get(key or "", False)

    async def may_connect(self, url: str, key: str | None) -> bool:
        """Whether the guard lets this run connect where ``url``'s requests go (asked
        once a host and port; ``key``: the URL's ``origin``): a stored answer stands for
        a new one only then."""
        if key is None:
            return False
        known = self._origins.get(key)
        if known is None:
            known = self._origins[key] = await self._may_connect_to(url)
        return known

    async def _may_connect_to(self, url: str) -> bool:
        target = _target(url, self.connect_to)
        if target is None:
            return False
        verdict = self._verdicts.get(target)
        if verdict is None:
            verdict = self._verdicts[target] = asyncio.ensure_future(self._verdict(*target))
        return await asyncio.shield(verdict)

    async def _verdict(self, host: str, port: int) -> bool:
        try:
            return bool(await self.connectable(host, port))
        except (RefusedAddress, OSError):
            return False

    async def _in_thread(self, host: str, port: int) -> list[str]:
        # a name to look up: not on the event loop
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self.guard.connectable, host, port)


class GuardedConnector(aiohttp.TCPConnector):
    """aiohttp's connector, asking ``resolver`` for an address written in a URL too (it
    connects to one without asking its resolver), so that ``connect_to`` and the guard
    apply to every host, address or name. A host aiohttp would take for an address
    that is none (``[a:b]``, ``[::ffff:127.1]``: the system's resolver would look it up
    as a name) is an invalid URL."""

    def __init__(self, resolver: GuardedResolver, **options: Any) -> None:
        super().__init__(resolver=resolver, **options)
        self._guarded = resolver

    async def _resolve_host(
        self, host: str, port: int, traces: Sequence[Trace] | None = None
    ) -> list[ResolveResult]:
        if self._guarded.is_address(host):
            return await self._guarded.resolve(host, port)
        if is_ip_address(host):  # aiohttp would connect to it as written, asking no resolver
            raise aiohttp.InvalidUrlClientError(host, "is not an IP address")
        return await super()._resolve_host(host, port, traces)


def policy_for(settings: ClientSettings) -> HostPolicy:
    """The hosts the user named, less those ``connect_to`` sends elsewhere, plus the
    places it sends them to."""
    mapping = parse_connect_to(settings.connect_to)
    named = HostPolicy.naming(settings.named_hosts, settings.allow_private).named
    return HostPolicy(settings.allow_private, (named - mapping.keys()) | set(mapping.values()))


class StoredAnswers:
    """A client's cache (by ``cache_key``): the stored answers of the URLs about to be
    requested read a batch at a time (one query), ahead of the requests; the new answers
    stored a batch at a time (one transaction) as they come."""

    def __init__(
        self, cache: Cache | AnswerStore, mapping: Mapping[tuple[str, int], tuple[str, int]]
    ) -> None:
        self.cache = cache
        self._mapping = mapping
        # Read ahead (None: none stored); each taken out when its URL is requested.
        self._read: dict[str, Answer | None] = {}
        self._pending: list[Answer] = []

    def read_ahead(self, targets: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str]]:
        """``targets``, the stored answers of each batch read before its first URL is
        handed out."""
        batch: list[tuple[str, str]] = []
        for target in targets:
            batch.append(target)
            if len(batch) == CACHE_BATCH:
                yield from self._with_stored(batch)
                batch = []
        yield from self._with_stored(batch)

    def _with_stored(self, batch: list[tuple[str, str]]) -> list[tuple[str, str]]:
        keys = [cache_key(url, self._mapping) for url, _kind in batch]
        found = self.cache.get_many(keys)
        read = self._read
        for (url, _kind), key in zip(batch, keys, strict=True):
            read[url] = found.get(key)
        return batch

    def answer(self, url: str) -> Answer | None:
        """The stored answer of ``url``, if any."""
        if url in self._read:
            return self._read.pop(url)
        return self.cache.get(cache_key(url, self._mapping))

    def keep(self, answer: Answer) -> None:
        """Store ``answer`` (with the next batch), when it may be given again."""
        if not _storable(answer):
            return
        key = cache_key(answer.url, self._mapping)
        if key != answer.url:  # a copy under its key
            answer = _copy(answer)
            answer.url = key
        self._pending.append(answer)
        if len(self._pending) >= CACHE_BATCH:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            self.cache.put_many(list(self._pending))
        self._pending.clear()


class Client:
    """Requests URLs as the module docstring says (an async context manager).

    One class, longer than most: each request of an answer (its robots.txt and crawl
    budget, the guard's verdict, the stored answer, the host's turn, the retries and
    each redirect's hop) reads and updates the same run-wide state (the session, the
    resolver, the pacing, the budget, the cache); split, that state would be passed
    between the parts at every hop."""

    def __init__(
        self,
        settings: ClientSettings,
        cache: Cache | AnswerStore | None = None,
        robots: bool = True,
    ) -> None:
        self.settings = settings
        self.cache = cache
        self.robots = Robots(self._fetch_text) if robots else None
        self._session: aiohttp.ClientSession | None = None
        self._resolver: GuardedResolver | None = None
        self._all = asyncio.Semaphore(max(1, settings.concurrency))
        self._pacing = HostPacing(settings.per_host, settings.held_cap)
        self._budget = CrawlBudget(settings.crawl_budget)
        self._mapping = parse_connect_to(settings.connect_to)
        # The places the user named: a request may go to one whatever its port.
        self._refusals: dict[str, str | None] = {}  # by scheme, host and port
        self._ports = HostPolicy(
            named=HostPolicy.naming(settings.named_hosts).named | self._mapping.keys()
        )
        self._stored = StoredAnswers(cache, self._mapping) if cache is not None else None

    async def __aenter__(self) -> Client:
        settings = self.settings
        resolver = self._resolver = GuardedResolver(
            Guard(policy_for(settings), settings.pins), parse_connect_to(settings.connect_to)
        )
        connector = GuardedConnector(
            resolver,
            limit=max(1, settings.concurrency),
            limit_per_host=max(1, settings.per_host),
            ttl_dns_cache=60,
        )
        timeout = aiohttp.ClientTimeout(
            total=settings.timeout, sock_connect=settings.timeout, sock_read=settings.timeout
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            timeout=timeout,
            auto_decompress=False,
            max_line_size=MAX_HEADER_FIELD,
            max_field_size=MAX_HEADER_FIELD,
            headers={
                "User-Agent": settings.user_agent,
                "Accept-Encoding": "gzip, deflate",
                **settings.extra,
            },
            cookie_jar=aiohttp.DummyCookieJar(),
            trust_env=False,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    # ------------------------------------------------------------------ the whole list

    async def fetch_all(
        self,
        targets: Iterable[tuple[str, str]],
        on_answer: Callable[[Answer], None] | None = None,
        keep: bool = True,
    ) -> dict[str, Answer]:
        """Every (url, kind) of ``targets`` requested, ``concurrency`` at a time, each
        answer handed to ``on_answer`` as it comes; returned by URL unless ``keep`` is
        False (then the dict is empty and memory stays flat). With a cache, the answers
        are stored as they come, in batches."""
        answers: dict[str, Answer] = {}
        stored = self._stored
        queue: Iterator[tuple[str, str]] = (
            iter(targets) if stored is None else stored.read_ahead(targets)
        )

        async def work() -> None:
            for url, kind in queue:  # shared: each worker takes the next
                answer = await self.fetch(url, kind)
                if keep:
                    answers[url] = answer
                if on_answer is not None:
                    on_answer(answer)
                if stored is not None:
                    stored.keep(answer)

        workers = WORKERS_PER_SLOT * max(1, self.settings.concurrency)
        await asyncio.gather(*(work() for _ in range(workers)))
        if stored is not None:
            stored.flush()
        return answers

    # ------------------------------------------------------------------ one URL

    async def fetch(self, url: str, kind: str) -> Answer:
        """The answer for ``url`` (never raises for network trouble or bad input)."""
        started = time.monotonic()
        try:
            answer = await self._fetch(url, kind)
        except Exception as error:  # a defect must not end the audit: it is an answer
            answer = Answer(url, error=PROTOCOL, detail=f"{type(error).__name__}: {error}")
        answer.elapsed = round(time.monotonic() - started, 6)
        return answer

    async def _fetch(self, url: str, kind: str) -> Answer:
        if http_scheme(url) is None:
            return Answer(url, error=SCHEME, detail=f"not an http or https URL: {url[:200]}")
        refused_port = self._refused_port(url)
        if refused_port is not None:
            return Answer(url, error=BAD_PORT, detail=refused_port)
        key = origin(url)  # the host's, looked up once for its robots.txt and the guard
        robots, rules = self.robots, None
        if robots is not None and key is not None:
            known = robots.known_of(key)
            # The URL's place among its host's, taken in the order the URLs are asked
            # for: nothing was awaited since ``fetch_all`` handed it out.
            place = self._budget.place(key, url, known, agent_of(kind))
            rules = known or await robots.rules_of(key)
            if known is None:
                self._budget.settle(key, rules)
            if self._budget.over(place, rules):
                return _over_budget(url, rules, self._budget.seconds)
        answer = await self._answer_for(url, kind, key, rules)
        if rules is not None:
            answer.robots_unreachable = rules.unavailable
        return answer

    async def _answer_for(
        self, url: str, kind: str, key: str | None, rules: HostRules | None
    ) -> Answer:
        agent = agent_of(kind)
        if rules is not None and rules.disallows(url, agent):
            detail = f"not requested: robots.txt disallows it for {agent}"
            return Answer(url, robots_disallowed=True, detail=detail, robots_agent=agent)
        cached = self._stored.answer(url) if self._stored is not None else None
        # the guard's verdict on the host read as it is once known, else asked once
        resolver = self._resolver
        if cached is not None and not (
            _reusable(cached, kind)
            and resolver is not None
            and (resolver.known_to_connect(key) or await resolver.may_connect(url, key))
        ):
            cached = None
        if cached is not None and _still_fresh(cached):
            return _given_again(cached, url, 0, cached.fresh_until, fresh=True)
        conditional = _conditional_headers(cached)
        method = "GET" if kind in GET_KINDS else "HEAD"
        page = kind in GET_KINDS
        limit = self.settings.head_bytes if page else 0
        chain: list[Hop] = []
        attempts = sent = 0
        current = url
        while True:
            try:
                response, tries, went = await self._hop(method, current, conditional, limit, page)
            except HopError as error:
                return Answer(
                    url,
                    error=error.error,
                    detail=error.detail,
                    chain=chain,
                    attempts=attempts + error.attempts,
                    sent=sent + error.requests,
                )
            attempts += tries
            sent += went
            if method == "HEAD" and _head_refused(response.status):
                method = "GET"
                continue
            if response.status == 304 and cached is not None and conditional:
                fresh_until = freshness(response.headers, time.time())
                answer = _given_again(cached, url, attempts, fresh_until, sent=sent)
                answer.no_store = storing_forbidden(response.headers)
                return answer
            conditional = {}
            location = response.header("Location")
            answer = _answer(url, kind, response, chain, attempts)
            answer.sent = sent
            if response.status not in REDIRECTS:
                return answer
            if location is None:
                answer.error = PROTOCOL
                answer.detail = f"a {response.status} redirect without a Location header"
                return answer
            following = _join(current, location)
            if following is None or http_scheme(following) is None:
                answer.error = INVALID_URL if following is None else SCHEME
                answer.detail = f"a redirect to {location[:200]}"
                return answer
            if following in {url, *(hop.url for hop in chain), current}:
                answer.loop, answer.loop_to = True, following
                return answer
            if len(chain) == MAX_REDIRECTS:
                answer.too_many_hops = True
                return answer
            chain.append(Hop(current, response.status, location))
            refused_port = self._refused_port(following)
            if refused_port is not None:
                return _unrequested_hop(answer, chain, following, False, refused_port)
            if await self._disallowed(following, agent):
                return _unrequested_hop(answer, chain, following, True, agent=agent)
            current = following

    def _refused_port(self, url: str) -> str | None:
        """Why no request goes to ``url``'s port (one of the bad ports no user named),
        or None when one may."""
        explicit = _EXPLICIT_PORT.match(url)
        if explicit is None:
            return None  # the scheme's own port, 80 or 443: never a bad one (no parse)
        origin = _AUTHORITY.match(url, explicit.end())
        key = url if origin is None else url[: origin.end()]  # the scheme, host and port
        refusals = self._refusals
        if key in refusals:
            return refusals[key]
        if len(refusals) >= 4096:
            refusals.clear()
        refused = refusals[key] = self._ports.port_refusal(_host_and_port(url))
        return refused

    async def _disallowed(self, url: str, agent: str) -> bool:
        """Whether the robots.txt of ``url``'s host (fetched once) disallows it for the
        crawler ``agent``."""
        if self.robots is None:
            return False
        rules = self.robots.known(url)
        if rules is None:
            rules = await self.robots.rules(url)
        return rules is not None and rules.disallows(url, agent)

    # ------------------------------------------------------------------ one hop

    async def _hop(
        self, method: str, url: str, headers: dict[str, str], limit: int, page: bool = False
    ) -> tuple[Response, int, int]:
        """One request with its retries: the response, the number of requests tried and
        the number of them that went out (HopError.attempts and .requests without one).
        ``limit``: the most bytes of the body read; ``page``: only up to its head's end."""
        settings = self.settings
        sent = 0
        for attempt in range(settings.retries + 1):
            try:
                response = await self._request(method, url, headers, limit, page)
            except HopError as error:
                sent += error.sent
                if not error.retryable or attempt == settings.retries:
                    error.attempts, error.requests = attempt + 1, sent
                    raise
                await asyncio.sleep(settings.backoff * 2**attempt)
                continue
            sent += 1
            if response.status not in RETRY_STATUSES:
                return response, attempt + 1, sent
            # A date is read against the clock that wrote it: the response's Date.
            server_now = _sent_at(response.header("Date"), time.time())
            wait = retry_after(response.header("Retry-After"), server_now)
            if wait is None:
                wait = settings.backoff * 2**attempt
            # the host is held (the last attempt's wait too, for the host's other URLs)
            held = wait <= settings.retry_after_cap and self._pacing.hold(url, wait)
            if not held or attempt == settings.retries:
                return response, attempt + 1, sent
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _request(
        self, method: str, url: str, headers: dict[str, str], limit: int, page: bool
    ) -> Response:
        if self._session is None or self._resolver is None:
            raise RuntimeError("Client used outside `async with`")
        try:
            parsed = URL(url, encoded=True)
            key = self._pacing.key(parsed)
        except ValueError as error:
            raise HopError(INVALID_URL, _invalid(error), sent=False) from None
        refused_port = self._refused_port(url)  # a robots.txt's redirect too
        if refused_port is not None:
            raise HopError(BAD_PORT, refused_port, sent=False)

        def crawl_delay() -> float:
            robots = self.robots
            rules = robots.known(url) if robots is not None and robots.delayed else None
            return rules.delay if rules is not None else 0.0

        # The host's turn (its slot, the end of a 429's or 503's wait, its Crawl-delay)
        # first: waiting for it holds no slot of the others.
        async with self._pacing.turn(key, crawl_delay), self._all:
            return await self._send(method, parsed, headers, limit, page)

    async def _send(
        self, method: str, url: URL, headers: dict[str, str], limit: int, page: bool
    ) -> Response:
        assert self._session is not None
        status: int | None = None
        try:
            async with asyncio.timeout(self.settings.timeout + 1):
                async with self._session.request(
                    method, url, headers=headers, allow_redirects=False
                ) as response:
                    status = response.status
                    pairs = _header_pairs(response)
                    body, bomb = b"", False
                    if limit and response.status not in UNREAD:
                        if page and _media(response) in HTML_TYPES:
                            body, bomb = await _read_head(response, limit)
                        elif not page and _readable(response):
                            body = await _read_bounded(response, limit)
                    await _drain_small_rest(response)
                    return Response(str(response.url), response.status, pairs, body, bomb)
        except RefusedAddress as error:
            raise HopError(REFUSED, _refusal(error), sent=False) from None
        except Exception as error:
            hop = _hop_error(error)
            if status is not None and hop.error == TIMEOUT:
                seconds = f"{self.settings.timeout:g}"
                detail = f"status {status} came, but not the rest within the {seconds} s timeout"
                raise HopError(STALLED, detail, retryable=True) from None
            raise hop from None

    async def _fetch_text(self, url: str) -> tuple[int | None, str]:
        """GET ``url`` (a robots.txt), redirects followed: (final status, text) or
        (None, why) when it got no answer (why: the guard's refusal, else "")."""
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            try:
                response, _tries, _sent = await self._hop("GET", current, {}, ROBOTS_MAX_BYTES)
            except HopError as error:
                if error.error not in (REFUSED, BAD_PORT):
                    return None, ""
                # the guard's refusal, said: not to be taken for the site's outage
                what = "it" if current == url else f"its redirect to {current}"
                return None, f"{what} was refused ({error.detail})"
            location = response.header("Location")
            if response.status not in REDIRECTS or location is None:
                return response.status, response.text()
            following = _join(current, location)
            if following is None or http_scheme(following) is None:
                return None, ""
            current = following
        return None, ""


def _answer(url: str, kind: str, response: Response, chain: list[Hop], attempts: int) -> Answer:
    """The answer that ``response`` (the last of ``chain``'s hops) gives for ``url``."""
    answer = Answer(
        url,
        status=response.status,
        final_url=response.url,
        chain=list(chain),
        content_type=response.content_type,
        attempts=attempts,
        etag=response.header("ETag"),
        last_modified=response.header("Last-Modified"),
    )
    if response.status in RETRY_STATUSES:
        # When to come back, as the site says (the audit waited less, or not at all).
        wait = (response.header("Retry-After") or "").strip()
        answer.detail = f"Retry-After: {wait}" if wait else None
    if response.status == 200 and not chain:
        answer.fresh_until = freshness(response.headers, time.time())
        answer.no_store = storing_forbidden(response.headers)
    if kind in GET_KINDS and 200 <= response.status < 300:
        if response.bomb:
            answer.error = TOO_LARGE
            answer.detail = (
                f"a compression bomb: more than {len(response.body)} bytes before the end"
                " of its head"
            )
            return answer
        text = response.page_text() if response.content_type in HTML_TYPES else ""
        answer.signals = read_signals(response.url, response.headers, text)
    return answer


def _header_pairs(response: aiohttp.ClientResponse) -> list[tuple[str, str]]:
    return [(name.decode("latin-1"), _header_value(value)) for name, value in response.raw_headers]


def _header_value(value: bytes) -> str:
    """A header's value: UTF-8 when its bytes are (as servers write a Location with
    non-ASCII characters), else each byte a character (latin-1)."""
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return value.decode("latin-1")


async def _drain_small_rest(response: aiohttp.ClientResponse) -> None:
    """Read what is left of a short body, so that its connection serves the next
    request (a body left unread closes it); a long or unsized one is left unread. The
    answer is what was read before: a rest that breaks off or is slow to come only
    leaves the connection closed."""
    length = response.content_length
    if length is None or length > DRAIN_AT_MOST or response.content.at_eof():
        return
    try:
        async with asyncio.timeout(DRAIN_PATIENCE):
            while await response.content.read(DRAIN_AT_MOST):
                pass
    except (aiohttp.ClientError, TimeoutError):
        pass


def _media(response: aiohttp.ClientResponse) -> str:
    return response.headers.get("Content-Type", "").split(";", 1)[0].strip().lower()


def _head_refused(status: int) -> bool:
    """Whether a HEAD answered ``status`` is asked again with GET, as crawlers ask: an
    error, as a method not allowed (405) or not implemented (501), a URL signed for GET
    alone (403, as an S3 presigned URL), a route that answers GET alone (404 to a HEAD);
    not 429 or 503, retried as they are."""
    return status >= 400 and status not in RETRY_STATUSES


def _readable(response: aiohttp.ClientResponse) -> bool:
    media = _media(response)
    return media in HTML_TYPES or not media or media.startswith("text/")


async def _read_bounded(response: aiohttp.ClientResponse, limit: int) -> bytes:
    """At most ``limit`` bytes of the decoded body."""
    decoder = _decoder(response.headers.get("Content-Encoding", ""))
    body = bytearray()
    room = limit
    while decoder is not None and room > 0:
        piece = await _next_piece(response, decoder, room)
        if piece is None:
            break
        room -= len(piece)
        body += piece
    return bytes(body)


async def _read_head(response: aiohttp.ClientResponse, limit: int) -> tuple[bytes, bool]:
    """A page's decoded body up to where ``page.head_end`` ends its head (or where it
    stalls, once the head's end tag has come: ``AFTER_HEAD_PATIENCE``), or else up to
    ``limit`` bytes; and whether it is a compression bomb (its head went on past
    ``limit`` bytes decoded from fewer than ``1 / BOMB_RATIO`` as many). A head that is
    only long is read to the bound, and its signals are read from that part."""
    decoder = _decoder(response.headers.get("Content-Encoding", ""))
    if decoder is None:
        return b"", False
    body = bytearray()
    text = ""  # the body as the scanner reads it: a character a byte (its tags are ASCII)
    resume = 0
    room = limit
    while room > 0:
        if text[resume : resume + 6].lower() == "</head":  # the head closed, not ended
            try:
                async with asyncio.timeout(AFTER_HEAD_PATIENCE):
                    piece = await _next_piece(response, decoder, room)
            except TimeoutError:
                return bytes(body), False
        else:
            piece = await _next_piece(response, decoder, room)
        if piece is None:
            break
        room -= len(piece)
        body += piece
        text += piece.decode("latin-1")
        ended, resume = head_end(text, resume)
        if ended:
            return bytes(body), False
    return bytes(body), len(body) >= limit and decoder.consumed * BOMB_RATIO < len(body)


async def _next_piece(
    response: aiohttp.ClientResponse, decoder: _Identity | _Inflater, room: int
) -> bytes | None:
    """The body's next chunk decoded, at most ``room`` bytes (possibly none, as of a
    gzip header alone); None at the body's end (a body that breaks ends it). Not an
    async generator: one left unfinished, as a head read to its end leaves it, is
    closed by the garbage collector through the event loop's wake-up, a write and a
    task for each page."""
    chunk = await response.content.readany()
    if not chunk:
        return None
    try:
        return decoder.decode(chunk, room)
    except zlib.error:
        return None


def _decoder(encoding: str) -> _Identity | _Inflater | None:
    """A decoder of the body's chunks into at most the bytes asked, or None for an
    encoding this client does not read."""
    name = encoding.strip().lower()
    if name in ("", "identity"):
        return _Identity()
    if name in ("gzip", "x-gzip", "deflate"):
        return _Inflater(name == "deflate")
    return None


class _Identity:
    """A body sent as it is; ``consumed``: the bytes of it decoded so far."""

    def __init__(self) -> None:
        self.consumed = 0

    def decode(self, chunk: bytes, room: int) -> bytes:
        piece = chunk[:room]
        self.consumed += len(piece)
        return piece


class _Inflater:
    """gzip or zlib by its header (47); ``deflate`` is zlib or, as some servers send
    it, raw deflate without a header. A gzip body goes on past the end of a member into
    the next (RFC 1952, 2.2: a page may be sent as several); NUL padding after the last,
    or bytes that start no member, end it. ``consumed``: the bytes of the encoded body
    decoded so far."""

    def __init__(self, deflate: bool) -> None:
        self._may_be_raw = deflate
        self._gzip = not deflate  # members may follow (known at the first byte)
        self._started = False
        self._ended = False  # past the last member
        self._inflate = zlib.decompressobj(15 if deflate else 47)
        self.consumed = 0

    def decode(self, chunk: bytes, room: int) -> bytes:
        if not self._started and chunk:
            self._started = True
            # A gzip member's first byte (no zlib stream starts with it).
            self._gzip = self._gzip and chunk[:1] == GZIP_MAGIC[:1]
        pieces: list[bytes] = []
        while chunk and room > 0 and not self._ended:
            if self._inflate.eof:  # past a member: the next one, or padding, or the end
                if not self._gzip or not chunk.strip(b"\x00"):
                    self._ended = True
                    break
                self._inflate = zlib.decompressobj(31)
                try:
                    piece = self._inflate.decompress(chunk, room)
                except zlib.error:  # no member: what came before is the body
                    self._ended = True
                    break
            else:
                piece = self._decompress(chunk, room)
            pieces.append(piece)
            room -= len(piece)
            rest = self._inflate.unused_data if self._inflate.eof else b""
            self.consumed += len(chunk) - len(self._inflate.unconsumed_tail) - len(rest)
            chunk = rest
        if self._ended:
            self.consumed += len(chunk)  # past the last member: read, not decoded
        return b"".join(pieces)

    def _decompress(self, chunk: bytes, room: int) -> bytes:
        try:
            return self._inflate.decompress(chunk, room)
        except zlib.error:
            if not self._may_be_raw:
                raise
            self._may_be_raw = False
            self._inflate = zlib.decompressobj(-15)
            return self._inflate.decompress(chunk, room)


def _hop_error(error: BaseException) -> HopError:
    message = error.message if isinstance(error, aiohttp.ClientResponseError) else str(error)
    text = message.strip().splitlines()[0][:200] if message.strip() else ""
    if text.startswith("Got more than"):  # the parser's words, then the line's start
        text = f"a header line longer than {MAX_HEADER_FIELD} bytes"
    detail = f"{type(error).__name__}: {text}" if text else type(error).__name__
    if isinstance(error, aiohttp.ConnectionTimeoutError):
        return HopError(TIMEOUT, detail, retryable=True, sent=False)
    if isinstance(error, TimeoutError | asyncio.TimeoutError | aiohttp.ServerTimeoutError):
        return HopError(TIMEOUT, detail, retryable=True)
    if isinstance(error, aiohttp.InvalidURL):
        return HopError(INVALID_URL, _invalid(error), sent=False)
    if isinstance(error, aiohttp.ClientConnectorDNSError):
        return HopError(DNS, detail, sent=False)
    if isinstance(error, aiohttp.ClientConnectorCertificateError | aiohttp.ClientSSLError):
        return HopError(TLS, detail, sent=False)
    if isinstance(error, aiohttp.ClientConnectorError):
        cause = error.os_error
        if isinstance(cause, RefusedAddress):
            return HopError(REFUSED, _refusal(cause), sent=False)
        return HopError(CONNECT, detail, retryable=True, sent=False)
    if isinstance(error, aiohttp.ServerDisconnectedError | aiohttp.ClientOSError):
        return HopError(CONNECT, detail, retryable=True)
    if isinstance(error, aiohttp.ClientPayloadError) and text.startswith(_LOST_MID_BODY):
        received = _RECEIVED.search(message)
        counted = f": {received[1]} of {received[2]} bytes received" if received else ""
        return HopError(CONNECT, f"closed before the end of the body{counted}", retryable=True)
    return HopError(PROTOCOL, detail)


# aiohttp's words for a body whose connection was lost before its end (a body that
# breaks otherwise, as a bad chunk or content coding, is not valid HTTP).
_LOST_MID_BODY = "Response payload is not completed"
_RECEIVED = re.compile(r"received (\d+) of (\d+) bytes")


def _refusal(error: RefusedAddress) -> str:
    """The refusal in words: an address written in the URL is not said to resolve."""
    address = kind_words(error.kind, error.address)
    if host_address(error.host) is not None:
        return f"{address_text(error.address)} is {address}"
    return f"{error.host} resolves to {address_text(error.address)}, {address}"


def _invalid(error: Exception) -> str:
    """Why a URL cannot be requested, in one short line."""
    text = " ".join(str(error).split())[:200]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """The seconds a Retry-After asks to wait (delay-seconds or an HTTP-date), or None."""
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(text)
    moment = parse_http_date(text)
    if moment is None:
        return None
    current = datetime.now(UTC).timestamp() if now is None else now
    return max(0.0, moment.timestamp() - current)


def storing_forbidden(headers: Iterable[tuple[str, str]]) -> bool:
    """Whether a response's ``Cache-Control`` says ``no-store``: a cache must not store
    it (RFC 9111, section 5.2.2.5)."""
    for name, value in headers:
        if name.lower() == "cache-control":
            for part in value.split(","):
                if part.partition("=")[0].strip().lower() == "no-store":
                    return True
    return False


def freshness(headers: Iterable[tuple[str, str]], now: float) -> float | None:
    """Until when a response received at ``now`` is fresh (seconds since the epoch), by
    its ``Cache-Control`` (``max-age``; ``no-store`` and ``no-cache`` make it stale) or
    else its ``Expires`` against its ``Date``, less its age (``Age``, or the time since
    its ``Date``): RFC 9111, sections 4.2.1 and 4.2.3. None: stale at once (no
    freshness given, an invalid value, or a lifetime already spent)."""
    directives: dict[str, str] = {}
    expires = date = age = None
    for name, value in headers:
        key = name.lower()
        if key == "cache-control":
            for part in value.split(","):
                directive, _, argument = part.strip().partition("=")
                directives.setdefault(directive.strip().lower(), argument.strip().strip('"'))
        elif key == "expires" and expires is None:
            expires = value
        elif key == "date" and date is None:
            date = value
        elif key == "age" and age is None:
            age = value
    if "no-store" in directives or "no-cache" in directives:
        return None
    if "max-age" in directives:
        text = directives["max-age"]
        if not (text.isascii() and text.isdigit()):
            return None
        lifetime = float(text)
        sent_at = _sent_at(date, now)
    elif expires is not None:
        until = parse_http_date(expires)
        if until is None:
            return None  # an invalid Expires means already expired
        sent_at = _sent_at(date, now)
        lifetime = until.timestamp() - sent_at
    else:
        return None
    stated = age.strip() if age is not None else ""
    stated_age = float(stated) if stated.isascii() and stated.isdigit() else 0.0
    spent = max(now - sent_at, stated_age, 0.0)
    return now + lifetime - spent if lifetime > spent else None


def _sent_at(date: str | None, now: float) -> float:
    """When a response was sent, by its ``Date`` (``now`` without a valid one)."""
    sent = parse_http_date(date) if date is not None else None
    return sent.timestamp() if sent is not None else now


def _reusable(cached: Answer, kind: str) -> bool:
    """Whether a stored answer may stand for a new one of ``kind``: a 200 reached without
    redirects, and for a page one that holds a page's facts (a GET's, its head read: a
    HEAD's answer has no signals, so a page gets a whole GET, not a conditional one)."""
    if kind in GET_KINDS and cached.signals is None:
        return False
    return not cached.chain and cached.status == 200 and not cached.error


def _given_again(
    cached: Answer,
    url: str,
    attempts: int,
    fresh_until: float | None,
    fresh: bool = False,
    sent: int = 0,
) -> Answer:
    """A copy of ``cached`` given from the cache for ``url``."""
    answer = _copy(cached)
    answer.url = url
    answer.from_cache = True
    answer.attempts = attempts
    answer.sent = sent
    answer.fresh_until = fresh_until
    answer.fresh = fresh
    return answer


def _copy(answer: Answer) -> Answer:
    """A shallow copy of ``answer`` (as ``dataclasses.replace`` makes it, without the
    cost of calling ``__init__`` by keywords)."""
    copy = Answer.__new__(Answer)
    copy.__dict__.update(answer.__dict__)
    return copy


def _unrequested_hop(
    answer: Answer,
    chain: list[Hop],
    following: str,
    disallowed: bool,
    reason: str = "",
    agent: str = AGENT,
) -> Answer:
    """``answer`` (of the hop that redirects) as the end of a chain whose next hop,
    ``following``, is not requested: its host's robots.txt disallows it (``disallowed``),
    or it goes to a bad port (``reason`` says which)."""
    answer.chain = list(chain)
    answer.final_url = following
    answer.status = None
    answer.signals = None
    if disallowed:
        answer.robots_disallowed = True
        answer.robots_agent = agent
        answer.detail = (
            f"not requested: robots.txt disallows the redirect's target {following} for {agent}"
        )
    else:
        answer.error = BAD_PORT
        answer.detail = reason
    return answer


def _over_budget(url: str, rules: HostRules, budget: float) -> Answer:
    """The answer for ``url``, not requested: its host's Crawl-delay leaves no room for it
    in the run's crawl budget of ``budget`` seconds."""
    detail = (
        f"not requested: the host's Crawl-delay of {rules.delay:g} s leaves no room for it"
        f" in the crawl budget of {budget:g} s"
    )
    return Answer(url, detail=detail, over_budget=True, crawl_delay=rules.delay)


def _still_fresh(cached: Answer) -> bool:
    return cached.fresh_until is not None and cached.fresh_until > time.time()


def _conditional_headers(cached: Answer | None) -> dict[str, str]:
    """The validators of a stored answer that may stand for the new one (``_reusable``)."""
    if cached is None:
        return {}
    headers = {}
    if cached.etag:
        headers["If-None-Match"] = cached.etag
    if cached.last_modified:
        headers["If-Modified-Since"] = cached.last_modified
    return headers


def _storable(answer: Answer) -> bool:
    """Whether to store ``answer``: one that was requested (a fresh one is stored), and
    whose response did not forbid it."""
    return (
        answer.status is not None
        and not answer.robots_disallowed
        and not answer.fresh
        and not answer.no_store
    )


def _join(base: str, location: str) -> str | None:
    try:
        return str(URL(base, encoded=True).join(URL(location.strip())))
    except (ValueError, TypeError):
        return None
