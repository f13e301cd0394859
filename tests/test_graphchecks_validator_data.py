"""The validator's data side: loading, CI tests with certificates, corrections, the permutation test, equations."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from _graphs import random_dag, simulate
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.citests import CITester, adjust, resolve_test
from causalcheck.graphchecks.falsify import falsify
from causalcheck.graphchecks.separation import local_markov_triples
from causalcheck.graphchecks.structural import fit_equations
from causalcheck.graphs import Graph
from causalcheck.graphs.convert import to_networkx
from causalcheck.graphs.data import load_data
from causalcheck.graphs.formats import parse_text

# --------------------------------------------------------------------------- loading


def test_load_data_from_frame_array_mapping_and_csv(tmp_path):
    """A DataFrame, an array with names, a mapping and a CSV give the same table, in node order."""
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    values = rng.normal(size=(20, 2))
    frame = pd.DataFrame(values, columns=["x", "y"])
    path = tmp_path / "d.csv"
    path.write_text("x,y\n" + "\n".join(f"{float(a)!r},{float(b)!r}" for a, b in values), encoding="utf-8")
    tables = [
        load_data(frame, ["y", "x"]),
        load_data(values, ["y", "x"], names=["x", "y"]),
        load_data({"x": values[:, 0], "y": values[:, 1]}, ["y", "x"]),
        load_data(str(path), ["y", "x"]),
    ]
    for t in tables:
        assert t.names == ("y", "x") and np.array_equal(t.values, values[:, ::-1]) and not t.discrete
    assert load_data({"a": [0, 1, 2, 1], "b": [1, 1, 0, 0], "c": [0, 2, 2, 1], "d": [1, 0, 1, 0], "e": [2, 2, 1, 0]}, ["a", "b", "c", "d", "e"], min_rows=4).discrete


def test_columns_that_do_not_match_nodes_are_named():
    """Missing node columns and extra columns are both named; extra ones can be ignored."""
    data = {"a": [1.0, 2.0, 3.0, 4.0, 5.0], "zz": [1.0, 0.0, 1.0, 0.0, 2.0]}
    with pytest.raises(InputFormatError, match=r"nodes without a column \['b'\]; columns that are not nodes \['zz'\]"):
        load_data(data, ["a", "b"])
    assert load_data(data, ["a"], extra_columns="ignore").names == ("a",)


def test_nan_constant_nonnumeric_and_shape_errors(tmp_path):
    """NaN rows are refused (or dropped and counted), constant and unreadable columns are named."""
    pd = pytest.importorskip("pandas")
    base = {"a": [1.0, 2.0, np.nan, 4.0, 5.0, 6.0], "b": [2.0, 1.0, 0.0, 5.0, np.nan, 1.0]}
    with pytest.raises(InputFormatError, match=r"\['a', 'b'\] contain NaN in 2 row\(s\) \(first: data row 3, the header not counted\); pass nan='drop'"):
        load_data(base, ["a", "b"])
    t = load_data(base, ["a", "b"], nan="drop", min_rows=3)
    assert t.rows_dropped == 2 and t.rows == 4
    with pytest.raises(InputFormatError, match=r"\['b'\] are constant \(values 3.0\)"):
        load_data({"a": [1.0, 2.0, 3.0, 4.0, 5.0], "b": [3.0] * 5}, ["a", "b"])
    with pytest.raises(InputFormatError, match=r"names repeat: \['a'\]"):
        load_data(pd.DataFrame([[1.0, 2.0]] * 5, columns=["a", "a"]), ["a"])
    with pytest.raises(InputFormatError, match="no column names"):
        load_data(np.zeros((5, 2)), ["a", "b"])
    with pytest.raises(InputFormatError, match="does not exist"):
        load_data(tmp_path / "missing.csv", ["a"])
    with pytest.raises(InputFormatError, match="infinite"):
        load_data({"a": [1.0, np.inf, 2.0, 3.0, 4.0]}, ["a"])


# --------------------------------------------------------------------------- CI tests


def test_fisherz_certificate_matches_causallearn_p():
    """The z statistic and partial correlation reproduce causal-learn's Fisher-z p-value."""
    from scipy.stats import norm

    rng = np.random.default_rng(1)
    g = parse_text("a -> b -> c; d -> c")
    t = load_data(simulate(g, 500, rng), g.nodes)
    tester = CITester(t, "fisherz")
    for x, y, s in [(0, 2, [1]), (0, 3, []), (1, 3, [2]), (0, 2, [1, 3])]:
        c = tester.certificate(x, y, s)
        assert math.isclose(c.p_value, 2 * norm.sf(c.statistic), rel_tol=1e-9, abs_tol=1e-12)
        assert -1 < (c.partial_correlation or 0) < 1
    assert tester.tests_run == 4
    tester.pvalue(2, 0, [1])  # cached: symmetric in x and y
    assert tester.tests_run == 4


