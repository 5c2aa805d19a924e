"""Internationalized host names read the way browsers read them.

Browsers and the WHATWG URL standard map a host with UTS #46 non-transitional
processing and then check each label against IDNA 2008: ``faß.de`` is
``xn--fa-hia.de`` (Python's built-in ``idna`` codec, IDNA 2003, would give
``fass.de``, another domain). The ``idna`` package does both steps.

Only hosts with characters outside ASCII come here; the verdict is cached per host, and
the ``idna`` package (with its Unicode tables) is imported on first use only, so runs
over ASCII hosts never load it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import idna

MAX_LABEL = 63
MAX_NAME = 253
_JOINERS = {"\u200c": "ZERO WIDTH NON-JOINER", "\u200d": "ZERO WIDTH JOINER"}


class HostFault(NamedTuple):
    """Why a host has no ASCII form.

    ``kind`` is one of: ``codepoint`` (a character IDNA 2008 does not allow),
    ``joiner`` (U+200C/U+200D where the contextual rules forbid it), ``context``
    (another character allowed only in some contexts), ``bidi`` (right-to-left
    and left-to-right characters mixed as IDNA 2008 forbids), ``label-length``,
    ``name-length``, ``hyphen-edge`` (a label starts or ends with ``-``),
    ``hyphen-34`` (``--`` in the third and fourth positions), ``combining`` (a
    label starts with a combining mark), ``empty-label``, or ``other``.
    """

    kind: str
    label: str = ""  # the label at fault, as mapped (lower case), when one is
    char: str = ""  # the character at fault, for codepoint/joiner/context
    length: int = 0  # the ASCII length, for label-length/name-length
    detail: str = ""  # the library's own words, for other


class AsciiHost(NamedTuple):
    """A host's ASCII form (A-labels, lower case, a trailing dot kept), or why it has none."""

    ascii: str | None
    fault: HostFault | None


@lru_cache(maxsize=4096)
def to_ascii(host: str) -> AsciiHost:
    """The host as browsers encode it (UTS #46 non-transitional, then IDNA 2008)."""
    import idna

    try:
        encoded = idna.encode(host, uts46=True, transitional=False).decode("ascii")
    except idna.IDNAError as error:
        return AsciiHost(None, _fault(host, error))
    return AsciiHost(encoded, None)


def _fault(host: str, error: idna.IDNAError) -> HostFault:
    import idna

    try:
        mapped = idna.uts46_remap(host, std3_rules=False, transitional=False)
    except idna.IDNAError:
        mapped = host
    name = mapped[:-1] if mapped.endswith(".") else mapped
    labels = name.split(".")
    if not all(labels):
        return HostFault("empty-label")
    for label in labels:
        fault = _label_fault(label)
        if fault is not None:
            return fault
    if isinstance(error, idna.IDNABidiError):
        return HostFault("bidi", _bidi_label(labels))
    if "too long" in str(error).lower():
        length = len(_ascii_label(name)) if "." not in name else _ascii_length(labels)
        return HostFault("name-length", length=length)
    return HostFault("other", detail=str(error))


def _label_fault(label: str) -> HostFault | None:
    """The first fault in one (mapped) label, checked in the order IDNA 2008 does."""
    import unicodedata

    import idna
    from idna import idnadata, intranges

    if label.isascii() and label.startswith("xn--"):
        return None  # an A-label already: the library's own words say what is wrong with it
    if label[2:4] == "--":
        return HostFault("hyphen-34", label)
    if label.startswith("-") or label.endswith("-"):
        return HostFault("hyphen-edge", label)
    if label.isascii():
        if len(label) > MAX_LABEL:
            return HostFault("label-length", label, length=len(label))
        bad = next((char for char in label if not (char.isalnum() or char == "-")), "")
        return HostFault("codepoint", label, bad) if bad else None
    if unicodedata.category(label[0]).startswith("M"):
        return HostFault("combining", label, label[0])
    for position, char in enumerate(label):
        code = ord(char)
        if intranges.intranges_contain(code, idnadata.codepoint_classes["PVALID"]):
            continue
        if char in _JOINERS:
            if not idna.valid_contextj(label, position):
                return HostFault("joiner", label, char)
            continue
        if intranges.intranges_contain(code, idnadata.codepoint_classes["CONTEXTO"]):
            if not idna.valid_contexto(label, position):
                return HostFault("context", label, char)
            continue
        return HostFault("codepoint", label, char)
    length = len(_ascii_label(label))
    if length > MAX_LABEL:
        return HostFault("label-length", label, length=length)
    return None


def _ascii_label(label: str) -> str:
    if label.isascii():
        return label
    return "xn--" + label.encode("punycode").decode("ascii")


def _ascii_length(labels: list[str]) -> int:
    return sum(len(_ascii_label(label)) for label in labels) + len(labels) - 1


def _bidi_label(labels: list[str]) -> str:
    import idna

    for label in labels:
        try:
            idna.check_bidi(label, check_ltr=True)
        except idna.IDNABidiError:
            return label
    return ""


def joiner_name(char: str) -> str:
    """The Unicode name of a joiner (or of any character), for messages."""
    import unicodedata

    return _JOINERS.get(char) or unicodedata.name(char, f"U+{ord(char):04X}") or char
