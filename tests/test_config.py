"""Configuration files: discovery, precedence, per-file ignores, severities, profiles, errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_lint.cli import main
from sitemap_lint.errors import UsageError
from sitemap_lint.settings import config as configuration
from tests.helpers import FIXTURES, ROOT, RULE_FIXTURES, run_cli

# UR008 (warning, line 16) and nothing else.
FRAGMENT = RULE_FIXTURES / "UR008" / "fail.xml"
# DT005 (warning, line 17) at --now 2025-06-01.
FUTURE = RULE_FIXTURES / "DT005" / "fail.xml"
NOW = ["--now", "2025-06-01"]


@pytest.fixture
def site(tmp_path: Path, monkeypatch) -> Path:
    """A project directory, the working directory, with a sitemap holding one UR008."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sitemap.xml").write_bytes(FRAGMENT.read_bytes())
    return tmp_path


def lint(args: list[str], capsys) -> tuple[int, list[tuple[str, str]], str]:
    """Run with the JSON format; return the status, (code, severity) pairs and stderr."""
    status, out, err = run_cli(["--format", "json", *NOW, *args], capsys)
    if status == 2:
        return status, [], err
    document = json.loads(out)
    findings = [(f["code"], f["severity"]) for file in document["files"] for f in file["findings"]]
    return status, findings, err


def usage_error(args: list[str], capsys) -> str:
    status = main(args)
    captured = capsys.readouterr()
    assert status == 2, captured
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("sitemap-lint: error: ")
    return captured.err


def test_external_codes_may_be_named_by_directives(site: Path, capsys) -> None:
    """The codes of a plugin that is not installed here: a directive naming them is no
    SU002, and suppresses nothing; the other codes it names are read as ever."""
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    directive = "<!-- sitemap-lint: disable-file ZZ001, QX9, UR008 -->\n"
    (site / "sitemap.xml").write_text(sitemap.replace("<urlset", directive + "<urlset", 1))
    status, findings, _err = lint(["--isolated", "sitemap.xml"], capsys)
    assert status == 1 and findings == [("SU002", "error"), ("SU002", "error")]
    (site / ".sitemap-lint.toml").write_text('external = ["zz", "QX"]\n')
    assert lint(["sitemap.xml"], capsys) == (0, [], "")
    (site / ".sitemap-lint.toml").write_text('external = ["ZZ002"]\n')
    status, findings, _err = lint(["sitemap.xml"], capsys)
    assert status == 1 and findings == [("SU002", "error"), ("SU002", "error")]


# -- discovery ----------------------------------------------------------------------------


def test_no_configuration_reports_everything(site: Path, capsys) -> None:
    assert lint(["sitemap.xml"], capsys)[:2] == (0, [("UR008", "warning")])


def test_dot_file_in_the_working_directory(site: Path, capsys) -> None:
    (site / ".sitemap-lint.toml").write_text('ignore = ["UR008"]\n')
    assert lint(["sitemap.xml"], capsys)[:2] == (0, [])


def test_pyproject_table(site: Path, capsys) -> None:
    (site / "pyproject.toml").write_text(
        '[project]\nname = "site"\n\n[tool.sitemap-lint]\nignore = ["UR"]\n'
    )
    assert lint(["sitemap.xml"], capsys)[:2] == (0, [])


def test_found_upwards_from_the_working_directory(site: Path, monkeypatch, capsys) -> None:
    (site / ".sitemap-lint.toml").write_text('ignore = ["UR008"]\n')
    deeper = site / "a" / "b"
    deeper.mkdir(parents=True)
    monkeypatch.chdir(deeper)
    assert lint([str(site / "sitemap.xml")], capsys)[:2] == (0, [])


def test_closest_file_wins_without_merging(site: Path, monkeypatch, capsys) -> None:
    (site / ".sitemap-lint.toml").write_text('ignore = ["UR008"]\n')
    inner = site / "inner"
    inner.mkdir()
    (inner / ".sitemap-lint.toml").write_text('severity = { UR008 = "error" }\n')
    monkeypatch.chdir(inner)
    # The inner file applies alone: UR008 is not ignored, and it is an error.
    assert lint([str(site / "sitemap.xml")], capsys)[:2] == (1, [("UR008", "error")])


def test_pyproject_without_the_table_does_not_count(site: Path, monkeypatch, capsys) -> None:
    (site / ".sitemap-lint.toml").write_text('ignore = ["UR008"]\n')
    inner = site / "inner"
    inner.mkdir()
    (inner / "pyproject.toml").write_text(
        '[project]\nname = "sitemap-lint-user"\n\n[tool.ruff]\nline-length = 100\n'
    )
    monkeypatch.chdir(inner)
    assert lint([str(site / "sitemap.xml")], capsys)[:2] == (0, [])


def test_dot_file_comes_before_pyproject_in_one_directory(site: Path, capsys) -> None:
    (site / "pyproject.toml").write_text('[tool.sitemap-lint]\nignore = ["UR008"]\n')
    (site / ".sitemap-lint.toml").write_text('severity = { UR008 = "info" }\n')
    assert lint(["sitemap.xml"], capsys)[:2] == (0, [("UR008", "info")])


