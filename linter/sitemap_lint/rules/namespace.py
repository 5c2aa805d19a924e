"""Namespace rules: the root's namespace and namespaces we have no schema for."""

from __future__ import annotations

import difflib

from sitemap_lint.finding import Finding, Fix
from sitemap_lint.fix.model import Edit, FindingFix, whole_file
from sitemap_lint.model import SITEMAP_NS, Node
from sitemap_lint.rules.base import ERROR, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.entry import FileContext
from sitemap_lint.rules.lookalike import RIGHT, differences, normalized
from sitemap_lint.rules.registry import NAMESPACE, ROOT
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.patterns import lazy

MISSING_NAMESPACE = rule(
    "NS001",
    "missing-namespace",
    ERROR,
    summary="The root element has no namespace",
    what="""
        Checks that `urlset` or `sitemapindex` declares the sitemap namespace
        `http://www.sitemaps.org/schemas/sitemap/0.9`. The rest of the file is
        checked as if it were declared.
    """,
    why="""
        The namespace is what identifies the document as a sitemap; Google
        reports "Incorrect namespace" and strict parsers read nothing.
    """,
    bad="<urlset>",
    good='<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
)

WRONG_NAMESPACE = rule(
    "NS002",
    "wrong-namespace",
    ERROR,
    fix="safe",
    summary="The root element's namespace is not the sitemap namespace",
    what="""
        Compares the root's namespace with `http://www.sitemaps.org/schemas/sitemap/0.9`
        and names the exact fix for the usual look-alikes (`https`, a trailing
        slash, no `www`, Google's old 0.84 and 0.9 namespaces). The rest of the
        file is checked as if the right namespace were declared. An element below
        the root in such a look-alike (an entry that declares its own
        `xmlns="https://www.sitemaps.org/schemas/sitemap/0.9"`) is reported here
        too, once per namespace, at its first element: it is no part of the sitemap
        until then, and the fix rewrites every declaration of that namespace.
    """,
    why="""
        A namespace is compared character by character: a look-alike is simply a
        different namespace. Google reports "Incorrect namespace".
    """,
    bad='<urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9">',
    good='<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
)

UNVALIDATED_NAMESPACE = rule(
    "NS003",
    "unvalidated-namespace",
    WARNING,
    summary="Elements from a namespace that has no bundled schema",
    what="""
        Reports, once per namespace and file, extension elements whose namespace
        is not one of the bundled schemas (sitemaps.org 0.9, Google image, video,
        news, mobile, PageMap, and XHTML links). Their content is not validated.
    """,
    why="""
        The sitemap schema validates extension elements strictly: an element from
        an unknown namespace makes the file invalid against the official schema,
        and search engines ignore data they do not know. It is also how typos in
        extension namespaces show up.
    """,
    bad="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
                xmlns:x="https://example.com/my-extension">
          <url><loc>https://example.com/</loc><x:rank>3</x:rank></url>
        </urlset>
    """,
    good="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/</loc></url>
        </urlset>
    """,
)

