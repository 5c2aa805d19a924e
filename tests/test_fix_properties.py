"""Properties of the safe fixes, over generated sitemaps and the shared corpus.

After the safe fixes: the URLs are the same (or, where the fix encodes one, the same
resource under RFC 3986 normalisation), in the same order; the extension values are
the same; no finding a safe fix can fix is left; no finding appears that neither the
original nor a cleanly written copy of the same sitemap has; and fixing again changes
nothing.
"""

from __future__ import annotations

import codecs
import contextlib
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_lint.engine.checker import check_source
from sitemap_lint.fix.apply import fixable
from sitemap_lint.fix.engine import MAX_PASSES, decode, fix_source
from sitemap_lint.inputs.reader import Source
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, ROOT, engine

SM = "http://www.sitemaps.org/schemas/sitemap/0.9"
IMAGE = "http://www.google.com/schemas/sitemap-image/1.1"
CORPUS = ROOT.parent / "shared" / "corpus" / "files"
OPTIONS = Options(now=NOW)


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _without_dot_segments(path: str) -> str:
    """RFC 3986, 5.2.4, on an absolute path ("" read as "/", 6.2.3)."""
    out: list[str] = []
    segments = (path or "/").split("/")[1:]
    for segment in segments:
        if segment == ".":
            continue
        if segment == "..":
            if out:
                out.pop()
            continue
        out.append(segment)
    if segments and segments[-1] in (".", ".."):
        out.append("")
    return "/" + "/".join(out)


