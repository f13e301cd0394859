"""Examples for causalcheck.metrics: CausaLab conventions, empty-set rules, lookups, formula error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graph import FREQ, Edge
from causalcheck.metrics import (
    bootstrap_ci,
    coefficient_prf,
    edge_prf,
    formula_error,
    frequency_hit,
    normalize_pairs,
    parent_prf,
    root_prf,
    roots_upstream_of,
    set_prf,
    shd,
    task_accuracy,
    true_coefficients,
)

CONFIG_4N0 = {
    "graph_id": "4nodes_0",
    "nodes": {
        FREQ: {"computation": "base_freq + coeff_density_freq * density + coeff_moisture_freq * moisture"},
        "quantumSize": {"computation": "base_quantumSize + coeff_density_quantumSize * density"},
        "density": {},
        "moisture": {},
    },
    "edges": [
        {"from": "density", "to": FREQ},
        {"from": "moisture", "to": FREQ},
        {"from": "density", "to": "quantumSize"},
    ],
    "params": {"base_freq": 25.0, "coeff_density_freq": 1, "coeff_moisture_freq": 1, "base_quantumSize": 24.0,
               "coeff_density_quantumSize": 1},
}
TRUE = CONFIG_4N0["edges"]
SAMPLE_FINAL = [("moisture", FREQ), ("quantumSize", FREQ), ("density", "quantumSize")]
SAMPLE_COEFFS = {"base": -56.70212765957447, "c_moisture": 1.2340425531914894, "c_quantumSize": 1}


def test_sample_final_hypothesis_reproduces_the_published_numbers() -> None:
    """The sample run's final hypothesis scores as the official re-evaluation (spec §7)."""
    e = edge_prf(SAMPLE_FINAL, TRUE)
    assert (round(e.precision, 4), round(e.recall, 4), round(e.f1, 4)) == (0.6667, 0.6667, 0.6667)
    assert shd(SAMPLE_FINAL, TRUE).to_json() == {"total": 2, "missing": 1, "extra": 1, "reversed": 0}
    assert parent_prf(SAMPLE_FINAL, TRUE).f1 == 0.5
    assert root_prf(SAMPLE_FINAL, TRUE).f1 == 1.0
    assert coefficient_prf(SAMPLE_COEFFS, CONFIG_4N0).f1 == 0.0


@pytest.mark.parametrize(
    ("pred", "true", "expected"),
    [
        (set(), set(), (1.0, 1.0, 1.0)),
        (set(), {"a"}, (0.0, 0.0, 0.0)),
        ({"a"}, set(), (0.0, 0.0, 0.0)),
        ({"a", "b"}, {"a"}, (0.5, 1.0, 2 / 3)),
        ({"c"}, {"a"}, (0.0, 0.0, 0.0)),
    ],
)
def test_set_prf_empty_set_rules(pred: set[str], true: set[str], expected: tuple[float, float, float]) -> None:
    """Empty predicted/true sets follow the anchor's rules (spec §4.2)."""
    r = set_prf(pred, true)
    assert (r.precision, r.recall, r.f1) == pytest.approx(expected)


def test_frequency_aliases_are_normalised_but_other_names_are_case_sensitive() -> None:
    """'Resonance Frequency' means resonanceFreq; 'Density' is not 'density' (spec §4.1)."""
    assert edge_prf([("density", "Resonance Frequency")], [("density", FREQ)]).f1 == 1.0
    assert edge_prf([("Density", FREQ)], [("density", FREQ)]).f1 == 0.0


def test_edges_accept_pairs_dicts_and_edge_objects() -> None:
    """Pairs, {'from','to'} dicts and Edge objects give the same set; duplicates collapse."""
    want = frozenset({("a", "b")})
    assert normalize_pairs([("a", "b"), {"from": "a", "to": "b"}, Edge("a", "b")]) == want


def test_bad_edges_raise_input_errors_that_show_the_value() -> None:
    """A malformed edge is an InputFormatError naming it."""
    with pytest.raises(InputFormatError, match="'from'"):
        edge_prf([{"source": "a"}], [])
    with pytest.raises(InputFormatError, match="42"):
        edge_prf([42], [])


def test_shd_counts_a_reversal_once_or_twice_on_request() -> None:
    """One reversed edge costs 1 (CausaLab) or 2 (cdt's double count)."""
    assert shd([("b", "a")], [("a", "b")]).to_json() == {"total": 1, "missing": 0, "extra": 0, "reversed": 1}
    assert shd([("b", "a")], [("a", "b")], double_count_reversal=True).total == 2


def test_shd_with_both_directions_predicted() -> None:
    """Predicting a -> b and b -> a against a -> b is one extra edge, not a reversal."""
    assert shd([("a", "b"), ("b", "a")], [("a", "b")]).to_json() == {"total": 1, "missing": 0, "extra": 1, "reversed": 0}


def test_parent_prf_only_looks_at_edges_into_the_target() -> None:
    """Edges not ending in the frequency are ignored by the parent metric."""
    assert parent_prf([("x", "y"), ("a", FREQ)], [("a", FREQ)]).f1 == 1.0
    assert parent_prf([("a", "y")], [("a", "y")], target="y").f1 == 1.0


