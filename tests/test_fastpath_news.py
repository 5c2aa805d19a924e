"""The fast path proves clean ``news:news`` elements (fastpath/news.py) and never
changes a result: every input is checked with and without it (``check_both``), and
the clean ones must have their entries proved."""

from __future__ import annotations

import random

import pytest

from tests.test_fastpath import NS, assert_same_json, check_both, entered_stretches, write

NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"
# tests.helpers.NOW is 2025-06-01T00:00:00Z: articles of the day before are fresh.
FRESH = "2025-05-31T10:00:00+00:00"

# A defect (or an odd form) in one child: (the child's name, what is written instead of
# it; "" drops it). Each makes a finding or is a form the proof leaves alone.
DEFECTS = (
    ("name", ""),
    ("name", "<N:name></N:name>"),
    ("name", "<N:name>   </N:name>"),
    ("name", "<N:name>The Example Times (subscription)</N:name>"),
    ("name", "<N:name>The Other Times</N:name>"),
    ("name", "<N:name>the example times</N:name>"),
    ("name", "<N:name> The Example Times </N:name>"),
    ("name", "<N:name>The Example &amp; Times</N:name>"),
    ("name", "<N:name>The &#69;xample Times</N:name>"),
    ("name", "<N:name>The Example Times&#10;</N:name>"),
    ("name", "<N:name><![CDATA[The Example Times]]></N:name>"),
    ("name", "<N:name>The Example <!-- c --> Times</N:name>"),
    ("name", '<N:name lang="en">The Example Times</N:name>'),
    ("language", "<N:language>EN</N:language>"),
    ("language", "<N:language>en-US</N:language>"),
    ("language", "<N:language>zh</N:language>"),
    ("language", "<N:language>zh-cn</N:language>"),
    ("language", "<N:language>xx</N:language>"),
    ("language", "<N:language>und</N:language>"),
    ("language", "<N:language>iw</N:language>"),
    ("language", "<N:language> en</N:language>"),
    ("language", "<N:language>English</N:language>"),
    ("language", "<N:language></N:language>"),
    ("language", ""),
    ("date", "<N:publication_date>2025-05-20T10:00:00+00:00</N:publication_date>"),
    ("date", "<N:publication_date>2025-05-31T10:00+00:00</N:publication_date>"),
    ("date", "<N:publication_date>2025-05-31T10:00:00</N:publication_date>"),
    ("date", "<N:publication_date>2025-05-31</N:publication_date>"),
    ("date", "<N:publication_date>2025-05-30</N:publication_date>"),
    ("date", "<N:publication_date>2025-02-30</N:publication_date>"),
    ("date", "<N:publication_date>2099-01-01T00:00:00Z</N:publication_date>"),
    ("date", "<N:publication_date>2025-05-31 10:00:00</N:publication_date>"),
    ("date", "<N:publication_date>&#50;025-05-31T10:00:00Z</N:publication_date>"),
    ("date", "<N:publication_date></N:publication_date>"),
    ("date", ""),
    ("title", "<N:title>" + "t" * 110 + "</N:title>"),
    ("title", "<N:title>" + "t" * 111 + "</N:title>"),
    ("title", "<N:title>" + "t" * 108 + "&amp;&amp;&amp;</N:title>"),
    ("title", "<N:title>Harvest prices | The Example Times</N:title>"),
    ("title", "<N:title>The Example Times: harvest prices</N:title>"),
    ("title", "<N:title>Harvest prices on 2025-05-31</N:title>"),
    ("title", "<N:title>Time to act on prices</N:title>"),
    ("title", "<N:title></N:title>"),
    ("title", "<N:title>  </N:title>"),
    ("title", "<N:title>Caf\u00e9 prices \u00ab rise \u00bb \U0001f4c8</N:title>"),
    ("title", "<N:title>\u00a0Prices\u00a0</N:title>"),
    ("title", "<N:title>Prices \ufffd rise</N:title>"),
    ("title", "<N:title>Prices &#233; rise</N:title>"),
    ("title", "<N:title>Prices &lt;rise&gt; &quot;a&quot; &apos;b&apos;</N:title>"),
    ("title", "<N:title>Prices & rise</N:title>"),
    ("title", "<N:title>Prices\n rise</N:title>"),
    ("title", ""),
    ("legacy", "<N:keywords>prices, harvest</N:keywords>"),
    ("legacy", "<N:genres>Blog</N:genres>"),
    ("legacy", "<N:access>Subscription</N:access>"),
    ("order", "<N:title>Again</N:title>"),
    ("order", "<!-- a comment between children -->"),
    ("order", "<?pi between children?>"),
    ("order", "stray text"),
    ("order", "<N:unknown>x</N:unknown>"),
)
CHILDREN = ("publication", "legacy", "date", "title")


