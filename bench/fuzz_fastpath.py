"""A long differential fuzz of the fast path: reports with and without it must not differ.

    python bench/fuzz_fastpath.py --minutes 10 [--seed N] [--keep DIR]

Each case is a generated sitemap (a urlset or an index; entries in several layouts,
CRLF or LF, values that pass and values at or past the limits, comments, duplicates;
a third of the generated urlsets have lastmods the date rules report, in place, and a
third write values with character references and locs in
CDATA sections; a fifth hold escaped slugs in their locs (lower-case digits, as WordPress
writes them, and escapes that are no clean one), and some write their values in CDATA
sections, as All in One SEO does; some hold entries of one layout with an odd one here and
there (tests/test_fastpath_bulk.py), the windows of fastpath/bulk.py tried early or late, on
small windows or not; a fifth hold locs with characters outside ASCII (tests/test_fastpath.py's
IRI_LOCS, proved with their UR011 or not); a fifth of the other cases hold video:video elements, clean or with a
defect in a child (tests/test_fastpath_video.py), and a tenth of the rest news:news elements, clean or with a
defect (tests/test_fastpath_news.py; half of them with 1,990-2,100 entries, past the 1,000 news:news a file may hold); a third of the urlsets hold image:image and xhtml:link alternates in clusters, with
odd codes, hrefs, missing return links, repeated images, captions and titles, other
prefixes, under a random rule selection; a quarter of the cases are one of the bench's
shapes of a valid sitemap, bench/shapes.py, with 1-300 entries and short or long
paths), mutated at 0-3 random byte positions (a removed '<', a stray '&', invalid UTF-8, a
comment inside a value, a copied entry, deleted bytes, junk, a lone CR), checked in
blocks of a random size (the same blocks with and without the fast path), with or
without a sitemap URL, collecting set facts (hreflang records too). Findings, their
fixes (made exact against the file, as the reports show them) and facts are compared; a case
that differs is written to ``--keep`` and counted (so is a case where the checker
raises, which must raise the same either way). Prints the totals at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import shapes  # noqa: E402

from sitemap_lint import fastpath, xsd  # noqa: E402
from sitemap_lint.engine import checker  # noqa: E402
from sitemap_lint.fastpath import bulk  # noqa: E402
from sitemap_lint.fix.runner import resolved  # noqa: E402
from sitemap_lint.inputs.reader import Source  # noqa: E402
from sitemap_lint.run import parse_sitemap_url  # noqa: E402
from sitemap_lint.settings.options import Options  # noqa: E402
from tests.test_fastpath import (  # noqa: E402
    HEAD,
    IRI_LOCS,
    MUTATIONS,
    RAW_LOCS,
    REFERENCE_LOCS,
    extension_head,
    extension_sitemap,
    facts_of,
    index,
    mutate,
    url_entry,
)
from tests.test_fastpath_bulk import uniform_sitemap  # noqa: E402
from tests.test_fastpath_news import news_head, news_sitemap  # noqa: E402
from tests.test_fastpath_video import video_head, video_sitemap  # noqa: E402

NOW = datetime(2025, 6, 1, tzinfo=UTC)
ODD_LOCS = (
    "https://a.io/",
    "https://a.i/",
    "https://www.example.com/" + "p" * 1000,
    "https://www.example.com/" + "p" * 1001,
    "https://www.example.com/a%2G",
    "https://www.example.com/a?b=1&amp;c=2",
    "https://www.EXAMPLE.com/",
    "https://example.com/other",
    "http://www.example.com/section/page-1.html",
    "https://www.example.com/section/../x",
)
ODD_FIELDS = (
    "<lastmod>2024-02-30</lastmod>",
    "<lastmod>2099-01-01</lastmod>",
    "<lastmod>2024-05-01T10:00:00</lastmod>",
    "<priority>1.5</priority>",
    "<changefreq>Daily</changefreq>",
    "<!-- sitemap-lint: disable DU001 -->",
    "<!-- a comment -->",
)


SELECTIONS = (
    None,
    frozenset({"DU001", "HL001", "HL003"}),
    frozenset({"IM001", "IM003", "UR001"}),
    frozenset({"DU001", "SC001"}),
)


def shaped_document(rng: random.Random) -> bytes:
    """One of the bench's shapes, its body mutated (not its root's start tag, as for
    the extension cases below)."""
    shape = rng.choice(list(shapes.SHAPES.values()))
    long = shape.long and rng.random() < 0.3
    head = shape.head.encode("utf-8")
    body = shapes.text(shape, rng.randrange(1, 300), long).encode("utf-8")[len(head) :]
    for kind in rng.sample(MUTATIONS, rng.randrange(0, 4)):
        body = mutate(body, rng, kind)
    return head + body


VALUE = re.compile(r"<(lastmod|changefreq|priority|loc)>([^<]*)</\1>")
ODD_REFERENCES = ("&#32;", "&#xA0;", "&amp;", "&#0;", "&#X41;", "&#1114112;", "&#x3A", "&#;")


def referred(entry: str, rng: random.Random) -> str:
    """The entry's values written with character references in random places (now and
    then one that is no reference or names no printable ASCII), and its loc in a CDATA
    section now and then (its "&" raw there, or a fragment or an "&amp;" kept)."""

    def rewrite(value: re.Match[str]) -> str:
        name, text = value.groups()
        if name == "loc" and rng.random() < 0.3:
            inner = text.replace("&amp;", "&") if rng.random() < 0.8 else text
            inner += rng.choice(["", "", "", "#top", "?a=1&b=2", "]]"])
            return f"<loc><![CDATA[{inner}]]></loc>"
        if not text or rng.random() < 0.4:
            return value.group(0)
        at = rng.randrange(len(text))
        if text[at] == "&":
            return value.group(0)
        code = ord(text[at])
        if rng.random() < 0.1:
            reference = rng.choice(ODD_REFERENCES)
        elif rng.random() < 0.5:
            reference = f"&#{code};"
        else:
            reference = f"&#x{code:x};" if rng.random() < 0.5 else f"&#x{code:X};"
        if rng.random() < 0.1:
            reference = reference.upper() if name != "loc" else reference
        return f"<{name}>{text[:at]}{reference}{text[at + 1 :]}</{name}>"

    return VALUE.sub(rewrite, entry)


BAD_LASTMODS = (
    "2024-05-01 10:00:00",
    "2024-05-01 10:00",
    "2024-02-30",
    "2099-01-01",
    "1970-01-01T00:00:00Z",
    "1969-12-31",
    "2024-05-01T10:00:00",
    "2024-05-01T25:00:00Z",
    "2024-13-01",
    " 2024-05-01",
    "2024-05-01 ",
    "24-05-01 10:00",
    "2024-05-01T10:00:00+15:00",
    "0000-01-01",
    "2024-05",
    "2024",
    "2024-05-01T10:00Z",
    "2024-05-01T10:00:00.5+01:00",
)


def misdated(entry: str, rng: random.Random) -> str:
    """The entry with its lastmod (if any) replaced in place by one the date rules
    report, or one at the edge of what they accept."""
    return re.sub(
        "<lastmod>[^<]*</lastmod>", f"<lastmod>{rng.choice(BAD_LASTMODS)}</lastmod>", entry
    )


# Values the changefreq and priority checks report, or at the edge of what they accept.
BAD_VALUES = {
    "changefreq": (
        "Daily",
        "WEEKLY",
        "dialy",
        "every-day",
        "d&#97;ily",
        "D&#97;ily",
        "x" * 30,
        " daily",
        "daily ",
        "never",
    ),
    "priority": (
        "5",
        "50",
        "1.5",
        "-0.5",
        "1e-1",
        "high",
        "0.5",
        "1.0",
        "01",
        ".5",
        "1.",
        "0" * 30,
        "1,0",
        "&#49;",
    ),
}


def misvalued(entry: str, rng: random.Random) -> str:
    """The entry with its changefreq or priority (if any) replaced in place by one of
    BAD_VALUES."""
    field = rng.choice(list(BAD_VALUES))
    value = rng.choice(BAD_VALUES[field])
    return re.sub(f"<{field}>[^<]*</{field}>", f"<{field}>{value}</{field}>", entry)


SPACES = (" ", "  ", "\n      ", "\t", "\n", "\r\n ", "")


def spaced_loc(entry: str, rng: random.Random) -> str:
    """The entry with white space around its loc's value (UR005)."""
    before, after = rng.choice(SPACES), rng.choice(SPACES)
    return re.sub(r"<loc>([^<]*)</loc>", lambda m: f"<loc>{before}{m.group(1)}{after}</loc>", entry)


