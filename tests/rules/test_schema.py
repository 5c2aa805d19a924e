"""Schema family: XS001 reports what the XSD finds that no clearer rule covers."""

from __future__ import annotations

import pytest

from sitemap_lint.rules import schema
from tests.helpers import Case, check_case, check_pass, lint

# Each fixture holds a schema error that no rule of its own explains.
CASES = [
    Case("XS001", "fail.xml", line=8),  # a second image:loc in one image:image
    Case("XS001", "fail-image-attribute.xml", line=7),  # width="800" on image:loc
    Case("XS001", "fail-video-title-markup.xml", line=8),  # an element inside video:title
    Case("XS001", "fail-news-unknown-child.xml", line=13),  # news:author
    Case("XS001", "fail-link-attribute.xml", line=6),  # target="_blank" on xhtml:link
    Case("XS001", "fail-mobile-content.xml", line=6),  # text in mobile:mobile
    Case("XS001", "fail-index-extension.xml", line=6),  # xhtml:link dir="up" in an index
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_failing_fixture(case: Case) -> None:
    check_case(case)


@pytest.mark.parametrize("code", [rule.code for rule in schema.RULES])
def test_passing_fixture(code: str) -> None:
    check_pass(code)


def _message(fixture: str, engine_name: str = "libxml2") -> str:
    (finding,) = lint(Case("XS001", fixture, 0).path, engine_name=engine_name).findings
    return finding.message


@pytest.mark.parametrize("engine_name", ["libxml2", "xmlschema"])
def test_message_names_the_element_and_what_is_expected(engine_name: str) -> None:
    message = _message("fail.xml", engine_name)
    assert message.startswith("<image:loc>: ")
    assert "ns0:" not in message and "ns1:" not in message and "{http" not in message


@pytest.mark.parametrize("engine_name", ["libxml2", "xmlschema"])
def test_message_names_the_attribute_and_value(engine_name: str) -> None:
    message = _message("fail-link-attribute.xml", engine_name)
    assert message.startswith("<xhtml:link>: ")
    assert "target" in message


# Both engines agreeing on every fixture is tested once for all families, in
# tests/test_engines.py.
