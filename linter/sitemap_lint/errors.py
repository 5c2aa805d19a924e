"""Errors that stop a run before any file is checked."""

from __future__ import annotations

import sys


class SitemapLintError(Exception):
    """A run that cannot be done: a bad option or configuration value, an input that
    cannot be read. The message is one line; the command prints it and exits 2."""


class UsageError(SitemapLintError):
    """A bad option, flag or configuration value; the message is one line for stderr."""


class ArgumentTypeError(UsageError, TypeError):
    """A Python value of the wrong type given to the API, or a keyword it does not take:
    a TypeError too, as Python's own calls raise for such an argument."""


class ArgumentValueError(UsageError, ValueError):
    """A Python value of the right type the API or the option's setting refuses (an
    unknown profile, a limit out of range, content given as a str): a ValueError too."""


def empty_path(where: str, names: str = "file", give: str = "a file") -> str:
    """What an empty path (an unset variable) is told: it is neither the working
    directory, which ``Path("")`` is, nor the argument left out."""
    return f"{where}: an empty path names no {names}; give {give}"


# The attribute that carries the plugin at fault (``plugin_at_fault``) with an error
# raised in a worker process: the traceback that names it stays there.
_PLUGIN = "sitemap_lint_plugin"


def plugin_at_fault(error: BaseException) -> str | None:
    """The module of an installed plugin's check that raised ``error`` (the innermost
    of its frames, or the one ``name_plugin`` recorded where it was raised), or None when
    none of the plugins' code is in its traceback."""
    recorded = getattr(error, _PLUGIN, None)
    if isinstance(recorded, str):
        return recorded
    registry = sys.modules.get("sitemap_lint.rules.registry")
    if registry is None:
        return None
    plugins = {
        spec.implementation.__module__
        for spec in registry.CHECKS
        if not registry.is_builtin(spec.implementation.__module__)
    }
    if not plugins:
        return None
    found = None
    traceback = error.__traceback__
    while traceback is not None:
        module = traceback.tb_frame.f_globals.get("__name__", "")
        if any(module == name or module.startswith(name + ".") for name in plugins):
            found = module
        traceback = traceback.tb_next
    return found


def name_plugin(error: BaseException) -> None:
    """Record on ``error`` the plugin at fault, which its pickled copy in another process
    keeps (its traceback it does not)."""
    plugin = plugin_at_fault(error)
    if plugin is not None:
        setattr(error, _PLUGIN, plugin)


def blame(error: BaseException, module: str) -> None:
    """Record on ``error``, raised by the check of the plugin ``module``, that plugin as
    the one at fault, unless its traceback names one of its modules already (a call the
    check's signature does not take fails before any of its own code runs)."""
    if module and plugin_at_fault(error) is None:
        setattr(error, _PLUGIN, module)


def internal_error(error: BaseException, plugin: str | None) -> str:
    """The one line that reports an error no check expected: the plugin module whose
    check raised it (``plugin_at_fault``) named, when there is one."""
    where = f" in plugin module {plugin}" if plugin else ""
    return f"internal error{where}: {type(error).__name__}: {error}"