def local_host(entry: str, rng: random.Random) -> str:
    """The entry with its loc on a host only a local machine or network reaches (UR019),
    or on a public address written as an IP."""
    host = rng.choice(
        ["localhost:4000", "127.0.0.1", "10.0.0.7", "nas.local", "2130706433", "93.184.215.14"]
    )
    return entry.replace("://www.example.com", f"://{host}", 1)


def upper_host(entry: str, rng: random.Random) -> str:
    """The entry with upper-case letters in its loc's host."""
    host = rng.choice(["www.Example.com", "WWW.EXAMPLE.COM", "www.example.COM", "Www.Ex-ample.com"])
    return entry.replace("://www.example.com", f"://{host}", 1)


# Escapes in a loc's path (lower-case digits, as WordPress writes a slug outside ASCII;
# and some that are no clean escape) and values in CDATA sections.
ESCAPED_SLUGS = ("%d8%a2%d8%aa", "caf%c3%a9", "%E4%b8%ad", "a%2fb", "%7euser", "%c3", "%0a", "%zz")


def escaped_slug(entry: str, rng: random.Random) -> str:
    """The entry with an escaped slug in its loc's path."""
    return entry.replace("/page-", f"/{rng.choice(ESCAPED_SLUGS)}-", 1)


def cdata_values(entry: str, rng: random.Random) -> str:
    """The entry with its values (some, or all) in CDATA sections, as All in One SEO
    writes them."""
    for name in ("loc", "lastmod", "changefreq", "priority"):
        if rng.random() < 0.8:
            entry = re.sub(
                rf"<{name}>([^<]*)</{name}>",
                lambda m, n=name: f"<{n}><![CDATA[{m[1]}]]></{n}>",
                entry,
                count=1,
            )
    return entry


