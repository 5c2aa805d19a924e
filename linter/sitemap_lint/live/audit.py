"""The live audit's phase: from the files' targets to their ``LV`` findings.

``run.compute`` calls ``audit`` after the static checks (and before the baseline) when
``--live`` is given. Every URL is requested once, however many files list it; the
sample and ``--live-max`` choose among the distinct URLs in the files' order. The
answers become findings for every target that lists the URL; they pass through each
file's inline suppression directives (kept open until now) and the run's selection,
as the static findings did.
"""

from __future__ import annotations

import asyncio
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from sitemap_lint.errors import UsageError
from sitemap_lint.inputs.guard import Pins, http_scheme
from sitemap_lint.live.model import GET_KINDS, Answer, BudgetCut, Target

if TYPE_CHECKING:
    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.engine.sink import FindingSink
    from sitemap_lint.live.cache import Cache
    from sitemap_lint.live.client import ClientSettings
    from sitemap_lint.sets.cluster import DaskExecutor
    from sitemap_lint.settings.selection import Selection

SLOWEST_HOSTS = 10  # hosts the reports name, slowest median first
CHAINS_SHOWN = 50  # redirect chains the reports list


@dataclass
class LiveSettings:
    """What ``--live`` and its options ask for."""

    concurrency: int = 16
    per_host: int = 4
    timeout: float = 15.0
    max: int | None = None
    count: int | None = None  # --live-sample N
    percent: float | None = None  # --live-sample P%
    seed: int = 0
    # seconds of one host's Crawl-delays waited at most (--live-crawl-budget; inf: no bound)
    crawl_budget: float = 300.0
    cache: Path | None = None  # None: no cache (--no-live-cache)
    connect_to: tuple[tuple[str, str], ...] = ()
    allow_private: bool = False
    named_hosts: tuple[str, ...] = ()
    pins: Pins | None = None  # the run's pin table, shared with its fetcher


@dataclass
class LiveStats:
    """What the reports tell about the audit: answers by status (or error), the
    requests made, the answers the cache confirmed, the redirect chains and the
    slowest hosts (median seconds), and the time it took."""

    listed: int = 0  # distinct URLs the files list
    # distinct URLs requested (after the sample, --live-max and the crawl budget)
    requested: int = 0
    requests: int = 0  # HTTP requests sent (retries and redirects included; not robots.txt)
    cached: int = 0
    errors: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    redirected: int = 0  # URLs answered through redirects (loops included)
    chains: list[list[str]] = field(default_factory=list)  # the first CHAINS_SHOWN of them
    slowest: list[tuple[str, float]] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "listed": self.listed,
            "requested": self.requested,
            "requests": self.requests,
            "cached": self.cached,
            "errors": self.errors,
            "statuses": dict(self.statuses),
            "redirected": self.redirected,
            "chains": [list(chain) for chain in self.chains],
            "slowest_hosts": [{"host": host, "median": median} for host, median in self.slowest],
            "seconds": self.seconds,
        }


def open_cache(path: Path | None) -> Cache | None:
    """The cache at ``path`` (None: none); a file that cannot be used ends the run."""
    if path is None:
        return None
    from sitemap_lint.live.cache import Cache

    with cache_errors():
        return Cache(path)


@contextmanager
def cache_errors() -> Iterator[None]:
    """A cache file found unusable, opening it or later (damaged rows read), ends the
    run with one line naming the option."""
    from sitemap_lint.live.cache import CacheError

    try:
        yield
    except CacheError as error:
        raise UsageError(f"--live-cache: {error}") from None


