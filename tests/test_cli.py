"""The command line end to end: formats, exit codes, stdin, errors as one line."""

from __future__ import annotations

import errno
import gzip
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint import __version__
from tests.helpers import FIXTURES, ROOT, run_cli

VALID = FIXTURES / "valid" / "sitemap.xml"
BROKEN = FIXTURES / "rules" / "XM001" / "fail.xml"


run = run_cli


def test_clean_file_exits_zero(capsys) -> None:
    status, out, err = run(["--now", "2025-06-01", str(VALID)], capsys)
    assert status == 0
    assert "no problems found" in out
    assert err == ""


def test_error_finding_exits_one_and_shows_location(capsys) -> None:
    status, out, _ = run([str(BROKEN)], capsys)
    assert status == 1
    heading, first = out.splitlines()[:2]
    assert heading == str(BROKEN)  # the path heads its findings, which start with line:col
    assert first.split()[:3] == ["5:3", "error", "XM001"] and "[xml-syntax-error]" in first


def test_warnings_alone_exit_zero(tmp_path: Path, capsys) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.com/a</loc></url>"
        "<url><loc>https://example.com/a</loc></url></urlset>"
    )
    status, out, _ = run([str(path)], capsys)
    assert status == 0
    assert "DU001" in out


def test_json_document(capsys) -> None:
    status, out, err = run(
        ["--format", "json", str(BROKEN), str(VALID), "--now", "2025-06-01"], capsys
    )
    assert status == 1
    document = json.loads(out)
    assert document["version"] == 1
    assert document["tool"] == {"name": "sitemap-lint", "version": __version__}
    assert [f["path"] for f in document["files"]] == [str(BROKEN), str(VALID)]
    finding = document["files"][0]["findings"][0]
    assert finding == {
        "code": "XM001",
        "name": "xml-syntax-error",
        "severity": "error",
        "message": finding["message"],
        "line": 5,
        "column": 3,
        "xpath": "/urlset/url[1]",
    }
    assert document["summary"] == {
        "files": 2,
        "errors": 1,
        "warnings": 0,
        "infos": 0,
        "urls": 4,  # the valid file's; the broken one's entry is lost to its error
        "rules": {"XM001": 1},
    }
    assert [f["kind"] for f in document["files"]] == ["urlset", "urlset"]
    assert err == ""


def test_stdin(monkeypatch, capsys) -> None:
    import io

    data = gzip.compress(BROKEN.read_bytes())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = run(["--format", "json", "-"], capsys)
    assert status == 1
    document = json.loads(out)
    assert document["files"][0]["path"] == "-"
    assert [f["code"] for f in document["files"][0]["findings"]] == ["XM001"]


