"""The peers' own d- and m-separation cases, ported: each case is a graph, a query and the answer a peer's tests expect.

Sources (values only):

* networkx (networkx/networkx at cfc6b79, BSD-3): ``networkx/algorithms/tests/test_d_separation.py``.
* pgmpy (pgmpy/pgmpy at 94105f1, MIT): ``pgmpy/tests/test_models/test_BayesianNetwork.py``
  (``is_dconnected``, ``active_trail_nodes``, ``get_independencies``, ``local_independencies``)
  and ``pgmpy/tests/test_base/test_DAG.py`` (``test_minimal_dseparator``: the separator found
  separates; with latents, no separator is an edge of the latent projection).
* dagitty (jtextor/dagitty at 7a65777, GPL-2): ``test/test/dseparation.js``, ``test/test/pags.js``,
  ``test/test/testable-implications.js`` (graphs from ``test/test-graphs.js`` and
  ``gui/js/example-dags.js``), ``test/test/graph-transformations.js`` (``dagToMag``) and
  ``r/tests/testthat/testBasics.R`` (``paths(...)$open``, ``dconnected``, ``dseparated``).

A query ``X ⫫ Y | Z`` over sets holds when it holds for every pair ``x ∈ X``, ``y ∈ Y`` (d- and
m-separation have the composition property).  A dagitty text is read with dagitty's reader.
"""

from __future__ import annotations

import pytest
from causalcheck.graphchecks.separation import (
    connected_to,
    implied_independencies,
    latent_projection,
    local_markov_triples,
    m_separated,
)
from causalcheck.graphs.formats import parse_dagitty, parse_text


def _read(text: str):
    return parse_dagitty(text) if "{" in text else parse_text(text)


def separated(text: str, xs: str, ys: str, given: str) -> bool:
    """``xs ⫫ ys | given`` in the graph *text* (nodes space-separated)."""
    g = _read(text)
    return all(m_separated(g, x, y, given.split()) for x in xs.split() for y in ys.split())


# networkx test_d_separation.py graphs
PATH = "0 -> 1 -> 2"
FORK = "0 -> 1; 0 -> 2"
COLLIDER = "0 -> 2; 1 -> 2"
NAIVE_BAYES = "0 -> 1; 0 -> 2; 0 -> 3; 0 -> 4"
ASIA = (
    "asia -> tuberculosis; smoking -> cancer; smoking -> bronchitis; tuberculosis -> either; cancer -> either; "
    "either -> xray; either -> dyspnea; bronchitis -> dyspnea"
)
LARGE_COLLIDER = "A -> B; C -> B; B -> D; D -> E; B -> F; G -> E"
CHAIN_AND_FORK = "A -> B; B -> C; B -> D; D -> C"
NO_SEPARATING_SET = "A -> B"
LARGE_NO_SEPARATING_SET = "A -> B; C -> A; C -> B"
CHECKS_DSEP = "A -> B; A -> E; B -> C; B -> D; D -> C; D -> F; E -> D; E -> F"

# pgmpy TestBayesianModelCPD.G
STUDENT = "d -> g; i -> g; g -> l; i -> s"

# dagitty
MIXED = "mag { a -- x -> b \n c <-> x <- d \n f }"  # testBasics.R, 'mixed'
LONGPATH = "dag{ X -> R -> S -> T <- U <- V -> Y T -> P }"  # testBasics.R, 'longpath'
EXT_CONFOUNDING = "dag { A -> { E Z } B -> { D Z } E -> D Z -> { D E } }"  # example-dags.js "Extended confounding triangle" (findExample("onfound"))

