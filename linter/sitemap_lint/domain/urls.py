"""A URL split into the parts the rules compare: scheme, host, port and path."""

from __future__ import annotations

import re
from functools import cache
from itertools import islice
from urllib.parse import quote

from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.records import NamedTuple


class ParsedURL(NamedTuple):
    scheme: str
    host: str
    port: int
    path: str
    # Kept for a sitemap's own location only (``rules.urls.parse_location``): whether an
    # index lists itself depends on it.
    query: str = ""

    @property
    def origin(self) -> str:
        default = 443 if self.scheme == "https" else 80
        port = "" if self.port == default else f":{self.port}"
        return f"{self.scheme}://{self.host}{port}"


class PercentFault(NamedTuple):
    """A percent-escape that is well formed but decodes to something no URL should hold.

    ``kind`` is ``"control"`` (a control character such as NUL), ``"utf8"`` (bytes
    that are not UTF-8, such as Latin-1 ``%E9``) or ``"double"`` (``%25`` followed by
    two hex digits: an escape that was escaped again). ``escape`` is the text at fault
    (``%00``, ``%E9``, ``%2520``); ``decoded`` what it stands for, for the message.
    """

    kind: str
    escape: str
    decoded: str


_ESCAPES = lazy(r"(?:%[0-9A-Fa-f]{2})+")
_DOUBLE = lazy(r"%25[0-9A-Fa-f]{2}")


def percent_faults(text: str) -> list[PercentFault]:
    """The percent-escapes of ``text`` (a URL's path, query and fragment) that decode to
    control characters or to bytes that are not UTF-8, and the doubly escaped ones; at
    most one fault of each kind, the first one found."""
    if "%" not in text:
        return []
    faults: dict[str, PercentFault] = {}
    for match in _ESCAPES.finditer(text):
        run = match.group()
        data = bytes.fromhex(run.replace("%", ""))
        if "control" not in faults:
            for index, byte in enumerate(data):
                if byte < 0x20 or byte == 0x7F:
                    faults["control"] = PercentFault(
                        "control", run[3 * index : 3 * index + 3], f"U+{byte:04X}"
                    )
                    break
        if "utf8" not in faults:
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as error:
                bad = run[3 * error.start : 3 * error.end]
                faults["utf8"] = PercentFault(
                    "utf8", bad, data[error.start : error.end].decode("latin-1")
                )
        if len(faults) == 2:
            break
    double = _DOUBLE.search(text)
    if double is not None:
        escape = double.group()
        faults["double"] = PercentFault("double", escape, "%" + escape[3:])
    return [faults[kind] for kind in ("control", "utf8", "double") if kind in faults]


