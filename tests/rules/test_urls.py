"""URL family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitemap_lint.domain.urls import ParsedURL
from sitemap_lint.finding import Finding, Fix
from sitemap_lint.model import MAX_TEXT, Node
from sitemap_lint.rules import urls
from sitemap_lint.rules.urls import check_url
from tests.helpers import check_message, lint

# The fix each message must show (fixture -> text in the message).
MESSAGES = [
    ("UR001/fail.xml", "write the full URL, e.g. https://example.com/products/boots"),
    ("UR001/fail-scheme-relative.xml", "write https://example.com/products/boots"),
    ("UR001/fail-www.xml", "write https://www.example.com/products/boots"),
    ("UR001/fail-malformed-scheme.xml", "write https://example.com/products/boots"),
    (
        "UR001/fail-index.xml",
        "is relative; write the full URL, e.g. https://example.com/sitemap-blog",
    ),
    ("UR002/fail-typo.xml", "did you mean https?"),
    ("UR003/fail.xml", "2,436 characters long"),
    ("UR004/fail.xml", "write http://a.io/"),
    ("UR005/fail-newline.xml", "write <loc>https://example.com/products/boots</loc>"),
    ("UR006/fail.xml", "write https://example.com/products/red%20boots"),
    ("UR006/fail-quote.xml", "write https://example.com/search?q=%22boots%22"),
    ("UR006/fail-angle.xml", "write https://example.com/products/%3Cboots%3E"),
    ("UR006/fail-braces.xml", "write https://example.com/products/%7Bsku%7D"),
    ("UR006/fail-brackets.xml", "write https://example.com/search?size%5B%5D=42"),
    ("UR007/fail.xml", "write https://example.com/products/%25zzboots"),
    ("UR013/fail.xml", "an encoded NUL; no page address holds one: remove %00"),
    ("UR013/fail-line-feed.xml", "control character U+000A"),
    ("UR014/fail.xml", "write %C3%A9 for 'é'"),
    ("UR015/fail.xml", "write %20 unless the address really holds the text '%20'"),
    ("UR007/fail-literal-percent.xml", "write https://example.com/sale-50%25-off"),
    ("UR008/fail.xml", "list the URL without it, https://example.com/guide"),
    ("UR008/fail-second-hash.xml", "its second '#' also makes the URL invalid"),
    ("UR009/fail.xml", "write https://example.com/products/boots"),
    ("UR009/fail-at-in-password.xml", "an '@' inside it also makes the URL invalid"),
    ("UR010/fail-space-in-host.xml", "host 'exam ple.com' contains a space"),
    ("UR010/fail.xml", "'example..com' has an empty label"),
    ("UR010/fail-port.xml", "port 99999 is out of range"),
    ("UR010/fail-ipv4.xml", "host '256.1.1.1' is not a valid IPv4 address: 256 is over 255"),
    ("UR010/fail-ipv6.xml", "'::' appears more than once"),
    ("UR010/fail-ipv6.xml", "zero groups only; write the server's real address, or its host name"),
    ("UR010/fail-ipv4.xml", "0 to 255); write the server's real address, or its host name"),
    ("UR010/fail-ipv6-bracket.xml", "its closing ']' is missing; write [fe80::1]"),
    ("UR010/fail-punycode.xml", "the label 'xn--zz', whose Punycode does not decode"),
    ("UR001/fail-no-host.xml", "no host; write the full URL, e.g. https://example.com/products"),
    (
        "UR001/fail-backslashes.xml",
        "URL 'https:\\\\example.com\\products\\boots' lacks '//' after the scheme; "
        "write https://example.com/products/boots",
    ),
    ("UR001/fail-slash-space.xml", "write https://example.com/products/boots"),
    ("UR001/fail-entity-reference.xml", "so its value is not known; write the full URL, starting"),
    ("UR016/fail.xml", "remove the ':': write https://example.com/products/boots"),
    (
        "UR017/fail.xml",
        "URL holds '&amp;' as text: it was escaped twice (as in '&amp;amp;'), or written in a "
        "CDATA section, where escapes are not read, so crawlers request a URL with '&amp;' in "
        "it; write https://example.com/shoes?color=red&size=42 (escaped once)",
    ),
    ("UR017/fail-cdata.xml", "write https://example.com/shoes?color=blue&size=40 (escaped"),
    (
        "UR017/fail-several.xml",
        "URL holds '&quot;' and '&amp;' as text: they were escaped twice",
    ),
    ("UR017/fail-several.xml", "write https://example.com/search?q=%22red%22&page=2"),
    ("UR017/fail-index.xml", "write https://example.com/sitemap.php?part=1&lang=en"),
    ("UR011/fail.xml", "https://example.com/caf%C3%A9"),
    ("UR011/fail-idn.xml", "https://xn--bcher-kva.example/krimis/"),
    ("UR011/fail-idn-and-path.xml", "https://xn--bcher-kva.example/stra%C3%9Fe"),
]


@pytest.mark.parametrize(("fixture", "text"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message_shows_the_fix(fixture: str, text: str) -> None:
    check_message(fixture, text)


# -- check_url as a function -----------------------------------------------------------------


class Collect:
    """A reporter that keeps the findings and the nodes they cover."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.covered: list[Node] = []

    def add(self, finding: Finding, covers: Node | None = None) -> None:
        self.findings.append(finding)
        if covers is not None:
            self.covered.append(covers)

    @property
    def codes(self) -> list[str]:
        return [f.code for f in self.findings]


