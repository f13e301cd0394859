"""Property tests: ``meek_closure`` against brute force and against pgmpy's ``PDAG.apply_meeks_rules``.

The PDAGs drawn are CPDAGs of random DAGs with some undirected edges oriented as the DAG has
them (background knowledge), so a consistent extension exists.  There the closure under Meek's
rules is the maximally oriented PDAG: the directed edges are exactly those every consistent
extension shares (brute force over the orientations of the undirected edges).  pgmpy's R3 does
not require its two parents to be non-adjacent, so on a few such PDAGs it orients an edge that
some extension has the other way; the comparison with pgmpy is made where every orientation pgmpy
makes is shared by all extensions (docs/global-fit.md names the difference).  Without R4 the closure equals
causal-learn's ``causallearn.utils.PCUtils.Meek.meek`` (R1–R3).
"""

from __future__ import annotations

import pytest
from causalcheck import strategies as cs
from causalcheck.graphs import Graph
from causalcheck.solvers.equivalence import cpdag, cyclic_remainder, meek_closure, v_structures
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pgmpy")


@st.composite
def pdags(draw: st.DrawFn) -> tuple[Graph, list[tuple[str, str]], list[tuple[str, str]]]:
    """A CPDAG of a random DAG with some undirected edges oriented as the DAG has them."""
    dag = draw(cs.dags(max_nodes=7, max_edges=12))
    directed = set(dag.directed_pairs)
    cp = cpdag(dag)
    d = [(e.u, e.v) for e in cp.edges if e.is_directed]
    u: list[tuple[str, str]] = []
    for e in cp.edges:
        if e.is_undirected:
            pair = (e.u, e.v) if (e.u, e.v) in directed else (e.v, e.u)
            (d if draw(st.booleans()) and draw(st.booleans()) else u).append(pair)
    g = Graph.from_edges([(a, "->", b) for a, b in d] + [(a, "--", b) for a, b in u], dag.nodes)
    return g, d, u


def _forced(g: Graph, d: list[tuple[str, str]], u: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """The directed edges every consistent extension of the PDAG has (brute force)."""
    idx = g.index
    dd = [(idx[a], idx[b]) for a, b in d]
    uu = [(idx[a], idx[b]) for a, b in u]
    stated = set(dd)
    common: set[tuple[int, int]] | None = None
    for mask in range(1 << len(uu)):
        edges = dd + [((b, a) if mask >> i & 1 else (a, b)) for i, (a, b) in enumerate(uu)]
        if cyclic_remainder(len(g.nodes), edges):
            continue
        if any((a, b) not in stated or (c, b) not in stated for a, b, c in v_structures(len(g.nodes), edges)):
            continue
        common = set(edges) if common is None else common & set(edges)
    assert common is not None  # the DAG itself is an extension
    return {(g.nodes[a], g.nodes[b]) for a, b in common}


def _pgmpy(g: Graph, d: list[tuple[str, str]], u: list[tuple[str, str]], r4: bool) -> set[tuple[str, str]]:
    from pgmpy.base import PDAG

    p = PDAG(directed_ebunch=d, undirected_ebunch=u)
    p.add_nodes_from(g.nodes)
    return set(p.apply_meeks_rules(apply_r4=r4).directed_edges)


@given(pdags())
def test_closure_is_the_maximally_oriented_pdag(case: tuple[Graph, list, list]) -> None:
    """The directed edges of the closure (R1–R4) are exactly those shared by every consistent extension."""
    g, d, u = case
    closed = meek_closure(g)
    assert closed.ok
    assert closed.graph.directed_pairs == _forced(g, d, u)


@settings(max_examples=40)
@given(pdags())
def test_closure_equals_pgmpy_apply_meeks_rules(case: tuple[Graph, list, list]) -> None:
    """Equal to pgmpy's apply_meeks_rules(apply_r4=True) wherever pgmpy orients only forced edges."""
    g, d, u = case
    theirs = _pgmpy(g, d, u, True)
    if theirs <= _forced(g, d, u):
        assert meek_closure(g).graph.directed_pairs == theirs


@given(pdags())
def test_steps_replay_to_the_closure(case: tuple[Graph, list, list]) -> None:
    """Every step orients an edge that is undirected in the input, once, and the steps give the closure."""
    g, _, _ = case
    for rule4 in (True, False):
        closed = meek_closure(g, rule4=rule4)
        oriented = [(s.edge.u, s.edge.v) for s in closed.steps]
        assert len(set(oriented)) == len(oriented)
        assert all(frozenset(p) in g.undirected_pairs for p in oriented)
        assert closed.graph.directed_pairs == g.directed_pairs | set(oriented)
        assert rule4 or all(s.rule != "R4" for s in closed.steps)


def _causallearn_meek(g: Graph, d: list[tuple[str, str]], u: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """causal-learn's ``causallearn.utils.PCUtils.Meek.meek`` (R1–R3) on the PDAG; its directed edges."""
    from causallearn.graph.Edge import Edge
    from causallearn.graph.Endpoint import Endpoint
    from causallearn.graph.GraphClass import CausalGraph
    from causallearn.utils.PCUtils.Meek import meek

    names = list(g.nodes)
    cg = CausalGraph(len(names), names)  # a complete undirected graph: cut to the skeleton, then orient
    nodes = cg.G.get_nodes()
    idx = {v: i for i, v in enumerate(names)}
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            if not g.has_edge(names[i], names[j]):
                cg.G.remove_edge(cg.G.get_edge(nodes[i], nodes[j]))
    for a, b in d:
        cg.G.remove_edge(cg.G.get_edge(nodes[idx[a]], nodes[idx[b]]))
        cg.G.add_edge(Edge(nodes[idx[a]], nodes[idx[b]], Endpoint.TAIL, Endpoint.ARROW))
    out = set()
    for e in meek(cg).G.get_graph_edges():
        if e.get_endpoint1() == Endpoint.TAIL and e.get_endpoint2() == Endpoint.ARROW:
            out.add((e.get_node1().get_name(), e.get_node2().get_name()))
        elif e.get_endpoint1() == Endpoint.ARROW and e.get_endpoint2() == Endpoint.TAIL:
            out.add((e.get_node2().get_name(), e.get_node1().get_name()))
    return out


@settings(max_examples=40)
@given(pdags())
def test_closure_without_r4_equals_causallearn_meek(case: tuple[Graph, list, list]) -> None:
    """R1–R3 (rule4=False) equal causal-learn's Meek.meek, which has no R4."""
    pytest.importorskip("causallearn")
    g, d, u = case
    assert meek_closure(g, rule4=False).graph.directed_pairs == _causallearn_meek(g, d, u)
