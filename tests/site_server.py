"""A real HTTP server on 127.0.0.1 for tests, and a fixture that keeps sockets on loopback.

Usage::

    with SiteServer() as site:
        site.routes["/sitemap.xml"] = Route(body=b"<urlset .../>")
        site.routes["/old.xml"] = redirect("/sitemap.xml")
        site.mount("/rules/", RULE_FIXTURES)       # files, and .http files replayed
        fetched = fetcher.get(site.url("/sitemap.xml"))
        assert site.paths == ["/sitemap.xml"]

A ``.http`` file is a raw response: a status line, headers, a blank line and the
body. The server sends it as written (adding Content-Length when the file has
none) and honours these headers, which it does not send:

- ``X-Test-Delay: 2`` waits 2 seconds between the headers and the body;
- ``X-Test-Compress: gzip`` (or ``deflate``) compresses the body as written in
  the file, so that the file stays readable.

A file whose first line is not an HTTP status line is sent byte for byte.
"""

from __future__ import annotations

import contextlib
import gzip
import socket
import socketserver
import threading
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.helpers import NetworkUsed

Body = bytes | Callable[[], Iterable[bytes]]

CONTENT_TYPES = {
    ".xml": "application/xml",
    ".gz": "application/gzip",
    ".txt": "text/plain",
    ".html": "text/html",
    ".json": "application/json",
}
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@dataclass
class Route:
    """One response. ``body`` is bytes (sent with a Content-Length) or a callable
    producing chunks (streamed until the connection closes). ``content_type``
    None sends no Content-Type; ``raw`` bytes are sent instead of a response."""

    status: int = 200
    body: Body = b""
    content_type: str | None = "application/xml"
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0  # seconds between the headers and the body
    location: str | None = None  # sent as Location (a redirect)
    reason: str | None = None
    raw: Body | None = None  # sent instead of a response; a callable's chunks one by one


def redirect(target: str, status: int = 301) -> Route:
    return Route(status=status, content_type=None, location=target)


@dataclass(frozen=True)
class Logged:
    method: str
    path: str  # as requested, with the query
    headers: dict[str, str] = field(default_factory=dict)


class SiteServer:
    """A threaded HTTP server on a free port of ``host`` (127.0.0.1; 127.0.0.2 too on
    Linux, where the whole of 127.0.0.0/8 is loopback), or on ``port``, run in a daemon
    thread."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.routes: dict[str, Route] = {}
        self.log: list[Logged] = []
        self.errors: list[BaseException] = []
        self._mounts: dict[str, Path] = {}
        self._stopping = threading.Event()
        self.host = host
        self._server = _Server((host, port), _Handler)
        self._server.site = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    def __enter__(self) -> SiteServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}:{self.port}{path}"

    @property
    def paths(self) -> list[str]:
        return [entry.path for entry in self.log]

    def mount(self, prefix: str, directory: Path) -> None:
        """Serve the files under ``directory`` at ``prefix`` (type by extension;
        ``.http`` files replayed as raw responses)."""
        self._mounts[prefix.rstrip("/") + "/"] = directory.resolve()

    def route_for(self, path: str) -> Route:
        if path in self.routes:
            return self.routes[path]
        for prefix, directory in self._mounts.items():
            if path.startswith(prefix):
                found = _file_route(directory, unquote(path[len(prefix) :]))
                if found is not None:
                    return found
        return Route(404, b"not found\n", "text/plain")

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def wait(self, seconds: float) -> None:
        """Sleep, but wake at once when the server closes."""
        self._stopping.wait(seconds)


def unused_url(path: str = "/") -> str:
    """An http URL on a loopback port nothing listens on (connections are refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}{path}"