def run(value: str) -> tuple[ParsedURL | None, Collect]:
    report = Collect()
    parsed = check_url(value, Node("", "loc", {}, 3, 5), report)
    return parsed, report


@pytest.mark.parametrize(
    ("value", "expected", "origin"),
    [
        (
            "https://example.com/a/b?x=1",
            ParsedURL("https", "example.com", 443, "/a/b"),
            "https://example.com",
        ),
        ("https://example.com", ParsedURL("https", "example.com", 443, "/"), "https://example.com"),
        ("http://example.com/", ParsedURL("http", "example.com", 80, "/"), "http://example.com"),
        (
            "https://example.com:443/a",
            ParsedURL("https", "example.com", 443, "/a"),
            "https://example.com",
        ),
        (
            "http://example.com:80/a",
            ParsedURL("http", "example.com", 80, "/a"),
            "http://example.com",
        ),
        (
            "https://example.com:8080/a",
            ParsedURL("https", "example.com", 8080, "/a"),
            "https://example.com:8080",
        ),
        (
            "http://example.com:443/a",
            ParsedURL("http", "example.com", 443, "/a"),
            "http://example.com:443",
        ),
        (
            "HTTPS://WWW.Example.COM/Shop",
            ParsedURL("https", "www.example.com", 443, "/Shop"),
            "https://www.example.com",
        ),
        (
            "https://example.com./a#top",
            ParsedURL("https", "example.com", 443, "/a"),
            "https://example.com",
        ),
        (
            "https://example.com/caf%C3%A9?q=%20",
            ParsedURL("https", "example.com", 443, "/caf%C3%A9"),
            "https://example.com",
        ),
        (
            "https://bücher.example/a",
            ParsedURL("https", "xn--bcher-kva.example", 443, "/a"),
            "https://xn--bcher-kva.example",
        ),
        (
            "https://[2001:db8::1]:8443/a",
            ParsedURL("https", "[2001:db8::1]", 8443, "/a"),
            "https://[2001:db8::1]:8443",
        ),
    ],
)
def test_check_url_returns_parts_and_origin(value: str, expected: ParsedURL, origin: str) -> None:
    parsed, _ = run(value)
    assert parsed == expected
    assert parsed.origin == origin


@pytest.mark.parametrize(
    "value",
    [
        "https://www.example.com/products/category/item-12345.html",
        "https://example.com/search?q=red&page=2&sort=price_asc",
        "https://example.com/caf%C3%A9/menu?x=%2F",
        "http://example.com:8080/a/b/c/",
        "https://shop.example.co.uk/~user/it's-(new)!*",
        "https://example.com/",
        "http://93.184.215.14/status",
    ],
)
def test_fast_path_and_slow_path_agree(value: str) -> None:
    """Ordinary URLs take the regex fast path; the full check must see them the same way."""
    assert urls._SIMPLE.match(value), "this URL should take the fast path"
    fast, fast_report = run(value)
    slow_report = Collect()
    slow = urls._check_slowly(value, Node("", "loc", {}, 3, 5), slow_report, "loc")
    assert fast_report.findings == [] == slow_report.findings
    assert fast == slow


def test_fast_path_still_checks_the_host_length() -> None:
    host = ".".join(["a" * 60] * 5) + ".com"  # labels are fine, the whole is 308 characters
    parsed, report = run(f"https://{host}/")
    assert parsed is None
    assert report.codes == ["UR010"]


@pytest.mark.parametrize(
    "value",
    [
        "http://a.io/",  # exactly 12 characters
        "https://example.com/" + "a" * (2048 - len("https://example.com/")),  # exactly 2,048
    ],
)
def test_length_limits_are_inclusive(value: str) -> None:
    _, report = run(value)
    # 2,048 characters is valid; only Yandex's advisory limit (UR012, info) applies.
    assert [f.code for f in report.findings] == ([] if len(value) <= 1024 else ["UR012"])


