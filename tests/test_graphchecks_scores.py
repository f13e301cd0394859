"""compare(): cross-checked against causal-learn's SHD / confusion classes and gadjid; real discovery outputs."""

from __future__ import annotations

import itertools
import json
import warnings

import networkx as nx
import numpy as np
import pytest
from _graphs import random_dag
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.kinds import check_cpdag, cpdag_of
from causalcheck.graphchecks.scores import shd
from causalcheck.graphs import Graph, GraphEdge, compare, read_graph
from causalcheck.graphs.convert import to_causallearn, to_matrix
from causalcheck.graphs.formats import parse_text

TRUTH = parse_text("X1 -> X3 <- X2; X3 -> X4 -> X5 -> X6; X1 -> X5; nodes: X7")


def _cases(count: int, seed: int):
    """Random (truth, estimate) pairs: DAG/DAG, CPDAG/CPDAG and CPDAG/PDAG with 3–8 nodes."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        n = int(rng.integers(3, 9))
        t, e = random_dag(n, 0.35, rng), random_dag(n, 0.35, rng)
        if k % 3 == 1:
            t, e = cpdag_of(t), cpdag_of(e)
        elif k % 3 == 2:
            e = e.with_edges([x if rng.random() < 0.6 else GraphEdge.undirected(x.u, x.v) for x in e.edges])
        yield t, e


def _check_against_causallearn(count: int) -> None:
    from causallearn.graph.AdjacencyConfusion import AdjacencyConfusion
    from causallearn.graph.ArrowConfusion import ArrowConfusion
    from causallearn.graph.SHD import SHD

    for t, e in _cases(count, seed=2024):
        ct, ce = to_causallearn(t), to_causallearn(e)
        assert shd(t, e) == SHD(ct, ce).get_shd(), (str(t), str(e))
        r = compare(t, e, basis="given")
        assert r.shd == SHD(ct, ce).get_shd()
        adj = AdjacencyConfusion(ct, ce)
        assert (r.skeleton.tp, r.skeleton.fp, r.skeleton.fn, r.skeleton.tn) == (
            adj.get_adj_tp(), adj.get_adj_fp(), adj.get_adj_fn(), adj.get_adj_tn())
        arr = ArrowConfusion(ct, ce)
        assert (r.arrowhead.tp, r.arrowhead.fp, r.arrowhead.fn, r.arrowhead.tn) == (
            arr.get_arrows_tp(), arr.get_arrows_fp(), arr.get_arrows_fn(), arr.get_arrows_tn())
        if r.skeleton.tp + r.skeleton.fp:
            assert r.skeleton.precision == pytest.approx(adj.get_adj_precision())
        if r.arrowhead.tp + r.arrowhead.fn:
            assert r.arrowhead.recall == pytest.approx(arr.get_arrows_recall())
        if check_cpdag(t) and check_cpdag(e):
            assert r.cpdag_shd == SHD(ct, ce).get_shd()


def test_matches_causallearn_shd_and_confusions():
    """SHD, AdjacencyConfusion and ArrowConfusion figures equal causal-learn's on 300 random cases."""
    _check_against_causallearn(300)


@pytest.mark.slow
def test_matches_causallearn_shd_and_confusions_full():
    """The same cross-check on 1 200 random cases (≥ 1 000 CPDAG-level ones with the CPDAG pairs)."""
    _check_against_causallearn(1200)


def test_cpdag_shd_equals_causallearn_on_cpdags():
    """CPDAG SHD equals causal-learn's SHD of the two CPDAGs (dag2cpdag) on random DAG pairs."""
    from causallearn.graph.SHD import SHD
    from causallearn.utils.DAG2CPDAG import dag2cpdag

    rng = np.random.default_rng(5)
    for _ in range(150):
        n = int(rng.integers(3, 9))
        t, e = random_dag(n, 0.4, rng), random_dag(n, 0.4, rng)
        want = SHD(dag2cpdag(to_causallearn(t)), dag2cpdag(to_causallearn(e))).get_shd()
        assert compare(t, e).cpdag_shd == want


