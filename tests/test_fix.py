"""--fix, --unsafe-fixes, --diff and --fix-only: the fixed files, the exit codes, the
reports of fixable findings, and the rules that keep data safe (atomic writes, files
left alone when a fix is not sure, symlinks, read-only files, standard input)."""

from __future__ import annotations

import codecs
import gzip
import io
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemap_lint.cli import main
from sitemap_lint.finding import Edit
from sitemap_lint.fix import write as fix_write
from sitemap_lint.fix.locate import Text
from tests.helpers import FIXTURES
from tests.site_server import Route, SiteServer, loopback_only  # noqa: F401

FIX = FIXTURES / "fix"
NOW = "2026-12-01T00:00:00Z"
INPUTS = sorted(p for p in FIX.glob("*.xml") if "." not in p.name.removesuffix(".xml"))


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["--now", NOW, "--isolated", *args])
    out, err = capsys.readouterr()
    return status, out, err


def copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copyfile(FIX / name, target)
    return target


def expected(name: str, unsafe: bool) -> bytes:
    """The fixture's expected bytes after --fix (with --unsafe-fixes: the
    ``.unsafe-fixed.xml`` file when the unsafe fixes change more)."""
    stem = name.removesuffix(".xml")
    candidates = [f"{stem}.unsafe-fixed.xml"] if unsafe else []
    candidates += [f"{stem}.fixed.xml", name]
    for candidate in candidates:
        if (FIX / candidate).exists():
            return (FIX / candidate).read_bytes()
    raise AssertionError(name)


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_fix_gives_the_expected_file_and_a_second_fix_changes_nothing(
    path: Path, unsafe: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = copy(tmp_path, path.name)
    flags = ["--fix", "--unsafe-fixes"] if unsafe else ["--fix"]
    run([*flags, str(target)], capsys)
    assert target.read_bytes() == expected(path.name, unsafe)
    status, out, _err = run(["--diff", *flags[1:], str(target)], capsys)
    assert (status, out) == (0, "")


def test_diff_prints_the_changes_writes_nothing_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = copy(tmp_path, "mixed.xml")
    before = target.read_bytes()
    status = main(["check", "--now", NOW, "--isolated", "--diff", str(target)])
    out, err = capsys.readouterr()
    assert status == 1
    assert target.read_bytes() == before
    assert out.startswith(f"--- {target}\n+++ {target}\n@@ ")
    assert "\n-    <changefreq>Daily</changefreq>\n" in out
    assert "\n+    <changefreq>daily</changefreq>\n" in out
    assert "+    <priority>1.0</priority>" not in out  # clamping is unsafe
    assert "Would fix 7 findings in 1 file." in err  # UR011 counted with UR006: one edit


@pytest.mark.parametrize(
    ("name", "header"),
    [
        ("f\x1b[31m.xml", '"f\\033[31m.xml"'),
        ('a"b.xml', '"a\\"b.xml"'),
        ("bi\u202edi.xml", '"bi\\342\\200\\256di.xml"'),
        ("caf\u00e9.xml", "caf\u00e9.xml"),
    ],
)
def test_diff_quotes_a_file_name_a_terminal_cannot_show_as_git_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, header: str
) -> None:
    target = tmp_path / name
    shutil.copyfile(copy(tmp_path, "mixed.xml"), target)
    status = main(["check", "--now", NOW, "--isolated", "--diff", str(target)])
    out, _err = capsys.readouterr()
    assert status == 1
    shown = (
        header.replace(name, str(target))
        if header == name
        else (header[0] + str(tmp_path) + "/" + header[1:])
    )
    assert out.startswith(f"--- {shown}\n+++ {shown}\n@@ ")
    assert "\x1b" not in out.split("@@")[0]


def patched(original: str, diff: str) -> str:
    """``original`` with the unified ``diff`` applied as ``patch`` applies it: lines end
    at LF only, and a line followed by the no-newline marker has none."""
    source = original.split("\n")
    source = [f"{line}\n" for line in source[:-1]] + ([source[-1]] if source[-1] else [])
    rows: list[str] = []
    for row in diff.split("\n")[2:-1]:
        if row.startswith("\\"):  # the line before it has no line end
            rows[-1] = rows[-1][:-1]
        else:
            rows.append(f"{row}\n")
    out: list[str] = []
    at = 0
    for row in rows:
        if row.startswith("@@"):
            start = max(int(row.split()[1].lstrip("-").split(",")[0]) - 1, 0)
            out += source[at:start]
            at = start
        elif row.startswith((" ", "-")):
            assert source[at] == row[1:], (source[at], row)
            at += 1
            if row.startswith(" "):
                out.append(row[1:])
        elif row.startswith("+"):
            out.append(row[1:])
        else:  # what the diff says of the bytes, after its hunks: no line of them
            assert row.startswith("(and "), row
    return "".join(out + source[at:])


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
@pytest.mark.parametrize("inside", ["", "\u2028", "\x85", "\x0b"], ids=["", "ls", "nel", "vt"])
@pytest.mark.parametrize("last", ["", "end"], ids=["", "no-end"])
def test_diff_applied_as_patch_applies_it_gives_the_fixed_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], end: str, inside: str, last: str
) -> None:
    """Lines end at LF for ``patch``: a CR alone or a character Python also reads as a
    line end (U+2028, NEL) inside a line must not end one in the diff."""
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        f"  <!-- a{inside}b -->",
        "  <url><loc>https://example.com/?a=1&b=2</loc></url>",
        "</urlset>",
    )
    original = end.join(text) + ("" if last else end)
    target = tmp_path / "sitemap.xml"
    target.write_bytes(original.encode("utf-8"))
    status, diff, _ = run(["--diff", str(target)], capsys)
    assert status == 1
    assert all(row.startswith((" ", "-", "+", "@@", "\\")) for row in diff.split("\n")[2:-1]), diff
    run(["--fix", str(target)], capsys)
    assert patched(original, diff).encode("utf-8") == target.read_bytes()
    if shutil.which("patch"):
        copy_ = tmp_path / "copy.xml"
        copy_.write_bytes(original.encode("utf-8"))
        done = subprocess.run(
            ["patch", "-s", str(copy_)], input=diff.encode("utf-8"), capture_output=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert copy_.read_bytes() == target.read_bytes()


@pytest.mark.parametrize("flags", [[], ["--ignore", "EN004"]], ids=["dropped", "kept"])
def test_diff_of_a_file_with_a_byte_order_mark_applies_to_its_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    """The UTF-8 byte order mark is in the diff, as the character U+FEFF: the diff's
    first line is the file's, whether the fix drops the mark or keeps it."""
    original = "\ufeff" + (FIX / "mixed.xml").read_text(encoding="utf-8").lstrip()
    target = tmp_path / "sitemap.xml"
    target.write_bytes(original.encode("utf-8"))
    status, diff, _ = run(["--diff", *flags, str(target)], capsys)
    assert status == 1
    run(["--fix", *flags, str(target)], capsys)
    assert target.read_bytes().startswith(codecs.BOM_UTF8) == bool(flags)
    assert patched(original, diff).encode("utf-8") == target.read_bytes()


def test_diff_with_nothing_to_fix_exits_0(tmp_path: Path, capsys) -> None:
    status, out, err = run(["--diff", str(FIX / "not-fixable.xml")], capsys)
    assert (status, out) == (0, "")
    assert "No fixes available." in err


def test_exit_status_after_fix_counts_only_what_is_left(tmp_path: Path, capsys) -> None:
    target = copy(tmp_path, "mixed.xml")
    status, out, err = run(["--fix", "--no-show-source", str(target)], capsys)
    assert status == 1  # the priority 3 and the lastmod are left: errors
    assert "VA003" in out and "[*]" not in out.split("VA003", 1)[1].split("\n", 1)[0]
    # Left: the lastmod, the priority and (now that the & is escaped) a duplicate URL.
    assert "No fixes available. (3 hidden fixes can be enabled with --unsafe-fixes.)" in out
    assert "Fixed 7 findings in 1 file." in err
    status, out, _ = run(["--fix", "--unsafe-fixes", str(target)], capsys)
    assert status == 0
    assert "no problems found" in out


def test_findings_whose_fix_another_fix_makes_are_counted_fixed(tmp_path: Path, capsys) -> None:
    """Each raw '&' of a value is a finding whose fix escapes the whole value: one edit
    fixes the three, and the count says three, as the report's fixable count does."""
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/?a=1&b=2&c=3&d</loc></url>\n"
        "</urlset>\n",
        encoding="utf-8",
    )
    _, out, _ = run(["--no-show-source", str(target)], capsys)
    assert "[*] 3 fixable with --fix." in out
    _, _, err = run(["--diff", str(target)], capsys)
    assert "Would fix 3 findings in 1 file." in err
    status, out, err = run(["--fix", str(target)], capsys)
    assert (status, "Fixed 3 findings in 1 file.") == (0, err.strip().splitlines()[-1])
    assert "a=1&amp;b=2&amp;c=3&amp;d<" in target.read_text(encoding="utf-8")


