"""The README's ``console`` examples, made by the tool: each ``$ sitemap-lint ...``
line of such a block is followed by what the command prints (its standard output,
then its standard error), run from the repository's root. tests/test_readme_examples.py
runs them and compares; after an intended change, rewrite them and read the diff:

    python -m tests.readme_examples --update
    git diff README.md
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import sys
from collections.abc import Iterator

from tests.helpers import ROOT

README = ROOT / "README.md"
PROMPT = "$ "
COMMAND = "sitemap-lint"
_BLOCK = re.compile(r"^```console\n(.*?)^```$", re.M | re.S)


def blocks(text: str) -> Iterator[re.Match[str]]:
    """The ``console`` blocks of ``text``; group 1 is a block's body."""
    return _BLOCK.finditer(text)


def commands(body: str) -> list[tuple[str, str]]:
    """The commands of a block's body, each with the output written under it."""
    found: list[tuple[str, str]] = []
    for line in body.splitlines(keepends=True):
        if line.startswith(PROMPT):
            found.append((line[len(PROMPT) :].rstrip("\n"), ""))
        elif found:
            command, output = found[-1]
            found[-1] = (command, output + line)
        else:
            raise ValueError(f"a console block starts with output, not a command: {line!r}")
    return found


def run(command: str) -> str:
    """What ``command`` (``sitemap-lint ARGS``) prints, run in this process from the
    repository's root without colour: its standard output, then its standard error."""
    from sitemap_lint.cli import main

    words = shlex.split(command)
    if words[:1] != [COMMAND]:
        raise ValueError(f"not a {COMMAND} command: {command!r}")
    out, err = io.StringIO(), io.StringIO()
    saved = os.environ.get("NO_COLOR")
    os.environ["NO_COLOR"] = "1"
    try:
        with (
            contextlib.chdir(ROOT),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            main(words[1:])
    finally:
        if saved is None:
            del os.environ["NO_COLOR"]
        else:
            os.environ["NO_COLOR"] = saved
    return out.getvalue() + err.getvalue()


def rendered(text: str) -> str:
    """``text`` with the output of every console block's commands made again."""

    def block(match: re.Match[str]) -> str:
        body = "".join(
            f"{PROMPT}{command}\n{run(command)}" for command, _ in commands(match.group(1))
        )
        return f"```console\n{body}```"

    return _BLOCK.sub(block, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.readme_examples", description=__doc__)
    parser.add_argument("--update", action="store_true", help="rewrite the README's examples")
    args = parser.parse_args(argv)
    if not args.update:
        parser.error("say --update to rewrite the README's examples")
    if os.environ.get("CI"):
        print("refusing to rewrite README.md where CI is set", file=sys.stderr)
        return 2
    before = README.read_text(encoding="utf-8")
    after = rendered(before)
    if after != before:
        README.write_text(after, encoding="utf-8")
    print(f"README.md {'rewritten' if after != before else 'unchanged'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
