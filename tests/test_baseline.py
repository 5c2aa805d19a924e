"""Baselines: ``--write-baseline FILE`` records a run's findings by fingerprint;
``--baseline FILE`` reports and counts only the findings it does not record."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_cli
from tests.site_server import Route, SiteServer, loopback_only  # noqa: F401

NOW = "2026-12-01T00:00:00Z"


def _entry(path: str, extra: str = "") -> str:
    return f"  <url><loc>https://example.com/{path}</loc>{extra}</url>\n"


def _sitemap(*entries: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + "".join(entries)
        + "</urlset>\n"
    )


# Two legacy findings: a priority out of range and a duplicate URL.
LEGACY = (
    _entry("a", "<priority>3</priority>"),
    _entry("b"),
    _entry("b"),
)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sitemap.xml").write_text(_sitemap(*LEGACY), encoding="utf-8")
    return tmp_path


def _check(
    capsys: pytest.CaptureFixture[str], *args: str, inputs: tuple[str, ...] = ("sitemap.xml",)
) -> tuple[int, dict, str]:
    status, out, err = run_cli(
        ["check", "--isolated", "--now", NOW, "--format", "json", *args, *inputs], capsys
    )
    return status, json.loads(out) if out.strip() else {}, err


def _recorded(baseline: Path) -> list[str]:
    return [finding["path"] for finding in json.loads(baseline.read_text())["findings"]]


def _codes(report: dict) -> list[str]:
    return [finding["code"] for file in report["files"] for finding in file["findings"]]


def test_a_written_baseline_accepts_every_finding_of_the_run(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report, err = _check(capsys, "--write-baseline", "baseline.json")
    assert status == 0  # recording is not a failure, though the run has errors
    assert sorted(_codes(report)) == ["DU001", "VA003"]
    assert "Recorded 2 findings in the baseline baseline.json." in err
    status, report, _err = _check(capsys, "--baseline", "baseline.json")
    assert status == 0
    assert _codes(report) == []
    assert report["summary"]["baseline"] == {"matched": 2, "unseen": 0}


def test_only_new_findings_are_reported_and_fail(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(capsys, "--write-baseline", "baseline.json")
    (site / "sitemap.xml").write_text(
        _sitemap(*LEGACY, _entry("c", "<changefreq>sometimes</changefreq>")), encoding="utf-8"
    )
    status, report, _err = _check(capsys, "--baseline", "baseline.json")
    assert status == 1
    assert _codes(report) == ["VA001"]
    assert report["summary"]["errors"] == 1
    assert report["summary"]["baseline"] == {"matched": 2, "unseen": 0}


def test_a_baseline_an_editor_saved_with_a_byte_order_mark_is_read(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(capsys, "--write-baseline", "baseline.json")
    baseline = site / "baseline.json"
    baseline.write_bytes(b"\xef\xbb\xbf" + baseline.read_bytes().replace(b"\n", b"\r\n"))
    status, report, err = _check(capsys, "--baseline", "baseline.json")
    assert (status, _codes(report)) == (0, []), err


def test_fingerprints_survive_moved_lines(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _check(capsys, "--write-baseline", "baseline.json")
    moved = (_entry("new-first"), _entry("new-second"), *LEGACY)  # every finding two lines down
    (site / "sitemap.xml").write_text(_sitemap(*moved), encoding="utf-8")
    status, report, _err = _check(capsys, "--baseline", "baseline.json")
    assert (status, _codes(report)) == (0, [])


def test_a_fixed_finding_leaves_the_baseline_without_a_failure(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(capsys, "--write-baseline", "baseline.json")
    (site / "sitemap.xml").write_text(_sitemap(*LEGACY[:2]), encoding="utf-8")  # no duplicate
    status, report, _err = _check(capsys, "--baseline", "baseline.json")
    assert (status, _codes(report)) == (0, [])
    assert report["summary"]["baseline"] == {"matched": 1, "unseen": 1}
    status, out, _err = run_cli(
        ["check", "--isolated", "--now", NOW, "--baseline", "baseline.json", "sitemap.xml"], capsys
    )
    assert "1 finding matched the baseline (not shown). 1 recorded finding was not seen" in out


def test_only_the_checked_files_records_count_as_unseen(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run of some files (a pre-commit hook's) does not call the other files' recorded
    findings unseen; a file deleted since does."""
    (site / "other-sitemap.xml").write_text(_sitemap(*LEGACY), encoding="utf-8")
    both = ("sitemap.xml", "other-sitemap.xml")
    _check(capsys, "--write-baseline", "baseline.json", inputs=both)
    status, report, _err = _check(capsys, "--baseline", "baseline.json")
    assert status == 0
    assert report["summary"]["baseline"] == {"matched": 2, "unseen": 0}
    gone = _recorded(site / "baseline.json").count("other-sitemap.xml")  # its SE001 too
    assert gone == 4
    (site / "other-sitemap.xml").unlink()
    status, report, _err = _check(capsys, "--baseline", "baseline.json")
    assert report["summary"]["baseline"] == {"matched": 2, "unseen": gone}