@pytest.mark.parametrize("flags", [[], ["--format", "json"], ["--format", "concise"]])
def test_a_closed_pipe_leaves_the_status_as_it_is(tmp_path: Path, flags: list[str]) -> None:
    # `sitemap-lint ... | head`: the reader goes away with what it wanted; the run ends
    # quietly with the status it has (0 here: --exit-zero), not 1 for the closed pipe.
    import os

    entries = "".join(f"<url><loc>/page-{i}</loc></url>\n" for i in range(3000))
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{entries}</urlset>\n'
    )
    command = [sys.executable, "-m", "sitemap_lint", "--isolated", "--exit-zero", *flags]
    with subprocess.Popen(
        [*command, str(sitemap)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline()
        process.stdout.close()
        err = process.stderr.read()
    assert (process.returncode, err) == (0, b"")


def test_ctrl_c_during_a_fetch_exits_at_once() -> None:
    """Ctrl-C while a sitemap is fetched from a server that never answers: the command
    leaves at once (130, no traceback), not when the fetch times out."""
    import signal
    import socket
    import time

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        server.settimeout(20)
        url = f"http://127.0.0.1:{server.getsockname()[1]}/sitemap.xml"
        command = [sys.executable, "-m", "sitemap_lint", "--isolated", "--timeout", "60", url]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            connection, _ = server.accept()  # the fetch is under way
            with connection:
                process.send_signal(signal.SIGINT)
                started = time.monotonic()
                _out, err = process.communicate(timeout=20)
                waited = time.monotonic() - started
        finally:
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
    assert process.returncode == 130 and b"Traceback" not in err, err
    assert waited < 5


@pytest.mark.parametrize("flags", [[], ["--format", "json"], ["--fix"], ["--diff"]])
def test_closed_stdin_exits_2_with_one_line(monkeypatch, capsys, flags: list[str]) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # what Python sets when descriptor 0 is closed
    status, _out, err = run([*flags, "-"], capsys)
    assert status == 2
    assert err == "sitemap-lint: error: -: cannot read: standard input is closed\n"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["missing.xml"], "missing.xml: no such file or directory"),
        # Only http(s) is fetched; another scheme's URL is said to be one, not a missing file.
        (["ftp://example.com/s.xml"], "no such file, and ftp URLs are not fetched"),
        (["file:///tmp/s.xml"], "no such file, and file URLs are not fetched"),
        (["--robots", "ftp://example.com/robots.txt", "x.xml"], "ftp URLs are not fetched"),
        (["--robots", "-", "x.xml"], "--robots -: standard input is read as an input only"),
        # A URL no parser takes, as a --map prefix: a usage error, not an internal one.
        (["--map", "http://[::1=.", "x.xml"], "the prefix is not a valid URL"),
        (["--format", "yaml", "x.xml"], "unknown format"),
        (["--xsd-engine", "saxon", "x.xml"], "unknown XSD engine"),
        (["--now", "yesterday", "x.xml"], "--now"),
        # The rules count days from it: at the calendar's ends, out of range, not a crash.
        (["--now", "9999-12-31T23:59:59Z", "x.xml"], "--now '9999-12-31T23:59:59Z' is out of"),
        (["--now", "0001-01-01T00:00:00+14:00", "x.xml"], "give a time from the year 1000"),
        (["--now", "2026-12-07T20:00:00+15:00", "x.xml"], "has an offset beyond ±14:00"),
        (["diff", "--now", "9999-12-31", "x.xml", "x.xml"], "--now '9999-12-31' is out of"),
        (["--sitemap-url", "/sitemap.xml", "x.xml"], "--sitemap-url"),
        (["--no-such-option", "x.xml"], "No such option"),
    ],
)
def test_usage_problems_exit_two_with_one_line(args, needle, capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.xml").write_bytes(VALID.read_bytes())
    status, out, err = run(args, capsys)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err and err.startswith("sitemap-lint: error: ")


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (None, "it starts with markup (<urlset>)"),  # the sitemap itself
        (b"\xef\xbb\xbf \n<!DOCTYPE html>\n<html><body>Not found</body></html>", "(<html>)"),
        (b"User-agent: *\nDisallow: /\x00\x01", "it holds NUL bytes"),
        ("User-agent: *\n".encode("utf-16"), "it holds NUL bytes"),
    ],
)
def test_a_robots_file_that_is_no_robots_txt_exits_two(
    content: bytes | None, what: str, capsys, tmp_path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.xml").write_bytes(VALID.read_bytes())
    (tmp_path / "robots.txt").write_bytes(VALID.read_bytes() if content is None else content)
    status, out, err = run(["--robots", "robots.txt", "x.xml"], capsys)
    assert (status, out) == (2, "")
    assert err.startswith("sitemap-lint: error: --robots robots.txt: not a robots.txt: ")
    assert err.count("\n") == 1 and what in err


def test_a_robots_file_with_a_byte_order_mark_or_empty_is_read(
    capsys, tmp_path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.xml").write_bytes(VALID.read_bytes())
    (tmp_path / "robots.txt").write_bytes(b"\xef\xbb\xbfUser-agent: *\nAllow: /\n")
    (tmp_path / "empty.txt").write_bytes(b"")
    assert run(["--robots", "robots.txt", "x.xml"], capsys)[0] == 0
    assert run(["--robots", "empty.txt", "x.xml"], capsys)[0] == 0


@pytest.mark.parametrize("args", [[""], ["x.xml", ""]])
def test_an_empty_path_exits_two(args: list[str], capsys, tmp_path, monkeypatch) -> None:
    """An empty argument (an unset variable: ``sitemap-lint "$SITEMAP"``) is no path,
    not the working directory, whose sitemaps it would check."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.xml").write_bytes(VALID.read_bytes())
    (tmp_path / "sitemap.xml").write_bytes(BROKEN.read_bytes())
    status, out, err = run(args, capsys)
    assert (status, out) == (2, "")
    assert err == (
        "sitemap-lint: error: '': an empty path names no file; give a file, directory or URL\n"
    )


@pytest.mark.parametrize(
    "flag",
    ["--output-file", "--baseline", "--write-baseline", "--config", "--robots", "--live-cache"],
)
def test_an_empty_file_option_exits_two(flag: str, capsys, tmp_path, monkeypatch) -> None:
    """Not the working directory (``--config : is a directory``), nor the option left out
    (an empty --baseline)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.xml").write_bytes(VALID.read_bytes())
    status, out, err = run([flag, "", "x.xml"], capsys)
    assert (status, out) == (2, "")
    assert err == f"sitemap-lint: error: {flag}: an empty path names no file; give a file\n"


@pytest.mark.parametrize(
    ("flag", "says"),
    [
        ("--profile", "--profile: unknown profile ''; choose one of google, bing, yandex, strict"),
        ("--format", "--format: unknown format ''; choose one of text, concise, json"),
        ("--xsd-engine", "--xsd-engine: unknown XSD engine ''; choose libxml2 or xmlschema"),
    ],
)
def test_an_empty_choice_exits_two(flag: str, says: str, capsys, tmp_path, monkeypatch) -> None:
    """Not the default (nor the configuration's value) as if the flag were left out."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.xml").write_bytes(VALID.read_bytes())
    status, out, err = run([flag, "", "x.xml"], capsys)
    assert (status, out) == (2, "")
    assert err.startswith(f"sitemap-lint: error: {says}") and err.count("\n") == 1, err


def test_directory_without_sitemaps_exits_two(tmp_path: Path, capsys) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    status, _, err = run([str(tmp_path)], capsys)
    assert status == 2 and "no sitemap files" in err


def test_directory_expands_to_sitemaps(tmp_path: Path, capsys) -> None:
    (tmp_path / "sitemap-a.xml").write_bytes(VALID.read_bytes())
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "sitemap-b.xml").write_bytes(BROKEN.read_bytes())
    (tmp_path / "feed.xml").write_text("<rss/>")
    status, out, _ = run(["--format", "json", "--now", "2025-06-01", str(tmp_path)], capsys)
    assert status == 1
    paths = [Path(f["path"]).name for f in json.loads(out)["files"]]
    assert paths == ["sitemap-a.xml", "sitemap-b.xml"]


def test_directory_expands_to_text_sitemaps_too(tmp_path: Path, capsys) -> None:
    (tmp_path / "sitemap.xml").write_bytes(VALID.read_bytes())
    (tmp_path / "sitemap-pages.txt").write_text("https://example.com/a\nnot a url\n")
    (tmp_path / "notes.txt").write_text("not a sitemap")
    status, out, _ = run(["--format", "json", "--now", "2025-06-01", str(tmp_path)], capsys)
    assert status == 1
    files = {Path(f["path"]).name: f for f in json.loads(out)["files"]}
    assert sorted(files) == ["sitemap-pages.txt", "sitemap.xml"]
    assert [f["code"] for f in files["sitemap-pages.txt"]["findings"]] == ["TX001"]


def test_directory_of_a_text_sitemap_alone_is_no_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "sitemap.txt").write_text("https://example.com/a\n")
    status, _, err = run(["--now", "2025-06-01", str(tmp_path)], capsys)
    assert status == 0, err


def test_a_directory_link_out_of_it_is_not_read(tmp_path: Path, capsys) -> None:
    """A sitemap-named link in a directory of untrusted changes to a file elsewhere
    (/etc/passwd) is refused before anything is read: its lines would be quoted in the
    findings. A link that stays inside the directory is read."""
    site = tmp_path / "site"
    (site / "sub").mkdir(parents=True)
    (site / "sitemap.xml").write_bytes(VALID.read_bytes())
    (site / "sub" / "also-sitemap.xml").symlink_to("../sitemap.xml")
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\n")
    status, out, _ = run(["--format", "json", "--now", "2025-06-01", str(site)], capsys)
    assert status == 0 and len(json.loads(out)["files"]) == 1  # the same file once
    (site / "leak-sitemap.txt").symlink_to(secret)
    status, out, err = run(["--now", "2025-06-01", str(site)], capsys)
    assert status == 2 and out == "" and "hunter2" not in err
    assert err.splitlines() == [
        f"sitemap-lint: error: {site / 'leak-sitemap.txt'}: a symbolic link to {secret}, "
        "outside the directory given; it is not read: give that file itself to check it"
    ]


@pytest.mark.parametrize("readable", [False, True], ids=["alone", "beside-a-sitemap"])
def test_directory_with_an_unreadable_directory_exits_two(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, readable: bool
) -> None:
    if readable:
        (tmp_path / "sitemap-a.xml").write_bytes(VALID.read_bytes())
    hidden = tmp_path / "sub"
    hidden.mkdir()
    (hidden / "sitemap-b.xml").write_bytes(BROKEN.read_bytes())
    listed = os.scandir

    def scandir(path: str) -> Any:  # as for a user who may not list it (mode 0000)
        if Path(path) == hidden:
            raise PermissionError(13, "Permission denied", path)
        return listed(path)

    monkeypatch.setattr(os, "scandir", scandir)
    status, out, err = run(["--now", "2025-06-01", str(tmp_path)], capsys)
    assert (status, out) == (2, "")
    assert err == f"sitemap-lint: error: {hidden}: cannot read: Permission denied\n"


def test_rules_and_rule_commands(capsys) -> None:
    status, out, _ = run(["rules"], capsys)
    assert status == 0 and "UR001" in out and "url-not-absolute" in out
    status, out, _ = run(["rule", "UR001"], capsys)
    assert status == 0
    for section in ("## What it does", "## Why is this bad?", "## Example", "Use instead:"):
        assert section in out
    status, out, err = run(["rule", "ZZ999"], capsys)
    assert (status, out) == (2, "")
    assert err == "sitemap-lint: error: no rule ZZ999; 'sitemap-lint rules' lists them all\n"


@pytest.mark.parametrize("variable", ["FORCE_COLOR", "TTY_COMPATIBLE"])
def test_rule_prints_markdown_to_a_pipe_whatever_forces_colour(
    variable: str, capsys, monkeypatch
) -> None:
    """With FORCE_COLOR set (as CI systems do), ``rule CODE > page.md`` wrote the page
    rendered for a terminal: centred, padded, with escape sequences."""
    monkeypatch.setenv(variable, "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    status, out, err = run(["rule", "VA003"], capsys)
    assert (status, err) == (0, "")
    assert out.startswith("# VA003 priority-invalid (error)\n\n") and "\x1b[" not in out


@pytest.mark.parametrize("wanted", ["VA003", "va003", "priority-invalid", "Priority_Invalid"])
def test_rule_by_code_or_name_prints_markdown_when_piped(wanted: str, capsys) -> None:
    status, out, err = run(["rule", wanted], capsys)
    assert status == 0 and err == ""
    assert out.startswith("# VA003 priority-invalid (error)\n\n")
    assert "## What it does" in out and "```xml" in out and "\x1b[" not in out


def test_rule_is_rendered_on_a_terminal(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # the capture, as a terminal
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    status, out, err = run(["rule", "VA003"], capsys)
    assert status == 0 and err == ""
    assert "\x1b[" in out and "What it does" in out
    assert "## " not in out and "```" not in out  # rendered, not the Markdown source


def test_rule_on_a_terminal_has_no_styles_under_no_color(
    capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """NO_COLOR wins, as in the report: rendered, but without any escape sequence (the
    terminal library alone would keep bold and underline)."""
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # the capture, as a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    status, out, err = run(["rule", "VA003"], capsys)
    assert status == 0 and err == ""
    assert "What it does" in out and "## " not in out and "\x1b[" not in out


@pytest.mark.parametrize(
    ("wanted", "answer"), [("UR", "19 rules (UR001-UR019)"), ("vd", "21 rules (VD001-VD021)")]
)
def test_a_family_prefix_for_rule_names_its_rules(wanted: str, answer: str, capsys) -> None:
    status, out, err = run(["rule", wanted], capsys)
    assert (status, out) == (2, "")
    assert err.startswith(f"sitemap-lint: error: no rule {wanted}; it is the prefix of {answer}")
    assert err.endswith("'sitemap-lint rules' lists them all\n")


@pytest.mark.parametrize(
    ("wanted", "suggested"),
    [
        ("UR01", "UR001 (url-not-absolute), UR010 (url-invalid-host) or UR011 (url-not-encoded)"),
        ("VA03", "VA003 (priority-invalid)"),
        ("priority-invlid", "VA003 (priority-invalid)"),
        ("xml-syntax", "XM001 (xml-syntax-error)"),
    ],
)
def test_unknown_rule_suggests_the_nearest(wanted: str, suggested: str, capsys) -> None:
    status, out, err = run(["rule", wanted], capsys)
    assert (status, out) == (2, "")
    assert err == f"sitemap-lint: error: no rule {wanted}; did you mean {suggested}?\n"
    assert "Invalid value" not in err


def test_no_arguments_show_the_help_and_exit_two(capsys) -> None:
    """The help, not an error line quoting its first line; still exit 2, as an empty
    list of paths checks nothing."""
    status, out, err = run([], capsys)
    assert (status, out) == (2, "")
    assert err.startswith("Usage: sitemap-lint [OPTIONS] COMMAND [ARGS]...\n")
    assert "Commands:" in err and "error" not in err
    assert run(["--help"], capsys) == (0, err, "")


@pytest.mark.parametrize(
    "command",
    [[], ["check"], ["rules"], ["rule"], ["schemas"], ["split"], ["diff"], ["sitemap.xml"]],
)
def test_dash_h_is_the_help(command: list[str], capsys) -> None:
    """``-h`` prints what ``--help`` prints, for the group and for each command."""
    status, out, err = run([*command, "-h"], capsys)
    assert (status, err) == (0, "")
    assert out.startswith("Usage: sitemap-lint")
    assert run([*command, "--help"], capsys) == (0, out, "")


def test_version(capsys) -> None:
    status, out, _ = run(["--version"], capsys)
    assert status == 0 and out.strip() == f"sitemap-lint {__version__}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("env", "colored"),
    [({}, False), ({"FORCE_COLOR": "1"}, True), ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False)],
)
def test_colour_only_on_request_and_no_color_wins(env: dict, colored: bool) -> None:
    """Not a terminal: plain text. FORCE_COLOR adds colour; NO_COLOR removes it again."""
    run_ = subprocess.run(
        [sys.executable, "-m", "sitemap_lint", str(BROKEN)],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", **env},
    )
    assert run_.returncode == 1
    assert "XM001" in run_.stdout
    assert ("31m" in run_.stdout) is colored  # red, the colour of errors
    if not env:
        assert "\x1b[" not in run_.stdout


@pytest.mark.parametrize(("flag", "colored"), [("auto", False), ("always", True)])
def test_a_report_file_gets_colour_only_from_the_flag_not_force_color(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, flag: str, colored: bool
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    report = tmp_path / "report.txt"
    status, _out, _err = run(["--color", flag, "-o", str(report), str(BROKEN)], capsys)
    assert status == 1
    written = report.read_text(encoding="utf-8")
    assert "XM001" in written
    assert ("\x1b[" in written) is colored


@pytest.mark.slow
def test_default_path_does_not_import_xmlschema() -> None:
    code = (
        "import sys; from sitemap_lint.cli import main; "
        f"status = main(['--format', 'json', {str(VALID)!r}]); "
        "print('xmlschema' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith("False")


def test_schemas_command_lists_every_bundled_schema(capsys) -> None:
    from importlib.resources import files

    status, out, _ = run(["schemas"], capsys)
    assert status == 0
    bundled = {p.name for p in files("sitemap_lint.schemas").iterdir() if p.name.endswith(".xsd")}
    listed = {line.split()[0] for line in out.splitlines()}
    assert listed == bundled - {"bundle-urlset.xsd", "bundle-siteindex.xsd"}
    for line in out.splitlines():
        name, namespace = line.split()[:2]
        text = files("sitemap_lint.schemas").joinpath(name).read_text(encoding="utf-8")
        assert f'targetNamespace="{namespace}"' in text


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize(
    "options",
    [
        ["--", str(FIXTURES / "fix" / "mixed.xml")],
        ["--diff", str(FIXTURES / "fix" / "mixed.xml")],
        ["rules"],
        ["rule", "UR001"],
        ["schemas"],
        ["--help"],
        ["--version"],
        ["split", "--help"],
    ],
    ids=["report", "diff", "rules", "rule", "schemas", "help", "version", "split-help"],
)
def test_a_full_device_for_the_output_is_one_line_not_an_internal_error(
    options: list[str],
) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "sitemap_lint", *options],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr == "sitemap-lint: error: cannot write the output: No space left on device\n"


class _ClosedAfterFirstWrite(io.StringIO):
    """Standard output whose reader goes away after the first write (``| head -1``)."""

    def write(self, text: str) -> int:
        if self.tell():
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")
        return super().write(text)


@pytest.mark.parametrize("command", [["rules"], ["rules", "--profile", "bing"], ["schemas"]])
def test_a_listing_whose_reader_goes_away_exits_0_quietly(
    command: list[str], capsys, monkeypatch
) -> None:
    """``sitemap-lint rules | head -1`` exited 1: click's own handling of the broken
    pipe, which the command's listing never reached ``writing_to`` through."""
    from sitemap_lint.cli import main

    stdout = _ClosedAfterFirstWrite()
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(command) == 0
    assert capsys.readouterr().err == ""
    assert stdout.getvalue().count("\n") == 1  # the first line went through


@pytest.mark.parametrize("url", ["http://[::1", "http://[::1/robots.txt"])
def test_an_input_url_no_parser_takes_is_a_fetch_finding(url: str, capsys, no_network) -> None:
    status, out, err = run(["--isolated", "-f", "json", url], capsys)
    assert (status, err) == (1, "")
    [entry] = json.loads(out)["files"]
    assert entry["path"] == url
    assert [f["code"] for f in entry["findings"]] == ["FE003"]
    assert "not a valid URL" in entry["findings"][0]["message"]


def test_a_robots_url_that_cannot_be_fetched_says_so_once(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.xml").write_bytes(VALID.read_bytes())
    status, out, err = run(["--robots", "http://[::1/robots.txt", "x.xml"], capsys)
    assert (status, out) == (2, "")
    assert err == (
        "sitemap-lint: error: --robots http://[::1/robots.txt: cannot fetch: "
        "it is not a valid URL; fix its host and port\n"
    )


class _Blanks(io.RawIOBase):
    """A stream of a urlset's start tag, then ``size`` spaces made as they are read."""

    def __init__(self, size: int) -> None:
        self.left = URLSET_START
        self.blanks = size
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        start = self.left[: len(view)]
        self.left = self.left[len(start) :]
        count = len(start) + min(len(view) - len(start), self.blanks)
        self.blanks -= count - len(start)
        view[: len(start)] = start
        view[len(start) : count] = b" " * (count - len(start))
        self.served += count
        return count


URLSET_START = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'


@pytest.mark.parametrize("flags", [[], ["--format", "json"]])
def test_standard_input_is_read_only_as_far_as_the_check_reads(
    flags: list[str], capsys, monkeypatch
) -> None:
    """Past READ_CAP (the check stops there, LM002) a big stream is not held in memory,
    the text report's source lines included."""
    from sitemap_lint.inputs.reader import READ_CAP

    stream = _Blanks(3 * READ_CAP)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(stream)))
    status, out, _err = run(["--isolated", "--select", "LM002", *flags, "-"], capsys)
    assert status == 1 and "LM002" in out
    assert stream.served < READ_CAP * 1.1


def test_standard_input_to_fix_is_read_and_written_back_whole(capsys, monkeypatch) -> None:
    """Past what a check reads, standard input given to --fix is still written back
    whole: a pipe through the fix never loses its end."""
    from sitemap_lint.cli import main
    from sitemap_lint.inputs import reader

    entries = "".join(
        f"<url><loc>https://example.com/p{i}?a=1&b=2</loc></url>\n" for i in range(200)
    )
    text = URLSET_START.decode() + "\n" + entries + "</urlset>\n"
    monkeypatch.setattr(reader, "STDIN_CHECK_BYTES", 1000)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    main(["--isolated", "--fix", "-q", "-"])
    assert capsys.readouterr().out == text.replace("&b=", "&amp;b=")


def test_a_directory_skips_hidden_directories_and_linked_directories(
    tmp_path: Path, capsys
) -> None:
    """As the README says: a directory whose name starts with '.' (.git) is not searched,
    and a symbolic link to a directory is not followed (a loop back up ends at once)."""
    site = tmp_path / "site"
    (site / ".git").mkdir(parents=True)
    (site / "sub").mkdir()
    (site / "sitemap.xml").write_bytes(VALID.read_bytes())
    (site / ".git" / "sitemap.xml").write_bytes(BROKEN.read_bytes())
    (site / "sub" / "loop").symlink_to("..")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "sitemap.xml").write_bytes(BROKEN.read_bytes())
    (site / "linked").symlink_to(elsewhere)
    status, out, err = run(["--format", "json", "--now", "2025-06-01", str(site)], capsys)
    assert (status, err) == (0, "")
    assert [f["path"] for f in json.loads(out)["files"]] == [str(site / "sitemap.xml")]
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "whose name starts with `.`, such as `.git`, is skipped" in readme
    assert "a symbolic link to a directory is not followed" in readme


