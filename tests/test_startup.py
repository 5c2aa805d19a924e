"""Start-up stays light: a plain check imports only what it uses (no timing here).

The tests run the command in a fresh interpreter (a subprocess) and read back the
modules it loaded, how often rule documentation was written out and the dataclasses it
declared; one run of a plain check serves the tests that look at it.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemap_lint.engine.collector import THRESHOLDS

SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
{entries}</urlset>
"""
ENTRY = (
    "  <url>\n    <loc>https://www.example.com/page-{i}.html</loc>\n"
    "    <lastmod>2024-05-0{d}T10:00:00+00:00</lastmod>\n"
    "    <changefreq>daily</changefreq>\n    <priority>0.{i}</priority>\n  </url>\n"
)

# Runs the command line in this interpreter, then prints, as JSON after the report, the
# loaded modules, the number of rule documents written out and the classes of the
# package declared with dataclasses.dataclass that have a method the dataclass module
# generated (compiled from source at import: about 4 M instructions for a frozen class
# of four fields).
PROBE = """
import dataclasses, json, sys
declared = []
original_dataclass = dataclasses.dataclass
def recording(cls=None, /, **flags):
    def wrap(cls):
        declared.append(cls)
        return original_dataclass(**flags)(cls)
    return wrap if cls is None else wrap(cls)
dataclasses.dataclass = recording
import sitemap_lint.finding as finding
rendered = []
original = finding.render_doc
def counting(*parts):
    rendered.append(parts)
    return original(*parts)
finding.render_doc = counting
from sitemap_lint.cli import main
status = main(sys.argv[1:])
generated = sorted(
    f"{cls.__module__}.{cls.__qualname__}"
    for cls in declared
    if cls.__module__.startswith("sitemap_lint")
    and any(
        getattr(getattr(getattr(cls, name, None), "__code__", None), "co_filename", "") == "<string>"
        for name in ("__init__", "__repr__", "__eq__", "__setattr__", "__hash__", "__lt__")
    )
)
print("\\n@@" + json.dumps({"status": status, "modules": sorted(sys.modules),
                           "rendered": len(rendered), "generated": generated,
                           "declared": len(declared)}))
"""

# Never needed by a check of a local sitemap with the default engine and a JSON report.
NOT_AT_START = (
    "xmlschema",  # only with --xsd-engine xmlschema
    "elementpath",
    "httpx",  # only for a URL
    "httpcore",
    "protego",
    "dask",
    "rich",  # the JSON report writes without it
    "importlib.metadata",
    "importlib.resources",
    "zipfile",
    "tempfile",
    "sitemap_lint.report.docs",
    "sitemap_lint.api",
    "sitemap_lint.sets.cluster",
    "sitemap_lint.sets.runner",
    "sitemap_lint.inputs.fetch",
    "sitemap_lint.xsd.xmlschema_engine",
    "sitemap_lint.report.text",
    "sitemap_lint.report.html",
    "sitemap_lint.report.sarif",
    "sitemap_lint.fix.apply",
    "sitemap_lint.fix.engine",
    "sitemap_lint.fix.write",
    "sitemap_lint.fix.diff",
    "sitemap_lint.fix.split",
    "sitemap_lint.formats.feed",  # a feed's root only
    "subprocess",  # typer's, for typer.launch and completion (support.deferred)
    "shellingham",  # typer's, for completion
    "decimal",  # a priority or a video rating out of the ordinary
    "calendar",
    "http",  # a fetch's status phrase
    "html",  # an undefined entity reference
    "unicodedata",  # a text that is not all printable
    "encodings.utf_16",  # no NUL byte at the start: no UTF-16 or UTF-32 to tell
    "encodings.utf_16_le",
    "encodings.utf_32_le",
    "pycountry",  # language names only (domain.langtags reads its own table)
    "shlex",  # a command line with a word to quote (settings.declared.shell_words)
)


