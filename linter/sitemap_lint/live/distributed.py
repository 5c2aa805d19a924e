"""The live audit of a set on a Dask cluster (``--scheduler``): URLs partitioned by host.

Every URL of one site (a host name, whatever its scheme, port or ``www.``) goes to the
same task, in the run's order, so the per-host limits, the host's robots.txt and its
Crawl-delay hold as in a local run, for the redirects within the site too, and its crawl
budget requests the same URLs; the partitions are balanced by their URL counts. The
global limit (``--live-concurrency``) is shared by the tasks that run at once, so that
the cluster has no more requests in flight than a local run. The cache stays on the
machine that runs the command: each task is
sent the cached answers of its URLs (their validators, for conditional requests) and
returns its answers, which are stored here. The answers, and so the findings, are
those of a local run against the same servers.
"""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sitemap_lint.live.model import Answer

if TYPE_CHECKING:
    from sitemap_lint.live.cache import Cache
    from sitemap_lint.live.client import ClientSettings

Request = tuple[str, str]  # (url, kind)


def host_of(url: str) -> str:
    """The site a URL belongs to, whose URLs one task requests: its host name, in
    lower case, without its scheme, port or a leading ``www.`` (the URL itself when it
    has none). A listed URL's redirects mostly stay on its site, from http to https or
    between ``www.`` and the bare name: their hops go to the same host and port as the
    site's listed URLs (what a per-host limit counts, whose robots.txt and Crawl-delay
    apply), and so are requested by the same task, as in a local run."""
    from sitemap_lint.live.robots import origin

    found = origin(url)
    if found is None:
        return url
    authority = found.partition("://")[2]
    if authority.startswith("["):  # an IPv6 address
        return authority[: authority.find("]") + 1]
    return authority.partition(":")[0].removeprefix("www.")


def by_host(requests: Sequence[Request], parts: int) -> list[list[Request]]:
    """``requests`` in at most ``parts`` groups, every host's in one group, the groups'
    sizes as even as whole hosts allow; each group keeps the requests' order.
    Deterministic: the largest hosts placed first, each on the smallest group so far
    (ties: the lower group)."""
    hosts: dict[str, list[int]] = {}
    for index, (url, _kind) in enumerate(requests):
        hosts.setdefault(host_of(url), []).append(index)
    groups: list[list[int]] = [[] for _ in range(max(1, min(parts, len(hosts))))]
    sizes = [(0, number) for number in range(len(groups))]
    heapq.heapify(sizes)
    for _host, indices in sorted(hosts.items(), key=lambda item: (-len(item[1]), item[0])):
        size, number = heapq.heappop(sizes)
        groups[number].extend(indices)
        heapq.heappush(sizes, (size + len(indices), number))
    return [[requests[index] for index in sorted(group)] for group in groups if group]


class MemoryCache:
    """Cached answers handed to a task (``live.cache.Cache``'s reading side in memory);
    what the task stores is kept for the caller to store."""

    def __init__(self, answers: Mapping[str, Answer] | None = None) -> None:
        self._answers = dict(answers or {})
        self.stored: list[Answer] = []

    def get(self, url: str) -> Answer | None:
        return self._answers.get(url)

    def get_many(self, urls: Iterable[str]) -> dict[str, Answer]:
        answers = self._answers
        return {url: answers[url] for url in urls if url in answers}

    def put_many(self, answers: Iterable[Answer]) -> None:
        self.stored.extend(answers)


def audit_group(
    requests: list[Request], settings: ClientSettings, cached: dict[str, Answer]
) -> tuple[dict[str, Answer], list[Answer]]:
    """A task: request one group's URLs (one event loop on the worker); the answers by
    URL, and those to store in the cache."""
    from sitemap_lint.live.client import Client

    cache = MemoryCache(cached)

    async def run() -> dict[str, Answer]:
        async with Client(settings, cache=cache) as client:
            return await client.fetch_all(requests)

    answers = asyncio.run(run())
    return answers, cache.stored


def fetch_on_cluster(
    executor: Any,
    requests: Sequence[Request],
    settings: ClientSettings,
    cache: Cache | None,
    parts: int,
) -> dict[str, Answer]:
    """Every request's answer, the groups run as tasks of ``executor`` (a
    ``cluster.DaskExecutor``: ``parts`` groups at most, two a worker thread), each with
    its share of ``settings.concurrency``; the cache read and written here. The hosts the audit
    trusts by name (the inputs', --sitemap-url's, the --live-connect-to targets) are
    pinned here first, so that every task's copy of the run's table holds the addresses
    of one lookup."""
    from sitemap_lint.live.client import cache_key, parse_connect_to, policy_for

    if settings.pins is not None:
        settings.pins.resolve(policy_for(settings))
    # --live-concurrency counts the requests in flight on the whole cluster: at most
    # that many groups, and the groups that run at once (one a worker thread: ``parts``
    # is two a thread) share it.
    groups = by_host(requests, min(parts, max(1, settings.concurrency)))
    at_once = max(1, min(len(groups), parts // 2))
    settings = replace(settings, concurrency=max(1, settings.concurrency // at_once))
    mapping = parse_connect_to(settings.connect_to)
    cached: list[dict[str, Answer]] = [
        cache.get_many(cache_key(url, mapping) for url, _kind in group) if cache is not None else {}
        for group in groups
    ]
    answers: dict[str, Answer] = {}
    for found, stored in executor.live(audit_group, groups, settings, cached):
        answers.update(found)
        if cache is not None and stored:
            cache.put_many(stored)
    return answers