def test_a_prefix_is_declared_on_the_root_once_its_start_tag_is_closed(
    tmp_path: Path, capsys
) -> None:
    """The root's '>' is missing: the declaration waits for the pass after the one that
    closes it, and goes on the root, not into the next start tag."""
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n'
        "<url><loc>https://example.com/a</loc>"
        "<image:image><image:loc>https://example.com/a.png</image:loc></image:image></url>\n"
        "</urlset>\n",
        encoding="utf-8",
    )
    status, _, _ = run(["--fix", str(target)], capsys)
    assert status == 0
    assert target.read_text(encoding="utf-8").splitlines()[1:3] == [
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
        "<url><loc>https://example.com/a</loc>"
        "<image:image><image:loc>https://example.com/a.png</image:loc></image:image></url>",
    ]


def test_fix_only_reports_nothing_and_exits_0(tmp_path: Path, capsys) -> None:
    target = copy(tmp_path, "mixed.xml")
    status, out, err = run(["--fix-only", str(target)], capsys)
    assert (status, out) == (0, "")
    assert "Fixed 7 findings in 1 file." in err
    assert target.read_bytes() == (FIX / "mixed.fixed.xml").read_bytes()


def test_text_report_marks_fixable_findings(capsys) -> None:
    status, out, _ = run(["--no-show-source", str(FIX / "mixed.xml")], capsys)
    assert status == 1
    lines = [line for line in out.splitlines() if "XM00" in line or "NS002" in line]
    assert lines and all("[*]" in line for line in lines)
    assert out.rstrip().endswith(
        "[*] 8 fixable with --fix. (3 hidden fixes can be enabled with --unsafe-fixes.)"
    )


def test_text_report_counts_hidden_unsafe_fixes(capsys) -> None:
    _, out, _ = run(["--no-show-source", str(FIX / "duplicates.xml")], capsys)
    assert "No fixes available. (3 hidden fixes can be enabled with --unsafe-fixes.)" in out
    _, out, _ = run(["--no-show-source", "--unsafe-fixes", str(FIX / "duplicates.xml")], capsys)
    assert out.rstrip().endswith("[*] 3 fixable with --fix.")


# A value holding a reference to a number no character has (the parser refuses it and
# reads on): its fixes cannot be exact, so there are none, in every format.
UNREADABLE_REFERENCE = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "<url><loc>https://www.example.com/</loc><lastmod>2024-05-01 10:00:00&#99999999;"
    "</lastmod></url>\n"
    "<url><loc> https://www.example.com/b&#x1100000;</loc></url>\n"
    "</urlset>\n"
)


@pytest.mark.parametrize("form", ["text", "json", "sarif"])
def test_a_reference_to_no_character_gets_no_fix(tmp_path: Path, capsys, form: str) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(UNREADABLE_REFERENCE)
    status, out, err = run(["--format", form, "--unsafe-fixes", str(path)], capsys)
    assert status == 1 and "internal error" not in err
    assert "fixable" not in out
    if form == "json":
        findings = json.loads(out)["files"][0]["findings"]
        assert {"UR005", "XM001"} <= {f["code"] for f in findings}
        assert not any("fix" in f for f in findings)
    status, out, err = run(["--fix", "--unsafe-fixes", str(path)], capsys)
    assert path.read_text() == UNREADABLE_REFERENCE and "internal error" not in err


def test_json_carries_the_fix_with_exact_edits(capsys) -> None:
    _, out, _ = run(["--format", "json", str(FIX / "mixed.xml")], capsys)
    findings = json.loads(out)["files"][0]["findings"]
    by_code = {f["code"]: f for f in findings}
    namespace = by_code["NS002"]["fix"]
    assert namespace["applicability"] == "safe"
    (edit,) = namespace["edits"]
    line = (FIX / "mixed.xml").read_text(encoding="utf-8").splitlines()[1]
    start, end = edit["location"]["column"], edit["end_location"]["column"]
    assert edit["location"]["line"] == edit["end_location"]["line"] == 2
    assert line[start - 1 : end - 1] == "https://www.sitemaps.org/schemas/sitemap/0.9/"
    assert edit["content"] == "http://www.sitemaps.org/schemas/sitemap/0.9"
    # A finding without a fix has no "fix" key.
    _, out, _ = run(["--format", "json", str(FIX / "not-fixable.xml")], capsys)
    assert all("fix" not in f for f in json.loads(out)["files"][0]["findings"])


def test_sarif_carries_fixes_with_replacements(capsys) -> None:
    _, out, _ = run(["--format", "sarif", str(FIX / "less-than.xml")], capsys)
    results = json.loads(out)["runs"][0]["results"]
    (result,) = [r for r in results if r["ruleId"] == "XM005"]
    (fix,) = result["fixes"]
    (change,) = fix["artifactChanges"]
    assert (
        change["artifactLocation"] == result["locations"][0]["physicalLocation"]["artifactLocation"]
    )
    (replacement,) = change["replacements"]
    assert replacement == {
        "deletedRegion": {"startLine": 4, "startColumn": 35, "endLine": 4, "endColumn": 36},
        "insertedContent": {"text": "%3C"},  # as --fix writes it (less-than.fixed.xml)
    }
    assert fix["properties"] == {"applicability": "safe"}


def test_gzip_stays_gzip(tmp_path: Path, capsys) -> None:
    target = tmp_path / "mixed.xml.gz"
    target.write_bytes(gzip.compress((FIX / "mixed.xml").read_bytes()))
    run(["--fix", str(target)], capsys)
    data = target.read_bytes()
    assert data[:2] == b"\x1f\x8b"
    assert gzip.decompress(data) == (FIX / "mixed.fixed.xml").read_bytes()


@pytest.mark.parametrize("fields", [0b11100, 0b01000, 0b10000, 0b00100])
def test_a_gzip_file_keeps_its_original_name_comment_and_extra_field(
    tmp_path: Path, capsys, fields: int
) -> None:
    """RFC 1952: what the header of the file's first member says of it (the extra
    field, the original name ``gunzip -N`` restores, the comment) stays; its time does
    not (the text is another)."""
    import zlib

    text = (FIX / "mixed.xml").read_bytes()
    optional = b""
    if fields & 4:
        optional += (6).to_bytes(2, "little") + b"AB\x02\x00\x01\x02"
    if fields & 8:
        optional += b"mixed.xml\x00"
    if fields & 16:
        optional += b"made by hand\x00"
    header = b"\x1f\x8b\x08" + bytes([fields]) + (1_700_000_000).to_bytes(4, "little")
    trailer = zlib.crc32(text).to_bytes(4, "little") + len(text).to_bytes(4, "little")
    target = tmp_path / "mixed.xml.gz"
    target.write_bytes(
        header + b"\x00\x03" + optional + zlib.compress(text, 9, wbits=-15) + trailer
    )
    run(["--fix", str(target)], capsys)
    data = target.read_bytes()
    assert gzip.decompress(data) == (FIX / "mixed.fixed.xml").read_bytes()
    assert data[3] == fields
    assert data[4:8] == b"\0\0\0\0"
    assert data[10 : 10 + len(optional)] == optional


def test_a_gzip_file_of_several_members_is_fixed_as_one(tmp_path: Path, capsys) -> None:
    """RFC 1952: the members of a gzip file are read one after the other, as one text
    (the check reads them so); the fixed file is written as one member."""
    text = (FIX / "mixed.xml").read_bytes()
    half = text.index(b"<url>")
    target = tmp_path / "mixed.xml.gz"
    target.write_bytes(gzip.compress(text[:half]) + gzip.compress(text[half:]) + b"\0" * 8)
    run(["--fix", str(target)], capsys)
    assert gzip.decompress(target.read_bytes()) == (FIX / "mixed.fixed.xml").read_bytes()


@pytest.mark.parametrize("after", [b"garbage", b"\x1f\x8b\x08"])
def test_a_gzip_file_with_data_after_its_members_is_left_unchanged(
    tmp_path: Path, capsys, after: bytes
) -> None:
    target = tmp_path / "mixed.xml.gz"
    data = gzip.compress((FIX / "mixed.xml").read_bytes()) + after
    target.write_bytes(data)
    _status, out, _err = run(["--fix", str(target)], capsys)
    assert target.read_bytes() == data
    assert "FX001" in out