WRONG_EXTENSION_NAMESPACE = rule(
    "NS004",
    "wrong-extension-namespace",
    ERROR,
    fix="safe",
    summary="A known extension's elements declared with a wrong namespace",
    what="""
        Detects extension elements whose namespace is not the one their extension
        defines: a look-alike (`https`, a missing or extra `www`, a trailing
        slash, letter case, surrounding whitespace), a misspelling or another
        version of a known extension namespace, Google's path on sitemaps.org
        (`http://www.sitemaps.org/schemas/sitemap-image/1.1`), the address of an
        extension's schema file, or, on an element named like an extension's
        own (`image`, `video`, `news`, `link`, `mobile`, `PageMap`), a value
        close to its namespace (`http://www.w3.org/TR/xhtml1`) or one that is
        not a URI (`xmlns:xhtml="xhtml"`).
        It names the exact namespace to declare; the elements are not validated
        until it is fixed.
    """,
    why="""
        Namespaces are compared character by character: with a wrong one, search
        engines do not recognise the images, videos, news or alternates at all
        (Google Search Console reports "Incorrect namespace"), and the file is
        invalid against the schema.
    """,
    bad="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
                xmlns:image="https://www.google.com/schemas/sitemap-image/1.1">
          <url>
            <loc>https://example.com/</loc>
            <image:image><image:loc>https://example.com/front.jpg</image:loc></image:image>
          </url>
        </urlset>
    """,
    good="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
                xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
          <url>
            <loc>https://example.com/</loc>
            <image:image><image:loc>https://example.com/front.jpg</image:loc></image:image>
          </url>
        </urlset>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Namespaces"
ORDER = 40

RULES = (MISSING_NAMESPACE, WRONG_NAMESPACE, UNVALIDATED_NAMESPACE, WRONG_EXTENSION_NAMESPACE)

SCHEMA_NAMESPACES = frozenset(
    {
        SITEMAP_NS,
        "http://www.google.com/schemas/sitemap-image/1.1",
        "http://www.google.com/schemas/sitemap-video/1.1",
        "http://www.google.com/schemas/sitemap-news/0.9",
        "http://www.google.com/schemas/sitemap-mobile/1.0",
        "http://www.google.com/schemas/sitemap-pagemap/1.0",
        "http://www.w3.org/1999/xhtml",
    }
)
# The element each extension puts in a url, and its extension's namespace.
_TOP_ELEMENTS = {
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "mobile": "http://www.google.com/schemas/sitemap-mobile/1.0",
    "PageMap": "http://www.google.com/schemas/sitemap-pagemap/1.0",
    "link": "http://www.w3.org/1999/xhtml",
}
# Google's extension namespaces read as (host, name, version): google.com/schemas/
# sitemap-image/1.1 -> google.com, image, 1.1; generators also put them on sitemaps.org.
_ABSOLUTE_URI = lazy(r"[A-Za-z][A-Za-z0-9+.-]*:")
_SCHEMA_FILE = lazy(r"(.+)/[^/]+\.xsd\Z")
_GOOGLE_EXTENSION = lazy(r"(google\.com|sitemaps\.org)/schemas/sitemap-([a-z]+)/([0-9.]+)\Z")


@check(ROOT, emits=(MISSING_NAMESPACE, WRONG_NAMESPACE), proof=NO_PROOF)
def root_namespace(root: Node, file: FileContext, report: Reporter) -> None:
    """The namespace of a sitemap's or an index's root (the root is always read: no
    proof needed)."""
    if not file.entry_name:
        return  # another root: the structure rules say so
    problem = check_root(root.ns, root.name, root.line, root.column)
    if problem is not None:
        report.add(problem)


def check_root(ns: str, root_name: str, line: int, column: int) -> Finding | None:
    if ns == SITEMAP_NS:
        return None
    if not ns:
        return MISSING_NAMESPACE.at(
            line,
            column,
            f'<{root_name}> has no namespace; add xmlns="{SITEMAP_NS}"',
        )
    why = differences(ns)
    fix = None
    if why:  # a near miss of the sitemap namespace (or one of its old forms)
        near = normalized(ns) == RIGHT
        fix = FindingFix(
            Fix.SAFE if near else Fix.UNSAFE,
            f"Write the sitemap namespace {SITEMAP_NS}",
            (Edit(1, 1, SITEMAP_NS, "xmlns", old=ns),),
        )
    return WRONG_NAMESPACE.at(
        line,
        column,
        f'namespace {ns!r} is not the sitemap namespace{why}; write xmlns="{SITEMAP_NS}"',
        fix=fix,
    )


def unvalidated(ns: str, line: int, column: int) -> Finding:
    if not ns:
        return UNVALIDATED_NAMESPACE.at(
            line,
            column,
            "elements without a namespace are not validated: no schema defines them "
            "(put them in their extension's namespace, or remove them)",
        )
    close = difflib.get_close_matches(ns, sorted(SCHEMA_NAMESPACES), n=1, cutoff=0.85)
    if close and not _GOOGLE_EXTENSION.match(normalized(ns)):
        hint = f"did you mean {close[0]!r}? correct the xmlns declaration"
    else:
        hint = "check the namespace for typos, or remove the elements"
    return UNVALIDATED_NAMESPACE.at(
        line,
        column,
        f"elements from namespace {ns!r} are not validated: no bundled schema for it ({hint})",
    )


_EXTENSIONS_BY_FORM = {normalized(ns): ns for ns in SCHEMA_NAMESPACES if ns != SITEMAP_NS}


def extension_look_alike(ns: str, line: int, column: int) -> Finding | None:
    """NS004 when ``ns`` is a near-exact copy of a known extension namespace."""
    right = _EXTENSIONS_BY_FORM.get(normalized(ns))
    if right is None or right == ns:
        return None
    return WRONG_EXTENSION_NAMESPACE.at(
        line,
        column,
        f"namespace {ns!r} is a look-alike of {right!r}; declare exactly "
        f'xmlns:PREFIX="{right}" (its elements were not validated)',
        fix=whole_file("xmlns", f"Write the namespace {right}", old=ns, content=right),
    )


@check(
    NAMESPACE,
    emits=(WRONG_NAMESPACE, UNVALIDATED_NAMESPACE, WRONG_EXTENSION_NAMESPACE),
    proof=NO_PROOF,
)
def first_of_namespace(node: Node, file: FileContext, report: Reporter) -> None:
    """The first element of a namespace without a bundled schema (the fast path proves
    entries of the bundled namespaces only: no proof needed)."""
    finding = element_namespace(node)
    if finding is not None:
        report.add(finding)


def element_namespace(node: Node) -> Finding | None:
    """The finding for the first element of a namespace that has no bundled schema:
    NS002 when the namespace is the sitemap namespace written wrong (an entry that
    declares its own, say), NS004 when it is a known extension's element or namespace
    written wrong, NS003 otherwise; None for elements in no namespace (the structure
    rules report them)."""
    ns = node.ns
    if not ns:
        return None
    why = differences(ns)
    if why:
        return _wrong_sitemap_namespace(node, why)
    look_alike = extension_look_alike(ns, node.line, node.column)
    if look_alike is not None:
        return look_alike
    right, why = _meant_extension(node)
    if right is not None:
        return WRONG_EXTENSION_NAMESPACE.at(
            node.line,
            node.column,
            f"namespace {ns!r} of <{node.name}> is not {right!r} ({why}); declare exactly "
            f'xmlns:PREFIX="{right}" (its elements were not validated)',
        )
    return unvalidated(ns, node.line, node.column)


def _wrong_sitemap_namespace(node: Node, why: str) -> Finding:
    """NS002 for an element below the root whose namespace is a look-alike of the
    sitemap namespace (``<url xmlns="https://www.sitemaps.org/...">``): until it is
    fixed the element is no part of the sitemap (an entry is not read as one)."""
    near = normalized(node.ns) == RIGHT
    fix = FindingFix(
        Fix.SAFE if near else Fix.UNSAFE,
        f"Write the sitemap namespace {SITEMAP_NS}",
        (Edit(1, 1, SITEMAP_NS, "xmlns", old=node.ns),),
    )
    return WRONG_NAMESPACE.at(
        node.line,
        node.column,
        f"<{node.name}> is in namespace {node.ns!r}, not the sitemap namespace{why}, so it "
        f'is no part of the sitemap (nothing in it is checked); write xmlns="{SITEMAP_NS}"',
        fix=fix,
    )


def _meant_extension(node: Node) -> tuple[str | None, str]:
    """The known extension namespace that ``node``'s namespace stands for, and why."""
    ns = node.ns
    form = normalized(ns)
    schema_file = _SCHEMA_FILE.match(form)
    if schema_file is not None and schema_file.group(1) in _EXTENSIONS_BY_FORM:
        return _EXTENSIONS_BY_FORM[
            schema_file.group(1)
        ], "the schema file's address, not the namespace"
    google = _GOOGLE_EXTENSION.match(form)
    if google is not None:
        host, word, version = google.groups()
        known_words = {
            match.group(2): (known, match.group(3))
            for known in _EXTENSIONS_BY_FORM
            if (match := _GOOGLE_EXTENSION.match(known)) is not None
        }
        wrong_host = [] if host == "google.com" else [f"on {host} instead of google.com"]
        if word in known_words:
            known, right_version = known_words[word]
            reasons = wrong_host
            if version != right_version:
                reasons = [*wrong_host, f"version {version} instead of {right_version}"]
            return _EXTENSIONS_BY_FORM[known], ", ".join(reasons)
        close = difflib.get_close_matches(word, list(known_words), n=1, cutoff=0.75)
        if close:
            reasons = [*wrong_host, f"sitemap-{word} is a misspelling"]
            return _EXTENSIONS_BY_FORM[known_words[close[0]][0]], ", ".join(reasons)
        return None, ""  # another Google extension, which has no bundled schema
    close = difflib.get_close_matches(form, list(_EXTENSIONS_BY_FORM), n=1, cutoff=0.85)
    if close:
        return _EXTENSIONS_BY_FORM[close[0]], "a misspelling"
    expected = _TOP_ELEMENTS.get(node.name)
    if expected is None:
        return None, ""
    if not _ABSOLUTE_URI.match(ns.strip()):
        # Not a URI, on an element named like the extension's own (xmlns:xhtml="xhtml").
        # A real URI of one's own may well define an element of that name.
        return expected, f"not a URI; <{node.name}> is an element of that extension"
    if difflib.get_close_matches(form, [normalized(expected)], n=1, cutoff=0.7):
        return expected, f"close to it, and <{node.name}> is an element of that extension"
    return None, ""
