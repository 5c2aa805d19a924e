"""The live audit's requests against a local server process (tests/live_server.py).

    python bench/live.py                      # 20,000 URLs; the memory run with 100,000
    python bench/live.py --urls 5000 --memory 0

In one run, against the same server: a bare aiohttp client and a bare httpx client
(async, 64 and 16 connections, each reading every page whole), then ``Client.fetch_all``
(pages read up to the end of their head and their signals read; limits raised to 64
in all and per host), then a second ``fetch_all`` through a cache (conditional
requests answered 304) and a bare aiohttp client making the same conditional requests
(what one request a URL costs here, without the audit's work) and the same pages read
whole by it (what a 304 saves a bare client here), then the installed
command end to end (``sitemap-lint --live`` over a sitemap of ``--command`` URLs:
without a cache, then twice through one, then twice through another with pages that
send ``Cache-Control: max-age``). First,
side by side with @trybyte/sitemap-validator's live command when it is installed
(``--peer``, on PATH or under /tmp/trybyte; a line says so when it is not): both
commands over one sitemap of ``--peer-urls`` pages served by the server, wall time and
peak resident size.
The memory run is a child
process that streams ``--memory`` URLs through ``fetch_all(on_answer=...,
keep=False)`` and prints its peak resident size.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitemap_lint.live.client import Client, ClientSettings  # noqa: E402
from sitemap_lint.live.model import PAGE, Answer  # noqa: E402
from tests.live_server import LiveServer  # noqa: E402


def bench_urls(server: LiveServer, count: int, kb: int = 0) -> list[str]:
    """``count`` bench pages; ``kb``: each that many KB longer (0: about 3 KB)."""
    query = f"?kb={kb}" if kb else ""
    return [server.url(f"/bench/{index}{query}") for index in range(count)]


async def _pool(urls: list[str], connections: int, get: Callable[[str], Awaitable[None]]) -> None:
    queue = iter(urls)

    async def work() -> None:
        for url in queue:
            await get(url)

    await asyncio.gather(*(work() for _ in range(connections)))


async def bare_aiohttp(urls: list[str], connections: int) -> None:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=connections, limit_per_host=connections)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def get(url: str) -> None:
            async with session.get(url) as response:
                await response.read()

        await _pool(urls, connections, get)


async def bare_httpx(urls: list[str], connections: int) -> None:
    import httpx

    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(limits=limits, trust_env=False) as client:

        async def get(url: str) -> None:
            response = await client.get(url)
            response.read()

        await _pool(urls, connections, get)


async def bare_conditional(urls: list[str], connections: int) -> None:
    """A bare aiohttp client asking each bench page with its ETag: every answer a 304,
    the request a second run makes for each page, without the audit's work."""
    import aiohttp

    connector = aiohttp.TCPConnector(limit=connections, limit_per_host=connections)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def get(url: str) -> None:
            tag = url.rpartition("/bench/")[2].partition("?")[0]
            async with session.get(url, headers={"If-None-Match": f'"b{tag}"'}) as response:
                await response.read()

        await _pool(urls, connections, get)


def settings_for(server: LiveServer) -> ClientSettings:
    return ClientSettings(concurrency=64, per_host=64, named_hosts=(server.url(),))


async def client_run(server: LiveServer, urls: list[str], cache: object = None) -> int:
    counted = 0

    def count(answer: Answer) -> None:
        nonlocal counted
        if answer.status in (200, 304) and (answer.signals is not None or answer.from_cache):
            counted += 1

    async with Client(settings_for(server), cache=cache) as client:  # type: ignore[arg-type]
        await client.fetch_all(((url, PAGE) for url in urls), on_answer=count, keep=False)
    return counted