def test_config_flag_names_the_file(site: Path, capsys) -> None:
    (site / ".sitemap-lint.toml").write_text('ignore = ["UR008"]\n')
    elsewhere = site / "ci" / "strict.toml"
    elsewhere.parent.mkdir()
    elsewhere.write_text('fail-on = "warning"\n')
    assert lint(["--config", str(elsewhere), "sitemap.xml"], capsys)[:2] == (
        1,
        [("UR008", "warning")],
    )


def test_config_flag_accepts_a_pyproject(site: Path, capsys) -> None:
    other = site / "other" / "pyproject.toml"
    other.parent.mkdir()
    other.write_text('[tool.sitemap-lint]\nignore = ["UR008"]\n')
    assert lint(["--config", str(other), "sitemap.xml"], capsys)[:2] == (0, [])


def test_isolated_ignores_every_file(site: Path, capsys) -> None:
    (site / ".sitemap-lint.toml").write_text('ignore = ["UR008"]\n')
    assert lint(["--isolated", "sitemap.xml"], capsys)[:2] == (0, [("UR008", "warning")])


def test_discover_and_resolve(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.sitemap-lint]\n")
    inner = tmp_path / "x" / "y"
    inner.mkdir(parents=True)
    assert configuration.discover(inner) == tmp_path / "pyproject.toml"
    (inner / ".sitemap-lint.toml").write_text("")
    assert configuration.discover(inner) == inner / ".sitemap-lint.toml"
    assert configuration.resolve(None, isolated=True, cwd=inner) == configuration.Config()
    assert configuration.resolve(None, isolated=False, cwd=inner).path == (
        inner / ".sitemap-lint.toml"
    )


def test_a_configuration_above_the_working_directory_is_used(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    (tmp_path / "sitemap.xml").write_bytes(FRAGMENT.read_bytes())
    (tmp_path / ".sitemap-lint.toml").write_text('ignore = ["UR008"]\n')
    inner = tmp_path / "site" / "maps"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)
    assert lint(["../../sitemap.xml"], capsys)[:2] == (0, [])
    assert lint(["--isolated", "../../sitemap.xml"], capsys)[:2] == (0, [("UR008", "warning")])


@pytest.mark.parametrize("mark", ["directory", "file"])
def test_the_search_for_a_configuration_stops_at_the_repository_root(
    tmp_path: Path, monkeypatch, capsys, mark: str
) -> None:
    """A repository (``.git``: a directory, or a file in a worktree or a submodule) is
    not configured from a directory above it; its root's own file is found."""
    (tmp_path / "sitemap.xml").write_bytes(FRAGMENT.read_bytes())
    (tmp_path / ".sitemap-lint.toml").write_text('ignore = ["UR008"]\n')
    repository = tmp_path / "repository"
    inner = repository / "site"
    inner.mkdir(parents=True)
    if mark == "directory":
        (repository / ".git").mkdir()
    else:
        (repository / ".git").write_text("gitdir: ../elsewhere/.git\n")
    monkeypatch.chdir(inner)
    assert configuration.discover(inner) is None
    assert lint(["../../sitemap.xml"], capsys)[:2] == (0, [("UR008", "warning")])
    (repository / "pyproject.toml").write_text('[tool.sitemap-lint]\nignore = ["UR"]\n')
    assert configuration.discover(inner) == repository / "pyproject.toml"
    assert lint(["../../sitemap.xml"], capsys)[:2] == (0, [])
    other = tmp_path / "other.toml"
    other.write_text('ignore = ["UR008"]\n')
    (repository / "pyproject.toml").unlink()
    assert lint(["--config", str(other), "../../sitemap.xml"], capsys)[:2] == (0, [])