def request_urls(results: Iterable[FileResult]) -> dict[str, str]:
    """The URL requested for each URL the files list, by the URL as listed: its normal
    form (``page.normal_for_compare``, as DU001 and LV009 compare URLs: the host's case,
    a default port, how a character is percent-encoded, dot segments and a fragment
    make no other request). A URL the static URL rules find no request can be made for
    is left out, and gets no finding here (one defect, one finding): neither http nor
    https (UR002, VD005, which allows a video file on ftp:), not absolute (UR001), or
    an invalid host or port (UR010)."""
    from sitemap_lint.live.page import normal_for_compare

    requested: dict[str, str] = {}
    unrequestable: set[str] = set()
    for result in results:
        for target in result.targets or ():
            url = target.url
            if url in requested or url in unrequestable:
                continue
            if requestable(url):
                requested[url] = normal_for_compare(url)
            else:
                unrequestable.add(url)
    return requested


def chosen_urls(
    results: Iterable[FileResult], settings: LiveSettings, spellings: Mapping[str, str]
) -> list[Target]:
    """The distinct URLs to request (``spellings``: ``request_urls``), sampled and
    limited, in the files' order: each as the first target listing it, or as the first
    listing it as a page when one does (a page's answer serves every kind; a HEAD's has
    none of a page's facts), its ``url`` the URL requested."""
    from sitemap_lint.live.targets import sample

    first: dict[str, Target] = {}
    for result in results:
        for target in result.targets or ():
            url = spellings.get(target.url)
            if url is None:
                continue
            known = first.get(url)
            if known is None or (target.kind in GET_KINDS and known.kind not in GET_KINDS):
                first[url] = target if target.url == url else _requested_as(target, url)
    return sample(
        list(first.values()), settings.count, settings.percent, settings.seed, settings.max
    )


def _requested_as(target: Target, url: str) -> Target:
    return Target(
        url,
        target.kind,
        target.line,
        target.column,
        target.lastmod,
        target.alternates,
        target.written,
        target.element,
    )


def requestable(url: str) -> bool:
    """Whether a request can be made for ``url`` as the static URL rules read it: an
    absolute http(s) URL with a valid host and port."""
    from sitemap_lint.rules.urls import parse_url

    return http_scheme(url) is not None and parse_url(url) is not None


def audit(
    results: list[FileResult],
    settings: LiveSettings,
    now: datetime,
    selection: Selection | None,
    on_progress: Callable[[int, int, int], None] | None = None,
    executor: DaskExecutor | None = None,
) -> LiveStats:
    """Request the files' URLs and add the findings to ``results`` (in place); the
    files' suppression directives and the selection are applied after them. With
    ``executor`` (``--scheduler``), the URLs are requested as tasks of its cluster,
    grouped by host (``live.distributed``)."""
    import time

    started = time.monotonic()
    stats = LiveStats()
    spellings = request_urls(results)
    stats.listed = len({spellings.get(t.url, t.url) for r in results for t in r.targets or ()})
    chosen = chosen_urls(results, settings, spellings)
    stats.requested = len(chosen)
    cache = open_cache(settings.cache)
    try:
        with cache_errors():
            if executor is None:
                answers = fetch(chosen, settings, cache, on_progress)
            else:
                from sitemap_lint.live.distributed import fetch_on_cluster

                answers = fetch_on_cluster(
                    executor,
                    [(t.url, t.kind) for t in chosen],
                    client_settings(settings),
                    cache,
                    executor.workers_for_live(),
                )
    finally:
        if cache is not None:
            cache.close()
    enabled = selection.enabled() if selection is not None else None
    cuts = listed_first(results, budget_cuts(chosen, answers, settings.crawl_budget), spellings)
    as_listed = {
        listed: answers[requested]
        for listed, requested in spellings.items()
        if requested in answers
    }
    for index, result in enumerate(results):
        add_findings(result, as_listed, now, enabled, cuts.get(index, ()))
        finish(result, selection)
    stats.requested -= sum(answer.over_budget for answer in answers.values())
    _count(stats, (answers[t.url] for t in chosen if t.url in answers))  # the files' order
    stats.seconds = round(time.monotonic() - started, 3)
    return stats


