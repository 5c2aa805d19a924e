"""RobotsPolicy: which robots.txt applies to a URL, what it lets a crawler fetch, and
which origins cross-submit a sitemap."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protego import Protego

from sitemap_lint.finding import Finding
from sitemap_lint.model import Node
from sitemap_lint.rules.urls import parse_url
from sitemap_lint.sets.robots import GOOGLE_LIMIT, RobotsPolicy, _Robots

ROBOTS_URL = "https://example.com/robots.txt"

GROUPS = """\
User-agent: *
Disallow: /private/
Disallow: /tmp/

User-agent: Googlebot
Disallow: /no-google/
"""


class Collected(list):
    def add(self, finding: Finding, covers=None) -> None:
        self.append(finding)


def findings(
    text: str, url: str, agent: str = "Googlebot", where: str = ROBOTS_URL
) -> list[Finding]:
    policy = RobotsPolicy(((where, text),), agent)
    return check(policy, url)


def check(policy: RobotsPolicy, url: str) -> list[Finding]:
    report = Collected()
    parsed = parse_url(url)
    assert parsed is not None, url
    policy.check(url, parsed, Node("", "loc", {}, 3, 5), report)
    return report


def disallowed(text: str, url: str, agent: str = "Googlebot") -> bool:
    return bool(findings(text, url, agent))


# -- groups ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "path", "blocked"),
    [
        ("Googlebot", "/no-google/page", True),
        ("Googlebot", "/private/page", False),  # its own group replaces the * group
        ("googlebot", "/no-google/page", True),  # agents compare without case
        ("Googlebot-Image", "/no-google/page", True),  # falls back to the googlebot group
        ("Bingbot", "/private/page", True),
        ("Bingbot", "/tmp/x", True),
        ("Bingbot", "/no-google/page", False),
    ],
)
def test_the_most_specific_group_applies(agent: str, path: str, blocked: bool) -> None:
    assert disallowed(GROUPS, f"https://example.com{path}", agent) is blocked


def test_groups_of_the_same_agent_are_merged() -> None:
    text = "User-agent: Googlebot\nDisallow: /a/\n\nUser-agent: *\nDisallow: /b/\n\nUser-agent: googlebot\nDisallow: /c/\n"
    assert disallowed(text, "https://example.com/a/1")
    assert disallowed(text, "https://example.com/c/1")
    assert not disallowed(text, "https://example.com/b/1")


def test_a_byte_order_mark_before_the_first_group_is_no_part_of_it() -> None:
    text = "\ufeffUser-agent: *\nDisallow: /private/\nSitemap: https://example.com/s.xml\n"
    assert len(findings(text, "https://example.com/private/a")) == 1
    policy = RobotsPolicy(((ROBOTS_URL, "\ufeffSitemap: https://example.com/s.xml\n"),), "x")
    sitemap = parse_url("https://example.com/s.xml")
    assert sitemap is not None
    assert policy.cross_origins(sitemap) == {"https://example.com"}


def test_the_live_audit_reads_past_a_byte_order_mark_too() -> None:
    from sitemap_lint.live.robots import read_rules

    rules = read_rules(200, "\ufeffUser-agent: *\nDisallow: /private/\n")
    assert rules.disallows("https://example.com/private/a")


def test_no_group_for_the_agent_allows_everything() -> None:
    text = "User-agent: Bingbot\nDisallow: /\n"
    assert not disallowed(text, "https://example.com/anything")
    assert disallowed(text, "https://example.com/anything", agent="Bingbot")


# -- rules -------------------------------------------------------------------------------


PRECEDENCE = """\
User-agent: *
Disallow: /shop/
Allow: /shop/public/
Allow: /page
Disallow: /page
Disallow: /docs
Allow: /docs/
"""


@pytest.mark.parametrize(
    ("path", "blocked"),
    [
        ("/shop/cart", True),
        ("/shop/public/offer", False),  # the longer Allow wins
        ("/shop", False),  # /shop/ does not match /shop
        ("/page", False),  # equal length: Allow wins
        ("/pages/2", False),
        ("/docs", True),
        ("/docs.html", True),
        ("/docs/intro", False),
    ],
)
def test_the_longest_matching_rule_wins(path: str, blocked: bool) -> None:
    assert disallowed(PRECEDENCE, f"https://example.com{path}") is blocked


WILDCARDS = """\
User-agent: *
Disallow: /*.pdf$
Disallow: /*/print
Disallow: /*?sessionid=
Disallow: /exact$
Disallow: /a*b*c
"""


@pytest.mark.parametrize(
    ("path", "blocked"),
    [
        ("/files/report.pdf", True),
        ("/files/report.pdf?download=1", False),  # $ ends the URL, query included
        ("/files/report.pdfx", False),
        ("/product/12/print", True),
        ("/product/12/printable", True),
        ("/print", False),  # the * needs a segment before /print
        ("/list?sessionid=abc", True),
        ("/list?page=2&sessionid=abc", False),  # '?' is literal: not '&'
        ("/exact", True),
        ("/exact/", False),
        ("/axxbyyc", True),
        ("/axxcyyb", False),
    ],
)
def test_wildcards_and_the_end_anchor(path: str, blocked: bool) -> None:
    assert disallowed(WILDCARDS, f"https://example.com{path}") is blocked


def test_percent_encoding_is_compared_decoded() -> None:
    text = "User-agent: *\nDisallow: /caf%C3%A9/\nDisallow: /%7Euser/\n"
    assert disallowed(text, "https://example.com/caf%c3%a9/menu")
    assert disallowed(text, "https://example.com/~user/home")


def test_robots_txt_itself_is_always_allowed() -> None:
    assert not disallowed("User-agent: *\nDisallow: /\n", "https://example.com/robots.txt")


# -- which robots.txt applies -----------------------------------------------------------------


BLOCK_ALL = "User-agent: *\nDisallow: /\n"


@pytest.mark.parametrize(
    "url",
    [
        "https://other.example/page",
        "http://example.com/page",  # another scheme is another origin
        "https://www.example.com/page",
        "https://example.com:8443/page",
    ],
)
def test_a_robots_txt_applies_to_its_origin_only(url: str) -> None:
    assert findings(BLOCK_ALL, url) == []


@pytest.mark.parametrize(
    "url", ["https://EXAMPLE.com/page", "https://example.com:443/page", "https://example.com"]
)
def test_the_origin_is_compared_normalised(url: str) -> None:
    assert len(findings(BLOCK_ALL, url)) == 1


def test_a_local_robots_txt_applies_everywhere() -> None:
    assert len(findings(BLOCK_ALL, "https://any.example/page", where="")) == 1
    assert len(findings(BLOCK_ALL, "http://other.example:8080/x", where="")) == 1


def test_one_finding_when_several_robots_txt_disallow() -> None:
    policy = RobotsPolicy(((ROBOTS_URL, BLOCK_ALL), ("", BLOCK_ALL)), "Googlebot")
    (finding,) = check(policy, "https://example.com/page")
    assert ROBOTS_URL in finding.message
    (finding,) = check(policy, "https://other.example/page")
    assert "the given robots.txt" in finding.message


def test_the_finding_is_at_the_node() -> None:
    (finding,) = findings(BLOCK_ALL, "https://example.com/page")
    assert (finding.code, finding.name, finding.line, finding.column) == (
        "RB007",
        "url-disallowed-by-robots",
        3,
        5,
    )


def test_an_unusable_robots_url_applies_nowhere() -> None:
    assert findings(BLOCK_ALL, "https://example.com/page", where="robots.txt") == []


def test_only_the_first_500_kib_count() -> None:
    text = "User-agent: *\n" + "#" * GOOGLE_LIMIT + "\nDisallow: /late/\n"
    assert not disallowed(text, "https://example.com/late/page")
    assert disallowed(text.replace("#" * GOOGLE_LIMIT, "#"), "https://example.com/late/page")


def test_hostile_robots_txt_is_harmless() -> None:
    text = "User-agent: *\nDisallow: /\ud800x\nDisallow: /" + "*a" * 200 + "*b$\n"
    url = "https://example.com/" + "a" * 5000
    assert not disallowed(text, url)


# -- cross-submission ------------------------------------------------------------------------


CROSS = (
    ("https://a.example/robots.txt", "Sitemap: https://hub.example/sitemaps/a.xml\n"),
    ("https://b.example/robots.txt", "sitemap: HTTPS://HUB.example:443/sitemaps/a.xml\n"),
    ("https://c.example/robots.txt", "Sitemap: https://hub.example/sitemaps/c.xml\n"),
    ("https://d.example/robots.txt", "Sitemap: /sitemaps/a.xml\n"),
    ("", "Sitemap: https://hub.example/sitemaps/a.xml\n"),
)


def test_cross_origins_are_those_listing_this_sitemap() -> None:
    policy = RobotsPolicy(CROSS, "Googlebot")
    sitemap = parse_url("https://hub.example/sitemaps/a.xml")
    assert policy.cross_origins(sitemap) == {"https://a.example", "https://b.example"}


def test_cross_origins_compare_the_whole_path() -> None:
    policy = RobotsPolicy(CROSS, "Googlebot")
    assert policy.cross_origins(parse_url("https://hub.example/sitemaps/a.xml.gz")) == set()
    assert policy.cross_origins(parse_url("http://hub.example/sitemaps/a.xml")) == set()


# -- the quick path agrees with protego --------------------------------------------------------


def test_the_quick_path_is_on_with_the_installed_protego() -> None:
    robots = _Robots(ROBOTS_URL, WILDCARDS, "Googlebot")
    assert robots._may_disallow is not None


# Small alphabets, so that patterns and paths often match; the specials leave the quick path.
_PATTERN = st.text(alphabet="ab*/", max_size=6)
_FIELD = st.sampled_from(["Disallow", "Disallow", "Disallow", "Allow"])
_END = st.sampled_from(["", "", "$", "%41", "?q", ".", "x-y"])
_FILLER = st.text(alphabet="ab./", max_size=3)
_SPECIALS = st.sampled_from(["", "", "", "", "%41", "?q=1", "é", "~u", "x-y="])