@pytest.mark.parametrize(
    ("value", "codes"),
    [
        ("https://example.com/red shoes", ["UR006"]),
        ("https://user:p@ss@example.com/", ["UR009"]),
        ("https://example.com/?q=[1]", ["UR006"]),
        ("https://example.com:99999/", ["UR010"]),
        ("http://a.io", ["UR004"]),
        ("https://example.com/50%-off", ["UR007"]),
    ],
)
def test_findings_on_values_the_schema_rejects_cover_the_node(value: str, codes: list[str]) -> None:
    """Otherwise the schema error (XS001) would repeat the rule's finding."""
    _, report = run(value)
    assert report.codes == codes
    assert len(report.covered) == len(codes)


def test_a_second_hash_is_an_error_that_covers_the_node() -> None:
    """The fragment (UR008, a warning) is valid against the schema and covers nothing:
    the schema's other errors on the element must show. The second '#' (UR006) is not."""
    _, report = run("https://example.com/a#b#c")
    assert report.codes == ["UR008", "UR006"]
    assert len(report.covered) == 1


def test_a_fragment_covers_nothing() -> None:
    _, report = run("https://example.com/a#b")
    assert report.codes == ["UR008"]
    assert report.covered == []


def test_one_defect_per_value_gives_one_finding() -> None:
    _, report = run("https://bücher.example/straße")
    assert report.codes == ["UR011"]


def test_two_defects_show_one_repaired_url() -> None:
    _, report = run("https://example.com/red shoes 50%")
    assert report.codes == ["UR006", "UR007"]
    for finding in report.findings:
        assert "write https://example.com/red%20shoes%2050%25" in finding.message


def test_credentials_are_not_echoed() -> None:
    _, report = run("https://admin:hunter2@example.com/")
    assert report.codes == ["UR009"]
    assert "hunter2" not in report.findings[0].message


def test_whitespace_is_reported_and_the_rest_is_still_checked() -> None:
    parsed, report = run("\n  https://example.com/a\n")
    assert report.codes == ["UR005"]
    assert parsed == ParsedURL("https", "example.com", 443, "/a")


@pytest.mark.parametrize("tail", ["a b", "ab "], ids=["space-at-the-cut", "space-after-it"])
def test_a_loc_cut_at_the_text_kept_has_no_whitespace_after_it(tmp_path: Path, tail: str) -> None:
    """A loc longer than the text kept (``MAX_TEXT``) is cut: a blank where it is cut, or
    at its real end past it, is no whitespace after the URL, and its length is unknown."""
    url = "https://example.com/" + tail * MAX_TEXT
    path = tmp_path / "sitemap.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"<url><loc>{url}</loc></url>\n</urlset>\n",
        encoding="utf-8",
    )
    result = lint(path)
    assert [f.code for f in result.findings] == ["UR003", "UR006"]
    assert "URL is more than 262,14" in result.findings[0].message


def test_a_cut_loc_with_whitespace_before_it_is_reported_without_a_fix() -> None:
    _, report = run(("  https://example.com/" + "a" * MAX_TEXT)[:MAX_TEXT])
    assert report.codes == ["UR005", "UR003"]
    assert report.findings[0].fix is None
    assert "URL is more than 262,142 characters long" in report.findings[1].message


@pytest.mark.parametrize(
    ("value", "how"),
    [
        ("<https://example.com/a>", "inside '<' and '>'"),
        ('"https://example.com/a"', "in double quotes"),
        ("'HTTP://example.com/a'", "in single quotes"),
    ],
)
def test_a_url_in_quotes_or_angle_brackets_is_written_alone(value: str, how: str) -> None:
    _, report = run(value)
    assert report.codes == ["UR001"]
    inner = value[1:-1]
    assert report.findings[0].message == (
        f"URL '{value}' is written {how}; write the URL alone: '{inner}'"
    )


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("/about", "https://shop.example.org/about"),
        ("about", "https://shop.example.org/maps/about"),
        ("../about?x=1", "https://shop.example.org/about?x=1"),
        ("//cdn.example.org/a", "https://cdn.example.org/a"),
        ("www.example.org/a", "https://www.example.org/a"),  # a host, not a path
    ],
)
def test_a_relative_url_is_written_against_where_the_file_is_served(
    value: str, written: str
) -> None:
    report = Collect()
    base = ParsedURL("https", "shop.example.org", 443, "/maps/sitemap.xml")
    check_url(value, Node("", "loc", {}, 3, 5), report, base=base)
    assert report.codes == ["UR001"]
    message = report.findings[0].message
    assert message.endswith(written) or f"write {written}" in message, message
    assert "e.g." not in message


