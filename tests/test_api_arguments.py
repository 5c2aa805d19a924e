"""A wrong Python value given to the API raises SitemapLintError naming the argument, on
one line; never a raw exception. RuleInfo.page is what ``sitemap-lint rule CODE`` prints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import sitemap_lint
import sitemap_lint.api
from sitemap_lint import cli
from sitemap_lint.errors import UsageError
from tests.helpers import FIXTURES

VALID = FIXTURES / "valid" / "sitemap.xml"
MISSING = "/nonexistent/sitemap-lint-api-arguments.xml"
XML = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset/>\n'


def raised(call: Any, *args: Any, **options: Any) -> str:
    """The message of the SitemapLintError ``call`` raises (any other exception fails)."""
    with pytest.raises(sitemap_lint.SitemapLintError) as error:
        call(*args, **options)
    message = str(error.value)
    assert len(message.splitlines()) == 1 and "\n" not in message, message
    return message


# -- every keyword, every odd value ----------------------------------------------------


class Odd:
    """A value of no type an option takes (with a repr that names it the same each run)."""

    def __repr__(self) -> str:
        return "Odd()"


ODD_VALUES = [
    1.5,
    2.0,
    1e6,
    None,
    [1],
    ["UR"],
    {"a": 1},
    b"UR",
    bytearray(b"3"),
    True,
    3,
    "3",
    Odd(),
    # A path no file can have: a raw ValueError from the system's call before.
    "a\x00b",
    ["a\x00b"],
]


@pytest.mark.parametrize("value", ODD_VALUES, ids=repr)
@pytest.mark.parametrize("keyword", sorted(sitemap_lint.api.Options.__annotations__))
def test_no_value_of_any_keyword_raises_a_raw_exception(keyword: str, value: object) -> None:
    """Whatever a keyword is given, the call raises SitemapLintError on one line: naming
    the keyword when the value is wrong, or the missing input when it is not."""
    options = {keyword: value}
    if keyword not in ("isolated", "config"):
        options["isolated"] = True
    message = raised(sitemap_lint.lint_paths, [MISSING], **options)
    assert message.startswith(f"{keyword}=") or message.startswith(MISSING), message


@pytest.mark.parametrize("value", [1e6, 2.0, None, [1], {"a": 1}, b"10", True, "3", "20GiB"])
def test_max_bytes_takes_an_integer_as_max_depth_does(value: object) -> None:
    message = raised(sitemap_lint.lint_paths, [VALID], isolated=True, max_bytes=value)
    assert message == f"max_bytes=: expected an integer, got {value!r}"
    depth = raised(sitemap_lint.lint_paths, [VALID], isolated=True, max_depth=value)
    assert depth == f"max_depth=: expected an integer, got {value!r}"


def test_max_bytes_as_an_integer_is_the_limit() -> None:
    result = sitemap_lint.lint_paths([VALID], isolated=True, max_bytes=10 * 1024**2)
    assert [file.path for file in result.files] == [str(VALID)]
    assert raised(sitemap_lint.lint_paths, [VALID], isolated=True, max_bytes=0) == (
        "max_bytes=0: give 1 or more bytes"
    )


@pytest.mark.parametrize(
    ("keyword", "values", "start"),
    [
        *(
            (
                keyword,
                [2.0, None, [1], {"a": 1}, b"1", True, "3"],
                f"{keyword}=: expected an integer",
            )
            for keyword in ("max_depth", "max_files", "jobs", "live_concurrency", "live_per_host")
        ),
        ("live_seed", [2.0, None, b"1", True], "live_seed=: expected an integer"),
        ("live_max", [2.0, [1], b"1", True, "3"], "live_max=: expected an integer"),
        ("timeout", [None, [1], {"a": 1}, b"1", True, "3"], "timeout=: expected a number"),
        ("live_timeout", [None, b"1", False], "live_timeout=: expected a number"),
        *(
            (keyword, [None, 1, 1.0, "yes", [True], b""], f"{keyword}=: expected True or False")
            for keyword in ("exit_zero", "isolated", "follow", "allow_private_hosts", "live")
        ),
        *(
            (keyword, [1.5, [1], {"a": 1}, b"x", True], f"{keyword}=: expected a str")
            for keyword in ("sitemap_url", "profile", "fail_on", "xsd_engine", "scheduler")
        ),
        ("now", [1.5, [1], b"2025-01-01", True], "now=: "),
        *(
            (
                keyword,
                ["UR", b"UR", bytearray(b"UR"), 1.5, True, {"UR": 1}],
                f"{keyword}=: give a list",
            )
            for keyword in ("select", "extend_select", "ignore")
        ),
        *(
            (keyword, [1.5, [1], b"x", True], f"{keyword}=: ")
            for keyword in ("config", "baseline", "live_cache")
        ),
        ("robots", ["robots.txt", b"robots.txt", 1.5, {"robots.txt": 1}], "robots=: give a list"),
        ("maps", [["https://example.com/=."], "x", b"x", 1.5], "maps=: give a mapping"),
        (
            "live_connect_to",
            ["a:1:b:2", b"a:1:b:2", 1.5, {"a:1:b:2": 1}, True],
            "live_connect_to=: give a list",
        ),
        ("live_connect_to", [[1], [b"a:1:b:2"]], "live_connect_to=: "),
    ],
)
def test_a_value_of_a_wrong_type_names_the_keyword(
    keyword: str, values: list[object], start: str
) -> None:
    for value in values:
        options = {
            keyword: value,
            **({} if keyword in ("isolated", "config") else {"isolated": True}),
        }
        message = raised(sitemap_lint.lint_paths, [VALID], **options)
        assert message.startswith(start), (value, message)
        if start.endswith(("expected a str", "expected a number", "expected an integer")):
            assert message.endswith(f", got {value!r}"), (value, message)


def test_the_optional_lists_and_numbers_take_none_as_documented() -> None:
    """``live_max``, ``live_connect_to`` (and the other options typed ``... | None``):
    None is the flag left out."""
    result = sitemap_lint.lint_paths(
        [VALID],
        isolated=True,
        live_max=None,
        live_connect_to=None,
        robots=None,
        maps=None,
        select=None,
        now=None,
    )
    assert result.exit_code == 0


def test_codes_as_comma_separated_text_are_told_the_list_that_works() -> None:
    assert raised(sitemap_lint.lint, b"<urlset/>", select="UR,DT004") == (
        "select=: give a list of rule codes, e.g. ['UR', 'DT004']"
    )
    assert raised(sitemap_lint.lint, b"<urlset/>", ignore=" HL, UR008 ,") == (
        "ignore=: give a list of rule codes, e.g. ['HL', 'UR008']"
    )
    suggested = sitemap_lint.lint(b"<urlset/>", select=["UR", "DT004"], isolated=True)
    assert all(f.code.startswith(("UR", "DT004")) for f in suggested)


def test_select_as_bytes_is_told_to_be_a_list_as_a_str_is() -> None:
    text = raised(sitemap_lint.lint, b"<urlset/>", select="UR")
    assert text == "select=: give a list of rule codes, e.g. ['UR']"
    assert raised(sitemap_lint.lint, b"<urlset/>", select=b"UR") == (
        "select=: give a list of rule codes, e.g. ['UR', 'DT004']; got b'UR'"
    )
    assert raised(sitemap_lint.lint, b"<urlset/>", ignore=b"UR").startswith("ignore=: give a list")
    assert raised(sitemap_lint.lint, b"<urlset/>", robots=b"robots.txt") == (
        "robots=: give a list of paths, e.g. ['a.xml']; got b'robots.txt'"
    )
    assert raised(sitemap_lint.lint, b"<urlset/>", live_connect_to="a:1:b:2") == (
        "live_connect_to=: give a list of strings, e.g. ['a:1:b:2']"
    )
    assert raised(sitemap_lint.lint, b"<urlset/>", robots="") == (
        "robots=: give a list of paths, e.g. ['a.xml']"  # not [''], refused as well
    )


def test_a_size_of_a_wrong_type_is_a_usage_error_in_the_declaration() -> None:
    """The declaration every keyword goes through (and the parser the command line and it
    share) refuse what is neither an int nor a size text, naming the keyword."""
    from sitemap_lint.settings.declared import from_keywords
    from sitemap_lint.settings.parsing import parse_size

    assert from_keywords(paths=["a"], max_bytes="1KiB").max_bytes == 1024
    for value in (1.5, None, [1], b"1", True):
        with pytest.raises(UsageError) as error:
            from_keywords(paths=["a"], max_bytes=value)
        assert str(error.value).startswith("max_bytes=: expected a number of bytes"), value
        with pytest.raises(UsageError, match=r"^--max-bytes .*: expected a size in bytes"):
            parse_size(value)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^live_connect_to=: expected a string or a list"):
        from_keywords(paths=["a"], live_connect_to=[b"a:1:b:2"])
    assert from_keywords(paths=["a"], live_max=None).live_max is None


# -- content given as a str, and messages on one line -----------------------------------


def test_content_given_as_a_str_is_told_to_go_as_bytes() -> None:
    message = raised(sitemap_lint.lint, XML, isolated=True)
    assert message.startswith("source: '<?xml version=")
    assert "looks like content" in message and "as bytes" in message
    assert "lint(text.encode())" in message
    assert "no such file or directory" not in message
    # shortened: the message quotes the start of the text, not all of it
    long = XML.replace("<urlset/>", "<urlset>" + "<url><loc>https://example.com/</loc></url>" * 100)
    assert len(raised(sitemap_lint.lint, long, isolated=True)) < 200
    # as bytes, the same text is checked
    assert sitemap_lint.lint(XML.encode(), isolated=True, select=["IN", "XM"]) == []


@pytest.mark.parametrize("text", ["<urlset/>", "  <urlset/>", "User-agent: *\nSitemap: x"])
def test_content_among_paths_is_told_to_go_to_lint_as_bytes(text: str) -> None:
    message = raised(sitemap_lint.lint_paths, [VALID, text], isolated=True)
    assert message.startswith(f"paths: {text!r} looks like content, not a path")
    assert "lint() checks content given as bytes" in message


def test_a_file_whose_name_looks_like_content_is_still_a_file(tmp_path: Path) -> None:
    odd = tmp_path / "a\nb.xml"
    odd.write_bytes(VALID.read_bytes())
    assert sitemap_lint.lint(str(odd), isolated=True) == []
    assert sitemap_lint.lint_paths([str(odd)], isolated=True).exit_code == 0


@pytest.mark.parametrize(
    ("arguments", "options", "start"),
    [
        ([f"{MISSING}\n"], {}, f"{MISSING}\\n: no such file or directory"),
        ([VALID], {"live_sample": "1\n2"}, "live_sample=1\\n2: give a number of URLs"),
        ([VALID], {"live_connect_to": ["a\nb"]}, "live_connect_to=a\\nb: give HOST:PORT"),
        ([VALID], {"config": "x\r\ny.toml", "isolated": False}, "config=x\\r\\ny.toml: no such"),
        ([VALID], {"robots": ["x\ny.txt"]}, "robots=x\\ny.txt: cannot read"),
    ],
)
def test_a_message_quoting_a_line_break_stays_one_line(
    arguments: list[object], options: dict[str, object], start: str
) -> None:
    message = raised(sitemap_lint.lint_paths, arguments, **{"isolated": True, **options})
    assert message.startswith(start), message


DOCUMENT = b"<urlset>" + b"<url><loc>https://example.com/</loc></url>" * 10_000


@pytest.mark.parametrize(
    ("call", "args", "options", "start"),
    [
        (sitemap_lint.lint, ([DOCUMENT],), {}, "source: [b'<urlset>"),
        (sitemap_lint.lint_paths, (DOCUMENT,), {}, "paths: give a list of paths"),
        (sitemap_lint.lint, (DOCUMENT,), {"select": DOCUMENT}, "select=: give a list of"),
        (sitemap_lint.lint, (DOCUMENT,), {"now": DOCUMENT}, "now=: b'<urlset>"),
        (sitemap_lint.lint, (DOCUMENT,), {"stdin_filename": DOCUMENT}, "stdin_filename=: b'"),
        (sitemap_lint.lint, (DOCUMENT,), {"name": DOCUMENT}, "name=: b'<urlset>"),
        (sitemap_lint.lint, (DOCUMENT,), {"robots": [DOCUMENT]}, "robots=: b'<urlset>"),
    ],
)
def test_a_document_given_where_it_does_not_go_is_not_quoted_whole(
    call: Any, args: tuple[Any, ...], options: dict[str, Any], start: str
) -> None:
    message = raised(call, *args, isolated=True, **options)
    assert message.startswith(start), message
    assert len(message) < 200, message[:300]


def test_a_source_of_no_type_says_bytes_are_one() -> None:
    assert raised(sitemap_lint.lint, 3) == (
        "source: 3 is not a path (give bytes, a str or an os.PathLike)"
    )


# -- RuleInfo.page -----------------------------------------------------------------------


def rule_command(code: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``sitemap-lint rule CODE`` prints to a pipe."""
    capsys.readouterr()
    assert cli.main(["rule", code]) == 0
    return capsys.readouterr().out


