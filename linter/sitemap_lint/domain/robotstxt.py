"""A robots.txt's text read as rules (protego), for the set's checks and the live audit."""

from __future__ import annotations

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
