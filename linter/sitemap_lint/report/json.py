"""The JSON report: one document on stdout, a stable interface (``version`` 1).

Strings are as the run has them; a byte of a file name that is no UTF-8 is written as
``\\xNN`` (``support.printable.encodable_json``), so the document is always UTF-8.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import islice
from json.encoder import encode_basestring
from typing import Any

from sitemap_lint._version import __version__
from sitemap_lint.finding import Edit, Finding, FindingFix
from sitemap_lint.report.base import FileReport, Reporter, RunInfo, Summary
from sitemap_lint.support.printable import encodable_json

FORMAT_VERSION = 1


class JsonReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        summary = Summary.of(results)
        document = {
            "version": FORMAT_VERSION,
            "tool": {"name": "sitemap-lint", "version": __version__},
            "files": [
                {
                    "path": result.name,
                    **_file_fields(result),
                    "findings": list(result.findings),
                }
                for result in results
            ],
            "summary": {
                "files": summary.files,
                "errors": summary.errors,
                "warnings": summary.warnings,
                "infos": summary.infos,
                **({"urls": summary.urls} if summary.urls is not None else {}),
                "rules": {rule.split(" ", 1)[0]: count for rule, count in summary.by_rule.items()},
                **_baseline(self.run),
                **({"live": _untimed(self.run.live)} if self.run and self.run.live else {}),
            },
        }
        write(document, "", lambda piece: self.out.write(encodable_json(piece)))
        self.out.write("\n")


def _baseline(run: RunInfo | None) -> dict[str, dict[str, int]]:
    """``--baseline``: the findings it matched (not reported) and the recorded ones the
    run did not see."""
    if run is None or run.baseline is None:
        return {}
    matched, unseen = run.baseline
    return {"baseline": {"matched": matched, "unseen": unseen}}


# Lists longer than this are written in batches of encoded items (each item whole).
_BATCH = 512


def write(value: object, indent: str, out: Callable[[str], object]) -> None:
    """Write ``value`` exactly as ``json.dump(value, ensure_ascii=False, indent=2)`` does
    at the indentation ``indent``, in batches: json.dump's encoder is a generator that
    writes each of its few million pieces on its own for 50,000 findings, several
    times slower. An iterator is written as the list of its items, made as they are
    written. Memory stays that of one batch (or one short list's item)."""
    if isinstance(value, dict) and value and all(isinstance(key, str) for key in value):
        inner = indent + "  "
        out("{")
        separator = "\n"
        for key, item in value.items():
            out(f"{separator}{inner}{encode_basestring(key)}: ")
            write(item, inner, out)
            separator = ",\n"
        out(f"\n{indent}}}")
    elif isinstance(value, list) and value and len(value) <= _BATCH:
        inner = indent + "  "
        out("[")
        separator = "\n"
        for item in value:
            out(f"{separator}{inner}")
            write(item, inner, out)
            separator = ",\n"
        out(f"\n{indent}]")
    elif isinstance(value, (list, Iterator)):
        _write_batches(iter(value), indent, out)
    else:
        out(encode(value, indent))


def _write_batches(items: Iterator[object], indent: str, out: Callable[[str], object]) -> None:
    """A list whose items come from ``items``, encoded ``_BATCH`` at a time: only one
    batch of them is held (a report's items can be made as they are written)."""
    batch = list(islice(items, _BATCH))
    if not batch:
        out("[]")
        return
    inner = indent + "  "
    head = "[\n"
    while batch:
        out(head + inner + f",\n{inner}".join(encode(item, inner) for item in batch))
        head = ",\n"
        batch = list(islice(items, _BATCH))
    out(f"\n{indent}]")


def encode(value: object, indent: str) -> str:
    """``value`` as ``json.dumps(value, ensure_ascii=False, indent=2)`` gives it at the
    indentation ``indent`` (anything but strings, integers, None, booleans, lists and
    dictionaries with string keys goes to json.dumps itself)."""
    if type(value) is str:
        return encode_basestring(value)
    if type(value) is dict:
        return _encode_dict(value, indent)
    if type(value) is int:
        return int.__repr__(value)
    if isinstance(value, str):
        return encode_basestring(value)
    if isinstance(value, Finding):
        return _finding(value, indent)
    own = getattr(type(value), "__json__", None)
    if own is not None:  # an object that writes itself (a SARIF result)
        return str(own(value, indent))
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, dict):
        return _encode_dict(value, indent)
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = indent + "  "
        items = f",\n{inner}".join([encode(item, inner) for item in value])
        return f"[\n{inner}{items}\n{indent}]"
    return _by_json(value, indent)


def _encode_dict(value: dict[object, object], indent: str) -> str:
    if not value:
        return "{}"
    inner = indent + "  "
    parts = []
    for key, item in value.items():
        if type(key) is not str:
            return _by_json(value, indent)
        parts.append(
            f"{encode_basestring(key)}: "
            + (encode_basestring(item) if type(item) is str else encode(item, inner))
        )
    items = f",\n{inner}".join(parts)
    return f"{{\n{inner}{items}\n{indent}}}"


def _by_json(value: object, indent: str) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)


def _number(value: object, indent: str) -> str:
    return int.__repr__(value) if type(value) is int else encode(value, indent)


# What repeats from finding to finding, encoded once by indentation: the pieces of a
# finding's encoding by rule (``_finding_pieces``), of a fix's by applicability and
# message (``_fix_pieces``), of an edit's (``_edit_pieces``); an f-string joins them.
_FINDING_HEADS: dict[tuple[str, str, int, str], tuple[str, ...]] = {}
_FIX_HEADS: dict[tuple[int, str, str], tuple[Any, ...]] = {}


