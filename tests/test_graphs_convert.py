"""Adapters, each direction: networkx, causal-learn GeneralGraph and matrices, NumPy/pandas, pgmpy."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graphs import Graph, Mark, read_graph
from causalcheck.graphs.convert import (
    MARKS_ATTR,
    from_causallearn,
    from_matrix,
    from_networkx,
    from_pgmpy,
    to_causallearn,
    to_matrix,
    to_networkx,
    to_pgmpy,
)
from causalcheck.graphs.formats import parse_text

ALL_MARKS = parse_text("a -> b; b -- c; c <-> d; d o-> e; e o-o f; f o-- g; nodes: h")


# --------------------------------------------------------------------------- networkx


def test_networkx_round_trip_all_marks():
    """to_networkx / from_networkx keep every mark; '->' edges carry no attribute, none is None."""
    g = to_networkx(ALL_MARKS)
    assert set(g.nodes) == set(ALL_MARKS.nodes)
    assert g.edges["a", "b"] == {}
    assert g.edges["b", "c"] == {MARKS_ATTR: "--"}
    assert all(v is not None for _, _, d in g.edges(data=True) for v in d.values())
    assert from_networkx(g) == ALL_MARKS
    assert read_graph(g) == ALL_MARKS
    nx.generate_gml(g)  # GML accepts it (raises on None attributes)


def test_networkx_digraph_both_ways_is_undirected():
    """A DiGraph pair stored both ways is an undirected edge (or an error with symmetric='error')."""
    d = nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c")])
    assert from_networkx(d) == parse_text("a -- b -> c")
    with pytest.raises(InputFormatError, match="2-cycle"):
        from_networkx(d, symmetric="error")


def test_networkx_undirected_graph():
    """An undirected Graph gives '--' edges; an asymmetric marks attribute is refused."""
    u = nx.Graph([("a", "b")])
    u.add_edge("b", "c", marks="<->")
    assert from_networkx(u) == parse_text("a -- b <-> c")
    u.add_edge("c", "d", marks="o->")
    with pytest.raises(InputFormatError, match="asymmetric"):
        from_networkx(u)


def test_networkx_bad_marks_and_multigraph():
    """A marks value that is not a token, and a multigraph, are refused with the value shown."""
    d = nx.DiGraph()
    d.add_edge("a", "b", marks="=>")
    with pytest.raises(InputFormatError, match="'=>'"):
        from_networkx(d)
    with pytest.raises(InputFormatError, match="multigraph"):
        from_networkx(nx.MultiDiGraph([("a", "b")]))


def test_networkx_names_are_str_of_nodes():
    """Integer networkx nodes become their str() names."""
    assert from_networkx(nx.DiGraph([(0, 1)])).nodes == ("0", "1")


# --------------------------------------------------------------------------- causal-learn


def _cl_graph_by_add_edge(g: Graph):
    from causallearn.graph.Edge import Edge
    from causallearn.graph.Endpoint import Endpoint
    from causallearn.graph.GeneralGraph import GeneralGraph
    from causallearn.graph.GraphNode import GraphNode

    ep = {Mark.TAIL: Endpoint.TAIL, Mark.ARROW: Endpoint.ARROW, Mark.CIRCLE: Endpoint.CIRCLE}
    nodes = [GraphNode(n) for n in g.nodes]
    by = dict(zip(g.nodes, nodes, strict=True))
    cl = GeneralGraph(nodes)
    for e in g.edges:
        u, v, mu, mv = e.u, e.v, e.mark_u, e.mark_v
        if (mu, mv) == (Mark.CIRCLE, Mark.TAIL):  # add_edge only accepts this edge as TAIL-CIRCLE
            u, v, mu, mv = v, u, mv, mu
        assert cl.add_edge(Edge(by[u], by[v], ep[mu], ep[mv])) is not False
    return cl


def test_causallearn_every_endpoint_kind():
    """A GeneralGraph built with causal-learn's own add_edge reads back with every mark."""
    cl = _cl_graph_by_add_edge(ALL_MARKS)
    assert from_causallearn(cl) == ALL_MARKS
    assert read_graph(cl) == ALL_MARKS


def test_to_causallearn_equals_add_edge_build():
    """to_causallearn builds the same graph and dpath matrices as causal-learn's add_edge, and prints the same."""
    from causalcheck.graphchecks.kinds import cpdag_of

    rng = np.random.default_rng(3)
    from _graphs import random_dag

    for g in [ALL_MARKS, *(cpdag_of(random_dag(8, 0.35, rng)) for _ in range(10)), *(random_dag(8, 0.35, rng) for _ in range(10))]:
        ours, theirs = to_causallearn(g), _cl_graph_by_add_edge(g)
        assert (ours.graph == theirs.graph).all()
        if g.kind == "DAG":
            theirs.reconstitute_dpath(theirs.get_graph_edges())
            assert (ours.dpath == theirs.dpath).all()
        assert str(ours) == str(theirs)
        for a in g.nodes:
            for b in g.nodes:
                na, nb = ours.get_node(a), ours.get_node(b)
                assert ours.is_adjacent_to(na, nb) == g.has_edge(a, b)


def test_causallearn_matrix_convention():
    """G[i, j] is the mark at i: G[j, i] = 1, G[i, j] = -1 is i -> j (causal-learn's add_directed_edge)."""
    m = np.array([[0, -1, 2], [1, 0, 0], [1, 0, 0]])
    g = from_matrix(m, ["i", "j", "k"], convention="causallearn")
    assert g == parse_text("i -> j; i o-> k")
    assert (to_matrix(g, convention="causallearn") == m).all()


