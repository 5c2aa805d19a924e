"""Google sitemap extension schemas: compile offline and agree across lxml and xmlschema.

Every document is validated with both engines against the bundle schemas. For invalid documents
both engines must place the first error on the same line (see test_invalid_documents), and that
line must be the one marked with ERROR in the snippet.
"""

from __future__ import annotations

import functools
import importlib.resources
import socket

import lxml.etree
import pytest
import xmlschema

SCHEMAS = importlib.resources.files("sitemap_lint.schemas")
BUNDLE_URLSET = "bundle-urlset.xsd"
BUNDLE_SITEINDEX = "bundle-siteindex.xsd"
ERROR = "<!-- ERROR -->"

NAMESPACES = """\
 xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
 xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
 xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
 xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
 xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0"
 xmlns:xhtml="http://www.w3.org/1999/xhtml\""""


def urlset(body: str) -> str:
    """A complete sitemap with one url entry whose extension elements are `body`."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset{NAMESPACES}>
  <url>
    <loc>https://example.com/page.html</loc>
    <lastmod>2024-05-01</lastmod>
{body}
  </url>
</urlset>
"""


def sitemapindex(body: str) -> str:
    """A complete sitemap index with one sitemap entry whose extension elements are `body`."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex{NAMESPACES}>
  <sitemap>
    <loc>https://example.com/sitemap-1.xml</loc>
    <lastmod>2024-05-01T10:00:00+00:00</lastmod>
{body}
  </sitemap>
</sitemapindex>
"""


def video(tail: str) -> str:
    """A video with its required children and a content_loc, followed by `tail`."""
    return f"""    <video:video>
      <video:thumbnail_loc>https://example.com/thumbs/1.jpg</video:thumbnail_loc>
      <video:title>Grilling steaks</video:title>
      <video:description>How to grill steaks.</video:description>
      <video:content_loc>https://example.com/video/1.mp4</video:content_loc>
{tail}
    </video:video>"""


def news(middle: str = "", tail: str = "") -> str:
    """A news element with its required children, `middle` after publication, `tail` at the end."""
    return f"""    <news:news>
      <news:publication>
        <news:name>The Example Times</news:name>
        <news:language>en</news:language>
      </news:publication>
{middle}
      <news:publication_date>2024-05-01</news:publication_date>
      <news:title>Companies A, B in merger talks</news:title>
{tail}
    </news:news>"""


