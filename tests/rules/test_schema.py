"""Schema family: XS001 reports what the XSD finds that no clearer rule covers."""

from __future__ import annotations

import pytest

from tests.helpers import RULE_FIXTURES, lint


def _message(fixture: str, engine_name: str = "libxml2") -> str:
    (finding,) = lint(RULE_FIXTURES / "XS001" / fixture, engine_name=engine_name).findings
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
