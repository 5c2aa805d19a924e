"""Whether an input names a URL (fetched) or a path (read): light, for the reader and
the reporters alike."""

from __future__ import annotations


def is_url(argument: str) -> bool:
    """An http(s) URL to fetch rather than a path to read (the scheme in any case)."""
    return argument[:8].lower().startswith(("http://", "https://"))


def names_robots(name: str) -> bool:
    """Whether a path or a URL names a robots.txt: its last segment (a URL's without
    its query or fragment) is ``robots.txt`` in any case, alone or after a separator
    (``staging.robots.txt``, ``site-robots.txt``), not ``notrobots.txt``."""
    if is_url(name):
        name = name.split("#", 1)[0].split("?", 1)[0]
    last = name.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return last == "robots.txt" or (last.endswith("robots.txt") and not last[-11].isalnum())