def test_a_relative_child_of_an_index_is_written_against_the_index_url(tmp_path) -> None:
    from sitemap_lint.run import parse_sitemap_url
    from tests.helpers import lint_content

    index = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <sitemap><loc>sub/pages.xml</loc></sitemap>\n"
        "</sitemapindex>\n"
    )
    where = parse_sitemap_url("https://example.org/maps/index.xml")
    result = lint_content(tmp_path, index, "index.xml", sitemap_url=where)
    (finding,) = [f for f in result.findings if f.code == "UR001"]
    assert (finding.line, finding.column) == (3, 12)  # its <loc>
    assert finding.message == (
        "URL 'sub/pages.xml' is relative; write the full URL, "
        "https://example.org/maps/sub/pages.xml"
    )


def test_two_urls_run_together_are_named_and_not_encoded_into_one() -> None:
    report = Collect()
    node = Node("", "loc", {}, 3, 5)
    node.text = "https://example.com/a https://example.com/b"
    check_url(node.text, node, report)
    assert report.codes == ["UR006"]
    (finding,) = report.findings
    assert finding.message == (
        "URL holds a second URL after white space, 'https://example.com/b'; "
        "list each URL on its own, once"
    )
    assert finding.fix is None  # encoding the space would glue both into one URL


def test_scheme_typo_suggests_http_or_https() -> None:
    _, report = run("htp://example.com/")
    assert "did you mean http?" in report.findings[0].message


# -- internationalized hosts, read as browsers read them (UTS #46, IDNA 2008) ----------------


def test_idn_fixture_messages() -> None:
    check_message("UR011/fail-idn-sharp-s.xml", "https://xn--fa-hia.de/stra%C3%9Fe")
    check_message("UR010/fail-idn-emoji.xml", "'☃' (U+2603) is not allowed")


@pytest.mark.parametrize(
    ("host", "ascii_host"),
    [
        ("faß.de", "xn--fa-hia.de"),  # ß kept (IDNA 2003 would map it to ss: fass.de)
        ("βόλος.com", "xn--nxasmm1c.com"),  # final sigma kept (IDNA 2003 maps it to sigma)
        ("FAß.DE", "xn--fa-hia.de"),  # upper case mapped to lower
        ("BÜCHER.example", "xn--bcher-kva.example"),
        ("faß.de.", "xn--fa-hia.de"),  # a trailing dot: the same host
        (
            "\u0646\u0627\u0645\u0647\u200c\u0627\u06cc.com",
            "xn--mgba3gch31f060k.com",
        ),  # ZWNJ between joining letters
        ("क्\u200dष.com", "xn--11b2ezcw70k.com"),  # ZWJ after a virama
        (
            "\uff25\uff58\uff41\uff4d\uff50\uff4c\uff45.com",
            "example.com",
        ),  # full-width letters mapped to ASCII
    ],
)
def test_idn_host_encoded_as_browsers_do(host: str, ascii_host: str) -> None:
    parsed, report = run(f"https://{host}/a")
    assert parsed == ParsedURL("https", ascii_host, 443, "/a")
    assert report.codes == ["UR011"]
    assert f"https://{ascii_host}" in report.findings[0].message
    assert "fass" not in report.findings[0].message


@pytest.mark.parametrize(
    ("host", "text"),
    [
        ("☃.com", "'☃' (U+2603) is not allowed in a domain name (IDNA 2008)"),
        ("💩.la", "'💩' (U+1F4A9) is not allowed in a domain name (IDNA 2008)"),
        ("a\u200db.com", "U+200D (ZERO WIDTH JOINER) in label 'a\\u200db' is allowed only"),
        ("a\u200cb.com", "U+200C (ZERO WIDTH NON-JOINER) in label 'a\\u200cb' is allowed only"),
        ("ü" * 70 + ".de", "is 76 characters long in its ASCII (punycode) form; at most 63"),
        (
            ".".join(["ü" * 30] * 9) + ".de",
            "characters long in its ASCII (punycode) form; at most 253",
        ),
        ("ab--ü.de", "has '--' as its third and fourth characters"),
        ("-ü.de", "starts or ends with '-'"),
        ("aא.com", "mixes right-to-left and left-to-right characters"),
        ("a·b.ü.de", "'·' (U+00B7) in label 'a·b' is allowed only in certain contexts"),
    ],
)
def test_idn_host_rejected_with_a_clear_reason(host: str, text: str) -> None:
    parsed, report = run(f"https://{host}/a")
    assert parsed is None
    assert report.codes == ["UR010"]
    message = report.findings[0].message
    assert "is not a valid internationalized domain name" in message
    assert text in message
    assert "xn--" not in message.replace("(xn--)", "")  # no suggestion of an ASCII form


