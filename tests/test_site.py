"""A whole site over HTTP: robots.txt -> index -> plain, gzipped, text and feed sitemaps,
and every way a child can fail, served by a real server on 127.0.0.1."""

from __future__ import annotations

import gzip

import pytest

from tests.helpers import run_json
from tests.site_server import Route, SiteServer, loopback_only, redirect  # noqa: F401

pytestmark = pytest.mark.slow

URLSET = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'


def urlset(base: str, *pages: str) -> bytes:
    body = "".join(f"  <url><loc>{base}/{page}</loc></url>\n" for page in pages)
    return f"{URLSET}{body}</urlset>\n".encode()


def index(*urls: str) -> bytes:
    body = "".join(f"  <sitemap><loc>{url}</loc></sitemap>\n" for url in urls)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{body}</sitemapindex>\n"
    ).encode()


def huge_body():
    """A sitemap past the 50 MB limit, streamed: its start, then 56 MiB of blank lines."""
    yield URLSET.encode()
    chunk = b" " * 1023 + b"\n"
    for _ in range(56):
        yield chunk * 1024


def feed(base: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>\n'
        f"<title>News</title><link>{base}/</link><description>d</description>\n"
        f"<item><title>A</title><link>{base}/news/a</link>"
        "<pubDate>Sat, 01 Mar 2025 10:00:00 GMT</pubDate></item>\n"
        "</channel></rss>\n"
    ).encode()


# The index's children, in order: (path, the codes the child's own section gets).
CHILDREN = [
    ("/sitemap-pages.xml", ["RB007"]),  # lists a page robots.txt disallows
    ("/sitemap-posts.xml.gz", ["SE001"]),  # gzip body; repeats a URL of the pages
    ("/sitemap-links.txt", []),
    ("/feed.xml", ["FD001"]),  # a feed: fine for Google, noted for other engines
    ("/missing.xml", ["FE001"]),
    ("/broken.xml", ["FE002"]),
    ("/loop.xml", ["FE005"]),
    ("/slow.xml", ["FE004"]),
    ("/page.html", ["IN002"]),
    ("/huge.xml", ["LM002"]),
]


def serve_site(site: SiteServer) -> str:
    base = site.url("").rstrip("/")
    other = f"http://localhost:{site.port}"  # another host, same server: out of scope
    children = [base + path for path, _codes in CHILDREN]
    routes = site.routes
    routes["/robots.txt"] = Route(
        body=(
            f"User-agent: *\nDisallow: /private/\n\nSitemap: {base}/sitemap-index.xml\n"
        ).encode(),
        content_type="text/plain",
    )
    routes["/sitemap-index.xml"] = Route(
        body=index(*children, f"{base}/sitemap-index.xml", f"{other}/sitemap-other.xml")
    )
    routes["/sitemap-pages.xml"] = Route(body=urlset(base, "", "about", "private/draft"))
    routes["/sitemap-posts.xml.gz"] = Route(
        body=gzip.compress(urlset(base, "posts/1", "about"), mtime=0),
        content_type="application/x-gzip",
    )
    routes["/sitemap-links.txt"] = Route(
        body=f"{base}/links/1\n{base}/links/2\n".encode(), content_type="text/plain"
    )
    routes["/feed.xml"] = Route(body=feed(base), content_type="application/rss+xml")
    routes["/broken.xml"] = Route(status=500, body=b"oops", content_type="text/plain")
    routes["/loop.xml"] = redirect("/loop-2.xml")
    routes["/loop-2.xml"] = redirect("/loop.xml")
    routes["/slow.xml"] = Route(body=urlset(base, "slow"), delay=6)
    routes["/page.html"] = Route(
        body=b"<!DOCTYPE html><html><body>Hello</body></html>", content_type="text/html"
    )
    routes["/huge.xml"] = Route(body=huge_body)
    routes["/sitemap-other.xml"] = Route(body=urlset(other, "elsewhere"))
    return base


@pytest.fixture(scope="module")
def site():
    with SiteServer() as server:
        serve_site(server)
        yield server


def check(paths: list[str], **options) -> tuple[int, dict]:
    return run_json(paths, timeout=2.0, **options)


