"""Reward terms: bounds, determinism, monotonicity, and the paper weights equal lab score's metrics."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import pytest
from causalcheck.graph import FREQ, CausalGraph
from causalcheck.parsing import parse_hypothesis
from causalcheck.records import DataPoint
from causalcheck.rl.rewards import (
    PRESETS,
    TERMS,
    RewardWeights,
    consistency_term,
    info_gain_term,
    mechanism_terms,
    premature_stop_term,
    reward_weights,
)
from causalcheck.solvers.equivalence import imec_size
from hypothesis import given, settings
from hypothesis import strategies as st

NODES = ["a", "b", "c", FREQ]
PAIRS = st.lists(st.tuples(st.sampled_from(NODES), st.sampled_from(NODES)).filter(lambda p: p[0] != p[1]), max_size=8, unique=True)
CONFIG = {"nodes": {n: {} for n in NODES}, "edges": [{"from": "a", "to": FREQ}, {"from": "b", "to": FREQ}], "params": {}}


def _in_range(name: str, value: float) -> bool:
    lo, hi = TERMS[name]
    return lo <= value <= hi and math.isfinite(value)


@given(PAIRS, PAIRS)
def test_mechanism_terms_are_bounded_deterministic_and_perfect_on_the_truth(pred: list, truth: list) -> None:
    """Every mechanism term lies in its range, repeats exactly, and the truth itself scores F1 1 and SHD 0."""
    terms, raw = mechanism_terms(pred, {}, truth, None, nodes=len(NODES))
    assert all(_in_range(k, v) for k, v in terms.items())
    assert (terms, raw) == mechanism_terms(pred, {}, truth, None, nodes=len(NODES))
    best, _ = mechanism_terms(truth, {}, truth, None, nodes=len(NODES))
    assert best["shd"] == 0.0 and (best["edge_f1"] == 1.0 or not truth)


@given(PAIRS)
def test_adding_a_true_edge_never_lowers_edge_f1(pred: list) -> None:
    """Monotonicity: with the true edges fixed, adding a missing true edge raises (or keeps) edge F1 and lowers SHD."""
    truth = [("a", FREQ), ("b", FREQ), ("a", "c")]
    missing = [p for p in truth if p not in pred and (p[1], p[0]) not in pred]
    if not missing:
        return
    before, _ = mechanism_terms(pred, {}, truth, None, nodes=4)
    after, _ = mechanism_terms([*pred, missing[0]], {}, truth, None, nodes=4)
    assert after["edge_f1"] >= before["edge_f1"] and after["shd"] >= before["shd"]


@given(st.integers(0, 100), st.integers(0, 100), st.integers(0, 100))
def test_info_gain_is_within_zero_and_one(before: int, after: int, mec: int) -> None:
    """info_gain is in [0, 1] for any sizes, 0 when nothing was learnt."""
    v = info_gain_term(before, after, mec)
    assert _in_range("info_gain", v)
    assert info_gain_term(before, before, mec) == 0.0


@given(st.lists(st.sampled_from(["a", "b", "c", FREQ]), max_size=4))
def test_imec_sizes_never_grow_as_targets_are_added(targets: list) -> None:
    """Monotonicity of the quantity info_gain reads: more intervention targets, no larger I-MEC."""
    g = CausalGraph.from_pairs([("a", "b"), ("b", "c"), ("a", "c"), ("c", FREQ)], NODES)
    sizes = [imec_size(g, [[t] for t in sorted(set(targets[:k]))]) for k in range(len(targets) + 1)]
    assert all(x is not None and y is not None and y <= x for x, y in itertools.pairwise(sizes))


@given(st.sampled_from(["agent-submitted", "reactor-activated", "step-limit", "submissions-exhausted"]), st.booleans(), st.integers(0, 5), st.integers(0, 5))
def test_premature_stop_is_bounded_and_only_for_an_early_submit(reason: str, success: bool, left: int, total: int) -> None:
    """premature_stop in [-1, 0]; non-zero only when the agent ended an unsolved episode itself."""
    v = premature_stop_term(reason, success, left, total)
    assert _in_range("premature_stop", v)
    assert v == 0.0 or (reason == "agent-submitted" and not success)


_POINTS = st.lists(st.tuples(st.integers(-20, 20), st.integers(-50, 50)), min_size=1, max_size=6)


@settings(max_examples=30, deadline=None)
@given(_POINTS, _POINTS, st.integers(-3, 3), st.integers(-3, 3))
def test_a_refuted_hypothesis_stays_refuted_when_points_are_added(first: list, more: list, base: int, slope: int) -> None:
    """Monotonicity the tracker's cache relies on: a conflict among some points remains with more points."""
    h = parse_hypothesis({"edges": [{"from": "a", "to": FREQ}], "freq_equation": f"{FREQ} = base + c_a*a", "coefficients": {"base": base, "c_a": slope}})
    pts = [DataPoint(f"p{i}", {"a": float(x)}, float(y)) for i, (x, y) in enumerate(first)]
    extra = [DataPoint(f"q{i}", {"a": float(x)}, float(y)) for i, (x, y) in enumerate(more)]
    v, conflicting = consistency_term(h, pts)
    assert _in_range("consistency", v) and (v == -1.0) == bool(conflicting)
    assert consistency_term(h, pts) == (v, conflicting)
    if v == -1.0:
        assert consistency_term(h, pts + extra)[0] == -1.0


