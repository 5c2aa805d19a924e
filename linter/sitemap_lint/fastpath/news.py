"""The fast path's proof of ``news:news`` elements.

An entry's ``news:news`` element is proved (``NewsProof.find``) when it is the
entry's only one (images and alternates beside it are proved as without it:
``FastPath._with_news``) and is written in this shape, with the prefix the
root's start tag binds to the news namespace (anything else: the full checker takes
the entry):

- ``news:news`` holding ``news:publication`` (``news:name`` then ``news:language``),
  ``news:publication_date`` and ``news:title``, in that order (the schema's sequence;
  NW012), each once, without attributes, with only white space (space, tab, CR LF,
  LF) between them: no comment, instruction, CDATA section or text (ST009); none of
  the legacy fields (``access``, ``genres``, ``keywords``, ``stock_tickers``: NW011
  reports each);
- its values hold no ``<``, ``>`` or control character (references are read as expat
  reads them, ``_decoded``: one that stands for anything but printable ASCII leaves
  the entry unproved); the name and the title may hold characters outside ASCII
  (from U+00A0, not U+FFFD, U+FFFE or U+FFFF), the language is 2-5 letters and
  hyphens, and the date the lastmod's clean form (``xsd:date`` or ``xsd:dateTime``);
- the news rules report nothing on it as an entry of its own: ``news.Checker.check``
  itself judges it (the fields present and not empty, the language's form and code,
  the date's form, moment and age at the run's moment, the title's length and what it
  repeats of the name and the date, a name's parenthetical), on nodes holding the
  values, with a checker made for it alone.

What the news rules keep across entries (the count of ``news:news`` against Google's
1,000, the file's first publication name that each other one is compared with) is
handed to the file's news checker when expat reaches the run
(``news.Checker.enter_proved``), in document order, with the places of the
``news:news`` and ``news:name`` start tags: a name that differs from the first one,
and the 1,001st ``news:news``, are reported and pointed at as the full checker would.
An entry with such a ``news:news`` is taken by the windows of ``fastpath.bulk`` too,
and entered with the entries around it.
The schema takes such an element: strings, the language's pattern, a date or dateTime.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sitemap_lint.fastpath.video import _DATE, _SPACE
from sitemap_lint.model import Node

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["NewsProof", "block_pattern"]

# A name or title: printable ASCII but "<", ">" and "&", "&" only in a predefined or a
# character reference (read by ``_decoded``), and characters from U+00A0 on but
# surrogates, U+FFFD (a decoding error's mark), U+FFFE and U+FFFF.
# (Written as the characters left out: such a class compiles ten times faster.)
_CHARACTER = "[^\x00-\x1f\x7f-\x9f&<>\ud800-\udfff\ufffd-\uffff]"
_TEXT = rf"{_CHARACTER}*+(?:&(?:amp|lt|gt|quot|apos|#[0-9]{{1,7}}|#x[0-9A-Fa-f]{{1,6}});{_CHARACTER}*+)*+"
_LANGUAGE = "[a-z-]{2,5}"
_CACHED = 65_536


def block_pattern(prefix: str, groups: bool = False) -> str:
    """A ``news:news`` element of the proved shape. With ``groups``: the groups news,
    name, language, date and title (``news`` and ``name`` empty, where the start tags
    of ``news:news`` and ``news:name`` stand)."""
    n = re.escape(prefix)

    def group(name: str, value: str = "") -> str:
        return f"(?P<{name}>{value})" if groups else value

    return (
        rf"{group('news')}<{n}:news>{_SPACE}<{n}:publication>{_SPACE}"
        rf"{group('name')}<{n}:name>{group('name_value', _TEXT)}</{n}:name>{_SPACE}"
        rf"<{n}:language>{group('language', _LANGUAGE)}</{n}:language>{_SPACE}"
        rf"</{n}:publication>{_SPACE}"
        rf"<{n}:publication_date>{group('date', _DATE)}</{n}:publication_date>{_SPACE}"
        rf"<{n}:title>{group('title', _TEXT)}</{n}:title>{_SPACE}</{n}:news>"
    )


class NewsProof:
    """Proves the news elements of the entries of one file (see the module's text).

    ``decoded`` reads references as expat does, ``clean_date`` is the lastmod's clean
    form and ``now`` the run's moment."""

    def __init__(
        self, prefix: str, decoded: Any, clean_date: re.Pattern[str], now: datetime
    ) -> None:
        from sitemap_lint.fastpath.collect import Collect
        from sitemap_lint.rules.entry import EntryContext
        from sitemap_lint.rules.news import NAMESPACE, Checker

        self.tag = f"<{prefix}:news>"
        self._one = re.compile(block_pattern(prefix, groups=True))
        self._decoded = decoded
        self._clean_date = clean_date
        self._now = now
        self._context = EntryContext(Node("", "url", {}, 1, 1), {}, "url", now)
        self._checker, self._collect = Checker, Collect
        # The news:news that ``_clean`` hands the checker, its values set each time
        # (the check keeps no node).
        self._news = Node(NAMESPACE, "news", {}, 1, 1)
        publication = Node(NAMESPACE, "publication", {}, 1, 1)
        self._news.children.append(publication)
        self._fields = []
        for parent, field in (
            (publication, "name"),
            (publication, "language"),
            (self._news, "publication_date"),
            (self._news, "title"),
        ):
            node = Node(NAMESPACE, field, {}, 1, 1)
            parent.children.append(node)
            self._fields.append(node)
        self._dates: dict[str, bool] = {}
        # The last entry proved: its publication's name (as the news rules compare it),
        # where the news:news and the news:name start tags stand in its extension text.
        self.name = ""
        self.news_at = self.name_at = 0

    def find(self, ext: str) -> tuple[int, int] | None:
        """Where the news:news of an entry's extension elements, ``ext``, stands, when
        it is the only one there and is proved; else None. ``name``, ``news_at`` and
        ``name_at`` then describe it."""
        if ext.count(self.tag) != 1:
            return None
        one = self._one.search(ext)
        if one is None:
            return None
        name, language, date, title = one.group("name_value", "language", "date", "title")
        decoded = self._decoded
        if "&" in name:
            name = decoded(name)
        if "&" in title:
            title = decoded(title)
        if "\0" in name or "\0" in title or not self._date(date):
            return None
        if not self._clean(name, language, decoded(date), title):
            return None
        self.name = name.strip()
        self.news_at, self.name_at = one.start("news"), one.start("name")
        return one.start(), one.end()

    def _date(self, value: str) -> bool:
        """Whether a publication date is written in the lastmod's clean form."""
        proved = self._dates.get(value)
        if proved is None:
            decoded = self._decoded(value)
            proved = "\0" not in decoded and self._clean_date.match(decoded) is not None
            if len(self._dates) > _CACHED:
                self._dates.clear()
            self._dates[value] = proved
        return proved

    def _clean(self, name: str, language: str, date: str, title: str) -> bool:
        """Whether the news rules report nothing on a news:news holding these values, an
        entry's only one, judged by a checker of its own (``news.Checker.check``)."""
        name_node, language_node, date_node, title_node = self._fields
        name_node.text, language_node.text, date_node.text, title_node.text = (
            name,
            language,
            date,
            title,
        )
        report = self._collect()
        self._checker(None).check(self._news, self._context, report)
        return not report.found
