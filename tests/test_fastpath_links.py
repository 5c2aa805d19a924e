"""The fast path looks an entry's xhtml:link alternates up by their text (from the first
link to the end of the last): entries whose links read alike but for their end, or
alike with images between them, or alike on a page they do not list, must be reported
as the full checker reports them."""

from __future__ import annotations

import pytest

from tests.test_fastpath import (
    assert_same_json,
    check_both,
    extension_head,
    json_report,
    write,
)

PAGE = "https://www.example.com/{}/page-{}"


def _link(code: str, cluster: int, target: str | None = None) -> str:
    href = PAGE.format(target or code, cluster)
    return f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>'


def _image(cluster: int, n: int) -> str:
    return f"<image:image><image:loc>https://cdn.example.com/{cluster}-{n}.jpg</image:loc></image:image>"


def _entry(own: str, cluster: int, items: list[str]) -> str:
    inner = "\n    ".join([f"<loc>{PAGE.format(own, cluster)}</loc>", *items])
    return f"  <url>\n    {inner}\n  </url>\n"


def _sitemap(entries: list[str]) -> str:
    return extension_head() + "".join(entries) + "</urlset>\n"


@pytest.mark.parametrize("window", [None, 900])
def test_links_that_read_alike_but_for_their_end(monkeypatch, tmp_path, window) -> None:
    entries = []
    for cluster in range(30):
        same = [_link("en", cluster), _link("de", cluster), _link("fr", cluster)]
        # The first member's last link points at another page: the text before it agrees.
        other = [*same[:2], _link("fr", cluster, "it")]
        entries += [
            _entry("en", cluster, other if cluster % 3 == 0 else same),
            _entry("de", cluster, same),
            _entry("fr", cluster, same),
        ]
    outcome = check_both(monkeypatch, write(tmp_path, _sitemap(entries)), window)
    assert outcome.proved > 30
    # The checks across entries read the records (in the set facts, compared too).
    assert _pointing_at(outcome, "/it/") == 10


def _pointing_at(outcome, part: str) -> int:
    """How many records of the set facts have a link to a URL holding ``part``."""
    return sum(any(part in href for _code, href in r.links) for r in outcome.facts[6])


@pytest.mark.parametrize("window", [None, 1200])
def test_links_with_images_between_them(monkeypatch, tmp_path, window) -> None:
    entries = []
    for cluster in range(30):
        links = [_link("en", cluster), _link("de", cluster)]
        for own in ("en", "de"):
            between = [links[0], _image(cluster, 0), links[1], _image(cluster, 1)]
            if cluster % 4 == 1 and own == "de":
                between[0] = _link("en", cluster, "uk")  # another page, images alike
            entries.append(_entry(own, cluster, between))
    outcome = check_both(monkeypatch, write(tmp_path, _sitemap(entries)), window)
    assert outcome.proved > 30
    assert _pointing_at(outcome, "/uk/") == 8


def test_links_alike_on_a_page_they_do_not_list(monkeypatch, tmp_path) -> None:
    entries = []
    for cluster in range(20):
        links = [_link("en", cluster), _link("de", cluster)]
        entries += [_entry("en", cluster, links), _entry("de", cluster, links)]
        # The same text again on a third page, which it does not list (HL004).
        entries.append(_entry("fr", cluster, links))
    outcome = check_both(monkeypatch, write(tmp_path, _sitemap(entries)))
    assert outcome.proved >= 40
    assert "HL004" in {f.code for f in outcome.findings}


@pytest.mark.parametrize("window", [None, 800])
def test_image_hosts_that_start_alike(monkeypatch, tmp_path, window) -> None:
    # An image host is proved once per start of URL: a host that only begins like a
    # proved one, or a URL without a path, is looked at again.
    hosts = [
        "https://cdn.example.com/{}.jpg",
        "https://cdn.example.com-/{}.jpg",
        "https://cdn.example.com.x-/{}.jpg",
        "https://cdn.example.com?{}",
        "http://cdn.example.com/{}.jpg",
        "https://cdn.example.co/{}.jpg",
    ]
    entries = []
    for cluster in range(40):
        images = [
            "<image:image><image:loc>"
            + hosts[(cluster + n) % len(hosts)].format(f"{cluster}-{n}")
            + "</image:loc></image:image>"
            for n in range(2)
        ]
        entries.append(_entry("en", cluster, images))
    outcome = check_both(monkeypatch, write(tmp_path, _sitemap(entries)), window)
    assert outcome.proved >= 5
    assert "UR010" in {f.code for f in outcome.findings}