def _finding(f: Finding, indent: str) -> str:
    """A finding as ``encode`` gives the object of its fields: code, name, severity,
    message, line, column, then ``fix`` and ``xpath`` when it has them."""
    key = (f.code, f.name, int(f.severity), indent)  # an enum's hash is Python code
    pieces = _FINDING_HEADS.get(key)
    if pieces is None:
        pieces = _FINDING_HEADS[key] = _finding_pieces(f, indent)
    head, at_line, at_column, fix_key, xpath_key, inner, end = pieces
    line: object = f.line
    column: object = f.column
    fix = "" if f.fix is None else f"{fix_key}{_encode_fix(f.fix, inner)}"
    xpath = "" if f.xpath is None else f"{xpath_key}{encode_basestring(f.xpath)}"
    if type(line) is not int:
        line = encode(line, inner)
    if type(column) is not int:
        column = encode(column, inner)
    return (
        f"{head}{encode_basestring(f.message)}{at_line}{line}{at_column}{column}{fix}{xpath}{end}"
    )


def _finding_pieces(f: Finding, indent: str) -> tuple[str, ...]:
    """The text of a finding's encoding before its message, between the message and the
    line, between the line and the column, before the fix and before the xpath, then
    the indentation of its fields and its end."""
    inner = indent + "  "
    head = (
        f'{{\n{inner}"code": {encode_basestring(f.code)},\n'
        f'{inner}"name": {encode_basestring(f.name)},\n'
        f'{inner}"severity": {encode_basestring(str(f.severity))},\n'
        f'{inner}"message": '
    )
    return (
        head,
        f',\n{inner}"line": ',
        f',\n{inner}"column": ',
        f',\n{inner}"fix": ',
        f',\n{inner}"xpath": ',
        inner,
        f"\n{indent}}}",
    )


def _encode_fix(fix: FindingFix, indent: str) -> str:
    """A finding's fix as ``encode`` gives the object of its applicability, message and
    edits (each its content, location and end location, 1-based, the end exclusive, and
    its target when it is not a span of the text: "bom" or "encoding")."""
    key = (id(fix.applicability), fix.message, indent)  # an enum's hash is Python code
    pieces = _FIX_HEADS.get(key)
    if pieces is None:
        pieces = _FIX_HEADS[key] = _fix_pieces(fix, indent)
    head, opening, separator, closing, edit_pieces = pieces
    edits = fix.edits
    if len(edits) == 1:  # most fixes: no list to join
        shown = _edit(edits[0], edit_pieces)
    elif edits:
        shown = separator.join([_edit(edit, edit_pieces) for edit in edits])
    else:
        return f"{head}[]\n{indent}}}"
    return f"{head}{opening}{shown}{closing}"


def _fix_pieces(fix: FindingFix, indent: str) -> tuple[Any, ...]:
    """What a fix's encoding starts with (up to its edits), what opens, separates and
    closes the list of its edits, and the pieces of each edit (``_edit_pieces``)."""
    i1, i2 = indent + "  ", indent + "    "
    head = (
        f'{{\n{i1}"applicability": {encode_basestring(str(fix.applicability))},\n'
        f'{i1}"message": {encode_basestring(fix.message)},\n'
        f'{i1}"edits": '
    )
    return head, f"[\n{i2}", f",\n{i2}", f"\n{i1}]\n{indent}}}", _edit_pieces(i2)


def _edit(edit: Edit, pieces: tuple[str, ...]) -> str:
    (at_content, at_line, at_column, at_end_line, at_end_column, closed, at_target, end, inner) = (
        pieces
    )
    line: object = edit.line
    column: object = edit.column
    end_line: object = edit.end_line
    end_column: object = edit.end_column
    if not (
        type(line) is int
        and type(column) is int
        and type(end_line) is int
        and type(end_column) is int
    ):
        line, column, end_line, end_column = (
            _number(number, inner) for number in (line, column, end_line, end_column)
        )
    target = "" if edit.target == "span" else f"{at_target}{encode_basestring(edit.target)}"
    return (
        f"{at_content}{encode_basestring(edit.content)}{at_line}{line}{at_column}{column}"
        f"{at_end_line}{end_line}{at_end_column}{end_column}{closed}{target}{end}"
    )


def _edit_pieces(indent: str) -> tuple[str, ...]:
    """The text of an edit's encoding at ``indent``: before its content, before each of
    its four numbers, after the last, before its target and at its end; then the
    indentation of the numbers."""
    i3, i4 = indent + "  ", indent + "    "
    return (
        f'{{\n{i3}"content": ',
        f',\n{i3}"location": {{\n{i4}"line": ',
        f',\n{i4}"column": ',
        f'\n{i3}}},\n{i3}"end_location": {{\n{i4}"line": ',
        f',\n{i4}"column": ',
        f"\n{i3}}}",
        f',\n{i3}"target": ',
        f"\n{indent}}}",
        i4,
    )


def _file_fields(result: FileReport) -> dict[str, object]:
    """What the file is and how many URLs it lists, when it is one of the kinds."""
    fields: dict[str, object] = {}
    if result.kind is not None:
        fields["kind"] = result.kind
    if result.urls is not None:
        fields["urls"] = result.urls
    return fields


# The live audit's timings: shown on the HTML page, left out here so that the same
# answers give the same JSON, byte for byte.
_TIMINGS = ("slowest_hosts", "seconds")


def _untimed(live: Mapping[str, object]) -> dict[str, object]:
    return {key: value for key, value in live.items() if key not in _TIMINGS}
