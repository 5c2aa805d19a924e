"""Feed rules: RSS 2.0 and Atom 0.3/1.0 feeds used as sitemaps."""

from __future__ import annotations

RULES = ()
