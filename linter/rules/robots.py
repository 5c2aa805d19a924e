"""robots.txt rules: its Sitemap lines, and URLs its rules disallow."""

from __future__ import annotations

RULES = ()
