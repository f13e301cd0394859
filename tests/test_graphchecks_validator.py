"""validate_graph end to end: every finding code is registered and reachable, reports serialise, the CLI helper."""

from __future__ import annotations

import itertools
import json
import os
from unittest import mock

import numpy as np
import pytest
from _graphs import simulate
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.cli import main_validate
from causalcheck.graphchecks.validator import Finding, format_report
from causalcheck.graphs import Graph, validate_graph
from causalcheck.graphs.codes import VALIDATOR_CODES, codes_table

NAMES = [f"x{i}" for i in range(7)]
CHAIN = Graph.from_directed(list(itertools.pairwise(NAMES)))
WRONG = Graph.from_directed([("x0", "x6"), ("x6", "x3"), ("x3", "x1"), ("x1", "x5"), ("x5", "x2"), ("x2", "x4")])


@pytest.fixture(scope="module")
def chain_data() -> dict[str, np.ndarray]:
    """2000 linear-Gaussian samples of the 7-node chain."""
    return simulate(CHAIN, 2000, np.random.default_rng(8), weight=1.0, signed=False)


def _reports(chain_data: dict[str, np.ndarray]) -> list:
    rng = np.random.default_rng(0)
    small = simulate(Graph.from_directed([("a", "b"), ("b", "c")]), 400, rng)
    with_nan = dict(small)
    with_nan["a"] = small["a"].copy()
    with_nan["a"][:3] = np.nan
    quad = {k: rng.normal(size=300) for k in "abcd"}
    labels = np.array(["lo", "mid", "hi"])
    a, b_ = rng.integers(0, 3, 600), rng.integers(0, 3, 600)
    categorical = {"a": labels[a], "b": labels[(a + (rng.random(600) < 0.3)) % 3], "c": labels[b_]}
    collinear = {"a": small["a"], "b": small["b"], "c": 2 * small["b"]}
    return [
        validate_graph(CHAIN, data=chain_data, coefficients={("x0", "x1"): 1.0, ("x1", "x2"): 0.2, ("x0", "x2"): 1.0}),
        validate_graph(WRONG, data=chain_data),
        validate_graph("a -> b; nodes: c", data=small),
        validate_graph("a -> b -> c; a -> c", data=small),
        validate_graph("a -- b -- c", data=with_nan, nan="drop", coefficients={("a", "b"): 1.0}),
        validate_graph("a -> b -- c", data=small),
        validate_graph("a -- b -- c -- d -- a", data=quad),
        validate_graph("a <-> b -> c", data=small, interventions=["a"]),
        validate_graph("a -> b -> c", truth="b -> a; a -> c", interventions=["c"], background="forbid b -> c\nrequire q -> a"),
        validate_graph("a -- b -- c; a -- c", background="require a -> b\nrequire b -> c\nrequire c -> a"),
        validate_graph("a -> b -> c -> a; c -> d"),
        validate_graph("a -> b; nodes: c", data=categorical),
        validate_graph("a -> b -> c", data=collinear),
        validate_graph(CHAIN, data={k: v[:8] for k, v in chain_data.items()}),
        validate_graph("a <-> b -> c", data=small, basis="local"),
        _over_budgets(),
    ]


def _over_budgets():
    """A report whose SID/AID and coverage are over budgets of one operation (truth-budget, coverage-budget)."""
    env = {"CAUSALCHECK_COMPARE_COST_BUDGET": "1", "CAUSALCHECK_COVERAGE_COST_BUDGET": "1"}
    with mock.patch.dict(os.environ, env):
        return validate_graph("a -- b -- c", truth="a -> b -> c", interventions=[])


def test_every_code_is_registered_and_reached(chain_data):
    """The scenarios reach every registered code, each with a registered severity; the table lists them all."""
    seen: dict[str, set[str]] = {}
    for r in _reports(chain_data):
        for f in r.findings:
            seen.setdefault(f.code, set()).add(f.severity)
    assert set(seen) == set(VALIDATOR_CODES)
    for code, severities in seen.items():
        assert severities <= set(VALIDATOR_CODES[code].severities)
    assert all(f"`{c}`" in codes_table() for c in VALIDATOR_CODES)
    with pytest.raises(AssertionError, match="not registered"):
        Finding("made-up", "error", "x")


def test_verdicts_and_findings_on_the_chain(chain_data):
    """The true chain: not falsified, no violated CI; the stated wrong coefficient is named."""
    ok, wrong = _reports(chain_data)[:2]
    assert ok.falsification is not None and ok.falsification.verdict == "not falsified"
    assert ok.independence is not None and not ok.independence.rejected
    mismatch = [f for f in ok.findings if f.code == "coefficient-mismatch"]
    assert [f.elements for f in mismatch] == [("x1 -> x2",)]
    assert wrong.falsification is not None and wrong.falsification.verdict == "falsified"
    violated = [f for f in wrong.findings if f.code == "ci-violated"]
    assert violated and all("adjusted p=" in f.message for f in violated)
    cert = violated[0].certificate.to_dict()
    assert {"statement", "test", "statistic", "p_value", "adjusted_p", "correction"} <= set(cert)


