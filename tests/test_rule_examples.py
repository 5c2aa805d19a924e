"""Each rule's documented example gives that rule, and its "Use instead" does not.

An example is usually a fragment (a `<loc>`, a `<lastmod>`, an `image:image`...): it
is completed into the smallest sitemap that holds it, with the namespaces declared,
and checked as a file with the options its docs name (`# sitemap served at URL`,
a robots.txt before `# sitemap.xml`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sitemap_lint
from sitemap_lint.finding import dedent_block
from sitemap_lint.rules import RULES

# Examples that describe their input rather than show it (sizes, counts, HTTP
# exchanges, sets of files, elided parts): the rule's fixtures check those.
DESCRIBED = {
    "IN001", "IN003", "IN004", "IN005", "EN001", "EN003", "EN004", "XM002",
    "LM001", "LM002", "LM003", "UR003", "UR012", "ST011", "IM002",
    "VD003", "VD006", "VD015", "VD016", "VD018", "VD019", "VD021",
    "NW004", "NW005", "RB005", "TX005", "TX006", "FD002", "FX001",
}  # fmt: skip
FAMILIES_DESCRIBED = ("FE", "LV", "SE")

# Findings that an example and its fix cannot avoid: the only order to show is of
# deprecated children, the legacy news fields are the ones validated, a feed is a feed...
UNAVOIDABLE = {
    "IM006": {"IM004"},
    "VD020": {"VD017"},
    "NW008": {"NW011"},
    "NW009": {"NW011"},
    "NW010": {"NW011"},
    "SU002": {"UR008"},
    "XM003": {"UR001"},
    "HL005": {"HL009"},  # a link alone: its other page is listed by no entry
}
# Findings that only the example cannot avoid (its fix shows what to write, whole).
UNAVOIDABLE_IN_EXAMPLE = {
    "HL004": {"HL008"},
    "HL006": {"HL008"},
    "HL007": {"HL008"},
    "HL009": {"HL008"},
    "RB003": {"UR018"},  # two spellings of one URL: one is not canonical
}
FEED_RULES = ("FD003", "FD004", "FD005", "FD006", "FD007")

NAMESPACES = (
    'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
    ' xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
    ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'
    ' xmlns:xhtml="http://www.w3.org/1999/xhtml"'
    ' xmlns:pagemap="http://www.google.com/schemas/sitemap-pagemap/1.0"'
    ' xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0"'
)
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
PAGE = "<loc>https://example.com/</loc>"
VIDEO_REQUIRED = (
    "<video:thumbnail_loc>https://example.com/thumb.jpg</video:thumbnail_loc>",
    "<video:title>Grilling steaks</video:title>",
    "<video:description>Steaks every time.</video:description>",
    "<video:content_loc>https://example.com/steaks.mp4</video:content_loc>",
)
PUBLICATION = (
    "<news:publication><news:name>The Example Times</news:name>"
    "<news:language>en</news:language></news:publication>"
)
NEWS_ORDER = ("publication", "access", "genres", "publication_date", "title", "stock_tickers")
NEWS_DEFAULTS = {
    "publication": PUBLICATION,
    "publication_date": "<news:publication_date>2025-05-31T08:00:00+00:00</news:publication_date>",
    "title": "<news:title>Companies A and B in merger talks</news:title>",
}
RSS_HEAD = (
    '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>News</title>'
    "<link>https://example.com/</link><description>News</description>\n"
)


def urlset(body: str) -> str:
    return f"{DECLARATION}<urlset {NAMESPACES}>\n{body}\n</urlset>\n"


def in_entry(body: str, loc: str = PAGE) -> str:
    return urlset(f"<url>{loc}\n{body}\n</url>")


def in_video(child: str) -> str:
    """A complete video with ``child``, which replaces the required child it names."""
    names = set(re.findall(r"<video:(\w+)", child))
    others = [c for c in VIDEO_REQUIRED if re.match(r"<video:(\w+)", c)[1] not in names]  # type: ignore[index]
    return in_entry(f"<video:video>{''.join(others)}\n{child}\n</video:video>")


def in_news(field: str) -> str:
    """A complete news:news with ``field``, in its place (inside publication for a
    language), or several news entries for several names."""
    names = re.findall(r"<news:name>(.*?)</news:name>", field)
    if len(names) > 1:
        return urlset(
            "\n".join(
                f"<url><loc>https://example.com/{n}</loc><news:news>"
                f"<news:publication><news:name>{name}</news:name><news:language>en"
                f"</news:language></news:publication>{NEWS_DEFAULTS['publication_date']}"
                f"<news:title>Title {n}</news:title></news:news></url>"
                for n, name in enumerate(names)
            )
        )
    tag = re.match(r"<news:(\w+)>", field)[1]  # type: ignore[index]
    fields = dict(NEWS_DEFAULTS)
    if tag in ("name", "language"):
        name = field if tag == "name" else "<news:name>The Example Times</news:name>"
        language = field if tag == "language" else "<news:language>en</news:language>"
        fields["publication"] = f"<news:publication>{name}{language}</news:publication>"
    else:
        fields[tag] = field
    return in_entry(f"<news:news>{''.join(fields.get(k, '') for k in NEWS_ORDER)}</news:news>")


def completed(code: str, example: str) -> str:
    """The smallest whole file that holds ``example``."""
    text = example.strip("\n").replace("<news:publication>...</news:publication>", PUBLICATION)
    text = "\n".join(line for line in text.splitlines() if line.strip() != "...")
    root = re.match(r"<(urlset|urls|sitemapindex)\b", text)
    if text.startswith("<?xml") and "\n" not in text:
        return f"{text}\n<urlset {NAMESPACES}><url>{PAGE}</url></urlset>\n"
    if root and "</" not in text:
        return f"{DECLARATION}{text}\n<url>{PAGE}</url></{root[1]}>\n"
    if root:
        return text if code == "XM008" else DECLARATION + text + "\n"
    if text.startswith(("<?xml", "<!DOCTYPE", "<rss", "{")):
        return text + "\n"
    if text.startswith("</urlset>"):
        return urlset(f"<url>{PAGE}</url>").replace("</urlset>\n", text + "\n")
    if text.startswith("<entry>"):
        return (
            '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>News</title>'
            f"<id>urn:news</id><updated>2024-05-08T10:00:00Z</updated>\n{text}\n</feed>\n"
        )
    if text.startswith("<item>"):
        return f"{RSS_HEAD}{text}\n</channel></rss>\n"
    if text.startswith("<pubDate>"):
        return (
            f"{RSS_HEAD}<item><link>https://example.com/a</link>{text}</item>\n</channel></rss>\n"
        )
    if text.startswith("<sitemap>"):
        return f"{DECLARATION}<sitemapindex {NAMESPACES}>\n{text}\n</sitemapindex>\n"
    if text.startswith("<url") or (text.startswith("<!--") and "<url>" in text):
        return urlset(text)
    if text.startswith(("<loc>", "<!--")) and text.count("<loc>") == 1:
        return urlset(f"<url>{text}</url>")
    if text.startswith("<loc>"):
        return urlset("\n".join(f"<url>{line}</url>" for line in text.splitlines()))
    if text.startswith("<xhtml:link"):
        href = re.search(r'href="([^"]+)"', text)[1]  # type: ignore[index]
        return in_entry(text, f"<loc>{href}</loc>")
    if text.startswith(("<lastmod>", "<changefreq>", "<priority>", "<image:image>")):
        return in_entry(text)
    if text.startswith(("<video:video>", "<news:news>", "<pagemap:PageMap>")):
        return in_entry(text)
    if text.startswith("<video:"):
        return in_video(text)
    if text.startswith("<news:"):
        return in_news(text)
    if text.startswith("<pagemap:DataObject"):
        return in_entry(f"<pagemap:PageMap>{text}</pagemap:PageMap>")
    if text.startswith("<pagemap:Attribute"):
        return in_entry(
            '<pagemap:PageMap><pagemap:DataObject type="document">'
            f"{text}</pagemap:DataObject></pagemap:PageMap>"
        )
    raise AssertionError(f"{code}: no way to complete the example {text[:60]!r}")


def findings_of(code: str, example: str, directory: Path) -> list[str]:
    """The codes of the findings on ``example``, checked as a file."""
    options: dict[str, object] = {}
    served = re.match(r"# sitemap served at (\S+)\n", example)
    if served:
        options["sitemap_url"] = served[1]
        example = example[served.end() :]
    if "# robots.txt\n" in example and "# sitemap.xml\n" in example:
        robots, _, example = example.partition("# sitemap.xml\n")
        robots_path = directory / "robots-given.txt"
        robots_path.write_text(robots.replace("# robots.txt\n", ""), encoding="utf-8")
        options["robots"] = [robots_path]
    lang = RULES[code].source[4]  # type: ignore[index]
    if lang == "text" and code.startswith("RB"):
        path, content = directory / "robots.txt", example
    elif lang == "text":
        path, content = directory / "sitemap.txt", example
    else:
        path, content = directory / "sitemap.xml", completed(code, example)
    path.write_text(content, encoding="utf-8")
    found = sitemap_lint.lint(path, now="2025-06-01T00:00:00Z", isolated=True, **options)  # type: ignore[arg-type]
    return [finding.code for finding in found]


def shown(code: str) -> bool:
    source = RULES[code].source
    return (
        isinstance(source, tuple)
        and source[4] in ("xml", "text")
        and code not in DESCRIBED
        and not code.startswith(FAMILIES_DESCRIBED)
    )


@pytest.mark.parametrize("code", sorted(code for code in RULES if shown(code)))
def test_the_example_gives_the_rule_and_its_fix_does_not(code: str, tmp_path: Path) -> None:
    _what, _why, bad, good, _lang = RULES[code].source  # type: ignore[misc]
    allowed = UNAVOIDABLE.get(code, set()) | ({"FD001"} if code in FEED_RULES else set())
    bad_codes = findings_of(code, dedent_block(bad), tmp_path)
    assert code in bad_codes, bad_codes
    assert set(bad_codes) - {code} <= allowed | UNAVOIDABLE_IN_EXAMPLE.get(code, set()), bad_codes
    assert set(findings_of(code, dedent_block(good), tmp_path)) <= allowed - {code}


def test_a_fix_allowed_a_finding_of_its_own_family_cannot_avoid_it() -> None:
    """A fix with a finding of its rule's family is allowed one only where the fix must
    show what that rule reports (the deprecated children whose order it fixes...)."""
    own_family = {
        code: {other for other in allowed if other[:2] == code[:2]}
        for code, allowed in UNAVOIDABLE.items()
    }
    assert {code: codes for code, codes in own_family.items() if codes} == {
        "IM006": {"IM004"},
        "VD020": {"VD017"},
        "NW008": {"NW011"},
        "NW009": {"NW011"},
        "NW010": {"NW011"},
        "HL005": {"HL009"},
    }
