"""The peers' own CPDAG, Markov-equivalence and MEC-size values, ported: each case is a graph and the answer a peer's tests expect.

Sources (values only):

* cliquepicking (mwien/CliquePicking, MIT): ``cliquepicking_rs/src/count.rs`` (``count_amos_basic_check``
  54, ``count_chordal_basic_check`` 108, ``count_cpdag_basic_check`` 6), ``cliquepicking_rs/src/enumerate.rs``
  (``list_cpdag_basic_check``: 54 and 3 DAGs) and ``cliquepicking_python/README.md`` (the basic graph, 3).
* dagitty (jtextor/dagitty at 7a65777, GPL-2): ``test/test/graph-transformations.js`` (``dagToCpdag``,
  ``markovEquivalentDags``) and ``r/tests/testthat/testBasics.R`` (``equivalentDAGs``).
* pgmpy (pgmpy/pgmpy at 94105f1, MIT): ``pgmpy/tests/test_models/test_BayesianNetwork.py``
  (``test_is_iequivalent``) and ``pgmpy/tests/test_base/test_DAG.py`` (``test_pdag_to_dag``).
* causal-learn (py-why/causal-learn at e30895b, MIT): ``tests/TestMECCHECK.py`` and ``dag2cpdag`` of
  the truth DAGs of its ``tests/TestData`` (kept in ``tests/fixtures/peers/causallearn_results.json``).

Convention: a PDAG's consistent extension is not unique.  pgmpy's ``to_dag`` and causalcheck's
:func:`~causalcheck.graphs.consistent_extension` may pick different members, so those cases check
what pgmpy's test checks — the edges every extension shares and the v-structures it must not add.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from causalcheck.graphs import Graph, GraphEdge, check_cpdag, consistent_extension, cpdag_of
from causalcheck.graphs.formats import parse_dagitty, parse_text
from causalcheck.solvers.equivalence import (
    count_orientations,
    cpdag,
    enumerate_equivalent_dags,
    essential_graph_size,
    mec_size,
)

PEERS = Path(__file__).parent / "fixtures" / "peers"

# ---------------------------------------------------------------- cliquepicking

#: count.rs count_amos_basic_check / enumerate.rs get_paper_graph (Example 3 of the AAAI paper): an undirected chordal graph
PAPER = [(0, 1), (0, 2), (1, 2), (1, 3), (1, 4), (1, 5), (2, 3), (2, 4), (2, 5), (3, 4), (4, 5)]


def _cp_graph(n: int, undirected: list[tuple[int, int]], directed: list[tuple[int, int]] = ()) -> Graph:
    names = [f"v{i}" for i in range(n)]
    edges = [GraphEdge.undirected(names[a], names[b]) for a, b in undirected]
    edges += [GraphEdge.directed(names[a], names[b]) for a, b in directed]
    return Graph.from_edges(edges, names)


@pytest.mark.parametrize(
    ("n", "undirected", "directed", "size"),
    [
        pytest.param(6, PAPER, [], 54, id="count_amos_basic_check"),
        pytest.param(9, [*PAPER, (7, 8)], [], 108, id="count_chordal_basic_check"),
        pytest.param(
            8, [(3, 4), (4, 5), (6, 7)], [(0, 2), (1, 2), (2, 3), (2, 4), (2, 5), (4, 6), (4, 7)], 6, id="count_cpdag_basic_check"
        ),
        pytest.param(4, [(0, 1), (1, 2)], [(0, 3), (2, 3)], 3, id="readme-basic"),
    ],
)
def test_cliquepicking_counts(n, undirected, directed, size):
    """count.rs / README: the number of DAGs the CPDAG stands for, by its chain components and from a member DAG."""
    g = _cp_graph(n, undirected, directed)
    assert check_cpdag(g).ok
    assert essential_graph_size(g) == size
    assert count_orientations(n, undirected) == size
    member = consistent_extension(g)
    assert mec_size(member) == size
    assert cpdag(member) == cpdag_of(member) and set(cpdag(member).edges) == set(g.edges)


@pytest.mark.parametrize(
    ("n", "undirected", "directed", "size"),
    [pytest.param(6, PAPER, [], 54, id="paper-graph"), pytest.param(4, [(0, 1), (1, 2)], [(0, 3), (2, 3)], 3, id="basic-graph")],
)
def test_cliquepicking_list_cpdag(n, undirected, directed, size):
    """enumerate.rs list_cpdag_basic_check: listing the class gives 54 and 3 distinct DAGs, each with the same CPDAG."""
    g = _cp_graph(n, undirected, directed)
    members = list(enumerate_equivalent_dags(consistent_extension(g)))
    assert len(members) == len(set(members)) == size
    assert all(set(cpdag(m).edges) == set(g.edges) for m in members)


# ---------------------------------------------------------------- dagitty


@pytest.mark.parametrize(
    ("dag", "expected"),
    [
        pytest.param("dag{x->y}", "x -- y", id="x->y"),
        pytest.param("dag{x->y<-z}", "x -> y; z -> y", id="collider"),
        pytest.param("dag{x->y<-z->x}", "x -- y; y -- z; z -- x", id="triangle"),
        pytest.param(
            "dag{z1->{x z3} z2->{z3 y} z3->{x y} x->w->y}",
            "z1 -> x; z1 -> z3; z2 -> z3; z2 -> y; z3 -> x; z3 -> y; x -> w; w -> y",
            id="z1-z2-z3",
        ),
    ],
)
def test_dagitty_dag_to_cpdag(dag, expected):
    """graph-transformations.js GraphTransformer.dagToCpdag: the CPDAG of each DAG."""
    g = parse_dagitty(dag)
    want = set(parse_text(expected).edges)
    assert set(cpdag_of(g).edges) == want
    assert set(cpdag(g).edges) == want


@pytest.mark.parametrize(
    ("dag", "size"),
    [
        pytest.param("dag{x<-z3<-z1->x}", 6, id="markovEquivalentDags"),
        pytest.param("dag{a->{b c d} b->{c d}}", 10, id="equivalentDAGs"),
    ],
)
def test_dagitty_equivalent_dags(dag, size):
    """graph-transformations.js markovEquivalentDags (6) and testBasics.R equivalentDAGs (10): the size of the class."""
    g = parse_dagitty(dag)
    assert mec_size(g) == size
    assert len(list(enumerate_equivalent_dags(g))) == size
    assert len(list(enumerate_equivalent_dags(g, limit=3))) == 3  # equivalentDAGs(..., 3)


# ---------------------------------------------------------------- pgmpy


def _same_class(a: str, b: str) -> bool:
    return cpdag(parse_text(a).with_nodes(sorted(parse_text(a).nodes))) == cpdag(parse_text(b).with_nodes(sorted(parse_text(b).nodes)))


PGMPY_NEW_EXAMPLES = {"G": "I -> G; I -> S", "G1": "S -> I; G -> I", "G2": "I -> S; S -> G", "G3": "S -> I; G -> I; S -> G"}


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        pytest.param("V -> W; W -> X; X -> Y; Z -> Y", "W -> V; X -> W; X -> Y; Z -> Y", True, id="G1-G2"),
        pytest.param("W -> V; W -> X; Y -> X; Z -> Y", "W -> V; X -> W; X -> Y; Z -> Y", False, id="G3-G2"),
        *[
            pytest.param(PGMPY_NEW_EXAMPLES[i], PGMPY_NEW_EXAMPLES[j], i == j, id=f"{i}-{j}")
            for i in PGMPY_NEW_EXAMPLES
            for j in PGMPY_NEW_EXAMPLES
        ],
    ],
)
def test_pgmpy_is_iequivalent(a, b, expected):
    """test_BayesianNetwork.py test_is_iequivalent: two DAGs are I-equivalent exactly when their CPDAGs are equal."""
    assert _same_class(a, b) is expected


@pytest.mark.parametrize("latent", [False, True], ids=["plain", "latent-A"])
@pytest.mark.parametrize(
    ("pdag", "kept", "not_both", "edges"),
    [
        pytest.param("A -> B; C -> B; C -- D; D -- A", {("A", "B"), ("C", "B")}, {("A", "D"), ("C", "D")}, 4, id="pdag-1"),
        pytest.param("B -> C; A -> C; A -- D", {("B", "C"), ("A", "C")}, None, 3, id="pdag-2"),
        pytest.param("B -> C; A -> C; C -- D", {("B", "C"), ("C", "D"), ("A", "C")}, None, 3, id="pdag-3"),
    ],
)
def test_pgmpy_pdag_to_dag(pdag, kept, not_both, edges, latent):
    """test_DAG.py test_pdag_to_dag: the extension keeps the directed edges, adds no v-structure, and keeps a latent flag."""
    g = parse_text(pdag)
    if latent:
        g = g.with_attributes({"A": {"latent": True}})
    dag = consistent_extension(g)
    arcs = {(e.u, e.v) if e.mark_v.name == "ARROW" else (e.v, e.u) for e in dag.edges}
    assert dag.kind == "DAG" and len(dag.edges) == edges
    assert kept <= arcs
    if not_both:
        assert not not_both <= arcs
    assert dag.latent == (("A",) if latent else ())


# ---------------------------------------------------------------- causal-learn


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        pytest.param("X1 -> X2; X1 -> X3; X2 -> X3", "X1 -> X2; X1 -> X3; X3 -> X2", True, id="test_case1"),
        pytest.param("X1 -> X2; X3 -> X2", "X2 -> X1; X2 -> X3", False, id="test_case2"),
    ],
)
def test_causallearn_mec_check(a, b, expected):
    """tests/TestMECCHECK.py: mec_check of two DAGs over X1..X3."""
    assert _same_class(a, b) is expected


def _causallearn_truths() -> list:
    data = json.loads((PEERS / "causallearn_results.json").read_text(encoding="utf-8"))
    return [pytest.param(t, id=k) for k, t in data["truth"].items()]


@pytest.mark.parametrize("truth", _causallearn_truths())
def test_causallearn_dag2cpdag(truth):
    """causallearn.utils.DAG2CPDAG.dag2cpdag of each truth DAG in causal-learn's tests/TestData: the same CPDAG."""
    n = truth["nodes"]
    pairs = list(zip(truth["edges"][::2], truth["edges"][1::2], strict=True))
    dag = Graph.from_edges([GraphEdge.directed(n[a], n[b]) for a, b in pairs], n)
    want = truth["dag2cpdag"]
    expected = [GraphEdge.directed(n[a], n[b]) for a, b in zip(want["directed"][::2], want["directed"][1::2], strict=True)]
    expected += [GraphEdge.undirected(n[a], n[b]) for a, b in zip(want["undirected"][::2], want["undirected"][1::2], strict=True)]
    assert set(cpdag_of(dag).edges) == set(expected)
    assert set(cpdag(dag).edges) == set(expected)