def test_robots_txt_of_a_site_gives_a_set_report(site: SiteServer, loopback_only) -> None:  # noqa: F811
    base = site.url("").rstrip("/")
    status, report = check([f"{base}/robots.txt"])
    files = {entry["path"]: entry for entry in report["files"]}
    expected_order = [
        f"{base}/robots.txt",
        f"{base}/sitemap-index.xml",
        *[base + path for path, _codes in CHILDREN],
        f"http://localhost:{site.port}/sitemap-other.xml",
    ]
    assert [entry["path"] for entry in report["files"]] == expected_order
    found = {path: [f["code"] for f in entry["findings"]] for path, entry in files.items()}
    assert found[f"{base}/robots.txt"] == []
    # The index: a cycle back to itself and a child on another host.
    index_lines = {f["code"]: f["line"] for f in files[f"{base}/sitemap-index.xml"]["findings"]}
    assert index_lines == {"SE002": 3 + len(CHILDREN), "SC001": 4 + len(CHILDREN)}
    for path, codes in CHILDREN:
        assert found[base + path] == codes, (path, files[base + path]["findings"])
    assert found[f"http://localhost:{site.port}/sitemap-other.xml"] == []
    assert files[f"{base}/sitemap-pages.xml"]["urls"] == 3
    assert report["summary"]["files"] == len(expected_order)
    assert status == 1
    # Nothing is fetched twice; the cycle is not followed again.
    assert site.paths.count("/sitemap-index.xml") == 1


def test_the_same_run_gives_the_same_report(site: SiteServer, loopback_only) -> None:  # noqa: F811
    base = site.url("").rstrip("/")
    first = check([f"{base}/sitemap-index.xml"])
    second = check([f"{base}/sitemap-index.xml"])
    assert first == second


def test_robots_option_informs_a_local_check(site: SiteServer, loopback_only, tmp_path) -> None:  # noqa: F811
    base = site.url("").rstrip("/")
    local = tmp_path / "sitemap.xml"
    local.write_bytes(urlset(base, "", "private/draft"))
    _status, report = check([str(local)], robots=(f"{base}/robots.txt",))
    codes = [(f["code"], f["line"]) for entry in report["files"] for f in entry["findings"]]
    assert codes == [("RB007", 4)]


def test_cross_submission_through_robots_txt(site: SiteServer, loopback_only) -> None:  # noqa: F811
    """A sitemap on 127.0.0.1 lists URLs of localhost: out of scope, unless localhost's
    robots.txt names that sitemap."""
    base = site.url("").rstrip("/")
    other = f"http://localhost:{site.port}"
    site.routes["/cross.xml"] = Route(body=urlset(other, "a", "b"))
    site.routes["/other-robots.txt"] = Route(
        body=f"User-agent: *\nAllow: /\nSitemap: {base}/cross.xml\n".encode(),
        content_type="text/plain",
    )
    _status, alone = check([f"{base}/cross.xml"])
    assert [f["code"] for f in alone["files"][0]["findings"]] == ["SC001", "SC001"]
    _status, informed = check([f"{base}/cross.xml"], robots=(f"{other}/other-robots.txt",))
    assert informed["files"][0]["findings"] == []


def test_byte_limit_stops_following(site: SiteServer, loopback_only) -> None:  # noqa: F811
    base = site.url("").rstrip("/")
    site.routes["/small-index.xml"] = Route(
        body=index(f"{base}/sitemap-pages.xml", f"{base}/sitemap-links.txt")
    )
    _status, report = check([f"{base}/small-index.xml"], max_bytes=100)
    assert [entry["path"] for entry in report["files"]] == [f"{base}/small-index.xml"]
    (finding,) = report["files"][0]["findings"]
    assert (finding["code"], finding["line"]) == ("SE005", 3)
    assert "--max-bytes" in finding["message"]


def test_the_byte_limit_holds_between_the_fetched_children_of_one_level(
    loopback_only,  # noqa: F811
) -> None:
    """As for local children: a fetched child is read only while the bytes read before
    it are under --max-bytes. Once the index and a.xml reach the limit, b.xml and c.xml
    are never requested, and SE005 says so at b.xml's entry."""
    with SiteServer() as server:
        base = server.url("").rstrip("/")
        body = index(*(f"{base}/{name}.xml" for name in "abc"))
        server.routes["/index.xml"] = Route(body=body)
        for name in "abc":
            server.routes[f"/{name}.xml"] = Route(body=urlset(base, name))
        _status, report = check([f"{base}/index.xml"], max_bytes=len(body) + 1)
        assert [entry["path"] for entry in report["files"]] == [
            f"{base}/index.xml",
            f"{base}/a.xml",
        ]
        (finding,) = report["files"][0]["findings"]
        assert (finding["code"], finding["line"]) == ("SE005", 4)
        assert "--max-bytes" in finding["message"]
        assert sorted(server.paths) == ["/a.xml", "/index.xml"]
        # With room for all three, all three are read.
        _status, report = check([f"{base}/index.xml"], max_bytes=10 * len(body))
        assert len(report["files"]) == 4
        assert all(not entry["findings"] for entry in report["files"])