def fetch(
    chosen: list[Target],
    settings: LiveSettings,
    cache: Cache | None,
    on_progress: Callable[[int, int, int], None] | None = None,
) -> dict[str, Answer]:
    """The answers by URL, requested in one event loop."""
    from sitemap_lint.live.client import Client

    total = len(chosen)
    done = errors = 0

    def answered(answer: Answer) -> None:
        nonlocal done, errors
        done += 1
        errors += answer.error is not None or (answer.status or 0) >= 400
        if on_progress is not None:
            on_progress(done, total, errors)

    async def run() -> dict[str, Answer]:
        async with Client(client_settings(settings), cache) as client:
            return await client.fetch_all(((t.url, t.kind) for t in chosen), answered)

    return asyncio.run(run())


def budget_cuts(
    chosen: Iterable[Target], answers: Mapping[str, Answer], budget: float
) -> list[BudgetCut]:
    """The hosts whose Crawl-delay the crawl ``budget`` cut short, in the order of their
    first URL not requested (``chosen``: the URLs in the order they were asked for)."""
    from sitemap_lint.live.pacing import fitting
    from sitemap_lint.live.robots import origin

    first: dict[str, Answer] = {}  # host -> its first answer over the budget
    left: Counter[str] = Counter()  # host -> its URLs not requested
    for target in chosen:
        answer = answers.get(target.url)
        if answer is not None and answer.over_budget:
            host = origin(target.url) or target.url
            first.setdefault(host, answer)
            left[host] += 1
    cuts = []
    for host, answer in first.items():
        requested = int(fitting(answer.crawl_delay, budget))
        total = requested + left[host]
        cuts.append(BudgetCut(host, answer.crawl_delay, budget, requested, total, answer.url))
    return cuts


def listed_first(
    results: Sequence[FileResult], cuts: list[BudgetCut], spellings: Mapping[str, str]
) -> dict[int, list[BudgetCut]]:
    """The cuts by the index of the file that lists their first URL not requested first
    (in the files' order, however written: ``spellings`` gives the URL requested for
    each as listed), so that each is reported once a run."""
    unplaced = {cut.url: cut for cut in cuts}
    placed: dict[int, list[BudgetCut]] = {}
    for index, result in enumerate(results):
        if not unplaced:
            break
        for target in result.targets or ():
            cut = unplaced.pop(spellings.get(target.url, target.url), None)
            if cut is not None:
                placed.setdefault(index, []).append(cut)
    return placed


def client_settings(settings: LiveSettings) -> ClientSettings:
    """The client's part of the run's live settings."""
    from sitemap_lint.live.client import ClientSettings

    return ClientSettings(
        concurrency=settings.concurrency,
        per_host=settings.per_host,
        timeout=settings.timeout,
        allow_private=settings.allow_private,
        named_hosts=settings.named_hosts,
        connect_to=settings.connect_to,
        pins=settings.pins,
        crawl_budget=settings.crawl_budget,
    )


def add_findings(
    result: FileResult,
    answers: dict[str, Answer],
    now: datetime,
    enabled: frozenset[str] | None = None,
    cuts: Sequence[BudgetCut] = (),
) -> None:
    """Hand the answers to ``result``'s targets to the ``answer`` checks, then its
    targets (and the crawl budget's ``cuts`` it is the first to list) to the ``audited``
    checks, that a run with the ``enabled`` rules needs."""
    from sitemap_lint.engine.dispatch import calls, once
    from sitemap_lint.rules.events import Answered, Audited
    from sitemap_lint.rules.registry import ANSWER, AUDITED

    targets = result.targets or []
    sink, pointer = result.open_sink(), result.target_pointer
    _unaudited_lines(sink, targets, answers)
    checks = calls(ANSWER, enabled)
    listed: frozenset[str] = frozenset()
    if any((answer := answers.get(t.url)) is not None and answer.chain for t in targets):
        from sitemap_lint.domain.identity import normal_url

        listed = frozenset(normal_url(t.url) for t in targets if t.kind == "page")
    stamped = deploy_stamped(targets, answers)
    for target in targets:
        answer = answers.get(target.url)
        if answer is not None:
            for check in checks:
                answered = Answered(target, answer, now, listed, pointer, stamped)
                check(answered, result.name, sink)
    once(AUDITED, Audited(targets, now, answers, pointer, cuts), result.name, sink, enabled)
    result.targets = None
    result.target_pointer = None


