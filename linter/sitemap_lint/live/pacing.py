"""How fast the live audit may ask each host: its share of the requests in flight, the
waits a 429 or a 503 asks for, its robots.txt ``Crawl-delay`` between requests, and how
many of its URLs that delay lets one run ask (``CrawlBudget``)."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from yarl import URL

from sitemap_lint.inputs.guard import canonical_host
from sitemap_lint.live.robots import AGENT

if TYPE_CHECKING:
    from sitemap_lint.live.robots import HostRules


class HostPacing:
    """The per-host limits of one client, by host key (the host and port a request goes
    to, as ``key`` writes it)."""

    def __init__(self, per_host: int, held_cap: float) -> None:
        self.per_host = max(1, per_host)
        # seconds a host is held in all by its 429s and 503s; past them, no more holds
        self.held_cap = held_cap
        self._slots: dict[str, asyncio.Semaphore] = {}
        self._keys: dict[tuple[str | None, int | None], str] = {}  # (host, port) -> key
        self._next_at: dict[str, float] = {}  # key -> when its next request may go
        # key -> until when a 429 or 503 asked that none of its requests go, and the
        # seconds it was held so in all
        self._held_until: dict[str, float] = {}
        self._held_for: dict[str, float] = {}

    def key(self, parsed: URL) -> str:
        """The host and port a request goes to, as the per-host limit counts them."""
        host, port = parsed.raw_host, parsed.port
        key = self._keys.get((host, port))
        if key is None:
            key = self._keys[host, port] = f"{canonical_host(host or '')}:{port}"
        return key

    def turn(self, key: str, delay: Callable[[], float]) -> Turn:
        """One of the host's ``per_host`` places (an async context manager), after the
        end of a 429's or 503's wait and ``delay()`` seconds (its Crawl-delay, as known
        then) since its previous request."""
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = asyncio.Semaphore(self.per_host)
        return Turn(self, key, slot, delay)

    def hold(self, url: str, seconds: float) -> bool:
        """No request to ``url``'s host goes in the next ``seconds`` (a 429's or a
        503's wait: its Retry-After, or the backoff); False, and no hold, once the host
        was held ``held_cap`` seconds in all."""
        key = self.key(URL(url, encoded=True))
        now = time.monotonic()
        until = max(self._held_until.get(key, now), now + seconds)
        held = self._held_for.get(key, 0.0) + until - max(self._held_until.get(key, now), now)
        if held > self.held_cap:
            return False
        self._held_for[key] = held
        self._held_until[key] = until
        return True

    async def wait(self, key: str, delay: Callable[[], float]) -> None:
        """Wait for the end of the host's 429 or 503 wait, then for its Crawl-delay."""
        held = self._held_until.get(key, 0.0) - time.monotonic()
        if held > 0:
            await asyncio.sleep(held)
        seconds = delay()
        if seconds > 0:
            await self._space(key, seconds)

    async def _space(self, key: str, delay: float) -> None:
        """Wait for the host's Crawl-delay since its previous request."""
        now = time.monotonic()
        at = max(now, self._next_at.get(key, now))
        self._next_at[key] = at + delay
        if at > now:
            await asyncio.sleep(at - now)


class Turn:
    """A host's place for one request (``HostPacing.turn``): its slot held from the
    end of the waits it owes until the request is done. (A class, not a generator: one
    is entered for each request.)"""

    __slots__ = ("_delay", "_key", "_pacing", "_slot")

    def __init__(
        self, pacing: HostPacing, key: str, slot: asyncio.Semaphore, delay: Callable[[], float]
    ) -> None:
        self._pacing, self._key, self._slot, self._delay = pacing, key, slot, delay

    async def __aenter__(self) -> None:
        await self._slot.acquire()
        try:
            await self._pacing.wait(self._key, self._delay)
        except BaseException:
            self._slot.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._slot.release()


def fitting(delay: float, budget: float) -> float:
    """How many of a host's URLs one run requests when its robots.txt asks ``delay``
    seconds between requests: the first, and one more for each whole ``delay`` that
    ``budget`` holds (``math.inf``: no delay, or no bound)."""
    if delay <= 0 or math.isinf(budget):
        return math.inf
    return math.floor(budget / delay + 1e-9) + 1  # 0.3 / 0.1 is 2.9999999999999996


class Place:
    """One URL's place among its host's URLs to request (``number``, from 0; None: not
    numbered, as a URL its robots.txt disallows or one of a host without a delay)."""

    __slots__ = ("agent", "number", "url")

    def __init__(self, url: str, agent: str = AGENT) -> None:
        self.url = url
        self.agent = agent  # the crawler whose robots.txt rules decide it
        self.number: int | None = None


class CrawlBudget:
    """Which of a host's URLs a run requests under its ``Crawl-delay``: the first ones in
    the order they are asked for, as many as ``fitting`` allows. A URL's place is taken
    when it is asked for; a host's places taken before its robots.txt is read are
    numbered when it is, in that order (its disallowed URLs get no number: they are not
    requested), so the numbers follow the order of the asks whatever the order the
    requests resume in."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._numbered: dict[str, int] = {}  # host key -> its URLs numbered so far
        self._unread: dict[str, list[Place]] = {}  # host key -> places awaiting its rules

    def place(self, key: str, url: str, rules: HostRules | None, agent: str = AGENT) -> Place:
        """``url``'s place among the URLs of the host ``key`` (its rules, None when its
        robots.txt is not read yet: the place is numbered by ``settle``), fetched by the
        crawler ``agent``."""
        place = Place(url, agent)
        if rules is None:
            self._unread.setdefault(key, []).append(place)
        else:
            self.settle(key, rules)
            self._number(key, place, rules)
        return place

    def settle(self, key: str, rules: HostRules) -> None:
        """Number the places of host ``key`` taken before its ``rules`` were read."""
        for place in self._unread.pop(key, ()):
            self._number(key, place, rules)

    def over(self, place: Place, rules: HostRules) -> bool:
        """Whether the URL at ``place`` is past what the budget lets the run request."""
        return place.number is not None and place.number >= fitting(rules.delay, self.seconds)

    def _number(self, key: str, place: Place, rules: HostRules) -> None:
        if rules.delay > 0 and not rules.disallows(place.url, place.agent):
            place.number = self._numbered.get(key, 0)
            self._numbered[key] = place.number + 1
