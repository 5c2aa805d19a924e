"""The fast path: runs of ordinary, clean entries proved without building nodes.

Most sitemaps are long runs of entries of one plain shape whose values pass every
rule. For those, per-element callbacks, nodes, the rules' per-entry work and the
schema batches cost far more than libxml2's whole parse. ``FastPath`` reads each
decoded block before the parsers do, recognises runs of such entries with one
compiled regular expression, proves them clean, and replaces each run, in the text
that expat and the shadow parse read, by a short comment with the run's line breaks:
``<!---->`` for a run on one line, else ``<!--``, the line breaks and ``-->`` (the
lines between left empty). Every line stays where it is; the columns after a run on
its last line move left, and the parser maps each position it reports back to the
file's (``StreamParser.shortened``): the parsers never read a run's text, on one line
or many. A run may start and end anywhere in a line: whatever is not proved is checked
by the full checker as before, with the same lines and columns. (The parsers' byte
offsets are those of the text they read; they use them only among themselves, around
a syntax error, never inside a run.) The parts of lines a run blanks are kept for the
last blocks, and a syntax error on such a line quotes it as the file has it
(``FastPath.restore``, called by ``formats.xml`` for the error's
context). When expat reaches such a comment,
``FileChecker.on_comment`` hands the run back (``ProvenRun.enter``): its entries
are counted and given to the checks that keep state across entries, in document
order, exactly as the full checker would have (duplicates, scope, set facts): a
stretch of at least ``_TOGETHER`` entries without hreflang alternates that can make no
finding but those reported in place (a raw ``&``, below) in one step over all of them,
any other entry one at a time. The white space the parser gathered before the run is
dropped then, so that text after the run is gathered as it is after an entry's end tag.

Within a run, the entries that follow a proved one in the same layout (the same text
up to the loc, each entry on lines of its own or all on one line) with the plainest
values, or with extension elements proved as one at a time, are proved a window at a
time (``bulk.py``): the same entries as one at a time, made with the same caches, their
places computed from the layout.

It is used only for a file of more than one block or of at least 16 KB (a small
file is checked quickly anyway, and no pattern is compiled for it), in UTF-8, whose
prologue is the usual one (an optional XML
declaration, whitespace, comments and processing instructions such as
``<?xml-stylesheet?>``, then a ``urlset`` or ``sitemapindex`` start
tag in the sitemaps.org namespace, no DOCTYPE: unprefixed with that namespace as the
default one, or with a prefix that tag binds to it, ``<sm:urlset
xmlns:sm="...">``, not one starting with ``xml``; other declarations and attributes
there, ``xsi:schemaLocation``, are read by the full checker with the root), when the run knows no robots.txt and every check enabled on the entry
fields declares a proof it knows (``check(..., proof=...)``, ``rules.registry.Proof``):
a pattern (``pattern(regex)``: an entry is proved only when each of its values of the
check's fields fully matches, ``_Root.patterns``; for ``changefreq`` the entry pattern
takes only the values every such pattern accepts), or one of its own, named in the
table below (``proved_value``: ``VALUE_PROOFS``; ``stateful``: ``HANDOVERS``, the
checks ``resolve`` finds through ``Dispatch.handovers``). A check with no proof
(``NO_PROOF``, or a plugin's that declares none) turns it off for the run, and the
command says so once on stderr (``notes``). ``SITEMAP_LINT_FAST_PATH=0`` turns it off (a
debugging switch: reports are byte-identical either way). When none of a file's first
``GIVE_UP`` entries is proved (entries of a shape it does not prove, such as
``pagemap``), it leaves the rest of the file too: following the depth through the
entries it hands over costs without gain.

An entry is proved only when all of this holds (anything else goes to the full
checker untouched):

- it is a ``<url>`` (``<sitemap>`` in an index) entry standing directly in the
  root, it and its children written with the root's prefix (``<sm:url>``,
  ``<sm:loc>``, ...; entries in another namespace, or the sitemap namespace through
  another prefix, go to the full checker; pointers name them with the prefix, as
  ``FileChecker.child_pointer`` does) (the depth is followed through the text between runs), anywhere in its
  line(s): pretty-printed, an entry a line or the whole file on one line;
- its children are ``loc`` and optionally ``lastmod``, ``changefreq`` and
  ``priority`` (an index entry: ``loc`` and optionally ``lastmod``) in the
  schema's order, without attributes, with only whitespace (space, tab, CR LF,
  LF), comments and processing instructions between them (the gap); a comment
  holds printable ASCII and characters from U+00A0 on (not U+FFFD-U+FFFF, nor the four
  that match an ASCII letter in another case, ``_WIDE``) and never the suppression tag
  ``sitemap-lint`` in any case (its directive must be read); an instruction holds printable ASCII without ``<``, and
  its target is a name without ``:`` that is not ``xml`` in any case (expat refuses
  those); after them, in a urlset, any number of extension elements of the two
  shapes below;
- every value is written in a narrow ASCII class: no ``&`` (but references in any
  value and a raw one in ``loc``, below), ``<``, CDATA (but a ``loc`` in one section,
  below, and a lastmod, changefreq or priority in one section, as some content
  managers' plugins write every value: read as written, no reference in it, and
  proved only when its check reports nothing, ``_IN_CDATA``), whitespace or character
  outside the class;
- only such a gap stands between it and the end of the previous entry (or of the
  root's start tag): expat reports character data before an entry at the entry's
  tag, which must stay there (``_after_tag`` reads the gap back to the tag and
  then forward again with the gap's pattern; comments and instructions are no
  character data, and those between proved entries are blanked with them);
- it lies within one block as the checker reads them (about 1 MB): the parsers
  see the same blocks with and without the fast path, so an entry split across a
  boundary goes to the full checker (the block's last lines are looked at again
  with the next block, for the depth and the entry count only);
- it is at most the 50,000th entry of the file (an upper bound of the entries
  before it is counted), so the too-many-entries rule still sees its entry;
- each value passes every rule enabled for its field, and the schema accepts it:

| check (rules/), its proof | field | how a value is proved |
|---|---|---|
| ``urls.LocCheck`` (UR001-UR019), ``proved_value("url")`` | loc | the value as expat reads it: a ``loc`` whose every ``&`` starts ``&amp;``, ``&lt;``, ``&gt;``, ``&quot;``, ``&apos;`` or a decimal or hex character reference is decoded (``_decoded_loc``; a reference to a character outside the class below, ``#`` included, leaves it unproved), one in a single CDATA section (``<loc><![CDATA[...]]></loc>``) is read as written, its ``&`` included; a value that holds one of XML's five escapes as text (``&amp;`` read from ``&amp;amp;``, or in CDATA: UR017) is not proved; then a pattern that is a subset of the URL rules' own clean-URL pattern (``urls._SIMPLE``): lower-case ``http(s)`` host of labels of 1-63 letters, digits and inner hyphens (one whose last label is a number, or with an ``xn--`` label, only when ``urls.reads_as_name`` takes it: a valid IPv4 address, A-labels that decode; a host with upper-case letters is UR018's, never proved; nor, where UR019 is reported, one ``urls.local_host`` names: ``localhost``, a ``.local`` name, an address that is not public), no port, no user, no fragment, a path after the host and no ``.`` or ``..`` segment (UR018, ``_canonical``: a ``/.`` segment in the query leaves the value unproved too), only unreserved and sub-delim characters (``&`` raw, as above) and percent-escapes that no URL rule reads as a defect (``FastPath._escapes``, cached by the text from the first ``%`` to the last escape): every ``%`` starts two upper-case hexadecimal digits (UR007), and each row of escapes decodes to UTF-8 (UR014) of printable characters that are neither ``%`` (UR015's ``%25``), a control character (UR013) nor unreserved; 12 to 1,024 characters (under UR003's 2,048 and UR012's 1,024), host at most 253. Such a value makes ``check_url`` return its parts without a finding, and is an ``anyURI`` of 12-2,048 characters for the schema. In a file whose first locs are long (``LONG_URL``) the entry pattern delimits the path and query by the next ``<`` and their characters are checked against the same class apart (``_LONG_LOC``): the same values are proved. |
| ``dates.check_lastmod`` (DT001-DT005), ``proved_value("date")`` | lastmod | (each value of this row and the next two read as expat reads it: ``_decoded`` replaces its references when each ``&`` starts one that stands for printable ASCII) the pattern ``YYYY-MM-DD`` or ``YYYY-MM-DDThh:mm:ss[.f]`` with ``Z`` or ``±hh:mm`` (an ``xsd:date`` or ``xsd:dateTime`` form), then the rule itself (``dates.check_date`` at the run's moment) reports nothing; its result is cached per file by value. |
| ``values.changefreq`` (VA001, VA002), ``proved_value("changefreq")`` | changefreq | one of the seven values exactly (the schema's enumeration). |
| ``values.priority`` (VA003), ``proved_value("priority")`` | priority | ``0``, ``1``, ``0.d{1,4}``, ``1.0{1,4}`` (``xsd:decimal`` from 0.0 to 1.0), and ``values.check_priority`` reports nothing (cached). |
| ``values.length`` (VA004), ``proved_value("length")`` | lastmod, changefreq, priority | the patterns above allow at most 35 bytes, under 100. |
| ``duplicates.DuplicateCheck`` (DU001), ``stateful("duplicates")`` | loc | stateful: each proved URL is entered in the file's tracker when expat reaches the run, in document order; a repeat is reported by the tracker itself, at the ``loc``. |
| ``scope.ScopeCheck`` (SC001-SC003), ``stateful("scope")`` | loc | stateful: a proved URL on the origin already recorded (or, with ``--sitemap-url``, on its origin, without a dot, and starting with its directory in normal form, ``domain.urls.normal_path``: such a path is in it however it is written) changes nothing and is skipped; any other is given to the scope checker itself. |
| ``robots.DisallowedCheck`` (RB), ``stateful("robots")`` | loc | no fast path when the run knows robots.txt files (then the check has a policy). |
| ``structure.children`` (ST002-ST006, ST009, ST010), ``proved_value("structure")``; namespaces, the schema (XS001) | the entry's children | the shape above has no finding of theirs: known children once each, in order, in the sitemap namespace (through the root's prefix or default), no attribute, no stray text, no element inside a field, no empty field; extension elements only of the shapes below. The checks of the root and of the elements in it that are no entries (ST001, ST004, ST007, ST012: ``top-level``) need no proof: the fast path proves entries only. |
| ``hreflang.PagesWithoutAlternates`` (HL006, HL009), ``stateful("pages")`` | loc | stateful: a proved entry has no alternates, so the hash of its URL's normal form, its position and its entry's index are recorded as the check records them. |
| limits (LM001, LM003) | the file | proved entries are added to the entry counter; the 50,001st entry is never proved (the rest of its block goes to the full checker; the entries after it are proved again once the checker has read it). LM002 reads the bytes, which the fast path does not change. |
| set facts (``FileFacts``) | loc, lastmod | URL hashes with the ``loc``'s line and column and the entry's index, index children (with their entry's index), the newest ``lastmod``: added when expat reaches the run, in document order. |
| the HTML report's counts (``FileStats``, ``--format html``) | lastmod, changefreq, priority, xhtml:link | each proved ``url`` entry's lastmod month, changefreq, priority and hreflang codes, as the parser reads them (``_values``): added when expat reaches the run, in document order. |

A check enabled on the core fields whose proof is none of these (``NO_PROOF``, a
plugin's that declares none) turns the fast path off for the file; a plugin's
pattern proof keeps it (values that do not match go to the full checker).

A raw ``&`` in a ``loc`` (``?a=1&b=2``, a generator's everyday defect) is a syntax
error that the recovering parser (formats/xml.py) repairs where it stands: it reports
XM004 and reads the entry again with the ``&`` taken as written, so every other rule
sees the URL with its ``&``. Such an entry is proved too, when every ``&`` of its
``loc`` is followed by a name of at most 200 ASCII letters, digits, ``_``, ``.``,
``-`` and then neither ``;`` nor ``:`` (so expat reads no reference and stops where
the parser's repair expects it), its line is shorter than the parser's error context
(4 KB) and the entry shorter than its replay bound (64 KB), and at most 100,000 errors
would be counted. When the run is entered, each ``&`` is reported as the parser
reports it (``rules.xml.raw_ampersands``, which ``rules.xml.syntax_error`` gives such an
``&`` to, with the loc's value and where it starts) and counted as the parser counts
its errors; its pointer names the ``loc``, and its fix is exact (``FindingFix.exact``:
the JSON report need not read the file again for it). It is reported only when the
check that reports it in the parser's syntax errors runs (``rules.xml.check_markup``),
and such an entry is proved only while every check of the markup is a built-in one
(which reads nothing else in the error): a plugin's ``markup`` check sees each of them. The URL with its ``&`` is proved
as any ``loc`` (``&`` is a sub-delimiter the URL rules accept).

A lastmod that the date rules report (a space for the ``T``, no time zone, a day that
does not exist, a date in the future or before 1970: a generator's other everyday
defect) does not hand its entry to the full checker either, when ``dates.check_lastmod``
is the only check on lastmod: its value holds no ``&``, the entry pattern takes it
(10-35 characters of the date's class and spaces), and either the rules report a
problem with its form (which covers the schema's error on it, as in the full checker)
or it has the form the clean pattern proves (``_dated_moment``). The entry is proved
with its findings: when the run is entered, ``check_date`` itself reports them at
the ``<lastmod>`` start tag's line and column, and they name the lastmod
(``report_value``); its moment, if any, goes to the set facts as the check's does.
Their fixes are exact (``_InPlace``): the value is written as is on its line.

A loc with white space around its value (UR005: a generator's template that writes
the URL on a line of its own) is proved the same way when the file's first locs have
such space (``_spaced_locs``: the entry pattern then takes it, which costs a little for
the others): its value holds no ``&`` and is not in a CDATA section, the URL inside
is proved as any loc, and ``check_url`` reports on the value as written, white space
and all (``report_url``; a value on several lines gets its fix as the full checker
makes it, not exact).

A changefreq or priority that its check reports (``Daily``, ``dialy``, a priority of
``5`` or ``high``) is proved the same way, when that check is the only one on the
field (``_Root.valued``): its value holds no ``&`` and is short enough for the length
check to leave it, and the check's finding covers the schema's error on it, as in the
full checker (``_reported``); ``check_changefreq`` or ``check_priority`` reports it at
the field's start tag when the run is entered (``report_value``, as for a lastmod).

A loc with characters outside ASCII in its path or query (an IRI: UR011, whose fix
writes it percent-encoded) is proved the same way, when the URL rules read it as a
clean URL but for those characters (``urls.iri_parts``: no reference, no CDATA, no
``%``, no port, not U+FFFD) and at most 1,024 characters long: ``check_url`` reports its
UR011 when the run is entered (``report_url``), naming the loc, its fix exact; in a run
that does not report UR011, nothing (the check, whose one finding would be dropped, is
not made).

After a syntax error that makes the parser skip text (a missing end tag, a raw ``<``,
a truncated file), the rest of the file goes to the full checker; after one repaired
in its entry (a raw ``&``, an undefined entity), the fast path goes on.

Two extension elements are proved too, written with the prefix the root's start tag
binds to their namespace (the first, when several are; entries declare none of their
own, since no other attribute is taken): ``<image:image>`` holding ``image:loc`` and
then optionally ``image:caption`` and ``image:title``, and ``<xhtml:link
rel="alternate" hreflang="..." href="..."/>`` (these three attributes, each once, in
any order, in double or single quotes, self-closing; an entry's links written alike
in another order or quotes are read by one pattern for that order, ``_reordered_links``,
and links written in several ways each by ``_link_pair``). An entry whose only
extension elements are ``video:video`` ones is proved by ``fastpath.video``, a ``news:news``
(one an entry; images and alternates beside it are proved as without it) by
``fastpath.news`` (their texts say which
children and values; ``FastPath._extensions`` hands them over). Pagemap and other
elements, other attributes, other children, an end tag for ``xhtml:link``: the full
checker takes the entry. The check the dispatch runs on those namespaces (if any) must
declare the hand-over ``stateful("image")``, ``stateful("hreflang")``,
``stateful("video")`` or ``stateful("news")`` (``EXTENSION_HANDOVERS``: the image,
hreflang, video and news checkers of rules/); any other check there leaves their
elements to the full checker.

| check (rules/) | element | how it is proved |
|---|---|---|
| ``image.Checker`` (IM001-IM007, the URL rules on ``image:loc``) | image:image | ``image:loc`` first, a URL proved as ``loc`` is (12 to 1,024 characters); no image URL twice in the entry (IM003); at most 1,000 images (IM002); ``image:caption`` and ``image:title``, their text printable ASCII or characters from U+00A0 on, ``&`` only in a predefined reference or a decimal reference to such a character, or one CDATA section of those characters without ``<`` or ``]`` (``_TEXT``): while the checker runs, its IM004 on them is made when the run is entered, at the first of them, and its IM006 for a title before the caption (``FastPath.report_deprecated``, with ``image.deprecated_children`` and ``image.check_order``); when it does not run, only in the schema's order, which then judges them. |
| ``hreflang.Checker`` (HL001-HL005, the URL rules on ``href``) | xhtml:link | ``rel="alternate"``; ``hreflang``'s value is one that ``hreflang.check_code`` accepts (no message) and the schema's pattern takes, and no two links of the entry give the same code; ``href`` a URL proved as ``loc`` is (``&amp;`` in its query read as ``&``); one of the hrefs is the entry's own URL (normal forms). |
| ``hreflang.Checker`` across entries (HL006-HL009) | the entry | stateful: when expat reaches the run, the entry's record (its URL's normal form, the entry's position and index, its sorted pairs of code and normal URL) is added to the checker's records (``AlternatesTable.add``, which keeps equal lists once), in document order, as ``end_entry`` adds it; the checker is made (``Dispatch._extension``) at the first entry holding the namespace's elements, in the order they appear, as the dispatch makes it. The records then reach ``finish`` or the set facts (``facts.alternates``) unchanged. |
| ``hreflang.PagesWithoutAlternates`` (HL006, HL009) | loc | an entry with images but no ``xhtml:link`` is recorded as one without alternates; one with links is not. |
| ``news.Checker`` (NW001-NW018, the date rules on its date) | news:news | ``fastpath.news``: the checker's ``check`` reports nothing on it alone; its count against the 1,000 and its publication's name (compared with the file's first) are handed to the file's checker when expat reaches the run (``news.Checker.enter_proved``), in document order. |
| the schema (XS001, with the extension schemas) | the entry | the elements above, after the core fields, are what the image and XHTML schemas and the sitemap schema's ``any`` accept (an ``anyURI``, strings, the ``hreflang`` pattern). |
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from functools import cache, partial
from itertools import chain, repeat
from operator import add, eq, itemgetter
from pyexpat import errors as expat_errors
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sitemap_lint.domain.hosts import plain_host
from sitemap_lint.fastpath.collect import VALUE_NODE as _NODE
from sitemap_lint.fastpath.collect import Collect as _Collect
from sitemap_lint.fastpath.places import text_place
from sitemap_lint.finding import Edit, Finding, FindingFix, amended_in_place
from sitemap_lint.fix.model import escape_text
from sitemap_lint.formats.xml import CONTEXT_BYTES, MAX_REPLAY, MAX_SYNTAX_ERRORS, cut_context
from sitemap_lint.inputs.decoding import LONE_CR
from sitemap_lint.model import SITEMAP_NS, XHTML_NS, Node, WrittenNode
from sitemap_lint.rules.registry import (
    CHILDREN,
    ENTRY,
    MARKUP,
    PATTERN,
    PROVED_TARGETS,
    STATEFUL,
    VALUE,
    CheckSpec,
    Proof,
    is_builtin,
    stateful,
)

if TYPE_CHECKING:
    from sitemap_lint.engine.dispatch import Dispatch
    from sitemap_lint.engine.sink import FindingSink
    from sitemap_lint.fastpath.bulk import Bulk, Window
    from sitemap_lint.fastpath.news import NewsProof
    from sitemap_lint.fastpath.video import VideoProof
    from sitemap_lint.formats.xml import StreamParser
    from sitemap_lint.sets.facts import FileFacts, FileStats
    from sitemap_lint.settings.options import Options

__all__ = ["ENV", "FastPath", "ProvenRun", "enabled", "start"]

ENV = "SITEMAP_LINT_FAST_PATH"
# The end of a block looked at again with the next block is at most this long.
MAX_CARRY = 1 << 16
MAX_ENTRIES = 50_000
# A file of one block shorter than this is left to the full checker.
SMALL = 1 << 14
MAX_LOC = 1024
GIVE_UP = 1000  # the first entries, none proved: the rest of the file is left as well
_NO_BULK = 1 << 62  # an entry count no file reaches: no window of entries proved at once
SUPPRESSION_TAG = "sitemap-lint"


class FileChecker(Protocol):
    """What the fast path uses of ``checker.FileChecker`` (named here, not imported:
    the checker imports this module)."""

    sink: FindingSink
    facts: FileFacts | None
    stats: FileStats | None
    dispatch: Dispatch | None
    proven: dict[tuple[int, int], ProvenRun]
    entry_index: int
    count: int  # the entries read, proved ones included

    def point(self, entry: Node, indexes: Iterable[int]) -> None: ...

    def child_pointer(self, ns: str, entry: str, child: str) -> tuple[str, str]: ...


def enabled() -> bool:
    return os.environ.get(ENV, "").strip() != "0"


# -- patterns ------------------------------------------------------------------------


class _Lazy:
    """A pattern compiled at its first use (importing the module stays cheap)."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, self._flags)
        return compiled