@pytest.mark.slow
def test_tomllib_is_imported_only_when_a_file_may_configure(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_bytes((FIXTURES / "valid" / "sitemap.xml").read_bytes())
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "site"\n')
    code = (
        "import sys; from sitemap_lint.cli import main; "
        "status = main(['--quiet', 'sitemap.xml']); print(status, 'tomllib' in sys.modules)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == ["0", "False"]


# -- precedence: the command line over the file -------------------------------------------


@pytest.mark.parametrize(
    ("file", "flags", "expected"),
    [
        ('ignore = ["UR008"]', ["--select", "UR008"], (0, [("UR008", "warning")])),
        ('ignore = ["UR"]', ["--extend-select", "UR008"], (0, [("UR008", "warning")])),
        ('select = ["UR008"]', ["--ignore", "UR"], (0, [])),
        ('fail-on = "warning"', ["--fail-on", "error"], (0, [("UR008", "warning")])),
        ('fail-on = "warning"', [], (1, [("UR008", "warning")])),
        ('profile = "strict"\nfail-on = "warning"', ["--exit-zero"], (0, [("UR008", "warning")])),
        ('xsd-engine = "saxon"', [], (2, [])),  # checked even when a flag would override it
        ('xsd-engine = "xmlschema"', ["--xsd-engine", "libxml2"], (0, [("UR008", "warning")])),
    ],
)
def test_flags_override_the_file(site: Path, capsys, file: str, flags, expected) -> None:
    (site / ".sitemap-lint.toml").write_text(file + "\n")
    assert lint([*flags, "sitemap.xml"], capsys)[:2] == expected


def test_format_flag_overrides_the_file(site: Path, capsys) -> None:
    (site / ".sitemap-lint.toml").write_text('format = "concise"\n')
    assert main(["sitemap.xml"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("sitemap.xml:16:5: UR008 ")
    assert main(["--format", "json", "sitemap.xml"]) == 0
    assert json.loads(capsys.readouterr().out)["files"][0]["findings"][0]["code"] == "UR008"


def test_sitemap_url_flag_overrides_the_file(site: Path, capsys) -> None:
    (site / ".sitemap-lint.toml").write_text('sitemap-url = "https://other.example/sitemap.xml"\n')
    status, findings, _ = lint(["sitemap.xml"], capsys)
    assert ("SC001", "error") in findings and status == 1
    status, findings, _ = lint(
        ["--sitemap-url", "https://example.com/sitemap.xml", "sitemap.xml"], capsys
    )
    assert findings == [("UR008", "warning")] and status == 0


def test_sitemap_url_table_gives_each_file_its_url(site: Path, capsys) -> None:
    (site / "shop").mkdir()
    (site / "shop" / "sitemap.xml").write_bytes(FRAGMENT.read_bytes())
    (site / ".sitemap-lint.toml").write_text(
        "[sitemap-url]\n"
        '"shop/*.xml" = "https://example.com/shop/sitemap.xml"\n'
        '"*.xml" = "https://example.com/sitemap.xml"\n'
    )
    main(["--format", "json", *NOW, "sitemap.xml", "shop/sitemap.xml"])
    files = {
        f["path"]: {x["code"] for x in f["findings"]}
        for f in json.loads(capsys.readouterr().out)["files"]
    }
    assert files["sitemap.xml"] == {"UR008"}
    assert "SC002" in files["shop/sitemap.xml"]  # its URLs lie outside /shop/


# -- per-file ignores ---------------------------------------------------------------------


def test_per_file_ignores_are_relative_to_the_config_file(site: Path, monkeypatch, capsys) -> None:
    (site / "public" / "legacy").mkdir(parents=True)
    for name in ("public/sitemap.xml", "public/legacy/sitemap.xml"):
        (site / name).write_bytes(FRAGMENT.read_bytes())
    (site / ".sitemap-lint.toml").write_text('[per-file-ignores]\n"public/legacy/**" = ["UR"]\n')
    monkeypatch.chdir(site / "public")  # globs stay relative to the file, not the cwd
    # The two copies share every URL: SE001, not what this test is about.
    main(["--format", "json", *NOW, "--ignore", "SE001", "sitemap.xml", "legacy/sitemap.xml"])
    files = json.loads(capsys.readouterr().out)["files"]
    assert [(f["path"], len(f["findings"])) for f in files] == [
        ("sitemap.xml", 1),
        ("legacy/sitemap.xml", 0),
    ]


def test_per_file_ignore_by_file_name(site: Path, capsys) -> None:
    (site / "news").mkdir()
    (site / "news" / "sitemap-news.xml").write_bytes(FRAGMENT.read_bytes())
    (site / ".sitemap-lint.toml").write_text(
        '[per-file-ignores]\n"sitemap-news*.xml" = ["UR008"]\n'
    )
    main(["--format", "json", *NOW, "--ignore", "SE001", "sitemap.xml", "news/sitemap-news.xml"])
    files = json.loads(capsys.readouterr().out)["files"]
    assert [len(f["findings"]) for f in files] == [1, 0]


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*.xml", "a/b/sitemap.xml", True),
        ("sitemap-?.xml", "sitemap-1.xml", True),
        ("sitemap-[0-9].xml", "x/sitemap-7.xml", True),
        ("sitemap-[!0-9].xml", "sitemap-7.xml", False),
        ("public/*.xml", "public/sitemap.xml", True),
        ("public/*.xml", "public/deep/sitemap.xml", False),
        ("public/**/*.xml", "public/sitemap.xml", True),
        ("public/**/*.xml", "public/a/b/sitemap.xml", True),
        ("/public/*.xml", "public/sitemap.xml", True),
        ("./public/*.xml", "public/sitemap.xml", True),
        ("public/*.xml", "other/public/sitemap.xml", False),
        ("*.xml", "-", False),
        ("sitemap-{news,video}.xml", "a/sitemap-video.xml", True),
        ("sitemap-{news,video}.xml", "sitemap-image.xml", False),
        ("sitemap{,-*}.xml", "sitemap.xml", True),
        ("sitemap{,-*}.xml", "sitemap-2.xml", True),
        ("{public,static}/**/*.xml", "static/a/sitemap.xml", True),
        ("{public,static}/*.xml", "other/sitemap.xml", False),
        ("{public/news,static}/*.xml", "public/news/sitemap.xml", True),
        ("sitemap-{a,{b,c}}.xml", "sitemap-c.xml", True),
        ("sitemap-{news.xml", "sitemap-{news.xml", True),
        ("sitemap-{news}.xml", "sitemap-{news}.xml", False),
        ("sitemap-{news}.xml", "sitemap-news.xml", True),
    ],
)
def test_file_globs(tmp_path: Path, pattern: str, path: str, matches: bool) -> None:
    glob = configuration.FileGlob(pattern, tmp_path)
    name = path if path == "-" else str(tmp_path / path)
    assert glob.matches(name) is matches


# -- severities and profiles --------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('UR008 = "error"', (1, [("UR008", "error")])),
        ('UR008 = "info"', (0, [("UR008", "info")])),
        ('UR008 = "off"', (0, [])),
        ('UR = "error"\nUR008 = "info"', (0, [("UR008", "info")])),  # the longest prefix
        ('ALL = "error"', (1, [("UR008", "error")])),
    ],
)
def test_severity_table(site: Path, capsys, table: str, expected) -> None:
    (site / ".sitemap-lint.toml").write_text(f"[severity]\n{table}\n")
    assert lint(["sitemap.xml"], capsys)[:2] == expected