@st.composite
def _robots_and_url(draw) -> tuple[str, str]:
    agents = [draw(st.sampled_from(["*", "Googlebot", "Bingbot"]))]
    if draw(st.booleans()):
        agents.append("*")
    lines, patterns = [], []
    for agent in agents:
        lines.append(f"User-agent: {agent}")
        for _ in range(draw(st.integers(1, 3))):
            pattern = f"/{draw(_PATTERN)}{draw(_END)}"
            patterns.append(pattern)
            lines.append(f"{draw(_FIELD)}: {pattern}")
    # A path made from one of the patterns, its '*' filled in and its '$' dropped or not.
    model = draw(st.sampled_from(patterns))
    pieces = model.replace("$", "").split("*")
    path = pieces[0] + "".join(draw(_FILLER) + piece for piece in pieces[1:])
    path += draw(st.sampled_from(["", "", draw(_FILLER)])) + draw(_SPECIALS)
    return "\n".join(lines) + "\n", "https://example.com" + path


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(_robots_and_url())
def test_quick_path_agrees_with_protego(case: tuple[str, str]) -> None:
    text, url = case
    parsed = parse_url(url)
    if parsed is None:
        return
    expected = not Protego.parse(text).can_fetch(url, "Googlebot")
    assert disallowed(text, url) is expected
