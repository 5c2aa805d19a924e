"""The sitemap namespace's look-alikes: a namespace that is the sitemap namespace
written wrong (``https``, a trailing slash, no ``www``...) or one of its old forms, and
what sets it apart. The namespace rules name the fix with it; the structure rules leave
such an element to them."""

from __future__ import annotations

from sitemap_lint.model import SITEMAP_NS

RIGHT = "sitemaps.org/schemas/sitemap/0.9"
# Look-alikes that differ in more than spelling, by host and path without "www." or a trailing slash.
OTHER_NAMESPACES = {
    "google.com/schemas/sitemap/0.84": "Google's namespace from before sitemaps.org",
    "google.com/schemas/sitemap/0.9": "Google's namespace from before sitemaps.org",
    "google.com/schemas/sitemap/0.90": "Google's namespace from before sitemaps.org",
    "sitemaps.org/schemas/sitemap/0.90": "version 0.90 instead of 0.9",
    "sitemaps.org/schemas/sitemap/0.8": "an old draft version",
    "sitemaps.org/schemas/sitemap/0.9/sitemap.xsd": "the schema file's address, not the namespace",
    "sitemaps.org/schemas/sitemap/0.9/siteindex.xsd": "the schema file's address, not the namespace",
}


def differences(ns: str) -> str:
    """What sets a look-alike apart from the sitemap namespace, as " (...)"; "" for the
    sitemap namespace itself and the others."""
    if ns == SITEMAP_NS:
        return ""
    text = ns.strip()
    scheme, separator, rest = text.partition("://")
    if not separator:
        scheme, rest = "", text
    key = rest.lower().removeprefix("www.").rstrip("/")
    if key in OTHER_NAMESPACES:
        return f" ({OTHER_NAMESPACES[key]})"
    if key != RIGHT:
        return ""
    found = []
    if ns != text:
        found.append("surrounding whitespace")
    if scheme.lower() == "https":
        found.append("https instead of http")
    elif scheme.lower() != "http":
        found.append("no http:// at the start" if not scheme else f"{scheme}: instead of http:")
    if not rest.lower().startswith("www."):
        found.append("no www")
    if rest.endswith("/"):
        found.append("a trailing slash")
    host_path = rest.rstrip("/")
    expected = ("www." if host_path.lower().startswith("www.") else "") + RIGHT
    if host_path != expected or scheme != scheme.lower():
        found.append("different letter case")
    return " (" + ", ".join(found) + ")"


def normalized(ns: str) -> str:
    """``ns`` without its scheme, a leading ``www.`` and trailing slashes, in lower case."""
    lowered = ns.strip().lower()
    rest = lowered.partition("://")[2] or lowered
    return rest.removeprefix("www.").rstrip("/")
