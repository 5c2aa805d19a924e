"""PageMap extension rules: `PageMap` inside url (Google's PageMap format).

A PageMap carries structured data about the page for Google's Programmable
Search Engine: an optional `Template`, then `DataObject` elements, each with a
`type` and `Attribute` elements that have a `name` and a value (in the `value`
attribute or as text). A PageMap or DataObject that holds nothing carries no
data (PM005). A PageMap outside any url is reported by the structure rules
(`extension-outside-entry`).
"""

from __future__ import annotations

import difflib

from sitemap_lint.model import XML_SPACE, Node
from sitemap_lint.rules import urls
from sitemap_lint.rules.base import ERROR, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.entry import EntryContext, FileContext
from sitemap_lint.rules.events import Replacements
from sitemap_lint.rules.structure import Only, Reporter

NAMESPACE = "http://www.google.com/schemas/sitemap-pagemap/1.0"


TYPE_MISSING = rule(
    "PM001",
    "pagemap-type-missing",
    ERROR,
    summary="A `DataObject` without its `type`",
    what="Checks that every `DataObject` of a PageMap has a non-empty `type` attribute.",
    why="""
        The type says what the object describes (`document`, `thumbnail`,
        `action`, ...); the schema requires it, and without it the data cannot
        be used.
    """,
    bad="""
        <pagemap:DataObject>
          <pagemap:Attribute name="title" value="Red running shoe"/>
        </pagemap:DataObject>
    """,
    good="""
        <pagemap:DataObject type="document">
          <pagemap:Attribute name="title" value="Red running shoe"/>
        </pagemap:DataObject>
    """,
)

NAME_MISSING = rule(
    "PM002",
    "pagemap-attribute-name-missing",
    ERROR,
    summary="An `Attribute` without its `name`",
    what="Checks that every `Attribute` of a PageMap has a non-empty `name` attribute.",
    why="The name is what the value is looked up by; the schema requires it.",
    bad='<pagemap:Attribute value="Red running shoe"/>',
    good='<pagemap:Attribute name="title" value="Red running shoe"/>',
)

ATTRIBUTE_VALUE = rule(
    "PM003",
    "pagemap-attribute-value",
    WARNING,
    summary="An `Attribute` with no value, or with two",
    what="""
        Checks that each `Attribute` gives its value once: in the `value`
        attribute or as its text, not neither (an empty attribute) and not both.
    """,
    why="""
        An attribute without a value carries nothing; one with both a `value`
        and a text leaves it to the reader which one counts.
    """,
    bad='<pagemap:Attribute name="title" value="Red shoe">Red running shoe</pagemap:Attribute>',
    good='<pagemap:Attribute name="title" value="Red running shoe"/>',
)

STRUCTURE = rule(
    "PM004",
    "pagemap-structure",
    ERROR,
    summary="A PageMap element that is unknown, repeated or out of place",
    what="""
        Checks the PageMap's structure: `PageMap` directly in `url`; in it at
        most one `Template` (with its `src`), first, then `DataObject`
        elements; in a `DataObject` only `Attribute` and `DataObject` elements.
        Unknown names get a "did you mean".
    """,
    why="""
        The schema defines that structure, and data in an element it does not
        define, or in the wrong place, is not read.
    """,
    bad="""
        <pagemap:PageMap>
          <pagemap:DataObject type="document">
            <pagemap:Template src="https://example.com/pagemap-template.xml"/>
          </pagemap:DataObject>
        </pagemap:PageMap>
    """,
    good="""
        <pagemap:PageMap>
          <pagemap:Template src="https://example.com/pagemap-template.xml"/>
          <pagemap:DataObject type="document">
            <pagemap:Attribute name="title" value="Red running shoe"/>
          </pagemap:DataObject>
        </pagemap:PageMap>
    """,
)

