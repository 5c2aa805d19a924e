"""The crawl budget of the live audit (``--live-crawl-budget``): a host's robots.txt
Crawl-delay spaces its requests, and only as many of its URLs are requested as the
delays fit in the budget, the first in the run's order; LV016 names the host once a run.
The server tests run against a real local server process (tests/live_server.py)."""

from __future__ import annotations

import asyncio
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

import sitemap_lint
from sitemap_lint.errors import SitemapLintError
from sitemap_lint.live.client import Client, ClientSettings
from sitemap_lint.live.model import PAGE, BudgetCut, Target
from sitemap_lint.live.pacing import CrawlBudget, fitting
from sitemap_lint.live.robots import read_rules
from sitemap_lint.rules.live import budget_finding
from sitemap_lint.run import RunSettings, execute
from tests.helpers import NOW
from tests.live_server import LiveServer, live_server  # noqa: F401
from tests.test_live import _live, _urlset, _write

SITE = "http://example.com"
ROBOTS = "User-agent: *\nCrawl-delay: 0.2\nDisallow: /private/\n"


# -- what fits, and in which order (no server) ------------------------------------------


@pytest.mark.parametrize(
    ("delay", "budget", "fits"),
    [
        (0.2, 0.5, 3),  # the first, then two whole delays
        (0.1, 0.3, 4),  # 0.3 / 0.1 is 2.9999999999999996 in floats: three delays fit
        (60.0, 300.0, 6),
        (60.0, 1.0, 1),  # the first URL waits for nothing
        (0.0, 1.0, math.inf),  # no delay: every URL
        (5.0, math.inf, math.inf),  # no bound
    ],
)
def test_the_urls_that_fit_are_the_first_and_one_a_whole_delay(
    delay: float, budget: float, fits: float
) -> None:
    assert fitting(delay, budget) == fits


def test_places_are_numbered_in_the_order_asked_without_the_disallowed_urls() -> None:
    rules = read_rules(200, "User-agent: *\nCrawl-delay: 1\nDisallow: /private/\n")
    budget = CrawlBudget(1.5)  # two URLs: the first and one delay
    key = "https://example.com"
    # asked for before the host's robots.txt was read...
    early = [budget.place(key, f"{key}{path}", None) for path in ("/a", "/private/b", "/c")]
    # ... and one asked for once it was read, before the early ones resumed
    late = budget.place(key, f"{key}/d", rules)
    budget.settle(key, rules)  # the early ones resume: nothing changes any more
    assert [place.number for place in [*early, late]] == [0, None, 1, 2]
    assert [budget.over(place, rules) for place in [*early, late]] == [False, False, False, True]


def test_a_host_without_a_crawl_delay_numbers_nothing() -> None:
    rules = read_rules(200, "User-agent: *\nDisallow: /private/\n")
    budget = CrawlBudget(0.001)
    places = [budget.place("http://h", f"http://h/{n}", rules) for n in range(5)]
    assert not any(budget.over(place, rules) for place in places)
    assert {place.number for place in places} == {None}


def test_the_finding_counts_the_urls_and_tells_how_long_they_would_take() -> None:
    cut = BudgetCut("https://www.example.com", 60.0, 300.0, 6, 10_000, "https://www.example.com/7")
    finding = budget_finding(cut, Target(cut.url, PAGE, 9, 8))
    assert (finding.code, finding.line, finding.column) == ("LV016", 9, 8)
    assert finding.message == (
        "https://www.example.com asks for 60 s between requests (robots.txt Crawl-delay),"
        " so within the 300 s crawl budget only 6 of its 10,000 URLs were requested, the"
        " first in the files' order: not https://www.example.com/7 and the 9,993 after it"
        " (all 10,000 would take 6.9 days); raise --live-crawl-budget to 599940 to audit"
        " them all, or audit a sample with --live-sample"
    )
    one = BudgetCut("http://h", 0.2, 0.1, 1, 2, "http://h/b")
    message = budget_finding(one, Target(one.url, PAGE, 3, 8)).message
    assert (
        "only 1 of its 2 URLs was requested, the first in the files' order: not http://h/b ("
        in (message)
    )
    assert "(all 2 would take 0.2 s); raise --live-crawl-budget to 0.2 " in message


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "live_crawl_budget=0: give more than 0 seconds"),
        (-1.5, "live_crawl_budget=-1.5: give more than 0 seconds"),
        ("300", "live_crawl_budget=: expected a number, got '300'"),
        (True, "live_crawl_budget=: expected a number, got True"),
    ],
)
def test_a_wrong_budget_is_refused_by_the_api(tmp_path: Path, value: Any, message: str) -> None:
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/a"))
    with pytest.raises(SitemapLintError) as raised:
        sitemap_lint.lint_paths([sitemap], isolated=True, live_crawl_budget=value)
    assert str(raised.value) == message


