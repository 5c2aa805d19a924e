"""A real HTTP server in a separate process, for the live audit's tests and bench.

It runs ``aiohttp.web`` on 127.0.0.1 (and 127.0.0.2, another loopback address on
Linux) in a child process; the parent reads its port from the child's first line and
talks to it over HTTP: routes set by the test, the request log, counters reset.

Usage::

    with LiveServer() as server:
        server.route("/a", body="<html><head></head></html>", headers=[("X-Robots-Tag", "noindex")])
        answer = asyncio.run(fetch(server.url("/a")))
        assert [entry.path for entry in server.log()] == ["/a"]

or as a fixture (``live_server``, one process per test module)::

    from tests.live_server import live_server  # noqa: F401

Built-in routes (a route set with ``route`` takes precedence):

- ``/status/{code}``: that status (a small text body);
- ``/redirect/{n}``: 302 to ``/redirect/{n-1}`` ... ``/redirect/0``, a 200 page;
  ``/loop/a`` and ``/loop/b`` redirect to each other;
- ``/slow?seconds=S``: the headers after S seconds; ``/drip?seconds=S``: the headers
  at once, the body one byte every S seconds; ``/endless``: a body that never ends;
- ``/retry/{status}/{n}?after=S``: ``status`` (429 or 503) with ``Retry-After: S``
  for the first ``n`` requests of that path and query, then 200 (``after=date``
  sends it as an HTTP-date S seconds ahead, ``after=none`` sends none);
- ``/bomb``: ``Content-Encoding: gzip`` expanding to 4 GiB of zeros (a few MB sent);
- ``/big-header``: a 1 MB header; ``/private-redirect``: 302 to http://10.0.0.1/;
  ``/loopback-redirect``: 302 to the same server at 127.0.0.2;
- ``/cached``: ETag ``"v1"`` and Last-Modified; 304 to a matching If-None-Match or
  an If-Modified-Since at or after it; with ``?max-age=S``, ``?expires=S`` or
  ``?cache-control=VALUE`` the caching headers they name (``/bench/{n}`` too);
- ``/image.png``, ``/video.mp4``: those media types; ``/pages/{name}``: the pages of
  ``PAGES`` (noindex, canonical, hreflang, dates); ``/bench/{n}``: a small page
  (ETag ``"b{n}"``, 304 to a matching If-None-Match; ``?kb=N``: N KB longer);
- ``/robots.txt``: ``Disallow: /private/`` (set another with ``route``).

Each request is logged (time, method, path with query, headers, and the requests in
flight for its Host at its arrival); ``max_in_flight`` gives the most seen per Host.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTROL = "/__control"
LAST_MODIFIED = "Wed, 01 Jan 2025 00:00:00 GMT"
HTML = "text/html; charset=utf-8"


def _page(head: str, body: str = "<p>text</p>") -> str:
    return f"<!doctype html><html><head>{head}</head><body>{body}</body></html>"


# name -> (headers, body) of the pages served at /pages/{name}
PAGES: dict[str, tuple[list[tuple[str, str]], str]] = {
    "plain": ([], _page("<title>plain</title>")),
    "noindex-header": ([("X-Robots-Tag", "noindex")], _page("<title>x</title>")),
    "meta-robots": ([], _page('<meta name="robots" content="noindex, follow">')),
    "meta-googlebot": ([], _page('<meta name="googlebot" content="noindex">')),
    "canonical-header": (
        [("Link", '<https://example.com/other>; rel="canonical"')],
        _page("<title>c</title>"),
    ),
    "canonical-element": ([], _page('<link rel="canonical" href="/pages/other">')),
    "hreflang": (
        [],
        _page(
            '<link rel="alternate" hreflang="de" href="/de/">'
            '<link rel="alternate" hreflang="en" href="/en/">'
        ),
    ),
    "last-modified": ([("Last-Modified", LAST_MODIFIED)], _page("<title>d</title>")),
    "json-ld": (
        [],
        _page(
            '<script type="application/ld+json">'
            '{"@type": "Article", "dateModified": "2025-03-01T10:00:00Z"}</script>'
        ),
    ),
    "article-time": (
        [],
        _page('<meta property="article:modified_time" content="2025-04-01T00:00:00+00:00">'),
    ),
}
BENCH_PAGE = _page(
    '<title>bench</title><link rel="canonical" href="/bench/0">'
    '<meta name="description" content="a page of the bench">' + " " * 600,
    "<p>" + "body text " * 200 + "</p>",
).encode()


@dataclass(frozen=True)
class Logged:
    """One request the server received."""

    time: float  # time.time() at its arrival
    method: str
    path: str  # with the query
    host: str  # its Host header
    headers: dict[str, str]
    in_flight: int  # requests in flight for its Host, itself included
    peer: int  # the client's port: one per connection


# ---------------------------------------------------------------- the child process


def _serve(hosts: Sequence[str]) -> None:
    from aiohttp import web

    routes: dict[str, dict[str, Any]] = {}
    log: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    in_flight: dict[str, int] = {}
    most: dict[str, int] = {}
    generation = [0]

    async def control(request: web.Request) -> web.StreamResponse:
        action = request.path[len(CONTROL) + 1 :]
        if action == "route":
            spec = await request.json()
            routes[f"{spec['host']} {spec['path']}" if spec.get("host") else spec["path"]] = spec
        elif action == "reset":
            routes.clear() if request.query.get("routes") else None
            log.clear()
            counts.clear()
            generation[0] += 1
            most.clear()
        elif action == "log":
            return web.json_response({"log": log, "most": most})
        return web.Response(text="ok")

    async def handle(request: web.Request) -> web.StreamResponse:
        if request.path.startswith(CONTROL):
            return await control(request)
        host = request.headers.get("Host", "")
        key = f"{generation[0]} {host}"  # requests left from before a reset are not counted
        in_flight[key] = in_flight.get(key, 0) + 1
        most[host] = max(most.get(host, 0), in_flight[key])
        log.append(
            {
                "time": time.time(),
                "method": request.method,
                "path": request.path_qs,
                "host": host,
                "headers": dict(request.headers),
                "in_flight": in_flight[key],
                "peer": _peer_port(request),
            }
        )
        counts[request.path_qs] = counts.get(request.path_qs, 0) + 1
        try:
            return await respond(request, counts[request.path_qs])
        finally:
            in_flight[key] -= 1

    async def respond(request: web.Request, count: int) -> web.StreamResponse:
        host = request.headers.get("Host", "")
        spec = (
            routes.get(f"{host} {request.path_qs}")
            or routes.get(f"{host} {request.path}")
            or routes.get(request.path_qs)
            or routes.get(request.path)
        )
        if spec is not None:
            return await _given(request, spec)
        built_in: web.StreamResponse = await _built_in(request, count, hosts)
        return built_in

    async def _given(request: web.Request, spec: dict[str, Any]) -> web.StreamResponse:
        if spec.get("delay"):
            await asyncio.sleep(float(spec["delay"]))
        if spec.get("parts"):
            return await _in_parts(request, spec)
        body = _encoded(spec, spec.get("body", ""))
        status = spec.get("head_status") if request.method == "HEAD" else None
        response = web.Response(
            status=int(status or spec.get("status", 200)),
            body=body,
            headers=[(name, value) for name, value in spec.get("headers", [])],
        )
        if spec.get("gzip"):
            response.headers["Content-Encoding"] = "gzip"
        if spec.get("content_type") and "Content-Type" not in response.headers:
            response.headers["Content-Type"] = spec["content_type"]
        return response

    app = web.Application(handler_args={"max_field_size": 65536})
    app.router.add_route("*", "/{tail:.*}", handle)
    runner = web.AppRunner(app, access_log=None)

    async def main() -> None:
        await runner.setup()
        first = web.TCPSite(runner, hosts[0], 0, backlog=1024)
        await first.start()
        port = first._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        for host in hosts[1:]:
            with contextlib.suppress(OSError):
                await web.TCPSite(runner, host, port, backlog=1024).start()
        print(f"READY {port}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until EOF
        await runner.cleanup()

    asyncio.run(main())


async def _built_in(request: Any, count: int, hosts: Sequence[str]) -> Any:
    from aiohttp import web

    parts = request.path.strip("/").split("/")
    head, rest = parts[0], parts[1:]
    port = request.transport.get_extra_info("sockname")[1] if request.transport else 0
    text = "text/plain"
    if head == "status" and rest and rest[0].isdigit():
        return web.Response(status=int(rest[0]), text=f"status {rest[0]}\n", content_type=text)
    if head == "redirect" and rest and rest[0].isdigit():
        left = int(rest[0])
        if left == 0:
            return web.Response(body=PAGES["plain"][1], content_type="text/html")
        return _redirect(f"/redirect/{left - 1}")
    if head == "loop" and rest:
        return _redirect("/loop/b" if rest[0] == "a" else "/loop/a")
    if head == "slow":
        await asyncio.sleep(float(request.query.get("seconds", "30")))
        return web.Response(body=PAGES["plain"][1], content_type="text/html")
    if head in ("drip", "endless"):
        return await _stream_forever(request, float(request.query.get("seconds", "0")))
    if head == "retry" and len(rest) == 2:
        return _retry(request, int(rest[0]), int(rest[1]), count)
    if head == "bomb":
        return await _bomb(request)
    if head == "big-header":
        return web.Response(text="x", headers={"X-Big": "a" * 1_048_576})
    if head == "private-redirect":
        return _redirect("http://10.0.0.1/")
    if head == "loopback-redirect":
        return _redirect(f"http://127.0.0.2:{port}/status/200")
    if head == "cached":
        return _cached(request)
    if head == "image.png":
        return web.Response(body=b"\x89PNG\r\n\x1a\n", content_type="image/png")
    if head == "video.mp4":
        return web.Response(body=b"\x00\x00\x00\x18ftypmp42", content_type="video/mp4")
    if head == "pages" and rest and rest[0] in PAGES:
        headers, body = PAGES[rest[0]]
        response = web.Response(body=body.encode(), headers=headers)
        response.headers["Content-Type"] = HTML
        return response
    if head == "bench":
        tag = f'"b{rest[0] if rest else 0}"'
        headers = {"ETag": tag, **_freshness(request)}
        if request.headers.get("If-None-Match") == tag:
            return web.Response(status=304, headers=headers)
        body = BENCH_PAGE
        if "kb" in request.query:  # a page of about that size: its body grows
            body += b"<!--" + b" " * (1024 * int(request.query["kb"])) + b"-->"
        return web.Response(body=body, headers={"Content-Type": HTML, **headers})
    if head == "robots.txt":
        return web.Response(text="User-agent: *\nDisallow: /private/\n", content_type=text)
    return web.Response(status=404, text="not found\n", content_type=text)


async def _in_parts(request: Any, spec: dict[str, Any]) -> Any:
    """A route's body sent as its parts, each written (and flushed) ``pause`` seconds
    after the one before."""
    from aiohttp import web

    headers = [(name, value) for name, value in spec.get("headers", [])]
    if spec.get("content_type"):
        headers.append(("Content-Type", spec["content_type"]))
    if spec.get("gzip"):
        headers.append(("Content-Encoding", "gzip"))
    response = web.StreamResponse(status=int(spec.get("status", 200)), headers=headers)
    await response.prepare(request)
    for number, part in enumerate(spec["parts"]):
        if number:
            await asyncio.sleep(float(spec.get("pause", 0)))
        await response.write(_encoded(spec, part))
        await response.drain()
    if spec.get("cut_off") and request.transport is not None:
        await asyncio.sleep(float(spec.get("pause", 0)))
        request.transport.close()  # the connection closed before the end of the body
        return response
    await response.write_eof()
    return response


def _encoded(spec: dict[str, Any], text: str) -> bytes:
    """A route's body or part as sent: UTF-8 (or the route's ``charset``), one gzip
    member with ``gzip``."""
    data = text.encode(spec.get("charset") or "utf-8")
    if spec.get("gzip"):
        import gzip

        data = gzip.compress(data)
    return data


def _peer_port(request: Any) -> int:
    peer = request.transport.get_extra_info("peername") if request.transport else None
    return int(peer[1]) if peer else 0


def _redirect(location: str) -> Any:
    from aiohttp import web

    return web.Response(status=302, headers={"Location": location})


def _retry(request: Any, status: int, first: int, count: int) -> Any:
    from aiohttp import web

    if count > first:
        return web.Response(body=PAGES["plain"][1], content_type="text/html")
    after = request.query.get("after", "1")
    headers = {}
    if after == "date" or after.startswith("date"):
        seconds = float(request.query.get("seconds", "2"))
        headers["Retry-After"] = formatdate(time.time() + seconds, usegmt=True)
    elif after != "none":
        headers["Retry-After"] = after
    return web.Response(status=status, text="later\n", headers=headers)


def _freshness(request: Any) -> dict[str, str]:
    """The caching headers the query asks for: ``max-age=S`` (Cache-Control, with a
    Last-Modified, as a site that caches its pages sends them), ``expires=S`` (an
    Expires S seconds ahead), ``cache-control=VALUE`` (as given)."""
    headers = {}
    if "max-age" in request.query:
        headers["Cache-Control"] = f"max-age={request.query['max-age']}"
        headers["Last-Modified"] = LAST_MODIFIED
    if "expires" in request.query:
        headers["Expires"] = formatdate(time.time() + float(request.query["expires"]), usegmt=True)
    if "cache-control" in request.query:
        headers["Cache-Control"] = request.query["cache-control"]
    return headers


def _cached(request: Any) -> Any:
    from aiohttp import web

    headers = {"ETag": '"v1"', "Last-Modified": LAST_MODIFIED, **_freshness(request)}
    if request.headers.get("If-None-Match") == '"v1"' or (
        request.headers.get("If-Modified-Since") == LAST_MODIFIED
    ):
        return web.Response(status=304, headers=headers)
    response = web.Response(body=PAGES["plain"][1].encode(), headers=headers)
    response.headers["Content-Type"] = HTML
    return response


async def _stream_forever(request: Any, seconds: float) -> Any:
    from aiohttp import web

    response = web.StreamResponse(headers={"Content-Type": HTML})
    await response.prepare(request)
    chunk = b"x" if seconds else b"<!-- endless -->" * 4096
    with contextlib.suppress(ConnectionError, RuntimeError):
        await response.write(b"<!doctype html><html><head>")
        while True:
            await response.write(chunk)
            await asyncio.sleep(seconds)
    return response


_ZEROS = bytes(1 << 20)


def _bomb_blocks() -> tuple[bytes, bytes]:
    """The start of a gzip stream of zeros and a block that adds 1 MiB more each time
    it is repeated (a full flush resets the compressor, so every block is the same)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    start = compressor.compress(_ZEROS) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(_ZEROS) + compressor.flush(zlib.Z_FULL_FLUSH)
    return start, block


