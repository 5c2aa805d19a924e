"""What a check is given: the file it runs in, and the entry whose fields it sees.

``FileContext`` is made once per file and handed to the checks that keep state
across entries (their class is made with it). ``EntryContext`` is made once per
entry. Values that several checks need (the parts of the ``loc`` URL, the
moment of the ``lastmod``) are filled by the check that parses them and reports
on them (``provides``), or, when that check does not run, computed from the
field by the fallback it registered, without reporting.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

from sitemap_lint.model import EntryPointer, Node

if TYPE_CHECKING:
    from sitemap_lint.domain.urls import ParsedURL
    from sitemap_lint.rules.events import Replacements
    from sitemap_lint.rules.structure import Reporter

# Value name -> (the field it is read from, how to read it without reporting).
Providers = Mapping[str, tuple[str, Callable[[Node], Any]]]


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


class RobotsView(Protocol):
    """What the checks ask of the run's robots.txt files (``robots.RobotsPolicy``)."""

    def check(self, url: str, parsed: ParsedURL, node: Node, report: Reporter) -> None: ...

    def cross_origins(self, sitemap_url: ParsedURL) -> frozenset[str]: ...


class FileContext:
    """One sitemap file: the run's options and what its root says. ``make_robots`` builds
    the robots.txt policy for the file's URLs on first use (None: the run knows none).
    ``replacements``: where the file's decoder put U+FFFD in place of bytes it could not
    decode, filled as the file is decoded (None: not known here). ``pointer`` names an
    entry (or its loc) by its index, ``element_path`` an element of an entry the checks
    were handed, as the findings made while the entry is read name them: for a check
    that reports once the entries are gone (None: the file has no elements, or no
    checker that names them). ``prefixes``: namespace -> the prefix the document
    declares for it ('' for the default namespace), as the reader reads them, so that
    messages name elements as the file writes them (``model.written_name``)."""

    def __init__(
        self,
        options: RunOptions,
        root_name: str,
        entry_name: str,
        make_robots: Callable[[], RobotsView | None] | None = None,
        replacements: Replacements | None = None,
        pointer: EntryPointer | None = None,
        element_path: Callable[[Node, Node], str | None] | None = None,
        prefixes: Mapping[str, str] | None = None,
    ) -> None:
        self.options = options
        self.root_name = root_name
        self.entry_name = entry_name  # "url" or "sitemap"
        self.is_index = root_name == "sitemapindex"
        self.replacements = replacements
        self.pointer = pointer
        self.element_path = element_path
        self.prefixes: Mapping[str, str] = {} if prefixes is None else prefixes
        self._make_robots = make_robots

    @cached_property
    def robots(self) -> RobotsView | None:
        """The robots.txt policy for the file's URLs, when the run knows robots.txt files."""
        if not self.options.robots or self._make_robots is None:
            return None
        return self._make_robots()


class EntryContext:
    """One entry (``url`` or ``sitemap``) and its fields, as the checks see it, with the
    file's ``replacements`` (``FileContext.replacements``) for the URL rules and its
    ``prefixes`` (``FileContext.prefixes``) for the messages."""

    __slots__ = (
        "_providers",
        "_values",
        "entry",
        "fields",
        "kind",
        "now",
        "prefixes",
        "replacements",
    )

    def __init__(
        self,
        entry: Node,
        fields: Mapping[str, Node],
        kind: str,
        now: datetime,
        providers: Providers | None = None,
        replacements: Replacements | None = None,
        prefixes: Mapping[str, str] | None = None,
    ) -> None:
        self.entry = entry
        self.fields = fields
        self.kind = kind
        self.now = now
        self.replacements = replacements
        self.prefixes: Mapping[str, str] = {} if prefixes is None else prefixes
        self._providers = providers or {}
        self._values: dict[str, Any] = {}

    def value(self, name: str) -> Any:
        """The entry value ``name``: as its check filled it, or read by its fallback."""
        values = self._values
        if name in values:
            return values[name]
        value = None
        provider = self._providers.get(name)
        if provider is not None:
            target, read = provider
            node = self.fields.get(target)
            if node is not None:
                value = read(node)
        values[name] = value
        return value

    def provide(self, name: str, value: Any) -> None:
        self._values[name] = value

    @property
    def loc(self) -> str | None:
        """The page (or sitemap) URL, stripped, when the entry has a ``loc``."""
        node = self.fields.get("loc")
        return node.text.strip() if node is not None else None

    @property
    def url(self) -> ParsedURL | None:
        """The parts of the ``loc`` URL, when it is a usable absolute http(s) URL."""
        values = self._values
        return values["url"] if "url" in values else self.value("url")  # type: ignore[no-any-return]

    @url.setter
    def url(self, value: ParsedURL | None) -> None:
        self._values["url"] = value

    @property
    def moment(self) -> datetime | None:
        """The ``lastmod`` moment, when it is a readable date."""
        values = self._values
        if "moment" in values:
            return values["moment"]  # type: ignore[no-any-return]
        return self.value("moment")  # type: ignore[no-any-return]

    @moment.setter
    def moment(self, value: datetime | None) -> None:
        self._values["moment"] = value
