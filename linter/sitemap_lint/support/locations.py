"""Whether an input names a URL (fetched) or a path (read): light, for the reader and
the reporters alike."""

from __future__ import annotations


def is_url(argument: str) -> bool:
    """An http(s) URL to fetch rather than a path to read (the scheme in any case)."""
    return argument[:8].lower().startswith(("http://", "https://"))