def test_sid_and_aids_equal_gadjid():
    """SID and the three AIDs equal gadjid's values on DAG/DAG and DAG/CPDAG pairs."""
    import gadjid

    rng = np.random.default_rng(9)
    for k in range(80):
        n = int(rng.integers(3, 9))
        t, e = random_dag(n, 0.4, rng), random_dag(n, 0.4, rng)
        if k % 2:
            e = cpdag_of(e)
        r = compare(t, e)
        tm = to_matrix(t, convention="row_to_column")
        em = to_matrix(e, convention="row_to_column", order=t.nodes).astype(np.int8)
        em[(em == 1) & (em.T == 1)] = 0  # gadjid codes an undirected edge as one 2
        for pair in e.undirected_pairs:
            i, j = sorted(t.nodes.index(v) for v in pair)
            em[i, j] = 2
        for name in ("parent_aid", "ancestor_aid", "oset_aid"):
            norm, count = getattr(gadjid, name)(tm, em, edge_direction="from row to column")
            assert (getattr(r, name).count, getattr(r, name).normalized) == (count, pytest.approx(norm))
        if e.kind == "PDAG":
            assert r.sid is None
        else:
            norm, count = gadjid.sid(tm, em, edge_direction="from row to column")
            assert (r.sid.count, r.sid.normalized) == (count, pytest.approx(norm))


def test_metric_conventions_small_cases():
    """Hand-checked values: reversal counts 1 (2 when doubled), directed FP+FN, F1."""
    r = compare("a -> b; b -> c", "b -> a; b -> c")
    assert (r.shd, r.shd_double) == (1, 2)
    assert (r.directed.tp, r.directed.fp, r.directed.fn) == (1, 1, 1)
    assert r.skeleton.f1 == 1.0
    assert r.arrowhead.tp == 1 and r.arrowhead.fp == 1 and r.arrowhead.fn == 1
    r = compare("a -> b", "nodes: a, b")
    assert r.shd == 1 and r.skeleton.recall == 0.0 and r.skeleton.precision is None and r.skeleton.f1 is None


def test_dag_truth_cpdag_estimate_uses_truth_cpdag():
    """A DAG truth and its own CPDAG as estimate: SHD 0 on the CPDAG basis, 2 on the DAG basis."""
    truth = parse_text("a -> b -> c")
    r = compare(truth, cpdag_of(truth))
    assert r.basis == "cpdag(truth)" and r.shd == 0 and r.cpdag_shd == 0
    g = compare(truth, cpdag_of(truth), basis="given")
    assert g.basis == "truth" and g.shd == 2


def test_nodes_must_match_or_union():
    """Different node sets are refused with both differences named, or united on request."""
    with pytest.raises(InputFormatError, match=r"only in truth \['c'\]"):
        compare("a -> b; nodes: c", "a -> b")
    assert compare("a -> b; nodes: c", "a -> b", nodes="union").shd == 0


def test_pag_estimate_keeps_every_edge_and_explains_missing_metrics():
    """A PAG estimate is scored on marks; SID/AID and CPDAG SHD are None with notes, no edge dropped."""
    r = compare(TRUTH, "X1 -> X3; X5 -> X1; X2 o-> X3; X3 -> X4 -> X5 -> X6; nodes: X7")
    assert r.estimate_kind == "PAG" and r.sid is None and r.cpdag_shd is None
    assert r.skeleton.tp == 6 and r.shd == 2
    assert any("gadjid" in n for n in r.notes)


def test_to_dict_is_json():
    """to_dict is JSON-serialisable and holds every metric."""
    d = compare(TRUTH, TRUTH).to_dict()
    json.dumps(d)
    assert d["shd"] == 0 and d["sid"]["count"] == 0 and d["skeleton"]["f1"] == 1.0


# --------------------------------------------------------------------------- real tool outputs


@pytest.fixture(scope="module")
def data() -> np.ndarray:
    """n = 2000 samples of a linear Gaussian SEM on TRUTH's structure (seeded)."""
    rng = np.random.default_rng(0)
    n = 2000
    x1, x2 = rng.normal(size=n), rng.normal(size=n)
    x3 = 0.8 * x1 + 0.8 * x2 + rng.normal(size=n)
    x4 = 0.9 * x3 + rng.normal(size=n)
    x5 = 0.7 * x4 + 0.6 * x1 + rng.normal(size=n)
    x6 = 0.8 * x5 + rng.normal(size=n)
    x7 = rng.normal(size=n)
    return np.column_stack([x1, x2, x3, x4, x5, x6, x7])


def _edge_count(cl_graph) -> int:
    return len(cl_graph.get_graph_edges())


