"""Input family: empty files, HTML pages, gzip and other compressions."""

import pytest

from sitemap_lint.rules import input
from tests.helpers import RULE_FIXTURES, lint

# The duplicate <loc> of the *-duplicate fixtures: a second defect, placed before the
# damage on purpose, to show that what was read before it is still checked.
DUPLICATE = (("DU001", 16),)


# Cases that fail because of a bug outside this family's modules (see the reasons).


def messages(code: str, fixture: str) -> list[str]:
    return [f.message for f in lint(RULE_FIXTURES / code / fixture).findings]


def test_whitespace_only_file_is_not_called_empty() -> None:
    [message] = messages("IN001", "fail-whitespace.xml")
    assert "whitespace" in message


def test_empty_file_messages() -> None:
    assert "0 bytes" in input.empty_file(False).message
    assert "only whitespace" in input.empty_file(True).message


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [("fail.xml.gz", "drop the .gz suffix"), ("fail-gzip-content.xml", "add the .gz suffix")],
)
def test_gzip_name_mismatch_says_which_way(fixture: str, expected: str) -> None:
    [message] = messages("IN003", fixture)
    assert expected in message


def test_gzip_data_in_a_robots_txt_is_to_be_stored_uncompressed(tmp_path) -> None:
    import gzip

    path = tmp_path / "robots.txt"
    path.write_bytes(gzip.compress(b"User-agent: *\nSitemap: https://example.com/s.xml\n"))
    [finding] = lint(path).findings
    assert finding.code == "IN003"
    assert "store it uncompressed" in finding.message
    assert ".gz suffix" not in finding.message


def test_truncated_gzip_says_how_much_was_checked() -> None:
    [message] = messages("IN004", "fail.xml.gz")
    assert "truncated" in message
    assert "after 1,649 bytes of content" in message


def test_corrupt_gzip_names_the_cause_without_zlib_noise() -> None:
    [message] = messages("IN004", "fail-corrupt.xml.gz")
    assert "(invalid block type)" in message
    assert "Error -3" not in message


def test_gzip_corrupt_message_translates_zlib_reasons() -> None:
    finding = input.gzip_corrupt("Error -3 while decompressing data: incorrect data check", 10)
    assert "CRC-32 checksum mismatch" in finding.message
    assert "after 10 bytes" in finding.message


@pytest.mark.parametrize(
    ("fixture", "kind"), [("fail.bin", "zip"), ("fail-bzip2.bin", "bzip2"), ("fail-xz.bin", "xz")]
)
def test_unsupported_compression_names_the_format(fixture: str, kind: str) -> None:
    [message] = messages("IN005", fixture)
    assert f"{kind}-compressed" in message
    assert "decompress it, and serve it plain or compressed with gzip" in message