@pytest.mark.parametrize("window", [None, 900])
def test_extension_urls_not_in_canonical_form(monkeypatch, tmp_path, window) -> None:
    """An image's URL or an alternate's href with a default port, dot segments, an empty
    path or upper-case letters in its host (UR018) is left to the full checker, which
    reports it; the others are proved."""
    odd = [
        "https://cdn.example.com:443/{}.jpg",
        "https://cdn.example.com/a/./{}.jpg",
        "https://cdn.example.com/a/../{}.jpg",
        "https://CDN.example.com/{}.jpg",
    ]
    entries = []
    for cluster in range(40):
        image = "https://cdn.example.com/{}.jpg"
        if cluster % 5 == 1:
            image = odd[cluster // 5 % len(odd)]
        items = [
            _link("en", cluster),
            _link("de", cluster),
            f"<image:image><image:loc>{image.format(cluster)}</image:loc></image:image>",
        ]
        if cluster % 7 == 3:  # an href written with the default port
            items[1] = items[1].replace("www.example.com/", "www.example.com:443/")
        entries += [_entry("en", cluster, items), _entry("de", cluster, items[:2])]
    outcome = check_both(monkeypatch, write(tmp_path, _sitemap(entries)), window)
    assert outcome.proved >= 30
    lines = [f.line for f in outcome.findings if f.code == "UR018"]
    assert len(lines) == 8 + 2 * 6  # the images, and the hrefs (in both entries)


@pytest.mark.parametrize("window", [None, 900])
def test_alternates_no_entry_lists(monkeypatch, tmp_path, window) -> None:
    """Proved entries whose alternates name a page no entry lists (HL009), or one listed
    without alternates (HL006), as the full checker reports them."""
    entries = []
    for cluster in range(40):
        links = [_link("en", cluster), _link("de", cluster)]
        entries.append(_entry("en", cluster, links))
        if cluster % 4 == 1:
            continue  # its German page is listed by no entry
        entries.append(_entry("de", cluster, [] if cluster % 4 == 2 else links))
    path = write(tmp_path, _sitemap(entries))
    outcome = check_both(monkeypatch, path, window)  # (the records: the set facts)
    assert outcome.proved > 30
    report = json_report(monkeypatch, path, "1")
    assert '"HL009": 10' in report and '"HL006": 10' in report  # (the counts)
    assert_same_json(monkeypatch, path)


@pytest.mark.parametrize("window", [None, 900])
@pytest.mark.parametrize("quote", ['"', "'"])
def test_hrefs_with_an_escaped_ampersand_in_their_query(monkeypatch, tmp_path, window, quote):
    """Alternates of pages told apart by their query, "&amp;" between its parameters (as
    the loc writes it): proved, each href read as expat reads it. An href with "&amp;amp;"
    (UR017) or a raw "&" is left to the full checker, which reports it."""

    def page(code: str, cluster: int) -> str:
        return f"https://www.example.com/p?id={cluster}&amp;lang={code}"

    def link(code: str, cluster: int, href: str | None = None) -> str:
        written = f"rel={quote}alternate{quote} hreflang={quote}{code}{quote}"
        return f"<xhtml:link {written} href={quote}{href or page(code, cluster)}{quote}/>"

    entries = []
    for cluster in range(40):
        links = [link("en", cluster), link("de", cluster)]
        if cluster == 17:
            links[1] = link("de", cluster, page("de", cluster).replace("&amp;", "&amp;amp;"))
        if cluster == 23:
            links[1] = link("de", cluster, page("de", cluster).replace("&amp;", "&"))
        for code in ("en", "de"):
            inner = "\n    ".join([f"<loc>{page(code, cluster)}</loc>", *links])
            entries.append(f"  <url>\n    {inner}\n  </url>\n")
    path = write(tmp_path, _sitemap(entries))
    outcome = check_both(monkeypatch, path, window)
    assert outcome.proved >= 50  # (of 80; fewer in small blocks, which split entries)
    assert {f.code for f in outcome.findings} == {"HL004", "XM004"}
    assert_same_json(monkeypatch, path)