def test_pc_output_goes_straight_in(data):
    """PC's CausalGraph and its G read with every edge (directed and undirected) and compare."""
    from causallearn.search.ConstraintBased.PC import pc

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cg = pc(data, 0.01, show_progress=False)
    g = read_graph(cg)
    assert len(g.edges) == _edge_count(cg.G) and g == read_graph(cg.G)
    r = compare(TRUTH, cg)
    assert r.skeleton.tp + r.skeleton.fp == len(g.edges)


def test_ges_output_goes_straight_in(data):
    """GES's Record (dict with 'G') reads with every edge and compares."""
    from causallearn.search.ScoreBased.GES import ges

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rec = ges(data)
    g = read_graph(rec)
    assert len(g.edges) == _edge_count(rec["G"])
    assert compare(TRUTH, rec).skeleton.tp + compare(TRUTH, rec).skeleton.fp == len(g.edges)


def test_fci_output_goes_straight_in(data):
    """FCI's PAG (circle marks included) reads with every edge and compares."""
    from causallearn.search.ConstraintBased.FCI import fci

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pag, _ = fci(data, show_progress=False)
    g = read_graph(pag)
    assert len(g.edges) == _edge_count(pag)
    r = compare(TRUTH, pag)
    assert r.skeleton.tp + r.skeleton.fp == len(g.edges)


def test_lingam_matrix_by_documented_convention():
    """A lingam B matrix (B[effect, cause], built by hand) scores perfectly; read as row->column it is all reversed."""
    names = list(TRUTH.nodes)
    b = np.zeros((7, 7))
    for cause, effect in TRUTH.directed_pairs:
        b[names.index(effect), names.index(cause)] = 0.75
    good = compare(TRUTH, read_graph(b, names=names, convention="lingam"))
    assert good.shd == 0 and good.directed.f1 == 1.0
    wrong = compare(TRUTH, read_graph(b, names=names, convention="row_to_column"))
    assert wrong.directed.tp == 0 and wrong.skeleton.f1 == 1.0


def test_lingam_directlingam_output(data):
    """DirectLiNGAM's adjacency_matrix_ reads with every non-zero entry as an edge (lingam optional)."""
    lingam = pytest.importorskip("lingam", reason="lingam is optional and not installed (its wheel pins scipy<=1.13.1): pip install lingam")
    model = lingam.DirectLiNGAM(random_state=0)
    model.fit(data)
    b = model.adjacency_matrix_
    g = read_graph(b, names=list(TRUTH.nodes), convention="lingam")
    assert len(g.edges) == int((b != 0).sum())
    assert compare(TRUTH, g).skeleton.tp + compare(TRUTH, g).skeleton.fp == len(g.edges)


def test_networkx_and_pgmpy_estimates():
    """A hand-written networkx DiGraph and a pgmpy DAG go straight into compare."""
    est = nx.DiGraph([("X1", "X3"), ("X2", "X3"), ("X3", "X4"), ("X4", "X5"), ("X5", "X6"), ("X1", "X6")])
    est.add_node("X7")
    r = compare(TRUTH, est)
    assert r.shd == 2 and r.directed.fp == 1 and r.directed.fn == 1
    cyclic = compare(TRUTH, nx.DiGraph([*est.edges, ("X6", "X2")]), nodes="union")
    assert cyclic.sid is None and cyclic.cpdag_shd is None and any("cycle" in n for n in cyclic.notes)
    pgmpy = pytest.importorskip("pgmpy", reason="pgmpy is optional (the 'test' extra installs it)")
    from pgmpy.base import DAG

    d = DAG(list(est.edges))
    d.add_node("X7")
    assert compare(TRUTH, d) == r
    del pgmpy


def test_cli_compare(tmp_path, capsys):
    """causalcheck compare: text table, --json, exit 2 for an unreadable file."""
    import argparse

    from causalcheck.graphchecks import cli

    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    (tmp_path / "t.txt").write_text("a -> b -> c\n")
    (tmp_path / "e.dagitty").write_text("pdag { a -- b -- c }\n")
    args = parser.parse_args(["compare", str(tmp_path / "t.txt"), str(tmp_path / "e.dagitty")])
    assert args.handler(args) == 0
    out = capsys.readouterr().out
    assert "basis cpdag(truth)" in out and "SHD" in out and "skeleton" in out
    args = parser.parse_args(["compare", str(tmp_path / "t.txt"), str(tmp_path / "e.dagitty"), "--json"])
    assert args.handler(args) == 0
    assert json.loads(capsys.readouterr().out)["shd"] == 0
    args = parser.parse_args(["compare", str(tmp_path / "missing.gml"), str(tmp_path / "e.dagitty")])
    with pytest.raises(InputFormatError, match="does not exist"):
        args.handler(args)