def news_head(prefix: str = "news") -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}"\n'
        f'  xmlns:{prefix}="{NEWS_NS}">\n'
    )


def news_children(i: int) -> dict[str, str]:
    """A clean news:news's children by name (``name`` and ``language`` inside the
    publication), with ``N`` for the prefix."""
    return {
        "name": "<N:name>The Example Times</N:name>",
        "language": "<N:language>en</N:language>",
        "date": f"<N:publication_date>{FRESH}</N:publication_date>",
        "title": f"<N:title>Harvest &amp; prices: &quot;a record&quot; in region {i}</N:title>",
    }


def news_block(children: dict[str, str], gap: str = "\n      ") -> str:
    publication = [children.pop(name) for name in ("name", "language") if name in children]
    items = {"publication": "<N:publication>" + gap.join(publication) + "</N:publication>"}
    items.update(children)
    ordered = [items.pop(name) for name in CHILDREN if name in items] + list(items.values())
    return "<N:news>" + gap + gap.join(ordered) + gap + "</N:news>"


def news_entry(i: int, rng: random.Random, prefix: str = "news", odd: float = 0.0) -> str:
    """A url entry, with a news:news in about half of them; with probability ``odd``
    one child carries a defect of DEFECTS."""
    loc = f"<loc>https://www.example.com/news/article-{i}</loc>"
    if rng.random() < 0.5:
        return f"  <url>\n    {loc}\n  </url>\n"
    children = news_children(i)
    if rng.random() < odd:
        name, written = rng.choice(DEFECTS)
        children[name] = written
    gap = rng.choice(["", "\n      ", " ", "\t"])
    block = news_block(children, gap).replace("N:", f"{prefix}:")
    if rng.random() < 0.2:
        return f"  <url>{loc}{block}</url>\n"
    return f"  <url>\n    {loc}\n    {block}\n  </url>\n"


def news_sitemap(count: int, seed: int = 0, odd: float = 0.0, prefix: str = "news") -> str:
    rng = random.Random(seed)
    entries = "".join(news_entry(i, rng, prefix, odd) for i in range(count))
    return news_head(prefix) + entries + "</urlset>\n"


@pytest.mark.parametrize("window", [None, 700, 4096])
@pytest.mark.parametrize("prefix", ["news", "n"])
def test_clean_news_entries_are_proved(monkeypatch, tmp_path, window, prefix):
    path = write(tmp_path, news_sitemap(300, 7, prefix=prefix))
    outcome = check_both(monkeypatch, path, window)
    assert outcome.findings == []
    # Entries split across small blocks go to the full checker.
    assert outcome.proved >= (295 if window is None else 30)


@pytest.mark.parametrize(("name", "written"), DEFECTS)
def test_a_defect_in_a_news_child_reports_the_same(monkeypatch, tmp_path, name, written):
    entries = [news_entry(i, random.Random(i)) for i in range(40)]
    children = news_children(20)
    children[name] = written
    block = news_block(children).replace("N:", "news:")
    entries[20] = f"  <url><loc>https://www.example.com/news/article-20</loc>{block}</url>\n"
    path = write(tmp_path, news_head() + "".join(entries) + "</urlset>\n")
    outcome = check_both(monkeypatch, path)
    assert outcome.proved >= 39  # the others are proved
    assert_same_json(monkeypatch, path)


@pytest.mark.parametrize("seed", range(6))
def test_news_with_defects_reports_the_same(monkeypatch, tmp_path, seed):
    path = write(tmp_path, news_sitemap(200, seed, odd=0.3))
    outcome = check_both(monkeypatch, path, [None, 700, 4096][seed % 3])
    assert outcome.proved > 0
    assert_same_json(monkeypatch, path)
    assert_same_json(monkeypatch, path, unsafe_fixes=True)


def test_a_second_publication_name_is_reported_once_as_without_the_fast_path(monkeypatch, tmp_path):
    """The first name is the file's (proved or not); a proved entry with another name
    gets NW007 at its news:name, named by its pointer, once a file."""
    text = news_sitemap(120, 2).replace(
        "<news:name>The Example Times</news:name>", "<news:name>Example Daily</news:name>", 1
    )
    path = write(tmp_path, text)
    outcome = check_both(monkeypatch, path)
    assert outcome.proved >= 115
    [finding] = [f for f in outcome.findings if f.code == "NW007"]
    assert finding.xpath is not None and finding.xpath.endswith("/news:publication[1]/news:name")
    assert_same_json(monkeypatch, path)


