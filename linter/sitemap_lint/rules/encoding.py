"""Encoding rules: the protocol requires UTF-8."""

from __future__ import annotations

import codecs

from sitemap_lint.finding import Finding
from sitemap_lint.fix.model import whole_file
from sitemap_lint.rules.base import ERROR, INFO, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.events import NOT_XML, ROBOTS, TEXT, InputKind, InputProblem, Prolog
from sitemap_lint.rules.registry import INPUT, PROLOG
from sitemap_lint.rules.structure import Reporter

# The names of UTF-8 in an XML declaration that are not reported.
UTF8_NAMES = {"utf-8"}
# The other labels of UTF-8 in the WHATWG Encoding Standard: browsers know them, XML
# parsers need not.
UTF8_LABELS = {"utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"}
MAX_SHOWN_NAME = 40

INVALID_BYTES = rule(
    "EN001",
    "invalid-utf8",
    ERROR,
    summary="Bytes that are not valid UTF-8",
    what="""
        Checks that the file decodes as UTF-8 and reports the first invalid byte
        of each affected line. The bytes are replaced so the rest of the file is
        still checked.
    """,
    why="""
        Sitemaps must be UTF-8. Invalid bytes make strict parsers reject the file;
        lenient ones turn the URL into something else (mojibake), so the wrong
        page is crawled. They usually come from Latin-1 or Windows-1252 text
        pasted into a UTF-8 file.
    """,
    bad="<loc>https://example.com/caf\\xe9</loc>   (byte E9: Latin-1 for 'é')",
    good="<loc>https://example.com/caf%C3%A9</loc>",
)

DECLARED_ENCODING = rule(
    "EN002",
    "encoding-not-utf8",
    ERROR,
    fix="safe",
    summary="The XML declaration names an encoding other than UTF-8",
    what="""
        Checks the `encoding` of the XML declaration. The file is decoded with the
        declared encoding where possible, so the other checks still run. A file
        whose bytes are UTF-8 under the name of a single-byte encoding (such as
        ISO-8859-1 or Windows-1252: its first non-ASCII bytes decode as UTF-8) is
        read as UTF-8, and its fix changes only the declaration.
    """,
    why="""
        The protocol requires UTF-8. Google and Bing expect it; other encodings
        are read wrongly or rejected.
    """,
    bad='<?xml version="1.0" encoding="ISO-8859-1"?>',
    good='<?xml version="1.0" encoding="UTF-8"?>',
)

WIDE_ENCODING = rule(
    "EN003",
    "utf16-or-utf32",
    ERROR,
    fix="safe",
    summary="The file is encoded as UTF-16 or UTF-32",
    what="""
        Detects UTF-16 and UTF-32 files by their byte order mark or, without
        one, by the NUL bytes around the first characters (`<` or whitespace,
        then an ASCII character, in either byte order; or, as a text sitemap or
        a robots.txt starts, four printable ASCII characters). The file is
        decoded anyway, so the other checks still run.
    """,
    why="""
        Sitemaps must be UTF-8. Windows tools (PowerShell's `Out-File`, Notepad's
        "Unicode") write UTF-16 by default; search engines cannot read it.
    """,
    bad="sitemap.xml saved as 'Unicode' (UTF-16 LE with BOM FF FE)",
    good="sitemap.xml saved as 'UTF-8'",
    lang="text",
)

BYTE_ORDER_MARK = rule(
    "EN004",
    "utf8-bom",
    INFO,
    fix="safe",
    summary="The file starts with a UTF-8 byte order mark",
    what="Detects the UTF-8 byte order mark (EF BB BF) at the start of the file.",
    why="""
        A BOM is legal XML, but some crawlers and tools treat it as content
        before the XML declaration ("Leading whitespace"). Saving without a BOM
        avoids the question.
    """,
    bad="EF BB BF 3C 3F 78 6D 6C ...   (BOM, then <?xml)",
    good="3C 3F 78 6D 6C ...            (<?xml at byte 0)",
    lang="text",
)

