"""Image extension rules: image:image inside url.

Google reads `image:loc` (an absolute URL, which may be on another domain) and
at most 1,000 images per page; since August 2022 it ignores the other children.
"""

from __future__ import annotations

import difflib

from sitemap_lint.domain.identity import normal_url
from sitemap_lint.domain.sequence import Step
from sitemap_lint.finding import Finding
from sitemap_lint.model import XML_SPACE, Node
from sitemap_lint.rules import urls
from sitemap_lint.rules.base import ERROR, INFO, WARNING, check, rule
from sitemap_lint.rules.entry import EntryContext, FileContext
from sitemap_lint.rules.extension import (
    UNEXPECTED_TEXT,
    check_child_order,
    check_text,
    misplaced_message,
    stray_child_message,
)
from sitemap_lint.rules.registry import stateful
from sitemap_lint.rules.structure import Only, Reporter
from sitemap_lint.support.words import elided, joined

NAMESPACE = "http://www.google.com/schemas/sitemap-image/1.1"

MAX_IMAGES = 1000
CHILDREN = ("loc", "caption", "geo_location", "title", "license")
# The schema's sequence: loc once, then each of the others at most once.
SEQUENCE = (Step("loc", 1, 1), *(Step(name, 0, 1) for name in CHILDREN[1:]))
DEPRECATED = ("caption", "geo_location", "title", "license")
_IGNORED = dict.fromkeys(DEPRECATED, "Google ignores {} since 2022")

MISSING_LOC = rule(
    "IM001",
    "image-loc-missing",
    ERROR,
    summary="An `image:image` without its `image:loc`",
    what="""
        Checks that every `image:image` has an `image:loc` with the image's URL,
        as its first child. (The URL itself goes through the URL rules: absolute,
        http or https, properly escaped.)
    """,
    why="""
        `image:loc` is the only child Google reads; without it the schema rejects
        the element and the image is not indexed. A misspelt name (`image:url`,
        `image:src`) or a missing `image:` prefix is the usual cause.
    """,
    bad="""
        <image:image>
          <image:url>https://example.com/photos/shoe.jpg</image:url>
        </image:image>
    """,
    good="""
        <image:image>
          <image:loc>https://example.com/photos/shoe.jpg</image:loc>
        </image:image>
    """,
)

TOO_MANY = rule(
    "IM002",
    "image-too-many",
    ERROR,
    summary="More than 1,000 images in one `url`",
    what="Counts the `image:image` elements of each `url`; Google allows at most 1,000.",
    why="""
        Google reads at most 1,000 images per page; the rest are not indexed from
        the sitemap. So many images usually means a generator listed a whole
        gallery or site under one page.
    """,
    bad="""
        <url>
          <loc>https://example.com/gallery</loc>
          <image:image><image:loc>https://example.com/img/1.jpg</image:loc></image:image>
          ... (1,200 images)
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/gallery?page=1</loc>
          <image:image><image:loc>https://example.com/img/1.jpg</image:loc></image:image>
          ... (at most 1,000 images; the others under the pages that show them)
        </url>
    """,
)

DUPLICATE = rule(
    "IM003",
    "image-duplicate",
    WARNING,
    summary="The same image listed twice in one `url`",
    what="Detects an `image:loc` that repeats an earlier `image:loc` of the same `url`.",
    why="""
        The second listing adds nothing: Google indexes an image once per page.
        It wastes part of the 1,000-image budget and usually comes from a
        template that emits both a thumbnail block and a gallery block.
    """,
    bad="""
        <url>
          <loc>https://example.com/shoes</loc>
          <image:image><image:loc>https://example.com/img/shoe.jpg</image:loc></image:image>
          <image:image><image:loc>https://example.com/img/shoe.jpg</image:loc></image:image>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/shoes</loc>
          <image:image><image:loc>https://example.com/img/shoe.jpg</image:loc></image:image>
        </url>
    """,
)

DEPRECATED_CHILDREN = rule(
    "IM004",
    "image-deprecated-children",
    INFO,
    summary="`image:caption`, `geo_location`, `title` or `license`, which Google ignores",
    what="""
        Reports, once per `image:image`, the children Google deprecated in
        August 2022: `image:caption`, `image:geo_location`, `image:title` and
        `image:license`.
    """,
    why="""
        They are harmless and still valid against the schema, but Google ignores
        them: they only make the file bigger. Describe images on the page
        (alt text, captions, structured data) instead.
    """,
    bad="""
        <image:image>
          <image:loc>https://example.com/img/shoe.jpg</image:loc>
          <image:caption>Red running shoe</image:caption>
        </image:image>
    """,
    good="""
        <image:image>
          <image:loc>https://example.com/img/shoe.jpg</image:loc>
        </image:image>
    """,
)