def video_document(rng: random.Random) -> bytes:
    """Entries with video:video elements, clean or with a defect in a child (order, URLs,
    durations, dates, references, CDATA, comments inside...), its body mutated."""
    prefix = rng.choice(["video", "video", "v"])
    odd = rng.choice([0.0, 0.05, 0.3, 1.0])
    text = video_sitemap(rng.randrange(1, 300), rng.randrange(1 << 30), odd, prefix)
    if rng.random() < 0.2:
        text = text.replace("\n", "\r\n")
    return mutated_body(text.encode("utf-8"), video_head(prefix).encode("ascii"), rng)


def news_document(rng: random.Random) -> bytes:
    """Entries, about half with a news:news, clean or with a defect in a child (names
    that differ, languages, dates, titles, legacy fields, order...), its body mutated."""
    prefix = rng.choice(["news", "news", "n"])
    odd = rng.choice([0.0, 0.05, 0.3, 1.0])
    count = rng.choice([rng.randrange(1, 300), rng.randrange(1990, 2100)])
    text = news_sitemap(count, rng.randrange(1 << 30), odd, prefix)
    head = news_head(prefix)
    if rng.random() < 0.3:  # images beside the news, before or after it, some twice
        image = "http://www.google.com/schemas/sitemap-image/1.1"
        end = head.rfind(">")  # the root's start tag's
        with_images = f'{head[:end]} xmlns:image="{image}"{head[end:]}'
        text = with_images + text[len(head) :]
        head = with_images
        pieces = text.split(f"</{prefix}:news>")
        for at in range(1, len(pieces)):
            if rng.random() < 0.5:
                picture = (
                    "<image:image><image:loc>https://cdn.example.com/"
                    f"{rng.randrange(3)}.jpg</image:loc></image:image>"
                )
                pieces[at] = picture * rng.choice([1, 1, 2]) + pieces[at]
        text = f"</{prefix}:news>".join(pieces)
    if rng.random() < 0.2:
        text = text.replace("\n", "\r\n")
    return mutated_body(text.encode("utf-8"), head.encode("ascii"), rng)