# (source, graph, X, Y, Z, separated?)
CASES = [
    # ---------------------------------------------------------------- networkx test_d_separation.py
    ("nx test_path_graph_dsep", PATH, "0", "2", "1", True),
    ("nx test_path_graph_dsep", PATH, "0", "2", "", False),
    ("nx test_fork_graph_dsep", FORK, "1", "2", "0", True),
    ("nx test_fork_graph_dsep", FORK, "1", "2", "", False),
    ("nx test_collider_graph_dsep", COLLIDER, "0", "1", "", True),
    ("nx test_collider_graph_dsep", COLLIDER, "0", "1", "2", False),
    *[("nx test_naive_bayes_dsep", NAIVE_BAYES, u, v, "0", True) for u, v in (("1", "2"), ("1", "3"), ("1", "4"), ("2", "3"), ("2", "4"), ("3", "4"))],
    *[("nx test_naive_bayes_dsep", NAIVE_BAYES, u, v, "", False) for u, v in (("1", "2"), ("1", "3"), ("1", "4"), ("2", "3"), ("2", "4"), ("3", "4"))],
    ("nx test_asia_graph_dsep", ASIA, "asia smoking", "dyspnea xray", "bronchitis either", True),
    ("nx test_asia_graph_dsep", ASIA, "tuberculosis cancer", "bronchitis", "smoking xray", True),
    ("nx test_is_minimal_d_separator case 1", LARGE_COLLIDER, "B", "E", "", False),
    ("nx test_is_minimal_d_separator case 1 (Zmin)", LARGE_COLLIDER, "B", "E", "D", True),
    ("nx test_is_minimal_d_separator case 1 (sets)", LARGE_COLLIDER, "A B", "G E", "D", True),
    ("nx test_is_minimal_d_separator case 2", CHAIN_AND_FORK, "A", "C", "", False),
    ("nx test_is_minimal_d_separator case 2 (Zmin)", CHAIN_AND_FORK, "A", "C", "B", True),
    ("nx test_is_minimal_d_separator case 2 (not minimal)", CHAIN_AND_FORK, "A", "C", "B D", True),
    ("nx test_is_minimal_d_separator case 3", NO_SEPARATING_SET, "A", "B", "", False),
    ("nx test_is_minimal_d_separator case 4", LARGE_NO_SEPARATING_SET, "A", "B", "C", False),
    ("nx test_is_minimal_d_separator case 4", LARGE_NO_SEPARATING_SET, "A", "B", "", False),
    ("nx test_is_minimal_d_separator collider_trek", "A -> B; C -> B; C -> D", "A", "D", "B C", True),
    ("nx test_is_minimal_d_separator_checks_dsep", CHECKS_DSEP, "C", "F", "D", False),
    ("nx test_is_minimal_d_separator_checks_dsep", CHECKS_DSEP, "C", "F", "", False),
    # ---------------------------------------------------------------- pgmpy test_BayesianNetwork.py
    ("pgmpy test_is_dconnected_triplets", STUDENT, "d", "l", "", False),
    ("pgmpy test_is_dconnected_triplets", STUDENT, "g", "s", "", False),
    ("pgmpy test_is_dconnected_triplets", STUDENT, "d", "i", "", True),
    ("pgmpy test_is_dconnected_triplets", STUDENT, "d", "i", "g", False),
    ("pgmpy test_is_dconnected_triplets", STUDENT, "d", "l", "g", True),
    ("pgmpy test_is_dconnected_triplets", STUDENT, "i", "l", "g", True),
    ("pgmpy test_is_dconnected_triplets", STUDENT, "d", "i", "l", False),
    ("pgmpy test_is_dconnected_triplets", STUDENT, "g", "s", "i", True),
    ("pgmpy test_is_dconnected", STUDENT, "d", "s", "", True),
    ("pgmpy test_is_dconnected", STUDENT, "s", "l", "", False),
    ("pgmpy test_is_dconnected", STUDENT, "d", "s", "g", False),
    ("pgmpy test_is_dconnected", STUDENT, "s", "l", "g", True),
    ("pgmpy test_is_dconnected_args", STUDENT, "s", "l", "i", True),
    ("pgmpy test_is_dconnected_args", STUDENT, "s", "l", "g", True),
    ("pgmpy test_is_dconnected_args", STUDENT, "d", "s", "l", False),
    ("pgmpy test_is_dconnected_args", STUDENT, "d", "s", "i l", True),
    ("pgmpy test_get_independencies chain", "X -> Y; Y -> Z", "X", "Z", "Y", True),
    ("pgmpy test_get_independencies fork", "Y -> X; Y -> Z", "X", "Z", "Y", True),
    ("pgmpy test_get_independencies collider", "X -> Y; Z -> Y", "X", "Z", "", True),
    ("pgmpy test_minimal_dseparator dag1", "A -> B; B -> C", "A", "C", "B", True),
    ("pgmpy test_minimal_dseparator dag2", "A -> B; B -> C; C -> D; A -> E; E -> D", "A", "D", "C E", True),
    ("pgmpy test_minimal_dseparator dag3", "B -> A; B -> C; A -> D; D -> C; A -> E; C -> E", "A", "C", "B D", True),
    # ---------------------------------------------------------------- dagitty test/test/dseparation.js
    ("dagitty dseparation.js", "digraph G { x <-> m -> y }", "x", "y", "", False),
    ("dagitty dseparation.js", "digraph G { x <-> m -> y }", "x", "y", "m", True),
    ("dagitty dseparation.js", "digraph G { x <-> m <-> b <-> y }", "x", "y", "m", True),
    ("dagitty dseparation.js", "digraph G { x <-> m <-> b <-> y }", "x", "y", "m b", False),
    ("dagitty dseparation.js", "digraph G { x -> m -> y }", "x", "y", "", False),
    ("dagitty dseparation.js", "digraph G { x -> m -> y }", "x", "y", "m", True),
    ("dagitty dseparation.js", "dag{R->S->T<-U}", "R", "U", "T", False),
    ("dagitty dseparation.js", "dag{ a->x->m<-y m->p }", "a", "y", "m", False),
    ("dagitty dseparation.js", "dag{ x->m<-y m->p }", "x", "y", "m", False),
    ("dagitty dseparation.js", "dag{ x[e] y[o] x->m<-y m->p }", "x", "y", "", True),
    ("dagitty dseparation.js", "dag{ x->m<-y m->p }", "x", "y", "p", False),
    ("dagitty dseparation.js", "dag{ x->m<-y m->p }", "x", "y", "", True),
    ("dagitty dseparation.js findExample('onfound')", EXT_CONFOUNDING, "E", "B", "Z", False),
    # ---------------------------------------------------------------- dagitty test/test/pags.js
    ("dagitty pags.js", "a -> b <- c", "a", "c", "", True),
    ("dagitty pags.js", "a -> b <- c", "a", "c", "b", False),
    ("dagitty pags.js", "pag { a @-> b <-@ c }", "a", "c", "", True),
    ("dagitty pags.js", "pag { a @-> b <-@ c }", "a", "c", "b", False),
    # ---------------------------------------------------------------- dagitty r/tests/testthat/testBasics.R (paths()$open)
    ("dagitty testBasics.R coll", "dag {A -> B <- C}", "A", "C", "B", False),
    ("dagitty testBasics.R coll", "dag {A -> B <- C}", "A", "C", "", True),
    ("dagitty testBasics.R longpath", LONGPATH, "S", "U", "T", False),
    ("dagitty testBasics.R longpath", LONGPATH, "R", "U", "T", False),
    ("dagitty testBasics.R longpath", LONGPATH, "X", "Y", "P", False),
    ("dagitty testBasics.R longpath", LONGPATH, "X", "Y", "T", False),
]

