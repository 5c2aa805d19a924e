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