def _probe(tmp_path: Path, *args: str) -> dict[str, object]:
    sitemap = tmp_path / "sitemap.xml"
    entries = "".join(ENTRY.format(i=i, d=i % 9 + 1) for i in range(10))
    sitemap.write_text(SITEMAP.format(entries=entries), encoding="utf-8")
    command = [sys.executable, "-c", PROBE, *args, "--isolated", str(sitemap)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    report, _, probe = done.stdout.rpartition("\n@@")
    result: dict[str, object] = json.loads(probe)
    result["report"] = report
    return result


def _loaded(modules: object, name: str) -> bool:
    assert isinstance(modules, list)
    return any(module == name or module.startswith(f"{name}.") for module in modules)


@pytest.fixture(scope="module")
def plain_check(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The probe of a plain check with the JSON report, run once for the tests that read it."""
    result = _probe(tmp_path_factory.mktemp("plain"), "--format", "json", "--now", "2026-12-01")
    assert result["status"] == 0
    return result


@pytest.mark.slow
def test_a_clean_check_imports_nothing_it_does_not_use(plain_check: dict[str, object]) -> None:
    assert json.loads(str(plain_check["report"]))  # the report was written
    loaded = [name for name in NOT_AT_START if _loaded(plain_check["modules"], name)]
    assert loaded == []


@pytest.mark.slow
def test_a_check_writes_out_no_rule_documentation(plain_check: dict[str, object]) -> None:
    assert plain_check["rendered"] == 0


@pytest.mark.slow
def test_a_check_declares_no_dataclass_with_generated_methods(
    plain_check: dict[str, object],
) -> None:
    """The dataclasses a plain check declares are records (records.py)."""
    assert isinstance(plain_check["declared"], int)
    assert plain_check["declared"] >= 20  # the probe saw the declarations
    assert plain_check["generated"] == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "module"),
    [
        (("--xsd-engine", "xmlschema"), "xmlschema"),
        (("--format", "sarif"), "sitemap_lint.report.sarif"),
    ],
)
def test_what_a_run_asks_for_is_imported(
    tmp_path: Path, args: tuple[str, ...], module: str
) -> None:
    """The probe sees imports: a run that needs a module does load it."""
    result = _probe(tmp_path, "--now", "2026-12-01", *args)
    assert result["status"] == 0
    assert _loaded(result["modules"], module)


def test_documentation_is_written_out_when_read() -> None:
    from sitemap_lint.finding import Rule
    from sitemap_lint.rules import RULES

    rule = RULES["UR003"]
    assert isinstance(rule, Rule)
    assert not isinstance(rule.source, str)  # declared, not yet written out
    doc = rule.doc
    assert doc.startswith("## What it does\n")
    assert "## Why is this bad?\n" in doc and "Use instead:\n```xml\n" in doc
    assert doc == rule.doc  # the same text each time it is read


# Records the collector's thresholds when typer is first imported, then runs the command.
THRESHOLD_PROBE = """
import gc, sys

class Watch:
    seen = None

    def find_spec(self, name, path=None, target=None):
        if name == "typer" and Watch.seen is None:
            Watch.seen = gc.get_threshold()
        return None

sys.meta_path.insert(0, Watch())
sys.argv = ["sitemap-lint", "--version"]
from sitemap_lint.__main__ import main
try:
    main()
except SystemExit as stop:
    print("@@", stop.code, Watch.seen)
"""


@pytest.mark.slow
def test_the_command_collects_less_often_before_it_imports_typer() -> None:
    """The entry point raises the collector's thresholds before the heavy imports."""
    done = subprocess.run(
        [sys.executable, "-c", THRESHOLD_PROBE], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "sitemap-lint" in done.stdout
    assert done.stdout.rpartition("@@ ")[2].strip() == f"0 {THRESHOLDS}"


def test_the_console_script_is_the_entry_point_that_tunes_the_collector() -> None:
    import tomllib

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    scripts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["sitemap-lint"] == "sitemap_lint.__main__:main"


def test_the_checker_loads_the_feed_front_end_for_every_feed_root() -> None:
    """The checker imports formats.feed only for the root names in _FEED_ROOTS: every
    root is_feed takes has one of them."""
    from sitemap_lint.engine.checker import _FEED_ROOTS
    from sitemap_lint.formats.feed import ATOM_NS, RDF_NS, is_feed
    from sitemap_lint.model import SITEMAP_NS, Node

    names = {*_FEED_ROOTS, "urlset", "sitemapindex", "html", "Feed", "rdf", "channel", "RSS"}
    namespaces = ("", ATOM_NS, RDF_NS, SITEMAP_NS, "urn:example:atom", "urn:example")
    feeds = {name for name in names for ns in namespaces if is_feed(Node(ns, name, {}, 1, 1))}
    assert feeds == set(_FEED_ROOTS)


# Imports a module of the standard library under deferring, then reads it.
DEFERRING_PROBE = """
import sys
import json
from sitemap_lint.support.deferred import Placeholder, deferring
assert "wave" not in sys.modules and "colorsys" not in sys.modules
with deferring("wave", "json"):
    import wave as held
    import json as kept
print("@@", isinstance(held, Placeholder), "wave" in sys.modules, kept is json)
print("@@", held.Error.__module__, "wave" in sys.modules)
import wave
print("@@", wave is not held, wave.Error is held.Error, isinstance(wave, Placeholder))
with deferring("colorsys"):
    from colorsys import rgb_to_hsv
print("@@", rgb_to_hsv.__module__, type(sys.modules["colorsys"]).__name__)
"""


def test_a_deferred_module_is_imported_when_first_read() -> None:
    done = subprocess.run(
        [sys.executable, "-c", DEFERRING_PROBE], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = [line.removeprefix("@@ ") for line in done.stdout.splitlines()]
    assert lines == [
        "True False True",  # a placeholder, gone from sys.modules; one imported is kept
        "wave True",  # read: the real module is imported
        "True True False",  # a later import gets the real module
        "colorsys module",  # a name imported from it: the real module at once
    ]


@given(st.lists(st.text(alphabet=st.sampled_from("aZ09_@%+=:,./- '\"$*\\\té\x00;&"), max_size=6)))
def test_the_command_line_is_quoted_as_shlex_quotes_it(words: list[str]) -> None:
    """settings.declared.shell_words loads shlex only for a word that needs quotes."""
    from sitemap_lint.settings.declared import shell_words

    assert shell_words(words) == shlex.join(words)
