"""PageMap family: the documented structure, checked by the rules and by the bundled schema."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import found, lint, write

HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:pagemap="http://www.google.com/schemas/sitemap-pagemap/1.0">
  <url>
    <loc>https://example.com/shoes/42</loc>
"""
TAIL = """  </url>
</urlset>
"""


def lint_url(tmp_path: Path, body: str, engine_name: str = "libxml2") -> list[tuple[str, int]]:
    return found(lint(write(tmp_path, "sitemap.xml", HEAD + body + TAIL), engine_name=engine_name))


@pytest.mark.parametrize("engine_name", ["libxml2", "xmlschema"])
@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # Valid: Template first, nested DataObject elements, values as attribute or text.
        (
            """    <pagemap:PageMap>
      <pagemap:Template src="https://example.com/t.xml"/>
      <pagemap:DataObject type="review" id="r1">
        <pagemap:Attribute name="rating" value="4.5"/>
        <pagemap:DataObject type="author">
          <pagemap:Attribute name="name">Ada</pagemap:Attribute>
        </pagemap:DataObject>
      </pagemap:DataObject>
    </pagemap:PageMap>
""",
            [],
        ),
        # An empty PageMap is valid against the schema, but carries no data.
        ("    <pagemap:PageMap/>\n", [("PM005", 6)]),
        # So does an empty DataObject; the text in one is the schema's to report.
        (
            """    <pagemap:PageMap>
      <pagemap:DataObject type="document"/>
      <pagemap:DataObject type="document">data</pagemap:DataObject>
    </pagemap:PageMap>
""",
            [("PM005", 7), ("XS001", 8)],
        ),
        # A DataObject directly in url: the structure rule, not a schema error.
        ('    <pagemap:DataObject type="document"/>\n', [("PM004", 6)]),
        # A nested DataObject without type is found too.
        (
            """    <pagemap:PageMap>
      <pagemap:DataObject type="review">
        <pagemap:DataObject>
          <pagemap:Attribute name="name" value="Ada"/>
        </pagemap:DataObject>
      </pagemap:DataObject>
    </pagemap:PageMap>
""",
            [("PM001", 8)],
        ),
        # Template's src goes through the URL rules; a missing src is a structure error.
        (
            """    <pagemap:PageMap>
      <pagemap:Template src="/t.xml"/>
      <pagemap:DataObject type="document"><pagemap:Attribute name="a" value="b"/></pagemap:DataObject>
    </pagemap:PageMap>
""",
            [("UR001", 7)],
        ),
        (
            "    <pagemap:PageMap>\n      <pagemap:Template/>\n    </pagemap:PageMap>\n",
            [("PM005", 6), ("PM004", 7)],
        ),
        # Several defects in one DataObject: one finding each.
        (
            """    <pagemap:PageMap>
      <pagemap:DataObject type=" ">
        <pagemap:Attribute value="x"/>
        <pagemap:Attribute name="a"/>
      </pagemap:DataObject>
    </pagemap:PageMap>
""",
            [("PM001", 7), ("PM002", 8), ("PM003", 9)],
        ),
    ],
)
def test_pagemap(
    tmp_path: Path, body: str, expected: list[tuple[str, int]], engine_name: str
) -> None:
    assert lint_url(tmp_path, body, engine_name) == expected


def test_schema_errors_the_rules_do_not_explain_still_show(tmp_path: Path) -> None:
    # An attribute the schema does not define: the schema rule reports it.
    body = (
        "    <pagemap:PageMap>\n"
        '      <pagemap:DataObject type="d" colour="red"><pagemap:Attribute name="a" value="b"/>'
        "</pagemap:DataObject>\n    </pagemap:PageMap>\n"
    )
    assert lint_url(tmp_path, body) == [("XS001", 7)]


@pytest.mark.parametrize("engine_name", ["libxml2", "xmlschema"])
def test_messages_name_the_pagemap_elements_as_written(tmp_path: Path, engine_name: str) -> None:
    # The schema's messages write the PageMap namespace as its prefix, as they do the other
    # extensions', and a misplaced element is told where it belongs in plain words.
    body = """    <pagemap:DataObject type="document"><pagemap:Attribute name="a" value="b"/></pagemap:DataObject>
    <pagemap:PageMap>
      <other xmlns="urn:example"/>
      <pagemap:DataObject type="document"><pagemap:Attribute name="a"><b/></pagemap:Attribute></pagemap:DataObject>
    </pagemap:PageMap>
"""
    findings = lint(write(tmp_path, "sitemap.xml", HEAD + body + TAIL), engine_name=engine_name)
    messages = {(f.code, f.line, f.column): f.message for f in findings.findings}
    assert messages[("PM004", 6, 5)] == (
        "<pagemap:DataObject> stands directly in <url>; it belongs in <pagemap:PageMap> or "
        "another <pagemap:DataObject> inside <pagemap:PageMap>: move it there"
    )
    schema = [message for (code, _, _), message in messages.items() if code == "XS001"]
    assert len(schema) == 2, messages
    assert not any("{http" in message for message in schema), schema
    assert any(message.startswith("<pagemap:Attribute>: ") for message in schema), schema
