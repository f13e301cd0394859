"""Fisher's C (``causalcheck.graphchecks.globalfit``): pgmpy's FisherC values, the basis, too little data, the validator."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.globalfit import fisher_c, shipley_basis
from causalcheck.graphs import Graph, validate_graph
from causalcheck.graphs.formats import parse_text


def _linear(edges: list[tuple[str, str]], nodes: str, rows: int, seed: int) -> pd.DataFrame:
    """Linear-Gaussian data of the DAG (nodes in a topological order)."""
    rng = np.random.default_rng(seed)
    cols: dict[str, np.ndarray] = {}
    for v in nodes:
        cols[v] = sum((rng.uniform(0.5, 1.5) * cols[u] for u, w in edges if w == v), rng.normal(size=rows))
    return pd.DataFrame(cols)


def _discrete(rows: int, seed: int) -> pd.DataFrame:
    """Binary a -> b -> c and a three-level d independent of them."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, rows)
    b = (a ^ (rng.random(rows) < 0.2)).astype(int)
    c = (b ^ (rng.random(rows) < 0.3)).astype(int)
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": rng.integers(0, 3, rows)})


def _dag(edges: list[tuple[str, str]], nodes: str) -> Graph:
    return Graph.from_edges([(u, "->", v) for u, v in edges], nodes)


# p-values of pgmpy 1.1.2's FisherC(ci_test="chi_square", compute_rmsea=True) on _discrete(400, seed=3), computed
# with pgmpy installed (pgmpy's own test models are downloaded at run time: not usable offline)
PGMPY_CHI_SQUARE = [
    ([("a", "b"), ("b", "c")], 0.8357898218308284, 0.0),
    ([("a", "b"), ("c", "b")], 0.0026635644196553176, 0.06993048211474072),
    ([("a", "b"), ("b", "c"), ("d", "c")], 0.8602373323756227, 0.0),
]


@pytest.mark.parametrize(("edges", "p_value", "rmsea"), PGMPY_CHI_SQUARE)
def test_equals_pgmpy_chi_square_values(edges, p_value, rmsea) -> None:
    """With pgmpy's χ² (Yates' correction) and every statement kept, p and RMSEA are pgmpy's."""
    fit = fisher_c(_dag(edges, "abcd"), _discrete(400, 3), ci_test="chisq", continuity="yates", undecidable="include")
    assert fit.p_value == pytest.approx(p_value, rel=1e-9)
    assert fit.rmsea == pytest.approx(rmsea, abs=1e-12)


def test_shipley_basis_is_one_statement_per_missing_edge() -> None:
    """u ⫫ v | Pa(u) ∪ Pa(v) for every non-adjacent pair, as pgmpy's FisherC asks them."""
    g = parse_text("a -> b -> c; d -> c; e")
    got = [(s.x, s.y, s.given) for s in shipley_basis(g)]
    assert got == [
        ("a", "c", ("b", "d")), ("a", "d", ()), ("a", "e", ()), ("b", "d", ("a",)), ("b", "e", ("a",)), ("c", "e", ("b", "d")),
        ("d", "e", ()),
    ]


def test_statistic_dof_and_pvalue_are_fishers_method() -> None:
    """C = −2 Σ ln p_i over the combined statements, dof = 2k, p = P(χ²_2k ≥ C)."""
    from scipy.stats import chi2

    fit = fisher_c("a -> b -> c; d -> c", _linear([("a", "b"), ("b", "c"), ("d", "c")], "abdc", 300, 1), ci_test="fisherz")
    assert fit.dof == 2 * len(fit.statements) == 6
    assert fit.statistic == pytest.approx(-2 * sum(math.log(max(p, 1e-6)) for p in fit.p_values))
    assert fit.p_value == pytest.approx(chi2.sf(fit.statistic, fit.dof))
    assert fit.verdict == "fits"


