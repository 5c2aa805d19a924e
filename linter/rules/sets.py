"""Set rules: checks across the files of a set (an index's children, a robots.txt's sitemaps)."""

from __future__ import annotations

RULES = ()
