"""The selection engine: prefixes, layers, severities, profiles and per-file ignores."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.engine.sink import reported
from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Finding, Severity
from sitemap_lint.rules import RULES
from sitemap_lint.settings.config import FileGlob
from sitemap_lint.settings.profiles import PROFILES
from sitemap_lint.settings.selection import (
    RuleSelection,
    Selection,
    matches_a_rule,
    parse_codes,
    split_codes,
)

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def on(selection: Selection) -> set[str]:
    return {code for code, level in selection.levels.items() if level is not None}


def layer(select=None, extend=(), ignore=()) -> RuleSelection:
    return RuleSelection(None if select is None else tuple(select), tuple(extend), tuple(ignore))


def test_default_is_every_rule_at_its_own_severity() -> None:
    selection = Selection()
    assert selection.levels == {code: rule.severity for code, rule in RULES.items()}


def test_select_by_prefix() -> None:
    assert on(Selection([layer(select=["UR00"])])) == {c for c in RULES if c.startswith("UR00")}


@pytest.mark.parametrize(
    ("select", "ignore", "code", "reported"),
    [
        (["UR"], ["UR008"], "UR008", False),  # ignore is longer
        (["UR"], ["UR008"], "UR001", True),
        (["UR008"], ["UR"], "UR008", True),  # select is longer
        (["UR008"], ["UR"], "UR001", False),
        (["UR"], ["UR"], "UR001", False),  # a tie: ignore wins
        (["ALL"], ["U"], "UR001", False),
        (["U"], ["ALL"], "UR001", True),
        (["DT"], [], "UR001", False),  # selecting some rules drops the others
    ],
)
def test_longest_prefix_wins(select, ignore, code: str, reported: bool) -> None:
    selection = Selection([layer(select=select, ignore=ignore)])
    assert (selection.levels[code] is not None) is reported


def test_extend_select_adds_to_select() -> None:
    selection = Selection([layer(select=["DT"], extend=["UR008"])])
    assert on(selection) == {c for c in RULES if c.startswith("DT")} | {"UR008"}


def test_a_later_layer_with_select_starts_afresh() -> None:
    config = layer(select=["DT"], ignore=["UR"])
    assert on(Selection([config, layer(select=["UR001"])])) == {"UR001"}


def test_a_later_layer_without_select_changes_only_what_it_names() -> None:
    config = layer(ignore=["UR"])
    selection = Selection([config, layer(extend=["UR008"], ignore=["DT005"])])
    assert selection.levels["UR008"] is WARNING  # back on
    assert selection.levels["UR001"] is None  # still ignored by the file
    assert selection.levels["DT005"] is None
    assert selection.levels["DT001"] is ERROR


def test_an_empty_command_line_layer_keeps_the_file_decisions() -> None:
    config = layer(select=["UR"], ignore=["UR008"])
    assert on(Selection([config, layer()])) == on(Selection([config]))


def test_severity_table_longest_prefix_and_off() -> None:
    selection = Selection(severity={"UR": ERROR, "UR008": INFO, "DT005": None})
    assert selection.levels["UR008"] is INFO
    assert selection.levels["UR005"] is ERROR
    assert selection.levels["DT005"] is None
    assert selection.levels["DT004"] is WARNING


def test_a_deselected_rule_stays_off_whatever_its_severity() -> None:
    selection = Selection([layer(ignore=["UR008"])], severity={"UR008": ERROR})
    assert selection.levels["UR008"] is None


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_profile_keys_match_rules(name: str) -> None:
    for prefix in PROFILES[name].changes:
        assert matches_a_rule(prefix), (name, prefix)


@pytest.mark.parametrize(
    ("profile", "changed"),
    [
        ("google", {}),
        ("bing", {"DT005": ERROR, "HL004": WARNING, "TX006": WARNING}),
        (
            "yandex",
            {c: INFO for c, r in RULES.items() if c.startswith("HL") and r.severity is not INFO}
            | {"FD001": ERROR, "UR012": ERROR, "VA004": ERROR},
        ),
        (
            "strict",
            {
                "DT004": ERROR,
                "NS003": ERROR,
                "IM006": ERROR,
                "NW012": ERROR,
                "NW016": ERROR,
                "NW019": ERROR,
                "UR016": ERROR,
                "VD018": ERROR,
                "ST013": ERROR,
            },
        ),
    ],
)
def test_profiles_change_exactly_these_rules(profile: str, changed: dict) -> None:
    levels = Selection(profile=profile).levels
    differs = {code: level for code, level in levels.items() if level is not RULES[code].severity}
    assert differs == changed


def test_strict_profile_leaves_no_date_or_schema_warning() -> None:
    levels = Selection(profile="strict").levels
    for code in ("DT", "XS", "ST"):
        assert all(
            level is ERROR
            for c, level in levels.items()
            if c.startswith(code) and c not in ("DT005", "DT006")
        )


def test_severity_table_applies_after_the_profile() -> None:
    assert Selection(profile="bing", severity={"DT": WARNING}).levels["DT005"] is WARNING


def test_per_file_ignores(tmp_path: Path) -> None:
    ignores = [(FileGlob("legacy/*.xml", tmp_path), ("UR", "DT004"))]
    selection = Selection(per_file_ignores=ignores)
    legacy = str(tmp_path / "legacy" / "sitemap.xml")
    other = str(tmp_path / "sitemap.xml")
    assert selection.for_file(other) is selection.levels
    levels = selection.for_file(legacy)
    assert levels["UR001"] is None and levels["DT004"] is None and levels["DT005"] is WARNING


def test_apply_filters_and_changes_severity_keeping_order(tmp_path: Path) -> None:
    findings = [
        RULES["UR008"].at(3, 1, "fragment"),
        RULES["DT005"].at(4, 1, "future"),
        RULES["UR001"].at(5, 1, "relative"),
    ]
    selection = Selection([layer(ignore=["UR001"])], profile="bing")
    kept = reported(findings, selection.for_file("sitemap.xml"))
    assert [(f.code, f.severity) for f in kept] == [("UR008", WARNING), ("DT005", ERROR)]
    assert kept[0] is findings[0]  # unchanged findings are not copied
    assert kept[1] == Finding("DT005", "date-in-future", ERROR, "future", 4, 1)


@pytest.mark.parametrize("text", ["UR", "ur008", " DT004 ", "ALL", "U", "X"])
def test_parse_codes_accepts_codes_and_prefixes(text: str) -> None:
    assert parse_codes([text], "--select") == (text.strip().upper(),)


@pytest.mark.parametrize("text", ["UR999", "ZZ", "UR0001", "", "UR-1", "SITEMAP"])
def test_parse_codes_refuses_what_matches_no_rule(text: str) -> None:
    with pytest.raises(UsageError, match=r"^--ignore: .* is not a rule code"):
        parse_codes([text], "--ignore")


def test_split_codes() -> None:
    assert split_codes("UR008, DT,", "--select") == ("UR008", "DT")
    assert split_codes("", "--select") == ()


def test_yandex_profile_makes_its_limits_errors() -> None:
    from sitemap_lint.cli import main

    path = "fixtures/rules/VA004/fail.xml"
    assert main(["--isolated", "--now", "2025-06-01", "--format", "concise", path]) == 0
    assert main(["--isolated", "--now", "2025-06-01", "--profile", "yandex", path]) == 1