def test_ascii_hosts_do_not_go_through_idna(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(host: str) -> None:
        raise AssertionError(f"idna called for {host!r}")

    monkeypatch.setattr(urls, "to_ascii", refuse)
    for value in ("https://example.com/a", "https://Example.COM/caf%C3%A9", "https://x.io/ü"):
        parsed, _ = run(value)
        assert parsed is not None


# -- hosts that are more than names: IP addresses, A-labels ----------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("https://[12345::1]/a", "group '12345' has more than four hex digits"),
        ("https://[1:2:3:4:5:6:7:8:9]/a", "it has 9 groups; an IPv6 address has eight"),
        ("https://[1::2::3]/a", "'::' appears more than once"),
        ("https://[fe80::1%25eth0]/a", "a zone (%25eth0) is not allowed in a URL's host"),
        ("https://[fe80::1]x/a", "'x' follows its ']'"),
        ("https://256.1.1.1/a", "host '256.1.1.1' is not a valid IPv4 address: 256 is over 255"),
        ("https://999.999.999.999/a", "not a valid IPv4 address: 999 is over 255"),
        ("https://1.2.3.4.5/a", "it has 5 numbers; an IPv4 address has four"),
        ("https://example.123/a", "ends in a number, so browsers read it as an IPv4 address"),
        ("https://xn--zz.example/a", "the label 'xn--zz', whose Punycode does not decode"),
        ("https://xn--99999999999.example/a", "the label 'xn--99999999999', whose"),
        ("https://-shop.example/a", "has the label '-shop', which starts or ends with '-'"),
        ("https://ex%41mple.com/a", "host 'ex%41mple.com' contains '%', which a host name"),
        ("https://a!b.example/a", "host 'a!b.example' contains '!', which a host name may not"),
        ("https://xn--a.example/a", "which decodes to '\\x80', not a valid internationalized"),
        ("https://xn--ls8h.example/a", "decodes to '\U0001f4a9', not a valid internationalized"),
        ("https://4294967296/a", "4294967296 is over 4294967295, the most an address written"),
        ("https://1.16777216/a", "16777216 is over 16777215, the most the last of 2 numbers"),
        (
            "https://[::ffff:192.0.2.256]/a",
            "its IPv4 part '192.0.2.256' is not an IPv4 address: 256 is over 255; write",
        ),
        ("https://[::ffff:192.0.2]/a", "IPv4 part '192.0.2' is not an IPv4 address: it has 3"),
        ("https://shop.xn--zz/a", "the label 'xn--zz'"),
    ],
)
def test_invalid_host_that_reads_as_more_than_a_name(value: str, text: str) -> None:
    parsed, report = run(value)
    assert parsed is None
    assert report.codes == ["UR010"]
    assert text in report.findings[0].message
    assert "2001:db8" not in report.findings[0].message
    assert not urls._SIMPLE.match(value) or not urls.reads_as_name(value.split("/")[2])


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("https://[fe80::1/a", "write [fe80::1]"),
        ("https://[1::2::3]/a", "IPv6 literal: '::' appears more than once"),
    ],
)
def test_broken_ipv6_literal_hint_names_the_literal(value: str, text: str) -> None:
    _, report = run(value)
    assert report.codes == ["UR010"]
    assert text in report.findings[0].message


@pytest.mark.parametrize(
    ("value", "host"),
    [
        ("https://93.184.215.14/a", "93.184.215.14"),
        ("https://1.1.1.1/a", "1.1.1.1"),
        ("https://[::ffff:93.184.215.14]/a", "[::ffff:93.184.215.14]"),
        ("https://[2606:4700::1111]/a", "[2606:4700::1111]"),
        ("https://xn--p1ai/a", "xn--p1ai"),
        ("https://shop.xn--bcher-kva.example/a", "shop.xn--bcher-kva.example"),
        ("https://example.com1/a", "example.com1"),
    ],
)
def test_valid_ip_hosts_and_a_labels_pass(value: str, host: str) -> None:
    parsed, report = run(value)
    assert report.codes == []
    assert parsed == ParsedURL("https", host, 443, "/a")


def test_empty_port_is_the_default_port_with_a_warning() -> None:
    parsed, report = run("https://example.com:/p")
    assert parsed == ParsedURL("https", "example.com", 443, "/p")
    assert report.codes == ["UR016"]
    assert "write https://example.com/p" in report.findings[0].message
    assert len(report.covered) == 1  # the schema's error would repeat it


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("https:///path/to/page", "and no host; write the full URL, e.g. https://example.com/path"),
        ("https:/path/to/page", "and no host; write the full URL, e.g. https://example.com/path"),
        ("https:///example.com/a", "malformed scheme; write https://example.com/a"),
        ("https:\\\\example.com\\a", "URL 'https:\\\\example.com\\a' lacks '//'"),
        ("https:\\\\example.com\\a", "after the scheme; write https://example.com/a"),
        ("https:/ /example.com/a", "after the scheme; write https://example.com/a"),
        ("http:example.com/a?x=\\", "write http://example.com/a?x=\\"),
    ],
)
def test_slash_mistakes_suggest_a_url_with_the_host(value: str, text: str) -> None:
    _, report = run(value)
    assert report.codes == ["UR001"]
    assert text in report.findings[0].message
    assert "https://path" not in report.findings[0].message