def test_roots_are_parentless_ancestors_of_the_target() -> None:
    """Isolated nodes and roots not upstream of the frequency are not roots (spec §4.5)."""
    edges = [("a", "b"), ("b", FREQ), ("c", "d")]
    assert roots_upstream_of(edges) == {"a"}
    assert root_prf([], []).f1 == 1.0


def test_true_coefficients_find_abbreviated_and_quadratic_names() -> None:
    """temperatureC's coefficient is coeff_temp_freq (found in the computation); quad suites give coeff1."""
    cfg = {
        "nodes": {FREQ: {"computation": "base_freq + coeff_temp_freq * temperatureC + coeff2_ph_freq * (ph ^ 2) + coeff1_ph_freq * ph"}},
        "edges": [{"from": "temperatureC", "to": FREQ}, {"from": "ph", "to": FREQ}],
        "params": {"base_freq": 20.0, "coeff_temp_freq": 3, "coeff2_ph_freq": 0.01, "coeff1_ph_freq": -1.2},
    }
    assert true_coefficients(cfg) == {"temperatureC": 3.0, "ph": -1.2}


def test_coefficient_prf_lookup_order_and_counts() -> None:
    """c_<p> is matched case-insensitively; extra c_ keys count as predictions; base never does."""
    r = coefficient_prf({"base": 25, "c_density": 1, "c_moisture": 1, "c_other": 2}, CONFIG_4N0)
    assert (r.correct, r.n_pred, r.n_true) == (2, 3, 2)
    assert r.recall == 1.0 and r.precision == pytest.approx(2 / 3)
    # n_pred = max(matched keys, keys spelled "c_*"/"coeff_*"): "C_Density" matches but is not spelled c_
    r = coefficient_prf({"C_Density": 1, "c_moisture": 1, "c_other": 2}, CONFIG_4N0)
    assert (r.correct, r.n_pred) == (2, 2)
    assert coefficient_prf({}, {"edges": [], "params": {}}).f1 == 1.0
    assert coefficient_prf({"c_density": 1.001}, CONFIG_4N0, tolerance=0.01).correct == 1
    assert coefficient_prf({"c_density": None}, CONFIG_4N0).n_pred == 1


def test_coefficient_prf_rejects_a_negative_tolerance() -> None:
    """tolerance must be >= 0 and the message shows it."""
    with pytest.raises(InputFormatError, match="-1"):
        coefficient_prf({}, CONFIG_4N0, tolerance=-1)


def test_formula_error_uses_the_true_target() -> None:
    """The sample's final equation predicts 99.255 Hz for the reactor crystal, 56.745 Hz off the true 156."""
    res = formula_error(
        "resonanceFreq = base + c_moisture*moisture + c_quantumSize*quantumSize",
        {"temperatureC": 25.0, "moisture": 34, "density": 97, "quantumSize": 114},
        156.0,
        SAMPLE_COEFFS,
    )
    assert res.predicted == pytest.approx(99.25531914893617)
    assert res.abs_error == pytest.approx(56.74468085106383)
    assert res.hit is False


@pytest.mark.parametrize(
    ("equation", "reason"),
    [("", "empty"), ("f = 2 +", "does not parse"), ("f = k*x", "no value"), ("f = 1/(x-x)", "cannot evaluate"),
     ("f = __import__('os')", "does not parse"), ("f = (0-8)^0.5", "not real"), ("f = 10^10^10", "cannot evaluate"),
     ("f = x.real", "does not parse"), ("f = 1e400 * x", "does not parse"), ("f = 0^-1", "cannot evaluate"),
     ("f = 1e308 * 10 * x", "not finite")],
)
def test_formula_error_reports_why_it_could_not_evaluate(equation: str, reason: str) -> None:
    """Unevaluable equations give a reason instead of raising."""
    res = formula_error(equation, {"x": 1.0}, 10.0)
    assert res.predicted is None and res.hit is None
    assert reason in (res.reason or "")


def test_formula_error_accepts_caret_powers() -> None:
    """'^' is a power (as in the SCM files), not XOR."""
    assert formula_error("F = 2 + x^2", {"x": 3}, 11.0).hit is True


def test_frequency_hit_and_task_accuracy() -> None:
    """Hit is |v − t| ≤ tol; accuracy skips unknown outcomes."""
    assert frequency_hit(161.0, 156.0) and not frequency_hit(161.01, 156.0) and not frequency_hit(None, 1.0)
    assert task_accuracy([True, False, None, 1]) == pytest.approx(2 / 3)
    assert task_accuracy([]) is None


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    """Same values and seed give the same interval; the interval contains the mean."""
    vals = [0.1, 0.5, 0.9, 0.4, 0.7]
    a, b = bootstrap_ci(vals, seed=3), bootstrap_ci(vals, seed=3)
    assert a == b
    assert a.low is not None and a.high is not None and a.low <= a.mean <= a.high  # type: ignore[operator]
    assert bootstrap_ci([1.0]).low is None
    assert bootstrap_ci([None]).mean is None
    with pytest.raises(InputFormatError):
        bootstrap_ci(vals, resamples=-1)


def test_true_coefficients_on_every_official_graph(causalab_data: Path) -> None:
    """Every parent of the frequency has a findable coefficient in all 950 official records."""
    for path in sorted(causalab_data.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            parents = {e["from"] for e in rec["edges"] if e["to"] == FREQ}
            assert set(true_coefficients(rec)) == parents, (path.name, rec["graph_id"])
