"""Value rules: `changefreq` and `priority`."""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING

from sitemap_lint.fix.model import replace_text, shown_text
from sitemap_lint.model import Node
from sitemap_lint.rules.base import ERROR, INFO, check, rule
from sitemap_lint.rules.registry import proved_value
from sitemap_lint.rules.structure import CoverageReporter, Reporter
from sitemap_lint.support.patterns import lazy

CHANGEFREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")

INVALID_CHANGEFREQ = rule(
    "VA001",
    "changefreq-invalid",
    ERROR,
    summary="`changefreq` is not one of the seven values",
    what="""
        Checks `changefreq` against `always`, `hourly`, `daily`, `weekly`,
        `monthly`, `yearly` and `never`, and suggests the closest one.
    """,
    why="""
        Other values make the file invalid against the schema; parsers drop them
        or fall back to a default. (Google ignores `changefreq`; removing it is
        also a fix.)
    """,
    bad="<changefreq>every day</changefreq>",
    good="<changefreq>daily</changefreq>",
)

CHANGEFREQ_FORM = rule(
    "VA002",
    "changefreq-case-or-space",
    ERROR,
    fix="safe",
    summary="`changefreq` in the wrong case or with whitespace",
    what="Detects a valid `changefreq` written with capitals or surrounded by whitespace.",
    why="""
        The schema's values are lower case and compared exactly, so `Daily` or
        ` weekly ` make the file invalid even though the meaning is clear.
    """,
    bad="<changefreq>Daily</changefreq>",
    good="<changefreq>daily</changefreq>",
)

INVALID_PRIORITY = rule(
    "VA003",
    "priority-invalid",
    ERROR,
    fix="safe",
    summary="`priority` is not a decimal number from 0.0 to 1.0",
    what="""
        Checks that `priority` is a decimal number (with a dot) from 0.0 to 1.0,
        and names the fix for a decimal comma, a percentage or a word. A decimal
        comma is fixed safely (`0,5` is 0.5: no number with a thousands separator
        starts `0,`), except in a value that also reads as a whole number with a
        thousands separator (`1,000`: 1.0 or 1000), whose fix to `1.000` is unsafe.
    """,
    why="""
        Other values make the file invalid against the schema; parsers fall back
        to 0.5 or drop the entry. (Google ignores `priority`.)
    """,
    bad="<priority>0,8</priority>",
    good="<priority>0.8</priority>",
)

