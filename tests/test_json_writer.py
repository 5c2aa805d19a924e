"""The JSON report writes exactly what json.dump(..., ensure_ascii=False, indent=2) writes."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_lint.report import json as json_report

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)))
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=5), inner, max_size=5)
        | st.dictionaries(st.integers(), inner, max_size=3)
    ),
    max_leaves=40,
)


def written(value: object) -> str:
    out = io.StringIO()
    json_report.write(value, "", out.write)
    return out.getvalue()


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_the_same_text_as_json_dump(value: object) -> None:
    assert written(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_a_long_list_is_written_in_batches_with_the_same_text() -> None:
    finding = {"code": "XM004", "line": 4, "fix": {"edits": [{"content": "a&amp;b\n\x1b"}]}}
    value = {"files": [{"path": "a", "findings": [finding] * (json_report._BATCH * 2 + 3)}]}
    out = io.StringIO()
    writes: list[str] = []

    def record(text: str) -> None:
        writes.append(text)
        out.write(text)

    json_report.write(value, "", record)
    assert out.getvalue() == json.dumps(value, ensure_ascii=False, indent=2)
    assert len(writes) < 30  # batches, not one write per piece