def test_fisherz_certificate_reads_the_inverse_its_p_value_came_from():
    """Symmetric in x and y bit for bit (the cache key's order), and the rows' own partial correlation to 1e-12."""
    rng = np.random.default_rng(4)
    g = parse_text("a -> b -> c; d -> c; a -> e")
    t = load_data(simulate(g, 2000, rng), g.nodes)
    tester = CITester(t, "fisherz")
    for x, y, s in [(0, 2, [1]), (3, 0, []), (4, 2, [1, 3]), (2, 4, [3, 1])]:
        c = tester.certificate(x, y, s)
        assert c == tester.certificate(y, x, list(reversed(s)))
        idx = [x, y, *s]
        inv = np.linalg.inv(np.corrcoef(t.values[:, idx].T))  # recomputed from the rows
        assert abs(c.partial_correlation - (-inv[0, 1] / math.sqrt(inv[0, 0] * inv[1, 1]))) < 1e-12


@pytest.mark.parametrize("test", ["chisq", "gsq"])
def test_discrete_certificate_matches_causallearn_p(test):
    """χ² / G² statistic and dof reproduce causal-learn's p through chi2.sf."""
    from scipy.stats import chi2

    rng = np.random.default_rng(2)
    n = 800
    a = rng.integers(0, 3, n)
    b = (a + rng.integers(0, 2, n)) % 3
    c = (b + (rng.random(n) < 0.3)) % 2
    d = rng.integers(0, 2, n)
    t = load_data({"a": a, "b": b, "c": c, "d": d}, ["a", "b", "c", "d"])
    assert resolve_test("auto", t) == "chisq"
    tester = CITester(t, test)
    for x, y, s in [(0, 2, [1]), (0, 3, []), (1, 3, [0, 2])]:
        cert = tester.certificate(x, y, s)
        assert cert.dof is not None and math.isclose(chi2.sf(cert.statistic, cert.dof), cert.p_value, rel_tol=1e-6, abs_tol=1e-12)


def test_adjust_matches_statsmodels():
    """Holm and Benjamini–Hochberg adjusted p-values equal statsmodels' multipletests."""
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    rng = np.random.default_rng(5)
    p = [*list(rng.uniform(0, 0.2, 30)), 0.0, 1.0, 0.01, 0.01]
    for ours, theirs in (("holm", "holm"), ("bh", "fdr_bh")):
        assert np.allclose(adjust(p, ours), multipletests(p, method=theirs)[1])
    assert adjust([0.2, 0.01], "none") == [0.2, 0.01]
    with pytest.raises(InputFormatError, match="correction="):
        adjust([0.1], "bonferroni")


# --------------------------------------------------------------------------- falsification


def _reference(dag: Graph, data: dict[str, np.ndarray], orders: list[tuple[int, ...]], level: float) -> tuple[int, float, float, list[int]]:
    """DoWhy's definitions written out with networkx and direct causal-learn calls (no cache, no early stop)."""
    from causallearn.utils.cit import CIT

    names = dag.nodes
    pos = dag.index
    cit = CIT(np.column_stack([data[v] for v in names]), method="fisherz")

    def violations(g: Graph) -> int:
        return sum(cit(pos[x], pos[y], [pos[p] for p in pa]) <= level for x, y, pa in local_markov_triples(g))

    nxg = to_networkx(dag)
    given = violations(dag)
    at_most = in_class = 0
    counts = []
    for order in orders:
        perm = dag.renamed({names[i]: f"_{names[order[i]]}" for i in range(len(names))}).renamed({f"_{v}": v for v in names})
        v = violations(perm)
        counts.append(v)
        at_most += v <= given
        in_class += all(nx.is_d_separator(nxg, {x}, {y}, set(pa)) for x, y, pa in local_markov_triples(perm))
    return given, at_most / len(orders), in_class / len(orders), counts


