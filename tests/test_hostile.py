"""Hostile and broken inputs, each through the real command line in its own process.

The inputs are generated into ``tmp_path`` by ``tests/hostile_inputs.py`` (the
same generators feed ``bench/hostile.py``, which measures time and memory).
Each run must end with either

- exit 1 (exit 0 where the only finding is a warning, as for IN003), a JSON
  report that parses, at least one finding, every code registered, and the
  codes the case expects; or
- exit 2 with exactly one stderr line ``sitemap-lint: error: ...``;

and never a traceback. The 60 s timeout is a hang guard only; times are not
asserted (see the bench script for them). The peak memory (VmHWM, reported by
``tests/peak/sitecustomize.py``) must stay under 400 MB. The external entities
and DTDs point at a socket listening on localhost, which must see no
connection, even one made from C by libxml2.

Non-regular files (decided here, implemented in ``sitemap_lint.inputs.reader``):
opening a FIFO that has no writer blocks forever, and a device such as
/dev/zero never ends, so a path that is not a regular file (FIFO, pipe,
character or block device, socket) is refused with exit 2 and a one-line
message pointing to ``-``: a stream is checked through standard input. The file
is opened with O_NONBLOCK and checked with fstat after opening, so the refusal
cannot block and cannot be raced. This also refuses process substitution
(``sitemap-lint <(zcat x.gz)``); ``zcat x.gz | sitemap-lint -`` does the same.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint.finding import Finding
from sitemap_lint.rules import RULES
from tests.hostile_inputs import CASES, Case, network_trap, sitemap_text

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev are POSIX"),
]

CLI = [sys.executable, "-m", "sitemap_lint", "--format", "json"]
HANG_GUARD = 60  # seconds; a guard against hangs, not a time limit
ENTITY_CASES = {
    "billion laughs",
    "quadratic blow-up",
    "external entity file:///etc/passwd",
    "external entity http://",
    "parameter entities",
    "external DTD over http",
}

PEAK_LIMIT_MB = 400  # "a few hundred MB"


class PeakMemoryExceeded(AssertionError):
    pass


def _params() -> list:
    return [pytest.param(case, id=case.name) for case in CASES]


PEAK_REPORTER = Path(__file__).parent / "peak"  # sitecustomize.py: VmHWM at exit


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    peak_mb: float | None  # the process's VmHWM (Linux), None where unknown


def run_cli(path: Path, *options: str) -> Run:
    """The CLI in a subprocess; raises TimeoutExpired after the hang guard."""
    with (
        tempfile.TemporaryDirectory() as scratch,
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
    ):
        peak_file = Path(scratch, "peak")
        python_path = os.pathsep.join(
            filter(None, [str(PEAK_REPORTER), os.environ.get("PYTHONPATH")])
        )
        env = {**os.environ, "PYTHONPATH": python_path, "SITEMAP_LINT_PEAK_FILE": str(peak_file)}
        process = subprocess.Popen(
            [*CLI, *options, str(path)], stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env
        )
        try:
            process.wait(HANG_GUARD)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
        out.seek(0)
        err.seek(0)
        peak = int(peak_file.read_text()) / 1024 if peak_file.exists() else None
        return Run(
            process.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            peak,
        )


def assert_handled(case: Case, result: Run) -> list[dict]:
    """The exit-status contract; returns the findings (empty for exit 2)."""
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    if case.status == 2:
        assert result.returncode == 2, (result.returncode, result.stdout[:500])
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("sitemap-lint: error: "), lines[0]
        assert case.message in lines[0], lines[0]
        assert result.stdout == ""
        return []
    assert result.returncode == case.status, (result.returncode, result.stderr[-500:])
    assert result.stderr == ""
    document = json.loads(result.stdout)
    findings = [f for file in document["files"] for f in file["findings"]]
    assert findings, "no finding"
    codes = {f["code"] for f in findings}
    assert codes <= RULES.keys(), codes - RULES.keys()
    assert set(case.codes) <= codes, (case.codes, sorted(codes))
    for finding in findings:
        assert finding["line"] >= 1 and finding["column"] >= 1, finding
    errors = sum(f["severity"] == "error" for f in findings)
    assert (errors > 0) == (case.status == 1)
    return findings


@pytest.mark.parametrize("case", _params())
def test_hostile_input_is_handled(case: Case, tmp_path: Path) -> None:
    with network_trap() as (trap, connections):
        path = case.make(tmp_path, trap)
        result = run_cli(path)
        assert connections() == 0, "the tool connected to the URL in the document"
    findings = assert_handled(case, result)
    if case.name in ENTITY_CASES:
        # Reported, not expanded: the report stays small and quotes no file.
        assert len(result.stdout) < 10_000
        passwd = Path("/etc/passwd")
        if passwd.is_file():
            first_line = passwd.read_text(errors="replace").partition("\n")[0]
            assert not first_line or first_line not in result.stdout
        assert [f["code"] for f in findings].count("XM003") == 1
    extra = EXTRA_CHECKS.get(case.name)
    if extra is not None:
        extra(path, findings)
    if result.peak_mb is not None and result.peak_mb > PEAK_LIMIT_MB:
        raise PeakMemoryExceeded(f"peak {result.peak_mb:.0f} MB > {PEAK_LIMIT_MB} MB")


def _long_line_column(path: Path, findings: list[dict]) -> None:
    """A finding 30 MB into one line points at the exact column."""
    with open(path, "rb") as handle:
        handle.seek(-200, os.SEEK_END)
        tail = handle.read()
    column = path.stat().st_size - len(tail) + tail.index(b"<loc>/relative") + 1
    relative = [(f["line"], f["column"]) for f in findings if f["code"] == "UR001"]
    assert relative == [(1, column)]


def _gzip_readable_part_checked(_path: Path, findings: list[dict]) -> None:
    [corrupt] = [f for f in findings if f["code"] == "IN004"]
    assert "only those bytes were checked" in corrupt["message"]
    # The duplicate near the start was found in what could be read, and the cut
    # is not reported again as a truncated document.
    assert "XM008" not in {f["code"] for f in findings}


def _truncated_document(_path: Path, findings: list[dict]) -> None:
    codes = [f["code"] for f in findings]
    assert codes.count("DU001") == 1 and codes[-1] == "XM008"


EXTRA_CHECKS = {
    "one line of 30 MB": _long_line_column,
    "truncated gzip": _gzip_readable_part_checked,
    "corrupt gzip (bad deflate block)": _gzip_readable_part_checked,
    "truncated document": _truncated_document,
}


def test_fifo_is_refused_even_with_a_writer(tmp_path: Path) -> None:
    """The decision does not depend on timing: a FIFO path is refused also when a
    writer is waiting with data (use '-' for a stream)."""
    fifo = tmp_path / "sitemap.xml"
    os.mkfifo(fifo)

    def writer() -> None:
        # open() blocks until some reader opens the FIFO.
        with contextlib.suppress(BrokenPipeError), open(fifo, "wb") as out:
            out.write(sitemap_text(2).encode())

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    result = run_cli(fifo)
    # Release the writer, whether or not the tool opened the FIFO.
    descriptor = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    thread.join(HANG_GUARD)
    os.close(descriptor)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("sitemap-lint: error: ")
    assert "not a regular file" in result.stderr and "'-'" in result.stderr


def test_stdin_still_reads_a_pipe() -> None:
    """The refusal of non-regular paths leaves '-' (a pipe) working."""
    data = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/a</loc></url></urlset>'
    result = subprocess.run(
        [*CLI, "-"], input=data, capture_output=True, timeout=HANG_GUARD, check=False
    )
    assert result.returncode == 1
    assert [f["code"] for f in json.loads(result.stdout)["files"][0]["findings"]] == ["UR001"]


class LongStream(io.RawIOBase):
    """``size`` bytes made as they are read: a urlset's start tag, then spaces."""

    HEAD = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'

    def __init__(self, size: int) -> None:
        self.size = size
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = min(len(buffer), self.size - self.taken)
        view = memoryview(buffer)[:count]
        view[:] = b" " * count
        head = self.HEAD[self.taken : self.taken + count]
        view[: len(head)] = head
        self.taken += count
        return count


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_long_standard_input_is_held_no_further_than_it_is_checked(
    monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """The reader checks the first READ_CAP bytes of a stream: standard input is held
    in memory (for the source lines and the fixes) only a little beyond them, whatever
    its length, in every format."""
    from io import StringIO

    from sitemap_lint.inputs.reader import READ_CAP
    from sitemap_lint.run import RunSettings, execute

    stream = LongStream(3 * READ_CAP)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(stream)))
    out = StringIO()
    settings = RunSettings(paths=["-"], format=fmt, isolated=True, color="never")
    assert execute(settings, out=out, err=StringIO()) == 1
    assert "LM002" in out.getvalue()  # larger than the protocol's limit, checked as far
    assert stream.taken <= READ_CAP + 2 * 1024 * 1024