def test_a_value_with_an_unexpanded_reference_gets_no_rewrite() -> None:
    for value in ("&h;/a", "https:&h;/a"):
        _, report = run(value)
        assert report.codes == ["UR001"]
        message = report.findings[0].message
        assert "value is not known" in message
        assert "example.com" not in message and "write https:" not in message


# -- the clean-URL patterns' host names --------------------------------------------------------


def _label_grammar(host: str) -> bool:
    """A host name as RFC 1123 writes it, in lower case: labels of 1 to 63 letters, digits
    and hyphens, none starting or ending with a hyphen."""
    return all(
        0 < len(label) <= 63
        and not label.startswith("-")
        and not label.endswith("-")
        and all(char in "abcdefghijklmnopqrstuvwxyz0123456789-" for char in label)
        for label in host.split(".")
    )


_HOSTS = [
    "a",
    "a-b",
    "a--b.c",
    "-a",
    "a-",
    "a.-b",
    "a.b-",
    "a" * 63,
    "a" * 64,
    "x." + "b" * 63 + ".com",
    "x." + "b" * 64 + ".com",
    "a" + "-" * 61 + "a",
    "a" + "-" * 62 + "a",
    "a.b",
    "a..b",
    ".a",
    "a.",
    "0-0.x-y.z9",
    "ex_ample.com",
    "Example.com",
]


@pytest.mark.parametrize("host", _HOSTS)
@pytest.mark.parametrize("rest", ["/", "/a?q=1", "", "?q", ":8080/a"])
def test_the_clean_url_pattern_takes_the_host_names_of_the_grammar(host: str, rest: str) -> None:
    match = urls._SIMPLE.match(f"https://{host}{rest}")
    assert (match is not None) == _label_grammar(host)
    assert match is None or match.group(2) == host


@pytest.mark.parametrize("host", _HOSTS)
@pytest.mark.parametrize("rest", ["/é", "/a?q=ü", "?é"])
def test_the_iri_pattern_takes_the_host_names_of_the_grammar(host: str, rest: str) -> None:
    match = urls._SIMPLE_IRI.match(f"https://{host}{rest}")
    assert (match is not None) == _label_grammar(host)
    assert match is None or match.group(2) == host


# -- UR011's fix: where the URL stands, and what encoding it would change --------------------


def _encoding_fix_of(value: str, node: Node) -> tuple[str, str, str] | None:
    """UR011's fix on ``value`` read from ``node``: its applicability, its message and
    its edit's target."""
    report = Collect()
    check_url(value, node, report)
    (finding,) = [f for f in report.findings if f.code == "UR011"]
    fix = finding.fix
    if fix is None:
        return None
    (edit,) = fix.edits
    return str(fix.applicability), fix.message, edit.target


def _loc(text: str) -> Node:
    node = Node("", "loc", {}, 3, 5)
    node.text = text
    return node


@pytest.mark.parametrize(
    ("value", "node", "expected"),
    [
        (
            "https://example.com/café",
            _loc("https://example.com/café"),
            ("safe", "Percent-encode the URL", "text"),
        ),
        (
            "https://example.com/café",
            Node("", "link", {"href": " https://example.com/café "}, 3, 5),
            ("safe", "Percent-encode the URL", "href"),
        ),
        (  # not the whole text: no fix knows what to write
            "https://example.com/café",
            _loc("see https://example.com/café"),
            None,
        ),
        (  # a backslash a browser reads as "/"
            "https://example.com/café\\a",
            _loc("https://example.com/café\\a"),
            ("unsafe", "Percent-encode the URL", "text"),
        ),
        (  # a tab a browser drops
            "https://example.com/ca\tfé",
            _loc("https://example.com/ca\tfé"),
            ("unsafe", "Write the URL as browsers read it", "text"),
        ),
        (  # a stray "%": what it means is a person's call
            "https://example.com/café-50%",
            _loc("https://example.com/café-50%"),
            None,
        ),
        (  # encoded, over 2,048 characters: shortened first
            "https://example.com/" + "é" * 700,
            _loc("https://example.com/" + "é" * 700),
            None,
        ),
    ],
)
def test_the_encoding_fix_of_a_url_outside_ascii(
    value: str, node: Node, expected: tuple[str, str, str] | None
) -> None:
    assert _encoding_fix_of(value, node) == expected


def test_a_url_too_long_once_encoded_says_so_and_offers_no_fix() -> None:
    value = "https://example.com/" + "é" * 700
    _, report = run(value)
    (finding,) = report.findings
    assert finding.fix is None
    assert "it is 4,220 characters long, over the limit of 2,048: shorten it" in finding.message