@pytest.mark.parametrize(
    ("profile", "fixture", "expected"),
    [
        ("google", FUTURE, (0, [("DT005", "warning")])),
        ("bing", FUTURE, (1, [("DT005", "error")])),
        ("yandex", RULE_FIXTURES / "HL001" / "fail.xml", (0, [("HL001", "info")])),
        ("strict", RULE_FIXTURES / "DT004" / "fail.xml", (1, [("DT004", "error")])),
        ("strict", RULE_FIXTURES / "NS003" / "fail.xml", (1, [("NS003", "error")])),
    ],
)
def test_profiles(site: Path, capsys, profile: str, fixture: Path, expected) -> None:
    (site / "sitemap.xml").write_bytes(fixture.read_bytes())
    assert lint(["--profile", profile, "sitemap.xml"], capsys)[:2] == expected
    (site / ".sitemap-lint.toml").write_text(f'profile = "{profile}"\n')
    assert lint(["sitemap.xml"], capsys)[:2] == expected


def test_severity_table_applies_after_the_profile(site: Path, capsys) -> None:
    (site / "sitemap.xml").write_bytes(FUTURE.read_bytes())
    (site / ".sitemap-lint.toml").write_text('profile = "bing"\nseverity = { DT = "info" }\n')
    assert lint(["sitemap.xml"], capsys)[:2] == (0, [("DT005", "info")])


