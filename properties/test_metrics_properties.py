"""Property tests of every lab metric: bounds, perfect answers, symmetry, one reversal, renaming."""

from __future__ import annotations

from causalcheck.graph import FREQ
from causalcheck.metrics import (
    coefficient_prf,
    edge_prf,
    parent_prf,
    root_prf,
    set_prf,
    shd,
)
from hypothesis import given
from hypothesis import strategies as st

NODES = ["a", "b", "c", "d", "e", FREQ]
RENAME = {"a": "alpha", "b": "Beta", "c": "c2", "d": "delta_x", "e": "eta"}

pairs = st.lists(
    st.tuples(st.sampled_from(NODES), st.sampled_from(NODES)).filter(lambda p: p[0] != p[1]),
    max_size=12,
)


def _rename(edges: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(RENAME.get(a, a), RENAME.get(b, b)) for a, b in edges]


def _config(edges: list[tuple[str, str]], weights: dict[str, int]) -> dict[str, object]:
    params: dict[str, object] = {"base_freq": 20.0}
    for a, b in edges:
        if b == FREQ:
            params[f"coeff_{a}_freq"] = weights.get(a, 1)
    return {"edges": [{"from": a, "to": b} for a, b in edges], "params": params, "nodes": {FREQ: {}}}


PRF_METRICS = [edge_prf, parent_prf, root_prf]


@given(pairs, pairs)
def test_prf_bounds(pred: list[tuple[str, str]], true: list[tuple[str, str]]) -> None:
    """Precision, recall and F1 of every set metric lie in [0, 1]; F1 ≤ max(P, R)."""
    for metric in PRF_METRICS:
        r = metric(pred, true)
        for v in (r.precision, r.recall, r.f1):
            assert 0.0 <= v <= 1.0
        assert r.f1 <= max(r.precision, r.recall) + 1e-12


@given(pairs)
def test_perfect_hypothesis_scores_one_and_zero(true: list[tuple[str, str]]) -> None:
    """Predicting the true graph gives F1 = 1 everywhere and SHD = 0."""
    for metric in PRF_METRICS:
        assert metric(true, true).f1 == 1.0
    assert shd(true, true).total == 0


@given(pairs, pairs)
def test_shd_is_symmetric_and_bounded(pred: list[tuple[str, str]], true: list[tuple[str, str]]) -> None:
    """SHD(P, T) = SHD(T, P) (missing and extra swap) and is at most |P| + |T|."""
    a, b = shd(pred, true), shd(true, pred)
    assert a.total == b.total and a.reversed == b.reversed
    assert (a.missing, a.extra) == (b.extra, b.missing)
    assert 0 <= a.total <= len(set(pred)) + len(set(true))
    assert a.total <= shd(pred, true, double_count_reversal=True).total


@given(pairs, st.data())
def test_reversing_one_edge_of_a_perfect_answer_costs_one(true: list[tuple[str, str]], data: st.DataObject) -> None:
    """Flip one true edge whose reverse is not also true: SHD 1 (2 with the double count)."""
    flippable = [p for p in set(true) if (p[1], p[0]) not in set(true)]
    if not flippable:
        return
    edge = data.draw(st.sampled_from(sorted(flippable)))
    pred = [p for p in set(true) if p != edge] + [(edge[1], edge[0])]
    assert shd(pred, true).to_json() == {"total": 1, "missing": 0, "extra": 0, "reversed": 1}
    assert shd(pred, true, double_count_reversal=True).total == 2


@given(pairs, pairs, st.randoms(use_true_random=False))
def test_metrics_invariant_under_renaming_and_reordering(
    pred: list[tuple[str, str]], true: list[tuple[str, str]], rnd: object
) -> None:
    """Renaming non-frequency nodes consistently or shuffling edge order changes nothing."""
    shuffled = list(pred)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    for metric in PRF_METRICS:
        base = metric(pred, true)
        assert metric(_rename(pred), _rename(true)) == base
        assert metric(shuffled, true) == base
    assert shd(_rename(pred), _rename(true)) == shd(pred, true) == shd(shuffled, true)


@given(st.sets(st.integers(0, 9)), st.sets(st.integers(0, 9)))
def test_set_prf_matches_its_definition(pred: set[int], true: set[int]) -> None:
    """set_prf equals |P∩T|/|P| and |P∩T|/|T| whenever both sets are non-empty."""
    r = set_prf(pred, true)
    if pred and true:
        assert r.precision == len(pred & true) / len(pred)
        assert r.recall == len(pred & true) / len(true)


@given(pairs, st.dictionaries(st.sampled_from(NODES[:-1]), st.integers(1, 3)), st.floats(0, 1))
def test_coefficient_prf_properties(
    true: list[tuple[str, str]], weights: dict[str, int], noise: float
) -> None:
    """Coefficient F1: bounded, 1 for the exact coefficients, invariant under renaming, never above 1 with noise."""
    cfg = _config(true, weights)
    parents = sorted({a for a, b in true if b == FREQ})
    exact = {f"c_{p}": weights.get(p, 1) for p in parents}
    assert coefficient_prf({"base": 20.0, **exact}, cfg).f1 == 1.0
    renamed_cfg = _config(_rename(true), {RENAME.get(k, k): v for k, v in weights.items()})
    renamed = {f"c_{RENAME.get(p, p)}": weights.get(p, 1) for p in parents}
    assert coefficient_prf(renamed, renamed_cfg) == coefficient_prf(exact, cfg)
    noisy = {k: v + noise for k, v in exact.items()}
    r = coefficient_prf(noisy, cfg)
    assert 0.0 <= r.precision <= 1.0 and 0.0 <= r.recall <= 1.0 and 0.0 <= r.f1 <= 1.0