EMPTY = rule(
    "PM005",
    "pagemap-empty",
    WARNING,
    summary="A `PageMap` with no `DataObject`, or a `DataObject` with nothing in it",
    what="""
        Checks that each `PageMap` holds at least one `DataObject` and that each
        `DataObject` holds at least one `Attribute` or `DataObject`.
    """,
    why="""
        The data of a PageMap is in its objects' attributes: an empty `PageMap` or
        `DataObject` carries nothing to the search engine. The schema accepts it, so
        it goes unnoticed; often the generator that wrote it lost the values it was
        meant to write.
    """,
    bad="""
        <pagemap:PageMap>
          <pagemap:DataObject type="document"/>
        </pagemap:PageMap>
    """,
    good="""
        <pagemap:PageMap>
          <pagemap:DataObject type="document">
            <pagemap:Attribute name="title" value="Red running shoe"/>
          </pagemap:DataObject>
        </pagemap:PageMap>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "PageMap extension"
ORDER = 155

RULES = (TYPE_MISSING, NAME_MISSING, ATTRIBUTE_VALUE, STRUCTURE, EMPTY)

_NAMES = ("PageMap", "Template", "DataObject", "Attribute")
# Where each element may stand (the parent's name).
_PLACES = {
    "Template": "<pagemap:PageMap>",
    "DataObject": "<pagemap:PageMap> or another <pagemap:DataObject>",
    "Attribute": "<pagemap:DataObject>",
}


# Template's src is a URL: the URL rules report on it too.
@check("extension", namespace=NAMESPACE, emits=(*RULES, *urls.RULES), covers=True, proof=NO_PROOF)
class Checker:
    """Checks the PageMap elements of one file; it keeps no state between entries."""

    def __init__(self, file: FileContext | None = None) -> None:
        pass

    def check(self, element: Node, context: EntryContext, report: Reporter) -> None:
        if element.name != "PageMap":
            _structure(element, f"<pagemap:{element.name}> stands directly in <url>", report)
            return
        _check_pagemap(element, report, context.replacements)

    def end_entry(self, context: EntryContext, report: Reporter) -> None:
        return None

    def finish(self, report: Reporter) -> None:
        return None


def _check_pagemap(pagemap: Node, report: Reporter, replacements: Replacements | None) -> None:
    template: Node | None = None
    data_seen: Node | None = None
    for child in pagemap.children:
        if child.ns != NAMESPACE:
            continue  # another namespace: the schema's message says it
        if child.name == "Template":
            if template is not None:
                report.add(
                    STRUCTURE.at(
                        child.line,
                        child.column,
                        f"a second <pagemap:Template> in one <pagemap:PageMap> (the first is at "
                        f"line {template.line}); a PageMap has at most one: remove one",
                    ),
                    Only(child),
                )
            elif data_seen is not None:
                report.add(
                    STRUCTURE.at(
                        child.line,
                        child.column,
                        "<pagemap:Template> stands after <pagemap:DataObject> (line "
                        f"{data_seen.line}); it must be the PageMap's first child: move it up",
                    ),
                    Only(child),
                )
            template = template or child
            _check_template(child, report, replacements)
        elif child.name == "DataObject":
            data_seen = data_seen or child
            _check_data_object(child, report)
        else:
            _misplaced(child, "PageMap", report)
    if all(_bare_template(child) for child in pagemap.children):
        # Nothing but a Template: no data (what else stands in it, a DataObject inside the
        # Template too, has a finding of its own).
        report.add(
            EMPTY.at(
                pagemap.line,
                pagemap.column,
                "<pagemap:PageMap> holds no <pagemap:DataObject>; add the page's data "
                '(<pagemap:DataObject type="document"> with its <pagemap:Attribute> '
                "elements), or remove the PageMap",
            )
        )


def _bare_template(node: Node) -> bool:
    return node.ns == NAMESPACE and node.name == "Template" and not node.children


def _check_template(template: Node, report: Reporter, replacements: Replacements | None) -> None:
    src = template.attrs.get("src")
    if src is None or not src.strip(XML_SPACE):
        report.add(
            STRUCTURE.at(
                template.line,
                template.column,
                "<pagemap:Template> has no src; give the template's URL in src, or remove it",
            ),
            Only(template),
        )
        return
    urls.check_url(src, template, report, field="pagemap:Template src", replacements=replacements)


def _check_data_object(data: Node, report: Reporter) -> None:
    # Depth-first without recursion: DataObject elements may nest.
    stack = [data]
    while stack:
        node = stack.pop()
        kind = node.attrs.get("type")
        if kind is None or not kind.strip(XML_SPACE):
            what = "an empty type" if kind is not None else "no type attribute"
            report.add(
                TYPE_MISSING.at(
                    node.line,
                    node.column,
                    f"<pagemap:DataObject> has {what}; say what it describes, such as "
                    'type="document" or type="thumbnail"',
                ),
                Only(node),
            )
        if not node.children and not node.text.strip(XML_SPACE):
            # Text in it is the schema's to report, and may be the data written wrong.
            shown = f'<pagemap:DataObject type="{kind}">' if kind else "<pagemap:DataObject>"
            report.add(
                EMPTY.at(
                    node.line,
                    node.column,
                    f"{shown} holds no <pagemap:Attribute>; add the attributes it "
                    'describes, such as <pagemap:Attribute name="title" value="..."/>, '
                    "or remove it",
                )
            )
        for child in node.children:
            if child.ns != NAMESPACE:
                continue
            if child.name == "Attribute":
                _check_attribute(child, report)
            elif child.name == "DataObject":
                stack.append(child)
            else:
                _misplaced(child, "DataObject", report)


def _check_attribute(attribute: Node, report: Reporter) -> None:
    name = attribute.attrs.get("name")
    if name is None or not name.strip(XML_SPACE):
        shown = "an empty name" if name is not None else "no name attribute"
        report.add(
            NAME_MISSING.at(
                attribute.line,
                attribute.column,
                f"<pagemap:Attribute> has {shown}; give the name its value is known by, "
                'such as name="title"',
            ),
            Only(attribute),
        )
    if attribute.children:
        return  # markup inside the value: the schema's message says it
    value = attribute.attrs.get("value")
    text = attribute.text.strip(XML_SPACE)
    label = f'<pagemap:Attribute name="{name}">' if name else "<pagemap:Attribute>"
    if value is None and not text:
        message = f'{label} has no value; give it in value="..." or as its text, or remove it'
    elif value is not None and text:
        message = (
            f"{label} has both a value attribute and a text; give the value once "
            '(value="..." or the text)'
        )
    else:
        return
    report.add(ATTRIBUTE_VALUE.at(attribute.line, attribute.column, message))


def _misplaced(node: Node, parent: str, report: Reporter) -> None:
    name = node.name
    if name in _PLACES:
        message = (
            f"<pagemap:{name}> does not belong in <pagemap:{parent}>; it stands in "
            f"{_PLACES[name]}: move it there"
        )
    else:
        close = difflib.get_close_matches(name, _NAMES, n=1, cutoff=0.6)
        hint = f"did you mean <pagemap:{close[0]}>?" if close else "remove it"
        message = f"unknown element <pagemap:{name}> in <pagemap:{parent}>; {hint}"
    _structure(node, message, report)


def _structure(node: Node, message: str, report: Reporter) -> None:
    if message.startswith(f"<pagemap:{node.name}> stands directly in <url>"):
        if node.name in _PLACES:
            where = _PLACES[node.name]
            inside = "" if where == "<pagemap:PageMap>" else " inside <pagemap:PageMap>"
            message += f"; it belongs in {where}{inside}: move it there"
        else:
            message += "; only <pagemap:PageMap> may stand there"
    report.add(STRUCTURE.at(node.line, node.column, message), node)