#: testBasics.R's 'mixed' graph: x has an undirected neighbour and a parent and a spouse, so it is no MAG
MIXED_CASES = [
    ("dagitty testBasics.R mixed", MIXED, "a", "b c d", "", False),
    ("dagitty testBasics.R mixed", MIXED, "b", "c d", "", False),
    ("dagitty testBasics.R mixed", MIXED, "c", "d", "", True),
    ("dagitty testBasics.R mixed", MIXED, "a", "b c d", "x", True),
    ("dagitty testBasics.R mixed", MIXED, "b", "c d", "x", True),
    ("dagitty testBasics.R mixed", MIXED, "c", "d", "x", False),
]


def _ids(cases):
    return [f"{source}: {x}|{y}|{z or '-'}" for source, _, x, y, z, _ in cases]


@pytest.mark.parametrize(("source", "graph", "x", "y", "given", "expected"), CASES, ids=_ids(CASES))
def test_peer_separation(source, graph, x, y, given, expected):
    """Each peer's answer to 'are X and Y separated given Z?'."""
    assert separated(graph, x, y, given) is expected


@pytest.mark.parametrize(("source", "graph", "x", "y", "given", "expected"), MIXED_CASES, ids=_ids(MIXED_CASES))
def test_peer_separation_on_a_mixed_graph(source, graph, x, y, given, expected):
    """testBasics.R 'path tracing': dagitty's m-separation on a mixed graph that is not ancestral."""
    assert separated(graph, x, y, given) is expected


@pytest.mark.parametrize(
    ("x", "expected"),
    [pytest.param("d", {"a", "b", "x"}, id="dconnected-d"), pytest.param("c", {"x", "b", "a"}, id="dconnected-c")],
)
def test_dagitty_dconnected_on_the_mixed_graph(x, expected):
    """testBasics.R: dconnected(mixed, 'd') is a, b, d, x and dseparated(mixed, 'd') is c, f (x itself left out here)."""
    g = parse_dagitty(MIXED)
    got = connected_to(g, x)
    assert got == expected
    assert set(g.nodes) - got - {x} == ({"c", "f"} if x == "d" else {"d", "f"})


