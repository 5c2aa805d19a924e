"""The bench's shapes of a valid sitemap (bench/shapes.py), at a small count.

Each shape must be well-formed with one entry per URL, hold its lexical feature in
every entry, be valid against the bundled schemas (in process with lxml, which is
libxml2 as xmllint is; and with xmllint itself in a slow test, where it is installed),
and give no finding at ``shapes.NOW``, except the shapes whose ``finding`` names the
one finding every URL gives. A shape the checker reports on although it is valid is
a defect of the checker, and fails here.
"""

from __future__ import annotations

import functools
import importlib.resources
import shutil
import subprocess
from collections import Counter

import lxml.etree
import pytest

import sitemap_lint
from bench import shapes

# Not a multiple of three (the last hreflang cluster is cut short), and two news entries.
COUNT = 52
SCHEMAS = importlib.resources.files("sitemap_lint.schemas")
CASES = [
    pytest.param(shape, long, id=f"{shape.name}{'-long' if long else ''}")
    for shape in shapes.SHAPES.values()
    for long in ((False, True) if shape.long else (False,))
]
# Text that each entry of a shape holds at least once: what makes the shape.
FEATURES = {
    "crlf": "\r\n",
    "tabs-xsi-dates": "\t\t<lastmod>",
    "one-line": "</url><url>",
    "line-each": "</url>\n<url>",
    "amp-query": "&amp;",
    "char-refs": "&#x26;",
    "predefined": "&apos;",
    "cdata": "<![CDATA[",
    "cdata-values": "<changefreq><![CDATA[",
    "image-cdata": "<image:loc><![CDATA[",
    "comment-between": "<!--",
    "comment-wide": "vidéo",
    "comment-pi-inside": "<?cache",
    "prefixed": "<sm:loc>",
    "percent-utf8": "%C3%A9",
    "iri": "é",
    "image": "<image:loc>",
    "xhtml-link": "<xhtml:link",
    "xhtml-link-query": "&amp;lang=",
    "video": "&quot;",
    "finding-each": " 10:",
}


def schema_file(shape: shapes.Shape) -> str:
    return "bundle-urlset.xsd" if shape.extension else "sitemap.xsd"


@functools.cache
def schema(name: str) -> lxml.etree.XMLSchema:
    return lxml.etree.XMLSchema(lxml.etree.parse(str(SCHEMAS.joinpath(name))))


@pytest.mark.parametrize(("shape", "long"), CASES)
def test_a_shape_is_well_formed_and_valid_with_an_entry_a_url(shape, long):
    text = shapes.text(shape, COUNT, long)
    root = lxml.etree.fromstring(text.encode("utf-8"))
    assert len(root.findall(f"{{{shapes.SITEMAP}}}url")) == COUNT
    assert schema(schema_file(shape)).validate(root) is shape.schema_valid
    assert text == shapes.text(shape, COUNT, long)  # the same every time


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_a_shape_holds_its_feature_in_every_entry(name):
    text = shapes.text(shapes.SHAPES[name], COUNT)
    assert text.count(FEATURES[name]) >= COUNT - 1
    if name == "one-line":
        assert "\n" not in text
    if name == "crlf":
        assert "\n" not in text.replace("\r\n", "")


@pytest.mark.parametrize(("shape", "long"), CASES)
def test_a_shape_gives_no_finding_but_its_own(tmp_path, shape, long):
    path = tmp_path / f"{shape.name}.xml"
    shapes.write(shape, path, COUNT, long)
    findings = sitemap_lint.lint(path, now=shapes.NOW, isolated=True)
    expected = Counter({shape.finding: COUNT} if shape.finding else {})
    if shape.name.startswith("xhtml-link"):
        # The last cluster, cut short, names two pages no entry lists (de, fr).
        expected["HL009"] = 2
    assert Counter(f.code for f in findings) == expected, [str(f) for f in findings[:5]]
    if shape.finding:
        assert len({f.line for f in findings}) == COUNT  # one in each entry


@pytest.mark.parametrize(
    "shape", [s for s in shapes.SHAPES.values() if s.long], ids=lambda s: s.name
)
def test_a_long_shape_stays_under_50_mib_at_50000_urls(shape):
    """The protocol's limit (LM002): at 50,000 URLs, no entry longer than the last."""
    last = shapes.size(shape.entry(49_999, shapes.padding(shape, long=True)))
    assert shapes.size(shape.head + shape.tail) + 50_000 * last <= 50 * 1024 * 1024


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("xmllint") is None, reason="xmllint not installed")
def test_xmllint_validates_every_shape_as_the_bench_runs_it(tmp_path):
    verdicts = {}
    for shape, long in [case.values for case in CASES]:
        path = tmp_path / f"{shape.name}{'-long' if long else ''}.xml"
        shapes.write(shape, path, COUNT, long)
        command = ["xmllint", "--noout", "--schema", str(SCHEMAS.joinpath(schema_file(shape)))]
        completed = subprocess.run([*command, str(path)], capture_output=True, check=False)
        verdicts[path.name] = completed.returncode == 0
    expected = {
        f"{shape.name}{'-long' if long else ''}.xml": shape.schema_valid
        for shape, long in [case.values for case in CASES]
    }
    assert verdicts == expected