async def _bomb(request: Any) -> Any:
    from aiohttp import web

    start, block = _bomb_blocks()
    response = web.StreamResponse(headers={"Content-Type": HTML, "Content-Encoding": "gzip"})
    await response.prepare(request)
    with contextlib.suppress(ConnectionError, RuntimeError):
        await response.write(start)
        for _ in range(4095):  # 4 GiB decoded
            await response.write(block)
    return response


# ---------------------------------------------------------------- the parent's side


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class LiveServer:
    """The server process: started at construction, stopped by ``close`` (or ``with``)."""

    def __init__(self, hosts: Sequence[str] = ("127.0.0.1", "127.0.0.2")) -> None:
        self.host = hosts[0]
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "tests.live_server", *hosts],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=environment,
            text=True,
        )
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line.startswith("READY "):
            self.close()
            raise RuntimeError(f"the live server did not start: {line!r}")
        self.port = int(line.split()[1])

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        process = self._process
        if process.poll() is None:
            with contextlib.suppress(OSError):
                assert process.stdin is not None
                process.stdin.close()  # the child ends at EOF
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stdout is not None:
            process.stdout.close()

    def url(self, path: str = "/", host: str | None = None) -> str:
        return f"http://{host or self.host}:{self.port}{path}"

    @property
    def origin(self) -> str:
        return f"{self.host}:{self.port}"

    def route(
        self,
        path: str,
        *,
        status: int = 200,
        body: str = "",
        headers: Sequence[tuple[str, str]] = (),
        content_type: str | None = HTML,
        delay: float = 0.0,
        parts: Sequence[str] = (),
        pause: float = 0.0,
        host: str | None = None,
        gzip: bool = False,
        charset: str = "utf-8",
        cut_off: bool = False,
        head_status: int | None = None,
    ) -> None:
        """Serve ``path`` (with its query, or any query) as given until ``reset``: the
        ``body``, or its ``parts`` written ``pause`` seconds apart; with ``host``, only
        to requests of that Host (``host:port``); with ``gzip``, with ``Content-Encoding:
        gzip``, the body one gzip member, each part its own; the body encoded in
        ``charset``; with ``cut_off``, the connection closed ``pause`` seconds after the
        last part; with ``head_status``, a HEAD is answered that status (the body given
        in one piece)."""
        spec = {
            "path": path,
            "status": status,
            "body": body,
            "headers": [list(pair) for pair in headers],
            "content_type": content_type,
            "delay": delay,
            "parts": list(parts),
            "pause": pause,
            "host": host,
            "gzip": gzip,
            "charset": charset,
            "cut_off": cut_off,
            "head_status": head_status,
        }
        self._control("route", json.dumps(spec).encode())

    def reset(self, routes: bool = True) -> None:
        """Clear the log, the counters and (unless told) the routes set."""
        self._control("reset?routes=1" if routes else "reset", b"")

    def log(self) -> list[Logged]:
        return [Logged(**entry) for entry in self._state()["log"]]

    def max_in_flight(self, host: str | None = None) -> int:
        """The most requests in flight at once for the Host ``host`` (this server's own
        host:port by default) since the last reset."""
        return int(self._state()["most"].get(host or self.origin, 0))

    def _state(self) -> dict[str, Any]:
        with _OPENER.open(self.url(f"{CONTROL}/log"), timeout=30) as response:
            state: dict[str, Any] = json.loads(response.read())
        return state

    def _control(self, action: str, data: bytes) -> None:
        request = urllib.request.Request(self.url(f"{CONTROL}/{action}"), data=data)
        with _OPENER.open(request, timeout=30) as response:
            response.read()


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    """One server process per test module; reset (log and routes) before each use is
    the test's to do (``live_server.reset()``)."""
    with LiveServer() as server:
        yield server


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="the live tests' HTTP server")
    parser.add_argument("hosts", nargs="*", default=["127.0.0.1"])
    _serve(parser.parse_args().hosts)
