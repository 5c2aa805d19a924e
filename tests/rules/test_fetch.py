"""HTTP family: each fixture is a raw response (.http) replayed by a local server and fetched.

Failing fixtures give exactly the expected finding; passing ones no FE finding.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sitemap_lint.checker import check_source
from sitemap_lint.inputs.fetch import Fetched, Fetcher, FetchSettings
from sitemap_lint.inputs.reader import Source
from sitemap_lint.options import Options
from sitemap_lint.rules import fetch
from tests.helpers import NOW, RULE_FIXTURES, Case, engine
from tests.site_server import SiteServer, loopback_only  # noqa: F401

CASES = [
    Case("FE001", "fail.http", line=1),  # 404 with an HTML error page
    Case("FE001", "fail-forbidden.http", line=1),  # 403
    Case("FE001", "fail-gone.http", line=1),  # 410
    Case("FE002", "fail.http", line=1),  # 503 with Retry-After
    Case("FE002", "fail-500.http", line=1),
    Case("FE002", "fail-429.http", line=1),
    Case("FE003", "fail.http", line=1),  # body cut short of its Content-Length
    Case("FE003", "fail-not-http.http", line=1),  # an SSH banner instead of HTTP
    Case("FE004", "fail.http", line=1),  # the body comes 2 s after the headers; timeout 0.5 s
    Case("FE005", "fail.http", line=1),  # redirects to itself
    Case("FE005", "fail-query.http", line=1),  # to itself with a query, then again
    Case("FE006", "fail.http", line=1),  # six redirects: hop-1.http ... hop-5.http, pass.http
    Case("FE007", "fail.http", line=1),  # a redirect to ftp://
    Case("FE008", "fail.http", line=1),  # 302 without Location
    Case("FE008", "fail-invalid.http", line=1),  # Location is not a valid URL
    Case("FE009", "fail.http", line=1),  # a sitemap served as text/html
    Case("FE009", "fail-json.http", line=1),  # a sitemap served as application/json
    Case("FE010", "fail.http", line=1),  # no Content-Type
    Case("FE011", "fail.http", line=1),  # Content-Encoding: br
    Case("FE012", "fail.http", line=1),  # Content-Encoding: gzip on a plain body
    Case("FE012", "fail-deflate.http", line=1),  # Content-Encoding: deflate on a plain body
    Case("FE013", "fail.http", line=1),  # 301 to pass.http
    Case("FE013", "fail-308.http", line=1),  # 308, then 302, then pass.http
]

# The settings a fixture is fetched with (default: FetchSettings(timeout=2.0)).
SETTINGS = {"FE004": FetchSettings(timeout=0.5)}
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


def fetch_fixture(site: SiteServer, code: str, name: str) -> Fetched:
    settings = SETTINGS.get(code, FetchSettings(timeout=2.0))
    with Fetcher(settings) as fetcher:
        return fetcher.get(site.url(f"/rules/{code}/{name}"))


def codes(fetched: Fetched) -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in fetched.findings)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_failing_fixture(site: SiteServer, case: Case) -> None:
    fetched = fetch_fixture(site, case.code, case.fixture)
    expected = sorted([(case.code, case.line), *case.also])
    assert codes(fetched) == expected, [f.message for f in fetched.findings]
    assert all(f.column == 1 for f in fetched.findings)


@pytest.mark.parametrize("fixture", PASSING)
def test_passing_fixture(site: SiteServer, fixture: str) -> None:
    code, name = fixture.split("/")
    fetched = fetch_fixture(site, code, name)
    assert fetched.findings == ()
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
    with Fetcher(FetchSettings(timeout=2.0, max_redirects=6)) as fetcher:
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
