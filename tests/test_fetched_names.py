"""A sitemap fetched from a URL is named by its URL in every report, never as a path of
the checkout: SARIF's artifact URI is the URL itself (no ``%SRCROOT%``), a GitHub
annotation names no file, GitLab and JUnit keep the URL, a baseline records it. A
baseline written when the URL was recorded with one slash (``https:/host/...``) still
matches."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.helpers import run_cli
from tests.site_server import Route, SiteServer, loopback_only  # noqa: F401

SITEMAP = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "  <url><loc>https://example.com/a b</loc><priority>2</priority></url>\n"
    "</urlset>\n"
)


def _report(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> str:
    _status, out, _err = run_cli(["--isolated", *args, url], capsys)
    return out


def test_every_ci_format_names_the_url(
    capsys: pytest.CaptureFixture[str],
    loopback_only: None,  # noqa: F811
) -> None:
    with SiteServer() as server:
        server.routes["/maps/sitemap.xml"] = Route(body=SITEMAP.encode())
        url = server.url("/maps/sitemap.xml")
        sarif = json.loads(_report(capsys, url, "-f", "sarif"))
        github = _report(capsys, url, "-f", "github")
        gitlab = json.loads(_report(capsys, url, "-f", "gitlab"))
        junit = _report(capsys, url, "-f", "junit")
    locations = [
        result["locations"][0]["physicalLocation"]["artifactLocation"]
        for result in sarif["runs"][0]["results"]
    ]
    assert locations and all(location == {"uri": url} for location in locations)
    assert github.count("::") >= 2 and "file=" not in github
    assert {issue["location"]["path"] for issue in gitlab} == {url}
    assert f'classname="{url}"' in junit


def test_a_baseline_records_the_url_and_reads_the_one_slash_form(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    loopback_only: None,  # noqa: F811
) -> None:
    from sitemap_lint.report import baseline

    monkeypatch.chdir(tmp_path)
    with SiteServer() as server:
        server.routes["/maps/sitemap.xml"] = Route(body=SITEMAP.encode())
        url = server.url("/maps/sitemap.xml")
        run_cli(["--isolated", "--write-baseline", "new.json", url], capsys)
        written = json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))
        assert written["findings"] and {entry["path"] for entry in written["findings"]} == {url}
        # As an older version wrote it: the URL's "//" made one "/", and hashed so.
        with monkeypatch.context() as patched:
            patched.setattr(baseline, "ci_path", lambda name: name.replace("://", ":/"))
            run_cli(["--isolated", "--write-baseline", "old.json", url], capsys)
        old = json.loads((tmp_path / "old.json").read_text(encoding="utf-8"))
        assert {entry["path"] for entry in old["findings"]} == {url.replace("://", ":/")}
        status, out, _err = run_cli(
            ["--isolated", "-f", "json", "--baseline", "old.json", url], capsys
        )
    report = json.loads(out)
    assert status == 0 and report["summary"]["baseline"]["unseen"] == 0
    assert report["summary"]["baseline"]["matched"] == len(written["findings"])


@pytest.mark.parametrize("url", ["HTTPS://example.com/s.xml", "Http://example.com/s.xml"])
def test_a_url_is_named_as_fetched_whatever_the_case_of_its_scheme(url: str) -> None:
    # The run fetches it (the scheme's case does not matter); no report may take it for
    # a file of the checkout.
    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.inputs.reader import is_url
    from sitemap_lint.report import REPORTERS
    from sitemap_lint.report.common import ci_path

    assert is_url(url)
    assert ci_path(url) == url
    from sitemap_lint.rules import RULES

    out = io.StringIO()
    finding = RULES["UR001"].at(3, 5, "relative")
    REPORTERS["github"](out, False, True, False).report([FileResult(url, [finding])])
    assert out.getvalue() == (
        f"::error line=3,col=5,title=UR001 url-not-absolute::{url}:3:5: relative\n"
    )