def test_rule_info_page_is_what_the_rule_command_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    by_code = {rule.code: rule for rule in sitemap_lint.rules()}
    for code, rule in by_code.items():
        assert rule_command(code, capsys) == rule.page.rstrip("\n") + "\n", code
    page = by_code["EN002"].page
    assert page.startswith(f"# EN002 {by_code['EN002'].name} ({by_code['EN002'].severity})\n\n")
    assert f"\n\n{by_code['EN002'].summary}.\n\n" in page
    assert by_code["EN002"].doc in page
    fixable = [rule for rule in by_code.values() if rule.fix_safety]
    assert fixable and all("\n## Fix safety\n" in rule.page for rule in fixable)


def test_rule_info_page_under_a_profile_shows_its_severity() -> None:
    default = {rule.code: rule for rule in sitemap_lint.rules()}["DT005"]
    bing = {rule.code: rule for rule in sitemap_lint.rules(profile="bing")}["DT005"]
    assert bing.severity != default.severity
    assert bing.page.startswith(f"# DT005 {bing.name} ({bing.severity})\n")
    assert bing.page.split("\n", 1)[1] == default.page.split("\n", 1)[1]


# -- TypeError and ValueError, as Python's own calls raise ------------------------------


@pytest.mark.parametrize(
    ("call", "kind"),
    [
        (lambda: sitemap_lint.lint(b"", isolated=True, max_dept=3), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, max_depth=2.0), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, max_bytes=1e6), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, timeout="1"), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, follow=1), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, select="UR"), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, select=[1]), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, profile=b"bing"), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, now=1.5), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, maps=[("a", "b")]), TypeError),
        (lambda: sitemap_lint.lint(b"", config=1), TypeError),
        (lambda: sitemap_lint.lint(b"", name=1), TypeError),
        (lambda: sitemap_lint.lint(1), TypeError),
        (lambda: sitemap_lint.lint_paths("public/"), TypeError),
        (lambda: sitemap_lint.rules(1), TypeError),
        (lambda: sitemap_lint.lint(b"", isolated=True, profile="nope"), ValueError),
        (lambda: sitemap_lint.lint(b"", isolated=True, max_depth=-1), ValueError),
        (lambda: sitemap_lint.lint(b"", isolated=True, jobs=-3), ValueError),
        (lambda: sitemap_lint.lint(b"", isolated=True, timeout=0), ValueError),
        (lambda: sitemap_lint.lint(b"", isolated=True, now="yesterday"), ValueError),
        (lambda: sitemap_lint.lint(b"", isolated=True, select=[]), ValueError),
        (lambda: sitemap_lint.lint(b"", isolated=True, select=["XX9"]), ValueError),
        (lambda: sitemap_lint.lint(b"", isolated=True, sitemap_url="sitemap.xml"), ValueError),
        (lambda: sitemap_lint.lint(b"", isolated=True, config="a.toml"), ValueError),
        (lambda: sitemap_lint.lint(b"", name="a", stdin_filename="b"), ValueError),
        (lambda: sitemap_lint.lint("<urlset/>", isolated=True), ValueError),
        (lambda: sitemap_lint.lint_paths([], isolated=True), ValueError),
        (lambda: sitemap_lint.rules("nope"), ValueError),
    ],
)
def test_a_wrong_argument_is_a_type_or_value_error(call: Any, kind: type[Exception]) -> None:
    """A value of the wrong type, or a keyword no call takes, is a TypeError; a value the
    option refuses a ValueError: each a SitemapLintError too, so either except clause
    catches it."""
    other = ValueError if kind is TypeError else TypeError
    with pytest.raises(kind) as error:
        call()
    assert isinstance(error.value, sitemap_lint.SitemapLintError)
    assert not isinstance(error.value, other), error.value


def test_an_input_that_cannot_be_read_is_neither() -> None:
    """A missing file is no wrong argument: a plain SitemapLintError, as the command's."""
    with pytest.raises(sitemap_lint.SitemapLintError) as error:
        sitemap_lint.lint_paths([MISSING], isolated=True)
    assert not isinstance(error.value, TypeError | ValueError)


@pytest.mark.parametrize("keyword", ["config", "baseline", "stdin_filename", "live_cache"])
def test_every_path_keyword_says_it_takes_a_path(keyword: str) -> None:
    message = raised(sitemap_lint.lint, b"", **{keyword: 1})
    assert message == f"{keyword}=: 1 is not a path (give a str or an os.PathLike)"
