"""The compiled SCM: equation parsing, evaluation order, rounding, shift semantics, golden traces."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.lab.scm import SCM, parse_computation
from causalcheck.lab.suites import load_suite

CHAIN = {
    "graph_id": "chain",
    "nodes": {
        "resonanceFreq": {"is_controllable": False, "computation": "base_freq + coeff_b_freq * b"},
        "a": {"is_controllable": True},
        "b": {"is_controllable": True, "computation": "base_b + coeff_a_b * a"},
    },
    "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "resonanceFreq"}],
    "params": {"base_freq": 10, "coeff_b_freq": 2, "coeff_a_b": 3, "base_b": 99},
    "budget": 8,
}


def test_computation_polynomial_handles_powers_and_signs() -> None:
    """`^` is a power, subtraction and unary minus give negative coefficients."""
    poly = parse_computation("c + 2 * (x ^ 2) - -x - 3*x").polynomial()
    assert poly == {(("c", 1),): 1.0, (("x", 2),): 2.0, (("x", 1),): -2.0}


def test_computation_names_stay_as_written() -> None:
    """A computation's names are not normalised: ``freq`` is a param name, not the frequency."""
    assert parse_computation("base + freq * x").polynomial() == {(("base", 1),): 1.0, (("freq", 1), ("x", 1)): 1.0}


@pytest.mark.parametrize("text", ["", "x(", "f(x)", "x ** y", "x / y", "'a'", "x ^ 9", "x / (y - y)"])
def test_computation_rejects_non_polynomials(text: str) -> None:
    """Anything that is not a polynomial in names is an InputFormatError naming the text."""
    with pytest.raises(InputFormatError) as err:
        parse_computation(text, source="cfg").polynomial(what="cfg")
    assert repr(text) in str(err.value) and "cfg" in str(err.value)


def test_chain_evaluation_uses_crystal_base_not_param() -> None:
    """``base_b`` in the equation is the crystal's base, the static param is ignored."""
    scm = SCM.from_config(CHAIN)
    vals = scm.evaluate({"a": 5, "b": 1})
    assert vals == {"a": 5.0, "b": 16.0, "resonanceFreq": 42.0}
    assert scm.order_names == ("a", "b", "resonanceFreq")


def test_values_are_rounded_to_two_decimals_before_children_read_them() -> None:
    """A child sees the 2-dp rounded parent (0.005 rounding is Python's ``round``)."""
    cfg = json.loads(json.dumps(CHAIN))
    cfg["params"]["coeff_a_b"] = 0.333
    scm = SCM.from_config(cfg)
    vals = scm.evaluate({"a": 10, "b": 0})
    assert vals["b"] == round(3.33, 2)
    assert vals["resonanceFreq"] == round(10 + 2 * 3.33, 2)


def test_shift_keeps_parents_active() -> None:
    """After setting b, a later change of a still moves b (unlike do())."""
    scm = SCM.from_config(CHAIN)
    idx = scm.index
    bases = [0.0] * 3
    bases[idx["a"]], bases[idx["b"]] = 5, 1
    vals = scm.evaluate_list(bases)
    bases[idx["b"]] = scm.shift_base(bases, vals, idx["b"], 50)
    vals = scm.evaluate_list(bases)
    assert vals[idx["b"]] == 50
    bases[idx["a"]] = scm.shift_base(bases, vals, idx["a"], 6)
    vals = scm.evaluate_list(bases)
    assert vals[idx["b"]] == 53
    assert scm.bases_from_values(vals)[idx["b"]] == bases[idx["b"]]


@pytest.mark.parametrize(
    ("node", "base", "value", "target", "old_formula"),
    [
        ("b", 0.07, 0.39, 81.645, 81.32),  # half-way: round(81.645 - 0.32) = 81.33; round(0.07 + 81.255) = 81.32
        ("a", 12.34, 12.34, 2.675, 2.68),  # root: round(v) = 2.67; b + (v - x) = 2.6750000000000007 -> 2.68
        ("b", 1.5, 2.25, 3e16 + 1, 2.9999999999999996e16),  # huge: the detour through b + (v - x) loses a digit
    ],
)
def test_shift_rounds_the_new_base_like_the_original(node: str, base: float, value: float, target: float, old_formula: float) -> None:
    """A root's new base is round(v, 2), a hybrid's round(v − (x − b), 2) — not round(b + (v − x), 2)."""
    scm = SCM.from_config(CHAIN)
    j = scm.index[node]
    bases, values = [0.0] * 3, [0.0] * 3
    bases[j], values[j] = base, value
    expected = round(target, 2) if not scm.has_parents(j) else round(target - (value - base), 2)
    assert round(base + (target - value), 2) == old_formula != expected
    assert scm.shift_base(bases, values, j, target) == expected


@pytest.mark.parametrize(
    ("patch", "needle"),
    [
        ({"edges": [{"from": "a", "to": "b"}]}, "edges declare"),
        ({"params": {"base_freq": "ten"}}, "'ten'"),
        ({"nodes": {"resonanceFreq": {"is_controllable": False}}}, "no computation"),
    ],
)
def test_inconsistent_configs_are_rejected(patch: dict[str, object], needle: str) -> None:
    """Equations that disagree with edges, non-numeric params and missing equations are errors."""
    cfg = {**json.loads(json.dumps(CHAIN)), **patch}
    with pytest.raises(InputFormatError, match=re.escape(needle)):
        SCM.from_config(cfg)


def test_golden_traces_are_reproduced_exactly(causalab_data: Path) -> None:
    """Every intervention entry of the golden suites (493) follows from entry 0 under shifts."""
    checked = 0
    for name in ("4nodes_golden.jsonl", "6nodes_golden.jsonl"):
        for g in load_suite(causalab_data / name):
            scm, idx = g.scm, g.scm.index
            first = g.bootstrap[0]
            vals = [0.0] * len(scm.nodes)
            for k, v in first["props"].items():
                vals[idx[k]] = v
            vals[scm.freq] = first["freq"]
            bases = scm.bases_from_values(vals)
            vals = scm.evaluate_list(bases)
            for entry in g.bootstrap[2:]:
                iv = entry["intervention"]
                j = idx[iv["target_prop"]]
                bases[j] = scm.shift_base(bases, vals, j, iv["target_value"])
                vals = scm.evaluate_list(bases)
                expected = {**entry["props"], "resonanceFreq": entry["freq"]}
                assert {n: vals[idx[n]] for n in expected} == expected, (g.graph_id, entry["id"])
                checked += 1
    assert checked == 493


def test_prior_records_match_the_recorded_sample_run(causalab_data: Path, sample_run: Path) -> None:
    """Random(42) prior records equal the two observations in the official sample's task text."""
    from causalcheck.lab.episode import Episode

    data = next(sample_run.glob("*_data.json"))
    text = json.loads(data.read_text())["task_description"]
    shown = re.findall(r"- Observation \d+: (\{[^}]*\})", text)
    assert len(shown) == 2
    ep = Episode(load_suite(causalab_data / "4nodes.jsonl").get("4nodes_0"))
    task, _ = ep.reset(1)
    for rec, line in zip(task.prior_records, shown, strict=True):
        official = {k: float(v) for k, v in json.loads(line.replace("'", '"')).items()}
        assert {**rec["props"], "resonanceFreq": rec["freq"]} == official
    # and the anchor's generator is the plain Random(42) stream, in config order
    rng = random.Random(42)
    assert [rng.randint(0, 100) for _ in range(3)] == [81, 14, 3]