ENCODING_ALIAS = rule(
    "EN005",
    "encoding-name-not-canonical",
    WARNING,
    fix="safe",
    summary="The XML declaration spells UTF-8 in a form other than `UTF-8`",
    what="""
        Detects an `encoding` in the XML declaration that is a label of UTF-8
        but not its registered name, such as `UTF8` or `unicode-1-1-utf-8`, and
        names the canonical spelling. (The case does not matter: `utf-8` is
        fine.) Names that only some libraries know, such as `u8`, `utf_8` or
        `cp65001`, are `encoding-not-utf8`, as parsers reject them.
    """,
    why="""
        XML parsers are required to know `UTF-8` only. `UTF8` is a browser
        label, not the registered name: expat and the parsers built on it stop
        at the declaration with "unknown encoding", so the sitemap is not read
        at all there.
    """,
    bad='<?xml version="1.0" encoding="UTF8"?>',
    good='<?xml version="1.0" encoding="UTF-8"?>',
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Encoding"
ORDER = 30

RULES = (INVALID_BYTES, DECLARED_ENCODING, WIDE_ENCODING, BYTE_ORDER_MARK, ENCODING_ALIAS)


def is_utf8_alias(name: str) -> bool:
    """Whether Python's codecs read ``name`` (lower case) as UTF-8."""
    try:
        return codecs.lookup(name).name == "utf-8"
    except LookupError:
        return False


@check(
    PROLOG,
    emits=(DECLARED_ENCODING, ENCODING_ALIAS, WIDE_ENCODING, BYTE_ORDER_MARK),
    proof=NO_PROOF,
)
def check_encoding(prolog: Prolog, options: object, report: Reporter) -> None:
    """The byte order mark, UTF-16 or UTF-32, and the encoding the XML declaration names
    (none of them in a file that is not XML at all: its finding says enough)."""
    if prolog.form == NOT_XML:
        return
    if prolog.byte_order_mark:
        report.add(byte_order_mark())
    if prolog.wide is not None:
        report.add(wide_encoding(*prolog.wide, form=prolog.form))
    declaration = prolog.declaration
    if declaration is None or declaration.encoding is None:
        return
    declared = declaration.encoding
    line, column = declaration.encoding_at
    lower = declared.lower()
    if lower in UTF8_LABELS:
        report.add(encoding_alias(declared, line, column))
    elif lower not in UTF8_NAMES:
        # Quoted as written (ISO-8859-1, not iso-8859-1): it is the text the user looks for.
        shown = declared[:MAX_SHOWN_NAME] + ("..." if len(declared) > MAX_SHOWN_NAME else "")
        utf8 = is_utf8_alias(lower)
        marked = prolog.byte_order_mark
        report.add(
            declared_encoding(
                shown, column, line, utf8=utf8, marked=marked, utf8_bytes=declaration.utf8_bytes
            )
        )


@check(INPUT, emits=(INVALID_BYTES,), proof=NO_PROOF)
def check_bytes(problem: InputProblem, options: object, report: Reporter) -> None:
    """EN001 for bytes the file's encoding cannot decode, or bytes never valid in UTF-8
    before its text."""
    if problem.kind == InputKind.INVALID_BYTES:
        report.add(
            invalid_bytes(
                problem.codec,
                problem.data,
                problem.line,
                problem.column,
                problem.detail,
                cut=problem.cut,
            )
        )
    elif problem.kind == InputKind.STRAY_MARK:
        report.add(stray_mark(problem.data, problem.detail))


def invalid_bytes(
    codec: str, raw: bytes, line: int, column: int, declared: str = "", cut: bool = False
) -> Finding:
    """EN001 for ``raw``, bytes ``codec`` cannot decode; ``declared``: the name the XML
    declaration gives that encoding, as written; ``cut``: they start a character that
    the end of the file leaves incomplete."""
    shown = " ".join(f"{byte:02X}" for byte in raw[:8])
    what = f"byte {shown} is" if len(raw) == 1 else f"bytes {shown} are"
    if codec == "utf-8" and cut and len(raw) == 1:
        # One lead byte alone may as well be a Latin-1 letter (E9, é) ending the file.
        message = (
            f"byte {shown} at the end of the file is not valid UTF-8: the start of a "
            "character whose other bytes are missing (the file was cut off?), or a Latin-1 "
            "or Windows-1252 character; upload the complete file, or re-encode it as UTF-8"
        )
    elif codec == "utf-8" and cut:
        message = (
            f"bytes {shown} at the end of the file are not valid UTF-8: they start a "
            "character whose other bytes are missing, so the file was cut off; upload the "
            "complete file, or regenerate it if its generator stopped"
        )
    elif codec == "utf-8":
        hint = " (Latin-1 or Windows-1252 text?)" if len(raw) == 1 else ""
        message = f"{what} not valid UTF-8{hint}; re-encode the file as UTF-8"
    else:
        # No converter re-encodes bytes that are not in the encoding it converts from.
        them = "it" if len(raw) == 1 else "them"
        message = (
            f"{what} not valid {declared or codec}, the encoding the file is read in: "
            f"correct {them}, then re-encode the file as UTF-8"
        )
    return INVALID_BYTES.at(line, column, message)


def declared_encoding(
    declared: str,
    column: int,
    line: int = 1,
    utf8: bool = False,
    marked: bool = False,
    utf8_bytes: bool = False,
) -> Finding:
    """EN002 for ``declared``, the name as the declaration writes it; ``utf8`` when the
    name is a library's alias of UTF-8 that XML parsers do not know (u8, utf_8, cp65001);
    ``marked`` when the file starts with UTF-8's byte order mark, so it is read as UTF-8;
    ``utf8_bytes`` when the name is a single-byte encoding's but the bytes are UTF-8."""
    if utf8_bytes and not marked:
        message = (
            f'XML declaration says encoding="{declared}", but the bytes are UTF-8 and are '
            'read as UTF-8; the text is UTF-8 already: write encoding="UTF-8" (converting '
            f"it from {declared} would garble its non-ASCII characters)"
        )
    elif marked and not utf8:
        message = (
            f'XML declaration says encoding="{declared}", but the file starts with a UTF-8 '
            'byte order mark and is read as UTF-8; the text is UTF-8 already: write encoding="UTF-8"'
        )
    elif utf8:
        message = (
            f'XML declaration says encoding="{declared}", a name some libraries give UTF-8 '
            'but not one XML parsers know, so they reject the file; write encoding="UTF-8"'
        )
    elif declared.lower().startswith(
        ("utf-16", "utf16", "utf-32", "utf32", "ucs-2", "ucs2", "ucs-4")
    ):
        # Reached only when the bytes are not UTF-16/32 at all (no BOM, no NUL bytes).
        message = (
            f'XML declaration says encoding="{declared}" but the bytes are not in that '
            'encoding; sitemaps must be UTF-8: write encoding="UTF-8"'
        )
    else:
        message = (
            f'XML declaration says encoding="{declared}"; sitemaps must be UTF-8: '
            'convert the file to UTF-8 and write encoding="UTF-8"'
        )
    return DECLARED_ENCODING.at(
        line, max(column, 1), message, fix=whole_file("encoding", "Re-encode the file as UTF-8")
    )


def encoding_alias(declared: str, line: int, column: int) -> Finding:
    return ENCODING_ALIAS.at(
        line,
        max(column, 1),
        f'XML declaration says encoding="{declared}", a label of UTF-8 that browsers know but '
        "XML parsers need not; every XML parser knows its registered name: write "
        'encoding="UTF-8"',
        fix=whole_file("encoding", 'Write encoding="UTF-8"'),
    )


def wide_encoding(
    family: str, codec: str, declared: str | None = None, form: str | None = None
) -> Finding:
    """EN003 for a file in ``family`` (``codec``) whose XML declaration names ``declared``;
    ``form``: what the file is (a text sitemap or a robots.txt has no declaration)."""
    claim = ""
    if declared is not None and declared.lower().replace("-", "") == "utf8":
        claim = f', although its XML declaration says encoding="{declared}"'
    if form in (TEXT, ROBOTS):
        what = "a text sitemap" if form == TEXT else "a robots.txt"
        fix = f"{what} must be UTF-8: re-encode it as UTF-8 (without a byte order mark)"
    else:
        fix = (
            "sitemaps must be UTF-8: re-encode it as UTF-8 (without a byte order mark) "
            'with encoding="UTF-8"'
        )
    return WIDE_ENCODING.at(
        1,
        1,
        f"file is encoded as {family} ({codec}){claim}; {fix}",
        fix=whole_file("encoding", "Re-encode the file as UTF-8"),
    )


def stray_mark(raw: bytes, family: str) -> Finding:
    """Bytes at the start that look like a UTF-16/32 byte order mark in a file that is not
    in that encoding."""
    shown = " ".join(f"{byte:02X}" for byte in raw[:8])
    what = f"a {family} byte order mark" if family else "never valid in UTF-8"
    return INVALID_BYTES.at(
        1,
        1,
        f"the file starts with bytes {shown} ({what}), but the text after them is not "
        f"{family or 'in another encoding'}: they are not valid UTF-8; remove them and save "
        "the file as UTF-8 without a byte order mark",
    )


def byte_order_mark() -> Finding:
    return BYTE_ORDER_MARK.at(
        1,
        1,
        "file starts with a UTF-8 byte order mark; save it without one",
        fix=whole_file("bom", "Remove the byte order mark"),
    )