def test_utf16_file_is_written_as_utf8(tmp_path: Path, capsys) -> None:
    text = (FIX / "mixed.unsafe-fixed.xml").read_text(encoding="utf-8")
    target = tmp_path / "wide.xml"
    target.write_bytes(text.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"))
    status, _, _ = run(["--fix", str(target)], capsys)
    assert target.read_bytes() == text.encode("utf-8")
    assert status == 0


def test_mode_is_kept(tmp_path: Path, capsys) -> None:
    target = copy(tmp_path, "mixed.xml")
    target.chmod(0o640)
    run(["--fix", str(target)], capsys)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may give a file to another user")
def test_owner_and_group_are_kept(tmp_path: Path, capsys) -> None:
    target = copy(tmp_path, "mixed.xml")
    os.chown(target, 65534, 65534)
    run(["--fix", str(target)], capsys)
    assert target.read_bytes() == (FIX / "mixed.fixed.xml").read_bytes()
    assert (target.stat().st_uid, target.stat().st_gid) == (65534, 65534)


def test_a_file_with_other_hard_links_is_left_unchanged(tmp_path: Path, capsys) -> None:
    """Replacing it would fix one name and leave the other with the old text."""
    target = copy(tmp_path, "mixed.xml")
    other = tmp_path / "other.xml"
    os.link(target, other)
    status, _, err = run(["--fix", str(target)], capsys)
    assert status == 2 and err.count("\n") == 1
    assert f"{target}: cannot write: it has 2 hard links" in err
    assert target.read_bytes() == (FIX / "mixed.xml").read_bytes()
    assert os.path.samefile(target, other)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mixed.xml", "other.xml"]


def test_a_file_changed_while_it_is_fixed_keeps_the_change(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """Written between the read and the rename, an edit is not overwritten by the fix."""
    from sitemap_lint.fix import engine as fix_engine

    target = copy(tmp_path, "mixed.xml")
    edited = (FIX / "mixed.xml").read_bytes().replace(b"Daily", b"Weekly")
    real_fix = fix_engine.fix_source

    def edited_meanwhile(*args: object, **kwargs: object) -> fix_engine.FileFix:
        done = real_fix(*args, **kwargs)  # type: ignore[arg-type]
        target.write_bytes(edited)
        return done

    monkeypatch.setattr(fix_engine, "fix_source", edited_meanwhile)
    status, _, err = run(["--fix", str(target)], capsys)
    assert status == 2 and f"{target}: cannot write: it changed while it was being fixed" in err
    assert target.read_bytes() == edited
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mixed.xml"]


def test_symlink_fixes_the_target_and_stays_a_link(tmp_path: Path, capsys) -> None:
    real = copy(tmp_path, "mixed.xml")
    link = tmp_path / "link.xml"
    link.symlink_to(real.name)
    run(["--fix", str(link)], capsys)
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_bytes() == (FIX / "mixed.fixed.xml").read_bytes()


def test_read_only_file_exits_2_with_one_line_and_stays(tmp_path: Path, capsys) -> None:
    target = copy(tmp_path, "mixed.xml")
    target.chmod(0o444)
    try:
        status, out, err = run(["--fix", str(target)], capsys)
    finally:
        target.chmod(0o644)
    assert status == 2
    assert "[*]" in out  # the report of what is left: all of it
    assert err.count("\n") == 1 and "read-only" in err
    assert target.read_bytes() == (FIX / "mixed.xml").read_bytes()


def test_a_read_only_file_among_others_leaves_them_fixed_and_reported(
    tmp_path: Path, capsys
) -> None:
    writable = copy(tmp_path, "mixed.xml")
    (tmp_path / "ro").mkdir()
    read_only = tmp_path / "ro" / "mixed.xml"
    shutil.copyfile(FIX / "mixed.xml", read_only)
    read_only.chmod(0o444)
    try:
        status, out, err = run(["--fix", "--no-show-source", str(read_only), str(writable)], capsys)
    finally:
        read_only.chmod(0o644)
    assert status == 2
    assert writable.read_bytes() == (FIX / "mixed.fixed.xml").read_bytes()
    assert read_only.read_bytes() == (FIX / "mixed.xml").read_bytes()
    assert err.splitlines() == [
        f"sitemap-lint: error: {read_only}: cannot write: the file is read-only; "
        "it was left unchanged",
        "Fixed 7 findings in 1 file.",
    ]
    assert f"{read_only}\n" in out and f"{writable}\n" in out  # what is left, of each
    assert "2 files checked" in out


def test_an_unreadable_file_among_others_leaves_them_fixed_and_says_so(
    tmp_path: Path, capsys
) -> None:
    writable = copy(tmp_path, "mixed.xml")
    fifo = tmp_path / "sitemap.xml"
    os.mkfifo(fifo)  # not a file: it cannot be read (nor checked)
    status, out, err = run(["--fix", str(fifo), str(writable)], capsys)
    assert (status, out) == (2, "")
    assert writable.read_bytes() == (FIX / "mixed.fixed.xml").read_bytes()
    lines = err.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"sitemap-lint: error: {fifo}: not a regular")
    assert lines[1] == "Fixed 7 findings in 1 file."


def test_fix_only_with_diff_is_a_usage_error(tmp_path: Path, capsys) -> None:
    target = copy(tmp_path, "mixed.xml")
    status, out, err = run(["--fix-only", "--diff", str(target)], capsys)
    assert (status, out) == (2, "")
    assert err == (
        "sitemap-lint: error: --diff and --fix-only cannot be used together: --diff writes "
        "nothing, --fix-only writes the fixes; give one of them\n"
    )
    assert target.read_bytes() == (FIX / "mixed.xml").read_bytes()


@pytest.mark.parametrize("mode", ["--diff", "--fix-only"])
@pytest.mark.parametrize(
    ("flag", "reason"),
    [
        ("--write-baseline", "there is nothing to record"),
        ("--output-file", "there is nothing to write"),
    ],
)
def test_options_of_the_report_are_refused_without_a_report(
    tmp_path: Path, capsys, mode: str, flag: str, reason: str
) -> None:
    """--diff and --fix-only make no report: a file named for it would be left unwritten
    (or a baseline empty) without a word."""
    target = copy(tmp_path, "mixed.xml")
    written = tmp_path / "written.json"
    status, out, err = run([mode, flag, str(written), str(target)], capsys)
    assert (status, out) == (2, "")
    assert err == (
        f"sitemap-lint: error: {flag} and {mode} cannot be used together: {mode} makes no"
        f" report, so {reason}; give one of them\n"
    )
    assert target.read_bytes() == (FIX / "mixed.xml").read_bytes() and not written.exists()


def test_a_fifo_is_neither_fixed_nor_replaced(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "sitemap.xml"
    os.mkfifo(fifo)
    with pytest.raises(fix_write.WriteError, match="not a regular file"):
        fix_write.write_atomic(fifo, b"<urlset/>")
    status, out, err = run(["--fix", str(fifo)], capsys)
    assert status == 2 and out == "" and err.count("\n") == 1 and "not a regular file" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sitemap.xml"]


def test_stdin_gives_the_fixed_file_on_stdout(monkeypatch, capsysbinary) -> None:
    data = (FIX / "mixed.xml").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status = main(["--now", NOW, "--isolated", "--fix", "--no-show-source", "-"])
    out, err = capsysbinary.readouterr()
    assert out == (FIX / "mixed.fixed.xml").read_bytes()
    assert b"VA003" in err  # the report of what is left goes to stderr
    assert status == 1


class _Endless(io.RawIOBase):
    """Standard input that never ends (``/dev/zero``): reading it whole is an error."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        buffer[:] = b"\0" * len(buffer)
        return len(buffer)

    def readall(self) -> bytes:
        raise AssertionError("standard input read whole")


def test_standard_input_is_not_read_whole(monkeypatch, capsys) -> None:
    """What the report shows of standard input is held up to a bound, not its whole."""
    from sitemap_lint.fix import engine

    monkeypatch.setattr(engine, "MAX_FIX_BYTES", 1 << 16)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(_Endless())))
    assert main(["--now", NOW, "--isolated", "--show-source", "-"]) == 1
    assert "1 file checked" in capsys.readouterr().out


def test_standard_input_too_large_to_fix_goes_out_whole(monkeypatch, capsysbinary) -> None:
    """Over the bound, the fixer leaves it as it is (FX001) and stdout gets all of it,
    the part left unread included."""
    from sitemap_lint.fix import engine

    monkeypatch.setattr(engine, "MAX_FIX_BYTES", 1000)
    data = (FIX / "mixed.xml").read_bytes() + b"<!--" + b"x" * 5000 + b"-->\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    main(["--now", NOW, "--isolated", "--fix", "--format", "concise", "-"])
    out, err = capsysbinary.readouterr()
    assert out == data
    assert b"FX001 file left unchanged: larger than" in err
    assert b"split it into sitemaps of at most 50 MiB, then fix each" in err


def test_interrupted_write_leaves_the_original_whole(tmp_path: Path, monkeypatch, capsys) -> None:
    target = copy(tmp_path, "mixed.xml")

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(fix_write.os, "replace", interrupted)
    status, _, _ = run(["--fix", str(target)], capsys)
    assert status != 0
    assert target.read_bytes() == (FIX / "mixed.xml").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mixed.xml"]  # no temporary left


def test_failed_rename_leaves_the_original_whole(tmp_path: Path, monkeypatch, capsys) -> None:
    target = copy(tmp_path, "mixed.xml")

    def failed(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fix_write.os, "replace", failed)
    status, _, err = run(["--fix", str(target)], capsys)
    assert status == 2 and "No space left on device" in err and "left unchanged" in err
    assert target.read_bytes() == (FIX / "mixed.xml").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mixed.xml"]


def test_invalid_bytes_leave_the_file_untouched_with_a_finding(tmp_path: Path, capsys) -> None:
    target = tmp_path / "broken.xml"
    data = (FIX / "mixed.xml").read_bytes().replace(b"page", b"p\xffge")
    target.write_bytes(data)
    status, out, _ = run(["--fix", "--no-show-source", str(target)], capsys)
    assert target.read_bytes() == data
    assert "FX001" in out and "not valid in its encoding" in out
    assert "`sitemap-lint check` says where (EN001), or that the file is no XML" in out
    assert "re-encode it as UTF-8, then run the fix again" in out
    assert status == 1


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ([], True),
        (["--ignore", "FX001"], False),
        (["--select", "XM004"], False),
        (["--select", "XM004,FX001"], True),
        (["--select", "XM004", "--extend-select", "FX"], True),
    ],
)
def test_the_left_unfixed_finding_follows_the_selection(
    tmp_path: Path, capsys, options, shown
) -> None:
    target = tmp_path / "broken.xml"
    target.write_bytes((FIX / "mixed.xml").read_bytes().replace(b"page", b"p\xffge"))
    status, out, _ = run(["--fix", "--no-show-source", *options, str(target)], capsys)
    assert ("FX001" in out) is shown
    assert "XM004" in out and status == 1  # the raw "&" is still there


@pytest.mark.parametrize("ignored", [False, True])
def test_the_left_unfixed_finding_follows_the_per_file_ignores_without_a_report(
    tmp_path: Path, capsys, ignored: bool
) -> None:
    """--fix-only says why a file was left unfixed as the run would report it there:
    a per-file ignore of FX001 keeps it quiet, as in the report of --fix."""
    target = tmp_path / "broken.xml"
    target.write_bytes((FIX / "mixed.xml").read_bytes().replace(b"page", b"p\xffge"))
    config = tmp_path / "sitemap-lint.toml"
    config.write_text(
        '[per-file-ignores]\n"broken.xml" = ["FX001"]\n' if ignored else "", encoding="utf-8"
    )
    for mode in ("--fix-only", "--fix"):
        main(["--now", NOW, mode, "--config", str(config), str(target)])
        out, err = capsys.readouterr()
        assert ("FX001" in out + err) is not ignored


def _fixes_that_break_the_file(monkeypatch) -> None:
    """The real fixes, then an unclosed element."""
    from sitemap_lint.fix import apply as fix_apply
    from sitemap_lint.fix import engine

    real = fix_apply.apply

    def breaking(text: str, findings):
        done = real(text, findings)
        done.text = done.text.replace("</urlset>", "<url></urlset>")
        return done

    monkeypatch.setattr(engine, "apply", breaking)


def test_a_fix_that_would_break_the_file_is_not_written(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """The gate: a fixed text with a new well-formedness error is never written."""
    _fixes_that_break_the_file(monkeypatch)
    target = copy(tmp_path, "mixed.xml")
    status, out, _ = run(["--fix", "--no-show-source", str(target)], capsys)
    assert target.read_bytes() == (FIX / "mixed.xml").read_bytes()
    assert "FX001" in out and "new XM0" in out
    assert status == 1


def test_a_fix_that_would_make_a_new_finding_is_not_written(tmp_path: Path, capsys) -> None:
    """The gate reads every finding, not only well-formedness: the spaces of a URL of
    2,040 characters percent-encoded make it longer than 2,048, a UR003 the original did
    not have."""
    target = tmp_path / "sitemap.xml"
    url = "https://example.com/" + "a b " * 5
    url += "x" * (2040 - len(url))
    original = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"  <url><loc>{url}</loc></url>\n"
        "</urlset>\n"
    )
    target.write_text(original, encoding="utf-8")
    status, out, _ = run(["--fix", "--format", "concise", str(target)], capsys)
    assert target.read_text(encoding="utf-8") == original
    assert "FX001 file left unchanged: the fixes would leave a new UR003 url-too-long" in out
    assert "UR006" in out and status == 1
    status, out, _ = run(["--fix", "--ignore", "UR003", "--format", "concise", str(target)], capsys)
    assert target.read_text(encoding="utf-8").count("%20") == 10  # a rule the run ignores
    assert "FX001" not in out


def test_a_url_and_its_spelling_with_raw_characters_are_duplicates(tmp_path: Path, capsys) -> None:
    """A space and its escape name one page (UR006's fix writes the one as the other):
    DU001 says so before the fix, so the fix makes no new finding and is written."""
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/a b</loc></url>\n"
        "  <url><loc>https://example.com/a%20b</loc></url>\n"
        "</urlset>\n",
        encoding="utf-8",
    )
    _status, out, _ = run(["--fix", "--format", "concise", str(target)], capsys)
    assert target.read_text(encoding="utf-8").count("a%20b") == 2
    assert "FX001" not in out and ":4:8: DU001" in out and "UR006" not in out


def test_a_fix_that_lets_an_extension_be_validated_is_written(tmp_path: Path, capsys) -> None:
    """The image namespace written with https was not validated (NS004): once it is
    fixed, the image's own defects show (IM007), which the fix did not make."""
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n'
        '        xmlns:image="https://www.google.com/schemas/sitemap-image/1.1">\n'
        "  <url><loc>https://example.com/a</loc>\n"
        "    <image:image><image:loc>https://example.com/a.jpg</image:loc>"
        "<image:alt>x</image:alt></image:image>\n"
        "  </url>\n"
        "</urlset>\n",
        encoding="utf-8",
    )
    _, out, _ = run(["--fix", "--format", "concise", str(target)], capsys)
    assert 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"' in target.read_text(
        encoding="utf-8"
    )
    assert "FX001" not in out and "IM007" in out


def test_a_fix_that_leaves_a_suppression_unused_is_written(tmp_path: Path, capsys) -> None:
    """The URL percent-encoded for its space is encoded for its 'é' too: the directive
    silencing UR011 is left unused (SU001), which makes the fixed file no worse."""
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <!-- sitemap-lint: disable-next-line UR011 -->\n"
        "  <url><loc>https://example.com/café page</loc></url>\n"
        "</urlset>\n",
        encoding="utf-8",
    )
    _, out, _ = run(["--fix", "--format", "concise", str(target)], capsys)
    assert "caf%C3%A9%20page" in target.read_text(encoding="utf-8")
    assert "FX001" not in out and "SU001" in out