def mutated_body(data: bytes, head: bytes, rng: random.Random) -> bytes:
    """``data`` with up to three mutations after its root's start tag ``head``."""
    if data.startswith(head):
        body = data[len(head) :]
        for kind in rng.sample(MUTATIONS, rng.randrange(0, 4)):
            body = mutate(body, rng, kind)
        return head + body
    return data


# What may stand between the XML declaration and the root: style sheets, other
# instructions, comments, and some that are not well-formed or not instructions.
PROLOGUE_ITEMS = (
    '<?xml-stylesheet type="text/xsl" href="//www.example.com/main-sitemap.xsl"?>',
    "<?xml-stylesheet?>",
    "<?pi a='1'?>",
    "<!-- generated -->",
    "\n",
    '<?xml version="1.0"?>',
    "<?XML-stylesheet?>",
    "<?xml-stylesheet <?>",
    "<?pi",
    "<!DOCTYPE urlset>",
)


def with_prologue_items(text: str, rng: random.Random) -> str:
    """``text`` with some of PROLOGUE_ITEMS after its first line (its declaration)."""
    declaration, newline, rest = text.partition("\n")
    items = "".join(rng.choice(PROLOGUE_ITEMS) for _ in range(rng.randrange(1, 4)))
    return declaration + newline + items + rest


