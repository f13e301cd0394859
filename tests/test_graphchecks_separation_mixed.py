"""m-separation on any mixed graph (->, <->, -- in any combination, as DAGitty reads one), and one edge per pair."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.graphchecks.separation import Separator, connected_to, m_separated
from causalcheck.graphs import Graph, GraphEdge, read_graph
from causalcheck.graphs.formats import parse_dagitty
from causalcheck.graphs.model import Mark

MIXED = "mag { a -- x -> b \n c <-> x <- d \n f }"  # dagitty r/tests/testthat/testBasics.R, 'mixed'


@pytest.mark.parametrize(
    ("x", "y", "z", "expected"),
    [
        # dagitty testBasics.R: dseparated(mixed, ...) — x has a -- edge and arrowheads, so the graph is no MAG
        ("a", "b c d", "", False), ("b", "c d", "", False), ("c", "d", "", True),
        ("a", "b c d", "x", True), ("b", "c d", "x", True), ("c", "d", "x", False),
    ],
)
def test_dagitty_mixed_graph(x, y, z, expected) -> None:
    """DAGitty's answers on its 'mixed' test graph (a walk d -> x -- a -- x <-> c is no path)."""
    g = parse_dagitty(MIXED)
    assert all(m_separated(g, a, b, z.split()) for a in x.split() for b in y.split()) is expected


def test_dagitty_dconnected_on_the_mixed_graph() -> None:
    """testBasics.R: dconnected(mixed, 'd') is a, b, x (d itself left out here)."""
    assert connected_to(parse_dagitty(MIXED), "d") == {"a", "b", "x"}


def _paths(g: Graph, x: str, y: str):
    """Every simple path from x to y as a node list."""
    stack = [[x]]
    while stack:
        path = stack.pop()
        for e in g.edges:
            if path[-1] in (e.u, e.v):
                w = e.other(path[-1])
                if w == y:
                    yield [*path, w]
                elif w not in path:
                    stack.append([*path, w])


def _brute(g: Graph, x: str, y: str, z: set[str]) -> bool:
    """m-separation by its definition: no path whose colliders are in An(z) and non-colliders outside z."""
    parents = {v: {e.u for e in g.edges if e.is_directed and e.v == v} for v in g.nodes}
    an, stack = set(z), list(z)
    while stack:
        for p in parents[stack.pop()] - an:
            an.add(p)
            stack.append(p)
    for path in _paths(g, x, y):
        ok = True
        for a, v, b in zip(path, path[1:], path[2:], strict=False):
            collider = g.edge(a, v).mark_at(v) is Mark.ARROW and g.edge(v, b).mark_at(v) is Mark.ARROW
            if (collider and v not in an) or (not collider and v in z):
                ok = False
                break
        if ok:
            return False
    return True


def test_search_equals_the_definition_on_mixed_graphs_with_undirected_edges_at_arrowheads() -> None:
    """Random acyclic mixed graphs, many -- edges beside arrowheads: the search agrees with path enumeration."""
    rng = np.random.default_rng(42)
    flagged = 0
    for _ in range(80):
        n = int(rng.integers(3, 7))
        names = [f"v{i}" for i in range(n)]
        edges = []
        for i, j in itertools.combinations(range(n), 2):
            r = rng.random()
            if r < 0.25:
                edges.append(GraphEdge.directed(names[i], names[j]))
            elif r < 0.4:
                edges.append(GraphEdge.bidirected(names[i], names[j]))
            elif r < 0.6:
                edges.append(GraphEdge.undirected(names[i], names[j]))
        g = Graph(tuple(names), tuple(edges))
        if g.kind != "MAG":  # only -> and --: a PDAG, answered for its Markov equivalence class instead
            continue
        sep = Separator(g)
        flagged += not sep.walks_are_paths
        for x, y in itertools.combinations(names, 2):
            z = {v for v in names if v not in (x, y) and rng.random() < 0.4}
            assert m_separated(g, x, y, z) == _brute(g, x, y, z), (str(g), x, y, z)
    assert flagged > 20  # the path search ran on many of them


def test_directed_cycle_is_refused() -> None:
    """m-separation needs an acyclic directed part: the cycle is named."""
    with pytest.raises(InputFormatError, match="directed cycle"):
        m_separated(read_graph("a -> b; b -> c; c -> a; c <-> d"), "a", "d")


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("x -> y; x <-> y", "text"),
        ("mag { x -> y  x <-> y }", "dagitty"),
        ('digraph { x -> y; x -> y [dir=both] }', "dot"),
        ("Graph Nodes:\nx;y\n\nGraph Edges:\n1. x --> y\n2. x <-> y\n", "causallearn"),
        ("source,target,type\nx,y,->\nx,y,<->\n", "edgelist"),
        ('{"nodes": ["x", "y"], "edges": [["x", "->", "y"], ["x", "<->", "y"]]}', "json"),
        ('graph [ directed 1 node [ id 0 label "x" ] node [ id 1 label "y" ] edge [ source 0 target 1 ] '
         'edge [ source 0 target 1 marks "<->" ] ]', "gml"),
    ],
)
def test_two_edges_on_one_pair_are_refused_naming_both(text, fmt) -> None:
    """A file with x -> y and x <-> y is refused, not read with one of them dropped; the message names both."""
    with pytest.raises(CausalCheckError) as info:
        read_graph(text, fmt)
    message = str(info.value)
    assert "'x -> y'" in message and "'x <-> y'" in message
