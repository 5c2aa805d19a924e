"""What a check is given: the file it runs in, and the entry whose fields it sees.

``FileContext`` is made once per file and handed to the checks that keep state
across entries (their class is made with it). ``EntryContext`` is made once per
entry; the URL of its ``loc`` and the moment of its ``lastmod`` are filled by
the checks that parse them, or parsed here without reporting when those checks
do not run.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from sitemap_lint.model import Node

if TYPE_CHECKING:
    from sitemap_lint.robots import RobotsPolicy
    from sitemap_lint.rules.urls import ParsedURL


class RunOptions(Protocol):
    """The part of ``checker.Options`` that checks read."""

    @property
    def now(self) -> datetime: ...

    @property
    def sitemap_url(self) -> ParsedURL | None: ...

    @property
    def robots(self) -> tuple[tuple[str, str], ...]: ...

    @property
    def agent(self) -> str: ...


class FileContext:
    """One sitemap file: the run's options and what its root says."""

    def __init__(self, options: RunOptions, root_name: str, entry_name: str) -> None:
        self.options = options
        self.root_name = root_name
        self.entry_name = entry_name  # "url" or "sitemap"
        self.is_index = root_name == "sitemapindex"

    @cached_property
    def robots(self) -> RobotsPolicy | None:
        """The robots.txt policy for the file's URLs, when the run knows robots.txt files."""
        if not self.options.robots:
            return None
        from sitemap_lint.robots import RobotsPolicy

        return RobotsPolicy(self.options.robots, self.options.agent)


_UNSET: object = object()


class EntryContext:
    """One entry (``url`` or ``sitemap``) and its fields, as the checks see it."""

    __slots__ = ("_moment", "_url", "entry", "fields", "kind", "now")

    def __init__(self, entry: Node, fields: Mapping[str, Node], kind: str, now: datetime) -> None:
        self.entry = entry
        self.fields = fields
        self.kind = kind
        self.now = now
        self._url: object = _UNSET
        self._moment: object = _UNSET

    @property
    def loc(self) -> str | None:
        """The page (or sitemap) URL, stripped, when the entry has a ``loc``."""
        node = self.fields.get("loc")
        return node.text.strip() if node is not None else None

    @property
    def url(self) -> ParsedURL | None:
        """The parts of the ``loc`` URL, when it is a usable absolute http(s) URL."""
        if self._url is _UNSET:
            node = self.fields.get("loc")
            if node is None:
                self._url = None
            else:
                from sitemap_lint.rules.urls import parse_url

                self._url = parse_url(node.text)
        return self._url  # type: ignore[return-value]

    @url.setter
    def url(self, value: ParsedURL | None) -> None:
        self._url = value

    @property
    def moment(self) -> datetime | None:
        """The ``lastmod`` moment, when it is a readable date."""
        if self._moment is _UNSET:
            node = self.fields.get("lastmod")
            if node is None:
                self._moment = None
            else:
                from sitemap_lint.rules.dates import parse_date

                parsed = parse_date(node.text)
                self._moment = parsed.moment if parsed is not None else None
        return self._moment  # type: ignore[return-value]

    @moment.setter
    def moment(self, value: datetime | None) -> None:
        self._moment = value