#: coefficients of every magnitude a model can write, overflow included
_ANY_NUMBER = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e308, -1e308, 1.7976931348623157e308, 5e-324, 1e15, -1e300]),
    st.integers(-(10**30), 10**30),
)
#: terms that cannot be evaluated on any point (x - x is 0 everywhere), with any coefficient
_JUNK = ["k/(a - a)", "k/(a - a)^2", "(a - a)^(0 - 1)*k", "k/0"]


@settings(max_examples=60, deadline=None)
@given(_POINTS, _ANY_NUMBER, _ANY_NUMBER)
def test_the_consistency_term_never_raises_on_any_coefficient(points: list, base: float, slope: float) -> None:
    """Coefficients up to ±1e308 (whose evaluation overflows) give a term in {-1, 0}, never an exception."""
    h = parse_hypothesis({"edges": [{"from": "a", "to": FREQ}], "freq_equation": f"{FREQ} = base + c_a*a*a + c_a*a",
                          "coefficients": {"base": base, "c_a": slope}})  # fmt: skip
    pts = [DataPoint(f"p{i}", {"a": float(x)}, float(y)) for i, (x, y) in enumerate(points)]
    v, conflicting = consistency_term(h, pts)
    assert _in_range("consistency", v) and (v == -1.0) == bool(conflicting)


@settings(max_examples=40, deadline=None)
@given(_POINTS, st.integers(-3, 3), st.integers(-3, 3), st.sampled_from(_JUNK), st.integers(-2, 2))
def test_a_term_that_cannot_be_evaluated_never_lifts_a_hypothesis(points: list, base: int, slope: int, junk: str, k: int) -> None:
    """Adding a term undefined on every point scores no better than the hypothesis without it, refuted or not."""
    pts = [DataPoint(f"p{i}", {"a": float(x)}, float(y)) for i, (x, y) in enumerate(points)]
    plain = parse_hypothesis({"edges": [{"from": "a", "to": FREQ}], "freq_equation": f"{FREQ} = base + c_a*a",
                              "coefficients": {"base": base, "c_a": slope}})  # fmt: skip
    padded = parse_hypothesis({"edges": [{"from": "a", "to": FREQ}], "freq_equation": f"{FREQ} = base + c_a*a + {junk}",
                               "coefficients": {"base": base, "c_a": slope, "k": k}})  # fmt: skip
    assert consistency_term(padded, pts)[0] == -1.0
    assert consistency_term(padded, pts)[0] <= consistency_term(plain, pts)[0]