def test_all_pairs_of_three_node_graphs_shd_is_a_metric():
    """SHD is symmetric and zero exactly on equal graphs over all 3-node DAG pairs."""
    nodes = ("a", "b", "c")
    pairs = list(itertools.combinations(nodes, 2))
    dags = []
    for marks in itertools.product((None, 0, 1), repeat=3):
        edges = [GraphEdge.directed(*p) if m == 0 else GraphEdge.directed(p[1], p[0]) for p, m in zip(pairs, marks, strict=True) if m is not None]
        g = Graph(nodes, tuple(edges))
        if not list(nx.simple_cycles(nx.DiGraph(list(g.directed_pairs)))):
            dags.append(g)
    for x, y in itertools.product(dags, repeat=2):
        assert shd(x, y) == shd(y, x)
        assert (shd(x, y) == 0) == (x == y)


def test_shd_double_equals_cdt_formula_on_dags():
    """shd_double equals CDT's SHD(double_for_anticausal=True): sum |A_true - A_est| over 0/1 adjacency matrices."""
    rng = np.random.default_rng(13)
    for _ in range(200):
        n = int(rng.integers(2, 8))
        t, e = random_dag(n, 0.4, rng), random_dag(n, 0.4, rng)
        a, b = to_matrix(t, convention="row_to_column"), to_matrix(e, convention="row_to_column", order=t.nodes)
        cdt_double = int(np.abs(a.astype(int) - b.astype(int)).sum())
        diff = np.abs(a.astype(int) - b.astype(int))
        diff = np.minimum(diff + diff.T, 1)
        cdt_single = int(diff.sum() // 2)
        r = compare(t, e)
        assert r.shd_double == cdt_double
        assert r.shd == cdt_single


def test_compare_reads_array_like_inputs_with_convention_names_and_threshold():
    # lingam's B[effect, cause]: x -> y, y -> z, and a near-zero x -> z
    b = np.array([[0.0, 0.0, 0.0], [0.9, 0.0, 0.0], [0.01, 0.5, 0.0]])
    truth = read_graph("x -> y -> z")
    assert compare(truth, b, convention="lingam", names=["x", "y", "z"]).shd == 1  # the 0.01 entry is an edge
    r = compare(truth, b, convention="lingam", names=["x", "y", "z"], threshold=0.1)
    assert r.shd == 0 and r.skeleton.f1 == 1.0
    # the options reach only the array-like input: the truth here is an adjacency CSV read its own way
    r = compare(",x,y,z\nx,0,1,0\ny,0,0,1\nz,0,0,0\n", b, convention="lingam", names=["x", "y", "z"], threshold=0.1, truth_format="adjacency")
    assert r.shd == 0
    assert compare(b.T, b, convention="row_to_column", names=["x", "y", "z"]).shd == 3  # both read row_to_column: 3 reversals
    with pytest.raises(InputFormatError, match=r"convention='lingam' apply to an array-like truth or estimate"):
        compare(truth, "x -> y -> z", convention="lingam")
    with pytest.raises(InputFormatError, match=r"threshold=0.1 applies to a weighted truth or estimate.*neither has weights"):
        compare(truth, "x -> y -> z", threshold=0.1)


def test_compare_thresholds_a_weighted_edge_list_and_the_cli_passes_threshold(tmp_path, capsys):
    import argparse

    from causalcheck.graphchecks import cli

    (tmp_path / "t.dagitty").write_text("dag { a -> b  c }\n")  # the truth has no weights: read as is
    (tmp_path / "w.csv").write_text("source,target,weight\na,b,0.8\nb,c,0.05\n")
    assert compare(tmp_path / "t.dagitty", tmp_path / "w.csv").shd == 1  # b -> c (0.05) is an edge
    assert compare(tmp_path / "t.dagitty", tmp_path / "w.csv", threshold=0.1).shd == 0
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["compare", str(tmp_path / "t.dagitty"), str(tmp_path / "w.csv"), "--threshold", "0.1", "--json"])
    assert args.handler(args) == 0
    assert json.loads(capsys.readouterr().out)["shd"] == 0