FULL_URL = """\
    <image:image>
      <image:loc>https://cdn.example.net/photos/1.jpg</image:loc>
      <image:caption>A dog on a beach</image:caption>
      <image:geo_location>Limerick, Ireland</image:geo_location>
      <image:title>Dog</image:title>
      <image:license>https://example.com/image-license</image:license>
    </image:image>
    <image:image>
      <image:loc>https://cdn.example.net/photos/2.jpg</image:loc>
    </image:image>
    <video:video>
      <video:thumbnail_loc>https://example.com/thumbs/1.jpg</video:thumbnail_loc>
      <video:title>Grilling steaks for summer</video:title>
      <video:description>Alkis shows you how to get perfectly done steaks.</video:description>
      <video:content_loc>https://streamserver.example.com/video1.mp4</video:content_loc>
      <video:player_loc allow_embed="yes" autoplay="ap=1">https://example.com/p</video:player_loc>
      <video:duration>600</video:duration>
      <video:expiration_date>2030-11-05T19:20:30+08:00</video:expiration_date>
      <video:rating>4.2</video:rating>
      <video:content_segment_loc duration="300">https://ex.com/s1.mp4</video:content_segment_loc>
      <video:content_segment_loc duration="300">https://ex.com/s2.mp4</video:content_segment_loc>
      <video:view_count>12345</video:view_count>
      <video:publication_date>2024-04-01T19:20:30.45+08:00</video:publication_date>
      <video:tag>steak</video:tag>
      <video:tag>summer</video:tag>
      <video:category>Grilling</video:category>
      <video:family_friendly>Yes</video:family_friendly>
      <video:restriction relationship="allow">IE GB US CA</video:restriction>
      <video:gallery_loc title="Cooking Videos">https://example.com/gallery</video:gallery_loc>
      <video:price currency="EUR" type="rent" resolution="HD">1.99</video:price>
      <video:price currency="EUR" type="PURCHASE" resolution="sd">9.99</video:price>
      <video:requires_subscription>NO</video:requires_subscription>
      <video:uploader info="https://example.com/users/grilly">Grilly</video:uploader>
      <video:tvshow>
        <video:show_title>Grill School</video:show_title>
        <video:video_type>full</video:video_type>
        <video:episode_title>Steaks</video:episode_title>
        <video:season_number>2</video:season_number>
        <video:episode_number>7</video:episode_number>
        <video:premier_date>2024-03-01</video:premier_date>
      </video:tvshow>
      <video:platform relationship="allow">web mobile tv</video:platform>
      <video:live>no</video:live>
      <video:id type="url">https://example.com/id/1</video:id>
      <video:id type="tms:program">EP012345678901</video:id>
    </video:video>
    <news:news>
      <news:publication>
        <news:name>The Example Times</news:name>
        <news:language>zh-cn</news:language>
      </news:publication>
      <news:access>Subscription</news:access>
      <news:genres>PressRelease, Blog,OpEd</news:genres>
      <news:publication_date>2024-05-01T13:00:00Z</news:publication_date>
      <news:title>Companies A, B in merger talks</news:title>
      <news:keywords>business, merger, acquisition</news:keywords>
      <news:stock_tickers>NASDAQ:A, NASDAQ:B, BOM:500325, NYSE:BRK.A, LON:VOD</news:stock_tickers>
    </news:news>
    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/page.html"/>
    <xhtml:link rel="alternate" hreflang="en-GB" href="https://example.com/uk/page.html"/>
    <xhtml:link rel="alternate" hreflang="zh-Hant-TW" href="https://example.com/tw/page.html"/>
    <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/page.html"/>
    <xhtml:link charset="UTF-8" href="https://example.com/de/page.html" hreflang="de"
                type="text/html" rel="alternate" rev="alternate" media="screen" id="de-link"
                class="alt lang" style="" title="Deutsch" lang="en" dir="ltr"/>
    <mobile:mobile/>"""

VALID = [
    pytest.param(urlset(FULL_URL), id="full-example"),
    pytest.param(urlset(""), id="no-extensions"),
    pytest.param(
        urlset(video('      <video:restriction relationship="deny"></video:restriction>')),
        id="video-empty-restriction",
    ),
    pytest.param(
        urlset(video('      <video:platform relationship="deny"/>')), id="video-empty-platform"
    ),
    pytest.param(
        urlset(
            video(
                "      <video:duration>0</video:duration>\n"
                "      <video:rating>5</video:rating>\n"
                "      <video:family_friendly>YES</video:family_friendly>\n"
                "      <video:requires_subscription>yes</video:requires_subscription>\n"
                "      <video:live>No</video:live>"
            )
        ),
        id="video-bounds-and-yes-no-case",
    ),
    pytest.param(
        urlset(video("\n".join(["      <video:tag>t</video:tag>"] * 32))), id="video-32-tags"
    ),
    pytest.param(
        urlset(news("      <news:genres>UserGenerated</news:genres>")), id="news-one-genre"
    ),
    pytest.param(
        urlset(news(tail="      <news:stock_tickers>NASDAQ:AMAT</news:stock_tickers>")),
        id="news-one-ticker",
    ),
    pytest.param(sitemapindex(""), id="index-entry"),
]

