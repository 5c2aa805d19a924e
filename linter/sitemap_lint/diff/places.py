"""Where each file of a side stands, and which files of the two sides are one file.

A file's place is its name relative to its side's root directory (the directory of the
file or URL the side names, or the directory named), with ``/`` between the parts:
``sitemap-1.xml``, ``news/sitemap.xml``; ``..`` parts for a file outside it (on the same
host, for a URL; on another host, a URL's place is its path). Local names are compared
as absolute paths, then with symbolic links resolved, so ``./public/sitemap.xml``,
``/abs/public/sitemap.xml`` and the mapped children of either stand where
``public/sitemap.xml``'s do.

The files of the two sides are paired one to one, in three rounds, each among the files
the rounds before left unpaired:

1. the same place;
2. the same place but for a final ``.gz`` (``sitemap-1.xml`` now served as
   ``sitemap-1.xml.gz`` is the same file, compressed);
3. each side's root file (the one file its argument names, or the one sitemap of the
   directory it names): ``old.xml`` and ``new.xml``, ``sitemap.xml`` and
   ``sitemap.txt``.

Paired files share a number; a URL moved to another file when its first listing's
number differs between the sides.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import Protocol
from urllib.parse import urlsplit


class SideFile(Protocol):
    """What pairing needs of a side's file (``sides.SideFile``): its place, and whether
    it is its side's root (no other file of the side lists it)."""

    @property
    def place(self) -> str: ...

    @property
    def root(self) -> bool: ...


def root_directory(argument: str) -> str:
    """The directory a side's argument stands in: a URL's, up to its last ``/``; a local
    file's or directory's, as an absolute path."""
    if "://" in argument:
        parts = urlsplit(argument)
        directory = parts.path.rsplit("/", 1)[0] + "/"
        return f"{parts.scheme}://{parts.netloc}{directory}"
    path = Path(argument)
    return os.path.abspath(path if path.is_dir() else path.parent)


def place(name: str, roots: Sequence[str]) -> str:
    """A file's place relative to its side's root directory (the first of ``roots``, the
    directories of the side's arguments, that holds it)."""
    if "://" in name:
        return _url_place(name, [root for root in roots if "://" in root])
    local = [root for root in roots if "://" not in root]
    if not local or name == "-":
        return PurePath(os.path.normpath(name)).as_posix()
    absolute, real = os.path.abspath(name), os.path.realpath(name)
    for root in local:
        for path, directory in ((absolute, root), (real, os.path.realpath(root))):
            relative = os.path.relpath(path, directory)
            if relative != ".." and not relative.startswith(".." + os.sep):
                return PurePath(relative).as_posix()
    return PurePath(os.path.relpath(absolute, local[0])).as_posix()


def _url_place(name: str, roots: Sequence[str]) -> str:
    for root in roots:
        if name.startswith(root):
            return name[len(root) :]
    parts = urlsplit(name)
    query = f"?{parts.query}" if parts.query else ""
    for root in roots:
        top = urlsplit(root)
        if (top.scheme.lower(), top.netloc.lower()) == (parts.scheme.lower(), parts.netloc.lower()):
            return posixpath.relpath(parts.path or "/", top.path or "/") + query
    return parts.path.lstrip("/") + query


def ungzipped(place: str) -> str:
    """A place without a final ``.gz``: the file it holds compressed."""
    return place[:-3] if place.lower().endswith(".gz") else place


def numbers(old: Sequence[SideFile], new: Sequence[SideFile]) -> tuple[list[int], list[int]]:
    """The number of each file of ``old`` and of ``new`` (in their order): files paired
    across the sides (see the module) share one; files of one side at one place, too."""
    old_places = list(dict.fromkeys(f.place for f in old))
    new_places = list(dict.fromkeys(f.place for f in new))
    paired: dict[str, str] = {}  # old place -> new place
    present = set(new_places)
    for where in old_places:
        if where in present:
            paired[where] = where
    unpaired_new: dict[str, str] = {}
    taken = set(paired.values())
    for where in new_places:
        if where not in taken:
            unpaired_new.setdefault(ungzipped(where), where)
    for where in old_places:
        if where not in paired:
            other = unpaired_new.pop(ungzipped(where), None)
            if other is not None:
                paired[where] = other
    old_root, new_root = _root(old), _root(new)
    if (
        old_root is not None
        and new_root is not None
        and old_root not in paired
        and new_root not in paired.values()
    ):
        paired[old_root] = new_root
    number = {where: n for n, where in enumerate(old_places)}
    new_number = {other: number[where] for where, other in paired.items()}
    for where in new_places:
        new_number.setdefault(where, len(old_places) + len(new_number))
    return [number[f.place] for f in old], [new_number[f.place] for f in new]


def _root(files: Sequence[SideFile]) -> str | None:
    """The place of the side's root file: its one file that no other lists."""
    roots = {f.place for f in files if f.root}
    return roots.pop() if len(roots) == 1 else None