# -- the decoder on invalid bytes (in-process) ------------------------------------------


def _checked(data: bytes) -> list[Finding]:
    """The findings of a whole check of ``data`` (the prolog checks read the declaration)."""
    from sitemap_lint.engine.checker import check_source
    from sitemap_lint.inputs.reader import Source
    from sitemap_lint.settings.options import Options
    from tests.helpers import NOW, engine

    return check_source(Source("hostile.xml", None, data=data), Options(now=NOW), engine()).findings


def _decode(data: bytes, size: int = 1 << 16):
    from sitemap_lint.engine.dispatch import InputChecks
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.inputs.decoding import Decoder

    findings = FindingList()
    chunks = [data[i : i + size] for i in range(0, len(data), size)]
    text = "".join(Decoder(InputChecks(findings)).decode(chunks))
    return text, [(f.code, f.line, f.column) for f in findings]


@pytest.mark.parametrize(
    ("data", "size", "expected"),
    [
        # LF, CR LF and CR alone each end a line, as in XML (and expat).
        (b"<a>\n  x\xffy</a>", 1 << 16, [("EN001", 2, 4)]),
        (b"<a>\r\n  x\xffy</a>", 1 << 16, [("EN001", 2, 4)]),
        (b"<a>\r  x\xffy</a>", 1 << 16, [("EN001", 2, 4)]),
        # A CR LF split between chunks is one line break.
        (b"<a>\r\n\xff</a>", 4, [("EN001", 2, 1)]),
        # A line that began in an earlier chunk: the column counts from its start.
        (b"<a>" + b"x" * 70_000 + b"\xff</a>", 1 << 16, [("EN001", 1, 70_004)]),
        # A multi-byte character split between chunks is not invalid.
        (b"<a>" + "\u20ac".encode() * 30_000 + b"\xff</a>", 1 << 16, [("EN001", 1, 30_004)]),
    ],
)
def test_invalid_bytes_are_located(data: bytes, size: int, expected: list) -> None:
    _text, found = _decode(data, size)
    assert found == expected