def test_an_unsafe_fix_that_would_make_a_date_in_the_future_is_not_written(
    tmp_path: Path, capsys
) -> None:
    """A lastmod without a time zone taken as UTC falls after --now: a new DT005."""
    target = tmp_path / "sitemap.xml"
    original = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/a</loc><lastmod>2026-12-01T10:00:00</lastmod></url>\n"
        "</urlset>\n"
    )
    target.write_text(original, encoding="utf-8")
    _, out, _ = run(["--fix", "--unsafe-fixes", "--format", "concise", str(target)], capsys)
    assert target.read_text(encoding="utf-8") == original
    assert "the fixes would leave a new DT005 date-in-future at line 3" in out


def test_a_raw_less_than_in_an_attribute_value_is_escaped_in_place(tmp_path: Path, capsys) -> None:
    """A raw '<' in an attribute's value is escaped where it stands (XM005); it was
    read as the tag's '>' missing, whose fix wrote a '>' into the value."""
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        "  <url>\n"
        "    <loc>https://example.com/a</loc>\n"
        '    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/a?q=x<y"/>\n'
        '    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"/>\n'
        "  </url>\n"
        "</urlset>\n"
    )
    run(["--fix-only", str(target)], capsys)
    fixed = target.read_text()
    assert 'href="https://example.com/a?q=x%3Cy"/>' in fixed
    assert fixed.count(">") == fixed.count("<")


def test_urls_are_not_fixed(capsys, no_network) -> None:
    status = main(["--isolated", "--diff", "--exit-zero", str(FIX / "not-fixable.xml")])
    assert status == 0


def test_locate_resolves_edits_by_position() -> None:
    text = Text("<a>\r\n  <b x='>'>v&amp;w</b>\n</a>")
    (text_edit,) = text.resolve(Edit(2, 3, "new", "text", old="v&w")) or []
    assert text.text[text_edit.start : text_edit.end] == "v&amp;w"
    assert text.resolve(Edit(2, 3, "new", "text", old="other")) is None
    (element,) = text.resolve(Edit(2, 3, "", "element")) or []
    assert text.text[element.start : element.end] == "  <b x='>'>v&amp;w</b>\n"
    assert text.position(element.start) == (2, 1)
    assert text.resolve(Edit(9, 1, "")) is None


