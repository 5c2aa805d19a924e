"""Makes schema engines' messages readable: namespace URIs become the usual prefixes."""

from __future__ import annotations

import re

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


# What to do about the schema engines' usual messages (libxml2's wording): a pattern of
# the cleaned message, and the advice it gets ({0}, {1}: the pattern's groups).
_ADVICE = (
    (re.compile(r"attribute \S+: The attribute '[^']*' is not allowed"), "remove the attribute"),
    (
        re.compile(
            r"\[facet 'enumeration'\] The value '[^']*' is not an element of the set \{(.*)\}"
        ),
        "write one of {0}",
    ),
    (
        re.compile(r"\[facet 'maxLength'\] .* allowed maximum length of '?(\d+)'?"),
        "shorten it to {0} characters at most",
    ),
    (
        re.compile(r"\[facet 'minLength'\] .* allowed minimum length of '?(\d+)'?"),
        "write at least {0} characters",
    ),
    (
        re.compile(r"Character content is not allowed, because the content type is empty"),
        "remove everything inside it, white space too: the element is empty",
    ),
    (re.compile(r"The element is not 'nillable'"), "remove its xsi:nil attribute"),
    (
        re.compile(r"Character content other than whitespace is not allowed"),
        "remove the text between its child elements",
    ),
    (
        re.compile(r"Element content is not allowed, because the type definition is simple"),
        "remove the elements inside it: it holds text only",
    ),
    (
        re.compile(r"This element is not expected\. Expected is \( ?([^ )]+) ?\)"),
        "the schema expects <{0}> at this place: add it before this element, or remove this one",
    ),
    (
        re.compile(r"This element is not expected"),
        "remove it, or move it to where the schema allows it",
    ),
    (re.compile(r"Missing child element\(s\)\. Expected is \( ?([^ )]+) ?\)"), "add <{0}>"),
    (re.compile(r"Missing child element\(s\)"), "add the missing child elements"),
)


def advice(message: str) -> str | None:
    """What to do about a schema engine's (cleaned) ``message``, when it says something
    the usual way; None otherwise."""
    for pattern, text in _ADVICE:
        found = pattern.search(message)
        if found is not None:
            return text.format(*found.groups())
    return None
