"""Both XSD engines give the same verdict and the same finding lines on every fixture
(every plain XML fixture of every rule family; the gzip ones are large on purpose)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from sitemap_lint.model import SITEMAP_NS, Node
from tests.helpers import FIXTURES, engine, found, lint, sliced

SMALL_FIXTURES = sorted(
    path
    for path in FIXTURES.rglob("*")
    if path.is_file() and path.suffix == ".xml" and path.stat().st_size < 200_000
)


def _name(path: Path) -> str:
    return str(path.relative_to(FIXTURES))


@cache
def libxml2_findings(path: Path) -> list[tuple[str, int]]:
    """A fixture's findings with the default engine, found once for both tests below."""
    return found(lint(path))


# The fast loop compares the engines on half of the fixtures and the shadow parse on the
# other half; the whole run compares both on every fixture.
@pytest.mark.parametrize("path", sliced(SMALL_FIXTURES, 2, _name))
def test_same_findings_with_both_engines(path: Path) -> None:
    assert found(lint(path, engine_name="xmlschema")) == libxml2_findings(path)


def _url(loc: str, *children: tuple[str, str]) -> Node:
    entry = Node(SITEMAP_NS, "url", {}, 1, 1)
    for line, (name, text) in enumerate((("loc", loc), *children), start=2):
        child = Node(SITEMAP_NS, name, {}, line, 1)
        child.text = text
        entry.children.append(child)
    return entry


def test_raw_engine_verdicts_agree() -> None:
    """Below the rules: the engines themselves flag the same nodes."""
    entries = [
        _url("https://example.com/", ("lastmod", "2024-05-01")),
        _url("x", ("priority", "2")),
        _url("https://example.com/a", ("changefreq", "Daily")),
        _url("https://example.com/b", ("lastmod", "2024")),
    ]
    libxml2 = {node.line for node, _ in engine("libxml2").validate("urlset", entries)}
    pure = {node.line for node, _ in engine("xmlschema").validate("urlset", entries)}
    assert libxml2 == pure
    assert libxml2 == {2, 3}  # the loc, priority and lastmod nodes sit on lines 2 and 3


class _RebuildOnly:
    """The libxml2 engine without its shadow-parse shortcut."""

    def __init__(self) -> None:
        self._engine = engine("libxml2")

    def validate(self, *args):
        return self._engine.validate(*args)


@pytest.mark.parametrize("path", sliced(SMALL_FIXTURES, 2, _name, first=1))
def test_shadow_parse_changes_nothing(path: Path) -> None:
    from sitemap_lint.engine.checker import check_source
    from sitemap_lint.inputs.reader import Source
    from sitemap_lint.settings.options import Options
    from tests.helpers import NOW

    rebuilt = check_source(Source(str(path), path), Options(now=NOW), _RebuildOnly())
    assert found(rebuilt) == libxml2_findings(path)


@pytest.mark.parametrize("name", ["fail-xsi-type-prefixed.xml", "fail-xsi-type.xml"])
def test_an_xsi_type_is_named_alike_by_both_engines(name: str) -> None:
    """The batch the engines read is rebuilt without the file's declarations: neither
    says a prefix the file declares (xs:) is undeclared, and both say the same."""
    path = FIXTURES / "rules" / "XS001" / name
    said = {
        engine_name: [
            f.message
            for f in lint(path, engine_name=engine_name).findings
            if "xsi:type" in f.message
        ]
        for engine_name in ("libxml2", "xmlschema")
    }
    assert said["libxml2"] == said["xmlschema"] and said["libxml2"]
    for message in said["libxml2"]:
        assert "namespace declaration" not in message and "define no type" not in message
        assert message.endswith("(schema); remove the xsi:type attribute"), message