# ---------------------------------------------------------------- networkx test_markov_condition


def _markov_cases() -> list:
    out = []
    for name, text in (("path", PATH), ("fork", FORK), ("collider", COLLIDER), ("naive_bayes", NAIVE_BAYES), ("asia", ASIA)):
        g = parse_text(text)
        for node in g.nodes:
            out.append(pytest.param(text, node, id=f"{name}-{node}"))
    return out


@pytest.mark.parametrize(("text", "node"), _markov_cases())
def test_networkx_markov_condition(text, node):
    """test_d_separation.py test_markov_condition: each node is d-separated from its non-descendant non-parents by its parents."""
    g = parse_text(text)
    parents = set(g.parents(node))
    below = {node}
    frontier = [node]
    while frontier:
        v = frontier.pop()
        for w in g.children(v):
            if w not in below:
                below.add(w)
                frontier.append(w)
    others = set(g.nodes) - below - parents
    assert all(m_separated(g, node, y, parents) for y in others)
    assert {t[1] for t in local_markov_triples(g) if t[0] == node} == others


# ---------------------------------------------------------------- pgmpy active trails and independencies


@pytest.mark.parametrize(
    ("start", "observed", "expected"),
    [
        pytest.param("d", "", {"d", "g", "l"}, id="d"),
        pytest.param("i", "", {"g", "i", "l", "s"}, id="i"),
        pytest.param("d", "g", {"d", "i", "s"}, id="d-given-g"),
        pytest.param("l", "g", {"l"}, id="l-given-g"),
        pytest.param("s", "i l", {"s"}, id="s-given-i-l"),
        pytest.param("s", "d l", {"g", "i", "s"}, id="s-given-d-l"),
    ],
)
def test_pgmpy_active_trail_nodes(start, observed, expected):
    """test_BayesianNetwork.py test_active_trail_nodes(_args): the nodes d-connected to the start (pgmpy lists the start too)."""
    assert connected_to(parse_text(STUDENT), start, observed.split()) | {start} == expected


@pytest.mark.parametrize(
    ("node", "others", "parents"),
    [
        pytest.param("a", "b c", "", id="a"),
        pytest.param("c", "a d e", "b", id="c"),
        pytest.param("d", "c", "a b", id="d"),
        pytest.param("e", "a b c", "d", id="e"),
        pytest.param("b", "a", "", id="b"),
    ],
)
def test_pgmpy_local_independencies(node, others, parents):
    """test_BayesianNetwork.py test_local_independencies: node ⫫ non-descendants | parents, as local_markov_triples lists them."""
    g = parse_text("a -> d; b -> d; d -> e; b -> c")
    got = {(y, z) for x, y, z in local_markov_triples(g) if x == node}
    assert got == {(y, tuple(sorted(parents.split(), key=g.nodes.index))) for y in others.split()}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("X -> Y; Y -> Z", ["X ⫫ Z | Y"], id="chain"),
        pytest.param("Y -> X; Y -> Z", ["X ⫫ Z | Y"], id="fork"),
        pytest.param("X -> Y; Z -> Y", ["X ⫫ Z"], id="collider"),
        pytest.param("Z -> X; Z -> I; X -> I; X -> Y; I -> Y", ["Z ⫫ Y | X, I"], id="dagitty-mediat"),
    ],
)
def test_implied_independencies(text, expected):
    """pgmpy test_get_independencies (chain, fork, collider) and dagitty testable-implications.js ('mediat': Y ⫫ Z | I, X)."""
    assert [str(s) for s in implied_independencies(parse_text(text))] == expected


def test_pgmpy_fork_with_latent_implies_nothing():
    """test_get_independencies: a fork through a latent Y implies nothing about X and Z (include_latents=False)."""
    g = parse_dagitty("dag { Y [latent] Y -> X Y -> Z }")
    assert implied_independencies(latent_projection(g)) == ()


# ---------------------------------------------------------------- latent projections (pgmpy minimal_dseparator, dagitty dagToMag)