def test_the_news_past_the_thousandth_is_reported_as_without_the_fast_path(monkeypatch, tmp_path):
    entries = "".join(
        f"<url><loc>https://www.example.com/a/{i}</loc>"
        + news_block(news_children(i), "").replace("N:", "news:")
        + "</url>\n"
        for i in range(1003)
    )
    path = write(tmp_path, news_head() + entries + "</urlset>\n")
    outcome = check_both(monkeypatch, path)
    assert outcome.proved >= 1000
    [finding] = [f for f in outcome.findings if f.code == "NW005"]
    assert finding.line == 1004  # the 1,001st entry's line (after the head's three)
    assert finding.xpath is not None and finding.xpath.endswith("/url[1001]/news:news[1]")
    assert_same_json(monkeypatch, path)


IMAGE = "<image:image><image:loc>https://cdn.example.com/{i}.jpg</image:loc></image:image>"
LINK = '<xhtml:link rel="alternate" hreflang="{code}" href="https://www.example.com/news/article-{i}"/>'


@pytest.mark.parametrize(
    ("items", "proved"),
    [
        ("{news}{image}", True),
        ("{image}{news}{image2}", True),
        ("{image}\n    <!-- x -->\n    {news}", True),
        ("<!-- {image} -->{news}{image}", True),
        ("{news}<?pi?>{image}", True),
        ("{link}{news}", True),
        ("{news}{image}{link}", True),
        ("{news}{image}{image}", False),  # an image twice (IM003)
        ("{news}{news}", False),  # two news:news (NW004)
        ("{news}<image:image/>", False),
        ("{bad_news}{image}", False),
        (
            "{news}<image:image><image:loc>https://cdn.example.com/a b.jpg</image:loc></image:image>",
            False,
        ),
        (
            '{news}<xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/x"/>',
            False,
        ),
    ],
)
def test_news_beside_images_and_alternates(monkeypatch, tmp_path, items, proved):
    """A news:news beside images and hreflang alternates: each proved as without the
    other, their checkers made in the order their elements first appear."""
    image = "http://www.google.com/schemas/sitemap-image/1.1"
    xhtml = "http://www.w3.org/1999/xhtml"
    head = news_head().replace(
        f'xmlns:news="{NEWS_NS}">',
        f'xmlns:news="{NEWS_NS}" xmlns:image="{image}" xmlns:xhtml="{xhtml}">',
    )
    entries = []
    for i in range(60):
        children = news_children(i)
        news = news_block(dict(children)).replace("N:", "news:")
        children["language"] = "<N:language>EN</N:language>"
        bad_news = news_block(children).replace("N:", "news:")
        written = items.format(
            news=news,
            bad_news=bad_news,
            image=IMAGE.format(i=i),
            image2=IMAGE.format(i=f"{i}-2"),
            link=LINK.format(i=i, code="en"),
        )
        loc = f"<loc>https://www.example.com/news/article-{i}</loc>"
        entries.append(f"  <url>\n    {loc}\n    {written}\n  </url>\n")
    path = write(tmp_path, head + "".join(entries) + "</urlset>\n")
    outcome = check_both(monkeypatch, path)
    assert outcome.proved == (60 if proved else 0)
    assert_same_json(monkeypatch, path)


@pytest.mark.parametrize(
    ("beside", "stretches"),
    [
        ("", [(1, 100, True)]),
        (IMAGE.format(i=0), [(1, 100, True)]),
        (LINK.format(i=0, code="en").replace("article-0", "a"), [(1, 60, True), (61, 100, True)]),
    ],
    ids=["news-alone", "news-and-image", "news-and-alternate"],
)
def test_the_entries_around_a_news_entry_are_entered_together(
    monkeypatch, tmp_path, beside, stretches
):
    """A run's entries are entered in steps over all of them, an entry with a news:news
    (and an image) among them; an entry with hreflang alternates is entered alone,
    between two stretches (the alternates' records are kept entry by entry)."""
    plain = [f"  <url><loc>https://www.example.com/p/{i}</loc></url>\n" for i in range(100)]
    block = news_block(news_children(0)).replace("N:", "news:")
    plain[60] = f"  <url><loc>https://www.example.com/news/a</loc>{block}{beside}</url>\n"
    image = "http://www.google.com/schemas/sitemap-image/1.1"
    xhtml = "http://www.w3.org/1999/xhtml"
    head = news_head().replace(
        f'xmlns:news="{NEWS_NS}">',
        f'xmlns:news="{NEWS_NS}" xmlns:image="{image}" xmlns:xhtml="{xhtml}">',
    )
    path = write(tmp_path, head + "".join(plain) + "</urlset>\n")
    assert check_both(monkeypatch, path).proved == 100
    entered = entered_stretches(monkeypatch, path)
    # (The first entry is entered alone: its URL sets the scope check's origin.)
    assert entered == stretches