def test_causallearn_matrix_errors():
    """One-sided entries, codes 4/5 (two edges on one pair) and unknown codes are refused with positions."""
    with pytest.raises(InputFormatError, match="both ends"):
        from_matrix(np.array([[0, 1], [0, 0]]), ["a", "b"], convention="causallearn")
    with pytest.raises(InputFormatError, match="two edges between 'a' and 'b'"):
        from_matrix(np.array([[0, 4], [5, 0]]), ["a", "b"], convention="causallearn")
    with pytest.raises(InputFormatError, match="endpoint codes"):
        from_matrix(np.array([[0, 3], [1, 0]]), ["a", "b"], convention="causallearn")


# --------------------------------------------------------------------------- matrices


def test_matrix_conventions_row_column_and_lingam():
    """row_to_column reads A[i, j] as i -> j; column_to_row / lingam as j -> i (B[effect, cause])."""
    b = np.array([[0.0, 0.0, 0.0], [1.5, 0.0, 0.0], [0.0, -0.7, 0.0]])  # x1 = 1.5 x0, x2 = -0.7 x1
    names = ["x0", "x1", "x2"]
    assert from_matrix(b, names, convention="lingam") == parse_text("x0 -> x1 -> x2")
    assert from_matrix(b, names, convention="column_to_row") == parse_text("x0 -> x1 -> x2")
    assert from_matrix(b, names, convention="row_to_column") == parse_text("x1 -> x0; x2 -> x1")
    g = parse_text("x0 -> x1 -- x2")
    assert from_matrix(to_matrix(g, convention="lingam"), names, convention="lingam") == g
    assert from_matrix(b, names, convention="lingam", threshold=1.0) == parse_text("nodes: x0, x1, x2\nx0 -> x1")


def test_matrix_needs_convention_and_names():
    """A bare array needs an explicit convention and names; the message says which and why."""
    with pytest.raises(InputFormatError, match="explicit convention"):
        from_matrix(np.zeros((2, 2)), ["a", "b"])
    with pytest.raises(InputFormatError, match="names="):
        from_matrix(np.zeros((2, 2)), convention="row_to_column")
    with pytest.raises(InputFormatError, match="names has 3 entries but the matrix is 2x2"):
        from_matrix(np.zeros((2, 2)), ["a", "b", "c"], convention="row_to_column")
    with pytest.raises(InputFormatError, match="square"):
        from_matrix(np.zeros((2, 3)), ["a", "b"], convention="row_to_column")
    with pytest.raises(InputFormatError, match="self-loops"):
        from_matrix(np.eye(2), ["a", "b"], convention="row_to_column")
    with pytest.raises(InputFormatError, match="convention='x'"):
        from_matrix(np.zeros((2, 2)), ["a", "b"], convention="x")


def test_dataframe_names_and_mismatch():
    """A DataFrame gives names from its columns (and index); disagreeing labels give a clear message."""
    df = pd.DataFrame([[0, 1], [0, 0]], index=["a", "b"], columns=["a", "b"])
    assert from_matrix(df, convention="row_to_column") == parse_text("a -> b")
    assert read_graph(df, convention="row_to_column") == parse_text("a -> b")
    plain = pd.DataFrame([[0, 1], [0, 0]], columns=["a", "b"])  # default RangeIndex: columns only
    assert from_matrix(plain, convention="row_to_column") == parse_text("a -> b")
    bad = pd.DataFrame([[0, 1], [0, 0]], index=["b", "a"], columns=["a", "b"])
    with pytest.raises(InputFormatError, match=r"index .* and columns .* must name the same nodes"):
        from_matrix(bad, convention="row_to_column")


def test_zero_one_matrix_cannot_hold_pag_marks():
    """to_matrix in a 0/1 convention refuses '<->' and circles, pointing to 'causallearn'."""
    with pytest.raises(InputFormatError, match="convention='causallearn'"):
        to_matrix(parse_text("a <-> b"), convention="row_to_column")


# --------------------------------------------------------------------------- pgmpy


def test_pgmpy_dag_and_pdag_round_trip():
    """pgmpy DAG and PDAG convert both ways; other marks are refused."""
    pytest.importorskip("pgmpy", reason="pgmpy is optional (the 'test' extra installs it)")
    from pgmpy.base import DAG, PDAG

    d = DAG([("a", "b"), ("b", "c")])
    d.add_node("z")
    assert from_pgmpy(d) == parse_text("a -> b -> c; nodes: z")
    assert read_graph(d) == from_pgmpy(d)
    p = PDAG(directed_ebunch=[("a", "b")], undirected_ebunch=[("b", "c")])
    assert from_pgmpy(p) == parse_text("a -> b -- c")
    assert from_pgmpy(to_pgmpy(parse_text("a -> b -- c; nodes: q"))) == parse_text("a -> b -- c; nodes: q")
    assert isinstance(to_pgmpy(parse_text("a -> b")), DAG)
    with pytest.raises(InputFormatError, match="pgmpy has no edge"):
        to_pgmpy(parse_text("a <-> b"))


def test_read_graph_refuses_unknown_objects():
    """An object no adapter knows gives a message naming its type."""
    with pytest.raises(InputFormatError, match=r"builtins\.set"):
        read_graph({1, 2})
