"""The live audit (``check --live``) end to end: the settings, the run, suppression,
sampling, the cache, the private-address guard and the reports, against a real local
HTTP server process (tests/live_server.py). The rules' own cases are the fixtures of
fixtures/rules/LV*/ (tests/test_expected.py)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sitemap_lint
from sitemap_lint.finding import Finding
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.run import RunSettings, execute
from tests.helpers import NOW, noting_rule, plugin_checks
from tests.live_server import LAST_MODIFIED, LiveServer, live_server  # noqa: F401

pytestmark = pytest.mark.slow

SITE = "http://example.com"
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def _urlset(*paths: str, comment: str = "") -> str:
    entries = "".join(f"  <url><loc>{SITE}{path}</loc></url>\n" for path in paths)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{comment}<urlset xmlns="{NS}">\n{entries}</urlset>\n'


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _live(server: LiveServer, **options: object) -> dict[str, object]:
    return {
        "now": NOW,
        "isolated": True,
        "live": True,
        "no_live_cache": True,
        "live_timeout": 10.0,
        "live_connect_to": [f"example.com:80:{server.origin}"],
        **options,
    }


def _codes(findings: tuple[Finding, ...] | list[Finding]) -> list[tuple[str, int, str]]:
    return [(f.code, f.line, f.message.split(" ", 2)[1]) for f in findings if f.code[:2] == "LV"]


def _live_findings_of_one_page(
    server: LiveServer, tmp_path: Path, path: str, lastmod: str
) -> list[Finding]:
    """The live findings of a sitemap listing ``path`` of the server (already routed)
    with ``lastmod``, on line 3."""
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n'
        f"  <url><loc>{SITE}{path}</loc><lastmod>{lastmod}</lastmod></url>\n</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    result = sitemap_lint.lint_paths([sitemap], **_live(server))  # type: ignore[arg-type]
    return [f for f in result.findings if f.code[:2] == "LV"]


def _requested(server: LiveServer) -> list[str]:
    return [entry.path for entry in server.log() if entry.path != "/robots.txt"]


def test_no_request_without_live(live_server: LiveServer, tmp_path: Path) -> None:  # noqa: F811
    live_server.reset()
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/status/404", "/pages/plain"))
    options = _live(live_server)
    del options["live"]
    result = sitemap_lint.lint_paths([sitemap], **options)  # type: ignore[arg-type]
    assert live_server.log() == []
    assert _codes(result.findings) == []


def test_findings_at_the_loc_and_one_request_per_url(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    paths = ("/status/404", "/pages/meta-robots", "/redirect/2", "/status/404", "/pages/plain")
    sitemap = _write(tmp_path, "sitemap.xml", _urlset(*paths))
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    assert _codes(result.findings) == [
        ("LV001", 3, f"{SITE}/status/404"),
        ("LV008", 4, f"{SITE}/pages/meta-robots"),
        ("LV005", 5, f"{SITE}/redirect/2"),
        ("LV001", 6, f"{SITE}/status/404"),
    ]
    assert result.exit_code == 1
    requested = _requested(live_server)
    assert requested.count("/status/404") == 1  # listed twice, requested once
    pages = ["/status/404", "/pages/meta-robots", "/pages/plain"]
    assert sorted(requested) == sorted([*pages, "/redirect/2", "/redirect/1", "/redirect/0"])


IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"


def _with_image(page: str, image: str) -> str:
    """An entry for ``page`` with the image ``image``, as a ``url`` element."""
    return (
        f"  <url><loc>{SITE}{page}</loc>"
        f"<image:image><image:loc>{SITE}{image}</image:loc></image:image></url>\n"
    )


@pytest.mark.parametrize("image_first", [True, False])
def test_a_url_listed_as_a_page_and_as_an_image_is_read_as_a_page(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    image_first: bool,
) -> None:
    live_server.reset()
    live_server.route(
        "/both", body="<html><head></head></html>", headers=[("X-Robots-Tag", "noindex")]
    )
    entries = [_with_image("/pages/plain", "/both"), f"  <url><loc>{SITE}/both</loc></url>\n"]
    if not image_first:
        entries.reverse()
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}" xmlns:image="{IMAGE_NS}">\n'
        f"{''.join(entries)}</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    image_line, page_line = (3, 4) if image_first else (4, 3)
    assert sorted(_codes(result.findings)) == [
        ("LV008", page_line, f"{SITE}/both"),  # the page's facts, whatever the order
        ("LV013", image_line, f"{SITE}/both"),  # served as text/html, not image/*
    ]
    asked = [(entry.method, entry.path) for entry in live_server.log() if entry.path == "/both"]
    assert asked == [("GET", "/both")]  # once, as a page


def test_a_host_written_with_its_default_port_has_one_robots_txt(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    live_server.route("/robots.txt", status=500, content_type="text/plain")
    text = _urlset("/pages/plain", "/status/200").replace(
        f"{SITE}/status/200", "http://Example.com:80/status/200"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    (finding,) = [f for f in result.findings if f.code.startswith("LV")]
    assert (finding.code, finding.line) == ("LV015", 3)
    assert finding.message.startswith(f"{SITE}/robots.txt answers 500")
    assert [entry.path for entry in live_server.log()].count("/robots.txt") == 1


def test_spellings_of_one_url_are_requested_once_in_normal_form(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """DU001's spellings of one URL (the host's case, a default port, an escape of an
    unreserved character, dot segments, a fragment) make one request, of the URL's
    normal form; each entry gets the answer's findings, naming the URL as written."""
    live_server.reset()
    live_server.route("/a~b", status=404, body="gone")
    spellings = [
        f"{SITE}/a~b",
        "http://Example.com:80/a%7Eb",
        "HTTP://example.com/x/../a%7eb",
        f"{SITE}/a~b#part",
    ]
    entries = "".join(f"  <url><loc>{url}</loc></url>\n" for url in reversed(spellings))
    text = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n{entries}</urlset>\n'
    sitemap = _write(tmp_path, "sitemap.xml", text)
    options = _live(live_server)
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    report = _json_report(sitemap, **options)
    findings = report["files"][0]["findings"]
    assert [(f["code"], f["line"]) for f in findings if f["code"] == "LV001"] == [
        ("LV001", line) for line in range(3, 7)
    ]
    for finding, url in zip(
        [f for f in findings if f["code"] == "LV001"], reversed(spellings), strict=True
    ):
        assert finding["message"].startswith(f"page {url} is not found (404)")
    assert _requested(live_server) == ["/a~b"]
    live = report["summary"]["live"]
    assert (live["listed"], live["requested"], live["requests"]) == (1, 1, 1)