def test_rules_command_shows_a_profile(capsys) -> None:
    assert main(["rules", "--profile", "bing"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("DT005"))
    assert re.search(r"\berror\b.*\(default: warning\)$", line), line
    assert main(["rules"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("DT005"))
    assert " warning " in line and "default" not in line
    assert "unknown profile" in usage_error(["rules", "--profile", "baidu"], capsys)


# -- a wrong configuration never passes silently -----------------------------------------

WRONG = [
    ("selct = []", "unknown key 'selct'; did you mean 'select'?"),
    ("colour = 'never'", "unknown key 'colour'"),
    ('select = "UR"', "select: expected a list of rule codes"),
    ("select = []", "select: an empty list names no rule code, so nothing would be reported"),
    ("select = [1]", "select: expected a list"),
    ('select = ["UR999"]', "select: 'UR999' is not a rule code"),
    ('extend-select = ["ZZ"]', "extend-select: 'ZZ' is not a rule code"),
    ('ignore = ["UR-8"]', "ignore: 'UR-8' is not a rule code"),
    ('ignore = [""]', "ignore: '' is not a rule code"),
    ('severity = "error"', "severity: expected a table"),
    ('severity = { XX001 = "error" }', "severity: 'XX001' is not a rule code"),
    ('severity = { UR008 = "fatal" }', "severity.UR008: expected one of error, warning, info, off"),
    ("severity = { UR008 = 3 }", "severity.UR008: expected one of"),
    ('per-file-ignores = ["UR"]', "per-file-ignores: expected a table"),
    ('per-file-ignores = { "*.xml" = "UR" }', 'per-file-ignores."*.xml": expected a list'),
    ('per-file-ignores = { "*.xml" = ["QQ"] }', "per-file-ignores.\"*.xml\": 'QQ' is not a rule"),
    ('per-file-ignores = { "" = ["UR"] }', 'per-file-ignores."": an empty glob'),
    ("sitemap-url = 1", "sitemap-url: expected a URL or a table"),
    ('sitemap-url = "/sitemap.xml"', "sitemap-url: '/sitemap.xml' is not usable"),
    ('sitemap-url = ""', "sitemap-url: '' is not usable: give the URL the sitemap is served at"),
    ('sitemap-url = { "*.xml" = "ftp://x.example/s" }', 'sitemap-url."*.xml": \'ftp://'),
    ('sitemap-url = { "*.xml" = 5 }', 'sitemap-url."*.xml": expected a URL string'),
    ('fail-on = "never"', "fail-on: expected one of error, warning, info"),
    ('profile = "baidu"', "profile: expected one of google, bing, yandex, strict"),
    ('format = "yaml"', "format: expected one of text"),
    ("xsd-engine = true", "xsd-engine: expected one of libxml2, xmlschema"),
    ("live-crawl-budget = 0", "live-crawl-budget 0: give more than 0 seconds"),
    ("live-crawl-budget = -inf", "live-crawl-budget -inf: give more than 0 seconds"),
    ("live-crawl-budget = nan", "live-crawl-budget nan: give more than 0 seconds"),
    ('live-crawl-budget = "300"', "live-crawl-budget: expected a number of seconds, got '300'"),
    ("live-crawl-budget = true", "live-crawl-budget: expected a number of seconds, got True"),
    ('external = "ZZ"', "external: expected a list of rule codes or prefixes"),
    ('external = ["ZZZ"]', "external: 'ZZZ' is not a rule code or a prefix of one"),
    ('external = ["ALL"]', "external: 'ALL' is not a rule code"),
    ('external = ["U"]', "external: 'U' shares its letters with the built-in UR rules"),
    ('external = ["UR901"]', "external: 'UR901' shares its letters with the built-in UR rules"),
    ("select = [", "not valid TOML"),
]


@pytest.mark.parametrize(("content", "needle"), WRONG, ids=[w[0] for w in WRONG])
def test_wrong_dot_file(site: Path, capsys, content: str, needle: str) -> None:
    path = site / ".sitemap-lint.toml"
    path.write_text(content + "\n")
    err = usage_error(["sitemap.xml"], capsys)
    assert f"{path}: " in err and needle in err, err


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ('[tool.sitemap-lint]\nselct = ["UR"]', "tool.sitemap-lint.selct"),
        ('[tool.sitemap-lint]\nignore = ["XX"]', "tool.sitemap-lint.ignore: 'XX'"),
        ("[tool.sitemap-lint]\nselect = []", "tool.sitemap-lint.select: an empty list names no"),
        ('[tool.sitemap-lint.severity]\nUR008 = "loud"', "tool.sitemap-lint.severity.UR008"),
        ("[tool]\nsitemap-lint = 1", "tool.sitemap-lint must be a table"),
        ('[tool.sitemap-lint]\nselect = ["UR"', "not valid TOML"),
        ('[tool.sitemap-lint\nselect = ["UR"]', "not valid TOML"),
    ],
)
def test_wrong_pyproject(site: Path, capsys, content: str, needle: str) -> None:
    path = site / "pyproject.toml"
    path.write_text(content + "\n")
    err = usage_error(["sitemap.xml"], capsys)
    assert f"{path}: " in err and needle in err, err


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        # Each was an internal error: TOML's reader ran out of stack, the system refused
        # the path when the file was opened.
        ("x = " + "[" * 100_000, "not valid TOML: values nested too deeply"),
        ("x = " + "{a = " * 5_000, "not valid TOML: values nested too deeply"),
        ('baseline = "a\\u0000b"', "baseline: 'a\\x00b' holds a NUL character"),
        ('robots = ["a\\u0000b"]', "robots: 'a\\x00b' holds a NUL character"),
        ('map = { "https://example.com/" = "a\\u0000b" }', "holds a NUL character"),
    ],
    ids=["deep-array", "deep-table", "baseline", "robots", "map"],
)
def test_a_file_no_reader_or_system_takes_is_one_line(
    site: Path, capsys, content: str, needle: str
) -> None:
    path = site / ".sitemap-lint.toml"
    path.write_text(content + "\n")
    err = usage_error(["sitemap.xml"], capsys)
    assert f"{path}: " in err and needle in err, err


@pytest.mark.parametrize(
    ("name", "content"),
    [
        (".sitemap-lint.toml", 'ignore = ["UR008"]\r\n'),
        ("pyproject.toml", '[tool.sitemap-lint]\nignore = ["UR008"]\n'),
    ],
)
def test_a_file_an_editor_saved_with_a_byte_order_mark_is_read(
    site: Path, capsys, name: str, content: str
) -> None:
    (site / name).write_bytes(b"\xef\xbb\xbf" + content.encode())
    assert lint(["sitemap.xml"], capsys)[:2] == (0, [])


@pytest.mark.parametrize("key", ["ignore", "extend-select"])
def test_an_empty_ignore_or_extend_select_list_changes_nothing(
    site: Path, capsys, key: str
) -> None:
    (site / ".sitemap-lint.toml").write_text(f"{key} = []\n")
    assert lint(["sitemap.xml"], capsys)[:2] == (0, [("UR008", "warning")])


