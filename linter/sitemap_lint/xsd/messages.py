"""Makes schema engines' messages readable: namespace URIs become the usual prefixes."""

from __future__ import annotations

from sitemap_lint.model import SITEMAP_NS

_PREFIXES = {
    SITEMAP_NS: "",
    "http://www.google.com/schemas/sitemap-image/1.1": "image:",
    "http://www.google.com/schemas/sitemap-video/1.1": "video:",
    "http://www.google.com/schemas/sitemap-news/0.9": "news:",
    "http://www.google.com/schemas/sitemap-mobile/1.0": "mobile:",
    "http://www.w3.org/1999/xhtml": "xhtml:",
}


def clean(message: str) -> str:
    for namespace, prefix in _PREFIXES.items():
        message = message.replace(f"{{{namespace}}}", prefix)
        message = message.replace(f"##other{{{namespace}}}*", "an extension element")
    return message.strip().rstrip(".")


# What each engine says of an element its strict wildcard takes from a namespace no
# schema declares.
_UNKNOWN_NAMESPACE = (
    "No matching global element declaration available, but demanded by the strict wildcard",
    "unavailable namespace",
)


def unknown_namespace(message: str) -> bool:
    """Whether an engine's message says only that the element's namespace has no schema
    (elsewhere, such as inside an extension element, the schema rejects the element)."""
    return any(text in message for text in _UNKNOWN_NAMESPACE)