# Pages whose Last-Modified values follow each other at most this many seconds apart, at
# least this many of them, were written or uploaded together: a build, a deploy.
_DEPLOY_GAP = 60.0
_DEPLOY_PAGES = 3


def deploy_stamped(targets: Sequence[Target], answers: Mapping[str, Answer]) -> frozenset[str]:
    """The page URLs of ``targets`` whose modification time is their Last-Modified and
    is a deploy's: three or more of the pages' Last-Modified values in a run with at
    most a minute between one and the next (a static site's files, all written by its
    build or uploaded by its deploy, whatever changed in each)."""
    from sitemap_lint.live.page import LAST_MODIFIED

    dated: dict[str, datetime] = {}
    for target in targets:
        answer = answers.get(target.url)
        signals = answer.signals if target.kind == "page" and answer is not None else None
        if signals is not None and signals.modified_source == LAST_MODIFIED and signals.modified:
            dated[target.url] = signals.modified
    if len(dated) < _DEPLOY_PAGES:
        return frozenset()
    stamped: set[str] = set()
    run: list[str] = []
    last: datetime | None = None
    for url, moment in sorted(dated.items(), key=lambda item: (item[1], item[0])):
        if last is not None and (moment - last).total_seconds() > _DEPLOY_GAP:
            if len(run) >= _DEPLOY_PAGES:
                stamped.update(run)
            run = []
        run.append(url)
        last = moment
    if len(run) >= _DEPLOY_PAGES:
        stamped.update(run)
    return frozenset(stamped)


def _unaudited_lines(
    sink: FindingSink, targets: Sequence[Target], answers: Mapping[str, Answer]
) -> None:
    """The lines of the targets left unrequested (not sampled, past the crawl budget,
    refused by the static rules), where the live rules could not report: a directive
    naming them there is not judged (SU001)."""
    from sitemap_lint.rules.live import CODES

    idle_lines = sink.idle_lines
    for target in targets:
        answer = answers.get(target.url)
        if answer is None or answer.over_budget:
            idle_lines[target.line] = idle_lines.get(target.line, frozenset()) | CODES


def finish(result: FileResult, selection: Selection | None) -> None:
    """The file's sink (kept open for the audit) closed: its directives and the
    selection applied to the audit's findings."""
    levels = selection.for_file(result.name) if selection is not None else None
    result.findings = result.open_sink().close(levels)
    result.sink = None


def _count(stats: LiveStats, answers: Iterable[Answer]) -> None:
    statuses: Counter[str] = Counter()
    times: dict[str, list[float]] = {}
    for answer in answers:
        if answer.over_budget:  # not requested (LV016 tells)
            continue
        statuses[
            str(answer.status) if answer.error is None and answer.status else _kind(answer)
        ] += 1
        stats.requests += answer.sent
        stats.cached += answer.from_cache
        stats.errors += answer.error is not None
        if answer.chain or answer.loop:
            stats.redirected += 1
            if len(stats.chains) < CHAINS_SHOWN:
                stats.chains.append(answer.hops())
        if answer.error is None and answer.status is not None and not answer.fresh:
            times.setdefault(_host(answer.url), []).append(answer.elapsed)
    stats.statuses = dict(sorted(statuses.items()))
    medians = [(host, round(statistics.median(values), 3)) for host, values in times.items()]
    medians.sort(key=lambda item: (-item[1], item[0]))
    stats.slowest = medians[:SLOWEST_HOSTS]


def _kind(answer: Answer) -> str:
    if answer.robots_disallowed:
        return "robots"
    return answer.error or "none"


def _host(url: str) -> str:
    """The host and port of ``url``, without the user name and password before them."""
    try:
        return urlsplit(url).netloc.rpartition("@")[2].lower()
    except ValueError:
        return url