@pytest.mark.parametrize(
    ("text", "latent", "separator"),
    [
        pytest.param("A -> B; B -> C", "B", None, id="dag_lat1"),
        pytest.param("A -> D; D -> B; B -> C", "B", "D", id="dag_lat2"),
        pytest.param("A -> B; B -> D; D -> C", "B", "D", id="dag_lat3"),
        pytest.param("A -> B; B -> C; A -> D; D -> C", "D", None, id="dag_lat4"),
        pytest.param("A -> B; B -> C; A -> D; D -> E; E -> C", "E", "B D", id="dag_lat5"),
    ],
)
def test_pgmpy_minimal_dseparator_with_latents(text, latent, separator):
    """test_DAG.py test_minimal_dseparator: no observed separator is an edge of the latent projection; a found one separates."""
    mag = latent_projection(parse_text(text), [latent])
    if separator is None:
        assert mag.has_edge("A", "C")
    else:
        assert not mag.has_edge("A", "C")
        assert m_separated(mag, "A", "C", separator.split())


@pytest.mark.parametrize(
    ("dag", "mag"),
    [
        pytest.param("dag { v1 [latent] z <- v1 -> v2 -> y x -> v1 }", "x -> z; z <-> v2; v2 -> y; x -> v2", id="dagToMag-1"),
        pytest.param(
            "dag { l1 [latent] l2 [latent] a -> x l1 -> x l1 -> z l2 -> y l2 -> z x -> y z -> x z -> y }",
            "a -> x; a -> y; x -> y; z -> x; z -> y",
            id="dagToMag-2",
        ),
    ],
)
def test_dagitty_dag_to_mag(dag, mag):
    """graph-transformations.js GraphTransformer.dagToMag: the MAG of a DAG with latent nodes."""
    got = latent_projection(parse_dagitty(dag))
    assert set(got.edges) == set(parse_text(mag).edges)


#: testable-implications.js: listMinimalImplications(commentator1()) — A, B, C latent (test-graphs.js)
COMMENTATOR1 = (
    "dag { A [latent] B [latent] C [latent] A -> { W2 W1 } B -> { W1 X } C -> { Y W2 } V -> { Z1 Z2 } "
    "W1 -> Z1 W2 -> Z2 X -> Y Z1 -> X Z2 -> Y }"
)


@pytest.mark.parametrize(
    ("x", "y", "given"),
    [
        ("X", "V", "W1 Z1"),
        ("X", "Z2", "V W2"),
        ("X", "Z2", "W1 W2 Z1"),
        ("Y", "V", "W1 W2 Z1 Z2"),
        ("V", "W1", ""),
        ("V", "W2", ""),
        ("W1", "Z2", "W2"),
        ("W2", "Z1", "W1"),
        ("Z1", "Z2", "V W2"),
        ("Z1", "Z2", "V W1"),
    ],
    ids=lambda v: v or "-",
)
def test_dagitty_commentator1_minimal_implications(x, y, given):
    """testable-implications.js: each of commentator1's ten minimal implications holds in the latent projection, and no smaller set works."""
    mag = latent_projection(parse_dagitty(COMMENTATOR1))
    z = given.split()
    assert m_separated(mag, x, y, z)
    assert not any(m_separated(mag, x, y, [w for w in z if w != drop]) for drop in z)


# ---------------------------------------------------------------- pgmpy implied_cis (one statement per non-adjacent pair)


def _bnlearn(name: str):
    """bnlearn's *name* network as causal-learn's tests/TestData stores its truth DAG (tests/fixtures/peers/causallearn_results.json)."""
    import json
    from pathlib import Path

    from causalcheck.graphs import Graph, GraphEdge

    t = json.loads((Path(__file__).parent / "fixtures" / "peers" / "causallearn_results.json").read_text(encoding="utf-8"))["truth"][name]
    n, e = t["nodes"], t["edges"]
    return Graph.from_edges([GraphEdge.directed(n[a], n[b]) for a, b in zip(e[::2], e[1::2], strict=True)], n)


@pytest.mark.parametrize(("network", "count"), [("cancer", 6), ("alarm", 620)])
def test_pgmpy_implied_cis_count(network, count):
    """pgmpy test_metrics.py TestImpliedCI.test_implied_cis: bnlearn's cancer implies 6 statements, alarm 620 — one per non-adjacent pair."""
    g = _bnlearn(network)
    statements = implied_independencies(g, basis="pairwise")
    assert len(statements) == count
    assert all(m_separated(g, s.x, s.y, s.given) for s in statements)
