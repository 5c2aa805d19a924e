"""Errors that stop a run before any file is checked."""

from __future__ import annotations


class SitemapLintError(Exception):
    """A run that cannot be done: a bad option or configuration value, an input that
    cannot be read. The message is one line; the command prints it and exits 2."""


class UsageError(SitemapLintError):
    """A bad option, flag or configuration value; the message is one line for stderr."""
