"""Errors that stop a run before any file is checked."""

from __future__ import annotations


class UsageError(Exception):
    """A bad option, flag or configuration value; the message is one line for stderr."""