def test_a_wrong_budget_in_the_configuration_file_is_one_line(tmp_path: Path) -> None:
    sitemap = _write(tmp_path, "sitemap.xml", _urlset("/a"))
    for text, problem in [
        ("live-crawl-budget = 0", "live-crawl-budget 0: give more than 0 seconds"),
        ('live-crawl-budget = "5m"', "live-crawl-budget: expected a number of seconds, got '5m'"),
    ]:
        config = _write(tmp_path, ".sitemap-lint.toml", text + "\n")
        with pytest.raises(SitemapLintError) as raised:
            sitemap_lint.lint_paths([sitemap], config=config)
        assert str(raised.value) == f"{config}: {problem}"


# -- against a server ------------------------------------------------------------------


def _requested(server: LiveServer) -> list[str]:
    return sorted(entry.path for entry in server.log() if entry.path != "/robots.txt")


@pytest.fixture
def delayed(live_server: LiveServer) -> LiveServer:  # noqa: F811
    """The server, its robots.txt asking for 0.2 s between requests."""
    live_server.reset()
    live_server.route("/robots.txt", body=ROBOTS, content_type="text/plain")
    return live_server


@pytest.mark.slow
def test_the_client_requests_only_the_first_urls_that_fit_at_the_delay(
    delayed: LiveServer,
) -> None:
    urls = [delayed.url(f"/status/200?{n}") for n in range(6)]
    urls.insert(1, delayed.url("/private/page"))  # disallowed: no request, no place
    named = ClientSettings(named_hosts=(delayed.url(),), timeout=5.0, crawl_budget=0.5)

    async def run() -> dict[str, Any]:
        async with Client(named) as client:  # 16 at a time, 4 to the host
            return await client.fetch_all([(url, PAGE) for url in urls])

    answers = asyncio.run(run())
    assert _requested(delayed) == ["/status/200?0", "/status/200?1", "/status/200?2"]
    times = sorted(entry.time for entry in delayed.log() if entry.path != "/robots.txt")
    # Two Crawl-delays of 0.2 s lie between the first request and the third; the
    # server's log may take the first late on a busy machine, so one delay is asked for
    # (without them the three come within a few milliseconds).
    assert times[-1] - times[0] >= 0.2
    over = [url for url, answer in answers.items() if answer.over_budget]
    assert over == urls[4:]
    assert {answers[url].crawl_delay for url in over} == {0.2}
    assert {answers[url].status for url in over} == {None}
    assert answers[urls[1]].robots_disallowed and not answers[urls[1]].over_budget


@pytest.mark.slow
def test_the_cut_is_one_finding_at_the_first_listing_of_the_first_url_not_requested(
    delayed: LiveServer, tmp_path: Path
) -> None:
    first = _write(tmp_path, "a.xml", _urlset("/status/200?0", "/status/200?1", "/status/200?2"))
    second = _write(tmp_path, "b.xml", _urlset("/status/200?2", "/status/200?3"))
    result = sitemap_lint.lint_paths([first, second], **_live(delayed, live_crawl_budget=0.25))
    assert _requested(delayed) == ["/status/200?0", "/status/200?1"]
    live = [f for f in result.findings if f.code[:2] == "LV"]  # (SE001: ?2 listed twice)
    assert [(f.path, f.code, f.line, f.column) for f in live] == [(str(first), "LV016", 5, 8)]
    assert live[0].message == (
        f"{SITE} asks for 0.2 s between requests (robots.txt Crawl-delay), so within the"
        " 0.25 s crawl budget only 2 of its 4 URLs were requested, the first in the files'"
        f" order: not {SITE}/status/200?2 and the 1 after it (all 4 would take 0.6 s); raise"
        " --live-crawl-budget to 0.6 to audit them all, or audit a sample with --live-sample"
    )
    assert live[0].severity == "warning" and result.exit_code == 0