@pytest.mark.parametrize("seed", range(20))
def test_invalid_bytes_are_located_after_any_line_breaks(seed: int) -> None:
    # Line breaks of every kind (CR LF, CR alone, LF, CR LF split between chunks):
    # the invalid byte's line is the one expat counts.
    import random

    rng = random.Random(seed)
    pieces = [rng.choice([b"\r\n", b"\r", b"\n", b"x", b"\r\r\n", b"\n\r"]) for _ in range(60)]
    text = b"<a>" + b"".join(pieces)
    data = text + b"\xff</a>"
    decoded = text.decode()
    line = decoded.count("\n") + decoded.count("\r") - decoded.count("\r\n") + 1
    _text, found = _decode(data, rng.choice([3, 4, 7, 1 << 16]))
    assert [(code, at) for code, at, _column in found] == [("EN001", line)]


def test_split_character_in_a_declared_multibyte_encoding() -> None:
    """Shift_JIS: a two-byte character cut by a chunk boundary stays one character,
    even in a chunk where another byte is invalid."""
    head = b'<?xml version="1.0" encoding="shift_jis"?><a>'
    assert len(head) % 2 == 1  # so that the chunk boundary cuts a character
    character = "\u3042".encode("shift_jis")
    data = head + character * 40_000 + b"\xff</a>"
    text, found = _decode(data)
    assert text.count("\u3042") == 40_000
    assert [code for code, _line, _column in found] == ["EN001"]  # the prolog's: EN002
    assert [f.code for f in _checked(data) if f.code.startswith("EN")] == ["EN002", "EN001"]