# Each invalid snippet marks with ERROR the line where the first error is expected.
INVALID = [
    pytest.param(
        urlset(
            """    <image:image>
      <image:title>Dog</image:title> <!-- ERROR -->
      <image:loc>https://cdn.example.net/photos/1.jpg</image:loc>
    </image:image>"""
        ),
        id="image-child-order",
    ),
    pytest.param(
        urlset("""    <image:image>
      <image:caption>A dog</image:caption> <!-- ERROR -->
    </image:image>"""),
        id="image-missing-loc",
    ),
    pytest.param(
        urlset(
            """    <image:image>
      <image:loc>https://cdn.example.net/photos/1.jpg</image:loc>
      <image:width>640</image:width> <!-- ERROR -->
    </image:image>"""
        ),
        id="image-unknown-child",
    ),
    pytest.param(
        urlset("    <image:loc>https://cdn.example.net/photos/1.jpg</image:loc> <!-- ERROR -->"),
        id="image-namespace-unknown-global",
    ),
    pytest.param(
        urlset(
            """    <video:video>
      <video:title>Grilling steaks</video:title> <!-- ERROR -->
      <video:description>How to grill steaks.</video:description>
      <video:content_loc>https://example.com/video/1.mp4</video:content_loc>
    </video:video>"""
        ),
        id="video-missing-thumbnail",
    ),
    pytest.param(
        urlset(
            video("").replace(
                "<video:title>Grilling steaks</video:title>",
                f"<video:title>{'x' * 101}</video:title> {ERROR}",
            )
        ),
        id="video-title-101-chars",
    ),
    pytest.param(
        urlset(
            video("").replace(
                "<video:description>How to grill steaks.</video:description>",
                f"<video:description>{'x' * 2049}</video:description> {ERROR}",
            )
        ),
        id="video-description-2049-chars",
    ),
    pytest.param(
        urlset(video(f"      <video:category>{'c' * 257}</video:category> {ERROR}")),
        id="video-category-257-chars",
    ),
    pytest.param(
        urlset(
            video(
                "      <video:duration>60</video:duration>\n"
                "      <video:player_loc>https://example.com/p</video:player_loc> <!-- ERROR -->"
            )
        ),
        id="video-child-order",
    ),
    pytest.param(
        urlset(video("      <video:duration>28801</video:duration> <!-- ERROR -->")),
        id="video-duration-28801",
    ),
    pytest.param(
        urlset(
            video(
                '      <video:content_segment_loc duration="28801">'
                "https://example.com/s.mp4</video:content_segment_loc> <!-- ERROR -->"
            )
        ),
        id="video-segment-duration-28801",
    ),
    pytest.param(
        urlset(video("      <video:rating>5.1</video:rating> <!-- ERROR -->")),
        id="video-rating-5.1",
    ),
    pytest.param(
        urlset(video("      <video:view_count>-1</video:view_count> <!-- ERROR -->")),
        id="video-view-count-negative",
    ),
    pytest.param(
        urlset(
            video("      <video:expiration_date>2024-05</video:expiration_date> <!-- ERROR -->")
        ),
        id="video-expiration-year-month",
    ),
    pytest.param(
        urlset(
            video(
                "\n".join(["      <video:tag>t</video:tag>"] * 32)
                + "\n      <video:tag>t</video:tag> <!-- ERROR -->"
            )
        ),
        id="video-33-tags",
    ),
    pytest.param(
        urlset(video("      <video:restriction>IE GB</video:restriction> <!-- ERROR -->")),
        id="video-restriction-without-relationship",
    ),
    pytest.param(
        urlset(
            video('      <video:restriction relationship="permit">IE</video:restriction> ' + ERROR)
        ),
        id="video-relationship-permit",
    ),
    pytest.param(
        urlset(
            video(
                '      <video:restriction relationship="allow">ie gb</video:restriction> ' + ERROR
            )
        ),
        id="video-restriction-lower-case",
    ),
    pytest.param(
        urlset(
            video(
                '      <video:platform relationship="allow">web  tv</video:platform> <!-- ERROR -->'
            )
        ),
        id="video-platform-double-space",
    ),
    pytest.param(
        urlset(
            video('      <video:platform relationship="allow">desktop</video:platform> ' + ERROR)
        ),
        id="video-platform-unknown",
    ),
    pytest.param(
        urlset(video('      <video:price currency="eur">1.99</video:price> <!-- ERROR -->')),
        id="video-price-currency",
    ),
    pytest.param(
        urlset(video('      <video:price currency="EUR" type="buy">1.99</video:price> ' + ERROR)),
        id="video-price-type",
    ),
    pytest.param(
        urlset(video('      <video:price resolution="4K">1.99</video:price> <!-- ERROR -->')),
        id="video-price-resolution",
    ),
    pytest.param(
        urlset(video("      <video:family_friendly>true</video:family_friendly> <!-- ERROR -->")),
        id="video-yes-no-true",
    ),
    pytest.param(
        urlset(
            video(
                '      <video:player_loc allow_embed="y">https://example.com/p</video:player_loc> '
                + ERROR
            )
        ),
        id="video-allow-embed-y",
    ),
    pytest.param(
        urlset(
            video(
                """      <video:tvshow> <!-- ERROR -->
        <video:show_title>Grill School</video:show_title>
      </video:tvshow>"""
            )
        ),
        id="video-tvshow-missing-video-type",
    ),
    pytest.param(
        urlset(
            video(
                """      <video:tvshow>
        <video:show_title>Grill School</video:show_title>
        <video:video_type>full</video:video_type>
        <video:season_number>0</video:season_number> <!-- ERROR -->
      </video:tvshow>"""
            )
        ),
        id="video-season-0",
    ),
    pytest.param(
        urlset(video("      <video:id>EP012345678901</video:id> <!-- ERROR -->")),
        id="video-id-without-type",
    ),
    pytest.param(
        urlset(video('      <video:id type="imdb">tt0000001</video:id> <!-- ERROR -->')),
        id="video-id-type-unknown",
    ),
    pytest.param(
        urlset(
            news().replace(
                "<news:language>en</news:language>",
                f"<news:language>english</news:language> {ERROR}",
            )
        ),
        id="news-language-english",
    ),
    pytest.param(
        urlset(
            news().replace(
                "<news:language>en</news:language>",
                f"<news:language>en-GB</news:language> {ERROR}",
            )
        ),
        id="news-language-with-region",
    ),
    pytest.param(
        urlset(
            """    <news:news>
      <news:publication_date>2024-05-01</news:publication_date> <!-- ERROR -->
      <news:title>Companies A, B in merger talks</news:title>
    </news:news>"""
        ),
        id="news-missing-publication",
    ),
    pytest.param(
        urlset(
            news()
            .replace("<news:news>", f"<news:news> {ERROR}")
            .replace("<news:title>Companies A, B in merger talks</news:title>", "")
        ),
        id="news-missing-title",
    ),
    pytest.param(
        urlset(news("      <news:access>Free</news:access> <!-- ERROR -->")),
        id="news-access-free",
    ),
    pytest.param(
        urlset(news("      <news:genres>Blog, Rumour</news:genres> <!-- ERROR -->")),
        id="news-genre-unknown",
    ),
    pytest.param(
        urlset(news("      <news:genres>Blog ,Satire</news:genres> <!-- ERROR -->")),
        id="news-genres-space-before-comma",
    ),
    pytest.param(
        urlset(
            news().replace(
                "<news:publication_date>2024-05-01</news:publication_date>",
                f"<news:publication_date>yesterday</news:publication_date> {ERROR}",
            )
        ),
        id="news-publication-date",
    ),
    pytest.param(
        urlset(
            news(
                tail="      <news:stock_tickers>A:B, C:D, E:F, G:H, I:J, K:L</news:stock_tickers> "
                + ERROR
            )
        ),
        id="news-six-tickers",
    ),
    pytest.param(
        urlset(news(tail="      <news:stock_tickers>AMAT</news:stock_tickers> <!-- ERROR -->")),
        id="news-ticker-without-exchange",
    ),
    pytest.param(
        urlset(
            '    <xhtml:link rel="alternate" hreflang="en_GB" href="https://example.com/"/> '
            + ERROR
        ),
        id="link-hreflang-underscore",
    ),
    pytest.param(
        urlset(
            '    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/"'
            ' target="_self"/> ' + ERROR
        ),
        id="link-unknown-attribute",
    ),
    pytest.param(
        urlset(
            '    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/"'
            ' xml:lang="en"/> ' + ERROR
        ),
        id="link-xml-lang-not-declared",
    ),
    pytest.param(
        urlset('    <xhtml:link rel="alternate" dir="auto" href="https://example.com/"/> ' + ERROR),
        id="link-dir-auto",
    ),
    pytest.param(
        urlset(
            '    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/">'
            "English</xhtml:link> " + ERROR
        ),
        id="link-with-text",
    ),
    pytest.param(urlset("    <mobile:mobile>yes</mobile:mobile> <!-- ERROR -->"), id="mobile-text"),
    pytest.param(
        urlset("    <mobile:mobile><mobile:mobile/></mobile:mobile> <!-- ERROR -->"),
        id="mobile-child",
    ),
    pytest.param(
        # libxml2 reports this at mobile:mobile (line of ERROR), xmlschema's invalid_child one
        # line below.
        urlset("    <mobile:mobile><!-- ERROR --><!--\n    --><mobile:mobile/></mobile:mobile>"),
        id="mobile-child-next-line",
    ),
    pytest.param(urlset('    <mobile:mobile type="pda"/> <!-- ERROR -->'), id="mobile-attribute"),
    pytest.param(
        urlset('    <ext:thing xmlns:ext="urn:example:unknown"/> <!-- ERROR -->'),
        id="unknown-namespace",
    ),
    pytest.param(
        sitemapindex("    <image:caption>Dog</image:caption> <!-- ERROR -->"),
        id="index-image-child-as-global",
    ),
    pytest.param(
        sitemapindex("    <changefreq>daily</changefreq> <!-- ERROR -->"),
        id="index-changefreq",
    ),
]


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any attempt to open a network connection during the test."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network access attempted during a schema test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def schema_path(name: str) -> str:
    path = SCHEMAS / name
    assert path.is_file(), name
    return str(path)


