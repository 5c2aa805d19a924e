"""HTTP fetch rules: what went wrong fetching a sitemap URL."""

from __future__ import annotations

RULES = ()