def test_removing_elements_of_a_long_line_reads_only_the_blanks_before_them() -> None:
    """A minified file's entries, each on the one line: where each element's line starts
    is not searched for (that read the whole line before every element, and a run with
    many duplicates took minutes), and the elements go without their neighbours; an
    element alone on its line still goes with its indentation and line break."""

    class Counted(str):
        searches = 0

        def rfind(self, *args: object) -> int:  # type: ignore[override]
            Counted.searches += 1
            return super().rfind(*args)  # type: ignore[arg-type]

    line = "".join(f"<url><loc>https://h/{n}</loc></url>" for n in range(3))
    text = Text(Counted(f"<urlset>{line}</urlset>"))
    (removed,) = text.resolve(Edit(1, 9 + len(line) // 3, "", "element")) or []
    assert text.text[removed.start : removed.end] == "<url><loc>https://h/1</loc></url>"
    assert Counted.searches == 0
    alone = Text("<urlset>\n  <url><loc>https://h/1</loc></url>\n</urlset>")
    (removed,) = alone.resolve(Edit(2, 3, "", "element")) or []
    assert alone.text[removed.start : removed.end] == "  <url><loc>https://h/1</loc></url>\n"


@pytest.mark.slow
def test_a_large_file_counts_as_fixable_what_fix_fixes(tmp_path: Path, capsys) -> None:
    """Over 16 MiB, as in a small file, a fix is counted only when it fits the text (as
    ``--fix`` applies it): a duplicate saying more than the first entry stays, and so
    does a CDATA value."""
    entries = [
        "<url><loc>https://example.com/a</loc></url>",
        "<url><loc>https://example.com/a</loc><changefreq>daily</changefreq></url>",
        "<url><loc>https://example.com/b</loc><lastmod>2024-01-01</lastmod></url>",
        "<url><loc>https://example.com/b</loc><lastmod>2024-01-01</lastmod></url>",
        "<url><loc>https://example.com/c</loc><lastmod><![CDATA[2024-01-01T10:00]]></lastmod></url>",
        "<url><loc> https://example.com/d</loc></url>",
        *(f"<url><loc>https://example.com/{n:08d}</loc></url>" for n in range(380_000)),
    ]
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + "\n".join(entries)
        + "\n</urlset>\n",
        encoding="utf-8",
    )
    assert target.stat().st_size > 16 * 1024 * 1024
    _, out, _ = run(["--format", "json", "--unsafe-fixes", str(target)], capsys)
    findings = json.loads(out)["files"][0]["findings"]
    fixable = sorted((f["line"], f["code"]) for f in findings if "fix" in f)
    assert [line for line, _ in fixable] == [6, 8] and fixable[0][1] == "DU001"


def test_a_file_too_large_to_fix_is_not_read_again_for_its_report(monkeypatch, capsys) -> None:
    from sitemap_lint.fix import engine

    def unread(source: object) -> bytes:
        raise AssertionError(source)

    monkeypatch.setattr(engine, "MAX_FIX_BYTES", 100)
    monkeypatch.setattr(engine, "read_source", unread)
    _, out, _ = run(["--format", "json", str(FIX / "mixed.xml")], capsys)
    findings = json.loads(out)["files"][0]["findings"]
    assert findings and not any("fix" in f for f in findings)


def test_entries_out_of_scope_are_removed_only_with_unsafe_fixes(tmp_path: Path, capsys) -> None:
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url>\n    <loc>https://example.com/shop/a</loc>\n  </url>\n"
        "  <url>\n    <loc>https://example.com/blog/b</loc>\n  </url>\n"
        "  <url><loc>https://other.example/shop/c</loc></url>\n"
        "</urlset>\n",
        encoding="utf-8",
    )
    scope = ["--sitemap-url", "https://example.com/shop/sitemap.xml"]
    status, _, _ = run([*scope, "--fix", str(target)], capsys)
    assert status == 1 and target.read_text(encoding="utf-8").count("<url>") == 3
    status, _, _ = run([*scope, "--fix", "--unsafe-fixes", str(target)], capsys)
    assert status == 0
    assert target.read_text(encoding="utf-8") == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url>\n    <loc>https://example.com/shop/a</loc>\n  </url>\n"
        "</urlset>\n"
    )


@pytest.mark.parametrize("select", [[], ["--select", "SC"]], ids=["all", "select"])
def test_fixes_that_would_remove_every_entry_leave_the_file_unchanged(
    tmp_path: Path, capsys, select: list[str]
) -> None:
    """Every entry out of scope says the --sitemap-url is wrong, not the sitemap: an
    empty URL set is no fix (whatever rules the run reports)."""
    target = tmp_path / "sitemap.xml"
    original = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/a</loc></url>\n"
        "  <url><loc>https://example.com/b</loc></url>\n"
        "</urlset>\n"
    )
    target.write_text(original, encoding="utf-8")
    scope = ["--sitemap-url", "https://www.example.com/sitemap.xml", *select]
    status, out, err = run([*scope, "--fix-only", "--unsafe-fixes", str(target)], capsys)
    assert status == 0 and out == ""
    assert target.read_text(encoding="utf-8") == original
    if not select:
        assert "FX001 file left unchanged: the fixes would remove every entry (all 2)" in err


@pytest.mark.parametrize("unsafe", [[], ["--unsafe-fixes"]], ids=["safe", "unsafe"])
@pytest.mark.parametrize(
    ("root", "entry", "served"),
    [
        ("urlset", "url", ["--sitemap-url", "https://example.com/sitemap.xml"]),
        ("sitemapindex", "sitemap", ["--sitemap-url", "https://example.com/sitemap.xml"]),
        ("sitemapindex", "sitemap", ["--map", "https://example.com/=DIR", "--jobs", "2"]),
    ],
    ids=["urlset", "index", "index-in-a-set"],
)
def test_the_fixable_count_of_a_file_whose_fixes_would_remove_every_entry(
    tmp_path: Path, capsys, unsafe: list[str], root: str, entry: str, served: list[str]
) -> None:
    """Every entry out of scope: --fix --unsafe-fixes leaves the file unchanged (FX001),
    an index as a urlset, so the report counts no fix with --unsafe-fixes and, without,
    the safe ones only: the file's unsafe fixes are no hidden fixes either, since
    enabling them fixes nothing."""
    import re

    target = tmp_path / "sitemap.xml"
    original = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<{root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"  <{entry}><loc>https://www.example.com/a.xml</loc>"
        f"<lastmod>2024-01-01T10:00Z</lastmod></{entry}>\n"
        f"  <{entry}><loc>https://www.example.com/b.xml</loc>"
        f"<lastmod>2024-01-01T10:00:00</lastmod></{entry}>\n"
        f"</{root}>\n"
    )
    target.write_text(original, encoding="utf-8")
    scope = [part.replace("DIR", str(tmp_path)) for part in served] + unsafe

    def findings() -> tuple[int, str]:
        _, out, _ = run([*scope, "--format", "json", str(target)], capsys)
        _, text, summary = run([*scope, str(target)], capsys)
        return len(json.loads(out)["files"][0]["findings"]), text + summary

    before, report = findings()
    counted = re.search(r"\[\*\] (\d+) fixable with --fix", report)
    fixable = int(counted[1]) if counted else 0
    assert "hidden" not in report
    _, out, err = run([*scope, "--fix", str(target)], capsys)
    assert ("file left unchanged: the fixes would remove every" in out + err) == bool(unsafe)
    after, _ = findings()
    assert before - after == fixable == (0 if unsafe else 1)
    assert (target.read_text(encoding="utf-8") == original) == bool(unsafe)


@pytest.mark.parametrize("option", ["--fix-only", "--diff"])
def test_fixes_that_would_remove_every_sitemap_of_an_index_leave_it_unchanged(
    tmp_path: Path, capsys, option: str
) -> None:
    """An index lists no URLs of its own, but emptying it is no fix either: every child
    out of scope says the --sitemap-url is wrong (an index without entries is ST008)."""
    target = tmp_path / "sitemap_index.xml"
    original = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <sitemap><loc>https://www.example.com/a.xml</loc></sitemap>\n"
        "  <sitemap><loc>https://www.example.com/b.xml</loc></sitemap>\n"
        "</sitemapindex>\n"
    )
    target.write_text(original, encoding="utf-8")
    scope = ["--sitemap-url", "https://example.com/sitemap_index.xml"]
    status, out, err = run([*scope, option, "--unsafe-fixes", str(target)], capsys)
    assert status == 0 and "-  <sitemap>" not in out
    assert target.read_text(encoding="utf-8") == original
    assert "FX001 file left unchanged: the fixes would remove every <sitemap> of the index" in (
        out + err
    )


def test_the_gate_reads_every_rule_whatever_the_run_reports(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """A fix that breaks the file is not written though the run reports only VA."""
    _fixes_that_break_the_file(monkeypatch)
    target = copy(tmp_path, "mixed.xml")
    run(["--select", "VA", "--fix", str(target)], capsys)
    assert target.read_bytes() == (FIX / "mixed.xml").read_bytes()


@pytest.mark.parametrize("select", [[], ["--select", "XM004"]], ids=["all", "select"])
def test_each_pass_is_one_check_the_gate_reads_too(
    tmp_path: Path, monkeypatch, capsys, select: list[str]
) -> None:
    """The passes read every rule and apply the fixes of the findings the run reports:
    the gate against a worse file checks nothing again (two passes, two checks)."""
    from sitemap_lint.fix import engine

    checked: list[bool] = []
    real = engine.check_text

    def counted(name: str, data: bytes, options, xsd):
        checked.append(options.enabled is None and options.selection is None)
        return real(name, data, options, xsd)

    monkeypatch.setattr(engine, "check_text", counted)
    target = copy(tmp_path, "mixed.xml")
    run(["--fix-only", *select, str(target)], capsys)
    assert checked == [True, True]
    _, out, _ = run(["--format", "json", str(target)], capsys)
    left = {f["code"] for f in json.loads(out)["files"][0]["findings"] if "fix" in f}
    assert "XM004" not in left
    assert bool({"XM002", "NS002"} & left) is bool(select)  # the others are not the run's


def test_a_file_with_nothing_to_fix_gets_no_refusal(tmp_path: Path, capsys) -> None:
    target = tmp_path / "broken.xml"
    data = (FIX / "not-fixable.xml").read_bytes().replace(b"relative", b"rel\xffative")
    target.write_bytes(data)
    _, out, _ = run(["--fix", "--no-show-source", str(target)], capsys)
    assert "EN001" in out and "FX001" not in out
    assert target.read_bytes() == data


def test_each_raw_ampersand_fix_changes_only_its_own_value(tmp_path: Path, capsys) -> None:
    target = tmp_path / "sitemap.xml"
    entries = "".join(
        f"  <url><loc>https://example.com/{i}?a=1&b=2</loc></url>\n" for i in range(40)
    )
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{entries}  <url><loc>https://example.com/&x&lt;</loc></url>\n</urlset>\n",
        encoding="utf-8",
    )
    _, out, _ = run(["--format", "json", str(target)], capsys)
    findings = json.loads(out)["files"][0]["findings"]
    # The last entry is read again after its raw "&" is repaired: its URL holds "<".
    assert [f["code"] for f in findings] == ["XM004"] * 40 + ["UR006", "XM004"]
    for finding in findings:
        (edit,) = finding["fix"]["edits"]
        assert edit["location"]["line"] == edit["end_location"]["line"] == finding["line"]
    assert findings[-1]["column"] == 33  # the raw "&" before "x", not the "&lt;" after it
    status, _, _ = run(["--fix", str(target)], capsys)
    assert status == 0
    assert target.read_text(encoding="utf-8").count("&amp;") == 41


