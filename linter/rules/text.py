"""Text sitemap rules: one absolute URL per line, UTF-8, nothing else."""

from __future__ import annotations

RULES = ()
