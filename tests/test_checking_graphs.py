"""causalcheck.check and `causalcheck check` take causal graphs from any discovery tool (the validator)."""

from __future__ import annotations

import numpy as np
import pytest
from _graphs import simulate
from causalcheck import CODES, check
from causalcheck.cli import main
from causalcheck.findings import Report
from causalcheck.graphchecks.validator import GraphValidation
from causalcheck.graphs import Graph, read_graph


def _data(text: str, n: int = 400) -> tuple[Graph, dict[str, np.ndarray]]:
    g = read_graph(text)
    return g, simulate(g, n, np.random.default_rng(0))


def test_a_networkx_graph_goes_straight_into_check():
    """check(nx.DiGraph) validates the graph instead of refusing it."""
    nx = pytest.importorskip("networkx")
    report = check(nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")]))
    assert isinstance(report, Report) and isinstance(report.detail, GraphValidation) and not report.ok
    assert report.codes() == ("cycle",) and report.having("graph-invalid") == report.findings


def test_a_causal_learn_graph_and_data_go_straight_into_check():
    """PC's GeneralGraph plus the data it was learned from: the implied independencies are tested."""
    pytest.importorskip("causallearn")
    from causallearn.search.ConstraintBased.PC import pc

    _g, data = _data("x -> y -> z")
    table = np.column_stack([data[v] for v in ("x", "y", "z")])
    cg = pc(table, 0.05, "fisherz", show_progress=False, node_names=["x", "y", "z"])
    report = check(cg.G, data=dict(zip(["x", "y", "z"], table.T, strict=True)))
    assert isinstance(report.detail, GraphValidation) and report.kind == "graph"
    assert report.detail.kind.ok and report.detail.kind.claim == "CPDAG" and "ci-summary" in report.codes()


def test_truth_and_interventions_select_the_validator_for_our_graph():
    """A Graph with truth= and interventions= is compared and its I-MEC reported."""
    report = check(read_graph("a -> b -> c"), truth=read_graph("a -> b <- c"), interventions=["b"])
    assert isinstance(report.detail, GraphValidation)
    assert {"truth-summary", "imec-size"} <= set(report.codes())


def test_hypotheses_still_go_to_the_hypothesis_checker():
    """Records and hypotheses still go to the hypothesis checker: check(text) of a hypothesis is a hypothesis report."""
    report = check("a -> resonanceFreq\nresonanceFreq = base + c_a*a\nbase = 1\nc_a = 2\n")
    assert report.kind == "hypothesis" and report.detail is None and report.ok


def test_every_validator_code_is_in_the_one_registry():
    """The exported registry holds the checker's, the validator's and the audit's codes."""
    stages = {c.stage for c in CODES.values()}
    assert {"hypothesis", "record", "trajectory", "folder", "graph", "data", "truth", "coverage", "background", "audit"} == stages


def test_cli_check_validates_graph_files(tmp_path, capsys):
    """`check g.dot` and `check g.txt --data d.csv` run the validator; a hypothesis file does not."""
    dot = tmp_path / "g.dot"
    dot.write_text("digraph { a -> b; b -> c; c -> a }\n", encoding="utf-8")
    assert main(["check", str(dot)]) == 1
    assert "error   cycle: not a valid DAG" in capsys.readouterr().out
    _g, data = _data("x -> y -> z", 500)
    txt = tmp_path / "g.txt"
    txt.write_text("x -- y\ny -- z\n", encoding="utf-8")  # not a hypothesis: read as a graph
    csv = tmp_path / "d.csv"
    csv.write_text("x,y,z\n" + "\n".join(",".join(repr(float(data[v][i])) for v in "xyz") for i in range(500)) + "\n", encoding="utf-8")
    code = main(["check", str(txt), "--data", str(csv), "--json"])
    out = capsys.readouterr().out
    assert (code in (0, 1) and '"ci-summary"' in out) or '"ci-violated"' in out


def test_cli_check_of_an_unreadable_graph_is_input_error(tmp_path, capsys):
    """A graph file that does not parse is exit 2 with the file named, never a traceback."""
    bad = tmp_path / "g.dot"
    bad.write_text("digraph { a -> ", encoding="utf-8")
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "g.dot" in err and "Traceback" not in err