@pytest.mark.parametrize(
    ("negated", "written"),
    [
        (urls._IRI_PCHAR, r"[A-Za-z0-9\-._~!$&'()*+,;=:@/\u0080-\ufffc\ufffe-\U0010ffff]"),
        (urls._IRI_QCHAR, r"[A-Za-z0-9\-._~!$&'()*+,;=:@/?\u0080-\ufffc\ufffe-\U0010ffff]"),
    ],
)
def test_the_iri_classes_take_what_their_written_form_takes(negated: str, written: str) -> None:
    """``_SIMPLE_IRI``'s path and query classes, written negated (compiled in a tenth of
    the time), take every character of the class they stand for and no other."""
    every = "".join(map(chr, range(0x110000)))
    assert re.compile(negated).findall(every) == re.compile(written).findall(every)
    assert negated.startswith("[^") and negated in urls._SIMPLE_IRI.pattern


def test_a_control_character_is_removed_not_encoded_into_an_escape_ur013_reports() -> None:
    from sitemap_lint.engine.checker import check_source
    from sitemap_lint.fix.engine import fix_source
    from sitemap_lint.inputs.reader import Source
    from sitemap_lint.settings.options import Options
    from tests.helpers import NOW, engine, fixture

    path = fixture("UR006/fail-control.xml")
    done = fix_source(Source(str(path), path), Options(now=NOW), engine(), True)
    assert done.changed
    assert done.fixed is not None
    fixed = check_source(Source(str(path), None, data=done.fixed), Options(now=NOW), engine())
    assert [f.code for f in fixed.findings] == []
    assert b"https://example.com/search?q=red%20shoes<" in done.fixed


@pytest.mark.parametrize(
    ("value", "code", "ending"),
    [
        # No URL to write where the host is missing: UR010 says what to do first.
        ("https://user@/", "UR009", "before the host; remove it"),
        ("https://#frag", "UR008", "crawlers drop it: list the URL without it"),
        # The URL to write is the one the other rules take: encoded.
        ("https://user@example.com/a b", "UR009", "remove it: write https://example.com/a%20b"),
    ],
)
def test_the_url_a_credentials_or_fragment_finding_says_to_write(
    value: str, code: str, ending: str
) -> None:
    _, report = run(value)
    (message,) = [f.message for f in report.findings if f.code == code]
    assert message.endswith(ending)


@pytest.mark.parametrize("host", ["example.com", "bücher.example"])
def test_a_url_too_long_as_written_is_not_shown_encoded(host: str) -> None:
    # UR003 reports its length: UR011 shows no URL that would be longer still.
    _, report = run(f"https://{host}/" + "é" * 2100)
    assert report.codes == ["UR003", "UR011"]
    message = report.findings[1].message
    assert "%C3%A9" not in message
    assert "over the limit of 2,048 characters already: shorten it, then write it" in message


@pytest.mark.parametrize(
    ("value", "canonical", "named"),
    [
        (
            "HTTPS://Example.COM/Shop",
            "https://example.com/Shop",
            ["scheme HTTPS", "host Example.COM"],
        ),
        ("https://example.com:443/a", "https://example.com/a", [":443 of https"]),
        ("http://example.com:80/a?b", "http://example.com/a?b", [":80 of http"]),
        ("https://example.com/a/./b/../c", "https://example.com/a/c", ["segments"]),
        ("https://example.com/a/..", "https://example.com/", ["segments"]),
        ("https://example.com", "https://example.com/", ["an empty path"]),
        ("https://example.com?q=1#x", "https://example.com/?q=1#x", ["an empty path"]),
        ("https://user@Example.com:443", "https://user@example.com/", ["host", ":443", "path"]),
        ("https://EXAMPLE.com:/a", "https://example.com/a", ["host EXAMPLE.com"]),
        ("https://example.com:443/café/./x", "https://example.com/café/x", [":443", "segments"]),
        ("https://[2001:DB8::1]:443/a", "https://[2001:db8::1]/a", ["host", ":443"]),
    ],
)
def test_a_url_not_in_canonical_form_is_named_with_its_canonical_form(
    value: str, canonical: str, named: list[str]
) -> None:
    """UR018 on every path of check_url (the plain URL's, an IRI's, the slow one): one
    finding naming each part that is not canonical, with the URL to write and its fix."""
    node = Node("", "loc", {}, 3, 5)
    node.text = value
    report = Collect()
    check_url(value, node, report)
    found = [f for f in report.findings if f.code == "UR018"]
    assert len(found) == 1
    assert found[0].message.endswith(f"write {canonical}, the same page")
    for part in named:
        assert part in found[0].message
    fix = found[0].fix
    assert fix is not None and fix.applicability is Fix.SAFE
    assert fix.edits[0].content == canonical
    assert urls.canonical_form(canonical) is None  # (the form it gives is canonical)