def test_reports_serialise_and_print(chain_data):
    """to_dict() is JSON-ready for every scenario; the text names each finding."""
    for r in _reports(chain_data):
        text = json.dumps(r.to_dict())
        assert json.loads(text)["ok"] == r.ok
        printed = format_report(r)
        assert all(f.code in printed for f in r.findings)
        assert json.loads(text)["findings"] == [f.to_dict() for f in r.findings]  # the one finding format


def test_bh_correction_rejects_at_least_as_many_as_holm(chain_data):
    """Benjamini–Hochberg is never more conservative than Holm on the same p-values."""
    holm = validate_graph(WRONG, data=chain_data, permutations=0)
    bh = validate_graph(WRONG, data=chain_data, permutations=0, correction="bh")
    assert holm.independence is not None and bh.independence is not None
    assert len(bh.independence.rejected) >= len(holm.independence.rejected) > 0
    assert "falsification-skipped" in holm.codes()


def test_bad_inputs_raise_with_the_value():
    """Data that do not fit and a bad alpha raise InputFormatError naming them."""
    with pytest.raises(InputFormatError, match=r"nodes without a column \['c'\]"):
        validate_graph("a -> b -> c", data={"a": [1.0, 2, 3, 4, 5], "b": [2.0, 1, 0, 3, 2]})
    with pytest.raises(InputFormatError, match=r"alpha=1\.5"):
        validate_graph("a -> b", alpha=1.5)


def test_cli_helper(tmp_path, chain_data):
    """GRAPH --data --truth --interventions --background --json: exit 1 with problems, 0 without, 2 on bad input."""
    graph = tmp_path / "g.txt"
    graph.write_text("\n".join(f"{a} -> {b}" for a, b in itertools.pairwise(NAMES)), encoding="utf-8")
    data = tmp_path / "d.csv"
    rows = np.column_stack([chain_data[v] for v in NAMES])
    data.write_text(",".join(NAMES) + "\n" + "\n".join(",".join(repr(float(x)) for x in r) for r in rows), encoding="utf-8")
    truth = tmp_path / "t.txt"
    truth.write_text(graph.read_text(encoding="utf-8"), encoding="utf-8")
    bk = tmp_path / "bk.txt"
    bk.write_text("tier 1: x0\ntier 2: x1\n", encoding="utf-8")
    assert main_validate([str(graph), "--data", str(data), "--truth", str(truth), "--background", str(bk)]) == 0
    assert main_validate([str(graph), "--interventions", "x3", "--json", "--background", str(bk)]) == 0
    bk.write_text("forbid x0 -> x1\n", encoding="utf-8")
    assert main_validate([str(graph), "--background", str(bk)]) == 1
    bad = tmp_path / "bad.csv"
    bad.write_text("x0,zz\n1,2\n", encoding="utf-8")
    assert main_validate([str(graph), "--data", str(bad)]) == 2


def test_cli_json_output(tmp_path, capsys):
    """--json prints the report's to_dict()."""
    graph = tmp_path / "g.txt"
    graph.write_text("a -> b -> c\n", encoding="utf-8")
    assert main_validate([str(graph), "--interventions", "b", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["coverage"]["interventional"]["minimum"] == 1 and out["findings"][0]["code"] == "imec-size"


def test_the_options_value_and_the_keywords_are_one_definition() -> None:
    """validate_graph's keywords are exactly ValidationOptions' fields with their defaults; one value equals the keywords."""
    import dataclasses
    import inspect

    from causalcheck.graphs import ValidationOptions

    shown = {n: p.default for n, p in inspect.signature(validate_graph).parameters.items() if p.kind is p.KEYWORD_ONLY}
    fields = {f.name: f.default for f in dataclasses.fields(ValidationOptions)}
    assert {n: shown[n] for n in fields} == fields
    assert set(shown) - set(fields) == {"data", "truth", "interventions", "background", "options"}
    attributes = (ValidationOptions.__doc__ or "").split("Attributes:")[1]
    assert [name for name in fields if f"{name}:" not in attributes and f"{name}," not in attributes] == []  # each documented
    by_keywords = validate_graph("a -> b -> c", interventions=[], alpha=0.01, suggest=0)
    by_value = validate_graph("a -> b -> c", interventions=[], options=ValidationOptions(alpha=0.01, suggest=0))
    assert by_keywords.to_dict() == by_value.to_dict() and by_value.settings["alpha"] == 0.01


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ({"alhpa": 0.1}, r"alhpa= is no setting \(did you mean 'alpha'\?\)"),
        ({"alpha": 1.5}, r"alpha=1.5 must be between 0 and 1"),
        ({"continuity": "yes"}, r"continuity='yes' must be one of"),
        ({"options": "fast"}, r"options='fast' must be a ValidationOptions value"),
    ],
)
def test_a_wrong_setting_is_named(call: dict[str, object], message: str) -> None:
    with pytest.raises(InputFormatError, match=message):
        validate_graph("a -> b", **call)  # type: ignore[arg-type]


def test_options_and_keywords_together_are_refused() -> None:
    from causalcheck.graphs import ValidationOptions

    with pytest.raises(InputFormatError, match="either as options= or as keywords"):
        validate_graph("a -> b", options=ValidationOptions(), alpha=0.1)