def test_wrong_file_named_by_config_flag(site: Path, capsys) -> None:
    path = site / "custom.toml"
    path.write_text('ignore = ["UR00X"]\n')
    assert "custom.toml: ignore: 'UR00X'" in usage_error(["--config", str(path), "x"], capsys)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--config", "missing.toml", "sitemap.xml"], "--config missing.toml: no such file"),
        (
            ["--config", ".", "sitemap.xml"],
            "--config .: is a directory; name the file in it (.sitemap-lint.toml or pyproject.toml)",
        ),
        (["--config", "pyproject.toml", "sitemap.xml"], "no [tool.sitemap-lint] table"),
        (
            ["--config", "fifo.toml", "sitemap.xml"],
            "--config fifo.toml: not a regular file (a FIFO or pipe); name the configuration"
            " file (.sitemap-lint.toml or pyproject.toml)",
        ),
        (
            ["--config", ".sitemap-lint.toml", "--isolated", "sitemap.xml"],
            "--config and --isolated cannot be used together: one names a configuration"
            " file, the other ignores every one; give one of them",
        ),
    ],
)
def test_config_flag_problems(site: Path, capsys, args, needle: str) -> None:
    (site / "pyproject.toml").write_text('[project]\nname = "site"\n')
    (site / ".sitemap-lint.toml").write_text("")
    os.mkfifo(site / "fifo.toml")
    assert needle in usage_error(args, capsys)


