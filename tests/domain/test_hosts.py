"""domain.hosts: internationalized host names as browsers encode them (UTS #46, IDNA 2008)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.domain.hosts import (
    ALabelFault,
    AsciiHost,
    HostFault,
    alabel_fault,
    ip_host,
    ipv4_fault,
    ipv6_fault,
    plain_host,
    to_ascii,
)
from tests.helpers import lint


@pytest.mark.parametrize(
    ("host", "ascii_host"),
    [
        ("faß.de", "xn--fa-hia.de"),
        ("FAß.DE", "xn--fa-hia.de"),
        ("faß.de.", "xn--fa-hia.de."),  # the trailing dot is kept; callers drop it
        ("βόλος.com", "xn--nxasmm1c.com"),
        ("münchen.de", "xn--mnchen-3ya.de"),
        ("\u0915\u094d\u200d\u0937.com", "xn--11b2ezcw70k.com"),  # ZWJ after a virama
    ],
)
def test_to_ascii(host: str, ascii_host: str) -> None:
    assert to_ascii(host) == AsciiHost(ascii_host, None)


@pytest.mark.parametrize(
    ("host", "kind", "label", "char"),
    [
        ("☃.com", "codepoint", "☃", "☃"),
        ("💩.la", "codepoint", "💩", "💩"),
        ("a\u200cb.com", "joiner", "a\u200cb", "\u200c"),
        ("a\u200db.com", "joiner", "a\u200db", "\u200d"),
        ("a\u00b7b.\u00fc.de", "context", "a\u00b7b", "\u00b7"),
        ("-ü.de", "hyphen-edge", "-ü", ""),
        ("ab--ü.de", "hyphen-34", "ab--ü", ""),
        ("\u0301a.de", "combining", "\u0301a", "\u0301"),
        ("a\u05d0.com", "bidi", "a\u05d0", ""),
        ("ü_x.de", "codepoint", "ü_x", "_"),
    ],
)
def test_faults_name_the_label_and_character(host: str, kind: str, label: str, char: str) -> None:
    verdict = to_ascii(host)
    assert verdict.ascii is None
    assert verdict.fault is not None
    assert (verdict.fault.kind, verdict.fault.label, verdict.fault.char) == (kind, label, char)


def test_lengths_are_counted_in_ascii_form() -> None:
    assert to_ascii("ü" * 70 + ".de").fault == HostFault("label-length", "ü" * 70, length=76)
    fault = to_ascii(".".join(["ü" * 30] * 9) + ".de").fault
    assert fault is not None and fault.kind == "name-length" and fault.length > 253


def test_verdicts_are_cached_per_host() -> None:
    to_ascii.cache_clear()
    to_ascii("bücher.example")
    to_ascii("bücher.example")
    assert to_ascii.cache_info().hits == 1


def test_video_uploader_on_the_same_idn_site(tmp_path: Path) -> None:
    """An uploader URL written with the Unicode host is on the page's site (xn--fa-hia.de)."""
    path = tmp_path / "video.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n'
        "<url><loc>https://xn--fa-hia.de/videos/a</loc><video:video>"
        "<video:thumbnail_loc>https://xn--fa-hia.de/t.jpg</video:thumbnail_loc>"
        "<video:title>A</video:title><video:description>A video</video:description>"
        "<video:content_loc>https://xn--fa-hia.de/a.mp4</video:content_loc>"
        '<video:uploader info="https://{host}/users/a">A</video:uploader>'
        "</video:video></url>\n</urlset>\n".replace("{host}", "faß.de"),
        encoding="utf-8",
    )
    assert "VD016" not in [f.code for f in lint(path).findings]
    path.write_text(path.read_text(encoding="utf-8").replace("faß.de", "fass.de"), encoding="utf-8")
    assert "VD016" in [f.code for f in lint(path).findings]


@pytest.mark.parametrize(
    ("host", "fault"),
    [
        ("192.0.2.1", None),
        ("1.2.3.4.", None),
        ("0x7f.1", None),  # WHATWG reads it as 127.0.0.1
        ("example.com", None),  # does not end in a number: a name
        ("256.1.1.1", "256 is over 255"),
        ("1.2.3.999", "999 is over 255"),
        ("1.2.3.4.5", "it has 5 numbers; an IPv4 address has four"),
        ("example.123", "'example' is not a number"),
        ("09.1.1.1", "'09' is not a number (a leading 0 makes it octal, without 8 or 9)"),
        ("1.2.65536", "65536 is over 65535, the most the last of 3 numbers may be"),
    ],
)
def test_ipv4_fault(host: str, fault: str | None) -> None:
    assert ipv4_fault(host) == fault
    assert plain_host(host) == (host == "example.com")


@pytest.mark.parametrize(
    ("host", "fault"),
    [
        ("xn--p1ai", None),
        ("shop.xn--bcher-kva.example", None),
        ("xn--zz.example", ALabelFault("xn--zz")),
        ("xn--a.example", ALabelFault("xn--a", "\x80", HostFault("codepoint", "\x80", "\x80"))),
    ],
)
def test_alabel_fault(host: str, fault: ALabelFault | None) -> None:
    assert alabel_fault(host) == fault


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("2001:db8::1", None),
        ("::ffff:192.0.2.1", None),
        ("12345::1", "group '12345' has more than four hex digits"),
        ("1:2:3:4:5:6:7:8:9", "it has 9 groups; an IPv6 address has eight (fewer with '::')"),
        ("1::2::3", "'::' appears more than once; it may stand for one run of zero groups only"),
        ("fe80::1%eth0", "'%' is not allowed in an IPv6 address (hex digits, ':' and '.')"),
    ],
)
def test_ipv6_fault(text: str, fault: str | None) -> None:
    assert ipv6_fault(text) == fault


@pytest.mark.parametrize(
    ("host", "written"),
    [
        ("[0:0::1]", "[::1]"),
        ("[::FFFF:1.2.3.4]", "[::ffff:102:304]"),
        ("[fe80::1%25eth0]", "[fe80::1%25eth0]"),  # no address: as it is
        ("127.1", "127.0.0.1"),
        ("0x7f.0.0.1", "127.0.0.1"),
        ("010.0.0.1", "8.0.0.1"),  # octal, as browsers read it
        ("4294967295", "255.255.255.255"),
        ("127.0.0.1.", "127.0.0.1"),
        ("example.com", "example.com"),
        ("example.123", "example.123"),  # no address: as it is
        ("1.2.3.4.5", "1.2.3.4.5"),
    ],
)
def test_an_ip_host_is_written_as_browsers_write_it(host: str, written: str) -> None:
    assert ip_host(host) == written
