"""HTTP family: each fixture is a raw response (.http) replayed by a local server and fetched.

The findings of each fixture are in the .expected file beside it (tests/test_expected.py);
here: what else the fetches show.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sitemap_lint.engine.checker import check_source
from sitemap_lint.inputs.fetch import Fetched, Fetcher, FetchSettings
from sitemap_lint.inputs.guard import HostPolicy
from sitemap_lint.inputs.reader import Source
from sitemap_lint.rules import fetch
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, RULE_FIXTURES, engine
from tests.site_server import SiteServer, loopback_only  # noqa: F401

pytestmark = pytest.mark.slow  # each test replays its fixtures on a local server

PASSING = sorted(
    path.relative_to(RULE_FIXTURES).as_posix()
    for rule in fetch.RULES
    for path in (RULE_FIXTURES / rule.code).glob("pass*.http")
)


@pytest.fixture
def site(loopback_only) -> Iterator[SiteServer]:  # noqa: F811
    with SiteServer() as server:
        server.mount("/rules/", RULE_FIXTURES)
        yield server


def named(site: SiteServer) -> HostPolicy:
    """The server's URL given to the run, as the command line gives it."""
    return HostPolicy.naming([site.url()])


def fetch_fixture(site: SiteServer, code: str, name: str) -> Fetched:
    with Fetcher(FetchSettings(timeout=2.0, hosts=named(site))) as fetcher:
        return fetcher.get(site.url(f"/rules/{code}/{name}"))


@pytest.mark.parametrize("fixture", PASSING)
def test_passing_fixture_is_served_whole(site: SiteServer, fixture: str) -> None:
    """Its findings (none) are in its .expected; here: a 200 with a body."""
    code, name = fixture.split("/")
    fetched = fetch_fixture(site, code, name)
    assert fetched.status == 200
    assert fetched.body


@pytest.mark.parametrize("code", [rule.code for rule in fetch.RULES])
def test_passing_sitemap_has_no_finding_at_all(site: SiteServer, code: str) -> None:
    fetched = fetch_fixture(site, code, "pass.http")
    assert fetched.findings == ()
    source = Source(fetched.final_url, None, url=fetched.final_url, data=fetched.body)
    assert check_source(source, Options(now=NOW), engine()).findings == []


def test_too_many_redirects_stops_at_the_limit(site: SiteServer) -> None:
    fetched = fetch_fixture(site, "FE006", "fail.http")
    assert fetched.body is None
    assert fetched.final_url.endswith("/FE006/hop-5.http")
    assert [p.rsplit("/", 1)[1] for p in site.paths] == [
        "fail.http",
        *(f"hop-{n}.http" for n in range(1, 6)),
    ]


def test_one_more_allowed_redirect_reaches_the_sitemap(site: SiteServer) -> None:
    with Fetcher(FetchSettings(timeout=2.0, max_redirects=6, hosts=named(site))) as fetcher:
        fetched = fetcher.get(site.url("/rules/FE006/fail.http"))
    assert [f.code for f in fetched.findings] == ["FE013"]
    assert fetched.final_url.endswith("/FE006/pass.http")
    assert fetched.status == 200


def test_replayed_compression_is_undone(site: SiteServer) -> None:
    plain = fetch_fixture(site, "FE011", "pass.http").body
    assert fetch_fixture(site, "FE011", "pass-gzip.http").body == plain
    assert fetch_fixture(site, "FE011", "pass-deflate.http").body == plain


def test_messages_name_the_problem_and_the_fix(site: SiteServer) -> None:
    def message(code: str, name: str) -> str:
        (finding,) = fetch_fixture(site, code, name).findings
        return finding.message

    assert "404 Not Found" in message("FE001", "fail.http")
    assert "retry later" in message("FE002", "fail.http")
    assert "retry later" in message("FE002", "fail-429.http")
    assert "redirect loop" in message("FE005", "fail.http")
    assert "ftp:" in message("FE007", "fail.http")
    assert "without a Location header" in message("FE008", "fail.http")
    assert "'text/html'" in message("FE009", "fail.http")
    assert "application/xml" in message("FE010", "fail.http")
    assert "'br'" in message("FE011", "fail.http")
    assert "submit the final URL" in message("FE013", "fail.http")