def test_a_run_of_invalid_bytes_is_one_finding() -> None:
    """One finding for the line; every byte is replaced so that parsing goes on. (The
    30 MB case above guards the cost: it used to take minutes, quadratic per chunk.)"""
    text, found = _decode(b"<a>" + b"\xff" * (1 << 20) + b"</a>")
    assert found == [("EN001", 1, 4)]
    assert text == "<a>" + "\ufffd" * (1 << 20) + "</a>"


def test_an_endless_encoding_name_is_reported_and_shortened() -> None:
    """A declared encoding whose name runs past the sniffed head (5 MB of it) was
    silently accepted; now it is EN002, quoting the first 40 characters."""
    data = b'<?xml version="1.0" encoding="' + b"x" * (5 << 20) + b'"?>\n<a/>'
    findings = [f for f in _checked(data) if f.code.startswith("EN")]
    assert [f.code for f in findings] == ["EN002"]
    assert len(findings[0].message) < 200


# -- long values are quoted shortly in messages (in-process) ---------------------------

_BIG = "x" * (1 << 20)
_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
_LOC = "<loc>https://example.com/page</loc>"
_IMAGE = ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
_VIDEO = ' xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
MESSAGE_LIMIT = 1000  # characters; a message quotes a value, it does not reproduce it

# (document, None): every long value must be quoted shortly
LONG_VALUES = {
    "relative loc": (f"{_HEAD}><url><loc>/{_BIG}</loc></url></urlset>", None),
    "scheme": (f"{_HEAD}><url><loc>{_BIG}:/a</loc></url></urlset>", None),
    "non-ASCII loc": (
        f"{_HEAD}><url><loc>https://example.com/{'é' * 5000}</loc></url></urlset>",
        None,
    ),
    "host": (f"{_HEAD}><url><loc>https://{_BIG}/</loc></url></urlset>", None),
    "lastmod": (f"{_HEAD}><url>{_LOC}<lastmod>{_BIG}</lastmod></url></urlset>", None),
    "changefreq": (f"{_HEAD}><url>{_LOC}<changefreq>{_BIG}</changefreq></url></urlset>", None),
    "priority": (f"{_HEAD}><url>{_LOC}<priority>{_BIG}</priority></url></urlset>", None),
    "element name": (f"{_HEAD}><url>{_LOC}<{_BIG}/></url></urlset>", None),
    "attribute": (f'{_HEAD}><url {_BIG}="1">{_LOC}</url></urlset>', None),
    "root name": (f'<{_BIG} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>', None),
    "root namespace": (f'<urlset xmlns="urn:{_BIG}"><url>{_LOC}</url></urlset>', None),
    "extension namespace": (f'{_HEAD}><url>{_LOC}<p:x xmlns:p="urn:{_BIG}"/></url></urlset>', None),
    "DOCTYPE name": (f"<!DOCTYPE {_BIG}>{_HEAD[39:]}><url>{_LOC}</url></urlset>", None),
    "entity": (f"{_HEAD}><url><loc>https://example.com/&{_BIG};</loc></url></urlset>", None),
    "raw ampersand": (f"{_HEAD}><url><loc>https://e.com/{_BIG}&{_BIG}</loc></url></urlset>", None),
    "text in root": (f"{_HEAD}>{_BIG}<url>{_LOC}</url></urlset>", None),
    "after root": (f"{_HEAD}><url>{_LOC}</url></urlset>{_BIG}", None),
    "not XML": (_BIG, None),
    "image loc": (
        f"{_HEAD}{_IMAGE}><url>{_LOC}<image:image><image:loc>/{_BIG}</image:loc>"
        "</image:image></url></urlset>",
        None,
    ),
    "video values": (
        f"{_HEAD}{_VIDEO}><url>{_LOC}<video:video><video:title>t</video:title>"
        f"<video:duration>{_BIG}</video:duration><video:rating>{_BIG}</video:rating>"
        "</video:video></url></urlset>",
        None,
    ),
}


