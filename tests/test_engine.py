"""The engine's seams: light result types, rule discovery, dispatch by the enabled rules,
and the one finding sink."""

from __future__ import annotations

import subprocess
import sys


def test_a_reporter_does_not_load_the_parser_or_the_rules() -> None:
    code = (
        "import sys, sitemap_lint.report.json, sitemap_lint.results\n"
        "loaded = [m for m in ('lxml', 'sitemap_lint.checker', 'sitemap_lint.rules') "
        "if m in sys.modules]\n"
        "print(','.join(loaded))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
