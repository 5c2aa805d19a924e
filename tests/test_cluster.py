"""A set run on a real Dask cluster (``--scheduler``): the report is byte-identical to the
local run's; faults end in one line and exit 2, never in a partial report.

The cluster is what users deploy: a ``dask scheduler`` and two ``dask worker`` processes,
started here in another working directory and stopped by their process ids.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest

from sitemap_lint.api import lint_paths
from sitemap_lint.cli import main
from sitemap_lint.errors import SitemapLintError
from tests.site_server import SiteServer

if TYPE_CHECKING:
    from tests.live_server import LiveServer, Logged

T = TypeVar("T")

XHTML = "http://www.w3.org/1999/xhtml"
SITEMAPS = 22
LANGUAGES = ("en", "de", "fr")
NOW = "2025-06-01"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Cluster:
    """A scheduler and ``workers`` worker processes on 127.0.0.1, each one process of ours."""

    def __init__(self, directory: Path, workers: int = 2) -> None:
        self.directory = directory
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        self.count = workers

    def start(self) -> Cluster:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.scheduler = self._spawn(
            "scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard"
        )
        for _n in range(self.count):
            self.spawn_worker()
        from distributed import Client

        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(self.count, timeout=120)
        return self

    def spawn_worker(self) -> int:
        """Start one more worker process, named ``w`` and its number here; not waited for."""
        number = len(self.workers)
        # No nanny: the process started here is the worker, so killing it kills the worker.
        self.workers.append(
            self._spawn(
                "worker",
                self.address,
                "--nthreads",
                "1",
                "--no-nanny",
                "--no-dashboard",
                "--name",
                f"w{number}",
            )
        )
        return number

    def _spawn(self, *args: str) -> subprocess.Popen[bytes]:
        module = (
            "distributed.cli.dask_scheduler"
            if args[0] == "scheduler"
            else "distributed.cli.dask_worker"
        )
        return subprocess.Popen(
            [sys.executable, "-m", module, *args[1:]],
            cwd=self.directory,  # not the run's: paths must reach the workers whole
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        # The workers first: one told to stop while its scheduler goes away too may wait
        # for that scheduler (20 s and more).
        for group in (self.workers, [self.scheduler] if self.scheduler else []):
            for process in group:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
            for process in group:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    running = Cluster(tmp_path_factory.mktemp("cluster-cwd"))
    try:
        yield running.start()
    finally:
        running.stop()


# -- the generated set -------------------------------------------------------------------


def write_site(directory: Path, base: str, urls: int = 40) -> None:
    """An index of 22 sitemaps (URLs repeated across files, hreflang clusters spread over
    files, one cluster with a missing return link, clusters without x-default), which also
    lists itself (a cycle), a nested index, a missing file, a broken file, one sitemap
    twice (DU001) and one again with a fragment (SE004), with lastmods older than the sitemaps' content; one URL in two files differs
    only by host case and default port, a hreflang target page in another file lists
    no alternates, and two files hold suppression directives (``DIRECTIVES``)."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = []
    for n in range(SITEMAPS):
        lastmod = "2024-01-01" if n % 4 == 0 else "2024-06-30"
        entries.append((f"sitemap-{n:02d}.xml", lastmod))
        (directory / f"sitemap-{n:02d}.xml").write_text(_sitemap(base, n, urls), encoding="utf-8")
    entries += [
        ("index.xml", None),
        ("sub-index.xml", None),
        ("missing.xml", None),
        ("broken.xml", None),
        ("sitemap-03.xml", None),
        ("sitemap-04.xml#part", None),
    ]
    (directory / "index.xml").write_text(_index(base, entries), encoding="utf-8")
    (directory / "sub-index.xml").write_text(_index(base, [("index.xml", None)]), encoding="utf-8")
    (directory / "broken.xml").write_text(
        '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/x</loc>\n</urlset>\n",
        encoding="utf-8",
    )
    (directory / "robots.txt").write_text(f"User-agent: *\nSitemap: {base}index.xml\n")


# Inline suppression over the findings across files: file 20's directive silences the
# URLs it lists with file 19 and with file 21; file 21's silences nothing, which is
# said once the set is done.
DIRECTIVES = {
    20: "<!-- sitemap-lint: disable-file SE001 -->\n",
    21: "<!-- sitemap-lint: disable-file UR008 -->\n",
}


def _sitemap(base: str, n: int, urls: int) -> str:
    body = []
    for i in range(urls):
        # The first three URLs of each file repeat the last three of the file before.
        page = f"p/{n - 1}-{urls - 3 + i}" if n and i < 3 else f"p/{n}-{i}"
        body.append(
            f"  <url><loc>https://example.com/{page}</loc>"
            f"<lastmod>2024-05-{i % 28 + 1:02d}</lastmod></url>\n"
        )
    if n < 9:  # hreflang: cluster k has its English page in file 3j, German in 3j+1, French in 3j+2
        language = LANGUAGES[n % 3]
        for k in range(n // 3 * 5, n // 3 * 5 + 5):
            codes = [*LANGUAGES, "x-default"] if k % 2 else list(LANGUAGES)
            links = "".join(
                f'<xhtml:link rel="alternate" hreflang="{code}" '
                f'href="https://example.com/{"en" if code == "x-default" else code}/c{k}"/>'
                for code in codes
                if not (k == 3 and language == "de" and code == "fr")  # no return link
            )
            body.append(f"  <url><loc>https://example.com/{language}/c{k}</loc>{links}</url>\n")
    if n == 10:  # the same URL as in file 11 once normalised (host case, default port)
        body.append("  <url><loc>https://EXAMPLE.com:443/same</loc></url>\n")
    if n == 11:
        body.append("  <url><loc>https://example.com/same</loc></url>\n")
    if n == 12:  # alternates pointing at a page of file 13 that lists none back
        links = "".join(
            f'<xhtml:link rel="alternate" hreflang="{code}" href="https://example.com/{code}/b"/>'
            for code in ("en", "de")
        )
        body.append(f"  <url><loc>https://example.com/en/b</loc>{links}</url>\n")
    if n == 13:
        body.append("  <url><loc>https://example.com/de/b</loc></url>\n")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + DIRECTIVES.get(n, "")
        + f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="{XHTML}">\n'
        f"{''.join(body)}</urlset>\n"
    )