@pytest.mark.parametrize(
    ("word", "message"),
    [
        (
            "rulse",
            "rulse: no such file or command; did you mean 'sitemap-lint rule' or 'sitemap-lint rules'?",
        ),
        ("chek", "chek: no such file or command; did you mean 'sitemap-lint check'?"),
        ("schema", "schema: no such file or command; did you mean 'sitemap-lint schemas'?"),
        ("help", "help: no such file or command; 'sitemap-lint --help' lists the commands"),
        ("pages", "pages: no such file or directory"),  # close to no command
    ],
)
def test_a_command_written_wrong_is_named(
    word: str, message: str, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run([word, "--isolated"], capsys)
    assert (status, out, err) == (2, "", f"sitemap-lint: error: {message}\n")


def test_a_file_named_like_a_command_written_wrong_is_checked(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rulse").write_bytes(VALID.read_bytes())
    status, _, err = run(["rulse", "--isolated", "--now", "2025-06-01"], capsys)
    assert (status, err) == (0, "")


def test_fix_only_counts_files_in_words(tmp_path: Path, capsys) -> None:
    """Not "in 0 file(s)": 0 files, 1 file, 2 files."""
    clean = tmp_path / "sitemap.xml"
    clean.write_bytes(VALID.read_bytes())
    status, _, err = run(["--fix-only", "--isolated", "--now", "2025-06-01", str(clean)], capsys)
    assert (status, err) == (0, "Fixed 0 findings in 0 files.\n")
    spaced = tmp_path / "sitemap-b.xml"
    spaced.write_bytes(VALID.read_bytes().replace(b"<loc>", b"<loc> ", 1))
    status, _, err = run(["--fix-only", "--isolated", "--now", "2025-06-01", str(spaced)], capsys)
    assert (status, err) == (0, "Fixed 1 finding in 1 file.\n")


def _started_with_closed(streams: str, args: list[str], cwd: Path) -> tuple[int, bytes]:
    """The command started by a shell with ``streams`` closed (``>&-``, ``2>&-``,
    ``<&-``): its status and what it wrote on the streams left open."""
    command = " ".join(f'"${i}"' for i in range(1, len(args) + 4))
    # stderr first joins stdout's pipe, then the stream is closed
    script = f"exec {command} {streams}" if streams == "2>&-" else f"exec {command} 2>&1 {streams}"
    done = subprocess.run(
        ["sh", "-c", script, "sh", sys.executable, "-m", "sitemap_lint", *args],
        stdout=subprocess.PIPE,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
    )
    return done.returncode, done.stdout


@pytest.mark.parametrize(
    ("streams", "args", "status"),
    [
        (">&-", ["--isolated", "BROKEN"], 1),  # the report goes nowhere; the status stays
        (">&-", ["--isolated", "-o", "report.txt", "BROKEN"], 1),
        (">&-", ["rules"], 0),
        ("2>&-", ["--isolated", "missing.xml"], 2),
        ("2>&-", ["--isolated", "-o", "report.txt", "BROKEN"], 1),
        ("<&-", ["--isolated", "-f", "concise", "BROKEN"], 1),  # no stdin, a file to read
    ],
)
def test_a_closed_standard_stream_is_no_internal_error(
    streams: str, args: list[str], status: int, tmp_path: Path
) -> None:
    (tmp_path / "sitemap.xml").write_bytes(BROKEN.read_bytes())
    args = ["sitemap.xml" if a == "BROKEN" else a for a in args]
    code, seen = _started_with_closed(streams, args, tmp_path)
    assert b"internal error" not in seen and b"standard input is closed" not in seen
    assert code == status, seen
    if "-o" in args:
        assert "XM001" in (tmp_path / "report.txt").read_text()
    if streams == "<&-":
        assert b"sitemap.xml:" in seen and b"XM001" in seen