def test_a_files_findings_across_files_are_not_unseen_in_a_run_without_the_others(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The SE001 recorded for sitemap.xml (its URLs are listed in other-sitemap.xml too)
    cannot come in a run of sitemap.xml alone: not counted as unseen, so the hint to
    write the baseline again (which would drop them) is not given."""
    (site / "other-sitemap.xml").write_text(_sitemap(*LEGACY), encoding="utf-8")
    _check(capsys, "--write-baseline", "baseline.json", inputs=("other-sitemap.xml", "sitemap.xml"))
    recorded = json.loads((site / "baseline.json").read_text())["findings"]
    assert [f["code"] for f in recorded if f["path"] == "sitemap.xml"].count("SE001") == 2
    status, report, _err = _check(capsys, "--baseline", "baseline.json")
    assert status == 0
    assert report["summary"]["baseline"] == {"matched": 2, "unseen": 0}
    both = ("sitemap.xml", "other-sitemap.xml")  # the SE001s land in the other file now
    status, report, _err = _check(capsys, "--baseline", "baseline.json", inputs=both)
    assert report["summary"]["baseline"] == {"matched": 4, "unseen": 2}  # every file checked


def test_a_repeated_finding_is_accepted_as_often_as_recorded(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(capsys, "--write-baseline", "baseline.json")
    (site / "sitemap.xml").write_text(_sitemap(*LEGACY, _entry("b")), encoding="utf-8")
    status, report, _err = _check(capsys, "--baseline", "baseline.json")
    assert status == 0  # DU001 is a warning: the exit status stays 0
    assert _codes(report) == ["DU001"]  # the third listing of b is new
    assert report["files"][0]["findings"][0]["line"] == 6


def test_the_file_is_sorted_stable_and_free_of_line_numbers(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(capsys, "--write-baseline", "one.json")
    _check(capsys, "--write-baseline", "two.json")
    first = (site / "one.json").read_bytes()
    assert first == (site / "two.json").read_bytes()
    data = json.loads(first)
    assert data["sitemap-lint-baseline"] == 1
    keys = [(f["path"], f["code"], f["fingerprint"]) for f in data["findings"]]
    assert keys == sorted(keys)
    assert all(
        set(f) == {"path", "code", "fingerprint", "count", "message"} for f in data["findings"]
    )
    assert all("line" not in name for f in data["findings"] for name in f)
    assert len(first.decode().splitlines()) == 5 + len(keys)  # one finding a line


def test_reading_and_refreshing_one_file(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _check(capsys, "--write-baseline", "baseline.json")
    (site / "sitemap.xml").write_text(_sitemap(*LEGACY[:2]), encoding="utf-8")
    status, report, _err = _check(
        capsys, "--baseline", "baseline.json", "--write-baseline", "baseline.json"
    )
    assert status == 0
    assert report["summary"]["baseline"] == {"matched": 1, "unseen": 1}
    assert [f["code"] for f in json.loads((site / "baseline.json").read_text())["findings"]] == [
        "VA003"
    ]


def test_the_configuration_names_the_baseline_relative_to_itself(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (site / "ci").mkdir()
    _check(capsys, "--write-baseline", "ci/baseline.json")
    (site / "ci" / ".sitemap-lint.toml").write_text('baseline = "baseline.json"\n')
    status, out, err = run_cli(
        [
            "check",
            "--config",
            "ci/.sitemap-lint.toml",
            "--now",
            NOW,
            "--format",
            "json",
            "sitemap.xml",
        ],
        capsys,
    )
    assert status == 0, err
    assert json.loads(out)["summary"]["baseline"] == {"matched": 2, "unseen": 0}


@pytest.mark.parametrize(("writer", "reader"), [(".", "sub"), ("sub", ".")])
def test_a_baseline_matches_from_another_working_directory(
    site: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    writer: str,
    reader: str,
) -> None:
    (site / "sub").mkdir()
    for directory, flag in ((writer, "--write-baseline"), (reader, "--baseline")):
        monkeypatch.chdir(site / directory)
        baseline = os.path.relpath(site / "baseline.json")
        sitemap = os.path.relpath(site / "sitemap.xml")
        status, report, err = _check(capsys, flag, baseline, inputs=(sitemap,))
        assert status == 0, err
    assert _codes(report) == []
    assert report["summary"]["baseline"] == {"matched": 2, "unseen": 0}
    assert _recorded(site / "baseline.json") == ["sitemap.xml", "sitemap.xml"]


def test_a_url_listed_by_two_files_matches_from_another_working_directory(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # SE001 names the other file as the run was given it: no part of its identity.
    (site / "sub").mkdir()
    (site / "public").mkdir()
    for name in ("sitemap-a.xml", "sitemap-b.xml"):
        (site / "public" / name).write_text(_sitemap(_entry("same")), encoding="utf-8")
    for directory, flag in ((".", "--write-baseline"), ("sub", "--baseline")):
        monkeypatch.chdir(site / directory)
        baseline = os.path.relpath(site / "baseline.json")
        inputs = tuple(
            os.path.relpath(site / "public" / name) for name in ("sitemap-a.xml", "sitemap-b.xml")
        )
        status, report, err = _check(capsys, flag, baseline, inputs=inputs)
        assert status == 0, err
    assert _codes(report) == []
    assert report["summary"]["baseline"] == {"matched": 1, "unseen": 0}


def test_findings_naming_the_files_of_a_set_match_from_another_working_directory(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # SE002, SE004 and SE007 name files as the run was given them: the listed URL is
    # what identifies their defect.
    (site / "sub").mkdir()
    public = site / "public"
    public.mkdir()
    children = ("index.xml", "a.xml", "a.xml", "gone.xml")
    (public / "index.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + "".join(
            f"  <sitemap><loc>https://example.com/{'./' * n}{name}</loc></sitemap>\n"
            for n, name in enumerate(children)
        )
        + "</sitemapindex>\n",
        encoding="utf-8",
    )
    (public / "a.xml").write_text(_sitemap(_entry("a")), encoding="utf-8")
    for directory, flag in ((".", "--write-baseline"), ("sub", "--baseline")):
        monkeypatch.chdir(site / directory)
        baseline = os.path.relpath(site / "baseline.json")
        mapping = f"https://example.com/={os.path.relpath(public)}"
        inputs = (os.path.relpath(public / "index.xml"),)
        status, report, err = _check(capsys, flag, baseline, "--map", mapping, inputs=inputs)
        assert status == 0, err
    assert _codes(report) == []
    # (And UR018 on the three locs written with "./".)
    assert report["summary"]["baseline"] == {"matched": 6, "unseen": 0}


def test_paths_are_recorded_relative_to_the_baseline_file(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (site / "ci").mkdir()
    (site / "public").mkdir()
    other = _sitemap(_entry("c", "<priority>2</priority>"))  # no URL of sitemap.xml
    (site / "public" / "sitemap.xml").write_text(other, encoding="utf-8")
    inputs = ("sitemap.xml", "public/sitemap.xml")
    status, _report, err = _check(capsys, "--write-baseline", "ci/baseline.json", inputs=inputs)
    assert status == 0, err
    recorded = _recorded(site / "ci" / "baseline.json")
    assert sorted(set(recorded)) == ["../public/sitemap.xml", "../sitemap.xml"]
    for directory, baseline, paths in (
        (site, "ci/baseline.json", inputs),
        (site / "ci", "baseline.json", ("../sitemap.xml", "../public/sitemap.xml")),
        (site / "public", "../ci/baseline.json", (str(site / "sitemap.xml"), "sitemap.xml")),
    ):
        monkeypatch.chdir(directory)
        status, report, err = _check(capsys, "--baseline", baseline, inputs=paths)
        assert (status, _codes(report)) == (0, []), err
        assert report["summary"]["baseline"] == {"matched": 3, "unseen": 0}


def test_standard_input_keeps_its_name(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (site / "ci").mkdir()
    for directory, flag, baseline, sitemap in (
        (site, "--write-baseline", "ci/baseline.json", "sitemap.xml"),
        (site / "ci", "--baseline", "baseline.json", "../sitemap.xml"),
    ):
        monkeypatch.chdir(directory)
        stdin = io.BytesIO(_sitemap(_entry("c", "<priority>2</priority>")).encode())
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
        status, report, err = _check(capsys, flag, baseline, inputs=("-", sitemap))
        assert status == 0, err
    assert report["summary"]["baseline"] == {"matched": 3, "unseen": 0}
    assert _recorded(site / "ci" / "baseline.json") == ["-", "../sitemap.xml", "../sitemap.xml"]


def test_a_url_matches_from_another_working_directory(
    site: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    loopback_only: None,  # noqa: F811
) -> None:
    (site / "ci").mkdir()
    with SiteServer() as server:
        server.routes["/sitemap.xml"] = Route(body=_sitemap(*LEGACY).encode())
        url = server.url("/sitemap.xml")
        found: list[str] = []
        for directory, flag, baseline in (
            (site, "--write-baseline", "ci/baseline.json"),
            (site / "ci", "--baseline", "baseline.json"),
        ):
            monkeypatch.chdir(directory)
            status, report, err = _check(capsys, flag, baseline, inputs=(url,))
            assert status == 0, err
            found = found or _codes(report)
    assert "VA003" in found and _codes(report) == []
    assert report["summary"]["baseline"] == {"matched": len(found), "unseen": 0}
    assert not any(path.startswith("..") for path in _recorded(site / "ci" / "baseline.json"))


@pytest.mark.parametrize("configured", [True, False])
def test_the_first_baseline_is_written_where_the_run_would_read_it(
    site: Path, capsys: pytest.CaptureFixture[str], configured: bool
) -> None:
    # The configuration (or --baseline) names a file that does not exist yet: writing it
    # is how it comes to exist.
    written = site / "baseline.json"
    if configured:
        (site / ".sitemap-lint.toml").write_text('baseline = "baseline.json"\n')
        args = ["check", "--now", NOW, "--write-baseline", str(written), "sitemap.xml"]
        status, _out, err = run_cli(args, capsys)
    else:
        status, _report, err = _check(
            capsys, "--baseline", str(written), "--write-baseline", str(written)
        )
    assert status == 0, err
    assert json.loads(written.read_text())["findings"]
    status, report, err = _check(capsys, "--baseline", str(written))
    assert (status, report["summary"]["baseline"]["unseen"]) == (0, 0), err


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "no such file; write one with --write-baseline"),
        ("{not json", "not JSON"),
        ('{"findings": []}', "not a sitemap-lint baseline"),
        ('{"sitemap-lint-baseline": 1, "findings": [{"path": 1}]}', "finding 1 needs a path"),
        (
            '{"sitemap-lint-baseline": 1, "findings": [{"path": "a", "code": "B", '
            '"fingerprint": "c", "count": 0}]}',
            "positive count",
        ),
        # Read as the format version 1 before: neither is the integer 1.
        ('{"sitemap-lint-baseline": true, "findings": []}', "not a sitemap-lint baseline"),
        ('{"sitemap-lint-baseline": 1.0, "findings": []}', "not a sitemap-lint baseline"),
        # These three were internal errors: too deep for the JSON reader, and paths no
        # file can have (a NUL, a lone surrogate that is no escaped byte).
        ("[" * 100_000, "nested too deeply"),
        (
            '{"sitemap-lint-baseline": 1, "findings": [{"path": "a\\u0000b", "code": "B", '
            '"fingerprint": "c", "count": 1}]}',
            "finding 1 needs a path (a file name or URL)",
        ),
        (
            '{"sitemap-lint-baseline": 1, "findings": [{"path": "a\\ud800b", "code": "B", '
            '"fingerprint": "c", "count": 1}]}',
            "finding 1 needs a path (a file name or URL)",
        ),
    ],
)
def test_a_bad_baseline_is_exit_2_with_one_line(
    site: Path, capsys: pytest.CaptureFixture[str], content: str | None, says: str
) -> None:
    if content is not None:
        (site / "baseline.json").write_text(content)
    status, out, err = run_cli(
        ["check", "--isolated", "--baseline", "baseline.json", "sitemap.xml"], capsys
    )
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert says in err and "--baseline baseline.json" in err


@pytest.mark.parametrize(
    ("name", "kind"),
    [("/dev/zero", "a character device"), ("/dev/urandom", "a character device"), ("fifo", "")],
)
def test_a_baseline_that_is_no_regular_file_is_exit_2_not_read_without_end(
    site: Path, capsys: pytest.CaptureFixture[str], name: str, kind: str
) -> None:
    """Read to its end, /dev/zero grew until memory ran out (an internal error); a FIFO
    with no writer was waited on for ever."""
    if name == "fifo":
        os.mkfifo(site / name)
        kind = "a FIFO or pipe"
    status, out, err = run_cli(["check", "--isolated", "--baseline", name, "sitemap.xml"], capsys)
    assert (status, out) == (2, "")
    assert err.strip() == (
        f"sitemap-lint: error: --baseline {name}: not a regular file ({kind}); name the"
        " baseline file"
    )


@pytest.mark.parametrize("content", [None, "{not json"])
def test_a_bad_baseline_the_configuration_names_is_said_to_come_from_it(
    site: Path, capsys: pytest.CaptureFixture[str], content: str | None
) -> None:
    # No --baseline was given: the line names the file and key that gave it.
    config = site / ".sitemap-lint.toml"
    config.write_text('baseline = "baseline.json"\n')
    if content is not None:
        (site / "baseline.json").write_text(content)
    status, out, err = run_cli(["check", "--now", NOW, "sitemap.xml"], capsys)
    assert (status, out) == (2, "")
    assert err.startswith(f"sitemap-lint: error: {config}: baseline {site / 'baseline.json'}: ")
    assert "--baseline" not in err.split(": ", 3)[2] and len(err.splitlines()) == 1, err


def test_a_baseline_that_cannot_be_written_is_exit_2_and_leaves_nothing(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _out, err = run_cli(
        ["check", "--isolated", "--write-baseline", "missing/dir/baseline.json", "sitemap.xml"],
        capsys,
    )
    assert status == 2
    assert err.startswith("sitemap-lint: error: --write-baseline") and len(err.splitlines()) == 1
    assert not (site / "missing").exists()


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (
            ("--write-baseline", "baseline.json", "-o", "baseline.json"),
            "it is the baseline the run writes (--write-baseline baseline.json)",
        ),
        (
            ("--baseline", "baseline.json", "-o", "./baseline.json"),
            "it is the baseline the run reads (--baseline baseline.json)",
        ),
        (
            ("--robots", "robots.txt", "-o", "robots.txt"),
            "it is the robots.txt the run reads (--robots robots.txt)",
        ),
        (
            ("--robots", "robots.txt", "--write-baseline", "robots.txt"),
            "it is the robots.txt the run reads (--robots robots.txt)",
        ),
        (
            ("--config", "lint.toml", "-o", "lint.toml"),
            "it is the configuration file lint.toml",
        ),
    ],
    ids=["baseline-written", "baseline-read", "robots", "robots-baseline", "configuration"],
)
def test_a_report_or_baseline_is_not_written_over_a_file_the_run_reads(
    site: Path, capsys: pytest.CaptureFixture[str], flags: tuple[str, ...], says: str
) -> None:
    """It would replace what the run reads, or the baseline it writes: exit 2, nothing written."""
    _check(capsys, "--write-baseline", "baseline.json")
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n", encoding="utf-8")
    (site / "lint.toml").write_text('profile = "google"\n', encoding="utf-8")
    before = {path.name: path.read_bytes() for path in site.iterdir()}
    isolated = () if "--config" in flags else ("--isolated",)
    status, out, err = run_cli(["check", *isolated, *flags, "sitemap.xml"], capsys)
    assert (status, out) == (2, "")
    thing = "the report" if flags[2] == "-o" else "the baseline"
    flag = "--output-file" if flags[2] == "-o" else flags[2]
    assert err == (
        f"sitemap-lint: error: {flag} {flags[3]}: {says}; {thing} would replace it: "
        "name another file\n"
    )
    assert {path.name: path.read_bytes() for path in site.iterdir()} == before


@pytest.mark.slow
def test_the_installed_command_gates_on_new_findings_only(site: Path) -> None:
    command = [sys.executable, "-m", "sitemap_lint", "--isolated", "--now", NOW]
    env = {**os.environ, "NO_COLOR": "1"}
    written = subprocess.run(
        [*command, "--write-baseline", "b.json", "sitemap.xml"], capture_output=True, env=env
    )
    assert written.returncode == 0
    (site / "sitemap.xml").write_text(_sitemap(*LEGACY, _entry("c", "<priority>2</priority>")))
    gated = subprocess.run(
        [*command, "--baseline", "b.json", "sitemap.xml"], capture_output=True, text=True, env=env
    )
    assert gated.returncode == 1
    assert "VA003" in gated.stdout and "2 findings matched the baseline" in gated.stdout
    assert gated.stdout.count("VA003") == 1


@pytest.mark.parametrize("flag", ["-o", "--write-baseline"])
def test_a_report_or_baseline_is_not_written_over_the_live_audit_s_cache(
    site: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    (site / "live.sqlite3").write_bytes(b"SQLite format 3\x00")
    before = {path.name: path.read_bytes() for path in site.iterdir()}
    args = ["check", "--isolated", "--live", "--live-max", "0", "--live-cache", "live.sqlite3"]
    status, out, err = run_cli([*args, flag, "./live.sqlite3", "sitemap.xml"], capsys)
    assert (status, out) == (2, "")
    what = "--output-file" if flag == "-o" else flag
    thing = "the report" if flag == "-o" else "the baseline"
    assert err == (
        f"sitemap-lint: error: {what} ./live.sqlite3: it is the cache the live audit reads and"
        f" writes (live.sqlite3); {thing} would replace it: name another file\n"
    )
    assert {path.name: path.read_bytes() for path in site.iterdir()} == before


@pytest.mark.parametrize("flag", ["-o", "--write-baseline"])
@pytest.mark.parametrize("lister", ["index.xml", "robots.txt", None])
def test_a_report_or_baseline_is_not_written_over_a_sitemap_read_through_a_map(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, flag: str, lister: str | None
) -> None:
    """A file an index or a robots.txt lists, or an input given as its URL (None), read
    through --map, is read as an input is: exit 2, and it is left as it was."""
    monkeypatch.chdir(tmp_path)
    public = tmp_path / "public"
    public.mkdir()
    child = public / "pages.xml"
    child.write_text(_sitemap(_entry("a")), encoding="utf-8")
    (public / "index.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <sitemap><loc>https://example.com/pages.xml</loc></sitemap>\n"
        "</sitemapindex>\n",
        encoding="utf-8",
    )
    (public / "robots.txt").write_text(
        "User-agent: *\nAllow: /\nSitemap: https://example.com/pages.xml\n", encoding="utf-8"
    )
    before = child.read_bytes()
    args = ["check", "--isolated", "--map", "https://example.com/=public"]
    given = "https://example.com/pages.xml" if lister is None else f"public/{lister}"
    status, out, err = run_cli([*args, flag, "public/pages.xml", given], capsys)
    assert (status, out) == (2, "")
    what = "--output-file" if flag == "-o" else flag
    thing = "the report" if flag == "-o" else "the baseline"
    how = "given as a URL" if lister is None else f"listed by public/{lister}"
    assert err == (
        f"sitemap-lint: error: {what} public/pages.xml: it is public/pages.xml, a sitemap the"
        f" run reads ({how}); {thing} would replace it: name another file\n"
    )
    assert child.read_bytes() == before


NEWS_OF_2020 = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url>
    <loc>https://example.com/a</loc>
    <news:news>
      <news:publication><news:name>Ex</news:name><news:language>en</news:language></news:publication>
      <news:publication_date>2020-01-01T00:00:00Z</news:publication_date>
      <news:title>A</news:title>
    </news:news>
  </url>
</urlset>
"""


def test_an_article_s_age_past_a_thousand_days_keeps_its_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """NW006 says "1,978 days old", then "2,008 days old": the separator's digits stayed
    in the fingerprint, and the recorded finding was reported again a month later."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "news-sitemap.xml").write_text(NEWS_OF_2020, encoding="utf-8")
    check = ["check", "--isolated", "--format", "json", "news-sitemap.xml"]
    status, _out, _err = run_cli(
        [*check, "--now", "2025-06-01", "--write-baseline", "b.json"], capsys
    )
    assert status == 0 and "NW006" in (tmp_path / "b.json").read_text(encoding="utf-8")
    status, out, _err = run_cli([*check, "--now", "2025-07-01", "--baseline", "b.json"], capsys)
    report = json.loads(out)
    assert report["files"][0]["findings"] == []
    assert report["summary"]["baseline"] == {"matched": 1, "unseen": 0}
