"""Plain entries proved a window at a time, at C speed.

``FastPath._prove`` proves entries one at a time: a match, then a few dozen lines of
Python an entry. Where a run goes on in entries of one layout (the same white space
around the same tags, as generators write them) and of the plainest values, this
module takes the next window of them at once: the entry pattern's ``findall`` reads
them all, and each proof is a test over all of their values (a join, a set, a
``map``), with the values the caches of ``FastPath`` judge looked up once each. Their
places follow from the layout: each loc's line from the lines of the entries before it
(a progression where they repeat), or the offsets of one line. Values with references
are read as the loop reads them, all of a window's at once. In a file of long URLs
(``fastpath._LONG_LOC``) the locs' characters are checked as the loop checks them, and
their queries cut off their paths. Comments and instructions before each entry's tag
may differ from entry to entry (the lines they take are counted). An entry with
extension elements is taken when the fast path proves them (``FastPath._window_extras``:
images, hreflang alternates, videos, a news:news), with their facts; a news:news with
the places of its news:news and news:name start tags, images' deprecated children
(caption, title) with theirs and their image's (placed from the loc's; not where each
entry has a gap of its own). In a file with extension namespaces, once a window stops
at an entry with extension elements before any was taken, the windows' pattern is one
without them (its ``findall`` stops at such an entry). A lastmod the date rules
report, and a changefreq or priority its check reports, are taken as the loop takes
them, with the findings of their checks (reported in place when the run is entered),
their start tags placed from the loc's: not in an entry with a comment or instruction
in it or in its gap. A loc outside ASCII that the URL rules report once (UR011) is
taken with its parts, where no reference was read in the window and the URLs are
short. Anything else, and the window is left to the loop, entry by entry: another loc
outside ASCII, a loc with ``#``, with an ``&`` that starts no reference or with an
escape that is not in normal form, a value in CDATA, extension elements not proved, a
comment or instruction between an entry's tag and its loc, a layout that changes. The entries made are those the loop makes of the same text
(``tests/test_fastpath_bulk.py`` holds them equal).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import lru_cache, partial
from itertools import accumulate, compress, repeat
from itertools import count as count_from
from operator import add, and_, is_, itemgetter, lshift, not_, rshift, sub
from typing import Any, cast

from sitemap_lint.fastpath.places import text_place
from sitemap_lint.support.records import NamedTuple

# The least entries a window takes (fewer: the loop is as quick), and the text a window
# reads: it grows while its entries are all taken, and shrinks to what was taken and a
# quarter more when they are not (its entries are held as strings until they are entered).
MIN_ENTRIES = 8
MIN_WINDOW = 1 << 12
MAX_WINDOW = 1 << 17

_FIRST = itemgetter(0)
_MISSING = object()
# An "&" that does not start "&amp;" (a search for it costs less than counting both).
_NOT_AMP = re.compile("&(?!amp;)")
# The start of a comment, CDATA section or instruction (one search: half the cost of
# two substring searches, "<" standing everywhere in the text).
_MARKUP = re.compile("<[!?]")


# A "." or ".." segment (``fastpath._DOT_SEGMENT``), in locs joined by line breaks.
_DOT_SEGMENT = re.compile(r"/\.\.?(?=[/?#\n]|\Z)")


def _canonical(urls: tuple[str, ...], paths: tuple[str, ...], count: int) -> int:
    """How many of the first ``count`` locs in a row (their path groups ``paths``: the
    path, or in a file of long URLs the rest after the host) have a path after the host
    and no "." or ".." segment (UR018, as ``fastpath._canonical`` proves them). (One
    test over each path's start and one search of the joined locs: a substring search
    for "/." or a count of "\n/" is slow where every other character is a "/".)"""
    if count < len(paths):
        paths, urls = paths[:count], urls[:count]
    if not all(map(str.startswith, paths, repeat("/"))):
        count = next(number for number, path in enumerate(paths) if not path.startswith("/"))
        urls = urls[:count]
    if _DOT_SEGMENT.search("\n".join(urls)) is not None:
        for number, url in enumerate(urls):
            if "/." in url and _DOT_SEGMENT.search(url) is not None:
                return number
    return min(count, len(urls))


class Window(NamedTuple):
    """What a window of entries proved: its entries (``fastpath._Entry``), where the last
    one ends, and the parser line and the offset of the start of that line there."""

    entries: list[tuple[Any, ...]]
    end: int
    line: int
    line_begin: int
    # The entries whose values their checks report (``FastPath.report_value``), by
    # their number in ``entries``: each such field, the line and column of its start
    # tag, its value as written (``ProvenRun.values``); None: no such entry.
    values: dict[int, list[tuple[str, int, int, str]]] | None = None
    # The entries whose loc holds characters outside ASCII (one UR011 each), by their
    # number in ``entries``: the loc's parts (``FastPath._iri``, ``ProvenRun.iris``).
    iris: dict[int, re.Match[str]] | None = None
    # The entries with a proved news:news (``FastPath._window_extras``), by their
    # number in ``entries``: its publication's name and the places of its news:news and
    # news:name start tags (``ProvenRun.news``).
    news: dict[int, tuple[str, int, int]] | None = None
    # The entries with images' deprecated children (``FastPath._window_extras``), by
    # their number in ``entries``: each image's number, the place of its start tag and
    # its children's names and places (``ProvenRun.deprecated``).
    deprecated: dict[int, list[tuple[int, int, tuple[tuple[str, int], ...]]]] | None = None


class Bulk:
    """Proves windows of plain entries of one file (``take``), with the verdicts of
    ``FastPath``'s caches: ``host``, ``lastmod`` and ``priority`` judge a value they do
    not hold yet.

    One class, longer than most: each step of a window (the match, the references read,
    the verdicts on each column of values, the places) is a method over the same
    columns, and reads the same state of the file, kept here once: ``FastPath``'s caches
    and judges, the patterns, the layout's offsets and the window's size."""

    def __init__(
        self,
        line_pattern: re.Pattern[str],
        opener: str,
        closer: str,
        loc_opener: str,
        hosts: set[str],
        host: Callable[[str], bool],
        lastmods: dict[str, Any],
        lastmod: Callable[[str], Any],
        priorities: dict[str, Any],
        priority: Callable[[str], Any],
        changefreqs: dict[str, Any],
        changefreq: Callable[[str], Any],
        escapes: Callable[[str], Any],
        decoded_loc: Callable[[str, str, str, str], tuple[str, str, str, str | None] | None],
        reference_name: str,
        character: Callable[[str], tuple[str, bool] | None],
        not_proved: object,
        max_loc: int,
        offsets: tuple[int, int],
        url_bytes: bytes | None = None,
        gap: Callable[[str], re.Match[str] | None] | None = None,
        plain: Callable[[], re.Pattern[str]] | None = None,
        dated: tuple[dict[str, Any], Callable[[str], Any]] | None = None,
        reported: object = None,
        iri: Callable[[str], re.Match[str] | None] | None = None,
        extras: Callable[[str, str], tuple[Any, Any, Any] | None] | None = None,
    ) -> None:
        # An entry, or else the rest of the window (which ends the matches: the entries
        # taken are those that follow one another from the window's start).
        self._findall = line_pattern.findall
        # What compiles the entry pattern without extension elements (in a file whose
        # root declares their namespaces), until a window stops at such an entry.
        self._plain = plain
        # Whether the windows' pattern is that one now (it stops at such an entry).
        self.plain_only = False
        self._opener = opener
        self._closer = closer
        self._loc_opener = loc_opener
        self._hosts = hosts
        self._host = host
        self._lastmods = lastmods
        self._lastmod = lastmod
        self._priorities = priorities
        self._priority = priority
        self._changefreqs = changefreqs
        self._changefreq = changefreq
        self._escapes = escapes
        self._decoded_loc = decoded_loc
        self._references = references_in(reference_name)
        self._character = character
        self._not_proved = not_proved
        self._max_loc = max_loc
        # In a file of long URLs (``fastpath._LONG_LOC``): the characters a loc may hold,
        # and its path group holds its query, cut off as the loop cuts it.
        self._url_bytes = url_bytes
        # The gap before an entry's start tag, as the entry pattern reads it (it always
        # matches, possibly empty).
        self._gap = cast(Callable[[str], re.Match[str]], gap or re.compile("").match)
        self._line_offset, self._column_offset = offsets
        # The lastmods the date rules report, proved with their findings, and their
        # judge (``FastPath._dated_moment``; None: no lastmod is proved so), and the
        # verdict on a changefreq or priority proved with its check's findings.
        self._dated = dated
        self._reported = reported
        # The parts of a loc outside ASCII that the URL rules report once (UR011) and
        # nothing else on, else None (``FastPath._iri``; None: no such loc is taken).
        self._iri = iri
        # What gives the facts of an entry's extension elements, of its news:news and of
        # its images' deprecated children (``FastPath._window_extras``), given them and
        # the entry's loc, when they are proved; else None (None: such an entry ends a
        # window).
        self._extras = extras
        # Whether a window took an entry with extension elements (the windows' pattern
        # then keeps them).
        self.took_extensions = False
        # The start tags of the fields whose values may be reported, with the prefix.
        prefix = loc_opener[: -len("loc>")]
        self._field_tags = {
            field: f"{prefix}{field}>" for field in ("lastmod", "changefreq", "priority")
        }
        self._window = MIN_WINDOW
        # Whether the last window stopped at an entry it does not take (else it took
        # what its text held, up to an entry cut by its end).
        self.refused = False

    def take(
        self, text: str, start: int, loc_line: int, value_end: int, line_begin: int, most: int
    ) -> Window | None:
        """The entries from ``start`` on (where an entry ends) that follow one another
        in one window and are proved, when there are at least MIN_ENTRIES of them, at
        most ``most``. ``loc_line`` is the parser line of the previous entry's loc,
        ``value_end`` the end of its value, ``line_begin`` the offset in ``text`` where
        that line starts (negative on the text's first line when it starts in an earlier
        block)."""
        window_end = min(start + self._window, len(text))
        found = self._findall(text, start, window_end)
        # The rest of the window, past the entries it matched: a part of an entry, or
        # an entry the entry pattern does not match.
        cut = bool(found) and not found[-1][0]
        if cut:
            found.pop()
        self.refused = cut and self._holds_entry(text, start, found, window_end)
        if len(found) > most:
            del found[max(most, 0) :]  # (none past the limit: a negative slice keeps most)
        if len(found) < MIN_ENTRIES:
            if cut and not self.refused:  # (perhaps too small a window for them)
                # (Entries too long for the largest window: as if it stopped at one.)
                self.refused = self._window == MAX_WINDOW
                self._window = min(self._window * 2, MAX_WINDOW)
            return None
        columns = list(zip(*found, strict=True))
        referred = self._read_references(columns)
        iris: dict[int, re.Match[str]] = {}
        extended: dict[int, Any] = {}
        placing: dict[int, tuple[Any, Any]] = {}  # (news, deprecated children) by entry
        count, moments, reported = self._proved(
            columns, len(found), referred, iris, extended, placing
        )
        if reported and _MARKUP.search(text, start, window_end) is not None:
            count = self._placeable(columns[0], reported, count)
        if placing and min(placing) < count:
            before = columns[0][0].partition(self._loc_opener)[0]
            if "<!" in before or "<?" in before:  # (each entry's loc after a gap of its own)
                count = min(placing)
        places = None
        if count >= MIN_ENTRIES:
            alls = columns[0]
            places = self._places(
                text,
                start,
                alls[:count] if count < len(alls) else alls,
                loc_line,
                value_end,
                line_begin,
            )
        if places is None:
            self.refused = True
            self._shrink(found[: min(count, MIN_ENTRIES)])
            return None
        entry_places, loc_places, end, line, begin, placed = places
        if placed < len(found):
            self.refused = True
            self._shrink(found[:placed])
        elif cut:
            self._window = min(self._window * 2, MAX_WINDOW)
        paths = columns[6][:placed]
        if self._url_bytes is not None:
            paths = tuple([path.partition("?")[0] for path in paths])
        values = None
        if reported:
            values = self._reported_places(columns, reported, placed, loc_places)
        if iris and max(iris) >= placed:
            iris = {number: parts for number, parts in iris.items() if number < placed}
        extras: Any = repeat(None, placed)
        if extended and min(extended) < placed:
            self.took_extensions = True
            extras = [None] * placed
            for number, extra in extended.items():
                if number < placed:
                    extras[number] = extra
        news = deprecated = None
        if placing and min(placing) < placed:
            news, deprecated = self._extension_places(columns, placing, placed, loc_places)
        return Window(
            list(
                zip(
                    *(column[:placed] for column in columns[3:6]),  # loc, scheme, host
                    paths,
                    moments[:placed],
                    loc_places,
                    entry_places,
                    extras,
                    repeat(None, placed),
                    strict=True,
                )
            ),
            end,
            line,
            begin,
            values,
            iris or None,
            news,
            deprecated,
        )

    def _extension_places(
        self,
        columns: list[tuple[str, ...]],
        placing: dict[int, tuple[Any, Any]],
        placed: int,
        loc_places: Any,
    ) -> tuple[Any, Any]:
        """The news and images' deprecated children of the first ``placed`` entries
        (``placing``: their offsets in the entry's extension text), with the places of
        their start tags (line << 32 | column) for the offsets, as the loop places them:
        from the entry's loc tag, at the same offset in each entry's text. (None where
        there is none.)"""
        alls, extensions = columns[0], columns[10]
        loc_at = len(alls[0].partition(self._loc_opener)[0])
        news: dict[int, tuple[str, int, int]] = {}
        deprecated: dict[int, list[tuple[int, int, tuple[tuple[str, int], ...]]]] = {}
        for number, (facts, images) in placing.items():
            if number >= placed:
                break
            entry = alls[number]
            # (The extension text ends the entry but for white space and its end tag.)
            place = partial(
                _place, entry, loc_at, int(loc_places[number]), entry.rfind(extensions[number])
            )
            if facts is not None:
                name, news_at, name_at = facts
                news[number] = (name, place(news_at), place(name_at))
            if images is not None:
                deprecated[number] = [
                    (image, place(image_at), tuple((child, place(at)) for child, at in spans))
                    for image, image_at, spans in images
                ]
        return news or None, deprecated or None

    def _reported_places(
        self,
        columns: list[tuple[str, ...]],
        reported: dict[str, list[int]],
        placed: int,
        loc_places: Any,
    ) -> dict[int, list[tuple[str, int, int, str]]] | None:
        """Where the reported fields of the first ``placed`` entries stand (``reported``:
        the numbers of the entries by field), as the loop places them: from the entry's
        loc tag, at the same offset in each entry's text (no comment or instruction in
        it), and its place (line << 32 | column)."""
        alls = columns[0]
        loc_at = len(alls[0].partition(self._loc_opener)[0])
        by_entry: dict[int, list[tuple[str, int, int, str]]] = {}
        field_values = {"lastmod": columns[7], "changefreq": columns[8], "priority": columns[9]}
        for field, numbers in reported.items():
            numbers = numbers[: bisect_left(numbers, placed)]
            if not numbers:
                continue
            if numbers[-1] == len(numbers) - 1:  # every entry from the first
                texts, places = alls[: len(numbers)], loc_places[: len(numbers)]
                values = field_values[field][: len(numbers)]
            else:
                texts = tuple([alls[number] for number in numbers])
                places = [loc_places[number] for number in numbers]
                values = tuple(field_values[field][number] for number in numbers)
            tag = self._field_tags[field]
            found = list(map(str.find, texts, repeat(tag), repeat(loc_at)))
            breaks = list(map(str.count, texts, repeat("\n"), repeat(loc_at), found))
            lines = map(add, map(rshift, places, repeat(32)), breaks)
            if any(breaks):
                newlines = map(str.rfind, texts, repeat("\n"), repeat(loc_at), found)
                columns_at = list(map(sub, found, newlines))
                if 0 in breaks:  # (a field on its loc's line: from the loc's column)
                    for number, count in enumerate(breaks):
                        if not count:
                            columns_at[number] = (
                                (places[number] & 0xFFFFFFFF) + found[number] - loc_at
                            )
            else:
                columns_at = list(
                    map(add, map(and_, places, repeat(0xFFFFFFFF)), map(sub, found, repeat(loc_at)))
                )
            fields = zip(repeat(field), lines, columns_at, values)
            if not by_entry:  # (each entry's list of one: zip makes 1-tuples of them)
                by_entry = dict(zip(numbers, map(list, zip(fields)), strict=True))
                continue
            for number, place in zip(numbers, fields, strict=True):
                listed = by_entry.get(number)
                if listed is None:
                    by_entry[number] = [place]
                else:
                    listed.append(place)
            by_entry = {number: by_entry[number] for number in sorted(by_entry)}
        return by_entry or None

    def _holds_entry(self, text: str, start: int, found: list[tuple[str, ...]], end: int) -> bool:
        """Whether the rest of a window (from ``start`` to ``end``, past the entries
        ``found``) holds the end of an entry: one the entry pattern does not match."""
        rest = start + sum(map(len, map(_FIRST, found)))
        return text.find(self._closer, rest, end) >= 0

    def _shrink(self, taken: list[tuple[str, ...]]) -> None:
        """Fit the window to the entries ``taken``, and a quarter more."""
        used = sum(map(len, map(_FIRST, taken)))
        self._window = max(min(used + used // 4, MAX_WINDOW), MIN_WINDOW)

    def _proved(
        self,
        columns: list[tuple[str, ...]],
        count: int,
        referred: bool,
        iris: dict[int, re.Match[str]],
        extended: dict[int, Any],
        placing: dict[int, tuple[Any, Any]],
    ) -> tuple[int, list[Any], dict[str, list[int]]]:
        """How many entries (their groups by ``columns``; ``referred``: the locs' ``&amp;``
        read) from the first on are proved by their values, the moments of the lastmods
        among them, and the numbers of the entries whose field's value is proved with
        the findings of its check, by field; the parts of their locs outside ASCII go
        to ``iris``, the facts of their extension elements to ``extended``, those of
        their news:news and images' deprecated children to ``placing``."""
        (
            _all,
            _s,
            cdatas,
            urls,
            _schemes,
            hosts,
            _paths,
            lastmods,
            changefreqs,
            priorities,
            extensions,
            _t,
        ) = columns
        if any(cdatas):  # (empty where not written)
            count = list(map(bool, cdatas)).index(True)
        # (The extension elements are proved, as the loop proves them, in entries whose
        # locs are.)
        count = self._plain_urls(urls, count, referred, iris)
        count = _canonical(urls, _paths, count)
        count = self._known_hosts(hosts, count)
        if any(extensions):
            refused = self._extended(extensions, urls, count, extended, placing)
            if (
                refused >= MIN_ENTRIES
                and self._plain is not None
                and refused < count
                and not self.took_extensions
            ):
                # Plain entries up to one with extension elements, none taken yet: from
                # now on the windows' pattern stops at such an entry (its matching, not
                # the window's end).
                self._findall = self._plain().findall
                self._plain = None
                self.plain_only = True
            count = min(count, refused)
        moments = self._verdicts(lastmods[:count], self._lastmods, self._lastmod)
        reported: dict[str, list[int]] = {}
        if moments is None:
            moments = [None] * count
        elif self._not_proved in moments:
            del moments[self._dated_lastmods(lastmods, moments, reported) :]
        count = len(moments)
        # (A changefreq the entry pattern names as written is not in its group.)
        for field, values, cache, judge in (
            ("changefreq", changefreqs, self._changefreqs, self._changefreq),
            ("priority", priorities, self._priorities, self._priority),
        ):
            verdicts = self._verdicts(values[:count], cache, judge)
            if verdicts is None:
                continue
            count = len(verdicts)
            # (True: proved; _REPORTED: proved with the findings of its check; False is
            # left to the loop.)
            others = set(verdicts) - {True, None}
            if self._reported in others:
                others.discard(self._reported)
                reported[field] = list(
                    compress(count_from(), map(is_, verdicts, repeat(self._reported)))
                )
            if others:
                count = min(map(verdicts.index, others))
        return count, moments, reported

    def _extended(
        self,
        extensions: tuple[str, ...],
        urls: tuple[str, ...],
        count: int,
        extended: dict[int, Any],
        placing: dict[int, tuple[Any, Any]],
    ) -> int:
        """The number of the first of the first ``count`` entries whose extension
        elements (``extensions``: their text, empty where none; ``urls``: the entries'
        locs) ``_extras`` does not prove, else ``count``; the facts of those it proves
        go to ``extended``, and those of their news:news and images' deprecated
        children, to be placed, to ``placing`` by the entry's number."""
        numbers = compress(count_from(), map(bool, extensions[:count]))
        prove = self._extras
        for number in numbers:
            found = None if prove is None else prove(extensions[number], urls[number])
            if found is None:
                return number
            extended[number], news, deprecated = found
            if news is not None or deprecated is not None:
                placing[number] = (news, deprecated)
        return count

    def _dated_lastmods(
        self, lastmods: tuple[str, ...], moments: list[Any], reported: dict[str, list[int]]
    ) -> int:
        """How many lastmods in a row have a moment (``moments``, _NOT_PROVED from the
        first that the date rules report on), the reported ones proved with their
        findings (``FastPath._dated_moment``): their moments set, their entries'
        numbers in ``reported``."""
        not_proved = self._not_proved
        first = moments.index(not_proved)
        if self._dated is None:
            return first
        cache, judge = self._dated
        numbers = list(compress(count_from(first), map(is_, moments[first:], repeat(not_proved))))
        dated = list(map(cache.get, [lastmods[number] for number in numbers], repeat(_MISSING)))
        if _MISSING in dated:
            for at, moment in enumerate(dated):
                if moment is _MISSING:
                    dated[at] = judge(lastmods[numbers[at]])
        end = len(moments)
        if not_proved in dated:
            at = dated.index(not_proved)
            end = numbers[at]
            del numbers[at:], dated[at:]
        for number, moment in zip(numbers, dated, strict=True):
            moments[number] = moment
        if numbers:
            reported["lastmod"] = numbers
        return end

    def _placeable(self, alls: tuple[str, ...], reported: dict[str, list[int]], count: int) -> int:
        """How many of the first ``count`` entries in a row ``_reported_places`` can
        place, in a window with a comment or instruction: the reported fields of an
        entry with one in it, or after one before it, are left to the loop."""
        texts = alls[:count]
        numbers = sorted({n for listed in reported.values() for n in listed if n < count})
        if not numbers:
            return count
        if "<!" in texts[0] or "<?" in texts[0]:
            return numbers[0]
        for number in numbers:
            if "<!" in texts[number] or "<?" in texts[number]:
                return number
        return count

    def _plain_urls(
        self, urls: tuple[str, ...], count: int, referred: bool, iris: dict[int, re.Match[str]]
    ) -> int:
        """How many of the first ``count`` locs in a row are without "#", 12 to
        ``max_loc`` characters long, without "&" but one read from ``&amp;``
        (``referred``) in a loc without ";" (where an escape written as text, UR017,
        could stand), only of ``url_bytes`` where it is given, and with percent-escapes
        only where ``escapes`` proves them in their normal form; ASCII, or else (no
        reference read in the window, no ``url_bytes``) with the parts ``iri`` gives,
        put in ``iris`` by the loc's number."""
        if count < len(urls):
            urls = urls[:count]
        joined = "\n".join(urls)
        allowed = self._url_bytes
        plain = (
            ("&" not in joined or (referred and ";" not in joined))
            and "#" not in joined
            and len(min(urls, key=len, default="x" * 12)) >= 12
            and len(max(urls, key=len, default="")) <= self._max_loc
        )
        if (
            plain
            and not joined.isascii()
            and not referred
            and allowed is None
            and self._iri is not None
        ):
            # Only locs outside ASCII: each taken with its parts, up to one without.
            outside = list(compress(count_from(), map(not_, map(str.isascii, urls))))
            parts = list(map(self._iri, [urls[number] for number in outside]))
            if None in parts:
                first = parts.index(None)
                count = outside[first]
                del outside[first:], parts[first:]
            iris.update(zip(outside, cast(list[re.Match[str]], parts), strict=True))
        elif not (
            plain
            and joined.isascii()
            and (allowed is None or not "".join(urls).encode().translate(None, allowed))
        ):
            iri = self._iri if not referred and allowed is None else None
            for number, url in enumerate(urls):
                if (
                    ("&" in url and (not referred or ";" in url))
                    or "#" in url
                    or not 12 <= len(url) <= self._max_loc
                    or (allowed is not None and url.encode().translate(None, allowed))
                ):
                    count = number
                    break
                if not url.isascii():
                    found = None if iri is None else iri(url)
                    if found is None:
                        count = number
                        break
                    iris[number] = found
        if "%" in joined:
            escapes = self._escapes
            verdicts = [escapes(url) is True if "%" in url else True for url in urls[:count]]
            if False in verdicts:
                count = verdicts.index(False)
        return count

    def _known_hosts(self, hosts: tuple[str, ...], count: int) -> int:
        """How many of the first ``count`` hosts in a row the URL rules report nothing on
        (a host with upper-case letters is not kept: the loop takes its entry)."""
        known = self._hosts
        if count < len(hosts):
            hosts = hosts[:count]
        if known.issuperset(hosts):
            return count
        for host in set(hosts) - known:
            self._host(host)
        if known.issuperset(hosts):
            return count
        return list(map(known.__contains__, hosts)).index(False)

    def _verdicts(
        self, values: tuple[str, ...], cache: dict[str, Any], judge: Callable[[str], Any]
    ) -> list[Any] | None:
        """The verdicts on the first ``values`` in a row that have one (in ``cache``,
        else ``judge``'s; None for a value not written): a value in CDATA, or one judged
        None, ends them (the loop reads it). None: no value is written."""
        if not any(values):
            return None
        verdicts = list(map(cache.get, values))
        if None not in verdicts:
            return verdicts
        for number, (value, verdict) in enumerate(zip(values, verdicts, strict=True)):
            if verdict is not None or not value:
                continue
            if value[0] != "<":  # (cached since the look-up when it repeats)
                verdict = cache.get(value)
                if verdict is None:
                    verdict = judge(value)
            if verdict is None:
                del verdicts[number:]
                break
            verdicts[number] = verdict
        return verdicts

    def _read_references(self, columns: list[tuple[str, ...]]) -> bool:
        """Whether the locs (their groups in ``columns``) hold "&": each is then read as
        expat reads it (its parts too), and a loc with an "&" that starts no reference,
        or whose references leave no plain URL, is left empty (the loop takes it)."""
        # Joined by "<", which no loc holds (each group ends before one) and no reference
        # read gives: a long URL's loc may hold a line break (white space before its end
        # tag).
        joined = "<".join(columns[3])
        if "&" not in joined:
            return False
        # (A long URL's path group is the rest of its loc: made from the loc as read.)
        numbers = (3,) if self._url_bytes is not None else (3, 6)  # the loc, its path
        if _NOT_AMP.search(joined) is None:  # each "&" starts "&amp;"
            for number in numbers:
                columns[number] = tuple(
                    map(str.replace, columns[number], repeat("&amp;"), repeat("&"))
                )
            self._long_paths(columns)
            return True
        read = reference_reader(self._references(joined), self._character, len(joined))
        if read is not None:
            for number in numbers:
                text = joined if number == 3 else "<".join(columns[number])
                columns[number] = tuple(read(text).split("<"))
            self._long_paths(columns)
            return True
        urls, schemes, hosts, paths = (list(columns[number]) for number in (3, 4, 5, 6))
        decoded_loc = self._decoded_loc
        for number, written in enumerate(columns[3]):
            if "&" in written:
                parts = decoded_loc(written, schemes[number], hosts[number], paths[number])
                # (None: a raw "&"; "": the references leave no plain URL)
                urls[number], schemes[number], hosts[number], path = parts or ("", "", "", None)
                paths[number] = path or ""
        columns[3:7] = (tuple(urls), tuple(schemes), tuple(hosts), tuple(paths))
        return True

    def _long_paths(self, columns: list[tuple[str, ...]]) -> None:
        """In a file of long URLs, the path groups (``columns[6]``) of the locs as read
        (``columns[3]``): the rest of each loc after its host."""
        if self._url_bytes is not None:
            columns[6] = tuple(
                url[len(scheme) + 3 + len(host) :]
                for url, scheme, host in zip(columns[3], columns[4], columns[5], strict=True)
            )

    def _places(
        self,
        text: str,
        start: int,
        alls: tuple[str, ...],
        loc_line: int,
        value_end: int,
        line_begin: int,
    ) -> tuple[Any, Any, int, int, int, int] | None:
        """Where the first entries of ``alls`` and their locs' start tags stand (file
        line << 32 | column), where the last of them ends, the parser line and the offset
        of its start there, and how many they are; None when they are fewer than
        MIN_ENTRIES of one layout: the same text up to the loc, each entry on lines of its
        own or all on one line."""
        before = alls[0].partition(self._loc_opener)[0]
        if "<!" in before or "<?" in before:
            # A comment or instruction before a loc (it may hold "<loc>"): in the gap
            # before each entry's start tag, each of its own.
            return self._after_gaps(text, start, alls, loc_line, value_end)
        starts = list(map(str.startswith, alls, repeat(before + self._loc_opener)))
        count = starts.index(False) if False in starts else len(alls)
        if count < MIN_ENTRIES:
            return None
        if count < len(alls):
            alls = alls[:count]
        opener_at = before.find(self._opener)
        head_break = before.rfind("\n", 0, opener_at)
        if head_break < 0:
            return self._on_one_line(text, start, alls, before, loc_line, value_end, line_begin)
        in_entry = before.count("\n", opener_at)  # lines from the entry's tag to its loc
        loc_column = len(before) - before.rfind("\n")
        # (An entry's lines: ``head``, then those after its loc.)
        head, entry_column = before.count("\n"), opener_at - head_break
        to_entry = entry_column - loc_column - (in_entry << 32)
        return self._on_lines(text, start, alls, loc_line, value_end, head, loc_column, to_entry)

    def _on_lines(
        self,
        text: str,
        start: int,
        alls: tuple[str, ...],
        loc_line: int,
        value_end: int,
        head: int,
        loc_column: int,
        to_entry: int,
        moved: list[int] | None = None,
    ) -> tuple[Any, Any, int, int, int, int]:
        """``_places`` for entries each on lines of its own: the first's loc ``head`` lines
        below the start of its text, at ``loc_column``, as every loc, each entry's tag
        ``to_entry`` from its loc (lines << 32 and columns); ``moved``: the lines each
        entry's gap takes more than the first's (None: as many)."""
        count = len(alls)
        breaks = text.count("\n", value_end, start)  # after the previous loc
        lines = list(map(str.count, alls, repeat("\n")))
        first_loc = ((loc_line + breaks + head + self._line_offset) << 32) | loc_column
        locs: Any
        entries: Any
        if moved is None and lines.count(head + breaks) == count:  # a progression
            step = (head + breaks) << 32
            locs = range(first_loc, first_loc + step * count, step)
            entries = range(first_loc + to_entry, first_loc + to_entry + step * count, step)
        else:  # each loc's line from the lines of the entries before it (and its gap's)
            locs = list(accumulate(map(lshift, lines[:-1], repeat(32)), initial=first_loc))
            if moved is not None:
                locs = list(map(add, locs, map(lshift, moved, repeat(32))))
            entries = list(map(add, locs, repeat(to_entry)))
        last_head = head + (moved[-1] if moved is not None else 0)
        last_line = (locs[-1] >> 32) - self._line_offset + lines[-1] - last_head
        end = start + sum(map(len, alls))
        return entries, locs, end, last_line, text.rfind("\n", start, end) + 1, count

    def _after_gaps(
        self, text: str, start: int, alls: tuple[str, ...], loc_line: int, value_end: int
    ) -> tuple[Any, Any, int, int, int, int] | None:
        """``_places`` for entries each after a gap of its own (white space, comments and
        instructions before its start tag, as the entry pattern reads them), on lines of
        its own, at one column, with the same text from the start tag to the loc."""
        gap_match = self._gap
        gaps = [gap_match(entry).end() for entry in alls]
        first = alls[0]
        opened = gaps[0]
        loc_at = first.find(self._loc_opener, opened)
        inner = first[opened:loc_at]  # from the entry's start tag to its loc's
        if "<!" in inner or "<?" in inner:
            return None
        same = list(map(str.startswith, alls, repeat(inner + self._loc_opener), gaps))
        gap_lines = list(map(str.count, alls, repeat("\n"), repeat(0), gaps))
        columns = list(map(sub, gaps, map(str.rfind, alls, repeat("\n"), repeat(0), gaps)))
        column = columns[0]
        count = same.index(False) if False in same else len(alls)
        if 0 in gap_lines:  # (an entry's tag on the line of the entry before it)
            count = min(count, gap_lines.index(0))
        if columns.count(column) != len(columns):
            count = min(count, [other == column for other in columns].index(False))
        if count < MIN_ENTRIES:
            return None
        if count < len(alls):
            alls, gap_lines = alls[:count], gap_lines[:count]
        in_entry = inner.count("\n")  # lines from the entry's tag to its loc
        loc_column = len(inner) - inner.rfind("\n") if in_entry else column + len(inner)
        to_entry = column - loc_column - (in_entry << 32)
        moved = None
        if gap_lines.count(gap_lines[0]) != count:
            moved = list(map(sub, gap_lines, repeat(gap_lines[0])))
        head = gap_lines[0] + in_entry
        return self._on_lines(
            text, start, alls, loc_line, value_end, head, loc_column, to_entry, moved
        )

    def _on_one_line(
        self,
        text: str,
        start: int,
        alls: tuple[str, ...],
        before: str,
        line: int,
        value_end: int,
        line_begin: int,
    ) -> tuple[Any, Any, int, int, int, int] | None:
        """``_places`` for entries on the previous loc's line."""
        ends = list(accumulate(map(len, alls), initial=start))
        line_break = text.find("\n", value_end, ends[-1])
        count = len(alls)
        if line_break >= 0:
            count = bisect_right(ends, line_break) - 1  # the entries before it
            if count < MIN_ENTRIES:
                return None
        starts = ends[:count]
        # A column is the offset's distance from the line's start, plus one (and the
        # decoder's column offset on the text's first line).
        column = 1 - line_begin + (self._column_offset if line == 1 else 0)
        base = ((line + self._line_offset) << 32) + column
        entries = list(map(add, starts, repeat(base + before.find(self._opener))))
        locs = list(map(add, starts, repeat(base + len(before))))
        return entries, locs, ends[count], line, line_begin, count


