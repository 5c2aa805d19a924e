"""Rule documentation rendered from the registry: the README's rule list and docs/rules.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemap_lint.rules import FAMILIES

if TYPE_CHECKING:
    from pathlib import Path

START = "<!-- rules:start (generated from the rule registry; see tests/test_rule_catalogue.py) -->"
END = "<!-- rules:end -->"


def rules_markdown() -> str:
    """A Markdown table per rule family: code, name, default severity, summary."""
    parts = []
    for title, family in FAMILIES:
        parts.append(f"#### {title}\n")
        parts.append("| code | name | severity | what it reports |")
        parts.append("|---|---|---|---|")
        for rule in family.RULES:
            summary = rule.summary.replace("|", "\\|")
            parts.append(f"| `{rule.code}` | `{rule.name}` | {rule.severity} | {summary} |")
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def replace_rule_list(readme: str) -> str:
    """The README text with the block between the markers regenerated."""
    head, _, rest = readme.partition(START)
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{rules_markdown()}{END}{tail}"


def rules_document() -> str:
    """docs/rules.md: every rule's full documentation, with its severity in each profile."""
    from sitemap_lint.settings.profiles import DEFAULT, PROFILES
    from sitemap_lint.settings.selection import Selection

    levels = {name: Selection(profile=name).levels for name in PROFILES if name != DEFAULT}
    parts = [
        "# Rules",
        "",
        "<!-- Generated from the rule registry by `python -m sitemap_lint.report.docs docs/rules.md`;"
        " do not edit. -->",
        "",
        "Each rule has a code, a name and a default severity. `sitemap-lint rule CODE` prints",
        "the same text; `sitemap-lint rules --profile NAME` lists the severities of a profile.",
        "",
        "| profile | what it changes |",
        "|---|---|",
    ]
    for profile in PROFILES.values():
        parts.append(f"| `{profile.name}` | {profile.description} |")
    parts.append("")
    for title, family in FAMILIES:
        parts.append(f"## {title}\n")
        for rule in family.RULES:
            changes = [
                f"{name}: {levels[name][rule.code]}"
                for name in levels
                if levels[name][rule.code] is not rule.severity
            ]
            severity = f"{rule.severity}" + (f" ({'; '.join(changes)})" if changes else "")
            parts.append(f"### `{rule.code}` {rule.name}\n")
            parts.append(f"Severity: {severity}.\n")
            parts.append(f"{rule.summary}.\n")
            parts.append(_demote(rule.doc).rstrip() + "\n")
            if rule.fix_safety:
                parts.append(_demote(rule.fix_safety).rstrip() + "\n")
    return "\n".join(parts).rstrip() + "\n"


def _demote(markdown: str, levels: int = 2) -> str:
    """Headings ``levels`` deeper (outside code blocks), to sit below a rule's heading."""
    out = []
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            line = "#" * levels + line
        out.append(line)
    return "\n".join(out) + "\n"


def render(path: Path, current: str | None) -> str:
    """The regenerated text of ``path``: a file with the rule-list markers gets its list
    replaced, a ``rules.md`` is written whole."""
    if current is not None and START in current:
        return replace_rule_list(current)
    if path.name == "rules.md":
        return rules_document()
    raise ValueError(f"{path}: neither a rules.md nor a file with the rule-list markers")


def main(argv: list[str] | None = None) -> int:
    """``python -m sitemap_lint.report.docs README.md docs/rules.md`` regenerates both in place."""
    import sys
    from pathlib import Path

    for name in argv if argv is not None else sys.argv[1:]:
        path = Path(name)
        current = path.read_text(encoding="utf-8") if path.exists() else None
        try:
            text = render(path, current)
        except ValueError as error:
            sys.stderr.write(f"{error}\n")
            return 2
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