def timed(label: str, count: int, run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    rate = count / seconds
    print(f"{label:<44} {count:>7} URLs {seconds:8.2f} s {rate:>9,.0f} URLs/s", flush=True)
    return rate


def cache_rows(server: LiveServer, urls: list[str], fresh: bool = False) -> None:
    """The same URLs twice through one cache: pages that send only an ETag (the second
    run's requests conditional, answered 304), or with ``fresh`` pages that also send
    ``Cache-Control: max-age=3600`` and a Last-Modified (the second run requests none)."""
    from sitemap_lint.live.cache import Cache

    if fresh:
        urls = [f"{url}{'&' if '?' in url else '?'}max-age=3600" for url in urls]
    what = "max-age=3600" if fresh else "ETag only"
    again = "fresh, no requests" if fresh else "304s"
    with tempfile.TemporaryDirectory() as folder:
        cache = Cache(Path(folder) / "live.sqlite3")
        try:
            first = timed(
                f"Client.fetch_all, filling the cache ({what})",
                len(urls),
                lambda: asyncio.run(client_run(server, urls, cache)),
            )
            second = timed(
                f"Client.fetch_all, again ({again})",
                len(urls),
                lambda: asyncio.run(client_run(server, urls, cache)),
            )
            print(f"second run / first run: {second / first:.1f}x")
            if not fresh:
                best = timed(
                    "bare aiohttp, the same 304s (64 connections)",
                    len(urls),
                    lambda: asyncio.run(bare_conditional(urls, 64)),
                )
                print(f"bare aiohttp's 304s / first run: {best / first:.1f}x (one request a URL)")
                whole = timed(
                    "bare aiohttp, the same pages read whole (200s)",
                    len(urls),
                    lambda: asyncio.run(bare_aiohttp(urls, 64)),
                )
                print(
                    f"bare aiohttp's 304s / its 200s: {best / whole:.2f}x (what a 304 saves here)"
                )
        finally:
            cache.close()


def memory_child(port: int, count: int) -> None:
    """Stream ``count`` URLs through fetch_all without keeping them; print peak RSS."""
    answered = 0

    def count_one(answer: Answer) -> None:
        nonlocal answered
        answered += answer.status == 200

    async def run() -> None:
        base = f"http://127.0.0.1:{port}"
        settings = ClientSettings(concurrency=64, per_host=64, named_hosts=(base + "/",))
        targets = ((f"{base}/bench/{index}", PAGE) for index in range(count))
        async with Client(settings) as client:
            await client.fetch_all(targets, on_answer=count_one, keep=False)

    started = time.perf_counter()
    asyncio.run(run())
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{count} URLs streamed ({answered} answered 200) in {seconds:.1f} s, peak RSS {peak:.0f} MB"
    )


def write_sitemap(path: Path, count: int, query: str = "") -> Path:
    """A sitemap of ``count`` bench pages on http://example.com/ (``query`` after each)."""
    entries = "".join(
        f"  <url><loc>http://example.com/bench/{n}{query}</loc></url>\n" for n in range(count)
    )
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{entries}</urlset>\n",
        encoding="utf-8",
    )
    return path


def command_rows(server: LiveServer, count: int) -> None:
    """The installed command end to end: a sitemap of ``count`` URLs checked with
    ``--live`` (limits raised for the local host), without a cache, then twice through
    one (the second run's requests conditional), then twice through another with pages
    that send ``Cache-Control: max-age=3600`` (the second run requests none)."""
    with tempfile.TemporaryDirectory() as directory:
        sitemap = write_sitemap(Path(directory, "sitemap.xml"), count)
        fresh = write_sitemap(Path(directory, "fresh.xml"), count, "?max-age=3600")
        cache = str(Path(directory, "live.sqlite3"))
        other = str(Path(directory, "fresh.sqlite3"))
        base = [
            *("sitemap-lint", "--isolated", "--format", "json", "--live"),
            *("--live-concurrency", "64", "--live-per-host", "64"),
            *("--live-connect-to", f"example.com:80:{server.origin}"),
        ]
        for label, extra, path in (
            ("sitemap-lint check --live, no cache", ["--no-live-cache"], sitemap),
            ("sitemap-lint check --live, filling a cache", ["--live-cache", cache], sitemap),
            ("sitemap-lint check --live, again (304s)", ["--live-cache", cache], sitemap),
            ("sitemap-lint --live, filling (max-age=3600)", ["--live-cache", other], fresh),
            ("sitemap-lint --live, again (fresh)", ["--live-cache", other], fresh),
        ):
            args = [*base, *extra, str(path)]
            timed(label, count, lambda args=args: subprocess.run(args, capture_output=True))