def test_a_url_robots_txt_disallows_counts_as_requested_with_no_request_sent(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """As docs/live.md says: ``requested`` counts the URLs the audit asked about (the
    one robots.txt disallows answered ``robots``), ``requests`` what was sent."""
    live_server.reset()
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/pages/plain", "/private/page"))
    options = _live(live_server)
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    live = _json_report(sitemap, **options)["summary"]["live"]
    assert _requested(live_server) == ["/pages/plain"]
    assert (live["listed"], live["requested"], live["requests"]) == (2, 2, 1)
    assert live["statuses"] == {"200": 1, "robots": 1}


def test_a_set_keeps_its_files_suppressions_for_the_live_findings(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    for child in ("a.xml", "b.xml"):
        live_server.route(f"/{child}", body="<urlset/>", content_type="application/xml")
    index = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{NS}">\n'
        f"  <sitemap><loc>{SITE}/a.xml</loc></sitemap>\n"
        f"  <sitemap><loc>{SITE}/b.xml</loc></sitemap>\n</sitemapindex>\n"
    )
    root = _write(tmp_path, "index.xml", index)
    disabled = "<!-- sitemap-lint: disable-file LV001 -->\n"
    _write(tmp_path, "a.xml", _urlset("/status/404", comment=disabled))
    _write(tmp_path, "b.xml", _urlset("/status/404", "/status/410"))
    options = _live(live_server, follow=True, maps={f"{SITE}/": tmp_path})
    del options["now"]
    result = sitemap_lint.lint_paths([root], now=NOW, **options)  # type: ignore[arg-type]
    by_file = {Path(f.path).name: _codes(f.findings) for f in result.files}
    assert by_file["index.xml"] == []
    assert by_file["a.xml"] == []  # disable-file LV001
    assert by_file["b.xml"] == [
        ("LV001", 3, f"{SITE}/status/404"),
        ("LV001", 4, f"{SITE}/status/410"),
    ]
    assert _requested(live_server).count("/status/404") == 1


def test_a_directive_for_a_url_the_sample_left_out_is_not_unused(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Whether SU001 speaks must not depend on which URLs a sample requested: a directive
    for a URL not requested is not judged; one for a URL requested that answered well
    is still unused."""
    live_server.reset()
    next_line = "<!-- sitemap-lint: disable-next-line LV001 -->\n"
    entries = [
        f"{next_line}  <url><loc>{SITE}/status/404</loc></url>\n",
        f"{next_line}  <url><loc>{SITE}/status/200?n=0</loc></url>\n",
        *(f"  <url><loc>{SITE}/status/200?n={n}</loc></url>\n" for n in range(1, 30)),
    ]
    text = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n'
    sitemap = _write(tmp_path, "sitemap.xml", text + "".join(entries) + "</urlset>\n")

    def found(**options: object) -> list[tuple[str, int]]:
        result = sitemap_lint.lint_paths([sitemap], **_live(live_server, **options))  # type: ignore[arg-type]
        return [(f.code, f.line) for f in result.findings]

    assert found() == [("SU001", 5)]  # every URL requested: the 404 is suppressed
    left_out = 0
    for seed in range(4):
        live_server.reset()
        sampled = found(live_sample="2", live_seed=seed)
        requested = _requested(live_server)
        assert sampled == ([("SU001", 5)] if "/status/200?n=0" in requested else []), seed
        left_out += "/status/404" not in requested
    assert left_out  # the sample left the 404 out at least once


VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1"


def test_a_url_neither_http_nor_https_is_left_to_the_static_rules(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    # UR002 and VD005 judge the scheme (an ftp: video file is one Google fetches); the
    # audit requests none of them, says nothing of them, and --live-max counts the rest
    live_server.reset()
    video = (
        "<video:video><video:thumbnail_loc>http://example.com/image.png</video:thumbnail_loc>"
        "<video:title>t</video:title><video:description>d</video:description>"
        "<video:content_loc>ftp://example.com/v.mp4</video:content_loc></video:video>"
    )
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}" xmlns:image="{IMAGE_NS}"'
        f' xmlns:video="{VIDEO_NS}">\n'
        "  <url><loc>ftp://example.com/a</loc></url>\n"
        "  <url><loc>file:///etc/passwd</loc></url>\n"
        f"  <url><loc>{SITE}/status/404</loc><image:image><image:loc>gopher://example.com/i.png"
        f"</image:loc></image:image>{video}</url>\n"
        "</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    options = _live(live_server, live_max=2)
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    report = _json_report(sitemap, **options)
    findings = [(f["code"], f["line"]) for f in report["files"][0]["findings"]]
    assert [code for code in findings if code[0][:2] == "LV"] == [("LV001", 5)]
    assert ("UR002", 3) in findings and ("UR002", 4) in findings
    live = report["summary"]["live"]
    assert (live["listed"], live["requested"], live["statuses"]) == (6, 2, {"200": 1, "404": 1})
    assert sorted(_requested(live_server)) == ["/image.png", "/status/404"]


def test_a_url_the_static_rules_find_invalid_is_not_requested(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    # UR010 reports the host or port (one defect, one finding): no LV004 beside it, no
    # request, and --live-max counts only the URLs that can be requested
    live_server.reset()
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}" xmlns:image="{IMAGE_NS}">\n'
        "  <url><loc>http://[evil:host]/</loc></url>\n"
        "  <url><loc>http://example.com:99999/a</loc></url>\n"
        f"  <url><loc>{SITE}/status/404</loc><image:image><image:loc>http://example..com/i.png"
        "</image:loc></image:image></url>\n"
        "</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    options = _live(live_server, live_max=1)
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    report = _json_report(sitemap, **options)
    findings = [(f["code"], f["line"]) for f in report["files"][0]["findings"]]
    assert [code for code in findings if code[0][:2] == "LV"] == [("LV001", 5)]
    assert ("UR010", 3) in findings and ("UR010", 4) in findings and ("UR010", 5) in findings
    live = report["summary"]["live"]
    assert (live["listed"], live["requested"], live["statuses"]) == (4, 1, {"404": 1})
    assert _requested(live_server) == ["/status/404"]


def test_a_url_on_a_bad_port_is_not_requested_and_said_to_be_refused(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    # the Fetch standard's bad ports (SMTP, X11...): no request, listed or redirected
    # to, whatever the address (a public one too); one LV004 that names the port
    live_server.reset()
    live_server.route("/to-x11", status=302, headers=[("Location", "http://127.0.0.1:6000/x")])
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n'
        "  <url><loc>http://127.0.0.1:25/mail</loc></url>\n"
        f"  <url><loc>{SITE}/to-x11</loc></url>\n"
        "</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    listed, redirected = [f for f in result.findings if f.code.startswith("LV")]
    assert (listed.code, listed.line, redirected.code, redirected.line) == (
        "LV004",
        3,
        "LV004",
        4,
    )
    assert listed.message == (
        "page http://127.0.0.1:25/mail was not requested: port 25 (smtp) is one of the ports"
        " browsers send no request to (the Fetch standard's bad ports), lest it reach another"
        " protocol's server; serve it on a web port (80, 443) or remove the URL"
    )
    assert redirected.message.startswith(
        f"page {SITE}/to-x11 redirects to http://127.0.0.1:6000/x ({SITE}/to-x11 302 ->"
        " http://127.0.0.1:6000/x), which was not requested: port 6000 (x11) is one of"
    )
    assert _requested(live_server) == ["/to-x11"]


def test_a_bad_port_the_user_names_is_requested(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    sitemap = _write(
        tmp_path,
        "sitemap.xml",
        _urlset().replace(
            "</urlset>", "  <url><loc>http://example.com:6000/status/404</loc></url>\n</urlset>"
        ),
    )
    options = _live(live_server, live_connect_to=[f"example.com:6000:{live_server.origin}"])
    result = sitemap_lint.lint_paths([sitemap], **options)  # type: ignore[arg-type]
    assert [f.code for f in result.findings if f.code.startswith("LV")] == ["LV001"]
    assert _requested(live_server) == ["/status/404"]


def test_sample_is_deterministic_and_max_limits(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    paths = [f"/status/200?n={n}" for n in range(40)]
    sitemap = _write(tmp_path, "sitemap.xml", _urlset(*paths))

    def requested(**options: object) -> list[str]:
        live_server.reset()
        sitemap_lint.lint_paths([sitemap], **_live(live_server, **options))  # type: ignore[arg-type]
        return sorted(_requested(live_server))

    first = requested(live_sample="25%", live_seed=7)
    assert first == requested(live_sample="25%", live_seed=7)
    assert len(first) == 10  # a quarter of 40, whatever the seed
    assert first != requested(live_sample="25%", live_seed=8)
    assert len(requested(live_sample="5")) == 5
    limited = requested(live_max=3)
    assert limited == sorted(paths[:3])  # the first three in the file's order


@pytest.mark.parametrize(
    ("also", "says", "fixed"),
    [
        ((), "list the final URL", True),
        (("/redirect/0",), "which the sitemap lists already; remove this entry", False),
    ],
)
def test_a_redirect_to_a_url_the_sitemap_lists_is_told_to_go(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    also: tuple[str, ...],
    says: str,
    fixed: bool,
) -> None:
    live_server.reset()
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/redirect/1", *also))
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    (finding,) = [f for f in result.findings if f.code == "LV005"]
    assert finding.line == 3
    assert says in finding.message
    assert (finding.fix is not None) == fixed  # writing the final URL would list it twice


@pytest.mark.parametrize(
    ("location", "why"),
    [
        ("http://[evil:host]/x", "http://[evil:host]/x"),
        ("http://4294967297/x", "4294967297 - is not an IP address"),
        ("ftp://example.com/x", "ftp://example.com/x"),
    ],
)
def test_a_redirect_no_request_can_follow_is_said_to_be_the_redirect_s_fault(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    location: str,
    why: str,
) -> None:
    live_server.reset()
    live_server.route("/moved", status=302, headers=[("Location", location)])
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/moved"))
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    (finding,) = [f for f in result.findings if f.code.startswith("LV")]
    assert finding.code == "LV004"
    reason = finding.message.split(": ", 1)[1]
    if location.startswith("ftp"):
        assert reason.startswith("a redirect leads out of http and https (")
    else:
        assert reason.startswith("a redirect leads to a URL no request can be made for (")
    assert why in finding.message
    assert _requested(live_server) == ["/moved"]


def test_past_the_chains_listed_the_redirected_urls_are_counted(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Only the first 50 chains are listed; the summary counts every URL that
    redirected, and the HTML page says the chains are the first of that many."""
    live_server.reset()
    sitemap = _write(tmp_path, "s.xml", _urlset(*(f"/redirect/1?n={n}" for n in range(53))))
    options = _live(live_server)
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    live = _json_report(sitemap, **options)["summary"]["live"]
    assert (live["redirected"], len(live["chains"])) == (53, 50)
    out = io.StringIO()
    html = {**options, "format": "html", "now": NOW.date().isoformat()}
    execute(RunSettings(paths=[str(sitemap)], **html), out=out, err=io.StringIO())  # type: ignore[arg-type]
    assert (
        '<h3>Redirect chains <span class="muted">· the first 50 of 53</span></h3>' in out.getvalue()
    )


def test_the_slowest_hosts_are_named_without_user_and_password(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    urls = ("http://user:s3cret@example.com/pages/plain", f"{SITE}/status/404")
    entries = "".join(f"  <url><loc>{url}</loc></url>\n" for url in urls)
    sitemap = _write(tmp_path, "s.xml", f'<urlset xmlns="{NS}">\n{entries}</urlset>\n')
    options = _live(live_server, format="html", now=NOW.date().isoformat())
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    out = io.StringIO()
    execute(RunSettings(paths=[str(sitemap)], **options), out=out, err=io.StringIO())  # type: ignore[arg-type]
    hosts = out.getvalue().split('<table class="live-hosts">', 1)[1].split("</table>", 1)[0]
    assert re.findall(r"<tr><td>([^<]*)</td>", hosts) == ["example.com"]


@pytest.mark.parametrize(
    ("path", "hops"),
    [("/loop/a", ["/loop/a 302", "/loop/b 302", "/loop/a"]), ("/self", ["/self 301", "/self"])],
)
def test_a_redirect_loop_is_shown_closing_and_not_told_to_list_its_end(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    path: str,
    hops: list[str],
) -> None:
    live_server.reset()
    live_server.route("/self", status=301, headers=[("Location", "/self")])
    sitemap = _write(tmp_path, "sitemap.xml", _urlset(path))
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    (finding,) = [f for f in result.findings if f.code.startswith("LV")]
    chain = " -> ".join(f"{SITE}{hop}" for hop in hops)
    assert (finding.code, finding.message) == (
        "LV006",
        f"page {SITE}{path}: its redirects loop ({chain}); fix the redirects and list the"
        " page's real URL, or remove the URL",
    )


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_without_a_location_is_a_broken_answer(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    status: int,
) -> None:
    live_server.reset()
    sitemap = _write(tmp_path, "sitemap.xml", _urlset(f"/status/{status}"))
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    (finding,) = [f for f in result.findings if f.code.startswith("LV")]
    assert finding.code == "LV004"
    assert f"a {status} redirect without a Location header" in finding.message


@pytest.mark.parametrize(
    ("listed", "percent", "count", "expected"),
    [
        (100, 10.0, None, 10),
        (10, 10.0, None, 1),
        (10, 1.0, None, 1),  # at least one of a list that has any
        (10, 0.0, None, 0),
        (7, 50.0, None, 4),  # 3.5 rounds up
        (100, 10.0, 3, 3),
        (100, None, 200, 100),
        (0, 10.0, None, 0),
    ],
)
def test_a_sample_takes_its_share_of_the_urls_for_every_seed(
    listed: int, percent: float | None, count: int | None, expected: int
) -> None:
    from sitemap_lint.live.model import Target
    from sitemap_lint.live.targets import sample

    targets = [Target(f"https://example.com/{n}", "page", n + 3, 5) for n in range(listed)]
    for seed in range(6):
        chosen = sample(targets, count, percent, seed, None)
        assert len(chosen) == expected
        assert chosen == [target for target in targets if target in chosen]  # file order
        assert chosen == sample(targets, count, percent, seed, None)


def test_the_cache_makes_the_second_run_conditional(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/cached", "/pages/noindex-header"))
    cache = tmp_path / "cache" / "live.sqlite3"
    options = _live(live_server, live_cache=str(cache))
    del options["no_live_cache"]
    live_server.reset()
    first = sitemap_lint.lint_paths([sitemap], **options)  # type: ignore[arg-type]
    assert [e.headers.get("If-None-Match") for e in live_server.log() if e.path == "/cached"] == [
        None
    ]
    live_server.reset()
    second = sitemap_lint.lint_paths([sitemap], **options)  # type: ignore[arg-type]
    conditional = [e.headers.get("If-None-Match") for e in live_server.log() if e.path == "/cached"]
    assert conditional == ['"v1"']
    assert (
        _codes(second.findings)
        == _codes(first.findings)
        == [("LV008", 4, f"{SITE}/pages/noindex-header")]
    )


def test_a_fresh_cached_answer_is_not_requested_again(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    fresh, stale = "/cached?max-age=3600", "/pages/noindex-header"
    sitemap = _write(tmp_path, "sitemap.xml", _urlset(fresh, stale))
    cache = str(tmp_path / "live.sqlite3")
    options = _live(live_server, live_cache=cache, format="json", now=NOW.date().isoformat())
    del options["no_live_cache"]
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    reports = []
    for _ in range(2):
        live_server.reset()
        out = io.StringIO()
        execute(RunSettings(paths=[str(sitemap)], **options), out=out, err=io.StringIO())
        reports.append(json.loads(out.getvalue()))
    assert _requested(live_server) == [stale]  # the second run: the stale one only
    first, second = (report["files"][0]["findings"] for report in reports)
    assert first == second and [f["code"] for f in first] == ["LV008"]
    assert [r["summary"]["live"]["requests"] for r in reports] == [2, 1]
    assert [r["summary"]["live"]["cached"] for r in reports] == [0, 1]


def _fresh_noindex(server: LiveServer) -> None:
    server.reset()
    headers = [("Cache-Control", "max-age=3600"), ("X-Robots-Tag", "noindex")]
    server.route("/fresh", body="<html><head></head></html>", headers=headers)


def _cached_run(sitemap: Path, cache: Path, **options: object) -> list[str]:
    result = sitemap_lint.lint_paths(
        [sitemap], now=NOW, isolated=True, live=True, live_cache=str(cache), **options
    )  # type: ignore[arg-type]
    return [f.code for f in result.findings if f.code[:2] == "LV"]


def test_a_stored_answer_is_not_given_for_a_host_the_run_refuses(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    _fresh_noindex(live_server)
    sitemap = _write(tmp_path, "s.xml", _urlset().replace("</urlset>", ""))
    entry = f"<url><loc>{live_server.url('/fresh')}</loc></url></urlset>\n"
    sitemap.write_text(sitemap.read_text() + entry)
    cache = tmp_path / "live.sqlite3"
    assert _cached_run(sitemap, cache, allow_private_hosts=True) == ["LV008"]
    assert _cached_run(sitemap, cache) == ["LV014"]


def test_a_stored_answer_stands_only_for_the_same_connect_to_target(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    _fresh_noindex(live_server)
    sitemap = _write(tmp_path, "s.xml", _urlset("/fresh"))
    cache = tmp_path / "live.sqlite3"
    staging = [f"example.com:80:{live_server.origin}"]
    other = [f"example.com:80:127.0.0.2:{live_server.port}"]
    for connect_to in (staging, staging, other):
        assert _cached_run(sitemap, cache, live_connect_to=connect_to) == ["LV008"]
    asked = [(e.host, e.path) for e in live_server.log() if e.path != "/robots.txt"]
    assert asked == [("example.com", "/fresh")] * 2  # the first run's and the third's


@pytest.mark.parametrize("path", ["/cached?max-age=3600", "/cached"])  # fresh; asked again
def test_a_stored_head_answer_does_not_stand_for_a_page(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    path: str,
) -> None:
    header = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}" xmlns:image="{IMAGE_NS}">\n'
    )
    as_image = _write(
        tmp_path, "image.xml", f"{header}{_with_image('/pages/plain', path)}</urlset>\n"
    )
    entry = f"  <url><loc>{SITE}{path}</loc><lastmod>2024-01-01</lastmod></url>\n"
    as_page = _write(tmp_path, "page.xml", f"{header}{entry}</urlset>\n")
    options = _live(live_server, live_cache=str(tmp_path / "live.sqlite3"))
    del options["no_live_cache"]

    def run(sitemap: Path, **changes: object) -> list[str]:
        live_server.reset()
        result = sitemap_lint.lint_paths([sitemap], **{**options, **changes})  # type: ignore[arg-type]
        return [f.code for f in result.findings if f.code[:2] == "LV"]

    def asked() -> list[tuple[str, str | None, str | None]]:
        return [
            (e.method, e.headers.get("If-None-Match"), e.headers.get("If-Modified-Since"))
            for e in live_server.log()
            if e.path == path
        ]

    assert run(as_image) == ["LV013"]  # text/html, not an image
    assert asked() == [("HEAD", None, None)]
    uncached = run(as_page, no_live_cache=True)
    assert uncached == ["LV010"]  # the page's Last-Modified: 2025-01-01
    assert run(as_page) == uncached
    assert asked() == [("GET", None, None)]  # whole: the stored HEAD has no page's facts
    assert run(as_page) == uncached  # the page's own answer, stored, stands for it
    assert asked() == ([] if "max-age" in path else [("GET", '"v1"', LAST_MODIFIED)])


def _json_report(sitemap: Path, **options: object) -> dict[str, Any]:
    out = io.StringIO()
    options = {**options, "format": "json", "now": NOW.date().isoformat()}
    execute(RunSettings(paths=[str(sitemap)], **options), out=out, err=io.StringIO())  # type: ignore[arg-type]
    report: dict[str, Any] = json.loads(out.getvalue())
    return report


def test_the_chains_are_listed_in_the_files_order(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    live_server.route("/late", body="<html><head></head></html>", delay=0.3)
    live_server.route("/first", status=302, headers=[("Location", "/late")])
    live_server.route("/second", status=302, headers=[("Location", "/pages/plain")])
    sitemap = _write(tmp_path, "s.xml", _urlset("/first", "/second"))
    options = _live(live_server)
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    chains = _json_report(sitemap, **options)["summary"]["live"]["chains"]
    assert [chain[0] for chain in chains] == [f"{SITE}/first 302", f"{SITE}/second 302"]


@pytest.mark.parametrize(
    ("path", "hops"),
    [("/loop/a", ["/loop/a 302", "/loop/b 302", "/loop/a"]), ("/self", ["/self 301", "/self"])],
)
def test_a_summarized_loop_ends_with_the_hop_that_closes_it(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    path: str,
    hops: list[str],
) -> None:
    """The JSON summary's chain and the HTML report's show a loop as LV006 does: up to
    the URL it comes back to (a redirect to itself too, whose chain has no hop before)."""
    live_server.reset()
    live_server.route("/self", status=301, headers=[("Location", "/self")])
    sitemap = _write(tmp_path, "sitemap.xml", _urlset(path))
    options = _live(live_server)
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    chain = [f"{SITE}{hop}" for hop in hops]
    assert _json_report(sitemap, **options)["summary"]["live"]["chains"] == [chain]
    out = io.StringIO()
    html = {**options, "format": "html", "now": NOW.date().isoformat()}
    settings = RunSettings(paths=[str(sitemap)], **html)  # type: ignore[arg-type]
    execute(settings, out=out, err=io.StringIO())
    assert f"<tr><td>{' → '.join(chain)}</td></tr>" in out.getvalue()


def test_only_the_requests_sent_are_counted(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    refused = live_server.url("/status/200", host="127.0.0.2")  # loopback, not named
    sitemap = _write(tmp_path, "s.xml", _urlset("/status/200", "/to-private"))
    entries = f"<url><loc>{refused}</loc></url><url><loc>http://127.0.0.1:25/</loc></url>"
    sitemap.write_text(sitemap.read_text().replace("</urlset>", entries + "</urlset>"))
    live_server.route("/to-private", status=302, headers=[("Location", "/private/x")])
    options = _live(live_server)
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    report = _json_report(sitemap, **options)
    assert report["summary"]["live"]["requests"] == 2  # /status/200 and /to-private
    findings = report["files"][0]["findings"]
    found = {f["code"]: f["message"] for f in findings if f["code"][:2] == "LV"}
    assert found.keys() == {"LV004", "LV007", "LV014"}
    assert f"redirects to {SITE}/private/x" in found["LV007"]
    assert "was not requested: port 25 (smtp)" in found["LV004"]
    assert "/private/x" not in _requested(live_server)


def test_a_cache_damaged_inside_exits_2_with_one_line(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    from sitemap_lint.live.cache import Cache
    from sitemap_lint.live.client import cache_key
    from sitemap_lint.live.model import Answer

    cache = tmp_path / "live.sqlite3"
    mapping = {("example.com", 80): (live_server.host, live_server.port)}  # as _live's
    with Cache(cache) as store:
        store.put_many(
            Answer(cache_key(f"{SITE}/{n}", mapping), status=200, detail="x" * 200)
            for n in range(2000)
        )
    data = bytearray(cache.read_bytes())
    for at in range(4096 * 3, len(data) - 4096, 509):
        data[at] ^= 0x5A
    cache.write_bytes(bytes(data))
    sitemap = _write(tmp_path, "s.xml", _urlset(*(f"/{n}" for n in range(0, 2000, 50))))
    options = _live(live_server, live_cache=str(cache))
    del options["no_live_cache"]
    with pytest.raises(sitemap_lint.errors.SitemapLintError) as raised:  # the API's own
        sitemap_lint.lint_paths([sitemap], **options)  # type: ignore[arg-type]
    assert str(raised.value).startswith("live_cache=: live cache ")
    assert "cannot read: database disk image is malformed" in str(raised.value)


def test_another_programs_database_as_the_cache_exits_2_with_one_line(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    import sqlite3

    database = tmp_path / "notes.db"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    before = database.read_bytes()
    sitemap = _write(tmp_path, "s.xml", _urlset("/pages/plain"))
    done = _command(sitemap, live_server, "--live-cache", str(database))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"sitemap-lint: error: --live-cache: live cache {database}: cannot use: a database of"
        " another program (it holds table notes), left as it is; choose another file for the"
        " cache\n"
    )
    assert database.read_bytes() == before


def test_a_redirect_to_a_private_address_is_refused(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/private-redirect", "/loopback-redirect"))
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    assert [code for code, _line, _url in _codes(result.findings)] == ["LV014", "LV014"]
    assert "/status/200" not in _requested(live_server)  # the 127.0.0.2 hop never made


def test_a_robots_txt_redirected_to_a_private_address_says_it_was_refused(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """LV015 says why the robots.txt could not be fetched when the guard refused its
    redirect's target, so that the refusal is not taken for the site's outage."""
    live_server.reset()
    internal = live_server.url("/robots-internal.txt", host="127.0.0.2")  # not named
    live_server.route("/robots.txt", status=301, headers=[("Location", internal)])
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/pages/plain"))
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    (finding,) = [f for f in result.findings if f.code.startswith("LV")]
    assert finding.code == "LV015"
    assert finding.message.startswith(
        f"{SITE}/robots.txt could not be fetched: its redirect to {internal} was refused"
        " (127.0.0.2 is a loopback address), so Googlebot crawls nothing on the site"
    )
    assert "/robots-internal.txt" not in [entry.path for entry in live_server.log()]


def test_a_cache_that_cannot_be_opened_exits_2_with_one_line(tmp_path: Path) -> None:
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/a"))
    blocker = _write(tmp_path, "file", "")
    err = io.StringIO()
    settings = RunSettings(
        paths=[str(sitemap)], isolated=True, live=True, live_cache=str(blocker / "c.sqlite3")
    )
    with pytest.raises(sitemap_lint.errors.UsageError) as raised:
        execute(settings, out=io.StringIO(), err=err)
    assert "--live-cache" in str(raised.value)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("format_name", ["json", "sarif"])
def test_json_and_sarif_carry_the_live_findings(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    format_name: str,
) -> None:
    live_server.reset()
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/status/500", "/pages/plain"))
    out = io.StringIO()
    options = _live(live_server, format=format_name, now=NOW.date().isoformat())
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    status = execute(RunSettings(paths=[str(sitemap)], **options), out=out, err=io.StringIO())
    report = json.loads(out.getvalue())
    assert status == 1
    if format_name == "json":
        (entry,) = report["files"]
        assert [f["code"] for f in entry["findings"]] == ["LV003"]
        live = report["summary"]["live"]
        assert live["statuses"] == {"200": 1, "500": 1}
        assert live["requested"] == 2
        assert "seconds" not in live and "slowest_hosts" not in live  # same answers, same JSON
    else:
        results = report["runs"][0]["results"]
        assert [r["ruleId"] for r in results] == ["LV003"]
        rules = {rule["id"] for rule in report["runs"][0]["tool"]["driver"]["rules"]}
        assert "LV003" in rules


def test_the_installed_command(live_server: LiveServer, tmp_path: Path) -> None:  # noqa: F811
    live_server.reset()
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/status/404", "/pages/plain"))
    done = _command(sitemap, live_server, "--format", "concise")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        f"{sitemap}:3:8: LV001 page {SITE}/status/404 is not found (404); remove it or"
        " restore the page"
    ]


def _command(sitemap: Path, server: LiveServer, *options: str) -> subprocess.CompletedProcess[str]:
    """The installed command's ``check --live`` of ``sitemap`` against ``server``."""
    command = _command_line(sitemap, server, *options)
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def _command_line(sitemap: Path, server: LiveServer, *options: str) -> list[str]:
    """``check --live`` of ``sitemap`` against ``server``, without a cache unless
    ``options`` give one."""
    return [
        str(Path(sys.executable).with_name("sitemap-lint")),
        "check",
        str(sitemap),
        "--live",
        *(() if "--live-cache" in options else ("--no-live-cache",)),
        "--live-connect-to",
        f"example.com:80:{server.origin}",
        "--now",
        NOW.date().isoformat(),
        "--isolated",
        *options,
    ]


def test_two_runs_at_once_share_one_cache_file(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Two command processes started together on one cache file (new, then filled by
    them) both report what a run without a cache reports; the next run's requests are
    conditional and its findings the same."""
    live_server.reset()
    pages = [f"/bench/{n}" for n in range(300)]  # each with an ETag; canonical /bench/0
    others = ["/status/404", "/pages/noindex-header", "/redirect/1", "/cached", "/loop/a"]
    sitemap = _write(tmp_path, "sitemap.xml", _urlset(*others, *pages))
    expected = _command(sitemap, live_server, "--format", "concise")
    assert expected.returncode == 1 and expected.stderr == ""
    assert len(expected.stdout.splitlines()) == 299 + 4  # LV009 each page but /bench/0
    cache = tmp_path / "cache" / "live.sqlite3"
    shared = ["--format", "concise", "--live-cache", str(cache)]
    for _round in range(2):
        runs = [_started(sitemap, live_server, *shared) for _ in range(2)]
        for run in runs:
            out, err = run.communicate(timeout=120)
            assert (run.returncode, err, out) == (1, "", expected.stdout)
    live_server.reset()
    again = _command(sitemap, live_server, *shared)
    assert (again.returncode, again.stdout) == (1, expected.stdout)
    asked = {entry.path: entry.headers.get("If-None-Match") for entry in live_server.log()}
    assert all(asked[path] == f'"b{path.rsplit("/", 1)[1]}"' for path in pages)


def _started(sitemap: Path, server: LiveServer, *options: str) -> subprocess.Popen[str]:
    """``_command``'s run, started and not waited for."""
    command = _command_line(sitemap, server, *options)
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_fix_writes_the_final_url_of_a_redirect_with_unsafe_fixes(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    original = _urlset("/redirect/2", "/pages/plain")
    sitemap = _write(tmp_path, "sitemap.xml", original)
    shown = _command(sitemap, live_server, "--diff")
    assert (shown.returncode, shown.stdout) == (0, ""), shown.stderr
    assert "No fixes available" in shown.stderr
    shown = _command(sitemap, live_server, "--diff", "--unsafe-fixes")
    assert shown.returncode == 1, shown.stderr
    assert f"-  <url><loc>{SITE}/redirect/2</loc></url>" in shown.stdout.splitlines()
    assert f"+  <url><loc>{SITE}/redirect/0</loc></url>" in shown.stdout.splitlines()
    assert "Would fix 1 finding in 1 file." in shown.stderr
    kept = _command(sitemap, live_server, "--fix", "--format", "concise")
    assert sitemap.read_text(encoding="utf-8") == original
    assert "LV005" in kept.stdout
    fixed = _command(sitemap, live_server, "--fix", "--unsafe-fixes", "--format", "concise")
    assert fixed.returncode == 0, fixed.stderr
    assert sitemap.read_text(encoding="utf-8") == _urlset("/redirect/0", "/pages/plain")
    assert "Fixed 1 finding in 1 file." in fixed.stderr
    again = _command(sitemap, live_server, "--format", "concise")
    assert (again.returncode, again.stdout) == (0, "")


def test_a_static_fix_wins_where_it_overlaps_a_live_one(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    # The second entry is a duplicate: its removal (DU001) takes the LV005 edit's place.
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/redirect/1", "/redirect/1"))
    options = _live(live_server, format="json", unsafe_fixes=True, now=NOW.date().isoformat())
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    out = io.StringIO()
    execute(RunSettings(paths=[str(sitemap)], **options), out=out, err=io.StringIO())
    (entry,) = json.loads(out.getvalue())["files"]
    fixes = [(f["code"], f["line"], f.get("fix") is not None) for f in entry["findings"]]
    assert fixes == [("LV005", 3, True), ("DU001", 4, True), ("LV005", 4, False)]
    err = io.StringIO()
    settings = RunSettings(paths=[str(sitemap)], diff=True, **{**options, "format": None})
    assert execute(settings, out=io.StringIO(), err=err) == 1
    assert "Would fix 2 findings in 1 file." in err.getvalue()


def test_the_fix_rewrites_a_text_sitemaps_line_and_an_rss_link(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    text = _write(tmp_path, "sitemap.txt", f"{SITE}/pages/plain\n{SITE}/redirect/1\n")
    item = f"<item><link>{SITE}/redirect/1</link></item>"
    rss = f'<?xml version="1.0"?>\n<rss version="2.0"><channel>\n{item}\n</channel></rss>\n'
    feed = _write(tmp_path, "feed.xml", rss)
    options = _live(live_server, unsafe_fixes=True, fix=True, now=NOW.date().isoformat())
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    settings = RunSettings(paths=[str(text), str(feed)], **options)
    execute(settings, out=io.StringIO(), err=io.StringIO())
    assert text.read_text() == f"{SITE}/pages/plain\n{SITE}/redirect/0\n"
    assert feed.read_text() == rss.replace("/redirect/1", "/redirect/0")


def test_the_html_page_charts_the_statuses_and_lists_the_chains(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/redirect/1", "/status/404"))
    out = io.StringIO()
    options = _live(live_server, format="html", now=NOW.date().isoformat())
    options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
    execute(RunSettings(paths=[str(sitemap)], **options), out=out, err=io.StringIO())
    page = out.getvalue()
    assert 'id="chart-live"' in page
    chain = f"{SITE}/redirect/1 302 → {SITE}/redirect/0 200"
    assert f"<tr><td>{chain}</td></tr>" in page
    assert '<table class="live-hosts">' in page


def test_standard_input_is_audited_too(live_server: LiveServer) -> None:  # noqa: F811
    live_server.reset()
    data = _urlset("/pages/plain", "/status/410").encode()
    findings = sitemap_lint.lint(data, **_live(live_server))  # type: ignore[arg-type]
    assert _codes(findings) == [("LV001", 4, f"{SITE}/status/410")]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("live_sample", "12x", "--live-sample 12x: give a number of URLs"),
        ("live_sample", "0%", "--live-sample 0%: give a number of URLs"),
        ("live_sample", "0", "--live-sample 0: give a number of URLs, 1 or more"),
        ("live_sample", "-3", "--live-sample -3: give a number of URLs, 1 or more"),
        ("live_connect_to", ("example.com:80",), "--live-connect-to example.com:80: give HOST"),
        ("live_max", -1, "--live-max -1: give 0 or more"),
    ],
)
@pytest.mark.parametrize("live", [True, False])
def test_a_wrong_live_value_exits_2_naming_the_option(
    tmp_path: Path, option: str, value: object, message: str, live: bool
) -> None:
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/a"))
    settings = RunSettings(paths=[str(sitemap)], isolated=True, live=live, **{option: value})
    with pytest.raises(sitemap_lint.errors.UsageError, match=message):
        execute(settings, out=io.StringIO(), err=io.StringIO())


def test_a_plugin_checks_each_answer_and_each_audited_file(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The live findings come through the rule API: a plugin's ``answer`` check sees
    each answered URL, its ``audited`` check each file once its URLs were answered."""
    from sitemap_lint.rules.events import Answered, Audited
    from sitemap_lint.rules.registry import ANSWER, AUDITED

    slow = noting_rule("ZX002", "answered-url")

    def note_answer(answered: Answered, file: str, report: Reporter) -> None:
        target, answer = answered.target, answered.answer
        report.add(slow.at(target.line, target.column, f"{answer.status} {target.url}"))

    def note_file(audited: Audited, file: str, report: Reporter) -> None:
        report.add(slow.at(1, 1, f"{len(audited.targets)} {Path(file).name}"))

    live_server.reset()
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/status/404", "/pages/plain"))
    with plugin_checks((ANSWER, slow, note_answer), (AUDITED, slow, note_file)):
        result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    assert [(f.code, f.line, f.message) for f in result.findings if f.code == "ZX002"] == [
        ("ZX002", 1, "2 sitemap.xml"),
        ("ZX002", 3, f"404 {SITE}/status/404"),
        ("ZX002", 4, f"200 {SITE}/pages/plain"),
    ]
    assert _codes(result.findings) == [("LV001", 3, f"{SITE}/status/404")]


def test_the_entries_read_inside_an_entry_are_requested(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    # Entries inside an entry whose end tag stands after them: the check reads each as
    # an entry of its own (the outer end tag missing), and the audit requests what they list.
    live_server.reset()

    def inner(n: int) -> str:
        return (
            f"<url><loc>{SITE}/status/404?p{n}</loc>"
            f"<image:image><image:loc>{SITE}/image.png?i{n}</image:loc></image:image>"
            f"<video:video><video:thumbnail_loc>{SITE}/image.png?t{n}</video:thumbnail_loc>"
            f"<video:content_loc>{SITE}/video.mp4?c{n}</video:content_loc></video:video>"
            f'<xhtml:link rel="alternate" hreflang="en" href="{SITE}/status/404?a{n}"/></url>'
        )

    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}" xmlns:image="{IMAGE_NS}"'
        f' xmlns:video="{VIDEO_NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        f"  <url><loc>{SITE}/status/404?p1</loc>{inner(2)}{inner(3)}</url>\n"
        "</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    expected = ["/status/404?p1"] + [
        path
        for n in (2, 3)
        for path in (
            f"/status/404?p{n}",
            f"/image.png?i{n}",
            f"/image.png?t{n}",
            f"/video.mp4?c{n}",
            f"/status/404?a{n}",
        )
    ]
    assert sorted(set(_requested(live_server))) == sorted(expected)


def test_a_page_is_read_in_the_charset_its_meta_declares(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    # No charset in the Content-Type: the page's <meta> names its encoding, as
    # browsers read it; its own URL written in it is no canonical elsewhere.
    live_server.reset()
    own = f"{SITE}/caf\u00e9"
    live_server.route(
        "/caf\u00e9",
        body=f"<html><head><meta charset='iso-8859-1'><title>Caf\u00e9</title>"
        f"<link rel=canonical href='{own}'>"
        f"<link rel=alternate hreflang=fr href='{own}'></head><body></body></html>",
        content_type="text/html",
        charset="latin-1",
    )
    live_server.route(
        "/menu",
        body="<html><head><meta http-equiv='Content-Type' content='text/html;"
        f" charset=windows-1252'><link rel=canonical href='{SITE}/th\u00e9'></head></html>",
        content_type="text/html",
        charset="cp1252",
    )
    listed = f"{SITE}/caf%C3%A9"
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        f'  <url><loc>{listed}</loc><xhtml:link rel="alternate" hreflang="fr"'
        f' href="{listed}"/></url>\n'
        f"  <url><loc>{SITE}/menu</loc></url>\n</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    found = [f for f in result.findings if f.code[:2] == "LV"]
    assert [(f.code, f.line) for f in found] == [("LV009", 4)]
    assert f"names {SITE}/th\u00e9 as its canonical" in found[0].message


def test_a_page_is_read_in_the_charset_its_meta_declares_past_1024_bytes(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A <meta charset> of the head past the prescan's 1024 bytes: a browser's parser
    meets it and reads the page again in its charset, and so does the audit: the page's
    own URL in its canonical and alternate links is no other page."""
    live_server.reset()
    own = f"{SITE}/r\u00e9sum\u00e9"
    live_server.route(
        "/r\u00e9sum\u00e9",
        body="<html><head><title>R\u00e9sum\u00e9</title>"
        f"<style>{' ' * 1200}</style><meta charset='windows-1252'>"
        f"<link rel=canonical href='{own}'>"
        f"<link rel=alternate hreflang=fr href='{own}'></head><body></body></html>",
        content_type="text/html",
        charset="cp1252",
    )
    listed = f"{SITE}/r%C3%A9sum%C3%A9"
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        f'  <url><loc>{listed}</loc><xhtml:link rel="alternate" hreflang="fr"'
        f' href="{listed}"/></url>\n</urlset>\n'
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    assert [f.code for f in result.findings if f.code[:2] == "LV"] == []
    assert _requested(live_server) == ["/r%C3%A9sum%C3%A9"]


@pytest.mark.parametrize(
    ("lastmod", "behind"),
    [
        ("2025-01", False),  # the month the page changed in
        ("2025", False),
        ("2024-12", True),
        ("2025-01-14", True),
        ("2025-01-15", False),
    ],
)
def test_a_month_or_year_lastmod_is_behind_a_page_only_once_its_period_ended(
    lastmod: str, behind: bool
) -> None:
    from datetime import UTC, datetime

    from sitemap_lint.rules.dates import parse_date
    from sitemap_lint.rules.live import _behind

    parsed = parse_date(lastmod)
    assert parsed is not None
    # 13:00 UTC: January 15 everywhere (01:00 at -12:00), so January 14 has ended
    assert _behind(parsed, datetime(2025, 1, 15, 13, tzinfo=UTC)) is behind


def test_what_a_template_in_the_head_holds_says_nothing_of_the_page(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A template's content is an inert fragment, no part of the page: its robots meta,
    canonical, hreflang links and dates are no page's; a noscript's still are."""
    live_server.reset()
    inert = (
        '<template><meta name="robots" content="noindex">'
        '<link rel="canonical" href="/elsewhere">'
        '<link rel="alternate" hreflang="fr" href="/fr">'
        '<meta property="article:modified_time" content="2025-06-01T00:00:00Z">'
        '<noscript><meta name="googlebot" content="noindex"></noscript></template>'
    )
    live_server.route("/inert", body=f"<html><head>{inert}<title>t</title></head><body></body>")
    live_server.route(
        "/noscript",
        body='<html><head><noscript><meta name="robots" content="noindex"></noscript></head>',
    )
    live_server.route(
        "/after",  # what follows the template is the page's again
        body=f'<html><head>{inert}<link rel="canonical" href="/elsewhere"></head>',
    )
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        f"  <url><loc>{SITE}/inert</loc><lastmod>2025-01-01</lastmod>"
        f'<xhtml:link rel="alternate" hreflang="de" href="{SITE}/de"/></url>\n'
        f"  <url><loc>{SITE}/noscript</loc></url>\n"
        f"  <url><loc>{SITE}/after</loc></url>\n</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    options = _live(live_server, select=["LV008", "LV009", "LV010", "LV012"])
    result = sitemap_lint.lint_paths([sitemap], **options)  # type: ignore[arg-type]
    assert _codes(result.findings) == [
        ("LV008", 4, f"{SITE}/noscript"),
        ("LV009", 5, f"{SITE}/after"),
    ]


def test_images_and_videos_follow_the_robots_txt_of_googles_image_and_video_crawlers(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Google fetches images as Googlebot-Image and video files as Googlebot-Video: their
    own groups decide for them, else Googlebot's (as protego falls back)."""
    live_server.reset()
    live_server.route(
        "/robots.txt",
        body="User-agent: Googlebot\nDisallow: /photos/\nDisallow: /films/\n\n"
        "User-agent: Googlebot-Image\nDisallow: /images/\n\n"
        "User-agent: Googlebot-Video\nDisallow: /videos/\n",
        content_type="text/plain",
    )
    for path in ("/photos/a.png", "/images/b.png"):
        live_server.route(path, body="png", content_type="image/png")
    for path in ("/films/a.mp4", "/videos/b.mp4"):
        live_server.route(path, body="mp4", content_type="video/mp4")
    video = (
        "<video:video><video:thumbnail_loc>{0}/photos/a.png</video:thumbnail_loc>"
        "<video:title>t</video:title><video:description>d</video:description>"
        "<video:content_loc>{0}{1}</video:content_loc></video:video>"
    )
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}"'
        ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
        ' xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n'
        f"  <url><loc>{SITE}/pages/plain</loc>\n"
        f"    <image:image><image:loc>{SITE}/photos/a.png</image:loc></image:image>\n"
        f"    <image:image><image:loc>{SITE}/images/b.png</image:loc></image:image>\n"
        f"    {video.format(SITE, '/films/a.mp4')}\n"
        f"    {video.format(SITE, '/videos/b.mp4')}\n"
        f"  </url>\n  <url><loc>{SITE}/photos/page</loc></url>\n</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    result = sitemap_lint.lint_paths([sitemap], **_live(live_server))  # type: ignore[arg-type]
    live = [(f.code, f.line, f.message) for f in result.findings if f.code[:2] == "LV"]
    assert live == [
        (
            "LV007",
            5,
            f"image {SITE}/images/b.png is disallowed for Googlebot-Image by the site's"
            " robots.txt; remove it from the sitemap or allow it in robots.txt",
        ),
        (
            "LV007",
            7,
            f"video {SITE}/videos/b.mp4 is disallowed for Googlebot-Video by the site's"
            " robots.txt; remove it from the sitemap or allow it in robots.txt",
        ),
        (
            "LV007",
            9,
            f"page {SITE}/photos/page is disallowed for Googlebot by the site's robots.txt;"
            " remove it from the sitemap or allow it in robots.txt",
        ),
    ]
    assert sorted(_requested(live_server)) == ["/films/a.mp4", "/pages/plain", "/photos/a.png"]


@pytest.mark.parametrize(
    ("status", "retry_after", "said"),
    [
        (
            429,
            "3600",
            "answers 429 Too Many Requests (Retry-After: 3600): the site limits the"
            " request rate; check again later or more slowly (--live-per-host 1), and do"
            " not rate-limit crawlers",
        ),
        (
            503,
            "86400",
            "answers 503 Service Unavailable (Retry-After: 86400): the site is"
            " down or in maintenance; check again once it is back",
        ),
        (
            503,
            None,
            "answers 503 Service Unavailable after retries: the site is down or in"
            " maintenance; check again once it is back",
        ),
        (500, None, "answers 500; fix the server and check again"),
    ],
)
def test_a_refusal_for_now_says_so_and_when_to_come_back(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    status: int,
    retry_after: str | None,
    said: str,
) -> None:
    live_server.reset()
    headers = [("Retry-After", retry_after)] if retry_after else []
    live_server.route("/busy", status=status, headers=headers, body="later")
    live = _live_findings_of_one_page(live_server, tmp_path, "/busy", "2025-01-01")
    assert [f.message for f in live] == [f"page {SITE}/busy {said}"]


def test_a_head_behind_large_inline_styles_is_read_to_its_robots_meta(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A page builder's or an optimiser's inlined CSS (hundreds of KB) before the robots
    meta and the canonical: they are read all the same."""
    live_server.reset()
    styles = "<style>" + ".c{color:red}" * 40_000 + "</style>"  # 520 KB
    live_server.route(
        "/inlined",
        body=f'<html><head>{styles}<meta name="robots" content="noindex"></head><body>',
    )
    live = _live_findings_of_one_page(live_server, tmp_path, "/inlined", "2025-01-01")
    assert [(f.code, f.line) for f in live] == [("LV008", 3)]


@pytest.mark.parametrize(
    ("last_modified", "lastmod", "behind"),
    [
        # 01:00 UTC on January 2 is still January 1 west of Greenwich: the same day
        ("Thu, 02 Jan 2025 01:00:00 GMT", "2025-01-01", False),
        ("Wed, 01 Jan 2025 23:00:00 GMT", "2025-01-01", False),
        # 13:00 UTC on January 2 is January 2 in every zone
        ("Thu, 02 Jan 2025 13:00:00 GMT", "2025-01-01", True),
        # a lastmod with a time is compared as the moment it names
        ("Thu, 02 Jan 2025 01:00:00 GMT", "2025-01-01T20:00:00-05:00", False),
        ("Thu, 02 Jan 2025 01:00:00 GMT", "2025-01-01T19:00:00-05:00", True),
    ],
)
def test_a_date_only_lastmod_is_behind_the_page_only_once_its_day_ended_everywhere(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    last_modified: str,
    lastmod: str,
    behind: bool,
) -> None:
    live_server.reset()
    live_server.route(
        "/dated", body="<html><head></head>", headers=[("Last-Modified", last_modified)]
    )
    live = _live_findings_of_one_page(live_server, tmp_path, "/dated", lastmod)
    assert [(f.code, f.line, f.column) for f in live] == ([("LV010", 3, 8)] if behind else [])
    assert all(f"lastmod {lastmod} is older than Last-Modified" in f.message for f in live)


@pytest.mark.parametrize(
    ("content_type", "served"),
    [
        ("video/mp4", True),
        ("application/vnd.apple.mpegurl", True),  # HLS
        ("application/x-mpegURL", True),
        ("application/dash+xml", True),  # DASH
        ("text/html; charset=utf-8", False),
        ("application/json", False),
    ],
)
def test_a_video_s_content_may_be_a_stream_s_manifest(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    content_type: str,
    served: bool,
) -> None:
    live_server.reset()
    live_server.route("/stream", body="#EXTM3U\n", content_type=content_type)
    live_server.route("/thumb", body="x", content_type="image/jpeg")
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}" xmlns:video="{VIDEO_NS}">\n'
        f"  <url><loc>{SITE}/status/200</loc><video:video>"
        f"<video:thumbnail_loc>{SITE}/thumb</video:thumbnail_loc>"
        "<video:title>t</video:title><video:description>d</video:description>"
        f"<video:content_loc>{SITE}/stream</video:content_loc></video:video></url>\n</urlset>\n"
    )
    sitemap = _write(tmp_path, "sitemap.xml", text)
    options = _live(live_server, select=["LV"])
    result = sitemap_lint.lint_paths([sitemap], **options)  # type: ignore[arg-type]
    found = [(f.code, f.line, f.column, f.message) for f in result.findings]
    media = content_type.split(";")[0].lower()
    assert found == (
        []
        if served
        else [
            (
                "LV013",
                3,
                text.splitlines()[2].index("<video:content_loc>") + 1,
                f"video {SITE}/stream is served as {media}, not video/* or a stream's manifest"
                " (HLS, DASH); serve the file or remove it from the sitemap",
            )
        ]
    )


@pytest.mark.parametrize(
    ("json_ld", "behind"),
    [
        (
            '{"@type": "WebPage", "mainEntity": {"@type": "Article", "dateModified": "2025-03-01"}}',
            True,
        ),
        (
            '{"@graph": [{"@type": "WebPage", "mainEntity": [{"dateModified": "2025-03-01"}]}]}',
            True,
        ),
        ('[{"@type": "WebPage", "mainEntity": {"dateModified": "2025-03-01T10:00:00Z"}}]', True),
        # the dates of other nested objects are theirs, not the page's
        (
            '{"@type": "WebPage", "isPartOf": {"@type": "WebSite", "dateModified": "2025-03-01"}}',
            False,
        ),
        ('{"@type": "Article", "publisher": {"dateModified": "2025-03-01"}}', False),
        ('{"@type": "WebPage", "mainEntity": {"dateModified": "2025-13-01"}}', False),  # no date
    ],
)
def test_the_json_ld_main_entity_s_date_is_the_page_s(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    json_ld: str,
    behind: bool,
) -> None:
    live_server.reset()
    script = f'<script type="application/ld+json">{json_ld}</script>'
    live_server.route("/article", body=f"<html><head>{script}</head><body></body>")
    live = _live_findings_of_one_page(live_server, tmp_path, "/article", "2025-01-01")
    assert [(f.code, f.line, f.column) for f in live] == ([("LV010", 3, 8)] if behind else [])
    assert all("is older than JSON-LD dateModified 2025-03-01" in f.message for f in live)


def test_a_robots_meta_between_the_head_s_end_and_the_body_is_the_page_s(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """An HTML parser puts a meta, link or script met after ``</head>`` and before the
    body in the head: Google's rendering reads it there. A page that flushes its head
    and then stalls is still judged by its head, as before the body."""
    live_server.reset()
    closed = "<!doctype html><html><head><title>t</title></head>\n"
    stray = '<script src="/a.js"></script>\n<meta name="robots" content="noindex">\n'
    live_server.route("/stray", parts=[closed + stray, "<body><p>x</p>"], pause=0.05)
    live_server.route("/in-body", body=f"{closed}<body>{stray}")
    flushed = '<html><head><meta name="robots" content="noindex"></head>'
    live_server.route("/flushed", parts=[flushed, "<body>"], pause=6)
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/stray", "/in-body", "/flushed"))
    # the rest of /flushed comes after the timeout: its head is read without it
    options = _live(live_server, live_timeout=4.0)
    result = sitemap_lint.lint_paths([sitemap], **options)  # type: ignore[arg-type]
    assert _codes(result.findings) == [
        ("LV008", 3, f"{SITE}/stray"),
        ("LV008", 5, f"{SITE}/flushed"),
    ]
    assert all("says noindex (meta robots)" in f.message for f in result.findings)
