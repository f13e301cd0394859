"""Property: the explain result item round-trips through its one encoder and decoder (and JSON)."""

from __future__ import annotations

import json
from typing import Any

from causalcheck.base import safejson
from causalcheck.explain.explanation_graph import GraphStats
from causalcheck.explain.result_schema import (
    Additions,
    ItemMetrics,
    ResultItem,
    decode_item,
    encode_item,
)
from hypothesis import given
from hypothesis import strategies as st

TEXT = st.text(max_size=12)
NUMBER = st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(10**12), 10**12)
JSON = st.recursive(
    st.none() | st.booleans() | NUMBER | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
OBJECT = st.dictionaries(TEXT, JSON, max_size=3)
TEXTS = st.lists(TEXT, max_size=3).map(tuple)
SMALL = st.integers(0, 10**6)

BENCHMARK = st.fixed_dictionaries(
    {"id": st.integers(0, 10**6) | TEXT, "question": TEXT, "domain": st.sampled_from(["STEM", "HASS", "Hybrid", "", "Law"])},
    optional={"canonical_id": TEXT, "is_hybrid": st.booleans(), "rubrics": OBJECT, "x_extra": JSON},
)
STATS = st.builds(GraphStats, SMALL, SMALL, SMALL, SMALL, SMALL, SMALL)
OFFSETS = st.lists(st.tuples(TEXT, st.none() | SMALL, st.none() | SMALL), max_size=3).map(tuple)
ADDITIONS = st.builds(
    Additions,
    pm_mode=st.none() | st.sampled_from(["causal", "all"]),
    stats=st.none() | STATS,
    findings=st.none() | st.lists(OBJECT, max_size=2).map(tuple),
    failure_modes=st.none() | TEXTS,
    degraded=st.none() | st.booleans(),
    degraded_reasons=st.none() | TEXTS,
    warnings=st.none() | TEXTS,
    premise_overlap=st.none() | NUMBER,
    edu_offsets=st.none() | OFFSETS,
)
METRICS = st.builds(ItemMetrics, pm=st.none() | OBJECT, rm=st.none() | OBJECT, om=st.none() | NUMBER, degraded=st.none() | st.booleans(),
                    degraded_reasons=st.none() | TEXTS)  # fmt: skip
SCORE = st.none() | NUMBER
SCORED = st.builds(
    ResultItem,
    BENCHMARK,
    ok=st.just(True),
    model_answer=TEXT,
    pm_score=SCORE,
    rm_score=SCORE,
    om_score=SCORE,
    total_score=SCORE,
    parsed_rst_raw=TEXT,
    parsed_rst=OBJECT,
    parsed_rst_source=TEXT,
    parsed_rst_error=st.none() | TEXT,
    parsed_dag=OBJECT,
    parsed_dag_source=TEXT,
    parsed_dag_error=st.none() | TEXT,
    metrics=METRICS,
    causalcheck=ADDITIONS,  # an item without one gets derived values (tested on the official file in tests/)
)
FAILED = st.builds(ResultItem, BENCHMARK, ok=st.just(False), evaluation_status=TEXT,
                   evaluation_error=st.none() | TEXT, causalcheck=st.none() | ADDITIONS)  # fmt: skip


def _through_json(obj: Any) -> Any:
    return safejson.loads(json.dumps(obj, ensure_ascii=False, allow_nan=False), source="property")


@given(SCORED | FAILED)
def test_result_items_round_trip(item: ResultItem) -> None:
    """decode(encode(item)) == item, and encode(decode(obj)) == obj for the JSON the writer gives."""
    obj = _through_json(encode_item(item))
    back = decode_item(obj, ok=item.ok)
    assert back == item
    assert encode_item(back) == obj
    assert json.dumps(encode_item(back), ensure_ascii=False) == json.dumps(obj, ensure_ascii=False)
