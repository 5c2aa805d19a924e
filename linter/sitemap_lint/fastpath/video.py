"""The fast path's proof of ``video:video`` elements.

An entry's ``video:video`` elements are proved (``VideoProof.extras``) when the
entry holds no other extension element and each of them is written in this shape,
with the prefix the root's start tag binds to the video namespace (anything else:
the full checker takes the entry):

- no attribute, and only white space (space, tab, CR LF, LF) between its children:
  no comment, instruction, CDATA section or text;
- its children are among those of the table below, each without attributes (but
  the ``relationship`` of ``restriction`` and ``platform``, ``allow`` or ``deny`` in
  either quotes, and the ``info`` of ``uploader``) and holding printable ASCII but ``<`` and ``>`` (references are read
  as expat reads them, ``_decoded``), in the order of the schema's sequence, each at
  most once but ``tag`` (at most 32): ``thumbnail_loc``, ``title`` and
  ``description`` first, and ``content_loc`` or ``player_loc`` (VD001, VD002, VD018,
  VD015, VD014);
- each value passes every rule of ``video.Checker`` (rules/video.py) and the video
  schema takes it:

| child | how its value is proved |
|---|---|
| thumbnail_loc, content_loc, player_loc | written without references, a URL proved as ``image:loc`` is (the URL rules; an ``anyURI``); ``content_loc`` and ``player_loc`` not the entry's own URL (VD003), ``content_loc``'s last segment not of a page or a Flash file, nor on a video site's pages (VD004) |
| title, description | 1 to 100 (2,048) characters once decoded (or in one CDATA section of printable ASCII but ``<`` and ``]``, read as written), not only white space (VD001, VD006, the schema's ``maxLength``) |
| duration | ``1`` to ``28800`` written as digits without a leading zero (VD007, ``tDuration``) |
| publication_date | decoded, the lastmod's clean form (``xsd:date`` or ``xsd:dateTime``) that ``dates.check_date`` reports nothing on at the run's moment |
| expiration_date | decoded, the lastmod's clean form, which ``video.check_value`` reports nothing on at the run's moment (VD010: not passed) |
| rating | digits, with a fraction or not (``xsd:decimal``), which ``video.check_value`` reports nothing on (VD008: 0 to 5) |
| view_count | digits (``xsd:nonNegativeInteger``; VD009) |
| restriction | upper-case two-letter codes separated by spaces (the schema's pattern), which ``video.check_value`` reports nothing on (VD012: ISO 3166 codes) |
| platform | ``web``, ``mobile`` or ``tv`` separated by single spaces (the schema's pattern), which ``video.check_value`` reports nothing on (VD013) |
| tag | decoded, 1 or more printable ASCII characters (``xsd:string``) |
| uploader | decoded, printable ASCII, which ``video.check_value`` reports nothing on (VD006: at most 255 characters); its ``info`` attribute, if any (in either quotes), a URL proved as ``image:loc`` is, on the entry's domain (VD016), judged with the entry's host |
| family_friendly, requires_subscription, live | ``yes``, ``Yes``, ``YES``, ``no``, ``No`` or ``NO`` as written (VD011, ``tYesNo``) |

``video.Checker`` keeps no state across entries: a proved entry leaves it only its
creation, at the first entry holding video elements (the kind ``v`` of the entry's
extras, ``FastPath.make``). The live audit reads its targets from the file itself.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sitemap_lint.domain.identity import normal_uri
from sitemap_lint.rules.video import (
    _PAGE_EXTENSIONS,
    _YES_NO,
    MAX_DURATION,
    MAX_TAGS,
    video_site,
)

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["VideoProof", "block_pattern"]

_SPACE = r"[ \t\r\n]*"
# A text value: printable ASCII but "<" and ">", "&" only in a predefined reference
# or a character reference (read by ``_decoded`` when the value holds "&#").
_PLAIN = r"[ -%'-;=?-~]*+"
_TEXT = rf"{_PLAIN}(?:&(?:amp|lt|gt|quot|apos|#[0-9]{{1,7}}|#x[0-9A-Fa-f]{{1,6}});{_PLAIN})*+"
# A title or description in one CDATA section (as some plugins write them), read as
# written: printable ASCII but "<" and "]".
_CDATA_TEXT = r"<!\[CDATA\[[ -;=-\\^-~]*+\]\]>"
_CDATA_START = "<![CDATA["
# A tag: printable ASCII but "&", "<" and ">", not only spaces.
_TAG = r" *[!-%'-;=?-~][ -%'-;=?-~]*"
_DATE = r"[0-9A-Za-z:.+&#;-]{10,200}"
_YES_NO_VALUE = "|".join(sorted(_YES_NO))
_LIMITS = {"title": 100, "description": 2048}
# The lexical forms of the other values proved, which their schema types take; the
# video rules judge the rest (``_clean``).
_RATING = r"[0-9]{1,3}(?:\.[0-9]{1,9})?"
_COUNT = "[0-9]{1,18}"
_COUNTRIES = "[A-Z]{2}(?: +[A-Z]{2}){0,299}"
_PLATFORMS = "(?:web|mobile|tv)(?: (?:web|mobile|tv)){0,2}"
_RELATIONSHIP = """(?:"(?:allow|deny)"|'(?:allow|deny)')"""


def block_pattern(prefix: str, url: str, groups: bool = False) -> str:
    """A ``video:video`` element of the proved shape, its children in the schema's order;
    ``url``: the pattern of a URL value. With ``groups``: the groups thumbnail, title,
    description, content, player, duration, expiration, rating, views, date, tags,
    restriction_rel, restriction, uploader_info, uploader, platform_rel and platform."""
    v = re.escape(prefix)
    tags = rf"(?:<{v}:tag>{_TAG}</{v}:tag>{_SPACE})*"

    def child(name: str, value: str, group: str = "", optional: bool = True) -> str:
        if groups and group:
            value = f"(?P<{group}>{value})"
        item = rf"<{v}:{name}>{value}</{v}:{name}>{_SPACE}"
        return f"(?:{item})?" if optional else item

    def listed(name: str, value: str) -> str:
        """A restriction or platform: its list, and its relationship attribute."""
        relationship = _RELATIONSHIP
        if groups:
            relationship, value = f"(?P<{name}_rel>{relationship})", f"(?P<{name}>{value})"
        start = rf"<{v}:{name}[ \t\r\n]+relationship[ \t\r\n]*=[ \t\r\n]*{relationship}{_SPACE}>"
        return rf"(?:{start}{value}</{v}:{name}>{_SPACE})?"

    def uploader() -> str:
        """An uploader's name, and the URL of its page (``info``, in either quotes)."""
        info = f"""(?:"{url}"|'{url}')"""
        name = _TEXT
        if groups:
            info, name = f"(?P<uploader_info>{info})", f"(?P<uploader>{name})"
        start = rf"<{v}:uploader(?:[ \t\r\n]+info[ \t\r\n]*=[ \t\r\n]*{info})?{_SPACE}>"
        return rf"(?:{start}{name}</{v}:uploader>{_SPACE})?"

    yes_no = f"(?:{_YES_NO_VALUE})"
    return (
        rf"<{v}:video>{_SPACE}"
        + child("thumbnail_loc", url, "thumbnail", optional=False)
        + child("title", f"(?:{_TEXT}|{_CDATA_TEXT})", "title", optional=False)
        + child("description", f"(?:{_TEXT}|{_CDATA_TEXT})", "description", optional=False)
        + child("content_loc", url, "content")
        + child("player_loc", url, "player")
        + child("duration", "[1-9][0-9]{0,4}", "duration")
        + child("expiration_date", _DATE, "expiration")
        + child("rating", _RATING, "rating")
        + child("view_count", _COUNT, "views")
        + child("publication_date", _DATE, "date")
        + (f"(?P<tags>{tags})" if groups else tags)
        + child("family_friendly", yes_no)
        + listed("restriction", _COUNTRIES)
        + child("requires_subscription", yes_no)
        + uploader()
        + listed("platform", _PLATFORMS)
        + child("live", yes_no)
        + rf"</{v}:video>"
    )


