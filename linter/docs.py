"""Rule documentation rendered from the registry: the README's rule list."""

from __future__ import annotations

from sitemap_lint.rules import FAMILIES

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


def main(argv: list[str] | None = None) -> int:
    """``python -m sitemap_lint.docs README.md`` regenerates the rule list in place."""
    import sys
    from pathlib import Path

    for name in argv if argv is not None else sys.argv[1:]:
        path = Path(name)
        path.write_text(replace_rule_list(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