def test_wrong_graph_is_rejected() -> None:
    """A collider where the data have a chain: the data reject the graph as a whole."""
    df = _linear([("a", "b"), ("b", "c")], "abc", 500, 2)
    fit = fisher_c("a -> b <- c", df)
    assert fit.verdict == "rejected" and fit.p_value <= 1.01e-6  # one statement: p of the test clipped at 1e-6, as pgmpy
    assert "the data reject the graph" in fit.summary()


def test_too_little_data_is_not_a_refutation() -> None:
    """With too few rows every statement is undecidable: no statistic, verdict 'not evaluable', never 'rejected'."""
    df = _linear([("a", "b"), ("b", "c")], "abc", 12, 3)
    fit = fisher_c("a -> b <- c", df)
    assert (fit.p_value, fit.dof, fit.verdict) == (None, 0, "not evaluable")
    assert len(fit.left_out) == 1 and "degrees of freedom" in fit.left_out[0][1]
    assert "no evidence for or against" in fit.summary()


def test_complete_graph_implies_nothing_to_test() -> None:
    """No missing edge, no statement: not evaluable."""
    fit = fisher_c("a -> b -> c; a -> c", _linear([("a", "b")], "abc", 100, 4))
    assert fit.verdict == "not evaluable" and "no missing edge" in fit.summary()


def test_mag_and_latent_graphs_use_the_pairwise_basis() -> None:
    """A DAG with a [latent] node is tested through its latent projection, on the pairwise basis."""
    df = _linear([("x", "y"), ("u", "y"), ("u", "z")], "xuyz", 300, 6).drop(columns="u")
    fit = fisher_c("dag { u [latent] x -> y  u -> y  u -> z }", df)
    assert fit.basis == "pairwise" and [str(s) for s in fit.statements] == ["x ⫫ z"] and fit.verdict == "fits"
    with pytest.raises(InputFormatError, match="basis='shipley' needs a DAG or a PDAG"):
        fisher_c("x <-> y; y <-> z", df, basis="shipley")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"basis": "local"}, "basis='local' must be one of"), ({"alpha": 2}, "alpha=2 must be between"),
     ({"clip": 0}, "clip=0 must be between"), ({"undecidable": "drop"}, "undecidable='drop' must be")],
)
def test_bad_options_name_the_value(kwargs, message) -> None:
    """Each bad option raises an InputFormatError naming it."""
    with pytest.raises(InputFormatError, match=message):
        fisher_c("a -> b -> c", _linear([("a", "b"), ("b", "c")], "abc", 50, 0), **kwargs)


def test_validator_reports_the_global_fit_beside_the_statements() -> None:
    """validate_graph: a 'global-fit-rejected' warning with C, dof and p; the JSON 'global_fit' section."""
    df = _linear([("a", "b"), ("b", "c")], "abc", 400, 7)
    r = validate_graph("a -> b <- c", data=df, permutations=0)
    found = [f for f in r.findings if f.code.startswith("global-fit")]
    assert [f.code for f in found] == ["global-fit-rejected"] and "on 2 degrees of freedom" in found[0].message
    d = r.to_dict()["global_fit"]
    assert d["dof"] == 2 and d["verdict"] == "rejected" and d["statements"][0]["text"] == "a ⫫ c"
    ok = validate_graph("a -> b -> c", data=df, permutations=0)
    assert "global-fit" in ok.codes() and ok.global_fit.verdict == "fits"


def test_check_command_prints_the_global_fit(tmp_path) -> None:
    """causalcheck check GRAPH --data prints the Fisher's C line beside the per-statement summary."""
    graph, data = tmp_path / "g.txt", tmp_path / "d.csv"
    graph.write_text("a -> b -> c\n")
    _linear([("a", "b"), ("b", "c")], "abc", 200, 8).to_csv(data, index=False)
    out = subprocess.run([sys.executable, "-m", "causalcheck", "check", str(graph), "--data", str(data)], capture_output=True, text=True).stdout
    assert "ci-summary: 1 implied independencies" in out
    assert "global-fit: Fisher's C = " in out and "on 2 degrees of freedom (1 shipley-basis statement(s), fisherz)" in out
