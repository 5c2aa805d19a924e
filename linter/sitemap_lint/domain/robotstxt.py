"""A robots.txt's text read as rules (protego), for the set's checks and the live audit,
and its Sitemap lines as the check's front end and ``diff`` read them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from protego import Protego


def parse_robots(text: str) -> Protego | None:
    """The rules of a robots.txt, or None when they cannot be read (lone surrogates,
    which cannot be percent-encoded). A byte order mark may start the text (RFC 9309,
    2.2); unread, it would make the first line's field name unknown, and that line's
    group ruleless."""
    from protego import Protego

    try:
        return Protego.parse(text.removeprefix("\ufeff"))
    except ValueError:
        return None


# `Sitemap: URL`; Google takes every field name starting with "sitemap" or "site-map".
SITEMAP_FIELD = re.compile(r"[ \t]*(site-?map[^\s:]*)[ \t]*:[ \t]*(.*?)[ \t]*\Z", re.I)
SITEMAP_NO_COLON = re.compile(r"[ \t]*(site-?map[^\s:]*)[ \t]+(\S+)[ \t]*\Z", re.I)
# `Sitemap=URL` or `Sitemap = URL`: an '=' where the colon belongs (read as no colon).
SITEMAP_EQUALS = re.compile(r"[ \t]*(site-?map[^\s:=]*)[ \t]*=[ \t]*(\S+)[ \t]*\Z", re.I)
# A second URL after white space in a Sitemap line's value: two URLs run together.
_TWO_URLS = re.compile(r"\S\s+https?://", re.I)


def lists_two_urls(value: str) -> bool:
    """Whether the value of a Sitemap line holds a second URL after white space. Such a
    line names no one sitemap, so neither URL is followed (the check reports the line:
    UR006); the first alone would be a guess at what the line meant."""
    return _TWO_URLS.search(value) is not None


def sitemap_line(line: str) -> re.Match[str] | None:
    """The Sitemap field of a robots.txt line (its name, group 1, and its value, group 2,
    before a comment), written with its colon or without; None for another line."""
    content = line.split("#", 1)[0]  # what follows '#' is a comment
    if not content.lstrip(" \t")[:8].lower().startswith(("sitemap", "site-map")):
        return None
    return (
        SITEMAP_EQUALS.match(content)
        or SITEMAP_FIELD.match(content)
        or SITEMAP_NO_COLON.match(content)
    )


# What tells a robots.txt from a text sitemap by its first lines (``looks_like_robots``).
_HEAD = 4096
_FIELD_LINE = re.compile(r"^[ \t]*(?:user-agent|sitemap|disallow|allow)[ \t]*:", re.I | re.M)
# A line starting with a URL (maybe in quotes or angle brackets): a text sitemap's line.
_URL_LINE = re.compile(r"^[ \t]*[<\"']?[ \t]*https?://", re.I | re.M)


def looks_like_robots(text: str) -> bool:
    """Whether a text not named robots.txt is one by its first 4,096 characters: it does
    not start with a URL, and more of its lines are robots.txt fields (User-agent,
    Allow, Disallow, Sitemap) than start with a URL. A URL list with a stray `Sitemap:`
    line, first or not, is a text sitemap (whose check reports that line), never a
    robots.txt whose URL lines go unread."""
    head = text[:_HEAD].lstrip()
    if "\r" in head:
        head = head.replace("\r\n", "\n").replace("\r", "\n")
    if _URL_LINE.match(head):
        return False
    fields = len(_FIELD_LINE.findall(head))
    return fields > 0 and fields > len(_URL_LINE.findall(head))