PEER = "sitemap-validator-live"  # @trybyte/sitemap-validator's live command
PEER_PREFIX = Path("/tmp/trybyte")  # where `npm install --prefix` puts it
# Runs a command and prints its peak resident size (of it and its own children).
_PEAK = (
    "import resource, subprocess, sys; "
    "done = subprocess.run(sys.argv[1:], capture_output=True); "
    "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def find_peer(given: str | None) -> str | None:
    """The peer's live command: ``given``, on PATH, or under ``PEER_PREFIX``."""
    import shutil

    for candidate in (given, shutil.which(PEER), PEER_PREFIX / "node_modules/.bin" / PEER):
        if candidate is not None and Path(candidate).is_file():
            return str(candidate)
    return None


def timed_peak(label: str, count: int, args: list[str]) -> None:
    """``args`` run in a child that reports its peak resident size: URLs/s and MB."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _PEAK, *args], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    status, peak = done.stdout.split() if done.returncode == 0 else ("?", "0")
    print(
        f"{label:<44} {count:>7} URLs {seconds:8.2f} s {count / seconds:>9,.0f} URLs/s"
        f"  peak {int(peak) / 1024:.0f} MB  exit {status}",
        flush=True,
    )


def peer_rows(server: LiveServer, count: int, peer: str | None) -> None:
    """Side by side with the peer's live command: one sitemap of ``count`` pages served by
    the same server, its URLs on the server's own address (no --connect-to for the
    peer), both at 64 requests in flight, status, noindex and canonical checked, no
    cache; wall time and peak resident size of each process."""
    if peer is None:
        print(
            f"peer: {PEER} not found (on PATH, under {PEER_PREFIX} or --peer): no side-by-side rows"
        )
        return
    base = server.url("/")
    entries = "".join(f"<url><loc>{base}bench/{n}</loc></url>\n" for n in range(count))
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{entries}</urlset>\n'
    )
    server.route("/peer-sitemap.xml", body=body, content_type="application/xml")
    sitemap = server.url("/peer-sitemap.xml")
    ours = [
        *("sitemap-lint", "check", sitemap, "--isolated", "--format", "json", "--live"),
        *("--live-concurrency", "64", "--live-per-host", "64", "--no-live-cache"),
    ]
    theirs = [
        *(peer, sitemap, "--format", "json", "--quiet", "--allow-private-hosts"),
        *("--check-status", "--check-noindex", "--check-canonical"),
        *("--audit-concurrency", "64", "--max-audit-urls", str(count)),
    ]
    timed_peak("sitemap-lint check URL --live (64)", count, ours)
    timed_peak(f"{PEER} --check-status,noindex,canonical (64)", count, theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", type=int, default=20_000)
    parser.add_argument("--httpx-urls", type=int, default=3_000, help="httpx is slower")
    parser.add_argument("--memory", type=int, default=100_000, help="0: no memory run")
    parser.add_argument("--command", type=int, default=20_000, help="0: no command run")
    parser.add_argument("--peer-urls", type=int, default=20_000, help="0: no peer rows")
    parser.add_argument("--peer", help=f"the peer's {PEER} (found on PATH or under /tmp/trybyte)")
    parser.add_argument("--only-peer", action="store_true", help="the side-by-side rows only")
    parser.add_argument(
        "--cache-kb",
        type=int,
        nargs="*",
        default=[],
        help="also the cache rows over pages that many KB longer (e.g. 30 100)",
    )
    parser.add_argument("--memory-child", nargs=2, type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.memory_child:
        memory_child(*options.memory_child)
        return
    print(f"load average before: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    with LiveServer(("127.0.0.1",)) as server:
        if options.peer_urls:
            peer_rows(server, options.peer_urls, find_peer(options.peer))
        if options.only_peer:
            return
        urls = bench_urls(server, options.urls)
        few = urls[: options.httpx_urls]
        timed(
            "warm-up (bare aiohttp, 64)", 2000, lambda: asyncio.run(bare_aiohttp(urls[:2000], 64))
        )
        bare = timed(
            "bare aiohttp, 64 connections", len(urls), lambda: asyncio.run(bare_aiohttp(urls, 64))
        )
        timed(
            "bare aiohttp, 16 connections", len(urls), lambda: asyncio.run(bare_aiohttp(urls, 16))
        )
        timed("bare httpx, 64 connections", len(few), lambda: asyncio.run(bare_httpx(few, 64)))
        timed("bare httpx, 16 connections", len(few), lambda: asyncio.run(bare_httpx(few, 16)))
        ours = timed(
            "Client.fetch_all (heads read, signals)",
            len(urls),
            lambda: asyncio.run(client_run(server, urls)),
        )
        print(f"Client.fetch_all / bare aiohttp (64): {ours / bare:.2f}")
        cache_rows(server, urls)
        cache_rows(server, urls, fresh=True)
        for kb in options.cache_kb:
            print(f"pages {kb} KB longer:")
            cache_rows(server, bench_urls(server, options.urls, kb))
        if options.command:
            command_rows(server, options.command)
        if options.memory:
            command = [
                sys.executable,
                __file__,
                "--memory-child",
                str(server.port),
                str(options.memory),
            ]
            subprocess.run(command, check=True)
    print(f"load average after: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
