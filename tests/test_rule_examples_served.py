"""The documented examples of rules that need a server, played against a local one.

tests/test_rule_examples.py checks the examples a file alone shows; the fetch and live
rules' examples are HTTP exchanges, or sitemaps whose findings come from the answers.
Where an example can be served as written, it is served here: the rule fires on it,
and not on its "Use instead"."""

from __future__ import annotations

from pathlib import Path

import pytest

import sitemap_lint
from sitemap_lint.finding import dedent_block
from sitemap_lint.rules import RULES
from tests.helpers import NOW
from tests.live_server import LiveServer, live_server  # noqa: F401
from tests.site_server import SiteServer, replayed

pytestmark = pytest.mark.slow

SITEMAP = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    b"<url><loc>https://example.com/</loc></url></urlset>\n"
)


def _examples(code: str) -> tuple[str, str]:
    _what, _why, bad, good, _lang = RULES[code].source  # type: ignore[misc]
    return dedent_block(bad), dedent_block(good)


def _response(exchange: str) -> bytes:
    """The response of a documented exchange (what follows the request, if shown),
    with a sitemap as its body where it shows none."""
    response = exchange[exchange.index("HTTP/1.1 ") :].rstrip("\n")
    return response.encode("latin-1") + b"\n\n" + SITEMAP


@pytest.mark.parametrize(("which", "fires"), [(0, True), (1, False)])
def test_fe007_s_exchange_gives_it_and_its_fix_does_not(which: int, fires: bool) -> None:
    exchange = _examples("FE007")[which]
    with SiteServer() as site:
        site.routes["/sitemap.xml"] = replayed(_response(exchange))
        found = sitemap_lint.lint_paths([site.url("/sitemap.xml")], now=NOW, isolated=True)
    codes = {finding.code for finding in found.findings}
    assert ("FE007" in codes) is fires, codes


def _served_sitemap(example: str, server: LiveServer, tmp_path: Path) -> list[str]:
    """The LV codes of ``example``'s entries, their pages served by ``server``."""
    entries = example.replace("https://www.example.com/", "http://example.com/")
    for page in ("a", "b", "c"):
        server.route(f"/{page}", body="<html><head><title>A page</title></head></html>")
    path = tmp_path / "sitemap.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{entries}\n</urlset>\n',
        encoding="utf-8",
    )
    found = sitemap_lint.lint(
        path,
        now=NOW,
        isolated=True,
        live=True,
        no_live_cache=True,
        live_timeout=10.0,
        live_connect_to=(f"example.com:80:{server.origin}",),
    )
    return [finding.code for finding in found if finding.code.startswith("LV")]


def test_lv011_s_example_gives_it_and_its_fix_does_not(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    bad, good = _examples("LV011")
    assert _served_sitemap(bad, live_server, tmp_path) == ["LV011"]
    assert _served_sitemap(good, live_server, tmp_path) == []