@given(st.dictionaries(st.sampled_from(list(TERMS)), st.floats(-1, 1), min_size=1))
def test_the_reward_is_the_weighted_sum_and_paper_counts_success_only(terms: dict) -> None:
    """combine is sum(weight*term); the paper weights see only the success term."""
    dense = PRESETS["dense"]
    assert math.isclose(dense.combine(terms), sum(getattr(dense, k) * v for k, v in terms.items()), abs_tol=1e-12)
    assert PRESETS["paper"].combine(terms) == terms.get("success", 0.0)
    assert reward_weights(None) == dense and reward_weights({"format": 2.0}) == RewardWeights(format=2.0)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.integers(0, 11), st.integers(0, 50), st.sampled_from(["planner", "random", "observational"]))
def test_paper_rewards_equal_lab_score_on_the_same_trajectory(index: int, seed: int, agent: str) -> None:
    """Summed paper rewards are lab score's task accuracy; the mechanism terms its edge/parent/coefficient F1 and SHD."""
    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed: pip install 'causalcheck[rl]'")
    from _rl import planner_replies
    from causalcheck.episodes import Trajectory, trajectory_episode
    from causalcheck.lab.score import score_episode
    from causalcheck.lab.suites import load_suite
    from causalcheck.rl.env import CausaLabEnv

    graph = load_suite("mini").graphs[index]
    replies = planner_replies(graph, seed, agent)
    env = CausaLabEnv("mini", graph=index, rewards="paper")
    env.reset(seed=seed)
    total, info = 0.0, {}
    for reply in replies:
        _, reward, terminated, truncated, info = env.step(reply)
        total += reward
        if terminated or truncated:
            break
    header, steps = env.trajectory
    final = score_episode(trajectory_episode(Trajectory(header, tuple(steps), env.episode.summary()), source="x"), audit=False).final
    assert total == final["task_accuracy"]
    assert info["reward_details"]["final"] == {k: final[k] for k in ("edge_f1", "parent_f1", "coefficient_f1", "shd")}
    assert json.dumps(info, sort_keys=True)  # info is plain JSON


_MINI: list[Any] = []


def _mini_graphs() -> list[Any]:
    if not _MINI:
        from causalcheck.lab.suites import load_suite

        _MINI.extend(load_suite("mini").graphs)
    return _MINI


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 11),
    st.lists(st.tuples(st.sampled_from(["pressure", "moisture", "density", FREQ]), st.sampled_from(["pressure", "moisture", FREQ])), max_size=4),
    st.dictionaries(st.sampled_from(["base", "c_pressure", "c_moisture"]), st.integers(-5, 5) | st.none(), max_size=3),
    st.sampled_from(["object", "json"]),
    st.sampled_from(["pairs", "records", "pairs json", "records json", "from config"]),
    st.sampled_from(["object", "json"]),
)
def test_every_column_form_gives_the_reward_of_the_object_form(
    index: int, edges: list, coefficients: dict, data_form: str, edges_form: str, config_form: str
) -> None:
    """data, true_edges and config in each documented form (objects, JSON text, the suite's edge records,
    the truth taken from the config) give exactly the reward of the object form."""
    import json as _json

    from causalcheck.rl.trl import hypothesis_reward

    graph = _mini_graphs()[index % len(_mini_graphs())]
    config = graph.config
    pairs = [[e["from"], e["to"]] for e in config["edges"]]
    data = [{"id": f"p{i}", "props": {"pressure": float(i), "moisture": 2.0 * i}, "freq": 10.0 + i} for i in range(3)]
    completion = _json.dumps({"hypothesis": {"edges": [{"from": a, "to": b} for a, b in edges if a != b],
                                             "freq_equation": f"{FREQ} = base + c_pressure*pressure",
                                             "coefficients": coefficients}, "action": "SUBMIT"})  # fmt: skip
    reference = hypothesis_reward(prompts=["p"], completions=[completion], data=[data], true_edges=[pairs], config=[config])
    truth: Any = {
        "pairs": pairs, "records": config["edges"], "pairs json": _json.dumps(pairs),
        "records json": _json.dumps(config["edges"]), "from config": None,
    }[edges_form]  # fmt: skip
    columns: dict[str, Any] = {
        "data": [data if data_form == "object" else _json.dumps(data)],
        "config": [config if config_form == "object" else _json.dumps(config)],
    }
    if truth is not None:
        columns["true_edges"] = [truth]
    assert hypothesis_reward(prompts=["p"], completions=[completion], **columns) == reference