def document(rng: random.Random) -> bytes:
    if rng.random() < 0.25:
        return shaped_document(rng)
    if rng.random() < 0.15:  # one layout, odd entries here and there (the windows')
        text = uniform_sitemap(
            rng.randrange(1, 400),
            rng,
            rng.choice([0.0, 0.01, 0.05, 0.3]),
            gaps=rng.random() < 0.3,
        )
        data = text.encode("utf-8")
        for kind in rng.sample(MUTATIONS, rng.choice([0, 0, 1, 2])):
            data = mutate(data, rng, kind)
        return data
    if rng.random() < 0.2:
        return video_document(rng)
    if rng.random() < 0.1:
        return news_document(rng)
    if rng.random() < 0.33:
        # Images and alternates; the root's start tag is not mutated (a CR in a namespace
        # name stops the shadow parse with an error, with or without the fast path).
        prefixes = rng.choice([("image", "xhtml"), ("image", "xhtml"), ("img", "x")])
        odd = rng.choice([0.0, 0.02, 0.1, 0.3])
        text = extension_sitemap(rng.randrange(1, 300), rng.randrange(1 << 30), odd, *prefixes)
        if rng.random() < 0.2:  # escaped slugs in locs and hrefs alike, or in some only
            slug = rng.choice(ESCAPED_SLUGS)
            pieces = text.split("/page-")
            text = pieces[0] + "".join(
                ("/" + (slug if rng.random() < 0.9 else slug.upper()) + "-page-") + piece
                for piece in pieces[1:]
            )
        if rng.random() < 0.2:
            text = text.replace("\n", "\r\n")
        head = extension_head(*prefixes).encode("ascii")
        return mutated_body(text.encode("utf-8"), head, rng)
    if rng.random() < 0.15:
        text = index(rng.randrange(1, 300))
        if rng.random() < 0.3:
            text = "</sitemap>".join(
                misdated(part, rng) if rng.random() < 0.3 else part
                for part in text.split("</sitemap>")
            )
    else:
        count = rng.randrange(1, 400)
        entries = [url_entry(i, rng) for i in range(count)]
        if rng.random() < 0.3:  # raw "&" in many locs (each an XM004 the fast path reports)
            every = rng.randrange(1, 6)
            for at in range(0, count, every):
                query = rng.choice(RAW_LOCS + REFERENCE_LOCS).split("?", 1)[1]
                entries[at] = url_entry(at, rng, loc=f"https://www.example.com/p{at}?{query}")
        if rng.random() < 0.2:  # locs outside ASCII (each a UR011 the fast path reports)
            share = rng.choice([0.05, 0.3, 1.0])
            for at in range(count):
                if rng.random() < share:
                    loc = rng.choice(IRI_LOCS)[0].format(i=at)
                    entries[at] = url_entry(at, rng, loc=loc)
        if rng.random() < 0.3:  # lastmods the date rules report, in place
            share = rng.choice([0.05, 0.3, 1.0])
            entries = [misdated(e, rng) if rng.random() < share else e for e in entries]
        if rng.random() < 0.2:  # hosts with upper-case letters, the same hosts
            share = rng.choice([0.05, 0.3, 1.0])
            entries = [upper_host(e, rng) if rng.random() < share else e for e in entries]
        if rng.random() < 0.1:  # hosts of a local machine or network, or IP addresses
            share = rng.choice([0.05, 0.3, 1.0])
            entries = [local_host(e, rng) if rng.random() < share else e for e in entries]
        if rng.random() < 0.2:  # escaped slugs, lower-case digits among them
            share = rng.choice([0.05, 0.3, 1.0])
            entries = [escaped_slug(e, rng) if rng.random() < share else e for e in entries]
        if rng.random() < 0.15:  # values in CDATA sections
            share = rng.choice([0.3, 1.0])
            entries = [cdata_values(e, rng) if rng.random() < share else e for e in entries]
        if rng.random() < 0.2:  # white space around locs (UR005), in place
            share = rng.choice([0.05, 0.3, 1.0])
            entries = [spaced_loc(e, rng) if rng.random() < share else e for e in entries]
        if rng.random() < 0.3:  # changefreqs and priorities their checks report, in place
            share = rng.choice([0.05, 0.3, 1.0])
            entries = [misvalued(e, rng) if rng.random() < share else e for e in entries]
        if rng.random() < 0.3:  # references in values, CDATA locs
            share = rng.choice([0.05, 0.3, 1.0])
            entries = [referred(e, rng) if rng.random() < share else e for e in entries]
        for _ in range(rng.randrange(0, 6)):
            at = rng.randrange(count)
            if rng.random() < 0.5:
                entries[at] = url_entry(at, rng, loc=rng.choice(ODD_LOCS))
            else:
                entries[at] = entries[at].replace("</url>", rng.choice(ODD_FIELDS) + "</url>")
        for _ in range(rng.randrange(0, 4)):  # duplicates anywhere
            entries.insert(rng.randrange(count), rng.choice(entries))
        if rng.random() < 0.1:
            entries.insert(rng.randrange(count), "  stray text\n")
        text = HEAD + "".join(entries) + "</urlset>\n"
    if rng.random() < 0.15:
        text = with_prologue_items(text, rng)
    if rng.random() < 0.3:
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    for kind in rng.sample(MUTATIONS, rng.randrange(0, 4)):
        data = mutate(data, rng, kind)
    return data


