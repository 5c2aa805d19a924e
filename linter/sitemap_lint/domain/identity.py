"""When two URLs name the same page: the normal form the duplicate and hreflang checks
compare."""

from __future__ import annotations

import functools
import re

from sitemap_lint.domain.urls import (
    SCHEME_AND_AUTHORITY,
    escaped_outside_ascii,
    normal_escape,
    remove_dot_segments,
)
from sitemap_lint.support.patterns import lazy

_URL = lazy(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)(.*)", re.DOTALL)
_DEFAULT_PORTS = {"http": ":80", "https": ":443"}
_PATH_END = lazy(r"[?#]")
# An escape not in normal form: a lower-case hex digit, or an unreserved character's.
ABNORMAL_ESCAPE = lazy(
    r"%(?:[0-9A-Fa-f][a-f]|[a-f][0-9A-F]|2[DE]|3[0-9]|4[1-9A-F]|5[0-9AF]|6[1-9A-F]|7[0-9AE])"
)


# Each escape's two digits in lower case -> the escape in normal form.
_NORMAL_ESCAPES = {f"{byte:02x}": normal_escape(f"{byte:02x}") for byte in range(256)}


@functools.lru_cache(maxsize=4096)
def _normal_escapes(text: str) -> str:
    """``text`` with each percent-escape in normal form (``normal_escape``); a "%" that
    starts none is kept. (Cached: the URLs of a site share their escaped folders.)"""
    parts = text.split("%")
    normal = _NORMAL_ESCAPES.get
    written = [parts[0]]
    for part in parts[1:]:
        escape = normal(part[:2].lower())
        written.append("%" + part if escape is None else escape + part[2:])
    return "".join(written)


def as_uri(iri: str) -> str:
    """The URI an IRI maps to (RFC 3987, 3.1): a host outside ASCII in its IDNA form (as
    browsers encode it; kept when it has none), the other characters outside ASCII as
    percent-encoded UTF-8."""
    prefix = SCHEME_AND_AUTHORITY.match(iri)
    if prefix is None or prefix.group().isascii():  # (the usual IRI: its path)
        return escaped_outside_ascii(iri)
    match = _URL.fullmatch(iri)
    if match is None:
        return escaped_outside_ascii(iri)
    scheme, authority, rest = match.groups()
    userinfo, at, hostport = authority.rpartition("@")
    host, colon, port = hostport.partition(":")
    if not host.isascii() and not host.startswith("["):
        from sitemap_lint.domain.hosts import to_ascii

        host = to_ascii(host).ascii or host
    return f"{scheme}://{escaped_outside_ascii(userinfo + at)}{host}{colon}{port}" + (
        escaped_outside_ascii(rest)
    )


def _without_dot_segments(url: str) -> str:
    """``url`` with the "." and ".." segments of its path resolved (RFC 3986, 5.2.4);
    the query and fragment as they are."""
    prefix = SCHEME_AND_AUTHORITY.match(url)
    if prefix is None:
        return url
    start = prefix.end()
    end = _PATH_END.search(url, start)
    stop = len(url) if end is None else end.start()
    path = url[start:stop]
    if not path.startswith("/") or ("/./" not in path + "/" and "/../" not in path + "/"):
        return url
    return url[:start] + remove_dot_segments(path) + url[stop:]


def _plain_host(host: str) -> bool:
    """Whether ``host`` (what stands between an http(s) URL's "//" and its path) is an
    ASCII host in lower case alone: no user name, no port."""
    return (
        host.islower()
        and host.isascii()
        and ":" not in host
        and "@" not in host
        and "?" not in host
        and "#" not in host
    )


def normal_url(url: str) -> str:
    """``url`` as pages are compared for identity: the scheme and host in lower case,
    without the scheme's default port (:80, :443), ``/`` for an empty path, an IRI as the
    URI it maps to (``as_uri``), a character a URI does not hold as it is (a space, ``"``,
    ``<``, a control, ...; UR006) percent-encoded, the percent-escapes after the host
    with upper-case hex digits, those of unreserved characters (letters, digits,
    ``-._~``) decoded, and the path's "." and ".." segments resolved. Otherwise the path,
    query and fragment are kept as written (they may be case-sensitive)."""
    if _RAW.search(url) is not None and "://" in url:
        url = _RAW.sub(_escaped_raw, url)
    return normal_uri(url)


# What a URI does not hold as it is, in ASCII (the brackets are an IP literal host's).
_RAW = lazy(r"[\x00-\x20\x7f\"<>`{}|\\^]")


def _escaped_raw(match: re.Match[str]) -> str:
    return f"%{ord(match.group()):02X}"


def normal_uri(url: str) -> str:
    """``normal_url`` of a URL known to hold no character that a URI does not hold as it
    is in ASCII (a space, ``"``, ``<``, ...): one a proof read."""
    if "%" in url:  # (before an IRI's mapping, whose escapes are in normal form)
        prefix = SCHEME_AND_AUTHORITY.match(url)
        start = prefix.end() if prefix is not None else 0
        if ABNORMAL_ESCAPE.search(url, start) is not None:
            first, last = url.find("%", start), url.rfind("%") + 3
            url = url[:first] + _normal_escapes(url[first:last]) + url[last:]
    if url.startswith(("https://", "http://")):
        # The usual URL is in normal form already: a lower-case host, no port, a path;
        # an IRI's (its host in ASCII) is the URI it maps to (``as_uri``).
        start = 8 if url[4] == "s" else 7
        slash = url.find("/", start)
        if slash > start and _plain_host(url[start:slash]):
            if not url.isascii():
                url = escaped_outside_ascii(url)
            return _without_dot_segments(url) if "/." in url else url
    if not url.isascii():
        url = as_uri(url)
    if "/." in url:
        url = _without_dot_segments(url)
    if url.startswith(("https://", "http://")):  # (a host outside ASCII, in IDNA form now)
        start = 8 if url[4] == "s" else 7
        slash = url.find("/", start)
        if slash > start and _plain_host(url[start:slash]):
            return url
    match = _URL.fullmatch(url)
    if match is None:
        return url
    scheme, authority, rest = match.groups()
    lower = scheme.lower()
    userinfo, at, hostport = authority.rpartition("@")
    if hostport.startswith("["):  # an IPv6 address
        end = hostport.find("]") + 1
        host, port = (hostport, "") if end <= 0 else (hostport[:end], hostport[end:])
    else:
        host, colon, number = hostport.partition(":")
        port = colon + number
    if port in (":", _DEFAULT_PORTS.get(lower)):
        port = ""
    if not rest or rest[0] in "?#":
        rest = "/" + rest
    return f"{lower}://{userinfo}{at}{host.lower()}{port}{rest}"
