"""Text sitemaps (being written)."""

from __future__ import annotations


def is_text_sitemap(first: str, name: str) -> bool:
    return False


def check_text(first, texts, options, findings, facts) -> None:
    raise NotImplementedError