# What a URI holds as it is (RFC 3986): the reserved characters but the brackets, which
# only an IP literal host holds, and the percent sign of an escape (quote() keeps
# letters, digits and "_.-~" anyway).
_KEPT = "/:?#@!$&'()*+,;="
_STRAY_PERCENT = lazy("%(?![0-9A-Fa-f]{2})")
# A URL's scheme, "://" and authority (userinfo, host and port).
SCHEME_AND_AUTHORITY = lazy(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")


def encoded(url: str) -> str:
    """``url`` (a whole URL, or the part after its host) as a URI: every character a URI
    does not hold as it is percent-encoded as UTF-8 (a space, a character outside ASCII,
    ``<``, ``"``, a ``[`` outside an IP literal host, a ``%`` that starts no escape),
    every other character kept."""
    start = SCHEME_AND_AUTHORITY.match(url)
    head = "" if start is None else start.group()
    return _quoted(head, _KEPT + "[]%") + _quoted(url[len(head) :], _KEPT + "%")


def _quoted(text: str, safe: str) -> str:
    text = _STRAY_PERCENT.sub("%25", text)
    return quote(text.encode("utf-8", "surrogateescape"), safe=safe)


def remove_dot_segments(path: str) -> str:
    """The path as a crawler resolves it: `.` and `..` segments removed (RFC 3986, 5.2.4)."""
    segments = path.split("/")
    out: list[str] = []
    for segment in segments[1:]:
        if segment == ".":
            continue
        if segment == "..":
            if out:
                out.pop()
            continue
        out.append(segment)
    if segments[-1] in (".", ".."):
        out.append("")
    return "/" + "/".join(out)


# Characters that need no percent-encoding (RFC 3986, 2.3): an escape of one is decoded.
UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def normal_escape(digits: str) -> str:
    """The percent-escape ``%`` + ``digits`` in normal form: the unreserved character it
    stands for (``%7E`` is ``~``, RFC 3986, 2.3), else with upper-case digits (6.2.2.1)."""
    character = chr(int(digits, 16))
    return character if character in UNRESERVED else "%" + digits.upper()


def utf8_escapes(text: str) -> str:
    """``text`` percent-encoded as UTF-8, each byte (an IRI's ``é`` is ``%C3%A9``, RFC
    3987, 3.1). A file's runs repeat (a folder's name in every URL): they are kept."""
    found = _ESCAPED_RUNS.get(text)
    if found is None:
        if not text:
            return ""
        if len(_ESCAPED_RUNS) > 4096:
            _ESCAPED_RUNS.clear()
        data = text.encode("utf-8", "surrogatepass")
        found = _ESCAPED_RUNS[text] = "%" + data.hex("%").upper()
    return found


_ESCAPED_RUNS: dict[str, str] = {}


def escaped_outside_ascii(text: str) -> str:
    """``text`` with its characters outside ASCII percent-encoded as UTF-8
    (``utf8_escapes``), the others kept. A URL's folders repeat from URL to URL (all of
    a section's pages): what stands before its last ``/`` is encoded once and kept."""
    if text.isascii():
        return text
    folder, slash, rest = text.rpartition("/")
    if not slash:
        return _NOT_ASCII.sub(_escaped_run, text)
    found = _ESCAPED_FOLDERS.get(folder)
    if found is None:
        if len(_ESCAPED_FOLDERS) > 4096:
            _ESCAPED_FOLDERS.clear()
        found = _ESCAPED_FOLDERS[folder] = _NOT_ASCII.sub(_escaped_run, folder)
    if rest.isascii():
        return f"{found}/{rest}"
    # The last segment, kept for a while: a URL's is encoded for its identity and for
    # its finding, one after the other.
    last = _ESCAPED_LAST.get(rest)
    if last is None:
        if len(_ESCAPED_LAST) >= _LAST_KEPT:
            for oldest in list(islice(_ESCAPED_LAST, _LAST_KEPT // 2)):
                _ESCAPED_LAST.pop(oldest, None)  # (a thread may have dropped it)
        last = _ESCAPED_LAST[rest] = _NOT_ASCII.sub(_escaped_run, rest)
    return f"{found}/{last}"


_NOT_ASCII = lazy(r"[^\x00-\x7f]+")
_ESCAPED_FOLDERS: dict[str, str] = {}
_ESCAPED_LAST: dict[str, str] = {}  # the most recent, oldest first
_LAST_KEPT = 16384


def _escaped_run(run: re.Match[str]) -> str:
    return utf8_escapes(run.group())


def normal_escapes(path: str) -> str:
    """``path`` with its percent-escapes in normal form (``normal_escape``) and what a
    path may not hold percent-encoded as UTF-8 (``utf8_escapes``); a lone ``%`` stays."""
    return _not_normal_in_path().sub(_normal_in_path, path)


@cache  # compiled when first asked for
def _not_normal_in_path() -> re.Pattern[str]:
    """What a path holds that its normal form writes otherwise: a percent-escape, or
    characters a path may not hold as they are (outside ASCII, a space, a control, ...).
    live.page encodes fewer, as browsers send a whole URL, whose "?", "#", "[" are its own."""
    return re.compile(r"%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]+")


def _normal_in_path(match: re.Match[str]) -> str:
    text = match.group()
    if text[0] == "%" and len(text) == 3:
        return normal_escape(text[1:])
    return utf8_escapes(text)


def normal_path(path: str) -> str:
    """``path`` in the form in which equivalent spellings of a path are equal: its
    escapes in normal form (``normal_escapes``), then ``.`` and ``..`` segments resolved
    (``remove_dot_segments``)."""
    return remove_dot_segments(normal_escapes(path))