_WS = r"[ \t\r\n]"
# A comment's characters outside ASCII: from U+00A0 on (as an image text's, below), but
# for surrogates, U+FFFD-U+FFFF and the four characters that match an ASCII letter in
# another case (U+0130, U+0131, U+017F, U+212A: "\u017fitemap-lint" is the suppression
# tag to the sink's case-blind search, and a malformed directive, SU002).
_WIDE = "\u00a0-\u012f\u0132-\u017e\u0180-\u2129\u212b-\ud7ff\ue000-\ufffc\U00010000-\U0010ffff"
# A comment of printable characters (no "--" inside, none ending in "-"), as
# generators write them in their users' languages.
# Runs of the characters other than "-" taken at once (possessive): the engine loops in
# its character class, not once a character through the alternation.
_COMMENT = rf"<!--(?:[ -,.-~\t\r\n{_WIDE}]++|-(?!-))*+-->"
# Inside an entry, a comment never holds the suppression tag, in any case (its directive,
# or the malformed one it starts, must be read). (The runs leave out "s" and "S" too, the
# tag's first letter: only there is the tag looked for.)
_ENTRY_COMMENT = (
    rf"<!--(?:[ -,.-RT-rt-~\t\r\n{_WIDE}]++|[sS](?!(?i:{SUPPRESSION_TAG[1:]}))|-(?!-))*+-->"
)
# A processing instruction of printable ASCII, its target not "xml" in any case (expat
# refuses that one there) and without ":" (a name namespaces would read); no "<" in it,
# so that no tag is read inside it.
_PI = r"<\?(?![xX][mM][lL][ \t\r\n?])[A-Za-z_][A-Za-z0-9_.-]*(?:[ \t\r\n](?:[\t\r\n -;=>@-~]++|\?(?!>))*+)?\?>"
# Possessive: what follows a gap starts with "<" and a name or "/", which no part of a
# gap can give back, and the engine keeps no way back through it (a quarter of a plain
# entry's match). The same gap stands between proved entries and before a run.
_GAP = rf"{_WS}*+(?:(?:{_ENTRY_COMMENT}|{_PI}){_WS}*+)*+"
_BETWEEN = _Lazy(_GAP)
# The entry patterns only delimit the values, cheaply; ``FastPath._entry`` then proves
# each value with the strict patterns below (through caches: hosts, dates and
# priorities repeat).
# No "%" in an extension's URL; a loc's percent-escapes are proved apart (``_ESCAPED``).
_PCHAR = r"[A-Za-z0-9\-._~!$'()*+,;=:@/]"
_QCHAR = r"[A-Za-z0-9\-._~!$'()*+,;=:@/?]"
# A loc may hold a raw "&" (one XM004 each, as the recovering parser reports it; a
# reference is read as expat reads it, ``_decoded_loc``) and percent-escapes, proved by
# ``FastPath._escapes``.
_LOC_PCHAR = _PCHAR[:-1] + "%&]"
_LOC_QCHAR = _QCHAR[:-1] + "%&]"


def _loc(pchar: str, qchar: str) -> str:
    return rf"(?P<scheme>https?)://(?P<host>[A-Za-z0-9.-]+)(?P<path>/{pchar}*)?(?:\?{qchar}*)?"


_LOC = _loc(_LOC_PCHAR, _LOC_QCHAR)
# The entry pattern's loc: also "#", for character references ("&#38;"); a loc that holds
# a "#" of its own (a fragment) is not proved; and the characters outside ASCII that XML
# allows (``FastPath._iri`` proves them). Written negated, as the characters
# _LOC_PCHAR and _LOC_QCHAR leave out and those XML does (surrogates, U+FFFE, U+FFFF):
# Python's compiler walks every character of a range a class holds (``\u0080-\ud7ff``:
# 3 ms in every run), not of those a negated class names (tests/test_fastpath.py holds
# them equal to the classes written out).
_ENTRY_PCHAR = r'[^\x00-\x20"<>?\[-\^`{-}\x7f\ud800-\udfff\ufffe\uffff]'
_ENTRY_QCHAR = r'[^\x00-\x20"<>\[-\^`{-}\x7f\ud800-\udfff\ufffe\uffff]'
_ENTRY_LOC = _loc(_ENTRY_PCHAR, _ENTRY_QCHAR)
# In a file of long URLs the pattern takes a loc's path and query up to the next "<" as
# ``path`` (the regular expression engine's fastest loop: an 850-character URL costs half
# as much), and ``FastPath._prove`` checks their characters against _URL_BYTES (the
# characters of _LOC_QCHAR) and cuts the query off the path: the same locs are proved.
# With short URLs the checks would cost more than the loop saves.
_LONG_LOC = r"(?P<scheme>https?)://(?P<host>[A-Za-z0-9.-]+)(?P<path>[/?][^<]*)?"
# A "." or ".." segment of a path, which the duplicate checks resolve (a regular
# expression: its search for the "/." prefix is faster than the substring search).
_DOT_SEGMENT = re.compile(r"/\.\.?(?=[/?#]|\Z)")


def _canonical(url: str) -> bool:
    """Whether a URL a proof's pattern takes (a lower-case scheme, a host without a port)
    has the rest of a canonical form (UR018): a path after the host, and no "." or ".."
    segment (looked for in the whole URL: one in the query leaves it unproved too)."""
    # The path's "/": the first after the scheme's "//" and the host's first character.
    slash = url.find("/", 8)
    return (
        slash > 0
        and url.find("?", 8, slash) < 0
        and ("/." not in url or _DOT_SEGMENT.search(url) is None)
    )


def _proved_normal(url: str) -> bool:
    """Whether a URL the fast path proved is its own normal form (``normal_url``): a
    proof leaves the host without a port and no escape of an unreserved character, so
    only an upper-case letter in the host, an empty path, characters outside ASCII (an
    IRI, whose normal form is the URI it maps to), dot segments or an escape with
    lower-case digits are left to normalise."""
    if not url.isascii():
        return False
    # The path's "/": the first after the scheme's "//" and the host's first character,
    # with no query or fragment before it.
    slash = url.find("/", 8)
    return (
        slash > 0
        and url[:slash].islower()  # (the scheme's letters are)
        and url.find("?", 8, slash) < 0
        and url.find("#", 8, slash) < 0
        and _DOT_SEGMENT.search(url) is None
        and ("%" not in url or _LOWER_ESCAPE.pattern.search(url) is None)
    )


_URL_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*+,;=:@/?&%"
LONG_URL = 256  # the mean length of a file's first locs from which its URLs count as long
_HOST = _Lazy(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\Z")
_LASTMOD = _Lazy(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?(?:Z|[+-][0-9]{2}:[0-9]{2}))?\Z"
)
_PRIORITY = _Lazy(r"(?:0(?:\.[0-9]{1,4})?|1(?:\.0{1,4})?)\Z")
_CHANGEFREQ = r"always|hourly|daily|weekly|monthly|yearly|never"
# A "%" that does not start an escape of two upper-case hexadecimal digits (UR rules
# read the others: a stray "%", and lower case is left to them too).
_UNESCAPED = _Lazy(r"%(?![0-9A-Fa-f]{2})")
# The escapes in a row that a URL rule decodes together (UR014: one UTF-8 sequence).
_ESCAPED = _Lazy(r"(?:%[0-9A-Fa-f]{2})+")
# An escape with a lower-case hexadecimal digit (``%c3``, as WordPress writes the
# escapes of a slug outside ASCII): no finding, but not the URL's normal form.
_LOWER_ESCAPE = _Lazy(r"%(?:[a-f][0-9A-Fa-f]|[0-9A-F][a-f])")
_LOWER = object()  # the verdict of escapes proved with lower-case digits (``_escapes``)
# The ASCII bytes an escape of a proved loc may stand for: printable, not "%" (UR015
# reads "%25" followed by hex digits) and not unreserved (an escape the normal form of
# some tools decodes); bytes 0x80 and up must form UTF-8 (UR014). No control byte (UR013).
_ESCAPABLE = frozenset(b" !\"#$&'()*+,/:;<=>?@[\\]^`{|}") | frozenset(range(0x80, 0x100))


# A loc whose every "&" starts a predefined entity or a character reference is read as
# expat reads it (_read_references); the value is then proved as any loc. A reference's
# name (between "&" and ";"):
_REFERENCE_NAME_TEXT = r"amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6}"
_REFERENCE_NAME = _Lazy(_REFERENCE_NAME_TEXT)
_WHOLE_LOC = _Lazy(_LOC + r"\Z")
_PREDEFINED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
# What expat reads for a reference, by its name ("amp", "#38", "#x26"), and whether it
# is a character of _IN_PATH.
_CHARACTERS: dict[str, tuple[str, bool]] = {}
_MAX_CHARACTERS = 4096  # names remembered; a file of many distinct ones reads on uncached


def _character(name: str) -> tuple[str, bool] | None:
    """What expat reads for the reference ``name`` ("amp", "#38", "#x26"), and whether
    it is in _IN_PATH; a character outside printable ASCII leaves the value unproved,
    and so does the NUL given for it. None: ``name`` names no reference."""
    if _REFERENCE_NAME.pattern.fullmatch(name) is None:
        return None
    if name[0] != "#":
        character = _PREDEFINED[name]
    else:
        code = int(name[2:], 16) if name[1] == "x" else int(name[1:])
        character = chr(code) if 0x20 < code < 0x7F else "\0"
    return character, character in _IN_PATH


def _cached_character(name: str) -> tuple[str, bool] | None:
    """``_character``, remembered (``_CHARACTERS``)."""
    read = _CHARACTERS.get(name)
    if read is None:
        read = _character(name)
        if read is not None and len(_CHARACTERS) < _MAX_CHARACTERS:
            _CHARACTERS[name] = read
    return read


def _read_references(text: str) -> tuple[str, bool] | None:
    """``text`` with its references read, and whether each stood for a character of
    _IN_PATH; None when an "&" in it starts no reference (a raw one)."""
    pieces = text.split("&")
    in_path = True
    characters = _CHARACTERS
    for index in range(1, len(pieces)):
        name, end, rest = pieces[index].partition(";")
        read = characters.get(name) or _cached_character(name)
        if read is None or not end:
            return None
        if not read[1]:
            in_path = False
        pieces[index] = read[0] + rest
    return "".join(pieces), in_path


# The characters of a loc's path (_LOC_PCHAR: those of _URL_BYTES but "?"): read from a
# reference, each leaves the value's parts where _ENTRY_LOC delimited them, and each is
# in the query's class too.
_IN_PATH = frozenset(_URL_BYTES.decode()) - {"?"}


def _decoded_loc(
    url: str, scheme: str, host: str, path: str | None
) -> tuple[str, str, str, str | None] | None:
    """A loc written with references (its parts as _ENTRY_LOC delimits them) as expat
    reads it: (its value, scheme, host and path when _LOC matches it whole; "" for the
    value when it does not); None when an "&" in it starts no reference."""
    if url.count("&") == url.count("&amp;"):
        value, in_path = url.replace("&amp;", "&"), True  # "&" is in _IN_PATH
    else:
        read = _read_references(url)
        if read is None:
            return None
        value, in_path = read
    if in_path and value.isascii() and "#" not in value:
        # Every character _ENTRY_LOC took is then one of _LOC's where it stands, and
        # the first "?" after the host still starts the query.
        if path is None:
            return value, scheme, host, None
        rest = value[len(scheme) + 3 + len(host) :]
        if "?" not in path:  # the path alone (a long URL's holds its query, _LONG_LOC)
            query = rest.find("?")
            if query >= 0:
                rest = rest[:query]
        return value, scheme, host, rest
    whole = _WHOLE_LOC.pattern.match(value)
    if whole is None:
        return "", "", "", None
    scheme, host, path = whole.group("scheme", "host", "path")
    return value, scheme, host, path


# A lastmod, changefreq or priority that may hold character references: read by
# ``_decoded`` (the letters of the values, digits, the date's punctuation, and "&#x;").
_REFERRED = "[0-9A-Za-z:.+&#;-]"
# A lastmod, changefreq or priority in one CDATA section (as some generators write every
# value), its pattern in braces: read as written, proved only when clean (a value its
# check reports goes to the full checker).
_IN_CDATA = r"<!\[CDATA\[{}\]\]>"


