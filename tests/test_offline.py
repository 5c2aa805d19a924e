"""Schemas load and validate with no network at all, for both engines."""

from __future__ import annotations

import socket

import pytest

from sitemap_lint import xsd
from sitemap_lint.engine.checker import check_source
from sitemap_lint.inputs.reader import Source
from sitemap_lint.settings.options import Options
from tests.helpers import FIXTURES, NOW, NetworkUsed


def test_network_is_really_blocked(no_network) -> None:
    with pytest.raises(NetworkUsed):
        socket.create_connection(("127.0.0.1", 9))


@pytest.mark.parametrize("engine_name", xsd.ENGINES)
def test_schemas_build_and_validate_offline(no_network, engine_name: str) -> None:
    engine = xsd.load(engine_name)  # a fresh engine: schemas are compiled here
    valid = sorted((FIXTURES / "valid").glob("*.xml"))
    assert valid
    for path in valid:
        result = check_source(Source(str(path), path), Options(now=NOW), engine)
        assert result.findings == [], (path, result.findings)
    broken = FIXTURES / "rules" / "ST002" / "fail.xml"
    if broken.exists():
        result = check_source(Source(str(broken), broken), Options(now=NOW), engine)
        assert [f.code for f in result.findings] == ["ST002"]
