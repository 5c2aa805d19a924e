"""Makes schema engines' messages readable: namespace URIs become the usual prefixes."""

from __future__ import annotations

import re

from sitemap_lint.model import SITEMAP_NS, USUAL_PREFIXES, XML_NS

# Each namespace the bundled schemas know, with the prefix a message writes for it: none
# for the sitemap namespace, the usual one for each extension (every extension the
# schemas bundle: a URI left in a message would be unreadable).
_PREFIXES = {
    SITEMAP_NS: "",
    **{namespace: f"{prefix}:" for prefix, namespace in USUAL_PREFIXES.items()},
    XML_NS: "xml:",
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


# What to do about the schema engines' usual messages: a pattern of the cleaned message,
# and the advice it gets ({0}, {1}: the pattern's groups). Each defect has a pattern in
# libxml2's wording and one in xmlschema's, with the same advice: the engine chosen does
# not change what a finding says to do.
_REMOVE_ATTRIBUTE = "remove the attribute"
_ONE_OF = "write one of {0}"
_SHORTEN = "shorten it to {0} characters at most"
_LENGTHEN = "write at least {0} characters"
_EMPTY = "remove everything inside it, white space too: the element is empty"
_NIL = "remove its xsi:nil attribute"
_NO_XSI_TYPE = "remove its xsi:type attribute: the schema gives each element its type"
_TEXT_BETWEEN = "remove the text between its child elements"
_TEXT_ONLY = "remove the elements inside it: it holds text only"
_EXPECTED_HERE = (
    "the schema expects <{0}> at this place: add it before this element, or remove this one"
)
_UNEXPECTED = "remove it, or move it to where the schema allows it"
_ADD = "add <{0}>"
_ADD_MISSING = "add the missing child elements"

# One element the schema expects, named (not a wildcard such as ##other*).
_NAME = r"([^\s()'#|]+)"

_ADVICE = (
    # An xsi:type on an element (libxml2: an unknown type, or one not derived from the
    # element's; xmlschema: one that cannot substitute the element's).
    (re.compile(r"^attribute xsi:type: |cannot substitute"), _NO_XSI_TYPE),
    # libxml2
    (re.compile(r"attribute \S+: The attribute '[^']*' is not allowed"), _REMOVE_ATTRIBUTE),
    (
        re.compile(
            r"\[facet 'enumeration'\] The value '[^']*' is not an element of the set \{(.*)\}"
        ),
        _ONE_OF,
    ),
    (re.compile(r"\[facet 'maxLength'\] .* allowed maximum length of '?(\d+)'?"), _SHORTEN),
    (re.compile(r"\[facet 'minLength'\] .* allowed minimum length of '?(\d+)'?"), _LENGTHEN),
    (
        re.compile(
            r"(?:Character|Element) content is not allowed, because the content type is empty"
        ),
        _EMPTY,
    ),
    (re.compile(r"The element is not 'nillable'"), _NIL),
    (re.compile(r"Character content other than whitespace is not allowed"), _TEXT_BETWEEN),
    (
        re.compile(
            r"Element content is not allowed, because the (?:type definition is simple|"
            r"content type is a simple type definition)"
        ),
        _TEXT_ONLY,
    ),
    (re.compile(rf"This element is not expected\. Expected is \( ?{_NAME} ?\)"), _EXPECTED_HERE),
    (re.compile(r"This element is not expected"), _UNEXPECTED),
    (re.compile(rf"Missing child element\(s\)\. Expected is \( ?{_NAME} ?\)"), _ADD),
    (re.compile(r"Missing child element\(s\)"), _ADD_MISSING),
    # xmlschema
    (re.compile(r"'[^']*' attribute not allowed for element"), _REMOVE_ATTRIBUTE),
    (re.compile(r"value must be one of \[(.*)\]"), _ONE_OF),
    (re.compile(r"value length cannot be greater than (\d+)"), _SHORTEN),
    (re.compile(r"value length cannot be lesser than (\d+)"), _LENGTHEN),
    (
        re.compile(
            r"(?:character data|child elements) (?:is|are) not allowed because content is empty"
        ),
        _EMPTY,
    ),
    (re.compile(r"element is not nillable"), _NIL),
    (re.compile(r"character data between child elements not allowed"), _TEXT_BETWEEN),
    (re.compile(r"a simple content element can't have child elements"), _TEXT_ONLY),
    (
        re.compile(rf"Unexpected child with tag '[^']*' at position \d+\. Tag '{_NAME}' expected"),
        _EXPECTED_HERE,
    ),
    (re.compile(r"Unexpected child with tag"), _UNEXPECTED),
    (
        re.compile(rf"The content of element '[^']*' is not complete\. Tag '{_NAME}' expected"),
        _ADD,
    ),
    (re.compile(r"The content of element '[^']*' is not complete"), _ADD_MISSING),
)


def advice(message: str) -> str | None:
    """What to do about a schema engine's (cleaned) ``message``, when it says something
    the usual way; None otherwise."""
    for pattern, text in _ADVICE:
        found = pattern.search(message)
        if found is not None:
            return text.format(*found.groups())
    return None
