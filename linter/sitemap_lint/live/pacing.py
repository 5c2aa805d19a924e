"""How fast the live audit may ask each host: its share of the requests in flight, the
waits a 429 or a 503 asks for, and its robots.txt ``Crawl-delay`` between requests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from yarl import URL

from sitemap_lint.inputs.guard import canonical_host


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

    @asynccontextmanager
    async def turn(self, key: str, delay: Callable[[], float]) -> AsyncIterator[None]:
        """One of the host's ``per_host`` places, after the end of a 429's or 503's wait
        and ``delay()`` seconds (its Crawl-delay, as known then) since its previous
        request."""
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = asyncio.Semaphore(self.per_host)
        async with slot:
            held = self._held_until.get(key, 0.0) - time.monotonic()
            if held > 0:
                await asyncio.sleep(held)
            seconds = delay()
            if seconds > 0:
                await self._space(key, seconds)
            yield

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

    async def _space(self, key: str, delay: float) -> None:
        """Wait for the host's Crawl-delay since its previous request."""
        now = time.monotonic()
        at = max(now, self._next_at.get(key, now))
        self._next_at[key] = at + delay
        if at > now:
            await asyncio.sleep(at - now)