def normalised(url: str) -> str:
    """A URL under RFC 3986 normalisation (sections 6.2.2 and 6.2.3), read as an IRI:
    scheme and host in lower case, the host as Unicode, percent-encoded octets decoded
    as UTF-8, no "." or ".." segment, no default port, an empty path as "/"."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    with contextlib.suppress(UnicodeError):
        host = codecs.decode(host.encode("ascii"), "idna") if host.isascii() else host
    number = parts.port
    port = f":{number}" if number and number != _DEFAULT_PORTS.get(scheme) else ""
    path = _without_dot_segments(parts.path)
    rest = path + (f"?{parts.query}" if parts.query or url.rstrip().endswith("?") else "")
    return f"{scheme}://{host.lower()}{port}{unquote(rest)}"


def values(data: bytes) -> tuple[list[str], list[str]]:
    """The URLs (every ``loc``, ``image:loc`` and ``href``) and the other extension
    values of a well-formed sitemap, in document order."""
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    urls, others = [], []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        local = etree.QName(element).localname
        if local == "loc":
            urls.append(normalised(element.text or ""))
        elif "href" in element.attrib:
            urls.append(normalised(element.attrib["href"]))
        elif element.tag.startswith(f"{{{IMAGE}}}") and len(element) == 0:
            others.append((element.text or "").strip())
    return urls, others


def codes(data: bytes, name: str = "sitemap.xml") -> list[str]:
    result = check_source(Source(name, None, data=data), OPTIONS, engine())
    return [f.code for f in result.findings]


# -- generated sitemaps --------------------------------------------------------------

_PATH_CHARS = st.sampled_from([*list("abcxyz019-_./~"), " ", "é", "ü", "日", "&", "<", '"'])


@st.composite
def sitemaps(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """A sitemap with fixable defects, and the same sitemap written cleanly."""
    entries = draw(st.integers(1, 6))
    host = draw(st.sampled_from(["example.com", "www.example.org"]))
    raw_amp = draw(st.booleans())
    bad_parts: list[str] = []
    clean_parts: list[str] = []
    for _ in range(entries):
        path = "".join(draw(st.lists(_PATH_CHARS, max_size=12)))
        url = f"https://{host}/{path}"
        pad = draw(st.sampled_from(["", " ", "\n  "]))
        escaped = url.replace("&", "&amp;").replace("<", "&lt;")
        written = url.replace("<", "&lt;") if raw_amp else escaped
        fields_bad = [f"<loc>{pad}{written}{pad}</loc>"]
        fields_clean = [f"<loc>{escaped}</loc>"]
        freq = draw(st.sampled_from([None, "daily", "Daily", " WEEKLY "]))
        if freq is not None:
            fields_bad.append(f"<changefreq>{freq}</changefreq>")
            fields_clean.append(f"<changefreq>{freq.strip().lower()}</changefreq>")
        priority = draw(st.sampled_from([None, "0.5", "0,5", "1,0"]))
        if priority is not None:
            fields_bad.append(f"<priority>{priority}</priority>")
            fields_clean.append(f"<priority>{priority.replace(',', '.')}</priority>")
        if draw(st.booleans()):
            caption = draw(st.sampled_from(["Caf\u00e9 & more", "a < b", "plain"]))
            image = (
                f"<image:image><image:loc>https://{host}/i.png</image:loc>"
                f"<image:caption>{caption.replace('&', '&amp;').replace('<', '&lt;')}"
                "</image:caption></image:image>"
            )
            fields_bad.append(image)
            fields_clean.append(image)
        bad_parts.append(f"  <url>{''.join(fields_bad)}</url>\n")
        clean_parts.append(f"  <url>{''.join(fields_clean)}</url>\n")
    namespace = draw(
        st.sampled_from([SM, "https://www.sitemaps.org/schemas/sitemap/0.9", SM + "/"])
    )
    lead = draw(st.sampled_from(["", "\n", "  \n"]))
    bom = draw(st.sampled_from([b"", codecs.BOM_UTF8]))
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    open_tag = '<urlset xmlns="{}" xmlns:image="' + IMAGE + '">\n'
    bad = lead + head + open_tag.format(namespace) + "".join(bad_parts) + "</urlset>\n"
    clean = head + open_tag.format(SM) + "".join(clean_parts) + "</urlset>\n"
    return bom + bad.encode("utf-8"), clean.encode("utf-8")


def _fixed(data: bytes) -> bytes:
    done = fix_source(Source("sitemap.xml", None, data=data), OPTIONS, engine(), unsafe=False)
    assert done.refused == (), done.refused
    return done.fixed if done.fixed is not None else data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sitemaps())
def test_safe_fixes_keep_the_urls_and_values(case: tuple[bytes, bytes]) -> None:
    bad, clean = case
    fixed = _fixed(bad)
    assert values(fixed) == values(clean)
    found = check_source(Source("sitemap.xml", None, data=fixed), OPTIONS, engine()).findings
    assert fixable(found, unsafe=False) == []
    new = {f.code for f in found} - set(codes(bad)) - set(codes(clean))
    assert new == set(), new
    assert _fixed(fixed) == fixed  # a second fix changes nothing


def test_the_generator_writes_defects_the_fixer_sees() -> None:
    """The property above is not empty: generated files do have fixable findings."""
    bad = (
        b'  <?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="https://www.sitemaps.org/'
        b'schemas/sitemap/0.9"><url><loc> https://example.com/a b&c </loc>'
        b"<changefreq>Daily</changefreq><priority>0,5</priority></url></urlset>\n"
    )
    done = fix_source(Source("s.xml", None, data=bad), OPTIONS, engine(), unsafe=False)
    assert done.changed and 1 < done.passes <= MAX_PASSES
    assert values(done.fixed or b"")[0] == ["https://example.com/a b&c"]


# -- the shared corpus, read in place --------------------------------------------------


def _body(text: str) -> bytes:
    """The document without anything before its root and without its declaration (the
    text is already decoded), as UTF-8."""
    start = text.find("<?xml")
    if start >= 0:
        text = text[text.find("?>", start) + 2 :]
    return text.encode("utf-8")


def _corpus() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file())


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not present")
def test_safe_fixes_over_the_corpus() -> None:
    changed = 0
    for path in _corpus():
        source = Source(str(path), path)
        done = fix_source(source, OPTIONS, engine(), unsafe=False)
        if not done.changed:
            continue
        changed += 1
        assert done.fixed is not None
        decoded = decode(done.fixed)
        assert not isinstance(decoded, str), (path, decoded)
        after = check_source(Source(path.name, None, data=decoded.text.encode()), OPTIONS, engine())
        assert fixable(after.findings, unsafe=False) == [], path
        before = check_source(source, OPTIONS, engine())
        stopped = any(f.code.startswith("XM") for f in before.findings)
        if not stopped:  # the original parsed whole: compare its URLs and findings
            original = decode(path.read_bytes())
            assert not isinstance(original, str)
            old, new = _body(original.text), _body(decoded.text)
            try:
                expected = values(old)
            except etree.XMLSyntaxError:
                continue
            assert values(new) == expected, path
            new_codes = {f.code for f in after.findings} - {f.code for f in before.findings}
            assert new_codes == set(), (path, new_codes)
        again = fix_source(Source(path.name, None, data=done.fixed), OPTIONS, engine(), False)
        assert not again.changed, path
    assert changed >= 0