MISPLACED = rule(
    "IM005",
    "image-misplaced-element",
    ERROR,
    summary="An image element directly in `url` that is not `image:image`",
    what="""
        Detects elements of the image namespace standing directly in a `url`
        other than `image:image`: a child such as `image:loc` without its
        `image:image` wrapper, or an unknown name such as `image:images`.
    """,
    why="""
        Only `image:image` may stand in a `url`; the schema rejects anything else
        and Google does not read the image.
    """,
    bad="""
        <url>
          <loc>https://example.com/shoes</loc>
          <image:loc>https://example.com/img/shoe.jpg</image:loc>
        </url>
    """,
    good="""
        <url>
          <loc>https://example.com/shoes</loc>
          <image:image><image:loc>https://example.com/img/shoe.jpg</image:loc></image:image>
        </url>
    """,
)

CHILD_ORDER = rule(
    "IM006",
    "image-child-order",
    WARNING,
    summary="The children of `image:image` out of the schema's order",
    what="""
        Checks that the children of `image:image` follow the order the image
        schema fixes: `loc`, `caption`, `geo_location`, `title`, `license`, and
        names that order. (The `strict` profile makes it an error.)
    """,
    why="""
        Google reads the children in any order, but the schema defines a
        sequence: strict XSD validators, and tools built on them, reject the
        file. Writing `image:loc` first also keeps the one field Google still
        reads where everyone looks for it.
    """,
    bad="""
        <image:image>
          <image:title>Red running shoe</image:title>
          <image:loc>https://example.com/img/shoe.jpg</image:loc>
        </image:image>
    """,
    good="""
        <image:image>
          <image:loc>https://example.com/img/shoe.jpg</image:loc>
          <image:title>Red running shoe</image:title>
        </image:image>
    """,
)