def test_the_byte_limit_holds_for_the_children_a_nested_index_is_peeked_for(
    loopback_only,  # noqa: F811
) -> None:
    """The children of a nested index are fetched to see their root element: what they
    read counts against --max-bytes, and none is fetched once the bytes read (or the most
    the fetches under way may read) reach it."""
    with SiteServer() as server:
        base = server.url("").rstrip("/")
        nested = index(*(f"{base}/p{n}.xml" for n in range(5)))
        top = index(f"{base}/nested.xml")
        server.routes["/top.xml"] = Route(body=top)
        server.routes["/nested.xml"] = Route(body=nested)
        for n in range(5):
            server.routes[f"/p{n}.xml"] = Route(body=urlset(base, *(f"x{i}" for i in range(50))))
        check([f"{base}/top.xml"], max_bytes=len(top) + len(nested) + 10)
        peeked = [path for path in server.paths if path.startswith("/p")]
        assert len(peeked) == 1
        check([f"{base}/top.xml"])  # no limit: all five are peeked
        assert len([path for path in server.paths if path.startswith("/p")]) == 1 + 5


def test_quiet_site_run_prints_nothing_when_clean(site: SiteServer, loopback_only, capsys) -> None:  # noqa: F811
    from sitemap_lint.cli import main

    base = site.url("").rstrip("/")
    assert main(["-q", "--isolated", "--now", "2025-06-01", f"{base}/sitemap-links.txt"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["--isolated", "--now", "2025-06-01", f"{base}/sitemap-links.txt"]) == 0
    out = capsys.readouterr().out
    assert f"{base}/sitemap-links.txt  no problems found (2 URLs)" in out
    assert "1 file checked (2 URLs): no problems found" in out


def test_a_robots_txt_redirected_to_another_host_governs_that_host_too(
    site: SiteServer,
    loopback_only,  # noqa: F811
) -> None:
    """http://localhost:PORT/moved/robots.txt redirects to 127.0.0.1's robots.txt: its
    rules govern 127.0.0.1 too, so the page it disallows there is RB007."""
    base = site.url("").rstrip("/")
    moved = f"http://localhost:{site.port}/moved/robots.txt"
    site.routes["/moved/robots.txt"] = redirect(f"{base}/robots.txt", 301)
    # 127.0.0.1 is named by no input: its address is allowed, as a public one would be.
    _status, report = check([moved], allow_private_hosts=True)
    pages = next(e for e in report["files"] if e["path"] == f"{base}/sitemap-pages.xml")
    assert [(f["code"], f["line"]) for f in pages["findings"]] == [("RB007", 5)]


def test_a_robots_option_redirected_to_another_host_governs_the_first_host_too(
    site: SiteServer,
    loopback_only,  # noqa: F811
    tmp_path,
) -> None:
    """Crawlers apply the robots.txt a redirect leads to to the host they asked
    (RFC 9309, 2.3.1.2): --robots http://localhost:PORT/moved/robots.txt governs
    localhost's pages as well as 127.0.0.1's."""
    base = site.url("").rstrip("/")
    other = f"http://localhost:{site.port}"
    site.routes["/moved/robots.txt"] = redirect(f"{base}/robots.txt", 301)
    local = tmp_path / "sitemap.xml"
    local.write_bytes(urlset(other, "private/a"))
    _status, report = check(
        [str(local)], robots=(f"{other}/moved/robots.txt",), allow_private_hosts=True
    )
    codes = [(f["code"], f["line"]) for entry in report["files"] for f in entry["findings"]]
    assert codes == [("RB007", 3)]


@pytest.mark.parametrize(
    ("headers", "codes"),
    [
        ((), ["IN003"]),  # gzip data as the body: crawlers read it as text
        ((("Content-Encoding", "gzip"),), []),  # compressed in transit only
    ],
)
def test_a_fetched_robots_txt_of_gzip_data_is_reported(
    loopback_only,  # noqa: F811
    headers: tuple[tuple[str, str], ...],
    codes: list[str],
) -> None:
    with SiteServer() as server:
        text = f"User-agent: *\nDisallow:\nSitemap: {server.url('/s.xml')}\n".encode()
        server.routes["/robots.txt"] = Route(
            body=gzip.compress(text), content_type="text/plain", headers=headers
        )
        server.routes["/s.xml"] = Route(body=urlset(server.url("").rstrip("/"), "a"))
        _status, report = check([server.url("/robots.txt")])
    files = {entry["path"]: entry for entry in report["files"]}
    robots = files[server.url("/robots.txt")]
    assert [f["code"] for f in robots["findings"]] == codes
    assert server.url("/s.xml") in files  # its Sitemap line is read all the same


def test_a_listed_sitemap_that_redirects_back_is_one_cycle_on_the_listing_entry(
    loopback_only,  # noqa: F811
) -> None:
    """An index lists a URL that redirects to the index itself (an http:// spelling of an
    https:// index, an old path), and a child index lists one that redirects to the top:
    SE002 on each listing entry, naming where the redirect ends, and the index is not
    checked again as a file of its own (no SE003 for an index inside an index)."""
    with SiteServer() as server:
        base = server.url("").rstrip("/")
        server.routes["/index.xml"] = Route(
            body=index(f"{base}/pages.xml", f"{base}/old-index", f"{base}/child-index.xml")
        )
        server.routes["/old-index"] = redirect("/index.xml", 301)
        server.routes["/pages.xml"] = Route(body=urlset(base, "a"))
        server.routes["/child-index.xml"] = Route(body=index(f"{base}/to-top"))
        server.routes["/to-top"] = redirect(f"{base}/index.xml", 302)
        _status, report = check([f"{base}/index.xml"], follow=True, allow_private_hosts=True)
    files = {entry["path"]: entry for entry in report["files"]}
    assert sorted(files) == [f"{base}/child-index.xml", f"{base}/index.xml", f"{base}/pages.xml"]
    top = [(f["code"], f["line"], f["message"]) for f in files[f"{base}/index.xml"]["findings"]]
    assert [(code, line) for code, line, _message in top] == [("SE002", 4), ("SE003", 5)]
    assert f"redirects to {base}/index.xml, this file itself" in top[0][2]
    child = [(f["code"], f["line"]) for f in files[f"{base}/child-index.xml"]["findings"]]
    assert child == [("SE002", 3)]
    message = files[f"{base}/child-index.xml"]["findings"][0]["message"]
    assert f"redirects to {base}/index.xml, an index that lists this file" in message


def test_a_listed_sitemap_that_redirects_to_another_listed_one_is_se004_not_its_urls_again(
    loopback_only,  # noqa: F811
) -> None:
    """An index lists a sitemap and an old URL that redirects to it (first or last), and
    two old URLs that redirect to one sitemap it does not list: each file is checked once,
    and the entry of each redirecting URL listed after the first is SE004, naming where
    the redirect ends, in place of an SE001 for every URL of the file checked again."""
    with SiteServer() as server:
        base = server.url("").rstrip("/")
        server.routes["/index.xml"] = Route(
            body=index(
                f"{base}/old-pages",
                f"{base}/pages.xml",
                f"{base}/older",
                f"{base}/old",
                f"{base}/posts-old",
                f"{base}/posts-older",
            )
        )
        server.routes["/old-pages"] = redirect("/pages.xml", 301)
        server.routes["/pages.xml"] = Route(body=urlset(base, "a", "b"))
        server.routes["/older"] = redirect("/old", 302)
        server.routes["/old"] = redirect("/pages.xml", 301)
        server.routes["/posts-old"] = redirect("/posts.xml", 301)
        server.routes["/posts-older"] = redirect("/posts.xml", 302)
        server.routes["/posts.xml"] = Route(body=urlset(base, "c"))
        _status, report = check([f"{base}/index.xml"], follow=True, allow_private_hosts=True)
    files = {entry["path"]: entry for entry in report["files"]}
    assert list(files) == [f"{base}/index.xml", f"{base}/pages.xml", f"{base}/posts-old"]
    top = [(f["code"], f["line"], f["message"]) for f in files[f"{base}/index.xml"]["findings"]]
    assert [(code, line) for code, line, _message in top] == [
        ("SE004", 3),
        ("SE004", 5),
        ("SE004", 6),
        ("SE004", 8),
    ]
    listed = f"already listed in {base}/index.xml, line 4 and checked there"
    assert top[0][2] == (
        f"{base}/old-pages redirects to {base}/pages.xml, a sitemap {listed}; remove this entry"
    )
    assert f"{base}/older redirects to {base}/pages.xml, a sitemap {listed}" in top[1][2]
    assert f"{base}/old redirects to {base}/pages.xml, a sitemap {listed}" in top[2][2]
    assert top[3][2].startswith(
        f"{base}/posts-older redirects to {base}/posts.xml, a sitemap already listed in"
        f" {base}/index.xml, line 7"
    )
    assert [f["code"] for f in files[f"{base}/pages.xml"]["findings"]] == []
    assert [f["code"] for f in files[f"{base}/posts-old"]["findings"]] == ["FE013"]