def outcome(
    path: Path,
    switch: str,
    block: int | None,
    sitemap_url: str | None,
    enabled: frozenset[str] | None = None,
) -> Any:
    os.environ[fastpath.ENV] = switch
    original = checker._blocks
    if block is not None:

        def blocks(texts: Any, _size: int = 0) -> Any:
            text = "".join(texts)
            for start in range(0, len(text), block):
                yield text[start : start + block]

        checker._blocks = blocks  # type: ignore[assignment]
    try:
        options = Options(
            now=NOW, collect=True, sitemap_url=parse_sitemap_url(sitemap_url), enabled=enabled
        )
        result = checker.check_source(Source(str(path), path), options, ENGINE)
    except Exception as error:  # a defect of the checker: it must be the same either way
        return ("error", type(error).__name__, str(error))
    finally:
        checker._blocks = original
    # The fixes as the reports show them: made exact against the file.
    (shown,) = resolved([result], {str(path): Source(str(path), path)})
    fixes = [
        None
        if f.fix is None
        else (f.fix.applicability, f.fix.message, [_edit(edit) for edit in f.fix.edits])
        for f in shown.findings
    ]
    return ([repr(f) for f in result.findings], fixes, facts_of(result))


def _edit(edit: Any) -> tuple[Any, ...]:
    return (edit.line, edit.column, edit.content, edit.target, edit.end_line, edit.end_column)


ENGINE = xsd.load("libxml2")
LONG_URL = fastpath.LONG_URL
BULK_FROM, BULK_SHORT, BULK_AGAIN = fastpath._BULK_FROM, fastpath._BULK_SHORT, fastpath._BULK_AGAIN
BULK_SHORT_EXTENDED = fastpath._BULK_SHORT_EXTENDED
BULK_ENTRIES, BULK_WINDOW = bulk.MIN_ENTRIES, bulk.MIN_WINDOW


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--keep", default="/tmp/fastpath-fuzz")
    args = parser.parse_args()
    fastpath.SMALL = 0
    keep = Path(args.keep)
    keep.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    path = keep / "case.xml"
    cases = differences = proved_cases = errors = 0
    end = time.monotonic() + args.minutes * 60
    made: list[fastpath.FastPath] = []
    init = fastpath.FastPath.__init__

    def counting(self: fastpath.FastPath, *a: Any, **k: Any) -> None:
        init(self, *a, **k)
        made.append(self)

    fastpath.FastPath.__init__ = counting  # type: ignore[method-assign]
    while time.monotonic() < end:
        data = document(rng)
        path.write_bytes(data)
        block = rng.choice([None, None, 64, 100, 257, 1000, 4096])
        url = rng.choice([None, None, "https://www.example.com/section/sitemap.xml"])
        enabled = rng.choice(SELECTIONS) if b"xhtml" in data[:400] else None
        # A third of the cases delimit their locs as a file of long URLs does.
        fastpath.LONG_URL = rng.choice([0, LONG_URL, LONG_URL])
        # Windows of entries (fastpath/bulk.py) tried from the first entries or later,
        # small or as they are.
        fastpath._BULK_FROM = rng.choice([1, 8, BULK_FROM])
        fastpath._BULK_SHORT = rng.choice([2, BULK_SHORT])
        fastpath._BULK_SHORT_EXTENDED = rng.choice([2, BULK_SHORT_EXTENDED])
        fastpath._BULK_AGAIN = rng.choice([2, BULK_AGAIN])
        bulk.MIN_ENTRIES = rng.choice([2, BULK_ENTRIES])
        bulk.MIN_WINDOW = rng.choice([64, BULK_WINDOW])
        slow = outcome(path, "0", block, url, enabled)
        made.clear()
        fast = outcome(path, "1", block, url, enabled)
        cases += 1
        if slow[0] == "error":
            errors += 1
            (keep / f"error-{errors}.xml").write_bytes(data)
        if any(f.proved for f in made):
            proved_cases += 1
        if slow != fast:
            differences += 1
            (keep / f"difference-{differences}.xml").write_bytes(data)
            print(f"difference: block {block}, sitemap URL {url}, rules {enabled}", flush=True)
    print(
        f"seed {args.seed}: {cases} cases in {args.minutes:g} minutes, "
        f"{proved_cases} with entries proved by the fast path, {differences} differences, "
        f"{errors} where the checker failed (the same way with and without the fast path)"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
