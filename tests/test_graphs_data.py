"""causalcheck.graphs.data: the table the validator reads (its reading and refusals: test_graphchecks_validator_data.py, test_graphs_datafast.py)."""

from __future__ import annotations


def test_a_continuous_columns_levels_are_counted_when_read() -> None:
    """Integer and categorical columns are counted when the table is made; a continuous one (a sort of the
    column, never needed by the tests) when ``levels`` is first read — the same numbers either way."""
    from causalcheck.graphs.data import load_data

    t = load_data({"x": [0.5, 0.25, 0.5, 1.5, 2.0], "k": [1, 2, 2, 1, 3], "c": ["a", "b", "a", "a", "b"]}, ["x", "k", "c"])
    assert t.kinds == ("continuous", "integer", "categorical")
    assert t.counted_levels == (None, 3, 2)
    assert t.levels == (4, 3, 2)
    assert t.counted_levels == (4, 3, 2)  # counted once
    assert not t.discrete