def _decoded(value: str) -> str:
    """A value as expat reads it when each "&" in it starts a reference to a printable
    ASCII character; else a value no proof accepts (it holds "&" or a NUL)."""
    if "&" not in value:
        return value
    read = _read_references(value)
    return "\0" if read is None else read[0]


# A raw "&" in a loc: what the recovering parser does with it (formats/xml.py) holds for
# names after it of at most _MAX_NAME characters, on a line shorter than its context.
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_RUN = _Lazy(r"[A-Za-z0-9_.-]*")
_MAX_NAME = 200
# An "&" that starts a reference (a name and ";"), a name and ":" (read on as a
# qualified name), ":" or a name longer than _MAX_NAME.
_REFERENCE_LIKE = _Lazy(
    rf"&(?::|[A-Za-z_][A-Za-z0-9_.-]*[;:]|[A-Za-z_][A-Za-z0-9_.-]{{{_MAX_NAME}}})"
)
_AMPERSAND = _Lazy("&")
_MAX_CONTEXT = CONTEXT_BYTES - 96
_INVALID_TOKEN = expat_errors.codes[expat_errors.XML_ERROR_INVALID_TOKEN]

IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"
MAX_IMAGES = 1000
# An extension value's URL (image:loc, an href), delimited only: proved with _URL.
# Percent-escapes are proved as a loc's are (``FastPath._escapes``).
_EXT_PCHAR, _EXT_QCHAR = _PCHAR[:-1] + "%]", _QCHAR[:-1] + "%]"
_EXT_URL = rf"https?://[a-z0-9.-]+(?:/{_EXT_PCHAR}*)?(?:\?{_EXT_QCHAR}*)?"
# An image:loc or an xhtml:link's href, whose query may also hold "&amp;" (its
# parameters, as image services and sites told apart by their query write them), read
# as "&" (``_image_location``, ``FastPath._href``).
_IMAGE_URL = rf"https?://[a-z0-9.-]+(?:/{_EXT_PCHAR}*)?(?:\?(?:{_EXT_QCHAR}++|&amp;)*+)?"
# The extension namespaces by their kind in an entry's extras.
_KIND_NAMESPACES = {"i": IMAGE_NS, "x": XHTML_NS, "v": VIDEO_NS, "n": NEWS_NS}
# The text of image:caption and image:title, which no check reads: characters from
# printable ASCII or from U+00A0 on (news.py's), "&" only in a predefined reference or
# a decimal reference to such a character (leading zeros too: PHP writes "&#039;"); or
# one CDATA section of those characters but "]" and "<", "&" and ">" included (no
# tag's text stands in it: ``_extensions_slowly`` finds the children by their start
# tags). Expat and the schema's xsd:string take each.
_TEXT_CHARACTER = "[^\x00-\x1f\x7f-\x9f&<>\ud800-\udfff\ufffd-\uffff]"
_TEXT_REFERENCE = (
    "&(?:amp|lt|gt|quot|apos|#0*(?:3[2-9]|[4-9][0-9]|1[01][0-9]|12[0-6]"
    "|1[6-9][0-9]|[2-9][0-9]{2}|[1-9][0-9]{3}|[1-4][0-9]{4}|5[0-4][0-9]{3}|55[01][0-9]{2}"
    "|552[0-8][0-9]|5529[0-5]));"
)
_CDATA_CHARACTER = "[^\x00-\x1f\x7f-\x9f<\\]\ud800-\udfff\ufffd-\uffff]"
# (A run of printable ASCII first: the usual text, matched faster than by the wider class.)
_TEXT = (
    rf"(?:[ !-%'-;=?-~]*+{_TEXT_CHARACTER}*+(?:{_TEXT_REFERENCE}{_TEXT_CHARACTER}*+)*+"
    rf"|<!\[CDATA\[{_CDATA_CHARACTER}*+\]\]>)"
)


def _link(prefix: str) -> str:
    """An xhtml:link whose attributes may be those of a proved link: three of rel,
    hreflang and href, in any order and either quotes (``_link_pair`` reads them), their
    values without markup, references but "&amp;" or ">" (which ends the tag in
    ``_link_starts``)."""
    x = re.escape(prefix)
    value = """(?:"(?:[^"<>&]++|&amp;)*+"|'(?:[^'<>&]++|&amp;)*+')"""
    return rf"<{x}:link(?:{_WS}+(?:rel|hreflang|href){_WS}*={_WS}*{value}){{3}}{_WS}*/>"


# The names of an xhtml:link's attributes, in order (``_link`` delimits them).
_LINK_NAMES = _Lazy(rf"(rel|hreflang|href){_WS}*=")
# The values proved of an xhtml:link's attributes (read by ``_ATTRIBUTES``).
_HREFLANG_VALUE = _Lazy(r"[A-Za-z0-9-]{1,35}\Z")
_WHOLE_LINK_URL = _Lazy(rf"(?:{_IMAGE_URL})\Z")


def _link_pair(link: str) -> tuple[str, str] | None:
    """The hreflang and href of an xhtml:link that ``_link`` matched, when its attributes
    are rel="alternate", an hreflang of letters, digits and hyphens (1 to 35) and an href
    of the extension URLs' form ("&amp;" in its query too: ``_IMAGE_URL``), each once;
    else None."""
    values: dict[str, str] = {}
    for name, double, single in _ATTRIBUTES.pattern.findall(link):
        if name in values:
            return None  # expat reports the repeated attribute
        values[name] = double or single
    code, href = values.get("hreflang"), values.get("href")
    if values.get("rel") != "alternate" or code is None or href is None:
        return None
    if _HREFLANG_VALUE.pattern.match(code) is None or _WHOLE_LINK_URL.pattern.match(href) is None:
        return None
    return code, href


def _extension_items(
    image: str | None, xhtml: str | None, video: str | None = None, news: str | None = None
) -> tuple[str, str]:
    """The extension elements a proved entry may hold, after its core fields, with the
    root's prefixes: (without groups, for the entry pattern; with the groups iloc,
    caption, title and link (an xhtml:link's whole tag), to read them)."""
    patterns = []
    for group in ("(?:", "("):
        alternatives = [f"{_ENTRY_COMMENT}|{_PI}"]
        if image is not None:
            i = re.escape(image)
            alternatives.append(
                rf"<{i}:image>{_GAP}<{i}:loc>{group}{_IMAGE_URL}|{_IN_CDATA.format(_EXT_URL)})"
                rf"</{i}:loc>{_GAP}"
                # (a title before the caption, as some shops write them: IM006)
                rf"(?:<{i}:title>{_TEXT}</{i}:title>{_GAP}<{i}:caption>{_TEXT}</{i}:caption>{_GAP}|"
                rf"(?:{group}<{i}:caption>){_TEXT}</{i}:caption>{_GAP})?"
                rf"(?:{group}<{i}:title>){_TEXT}</{i}:title>{_GAP})?)</{i}:image>"
            )
        else:
            alternatives.append("(?!)()()()")
        if xhtml is not None:
            alternatives.append(f"{group}{_link(xhtml)})")
        else:
            alternatives.append("(?!)()")
        patterns.append(alternatives)
    outer = [item for item in patterns[0][1:] if not item.startswith("(?!)")]
    if video is not None:
        from sitemap_lint.fastpath.video import block_pattern

        outer.append(block_pattern(video, _EXT_URL))
    if news is not None:
        from sitemap_lint.fastpath import news as news_proof

        outer.append(news_proof.block_pattern(news))
    # A comment or instruction between the items is read whole (first), so that nothing
    # inside it is taken for an item.
    return (
        rf"(?:(?:{'|'.join(outer)}){_GAP})*" if outer else "",
        "|".join(patterns[1]),
    )


@cache
def _entry_line(
    entry: str,
    index: bool,
    image: str | None = None,
    xhtml: str | None = None,
    long_urls: bool = False,
    sm: str = "",
    changefreq: str = _CHANGEFREQ,
    video: str | None = None,
    spaced: bool = False,
    news: str | None = None,
) -> re.Pattern[str]:
    """One entry after the gap before it (white space, comments and instructions), or
    else the rest of the text (the window's end in ``bulk.py``: the entries it finds are
    those that follow one another). Groups, in order: all (the entry; None for the rest
    of the text), s, cdata, loc, scheme, host, path, lastmod, changefreq (a value other
    than those proved as written: one with references), priority, ext, t.
    ``image`` and ``xhtml``: the prefixes of the extensions a url entry may hold;
    ``long_urls``: the loc as _LONG_LOC delimits it; ``sm``: the sitemap namespace's
    prefix and ":" ("" when it is the default namespace); ``changefreq``: the values
    proved (an alternation); ``spaced``: white space may stand around a loc that is not
    in a CDATA section (``_spaced_locs``)."""
    sm = re.escape(sm)
    loc = _LONG_LOC if long_urls else _ENTRY_LOC
    if spaced:
        loc = rf"(?(cdata)|{_WS}*)(?P<loc>{loc})(?(cdata)\]\]>|{_WS}*)"
    else:
        loc = rf"(?P<loc>{loc})(?(cdata)\]\]>)"
    fields = (
        rf"<{sm}loc>(?P<cdata><!\[CDATA\[)?{loc}</{sm}loc>{_GAP}"
        rf"(?:<{sm}lastmod>(?P<lastmod>[0-9T:.Z+ -]{{10,35}}|{_REFERRED}{{10,200}}"
        rf"|{_IN_CDATA.format('[0-9T:.Z+-]{10,35}')})</{sm}lastmod>"
        rf"{_GAP})?"
    )
    if index:
        # Never there: the same groups as a url entry.
        fields += "(?P<changefreq>(?!))?(?P<priority>(?!))?(?P<ext>(?!))?"
    else:
        extensions = _extension_items(image, xhtml, video, news)[0]
        fields += (
            rf"(?:<{sm}changefreq>(?:{changefreq}|(?P<changefreq>{_REFERRED}{{3,200}})"
            rf"|{_IN_CDATA.format(f'(?:{changefreq})')})"
            rf"</{sm}changefreq>{_GAP})?"
            rf"(?:<{sm}priority>(?P<priority>[0-9.]{{1,6}}|{_REFERRED}{{1,200}}"
            rf"|{_IN_CDATA.format('[0-9.]{1,6}')})</{sm}priority>"
            rf"{_GAP})?"
            rf"(?P<ext>{extensions})"
        )
    # The empty groups ``s`` and ``t`` mark where the entry starts and ends.
    return re.compile(
        rf"(?P<all>{_GAP}(?P<s>)<{sm}{entry}>{_GAP}{fields}</{sm}{entry}>(?P<t>))|(?s:.+)"
    )