@pytest.mark.slow
def test_the_cut_stands_at_its_first_url_not_requested_however_written(
    delayed: LiveServer, tmp_path: Path
) -> None:
    text = _urlset("/status/200?0", "/status/200?1", "/status/200?2")
    first = _write(
        tmp_path,
        "a.xml",
        text.replace(f"{SITE}/status/200?2", "http://EXAMPLE.com:80/status/200?2"),
    )
    second = _write(tmp_path, "b.xml", _urlset("/status/200?2", "/status/200?3"))
    result = sitemap_lint.lint_paths([first, second], **_live(delayed, live_crawl_budget=0.25))
    assert _requested(delayed) == ["/status/200?0", "/status/200?1"]
    live = [f for f in result.findings if f.code[:2] == "LV"]
    assert [(f.path, f.code, f.line, f.column) for f in live] == [(str(first), "LV016", 5, 8)]
    assert f"not {SITE}/status/200?2 and the 1 after it" in live[0].message


@pytest.mark.slow
def test_two_runs_request_the_same_urls_and_report_the_same(
    delayed: LiveServer, tmp_path: Path
) -> None:
    sitemap = _write(tmp_path, "s.xml", _urlset(*(f"/status/200?{n}" for n in range(5))))

    def run() -> tuple[list[str], dict[str, Any]]:
        delayed.reset(routes=False)
        out = io.StringIO()
        options = _live(delayed, format="json", now=NOW.date().isoformat())
        options["live_connect_to"] = tuple(options["live_connect_to"])  # type: ignore[arg-type]
        settings = RunSettings(paths=[str(sitemap)], live_crawl_budget=0.3, **options)
        assert execute(settings, out=out, err=io.StringIO()) == 0
        return _requested(delayed), json.loads(out.getvalue())

    requested, report = run()
    assert (requested, report) == run()
    assert requested == ["/status/200?0", "/status/200?1"]
    assert [f["code"] for f in report["files"][0]["findings"]] == ["LV016"]
    live = report["summary"]["live"]
    assert (live["listed"], live["requested"], live["statuses"]) == (5, 2, {"200": 2})


@pytest.mark.slow
def test_the_configuration_key_sets_the_budget_and_the_flag_wins(
    delayed: LiveServer, tmp_path: Path
) -> None:
    sitemap = _write(tmp_path, "s.xml", _urlset(*(f"/status/200?{n}" for n in range(3))))
    config = _write(tmp_path, ".sitemap-lint.toml", "live-crawl-budget = 0.1\n")
    options = _live(delayed, config=config)
    del options["isolated"]
    result = sitemap_lint.lint_paths([sitemap], **options)  # type: ignore[arg-type]
    assert _requested(delayed) == ["/status/200?0"]
    assert [f.code for f in result.findings] == ["LV016"]
    delayed.reset(routes=False)
    result = sitemap_lint.lint_paths([sitemap], **options, live_crawl_budget=math.inf)  # type: ignore[arg-type]
    assert _requested(delayed) == [f"/status/200?{n}" for n in range(3)]
    assert result.findings == ()


@pytest.mark.slow
def test_a_host_whose_urls_fit_is_requested_whole(delayed: LiveServer, tmp_path: Path) -> None:
    sitemap = _write(tmp_path, "s.xml", _urlset(*(f"/status/200?{n}" for n in range(3))))
    result = sitemap_lint.lint_paths([sitemap], **_live(delayed, live_crawl_budget=0.4))
    assert _requested(delayed) == [
        f"/status/200?{n}" for n in range(3)
    ]  # two delays of 0.2 s: they fit
    assert result.findings == ()