@pytest.mark.parametrize(
    ("edit", "fits"),
    [
        (Edit(1, 1, "x", "span", 1, 3, old="ab"), True),
        (Edit(2, 2, "x", "span", 2, 3, old="d"), True),
        (Edit(1, 1, "x", "span", 1, 3, old="ax"), False),  # not the text's
        (Edit(1, 1, "x", "span", 1, 4, old="ab\n"), False),  # ends at the next line's start
        (Edit(1, 1, "x", "span", 1, 3), False),  # says nothing of the text it replaces
        (Edit(1, 1, "x", "element", 1, 3, old="ab"), False),
    ],
)
def test_an_exact_span_is_kept_as_it_is(edit: Edit, fits: bool) -> None:
    text = Text("ab\ncd\n")
    assert text.fits(edit) is fits
    if not fits and edit.old == "ab\n":
        (replacement,) = text.resolve(edit) or ()
        assert text.position(replacement.end) == (2, 1)  # the position made exact


def test_a_position_on_a_long_line_is_found_without_reading_the_line_back() -> None:
    """A minified file's positions: each found through the counts per block, not by a
    search back to its line's start (which read the whole line for each fix)."""

    class Counted(str):
        searches = 0

        def rfind(self, *args: object) -> int:  # type: ignore[override]
            Counted.searches += 1
            return super().rfind(*args)  # type: ignore[arg-type]

    entry = "<url><loc>https://h/1</loc></url>"
    text = Text(Counted("<urlset>\n" + entry * 10_000 + "</urlset>\n"))
    assert text.position(9 + 5_000 * len(entry)) == (2, 5_000 * len(entry) + 1)
    assert text.position(3) == (1, 4)
    assert Counted.searches == 0


@given(
    st.lists(st.text("ab\n", max_size=40), max_size=12).map("".join),
    st.lists(st.tuples(st.integers(0, 30), st.integers(0, 45)), min_size=1, max_size=20),
    st.integers(1, 7),
)
def test_few_look_ups_find_the_lines_the_full_list_finds(
    text: str, places: list[tuple[int, int]], block: int
) -> None:
    """A text with few look-ups finds its lines through counts per block: the same
    offsets and positions as the list of every line's start."""
    import sitemap_lint.fix.locate as locate

    before = locate._BLOCK
    locate._BLOCK = block  # blocks of a few characters: every case crosses several
    try:
        sparse = Text(text)
        full = Text(text)
        full.starts  # noqa: B018 (listed now: ``full`` never counts by block)
        for line, column in places:
            for exact in (False, True):
                assert sparse.offset(line, column, exact) == full.offset(line, column, exact)
            offset = min(line * 3 + column, len(text))
            assert sparse.position(offset) == full.position(offset)
        assert sparse._starts is None  # every look-up above was a sparse one
    finally:
        locate._BLOCK = before


CHILD = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/{name}?a=1&b=2</loc><changefreq>Daily</changefreq></url>
</urlset>
"""
INDEX = """<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/a.xml</loc></sitemap>
  <sitemap><loc>https://example.com/b.xml</loc></sitemap>
</sitemapindex>
"""


def mapped_site(tmp_path: Path) -> tuple[list[str], Path]:
    """An index whose two mapped children have two safe fixes each: the arguments of a
    run on it, and the directory."""
    public = tmp_path / "public"
    public.mkdir()
    (public / "sitemap-index.xml").write_text(INDEX, encoding="utf-8")
    for name in ("a", "b"):
        (public / f"{name}.xml").write_text(CHILD.format(name=name), encoding="utf-8")
    return ["--map", f"https://example.com/={public}", str(public / "sitemap-index.xml")], public


def test_an_index_with_map_counts_what_fix_fixes_in_its_children(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args, public = mapped_site(tmp_path)
    _, out, _ = run(["--no-show-source", *args], capsys)
    assert out.rstrip().endswith("[*] 4 fixable with --fix.")
    _, out, _ = run(["--format", "json", *args], capsys)
    children = json.loads(out)["files"][1:]
    assert [sum("fix" in f for f in child["findings"]) for child in children] == [2, 2]
    status, out, err = run(["--diff", *args], capsys)
    assert status == 1
    assert [line for line in out.splitlines() if line.startswith("--- ")] == [
        f"--- {public / 'a.xml'}",
        f"--- {public / 'b.xml'}",
    ]
    assert err == "Would fix 4 findings in 2 files.\n"
    status, out, err = run(["--fix", "--no-show-source", *args], capsys)
    assert "Fixed 4 findings in 2 files." in err
    assert "[*]" not in out and "XM004" not in out and "VA002" not in out
    for name in ("a", "b"):
        assert "?a=1&amp;b=2</loc><changefreq>daily<" in (public / f"{name}.xml").read_text()


def test_mapped_children_are_fixed_as_served_at_their_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The scope rules know a mapped child's URL: --unsafe-fixes removes what they
    report out of its scope, as the report says it would."""
    args, public = mapped_site(tmp_path)
    (public / "a.xml").write_text(
        CHILD.format(name="a").replace(
            "</urlset>", "  <url><loc>https://example.org/elsewhere</loc></url>\n</urlset>"
        ),
        encoding="utf-8",
    )
    _, out, _ = run(["--no-show-source", "--unsafe-fixes", *args], capsys)
    assert "SC001  [*]" in out and out.rstrip().endswith("[*] 5 fixable with --fix.")
    status, _, err = run(["--diff", "--unsafe-fixes", *args], capsys)
    assert (status, err) == (1, "Would fix 5 findings in 2 files.\n")


@pytest.mark.slow
def test_fetched_sitemaps_count_no_fixes(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    loopback_only: None,  # noqa: F811
) -> None:
    """A fetched file has no file to write: its findings are not marked fixable."""
    with SiteServer() as site:
        base = site.url("/")
        site.routes["/sitemap.xml"] = Route(body=CHILD.format(name="a").encode())
        _, out, _ = run(["--no-show-source", "--timeout", "5", f"{base}sitemap.xml"], capsys)
        assert "XM004" in out and "VA002" in out
        assert "[*]" not in out
        _, out, _ = run(["--format", "json", "--timeout", "5", f"{base}sitemap.xml"], capsys)
        assert all("fix" not in f for f in json.loads(out)["files"][0]["findings"])


_PLAIN = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"  <url><loc>https://example.com/a</loc></url>\n</urlset>\n"
)
SIMPLE_AMP = _PLAIN.replace(b"/a<", b"/a&b<")
SIMPLE_CLEAN_BOM_ONLY = _PLAIN


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"\xef\xbb\xbf" + SIMPLE_AMP, "(and the byte order mark removed)"),
        # The mark is U+FEFF in the diff's first line (which looks the same).
        (b"\xef\xbb\xbf" + SIMPLE_CLEAN_BOM_ONLY, "(and the byte order mark removed)"),
        (
            gzip.compress(b"\xef\xbb\xbf" + SIMPLE_CLEAN_BOM_ONLY, mtime=0),
            "(the same text; the byte order mark removed)",
        ),
        (
            SIMPLE_AMP.replace(b'encoding="UTF-8"', b'encoding="ISO-8859-1"'),
            "(and the file written in UTF-8 instead of ISO-8859-1)",
        ),
        (
            SIMPLE_AMP.replace(b'encoding="UTF-8"', b'encoding="windows-1252"'),
            "(and the file written in UTF-8 instead of windows-1252)",
        ),
    ],
)
def test_diff_says_what_changes_in_the_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, says: str
) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_bytes(data)
    status = main(["check", "--isolated", "--diff", str(path)])
    assert status == 1
    assert says in capsys.readouterr().out
    assert path.read_bytes() == data  # --diff writes nothing


def test_fix_counts_with_thousands_separators_as_the_report_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = "".join(
        f"<url><loc>https://example.com/{n}</loc><changefreq>Daily</changefreq></url>"
        for n in range(1001)
    )
    target = tmp_path / "sitemap.xml"
    target.write_text(
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'
    )
    status = main(["check", "--now", NOW, "--isolated", "--fix", str(target)])
    _out, err = capsys.readouterr()
    assert status == 0
    assert "Fixed 1,001 findings in 1 file." in err


