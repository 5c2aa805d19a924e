"""The README's console examples print what the tool prints (tests/readme_examples.py)."""

from __future__ import annotations

import pytest

from tests.readme_examples import README, blocks, commands, rendered, run

EXAMPLES = [
    (command, output)
    for block in blocks(README.read_text(encoding="utf-8"))
    for command, output in commands(block.group(1))
]


def test_the_readme_shows_the_fix_examples() -> None:
    shown = [command for command, _ in EXAMPLES]
    assert "sitemap-lint --diff fixtures/fix/mixed.xml" in shown


@pytest.mark.parametrize(("command", "output"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_an_example_prints_what_the_readme_says(command: str, output: str) -> None:
    assert run(command) == output, (
        f"README.md shows another output for {command!r}: "
        "python -m tests.readme_examples --update rewrites it"
    )


def test_update_rewrites_an_output_that_is_not_the_tool_s() -> None:
    text = "Before.\n\n```console\n$ sitemap-lint --diff fixtures/fix/mixed.xml\nstale\n```\n"
    fresh = rendered(text)
    assert "stale" not in fresh and "Would fix " in fresh
    assert fresh.startswith("Before.\n\n```console\n$ sitemap-lint --diff fixtures/fix/mixed.xml\n")
    assert rendered(fresh) == fresh