def replayed(text: bytes) -> Route:
    """The Route that sends a raw ``.http`` response."""
    head, separator, body = text.partition(b"\n\n")
    if not separator:
        head, _, body = text.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").replace("\r\n", "\n").split("\n")
    status_line = lines[0].split(" ", 2)
    if (
        len(status_line) < 2
        or not status_line[0].startswith("HTTP/")
        or not status_line[1].isdigit()
    ):
        return Route(raw=text)
    headers: list[tuple[str, str]] = []
    delay = 0.0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name, value = name.strip(), value.strip()
        if name.lower() == "x-test-delay":
            delay = float(value)
        elif name.lower() == "x-test-compress":
            body = _compressed(body, value.lower())
        else:
            headers.append((name, value))
    reason = status_line[2] if len(status_line) > 2 else ""
    return Route(int(status_line[1]), body, None, tuple(headers), delay, reason=reason)


def _compressed(body: bytes, how: str) -> bytes:
    if how == "gzip":
        return gzip.compress(body, mtime=0)
    if how == "deflate":
        return zlib.compress(body)
    raise ValueError(f"X-Test-Compress: unknown method {how!r}")


def _file_route(directory: Path, relative: str) -> Route | None:
    path = (directory / relative).resolve()
    if not path.is_relative_to(directory) or not path.is_file():
        return None
    data = path.read_bytes()
    if path.suffix == ".http":
        return replayed(data)
    return Route(body=data, content_type=CONTENT_TYPES.get(path.suffix, "application/octet-stream"))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # Parallel fetches connect at once: a short backlog drops connections, and
    # the client's retry a second later looks like a connect timeout.
    request_queue_size = 128
    site: SiteServer

    def server_bind(self) -> None:  # without HTTPServer's host name lookup
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address) -> None:  # no traceback on stderr
        import sys

        self.site.errors.append(sys.exc_info()[1])


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # silent during tests
        pass

    def do_GET(self) -> None:
        self._answer("GET")

    def do_HEAD(self) -> None:
        self._answer("HEAD")

    def _answer(self, method: str) -> None:
        site = self.server.site
        site.log.append(Logged(method, self.path, dict(self.headers.items())))
        route = site.route_for(urlsplit(self.path).path)
        # The client may stop reading (a size cap, a timeout): that is expected.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._send(route, method, site)
        self.close_connection = True

    def _send(self, route: Route, method: str, site: SiteServer) -> None:
        if route.raw is not None:
            for chunk in [route.raw] if isinstance(route.raw, bytes) else route.raw():
                if site.stopping:
                    return
                self.wfile.write(chunk)
            return
        self.send_response(route.status, route.reason)
        names = {name.lower() for name, _ in route.headers}
        if route.content_type is not None:
            self.send_header("Content-Type", route.content_type)
        if route.location is not None:
            self.send_header("Location", route.location)
        for name, value in route.headers:
            self.send_header(name, value)
        if isinstance(route.body, bytes) and "content-length" not in names:
            self.send_header("Content-Length", str(len(route.body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        if route.delay:
            site.wait(route.delay)
        if method == "HEAD":
            return
        chunks = [route.body] if isinstance(route.body, bytes) else route.body()
        for chunk in chunks:
            if site.stopping:
                return
            self.wfile.write(chunk)


@pytest.fixture
def loopback_only(monkeypatch):
    """Sockets may connect to 127.0.0.1 (and localhost) only; anything else raises
    NetworkUsed. Proxy settings from the environment are cleared for the test."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)

    def check(address: object) -> None:
        host = address[0] if isinstance(address, tuple) and address else address
        if host not in LOOPBACK_HOSTS:
            raise NetworkUsed(f"network access outside 127.0.0.1 attempted: {address!r}")

    def guarded(original: Callable, method: bool = False) -> Callable:
        if method:

            def connect(self, address, *args, **kwargs):
                if self.family != socket.AF_UNIX:
                    check(address)
                return original(self, address, *args, **kwargs)

            return connect

        def call(address, *args, **kwargs):
            check(address if isinstance(address, tuple) else (address,))
            return original(address, *args, **kwargs)

        return call

    monkeypatch.setattr(socket.socket, "connect", guarded(socket.socket.connect, method=True))
    monkeypatch.setattr(socket.socket, "connect_ex", guarded(socket.socket.connect_ex, method=True))
    monkeypatch.setattr(socket, "create_connection", guarded(socket.create_connection))
    monkeypatch.setattr(socket, "getaddrinfo", guarded(socket.getaddrinfo))