def test_falsify_equals_the_reference_definition():
    """Same orders: given violations, p_lmc, p_tpa and exact counts equal a direct implementation of DoWhy's test."""
    rng = np.random.default_rng(4)
    for trial in range(6):
        truth = random_dag(6, 0.4, rng)
        data = simulate(truth, 300, rng)
        claimed = truth if trial % 2 == 0 else random_dag(6, 0.4, rng)
        orders = [tuple(int(v) for v in rng.permutation(6)) for _ in range(15)]
        table = load_data(data, claimed.nodes)
        exact = falsify(claimed, CITester(table, "fisherz"), orders=orders, exact_counts=True)
        fast = falsify(claimed, CITester(table, "fisherz"), orders=orders)
        given, p_lmc, p_tpa, counts = _reference(claimed, data, orders, 0.05)
        assert (exact.given_violations, exact.p_lmc, exact.p_tpa) == (given, p_lmc, p_tpa)
        assert list(exact.permuted_violations) == counts
        assert (fast.p_lmc, fast.p_tpa, fast.verdict) == (exact.p_lmc, exact.p_tpa, exact.verdict)
        assert fast.tests_run <= exact.tests_run


def test_true_graph_survives_and_a_wrong_one_is_falsified():
    """On a chain with strong effects the truth is not falsified; a structure that mixes up the chain is."""
    rng = np.random.default_rng(8)
    names = [f"x{i}" for i in range(7)]
    chain = Graph.from_directed(list(itertools.pairwise(names)))
    data = simulate(chain, 2000, rng, weight=1.0)
    table = load_data(data, names)
    ok = falsify(chain, CITester(table, "fisherz"), seed=3)
    assert ok.verdict == "not falsified" and ok.p_lmc <= 0.05
    wrong = Graph.from_directed([("x0", "x6"), ("x6", "x3"), ("x3", "x1"), ("x1", "x5"), ("x5", "x2"), ("x2", "x4")])
    bad = falsify(wrong, CITester(load_data(data, wrong.nodes), "fisherz"), seed=3)
    assert bad.verdict == "falsified" and bad.p_lmc > 0.05 > bad.p_tpa
    assert falsify(chain, CITester(table, "fisherz"), seed=3) == ok  # seeded: the same figures


def test_not_falsifiable_and_not_evaluable():
    """A graph that most relabellings reproduce is not falsifiable; a complete DAG cannot be evaluated."""
    rng = np.random.default_rng(9)
    g = parse_text("a -> b; nodes: c")
    data = simulate(g, 300, rng)
    r = falsify(g, CITester(load_data(data, g.nodes), "fisherz"), permutations="all")
    assert r.permutations == 6 and r.permuted_in_class == 2 and r.verdict == "not falsifiable"
    full = parse_text("a -> b -> c; a -> c")
    assert falsify(full, CITester(load_data(simulate(full, 300, rng), full.nodes), "fisherz")).verdict == "not evaluable"
    with pytest.raises(InputFormatError, match="permutations="):
        falsify(g, CITester(load_data(data, g.nodes), "fisherz"), permutations=-1)


# --------------------------------------------------------------------------- structural equations


def test_equations_recover_coefficients_and_test_stated_values():
    """OLS recovers the weights; a true stated value is kept, a wrong one rejected by the t-test."""
    rng = np.random.default_rng(12)
    n = 3000
    a = rng.normal(size=n)
    b = rng.normal(size=n)
    c = 1.5 * a - 0.5 * b + 0.3 * rng.normal(size=n)
    g = parse_text("a -> c <- b")
    fits = fit_equations(g, load_data({"a": a, "b": b, "c": c}, g.nodes), {("a", "c"): 1.5, ("b", "c"): -0.2})
    fc = fits[g.index["c"]]
    est = {cf.parent: cf for cf in fc.coefficients}
    assert abs(est["a"].estimate - 1.5) < 0.05 and est["a"].p_value is not None and est["a"].p_value > 0.01
    assert est["b"].p_value is not None and est["b"].p_value < 1e-10
    assert abs(fc.residual_scale - 0.3) < 0.02 and fc.r_squared > 0.9 and fc.normality_p > 0.001
    assert fits[g.index["a"]].parents == () and fits[g.index["a"]].r_squared == pytest.approx(0.0, abs=1e-12)