def test_a_removed_working_directory_is_said_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Discovery starts there: a clean exit 2, and --isolated still checks."""
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_bytes(FRAGMENT.read_bytes())
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    err = usage_error([str(sitemap)], capsys)
    assert err == (
        "sitemap-lint: error: the working directory no longer exists, so no configuration"
        " file can be found above it: change to a directory, or give --config FILE or"
        " --isolated\n"
    )
    assert main(["--isolated", *NOW, str(sitemap)]) == 0


def test_a_misspelt_pyproject_table_is_not_passed_over(site: Path, capsys) -> None:
    """``[tool.sitemap_lint]`` (the package's spelling) would leave the run unconfigured."""
    path = site / "pyproject.toml"
    path.write_text('[project]\nname = "site"\n\n[tool.sitemap_lint]\nignore = ["UR008"]\n')
    err = usage_error(["sitemap.xml"], capsys)
    assert err == (
        f"sitemap-lint: error: {path}: [tool.sitemap_lint] is not read; name the table"
        " [tool.sitemap-lint]\n"
    )
    assert "[tool.sitemap_lint] is not read" in usage_error(
        ["--config", str(path), "sitemap.xml"], capsys
    )


@pytest.mark.parametrize("name", [".sitemap-lint.toml", "ci.toml"])
def test_a_table_header_in_a_file_of_bare_keys(site: Path, capsys, name: str) -> None:
    path = site / name
    path.write_text('[tool.sitemap-lint]\nignore = ["UR008"]\n')
    err = usage_error(["--config", str(path), "sitemap.xml"], capsys)
    assert err == (
        f"sitemap-lint: error: {path}: the [tool.sitemap-lint] table is read from a"
        " pyproject.toml only; in this file, write its keys without the table header\n"
    )


def test_a_missing_robots_txt_the_configuration_names_is_said_to_come_from_it(
    site: Path, capsys
) -> None:
    config = site / ".sitemap-lint.toml"
    config.write_text('robots = ["public/robots.txt"]\n')
    err = usage_error(["sitemap.xml"], capsys)
    assert err == (
        f"sitemap-lint: error: {config}: robots {site / 'public' / 'robots.txt'}:"
        " cannot read: No such file or directory\n"
    )
    # The same file given with --robots is the flag's.
    err = usage_error(["--isolated", "--robots", "public/robots.txt", "sitemap.xml"], capsys)
    assert err.startswith("sitemap-lint: error: --robots public/robots.txt: cannot read")


def test_unreadable_configuration(site: Path, capsys) -> None:
    (site / ".sitemap-lint.toml").write_bytes(b"ignore = ['\xff']\n")
    assert "cannot read" in usage_error(["sitemap.xml"], capsys)


def test_readme_example_is_a_valid_configuration(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1]
    example = re.search(r"```toml\n(.*?)```", section, re.DOTALL).group(1)
    path = tmp_path / "pyproject.toml"
    path.write_text(example)
    loaded = configuration.load(path, required=True)
    assert loaded.profile == "bing" and loaded.ignore == ("UR008", "HL")
    assert len(loaded.per_file_ignores) == 2 and len(loaded.sitemap_urls) == 2


def test_usage_error_is_one_class() -> None:
    from sitemap_lint import run

    assert run.UsageError is UsageError


def test_follow_map_and_robots_from_the_configuration(tmp_path: Path, monkeypatch, capsys) -> None:
    public = tmp_path / "public"
    public.mkdir()
    (public / "sitemap-index.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <sitemap><loc>https://example.com/sitemap.xml</loc></sitemap>\n"
        "</sitemapindex>\n",
        encoding="utf-8",
    )
    (public / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/private/draft</loc></url>\n"
        "</urlset>\n",
        encoding="utf-8",
    )
    (public / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n", encoding="utf-8")
    (tmp_path / ".sitemap-lint.toml").write_text(
        'follow = true\nrobots = ["public/robots.txt"]\n\n[map]\n"https://example.com/" = "public"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["--format", "json", *NOW, "public/sitemap-index.xml"]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    found = [(f["path"], [x["code"] for x in f["findings"]]) for f in files]
    assert found == [
        ("public/sitemap-index.xml", []),
        ("public/sitemap.xml", ["RB007"]),  # the configured robots.txt disallows it
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("follow = 1", "expected true or false"),
        ('map = "public"', "expected a table"),
        ('[map]\n"example.com/" = "."', "must be an http(s) URL"),
        ("robots = 3", "expected a list"),
    ],
)
def test_set_keys_are_checked(tmp_path: Path, monkeypatch, capsys, text: str, problem: str) -> None:
    (tmp_path / ".sitemap-lint.toml").write_text(text + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main([str(FRAGMENT)]) == 2
    error = capsys.readouterr().err
    assert problem in error and error.count("\n") == 1


# -- the keys come from the settings' declaration ----------------------------------------

# Every key a configuration could hold before the settings were declared in one place,
# and the keys of the fixes (`fix`, `unsafe-fixes`).
KEYS = (
    "select",
    "extend-select",
    "ignore",
    "severity",
    "per-file-ignores",
    "external",
    "sitemap-url",
    "fail-on",
    "profile",
    "format",
    "xsd-engine",
    "follow",
    "map",
    "robots",
    "show-source",
    "fix",
    "unsafe-fixes",
    "baseline",
    "allow-private-hosts",
    "live",
    "live-cache",
    "live-crawl-budget",
)


def test_configuration_keys_are_the_declared_ones() -> None:
    from sitemap_lint.settings.declared import BY_KEY, SETTINGS

    assert set(BY_KEY) == set(KEYS)
    assert all(BY_KEY[key].read is not None for key in KEYS)
    stored = {name for setting in SETTINGS for name, _ in setting.stored}
    assert set(configuration.Config.fields) == {"path", *stored}


def test_unknown_key_lists_the_declared_keys(site: Path, capsys) -> None:
    (site / ".sitemap-lint.toml").write_text("zzzzzzzz = 1\n")
    err = usage_error(["sitemap.xml"], capsys)
    known = err.split("known keys: ", 1)[1].strip().split(", ")
    assert sorted(known) == sorted(KEYS)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('select = ["ur"]', {"select": ("UR",)}),
        ('extend-select = ["DT004"]', {"extend_select": ("DT004",)}),
        ('ignore = ["UR008", "HL"]', {"ignore": ("UR008", "HL")}),
        ('fail-on = "info"', {"fail_on": "info"}),
        ('profile = "yandex"', {"profile": "yandex"}),
        ('format = "sarif"', {"format": "sarif"}),
        ('xsd-engine = "xmlschema"', {"xsd_engine": "xmlschema"}),
        ("follow = true", {"follow": True}),
        ("allow-private-hosts = true", {"allow_private_hosts": True}),
        ("live-crawl-budget = 60", {"live_crawl_budget": 60.0}),
        ("live-crawl-budget = 0.5", {"live_crawl_budget": 0.5}),
        ("live-crawl-budget = inf", {"live_crawl_budget": float("inf")}),
        (
            'robots = ["https://example.com/robots.txt"]',
            {"robots": ("https://example.com/robots.txt",)},
        ),
    ],
)
def test_each_key_sets_its_field(tmp_path: Path, text: str, expected: dict) -> None:
    path = tmp_path / ".sitemap-lint.toml"
    path.write_text(text + "\n")
    loaded = configuration.load(path)
    values = {name: getattr(loaded, name) for name in expected}
    if "fail_on" in values:
        values["fail_on"] = str(values["fail_on"])
    assert values == expected
    untouched = configuration.Config(path=path, **{n: getattr(loaded, n) for n in expected})
    assert loaded == untouched  # nothing else set


def test_table_keys_set_their_fields(tmp_path: Path) -> None:
    path = tmp_path / ".sitemap-lint.toml"
    path.write_text(
        'sitemap-url = "https://example.com/sitemap.xml"\n'
        '[map]\n"https://example.com" = "public"\n'
        '[severity]\nur = "off"\nDT004 = "error"\n'
        '[per-file-ignores]\n"*.xml" = ["UR"]\n'
    )
    loaded = configuration.load(path)
    assert (loaded.sitemap_url.host, loaded.sitemap_url.path) == ("example.com", "/sitemap.xml")
    assert loaded.maps == (("https://example.com/", tmp_path.absolute() / "public"),)
    assert {code: level and str(level) for code, level in loaded.severity.items()} == {
        "UR": None,
        "DT004": "error",
    }
    ((glob, codes),) = loaded.per_file_ignores
    assert glob.pattern == "*.xml" and codes == ("UR",)
    assert configuration.Config().severity == {} and configuration.Config().severity is not (
        configuration.Config().severity
    )


def test_configuration_does_not_import_the_run() -> None:
    code = (
        "import sys, sitemap_lint.settings.config, sitemap_lint.settings.declared; "
        "print('sitemap_lint.run' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False"]
    for name in ("settings/config.py", "settings/declared.py", "settings/parsing.py"):
        source = (ROOT / "linter" / "sitemap_lint" / name).read_text(encoding="utf-8")
        assert "sitemap_lint.run" not in source and "sitemap_lint import run" not in source


# -- the look before parsing a pyproject.toml ------------------------------------------------

_HOLDING = [
    '[tool.sitemap-lint]\nselect = ["UR"]\n',
    '[ tool . "sitemap-lint" ]\nselect = ["UR"]\n',
    "[tool.'sitemap-lint']\nselect = ['UR']\n",
    '["tool"."sitemap-lint"]\nselect = ["UR"]\n',
    '[tool.sitemap-lint.per-file-ignores]\n"a.xml" = ["UR"]\n',
    '[tool."sitemap\\u002dlint"]\nselect = ["UR"]\n',  # an escape in a quoted key
    'tool.sitemap-lint.select = ["UR"]\n[project]\nname = "site"\n',
    'tool . "sitemap-lint" = { select = ["UR"] }\n',
    'tool = { sitemap-lint = { select = ["UR"] } }\n',
    'tool = { black = { line-length = 88 }, "sitemap-lint".select = ["UR"] }\n',
    '[tool]\nsitemap-lint = { select = ["UR"] }\n',
    "[tool] # all tools\n'sitemap-lint'.select = ['UR']\n",
    '[tool]\r\nsitemap-lint.select = ["UR"]\r\n',
    '[tool.sitemap_lint]\nselect = ["UR"]\n',  # misspelt: found, to be refused
]
_NOT_HOLDING = [
    '[tool.setuptools]\npackages = ["sitemap_lint"]\n',
    '[tool.setuptools.packages.find]\ninclude = ["sitemap_lint*"]\n',
    '[tool.setuptools.package-data]\nsitemap_lint = ["py.typed"]\n',
    '[tool.setuptools.exclude-package-data]\n"sitemap_lint" = ["*.c"]\n',
    '[tool.setuptools.dynamic]\nversion = { attr = "sitemap_lint._version.__version__" }\n',
    '[tool.mypy]\nfiles = [\n  "sitemap_lint",\n  "sitemap_lint.rules",\n]\n',
    '[project.scripts]\nsitemap-lint = "sitemap_lint.__main__:main"\n',
]


@pytest.mark.parametrize("text", _HOLDING)
def test_every_toml_form_of_the_table_is_looked_at(text: str) -> None:
    import tomllib

    tool = tomllib.loads(text)["tool"]
    assert "sitemap-lint" in tool or "sitemap_lint" in tool  # the form is what it says
    assert configuration._may_hold_table(text)


@pytest.mark.parametrize("text", _NOT_HOLDING)
def test_the_package_named_elsewhere_is_no_table(text: str) -> None:
    import tomllib

    tool = tomllib.loads(text).get("tool", {})
    assert "sitemap-lint" not in tool and "sitemap_lint" not in tool
    assert not configuration._may_hold_table(text)


def test_a_pyproject_that_names_the_package_is_not_parsed(tmp_path: Path) -> None:
    """Nor refused when it is no TOML this Python reads: it holds no table of ours."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.setuptools]\npackages = ["sitemap_lint"]\n[tool.other]\nx = {\n  y = 1,\n}\n'
    )
    assert configuration.discover(tmp_path) is None


def test_a_table_named_with_an_escape_is_found(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool."sitemap\\u002dlint"]\nignore = ["UR008"]\n')
    assert configuration.discover(tmp_path) == tmp_path / "pyproject.toml"
    assert configuration.load(tmp_path / "pyproject.toml").ignore == ("UR008",)


@pytest.mark.parametrize("tool", ['"sitemap-lint"', '["sitemap-lint"]', "1"])
def test_a_pyproject_whose_tool_is_no_table_has_no_table_of_ours(
    site: Path, capsys, tool: str
) -> None:
    """Named by --config, it is the usual usage error (no internal error); found, it
    does not count."""
    (site / "pyproject.toml").write_text(f"tool = {tool}\n")
    assert configuration.discover(site) is None
    needle = "pyproject.toml: no [tool.sitemap-lint] table"
    assert needle in usage_error(["--config", "pyproject.toml", "sitemap.xml"], capsys)


def test_a_pyproject_found_is_parsed_once(site: Path, monkeypatch, capsys) -> None:
    import tomllib

    parsed: list[str] = []
    loads = tomllib.loads

    def counted(text: str) -> dict:
        parsed.append(text)
        return loads(text)

    monkeypatch.setattr(tomllib, "loads", counted)
    (site / "pyproject.toml").write_text('[tool.sitemap-lint]\nignore = ["UR008"]\n')
    status, findings, _err = lint(["sitemap.xml"], capsys)
    assert (status, findings) == (0, [])
    assert len(parsed) == 1