def _place(entry: str, loc_at: int, loc: int, ext_at: int, offset: int) -> int:
    """The place (line << 32 | column) of ``entry[ext_at + offset]``, its loc tag
    standing at ``entry[loc_at]`` at the place ``loc``."""
    line, column = text_place(entry, loc_at, loc >> 32, loc & 0xFFFFFFFF, ext_at + offset)
    return line << 32 | column


def references_in(reference_name: str) -> Callable[[str], list[str]]:
    """What finds the names of the references (``reference_name``: a name's pattern)
    in a text, each followed by ";", and "" for each "&" that starts none."""
    return re.compile(rf"&(?:({reference_name});)?").findall


def reference_reader(
    names: list[str], character: Callable[[str], tuple[str, bool] | None], length: int
) -> Callable[[str], str] | None:
    """What reads the references of the locs of a window (``names``: what
    ``references_in`` finds in them, ``length`` characters long) at once, each where it
    starts, as expat reads them, when each "&" starts one and each stands for a
    character of a path (``character``)."""
    distinct = set(names)
    if "" in distinct:
        return None  # a raw "&"
    if not distinct:
        return str  # (nothing to read)
    readings: dict[str, str] = {}
    for name in distinct:
        read = character(name)
        if read is None or not read[1]:
            return None
        readings[f"&{name};"] = read[0]
    characters = set(readings.values())
    if len(characters) == 1:  # one pass, the character a template (backslashes escaped)
        read_all = _alternation(tuple(sorted(readings))).sub
        return partial(read_all, characters.pop().replace("\\", "\\\\"))
    # Else one pass with a call for each reference (about 180 ns each and 0.2 ns a
    # character), or a replacement over the whole text for each (0.75 ns a character),
    # those read as "&" first made NULs (XML text holds none), made "&" last.
    passes = len(readings) + ("&" in characters)
    if len(names) * 180 < length * (0.75 * passes - 0.2):
        read_all = _alternation(tuple(sorted(readings))).sub
        return partial(read_all, lambda reference: readings[reference.group()])
    order = sorted(readings.items(), key=lambda reading: reading[1] != "&")
    if "&" in characters:
        order = [(text, "\0" if read == "&" else read) for text, read in order]
        order.append(("\0", "&"))
    return partial(_replaced, order)


def _replaced(order: list[tuple[str, str]], text: str) -> str:
    """``text`` with each of ``order``'s texts replaced with its own, one after the other."""
    for old, new in order:
        text = text.replace(old, new)
    return text


@lru_cache(maxsize=64)
def _alternation(texts: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern of any of ``texts``."""
    return re.compile("|".join(map(re.escape, texts)))
