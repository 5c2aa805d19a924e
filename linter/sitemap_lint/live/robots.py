"""Each host's robots.txt, fetched once and read as Googlebot reads it (protego).

RFC 9309: a robots.txt answered 4xx allows everything; one answered 5xx (or 429, which
Google reads as a server error) or not at all disallows nothing here either (the audit
is no crawler that must stay away), but the host remembers it (``HostRules.unavailable``)
so that the audit says so (LV015). The
``Crawl-delay`` of the group that applies to this tool (``sitemap-lint``, else ``*``)
spaces the requests to that host; it is capped at ``CRAWL_DELAY_CAP`` seconds.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from protego import Protego

from sitemap_lint.domain.hosts import to_ascii
from sitemap_lint.domain.robotstxt import parse_robots
from sitemap_lint.inputs.guard import DEFAULT_PORTS
from sitemap_lint.live.model import IMAGE, VIDEO_CONTENT, VIDEO_THUMBNAIL

AGENT = "Googlebot"  # whose rules decide Answer.robots_disallowed (of a page)
# Google fetches images as Googlebot-Image and video files as Googlebot-Video: a group of
# their own decides for them, else Googlebot's (protego falls back so, as Google does).
_AGENTS = {
    IMAGE: "Googlebot-Image",
    VIDEO_THUMBNAIL: "Googlebot-Image",
    VIDEO_CONTENT: "Googlebot-Video",
}
OWN_AGENT = "sitemap-lint"  # whose Crawl-delay spaces the requests
CRAWL_DELAY_CAP = 60.0
MAX_BYTES = 512_000  # Google reads the first 500 KiB

# url -> (status, text), or (None, why) when unreachable (why: a refusal in words, or "")
FetchText = Callable[[str], Awaitable[tuple[int | None, str]]]
# An http(s) URL up to its query, its path made of characters protego leaves as they are.
_PLAIN_PATH = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*/(?!/)[A-Za-z0-9_.~/=-]*").fullmatch


@dataclass(frozen=True)
class HostRules:
    """What one host's robots.txt says: ``status`` None when it could not be fetched."""

    status: int | None
    parser: Protego | None = None
    delay: float = 0.0
    by_path: bool = False  # whether a URL is decided by its path alone (_by_path)
    why: str = ""  # when not fetched: why, if known ("it was refused (...)")

    @property
    def unavailable(self) -> str:
        """What keeps crawlers off the host: "answers 503", "could not be fetched"; ""
        when the robots.txt was read or answered 4xx (no rules)."""
        if self.status is None:
            return f"could not be fetched: {self.why}" if self.why else "could not be fetched"
        if self.status == 429 or self.status >= 500:
            return f"answers {self.status}"
        return ""

    def disallows(self, url: str, agent: str = AGENT) -> bool:
        """Whether the rules disallow ``url`` for the crawler ``agent``."""
        if self.parser is None:
            return False
        if self.by_path:
            query = url.find("?")
            if query > 0 and _PLAIN_PATH(url, 0, query):
                url = url[:query]
        return not self.parser.can_fetch(url, agent)


def agent_of(kind: str) -> str:
    """The Google crawler that fetches a URL listed as ``kind`` (a ``live.model`` kind)."""
    return _AGENTS.get(kind, AGENT)


def origin(url: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) URL, or None: one host's whatever its
    spelling (its robots.txt is one), the scheme and host in lower case, a host outside
    ASCII in its ASCII form (as ``domain.hosts`` reads it), no user name, and the port
    only when it is not the scheme's default."""
    start = url.find("://") + 3
    if start < 3:
        return _origin(url)
    end = len(url)
    for mark in "/?#":  # where urlsplit ends the host: what follows cannot change it
        at = url.find(mark, start, end)
        if at >= 0:
            end = at
    return _known_origin(url[:end])


def _origin(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.netloc:
        return None
    authority = parts.netloc.rpartition("@")[2]
    host, port = authority, ""
    if ":" in authority and not authority.endswith("]"):  # "]": an IPv6 address alone
        host, _, port = authority.rpartition(":")
    if port.isascii() and port.isdigit():
        number = int(port)
        port = "" if number == DEFAULT_PORTS[scheme] else str(number)
    host = host.lower() if host.isascii() else (to_ascii(host).ascii or host.lower())
    return f"{scheme}://{host}:{port}" if port else f"{scheme}://{host}"


_known_origin = lru_cache(maxsize=1024)(_origin)  # by the URL up to its path


def read_rules(status: int | None, text: str) -> HostRules:
    """The rules of a robots.txt answered ``status`` with ``text`` (``status`` None: not
    fetched, ``text`` why)."""
    if status is None:
        return HostRules(None, why=text)
    if not 200 <= status < 300:
        return HostRules(status)
    parser = parse_robots(text)
    if parser is None:  # rules that cannot be read: none
        return HostRules(status)
    delay = parser.crawl_delay(OWN_AGENT) or 0.0
    return HostRules(status, parser, min(float(delay), CRAWL_DELAY_CAP), _by_path(text))


def _by_path(text: str) -> bool:
    """Whether no rule of the robots.txt ``text`` can reach past a URL's path into its
    query: none holds a "?" or an escape (no "?" nor "%" in the text), a wildcard (a "*"
    only on user-agent lines), an end anchor, or index.html (whose Allow protego
    anchors). A URL with a query is then decided by its path alone, which protego
    matches without normalizing the URL again."""
    if any(mark in text for mark in "?%$") or "index.html" in text.lower():
        return False
    return all(
        line.lstrip().lower().startswith("user") for line in text.splitlines() if "*" in line
    )


class Robots:
    """The robots.txt of every host asked about, each fetched once through ``fetch_text``
    (even when many requests ask at the same time)."""

    def __init__(self, fetch_text: FetchText) -> None:
        self._fetch_text = fetch_text
        self._hosts: dict[str, asyncio.Future[HostRules]] = {}
        self.delayed = False  # whether a robots.txt read so far sets a Crawl-delay

    async def rules(self, url: str) -> HostRules | None:
        """The rules for ``url``'s host (None for a URL that is not http(s))."""
        key = origin(url)
        return None if key is None else await self.rules_of(key)

    async def rules_of(self, key: str) -> HostRules:
        """The rules of the host whose ``origin`` is ``key``."""
        future = self._hosts.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._hosts[key] = future
            try:
                status, text = await self._fetch_text(f"{key}/robots.txt")
                rules = read_rules(status, text)
                self.delayed = self.delayed or rules.delay > 0
                future.set_result(rules)
            except Exception:
                future.set_result(HostRules(None))
            except BaseException:  # a cancelled fetch must not leave the others waiting
                if not future.done():
                    future.set_result(HostRules(None))
                raise
        return await asyncio.shield(future)

    def known(self, url: str) -> HostRules | None:
        """The rules for ``url``'s host if they were already read (never fetches)."""
        key = origin(url)
        return None if key is None else self.known_of(key)

    def known_of(self, key: str) -> HostRules | None:
        """The rules of the host whose ``origin`` is ``key``, if already read."""
        future = self._hosts.get(key)
        if future is None or not future.done():
            return None
        return future.result()
