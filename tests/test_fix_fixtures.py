"""Every fix over every rule fixture: the fixed file has fewer findings and none of a
new rule, and fixing it again changes nothing.

A finding that stops the reading or the validation of part of the file (a syntax
error, an attribute without quotes, a wrong extension namespace) hides what stands
there: once it is fixed, that part's own findings may appear.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sitemap_lint.engine.checker import check_source
from sitemap_lint.fix.engine import fix_source
from sitemap_lint.inputs.reader import Source
from sitemap_lint.run import parse_sitemap_url
from sitemap_lint.settings.options import Options
from tests.expected import expected_path, inputs, read_header
from tests.helpers import NOW, RULE_FIXTURES, engine

# Findings after which part of the file is not read, not validated or not checked.
HIDING = frozenset({"XM001", "XM008", "XM009", "XM011", "NS004", "TX005"})


def _fixable() -> list[tuple[Path, dict[str, str]]]:
    """The rule fixtures checked as plain files (no server, set or robots.txt)."""
    found = []
    for path in inputs():
        if RULE_FIXTURES not in path.parents:
            continue
        header = read_header(expected_path(path)) if expected_path(path).exists() else {}
        if not ({"driver", "robots", "url"} & header.keys()):
            found.append((path, header))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize(
    ("path", "header"),
    _fixable(),
    ids=lambda value: (
        value.relative_to(RULE_FIXTURES).as_posix() if isinstance(value, Path) else ""
    ),
)
def test_a_fixed_fixture_has_fewer_findings_none_new_and_fixes_no_further(
    path: Path, header: dict[str, str], unsafe: bool
) -> None:
    options = Options(now=NOW, sitemap_url=parse_sitemap_url(header.get("sitemap-url")))
    done = fix_source(Source(str(path), path), options, engine(), unsafe)
    if not done.changed:
        return
    assert done.fixed is not None
    before = Counter(
        f.code for f in check_source(Source(str(path), path), options, engine()).findings
    )
    fixed = Source(str(path), None, data=done.fixed)
    after = [f for f in check_source(fixed, options, engine()).findings]
    assert len(after) < sum(before.values())
    if not HIDING & before.keys():
        assert [
            f"{f.line}:{f.column} {f.code} {f.message}" for f in after if f.code not in before
        ] == []
    again = fix_source(fixed, options, engine(), unsafe)
    assert not again.changed, [f.code for f in again.fixed_findings]
