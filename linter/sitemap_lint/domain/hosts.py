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
from typing import TYPE_CHECKING

from sitemap_lint.support.records import NamedTuple

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
    name = mapped.removesuffix(".")
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


# Hosts a URL parser reads as more than a name: one whose last label is a number is an
# IPv4 address (WHATWG URL, "ends in a number"), one with an ``xn--`` label an A-label.
# ``plain_host`` tells the ASCII hosts that are neither, at the cost of a few string
# operations; the others are read by ``ipv4_fault`` and ``alabel_fault``.


def plain_host(host: str) -> bool:
    """Whether an ASCII host name is read as a name alone: its last label is not a
    number (decimal, or ``0x`` and hex digits) and none of its labels starts ``xn--``."""
    name = host.removesuffix(".")
    last = name.rpartition(".")[2]
    if last.isdigit() or last[:2].lower() == "0x":
        return False
    return "xn--" not in host.lower()


def ipv4_fault(host: str) -> str | None:
    """Why ``host``, which ends in a number and so is read as an IPv4 address (WHATWG URL's
    IPv4 parser: one to four numbers, decimal, ``0x`` hex or ``0`` octal), is not one; None
    when it is one or does not end in a number. The words name the number at fault."""
    name = host[:-1] if host.endswith(".") and len(host) > 1 else host
    parts = name.split(".")
    last = parts[-1]
    if not (last.isascii() and last.isdigit()) and _ipv4_number(last) is None:
        return None  # does not end in a number: a name
    if len(parts) > 4:
        return f"it has {len(parts)} numbers; an IPv4 address has four"
    numbers: list[int] = []
    for part in parts:
        number = _ipv4_number(part)
        if number is None:
            if part[:1] == "0" and part.isdigit():
                return f"{part!r} is not a number (a leading 0 makes it octal, without 8 or 9)"
            return f"{part!r} is not a number"
        numbers.append(number)
    for part, number in zip(parts[:-1], numbers[:-1], strict=True):
        if number > 255:
            return f"{part} is over 255"
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        if len(numbers) == 4:
            return f"{last} is over 255"
        most = 256 ** (5 - len(numbers)) - 1
        if len(numbers) == 1:
            return f"{last} is over {most}, the most an address written as one number may be"
        return f"{last} is over {most}, the most the last of {len(numbers)} numbers may be"
    return None


def ip_host(host: str) -> str:
    """An IP address host as browsers write it (WHATWG URL's host serializer): an IPv6
    literal compressed in lower case (``[0:0::1]`` is ``[::1]``), an IPv4 address as four
    decimal numbers (``127.1`` and ``0x7f.0.0.1`` are ``127.0.0.1``); any other host as it is."""
    if host.startswith("[") and host.endswith("]"):
        import ipaddress

        try:
            return f"[{ipaddress.IPv6Address(host[1:-1]).compressed}]"
        except ValueError:
            return host
    if plain_host(host) or ipv4_fault(host) is not None:
        return host
    numbers = [_ipv4_number(part) for part in host.removesuffix(".").split(".")]
    if None in numbers:  # (does not end in a number: a name)
        return host
    *bytes_, last = [number for number in numbers if number is not None]
    value = sum(byte << 8 * (3 - index) for index, byte in enumerate(bytes_)) + last
    return ".".join(str(value >> shift & 255) for shift in (24, 16, 8, 0))


def _ipv4_number(text: str) -> int | None:
    """An IPv4 number as WHATWG URL reads one, or None when it is not one."""
    if not text or not text.isascii():
        return None
    radix = 10
    if text[:2].lower() == "0x":
        text, radix = text[2:], 16
    elif len(text) > 1 and text[0] == "0":
        text, radix = text[1:], 8
    if not text:
        return 0
    try:
        return int(text, radix) if text.isalnum() else None
    except ValueError:
        return None


class ALabelFault(NamedTuple):
    """Why an ``xn--`` label (an A-label, the ASCII form of an internationalized label)
    is not one: its Punycode does not decode (``decoded`` empty), it decodes to ASCII
    alone (``fault`` None), or to a label IDNA 2008 does not allow (``fault``)."""

    label: str
    decoded: str = ""
    fault: HostFault | None = None


@lru_cache(maxsize=4096)
def alabel_fault(host: str) -> ALabelFault | None:
    """The first ``xn--`` label of an ASCII host that is not a valid A-label, or None."""
    name = host.removesuffix(".")
    for label in name.split("."):
        if label[:4].lower() != "xn--":
            continue
        try:
            decoded = label[4:].lower().encode("ascii").decode("punycode")
        except UnicodeError:
            return ALabelFault(label)
        if not decoded or decoded.isascii():
            return ALabelFault(label, decoded)
        verdict = to_ascii(decoded)
        if verdict.ascii is None:
            return ALabelFault(label, decoded, verdict.fault or HostFault("other"))
    return None


def ipv6_fault(text: str) -> str | None:
    """Why ``text`` (what stands between an IP literal's brackets) is not an IPv6
    address (RFC 3986 ``IPv6address``), or None."""
    import ipaddress

    if not text:
        return "it is empty"
    bad = next((char for char in text if char not in _IPV6_CHARS), "")
    if bad:
        return f"{bad!r} is not allowed in an IPv6 address (hex digits, ':' and '.')"
    if text.count("::") > 1:
        return "'::' appears more than once; it may stand for one run of zero groups only"
    groups = text.split(":")
    long_group = next((group for group in groups if "." not in group and len(group) > 4), "")
    if long_group:
        return f"group {long_group!r} has more than four hex digits"
    count = len([group for group in groups if group]) + ("." in groups[-1])
    if "::" not in text and count != 8:
        return f"it has {count} groups; an IPv6 address has eight (fewer with '::')"
    if "::" in text and count > 7:
        return f"it has {count} groups besides '::', which stands for one or more: over eight"
    if "." in groups[-1]:
        embedded = _embedded_ipv4_fault(groups[-1])
        if embedded is not None:
            return f"its IPv4 part {groups[-1]!r} is not an IPv4 address: {embedded}"
    try:
        ipaddress.IPv6Address(text)
    except ValueError as error:
        return str(error)
    return None


def _embedded_ipv4_fault(text: str) -> str | None:
    """Why the dotted end of an IPv6 address is not the four decimal numbers of 0 to 255
    RFC 3986 asks for (``dec-octet``: no leading zero), or None."""
    numbers = text.split(".")
    if len(numbers) != 4:
        return f"it has {len(numbers)} numbers; an IPv4 address has four"
    for number in numbers:
        if not number.isdigit():
            return f"{number!r} is not a number"
        if len(number) > 1 and number[0] == "0":
            return f"{number} starts with 0, which is not allowed there"
        if int(number) > 255:
            return f"{number} is over 255"
    return None


_IPV6_CHARS = frozenset("0123456789abcdefABCDEF:.")