def _long_value_params() -> list:
    params = []
    for name, (document, bug) in LONG_VALUES.items():
        marks = []
        if bug:
            reason = f"{bug}: the message quotes the whole value, however long"
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        params.append(pytest.param(document, id=name, marks=marks))
    return params


@pytest.mark.parametrize("document", _long_value_params())
def test_messages_quote_long_values_shortly(document: str, tmp_path: Path) -> None:
    from tests.helpers import lint

    path = tmp_path / "sitemap.xml"
    path.write_text(document, encoding="utf-8")
    findings = lint(path).findings
    assert findings
    assert [len(f.message) for f in findings if len(f.message) > MESSAGE_LIMIT] == []


# -- an encoding declared that the bytes are not in (in-process) ------------------------

_SITEMAP_IN = (
    '<?xml version="1.0" encoding="{encoding}"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "{entries}"
    "  <url><loc>https://example.com/caf\u00e9</loc></url>\n"
    "</urlset>\n"
)
_ASCII_ENTRIES = "".join(
    f"  <url><loc>https://example.com/page-{i}</loc></url>\n" for i in range(5000)
)


def _utf8_under(encoding: str, entries: str = "") -> bytes:
    return _SITEMAP_IN.format(encoding=encoding, entries=entries).encode("utf-8")


@pytest.mark.parametrize("entries", ["", _ASCII_ENTRIES], ids=["near", "past 200 KB"])
@pytest.mark.parametrize("encoding", ["ISO-8859-1", "windows-1252", "KOI8-R"])
def test_utf8_bytes_under_a_single_byte_declaration_are_read_as_utf8(
    encoding: str, entries: str
) -> None:
    """A file saved as UTF-8 under encoding="ISO-8859-1" was read as ISO-8859-1: its
    'é' became 'Ã©', the URL rules suggested that mojibake, and EN002 said to convert
    the file. Its non-ASCII bytes decode as UTF-8: it is read as UTF-8."""
    findings = _checked(_utf8_under(encoding, entries))
    [declared] = [f for f in findings if f.code == "EN002"]
    if not entries:  # settled before the prolog's checks run: said in the message
        assert "the bytes are UTF-8" in declared.message
    [unencoded] = [f for f in findings if f.code == "UR011"]
    assert "https://example.com/caf%C3%A9" in unencoded.message
    assert "EN001" not in {f.code for f in findings}


@pytest.mark.parametrize("entries", ["", _ASCII_ENTRIES], ids=["near", "past 200 KB"])
def test_the_fix_of_utf8_bytes_under_a_single_byte_declaration_keeps_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], entries: str
) -> None:
    """--fix converted the bytes from ISO-8859-1 to UTF-8 (a safe fix garbling every
    non-ASCII character); now only the declaration changes, and the reports count the
    file as fixable, as --fix finds it."""
    from sitemap_lint.cli import main
    from sitemap_lint.fix.engine import decodes
    from sitemap_lint.inputs.reader import Source

    data = _utf8_under("ISO-8859-1", entries)
    path = tmp_path / "sitemap.xml"
    path.write_bytes(data)
    assert decodes(Source(str(path), path))
    assert main(["--isolated", "--fix", "--select", "EN002", str(path)]) == 0
    capsys.readouterr()
    assert path.read_bytes() == data.replace(b"ISO-8859-1", b"UTF-8", 1)