def _index(base: str, entries: list[tuple[str, str | None]]) -> str:
    body = "".join(
        f"  <sitemap><loc>{base}{name}</loc>"
        + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "")
        + "</sitemap>\n"
        for name, lastmod in entries
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{body}</sitemapindex>\n"
    )


def lint(
    args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 900
) -> tuple[int, bytes, str]:
    """The command in its own process: exit status, stdout bytes, stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "sitemap_lint", "--format", "json", "--now", NOW, *args],
        cwd=cwd,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=timeout,  # 900 s by default: the machine may be shared and loaded
    )
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def mapped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], bytes]:
    """The set as local files read through --map, and its local report."""
    root = tmp_path_factory.mktemp("mapped")
    write_site(root / "site", "https://example.com/")
    args = ["--map", "https://example.com/=site", "site/index.xml"]
    status, out, err = lint(args, root)
    assert status == 1, err
    return root, args, out


# -- same findings -------------------------------------------------------------------------


def test_the_generated_set_has_every_cross_file_finding(
    mapped: tuple[Path, list[str], bytes],
) -> None:
    _root, _args, report = mapped
    text = report.decode()
    for code in ("SE001", "SE002", "SE003", "SE004", "SE006", "SE007", "HL"):
        assert f'"code": "{code}' in text, code
    # A sitemap the index lists twice is one finding (DU001), not SE004 too.
    assert text.count('"code": "SE004"') == 1
    assert "https://example.com/sitemap-04.xml#part is already listed in site/index.xml" in text
    assert text.count('"code": "SE001"') == 3 * (SITEMAPS - 3) + 1  # none in files 20, 21
    assert "disable-file UR008 suppresses nothing" in text  # file 21's
    assert "disable-file SE001 suppresses nothing" not in text
    # A duplicate across files written otherwise (host case, default port).
    assert "(both are https://example.com/same once normalised)" in text
    # A target page in another file that lists no alternates back.
    assert '"code": "HL006"' in text
    # A cycle through an index that was not followed (index -> sub-index -> index).
    assert "site/sub-index.xml -> " in text or "sub-index.xml -> site/index.xml" in text
    assert '"path": "site/sitemap-21.xml"' in text
    assert "site/sitemap-00.xml, line" in text  # a duplicate names the first file
    assert '"path": "site/broken.xml"' in text
    # Its hreflang clusters span files (en, de, fr in three files) and partitions.
    from sitemap_lint.sets.cluster import HREFLANG_PARTITIONS, _part

    spread = [
        {_part(f"https://example.com/{code}/c{k}", HREFLANG_PARTITIONS) for code in LANGUAGES}
        for k in range(15)
    ]
    assert sum(len(parts) > 1 for parts in spread) >= 10
    # Each finding across files names the entry's element (the cluster's the same, below).
    across = [
        (finding["code"], finding.get("xpath"))
        for file in json.loads(text)["files"]
        for finding in file["findings"]
        if finding["code"].startswith(("SE", "HL"))
    ]
    assert all(xpath is not None for _code, xpath in across), across
    assert ("SE002", "/sitemapindex/sitemap[23]/loc") in across
    assert any(code == "SE001" and xpath.endswith("]/loc") for code, xpath in across)


@pytest.mark.slow
def test_a_cluster_run_gives_the_local_report_byte_for_byte(
    cluster: Cluster, mapped: tuple[Path, list[str], bytes]
) -> None:
    root, args, local = mapped
    status, out, err = lint(["--scheduler", cluster.address, *args], root)
    assert (status, err) == (1, "")
    assert out == local


@pytest.mark.slow
def test_a_cluster_run_names_the_elements_of_prefixed_files_as_a_local_run(
    cluster: Cluster, tmp_path: Path
) -> None:
    """The joins' findings name the entry's element with each file's own prefixes, the
    entries' indexes coming from the workers' facts (``tests/test_xpath_joins.py``)."""
    from tests.test_xpath_joins import _site

    _site(tmp_path / "site")
    args = ["--map", "https://example.com/=site", "site/index.xml"]
    status, local, err = lint(args, tmp_path)
    assert (status, err) == (1, "")
    assert b'"xpath": "/s:urlset/s:url[' in local and b'"xpath": "/i:sitemapindex/' in local
    assert lint(["--scheduler", cluster.address, *args], tmp_path) == (1, local, "")


@pytest.mark.slow
@pytest.mark.parametrize("named", [[], ["--stdin-filename", "b.xml"]])
def test_standard_input_in_a_cluster_run_is_checked_as_locally(
    cluster: Cluster, tmp_path: Path, named: list[str]
) -> None:
    """The workers cannot read this process's standard input: its bytes go with the task
    (it was read there as an empty file, IN001), and its name."""
    head = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    (tmp_path / "a.xml").write_text(
        f"{head}  <url><loc>https://example.com/one</loc></url>\n</urlset>\n", encoding="utf-8"
    )
    piped = f"{head}  <url><loc>https://example.com/one</loc></url>\n</urlset>\n".encode()
    reports = []
    for extra in ([], ["--scheduler", cluster.address]):
        done = subprocess.run(
            [sys.executable, "-m", "sitemap_lint", "-f", "json", *extra, *named, "a.xml", "-"],
            cwd=tmp_path,
            input=piped,
            capture_output=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        reports.append(done.stdout)
    assert reports[0] == reports[1]
    assert b'"SE001"' in reports[0] and b"IN001" not in reports[0]
    assert (b'"path": "b.xml"' in reports[0]) is bool(named)


@pytest.mark.slow
def test_a_worker_without_the_run_s_plugin_stops_the_run_in_one_line(
    cluster: Cluster, tmp_path: Path
) -> None:
    """The client has a plugin the workers lack: its findings would be lost there."""
    from tests.test_engine import SITEMAP, installed

    site = installed(tmp_path, {"demo": "sitemap_lint_demo_plugin"})
    (tmp_path / "sitemap.xml").write_text(SITEMAP, encoding="utf-8")
    local = lint(["sitemap.xml"], tmp_path, env={"PYTHONPATH": str(site)})
    assert '"ZZ001"' in local[1].decode()  # the client's own run reports the plugin's rule
    args = ["--scheduler", cluster.address, "sitemap.xml"]
    status, out, err = lint(args, tmp_path, env={"PYTHONPATH": str(site)})
    assert (status, out) == (2, b"")
    assert err.count("\n") == 1 and "without ZZ001" in err, err
    assert "install the same sitemap-lint and plugins on every worker" in err


@pytest.mark.slow
def test_the_html_report_of_a_cluster_run_has_the_local_charts(
    cluster: Cluster, mapped: tuple[Path, list[str], bytes]
) -> None:
    root, args, _local = mapped
    html = ["--format", "html", *args]
    status, local, err = lint(html, root)
    assert status == 1, err
    status, remote, err = lint([*html, "--scheduler", cluster.address], root)
    assert status == 1, err
    assert b"label: 2024-05; count: " in local  # the lastmod months, from the files' counters
    # The same report but for the command line it shows for reproducing the run.
    shown = f" --scheduler {cluster.address}".encode()
    assert remote.replace(shown, b"") == local


@pytest.mark.slow
def test_over_http_the_workers_fetch_and_the_report_is_the_same(
    cluster: Cluster, tmp_path: Path
) -> None:
    with SiteServer() as site:
        write_site(tmp_path / "site", site.url("/"))
        (tmp_path / "site" / "missing.xml").unlink(missing_ok=True)
        site.mount("/", tmp_path / "site")
        args = [site.url("/robots.txt")]
        local_status, local, local_err = lint(args, tmp_path)
        fetched_locally = len(site.paths)
        status, out, err = lint(["--scheduler", cluster.address, *args], tmp_path)
        assert len(site.paths) == 2 * fetched_locally  # the workers fetched every file again
    assert (local_status, local_err) == (1, "")
    assert b'"code": "SE001"' in local and b"404" in local  # missing.xml: the fetch's finding
    assert (status, err) == (1, "")
    assert out == local


@pytest.mark.slow
def test_auto_takes_the_address_from_dask_configuration_and_the_api_takes_it_too(
    cluster: Cluster, mapped: tuple[Path, list[str], bytes]
) -> None:
    root, args, local = mapped
    status, out, _err = lint(
        ["--scheduler", "auto", *args], root, {"DASK_SCHEDULER_ADDRESS": cluster.address}
    )
    assert (status, out) == (1, local)
    site = root / "site"
    maps = {"https://example.com/": site}
    here = lint_paths([site / "index.xml"], now=NOW, follow=True, maps=maps, isolated=True)
    there = lint_paths(
        [site / "index.xml"],
        now=NOW,
        follow=True,
        maps=maps,
        isolated=True,
        scheduler=cluster.address,
    )
    assert there.findings == here.findings
    assert len(here.findings) > 60


# -- faults ----------------------------------------------------------------------------------


def test_an_unreachable_scheduler_is_one_line_after_the_connect_timeout(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text(_sitemap("https://example.com/", 1, 3), encoding="utf-8")
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    start = time.monotonic()
    status, out, err = lint(["--scheduler", address, "--timeout", "1", "a.xml"], tmp_path)
    assert time.monotonic() - start < 30
    assert (status, out) == (2, b"")
    assert err.count("\n") == 1 and address in err and "cannot reach the scheduler" in err


@contextmanager
def listener(reply: bytes | None) -> Iterator[str]:
    """The address of a TCP listener on 127.0.0.1 that is no Dask scheduler: it leaves
    connections unaccepted (``reply`` None), or accepts them and sends ``reply``."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        done = threading.Event()

        def serve(reply: bytes) -> None:
            server.settimeout(0.2)  # to see ``done``
            accepted = []
            while not done.is_set():
                with contextlib.suppress(TimeoutError):
                    connection, _peer = server.accept()
                    connection.sendall(reply)
                    accepted.append(connection)  # left open, silent
            for connection in accepted:
                connection.close()

        thread = threading.Thread(target=serve, args=(reply,)) if reply is not None else None
        if thread is not None:
            thread.start()
        try:
            yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
        finally:
            done.set()
            if thread is not None:
                thread.join()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (None, "cannot reach the scheduler in 2 s"),
        (b"HTTP/1.1 200 OK\r\n\r\nnot Dask" * 8, "does not answer as a Dask scheduler"),
    ],
)
def test_a_listener_that_is_no_scheduler_is_one_line_after_the_timeout(
    reply: bytes | None, said: str, tmp_path: Path
) -> None:
    """Connected but never answered (Dask's client would wait for ever), or answered
    with bytes that are not Dask's: one line, without a traceback."""
    (tmp_path / "a.xml").write_text(_sitemap("https://example.com/", 1, 3), encoding="utf-8")
    with listener(reply) as address:
        status, out, err = lint(
            ["--scheduler", address, "--timeout", "2", "a.xml"], tmp_path, timeout=120
        )
    assert (status, out) == (2, b"")
    assert err.count("\n") == 1 and address in err and said in err, err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["--scheduler", "nonsense"], {}),
        (["--scheduler", "auto"], {"DASK_SCHEDULER_ADDRESS": "nonsense"}),
    ],
)
def test_an_address_without_a_port_fails_at_once_in_one_line(
    args: list[str], env: dict[str, str], tmp_path: Path
) -> None:
    """Said before any connection is tried: neither the 30 s connect timeout nor the
    closing of a client (twice that) is waited for, and no traceback follows."""
    (tmp_path / "a.xml").write_text(_sitemap("https://example.com/", 1, 3), encoding="utf-8")
    start = time.monotonic()
    status, out, err = lint([*args, "--timeout", "30", "a.xml"], tmp_path, env, timeout=300)
    assert time.monotonic() - start < 30
    assert (status, out) == (2, b"")
    assert err.count("\n") == 1, err
    assert "--scheduler 'nonsense'" in err and "tcp://HOST:8786" in err and "port" in err