@functools.cache
def engines(bundle: str) -> tuple[lxml.etree.XMLSchema, xmlschema.XMLSchema]:
    """Both compiled schemas for a bundle; first compiled inside a test, so offline."""
    path = schema_path(bundle)
    return lxml.etree.XMLSchema(lxml.etree.parse(path)), xmlschema.XMLSchema(path)


def bundle_for(text: str) -> str:
    return BUNDLE_SITEINDEX if "<sitemapindex" in text else BUNDLE_URLSET


def parse(text: str) -> lxml.etree._ElementTree:
    return lxml.etree.fromstring(text.encode("utf-8")).getroottree()


def test_network_is_blocked() -> None:
    with pytest.raises(OSError):
        socket.create_connection(("example.com", 80), timeout=1)
    with pytest.raises(OSError), socket.socket() as sock:
        sock.connect(("127.0.0.1", 9))


@pytest.mark.parametrize("bundle", [BUNDLE_URLSET, BUNDLE_SITEINDEX])
def test_bundle_compiles_offline_in_both_engines(bundle: str) -> None:
    path = schema_path(bundle)
    lxml.etree.XMLSchema(lxml.etree.parse(path))
    schema = xmlschema.XMLSchema(path)
    extension_elements = {
        "{http://www.google.com/schemas/sitemap-image/1.1}image",
        "{http://www.google.com/schemas/sitemap-video/1.1}video",
        "{http://www.google.com/schemas/sitemap-news/0.9}news",
        "{http://www.google.com/schemas/sitemap-mobile/1.0}mobile",
        "{http://www.w3.org/1999/xhtml}link",
    }
    assert extension_elements <= set(schema.maps.elements)


