"""CausalGraph: construction, views, and the one tested boundary to matrices, networkx and causal-learn."""

from __future__ import annotations

import numpy as np
import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graph import FREQ, CausalGraph, Edge, is_freq_alias, normalize_node
from causalcheck.graphchecks.named import NAMED_GRAPHS

CHAIN, FORK, COLLIDER, DIAMOND = (NAMED_GRAPHS[n] for n in ("chain", "fork", "collider", "diamond"))
FIXTURES = {"chain": CHAIN, "fork": FORK, "collider": COLLIDER, "diamond": DIAMOND}


@pytest.mark.parametrize("name", ["freq", "Frequency", " resonance_freq ", "Resonance-Frequency", "RESONANCEFREQ"])
def test_frequency_aliases(name):
    """Every spelling the official scorer accepts maps to resonanceFreq."""
    assert is_freq_alias(name) and normalize_node(name) == FREQ


def test_other_names_keep_case():
    """Other names are only trimmed (edge matching is case-sensitive, as in the scorer)."""
    assert normalize_node(" pH ") == "pH" and not is_freq_alias("frequent")


def test_nodes_and_edges_are_deduplicated_in_order():
    """Endpoints are added in first-seen order; exact duplicate edges collapse."""
    g = CausalGraph(("Z",), (Edge("A", "B"), Edge("A", "B"), Edge("B", "C", "CAUSE")))
    assert g.nodes == ("Z", "A", "B", "C") and len(g) == 2


def test_bad_values_raise_input_format_error():
    """Empty names, non-edges and bad tuples raise InputFormatError naming the value."""
    with pytest.raises(InputFormatError, match="''"):
        CausalGraph(("",))
    with pytest.raises(InputFormatError, match="must be an Edge"):
        CausalGraph((), (("A", "B"),))  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="cause, effect"):
        CausalGraph.from_pairs([("A",)])  # type: ignore[list-item]


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_views(name):
    """Parents, children, roots, ancestors and descendants agree with networkx."""
    import networkx as nx

    g = FIXTURES[name]
    nxg = g.to_networkx()
    for n in g.nodes:
        assert set(g.parents(n)) == set(nxg.predecessors(n))
        assert set(g.children(n)) == set(nxg.successors(n))
        assert g.ancestors(n) == nx.ancestors(nxg, n)
        assert g.descendants(n) == nx.descendants(nxg, n)
    assert set(g.roots()) == {n for n in g.nodes if nxg.in_degree(n) == 0}


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_adjacency_round_trip(name):
    """to_adjacency puts causes in rows, and from_adjacency inverts it."""
    g = FIXTURES[name]
    a = g.to_adjacency()
    i, j = g.nodes.index(g.edges[0].source), g.nodes.index(g.edges[0].target)
    assert a[i, j] == 1 and a[j, i] == 0
    assert CausalGraph.from_adjacency(a, g.nodes).pairs == g.pairs


def test_adjacency_matches_networkx_convention():
    """The matrix equals networkx.to_numpy_array with the same node order."""
    import networkx as nx

    order = ["D", "C", "B", "A"]
    expected = nx.to_numpy_array(DIAMOND.to_networkx(), nodelist=order)
    assert np.array_equal(DIAMOND.to_adjacency(order), expected.astype(np.int8))


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_networkx_round_trip(name):
    """to_networkx / from_networkx keep nodes, edges and labels."""
    g = FIXTURES[name].with_edges([Edge(e.source, e.target, "CAUSE") for e in FIXTURES[name].edges])
    assert CausalGraph.from_networkx(g.to_networkx()) == g


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_causallearn_boundary(name):
    """The causal-learn endpoint matrix encodes i -> j as G[j,i]=1, G[i,j]=-1 and agrees with its Dag."""
    g = FIXTURES[name]
    m = g.to_causallearn_matrix()
    for e in g.edges:
        i, j = g.nodes.index(e.source), g.nodes.index(e.target)
        assert m[j, i] == 1 and m[i, j] == -1
    assert CausalGraph.from_causallearn_matrix(m, g.nodes).pairs == g.pairs
    dag = g.to_causallearn()
    assert np.array_equal(np.asarray(dag.graph), m)


def test_causallearn_rejects_two_cycles():
    """A -> B with B -> A cannot be a causal-learn matrix; the error names the pair."""
    with pytest.raises(InputFormatError, match="'A' -> 'B'"):
        CausalGraph.from_pairs([("A", "B"), ("B", "A")]).to_causallearn_matrix()


def test_order_validation():
    """A node order that misses or repeats nodes is rejected."""
    with pytest.raises(InputFormatError, match="lacks"):
        CHAIN.to_adjacency(["A", "B"])
    with pytest.raises(InputFormatError, match="repeats"):
        CHAIN.to_adjacency(["A", "B", "C", "A"])


def test_check_takes_a_causal_graph_as_a_hypothesis():
    """causalcheck.check(CausalGraph) runs the hypothesis checks (a CausalGraph is a Graph, but not one for the validator)."""
    from causalcheck import check
    from causalcheck.findings import Report

    report = check(CausalGraph.from_pairs([("a", "b"), ("b", "a")]))
    assert isinstance(report, Report)
    assert [d.code for d in report.findings] == ["cycle", "direction-contradiction"]


def test_a_causal_graph_is_the_one_graph_type_in_its_stated_form():
    """CausalGraph is a Graph: stated edges (both directions, self-loops, labels), the CausaLab dialect, ordered equality."""
    from causalcheck.graphs import CAUSALAB, EXACT, Graph, GraphEdge

    g = CausalGraph.from_pairs([("a", "b", "CAUSE"), ("b", "a"), ("c", "c")])
    assert isinstance(g, Graph) and g.stated and g.dialect is CAUSALAB and Graph.dialect is EXACT
    assert [str(e) for e in g.edges] == ["a -> b : CAUSE", "b -> a", "c -> c"]
    assert g.edges[0] == GraphEdge.directed("a", "b", "CAUSE") and g.edges[0].pair == ("a", "b")
    assert g.parents("a") == ("b",) and g.parents("c") == ("c",) and g.parents("unknown") == ()
    assert g != CausalGraph.from_pairs([("b", "a"), ("a", "b", "CAUSE"), ("c", "c")])  # stated order counts
    with pytest.raises(InputFormatError, match="join one pair"):
        g.simple()
    assert CausalGraph.from_pairs([(" Freq ", "x")], normalize=True).nodes == (FREQ, "x")