@pytest.mark.parametrize(
    "value",
    [
        "https://example.com/",
        "https://example.com:8443/a",
        "https://example.com/.well-known/a",
        "https://example.com/a..b/.c/",
        "https://example.com/search?path=/a/./b",
        "https://example.com/caf%c3%a9",  # (the case of escapes is not read)
        "https://example.com/#/./x",
    ],
)
def test_a_canonical_url_gives_no_ur018(value: str) -> None:
    _parsed, report = run(value)
    assert "UR018" not in report.codes


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("https://example.com:/a", "UR016"),  # the empty port is UR016's alone
        ("http://a.io", "UR004"),  # the missing "/" is UR004's: write http://a.io/
        ("https://Exa_mple..com/", "UR010"),  # a host at fault: no canonical form to give
        ("https://BÜCHER.example:443/a", "UR011"),  # the host's ASCII form: UR011's
    ],
)
def test_a_defect_another_url_rule_reports_is_not_named_again(value: str, code: str) -> None:
    _parsed, report = run(value)
    assert code in report.codes
    ur018 = [f.message for f in report.findings if f.code == "UR018"]
    if code == "UR011":
        assert len(ur018) == 1 and "host" not in ur018[0] and ":443" in ur018[0]
    else:
        assert ur018 == []


@pytest.mark.parametrize(
    ("value", "named"),
    [
        ("http://localhost:4000/blog/", "localhost, the local machine's name"),
        ("http://app.localhost/a", "app.localhost, the local machine's name"),
        ("https://printer.local/status", "printer.local, a name under .local"),
        ("https://wiki.corp.internal/a", "wiki.corp.internal, a name under .internal"),
        ("http://nas.home.arpa/a", "nas.home.arpa, a name under .home.arpa"),
        ("http://127.0.0.1:8000/a", "127.0.0.1, a loopback address"),
        ("http://127.1/a", "127.1, a loopback address (127.0.0.1)"),
        ("http://2130706433/a", "2130706433, a loopback address (127.0.0.1)"),
        ("http://0.0.0.0:4000/a", "0.0.0.0, an unspecified address"),
        ("http://10.0.0.7/a", "10.0.0.7, a private address"),
        ("http://172.16.5.4/a", "172.16.5.4, a private address"),
        ("https://192.168.1.20/a", "192.168.1.20, a private address"),
        ("http://169.254.169.254/latest/", "169.254.169.254, a link-local address"),
        ("http://[::1]:8080/a", "[::1], a loopback address"),
        ("http://[fd00::5]/a", "[fd00::5], a unique-local address"),
        ("http://[::ffff:10.0.0.1]/a", "[::ffff:10.0.0.1], a private address"),
        ("https://café.local/menu", "xn--caf-dma.local, a name under .local"),
    ],
)
def test_a_url_on_a_local_host_is_reported_once(value: str, named: str) -> None:
    """UR019 on every path of check_url (the plain URL's, an IPv4 form's, an IPv6 or
    non-ASCII host's, the slow one), with the host and what makes it local."""
    parsed, report = run(value)
    assert report.codes.count("UR019") == 1
    (finding,) = [f for f in report.findings if f.code == "UR019"]
    assert f"URL is on {named}, which search engines cannot reach" in finding.message
    assert parsed is not None  # (a usable URL: the scope checks still read it)


@pytest.mark.parametrize(
    "value",
    [
        "https://example.com/a",
        "https://localhost.example.com/a",
        "https://local.example/a",
        "https://my.localhost-site.com/a",
        "https://93.184.215.14/a",
        "https://[2606:4700::1111]/a",
        "https://internal.example.com/a",
    ],
)
def test_a_public_host_is_not_local(value: str) -> None:
    assert "UR019" not in run(value)[1].codes


def test_local_hosts_are_expected_where_the_run_says_so(tmp_path: Path) -> None:
    """``--allow-private-hosts``, or a sitemap said to be served from a local host
    (``--sitemap-url``, a URL input: a development server), turns UR019 off."""
    from sitemap_lint import cli

    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc>http://localhost:4000/a</loc></url>\n</urlset>\n",
        encoding="utf-8",
    )
    plain = ["--isolated", "--format", "concise", str(sitemap)]
    assert cli.main(plain) == 1
    assert cli.main(["--allow-private-hosts", *plain]) == 0
    assert cli.main(["--sitemap-url", "http://localhost:4000/sitemap.xml", *plain]) == 0
    assert cli.main(["--sitemap-url", "https://example.com/sitemap.xml", *plain]) == 1