@pytest.mark.parametrize("text", VALID)
def test_valid_documents(text: str) -> None:
    lxml_schema, xs = engines(bundle_for(text))
    doc = parse(text)
    assert lxml_schema.validate(doc), [str(e) for e in lxml_schema.error_log]
    assert [str(e) for e in xs.iter_errors(doc)] == []


@pytest.mark.parametrize("text", INVALID)
def test_invalid_documents(text: str) -> None:
    expected_line = next(n for n, line in enumerate(text.splitlines(), 1) if ERROR in line)
    lxml_schema, xs = engines(bundle_for(text))
    doc = parse(text)

    assert not lxml_schema.validate(doc)
    lxml_line = lxml_schema.error_log[0].line
    error = next(xs.iter_errors(doc), None)
    assert error is not None, "xmlschema accepts a document that lxml rejects"

    # Compare lxml's first-error line with xmlschema's element line or, for content-model
    # errors reported at the parent, with the line of its offending child (invalid_child).
    child = getattr(error, "invalid_child", None)
    xs_lines = {error.sourceline} | ({child.sourceline} if child is not None else set())
    assert lxml_line in xs_lines, (lxml_line, xs_lines, str(lxml_schema.error_log[0]), error)
    assert lxml_line == expected_line, str(lxml_schema.error_log[0])


@pytest.mark.parametrize(
    ("bundle", "text"),
    [(BUNDLE_URLSET, sitemapindex("")), (BUNDLE_SITEINDEX, urlset(""))],
    ids=["urlset-bundle-rejects-index", "index-bundle-rejects-urlset"],
)
def test_bundle_accepts_only_its_root(bundle: str, text: str) -> None:
    lxml_schema, xs = engines(bundle)
    doc = parse(text)
    assert not lxml_schema.validate(doc)
    assert not xs.is_valid(doc)