def test_reading_a_file_to_fix_sets_aside_memory_for_its_size_only(tmp_path: Path) -> None:
    import tracemalloc

    from sitemap_lint.fix.engine import MAX_FIX_BYTES, read_source
    from sitemap_lint.inputs.reader import Source

    path = tmp_path / "s.xml"
    path.write_bytes(b"<urlset/>" * 1000)
    tracemalloc.start()
    try:
        data = read_source(Source(str(path), path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert data == path.read_bytes()
    assert peak < MAX_FIX_BYTES // 16


def test_a_file_to_fix_is_read_up_to_one_byte_past_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sitemap_lint.fix import engine
    from sitemap_lint.inputs.reader import Source, read_at_most

    monkeypatch.setattr(engine, "MAX_FIX_BYTES", 10)
    path = tmp_path / "s.xml"
    path.write_bytes(b"0123456789abcdef")
    assert engine.read_source(Source(str(path), path)) == b"0123456789a"
    with path.open("rb") as handle:  # in pieces smaller than the limit
        assert read_at_most(handle, 11, piece_size=3) == b"0123456789a"


LATIN = (
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "  <url>\n"
    "    <loc>https://example.com/caf%C3%A9?a=1&b=2</loc>\n"
    "    <!-- caf\u00e9 cr\u00e8me -->\n"
    "    <changefreq>Daily</changefreq>\n"
    "  </url>\n"
    "</urlset>\n"
)


@pytest.mark.parametrize("flags", [[], ["--ignore", "EN002"]], ids=["to-utf8", "kept"])
@pytest.mark.parametrize("tool", ["patch", "git"])
def test_diff_of_a_file_in_iso_8859_1_applies_to_its_bytes(
    tmp_path: Path,
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
    flags: list[str],
    tool: str,
) -> None:
    """The diff is of the bytes, in the file's encoding: ``patch`` and ``git apply``
    turn the file into what ``--fix`` writes."""
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    original = LATIN.encode("iso-8859-1")
    target = tmp_path / "sitemap.xml"
    target.write_bytes(original)
    monkeypatch.chdir(tmp_path)
    status = main(["--now", NOW, "--isolated", "--diff", *flags, "sitemap.xml"])
    diff = capsysbinary.readouterr().out
    assert status == 1
    assert target.read_bytes() == original
    assert b"    <!-- caf\xe9 cr\xe8me -->\n" in diff  # the file's bytes
    assert (b"+    <!-- caf\xc3\xa9 cr\xc3\xa8me -->\n" in diff) == (not flags)
    main(["--now", NOW, "--isolated", "--fix", *flags, str(target)])
    fixed = target.read_bytes()
    assert fixed != original
    target.write_bytes(original)
    command = ["patch", "-s", "-p0"] if tool == "patch" else ["git", "apply", "-p0", "-"]
    if tool == "git":
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    done = subprocess.run(command, input=diff, cwd=tmp_path, capture_output=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert target.read_bytes() == fixed


@pytest.mark.parametrize("encoding", ["utf-8", "iso-8859-1"])
@pytest.mark.parametrize("tool", ["patch", "git"])
def test_diff_of_a_file_whose_name_holds_a_space_applies(
    tmp_path: Path,
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
    encoding: str,
    tool: str,
) -> None:
    """A tab ends a name holding a space on the ``---`` and ``+++`` lines, as git writes
    it: ``patch`` would read the name up to the space."""
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    original = LATIN.replace("ISO-8859-1", encoding.upper()).encode(encoding)
    target = tmp_path / "my sitemap.xml"
    target.write_bytes(original)
    monkeypatch.chdir(tmp_path)
    assert main(["--now", NOW, "--isolated", "--diff", "my sitemap.xml"]) == 1
    diff = capsysbinary.readouterr().out
    assert diff.startswith(b"--- my sitemap.xml\t\n+++ my sitemap.xml\t\n@@ ")
    main(["--now", NOW, "--isolated", "--fix", "my sitemap.xml"])
    fixed = target.read_bytes()
    target.write_bytes(original)
    command = ["patch", "-s", "-p0"] if tool == "patch" else ["git", "apply", "-p0", "-"]
    if tool == "git":
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    done = subprocess.run(command, input=diff, cwd=tmp_path, capture_output=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert target.read_bytes() == fixed


def test_diff_of_a_file_in_utf16_is_not_shown_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No diff of UTF-16 bytes would apply (``git apply`` reads them as binary): one
    line on stderr says so, and the file still counts as one to fix."""
    target = tmp_path / "wide.xml"
    original = LATIN.replace("ISO-8859-1", "UTF-16").encode("utf-16")
    target.write_bytes(original)
    status, out, err = run(["--diff", str(target)], capsys)
    assert (status, out) == (1, "")
    assert target.read_bytes() == original
    warning, summary = err.splitlines()
    assert warning == (
        f"sitemap-lint: warning: {target}: no diff shown: the file is in UTF-16, and a diff"
        " of its bytes would not apply with patch or git apply; --fix would change it (fix a"
        " copy to see how)"
    )
    assert summary.startswith("Would fix ")


@pytest.mark.skipif(not hasattr(os, "setxattr"), reason="no extended attributes here")
def test_extended_attributes_are_kept(tmp_path: Path, capsys) -> None:
    target = copy(tmp_path, "mixed.xml")
    try:
        os.setxattr(target, "user.origin", b"cms export 7")
    except OSError as error:
        pytest.skip(f"the file system refuses user. attributes: {error.strerror}")
    run(["--fix", str(target)], capsys)
    assert target.read_bytes() == (FIX / "mixed.fixed.xml").read_bytes()
    assert os.getxattr(target, "user.origin") == b"cms export 7"
    assert "user.origin" in os.listxattr(target)


@pytest.mark.skipif(not hasattr(os, "setxattr"), reason="no extended attributes here")
def test_an_acl_is_kept(tmp_path: Path, capsys) -> None:
    """On Linux an ACL is the ``system.posix_acl_access`` attribute: here the file's
    mode 0640 and a line for user 65534 (read), written as ``setfacl -m u:65534:r``
    would write it."""
    import struct

    target = copy(tmp_path, "mixed.xml")
    target.chmod(0o640)
    entries = [(0x01, 6, 0xFFFFFFFF), (0x02, 4, 65534), (0x04, 4, 0xFFFFFFFF)]
    entries += [(0x10, 4, 0xFFFFFFFF), (0x20, 0, 0xFFFFFFFF)]
    acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)
    try:
        os.setxattr(target, "system.posix_acl_access", acl)
    except OSError as error:
        pytest.skip(f"the file system refuses ACLs: {error.strerror}")
    run(["--fix", str(target)], capsys)
    assert target.read_bytes() == (FIX / "mixed.fixed.xml").read_bytes()
    assert os.getxattr(target, "system.posix_acl_access") == acl
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_url_that_encoded_would_be_too_long_is_not_encoded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.xml"
    long_iri = "https://example.com" + "/каталог" * 100  # 800 characters, 4,300 encoded
    text = (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"<url><loc>{long_iri}</loc></url>\n</urlset>\n"
    )
    path.write_text(text, encoding="utf-8")
    _status, out, _err = run(["--fix", "--format", "concise", str(path)], capsys)
    assert path.read_text(encoding="utf-8") == text  # no UR003 made by a fix
    assert "UR011" in out and "shorten it" in out and "UR003" not in out


def test_a_diff_whose_reader_goes_away_still_counts_every_file(tmp_path: Path) -> None:
    """`sitemap-lint --diff ... | true`: the reader is gone before the first diff; the run
    ends with the diff's status and says what it would fix, no internal error."""
    import io

    from sitemap_lint.run import RunSettings, execute

    paths = []
    for name in ("a.xml", "b.xml"):
        path = tmp_path / name
        path.write_text(
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            "<url><loc>https://example.com/</loc><changefreq>Daily</changefreq></url></urlset>"
        )
        paths.append(str(path))

    class Gone(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError

    err = io.StringIO()
    settings = RunSettings(paths=paths, diff=True, now=NOW, isolated=True)
    assert execute(settings, out=Gone(), err=err) == 1
    assert "Would fix 2 findings in 2 files." in err.getvalue()


def test_a_url_escaped_many_times_over_is_unescaped_by_one_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # More levels of escaping than the fixer makes passes: one fix takes them all.
    levels = "amp;" * 20
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"  <url><loc>https://example.com/a?x=1&{levels}y=2&amp;amp;lt;</loc></url>\n"
        "</urlset>\n"
    )
    status, _out, err = run(["--fix", "--unsafe-fixes", str(target)], capsys)
    assert status == 0
    assert "<loc>https://example.com/a?x=1&amp;y=2%3C</loc>" in target.read_text()
    assert "Fixed 1 finding in 1 file." in err
    status, out, _err = run(["--diff", "--unsafe-fixes", str(target)], capsys)
    assert (status, out) == (0, "")


def test_no_fix_and_no_unsafe_fixes_override_the_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "sitemap-lint.toml"
    config.write_text("fix = true\nunsafe-fixes = true\n")
    target = copy(tmp_path, "priorities.xml")
    before = target.read_bytes()
    status = main(["--now", NOW, "--config", str(config), "--no-fix", str(target)])
    out, _err = capsys.readouterr()
    assert status == 1
    assert target.read_bytes() == before
    assert "hidden" not in out  # the unsafe fixes count as fixable: the file says so
    status = main(
        [
            "--now",
            NOW,
            "--config",
            str(config),
            "--no-unsafe-fixes",
            "--no-show-source",
            str(target),
        ]
    )
    out, _err = capsys.readouterr()
    assert target.read_bytes() == expected("priorities.xml", unsafe=False)
    assert "hidden fixes can be enabled with --unsafe-fixes" in out


def test_the_reports_say_that_a_fix_re_encodes_the_file(capsys) -> None:
    # Applying the declaration's new name alone would leave ISO-8859-1 bytes under it.
    _, out, _ = run(["--format", "json", str(FIX / "latin1.xml")], capsys)
    (finding,) = [f for f in json.loads(out)["files"][0]["findings"] if f["code"] == "EN002"]
    assert [edit.get("target") for edit in finding["fix"]["edits"]] == [None, "encoding"]
    _, out, _ = run(["--format", "sarif", str(FIX / "latin1.xml")], capsys)
    (result,) = [r for r in json.loads(out)["runs"][0]["results"] if r["ruleId"] == "EN002"]
    assert "fixes" not in result


def test_quoting_a_bare_value_before_a_slash_is_unsafe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "/>" ends the empty element, or the "/" ends the URL (/de/ is not /de): a guess.
    target = tmp_path / "sitemap.xml"
    original = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        "  <url><loc>https://example.com/en/</loc>"
        '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>'
        '<xhtml:link rel="alternate" hreflang="de" href=https://example.com/de/></url>\n'
        "</urlset>\n"
    )
    target.write_text(original)
    run(["--fix", str(target)], capsys)
    assert target.read_text() == original
    run(["--fix", "--unsafe-fixes", str(target)], capsys)
    assert 'href="https://example.com/de"/></url>' in target.read_text()


# -- whether --fix reads a file, found without holding it -------------------------------


def _gzipped(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


_URLSET = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"<url><loc>https://example.com/</loc><changefreq>Daily</changefreq></url>\n</urlset>\n"
)
_LATIN1 = _URLSET.replace(b"UTF-8", b"ISO-8859-1").replace(b".com/", b".com/\xe9")


@pytest.mark.parametrize(
    "data",
    [
        b"",
        _URLSET,
        codecs.BOM_UTF8 + _URLSET,
        codecs.BOM_UTF8,
        codecs.BOM_UTF16_LE + _URLSET.replace(b"UTF-8", b"UTF-16").decode().encode("utf-16-le"),
        _URLSET.replace(b"UTF-8", b"UTF-16").decode().encode("utf-16"),
        _LATIN1,
        _URLSET.replace(b".com/", b".com/\xff"),  # invalid in UTF-8
        _URLSET.replace(b"\n", b"\r\n"),
        _gzipped(_URLSET),
        _gzipped(_URLSET) + _gzipped(_URLSET),
        _gzipped(_URLSET)[:-12],  # truncated
        _gzipped(_URLSET) + b"junk",
        _gzipped(_URLSET) + b"\x00\x00",
        _gzipped(_URLSET * 300),
    ],
)
def test_a_file_decodes_a_piece_at_a_time_as_it_decodes_whole(tmp_path: Path, data: bytes) -> None:
    from sitemap_lint.fix.engine import decode, decodes, read_source
    from sitemap_lint.inputs.reader import Source

    path = tmp_path / "s.xml"
    path.write_bytes(data)
    source = Source(str(path), path)
    whole = not isinstance(decode(read_source(source)), str)
    assert decodes(source) is whole
    assert decodes(Source("-", None, data=data)) is whole


@pytest.mark.parametrize("gzipped", [False, True])
def test_a_file_past_the_fix_limit_is_not_decoded_in_pieces_either(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gzipped: bool
) -> None:
    from sitemap_lint.fix import engine
    from sitemap_lint.inputs.reader import Source

    path = tmp_path / "s.xml"
    path.write_bytes(_gzipped(_URLSET * 50) if gzipped else _URLSET * 50)
    source = Source(str(path), path)
    assert engine.decodes(source)
    monkeypatch.setattr(engine, "MAX_FIX_BYTES", len(_URLSET) * 49)
    assert isinstance(engine.decode(engine.read_source(source)), str)
    assert not engine.decodes(source)


def test_a_report_counts_exact_fixes_without_decoding_the_whole_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A gzip file whose fixes are all exact already (the fast path's): whether --fix
    reads it is found a piece at a time, its text never decoded whole; the fixable
    count is what --fix fixes."""
    from sitemap_lint.fix import engine
    from sitemap_lint.fix.runner import resolved
    from sitemap_lint.inputs.reader import Source
    from tests.helpers import lint

    entries = "".join(
        f"<url><loc>https://example.com/{n}</loc><changefreq>Daily</changefreq></url>\n"
        for n in range(3_000)
    )
    path = tmp_path / "big.xml.gz"
    path.write_bytes(_gzipped(_URLSET.replace(_URLSET.split(b"\n")[2], entries.encode())))
    result = lint(path)
    assert len(result.findings) == 3_000
    assert all(f.fix is not None and f.fix.exact for f in result.findings)

    def whole(raw: bytes) -> object:
        raise AssertionError("the whole text decoded")

    monkeypatch.setattr(engine, "decode", whole)
    (placed,) = resolved([result], {result.name: Source(str(path), path)})
    assert sum(f.fix is not None for f in placed.findings) == 3_000


def test_whether_a_large_file_decodes_is_found_in_little_memory(tmp_path: Path) -> None:
    import tracemalloc

    from sitemap_lint.fix.engine import decodes
    from sitemap_lint.inputs.reader import Source

    data = _URLSET.replace(b"</urlset>", b"<!-- padding -->\n" * 400_000 + b"</urlset>")
    path = tmp_path / "big.xml.gz"
    path.write_bytes(_gzipped(data))
    source = Source(str(path), path)
    assert decodes(Source("-", None, data=_URLSET))  # its modules imported
    tracemalloc.start()
    try:
        assert decodes(source)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < len(data) // 4


@pytest.mark.parametrize("split", [1, 2, 7, 1 << 20])
@pytest.mark.parametrize(
    "text", ["", "a", "\n", "a\n", "\nb", "ab\ncd\n\nef", "xyz\n\n\n\n\n", "é\n€\n\U0001f600\nz"]
)
def test_line_starts_found_a_piece_of_the_text_at_a_time_are_every_line_start(
    text: str, split: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sitemap_lint.fix import locate

    monkeypatch.setattr(locate, "_SPLIT", split)
    expected = [0] + [at + 1 for at, char in enumerate(text) if char == "\n"]
    assert list(locate.Text(text).starts) == expected


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        (
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n<url><loc>https://example.com/?a=1&amp;b=2</loc>\n'
            '<xhtml:link rel="alternate" hreflang="en" href=" https://example.com/?a=1&amp;b=2\t"/>'
            "\n</url>\n</urlset>\n",
            '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/?a=1&amp;b=2"/>',
        ),
        (
            '<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>urn:x</id>'
            "<updated>2024-01-01T00:00:00Z</updated><entry><title>a</title><id>urn:a</id>"
            "<updated>2024-01-01T00:00:00Z</updated><link href=' https://example.com/a '/>"
            "</entry></feed>\n",
            "<link href='https://example.com/a'/>",
        ),
    ],
    ids=["xhtml-link", "atom-link"],
)
def test_whitespace_around_an_href_is_fixed_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fixed: str
) -> None:
    # The message says what to write; the count of fixable findings is what --fix removes.
    target = tmp_path / "sitemap.xml"
    target.write_text(text)
    _, out, _ = run(["--no-show-source", str(target)], capsys)
    assert "UR005  [*]" in out and "[*] 1 fixable with --fix." in out
    status, out, err = run(["--fix", "--no-show-source", str(target)], capsys)
    assert status == 0 and fixed in target.read_text()
    assert "UR005" not in out and "Fixed 1 finding in 1 file." in err


def test_a_text_file_checked_only_in_part_is_fixed_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Past the findings cap (TX005) the lines are only counted: once fixed, they are
    # checked, and their findings (which no fix touches) are no new ones.
    from sitemap_lint.rules import text as text_rules

    monkeypatch.setattr(text_rules, "MAX_FINDINGS", 40)
    target = tmp_path / "sitemap.txt"
    target.write_text("".join(f" https://example.com/{n}#top\n" for n in range(30)))
    _, out, _ = run(["--no-show-source", str(target)], capsys)
    assert "TX005" in out and "TX003  [*]" in out
    status, out, err = run(["--fix", "--no-show-source", str(target)], capsys)
    assert status == 0  # the fragments left (UR008) are warnings
    assert target.read_text() == "".join(f"https://example.com/{n}#top\n" for n in range(30))
    assert "FX001" not in out and "TX003" not in out and out.count("UR008") == 30
    assert "Fixed 30 findings in 1 file." in err  # the last ten in a second pass


def test_a_url_in_an_href_with_a_raw_less_than_counts_its_other_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The check reads the raw '<' as its fix writes it (%3C) and reports the '>' too:
    # that fix fits the file, and the count of fixable findings is what --fix removes.
    target = tmp_path / "sitemap.xml"
    target.write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        "<url><loc>https://example.com/de?a%3Cb%3Ec</loc>\n"
        '<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de?a<b>c"/>\n'
        '<xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/de?a%3Cb%3Ec"/>\n'
        "</url>\n</urlset>\n"
    )
    _, out, _ = run(["--no-show-source", str(target)], capsys)
    assert "UR006  [*]" in out and "[*] 2 fixable with --fix." in out
    status, out, _ = run(["--fix", "--no-show-source", str(target)], capsys)
    assert 'hreflang="de" href="https://example.com/de?a%3Cb%3Ec"' in target.read_text()
    assert (status, out.rstrip().splitlines()[-1]) == (
        0,
        "1 file checked (1 URL): no problems found",
    )
