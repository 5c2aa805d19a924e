"""The version of sitemap-lint: declared here and nowhere else (pyproject.toml reads it)."""

__version__ = "0.1.0"