class VideoProof:
    """Proves the video elements of the entries of one file (see the module's text).

    ``url`` proves a URL that ``url_form`` (a pattern's text) matches as ``image:loc``
    is proved, ``decoded`` reads references as expat does, ``clean_date`` is the
    lastmod's clean form and ``now`` the run's moment."""

    def __init__(
        self,
        prefix: str,
        url: Any,
        url_form: str,
        decoded: Any,
        clean_date: re.Pattern[str],
        now: datetime,
    ) -> None:
        self.tag = f"<{prefix}:video>"
        self._tag_item = f"<{prefix}:tag>"
        self._blocks = re.compile(rf"(?:{_SPACE}{block_pattern(prefix, url_form)})+{_SPACE}")
        grouped = block_pattern(prefix, url_form, groups=True)
        self._block = re.compile(grouped)
        self._one = re.compile(rf"{_SPACE}{grouped}{_SPACE}")  # the usual entry: one video
        self._url = url
        self._decoded = decoded
        self._clean_date = clean_date
        self._now = now
        self._dates: dict[str, bool] = {}
        self._values: dict[tuple[str, str, str | None], bool] = {}

    def extras(self, ext: str, page: str) -> tuple[str, None] | None:
        """The entry's extras (``("v", None)``) when its extension elements, ``ext``,
        are video elements that are proved, the entry's URL being ``page``; else None."""
        one = self._one.fullmatch(ext)
        if one is not None:
            return ("v", None) if self._video(one, page) else None
        if self._blocks.fullmatch(ext) is None:
            return None
        for block in self._block.finditer(ext):
            if not self._video(block, page):
                return None
        return ("v", None)

    def _video(self, block: re.Match[str], page: str) -> bool:
        (
            thumbnail,
            title,
            description,
            content,
            player,
            duration,
            expiration,
            rating,
            views,
            date,
            tags,
            restriction_rel,
            restriction,
            uploader_info,
            uploader,
            platform_rel,
            platform,
        ) = block.groups()
        url = self._url
        if content is None and player is None:
            return False  # VD002
        if not url(thumbnail):
            return False
        page = normal_uri(page)  # (proved: every entry's loc is, before its extensions)
        if content is not None and (
            not url(content) or normal_uri(content) == page or not _media(content)
        ):
            return False  # the URL rules, VD003, VD004
        if player is not None and (not url(player) or normal_uri(player) == page):
            return False
        if duration is not None and int(duration) > MAX_DURATION:
            return False
        if date is not None and not self._date(date):
            return False
        if expiration is not None:
            decoded = self._decoded(expiration)
            if not self._clean_date.match(decoded) or not self._clean("expiration_date", decoded):
                return False
        if rating is not None and not self._clean("rating", rating):
            return False
        if views is not None and not self._clean("view_count", views):
            return False
        if restriction is not None and not self._clean(
            "restriction", restriction, restriction_rel[1:-1]
        ):
            return False
        if platform is not None and not self._clean("platform", platform, platform_rel[1:-1]):
            return False
        if uploader is not None and not self._uploader(uploader, uploader_info, page):
            return False
        if not (self._text(title, "title") and self._text(description, "description")):
            return False
        return not tags or tags.count(self._tag_item) <= MAX_TAGS

    def _text(self, value: str, name: str) -> bool:
        """A title or description (VD001, VD006): not only white space, at most its
        limit long once decoded."""
        if value.startswith(_CDATA_START):
            value = value[len(_CDATA_START) : -3]
        elif "&#" in value:
            value = self._decoded(value)
            if "\0" in value:
                return False
        elif len(value) > _LIMITS[name] and "&" in value:
            value = self._decoded(value)
        return len(value) <= _LIMITS[name] and value.strip(" ") != ""

    def _clean(self, name: str, value: str, relationship: str | None = None) -> bool:
        """Whether the video rules report nothing on the child ``name`` holding ``value``
        (decoded), with its relationship attribute when it has one (``check_value``)."""
        key = (name, value, relationship)
        proved = self._values.get(key)
        if proved is None:
            from sitemap_lint.fastpath.collect import Collect
            from sitemap_lint.model import Node
            from sitemap_lint.rules.entry import EntryContext
            from sitemap_lint.rules.video import NAMESPACE, check_value

            attributes = {} if relationship is None else {"relationship": relationship}
            node = Node(NAMESPACE, name, attributes, 1, 1)
            node.text = value
            report = Collect()
            check_value(name, node, EntryContext(node, {}, "url", self._now), report)
            proved = not report.found
            if len(self._values) > 65_536:
                self._values.clear()
            self._values[key] = proved
        return proved

    def _uploader(self, name: str, info: str | None, page: str) -> bool:
        """Whether the video rules report nothing on an uploader (VD006: its length;
        VD016: its page, ``info``, on the entry's domain; the URL rules on it)."""
        if "&" in name:
            name = self._decoded(name)
            if "\0" in name:
                return False
        if info is None:
            return self._clean("uploader", name)
        info = info[1:-1]
        if not self._url(info):
            return False
        host = page.split("/", 3)[2].lower()
        key = ("uploader", name, f"{info} {host}")
        proved = self._values.get(key)
        if proved is None:
            from sitemap_lint.domain.urls import ParsedURL
            from sitemap_lint.fastpath.collect import Collect
            from sitemap_lint.model import Node
            from sitemap_lint.rules.entry import EntryContext
            from sitemap_lint.rules.video import NAMESPACE, check_value

            node = Node(NAMESPACE, "uploader", {"info": info}, 1, 1)
            node.text = name
            context = EntryContext(node, {}, "url", self._now)
            context.url = ParsedURL("https", host, 443, "/")
            report = Collect()
            check_value("uploader", node, context, report)
            proved = not report.found
            if len(self._values) > 65_536:
                self._values.clear()
            self._values[key] = proved
        return proved

    def _date(self, value: str) -> bool:
        proved = self._dates.get(value)
        if proved is None:
            from sitemap_lint.fastpath.collect import VALUE_NODE, Collect
            from sitemap_lint.rules.dates import check_date

            proved = False
            decoded = self._decoded(value)
            if self._clean_date.match(decoded):
                report = Collect()
                parsed = check_date(
                    decoded, VALUE_NODE, report, self._now, field="video:publication_date"
                )
                proved = parsed is not None and not report.found
            if len(self._dates) > 65_536:
                self._dates.clear()
            self._dates[value] = proved
        return proved


def _media(url: str) -> bool:
    """Whether a content_loc (matched by the URL pattern: no fragment) ends in a
    segment that is no page and no Flash file, on no video site's pages (VD004)."""
    if video_site(url) is not None:
        return False
    path = url.partition("?")[0]
    if path.count("/") < 3:
        return True
    last = path.rsplit("/", 1)[-1]
    extension = last.rsplit(".", 1)[-1].lower() if "." in last else ""
    return extension != "swf" and extension not in _PAGE_EXTENSIONS