_ATTRIBUTE = r"""[^\s=<>/"'!?]+\s*=\s*(?:"[^"<]*"|'[^'<]*')"""
_PROLOGUE = _Lazy(
    rf"(?:<\?xml[^<>?]*\?>)?(?:{_WS}+|{_COMMENT}|{_PI})*"
    rf"<(?:([A-Za-z_][A-Za-z0-9_.-]*):)?(urlset|sitemapindex)((?:{_WS}+{_ATTRIBUTE})*){_WS}*>"
)
_ATTRIBUTES = _Lazy(rf"""([^\s=<>/"'!?]+){_WS}*={_WS}*(?:"([^"<]*)"|'([^'<]*)')""")
# A self-closing tag, attribute values read whole (they may hold '>' and '/>').
_SELF_CLOSING = _Lazy(rf"<[^\s<>/!?\"']+(?:\s+{_ATTRIBUTE})*\s*/>")
_SPECIAL = _Lazy(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>", re.DOTALL)
# The hreflang attribute of a start tag's attributes (not a prefixed one).
_HREFLANG = _Lazy(r"""(?<![^\s])hreflang\s*=\s*(?:"([^"]*)"|'([^']*)')""")


# -- values --------------------------------------------------------------------------


class _Into:
    """Hands findings to the file's sink; the nodes they cover are never validated."""

    __slots__ = ("sink",)

    def __init__(self, sink: FindingSink) -> None:
        self.sink = sink

    def add(self, finding: Finding, covers: object = None) -> None:
        self.sink.add(finding)


_NOT_PROVED = object()
_UNKNOWN = object()
# Windows of entries proved at once (bulk.py): from the file's 64th entry on (a smaller
# file is done before the window's pattern would be compiled). After a window that
# stops at an entry it does not take with fewer than 64 entries (its own work is then
# as much as it saves), the next is tried 256 entries later, and twice as many after
# each such window in a row. (A window that took all its text held is tried again at
# the next entry.)
_BULK_FROM = 64
_BULK_SHORT = 64
_BULK_AGAIN = 256
# Once a window's pattern stops at the first entry that holds extension elements (no
# work is spent past it: ``bulk.Bulk``), a window is worth it from 16 entries.
_BULK_SHORT_EXTENDED = 16
_REPORTED = object()  # a value proved with the findings of its check


# The proofs of its own that the fast path knows (``rules.registry.proved_value`` and
# ``stateful``; see the tables above), and the hand-over each extension namespace's
# elements are proved with.
VALUE_PROOFS = frozenset({"url", "date", "changefreq", "priority", "length", "structure"})
HANDOVERS = frozenset({"duplicates", "scope", "robots", "pages"})
EXTENSION_HANDOVERS = {
    IMAGE_NS: "image",
    XHTML_NS: "hreflang",
    VIDEO_NS: "video",
    NEWS_NS: "news",
}


def proves(proof: Proof) -> bool:
    """Whether the fast path can prove a field check declared with ``proof``."""
    if proof.kind == PATTERN:
        return True
    if proof.kind == VALUE:
        return proof.name in VALUE_PROOFS
    return proof.kind == STATEFUL and proof.name in HANDOVERS


def unproved(enabled: frozenset[str] | None) -> list[CheckSpec]:
    """The field checks a run with the ``enabled`` rules needs that the fast path cannot
    prove (each turns it off: every file is read entry by entry)."""
    from sitemap_lint.engine.dispatch import selected
    from sitemap_lint.rules.registry import CHECKS, families

    families()
    return [spec for spec in selected(enabled, CHECKS) if spec.on_fields and not proves(spec.proof)]


def notes(rules: Callable[[], frozenset[str] | None]) -> list[str]:
    """One line for each check that turns the fast path off in a run, for stderr;
    ``rules`` gives the rules the run enables (None: all), asked only when some
    registered check has no proof."""
    if not enabled() or not unproved(None):
        return []
    return [_note(spec) for spec in unproved(rules())]


def _note(spec: CheckSpec) -> str:
    """What ``notes`` says of ``spec``: a field check could declare a proof; a check of
    whole entries or their children cannot (the fast path does not build them)."""
    codes = ", ".join(sorted(spec.emits))
    whole = [t for t in spec.targets if t in (CHILDREN, ENTRY)]
    if whole:
        return (
            f"the check {spec.name} ({codes}) reads whole entries ({', '.join(whole)}), "
            "which the fast path does not build: files are read at the slower pace"
        )
    fields = ", ".join(t for t in spec.targets if t in PROVED_TARGETS)
    return (
        f"the check {spec.name} ({codes}) declares no proof for {fields}: "
        "files are read at the slower pace"
    )


def start(
    first: str, options: Options, codec: str, checker: FileChecker, parser: StreamParser
) -> FastPath | None:
    """The fast path for a file whose text starts with ``first``, or None when it
    cannot be used there; the rest is decided at the first block (``FastPath.blocks``)."""
    if not enabled() or codec != "utf-8" or options.robots:
        return None
    return FastPath(options, checker, parser, first)


class _Root:
    """What the prologue says: the root's name, where its start tag ends, the prefixes of
    the image and XHTML namespaces (None: their elements are not proved), whether an
    image's caption and title may be proved (no check of the image namespace runs)."""

    __slots__ = (
        "changefreq",
        "dated",
        "end",
        "image",
        "name",
        "news",
        "patterns",
        "raw_proved",
        "raw_reported",
        "sm",
        "titles",
        "valued",
        "video",
        "xhtml",
    )

    def __init__(self, name: str, end: int, sm: str) -> None:
        self.name = name
        self.end = end
        self.sm = sm  # the sitemap namespace's prefix and ":", or "" (the default one)
        self.image: str | None = None
        self.xhtml: str | None = None
        self.video: str | None = None
        self.news: str | None = None
        self.titles = False
        # The pattern proofs of the checks on each field, and the changefreq values all
        # of them accept (an alternation for the entry pattern).
        self.patterns: dict[str, tuple[re.Pattern[str], ...]] = {}
        self.changefreq = _CHANGEFREQ
        # Whether the date rules' check runs on lastmod, alone: a lastmod they report is
        # proved with their findings (``FastPath._dated``).
        self.dated = False
        # The fields (changefreq, priority) whose value check runs, alone: a value it
        # reports is proved with its findings (``FastPath._reported``).
        self.valued: frozenset[str] = frozenset()
        # Whether a loc with raw "&" may be proved (the checks of the markup are the
        # built-in ones, which see nothing else in such a syntax error), and whether its
        # XM004 is reported (the check that reports it runs).
        self.raw_proved = True
        self.raw_reported = True


def _root(first: str, enabled: frozenset[str] | None) -> _Root | None:
    """What the prologue says, when it is the usual one and every check enabled on the
    entry fields declares a proof the fast path knows; else None."""
    prologue = _PROLOGUE.pattern.match(first)
    if prologue is None:
        return None
    attributes: dict[str, str] = {}
    for match in _ATTRIBUTES.pattern.finditer(prologue.group(3)):
        name = match.group(1)
        if name in attributes:
            return None  # expat reports the repeated attribute
        attributes[name] = match.group(2) if match.group(2) is not None else match.group(3)
    prefix = prologue.group(1)
    if prefix is not None and prefix[:3].lower() == "xml":
        return None  # reserved: expat refuses some of them
    if attributes.get(f"xmlns:{prefix}" if prefix else "xmlns") != SITEMAP_NS:
        return None
    from sitemap_lint.engine.dispatch import selected
    from sitemap_lint.rules.registry import CHECKS, EXTENSION, families

    families()
    chosen = selected(enabled, CHECKS)
    patterns: dict[str, list[re.Pattern[str]]] = {}
    for spec in chosen:
        if not spec.on_fields:
            continue
        if not proves(spec.proof):
            return None
        if spec.proof.kind == PATTERN:
            compiled = _proof_pattern(spec.proof.regex)
            for target in spec.targets:
                patterns.setdefault(target, []).append(compiled)
    root = _Root(prologue.group(2), prologue.end(), f"{prefix}:" if prefix else "")
    markup = [spec for spec in chosen if MARKUP in spec.targets]
    root.raw_proved = all(is_builtin(spec.name) for spec in markup)
    from sitemap_lint.rules.xml import UNESCAPED_AMPERSAND

    root.raw_reported = any(UNESCAPED_AMPERSAND.code in spec.emits for spec in markup)
    root.dated = "lastmod" not in patterns and any(
        spec.proof == Proof(VALUE, "date") for spec in chosen if spec.on_fields
    )
    root.valued = frozenset(
        field
        for field in ("changefreq", "priority")
        if field not in patterns
        and any(spec.proof == Proof(VALUE, field) for spec in chosen if spec.on_fields)
    )
    if patterns:
        root.patterns = {field: tuple(found) for field, found in patterns.items()}
        accepted = [
            value
            for value in _CHANGEFREQ.split("|")
            if all(proof.fullmatch(value) for proof in root.patterns.get("changefreq", ()))
        ]
        root.changefreq = "|".join(accepted) or "(?!)"
    if root.name != "urlset":
        return root
    # The checks the dispatch would run on each namespace's elements (the last one wins).
    extension = {spec.namespace: spec for spec in chosen if EXTENSION in spec.targets}
    for name, value in attributes.items():
        if not name.startswith("xmlns:") or value not in EXTENSION_HANDOVERS:
            continue
        prefix = name[6:]
        check = extension.get(value)
        if check is not None and check.proof != stateful(EXTENSION_HANDOVERS[value]):
            continue
        if value == IMAGE_NS and root.image is None:
            root.image = prefix
        elif value == XHTML_NS and root.xhtml is None:
            root.xhtml = prefix
        elif value == VIDEO_NS and root.video is None:
            root.video = prefix
        elif value == NEWS_NS and root.news is None:
            root.news = prefix
    root.titles = IMAGE_NS not in extension
    return root


@cache
def _proof_pattern(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


# What a proved entry's extension elements leave for the checks across entries: the
# namespaces in the order they first appear ("i" image, "x" XHTML) and the alternates
# (hreflang code and normal URL, sorted; None without any xhtml:link).
_Extra = tuple[str, "tuple[tuple[str, str], ...] | None"]
# (url, scheme, host, path, lastmod moment, loc position, entry position, extra, values);
# a position is line << 32 | column; the values, for the HTML report's counts
# (``Options.stats``, else None): the lastmod, changefreq and priority as the parser reads
# them (None when missing) and the hreflang codes of the entry's xhtml:links.
_Values = tuple["str | None", "str | None", "str | None", tuple[str, ...]]
_Entry = tuple[str, str, str, str, "datetime | None", int, int, "_Extra | None", "_Values | None"]
# Each field of the entries, for a step over all of a run's entries.
_ENTRY_URL, _ENTRY_SCHEME, _ENTRY_HOST, _ENTRY_PATH, _ENTRY_MOMENT, _ENTRY_HERE = map(
    itemgetter, range(6)
)
_ENTRY_EXTRA = itemgetter(7)
_ENTRY_VALUES = itemgetter(8)


# The fewest entries without hreflang alternates entered together (fewer are entered
# one at a time with the entries around them: the steps over all of them cost more).
_TOGETHER = 16


class ProvenRun:
    """Entries proved clean, replaced by one comment; entered when expat reaches it.

    One class, longer than most: a run is entered all at once, each entry by itself or
    as news, and each way reads the same tables of the run's entries that the checks
    report on (raw "&", reported values, locs outside ASCII or with white space around
    them); split, those tables would be passed between the parts for every run."""

    __slots__ = (
        "_numbers",
        "abnormal",
        "ampersands",
        "deprecated",
        "entries",
        "fast",
        "iris",
        "news",
        "spaced",
        "values",
    )

    def __init__(self, fast: FastPath) -> None:
        self.fast = fast
        # The entries whose loc holds a raw "&", by their index in ``entries``: the line
        # and column where the loc's value starts, where each "&" stands in it.
        self.ampersands: dict[int, tuple[int, int, tuple[int, ...]]] | None = None
        # The entries whose lastmod the date rules report, or whose changefreq or priority
        # its check reports, by their index in ``entries``: each such field, the line and
        # column of its start tag, its value (``FastPath.report_value``).
        self.values: dict[int, list[tuple[str, int, int, str]]] | None = None
        # The entries whose loc holds characters outside ASCII (one UR011 each), by their
        # index in ``entries``: the loc's parts (``FastPath._iri``).
        self.iris: dict[int, re.Match[str]] | None = None
        # The entries whose loc has white space around it (UR005), by their index in
        # ``entries``: the loc's value as the parser reads it.
        self.spaced: dict[int, str] | None = None
        # Whether an entry's loc is not its own normal form: upper-case letters in its
        # host, lower-case digits in an escape.
        self.abnormal = False
        # The entries with a proved news:news, by their index in ``entries``: its
        # publication's name, where its start tag and the news:name start tag stand
        # (line << 32 | column), for the news checker's state (``FastPath.enter_news``).
        self.news: dict[int, tuple[str, int, int]] | None = None
        # The entries with images whose caption or title the image checker reports
        # (IM004), by their index in ``entries``: for each such image, its number in the
        # entry, where it starts, those children's names and places in order
        # (``FastPath.report_deprecated``).
        self.deprecated: dict[int, list[tuple[int, int, tuple[tuple[str, int], ...]]]] | None = None
        # The numbers of the entries in ``ampersands``, ``iris`` or ``spaced``, and
        # ``values``, ascending: made when the run is entered.
        self._numbers: tuple[list[int], list[int], list[int]] | None = None
        # Each entry (``_Entry``): its values, where its loc and where it starts, its
        # extension facts.
        self.entries: list[_Entry] = []

    def enter(self, checker: FileChecker) -> int:
        """Give the entries to the checks that keep state across entries, and to the
        set facts, as the full checker would; return how many entries there are."""
        fast = self.fast
        if not fast.resolved:
            fast.resolve(checker)
        # The white space before the run: the text after it is what follows its last
        # entry's end tag, as the parser gathers it without the fast path.
        gathered = fast.parser._pieces
        if gathered:
            gathered.clear()
        entries = self.entries
        fast.proved += len(entries)
        if fast.index:
            self._enter_each(checker, 0, len(entries))
            return len(entries)
        # The entries with hreflang alternates one at a time, and the stretches between
        # them together when they are long enough to gain by it.
        begin = plain = 0  # what is not entered yet; the stretch without such entries
        for number, extra in enumerate(map(_ENTRY_EXTRA, entries)):
            if extra is not None and extra[1] is not None:
                if number - plain >= _TOGETHER:
                    self._enter_each(checker, begin, plain)
                    self._enter_plain(checker, plain, number)
                    begin = number
                plain = number + 1
        if not plain or len(entries) - plain >= _TOGETHER:
            self._enter_each(checker, begin, plain)
            self._enter_plain(checker, plain, len(entries))
        else:
            self._enter_each(checker, begin, len(entries))
        return len(entries)

    def _enter_plain(self, checker: FileChecker, begin: int, end: int) -> None:
        """Enter ``entries[begin:end]``, none with alternates: at once when
        ``_enter_together`` can, else one at a time."""
        if begin >= end:
            return
        fast = self.fast
        if fast.scope is not None and fast.same_origin is None:
            self._enter_each(checker, begin, begin + 1)  # its URL sets the scope's origin
            begin += 1
        if begin < end and not self._enter_together(checker, begin, end):
            self._enter_each(checker, begin, end)

    def _enter_together(self, checker: FileChecker, begin: int, end: int) -> bool:
        """Enter ``entries[begin:end]`` at once, each step over all of them, when none can
        make a finding but for its raw "&", its loc outside ASCII, its lastmod the date
        rules report or its changefreq or priority their checks report (reported first,
        in the entries' order), its news:news (handed to the news checker after them)
        or its images' deprecated children (reported last): none has alternates (the
        checkers of the others' extension elements are made in the order they first
        appear), no two share a URL (with each other or an earlier entry),
        and each is on the origin (and in the directory) the scope check already knows.
        False, having changed nothing, when that does not hold."""
        fast = self.fast
        entries = self.entries[begin:end] if begin or end < len(self.entries) else self.entries
        urls = list(map(_ENTRY_URL, entries))
        paths = list(map(_ENTRY_PATH, entries))
        if (
            all(paths)
            and self.iris is None
            and not self.abnormal
            and not any(map(_DOT_SEGMENT.search, urls))
        ):
            normals = urls  # ``_proved_normal`` for all of them at once

        else:
            from sitemap_lint.domain.identity import normal_url

            normals = [url if _proved_normal(url) else normal_url(url) for url in urls]
        scope = fast.scope
        if scope is not None:  # the ``skip`` of _enter_each, for every entry
            if fast.same_origin is None:
                return False
            scheme, host = fast.same_origin
            if not all(map(eq, map(_ENTRY_SCHEME, entries), repeat(scheme))) or not all(
                map(eq, map(_ENTRY_HOST, entries), repeat(host))
            ):
                return False
            if scope.location is not None and not all(map(scope.surely_inside, paths)):
                return False
        keys = list(map(hash, normals))
        heres = list(map(_ENTRY_HERE, entries))
        tracker = fast.tracker
        if tracker is not None:
            seen = tracker._first
            if not seen.keys().isdisjoint(keys):
                return False
            before = len(seen)
            seen.update(zip(keys, heres, strict=True))
            if len(seen) != before + len(keys):  # two of the run's URLs are the same
                for key in keys:
                    seen.pop(key, None)
                return False
        found = self.ampersands
        numbers = self._numbers
        if numbers is None:  # the entries reported in place, in the entries' order
            numbers = self._numbers = (
                list(found or ()),
                sorted({*(self.iris or ()), *(self.spaced or ())}),
                list(self.values or ()),
            )
        if found is not None:
            fast.report_ampersands(
                self.entries, found, _within(numbers[0], begin, end), checker.entry_index + 1
            )
        first = checker.entry_index + 1
        spaced = self.spaced or {}
        iris = self.iris or {}
        for number in _within(numbers[1], begin, end):
            url, here = _ENTRY_URL(self.entries[number]), _ENTRY_HERE(self.entries[number])
            value = spaced.get(number)
            line, column = here >> 32, here & 0xFFFFFFFF
            if value is None:
                fast.report_url(first + number, line, column, url, iris[number])
            else:
                fast.report_url(first + number, line, column, value)
        values = self.values
        if values is not None:
            for number in _within(numbers[2], begin, end):
                for field, line, column, value in values[number]:
                    fast.report_value(field, first + number, line, column, value)
        if tracker is not None and normals is not urls:
            written = tracker._written
            for key, url, normal in zip(keys, urls, normals, strict=True):
                if normal != url:
                    written[key] = hash(url)
        pages = fast.pages
        if pages is not None:
            pages.hashes.extend(keys)
            pages.positions.extend(heres)
            pages.indexes.extend(range(first + begin, first + begin + len(entries)))
        facts = checker.facts
        if facts is not None:
            for moment in map(_ENTRY_MOMENT, entries):
                if moment is not None:
                    facts.add_lastmod(moment)
            facts.add_urls(urls, normals, heres, first + begin)
        stats = checker.stats
        if stats is not None:
            for moment, values in zip(
                map(_ENTRY_MOMENT, entries), map(_ENTRY_VALUES, entries), strict=True
            ):
                stats.add_values(moment, *values)
        made = fast.made
        for extra in dict.fromkeys(filter(None, map(_ENTRY_EXTRA, entries))):
            if extra[0] not in made:
                fast.make(extra[0], checker)
        if self.news is not None:
            self._enter_news(checker, begin, end)
        deprecated = self.deprecated
        if deprecated is not None:  # (each finding names its element)
            for number in _within(list(deprecated), begin, end):
                fast.report_deprecated(first + number, deprecated[number])
        return True

    def _enter_news(self, checker: FileChecker, begin: int, end: int) -> None:
        """Hand the news:news of ``entries[begin:end]`` to the news checker, in the
        entries' order, as ``_enter_each`` does."""
        fast = self.fast
        news = self.news
        assert news is not None  # (the caller's test)
        findings = checker.sink.findings
        first = checker.entry_index + 1
        for number in _within(list(news), begin, end):
            url, _scheme, _host, _path, _moment, here, start, _extra, _values = self.entries[number]
            pointed = _entry_node(
                fast.entry, start, first + number, here >> 32, here & 0xFFFFFFFF, url
            )
            before = len(findings)
            fast.enter_news(pointed, *news[number])
            if len(findings) > before:
                checker.point(pointed, range(before, len(findings)))

    def _enter_each(self, checker: FileChecker, begin: int, end: int) -> None:
        """Enter ``entries[begin:end]`` one after the other."""
        fast = self.fast
        sink = checker.sink
        tracker = fast.tracker
        seen = tracker._first if tracker is not None else None
        scope = fast.scope
        facts = checker.facts
        index = fast.index
        what = "sitemap" if index else "URL"
        pages = fast.pages
        from sitemap_lint.domain.identity import normal_url
        from sitemap_lint.domain.urls import ParsedURL

        same = fast.same_origin  # (scheme, host) of URLs known to change no scope state
        first_index = checker.entry_index + 1  # the run's first entry, among the document's
        findings = sink.findings
        ampersands = self.ampersands
        reported_values = self.values
        iris = self.iris
        spaced = self.spaced
        news = self.news
        deprecated = self.deprecated
        if pages is not None:
            add_page, add_position = pages.hashes.append, pages.positions.append
            add_index = pages.indexes.append
        location = scope.location if scope is not None else None
        stats = checker.stats
        for number, (url, scheme, host, path, moment, here, start, extra, values) in enumerate(
            self.entries[begin:end] if begin or end < len(self.entries) else self.entries, begin
        ):
            line, column = here >> 32, here & 0xFFFFFFFF
            if ampersands is not None and number in ampersands:
                fast.report_ampersands(self.entries, ampersands, (number,), first_index)
            if spaced is not None and number in spaced:
                fast.report_url(first_index + number, line, column, spaced[number])
            elif iris is not None and number in iris:
                fast.report_url(first_index + number, line, column, url, iris[number])
            before = len(findings)
            if reported_values is not None and number in reported_values:
                for field, value_line, value_column, value in reported_values[number]:
                    fast.report_value(field, first_index + number, value_line, value_column, value)
                before = len(findings)
            normal = url if _proved_normal(url) else normal_url(url)
            key = hash(normal)
            if seen is not None:
                assert tracker is not None  # seen is its table
                if seen.setdefault(key, here) != here:
                    entry = _entry_node(fast.entry, start, first_index + number, line, column, url)
                    tracker.check(url, entry.children[0], sink, what, entry)
                elif normal != url:
                    tracker._written[key] = hash(url)
            if extra is not None:
                kinds, links = extra
                if kinds not in fast.made:
                    fast.make(kinds, checker)
                if links is not None:
                    alternates = fast.alternates
                    if alternates is not None:  # the record the hreflang checker keeps
                        alternates._records.add(normal, start, links, first_index + number)
                elif pages is not None:
                    add_page(key)
                    add_position(here)
                    add_index(first_index + number)
            elif pages is not None:  # an entry without alternates
                add_page(key)
                add_position(here)
                add_index(first_index + number)
            if scope is not None:
                if location is None:
                    skip = same == (scheme, host)
                else:
                    skip = same == (scheme, host) and scope.surely_inside(path)
                if not skip:
                    default = 443 if scheme == "https" else 80
                    parsed = ParsedURL(scheme, host, default, path or "/")
                    # The entry, for the fix that removes it.
                    entry = _entry_node(fast.entry, start, first_index + number, line, column, url)
                    scope.check(parsed, entry.children[0], sink, entry)
                    # Without a location, URLs on the first URL's origin change nothing;
                    # with one, URLs on its origin and in its directory do not.
                    first = scope._first if location is None else None
                    origin = first[0] if first is not None else location and location.origin
                    if origin == f"{scheme}://{host}":
                        same = fast.same_origin = (scheme, host)
            pointed: Node | None = None  # the entry, for the pointers of its findings
            if news is not None and number in news:  # after the loc's checks, as theirs
                pointed = _entry_node(fast.entry, start, first_index + number, line, column, url)
                fast.enter_news(pointed, *news[number])
            if deprecated is not None and number in deprecated:
                fast.report_deprecated(first_index + number, deprecated[number])
            if len(findings) > before:  # a finding of the checks above: name its element
                if pointed is None:
                    pointed = _entry_node(
                        fast.entry, start, first_index + number, line, column, url
                    )
                checker.point(pointed, range(before, len(findings)))
            if stats is not None and values is not None:
                stats.add_values(moment, *values)
            if facts is not None:
                if moment is not None:
                    facts.add_lastmod(moment)
                if index:
                    from sitemap_lint.sets.facts import Child

                    facts.children.append(Child(url, line, column, moment, first_index + number))
                else:
                    facts.add_url(url, line, column, normal, first_index + number)


_Fact = TypeVar("_Fact")


def _joined(
    kept: dict[int, _Fact] | None, taken: dict[int, _Fact] | None, first: int
) -> dict[int, _Fact] | None:
    """A run's facts by entry number (``kept``) with a window's (``taken``), whose first
    entry is the run's ``first``th."""
    if taken is None:
        return kept
    if kept is None:
        kept = {}
    kept.update(zip(map(add, taken, repeat(first)), taken.values(), strict=True))
    return kept


def _within(numbers: list[int], begin: int, end: int) -> list[int]:
    """The ``numbers`` (ascending) from ``begin`` up to ``end``."""
    return numbers[bisect_left(numbers, begin) : bisect_left(numbers, end)]


def _entry_node(name: str, start: int, index: int, line: int, column: int, url: str) -> Node:
    """A proved entry as the checks and the pointers see it: its start tag and its loc
    (``url``, as the parser reads it: a fix that removes the entry looks at it)."""
    entry = Node(SITEMAP_NS, name, {}, start >> 32, start & 0xFFFFFFFF)
    entry.index = index
    loc = Node(SITEMAP_NS, "loc", {}, line, column)
    loc.text = url
    entry.children.append(loc)
    return entry


class FastPath:
    """The fast path over one file's decoded blocks (see the module's documentation).

    One class, longer than most: ``_prove`` is the loop that runs once an entry, and the
    proofs it calls keep their per-file caches here; its helpers are methods so that the
    loop reaches them and their caches through locals bound once a block."""

    def __init__(
        self,
        options: Options,
        checker: FileChecker,
        parser: StreamParser,
        first: str,
    ) -> None:
        self.options = options
        self.checker = checker
        self.parser = parser
        # The decoder's offsets (text before the first block): a parser restarted after a
        # syntax error has others, but the blocks are counted from the start of the text.
        self._offsets = (parser.line_offset, parser.column_offset)
        self._first: str | None = first  # the start of the text, for its prologue
        from sitemap_lint.rules.dates import check_date
        from sitemap_lint.rules.urls import iri_parts

        # (Called for each new lastmod, each loc outside ASCII: imported once a file.)
        self._check_date = check_date
        self._iri_parts = iri_parts
        # Set at the first block, from the root.
        self.index = False
        self.entry = "url"
        self._line_re: re.Pattern[str] | None = None
        self._plain_line: Callable[[], re.Pattern[str]] | None = None
        self._spaced = False  # see _spaced_locs
        self._long_urls = False  # the entry pattern delimits locs as _LONG_LOC does
        self._open = self._close = self._changefreq_tag = ""
        self._loc_tag = 5
        self._entry_tag: re.Pattern[str] | None = None
        self._skip = 0  # the prologue, in the first block
        self.active = True
        self.depth = 1
        self.entries_bound = 0  # at least as many entries as stand before the scan position
        # File coordinates (less the offsets) of the start of the next text handed over.
        self._line = 1
        self._column = 0
        # Per block (the last three), by file line: the parts of lines that runs blank,
        # as (0-based column as read, length as read, text, start, end), for the context
        # of a syntax error there.
        self._blanked: deque[dict[int, list[tuple[int, int, str, int, int]]]] = deque(maxlen=3)
        # The file lines the last blocks start on: the parser forgets where it read
        # lines shorter before them (``StreamParser.shortened``).
        self._starts: deque[int] = deque(maxlen=16)
        self._lastmods: dict[str, Any] = {}
        self._bulk: Bulk | None = None  # made with the first window (``_bulk_window``)
        self._bulk_pause = _BULK_AGAIN  # entries from a short window to the next
        self._bulk_from = _BULK_FROM  # the entry count from which a window is tried
        self._hosts: set[str] = set()
        # Whether a host only a local machine or network reaches leaves its URL unproved
        # (UR019, a code the run reports).
        self._local_hosts_reported = options.enabled is None or "UR019" in options.enabled
        # Whether the loc of an entry proved with ``_iri`` is checked for its one finding
        # (UR011, a code the run reports).
        self._iris_reported = options.enabled is None or "UR011" in options.enabled
        self._priorities: dict[str, bool] = {}
        self._escape_spans: dict[str, Any] = {}  # see _escapes
        # The pattern proofs of the enabled checks, by field (set with the root).
        self._patterns: dict[str, tuple[re.Pattern[str], ...]] = {}
        # The values proved as the entry pattern has them, then the others (with
        # references) once looked at: whether each is proved.
        self._proved_changefreqs: frozenset[str] = frozenset()
        self._changefreqs: dict[str, bool] = {}
        self._dated = False  # see _Root.dated
        self._valued: frozenset[str] = frozenset()  # see _Root.valued
        self._reporting_values: dict[str, tuple[Any, str, str, WrittenNode, _InPlace]] = {}
        self._raw_proved = self._raw_reported = True  # see _Root.raw_proved
        self._dated_moments: dict[str, Any] = {}  # see _dated_moment
        self._reporting_urls: tuple[Any, Any, str, str, WrittenNode, _InPlace] | None = None
        self.found_run = False  # see GIVE_UP
        self.collect = checker.facts is not None
        # The state that runs are entered into, found at the first run (the checks are
        # made when expat reads the root).
        self.resolved = False
        self.tracker: Any = None
        self.scope: Any = None
        self.pages: Any = None  # the hreflang check's record of entries without alternates
        self.same_origin: tuple[str, str] | None = None
        self.proved = 0  # entries proved in the file, for tests and benchmarks
        # Raw "&" in proved locs: reported when their runs are entered, counted before.
        self.raw_errors = 0
        self.raw_bound = 0
        self._loc_pointer: tuple[str, str] | None = None  # see report_ampersands, report_url
        self._url_ampersands: Callable[..., list[Finding]] | None = None
        # The extension elements: their pattern (made with the root), the checkers of their
        # namespaces (made at the first entry that holds their elements, as the dispatch
        # makes them), and caches of proved values.
        self._items: re.Pattern[str] | None = None
        self._titles = False
        self._titled: tuple[str, str] | tuple[()] = ()  # caption and title start tags
        self._marks: re.Pattern[str] | None = None  # a comment or those tags, made at first use
        self._image_locs: re.Pattern[str] | None = None
        # An image URL up to its third "/" (its scheme and host, proved), or no URL's start.
        self._image_prefix = "\0"
        self._link_values: re.Pattern[str] | None = None
        self._links: re.Pattern[str] | None = None  # any proved link (``_link``)
        # A link's pattern by the order of its attributes (``_reordered_links``).
        self._ordered_links: dict[tuple[str, ...], re.Pattern[str]] = {}
        self._image_tag = self._link_tag = ""
        self._link_starts: re.Pattern[str] | None = None  # see _values
        self.made: set[str] = set()  # the namespace orders ("i", "x", "ix", "xi", "v") seen
        self._video: VideoProof | None = None  # made with the root
        self.alternates: Any = None  # the hreflang checker, once made
        # The images of the last entry ``_extensions_slowly`` proved whose caption or title
        # the image checker reports (IM004): their number in the entry, where they start
        # in the entry's extension text, and those children's names and places, in order.
        self.deprecated: list[tuple[int, int, tuple[tuple[str, int], ...]]] = []
        self._news: NewsProof | None = None  # made with the root
        self._image_steps: dict[str, str] | None = None  # see report_deprecated
        # The sink as each extension's findings reach it, naming its elements as the
        # file writes them (``extension.as_written``), made at first use.
        self._written_sinks: dict[str, Any] = {}
        self.news: Any = None  # the news checker, once made
        self._codes: dict[str, str | None] = {}  # hreflang value -> its code, if proved
        self._hrefs: dict[str, str | None] = {}  # href -> its normal form, if proved
        # The text of an entry's links -> (their pairs, their normal URLs), when proved.
        self._link_sets: dict[str, tuple[Any, frozenset[str]]] = {}

    def make(self, kinds: str, checker: FileChecker) -> None:
        """The extension checkers of ``kinds``, in that order, as the dispatch makes them
        at the first entry that holds their elements."""
        self.made.add(kinds)
        dispatch = checker.dispatch
        if dispatch is None:
            return
        for kind in kinds:
            made = dispatch._extension(_KIND_NAMESPACES[kind])
            if kind == "x":
                self.alternates = made
            elif kind == "n":
                self.news = made

    def enter_news(self, entry: Node, name: str, news_here: int, name_here: int) -> None:
        """Hand a proved news:news (its publication's ``name``, where it and its news:name
        start) to the file's news checker, as a child of ``entry`` (which names it in
        pointers)."""
        from sitemap_lint.rules.news import NAMESPACE

        if self.news is None:
            return  # no news check runs
        news = Node(NAMESPACE, "news", {}, news_here >> 32, news_here & 0xFFFFFFFF)
        publication = Node(NAMESPACE, "publication", {}, news.line, news.column)
        news.children.append(publication)
        publication.children.append(
            Node(NAMESPACE, "name", {}, name_here >> 32, name_here & 0xFFFFFFFF)
        )
        entry.children.append(news)
        self.news.enter_proved(entry, news, name, self._written_sink(NAMESPACE))

    def _written_sink(self, namespace: str) -> Any:
        """The sink the findings on ``namespace``'s elements go to (``as_written``)."""
        sink = self._written_sinks.get(namespace)
        if sink is None:
            from sitemap_lint.rules.extension import as_written

            sink = as_written(self.checker.sink, namespace, self.parser.prefixes)
            self._written_sinks[namespace] = sink
        return sink

    def report_deprecated(
        self, index: int, images: list[tuple[int, int, tuple[tuple[str, int], ...]]]
    ) -> None:
        """Report the captions and titles of the images of a proved entry, the
        ``index``th of the document, as the image checker does (IM004, and IM006 for a
        title before the caption), naming each element as ``FileChecker.point`` does."""
        from sitemap_lint.rules.image import NAMESPACE, check_order, deprecated_children

        steps = self._image_steps
        if steps is None:
            from sitemap_lint.model import pointer_step

            prefixes = self.parser.prefixes
            names = ("image", "caption", "title")
            steps = self._image_steps = {
                name: pointer_step(NAMESPACE, name, prefixes) for name in names
            }
        if self._loc_pointer is None:
            self._loc_pointer = self.checker.child_pointer(SITEMAP_NS, self.entry, "loc")
        head = self._loc_pointer[0]
        add = self._written_sink(NAMESPACE).add
        for number, image_here, spans in images:
            # (An image holds children: its step is numbered.)
            path = f"{head}{index}]/{steps['image']}[{number}]/"
            places = {here: name for name, here in spans}
            first_name, first = spans[0]
            written = [f"<image:{name}>" for name, _here in spans]
            finding = deprecated_children(written, first >> 32, first & 0xFFFFFFFF)
            add(finding.with_xpath(path + steps[first_name]))
            if first_name == "title" and len(spans) == 2:
                image = Node(NAMESPACE, "image", {}, image_here >> 32, image_here & 0xFFFFFFFF)
                image.children.append(Node(NAMESPACE, "loc", {}, image.line, image.column))
                for name, here in spans:
                    line, column = here >> 32, here & 0xFFFFFFFF
                    image.children.append(Node(NAMESPACE, name, {}, line, column))
                found = _Collect()
                check_order(image, found)
                for order in found.findings:
                    at = places[order.line << 32 | order.column]
                    add(order.with_xpath(path + steps[at]))

    def resolve(self, checker: FileChecker) -> None:
        """Find the checks that take the proved entries (their ``stateful`` proofs)."""
        self.resolved = True
        dispatch = checker.dispatch
        handovers = dispatch.handovers if dispatch is not None else {}
        duplicates = handovers.get("duplicates")
        if duplicates is not None:
            self.tracker = duplicates.tracker
        scope = handovers.get("scope")
        if scope is not None:
            self.scope = scope.scope
        pages = handovers.get("pages")
        if pages is not None and pages.urlset:
            self.pages = pages.pages

    # -- the blocks ------------------------------------------------------------------

    def blocks(self, blocks: Iterable[str]) -> Iterator[str]:
        """The blocks as the parsers read them: proved runs turned into comments.

        The blocks keep their boundaries, so the parsers see the same chunks as
        without the fast path, each shorter by its runs. An entry split across a boundary goes to
        the full checker; the end of each block (its last line) is looked at again
        with the next one, for the depth and the entry count.
        """
        iterator = iter(blocks)
        first = next(iterator, None)
        if first is None:
            return
        second = next(iterator, None)
        root = None
        if second is not None or len(first) >= SMALL:  # a small file is quick enough anyway
            assert self._first is not None  # set in __init__
            root = _root(self._first, self.options.enabled)
        self._first = None
        if root is None:
            yield first
            if second is not None:
                yield second
            yield from iterator
            return
        self.index = root.name == "sitemapindex"
        self.entry = "sitemap" if self.index else "url"
        sm = root.sm
        self._open, self._close = f"<{sm}{self.entry}>", f"</{sm}{self.entry}>"
        self._changefreq_tag = f"<{sm}changefreq>"
        self._loc_tag = len(sm) + 5  # "<loc>" with the prefix
        self._entry_tag = re.compile(rf"<(?:[^\s<>/!?\"':]+:)?{self.entry}[\s/>]")
        self._long_urls = _long_urls(first, sm)
        self._spaced = _spaced_locs(first, sm)
        # The entry pattern without extension elements, and with those the root declares.
        plain = partial(
            _entry_line,
            self.entry,
            self.index,
            long_urls=self._long_urls,
            sm=sm,
            changefreq=root.changefreq,
            spaced=self._spaced,
        )
        extensions = {
            "image": root.image,
            "xhtml": root.xhtml,
            "video": root.video,
            "news": root.news,
        }
        self._line_re = plain(**extensions)
        # What compiles the plain one (``bulk.Bulk``), in a file that declares any.
        declared = any(prefix is not None for prefix in extensions.values())
        self._plain_line = plain if declared else None
        if root.video is not None:
            from sitemap_lint.fastpath.video import VideoProof

            self._video = VideoProof(
                root.video,
                self._url,
                _EXT_URL,
                _decoded,
                _LASTMOD.pattern,
                self.options.now,
            )
        if root.news is not None:
            from sitemap_lint.fastpath.news import NewsProof

            self._news = NewsProof(root.news, _decoded, _LASTMOD.pattern, self.options.now)
        self._patterns = root.patterns
        self._dated = root.dated
        self._valued = root.valued
        self._raw_proved, self._raw_reported = root.raw_proved, root.raw_reported
        self._proved_changefreqs = frozenset(root.changefreq.split("|"))
        if root.image is not None or root.xhtml is not None:
            self._items = re.compile(_extension_items(root.image, root.xhtml)[1])
        if root.image is not None:
            i = re.escape(root.image)
            # (The entry pattern matched each, a URL in a CDATA section or not.)
            self._image_locs = re.compile(rf"<{i}:loc>(?:<!\[CDATA\[)?([^<\]]*)(?:]]>)?</{i}:loc>")
            self._image_tag = f"<{root.image}:image>"
            self._titled = (f"<{root.image}:caption>", f"<{root.image}:title>")
        if root.xhtml is not None:
            x = re.escape(root.xhtml)
            # The usual link, its attributes in the usual order and double quotes.
            self._link_values = re.compile(
                rf'<{x}:link{_WS}+rel="alternate"{_WS}+hreflang="([A-Za-z0-9-]{{1,35}})"'
                rf'{_WS}+href="({_IMAGE_URL})"{_WS}*/>'
            )
            self._links = re.compile(_link(root.xhtml))
            self._link_tag = f"<{root.xhtml}:link"
        self._titles = root.titles
        self._skip = root.end
        carry = ""  # the end of the previous block, handed over but not looked at yet
        parser = self.parser
        parser.restore_context = self.restore
        try:
            for block in chain((first,), () if second is None else (second,), iterator):
                if self.active and (
                    parser.syntax_errors != self.raw_errors + parser.entry_repairs or parser.failed
                ):
                    # After a syntax error that made the parser skip text, it reads on from
                    # where it recovers: the rest goes to the full checker. An error repaired
                    # in its entry (the entry read again) skips nothing.
                    self._stop()
                if not self.active:
                    yield block
                    continue
                text = carry + block if carry else block
                self._blanked.append({})
                if len(self._starts) == self._starts.maxlen:
                    parser.forget_shortened(self._starts[0])
                self._starts.append(self._line + self._offsets[0])
                out, cut = self._prove(text, len(carry))
                self._advance(text, cut, out, len(carry))
                carry = text[cut:] if self.active else ""
                yield out
        finally:
            self._bulk = None  # (it refers back to this object)

    def restore(self, context: str, line: int, column: int, at: int) -> tuple[str, int]:
        """``context``, the text of file line ``line`` from 0-based column ``column`` on
        as the parser read it, and ``at``, a place in it (not in a run): the same text
        as the file has it (each run's comment that it shows a part of, the run's whole
        part of the line), cut around the place as the parser cuts its own, and the
        place in it."""
        pieces: list[str] = []
        done = 0  # context[:done] is in pieces
        place = at
        end_column = column + len(context)
        for blanked in self._blanked:
            for read, length, text, start, end in blanked.get(line, ()):
                low, high = max(read, column) - column, min(read + length, end_column) - column
                if low < high:
                    pieces.append(context[done:low])
                    pieces.append(text[start:end])
                    done = high
                    if high <= at:
                        place += end - start - (high - low)
        if not pieces:
            return context, at
        pieces.append(context[done:])
        return cut_context("".join(pieces), place)

    def _advance(self, text: str, end: int, out: str, fixed: int) -> None:
        """The file coordinates of ``text[end]``, from those of ``text[0]``; ``out`` is
        ``text[fixed:]`` as handed over, with the same line breaks in its runs' comments
        and ``text[end:]`` unchanged at its end (fewer characters to count)."""
        newline = text.rfind("\n", 0, end)
        if newline >= 0:
            if end <= fixed:
                self._line += text.count("\n", 0, end)
            else:
                tail = len(text) - end
                self._line += text.count("\n", 0, fixed) + out.count("\n", 0, len(out) - tail)
            self._column = end - newline - 1
        else:
            self._column += end

    def _stop(self) -> None:
        self.active = False

    def _past_limit(self) -> bool:
        """Whether the checker has read the first entry past the 50,000 allowed (LM001
        stands at it): every entry after it may be proved."""
        return self.checker.count > MAX_ENTRIES

    def _prove(self, text: str, fixed: int) -> tuple[str, int]:
        """Prove what can be proved in ``text[fixed:]`` (the new block; what stands
        before it was handed over already): (the block as handed over, where the
        text not yet looked at starts)."""
        if self._skip > len(text):
            if len(text) > MAX_CARRY:
                self._stop()
            return text[fixed:], 0  # the prologue continues in the next block
        if "\r" in text:
            lone = LONE_CR.search(text)
            if lone is not None and lone.start() < len(text) - 1:  # (its LF may come next)
                self._stop()  # expat counts a lone CR as a line break: positions would differ
                return text[fixed:], len(text)
        position = self._skip
        root_end = self._skip or -1  # where the root's start tag ends, in the first block
        self._skip = 0
        pieces: list[str] = []
        done = fixed  # text[fixed:done] is in pieces
        assert self._line_re is not None  # made with the root
        # A scanner matches where its last match ended, without setting up the engine
        # again for each entry (CPython's; about 1,000 instructions less an entry).
        scanner: Callable[[str, int], Any] = self._line_re.scanner  # type: ignore[attr-defined]
        count, rfind = text.count, text.rfind
        hosts, lastmods, priorities = self._hosts, self._lastmods, self._priorities
        changefreqs = self._changefreqs
        long_urls = self._long_urls
        loc_proofs = self._patterns.get("loc")
        spaced_locs = self._spaced  # the entry pattern takes white space around a loc
        counting = self.checker.stats is not None and not self.index  # the HTML report's
        # Long URLs or the loc's pattern proofs: tested once an entry when neither is.
        strict_loc = long_urls or loc_proofs is not None
        # The entry count from which windows of entries are proved at once (bulk.py).
        bulk_from = (
            _NO_BULK
            if self.index or counting or spaced_locs or loc_proofs is not None
            else self._bulk_from
        )
        find = text.find
        from sitemap_lint.rules.urls import ESCAPE_TEXT

        escaped_as_text = ESCAPE_TEXT.search  # UR017's: such a loc goes to the full checker
        opener, closer = self._open, self._close
        opened = len(opener)
        loc_tag = self._loc_tag
        runs = self.checker.proven
        line_offset, column_offset = self._offsets
        blanked = self._blanked[-1]
        parser = self.parser
        # The parser line at an offset of text, and where that line starts in text (before
        # 0 on the text's first line: it starts self._column characters before text).
        counted_at, counted_line, counted_begin = 0, self._line, -self._column
        run_line = run_begin = 0  # the parser line of the current run's start, its column

        def blank(start: int, end: int, breaks: int) -> str:
            """The run ``text[start:end]`` (``breaks`` line breaks, no lone CR) as a
            short comment with the same line breaks: every line stays where it is, and
            the parser maps the columns after it on its last line back to the file's
            (``StreamParser.shortened``). The parts of lines it blanks are kept for the
            context of a syntax error."""
            line = run_line + line_offset
            read = parser.read_column(line, run_begin - 1)
            if not breaks:
                blanked.setdefault(line, []).append((read, 7, text, start, end))
                parser.shortened(line, run_begin - 1 + end - start, end - start - 7)
                return "<!---->"
            first = find("\n", start, end)
            last = rfind("\n", first, end)
            cr = text[first - 1] == "\r"
            blanked.setdefault(line, []).append((read, 4, text, start, first - cr))
            blanked.setdefault(line + breaks, []).append((0, 3, text, last + 1, end))
            parser.shortened(line + breaks, end - last - 1, end - last - 4)
            return "<!--" + "\r" * cr + "\n" * breaks + "-->"

        while self.active:
            if self.depth != 1:
                close = find(closer, position)
                if close < 0:
                    break
                self._scan(text, position, close + len(closer))
                position = close + len(closer)
                continue
            found = find(opener, position)
            if found < 0:
                break
            if found < fixed:  # handed over already: the full checker takes it
                self._scan(text, position, found + opened)
                position = found + opened
                continue
            self._scan(text, position, found)
            position = found
            if self.depth != 1 or not self.active:
                continue
            if not self._after_tag(text, found, root_end):
                # Text before the entry: expat reports it at the entry's tag, so the
                # full checker takes the entry.
                self._scan(text, position, found + opened)
                position = found + opened
                continue
            run: ProvenRun | None = None
            run_start = -1
            run_end = -1  # where the run's last entry ends
            entries: list[_Entry] = []
            bound = self.entries_bound
            next_entry = scanner(text, position).match
            while True:
                found_match = next_entry()
                if found_match is None:
                    break
                # The values, proved with the strict patterns (through the caches).
                (
                    whole,
                    _s,
                    cdata,
                    url,
                    scheme,
                    host,
                    path,
                    lastmod,
                    changefreq,
                    priority,
                    ext,
                    _t,
                ) = found_match.groups()
                if whole is None:
                    break  # no entry of the plain shape here (the rest of the text matched)
                if bound >= MAX_ENTRIES and not self._past_limit():
                    # This entry may be the 50,001st, where LM001 stands: the full checker
                    # takes the rest of the block, and proving goes on after it.
                    break
                raw = None
                # White space around the loc (UR005, reported in place with the value as
                # written: ``report_url``); not with an "&" (a raw one's place is counted
                # from the value's start, a reference's fix is not exact).
                value_at, value_end = found_match.span(4)
                spaced = (
                    spaced_locs
                    and cdata is None
                    and (text[value_at - 1] != ">" or text[value_end] != "<")
                )
                unspaced = spaced and "&" in url  # (as written: before references are read)
                # The loc holds references, read as expat reads them, or is in a CDATA
                # section, read as written ("&" included).
                referred = cdata is not None
                if "&" in url and not referred:
                    read = _decoded_loc(url, scheme, host, path)
                    if read is not None:
                        referred = True
                        url, scheme, host, path = read
                if (not referred or cdata is not None) and "#" in url:
                    url = ""  # a fragment
                # (A host with upper-case letters, or a URL without a path or with dot
                # segments, is not in its canonical form: UR018, the full checker's.)
                proved = (
                    12 <= len(url) <= MAX_LOC
                    and (host in hosts or self._host(host))
                    and _canonical(url)
                )
                abnormal = False  # the loc is not its own normal form
                if unspaced:
                    proved = False
                iri = proved and not url.isascii()
                if iri:  # one UR011, reported in place (``report_url``)
                    parts = None if referred or long_urls else self._iri(url)
                    proved = parts is not None
                if strict_loc and proved:
                    if long_urls:  # the loc as _LONG_LOC delimits it (decoded)
                        proved = url.isascii() and not url.encode().translate(None, _URL_BYTES)
                        if path:
                            query = path.find("?")
                            if query >= 0:
                                path = path[:query]
                    if proved and loc_proofs is not None:
                        proved = all(proof.fullmatch(url) for proof in loc_proofs)
                if proved and "%" in url:
                    verdict = self._escapes(url)
                    proved = verdict is not False
                    abnormal = abnormal or verdict is _LOWER  # lower-case digits
                if proved and ";" in url and "&" in url and escaped_as_text(url) is not None:
                    proved = False  # an escape as text (UR017)
                if proved and "&" in url and not referred:
                    raw = (
                        self._ampersands(text, value_at, found_match.start(2), url)
                        if self._raw_proved
                        else None
                    )
                    proved = raw is not None
                extra = None
                if proved and ext:
                    extra = self._extensions(text, found_match.start(11), found_match.end(11), url)
                    proved = extra is not _NOT_PROVED
                moment = None
                # The values proved with the findings of their checks (``report_value``).
                reported: list[tuple[str, int, str]] | None = None
                in_cdata = False  # a lastmod or priority in a CDATA section (_IN_CDATA)
                if lastmod is not None and lastmod[0] == "<":
                    lastmod, in_cdata = lastmod[9:-3], True
                if priority is not None and priority[0] == "<":
                    priority, in_cdata = priority[9:-3], True
                if proved and lastmod is not None:
                    moment = lastmods.get(lastmod, _UNKNOWN)
                    if moment is _UNKNOWN:
                        moment = self._lastmod(lastmod)
                    if moment is _NOT_PROVED and self._dated and not in_cdata:
                        moment = self._dated_moments.get(lastmod, _UNKNOWN)
                        if moment is _UNKNOWN:
                            moment = self._dated_moment(lastmod)
                        if moment is not _NOT_PROVED:  # the date rules report it
                            reported = [("lastmod", found_match.start(8), lastmod)]
                    proved = moment is not _NOT_PROVED
                if proved and changefreq is not None:
                    verdict = changefreqs.get(changefreq)
                    if verdict is None:
                        verdict = self._changefreq(changefreq)
                    proved = verdict is not False
                    if verdict is _REPORTED:
                        reported = reported or []
                        reported.append(("changefreq", found_match.start(9), changefreq))
                if proved and priority is not None:
                    verdict = priorities.get(priority)
                    if verdict is None:
                        verdict = self._priority(priority)
                    proved = verdict is not False and not (verdict is _REPORTED and in_cdata)
                    if verdict is _REPORTED:
                        reported = reported or []
                        reported.append(("priority", found_match.start(10), priority))
                position = found_match.end()
                bound += 1
                if not proved:
                    if run is not None:
                        pieces.append(text[done:run_start])
                        done = run_end
                        breaks = counted_line + count("\n", counted_at, done) - run_line
                        pieces.append(blank(run_start, done, breaks))
                        run = None
                    continue
                # Where the entry's and the <loc> tag start, in file coordinates
                # (parser.position); the entry's for the fix that removes a duplicate.
                at = found_match.start(2)
                breaks = count("\n", counted_at, at)
                if breaks:
                    counted_line += breaks
                    counted_begin = rfind("\n", counted_at, at) + 1
                line = counted_line
                column = at - counted_begin + 1
                if line == 1:
                    column += column_offset
                entry_at = ((line + line_offset) << 32) | column
                if run is None:
                    self.found_run = True
                    run = ProvenRun(self)
                    entries = run.entries
                    run_start = at
                    runs[line + line_offset, column] = run
                    run_line, run_begin = line, column
                if spaced:
                    tag = rfind("<", at, value_at)
                else:
                    tag = value_at - loc_tag - (9 if cdata else 0)
                if tag - at == opened:  # <loc> right after the entry's start tag
                    column += opened
                else:
                    newline = rfind("\n", at, tag)
                    if newline >= 0:  # the loc on a later line
                        line += count("\n", at, tag)
                        column = tag - newline
                        counted_begin = newline + 1
                    else:
                        column += tag - at
                # No line break in a tag or a URL (around a spaced one, they are counted).
                counted_at = tag + loc_tag if spaced else value_end
                counted_line = line
                loc_line = line + line_offset
                entries.append(
                    (
                        url,
                        scheme,
                        host,
                        path or "",
                        moment,
                        loc_line << 32 | column,
                        entry_at,
                        extra,
                        None if not counting else self._values(found_match, changefreq),
                    )
                )
                if iri:
                    assert parts is not None  # (proved)
                    if run.iris is None:
                        run.iris = {}
                    run.iris[len(entries) - 1] = parts
                if abnormal:
                    run.abnormal = True
                if spaced:
                    if run.spaced is None:
                        run.spaced = {}
                    written = text[tag + loc_tag : find("<", value_end)]
                    run.spaced[len(entries) - 1] = written  # its "\r\n" read by report_url
                if raw is not None:
                    if run.ampersands is None:
                        run.ampersands = {}
                    # The value starts after "<loc>" (with the prefix).
                    run.ampersands[len(entries) - 1] = (loc_line, column + loc_tag, raw)
                    self.raw_bound += len(raw)
                if reported is not None:
                    if run.values is None:
                        run.values = {}
                    places = []
                    for field, field_value_at, value in reported:
                        # Where the field's start tag starts: on the loc's line or a later one.
                        # ("<lastmod>" is len("lastmod") - 3 characters longer than "<loc>".)
                        field_tag = field_value_at - loc_tag - len(field) + 3
                        places.append(
                            (field, *text_place(text, tag, loc_line, column, field_tag), value)
                        )
                    run.values[len(entries) - 1] = places
                if extra is not None and ("n" in extra[0] or self.deprecated):
                    # Where the elements in the entry's extension text that the run
                    # reports on stand, in file coordinates (line << 32 | column): on the
                    # loc's line or a later one.
                    ext_at = found_match.start(11)
                    spots: dict[int, int] = {}
                    news = self._news
                    offsets = [
                        at
                        for _number, image_at, spans in self.deprecated
                        for at in (image_at, *(child_at for _name, child_at in spans))
                    ]
                    if "n" in extra[0]:
                        assert news is not None  # the kind of its extras
                        offsets += (news.news_at, news.name_at)
                    for offset in offsets:
                        line_at, column_at = text_place(
                            text, tag, loc_line, column, ext_at + offset
                        )
                        spots[offset] = line_at << 32 | column_at
                    if "n" in extra[0]:
                        assert news is not None
                        if run.news is None:
                            run.news = {}
                        run.news[len(entries) - 1] = (
                            news.name,
                            spots[news.news_at],
                            spots[news.name_at],
                        )
                    if self.deprecated:
                        if run.deprecated is None:
                            run.deprecated = {}
                        run.deprecated[len(entries) - 1] = [
                            (
                                number,
                                spots[image_at],
                                tuple((name, spots[at]) for name, at in spans),
                            )
                            for number, image_at, spans in self.deprecated
                        ]
                run_end = position
                if bound >= bulk_from:
                    # The next window of plain entries of one layout, at once (bulk.py).
                    window = self._bulk_window(
                        text, position, counted_line, counted_at, counted_begin, bound
                    )
                    taken = 0 if window is None else len(window.entries)
                    plain_only = self._bulk is not None and self._bulk.plain_only
                    if taken >= (_BULK_SHORT_EXTENDED if plain_only else _BULK_SHORT):
                        self._bulk_pause = _BULK_AGAIN
                    elif self._bulk is not None and self._bulk.refused:
                        bulk_from = self._bulk_from = bound + taken + self._bulk_pause
                        self._bulk_pause *= 2
                    if window is not None:
                        first = len(entries)
                        run.values = _joined(run.values, window.values, first)
                        run.iris = _joined(run.iris, window.iris, first)
                        run.news = _joined(run.news, window.news, first)
                        run.deprecated = _joined(run.deprecated, window.deprecated, first)
                        entries.extend(window.entries)
                        bound += len(window.entries)
                        position = run_end = counted_at = window.end
                        counted_line, counted_begin = window.line, window.line_begin
                        next_entry = scanner(text, position).match
            self.entries_bound = bound
            if run is not None:
                pieces.append(text[done:run_start])
                done = run_end
                breaks = counted_line + count("\n", counted_at, done) - run_line
                pieces.append(blank(run_start, done, breaks))
            if not self.active:
                break
            if position == found:
                # The entry at ``found`` is not of the plain shape, or not complete yet.
                close = find(closer, found)
                if close < 0:
                    break
                self._scan(text, position, close + len(closer))
                position = close + len(closer)
        if not self.found_run and self.entries_bound >= GIVE_UP:
            self._stop()  # entries of a shape it does not prove: the scan is wasted work
        # The rest is looked at up to a pending entry (one not complete yet), or else to
        # the start of its last line (a long one: its last tag); from there on, again
        # with the next block.
        cut = len(text)
        if self.active:
            cut = find(opener, position)
            if cut < 0:
                cut = max(rfind("\n", position) + 1, position)
                if len(text) - cut > MAX_CARRY:
                    cut = max(rfind("<", cut), cut)
            if len(text) - cut > MAX_CARRY:
                # A tag cut in two would be miscounted: no fast path for the rest.
                self._stop()
                cut = len(text)
            else:
                self._scan(text, position, cut)
        pieces.append(text[done:])
        return "".join(pieces), cut

    def _after_tag(self, text: str, start: int, root_end: int) -> bool:
        """Whether only white space, comments and instructions (as a run may hold between
        its entries) stand between the end of an entry (or of the root's start tag) and
        ``start``: then no character data precedes a run there."""
        end = start
        skipped = False
        while True:
            while end > 0 and text[end - 1] in " \t\r\n":
                end -= 1
            if end >= 7 and text.endswith("-->", 0, end):
                end = text.rfind("<!--", 0, end - 3)
            elif end >= 4 and text.endswith("?>", 0, end):
                end = text.rfind("<?", 0, end - 2)
            else:
                break
            if end < 0:
                return False
            skipped = True
        closer = self._close
        if end != root_end and not (
            end >= len(closer) and text.startswith(closer, end - len(closer))
        ):
            return False
        # Read forward from the tag, what was read back is exactly such a gap.
        return not skipped or _BETWEEN.pattern.fullmatch(text, end, start) is not None

    def _scan(self, text: str, start: int, end: int) -> None:
        """Follow the depth and the entry count through text the full checker takes."""
        if start >= end or not self.active:
            return
        stretch = text[start:end]
        if "<!" in stretch or "<?" in stretch:
            stretch = _SPECIAL.pattern.sub("", stretch)
            if "<!" in stretch or "<?" in stretch:
                self._stop()  # a comment, CDATA section or instruction is not closed here
                return
        opened = stretch.count("<")
        if not opened:
            return
        closed = stretch.count("</")
        self.depth += opened - 2 * closed - len(_SELF_CLOSING.pattern.findall(stretch))
        assert self._entry_tag is not None  # made with the root
        self.entries_bound += len(self._entry_tag.findall(stretch))
        if self.depth < 1:
            self._stop()  # the root is closed (or the text is not well-formed)

    def _ampersands(self, text: str, start: int, entry: int, url: str) -> tuple[int, ...] | None:
        """Where each raw "&" stands in a loc value (``url``, at ``text[start]``, in the
        entry at ``text[entry]``) that holds raw "&" only. None when an "&" starts a
        reference, or the recovering parser would not read the entry again as it does
        for such a value (see ``formats.xml``)."""
        if _REFERENCE_LIKE.pattern.search(url) is not None:
            return None  # a reference, or a name the parser reads on
        at = url.find("&")
        last = url.rfind("&")
        if at == last:
            ampersands: tuple[int, ...] = (at,)
        else:
            ampersands = tuple(found.start() for found in _AMPERSAND.pattern.finditer(url))
        if self.raw_bound + len(ampersands) > MAX_SYNTAX_ERRORS:
            return None
        stop = last + 1  # where the parser stops at the last "&": after the name there
        if stop < len(url) and url[stop] in _NAME_START:
            stop = _NAME_RUN.pattern.match(url, stop).end()  # type: ignore[union-attr]
        if start + stop - entry > MAX_REPLAY:
            return None
        # The loc's line, shorter than the parser's error context (a line that starts
        # before the text starts self._column characters before it).
        newline = text.rfind("\n", max(start - _MAX_CONTEXT, 0), start)
        before = start - newline - 1 if newline >= 0 else start + self._column
        line_end = text.find("\n", start, start + _MAX_CONTEXT)
        if line_end < 0:
            return None
        if text[line_end - 1] == "\r":
            line_end -= 1
        if before + line_end - start >= _MAX_CONTEXT:
            return None
        return ampersands

    def report_ampersands(
        self,
        entries: list[_Entry],
        found: dict[int, tuple[int, int, tuple[int, ...]]],
        numbers: Iterable[int],
        first_index: int,
    ) -> None:
        """Report the raw "&" of the locs of ``entries[number]`` for each of ``numbers``
        (``found`` says where they stand; ``entries[0]`` is the ``first_index``th entry
        of the document) as the parser reports each (XM004), naming the loc as
        ``FileChecker.point`` does."""
        report = self._url_ampersands
        if report is None or self._loc_pointer is None:
            from sitemap_lint.rules.xml import url_ampersands

            report = self._url_ampersands = url_ampersands
            self._loc_pointer = self.checker.child_pointer(SITEMAP_NS, self.entry, "loc")
        head, tail = self._loc_pointer
        add = self.checker.sink.add
        reported = 0
        for number in numbers:
            line, column, ampersands = found[number]
            reported += len(ampersands)
            if not self._raw_reported:
                continue  # counted as the parser counts its errors, reported by no check
            path = f"{head}{first_index + number}{tail}"
            for finding in report(entries[number][0], ampersands, line, column, path):
                add(finding)
        self.raw_errors += reported
        self.parser.syntax_errors += reported

    def _extensions(self, text: str, start: int, end: int, url: str) -> Any:
        """The facts of an entry's extension elements (``text[start:end]``, matched by
        the entry pattern), when each passes every rule and the schema; else
        _NOT_PROVED. Every URL there was matched by ``_EXT_URL`` whole."""
        return self._extension_facts(text[start:end], url)

    def _extension_facts(self, ext: str, url: str) -> Any:
        """``_extensions`` of the extension elements ``ext`` of the entry of ``url``."""
        if self.deprecated:
            self.deprecated.clear()
        video = self._video
        if video is not None and video.tag in ext:
            extras = video.extras(ext, url)
            return _NOT_PROVED if extras is None else extras
        news = self._news
        if news is not None and news.tag in ext:
            return self._with_news(news, ext, url)
        return self._other_extras(ext, url)

    def _with_news(self, news: NewsProof, ext: str, url: str) -> Any:
        """``_extensions`` of an entry with a news:news: it proved (``NewsProof.find``),
        and the other items (images, alternates) as without it."""
        found = news.find(ext)
        if found is None:
            return _NOT_PROVED
        begin, end = found
        before, after = ext[:begin], ext[end:]
        if not (before.strip() or after.strip()):
            return ("n", None)
        if self._items is None:
            return _NOT_PROVED  # (a comment or instruction beside it, and no other items)
        others = self._other_extras(before + " " * (end - begin) + after, url)
        if others is _NOT_PROVED:
            return _NOT_PROVED
        kinds, links = others
        if "<!" in before or "<?" in before:
            before = _SPECIAL.pattern.sub("", before)  # (no item stands in them)
        return (kinds + "n" if before.strip() else "n" + kinds, links)

    def _window_extras(self, ext: str, url: str) -> tuple[Any, Any, Any] | None:
        """``_extensions`` of an entry that a window of ``fastpath.bulk`` reads, its
        extension elements ``ext`` and its loc ``url``, when they are proved: their
        facts; with a news:news, its publication's name and the offsets in ``ext`` of its
        news:news and news:name start tags (else None); with images' deprecated
        children, what ``deprecated`` holds of them, their offsets in ``ext`` (else
        None). None when they are not proved."""
        extra = self._extension_facts(ext, url)
        if extra is _NOT_PROVED:
            return None
        news = None
        if "n" in extra[0]:
            proof = self._news
            assert proof is not None  # (the kind of its extras)
            news = (proof.name, proof.news_at, proof.name_at)
        return extra, news, list(self.deprecated) if self.deprecated else None

    def _other_extras(self, ext: str, url: str) -> Any:
        """``_extensions`` of images and alternates."""
        marks = self._marks
        if marks is None:
            # A comment, an instruction, an image:caption or an image:title start tag, in
            # one search.
            marks = self._marks = re.compile(
                "|".join(map(re.escape, ("<!--", "<?", *self._titled)))
            )
        if marks.search(ext) is not None:
            return self._extensions_slowly(ext, url)
        # Without comments and titles, an image:loc start tag and the pair of attributes
        # stand only in the items the entry pattern matched.
        kinds = ""
        image_locs = self._image_locs
        if image_locs is not None:
            locations = image_locs.findall(ext)
            if locations:
                kinds = "i"
                if "&" in ext:
                    locations = list(map(_image_location, locations))
                if len(locations) > MAX_IMAGES or len(set(locations)) != len(locations):
                    return _NOT_PROVED  # IM002, IM003
                prefix = self._image_prefix
                for location in locations:
                    # As _url does, inline: the length, then the host, which is proved
                    # when the URL starts as the last one did up to its third "/".
                    if not 12 <= len(location) <= MAX_LOC:
                        return _NOT_PROVED
                    if "/." in location and _DOT_SEGMENT.search(location) is not None:
                        return _NOT_PROVED  # UR018 (an empty path: no prefix, below)
                    if ("%" in location or "&" in location) and not self._escaped(location):
                        return _NOT_PROVED
                    if location.startswith(prefix):
                        continue
                    parts = location.split("/", 3)
                    if len(parts) < 4:
                        return _NOT_PROVED  # no path: IM003 compares it in normal form
                    host = parts[2]
                    if host not in self._hosts and not self._host(host):
                        return _NOT_PROVED
                    prefix = self._image_prefix = location[: len(location) - len(parts[3])]
        link_tag = self._link_tag
        first = ext.find(link_tag) if link_tag else -1
        if first < 0:
            return (kinds, None)  # no xhtml:link (the pair of attributes stands in each)
        if not kinds:
            kinds = "x"
        elif ext.find(self._image_tag, 0, first) >= 0:  # an image before the first link
            kinds = "ix"
        else:
            kinds = "xi"
        # The pages of a cluster usually list the same links in the same order: the text
        # from the first link to the end of the last ("/>", which no value holds) is
        # looked up as it stands, and read only when it is new.
        key = ext[first : ext.find("/>", ext.rfind(link_tag)) + 2]
        known = self._link_sets.get(key)
        if known is not None:
            known_pairs, pages = known
            if url not in pages and (_proved_normal(url) or _normal(url) not in pages):
                return _NOT_PROVED  # the alternates do not list the page itself
            return (kinds, known_pairs)
        assert self._link_values is not None and self._links is not None  # with the link tag
        pairs: list[tuple[str, str]] = self._link_values.findall(key)
        written = key.count(link_tag)
        if len(pairs) != written:
            pairs = self._reordered_links(key, written)
        if len(pairs) != written:  # links written in several ways: each read alone
            pairs = []
            for link in self._links.findall(key):
                pair = _link_pair(link)
                if pair is None:
                    return _NOT_PROVED
                pairs.append(pair)
            if len(pairs) != written:
                return _NOT_PROVED
        links: dict[str, str] = {}
        add = self._add_link
        for code, href in pairs:
            if not add(code, href, links):
                return _NOT_PROVED
        extra = self._alternates(kinds, links, url)
        if extra is not _NOT_PROVED:
            if len(self._link_sets) > 256:  # (a cluster's pages stand together)
                self._link_sets.clear()
            self._link_sets[key] = (extra[1], frozenset(links.values()))
        return extra

    def _reordered_links(self, key: str, written: int) -> list[tuple[str, str]]:
        """The (hreflang, href) pairs of the ``written`` links of ``key`` when all are
        written as the first is (its attributes' order; double quotes, or single ones
        throughout, which no value then holds), else fewer."""
        double = key if '"' in key else key.replace("'", '"')
        order = tuple(_LINK_NAMES.pattern.findall(double, 0, double.find("/>")))
        if len(order) != 3 or len(set(order)) != 3:
            return []  # (a value may hold "rel=" and the like)
        pattern = self._ordered_links.get(order)
        if pattern is None:
            assert self._link_tag  # made with the root's xhtml prefix
            values = {
                "rel": '"alternate"',
                "hreflang": '"([A-Za-z0-9-]{1,35})"',
                "href": f'"({_IMAGE_URL})"',
            }
            attributes = "".join(rf"{_WS}+{name}{_WS}*={_WS}*{values[name]}" for name in order)
            pattern = re.compile(rf"{re.escape(self._link_tag)}{attributes}{_WS}*/>")
            self._ordered_links[order] = pattern
        found: list[tuple[str, str]] = pattern.findall(double)
        if order.index("href") < order.index("hreflang"):
            return [(code, href) for href, code in found]
        return found

    def _add_link(self, code: str, href: str, links: dict[str, str]) -> bool:
        """hreflang.Checker's view of one link: a valid code, once per entry, and an
        href that passes the URL rules; added to ``links`` (canonical code: normal href)."""
        canonical: Any = self._codes.get(code, _UNKNOWN)
        if canonical is _UNKNOWN:
            canonical = self._code(code)
        if canonical is None or canonical in links:
            return False
        normal: Any = self._hrefs.get(href, _UNKNOWN)
        if normal is _UNKNOWN:
            normal = self._href(href)
        if normal is None:
            return False
        links[canonical] = normal
        return True

    def _extensions_slowly(self, ext: str, url: str) -> Any:
        """``_extensions`` where comments, instructions or captions and titles stand among
        the items."""
        assert self._items is not None  # made with the root when the entry pattern has them
        kinds = ""
        images: set[str] = set()
        links: dict[str, str] = {}
        deprecated = self.deprecated  # (cleared by _extensions)
        caption_tag, title_tag = self._titled or ("\0", "\0")
        for item in self._items.finditer(ext):
            location, _caption, _title, link = item.groups()
            if location:
                written = item.group()
                children = sorted(
                    (at, name)
                    for at, name in (
                        (written.find(caption_tag), "caption"),
                        (written.find(title_tag), "title"),
                    )
                    if at >= 0
                )
                if children:
                    if "<!--" in written or "<?" in written:
                        return _NOT_PROVED  # (their tags' text may stand in a comment)
                    if not self._titles:
                        # image.Checker reports them (IM004; IM006 for a title before
                        # the caption), in place (``report_deprecated``).
                        start = item.start()
                        spans = tuple((name, start + at) for at, name in children)
                        deprecated.append((len(images) + 1, start, spans))
                    elif children[0][1] == "title" and len(children) == 2:
                        return _NOT_PROVED  # the schema's order (no check reports it)
                location = _image_location(location)
                # image.Checker: a URL for the URL rules (as image:loc), no repeat in the
                # entry, at most 1,000 images.
                if location in images or location.count("/") < 3 or not self._url(location):
                    return _NOT_PROVED  # (without a path IM003 compares it in normal form)
                images.add(location)
                if "i" not in kinds:
                    kinds += "i"
            elif link:
                pair = _link_pair(link)
                if pair is None or not self._add_link(*pair, links):
                    return _NOT_PROVED
                if "x" not in kinds:
                    kinds += "x"
        if len(images) > MAX_IMAGES:
            return _NOT_PROVED
        return self._alternates(kinds, links, url)

    def _alternates(self, kinds: str, links: dict[str, str], url: str) -> Any:
        """The facts of the extension elements (``_Extra``); _NOT_PROVED when the
        alternates do not list the page itself (HL)."""
        if not links:
            return (kinds, None)
        if not _proved_normal(url):
            from sitemap_lint.domain.identity import normal_url

            url = normal_url(url)
        if url not in links.values():
            return _NOT_PROVED
        # (The checker's table keeps equal lists once.)
        return (kinds, tuple(sorted(links.items())))

    def _url(self, value: str, lower_digits: bool = False) -> bool:
        """Whether an extension's URL (matched by ``_EXT_URL`` or ``_IMAGE_URL``, a subset
        of the URL rules' clean URLs; an image's read by ``_image_location``) passes the
        URL rules as ``loc`` does: its length, its host and its escapes (``_escaped``)."""
        if not 12 <= len(value) <= MAX_LOC or not _canonical(value):
            return False
        host = value.split("/", 3)[2]
        if not (host in self._hosts or self._host(host)):
            return False
        return ("%" not in value and "&" not in value) or self._escaped(value, lower_digits)

    def _escaped(self, value: str, lower_digits: bool = False) -> bool:
        """Whether the percent-escapes of an extension's URL make no finding of the URL
        rules (``_escapes``) and its "&" start no XML escape as text (UR017). Escapes with
        lower-case digits only with ``lower_digits``: where the caller compares the URL
        in normal form (the checks compare an image's as written)."""
        from sitemap_lint.rules.urls import ESCAPE_TEXT

        if "%" in value:
            verdict = self._escapes(value)
            if verdict is False or (verdict is _LOWER and not lower_digits):
                return False
        return "&" not in value or ESCAPE_TEXT.search(value) is None

    def _code(self, value: str) -> str | None:
        from sitemap_lint.rules.hreflang import check_code

        verdict = check_code(value)
        code = None
        if verdict.message is None and not verdict.schema_rejects:
            code = verdict.canonical
        if len(self._codes) > 65_536:
            self._codes.clear()
        self._codes[value] = code
        return code

    def _href(self, value: str) -> str | None:
        """The normal form of an href as written (``_IMAGE_URL``), read as expat reads
        it, when the URL rules report nothing on it; else None."""
        normal = None
        read = _image_location(value)
        if self._url(read, lower_digits=True):
            normal = read
            if not _proved_normal(read):
                from sitemap_lint.domain.identity import normal_url

                normal = normal_url(read)
        if len(self._hrefs) > 4096:  # an href repeats within its cluster, near by
            self._hrefs.clear()
        self._hrefs[value] = normal
        return normal

    def _escapes(self, url: str) -> Any:
        """Whether the percent-escapes of a loc (otherwise proved) make no finding of the
        URL rules (UR007, UR013-UR015): each a "%" and two hexadecimal digits, each row
        of them UTF-8 of printable characters that are neither "%" nor unreserved (see
        _ESCAPABLE); _LOWER when they do and some digit is a lower-case letter. The text
        from the first "%" to two characters after the last holds them all: the verdict
        is cached by it (the URLs of a site usually share it)."""
        span = url[url.find("%") : url.rfind("%") + 3]
        proved = self._escape_spans.get(span)
        if proved is None:
            proved = _UNESCAPED.pattern.search(span) is None and all(
                map(_clean_escapes, _ESCAPED.pattern.findall(span))
            )
            if proved and _LOWER_ESCAPE.pattern.search(span) is not None:
                proved = _LOWER
            if len(self._escape_spans) > 65_536:
                self._escape_spans.clear()
            self._escape_spans[span] = proved
        return proved

    def _matches(self, field: str, value: str) -> bool:
        """Whether ``value`` matches the pattern proofs of the checks on ``field``."""
        return all(proof.fullmatch(value) for proof in self._patterns.get(field, ()))

    def _host(self, host: str) -> bool:
        """Whether the URL rules report nothing on a loc's host (the verdict of a
        lower-case host is kept in ``_hosts``; one with upper-case letters is not
        canonical, UR018)."""
        if not host.islower() and host.lower() != host:
            return False
        proved = len(host) <= 253 and _HOST.pattern.match(host) is not None
        if proved and not plain_host(host):
            # A host read as an IPv4 address (its last label a number) or with an xn--
            # label: the URL rules read it further (``urls.reads_as_name``).
            from sitemap_lint.rules.urls import reads_as_name

            proved = reads_as_name(host)
        if proved and self._local_hosts_reported:
            from sitemap_lint.rules.urls import local_host

            proved = local_host(host) is None  # (UR019)
        if proved:
            self._hosts.add(host)
        return proved

    def _lastmod(self, value: str) -> Any:
        result: Any = _NOT_PROVED
        decoded = _decoded(value)
        if _LASTMOD.pattern.match(decoded) and self._matches("lastmod", decoded):
            report = _Collect()
            parsed = self._check_date(decoded, _NODE, report, self.options.now)
            if parsed is not None and not report.found:
                result = parsed.moment
        if len(self._lastmods) > 65_536:
            self._lastmods.clear()
        self._lastmods[value] = result
        return result

    def _dated_moment(self, value: str) -> Any:
        """For a lastmod that ``_lastmod`` does not prove: its moment (None when it has
        none) when the date rules' findings on it are all there is to report on it (a
        value the schema rejects is one they report, which covers its schema error);
        else _NOT_PROVED (as for an index's month or year, which the full checker hands
        to the set facts as its last day)."""
        from sitemap_lint.rules.dates import read_date

        result: Any = _NOT_PROVED
        if "&" not in value:
            parsed, problems = read_date(value)
            if parsed is not None and parsed.period != "day" and self.index:
                pass  # an index's month or year: the set facts read its last day
            elif problems or _LASTMOD.pattern.match(value):
                result = parsed.moment if parsed is not None else None
        if len(self._dated_moments) > 65_536:
            self._dated_moments.clear()
        self._dated_moments[value] = result
        return result

    def _bulk_window(
        self, text: str, start: int, loc_line: int, value_end: int, line_begin: int, bound: int
    ) -> Window | None:
        """``Bulk.take`` from ``start``, for a file of ``bound`` entries so far."""
        bulk = self._bulk
        if bulk is None:
            from sitemap_lint.fastpath.bulk import Bulk

            assert self._line_re is not None  # made with the root
            bulk = self._bulk = Bulk(
                self._line_re,
                self._open,
                self._close,
                f"{self._open[: -len(self.entry) - 1]}loc>",
                self._hosts,
                self._host,
                self._lastmods,
                self._lastmod,
                self._priorities,
                self._priority,
                self._changefreqs,
                self._changefreq,
                self._escapes,
                _decoded_loc,
                _REFERENCE_NAME_TEXT,
                _cached_character,
                _NOT_PROVED,
                MAX_LOC,
                self._offsets,
                _URL_BYTES if self._long_urls else None,
                _BETWEEN.pattern.match,
                self._plain_line,
                (self._dated_moments, self._dated_moment) if self._dated else None,
                _REPORTED,
                self._iri,
                self._window_extras if self._plain_line is not None else None,
            )
        # None once the 50,000th entry is proved, until the checker has read the next.
        most = len(text) if self._past_limit() else max(MAX_ENTRIES - bound - 1, 0)
        return bulk.take(text, start, loc_line, value_end, line_begin, most)

    def _iri(self, url: str) -> re.Match[str] | None:
        """When a loc with characters outside ASCII (no reference, no CDATA, no ``&``)
        makes one finding of the URL rules, UR011, which ``report_url`` reports: its
        parts as the URL rules read them (``urls.iri_parts``)."""
        return None if "&" in url else self._iri_parts(url)

    def report_url(
        self, index: int, line: int, column: int, value: str, iri: re.Match[str] | None = None
    ) -> None:
        """The URL rules' findings on the loc of the ``index``-th entry (at ``line`` and
        ``column``; ``_iri`` proved it with them), as its check makes them, naming the
        loc. ``iri``: the parts of a loc outside ASCII (``_iri``), its ``value``
        as the file has it."""
        reporting = self._reporting_urls
        if reporting is None:
            from sitemap_lint.rules.urls import check_iri, check_url

            head, tail = self._loc_pointer or self.checker.child_pointer(
                SITEMAP_NS, self.entry, "loc"
            )
            node = WrittenNode(SITEMAP_NS, "loc", line, column, 0)
            into = _InPlace(self.checker.sink, "", 0)
            reporting = self._reporting_urls = (check_url, check_iri, head, tail, node, into)
        check_url, check_iri, head, tail, node, into = reporting
        # One node and one reporter serve every loc: neither is kept by the check.
        node.line, node.column, node.text = line, column, value
        node.text_at = into.start = column + self._loc_tag  # after "<loc>" with the prefix
        into.path = f"{head}{index}{tail}"
        if "\n" in value:  # its fixes are not spans of one line: made as the full checker's
            read = value.replace("\r\n", "\n")  # as the parser reads it
            plain = Node(SITEMAP_NS, "loc", {}, line, column)
            plain.text = read
            into.lines = read == value  # ("\r\n" in the file: resolved as it reads it)
            check_url(read, plain, into)
            into.lines = True
            return
        if iri is not None:
            if self._iris_reported:  # (its one finding, UR011's, else made to be dropped)
                check_iri(value, iri, node, into)  # what check_url calls on it
        else:
            check_url(value, node, into)

    def _values(self, entry: re.Match[str], changefreq: str | None) -> _Values:
        """A proved entry's values for the HTML report's counts (``_Values``), from its
        match; ``changefreq`` is None there also for a value the pattern names."""
        lastmod, priority, ext = entry.group(8, 10, 11)
        if lastmod is not None and lastmod[0] == "<":  # in a CDATA section
            lastmod = lastmod[9:-3]
        if priority is not None and priority[0] == "<":
            priority = priority[9:-3]
        if changefreq is None:
            text = entry.group()
            tag = text.find(self._changefreq_tag)
            if tag >= 0:
                start = tag + len(self._changefreq_tag)
                if text.startswith("<![CDATA[", start):
                    changefreq = text[start + 9 : text.index("]", start + 9)]
                else:
                    changefreq = text[start : text.index("<", start)]
        codes: tuple[str, ...] = ()
        if ext and self._link_tag and self._link_tag in ext:
            if "<!" in ext or "<?" in ext:
                ext = _SPECIAL.pattern.sub("", ext)  # no tag stands in a comment
            if self._link_starts is None:
                self._link_starts = re.compile(re.escape(self._link_tag) + r"\s([^>]*)>")
            codes = tuple(
                _decoded(double or single)
                for attributes in self._link_starts.findall(ext)
                for double, single in _HREFLANG.pattern.findall(attributes)
            )
        return (
            None if lastmod is None else _decoded(lastmod),
            None if changefreq is None else _decoded(changefreq),
            None if priority is None else _decoded(priority),
            codes,
        )

    def _changefreq(self, value: str) -> Any:
        """True when a changefreq is proved, _REPORTED when it is proved with the
        findings of its check (``_reported``), else False."""
        if len(self._changefreqs) > 4096:
            self._changefreqs.clear()
        verdict: Any = _decoded(value) in self._proved_changefreqs
        if not verdict:
            verdict = self._reported("changefreq", value)
        self._changefreqs[value] = verdict
        return verdict

    def _priority(self, value: str) -> Any:
        """As ``_changefreq``, for a priority."""
        from sitemap_lint.rules.values import check_priority

        verdict: Any = False
        decoded = _decoded(value)
        if _PRIORITY.pattern.match(decoded) and self._matches("priority", decoded):
            report = _Collect()
            check_priority(decoded, _NODE, report)
            verdict = not report.found
        if not verdict:
            verdict = self._reported("priority", value)
        if len(self._priorities) > 4096:
            self._priorities.clear()
        self._priorities[value] = verdict
        return verdict

    def _reported(self, field: str, value: str) -> Any:
        """_REPORTED when the check of ``field`` (changefreq or priority) reports a value
        written without references and short enough for the length check to leave it
        (``values.MAX_VALUE_BYTES``), and runs alone on the field: its findings cover the
        value's schema error, so the entry is proved with them (``report_value``);
        else False."""
        from sitemap_lint.rules.values import MAX_VALUE_BYTES, check_changefreq, check_priority

        if field not in self._valued or "&" in value or len(value) * 4 > MAX_VALUE_BYTES:
            return False
        report = _Collect()
        (check_changefreq if field == "changefreq" else check_priority)(value, _NODE, report)
        return _REPORTED if report.found else False

    def report_value(self, field: str, index: int, line: int, column: int, value: str) -> None:
        """The findings of the check of ``field`` on the value of the ``index``-th entry,
        whose start tag is at ``line`` and ``column``, as the check makes them, naming the
        field: the date rules' on a lastmod (``_dated_moment`` proved it with them), the
        changefreq's or priority's check (``_reported``)."""
        reporting = self._reporting_values.get(field)
        if reporting is None:
            from sitemap_lint.rules.dates import check_date
            from sitemap_lint.rules.values import check_changefreq, check_priority

            now = self.options.now
            check = {
                "lastmod": lambda text, node, report: check_date(text, node, report, now),
                "changefreq": check_changefreq,
                "priority": check_priority,
            }[field]
            head, tail = self.checker.child_pointer(SITEMAP_NS, self.entry, field)
            node = WrittenNode(SITEMAP_NS, field, line, column, 0)
            into = _InPlace(self.checker.sink, "", 0)
            reporting = self._reporting_values[field] = (check, head, tail, node, into)
        check, head, tail, node, into = reporting
        # One node and one reporter serve every value: neither is kept by the check.
        node.line, node.column, node.text = line, column, value
        # The value starts after the start tag (with the prefix).
        node.text_at = into.start = column + len(field) + self._loc_tag - 3
        into.path = f"{head}{index}{tail}"
        check(value, node, into)


# A value that is its own decoded text, on one line.
_AS_WRITTEN = re.compile(r"[^&\r\n]*\Z")
# One over several lines (each "\r\n" of the file read as "\n", a lone "\r" never).
_ON_LINES = re.compile(r"[^&\r]*\Z")


class _InPlace:
    """Hands a proved value's findings to the file's sink naming its element (``path``),
    their fixes exact: the value is written as is from column ``start`` of its start
    tag's line (no reference; a line break only in a loc with white space around it,
    read as written when ``lines``), so each ``text`` edit is the span
    ``fix.runner.resolved`` would make of it."""

    __slots__ = ("lines", "path", "sink", "start")

    def __init__(self, sink: FindingSink, path: str, start: int) -> None:
        self.sink = sink
        self.path = path
        self.start = start
        # Whether a value over several lines is written as read (no "\r\n" in the file
        # there), its text edit then made a span too.
        self.lines = True

    def add(self, finding: Finding, covers: object = None) -> None:
        fix = finding.fix
        if fix is not None and not fix.exact:
            fix = self._exact(fix)
        # (The checks it serves hand over each finding as they make it.)
        self.sink.add(amended_in_place(finding, fix, self.path))

    def _exact(self, fix: FindingFix) -> FindingFix:
        start = self.start
        edits = []
        for edit in fix.edits:
            old = edit.old
            if edit.target != "text" or _AS_WRITTEN.match(old) is None:
                if edit.target != "text" or not self.lines or _ON_LINES.match(old) is None:
                    return fix  # left to ``fix.runner.resolved``
                # A value over several lines (a loc with white space around it): it ends
                # on a later line, after the characters of its last.
                last = old.rfind("\n")
                end_line, end_column = edit.line + old.count("\n"), len(old) - last
            else:
                end_line, end_column = edit.line, start + len(old)
            content = escape_text(edit.content)
            edits.append(Edit(edit.line, start, content, "span", end_line, end_column, old))
        return FindingFix(fix.applicability, fix.message, tuple(edits), True)


def _clean_escapes(row: str) -> bool:
    """Whether a row of percent-escapes decodes to UTF-8 of ``_ESCAPABLE``
    bytes, printable characters only."""
    data = bytes.fromhex(row.replace("%", ""))
    if not _ESCAPABLE.issuperset(data):
        return False
    try:
        return data.decode("utf-8").isprintable()
    except UnicodeDecodeError:
        return False


def _image_location(written: str) -> str:
    """An image:loc as expat reads it (``_IMAGE_URL`` matched it: "&amp;" is its only
    reference; or ``_EXT_URL`` in a CDATA section, read as written)."""
    if written[0] == "<":
        return written[9:-3]
    return written.replace("&amp;", "&") if "&" in written else written


def _first_locs(text: str, sm: str = "") -> list[str]:
    """The values of the first locs of ``text``, up to eight, as written (``sm``: the
    sitemap namespace's prefix and ":")."""
    values: list[str] = []
    opener, closer = f"<{sm}loc>", f"</{sm}loc>"
    at = text.find(opener)
    while at >= 0 and len(values) < 8:
        end = text.find(closer, at)
        if end < 0:
            break
        values.append(text[at + len(opener) : end])
        at = text.find(opener, end)
    return values


def _spaced_locs(text: str, sm: str = "") -> bool:
    """Whether one of the first locs of ``text`` has white space around its value: then
    the file's entry pattern takes such locs (their UR005 is reported in place), which
    costs the others a little."""
    return any(value != value.strip(" \t\r\n") for value in _first_locs(text, sm))


def _long_urls(text: str, sm: str = "") -> bool:
    """Whether the first locs of ``text`` are LONG_URL characters long on average (see
    _LONG_LOC)."""
    lengths = [len(value) for value in _first_locs(text, sm)]
    return bool(lengths) and sum(lengths) >= LONG_URL * len(lengths)


def _normal(url: str) -> str:
    from sitemap_lint.domain.identity import normal_url

    return normal_url(url)