UNKNOWN_CHILD = rule(
    "IM007",
    "image-unknown-element",
    ERROR,
    summary="A child of `image:image` that the image extension does not define",
    what="""
        Reports elements inside an `image:image` that has its `image:loc` and
        that the image extension does not define there: an unknown name (a
        misspelt one gets a "did you mean"), a child written without the
        `image:` prefix, or an element of another namespace, such as an
        `xhtml:link` or a `video:video` that belongs in the `url`.
    """,
    why="""
        The schema rejects the image, and what the element says is not read.
        An extension element that belongs in the `url` describes nothing
        inside an image.
    """,
    bad="""
        <image:image>
          <image:loc>https://example.com/img/shoe.jpg</image:loc>
          <image:alt>Red running shoe</image:alt>
        </image:image>
    """,
    good="""
        <image:image>
          <image:loc>https://example.com/img/shoe.jpg</image:loc>
        </image:image>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Image extension"
ORDER = 130

RULES = (
    MISSING_LOC,
    TOO_MANY,
    DUPLICATE,
    DEPRECATED_CHILDREN,
    MISPLACED,
    CHILD_ORDER,
    UNKNOWN_CHILD,
)

# Names that stand for image:loc in broken sitemaps.
_LOC_ALIASES = frozenset({"url", "src", "href", "link", "location", "uri", "image_loc", "image"})


# Its elements' URLs and dates are checked with the URL and date rules, which it reports too.
@check(
    "extension",
    namespace=NAMESPACE,
    emits=(*RULES, *urls.RULES, UNEXPECTED_TEXT),
    covers=True,
    proof=stateful("image"),
)
class Checker:
    """Checks the image:image elements of one file; state is per `url` only."""

    __slots__ = ("_count", "_over", "_seen")

    def __init__(self, file: FileContext | None = None) -> None:
        self._count = 0
        self._over: Node | None = None  # the first image beyond the limit
        # Image URL (in normal form) -> line of its first listing, in this url.
        self._seen: dict[str, int] = {}

    def check(self, element: Node, context: EntryContext, report: Reporter) -> None:
        if element.name != "image":
            _misplaced(element, report)
            return
        self._count += 1
        if self._count == MAX_IMAGES + 1:
            self._over = element
        loc = _check_children(element, report, context)
        if loc is None:
            return
        written = loc.text.strip(XML_SPACE)
        key = normal_url(written)
        first = self._seen.get(key)
        if first is None:
            self._seen[key] = loc.line
            return
        shown = elided(written, 100)
        report.add(
            DUPLICATE.at(
                loc.line,
                loc.column,
                f"image {shown} is already listed in this <url> (line {first}); "
                "remove the repeated <image:image>",
            )
        )

    def end_entry(self, context: EntryContext, report: Reporter) -> None:
        if self._over is not None:
            node = self._over
            report.add(
                TOO_MANY.at(
                    node.line,
                    node.column,
                    f"<url> has {self._count:,} <image:image> elements; Google reads at most "
                    f"{MAX_IMAGES:,} per page: keep the {MAX_IMAGES:,} that matter most "
                    "(this is the first one over the limit)",
                )
            )
        self._count = 0
        self._over = None
        self._seen.clear()

    def finish(self, report: Reporter) -> None:
        return None


def _check_children(image: Node, report: Reporter, context: EntryContext) -> Node | None:
    """Check one image:image; return its image:loc when it holds a URL (the entry's
    ``context``: the file's replacements for the URL rules, its prefixes for the
    messages)."""
    replacements = context.replacements
    check_text(image, "image", report, context.prefixes)
    loc = None
    deprecated: list[Node] = []
    unknown: list[Node] = []
    for child in image.children:
        if child.ns != NAMESPACE or child.name not in CHILDREN:
            unknown.append(child)
            continue
        if child.name == "loc":
            loc = loc or child
        elif child.name in DEPRECATED:
            deprecated.append(child)
            if child.name == "license" and not child.children and child.text.strip(XML_SPACE):
                # Deprecated, but still a URL in the schema: the same URL rules as loc.
                urls.check_url(
                    child.text, child, report, field="image:license", replacements=replacements
                )
    if deprecated:
        first = deprecated[0]
        names = [f"<image:{node.name}>" for node in deprecated]
        report.add(deprecated_children(names, first.line, first.column))
    check_order(image, report)
    if loc is None:
        report.add(MISSING_LOC.at(image.line, image.column, _missing_loc_message(image)), image)
        return None
    for child in unknown:
        report.add(UNKNOWN_CHILD.at(child.line, child.column, _unknown_message(child)), child)
    if loc.children:
        return None  # markup inside the value: the schema's message says it
    if not loc.text.strip(XML_SPACE):
        report.add(
            MISSING_LOC.at(
                loc.line,
                loc.column,
                "<image:loc> is empty; give the image's absolute URL or remove the <image:image>",
            )
        )
        return None
    urls.check_url(loc.text, loc, report, field="image:loc", replacements=replacements)
    urls.check_escaped_twice(loc, report)
    return loc


def check_order(image: Node, report: Reporter) -> None:
    """IM006 where the children of one image:image stand out of the schema's order."""
    check_child_order(image, NAMESPACE, SEQUENCE, CHILD_ORDER, "image", " ", Only, report, _IGNORED)


def deprecated_children(names: list[str], line: int, column: int) -> Finding:
    """IM004 for the deprecated children ``names`` (their tags, in order) of one
    image:image, at the first one's ``line`` and ``column``."""
    return DEPRECATED_CHILDREN.at(
        line,
        column,
        f"Google ignores {joined(list(dict.fromkeys(names)))} since 2022 (deprecated, harmless); "
        f"remove {'it' if len(names) == 1 else 'them'} to keep the sitemap small",
    )


def _missing_loc_message(image: Node) -> str:
    base = "<image:image> has no <image:loc>"
    text = image.text.strip(XML_SPACE)
    if text and not image.children:
        shown = text if len(text) <= 80 else text[:77] + "..."
        return (
            f"{base}: the URL stands directly in <image:image>; write "
            f"<image:image><image:loc>{shown}</image:loc></image:image>"
        )
    for child in image.children:
        if child.name == "loc" and child.ns != NAMESPACE:
            return (
                f"{base}: its <loc> is not in the image namespace; write <image:loc> "
                "(with the image: prefix)"
            )
        if child.ns == NAMESPACE and child.name not in CHILDREN:
            close = difflib.get_close_matches(child.name.lower(), ["loc"], n=1, cutoff=0.6)
            if close or child.name.lower() in _LOC_ALIASES:
                return f"{base}; rename <image:{child.name}> to <image:loc>"
    return f"{base}; add <image:loc> with the image's absolute URL as its first child"


def _unknown_message(child: Node) -> str:
    return stray_child_message(
        "image",
        NAMESPACE,
        child,
        CHILDREN,
        "move it into the <url> if it describes the page, or remove it",
    )


def _misplaced(element: Node, report: Reporter) -> None:
    name = element.name
    wrapped = f"wrap it: <image:image><image:{name}>...</image:{name}></image:image>"
    message = misplaced_message("image", name, wrapped if name in CHILDREN else None)
    report.add(MISPLACED.at(element.line, element.column, message), element)
