"""live.page: what a page's headers and head state (noindex, canonical, alternates, dates)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta, timezone
from urllib.parse import urljoin

import pytest

from sitemap_lint.live.page import (
    head_end,
    normal_for_compare,
    parse_http_date,
    parse_page_date,
    read_signals,
)

URL = "https://example.com/blog/post"


def head(*lines: str) -> str:
    return "<!DOCTYPE html>\n<html lang=en>\n<head>\n" + "\n".join(lines) + "\n</head>\n<body>"


# -- noindex ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "said"),
    [
        (["noindex"], True),
        (["NoIndex"], True),
        (["none"], True),
        (["noindex, nofollow"], True),
        (["nofollow", "noarchive, noindex"], True),  # several headers
        (["googlebot: noindex"], True),
        (["GoogleBot: none"], True),
        (["bingbot: noindex"], False),
        (["otherbot: noindex, nofollow"], False),  # the prefix holds for the whole list
        (["otherbot: noindex, googlebot: noindex"], True),
        (["googlebot: nofollow, otherbot: noindex"], False),
        (["unavailable_after: 25 Jun 2010 15:00:00 PST"], False),
        (["max-snippet: 20, noindex"], True),  # a valued directive is not an agent
        (["nofollow", "noarchive"], False),
        (["noindexing"], False),
        ([""], False),
    ],
)
def test_x_robots_tag(values: list[str], said: bool) -> None:
    signals = read_signals(URL, [("X-Robots-Tag", value) for value in values], "")
    assert signals.noindex == ("X-Robots-Tag" if said else None)


ANSWERED = ("Date", "Sun, 01 Jun 2025 00:00:00 GMT")


@pytest.mark.parametrize(
    ("headers", "tag", "said"),
    [
        (
            [("X-Robots-Tag", "unavailable_after: 25 Jun 2010 15:00:00 PST")],
            "",
            "X-Robots-Tag unavailable_after 2010-06-25T23:00:00Z",
        ),
        (
            [("X-Robots-Tag", "nofollow, unavailable_after: Friday, 25-Jun-10 15:00:00 PST")],
            "",
            "X-Robots-Tag unavailable_after 2010-06-25T23:00:00Z",
        ),
        (
            [("X-Robots-Tag", "googlebot: unavailable_after: 2025-05-30T12:00:00+02:00")],
            "",
            "X-Robots-Tag unavailable_after 2025-05-30T10:00:00Z",
        ),
        ([("X-Robots-Tag", "otherbot: unavailable_after: 2010-06-25")], "", None),
        ([("X-Robots-Tag", "unavailable_after: 2099-01-01")], "", None),  # to come
        ([("X-Robots-Tag", "unavailable_after: soon")], "", None),
        (
            [],
            '<meta name="robots" content="max-snippet:50, unavailable_after: 2025-05-30">',
            "meta robots unavailable_after 2025-05-30T00:00:00",
        ),
        (
            [],
            '<meta name="googlebot" content="unavailable_after: Fri, 30 May 2025 10:00:00 GMT">',
            "meta googlebot unavailable_after 2025-05-30T10:00:00Z",
        ),
        # a date alone may be in any zone: not past yet in the westmost
        ([], '<meta name="robots" content="unavailable_after: 2025-05-31T18:00:00">', None),
        ([], '<meta name="bingbot" content="unavailable_after: 2010-06-25">', None),
        ([], '<meta name="googlebot-news" content="unavailable_after: 2010-06-25">', None),
    ],
)
def test_an_unavailable_after_past_when_the_page_answered_is_noindex(
    headers: list[tuple[str, str]], tag: str, said: str | None
) -> None:
    assert read_signals(URL, [ANSWERED, *headers], head(tag)).noindex == said


def test_an_unavailable_after_is_not_judged_without_the_time_of_the_answer() -> None:
    headers = [("X-Robots-Tag", "unavailable_after: 2010-06-25")]
    assert read_signals(URL, headers, "").noindex is None


def test_noindex_is_named_before_an_unavailable_after() -> None:
    headers = [ANSWERED, ("X-Robots-Tag", "unavailable_after: 2010-06-25")]
    page = head('<meta name="robots" content="noindex">')
    assert read_signals(URL, headers, page).noindex == "meta robots"


def test_x_robots_tag_header_name_in_any_case() -> None:
    assert read_signals(URL, {"x-robots-tag": "noindex"}, "").noindex == "X-Robots-Tag"


@pytest.mark.parametrize(
    ("tag", "said"),
    [
        ('<meta name="robots" content="noindex">', "meta robots"),
        ("<meta name=robots content=noindex>", "meta robots"),
        ("<meta content='noindex,follow' name='robots'/>", "meta robots"),
        ('<META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW">', "meta robots"),
        ('<meta name="robots" content="none">', "meta robots"),
        ('<meta\n  name="robots"\n  content="max-image-preview:large, noindex"\n>', "meta robots"),
        ('<meta name="googlebot" content="noindex">', "meta googlebot"),
        ('<meta name="GoogleBot" content="noindex">', "meta googlebot"),
        ('<meta name="bingbot" content="noindex">', None),
        ('<meta name="googlebot-news" content="noindex">', None),
        ('<meta name="robots" content="index, follow">', None),
        ('<meta name="robots" content="noindex-later">', None),
        ('<meta name="robots">', None),
        ('<meta property="robots" content="noindex">', None),
        ('<meta name="description" content="noindex">', None),
        ('<meta name="robots" content="noindex" data-x=">">', "meta robots"),  # ">" in a value
    ],
)
def test_meta_robots(tag: str, said: str | None) -> None:
    assert read_signals(URL, [], head('<meta charset="utf-8">', tag)).noindex == said


@pytest.mark.parametrize(
    "hidden",
    [
        '<!-- <meta name="robots" content="noindex"> -->',
        '<!--[if lt IE 9]><meta name="robots" content="noindex"><![endif]-->',
        '<script>document.write(\'<meta name="robots" content="noindex">\')</script>',
        '<title>How to use <meta name="robots" content="noindex"></title>',
        '<style>/* <meta name="robots" content="noindex"> */</style>',
        '<template-x>x</template-x><metadata name="robots" content="noindex">',
    ],
)
def test_meta_robots_in_comments_and_raw_text_is_not_a_tag(hidden: str) -> None:
    assert read_signals(URL, [], head(hidden)).noindex is None


@pytest.mark.parametrize(
    ("after", "noindex"),
    [
        # an HTML parser puts these in the head still, until the body starts
        ('<meta name="robots" content="noindex"><body>', "meta robots"),
        ('\n<script src="/a.js"></script>\n<meta name="robots" content="noindex">', "meta robots"),
        (
            '<!-- x --><link rel="stylesheet" href="/s.css"><meta name=robots content=none>',
            "meta robots",
        ),
        # the body's start, any other element, or a noscript there (in the body) ends it
        ('<body><meta name="robots" content="noindex">', None),
        ('<div></div><meta name="robots" content="noindex">', None),
        ('<noscript><meta name="robots" content="noindex"></noscript>', None),
        ('<template><meta name="robots" content="noindex"></template>', None),
    ],
)
def test_what_follows_the_head_s_end_tag_before_the_body_is_in_the_head(
    after: str, noindex: str | None
) -> None:
    page = "<!DOCTYPE html><html><head><title>t</title></head>" + after
    assert read_signals(URL, [], page).noindex == noindex


def test_the_scan_stops_at_the_end_of_the_head() -> None:
    page = head("<title>t</title>") + '<meta name="robots" content="noindex">'
    assert read_signals(URL, [], page).noindex is None
    no_head_end = '<html><title>t</title><body><meta name="robots" content="noindex">'
    assert read_signals(URL, [], no_head_end).noindex is None


@pytest.mark.parametrize(
    "invalid",
    [
        '<img src="/pixel.gif">',
        '<iframe src="https://www.googletagmanager.com/ns.html"></iframe>',
        "<div>",
        "<IMG SRC=x>",
        "<svg></svg>",
        "<textarea>",
        "<my-banner>",
        "<p>",
    ],
)
def test_an_element_the_head_may_not_hold_ends_it(invalid: str) -> None:
    # Google stops reading the head at the first invalid element it holds.
    page = head(
        "<title>t</title>",
        invalid,
        '<meta name="robots" content="noindex">',
        '<link rel="canonical" href="/other">',
        '<link rel="alternate" hreflang="de" href="/de/">',
    )
    signals = read_signals(URL, [], page)
    assert (signals.noindex, signals.canonical, signals.alternates) == (None, None, ())


@pytest.mark.parametrize(
    "valid",
    [
        '<noscript><img height="1" width="1" src="https://example.net/tr?id=1"></noscript>',
        '<noscript><iframe src="https://www.googletagmanager.com/ns.html"></iframe></noscript>',
        "<template><div>a</div></template>",
        '<meta charset="utf-8"><base target="_blank">',
        '<style>div{}</style><script>"<div>"</script><title><b>t</b></title>',
    ],
)
def test_the_head_goes_on_past_what_it_may_hold(valid: str) -> None:
    page = head(valid, '<meta name="robots" content="noindex">')
    assert read_signals(URL, [], page).noindex == "meta robots"


@pytest.mark.parametrize(
    "page",
    [
        '<html><head><img src=x><meta name="robots" content="noindex"></head>',
        '<html><head><noscript><img src=x></noscript><meta name="robots" content="noindex">',
        "<html><head><noscript><img src=x><body><meta name='robots' content='noindex'>",
        '<head><my-very-long-custom-element-name-is-here-x><meta name="robots" content="a">',
        "<head><!-- <img> --><template><p></template><p>",
        '<head></head>\n<script>x</script><meta name="robots" content="noindex"><body>',
        "<head></head><template><p></template><noscript><meta name=robots content=noindex>",
        "<head><title>t</title></head><!-- </head> --></head><link rel=canonical href=/a><p>",
    ],
)
def test_a_head_read_in_pieces_ends_where_it_ends_read_whole(page: str) -> None:
    whole_ended, whole_at = head_end(page)
    for step in (1, 2, 5):
        resume, ended_at = 0, None
        for cut in range(step, len(page) + step, step):
            ended, resume = head_end(page[:cut], resume)
            if ended:
                ended_at = resume
                break
        assert ended_at == (whole_at if whole_ended else None), step


def test_header_noindex_is_named_before_the_meta_tag() -> None:
    page = head('<meta name="robots" content="noindex">')
    assert read_signals(URL, [("X-Robots-Tag", "noindex")], page).noindex == "X-Robots-Tag"


# -- canonical -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "canonical"),
    [
        ('<link rel="canonical" href="https://example.com/blog/post">', URL),
        ("<link href='https://example.com/other' rel='canonical' />", "https://example.com/other"),
        ("<LINK REL=CANONICAL HREF=/other>", "https://example.com/other"),
        ('<link rel="canonical" href="other">', "https://example.com/blog/other"),
        ('<link rel="canonical" href="../x?a=1&amp;b=2">', "https://example.com/x?a=1&b=2"),
        ('<link rel="canonical" href="  https://example.com/sp  ">', "https://example.com/sp"),
        ('<link rel="canonical" href="//cdn.example.org/p">', "https://cdn.example.org/p"),
        ('<link rel="Canonical" href="/a">', "https://example.com/a"),
        ('<link rel="canonical" href="/&eacute;t&#xE9;">', "https://example.com/\u00e9t\u00e9"),
        ('<link rel="canonical" href="">', None),
        ('<link rel="canonical">', None),
        ('<link rel="canonicalx" href="/a">', None),
        ('<link rel="alternate" href="/a">', None),
    ],
)
def test_canonical_link_element(tag: str, canonical: str | None) -> None:
    signals = read_signals(URL, [], head("<title>t</title>", tag))
    assert signals.canonical == canonical
    assert signals.canonical_source == (None if canonical is None else "link element")


def test_tabs_and_newlines_in_an_href_are_no_part_of_its_url() -> None:
    page = head(
        '<base href="https://example.com/\nde/">',
        '<link rel="canonical" href="https://example.com/blog/\n\tpost">',
        '<link rel="alternate" hreflang="de" href="sei\r\nte">',
    )
    signals = read_signals(URL, [], page)
    assert signals.canonical == URL
    assert signals.alternates == (("de", "https://example.com/de/seite"),)


@pytest.mark.parametrize(
    "base",
    [
        URL,
        "https://example.com",
        "http://example.com:8080/a/b?q=1#f",
        "https://user:pw@example.com/x;p",
        "https://example.com?only=query",
        "http://[::1]:8/p",
    ],
)
def test_a_path_from_the_root_resolves_as_a_url_parser_resolves_it(base: str) -> None:
    # the cheap join of a path from the root, against urljoin over paths written
    # every way: empty parameters, queries and fragments, dot segments, brackets
    hrefs = [
        "/" + "".join(choice)
        for choice in itertools.product(["", "a", ";", "?", "#", ".", "[", "%2e", "/"], repeat=3)
    ]
    for href in hrefs:
        try:
            expected: str | None = urljoin(base, href)
        except ValueError:  # no URL ("//[a"): no canonical
            expected = None
        tag = f'<link rel="canonical" href="{href}">'
        assert read_signals(base, [], head(tag)).canonical == expected, href


@pytest.mark.parametrize("href", ["//[x", "//a]b", "http://[::1"])
def test_an_href_that_is_no_url_is_no_canonical_and_no_alternate(href: str) -> None:
    page = head(
        f'<base href="{href}">',
        f'<link rel="canonical" href="{href}">',
        f'<link rel="alternate" hreflang="de" href="{href}">',
        '<link rel="alternate" hreflang="fr" href="/fr">',
    )
    headers = [("Link", f'<{href}>; rel="canonical", <{href}>; rel="alternate"; hreflang="it"')]
    signals = read_signals(URL, headers, page)
    assert signals.alternates == (("fr", "https://example.com/fr"),)


def test_canonical_resolved_against_base_href() -> None:
    page = head('<base href="https://example.com/de/">', '<link rel="canonical" href="seite">')
    assert read_signals(URL, [], page).canonical == "https://example.com/de/seite"


@pytest.mark.parametrize(
    ("headers", "tags"),
    [
        ([], ['<link rel="canonical" href="/one">', '<link rel="canonical" href="/two">']),
        (["</one>; rel=canonical"], ['<link rel="canonical" href="/two">']),
        (["</one>; rel=canonical, </two>; rel=canonical"], []),
        (["</one>; rel=canonical", "</two>; rel=canonical"], []),
    ],
)
def test_canonicals_that_disagree_name_none(headers: list[str], tags: list[str]) -> None:
    # Google ignores every rel=canonical of a page that gives more than one.
    signals = read_signals(URL, [("Link", value) for value in headers], head(*tags))
    assert (signals.canonical, signals.canonical_source) == (None, None)


def test_canonicals_that_agree_name_it() -> None:
    page = head(
        '<link rel="canonical" href="/one">',
        '<link rel="canonical" href="HTTPS://EXAMPLE.COM:443/one#top">',
        '<link rel="canonical" href="">',
    )
    signals = read_signals(URL, [], page)
    assert (signals.canonical, signals.canonical_source) == (
        "https://example.com/one",
        "link element",
    )


@pytest.mark.parametrize(
    ("values", "canonical"),
    [
        (['<https://example.com/a>; rel="canonical"'], "https://example.com/a"),
        (["</a>; rel=canonical"], "https://example.com/a"),
        (['<https://example.com/p.pdf>; REL="Canonical"'], "https://example.com/p.pdf"),
        (
            ['<https://example.com/s>; rel="shortlink", <https://example.com/c>; rel="canonical"'],
            "https://example.com/c",
        ),
        (
            ['<https://example.com/x,y>; title="a, b; c"; rel="canonical"'],
            "https://example.com/x,y",
        ),
        (['<https://example.com/c>; rel="preload canonical"'], "https://example.com/c"),
        (
            ['</style.css>; rel="preload"; as="style"', "</c>; rel=canonical"],
            "https://example.com/c",
        ),
        (['<https://example.com/a>; rel="canonicalish"'], None),
        (["garbage without brackets; rel=canonical"], None),
        (['<https://example.com/a>; rel="canonical'], None),  # the quote never closes
    ],
)
def test_canonical_link_header(values: list[str], canonical: str | None) -> None:
    signals = read_signals(URL, [("Link", value) for value in values], "")
    assert signals.canonical == canonical
    assert signals.canonical_source == (None if canonical is None else "Link header")


def test_link_header_canonical_is_named_before_the_same_element() -> None:
    signals = read_signals(
        URL, [("link", "</same>; rel=canonical")], head('<link rel="canonical" href="/same">')
    )
    assert (signals.canonical, signals.canonical_source) == (
        "https://example.com/same",
        "Link header",
    )


# -- alternates --------------------------------------------------------------------------------


def test_alternates_from_link_elements_in_order() -> None:
    page = head(
        '<link rel="alternate" hreflang="en" href="https://example.com/en/">',
        "<link hreflang=de-AT rel=alternate href=/de-at/>",
        '<link rel="alternate" hreflang="x-default" href="/">',
        '<link rel="alternate" type="application/rss+xml" href="/feed">',  # no hreflang
        '<link rel="alternate" hreflang="fr">',  # no href
    )
    assert read_signals(URL, [], page).alternates == (
        ("en", "https://example.com/en/"),
        ("de-AT", "https://example.com/de-at/"),
        ("x-default", "https://example.com/"),
    )


def test_alternates_from_link_headers() -> None:
    value = (
        '<https://example.com/en>; rel="alternate"; hreflang="en", '
        '<https://example.com/fr>; rel="alternate"; hreflang="fr", '
        '<https://example.com/c>; rel="canonical"'
    )
    signals = read_signals(URL, [("Link", value)], "")
    assert signals.alternates == (
        ("en", "https://example.com/en"),
        ("fr", "https://example.com/fr"),
    )
    assert signals.canonical == "https://example.com/c"


# -- dates -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("Sun, 06 Nov 1994 08:49:37 GMT", datetime(1994, 11, 6, 8, 49, 37, tzinfo=UTC)),
        ("sun, 06 nov 1994 08:49:37 gmt", datetime(1994, 11, 6, 8, 49, 37, tzinfo=UTC)),
        ("Sunday, 06-Nov-94 08:49:37 GMT", datetime(1994, 11, 6, 8, 49, 37, tzinfo=UTC)),
        ("Monday, 06-Nov-23 08:49:37 GMT", datetime(2023, 11, 6, 8, 49, 37, tzinfo=UTC)),
        ("Sun Nov  6 08:49:37 1994", datetime(1994, 11, 6, 8, 49, 37, tzinfo=UTC)),
        ("Sun, 06 Nov 1994 10:49:37 +0200", datetime(1994, 11, 6, 8, 49, 37, tzinfo=UTC)),
        ("  Wed, 01 May 2024 09:00:00 GMT  ", datetime(2024, 5, 1, 9, tzinfo=UTC)),
        ("Wed, 30 Feb 2024 09:00:00 GMT", None),
        ("Wed, 01 Foo 2024 09:00:00 GMT", None),
        ("yesterday", None),
        ("", None),
        ("0", None),
    ],
)
def test_parse_http_date(text: str, moment: datetime | None) -> None:
    assert parse_http_date(text) == moment


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("2024-05-01", datetime(2024, 5, 1)),  # no zone: naive
        ("2024-05", datetime(2024, 5, 1)),
        ("2024", datetime(2024, 1, 1)),
        ("2024-05-01T10:20:30Z", datetime(2024, 5, 1, 10, 20, 30, tzinfo=UTC)),
        ("2024-05-01T10:20:30", datetime(2024, 5, 1, 10, 20, 30)),
        ("2024-05-01T10:20", datetime(2024, 5, 1, 10, 20)),
        ("2024-05-01 10:20:30", datetime(2024, 5, 1, 10, 20, 30)),
        ("2024-05-01T10:20:30.123456789Z", datetime(2024, 5, 1, 10, 20, 30, 123456, tzinfo=UTC)),
        (
            "2024-05-01T10:20:30+02:00",
            datetime(2024, 5, 1, 10, 20, 30, tzinfo=timezone(timedelta(hours=2))),
        ),
        (
            "2024-05-01T10:20:30-0530",
            datetime(2024, 5, 1, 10, 20, 30, tzinfo=timezone(-timedelta(hours=5, minutes=30))),
        ),
        ("2024-13-01", None),
        ("2024-05-01T25:00:00Z", None),
        ("2024-05-01T10:00:00+25:00", None),
        ("May 1, 2024", None),
        ("", None),
    ],
)
def test_parse_page_date(text: str, moment: datetime | None) -> None:
    parsed = parse_page_date(text)
    assert parsed == moment
    assert (parsed is None or parsed.tzinfo) == (moment is None or moment.tzinfo)


def test_modified_is_the_newest_with_its_source() -> None:
    page = head(
        '<meta property="article:modified_time" content="2024-05-03T00:00:00+00:00">',
        '<script type="application/ld+json">{"dateModified": "2024-05-02"}</script>',
    )
    headers = [("Last-Modified", "Wed, 01 May 2024 00:00:00 GMT")]
    signals = read_signals(URL, headers, page)
    assert signals.modified == datetime(2024, 5, 3, tzinfo=UTC)
    assert signals.modified_source == "article:modified_time"
    signals = read_signals(URL, [("Last-Modified", "Sat, 04 May 2024 00:00:00 GMT")], "")
    assert signals.modified_source == "Last-Modified"


def test_og_updated_time_is_a_modification_time() -> None:
    page = head(
        '<meta property="og:updated_time" content="2024-05-01T10:00:00+00:00" />',
        '<meta property="OG:Updated_Time" content="2024-05-02T10:00:00+00:00" />',
        '<meta property="og:updated_time" content="1714557600" />',  # not a date
    )
    signals = read_signals(URL, [("Last-Modified", "Sat, 04 May 2024 00:00:00 GMT")], page)
    assert (signals.modified, signals.modified_source) == (
        datetime(2024, 5, 2, 10, tzinfo=UTC),
        "og:updated_time",
    )


def test_a_date_the_page_states_outweighs_its_last_modified() -> None:
    """Last-Modified is when the bytes changed (a static site's build, a deploy): a
    page that states when its content changed is judged by that, even when older."""
    page = head('<meta property="article:modified_time" content="2024-03-10T09:00:00+01:00">')
    built = [("Last-Modified", "Mon, 02 Dec 2024 10:00:00 GMT")]
    signals = read_signals(URL, built, page)
    assert (signals.modified, signals.modified_source) == (
        datetime(2024, 3, 10, 8, tzinfo=UTC),
        "article:modified_time",
    )
    # A stated date that says nothing (at or after the answer) leaves Last-Modified.
    answered = [*built, ("Date", "Tue, 03 Dec 2024 00:00:00 GMT")]
    page = head('<meta property="article:modified_time" content="2024-12-03T00:00:00Z">')
    assert read_signals(URL, answered, page).modified_source == "Last-Modified"


def test_a_time_at_or_after_the_answer_is_no_modification() -> None:
    """A Last-Modified stamped with the time of the answer (its Date), or any stated
    time after it, says nothing of when the page changed: the times before count."""
    answered = "Sun, 01 Jun 2025 12:00:00 GMT"
    page = head(
        '<script type="application/ld+json">[{"dateModified": "2025-06-01T12:00:01Z"},'
        ' {"dateModified": "2025-05-01T00:00:00Z"}]</script>',
        '<meta property="article:modified_time" content="2099-01-01">',
        '<meta property="article:modified_time" content="2025-04-01T00:00:00Z">',
    )
    signals = read_signals(URL, [("Date", answered), ("Last-Modified", answered)], page)
    assert (signals.modified, signals.modified_source) == (
        datetime(2025, 5, 1, tzinfo=UTC),
        "JSON-LD dateModified",
    )
    signals = read_signals(URL, [("Date", answered), ("Last-Modified", answered)], "")
    assert (signals.modified, signals.modified_source) == (None, None)
    before = [("Date", answered), ("Last-Modified", "Sun, 01 Jun 2025 11:59:59 GMT")]
    assert read_signals(URL, before, "").modified == datetime(2025, 6, 1, 11, 59, 59, tzinfo=UTC)
    # Without a Date, nothing to compare with: the times count as stated.
    assert read_signals(URL, [("Last-Modified", answered)], "").modified is not None


def test_a_time_without_a_zone_is_newest_only_if_so_in_every_zone() -> None:
    """A page time without a zone is compared by the earliest moment it can be (its
    wall time at +14:00): it is newer than an aware one only when so in every zone."""
    page = head(
        '<script type="application/ld+json">{"dateModified": "2024-05-02T12:00:00"}</script>',
        '<meta property="article:modified_time" content="2024-05-01T23:00:00Z">',
    )
    signals = read_signals(URL, [], page)
    assert (signals.modified, signals.modified_source) == (
        datetime(2024, 5, 1, 23, tzinfo=UTC),
        "article:modified_time",
    )
    headers = [("Last-Modified", "Wed, 01 May 2024 21:00:00 GMT")]
    signals = read_signals(URL, headers, page.replace("23:00:00Z", "2024-05-01T20:00:00"))
    assert (signals.modified, signals.modified_source) == (
        datetime(2024, 5, 2, 12),
        "JSON-LD dateModified",
    )


@pytest.mark.parametrize(
    ("lastmod", "stated", "behind"),
    [
        # the page's time without a zone: behind only if so from -12:00 to +14:00
        ("2025-06-01T08:00:00+00:00", "2025-06-01T10:00:00", False),
        ("2025-06-01T12:00:00+05:00", "2025-06-01T10:00:00", False),
        ("2025-05-31T19:58:00Z", "2025-06-01T10:00:00", True),  # before 20:00Z, 10:00+14:00
        ("2025-05-31T20:00:00Z", "2025-06-01T10:00:00", False),
        ("2025-05-31T23:00:00+02:00", "2025-06-01", False),  # June 1 began 10:00Z May 31
        ("2025-05-31T09:00:00Z", "2025-06-01", True),
        # a lastmod of a date alone and a page date without a zone: by the dates written
        ("2025-05-31", "2025-06-01T01:00:00", True),
        ("2025-06-01", "2025-06-01T23:00:00", False),
        ("2025-05-31", "2025-06-01", True),
        # a lastmod time without a zone: behind only if so from -12:00 to +14:00 too
        ("2025-06-01T08:00:00", "2025-06-01T10:00:00Z", False),
        ("2025-05-31T21:58:00", "2025-06-01T10:00:00Z", True),  # before 10:00Z at -12:00
        # times with a zone: as before
        ("2025-06-01T08:00:00+00:00", "2025-06-01T10:00:00Z", True),
        ("2025-06-01T12:00:00+05:00", "2025-06-01T10:00:00+02:00", True),
        ("2025-06-01T12:00:00+05:00", "2025-06-01T10:00:00+03:00", False),
    ],
)
def test_lastmod_behind_a_page_time_holds_in_every_zone(
    lastmod: str, stated: str, behind: bool
) -> None:
    from sitemap_lint.live.model import Answer, Target
    from sitemap_lint.rules.live import judge

    page = "https://example.com/a"
    meta = f'<meta property="article:modified_time" content="{stated}">'
    answer = Answer(page, status=200, final_url=page, signals=read_signals(page, [], head(meta)))
    target = Target(page, "page", 3, 5, lastmod=lastmod)
    codes = [finding.code for finding in judge(target, answer, datetime.now(UTC))]
    assert codes == (["LV010"] if behind else [])


def test_lv010_writes_a_page_time_without_a_zone_as_written() -> None:
    from sitemap_lint.live.model import Answer, Target
    from sitemap_lint.rules.live import judge

    page = "https://example.com/a"
    script = '<script type="application/ld+json">{"dateModified": "2025-06-03T10:00:00"}</script>'
    answer = Answer(page, status=200, final_url=page, signals=read_signals(page, [], head(script)))
    target = Target(page, "page", 3, 5, lastmod="2025-06-01")
    (finding,) = judge(target, answer, datetime.now(UTC))
    assert "older than JSON-LD dateModified 2025-06-03T10:00:00 (no zone);" in finding.message


@pytest.mark.parametrize(
    ("script", "moment"),
    [
        (
            '{"@type": "Article", "dateModified": "2024-05-02T08:00:00Z"}',
            datetime(2024, 5, 2, 8, tzinfo=UTC),
        ),
        ('[{"dateModified": "2024-05-01"}, {"dateModified": "2024-05-04"}]', datetime(2024, 5, 4)),
        (
            '{"@context": "https://schema.org", "@graph": [{"@type": "WebSite"},'
            ' {"@type": "WebPage", "dateModified": "2024-05-05T00:00:00+00:00"}]}',
            datetime(2024, 5, 5, tzinfo=UTC),
        ),
        ('{"dateModified": {"@value": "2024-05-06", "@type": "Date"}}', datetime(2024, 5, 6)),
        ('\n<!--\n{"dateModified": "2024-05-07"}\n-->\n', datetime(2024, 5, 7)),
        # raw tabs and line breaks in a string, as many pages write them
        ('{"description": "one\n\ttwo", "dateModified": "2024-05-08"}', datetime(2024, 5, 8)),
        ('{"datePublished": "2024-05-01"}', None),
        # the page's main entity (its article) is its content: its date is the page's
        ('{"mainEntity": {"dateModified": "2024-05-01"}}', datetime(2024, 5, 1)),
        ('{"isPartOf": {"dateModified": "2024-05-01"}}', None),  # another thing's date
        ('{"dateModified": "2024-05-01",}', None),  # bad JSON says nothing
        ('{"dateModified": "last week"}', None),
        ('{"dateModified": 20240501}', None),
        ("[" * 100_000, None),
    ],
)
def test_json_ld_date_modified(script: str, moment: datetime | None) -> None:
    page = head(f'<script type="application/ld+json">{script}</script>')
    signals = read_signals(URL, [], page)
    assert signals.modified == moment
    assert signals.modified_source == (None if moment is None else "JSON-LD dateModified")


def test_json_ld_type_with_parameters_and_case() -> None:
    page = head(
        '<script type="Application/LD+JSON; charset=utf-8">{"dateModified":"2024-01-02"}</script>'
    )
    assert read_signals(URL, [], page).modified == datetime(2024, 1, 2)


def test_a_script_of_another_type_is_not_read() -> None:
    page = head('<script type="text/javascript">var x = {"dateModified": "2024-01-02"}</script>')
    assert read_signals(URL, [], page).modified is None


def test_a_bad_last_modified_is_ignored() -> None:
    signals = read_signals(URL, [("Last-Modified", "never")], "")
    assert (signals.modified, signals.modified_source) == (None, None)


# -- real-world heads ------------------------------------------------------------------------

WORDPRESS = """<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name='robots' content='index, follow, max-image-preview:large, max-snippet:-1, max-video-preview:-1' />
<title>Hello world! &#8211; My Blog</title>
<link rel="canonical" href="https://example.com/hello-world/" />
<meta property="og:locale" content="en_US" />
<meta property="article:published_time" content="2024-03-01T10:00:00+00:00" />
<meta property="article:modified_time" content="2024-03-05T12:30:00+00:00" />
<script type="application/ld+json" class="yoast-schema-graph">{"@context":"https://schema.org","@graph":[{"@type":"Article","@id":"https://example.com/hello-world/#article","datePublished":"2024-03-01T10:00:00+00:00","dateModified":"2024-03-05T12:30:00+00:00"},{"@type":"WebPage","@id":"https://example.com/hello-world/","dateModified":"2024-03-05T12:30:00+00:00"}]}</script>
<link rel='stylesheet' id='wp-block-library-css' href='https://example.com/wp-includes/css/dist/block-library/style.min.css?ver=6.5' media='all' />
<style id='global-styles-inline-css'>body{--wp--preset--color--black: #000000;}</style>
<script src="https://example.com/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>
<link rel="https://api.w.org/" href="https://example.com/wp-json/" />
<link rel='shortlink' href='https://example.com/?p=1' />
</head>
<body class="post-template-default single single-post">
"""

NEXT_JS = (
    '<!DOCTYPE html><html lang="de"><head><meta charSet="utf-8"/>'
    '<meta name="viewport" content="width=device-width"/><title>Seite</title>'
    '<meta name="robots" content="noindex,nofollow"/>'
    '<link rel="canonical" href="https://www.example.de/seite"/>'
    '<link rel="alternate" hrefLang="en" href="https://www.example.de/en/page"/>'
    '<link rel="alternate" hrefLang="de" href="https://www.example.de/seite"/>'
    '<meta name="next-head-count" content="9"/><link rel="preload" href="/_next/static/css/a.css"'
    ' as="style"/><noscript data-n-css=""></noscript><script defer="" nomodule=""'
    ' src="/_next/static/chunks/polyfills.js"></script></head><body><div id="__next">'
)


def test_a_wordpress_head() -> None:
    signals = read_signals("https://example.com/hello-world/", [], WORDPRESS)
    assert signals.noindex is None
    assert signals.canonical == "https://example.com/hello-world/"
    assert signals.modified == datetime(2024, 3, 5, 12, 30, tzinfo=UTC)
    assert signals.modified_source == "JSON-LD dateModified"  # equal moments: JSON-LD first
    assert signals.alternates == ()


def test_a_next_js_head() -> None:
    signals = read_signals("https://www.example.de/seite", [], NEXT_JS)
    assert signals.noindex == "meta robots"
    assert signals.canonical == "https://www.example.de/seite"
    assert signals.alternates == (
        ("en", "https://www.example.de/en/page"),
        ("de", "https://www.example.de/seite"),
    )


DRUPAL_AMP = """\ufeff<!DOCTYPE html>
<html \u26a1 lang="fr" dir="ltr">
  <HEAD>
    <META charset="utf-8" />
    <script async src="https://cdn.ampproject.org/v0.js"></script>
    <style amp-boilerplate>body{-webkit-animation:-amp-start 8s steps(1,end) 0s 1 normal both}</style>
    <noscript><style amp-boilerplate>body{-webkit-animation:none}</style></noscript>
    <meta name="Generator" content="Drupal 10 (https://www.drupal.org)" />
    <link rel="canonical" href="/fr/node/12?amp_off=1&amp;x=%7e" />
    <link rel="alternate" hreflang="fr" href="https://exemple.fr/fr/node/12" />
    <link rel="alternate" hreflang="x-default" href="https://exemple.fr/node/12" />
    <meta name="robots" content="noindex, nofollow" />
  </HEAD>
  <body>"""

SHOPIFY = (
    "<!doctype html>\n<html class='no-js' lang='en'>\n<head>\n"
    "<meta http-equiv='X-UA-Compatible' content='IE=edge'>\n"
    "<link rel='canonical' href='https://shop.example/products/mug'>\n"
    "<script>window.ShopifyAnalytics = {meta: {'robots': 'noindex'}};</script>\n"
    '<script type="application/ld+json">\n[\n {"@context": "http://schema.org/",'
    ' "@type": "Product", "name": "Mug", "dateModified": "2024-02-29T23:59:59-08:00"},\n'
    ' {"@type": "BreadcrumbList", "itemListElement": []}\n]\n</script>\n</head>'
)


def test_a_drupal_amp_head() -> None:
    signals = read_signals("https://exemple.fr/fr/node/12/amp", [], DRUPAL_AMP)
    assert signals.canonical == "https://exemple.fr/fr/node/12?amp_off=1&x=%7e"
    assert signals.noindex == "meta robots"
    assert [lang for lang, _ in signals.alternates] == ["fr", "x-default"]


def test_a_shopify_head() -> None:
    signals = read_signals("https://shop.example/products/mug?variant=1", [], SHOPIFY)
    assert signals.canonical == "https://shop.example/products/mug"
    assert signals.noindex is None  # the word in a script is not a meta tag
    assert signals.modified == datetime(2024, 3, 1, 7, 59, 59, tzinfo=UTC)


def test_a_head_cut_inside_a_tag_keeps_what_came_before() -> None:
    page = '<html><head><link rel="canonical" href="/a"><meta name="robots" content="noin'
    signals = read_signals(URL, [], page)
    assert signals.canonical == "https://example.com/a"
    assert signals.noindex is None


@pytest.mark.parametrize(
    "page",
    [
        "",
        "<",
        "<meta",
        "<meta name='robots",
        "<!--",
        "<script>",
        "<link rel=canonical href='" + "x" * 10_000,
        "\x00\ufffd<meta \x00 name=robots content=noindex>",
        '<meta name="robots" content="noindex" name="x">',
        "%PDF-1.7 binary junk <<>> stream",
    ],
)
def test_odd_heads_do_not_raise(page: str) -> None:
    read_signals(URL, [("Link", "<"), ("Last-Modified", "")], page)


def test_an_unclosed_quote_costs_linear_time() -> None:
    # Each start tag would otherwise scan to the end of the text: quadratic.
    page = "<head>" + '<meta name="a' * 20_000
    signals = read_signals(URL, [], page)
    assert signals.noindex is None


# -- normal form for comparison ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "normal"),
    [
        ("https://example.com/a", "https://example.com/a"),
        ("HTTPS://Example.COM/A", "https://example.com/A"),
        ("https://example.com", "https://example.com/"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("https://example.com/a%2fb", "https://example.com/a%2Fb"),
        ("https://example.com/%7Euser/%41%62%2D%5F%2E", "https://example.com/~user/Ab-_."),
        ("https://example.com/caf%c3%a9", "https://example.com/caf%C3%A9"),
        ("https://example.com/a#section", "https://example.com/a"),
        ("https://example.com#top", "https://example.com/"),
        ("https://example.com?q=1", "https://example.com/?q=1"),
        ("https://example.com/a?Q=%7e", "https://example.com/a?Q=~"),
        ("  https://example.com/a  ", "https://example.com/a"),
        ("https://[2001:DB8::1]:443/a", "https://[2001:db8::1]/a"),
        ("mailto:x@example.com", "mailto:x@example.com"),
        ("https://example.com/caf\u00e9", "https://example.com/caf%C3%A9"),  # as browsers send it
        ("https://example.com/a b", "https://example.com/a%20b"),
        ("https://B\u00fccher.example/x", "https://xn--bcher-kva.example/x"),
        ("https://FA\u00df.de:443", "https://xn--fa-hia.de/"),
        (
            "https://user@B\u00fccher.example:8080/\u65e5",
            "https://user@xn--bcher-kva.example:8080/%E6%97%A5",
        ),
        ("https://\u2603\u2603.-bad-/x", "https://\u2603\u2603.-bad-/x"),  # no ASCII form: kept
        ("https://[::1]/\u00e9", "https://[::1]/%C3%A9"),
    ],
)
def test_normal_for_compare(url: str, normal: str) -> None:
    assert normal_for_compare(url) == normal


@pytest.mark.parametrize(
    ("url", "normal"),
    [
        ("https://example.com/a/../b", "https://example.com/b"),
        ("https://example.com/./a/./b", "https://example.com/a/b"),
        ("https://example.com/a/%2E%2E/b?x=/../y", "https://example.com/b?x=/../y"),
        ("https://example.com/a/..", "https://example.com/"),
        ("https://Example.com:443/..?q", "https://example.com/?q"),
    ],
)
def test_normal_for_compare_resolves_dot_segments(url: str, normal: str) -> None:
    """A browser resolves a URL's dot segments (RFC 3986, 5.2.4) before it asks for the
    page: a canonical written ``/a/../b`` names the page ``/b`` served."""
    assert normal_for_compare(url) == normal


def test_a_canonical_written_with_dot_segments_names_the_page_itself() -> None:
    from sitemap_lint.live.model import Answer, PageSignals, Target
    from sitemap_lint.rules.live import judge

    page = "https://example.com/blog/post"
    signals = PageSignals(canonical="https://example.com/blog/x/../post")
    answer = Answer(page, status=200, final_url=page, signals=signals)
    assert judge(Target(page, "page", 3, 5), answer, datetime.now(UTC)) == []


def test_normal_for_compare_keeps_path_case_and_trailing_slash() -> None:
    assert normal_for_compare("https://example.com/A") != normal_for_compare(
        "https://example.com/a"
    )
    assert normal_for_compare("https://example.com/a/") != normal_for_compare(
        "https://example.com/a"
    )


@pytest.mark.parametrize(
    ("href", "url"),
    [
        ("/?a=1&amp;b=2", "https://example.com/?a=1&b=2"),
        ("/?a=1&AMP;b=2", "https://example.com/?a=1&b=2"),
        ("/?page=1&section=news", "https://example.com/?page=1&section=news"),
        ("/?a=1&copy=2", "https://example.com/?a=1&copy=2"),  # no ";" and "=" follows
        ("/?a=1&not;b", "https://example.com/?a=1\u00acb"),
        ("/?a=1&notit;b", "https://example.com/?a=1&notit;b"),  # no such entity
        ("/x&copy y", "https://example.com/x\u00a9 y"),
        ("/x&#47;a&#x2F;b", "https://example.com/x/a/b"),
        ("/a&b", "https://example.com/a&b"),
    ],
)
def test_references_in_attributes_decode_as_html_decodes_them(href: str, url: str) -> None:
    page = head(f'<link rel="canonical" href="{href}">')
    assert read_signals(URL, [], page).canonical == url


def test_aiohttp_headers_give_every_repeated_value() -> None:
    from multidict import CIMultiDict, CIMultiDictProxy  # aiohttp's header type

    headers = CIMultiDictProxy(
        CIMultiDict([("X-Robots-Tag", "bingbot: noindex"), ("x-robots-tag", "noindex")])
    )
    assert read_signals(URL, headers, "").noindex == "X-Robots-Tag"


@pytest.mark.parametrize(("noindex", "fixed"), [(None, True), ("meta robots", False)])
def test_a_redirect_to_a_noindex_page_is_no_fix(noindex: str | None, fixed: bool) -> None:
    """LV005's fix writes the final URL; a final page that says noindex would be LV008
    once listed: the entry is told to go instead."""
    from sitemap_lint.live.model import Answer, Hop, PageSignals, Target
    from sitemap_lint.rules.live import judge

    listed, final = "https://example.com/old", "https://example.com/new"
    answer = Answer(
        listed,
        status=200,
        final_url=final,
        chain=[Hop(listed, 301, "/new")],
        signals=PageSignals(noindex=noindex),
    )
    (finding,) = judge(Target(listed, "page", 3, 5), answer, datetime.now(UTC))
    assert finding.code == "LV005"
    assert (finding.fix is not None) == fixed
    assert ("says noindex (meta robots); remove this entry" in finding.message) == (not fixed)


def test_a_last_modified_shared_by_a_deploy_says_nothing_of_each_page() -> None:
    """Three or more pages of a file whose Last-Modified values follow each other at most
    a minute apart were written or uploaded together: LV010 does not read them; a page's
    own Last-Modified, apart from the others, or a date the page states, still counts."""
    from sitemap_lint.live.audit import deploy_stamped
    from sitemap_lint.live.model import Answer, Target
    from sitemap_lint.rules.live import judge

    def page(name: str, last_modified: str, meta: str = "") -> tuple[Target, Answer]:
        url = f"https://example.com/{name}"
        headers = [("Last-Modified", last_modified)]
        signals = read_signals(url, headers, head(meta))
        target = Target(url, "page", 3, 5, lastmod="2024-01-01")
        return target, Answer(url, status=200, final_url=url, signals=signals)

    pages = [
        page("a", "Mon, 02 Dec 2024 10:00:00 GMT"),
        page("b", "Mon, 02 Dec 2024 10:00:50 GMT"),
        page("c", "Mon, 02 Dec 2024 10:01:40 GMT"),  # a run: each within a minute of the last
        page("d", "Mon, 02 Dec 2024 10:05:00 GMT"),
        page("e", "Mon, 02 Dec 2024 10:05:30 GMT"),  # two: no deploy's to tell
        page(
            "f",
            "Mon, 02 Dec 2024 10:00:10 GMT",
            '<meta property="article:modified_time" content="2024-06-01T00:00:00Z">',
        ),  # its stated date counts
    ]
    targets = [target for target, _answer in pages]
    answers = {target.url: answer for target, answer in pages}
    stamped = deploy_stamped(targets, answers)
    assert sorted(stamped) == [f"https://example.com/{name}" for name in "abc"]
    reported = [
        target.url.rsplit("/", 1)[1]
        for target, answer in pages
        if judge(target, answer, datetime.now(UTC), stamped=stamped)
    ]
    assert reported == ["d", "e", "f"]
    assert deploy_stamped(targets[:2], answers) == frozenset()


@pytest.mark.parametrize(
    ("metas", "refresh"),
    [
        (['<meta http-equiv="refresh" content="0; url=/moved">'], "https://example.com/moved"),
        (["<meta http-equiv=Refresh content=\"5;URL='/a b'\">"], "https://example.com/a b"),
        (['<meta http-equiv="refresh" content="0, url = \'/q\'x">'], "https://example.com/q"),
        (['<meta http-equiv="refresh" content="0; /direct">'], "https://example.com/direct"),
        (
            ['<meta http-equiv="refresh" content=".5; url=https://other.example/">'],
            "https://other.example/",
        ),
        (['<meta http-equiv="refresh" content="300">'], None),  # reloads itself
        (['<meta http-equiv="refresh" content="10; url=/soon">'], "https://example.com/soon"),
        (['<meta http-equiv="refresh" content="900; url=/logout">'], None),  # a session's end
        (['<meta http-equiv="refresh" content="600; url=?reload">'], None),
        (['<meta http-equiv="refresh" content="0; url=">'], None),
        ([f'<meta http-equiv="refresh" content="0; url={URL}#top">'], None),  # itself
        # the first a browser can read counts: a reload wins, one it cannot read is skipped
        (
            [
                '<meta http-equiv="refresh" content="60">',
                '<meta http-equiv="refresh" content="0; url=/x">',
            ],
            None,
        ),
        (
            [
                '<meta http-equiv="refresh" content="soon">',
                '<meta http-equiv="refresh" content="0; url=/x">',
            ],
            "https://example.com/x",
        ),
        (['<meta name="refresh" content="0; url=/x">'], None),  # no http-equiv
        (
            ['<noscript><meta http-equiv="refresh" content="0; url=/x"></noscript>'],
            "https://example.com/x",
        ),
    ],
)
def test_a_meta_refresh_to_another_url_is_read(metas: list[str], refresh: str | None) -> None:
    assert read_signals(URL, [], head(*metas)).refresh == refresh


def test_a_page_that_refreshes_to_another_url_is_a_redirect() -> None:
    from sitemap_lint.live.model import Answer, Target
    from sitemap_lint.rules.live import judge

    page = "https://example.com/old"
    meta = [
        '<meta name="robots" content="noindex">',
        '<meta http-equiv="refresh" content="0; url=https://example.com/new">',
    ]
    answer = Answer(page, status=200, final_url=page, signals=read_signals(page, [], head(*meta)))
    (finding,) = judge(Target(page, "page", 3, 5), answer, datetime.now(UTC))
    assert (finding.code, finding.message) == (
        "LV005",
        f"page {page} redirects to https://example.com/new with a meta refresh; list the page"
        " it leads to",
    )