LONG_VALUE = rule(
    "VA004",
    "value-over-100-bytes",
    INFO,
    summary="A `lastmod`, `changefreq` or `priority` value over 100 bytes (Yandex's limit)",
    what="""
        Reports a `lastmod`, `changefreq` or `priority` whose text, padding
        included, is longer than 100 bytes while the value itself is valid. The
        `yandex` profile makes it an error.
    """,
    why="""
        Yandex rejects longer values. It happens when a template indents or
        pads the value with whitespace and line breaks.
    """,
    bad="""
        <lastmod>
                                            2024-05-08T10:00:00+00:00
                                                            </lastmod>
    """,
    good="<lastmod>2024-05-08T10:00:00+00:00</lastmod>",
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Values"
ORDER = 90

RULES = (INVALID_CHANGEFREQ, CHANGEFREQ_FORM, INVALID_PRIORITY, LONG_VALUE)

MAX_VALUE_BYTES = 100

if TYPE_CHECKING:
    from decimal import Decimal

    from sitemap_lint.rules.entry import EntryContext


def check_length(node: Node, report: Reporter) -> None:
    """VA004; called only for values no other rule reported."""
    if len(node.text) * 4 <= MAX_VALUE_BYTES:
        return  # no UTF-8 character is longer than 4 bytes
    size = len(node.text.encode("utf-8"))
    if size > MAX_VALUE_BYTES:
        report.add(
            LONG_VALUE.at(
                node.line,
                node.column,
                f"<{node.name}> holds {size} bytes with its whitespace; Yandex reads values of "
                f"at most 100 bytes: write "
                f"<{node.name}>{shown_text(node.text.strip())}</{node.name}>",
            )
        )


_DECIMAL = lazy(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")
_SCIENTIFIC = lazy(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][+-]?[0-9]{1,2}")
_CHANGEFREQ_SET = frozenset(CHANGEFREQS)
_PRIORITY_OK = frozenset(f"{whole}.{tenth}" for whole in "0" for tenth in "0123456789") | {
    "1.0",
    "1",
    "0",
    "1.00",
    "0.5",
}
# Words and phrases that generators write for the seven values (compared without
# spaces, hyphens and underscores, in lower case).
_SYNONYMS = {
    "continuously": "always",
    "constantly": "always",
    "realtime": "always",
    "everyhour": "hourly",
    "eachhour": "hourly",
    "perhour": "hourly",
    "hour": "hourly",
    "everyday": "daily",
    "eachday": "daily",
    "perday": "daily",
    "day": "daily",
    "everyweek": "weekly",
    "eachweek": "weekly",
    "perweek": "weekly",
    "week": "weekly",
    "everymonth": "monthly",
    "eachmonth": "monthly",
    "permonth": "monthly",
    "month": "monthly",
    "everyyear": "yearly",
    "eachyear": "yearly",
    "peryear": "yearly",
    "year": "yearly",
    "annually": "yearly",
    "annual": "yearly",
    "none": "never",
    "archived": "never",
}
_WORD_GLUE = lazy(r"[\s_-]+")


def check_changefreq(value: str, node: Node, report: Reporter) -> None:
    if value in _CHANGEFREQ_SET:
        return
    normalized = value.strip().lower()
    if normalized in _CHANGEFREQ_SET:
        report.add(
            CHANGEFREQ_FORM.at(
                node.line,
                node.column,
                f"changefreq {value!r} must be written exactly {normalized!r} "
                "(lower case, no spaces)",
                fix=replace_text(node, normalized, f"Write {normalized!r}")
                if value == node.text
                else None,
            ),
            node,
        )
        return
    guess = _SYNONYMS.get(_WORD_GLUE.sub("", normalized))
    if guess is None:
        close = difflib.get_close_matches(normalized, CHANGEFREQS, n=1, cutoff=0.6)
        guess = close[0] if close else None
    hint = f"did you mean {guess!r}? " if guess else ""
    report.add(
        INVALID_CHANGEFREQ.at(
            node.line,
            node.column,
            f"changefreq {value.strip()!r} is not a valid value; {hint}use one of "
            + ", ".join(CHANGEFREQS),
        ),
        node,
    )


def check_priority(value: str, node: Node, report: Reporter) -> None:
    if value in _PRIORITY_OK:
        return
    from decimal import Decimal  # imported by the values that need it only

    text = value.strip()
    message = None
    fix = None
    if _DECIMAL.match(text):
        number = Decimal(text)
        if not Decimal(0) <= number <= Decimal(1):
            message = f"priority {text} is outside 0.0 to 1.0"
            if number == number.to_integral() and Decimal(1) < number <= Decimal(10):
                written = _decimal(number / 10)
                message += f"; on a 0-10 scale write {written}"
                how = f"Read the priority on a 0-10 scale: write {written}"
            elif number == number.to_integral() and Decimal(10) < number <= Decimal(100):
                written = _decimal(number / 100)
                message += f"; as a percentage write {written}"
                how = f"Read the priority as a percentage: write {written}"
            elif number < 0:
                written, how = "0.0", "Clamp the priority to 0.0"
                message += "; write 0.0 for the least important pages, or a value up to 1.0"
            else:
                written, how = "1.0", "Clamp the priority to 1.0"
                message += "; write 1.0 for the most important pages, or a lower value"
            # Unsafe: the scale is a guess, and a clamp changes what the value says.
            fix = replace_text(node, written, how, safe=False)
    elif re.fullmatch(r"[+-]?[0-9]*,[0-9]+", text):
        fixed = text.replace(",", ".")
        in_range = Decimal(0) <= Decimal(fixed) <= Decimal(1)
        if in_range and _thousands(text):
            # '1,000': 1.0 with a decimal comma, or 1000 with a thousands separator.
            message = (
                f"priority {text!r} is {fixed} with a decimal comma, or {text.replace(',', '')} "
                f"with a thousands separator (outside 0.0 to 1.0); write {fixed} if the comma "
                "is a decimal one, else a decimal from 0.0 to 1.0"
            )
            fix = replace_text(
                node, fixed, f"Read the comma as a decimal one: write {fixed}", safe=False
            )
        elif in_range:
            message = f"priority {text!r} uses a decimal comma; write {fixed}"
            fix = replace_text(node, fixed, f"Write {fixed}")
        else:
            message = (
                f"priority {text!r} uses a decimal comma and is outside 0.0 to 1.0; write a "
                "decimal with a dot from 0.0 to 1.0"
            )
    elif _SCIENTIFIC.fullmatch(text):
        number = Decimal(text)
        if Decimal(0) <= number <= Decimal(1):
            written = _decimal(number)
            message = (
                f"priority {text!r} is in scientific notation, which the schema's decimal "
                f"does not take; write {written}"
            )
            fix = replace_text(node, written, f"Write {written}")
        else:
            message = (
                f"priority {text!r} is in scientific notation and outside 0.0 to 1.0; write a "
                "decimal from 0.0 to 1.0"
            )
    elif text.endswith("%") and _DECIMAL.match(text[:-1].strip()):
        number = Decimal(text[:-1].strip()) / 100
        if Decimal(0) <= number <= Decimal(1):
            written = _decimal(number)
            message = f"priority {text!r} is a percentage; write {written}"
            fix = replace_text(node, written, f"Write {written}")
        else:
            message = f"priority {text!r} is a percentage; write a decimal from 0.0 to 1.0"
    else:
        message = f"priority {text!r} is not a number; write a decimal from 0.0 to 1.0"
    if message:
        if value != node.text:
            fix = None
        report.add(INVALID_PRIORITY.at(node.line, node.column, message, fix=fix), node)


def _thousands(text: str) -> bool:
    """Whether ``text`` (digits, one comma, digits) also reads as a whole number with a
    thousands separator: three digits after the comma, and before it one to three
    digits that do not start with 0 (``1,000``; not ``0,500`` nor ``1,00``)."""
    whole, _, part = text.lstrip("+-").partition(",")
    return len(part) == 3 and 1 <= len(whole) <= 3 and not whole.startswith("0")


def _decimal(number: Decimal) -> str:
    """A decimal as priorities are written: at least one digit after the point."""
    text = format(number.normalize(), "f")
    return text if "." in text else text + ".0"


@check(
    "changefreq",
    emits=(INVALID_CHANGEFREQ, CHANGEFREQ_FORM),
    covers=True,
    proof=proved_value("changefreq"),
)
def changefreq(node: Node, entry: EntryContext, report: Reporter) -> None:
    check_changefreq(node.text, node, report)


@check("priority", emits=(INVALID_PRIORITY,), covers=True, proof=proved_value("priority"))
def priority(node: Node, entry: EntryContext, report: Reporter) -> None:
    check_priority(node.text, node, report)


@check(
    "lastmod",
    "changefreq",
    "priority",
    emits=(LONG_VALUE,),
    uses_coverage=True,
    proof=proved_value("length"),
)
def length(node: Node, entry: EntryContext, report: CoverageReporter) -> None:
    """The length limit matters only for values no other rule reported."""
    if len(node.text) * 4 > MAX_VALUE_BYTES and not report.covered(node):
        check_length(node, report)