def test_whether_the_bytes_are_utf8_does_not_depend_on_how_they_are_cut() -> None:
    data = _utf8_under("ISO-8859-1", _ASCII_ENTRIES[:3000]) + "\u00e8".encode() * 3000
    texts = {_decode(data, size)[0] for size in (3, 100, 1000, 1500, 1 << 16, len(data))}
    assert len(texts) == 1
    assert "caf\u00e9" in texts.pop()


def test_text_in_a_declared_single_byte_encoding_is_still_read_in_it() -> None:
    data = _SITEMAP_IN.format(encoding="ISO-8859-1", entries="").encode("iso-8859-1")
    findings = _checked(data)
    [declared] = [f for f in findings if f.code == "EN002"]
    assert "the bytes are UTF-8" not in declared.message
    [unencoded] = [f for f in findings if f.code == "UR011"]
    assert "https://example.com/caf%C3%A9" in unencoded.message
    assert "EN001" not in {f.code for f in findings}


@pytest.mark.parametrize("encoding", ["unicode_escape", "raw_unicode_escape", "idna"])
def test_python_codecs_that_are_no_character_set_are_not_decoded_with(encoding: str) -> None:
    """encoding="unicode_escape" decoded the file with Python's escape codec: '\\n' in
    a URL became a line break (every line after it counted one too many), '\\u0041' an
    'A', '\\b' a control character XM001 reported where the file has none. Such a name
    is now read as an unknown one: the file as UTF-8."""
    body = (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/a\\u0041\\n\\b</loc></url>\n"
        "  <url><loc>/relative</loc></url>\n"
        "</urlset>\n"
    )

    def found(name: str) -> list[tuple[str, int, int, str]]:
        data = f'<?xml version="1.0" encoding="{name}"?>\n{body}'.encode()
        return [(f.code, f.line, f.column, f.message.replace(name, "NAME")) for f in _checked(data)]

    findings = found(encoding)
    assert findings == found("no-such-encoding")
    assert ("UR001", 4, 8) in [finding[:3] for finding in findings]


def test_xml_in_ebcdic_is_named() -> None:
    """An XML declaration in EBCDIC's bytes was 'binary data'; IN006 now names EBCDIC."""
    data = _SITEMAP_IN.format(encoding="IBM037", entries="").encode("cp037")
    findings = _checked(data)
    assert [f.code for f in findings] == ["IN006"]
    assert "EBCDIC" in findings[0].message and "iconv" in findings[0].message


@pytest.mark.parametrize("engine_name", ["libxml2", "xmlschema"])
@pytest.mark.parametrize("references", ["&#0;b&#1;", "&#xD83D;&#xDE00;", "&#x110000;b&#xFFFE;"])
def test_refused_character_references_are_reported_once_each(
    engine_name: str, references: str
) -> None:
    """Two character references XML does not allow in one loc (a surrogate pair, NUL,
    past U+10FFFF) were XM001 each and an XS001 too: the schema read the loc as written,
    whose two '#' are no URI. XM001 says it all."""
    from sitemap_lint.engine.checker import check_source
    from sitemap_lint.inputs.reader import Source
    from sitemap_lint.settings.options import Options
    from tests.helpers import NOW, engine

    data = (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"  <url><loc>https://example.com/a{references}c</loc></url>\n"
        "</urlset>\n"
    ).encode()
    source = Source("hostile.xml", None, data=data)
    findings = check_source(source, Options(now=NOW), engine(engine_name)).findings
    assert [(f.code, f.line) for f in findings] == [("XM001", 2), ("XM001", 2)]