def test_auto_without_an_address_in_dask_configuration_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text(_sitemap("https://example.com/", 1, 3), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith("DASK_")}
    done = subprocess.run(
        [sys.executable, "-m", "sitemap_lint", "--scheduler", "auto", "a.xml"],
        cwd=tmp_path,
        capture_output=True,
        env={**env, "DASK_CONFIG": str(tmp_path / "no-dask-config")},
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().count("\n") == 1
    assert b"DASK_SCHEDULER_ADDRESS" in done.stderr


def test_without_the_dask_extra_the_run_names_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.xml").write_text(_sitemap("https://example.com/", 1, 3), encoding="utf-8")
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    with pytest.raises(SitemapLintError, match=r"pip install 'sitemap-lint\[dask\]'"):
        lint_paths([tmp_path / "a.xml"], scheduler="tcp://127.0.0.1:8786", isolated=True)
    assert main(["--scheduler", "tcp://127.0.0.1:8786", str(tmp_path / "a.xml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'sitemap-lint[dask]'" in err


@pytest.mark.parametrize(
    "address",
    [
        "tcp://",
        "tcp://a b:1",
        "a/b/c",
        "tcp://host:port",
        "nosuch://host:1",
        "tcp://127.0.0.1:99999",
        "tcp://127.0.0.1:0",
    ],
)
def test_a_malformed_address_is_a_usage_error(
    address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.xml").write_text(_sitemap("https://example.com/", 1, 3), encoding="utf-8")
    assert main(["--scheduler", address, str(tmp_path / "a.xml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--scheduler" in err and "tcp://HOST:8786" in err


class Unseeing(Cluster):
    """A cluster whose workers do not see ``hidden``: each runs in a mount namespace of
    its own with an empty file system mounted there (``unshare``, no privilege needed)."""

    def __init__(self, directory: Path, hidden: Path) -> None:
        super().__init__(directory, workers=1)
        self.hidden = hidden

    def _spawn(self, *args: str) -> subprocess.Popen[bytes]:
        if args[0] != "worker":
            return super()._spawn(*args)
        command = [sys.executable, "-m", "distributed.cli.dask_worker", *args[1:]]
        mount = 'mount -t tmpfs none "$0" && exec "$@"'
        unshare = ["unshare", "--user", "--map-root-user", "--mount"]
        return subprocess.Popen(
            [*unshare, "sh", "-c", mount, str(self.hidden), *command],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


@pytest.mark.slow
@pytest.mark.parametrize("top", ["site/index.xml", "top.xml"])
def test_files_the_workers_do_not_see_end_the_run_in_one_line(top: str, tmp_path: Path) -> None:
    """The run's files exist here but not on the workers: one line naming the file and
    the cause, not a report of 'missing' sitemaps (SE007) or a file 'not found'."""
    write_site(tmp_path / "site", "https://example.com/", urls=5)
    (tmp_path / "top.xml").write_text(
        _index("https://example.com/", [("sitemap-01.xml", None)]), encoding="utf-8"
    )
    running = Unseeing(tmp_path / "cwd", tmp_path / "site").start()
    try:
        args = ["--scheduler", running.address, "--map", "https://example.com/=site", top]
        status, out, err = lint(args, tmp_path)
    finally:
        running.stop()
    assert (status, out) == (2, b""), err
    assert err.count("\n") == 1, err
    read = "site/index.xml" if top.startswith("site") else "site/sitemap-01.xml"
    assert f"cannot read {tmp_path / read} (No such file or directory)" in err, err
    assert "which this machine reads" in err and "same absolute paths" in err


class Encrypted(Cluster):
    """A cluster that speaks TLS only (``tls://``), with a self-signed certificate
    (openssl's) for the scheduler, the worker and the client alike."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory, workers=1)
        self.address = f"tls://127.0.0.1:{self.port}"
        self.cert, self.key = directory / "cert.pem", directory / "key.pem"
        directory.mkdir(parents=True, exist_ok=True)
        request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        request += ["-keyout", str(self.key), "-out", str(self.cert), "-subj", "/CN=localhost"]
        subprocess.run(
            ["openssl", *request, "-addext", "subjectAltName=IP:127.0.0.1"],
            check=True,
            capture_output=True,
        )
        self.env = {
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(self.cert),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(self.cert),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(self.key),
        }

    def _spawn(self, *args: str) -> subprocess.Popen[bytes]:
        files = ["--tls-ca-file", str(self.cert), "--tls-cert", str(self.cert)]
        files += ["--tls-key", str(self.key)]
        if args[0] == "scheduler":
            return super()._spawn(*args, "--protocol", "tls", *files)
        return super()._spawn(*args, *files)

    def start(self) -> Cluster:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.scheduler = self._spawn(
            "scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard"
        )
        self.spawn_worker()
        from distributed import Client
        from distributed.security import Security

        security = Security(
            tls_ca_file=str(self.cert), tls_client_cert=str(self.cert), tls_client_key=str(self.key)
        )
        with Client(self.address, timeout=60, security=security) as client:
            client.wait_for_workers(1, timeout=120)
        return self


@pytest.mark.slow
def test_a_tls_scheduler_configured_as_dask_says_runs_the_set(tmp_path: Path) -> None:
    """Dask's TLS configuration is the client's and the probe's alike; without it the
    line says which settings are missing."""
    (tmp_path / "a.xml").write_text(_sitemap("https://example.com/", 1, 3), encoding="utf-8")
    local = lint(["a.xml"], tmp_path)
    running = Encrypted(tmp_path / "cwd").start()
    try:
        args = ["--scheduler", running.address, "--timeout", "20", "a.xml"]
        remote = lint(args, tmp_path, env=running.env)
        bare = {key: value for key, value in os.environ.items() if not key.startswith("DASK_")}
        done = subprocess.run(
            [sys.executable, "-m", "sitemap_lint", *args],
            cwd=tmp_path,
            capture_output=True,
            env={**bare, "DASK_CONFIG": str(tmp_path / "no-dask-config")},
            timeout=300,
        )
    finally:
        running.stop()
    assert remote == local
    assert (done.returncode, done.stdout) == (2, b"")
    err = done.stderr.decode()
    assert err.count("\n") == 1 and "DASK_DISTRIBUTED__COMM__TLS__CA_FILE" in err, err


class Without(Cluster):
    """A cluster whose scheduler or worker (``role``) cannot import sitemap-lint, as one
    where it is not installed."""

    def __init__(self, directory: Path, role: str) -> None:
        super().__init__(directory, workers=1)
        self.role = role

    def _spawn(self, *args: str) -> subprocess.Popen[bytes]:
        if args[0] != self.role:
            return super()._spawn(*args)
        start = (
            f"import sys; sys.modules['sitemap_lint'] = None; sys.argv[0] = 'dask-{args[0]}'; "
            f"from distributed.cli.dask_{args[0]} import main; main()"
        )
        return subprocess.Popen(
            [sys.executable, "-c", start, *args[1:]],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("role", "said"),
    [
        ("worker", "a worker cannot import sitemap-lint ("),
        ("scheduler", "the scheduler cannot import sitemap-lint ("),
    ],
)
def test_a_scheduler_or_worker_without_sitemap_lint_is_named_in_one_line(
    role: str, said: str, tmp_path: Path
) -> None:
    """Dask's scheduler reads each task too: without sitemap-lint it refused them all,
    said as 'Error during deserialization of the task graph. This frequently'."""
    (tmp_path / "a.xml").write_text(_sitemap("https://example.com/", 1, 3), encoding="utf-8")
    running = Without(tmp_path / "cwd", role).start()
    try:
        status, out, err = lint(["--scheduler", running.address, "a.xml"], tmp_path)
    finally:
        running.stop()
    assert (status, out) == (2, b"")
    assert err.count("\n") == 1 and said in err, err
    assert "install the same sitemap-lint on the scheduler" in err or role == "worker", err


def test_a_task_whose_file_the_run_opens_but_the_worker_cannot_is_refused(
    tmp_path: Path,
) -> None:
    """A file the run's own process cannot open either is read as locally: no refusal."""
    from datetime import UTC, datetime

    from sitemap_lint.sets.cluster import NotOnWorker, check_on_worker
    from sitemap_lint.sets.runner import FileTask
    from sitemap_lint.settings.options import Options

    path = tmp_path / "gone.xml"
    options = Options(now=datetime(2025, 6, 1, tzinfo=UTC), collect=True)
    task = FileTask("gone.xml", path, None, False, None, options, False, True)
    with pytest.raises(NotOnWorker, match=f"cannot read {path} \\(No such file"):
        check_on_worker(task, "libxml2", 5.0, seen=True)
    checked = check_on_worker(task, "libxml2", 5.0)  # unseen here too: the local finding
    assert [finding.code for finding in checked.result.findings] == ["SE007"]


def test_a_worker_with_other_rules_is_named_with_its_version_and_the_rules() -> None:
    """The same version with a plugin missing reads 'has sitemap-lint 0.1.0 without
    ZZ001', not 'has without ZZ001'."""
    from sitemap_lint.sets.cluster import _unlike_worker, rule_catalogue

    version, codes = rule_catalogue()

    class Answers:
        def __init__(self, their: tuple[str, tuple[str, ...]]) -> None:
            self.their = their

        def run(self, function: object) -> dict[str, tuple[str, tuple[str, ...]]]:
            return {"tcp://w:1": self.their}

    address = "tcp://s:8786"
    assert _unlike_worker(Answers((version, codes)), address) is None
    fewer = _unlike_worker(Answers((version, codes[1:])), address)
    assert fewer is not None and f"has sitemap-lint {version} without {codes[0]} (" in fewer
    other = _unlike_worker(Answers(("9.9", (*codes, "ZZ999"))), address)
    assert other is not None and "has sitemap-lint 9.9 with ZZ999 (" in other


def test_the_join_by_partition_finds_what_the_local_slices_find() -> None:
    """Any number of partitions, any grouping of files by worker: the same duplicates."""
    from random import Random

    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.sets.cluster import Checked, cut_files, join_partition, partitions
    from sitemap_lint.sets.facts import FileFacts
    from sitemap_lint.sets.runner import find_duplicates

    rng = Random(7)
    pool = [f"https://example.com/{n}" for n in range(3_000)]
    files = []
    for _ in range(9):
        facts = FileFacts(kind="urlset")
        for line, url in enumerate(rng.sample(pool, 700), start=2):
            facts.add_url(url, line, 3, index=line - 1)
        facts.compact()
        files.append(facts)
    local = find_duplicates(files)
    assert len(local) > 1_000
    checked = [Checked(FileResult(f"f{n}.xml", [], facts=facts)) for n, facts in enumerate(files)]
    for parts in (16, 64):
        workers = ([0, 3, 4, 8], [1, 2, 5, 6, 7])
        cuts = [cut_files([checked[i] for i in group], list(group), parts) for group in workers]
        joined = []
        for part in range(parts):
            joined += join_partition([cut[part] for cut in cuts], len(files))
        assert sorted(joined) == sorted(local)
    assert partitions(10_000_000) == 16
    assert partitions(64_000_001) == 32
    assert partitions(2_500_000_000) == 1_024


def _hreflang_set(seed: int) -> list[tuple[str, object]]:
    """Random files of hreflang records: clusters spread over files, links not returned,
    clusters that disagree, pages listed twice, defective entries, and target pages
    listed without alternates (found by hash in another file)."""
    from random import Random

    from sitemap_lint.model import EntryPointer
    from sitemap_lint.rules.hreflang import Alternates
    from sitemap_lint.sets.facts import FileFacts

    rng = Random(seed)
    languages = ["en", "de", "fr", "it", "x-default"][: 5 if seed % 3 else 4]  # x-default?
    files = [
        FileFacts(kind="urlset", pointer=EntryPointer(f"/s{n}:urlset/s{n}:url[", f"]/s{n}:loc"))
        for n in range(rng.randint(2, 7))
    ]
    line = {id(facts): 2 for facts in files}

    def place(facts: FileFacts, page: str, links: tuple[tuple[str, str], ...], kind: str) -> None:
        line[id(facts)] += 1
        index = line[id(facts)] - 2  # the entry's index: one entry a line
        facts.add_url(page, line[id(facts)], 3, index=index)
        if kind != "none":
            record = Alternates(page, line[id(facts)], 3, links, kind=kind, index=index)
            facts.alternates.append(record)

    for cluster in range(rng.randint(5, 40)):
        codes = rng.sample(languages, rng.randint(1, len(languages)))
        pages = {code: f"https://example.com/{code}/{cluster}" for code in codes}
        if "x-default" in pages and len(pages) > 1 and rng.random() < 0.5:
            # x-default names one of the pages: a page listed under two codes.
            pages["x-default"] = pages[next(code for code in codes if code != "x-default")]
        full = tuple(sorted((code, url) for code, url in pages.items()))
        for page in sorted(set(pages.values())):
            links = full
            roll = rng.random()
            others = [pair for pair in links if pair[1] != page]
            if roll < 0.15 and others:  # drops a link
                dropped = rng.choice(others)
                links = tuple(pair for pair in links if pair != dropped)
            elif roll < 0.25:  # adds one
                other = f"https://example.com/{rng.choice(languages)}/{rng.randrange(40)}"
                links = tuple(sorted({*links, ("zz", other)}))
            kind = "none" if roll > 0.95 else "defective" if roll > 0.9 else ""
            place(rng.choice(files), page, links if kind != "none" else (), kind)
            if rng.random() < 0.05:  # the page listed again, elsewhere
                place(rng.choice(files), page, links, "")
    for facts in files:
        facts.compact()
    return [(f"site/f{n}.xml", facts) for n, facts in enumerate(files)]


def test_the_hreflang_join_by_partition_finds_what_the_local_run_finds() -> None:
    """Any number of partitions, any grouping of files by worker: the same findings in the
    same order, with clusters that span files and partitions."""
    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.rules.sets import hreflang_findings
    from sitemap_lint.sets.cluster import (
        Checked,
        InProcess,
        _part,
        hreflang_by_partition,
        hreflang_partitions,
    )
    from sitemap_lint.sets.facts import FileFacts

    codes: set[str] = set()
    spanning = once = 0
    for seed in range(40):
        files: list[tuple[str, FileFacts]] = _hreflang_set(seed)  # type: ignore[assignment]
        local = hreflang_findings(files)
        codes |= {finding.code for _index, finding in local}
        once += any("none of the" in f.message and "clusters" in f.message for _i, f in local)
        names = [name for name, _facts in files]
        pointers = [facts.pointer for _name, facts in files]
        checked = [Checked(FileResult(name, [], facts=facts)) for name, facts in files]
        for parts in (1, 4, 16):
            half = len(files) // 2
            holders = {"a": list(range(0, half)), "b": list(range(half, len(files)))}
            if not holders["a"]:
                del holders["a"]
            found = hreflang_by_partition(InProcess(), holders, checked, names, parts, pointers)
            assert [(i, f.line, f.column, f.code, f.message, f.xpath) for i, f in found] == [
                (i, f.line, f.column, f.code, f.message, f.xpath) for i, f in local
            ], (seed, parts)
            # Each names its entry by the file's own prefixes: the record's, or its loc.
            for i, f in found:
                head = f"/s{i}:urlset/s{i}:url[{f.line - 2}]"
                assert f.xpath in (head, f"{head}/s{i}:loc"), (f.xpath, i)
        # Records whose cluster spans files and partitions (of 4).
        where = {r.page: n for n, (_name, facts) in enumerate(files) for r in facts.alternates}
        for _name, facts in files:
            for record in facts.alternates:
                hrefs = [href for _code, href in record.links if href in where]
                spanning += (
                    len({where[href] for href in hrefs}) > 1
                    and len({_part(href, 4) for href in hrefs}) > 1
                )
    assert {"HL006", "HL007", "HL008", "HL009"} <= codes, codes
    assert once, "no set where no cluster has x-default"
    assert spanning > 100
    assert hreflang_partitions(1_000) == 4
    assert hreflang_partitions(600_001) == 8


def test_worker_tasks_tune_the_collector_and_give_it_back() -> None:
    """Tasks of ours, nested or not, run with the command's collector thresholds; the
    worker's own come back when the last one ends."""
    import gc

    from sitemap_lint.engine.collector import THRESHOLDS
    from sitemap_lint.sets.cluster import on_worker

    seen: list[tuple[int, ...]] = []

    @on_worker
    def inner() -> None:
        seen.append(gc.get_threshold())

    @on_worker
    def outer() -> tuple[int, ...]:
        inner()
        return gc.get_threshold()

    before = gc.get_threshold()
    assert before != THRESHOLDS
    assert outer() == THRESHOLDS
    assert seen == [THRESHOLDS]
    assert gc.get_threshold() == before


def test_the_allocator_is_tuned_only_when_the_environment_fixed_its_thresholds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import platform

    from sitemap_lint.sets.cluster import _fixed_allocator

    for name in ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "GLIBC_TUNABLES"):
        monkeypatch.delenv(name, raising=False)
    assert _fixed_allocator() is None  # glibc's adaptive thresholds: left alone
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")  # as Dask's nanny starts workers
    fixed = _fixed_allocator()
    if sys.platform != "linux" or platform.libc_ver()[0] != "glibc":
        assert fixed is None
        return
    assert fixed is not None and fixed[1] == (128 * 1024, 65536)
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=262144")
    fixed = _fixed_allocator()
    assert fixed is not None and fixed[1] == (262144, 65536)
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "not a number")
    assert _fixed_allocator() is None


@pytest.mark.slow
def test_a_live_audit_on_the_cluster_gives_the_local_findings(
    cluster: Cluster, tmp_path: Path
) -> None:
    from tests.live_server import LiveServer

    with LiveServer() as server:
        paths = ["/status/404", "/redirect/2", "/pages/plain", "/status/503", "/loop/a"]
        locs = [f"http://example.com{path}" for path in paths]
        (tmp_path / "sitemap.xml").write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + "".join(f"  <url><loc>{loc}</loc></url>\n" for loc in locs)
            + "</urlset>\n",
            encoding="utf-8",
        )
        args = [
            "--isolated",
            "--live",
            "--no-live-cache",
            "--live-timeout",
            "5",
            "--live-connect-to",
            f"example.com:80:{server.origin}",
            "sitemap.xml",
        ]
        local = lint(args, tmp_path)
        remote = lint(["--scheduler", cluster.address, *args], tmp_path)

    def findings(out: bytes) -> list[object]:
        return [file["findings"] for file in json.loads(out)["files"]]

    assert local[0] == remote[0] == 1 and (local[2], remote[2]) == ("", "")
    assert findings(remote[1]) == findings(local[1])
    codes = {finding["code"] for finding in json.loads(local[1])["files"][0]["findings"]}
    assert codes >= {"LV001", "LV003", "LV005"}
    live = [f for f in json.loads(remote[1])["files"][0]["findings"] if f["code"][:2] == "LV"]
    assert live and all(f.get("xpath") == f"/urlset/url[{f['line'] - 2}]/loc" for f in live)


def _locally_and_on_the_cluster(
    cluster: Cluster,
    server: LiveServer,
    args: list[str],
    tmp_path: Path,
    asked: Callable[[list[Logged]], list[T]],
) -> tuple[tuple[int, bytes, str], tuple[int, bytes, str], list[T], list[T]]:
    """``args`` run locally, then on ``cluster``: the two runs and what ``asked`` reads
    of the server's log after each (the log emptied after each)."""
    runs = []
    seen = []
    for prefix in ([], ["--scheduler", cluster.address]):
        runs.append(lint([*prefix, *args], tmp_path))
        seen.append(sorted(asked(server.log())))
        server.reset(routes=False)
    return runs[0], runs[1], seen[0], seen[1]


@pytest.mark.slow
def test_a_crawl_budget_cuts_the_same_urls_on_the_cluster(cluster: Cluster, tmp_path: Path) -> None:
    from tests.live_server import LiveServer

    hosts = ("example.com", "other.example")
    with LiveServer() as server:
        robots = "User-agent: *\nCrawl-delay: 0.2\n"
        server.route("/robots.txt", body=robots, content_type="text/plain")
        (tmp_path / "sitemap.xml").write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + "".join(
                f"  <url><loc>http://{host}/status/200?{n}</loc></url>\n"
                for n in range(4)
                for host in hosts
            )
            + "</urlset>\n",
            encoding="utf-8",
        )
        args = ["--isolated", "--live", "--no-live-cache", "--live-crawl-budget", "0.3"]
        for host in hosts:
            args += ["--live-connect-to", f"{host}:80:{server.origin}"]
        args.append("sitemap.xml")
        local, remote, asked_locally, asked_remotely = _locally_and_on_the_cluster(
            cluster,
            server,
            args,
            tmp_path,
            lambda log: [(e.host, e.path) for e in log if e.path != "/robots.txt"],
        )

    assert (local[0], remote[0]) == (0, 0) and (local[2], remote[2]) == ("", "")
    assert json.loads(remote[1])["files"] == json.loads(local[1])["files"]
    # each host's first two URLs (0.2 s apart: 0.3 s holds one delay), on the cluster too
    assert (
        asked_remotely
        == asked_locally
        == [(host, f"/status/200?{n}") for host in hosts for n in range(2)]
    )
    findings = [
        f for f in json.loads(local[1])["files"][0]["findings"] if f["code"][:2] == "LV"
    ]  # (SC003: two hosts in one sitemap)
    assert [(f["code"], f["line"]) for f in findings] == [("LV016", 7), ("LV016", 8)]
    assert [f["message"].split(" ", 1)[0] for f in findings] == [f"http://{h}" for h in hosts]


@pytest.mark.slow
def test_a_site_s_redirects_to_another_port_or_scheme_stay_in_its_task(
    cluster: Cluster, tmp_path: Path
) -> None:
    """The URLs of one host on two ports (as http and https are) go to one task: the
    redirect from one to the other reaches a host and port the site's other URLs go to,
    whose robots.txt is asked once and whose per-host limit is counted once, as
    locally."""
    from tests.live_server import LiveServer

    with LiveServer() as server:
        server.route(
            "/moved", status=301, headers=[("Location", "http://example.com:8080/status/200?a")]
        )
        locs = ["http://example.com/moved", "http://example.com:8080/status/200?b"]
        (tmp_path / "sitemap.xml").write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + "".join(f"  <url><loc>{loc}</loc></url>\n" for loc in locs)
            + "</urlset>\n",
            encoding="utf-8",
        )
        args = ["--isolated", "--live", "--no-live-cache", "--live-timeout", "5"]
        for port in (80, 8080):
            args += ["--live-connect-to", f"example.com:{port}:{server.origin}"]
        args.append("sitemap.xml")
        local, remote, robots_locally, robots_remotely = _locally_and_on_the_cluster(
            cluster,
            server,
            args,
            tmp_path,
            lambda log: [e.host for e in log if e.path == "/robots.txt"],
        )

    assert (local[2], remote[2]) == ("", "")
    assert json.loads(remote[1])["files"] == json.loads(local[1])["files"]
    assert robots_remotely == robots_locally == ["example.com", "example.com:8080"]


@pytest.mark.slow
def test_the_live_audit_s_global_limit_holds_on_the_whole_cluster(
    cluster: Cluster, tmp_path: Path
) -> None:
    """--live-concurrency counts the requests in flight on the cluster, not per task:
    the tasks running at once on the two workers share it."""
    from tests.live_server import LiveServer

    hosts = ("a.example", "b.example", "c.example", "d.example")
    seconds = 1.0
    with LiveServer() as server:
        (tmp_path / "sitemap.xml").write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + "".join(
                f"  <url><loc>http://{host}/slow?seconds={seconds}&amp;n={n}</loc></url>\n"
                for n in range(2)
                for host in hosts
            )
            + "</urlset>\n",
            encoding="utf-8",
        )
        args = ["--isolated", "--live", "--no-live-cache", "--live-concurrency", "2"]
        for host in hosts:
            args += ["--live-connect-to", f"{host}:80:{server.origin}"]
        local = lint([*args, "sitemap.xml"], tmp_path)
        server.reset(routes=False)
        remote = lint(["--scheduler", cluster.address, *args, "sitemap.xml"], tmp_path)
        arrivals = sorted(e.time for e in server.log() if e.path.startswith("/slow"))
    assert remote == local and local[0] == 0, remote
    assert len(arrivals) == 2 * len(hosts)
    # Each request is in flight for ``seconds``: those that arrive closer together than
    # that were in flight at once.
    together = max(
        sum(1 for other in arrivals if first <= other < first + 0.8 * seconds) for first in arrivals
    )
    assert together <= 2, arrivals


@pytest.mark.slow
def test_the_run_s_tasks_send_their_lists_to_other_workers_whole(cluster: Cluster) -> None:
    """Dask sends a plain list from worker to worker item by item (100,000 tuples: about
    4 s, where their pickle takes 0.1 s); the run's tasks hand theirs on as one object,
    ``Held``, which the run unwraps, also in a task's list of other tasks' results."""
    from sitemap_lint.sets.cluster import Held, connect

    def tuples(count: int) -> list[tuple[int, int, str, int]]:  # sent by value (cloudpickle)
        return [(n, n * 7, f"https://example.com/p{n}", 3) for n in range(count)]

    def length(items: list[object]) -> int:
        return len(items)

    def lengths(lists: list[list[object]]) -> list[int]:
        return [len(items) for items in lists]

    executor = connect(cluster.address, 60, 5, "libxml2")
    try:
        client = executor.client
        first, second = sorted(client.scheduler_info()["workers"])[:2]
        held = executor.pick(tuples, 1_000, where=first)
        stored = client.gather(held)  # as the workers hold it and send it
        assert type(stored) is Held and type(stored.value) is list
        assert executor._result(held)[-1] == (999, 6_993, "https://example.com/p999", 3)
        assert executor._result(executor.pick(length, held, where=second)) == 1_000
        both = [held, executor.pick(tuples, 5, where=second)]
        assert executor._result(executor.pick(lengths, both, where=first)) == [1_000, 5]
    finally:
        executor.close()
